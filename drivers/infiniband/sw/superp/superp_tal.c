// SPDX-License-Identifier: GPL-2.0
/*
 * SUPERp Transaction Layer: initiator and target windows, seqno and eom
 * tracking, ACK XID, replies, retirement, No-op, Last NULL, Transaction
 * Error and memory barriers. Step numbers refer to the spec's "Transaction
 * Layer" procedures.
 *
 * One file for the layer, though it runs near 1,000 lines: its procedures
 * read and write the same windows of struct superp_conn, in the order of
 * the spec's steps, and split they would each need the others' internal
 * helpers; the KUnit suites and the simulator check them step by step.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include "superp_engine_int.h"

static bool superp_tal_outstanding(const struct superp_conn *c)
{
	return c->next_ixid != c->unacked_ixid;
}

static bool superp_tal_can_submit(const struct superp_conn *c)
{
	if (c->state != SUPERP_ST_UP)
		return false;
	if ((c->flags & SUPERP_CF_BARRIER) && superp_tal_outstanding(c))
		return false;
	return xid_diff(c->next_ixid, c->unacked_ixid) < c->tal_window;
}

static void superp_tal_check_quiesce(struct superp_conn *c)
{
	u16 both = SUPERP_CF_LN_ACKED | SUPERP_CF_LN_RCVD;

	if (c->state == SUPERP_ST_SHUTDOWN && (c->flags & both) == both) {
		c->state = SUPERP_ST_QUIESCENT;
		superp_event(c, SUPERP_EV_QUIESCENT, 0);
	}
}

/* Initiator transaction retirement, steps 1-3. */
static void superp_tal_ini_retire(struct superp_conn *c, u16 xid)
{
	struct superp_ixid *e = superp_ixid(c, xid);
	u16 off = xid_diff(xid, c->unacked_ixid);
	u32 err = e->err;
	u8 flags = e->flags, opcode = e->opcode;
	void *cookie = e->cookie;
	unsigned long *ibm = superp_ibm(c);
	unsigned int n;
	int status = 0;

	memset(e, 0, sizeof(*e));				/* 1 */
	/* a fence may pass now: superp_tal_pump() calls tx_ready() */
	if (c->flags & SUPERP_CF_FENCE_WAIT) {
		c->flags &= ~SUPERP_CF_FENCE_WAIT;
		c->flags |= SUPERP_CF_INI_BLOCKED;
	}
	if (off == 0) {						/* 2 */
		n = find_next_zero_bit(ibm, c->tal_window, 1);
		superp_bm_shift(ibm, c->tal_window, n);
		c->unacked_ixid += n;
		/*
		 * Every retired XID was sent whole, but superp_tal_pick()
		 * moves its cursor past sent ones only when it runs: one
		 * left behind would find the slot's next tenant there and
		 * send that transaction's packets under the old XID.
		 */
		if (xid_before(c->send_ixid, c->unacked_ixid))
			c->send_ixid = c->unacked_ixid;
		c->cold->ixid_progress = c->cold->now;
		c->cold->probe_at = 0;
		c->cold->nprobe = 0;
	} else {						/* 3 */
		__set_bit(off, ibm);
	}
	if (flags & SUPERP_IX_INTERNAL) {
		if (opcode == SUPERP_OP_LAST_NULL) {
			c->flags |= SUPERP_CF_LN_ACKED;
			superp_tal_check_quiesce(c);
		} else if ((c->flags & SUPERP_CF_HELLO_TX) &&
			   !(flags & (SUPERP_IX_CANCELLED | SUPERP_IX_ERROR |
				      SUPERP_IX_BAD))) {
			/* the hello retired: the peer is fresh, or was at 1 */
			c->flags &= ~SUPERP_CF_HELLO_TX;
			c->flags |= SUPERP_CF_INI_BLOCKED;
		}
		return;
	}
	if (flags & SUPERP_IX_BAD) {
		status = -EPROTO;
	} else if (flags & SUPERP_IX_ERROR) {
		status = -EREMOTEIO;
		c->cold->stats.rx_trans_err++;
		if (SUPERP_TERR_MAJOR(err) == SUPERP_TERR_RNR)
			c->cold->stats.rx_rnr++;
	}
	c->ops->complete(c, cookie, status, err);
}

/*
 * An initiator transaction is finished when every request PSN is
 * acknowledged, the target acknowledged the XID, and any reply arrived: a
 * read's or an atomic's completion carries its data, so the ACK XID alone
 * does not finish it.
 */
static void superp_tal_ini_try_retire(struct superp_conn *c, u16 xid)
{
	const struct superp_ixid *e = superp_ixid(c, xid);

	if (!(e->flags & SUPERP_IX_OPEN) || !(e->flags & SUPERP_IX_ACKED))
		return;
	if (e->sent < e->npkts || e->inflight)
		return;
	if ((e->flags & (SUPERP_IX_REPLY | SUPERP_IX_ERROR | SUPERP_IX_BAD)) &&
	    !(e->flags & SUPERP_IX_RDONE))
		return;
	superp_tal_ini_retire(c, xid);
}

/*
 * Target transaction retirement, steps 1-3. The ACK carrying a new ACK
 * XID goes at once, not after the delayed ACK time: it completes the
 * peer's transaction (the latency of every verb). If it is lost, the
 * peer's probe (superp_tal_probe_timer()) draws it again.
 */
