// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the initiator of RC QPs (Documentation/superp-rc.rst, "Work
 * requests as transactions"). A send WR taken from the QP's queue
 * (superp_qp_next_send()) is copied into a struct superp_rc_wr and
 * submitted as the transactions superp_msg.c plans, each with its own
 * struct superp_rc_xact as the engine's cookie. Packets are built by
 * fill() from the copy and (transaction, seqno) alone, retransmissions
 * included: payload bytes of registered memory go into the skb as page
 * fragments (small ones, and inline data, are copied). The WR completes
 * (superp_qp_send_done(), which keeps posted order) when its last
 * transaction retired; an RDMA Read's transactions retire after their
 * Read Response was placed by rx(), an atomic's (one transaction of one
 * packet) after rx() placed its Atomic Response's original value, the
 * host's native u64, into the local SGE.
 *
 * Flow: a post kicks its QP (superp_rc_kick()); the kick submits while the
 * engine accepts. -EAGAIN (window full) leaves the WR as qp->rc.cur and
 * marks the entry (qps_waiting). The engine's tx_ready(), when the window
 * opens, shares it by round robin (superp_rc_kick_all()): each bound QP
 * with work submits one transaction (a packed packet is one), then the
 * next, until the engine refuses one or none has work; the QP refused
 * goes first next time. Decision: while QPs wait for the window, a kick
 * of one QP (a post, a Read's reply placed, the RNR timer) submits
 * nothing and leaves its QP to that round robin: the window is full, or
 * has just opened in the engine event whose tx_ready() is about to share
 * it, and the one QP would take every slot freed. With none waiting it
 * submits at once, taking only what nobody asked for. A QP at its
 * max_rd_atomic limit of RDMA Read and atomic transactions waits for one
 * of them to complete, a fenced transaction for the QP's earlier ones;
 * neither holds up the other QPs. Nothing polls.
 *
 * Receiver not ready (superp-rc.rst): a transaction refused RNR puts the QP
 * in an RNR wait (qp->rc.rnr): nothing more of it is submitted, the WRs
 * from the refused one on are dropped as their answers come in (none of
 * them ran at the target, which refuses everything of the QP after the
 * refusal), and once the QP has nothing in flight they are rewound in the
 * queue (superp_qp_send_rewind()); min_rnr_timer later a QP Resume goes
 * out and the WRs run again from the refused one. rnr_retry Resumes at
 * most (7: no limit), then the refused WR completes with
 * IB_WC_RNR_RETRY_EXC_ERR and the QP goes to ERR.
 *
 * Target QP absent (INVALID/NO_QP, or INVALID/QP_STATE: destroyed, not
 * yet bound at RTR, or in error): InfiniBand's responder drops such
 * requests unanswered and the requester gives up after retry_cnt
 * retransmissions, one local ACK timeout apart. Programs count on it:
 * ibv_srq_pingpong's client has sends left in flight when the server,
 * done, destroys its QPs, and it exits before they could fail. So the
 * same wait begins, without Resume or replay (a later WR may have run at
 * a target QP that came up meanwhile): (retry_cnt + 1) timeouts after
 * the last answer the refused WR completes with IB_WC_RETRY_EXC_ERR.
 *
 * Packing: an RDMA WRITE of at most SUPERP_RC_PACK_LEN bytes, when the
 * engine would start its transaction now, takes the small WRITEs queued
 * behind it in the same QP (superp_qp_next_send_if()) as the other
 * operations of its one packet, up to tal_max_ops_per_pkt, never waiting
 * for more (superp_rc_pack_*()). Each packed WR keeps its own completion:
 * a Transaction Error names the failed operation (opnum); those before it
 * ran, those after it did not (flushed, or replayed behind a refusal).
 *
 * Decisions: IB_SEND_FENCE maps to the engine's per-QP fence on
 * the WR's first transaction (a fenced WRITE may lead a pack, never
 * follow in one). A post made with interrupts disabled cannot take the
 * entry's BH lock: it queues the entry's kick work instead.
 *
 * Locking: every function here runs under the bound entry's lock
 * (superp_conn_entry.lock, BH), from the engine's callbacks or from
 * superp_rc_kick(), superp_rc_kick_work(), superp_rc_rnr_timer() and
 * superp_rc_qp_cancel(), which take it; the QP's queue and CQ locks nest
 * inside (superp_rc_bind.c has the order). A superp_rc_wr holds a QP
 * reference; its transactions, and so the entry, outlive it. The RNR
 * timer holds none: it takes the entry's lock and a reference only while
 * the QP is bound, and superp_qp_unbind() stops it before the QP goes.
 */
#include <kunit/visibility.h>
#include <linux/highmem.h>
#include <linux/net.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_msg.h"
#include "superp_op.h"
#include "superp_qp.h"
#include "superp_rc.h"
#include "superp_rc_payload.h"

/**
 * struct superp_rc_wr - a send WR being run.
 * @e: the connection it runs on.
 * @qp: its QP, held.
 * @msg: its shape (superp_msg.c).
 * @nxacts: its transactions.
 * @next_x: the next transaction to submit.
 * @pending: transactions submitted and not completed.
 * @placed: of those, RDMA Read and atomic ones whose reply is placed.
 * @dqpn: the destination QP.
 * @write_xid: XID of its last RDMA Write transaction (for Write Complete).
 * @status: enum ib_wc_status: the first failure, or success.
 * @done: its completion is posted; the WR stays until @pending is 0.
 * @wqe: the WR as posted; SGEs or inline data follow.
 */
struct superp_rc_wr {
	struct superp_conn_entry *e;
	struct superp_qp *qp;
	struct superp_msg msg;
	u32 nxacts;
	u32 next_x;
	u32 pending;
	u32 placed;
	u32 dqpn;
	u16 write_xid;
	u8 status;
	bool done;
	struct superp_send_wqe wqe;
};

/**
 * struct superp_rc_xact - one transaction of a WR: the engine's cookie.
 * @src: what the engine holds.
 * @wr: the WR (the first, when packed).
 * @mx: the transaction's part of @wr.
 * @nops: operations in its packet: 1, or the WRs packed.
 * @block: packed: the data block of each operation.
 * @err_op: the operation a Transaction Error names (its opnum).
 * @bad_err: that Transaction Error named no operation of ours.
 * @terr: a Transaction Error answered it.
 * @placed: its reply is placed and counted in wr->placed.
 * @packed: packed: the WRs of operations 1 .. @nops - 1, in posted order.
 */
