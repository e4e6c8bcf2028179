// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the work queues of an RC QP and the data path's interface to
 * them. The data path takes work requests from the rings that posting
 * (superp_post.c) fills; completions come out in posted order; entering
 * ERR flushes what is left.
 *
 * Send queue positions (free-running u32, modulo max_wr):
 *
 *     tail <= next <= head
 *     [tail, next)  taken by the data path (or run locally), not yet
 *                   completed to the CQ
 *     [next, head)  posted, waiting for the data path
 *
 * RC completes send WRs in posted order: superp_qp_send_done() marks a WR
 * done, and completions leave from tail while the WR there is done.
 * Unsignalled WRs (sq_sig_type IB_SIGNAL_REQ_WR without IB_SEND_SIGNALED)
 * leave no completion when successful; every WR that fails or is flushed
 * completes. Local work requests (IB_WR_REG_MR, IB_WR_LOCAL_INV,
 * IB_WR_BIND_MW) are run
 * here, in RTS, once they reach next and every WR before them has
 * completed (as if fenced: a LOCAL_INV never takes a key away from a WR
 * still using it), and complete in order like the rest.
 *
 * Receive queue: [tail, head) posted; an incoming SEND takes the WR at tail
 * (superp_qp_get_recv()) and the data path completes it to the receive CQ
 * itself (in arrival order, which is posted order for RC).
 *
 * Interface for the data path (any context, holding a QP reference):
 *  - superp_qp_next_send(qp): the next send WR to run, or NULL (not RTS,
 *    nothing posted). The WQE stays in the ring while the data path runs
 *    it; after a flush or reset its slot may be reused, so the data path
 *    keeps wqe->idx and copies what it needs under its own rules.
 *    superp_qp_next_send_if(qp, match, arg) takes it only if match() says
 *    so: the packer's look at the next WR (superp_rc_pack.c).
 *  - superp_qp_send_done(qp, idx, status): the WR at idx finished; a status
 *    other than IB_WC_SUCCESS also moves the QP to ERR (RC: a failed WR
 *    breaks the QP).
 *  - superp_qp_send_rewind(qp, idx): the taken WRs from idx on go back to
 *    waiting (next = idx), to be taken again in order: a receiver not
 *    ready refused them (Documentation/superp-rc.rst). Their WQEs are
 *    still in the ring (nothing at or after idx has completed), so
 *    replaying them needs no copy; WRs before idx keep their state.
 *  - superp_qp_get_recv(qp, wqe): the receive WR for an incoming SEND,
 *    copied out (from the SRQ when the QP has one); -ENOENT means none is
 *    posted (the verbs answer: RNR).
 *
 * Locking: sq.lock guards the send ring and positions, rq.lock the receive
 * ring; both irqsave, because kernel ULPs post under irq-disabled locks of
 * their own and the data path runs in softirq. Completion handlers and
 * events are called after the queue and CQ locks are dropped
 * (superp_cq_kick()). Lock order: the top of superp_rc_bind.c.
 */
#include <kunit/visibility.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "superp.h"
#include "superp_cq.h"
#include "superp_mr.h"
#include "superp_mw.h"
#include "superp_qp.h"
#include "superp_srq.h"

size_t superp_send_wqe_size(u32 max_sge, u32 max_inline)
{
	size_t data = max_t(size_t, max_sge * sizeof(struct ib_sge), max_inline);

	return ALIGN(sizeof(struct superp_send_wqe) + data, 8);
}

size_t superp_recv_wqe_size(u32 max_sge)
{
	return struct_size((struct superp_recv_wqe *)NULL, sge, max_sge);
}
EXPORT_SYMBOL_IF_KUNIT(superp_recv_wqe_size);

int superp_wq_init(struct superp_wq *wq, u32 max_wr, size_t wqe_size)
{
	memset(wq, 0, sizeof(*wq));
	spin_lock_init(&wq->lock);
	wq->max_wr = max_wr;
	wq->wqe_size = wqe_size;
	if (!max_wr)
		return 0;
	wq->buf = kvcalloc(max_wr, wqe_size, GFP_KERNEL);
	return wq->buf ? 0 : -ENOMEM;
}

void superp_wq_free(struct superp_wq *wq)
{
	kvfree(wq->buf);
	wq->buf = NULL;
}

enum ib_wc_opcode superp_wc_opcode(u8 opcode)
{
	switch (opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
		return IB_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return IB_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return IB_WC_FETCH_ADD;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	case IB_WR_BIND_MW:
		return IB_WC_BIND_MW;
	default:
		return IB_WC_SEND;
	}
}