static void superp_tal_tgt_retire(struct superp_conn *c, u16 xid)
{
	struct superp_txid *t = superp_txid(c, xid);
	u16 off = xid_diff(xid, c->next_acked_txid);
	int status = t->rpl_opcode == SUPERP_OP_TRANS_ERROR ? -EREMOTEIO : 0;
	void *cookie = t->cookie;
	unsigned int n;

	memset(t, 0, sizeof(*t));				/* 1 */
	bitmap_clear(superp_seqbm(c), superp_tseq(c, xid), c->max_pkts);
	if (off == 0) {						/* 2 */
		n = find_next_zero_bit(superp_tbm(c), c->tal_window, 1);
		superp_bm_shift(superp_tbm(c), c->tal_window, n);
		superp_bm_shift(superp_cbm(c), c->tal_window, n);
		c->next_acked_txid += n;
		c->flags |= SUPERP_CF_ACK_NOW;
	} else {						/* 3 */
		__set_bit(off, superp_tbm(c));
	}
	if (c->ops->target_done)
		c->ops->target_done(c, xid, cookie, status);
}

static void superp_tal_tgt_try_retire(struct superp_conn *c, u16 xid)
{
	const struct superp_txid *t = superp_txid(c, xid);

	if (t->state == SUPERP_TX_DONE && !t->inflight)
		superp_tal_tgt_retire(c, xid);
}

/* PDL: a PSN of ours is acknowledged (cumulatively, hence delivered). */
void superp_tal_psn_acked(struct superp_conn *c, const struct superp_spsn *s)
{
	if (s->flags & SUPERP_SPSN_REPLY) {
		superp_txid(c, s->xid)->inflight--;
		superp_tal_tgt_try_retire(c, s->xid);
	} else {
		superp_ixid(c, s->xid)->inflight--;
		superp_tal_ini_try_retire(c, s->xid);
	}
}

/* ACK XID: 1 new information, 0 old, <0 out of window (event counted). */
int superp_tal_ack_xid_check(struct superp_conn *c, u16 ack_xid)
{
	u16 a = ack_xid + 1;

	if (xid_before(a, c->acked_ixid))
		return 0;
	if (xid_diff(a, c->acked_ixid) > xid_diff(c->next_ixid, c->acked_ixid)) {
		superp_event(c, SUPERP_EV_ACK_XID_OUT_OF_WINDOW, ack_xid);
		return -EINVAL;
	}
	return a != c->acked_ixid;
}

/* The target completed every XID up to @ack_xid: retire what we can. */
void superp_tal_ack_xid(struct superp_conn *c, u16 ack_xid)
{
	u16 a = ack_xid + 1, x;

	for (x = c->acked_ixid; x != a; x++) {
		superp_ixid(c, x)->flags |= SUPERP_IX_ACKED;
		superp_tal_ini_try_retire(c, x);
	}
	c->acked_ixid = a;
}

/* The whole request arrived (target step 5). */
static void superp_tal_tgt_complete(struct superp_conn *c, u16 xid, u16 off)
{
	struct superp_txid *t = superp_txid(c, xid);
	int ret = SUPERP_TGT_DONE;

	__set_bit(off, superp_cbm(c));				/* 5.a */
	t->state = SUPERP_TX_COMPLETE;
	if (t->opcode == SUPERP_OP_LAST_NULL)
		c->flags |= SUPERP_CF_LN_RCVD;
	else if (t->opcode != SUPERP_OP_NOOP)
		ret = c->ops->target_request(c, xid, t->opcode);	/* 5.b */
	if (ret == SUPERP_TGT_DONE && t->state == SUPERP_TX_COMPLETE) {
		t->state = SUPERP_TX_DONE;			/* 5.c */
		superp_tal_tgt_try_retire(c, xid);
	}
	superp_tal_check_quiesce(c);
}

/*
 * Receive processing step 3, the same for target and initiator: the eom
 * packet fixes the transaction's packet count and may come only once, and
 * no seqno may lie at or past it. Reports @dup_eom or SUPERP_EV_SEQNO_RANGE
 * and returns false, or records the seqno in the slot's bits from @seq and
 * returns true.
 */
static bool superp_tal_track_seqno(struct superp_conn *c, size_t seq,
				   u16 *num_packets, const struct superp_pkt *p,
				   enum superp_event dup_eom)
{
	if (p->eom) {
		if (*num_packets) {
			superp_event(c, dup_eom, p->seqno);
			return false;
		}
		if (find_next_bit(superp_seqbm(c), seq + c->max_pkts,
				  seq + p->seqno + 1) < seq + c->max_pkts) {
			superp_event(c, SUPERP_EV_SEQNO_RANGE, p->seqno);
			return false;
		}
		*num_packets = p->seqno + 1;
	} else if (*num_packets && p->seqno >= *num_packets) {
		superp_event(c, SUPERP_EV_SEQNO_RANGE, p->seqno);
		return false;
	}
	__set_bit(seq + p->seqno, superp_seqbm(c));
	return true;
}

static int superp_tal_queue_reply(struct superp_conn *c, u16 xid, u8 opcode,
				  u16 npkts, u8 num_ops, void *cookie, u32 err,
				  u64 now);

/*
 * A request packet at offset @off of the target window was dropped after
 * the PDL acknowledged it, so the initiator will not send it again: answer
 * the transaction with a Transaction Error rather than leave both windows
 * waiting for it. Later packets of the XID meet target receive 1.b.
 */