struct superp_rc_xact {
	struct superp_xact_src src;
	struct superp_rc_wr *wr;
	struct superp_msg_xact mx;
	u8 nops;
	u8 err_op;
	bool bad_err;
	bool terr;
	bool placed;
	u16 block;
	struct superp_rc_wr *packed[];
};

/* The WR of operation @i of @x. */
static struct superp_rc_wr *superp_rc_xact_wr(const struct superp_rc_xact *x,
					      u8 i)
{
	return i ? x->packed[i - 1] : x->wr;
}

static const struct superp_xact_ops superp_rc_xact_ops;

/* What superp_rc_walk_wr() walks: bytes of a WR's SGEs or inline data. */
struct superp_rc_wr_range {
	struct superp_rc_wr *wr;
	u64 off;
	u32 len;
};

/*
 * Inline data lives in the WR's own copy, slab memory that may not be
 * attached as a fragment: room() counts it and the walk says "copy".
 */
static bool superp_rc_wr_inline(const struct superp_rc_wr *wr)
{
	return !wr->wqe.num_sge;
}

static int superp_rc_walk_wr(void *ctx, superp_seg_fn fn, void *arg)
{
	struct superp_rc_wr_range *r = ctx;
	struct superp_rc_wr *wr = r->wr;
	struct superp_qp *qp = wr->qp;

	if (!r->len)
		return 0;
	if (superp_rc_wr_inline(wr))
		return fn == superp_rc_piece_check ? -EPERM :
		       superp_virt_walk((uintptr_t)wr->wqe.data + r->off,
					r->len, fn, arg);
	return superp_rc_sge_walk(to_sdev(qp->ibqp.device), qp->ibqp.pd,
				  superp_send_sge(&wr->wqe), wr->wqe.num_sge,
				  r->off, r->len, fn, arg);
}

/* room(): the linear bytes superp_rc_fill() puts in packet @p. */
static unsigned int superp_rc_room(struct superp_xact_src *src,
				   const struct superp_pkt *p)
{
	struct superp_rc_xact *x = container_of(src, struct superp_rc_xact, src);
	struct superp_rc_wr *wr = x->wr;
	struct superp_msg_pkt mp;
	unsigned int room;

	if (x->nops > 1)	/* every payload copied into its block */
		return x->nops * (superp_op_hlen(SUPERP_OP_RDMA_WRITE) +
				  x->block);
	room = superp_op_hlen(x->mx.opcode);
	if (!superp_op_has_data(x->mx.opcode))
		return room;
	superp_msg_pkt(&wr->msg, &x->mx, p->seqno, &mp);
	if (superp_rc_copies(mp.len, mp.pad) || superp_rc_wr_inline(wr))
		room += mp.len + mp.pad;
	return room;
}

/*
 * fill() of a packed transaction: one RDMA WRITE header per WR, then
 * their payloads, each in a block of x->block bytes (copied: they are
 * small), all in the room superp_rc_room() asked for.
 */
static int superp_rc_fill_packed(struct superp_rc_xact *x, struct sk_buff *skb)
{
	struct superp_rc_wr_range range;
	struct superp_rc_wr *wr;
	int err;
	u8 i;

	for (i = 0; i < x->nops; i++) {
		struct superp_op op = {};

		wr = superp_rc_xact_wr(x, i);
		op.qpn = wr->dqpn;
		op.rkey = wr->wqe.rdma.rkey;
		op.addr = wr->wqe.rdma.remote_addr;
		op.pad = x->block - wr->msg.len;
		err = superp_rc_put_op(skb, SUPERP_OP_RDMA_WRITE, &op);
		if (err)
			return err;
	}
	for (i = 0; i < x->nops; i++) {
		wr = superp_rc_xact_wr(x, i);
		range.wr = wr;
		range.off = 0;
		range.len = wr->msg.len;
		err = superp_rc_skb_append(skb, range.len, x->block - range.len,
					   superp_rc_walk_wr, &range);
		if (err)
			return err;
	}
	return 0;
}

/* fill(): operation header and payload of packet @p of a transaction. */
static int superp_rc_fill(struct superp_xact_src *src,
			  const struct superp_pkt *p, struct sk_buff *skb)
{
	struct superp_rc_xact *x = container_of(src, struct superp_rc_xact, src);
	struct superp_rc_wr *wr = x->wr;
	struct superp_rc_wr_range range;
	struct superp_msg_pkt mp;
	struct superp_op op = {};
	int err;

	if (x->nops > 1)
		return superp_rc_fill_packed(x, skb);
	superp_msg_pkt(&wr->msg, &x->mx, p->seqno, &mp);
	op.qpn = wr->dqpn;
	op.pad = mp.pad;
	op.offset = mp.offset;
	switch (x->mx.opcode) {
	case SUPERP_OP_SEND_QP_IMM:
		op.imm = wr->wqe.ex.imm_data;
		break;
	case SUPERP_OP_RDMA_WRITE:
		op.rkey = wr->wqe.rdma.rkey;
		op.addr = wr->wqe.rdma.remote_addr + mp.offset;
		break;
	case SUPERP_OP_RDMA_READ:
		op.rkey = wr->wqe.rdma.rkey;
		op.addr = wr->wqe.rdma.remote_addr + x->mx.offset;
		op.length = x->mx.len;
		break;
	case SUPERP_OP_WRITE_COMPLETE:
		op.imm = wr->wqe.ex.imm_data;
		op.length = wr->msg.len;
		op.write_xid = wr->write_xid;
		break;
	case SUPERP_OP_ATOMIC_CAS:
	case SUPERP_OP_ATOMIC_FADD:
		op.rkey = wr->wqe.atomic.rkey;
		op.addr = wr->wqe.atomic.remote_addr;
		op.operand = wr->wqe.atomic.compare_add;
		op.swap = wr->wqe.atomic.swap;
		break;
	}
	err = superp_rc_put_op(skb, x->mx.opcode, &op);
	if (err)
		return err;
	if (!superp_op_has_data(x->mx.opcode))
		return 0;
	range.wr = wr;
	range.off = mp.offset;
	range.len = mp.len;
	return superp_rc_skb_append(skb, mp.len, mp.pad, superp_rc_walk_wr,
				    &range);
}