/* Under sq.lock: the send completion of @wqe. */
static unsigned int superp_sq_complete(struct superp_qp *qp,
				       struct superp_send_wqe *wqe,
				       enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_id = wqe->wr_id,
		.status = status,
		.opcode = superp_wc_opcode(wqe->opcode),
		.byte_len = wqe->length,
		.qp = &qp->ibqp,
	};

	return superp_cq_push(to_scq(qp->ibqp.send_cq), &wc, false);
}

/*
 * Under sq.lock: completes, in order, the done WRs at the tail. A user
 * QP's ring gets their slots back before their completions appear: a
 * process that posts again as soon as it polls a completion must find the
 * room the completion promised (the slots stay readable here until the
 * lock is dropped, as no post can reuse them before).
 */
static unsigned int superp_sq_retire(struct superp_qp *qp)
{
	struct superp_wq *sq = &qp->sq;
	unsigned int todo = 0;
	u32 pos = sq->tail;

	while (sq->tail != sq->next &&
	       ((struct superp_send_wqe *)superp_wq_at(sq, sq->tail))->done)
		sq->tail++;
	if (qp->usq.ring)
		superp_uqp_publish(&qp->usq, sq->head - sq->tail);
	for (; pos != sq->tail; pos++) {
		struct superp_send_wqe *wqe = superp_wq_at(sq, pos);

		if (wqe->signaled || wqe->status != IB_WC_SUCCESS)
			todo |= superp_sq_complete(qp, wqe, wqe->status);
	}
	return todo;
}

/* Under sq.lock: every WR not yet completed, IB_WC_WR_FLUSH_ERR, in order. */
unsigned int superp_sq_flush(struct superp_qp *qp)
{
	struct superp_wq *sq = &qp->sq;
	unsigned int todo = 0;

	for (; sq->tail != sq->head; sq->tail++)
		todo |= superp_sq_complete(qp, superp_wq_at(sq, sq->tail),
					   IB_WC_WR_FLUSH_ERR);
	sq->next = sq->head;
	if (qp->usq.ring)
		todo |= superp_uqp_sq_flush(qp);
	return todo;
}

/* Under rq.lock. */
unsigned int superp_rq_flush(struct superp_qp *qp)
{
	struct superp_wq *rq = &qp->rq;
	unsigned int todo = 0;

	for (; rq->tail != rq->head; rq->tail++) {
		struct superp_recv_wqe *wqe = superp_wq_at(rq, rq->tail);
		struct ib_wc wc = {
			.wr_id = wqe->wr_id,
			.status = IB_WC_WR_FLUSH_ERR,
			.opcode = IB_WC_RECV,
			.qp = &qp->ibqp,
		};

		todo |= superp_cq_push(to_scq(qp->ibqp.recv_cq), &wc, false);
	}
	if (qp->urq.ring)
		todo |= superp_uqp_rq_flush(qp);
	return todo;
}

/* The QP is in ERR: flush both queues (an SRQ's WRs are not the QP's). */
void superp_qp_flush(struct superp_qp *qp)
{
	unsigned int sq_todo, rq_todo = 0;
	unsigned long flags;

	spin_lock_irqsave(&qp->sq.lock, flags);
	sq_todo = superp_sq_flush(qp);
	spin_unlock_irqrestore(&qp->sq.lock, flags);
	if (!qp->ibqp.srq) {
		spin_lock_irqsave(&qp->rq.lock, flags);
		rq_todo = superp_rq_flush(qp);
		spin_unlock_irqrestore(&qp->rq.lock, flags);
	}
	superp_cq_kick(to_scq(qp->ibqp.send_cq), sq_todo);
	if (rq_todo)
		superp_cq_kick(to_scq(qp->ibqp.recv_cq), rq_todo);
}

/* Under both queue locks: RESET discards every WR, with no completion. */
void superp_qp_reset_queues(struct superp_qp *qp)
{
	qp->sq.head = 0;
	qp->sq.next = 0;
	qp->sq.tail = 0;
	qp->rq.head = 0;
	qp->rq.tail = 0;
	superp_uqp_reset(&qp->usq);
	superp_uqp_reset(&qp->urq);
}

/*
 * IB_WR_REG_MR, IB_WR_LOCAL_INV and IB_WR_BIND_MW: run here, never by the
 * data path.
 */