static void superp_tal_tgt_refuse(struct superp_conn *c, u16 xid, u16 off,
				  u32 err)
{
	struct superp_txid *t = superp_txid(c, xid);

	if (t->state > SUPERP_TX_OPEN)
		return;
	__set_bit(off, superp_cbm(c));
	t->state = SUPERP_TX_COMPLETE;
	superp_tal_queue_reply(c, xid, SUPERP_OP_TRANS_ERROR, 1, 1, NULL, err,
			       c->cold->now);
}

/* Receive target processing, steps 1-5: true when step 4 took it. */
static bool superp_tal_tgt_rx(struct superp_conn *c, const struct superp_pkt *p,
			      void *buf)
{
	const u32 bad_op = SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_OPCODE);
	const u32 bad_seq = SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_UNSPEC);
	u16 off = xid_diff(p->xid, c->next_acked_txid);
	struct superp_txid *t;
	size_t seq;

	if (off >= c->tal_window) {				/* 1.a */
		superp_event(c, SUPERP_EV_TGT_XID_OUT_OF_WINDOW, p->xid);
		return false;
	}
	if (test_bit(off, superp_cbm(c))) {			/* 1.b */
		superp_event(c, SUPERP_EV_TGT_XID_COMPLETED, p->xid);
		return false;
	}
	if (p->seqno >= c->max_pkts) {
		superp_event(c, SUPERP_EV_SEQNO_RANGE, p->seqno);
		superp_tal_tgt_refuse(c, p->xid, off, bad_seq);
		return false;
	}
	t = superp_txid(c, p->xid);
	seq = superp_tseq(c, p->xid);
	if (t->state == SUPERP_TX_CLOSED) {			/* 2.a */
		t->state = SUPERP_TX_OPEN;
		t->opcode = p->opcode;
	} else if (test_bit(seq + p->seqno, superp_seqbm(c))) {	/* 2.b */
		superp_event(c, SUPERP_EV_TGT_DUP_SEQNO, p->seqno);
		superp_tal_tgt_refuse(c, p->xid, off, bad_seq);
		return false;
	} else if (t->opcode != p->opcode) {
		superp_event(c, SUPERP_EV_BAD_OPCODE, p->opcode);
		superp_tal_tgt_refuse(c, p->xid, off, bad_op);
		return false;
	}
	if (!superp_tal_track_seqno(c, seq, &t->num_packets, p,	/* 3 */
				    SUPERP_EV_TGT_DUP_EOM)) {
		superp_tal_tgt_refuse(c, p->xid, off, bad_seq);
		return false;
	}
	t->rcvd++;
	if (c->ops->target_pkt)
		c->ops->target_pkt(c, p, buf);			/* 4 */
	if (t->num_packets && t->rcvd == t->num_packets)	/* 5 */
		superp_tal_tgt_complete(c, p->xid, off);
	return true;
}

/*
 * SUPERp-lite: the peer sends its request packets XID by XID, seqno by
 * seqno (superp_tal_pick()), and the link loses none, so each is the one
 * due. Any other means a frame was lost after all, with nothing to tell
 * the gap but this: taking the packet could run a later request before an
 * earlier one that never comes (an RC SEND in the receive of a lost one),
 * so the connection breaks instead and the packet is refused.
 */
static bool superp_tal_lite_due(struct superp_conn *c,
				const struct superp_pkt *p)
{
	struct superp_conn_cold *cold = c->cold;

	if (p->xid != cold->lite_xid || p->seqno != cold->lite_seqno) {
		superp_event(c, SUPERP_EV_LITE_GAP, p->xid);
		superp_conn_abort(c, -EPIPE);
		return false;
	}
	if (p->eom) {
		cold->lite_xid++;
		cold->lite_seqno = 0;
	} else {
		cold->lite_seqno++;
	}
	return true;
}

/*
 * The reply of an initiator transaction is complete (or refused): tell the
 * user its data is placed. The ACK that lets the target retire, and send
 * the ACK XID that retires the transaction here, goes at once unless the
 * user's completion came with placed() and the reply was one packet: then
 * it rides the next request or goes after the delayed ACK time, and a
 * stream of small READs or atomics costs two frames each, not four. At
 * once still for a longer reply (its target holds a window of reply PSNs
 * for it), a refused one and a full initiator window (which waits for this
 * retirement to send anything). Never on SUPERp-lite: its target counted
 * the reply's PSNs delivered when it sent them and retires without an ACK.
 */
static void superp_tal_ini_rdone(struct superp_conn *c, u16 xid, u32 err)
{
	struct superp_ixid *e = superp_ixid(c, xid);
	bool placed = c->ops->placed &&
		      !(e->flags & (SUPERP_IX_INTERNAL | SUPERP_IX_CANCELLED |
				    SUPERP_IX_BAD));

	if (!(c->flags & SUPERP_CF_LITE) &&
	    (!placed || err || e->rx_cnt > 1 ||
	     xid_diff(c->next_ixid, c->unacked_ixid) >= c->tal_window))
		c->flags |= SUPERP_CF_ACK_NOW;
	e->err = err;		/* in place of rx_cnt */
	e->flags |= SUPERP_IX_RDONE;
	if (placed)
		c->ops->placed(c, e->cookie);
	superp_tal_ini_try_retire(c, xid);
}

