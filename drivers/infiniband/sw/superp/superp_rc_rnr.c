// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the RC initiator's waits for a target that refused its
 * requests: receiver not ready, ended by a QP Resume, and a target QP
 * that is not there.
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
 * Locking: every function here runs under the bound entry's lock
 * (superp_conn_entry.lock, BH), from the engine's callbacks, from the
 * initiator's kicks (superp_rc_send.c) or from superp_rc_rnr_timer(),
 * which takes it; superp_rc_bind.c has the lock order. The RNR timer
 * holds no QP reference: it takes the entry's lock and a reference only
 * while the QP is bound, and superp_rc_qp_unbind() stops it before the QP
 * goes.
 */
#include <kunit/visibility.h>
#include <linux/slab.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_op.h"
#include "superp_qp.h"
#include "superp_rc_int.h"
#include "superp_rc_payload.h"

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
bool superp_rc_refused(u32 err, bool *absent)
{
	*absent = err == SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_NO_QP) ||
		  err == SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_QP_STATE);
	return *absent || superp_terr_wc_status(err) == IB_WC_RNR_RETRY_EXC_ERR;
}

/*
 * A transaction of @wr was refused (RNR, or @absent): the QP waits, @wr
 * and every WR after it submit nothing more (their answers drop them).
 */
void superp_rc_rnr_refused(struct superp_qp *qp,
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
void superp_rc_rnr_answered(struct superp_qp *qp)
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
 * Under e->lock, @qp in its RNR wait: whether its WRs may be taken again
 * (the Resume went out, or the QP left RTS/SQD and its WRs are flushed).
 * *@turn becomes SUPERP_RC_TURN_WENT when the Resume went, _FULL when it
 * waits for the window.
 */
bool superp_rc_rnr_go(struct superp_conn_entry *e,
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