/* The WR cannot finish well: remember why and submit nothing more. */
static void superp_rc_wr_fail(struct superp_rc_wr *wr,
			      enum ib_wc_status status)
{
	if (wr->status == IB_WC_SUCCESS)
		wr->status = status;
	wr->next_x = wr->nxacts;
	if (wr->qp->rc.cur == wr)
		wr->qp->rc.cur = NULL;
}

/*
 * Whether @wr, at or after the WR refused RNR, is to run again rather than
 * complete: the target ran none of it.
 */
static bool superp_rc_wr_replays(struct superp_rc_wr *wr)
{
	struct superp_qp *qp = wr->qp;

	return wr->status == IB_WC_SUCCESS &&
	       qp->rc.rnr != SUPERP_RC_RNR_NONE &&
	       READ_ONCE(qp->conn) == wr->e &&
	       (s32)(wr->wqe.idx - qp->rc.rnr_idx) >= 0;
}

/* Completes @wr once nothing of it is left to submit or in flight. */
static void superp_rc_wr_finish(struct superp_rc_wr *wr)
{
	struct superp_qp *qp = wr->qp;

	if (wr->pending > wr->placed || wr->next_x < wr->nxacts ||
	    qp->rc.cur == wr)
		return;
	/* Cancelled: the flush or reset took the WR already. */
	if (!wr->done && !superp_rc_wr_replays(wr) && !qp->rc.cancelled) {
		if (wr->status == IB_WC_SUCCESS &&
		    READ_ONCE(qp->conn) == wr->e &&
		    qp->rc.rnr == SUPERP_RC_RNR_NONE)
			qp->rc.rnr_tries = 0;
		superp_qp_send_done(qp, wr->wqe.idx, wr->status);
	}
	wr->done = true;
	if (wr->pending)	/* placed: its transactions have yet to retire */
		return;
	superp_qp_put(qp);
	kfree(wr);
}

/* superp_seg_fn: bytes from a buffer (a u8 ** cursor) into the piece. */
static int superp_rc_seg_from_buf(void *arg, struct page *page,
				  unsigned int off, unsigned int len)
{
	const u8 **src = arg;

	memcpy_to_page(page, off, *src, len);
	*src += len;
	return 0;
}

/*
 * An Atomic Response: the original value into the local SGE (8 bytes,
 * checked at post), in the host's byte order as a verbs consumer reads it.
 */
static void superp_rc_rx_atomic(struct superp_rc_wr *wr,
				const struct superp_pkt *p,
				const struct sk_buff *skb)
{
	struct superp_qp *qp = wr->qp;
	u8 buf[sizeof(struct superp_atomic_resp_op)];
	struct superp_op op;
	const void *hdr;
	const u8 *val;
	u64 orig;

	hdr = skb_header_pointer(skb, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN,
				 sizeof(buf), buf);
	if (p->num_ops != 1 || !hdr ||
	    superp_op_decode(SUPERP_OP_ATOMIC_RESP, hdr, &op) ||
	    op.seqno || op.opnum) {
		superp_rc_wr_fail(wr, IB_WC_BAD_RESP_ERR);
		return;
	}
	orig = op.orig;
	val = (const u8 *)&orig;
	if (superp_rc_sge_walk(to_sdev(qp->ibqp.device), qp->ibqp.pd,
			       superp_send_sge(&wr->wqe), wr->wqe.num_sge, 0,
			       sizeof(orig), superp_rc_seg_from_buf, &val))
		superp_rc_wr_fail(wr, IB_WC_LOC_PROT_ERR);
}

/*
 * A Transaction Error of a packed transaction: which operation failed.
 * (Unpacked, there is only one to fail.)
 */
static void superp_rc_rx_terr(struct superp_rc_xact *x,
			      const struct sk_buff *skb)
{
	struct superp_terr_op buf;
	struct superp_op op;
	const void *hdr;

	if (x->nops == 1)
		return;
	hdr = skb_header_pointer(skb, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN,
				 sizeof(buf), &buf);
	if (!hdr || superp_op_decode(SUPERP_OP_TRANS_ERROR, hdr, &op) ||
	    op.seqno || op.opnum >= x->nops)
		x->bad_err = true;
	else
		x->err_op = op.opnum;
}

/* rx(): a reply packet: its data into the local SGEs. */
static void superp_rc_rx(struct superp_xact_src *src,
			 const struct superp_pkt *p, struct sk_buff *skb)
{
	struct superp_rc_xact *x = container_of(src, struct superp_rc_xact, src);
	struct superp_rc_wr *wr = x->wr;
	struct superp_qp *qp = wr->qp;
	struct superp_skb_src pos = { .skb = skb };
	u8 buf[SUPERP_MAX_OP_HLEN];
	struct superp_op op;
	int hlen, block;
	const void *hdr;
	u32 n;

	if (p->opcode == SUPERP_OP_ATOMIC_RESP) {
		superp_rc_rx_atomic(wr, p, skb);
		return;
	}
	if (p->opcode == SUPERP_OP_TRANS_ERROR) {
		x->terr = true;
		superp_rc_rx_terr(x, skb);	/* complete() has the code */
		return;
	}
	if (p->opcode != SUPERP_OP_READ_RESP)
		return;
	hlen = superp_op_hlen(p->opcode);
	block = superp_block_size(skb->len - SUPERP_PDL_HLEN, hlen, p->num_ops);
	hdr = skb_header_pointer(skb, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN, hlen,
				 buf);
	if (block < 0 || p->num_ops != 1 || !hdr ||
	    superp_op_decode(p->opcode, hdr, &op) || op.offset > x->mx.len) {
		superp_rc_wr_fail(wr, IB_WC_BAD_RESP_ERR);
		return;
	}
	n = min_t(u32, block, x->mx.len - op.offset);
	pos.offset = SUPERP_PDL_HLEN + superp_data_offset(hlen, 1);
	if (superp_rc_sge_walk(to_sdev(qp->ibqp.device), qp->ibqp.pd,
			       superp_send_sge(&wr->wqe), wr->wqe.num_sge,
			       x->mx.offset + op.offset, n,
			       superp_seg_from_skb, &pos))
		superp_rc_wr_fail(wr, IB_WC_LOC_PROT_ERR);
}