/*
 * A reply packet of an open transaction was dropped after the PDL
 * acknowledged it: the reply can never be complete, so the transaction
 * fails (-EPROTO) when the target's ACK XID covers it.
 */
static void superp_tal_ini_refuse(struct superp_conn *c, u16 xid)
{
	struct superp_ixid *e = superp_ixid(c, xid);

	if (e->flags & SUPERP_IX_RDONE)
		return;
	e->flags |= SUPERP_IX_BAD;
	superp_tal_ini_rdone(c, xid, 0);
}

/* Receive initiator processing, steps 1-5: true when step 4 took it. */
static bool superp_tal_ini_rx(struct superp_conn *c, const struct superp_pkt *p,
			      void *buf)
{
	u16 off = xid_diff(p->xid, c->unacked_ixid);
	struct superp_ixid *e;
	size_t seq;

	if (off >= xid_diff(c->next_ixid, c->unacked_ixid)) {	/* 1.a */
		superp_event(c, SUPERP_EV_INI_XID_OUT_OF_WINDOW, p->xid);
		return false;
	}
	if (test_bit(off, superp_ibm(c))) {			/* 1.b */
		superp_event(c, SUPERP_EV_INI_XID_RETIRED, p->xid);
		return false;
	}
	e = superp_ixid(c, p->xid);
	if (p->opcode == SUPERP_OP_TRANS_ERROR) {
		/*
		 * The target may refuse a request on its first packet:
		 * the rest of it is not sent (no 2.a check for an error).
		 */
		e->npkts = e->sent;
	} else if (e->sent < e->npkts) {			/* 2.a */
		superp_event(c, SUPERP_EV_INI_EARLY_REPLY, p->xid);
		superp_tal_ini_refuse(c, p->xid);
		return false;
	} else if (p->opcode != superp_opcode_reply_of(e->opcode) &&
		   !(e->flags & SUPERP_IX_CANCELLED)) {
		superp_event(c, SUPERP_EV_BAD_OPCODE, p->opcode);
		superp_tal_ini_refuse(c, p->xid);
		return false;
	}
	if (p->seqno >= c->max_pkts) {
		superp_event(c, SUPERP_EV_SEQNO_RANGE, p->seqno);
		superp_tal_ini_refuse(c, p->xid);
		return false;
	}
	seq = superp_iseq(c, p->xid);
	if (test_bit(seq + p->seqno, superp_seqbm(c))) {	/* 2.b */
		superp_event(c, SUPERP_EV_INI_DUP_SEQNO, p->seqno);
		superp_tal_ini_refuse(c, p->xid);
		return false;
	}
	if (!superp_tal_track_seqno(c, seq, &e->rx_num, p,	/* 3, 4 */
				    SUPERP_EV_INI_DUP_EOM)) {
		superp_tal_ini_refuse(c, p->xid);
		return false;
	}
	e->rx_cnt++;
	if (p->opcode == SUPERP_OP_TRANS_ERROR)
		e->flags |= SUPERP_IX_ERROR;
	if (c->ops->initiator_pkt)
		c->ops->initiator_pkt(c, p, e->cookie, buf);
	/*
	 * complete() reports the code of the packet that completed an error
	 * reply; every code of every packet went through initiator_pkt().
	 */
	if (e->rx_num && e->rx_cnt == e->rx_num)		/* 5 */
		superp_tal_ini_rdone(c, p->xid,
				     p->opcode == SUPERP_OP_TRANS_ERROR ?
				     p->err : 0);
	return true;
}

/*
 * Receiving a packet, step 2: TAL processing by opcode. An unknown opcode
 * is answered with a Transaction Error (invalid request: opcode) when its
 * XID is an open one of the target window (Documentation/wire-format.rst).
 * Returns true when the packet reached step 4 (target_pkt/initiator_pkt),
 * false when a check refused it (an event says which).
 */
bool superp_tal_rx(struct superp_conn *c, const struct superp_pkt *p,
		   void *buf)
{
	u16 off = xid_diff(p->xid, c->next_acked_txid);

	if (superp_opcode_is_reply(p->opcode))
		return superp_tal_ini_rx(c, p, buf);
	if (superp_opcode_is_request(p->opcode)) {
		if ((c->flags & SUPERP_CF_LITE) && !superp_tal_lite_due(c, p))
			return false;
		return superp_tal_tgt_rx(c, p, buf);
	}
	superp_event(c, SUPERP_EV_BAD_OPCODE, p->opcode);
	if (off < c->tal_window && !test_bit(off, superp_cbm(c)))
		superp_tal_tgt_refuse(c, p->xid, off,
				      SUPERP_TERR(SUPERP_TERR_INVALID,
						  SUPERP_TERR_OPCODE));
	return false;
}

/*
 * Why a new transaction must wait, as the connection flag that records
 * it: SUPERP_CF_BARRIER (a memory barrier: nothing new until every
 * earlier XID retired) or SUPERP_CF_INI_BLOCKED (the XID window is
 * full); 0 when it may start.
 */
static u16 superp_tal_start_wait(const struct superp_conn *c, bool barrier)
{
	if ((barrier || (c->flags & SUPERP_CF_BARRIER)) &&
	    superp_tal_outstanding(c))
		return SUPERP_CF_BARRIER;
	if (xid_diff(c->next_ixid, c->unacked_ixid) >= c->tal_window)
		return SUPERP_CF_INI_BLOCKED;
	return 0;
}