bool superp_wr_is_local(u8 opcode)
{
	return opcode == IB_WR_REG_MR || opcode == IB_WR_LOCAL_INV ||
	       opcode == IB_WR_BIND_MW;
}

/* Under sq.lock: runs one local WR; the status it completes with. */
static enum ib_wc_status superp_sq_exec_local(struct superp_qp *qp,
					      struct superp_send_wqe *wqe)
{
	struct superp_dev *sdev = to_sdev(qp->ibqp.device);

	if (wqe->opcode == IB_WR_REG_MR)
		return superp_mr_fast_reg(&sdev->mrs, qp->ibqp.pd,
					  wqe->reg.key, wqe->reg.access);
	if (wqe->opcode == IB_WR_BIND_MW)
		return superp_mw_bind(&sdev->mrs, qp->ibqp.pd, qp->serial,
				      &wqe->bind);
	return superp_key_invalidate(&sdev->mrs, qp->ibqp.pd, qp->serial,
				     wqe->inv.key, false);
}

/*
 * Under sq.lock, in RTS: runs the local WRs at next while nothing before
 * them is outstanding, and completes what is done. Sets *failed when one
 * of them failed (the QP must then go to ERR), and *pulled (if not NULL)
 * when it took WQEs from a user QP's ring for the data path.
 *
 * A user QP's local WRs leave its queue here, not through the data path,
 * which rechecks the ring as each WR leaves (superp_uqp_sq_recheck()):
 * with SUPERP_WQ_BUSY published the process rings no doorbell. So when
 * they empty the queue, the ring is rechecked here, and what the process
 * wrote meanwhile is taken.
 */
unsigned int superp_sq_run_local(struct superp_qp *qp, bool *failed,
				 bool *pulled)
{
	struct superp_wq *sq = &qp->sq;
	unsigned int todo = superp_sq_retire(qp);
	bool ran = false;

	while (!*failed && sq->tail == sq->next) {
		struct superp_send_wqe *wqe;

		if (sq->next == sq->head) {
			if (!ran || !qp->usq.ring || !superp_uqp_sq_recheck(qp))
				break;
			*failed = superp_uqp_sq_pull(qp);
			if (pulled)
				*pulled = true;
			ran = false;
			continue;
		}
		wqe = superp_wq_at(sq, sq->next);
		if (!superp_wr_is_local(wqe->opcode))
			break;
		wqe->status = superp_sq_exec_local(qp, wqe);
		wqe->done = true;
		if (wqe->status != IB_WC_SUCCESS)
			*failed = true;
		sq->next++;
		ran = true;
		todo |= superp_sq_retire(qp);
	}
	return todo;
}

/* Under @rq's lock: copies out the oldest receive WR; -ENOENT if none. */
int superp_recv_take(struct superp_wq *rq, struct superp_recv_wqe *wqe)
{
	struct superp_recv_wqe *w;

	if (rq->tail == rq->head)
		return -ENOENT;
	w = superp_wq_at(rq, rq->tail++);
	memcpy(wqe, w, superp_recv_wqe_size(w->num_sge));
	return 0;
}

/**
 * superp_qp_next_send_if - the next send WR for the data path to run, if
 * @match accepts it
 * @qp: the QP, held
 * @match: NULL, or whether to take this WQE (called under sq.lock, so it
 *	only looks)
 * @arg: for @match
 *
 * Any context. Local WRs on the way are run here. Return: the WQE (see
 * the top of the file for how long it may be read), or NULL when the QP is
 * not in RTS, nothing is waiting, or @match refused the next WR (which
 * stays first in line).
 */
struct superp_send_wqe *
superp_qp_next_send_if(struct superp_qp *qp,
		       bool (*match)(const struct superp_send_wqe *wqe,
				     void *arg),
		       void *arg)
{
	struct superp_send_wqe *wqe = NULL, *next;
	struct superp_wq *sq = &qp->sq;
	bool broke = false;
	unsigned int todo;
	unsigned long flags;

	spin_lock_irqsave(&sq->lock, flags);
	if (qp->state == IB_QPS_RTS) {
		/* WQEs written while SUPERP_WQ_BUSY: no doorbell brings them. */
		if (qp->usq.ring && sq->next == sq->head)
			broke = superp_uqp_sq_pull(qp);
		todo = superp_sq_run_local(qp, &broke, NULL);
		/* A local WR waits for its turn; a broken QP runs nothing. */
		next = superp_wq_at(sq, sq->next);
		if (!broke && sq->next != sq->head &&
		    !superp_wr_is_local(next->opcode) &&
		    (!match || match(next, arg))) {
			wqe = next;
			sq->next++;
		}
	} else {
		todo = superp_sq_retire(qp);
	}
	spin_unlock_irqrestore(&sq->lock, flags);
	superp_cq_kick(to_scq(qp->ibqp.send_cq), todo);
	if (broke)
		superp_qp_error(qp);
	return wqe;
}