/**
 * superp_rc_status - a failed transaction's WR status
 * @status: the engine's negative errno
 * @err: the Transaction Error, with -EREMOTEIO
 *
 * -ECONNRESET is our own doing (hard shutdown, the connection or device
 * deleted): flushed, as a move to ERR would. Anything else broke the
 * connection under the WR (retransmission budget, transaction timeout):
 * IB_WC_RETRY_EXC_ERR, as IB's requester reports a peer that went silent.
 */
enum ib_wc_status superp_rc_status(int status, u32 err)
{
	switch (status) {
	case -EREMOTEIO:
		return superp_terr_wc_status(err);
	case -EPROTO:
		return IB_WC_BAD_RESP_ERR;
	case -ECANCELED:
	case -ECONNRESET:
		return IB_WC_WR_FLUSH_ERR;
	default:
		return IB_WC_RETRY_EXC_ERR;
	}
}

static void superp_rc_kick_locked(struct superp_conn_entry *e,
				  struct superp_qp *qp);

/*
 * min_rnr_timer's encoding (IB's enum ib_rnr_timeout): 0 is 655.36 ms,
 * 1..31 run from 0.01 to 491.52 ms. In microseconds.
 */
static const u32 superp_rc_rnr_us[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960,
	1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960,
	61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

u32 superp_rc_rnr_usecs(u8 min_rnr_timer)
{
	return superp_rc_rnr_us[min_rnr_timer & 31];
}
EXPORT_SYMBOL_IF_KUNIT(superp_rc_rnr_usecs);

/*
 * IB's local ACK timeout (4.096 us << timeout) times retry_cnt + 1, in
 * jiffies. Timeout 0 is "infinite" on IB, a hang toward a QP gone for
 * good: it waits as timeout 14 (67 ms) does, what rdma-core's examples set.
 */
static unsigned long superp_rc_absent_wait(const struct superp_qp *qp)
{
	u8 timeout = qp->attr.timeout ? min_t(u8, qp->attr.timeout, 31) : 14;

	return nsecs_to_jiffies((4096ULL << timeout) *
				(qp->attr.retry_cnt + 1)) + 1;
}

/*
 * Whether Transaction Error @err makes the WR wait rather than fail:
 * RNR, or, *@absent, a target QP that is not there.
 */
static bool superp_rc_refused(u32 err, bool *absent)
{
	*absent = err == SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_NO_QP) ||
		  err == SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_QP_STATE);
	return *absent || superp_terr_wc_status(err) == IB_WC_RNR_RETRY_EXC_ERR;
}

/*
 * A transaction of @wr was refused (RNR, or @absent): the QP waits, @wr
 * and every WR after it submit nothing more (their answers drop them).
 */
static void superp_rc_rnr_refused(struct superp_qp *qp,
				  struct superp_rc_wr *wr, bool absent)
{
	struct superp_rc_qp *rc = &qp->rc;
	struct superp_rc_wr *cur = rc->cur;

	if (rc->rnr == SUPERP_RC_RNR_NONE)
		rc->rnr_absent = false;
	if (rc->rnr == SUPERP_RC_RNR_NONE ||
	    (s32)(wr->wqe.idx - rc->rnr_idx) < 0)
		rc->rnr_idx = wr->wqe.idx;
	rc->rnr_absent |= absent;
	rc->rnr = SUPERP_RC_RNR_ANSWERS;
	wr->next_x = wr->nxacts;
	if (cur) {
		rc->cur = NULL;
		cur->next_x = cur->nxacts;
		if (cur != wr)
			superp_rc_wr_finish(cur);
	}
}

/*
 * Every transaction of @qp in its RNR wait was answered: rewind and wait
 * min_rnr_timer, or, retries spent, fail the refused WR (the QP to ERR).
 * An absent target QP: wait out IB's retransmissions, nothing rewound.
 */
static void superp_rc_rnr_answered(struct superp_qp *qp)
{
	struct superp_rc_qp *rc = &qp->rc;
	u8 retry = qp->attr.rnr_retry;
	unsigned long wait;

	if (rc->rnr_absent) {
		rc->rnr = SUPERP_RC_RNR_TIMER;
		mod_timer(&rc->rnr_timer, jiffies + superp_rc_absent_wait(qp));
		return;
	}
	if (retry != 7 && rc->rnr_tries >= retry) {
		rc->rnr = SUPERP_RC_RNR_NONE;
		rc->rnr_tries = 0;
		superp_qp_send_done(qp, rc->rnr_idx, IB_WC_RNR_RETRY_EXC_ERR);
		return;
	}
	if (superp_qp_send_rewind(qp, rc->rnr_idx)) {
		rc->rnr = SUPERP_RC_RNR_NONE;	/* flushed: nothing to replay */
		return;
	}
	rc->rnr_tries++;
	rc->rnr = SUPERP_RC_RNR_TIMER;
	wait = usecs_to_jiffies(superp_rc_rnr_usecs(qp->attr.min_rnr_timer));
	mod_timer(&rc->rnr_timer, jiffies + wait);
}

/* Transactions that max_rd_atomic bounds: those the target answers. */
static bool superp_rc_is_rd_atomic(u8 opcode)
{
	return opcode == SUPERP_OP_RDMA_READ ||
	       opcode == SUPERP_OP_ATOMIC_CAS ||
	       opcode == SUPERP_OP_ATOMIC_FADD;
}

/*
 * What transaction @x's end (@status, @err) means for the WR of its
 * operation @i. A Transaction Error names one operation: those before it
 * ran; those after it did not: they flush, or, behind a refusal (RNR, an
 * absent QP), wait with it.
 */
static void superp_rc_op_end(struct superp_rc_xact *x, u8 i, bool bound,
			     int status, u32 err)
{
	struct superp_rc_wr *wr = superp_rc_xact_wr(x, i);
	bool refused, absent;

	if (!status)
		return;
	if (status != -EREMOTEIO) {
		superp_rc_wr_fail(wr, superp_rc_status(status, err));
		return;
	}
	if (x->bad_err) {
		superp_rc_wr_fail(wr, IB_WC_BAD_RESP_ERR);
		return;
	}
	if (i < x->err_op)
		return;
	refused = bound && superp_rc_refused(err, &absent);
	if (i > x->err_op) {
		if (!refused)
			superp_rc_wr_fail(wr, IB_WC_WR_FLUSH_ERR);
		return;
	}
	if (refused)
		superp_rc_rnr_refused(wr->qp, wr, absent);
	else
		superp_rc_wr_fail(wr, superp_rc_status(status, err));
}