/* Initiating a new transaction, step 1 (packets go out in the pump). */
static int superp_tal_start(struct superp_conn *c, u8 opcode, u16 npkts,
			    u8 num_ops, bool barrier, void *cookie, u8 flags,
			    u16 qp, u16 *xid, u64 now)
{
	u16 wait = superp_tal_start_wait(c, barrier);
	struct superp_ixid *e;
	u16 x;

	if (wait) {
		/* a barrier stays until it passes: it holds back the rest */
		c->flags |= wait | SUPERP_CF_INI_BLOCKED;
		return -EAGAIN;
	}
	c->flags &= ~SUPERP_CF_BARRIER;
	if (!superp_tal_outstanding(c))
		c->cold->ixid_progress = now;
	if (num_ops > 1)
		c->cold->stats.tx_packed_ops += num_ops;
	x = c->next_ixid++;
	e = superp_ixid(c, x);
	memset(e, 0, sizeof(*e));
	e->cookie = cookie;
	e->npkts = npkts;
	e->opcode = opcode;
	e->num_ops = num_ops;
	e->qp = qp;
	e->flags = SUPERP_IX_OPEN | flags;
	if (superp_opcode_reply_of(opcode))
		e->flags |= SUPERP_IX_REPLY;
	bitmap_clear(superp_seqbm(c), superp_iseq(c, x), c->max_pkts);
	if (xid)
		*xid = x;
	if (!c->depth) {
		superp_conn_begin(c, now);
		superp_conn_end(c, now);
	}
	return 0;
}

/*
 * SUPERP_CONN_HELLO: the first transaction is the engine's own No-op, and
 * the users' wait (-EAGAIN, then tx_ready()) until it retires. A peer
 * that still holds a previous incarnation's state answers it with an ACK
 * of PSNs never sent, which is dropped: the hello is retransmitted until
 * the connection breaks, and nothing of ours was taken for a duplicate.
 */
static void superp_tal_hello(struct superp_conn *c, u64 now)
{
	if (!superp_tal_outstanding(c))
		superp_tal_start(c, SUPERP_OP_NOOP, 1, 0, false, NULL,
				 SUPERP_IX_INTERNAL, 0, NULL, now);
	c->flags |= SUPERP_CF_INI_BLOCKED;
}

/* Has the user's tag @qp a transaction open (cancelled ones aside)? */
static bool superp_tal_qp_open(const struct superp_conn *c, u16 qp)
{
	const struct superp_ixid *e;
	u16 x;

	for (x = c->unacked_ixid; x != c->next_ixid; x++) {
		e = superp_ixid(c, x);
		if ((e->flags & SUPERP_IX_OPEN) &&
		    !(e->flags & SUPERP_IX_INTERNAL) && e->qp == qp)
			return true;
	}
	return false;
}

/**
 * superp_submit() - event "transaction submitted".
 * @c: the connection.
 * @x: the transaction.
 * @xid: set to its XID (may be NULL).
 * @now: current time.
 *
 * A fence (@x->fence) waits for the retirement of the earlier transactions
 * of its @x->qp only, and holds back nothing else: the user keeps that QP's
 * later work behind it, other QPs go on. A barrier holds back everything.
 *
 * Return: 0; -EAGAIN when the initiator window is full or a barrier or
 * fence waits (tx_ready() follows when it may succeed); -EINVAL for a bad
 * request; -ESHUTDOWN or -ENOTCONN when the connection no longer takes any.
 */
int superp_submit(struct superp_conn *c, const struct superp_xact *x,
		  u16 *xid, u64 now)
{
	if (c->state == SUPERP_ST_BROKEN)
		return -ENOTCONN;
	if (c->state != SUPERP_ST_UP)
		return -ESHUTDOWN;
	if (!x->npkts || x->npkts > c->max_pkts ||
	    x->num_ops > superp_p(c)->tal_max_ops_per_pkt ||
	    !superp_opcode_is_request(x->opcode) ||
	    x->opcode == SUPERP_OP_LAST_NULL)
		return -EINVAL;
	if (c->flags & SUPERP_CF_HELLO_TX) {
		superp_tal_hello(c, now);
		return -EAGAIN;
	}
	if (x->fence && superp_tal_qp_open(c, x->qp)) {
		c->flags |= SUPERP_CF_FENCE_WAIT;
		return -EAGAIN;
	}
	return superp_tal_start(c, x->opcode, x->npkts, x->num_ops, x->barrier,
				x->cookie, 0, x->qp, xid, now);
}
EXPORT_SYMBOL_IF_KUNIT(superp_submit);

/**
 * superp_submit_ready() - would superp_submit() start @x now?
 * @c: the connection.
 * @x: the transaction.
 *
 * Changes nothing. A user that packs waiting operations into one
 * transaction asks first, so that it takes them only when they can go.
 *
 * Return: true when superp_submit() would return 0 for this valid @x.
 */
bool superp_submit_ready(const struct superp_conn *c,
			 const struct superp_xact *x)
{
	return c->state == SUPERP_ST_UP && !(c->flags & SUPERP_CF_HELLO_TX) &&
	       !(x->fence && superp_tal_qp_open(c, x->qp)) &&
	       !superp_tal_start_wait(c, x->barrier);
}
EXPORT_SYMBOL_IF_KUNIT(superp_submit_ready);