/**
 * superp_qp_next_send - the next send WR for the data path to run
 * @qp: the QP, held
 *
 * superp_qp_next_send_if() without a condition.
 */
struct superp_send_wqe *superp_qp_next_send(struct superp_qp *qp)
{
	return superp_qp_next_send_if(qp, NULL, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(superp_qp_next_send);

/* Whether no send WR is in flight; in SQD that is the drain, noted once. */
bool superp_qp_sq_idle(struct superp_qp *qp)
{
	unsigned long flags;
	bool idle;

	spin_lock_irqsave(&qp->sq.lock, flags);
	idle = qp->sq.tail == qp->sq.next;
	if (idle && qp->state == IB_QPS_SQD) {
		idle = !qp->sq_drained;
		qp->sq_drained = true;
	}
	spin_unlock_irqrestore(&qp->sq.lock, flags);
	return idle;
}

/**
 * superp_qp_send_done - the data path finished the send WR at @idx
 * @qp: the QP, held
 * @idx: wqe->idx of the WR, as superp_qp_next_send() returned it
 * @status: IB_WC_SUCCESS, or the error the WR completes with
 *
 * Any context, no QP lock held. Completions leave in posted order; a WR
 * that a flush or reset already completed is ignored. An error moves the
 * QP to ERR; the last WR of a draining SQD raises IB_EVENT_SQ_DRAINED.
 */
void superp_qp_send_done(struct superp_qp *qp, u32 idx,
			 enum ib_wc_status status)
{
	struct superp_wq *sq = &qp->sq;
	bool drained = false, broke = false, more = false, pulled = false;
	unsigned int todo = 0;
	unsigned long flags;

	spin_lock_irqsave(&sq->lock, flags);
	if (idx - sq->tail < sq->next - sq->tail) {
		struct superp_send_wqe *wqe = superp_wq_at(sq, idx);

		wqe->status = status;
		wqe->done = true;
		if (qp->state == IB_QPS_RTS && status == IB_WC_SUCCESS)
			todo = superp_sq_run_local(qp, &broke, &pulled);
		else
			todo = superp_sq_retire(qp);
		if (qp->state == IB_QPS_SQD && sq->tail == sq->next &&
		    !qp->sq_drained) {
			qp->sq_drained = true;
			drained = qp->attr.en_sqd_async_notify;
		}
		if (qp->usq.ring)
			more = superp_uqp_sq_recheck(qp) || pulled;
	}
	spin_unlock_irqrestore(&sq->lock, flags);
	superp_cq_kick(to_scq(qp->ibqp.send_cq), todo);
	if (status != IB_WC_SUCCESS || broke)
		superp_qp_error(qp);
	else if (more)
		qp->type->kick_later(qp);
	if (drained)
		superp_qp_event(qp, IB_EVENT_SQ_DRAINED);
}
EXPORT_SYMBOL_IF_KUNIT(superp_qp_send_done);

/**
 * superp_qp_send_broke - the transport under @qp broke
 * @qp: the QP, held
 * @status: what the oldest taken WR completes with
 *
 * Any context, no QP lock held. The oldest WR taken and not done, if any,
 * completes with @status (it went out and its answer never came); the QP
 * goes to ERR, and every later WR is flushed.
 */
void superp_qp_send_broke(struct superp_qp *qp, enum ib_wc_status status)
{
	unsigned long flags;
	bool taken;
	u32 idx;

	spin_lock_irqsave(&qp->sq.lock, flags);
	idx = qp->sq.tail;
	taken = idx != qp->sq.next &&
		(qp->state == IB_QPS_RTS || qp->state == IB_QPS_SQD);
	spin_unlock_irqrestore(&qp->sq.lock, flags);
	/* superp_qp_send_done() ignores @idx if a flush came in between. */
	if (taken)
		superp_qp_send_done(qp, idx, status);
	superp_qp_error(qp);
}

/**
 * superp_qp_send_rewind - take the send WRs from @idx on again
 * @qp: the QP, held
 * @idx: wqe->idx of the first WR to replay, as superp_qp_next_send()
 *	returned it
 *
 * Any context, no QP lock held. The WRs in [@idx, next) were taken but
 * none of them is done; they wait again, and superp_qp_next_send() returns
 * them from @idx on, in posted order. Return: 0; -EINVAL when the QP is
 * not in RTS or SQD (a flush or reset took the WRs) or @idx is not a
 * taken WR; -EBUSY when one of them is done (it would run twice).
 */
int superp_qp_send_rewind(struct superp_qp *qp, u32 idx)
{
	struct superp_wq *sq = &qp->sq;
	unsigned long flags;
	int err = 0;
	u32 i;

	spin_lock_irqsave(&sq->lock, flags);
	if ((qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD) ||
	    idx - sq->tail >= sq->next - sq->tail) {
		err = -EINVAL;
		goto out;
	}
	for (i = idx; i != sq->next; i++) {
		if (((struct superp_send_wqe *)superp_wq_at(sq, i))->done) {
			err = -EBUSY;
			goto out;
		}
	}
	sq->next = idx;
out:
	spin_unlock_irqrestore(&sq->lock, flags);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(superp_qp_send_rewind);

/* A user SRQ's WQE this QP was taking was refused: it completes here. */
static void superp_qp_recv_refused(struct superp_qp *qp, u64 wr_id, u8 status)
{
	struct ib_wc wc = {
		.wr_id = wr_id,
		.status = status,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
	};

	/*
	 * No queue lock: with an SRQ the QP's own receive queue is unused,
	 * and its receive completions all come from the receive path, which
	 * the connection's lock serialises.
	 */
	superp_cq_post(to_scq(qp->ibqp.recv_cq), &wc, false);
	superp_qp_error(qp);
}

/**
 * superp_qp_get_recv_fit - take the receive WR for an incoming message of
 * @need bytes, unless it is too short
 * @qp: the QP, held
 * @wqe: room for superp_recv_wqe_size(SUPERP_MAX_SGE) bytes
 * @need: the bytes the message needs; 0: take the WR whatever its size
 *
 * Any context. With an SRQ the WR is taken whatever its size (another QP
 * may want the next). Return: 0 with *wqe filled, -ENOENT when no receive
 * is posted (RNR), -EMSGSIZE when the QP's next WR is shorter than @need
 * (it stays posted), -EINVAL when the QP does not receive in its state.
 */
int superp_qp_get_recv_fit(struct superp_qp *qp, struct superp_recv_wqe *wqe,
			   u32 need)
{
	enum ib_qp_state state = READ_ONCE(qp->state);
	struct superp_wq *rq = &qp->rq;
	bool broke = false;
	unsigned long flags;
	int err;

	if (state != IB_QPS_RTR && state != IB_QPS_RTS &&
	    state != IB_QPS_SQD && state != IB_QPS_SQE)
		return -EINVAL;
	if (qp->srq) {
		u8 status;

		err = superp_srq_get_recv(qp->srq, wqe, &status);
		if (err == -EIO) {
			superp_qp_recv_refused(qp, wqe->wr_id, status);
			err = -EINVAL;
		}
		return err;
	}

	spin_lock_irqsave(&rq->lock, flags);
	if (qp->urq.ring && rq->tail == rq->head)
		broke = superp_uring_recv_pull(&qp->urq, qp->ibqp.pd, rq);
	if (rq->tail != rq->head &&
	    ((struct superp_recv_wqe *)superp_wq_at(rq, rq->tail))->length < need)
		err = -EMSGSIZE;
	else
		err = superp_recv_take(rq, wqe);
	if (qp->urq.ring)
		superp_uqp_publish(&qp->urq, rq->head - rq->tail);
	spin_unlock_irqrestore(&rq->lock, flags);
	if (broke) {
		superp_qp_error(qp);
		if (err)
			err = -EINVAL;
	}
	return err;
}

/**
 * superp_qp_get_recv - take the receive WR for an incoming SEND
 * @qp: the QP, held
 * @wqe: room for superp_recv_wqe_size(SUPERP_MAX_SGE) bytes
 *
 * Any context. Return: 0 with *wqe filled, -ENOENT when no receive is
 * posted (RNR), -EINVAL when the QP does not receive in its state.
 */
int superp_qp_get_recv(struct superp_qp *qp, struct superp_recv_wqe *wqe)
{
	return superp_qp_get_recv_fit(qp, wqe, 0);
}
EXPORT_SYMBOL_IF_KUNIT(superp_qp_get_recv);