/*
 * placed(): an RDMA Read's data or an atomic's original value is in the
 * local SGEs. As on InfiniBand, that completes the WR (with its last
 * transaction), and the QP may start its next Read or atomic: the
 * target's ACK XID, which retires the transaction, comes a round trip
 * later. The engine delivers no reply packet of the transaction after
 * this, so the consumer may reuse the memory at once.
 */
static void superp_rc_placed(struct superp_xact_src *src)
{
	struct superp_rc_xact *x = container_of(src, struct superp_rc_xact, src);
	struct superp_rc_wr *wr = x->wr;
	struct superp_qp *qp = wr->qp;

	if (!superp_rc_is_rd_atomic(x->mx.opcode) || x->placed || x->terr ||
	    wr->status != IB_WC_SUCCESS)
		return;
	x->placed = true;
	qp->rc.rd_inflight--;
	wr->placed++;
	superp_rc_wr_finish(wr);
	if (READ_ONCE(qp->conn) == wr->e)
		superp_rc_kick_locked(wr->e, qp);
}

/* complete(): a transaction of WRs retired, failed or was aborted. */
static void superp_rc_complete(struct superp_xact_src *src, int status,
			       u32 err)
{
	struct superp_rc_xact *x = container_of(src, struct superp_rc_xact, src);
	struct superp_rc_wr *wr = x->wr;
	struct superp_conn_entry *e = wr->e;
	struct superp_qp *qp = wr->qp;
	bool read = superp_rc_is_rd_atomic(x->mx.opcode);
	bool bound = READ_ONCE(qp->conn) == e;
	u8 i;

	if (read && !x->placed)
		qp->rc.rd_inflight--;
	if (bound && qp->rc.xinflight)
		qp->rc.xinflight--;
	/* The QP may outlive its WRs only by its own reference: hold one. */
	refcount_inc(&qp->ref);
	for (i = 0; i < x->nops; i++) {
		wr = superp_rc_xact_wr(x, i);
		if (x->placed)		/* completed already (placed()) */
			wr->placed--;
		else
			superp_rc_op_end(x, i, bound, status, err);
		wr->pending--;
		superp_rc_wr_finish(wr);
	}
	kfree(x);
	if (bound && qp->rc.rnr == SUPERP_RC_RNR_ANSWERS &&
	    !qp->rc.xinflight)
		superp_rc_rnr_answered(qp);
	else if (read && bound)
		superp_rc_kick_locked(e, qp);
	superp_qp_put(qp);
}

static const struct superp_xact_ops superp_rc_xact_ops = {
	.room = superp_rc_room,
	.fill = superp_rc_fill,
	.rx = superp_rc_rx,
	.placed = superp_rc_placed,
	.complete = superp_rc_complete,
};

static u8 superp_rc_msg_kind(u8 opcode)
{
	switch (opcode) {
	case IB_WR_SEND:
		return SUPERP_MSG_SEND;
	case IB_WR_SEND_WITH_IMM:
		return SUPERP_MSG_SEND_IMM;
	case IB_WR_RDMA_WRITE:
		return SUPERP_MSG_WRITE;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return SUPERP_MSG_WRITE_IMM;
	case IB_WR_RDMA_READ:
		return SUPERP_MSG_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return SUPERP_MSG_CAS;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return SUPERP_MSG_FADD;
	}
	return U8_MAX;
}

/*
 * The next send WR of @qp, copied; NULL when there is none to run (or
 * @match, when given, refused it: superp_qp_next_send_if()).
 */
static struct superp_rc_wr *
superp_rc_wr_take(struct superp_conn_entry *e, struct superp_qp *qp,
		  bool (*match)(const struct superp_send_wqe *wqe, void *arg),
		  void *arg)
{
	struct superp_send_wqe *wqe;
	struct superp_rc_wr *wr;
	u32 idx;

	if (!refcount_inc_not_zero(&qp->ref))
		return NULL;	/* being destroyed */
	wqe = superp_qp_next_send_if(qp, match, arg);
	if (!wqe)
		goto put;
	idx = wqe->idx;
	wr = kmalloc(offsetof(struct superp_rc_wr, wqe) + qp->sq.wqe_size,
		     GFP_ATOMIC);
	if (!wr) {
		superp_qp_send_done(qp, idx, IB_WC_LOC_QP_OP_ERR);
		goto put;
	}
	/*
	 * The header, then its SGEs or inline data: one memcpy() over both
	 * is a field-spanning write to FORTIFY_SOURCE (Debian's kernels).
	 */
	wr->wqe = *wqe;
	memcpy(wr->wqe.data, wqe->data, qp->sq.wqe_size - sizeof(*wqe));
	wr->e = e;
	wr->qp = qp;
	wr->next_x = 0;
	wr->pending = 0;
	wr->placed = 0;
	wr->done = false;
	wr->write_xid = 0;
	wr->status = IB_WC_SUCCESS;
	wr->dqpn = qp->attr.dest_qp_num;
	wr->msg.kind = superp_rc_msg_kind(wr->wqe.opcode);
	wr->msg.len = wr->wqe.length;
	wr->msg.mtu = ib_mtu_enum_to_int(qp->attr.path_mtu);
	wr->msg.max_pkts = e->conn.max_pkts;
	if (wr->msg.kind == U8_MAX) {
		/* Not an operation of the wire (post_send let it through). */
		wr->nxacts = 0;
		wr->status = IB_WC_LOC_QP_OP_ERR;
	} else if (superp_msg_check(&wr->msg)) {
		wr->nxacts = 0;
		wr->status = IB_WC_LOC_LEN_ERR;
	} else {
		wr->nxacts = superp_msg_nxacts(&wr->msg);
	}
	return wr;
put:
	superp_qp_put(qp);
	return NULL;
}

/*
 * The status of a WR whose next transaction the engine would not take.
 * Out of memory is ours. A connection that broke under the QP (-ENOTCONN:
 * its pending transactions are failing, a READ's completion kicks us
 * meanwhile) flushes a WR of which nothing went out, as IB flushes the
 * WRs behind the one that failed. Anything else (soft shutdown's refusal,
 * part of the WR gone) is RETRY_EXC_ERR.
 */