static int superp_tal_queue_reply(struct superp_conn *c, u16 xid, u8 opcode,
				  u16 npkts, u8 num_ops, void *cookie, u32 err,
				  u64 now)
{
	struct superp_txid *t = superp_txid(c, xid);

	if (c->state == SUPERP_ST_BROKEN)
		return -ENOTCONN;
	if (xid_diff(xid, c->next_acked_txid) >= c->tal_window ||
	    t->state != SUPERP_TX_COMPLETE)
		return -EINVAL;
	if (!npkts || npkts > c->max_pkts)
		return -EINVAL;
	if (opcode == SUPERP_OP_TRANS_ERROR) {
		c->cold->stats.tx_trans_err++;
		if (SUPERP_TERR_MAJOR(err) == SUPERP_TERR_RNR)
			c->cold->stats.tx_rnr++;
	}
	t->rpl_opcode = opcode;
	t->rpl_npkts = npkts;
	t->rpl_num_ops = num_ops;
	t->rpl_sent = 0;
	t->cookie = cookie;
	t->err = err;
	t->state = SUPERP_TX_REPLY;
	superp_rq(c)[(c->rq_head + c->rq_len) % c->tal_window] = xid;
	c->rq_len++;
	if (!c->depth) {
		superp_conn_begin(c, now);
		superp_conn_end(c, now);
	}
	return 0;
}

/**
 * superp_tal_reply() - send a reply of @npkts packets (transaction replies).
 * @c: the connection.
 * @xid: the initiator's XID, whose request is complete.
 * @opcode: reply opcode (e.g. SUPERP_OP_READ_RESP).
 * @npkts: reply packets.
 * @num_ops: operations per packet.
 * @cookie: handed back in xmit for each reply packet.
 * @now: current time.
 *
 * The target retires the XID once every reply PSN is acknowledged; until
 * then xmit may ask for any reply packet again.
 *
 * Return: 0 or -EINVAL when @xid has no complete request waiting.
 */
int superp_tal_reply(struct superp_conn *c, u16 xid, u8 opcode, u16 npkts,
		     u8 num_ops, void *cookie, u64 now)
{
	if (!superp_opcode_is_reply(opcode))
		return -EINVAL;
	return superp_tal_queue_reply(c, xid, opcode, npkts, num_ops, cookie,
				      0, now);
}
EXPORT_SYMBOL_IF_KUNIT(superp_tal_reply);

/**
 * superp_tal_error() - answer a request with a Transaction Error of one
 * packet and one operation.
 * @c: the connection.
 * @xid: the initiator's XID.
 * @err: SUPERP_TERR(major, minor), handed to xmit in the packet's err.
 * @cookie: handed to xmit, which builds the operation header from it (the
 *	failed operation's seqno and opnum); NULL: xmit builds it from @err
 *	alone (seqno and opnum 0).
 * @now: current time.
 *
 * An error per failed operation, over several packets, is a reply:
 * superp_tal_reply(c, xid, SUPERP_OP_TRANS_ERROR, npkts, num_ops, cookie,
 * now), whose operations xmit builds from the cookie.
 *
 * Return: 0 or -EINVAL.
 */
int superp_tal_error(struct superp_conn *c, u16 xid, u32 err, void *cookie,
		     u64 now)
{
	return superp_tal_queue_reply(c, xid, SUPERP_OP_TRANS_ERROR, 1, 1,
				      cookie, err, now);
}
EXPORT_SYMBOL_IF_KUNIT(superp_tal_error);

/**
 * superp_tal_done() - a request that needs no reply is finished.
 * @c: the connection.
 * @xid: the initiator's XID.
 * @now: current time.
 *
 * Return: 0 or -EINVAL.
 */
