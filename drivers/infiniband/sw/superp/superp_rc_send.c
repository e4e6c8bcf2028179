// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the initiator of RC QPs (Documentation/superp-rc.rst, "Work
 * requests as transactions"). A send WR taken from the QP's queue
 * (superp_qp_next_send()) is copied into a struct superp_rc_wr and
 * submitted as the transactions superp_msg.c plans, each with its own
 * struct superp_rc_xact as the engine's cookie. This file takes the WRs,
 * submits their transactions and shares the connection's window among
 * its QPs; superp_rc_int.h names the files that do the rest.
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
 * reference; its transactions, and so the entry, outlive it.
 */
#include <linux/slab.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_msg.h"
#include "superp_op.h"
#include "superp_qp.h"
#include "superp_rc.h"
#include "superp_rc_int.h"

static u8 superp_rc_msg_kind(u8 opcode)
{
	switch (opcode) {
	case IB_WR_SEND:
		return SUPERP_MSG_SEND;
	case IB_WR_SEND_WITH_IMM:
		return SUPERP_MSG_SEND_IMM;
	case IB_WR_SEND_WITH_INV:
		return SUPERP_MSG_SEND_INV;
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
struct superp_rc_wr *
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
	wr->msg.mtu = superp_rc_seg(qp->attr.path_mtu,
				    READ_ONCE(e->sdev->ndev->mtu));
	wr->msg.max_pkts = e->conn.max_pkts;
	/* SUPERp-lite over SUNH: no short frame for the link to pad */
	wr->msg.min_len = e->addr.lite && e->addr.encap == SUPERP_ENCAP_SUNH ?
			  SUPERP_LITE_MIN_LEN : 0;
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

/*
 * Under e->lock: @qp's turn, at most one transaction of its work: its QP
 * Resume, or the next transaction of its WRs. WRs that fail or flush
 * without a transaction do not end the turn. A refusal for the window
 * sets e->rc.qps_waiting.
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
		e->rc.qps_waiting = true;
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
void superp_rc_kick_locked(struct superp_conn_entry *e,
			   struct superp_qp *qp)
{
	if (e->rc.qps_waiting && e->conn.state == SUPERP_ST_UP)
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
		schedule_work(&e->rc.kick_work);
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
		schedule_work(&e->rc.kick_work);
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

	e->rc.qps_waiting = false;
	do {
		went = false;
		list_for_each_entry(qp, &e->rc.qps, rc.node) {
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
				list_rotate_to_front(&qp->rc.node, &e->rc.qps);
				return;
			}
		}
		first = false;
	} while (went);
}

/* tx_ready(): the engine takes transactions again. */
void superp_rc_tx_ready(struct superp_conn *c)
{
	superp_rc_kick_all(superp_entry(c));
}

void superp_rc_kick_work(struct work_struct *work)
{
	struct superp_conn_entry *e = container_of(work,
						   struct superp_conn_entry,
						   rc.kick_work);

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