static enum ib_wc_status superp_rc_refused_status(const struct superp_rc_wr *wr,
						  int err)
{
	if (err == -ENOMEM)
		return IB_WC_LOC_QP_OP_ERR;
	if (err == -ENOTCONN && !wr->next_x)
		return IB_WC_WR_FLUSH_ERR;
	return IB_WC_RETRY_EXC_ERR;
}

/* What a pack holds so far: superp_rc_pack_fits() tests one more. */
struct superp_rc_pack {
	u32 mtu;
	u32 shortest;
	u32 longest;
	u8 nops;
};

/* Payload bytes that make an RDMA WRITE small enough to pack. */
#define SUPERP_RC_PACK_LEN	256

/* The block that holds payloads of up to @longest bytes. */
static u32 superp_rc_pack_block(u32 longest)
{
	return max_t(u32, longest, SUPERP_MIN_BLOCK);
}

/*
 * Whether a WRITE of @len joins @pk: every payload's pad to the common
 * block fits the pad count (u8), and the headers and blocks take no more
 * than one operation of a full packet.
 */
static bool superp_rc_pack_fits(const struct superp_rc_pack *pk, u32 len)
{
	u32 hlen = superp_op_hlen(SUPERP_OP_RDMA_WRITE);
	u32 block = superp_rc_pack_block(max(pk->longest, len));

	return block - min(pk->shortest, len) <= U8_MAX &&
	       (pk->nops + 1) * (hlen + block) <= hlen + pk->mtu;
}

/* superp_qp_next_send_if()'s match: the next WR joins the pack. */
static bool superp_rc_pack_match(const struct superp_send_wqe *wqe, void *arg)
{
	return wqe->opcode == IB_WR_RDMA_WRITE &&
	       !(wqe->send_flags & IB_SEND_FENCE) &&
	       wqe->length <= SUPERP_RC_PACK_LEN &&
	       superp_rc_pack_fits(arg, wqe->length);
}

/* Whether @wr, about to submit transaction @mx, may lead a pack. */
static bool superp_rc_pack_leads(const struct superp_rc_wr *wr,
				 const struct superp_msg_xact *mx)
{
	return wr->msg.kind == SUPERP_MSG_WRITE && wr->nxacts == 1 &&
	       mx->npkts == 1 && wr->msg.len <= SUPERP_RC_PACK_LEN;
}

/*
 * Takes the small WRITEs queued behind @x's WR into @x, at most @max_ops
 * operations in all; sets x->nops and x->block.
 */
static void superp_rc_pack_gather(struct superp_conn_entry *e,
				  struct superp_rc_xact *x, u8 max_ops)
{
	struct superp_rc_pack pk = {
		.mtu = x->wr->msg.mtu,
		.shortest = x->wr->msg.len,
		.longest = x->wr->msg.len,
		.nops = 1,
	};
	struct superp_rc_wr *w;

	while (pk.nops < max_ops) {
		w = superp_rc_wr_take(e, x->wr->qp, superp_rc_pack_match, &pk);
		if (!w)
			break;
		if (w->nxacts != 1 || w->status != IB_WC_SUCCESS) {
			/* Not plannable after all (cannot be): it fails alone. */
			superp_rc_wr_fail(w, IB_WC_LOC_QP_OP_ERR);
			superp_rc_wr_finish(w);
			break;
		}
		x->packed[pk.nops - 1] = w;
		pk.shortest = min_t(u32, pk.shortest, w->msg.len);
		pk.longest = max_t(u32, pk.longest, w->msg.len);
		pk.nops++;
	}
	x->nops = pk.nops;
	x->block = superp_rc_pack_block(pk.longest);
}

/*
 * Submits @wr's next transaction. Return: 0; -EAGAIN when the engine
 * takes none now (its window is full: tx_ready() follows); -EBUSY when
 * the QP waits for its own transactions (max_rd_atomic: a Read's
 * completion kicks again; a fence: tx_ready() after a retirement); or an
 * error.
 */
static int superp_rc_submit(struct superp_conn_entry *e, struct superp_rc_wr *wr)
{
	struct superp_qp *qp = wr->qp;
	u8 max_ops = superp_conn_params(&e->conn)->tal_max_ops_per_pkt;
	u32 max_rd = max_t(u32, 1, qp->attr.max_rd_atomic);
	struct superp_msg_xact mx;
	struct superp_xact sx = {};
	struct superp_rc_xact *x;
	bool pack;
	u16 xid;
	int err;
	u8 i;

	superp_msg_xact(&wr->msg, wr->next_x, &mx);
	if (superp_rc_is_rd_atomic(mx.opcode) && qp->rc.rd_inflight >= max_rd)
		return -EBUSY;		/* a Read's completion kicks again */
	sx.opcode = mx.opcode;
	sx.num_ops = 1;
	sx.npkts = mx.npkts;
	sx.fence = !wr->next_x && (wr->wqe.send_flags & IB_SEND_FENCE);
	sx.qp = qp->ibqp.qp_num;
	/* Take more WRs only when they go out now: nothing waits in a pack. */
	pack = max_ops > 1 && superp_rc_pack_leads(wr, &mx) &&
	       superp_submit_ready(&e->conn, &sx);
	x = kmalloc(struct_size(x, packed, pack ? max_ops - 1 : 0),
		    GFP_ATOMIC);
	if (!x)
		return -ENOMEM;
	x->src.ops = &superp_rc_xact_ops;
	x->wr = wr;
	x->mx = mx;
	x->nops = 1;
	x->block = 0;
	x->err_op = 0;
	x->bad_err = false;
	x->terr = false;
	x->placed = false;
	if (pack)
		superp_rc_pack_gather(e, x, max_ops);
	sx.num_ops = x->nops;
	sx.cookie = &x->src;
	for (i = 0; i < x->nops; i++)
		superp_rc_xact_wr(x, i)->pending++;
	err = superp_submit(&e->conn, &sx, &xid, ktime_get_ns());
	if (err == -EAGAIN && sx.fence) {
		/* The fence holds this QP alone; a full window, every QP. */
		sx.fence = false;
		if (superp_submit_ready(&e->conn, &sx))
			err = -EBUSY;
	}
	if (err) {
		/* The companions cannot wait in a pack: they fail with @wr. */
		for (i = 0; i < x->nops; i++) {
			struct superp_rc_wr *w = superp_rc_xact_wr(x, i);

			w->pending--;
			if (!i)
				continue;
			superp_rc_wr_fail(w, superp_rc_refused_status(w, err));
			superp_rc_wr_finish(w);
		}
		kfree(x);
		return err;
	}
	qp->rc.xinflight++;
	if (superp_rc_is_rd_atomic(mx.opcode))
		qp->rc.rd_inflight++;
	for (i = 0; i < x->nops; i++) {
		struct superp_rc_wr *w = superp_rc_xact_wr(x, i);

		if (mx.opcode == SUPERP_OP_RDMA_WRITE)
			w->write_xid = xid;
		w->next_x++;
	}
	return 0;
}