int superp_tal_done(struct superp_conn *c, u16 xid, u64 now)
{
	struct superp_txid *t = superp_txid(c, xid);

	if (xid_diff(xid, c->next_acked_txid) >= c->tal_window ||
	    t->state != SUPERP_TX_COMPLETE)
		return -EINVAL;
	t->state = SUPERP_TX_DONE;
	superp_tal_tgt_try_retire(c, xid);
	if (!c->depth) {
		superp_conn_begin(c, now);
		superp_conn_end(c, now);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_tal_done);

/**
 * superp_cancel() - forget the cookies of pending transactions, e.g. of a
 * QP being destroyed, so that none is handed out again.
 * @c: the connection.
 * @match: true for a cookie to cancel (called under the caller's lock).
 * @arg: passed to @match.
 * @now: current time.
 *
 * Each open initiator transaction whose cookie matches completes at once
 * with -ECANCELED and is never reported again. Its XID still has to reach
 * the target (XIDs retire in order): what was sent is retransmitted as
 * headers-only No-op packets (SUPERP_PKT_CANCELLED, cookie NULL); a
 * transaction not yet started goes as a No-op; one partly sent ends with a
 * No-op eom packet. The target then runs none of it, or refuses the mixed
 * opcodes with a Transaction Error, so that it never executes half a
 * request. Its retirement waits only for the ACK XID (a reply may not
 * come); a reply packet that still comes reaches initiator_pkt() with a
 * NULL cookie (data to drop), and nothing else is reported.
 *
 * Return: the number of transactions cancelled.
 */
unsigned int superp_cancel(struct superp_conn *c,
			   bool (*match)(void *cookie, void *arg), void *arg,
			   u64 now)
{
	unsigned int n = 0;
	struct superp_ixid *e;
	void *cookie;
	u16 x;

	if (c->state == SUPERP_ST_BROKEN)
		return 0;
	for (x = c->unacked_ixid; x != c->next_ixid; x++) {
		e = superp_ixid(c, x);
		if (!(e->flags & SUPERP_IX_OPEN) ||
		    (e->flags & (SUPERP_IX_INTERNAL | SUPERP_IX_CANCELLED)) ||
		    !match(e->cookie, arg))
			continue;
		cookie = e->cookie;
		e->cookie = NULL;
		e->flags |= SUPERP_IX_CANCELLED | SUPERP_IX_INTERNAL;
		e->flags &= ~SUPERP_IX_REPLY;
		e->num_ops = 0;
		if (e->sent < e->npkts) {
			e->opcode = SUPERP_OP_NOOP;
			e->npkts = e->sent + 1;
		}
		n++;
		c->ops->complete(c, cookie, -ECANCELED, 0);
	}
	if (n && !c->depth) {
		superp_conn_begin(c, now);
		superp_conn_end(c, now);
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(superp_cancel);

/**
 * superp_conn_shutdown() - soft shutdown: refuse new transactions and send
 * Last NULL; SUPERP_EV_QUIESCENT follows when both Last NULLs retired.
 * @c: the connection.
 * @now: current time.
 *
 * Return: 0 or -EINVAL when the connection is not up.
 */
int superp_conn_shutdown(struct superp_conn *c, u64 now)
{
	if (c->state != SUPERP_ST_UP)
		return -EINVAL;
	superp_conn_begin(c, now);
	c->state = SUPERP_ST_SHUTDOWN;
	c->flags |= SUPERP_CF_LN_PENDING;
	superp_conn_end(c, now);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_shutdown);

/*
 * Which transaction sends the next request packet: a fair share of the PDL
 * window among the QPs (the users' tags) of the connection. Within a tag,
 * XID order (a QP's requests complete at the target in the order posted);
 * across tags, the oldest unsent transaction of a tag other than the last
 * one served, so that a QP's long write takes turns with another QP's
 * short send instead of going first. Tags are told apart by a 64-bit hash
 * mask: a collision only makes the pick fall back to XID order.
 */
static struct superp_ixid *superp_tal_pick(struct superp_conn *c, u16 *xid)
{
	struct superp_ixid *e, *first = NULL;
	u16 x, first_x = 0;
	u64 seen = 0, bit;

	for (; c->send_ixid != c->next_ixid; c->send_ixid++) {
		e = superp_ixid(c, c->send_ixid);
		if (e->sent < e->npkts)
			break;
	}
	/* SUPERp-lite: XID order, the peer's only sign of a lost frame */
	if ((c->flags & SUPERP_CF_LITE) && c->send_ixid != c->next_ixid) {
		*xid = c->send_ixid;
		return superp_ixid(c, c->send_ixid);
	}
	for (x = c->send_ixid; x != c->next_ixid; x++) {
		e = superp_ixid(c, x);
		if (e->sent >= e->npkts)
			continue;
		bit = 1ULL << (e->qp & 63);
		if (!first) {
			first = e;
			first_x = x;
		}
		if (e->qp != c->cold->last_qp && !(seen & bit)) {
			*xid = x;
			return e;
		}
		seen |= bit;
	}
	*xid = first_x;
	return first;
}

/* Initiating a new transaction, steps 2-4: the next request packet. */
static bool superp_tal_send_request(struct superp_conn *c, u64 now)
{
	struct superp_pkt p = { 0 };
	struct superp_ixid *e;
	u16 x;

	e = superp_tal_pick(c, &x);
	if (!e)
		return false;
	c->cold->last_qp = e->qp;
	p.xid = x;
	p.seqno = e->sent;
	p.opcode = e->opcode;
	p.num_ops = e->num_ops;
	p.eom = e->sent + 1 == e->npkts;
	if (e->flags & SUPERP_IX_CANCELLED)
		p.flags = SUPERP_PKT_CANCELLED;
	e->sent++;
	e->inflight++;
	superp_pdl_send(c, &p, e->cookie, now);
	return true;
}

/* Transaction replies, steps 1-3: the next reply packet. */
static bool superp_tal_send_reply(struct superp_conn *c, u64 now)
{
	struct superp_pkt p = { .flags = SUPERP_PKT_REPLY };
	struct superp_txid *t;

	if (!c->rq_len)
		return false;
	p.xid = superp_rq(c)[c->rq_head];
	t = superp_txid(c, p.xid);
	p.seqno = t->rpl_sent;
	p.opcode = t->rpl_opcode;
	p.num_ops = t->rpl_num_ops;
	p.err = t->err;
	p.eom = t->rpl_sent + 1 == t->rpl_npkts;
	t->rpl_sent++;
	t->inflight++;
	if (p.eom) {
		t->state = SUPERP_TX_DONE;
		c->rq_head = (c->rq_head + 1) % c->tal_window;
		c->rq_len--;
	}
	superp_pdl_send(c, &p, t->cookie, now);
	return true;
}

/**
 * superp_tal_pump() - send what the windows allow, then ACKs.
 * @c: the connection.
 * @now: current time.
 *
 * Requests and replies take turns for PDL slots. A pure ACK goes out only
 * when no data packet carried the acknowledgment.
 */
void superp_tal_pump(struct superp_conn *c, u64 now)
{
	int rounds = 4;
	bool reply;

again:
	superp_pdl_resend_unsent(c, now);
	if ((c->flags & SUPERP_CF_LN_PENDING) &&
	    xid_diff(c->next_ixid, c->unacked_ixid) < c->tal_window &&
	    !superp_tal_start(c, SUPERP_OP_LAST_NULL, 1, 0, false, NULL,
			      SUPERP_IX_INTERNAL, 0, NULL, now))
		c->flags &= ~SUPERP_CF_LN_PENDING;
	while (superp_pdl_can_send(c)) {
		reply = c->flags & SUPERP_CF_REPLY_TURN;
		if (reply && superp_tal_send_reply(c, now))
			c->flags &= ~SUPERP_CF_REPLY_TURN;
		else if (superp_tal_send_request(c, now))
			c->flags |= SUPERP_CF_REPLY_TURN;
		else if (!reply && superp_tal_send_reply(c, now))
			;
		else
			break;
	}
	if (!(c->flags & SUPERP_CF_ACK_NOW) && !c->dack_at &&
	    superp_pdl_ack_due(c))
		c->dack_at = now + superp_p(c)->pdl_delayed_ack_time *
				   SUPERP_NSEC_PER_USEC;
	if ((c->flags & SUPERP_CF_ACK_NOW) &&
	    !(c->flags & (SUPERP_CF_TX_BUSY | SUPERP_CF_ACK_HOLD)))
		superp_pdl_pure_ack(c, now);
	if ((c->flags & SUPERP_CF_INI_BLOCKED) && superp_tal_can_submit(c) &&
	    c->ops->tx_ready && rounds--) {
		c->flags &= ~SUPERP_CF_INI_BLOCKED;
		c->ops->tx_ready(c);
		goto again;
	}
}

/*
 * ACK XID probe. An ACK XID advance that rides a pure ACK is lost with it,
 * and then nothing sends it again: every PSN is acknowledged, no timer
 * runs, and the initiator waits for good. So the side that waits asks:
 * when the oldest transaction's request is acknowledged at the PDL (and
 * any reply arrived) but its XID is not, and no PSN is in flight (a
 * retransmission would draw an ACK by itself), a probe goes out after an
 * RTO, backed off like retransmissions, until the ACK XID arrives or
 * tal_transaction_timeout ends the connection.
 */
static bool superp_tal_waits_ack_xid(const struct superp_conn *c)
{
	const struct superp_ixid *e = superp_ixid(c, c->unacked_ixid);

	if (!superp_tal_outstanding(c) || c->next_spsn != c->unacked_spsn ||
	    !(e->flags & SUPERP_IX_OPEN) || (e->flags & SUPERP_IX_ACKED) ||
	    e->sent < e->npkts || e->inflight)
		return false;
	return !(e->flags & SUPERP_IX_REPLY) || (e->flags & SUPERP_IX_RDONE);
}

static u64 superp_tal_probe_rto(const struct superp_conn *c)
{
	u64 rto = superp_p(c)->pdl_retrans_time_out * SUPERP_NSEC_PER_USEC;

	return rto << c->cold->nprobe;
}

/* Deadline of the next ACK XID probe, 0 when none is due. */
u64 superp_tal_probe_deadline(struct superp_conn *c)
{
	struct superp_conn_cold *cold = c->cold;

	/*
	 * A probe is a PDL duplicate; SUPERp-lite has none, and its lost
	 * ACK XID ends in tal_transaction_timeout instead.
	 */
	if (c->state == SUPERP_ST_BROKEN || (c->flags & SUPERP_CF_LITE) ||
	    !superp_tal_waits_ack_xid(c)) {
		cold->probe_at = 0;
		return 0;
	}
	if (!cold->probe_at)
		cold->probe_at = cold->now + superp_tal_probe_rto(c);
	return cold->probe_at;
}

void superp_tal_probe_timer(struct superp_conn *c, u64 now)
{
	struct superp_conn_cold *cold = c->cold;

	if (!cold->probe_at || now < cold->probe_at ||
	    !superp_tal_waits_ack_xid(c) || (c->flags & SUPERP_CF_TX_BUSY))
		return;
	superp_pdl_probe(c, now);
	if (cold->nprobe < 6)
		cold->nprobe++;
	cold->probe_at = now + superp_tal_probe_rto(c);
}

/*
 * Hard shutdown: every pending initiator transaction fails, and the user
 * drops what it holds for open target transactions.
 */
void superp_tal_fail_all(struct superp_conn *c, int reason)
{
	struct superp_ixid *e;
	struct superp_txid *t;
	u8 flags;
	u16 x;

	for (x = c->next_acked_txid;
	     x != (u16)(c->next_acked_txid + c->tal_window); x++) {
		t = superp_txid(c, x);
		if (t->state == SUPERP_TX_CLOSED)
			continue;
		t->state = SUPERP_TX_CLOSED;
		if (c->ops->target_done)
			c->ops->target_done(c, x, t->cookie, reason);
	}

	for (x = c->unacked_ixid; x != c->next_ixid; x++) {
		e = superp_ixid(c, x);
		if (!(e->flags & SUPERP_IX_OPEN))
			continue;
		flags = e->flags;
		e->flags = 0;
		if (!(flags & SUPERP_IX_INTERNAL))
			c->ops->complete(c, e->cookie, reason, 0);
	}
	c->unacked_ixid = c->next_ixid;
	c->send_ixid = c->next_ixid;
	c->rq_len = 0;
}