/* A QP Resume: the engine's cookie. */
struct superp_rc_resume {
	struct superp_xact_src src;
	u32 dqpn;
};

static int superp_rc_resume_fill(struct superp_xact_src *src,
				 const struct superp_pkt *p,
				 struct sk_buff *skb)
{
	struct superp_rc_resume *r = container_of(src, struct superp_rc_resume,
						  src);
	struct superp_op op = { .qpn = r->dqpn };

	return superp_rc_put_op(skb, SUPERP_OP_QP_RESUME, &op);
}

/* Whatever the answer: the WRs behind it carry their own. */
static void superp_rc_resume_complete(struct superp_xact_src *src,
				      int status, u32 err)
{
	kfree(container_of(src, struct superp_rc_resume, src));
}

static const struct superp_xact_ops superp_rc_resume_ops = {
	.fill = superp_rc_resume_fill,
	.complete = superp_rc_resume_complete,
};

/* Submits @qp's QP Resume: 0, -EAGAIN (wait for tx_ready), or an error. */
static int superp_rc_resume(struct superp_conn_entry *e, struct superp_qp *qp)
{
	struct superp_rc_resume *r = kmalloc(sizeof(*r), GFP_ATOMIC);
	struct superp_xact sx = {};
	u16 xid;
	int err;

	if (!r)
		return -ENOMEM;
	r->src.ops = &superp_rc_resume_ops;
	r->dqpn = qp->attr.dest_qp_num;
	sx.opcode = SUPERP_OP_QP_RESUME;
	sx.num_ops = 1;
	sx.npkts = 1;
	sx.qp = qp->ibqp.qp_num;
	sx.cookie = &r->src;
	err = superp_submit(&e->conn, &sx, &xid, ktime_get_ns());
	if (err)
		kfree(r);
	return err;
}

/*
 * What a QP's turn on its connection did (superp_rc_turn()): nothing, as
 * the QP has nothing that may go now (no WR; an RNR wait, a fence or
 * max_rd_atomic holds it); one transaction went (a packed packet is one);
 * or the engine took nothing: its window is full, tx_ready() follows.
 */
enum superp_rc_turn {
	SUPERP_RC_TURN_IDLE,
	SUPERP_RC_TURN_WENT,
	SUPERP_RC_TURN_FULL,
};

/*
 * Under e->lock, @qp in its RNR wait: whether its WRs may be taken again
 * (the Resume went out, or the QP left RTS/SQD and its WRs are flushed).
 * *@turn becomes SUPERP_RC_TURN_WENT when the Resume went, _FULL when it
 * waits for the window.
 */
static bool superp_rc_rnr_go(struct superp_conn_entry *e,
			     struct superp_qp *qp, enum superp_rc_turn *turn)
{
	enum ib_qp_state state = READ_ONCE(qp->state);
	int err;

	if (state == IB_QPS_RTS || state == IB_QPS_SQD) {
		if (qp->rc.rnr != SUPERP_RC_RNR_RESUME)
			return false;
		err = superp_rc_resume(e, qp);
		if (err == -EAGAIN) {
			*turn = SUPERP_RC_TURN_FULL;
			return false;	/* tx_ready() kicks again */
		}
		if (err) {
			/* The rewound WRs cannot go: they flush. */
			qp->rc.rnr = SUPERP_RC_RNR_NONE;
			superp_qp_error(qp);
			return true;
		}
		*turn = SUPERP_RC_TURN_WENT;
	}
	qp->rc.rnr = SUPERP_RC_RNR_NONE;
	return true;
}

/**
 * superp_rc_rnr_timer - min_rnr_timer after an RNR wait's last answer
 * @t: the QP's rc.rnr_timer
 *
 * Timer (softirq): the QP Resume is due; it and the WRs go when the
 * connection's window allows. For an absent target QP: the refused WR
 * fails, the QP goes to ERR.
 */
void superp_rc_rnr_timer(struct timer_list *t)
{
	struct superp_qp *qp = from_timer(qp, t, rc.rnr_timer);
	struct superp_conn_entry *e;

	rcu_read_lock();
	e = READ_ONCE(qp->conn);
	if (e) {
		spin_lock_bh(&e->lock);
		if (qp->conn == e && qp->rc.rnr == SUPERP_RC_RNR_TIMER &&
		    refcount_inc_not_zero(&qp->ref)) {
			if (qp->rc.rnr_absent) {
				qp->rc.rnr = SUPERP_RC_RNR_NONE;
				qp->rc.rnr_tries = 0;
				superp_qp_send_done(qp, qp->rc.rnr_idx,
						    IB_WC_RETRY_EXC_ERR);
			} else {
				qp->rc.rnr = SUPERP_RC_RNR_RESUME;
				superp_rc_kick_locked(e, qp);
			}
			superp_qp_put(qp);
		}
		spin_unlock_bh(&e->lock);
	}
	rcu_read_unlock();
}

/*
 * Under e->lock: @qp's turn, at most one transaction of its work: its QP
 * Resume, or the next transaction of its WRs. WRs that fail or flush
 * without a transaction do not end the turn. A refusal for the window
 * sets e->qps_waiting.
 */
static enum superp_rc_turn superp_rc_turn(struct superp_conn_entry *e,
					  struct superp_qp *qp)
{
	enum superp_rc_turn turn = SUPERP_RC_TURN_IDLE;

	if (qp->rc.cancelled)
		return SUPERP_RC_TURN_IDLE;
	if (qp->rc.rnr != SUPERP_RC_RNR_NONE &&
	    (!superp_rc_rnr_go(e, qp, &turn) || turn == SUPERP_RC_TURN_WENT))
		goto out;
	for (;;) {
		struct superp_rc_wr *wr = qp->rc.cur;
		enum ib_qp_state state = READ_ONCE(qp->state);
		int err;

		if (wr && state != IB_QPS_RTS && state != IB_QPS_SQD) {
			superp_rc_wr_fail(wr, IB_WC_WR_FLUSH_ERR);
			superp_rc_wr_finish(wr);
			continue;
		}
		if (!wr) {
			wr = superp_rc_wr_take(e, qp, NULL, NULL);
			if (!wr)
				return SUPERP_RC_TURN_IDLE;
			qp->rc.cur = wr;
		}
		if (wr->next_x < wr->nxacts) {
			err = superp_rc_submit(e, wr);
			if (err == -EBUSY)
				return SUPERP_RC_TURN_IDLE;
			if (err == -EAGAIN) {
				turn = SUPERP_RC_TURN_FULL;
				goto out;
			}
			if (err)
				superp_rc_wr_fail(wr, superp_rc_refused_status(wr, err));
			else
				turn = SUPERP_RC_TURN_WENT;
		}
		if (wr->next_x >= wr->nxacts) {
			qp->rc.cur = NULL;
			superp_rc_wr_finish(wr);
		}
		if (turn == SUPERP_RC_TURN_WENT)
			return turn;
	}
out:
	if (turn == SUPERP_RC_TURN_FULL)
		e->qps_waiting = true;
	return turn;
}

/*
 * Under e->lock: submit @qp's work while the engine takes it (a post, a
 * Read's reply placed, the RNR timer). Unless QPs wait for the window:
 * then it has no room, or has just opened and tx_ready() is about to
 * share it out, and @qp takes its turns there with the others. (A
 * connection no longer up calls no tx_ready(): there, the kick goes on to
 * fail the WRs.)
 */
static void superp_rc_kick_locked(struct superp_conn_entry *e,
				  struct superp_qp *qp)
{
	if (e->qps_waiting && e->conn.state == SUPERP_ST_UP)
		return;
	while (superp_rc_turn(e, qp) == SUPERP_RC_TURN_WENT)
		;
}

/**
 * superp_rc_kick - run @qp's posted send WRs (after post_send)
 * @qp: the QP, held by the caller
 *
 * Any context; with interrupts disabled the entry's work does it.
 */
void superp_rc_kick(struct superp_qp *qp)
{
	struct superp_conn_entry *e;

	rcu_read_lock();
	e = READ_ONCE(qp->conn);
	if (e && irqs_disabled()) {
		schedule_work(&e->kick_work);
	} else if (e) {
		spin_lock_bh(&e->lock);
		if (qp->conn == e)
			superp_rc_kick_locked(e, qp);
		spin_unlock_bh(&e->lock);
	}
	rcu_read_unlock();
}

/**
 * superp_rc_kick_later - run @qp's send WRs from the connection's work
 * @qp: the QP, held by the caller
 *
 * Any context, the entry's lock held or not (a WR completing under it
 * finds more WQEs in the QP's ring).
 */
void superp_rc_kick_later(struct superp_qp *qp)
{
	struct superp_conn_entry *e;

	rcu_read_lock();
	e = READ_ONCE(qp->conn);
	if (e)
		schedule_work(&e->kick_work);
	rcu_read_unlock();
}

/*
 * Under e->lock: round robin over the bound QPs, one transaction a turn,
 * until the engine refuses one (its window is full) or none has work that
 * may go; a QP found idle sits out the later rounds (its post kicks it).
 * The QP refused goes first next time: the turns go on where they
 * stopped.
 */
static void superp_rc_kick_all(struct superp_conn_entry *e)
{
	struct superp_qp *qp;
	bool first = true, went;

	e->qps_waiting = false;
	do {
		went = false;
		list_for_each_entry(qp, &e->qps, rc.node) {
			if (!first && qp->rc.idle)
				continue;
			switch (superp_rc_turn(e, qp)) {
			case SUPERP_RC_TURN_IDLE:
				qp->rc.idle = true;
				break;
			case SUPERP_RC_TURN_WENT:
				qp->rc.idle = false;
				went = true;
				break;
			case SUPERP_RC_TURN_FULL:
				list_rotate_to_front(&qp->rc.node, &e->qps);
				return;
			}
		}
		first = false;
	} while (went);
}

/* tx_ready(): the engine takes transactions again. */
void superp_rc_tx_ready(struct superp_conn *c)
{
	superp_rc_kick_all(container_of(c, struct superp_conn_entry, conn));
}

void superp_rc_kick_work(struct work_struct *work)
{
	struct superp_conn_entry *e = container_of(work,
						   struct superp_conn_entry,
						   kick_work);

	spin_lock_bh(&e->lock);
	superp_rc_kick_all(e);
	spin_unlock_bh(&e->lock);
}

/* superp_cancel()'s match: a transaction of a WR of QP @arg. */
static bool superp_rc_cancel_match(void *cookie, void *arg)
{
	struct superp_xact_src *src = cookie;

	return src->ops == &superp_rc_xact_ops &&
	       container_of(src, struct superp_rc_xact, src)->wr->qp == arg;
}

/*
 * Under e->lock: nothing of @qp's runs any more, on this side or the
 * peer's: its transactions complete now (-ECANCELED, their WRs dropped
 * without completion: a flush or reset took them), whatever the peer does.
 */
static void superp_rc_qp_cancel_locked(struct superp_conn_entry *e,
				       struct superp_qp *qp)
{
	qp->rc.cancelled = true;
	superp_rc_qp_drop(qp);
	superp_cancel(&e->conn, superp_rc_cancel_match, qp, ktime_get_ns());
}

/*
 * Under e->lock, the QP leaving its connection: its unsubmitted WR goes.
 * A connection going away fails the transactions itself (abort, release).
 */
void superp_rc_qp_drop(struct superp_qp *qp)
{
	struct superp_rc_wr *wr = qp->rc.cur;

	qp->rc.rnr = SUPERP_RC_RNR_NONE;
	if (!wr)
		return;
	superp_rc_wr_fail(wr, IB_WC_WR_FLUSH_ERR);
	superp_rc_wr_finish(wr);
}

/**
 * superp_rc_qp_cancel - cancel @qp's transactions (destroy, ERR)
 * @qp: the QP; no spinlock held
 *
 * destroy_qp waits for the QP's last reference, which its transactions
 * hold: cancelled, they no longer wait for the peer's answer. Process
 * context.
 */
void superp_rc_qp_cancel(struct superp_qp *qp)
{
	superp_rc_qp_locked(qp, superp_rc_qp_cancel_locked);
}
