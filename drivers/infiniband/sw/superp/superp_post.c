// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: posting work requests to an RC QP. post_send and post_recv
 * copy and validate work requests into rings in kernel memory
 * (superp_queue.c), from which the data path takes them.
 *
 * A user QP takes no work request lists (ib_uverbs_post_send/recv): their
 * SGE addresses and inline data would be user addresses; its WQEs come
 * through the rings of superp_uqp.c, copied into these queues under the
 * queue's lock: send WQEs at the doorbell (post_send with no list),
 * receive WQEs when superp_qp_get_recv() finds none queued.
 *
 * Keys in SGEs are checked at post time (PD, local write access for what
 * the device writes, bounds); the data path looks them up again when it
 * uses them, since a key may be invalidated in between.
 *
 * Locking: post_send fills the send ring under sq.lock, post_recv the
 * receive ring under rq.lock, irqsave (superp_queue.c says why and what
 * they guard); superp_send_wqe_fill() and superp_recv_post() run under
 * the lock of the queue they fill, which their caller holds (an SRQ's
 * for superp_srq.c). Completions are kicked after it is dropped.
 * Lock order: the top of superp_rc_bind.c.
 */
#include <linux/overflow.h>

#include "superp.h"
#include "superp_ah.h"
#include "superp_cq.h"
#include "superp_mr.h"
#include "superp_qp.h"

/*
 * The SGE names memory the QP's PD may use, within its MR, writable
 * locally when the device writes it. Zero-length SGEs touch nothing.
 */
static int superp_sge_check(struct ib_pd *pd, const struct ib_sge *sge,
			    bool write)
{
	struct superp_dev *sdev = to_sdev(pd->device);
	struct superp_mr *mr;
	int err = 0;

	if (!sge->length || superp_lkey_is_local_dma(pd, sge->lkey))
		return 0;
	mr = superp_mr_get(&sdev->mrs, sge->lkey);
	if (!mr) {
		ibdev_dbg(&sdev->ibdev, "post: unknown lkey 0x%x\n", sge->lkey);
		return -EINVAL;
	}
	if (mr->pd != pd) {
		ibdev_dbg(&sdev->ibdev, "post: lkey 0x%x of another PD\n",
			  sge->lkey);
		err = -EINVAL;
	} else if (write && !(mr->access & IB_ACCESS_LOCAL_WRITE)) {
		ibdev_dbg(&sdev->ibdev, "post: lkey 0x%x without local write\n",
			  sge->lkey);
		err = -EINVAL;
	} else if (sge->addr < mr->iova || sge->length > mr->length ||
		   sge->addr - mr->iova > mr->length - sge->length) {
		ibdev_dbg(&sdev->ibdev, "post: SGE outside lkey 0x%x\n",
			  sge->lkey);
		err = -EINVAL;
	}
	superp_mr_put(mr);
	return err;
}

/* Copies and checks @n SGEs into @dst; the total length into *len. */
static int superp_sges_copy(struct ib_pd *pd, struct ib_sge *dst,
			    const struct ib_sge *src, int n, bool write,
			    u32 *len)
{
	u32 total = 0;
	int i, err;

	for (i = 0; i < n; i++) {
		err = superp_sge_check(pd, &src[i], write);
		if (err)
			return err;
		if (check_add_overflow(total, src[i].length, &total) ||
		    total > SUPERP_MAX_MSG_SIZE)
			return -EINVAL;
		dst[i] = src[i];
	}
	*len = total;
	return 0;
}

/* Inline data: kernel virtual addresses, copied now; no key is involved. */
static int superp_inline_copy(struct superp_qp *qp,
			      struct superp_send_wqe *wqe,
			      const struct ib_send_wr *wr)
{
	u8 *dst = (u8 *)wqe->data;
	u32 total = 0;
	int i;

	for (i = 0; i < wr->num_sge; i++) {
		const struct ib_sge *sge = &wr->sg_list[i];

		if (sge->length > qp->sq.max_inline - total)
			return -EINVAL;
		memcpy(dst + total, (void *)(uintptr_t)sge->addr, sge->length);
		total += sge->length;
	}
	wqe->num_sge = 0;
	wqe->length = total;
	return 0;
}

#define SUPERP_SEND_FLAGS (IB_SEND_FENCE | IB_SEND_SIGNALED | \
			   IB_SEND_SOLICITED | IB_SEND_INLINE)

int superp_send_wqe_fill(struct superp_qp *qp, const struct ib_send_wr *wr,
			 struct superp_send_wqe *wqe)
{
	struct ib_device *ibdev = qp->ibqp.device;
	bool inline_ok = false, write = false;

	if (wr->send_flags & ~SUPERP_SEND_FLAGS)
		return -EINVAL;
	memset(wqe, 0, sizeof(*wqe));
	switch (wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
		wqe->ex.imm_data = wr->ex.imm_data;
		inline_ok = true;
		break;
	case IB_WR_SEND_WITH_INV:
		/* RC only (below): the target's key is the peer's to judge. */
		wqe->ex.invalidate_rkey = wr->ex.invalidate_rkey;
		fallthrough;
	case IB_WR_SEND:
		inline_ok = true;
		break;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		wqe->ex.imm_data = wr->ex.imm_data;
		fallthrough;
	case IB_WR_RDMA_WRITE:
		inline_ok = true;
		fallthrough;
	case IB_WR_RDMA_READ:
		write = wr->opcode == IB_WR_RDMA_READ;
		wqe->rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->rdma.rkey = rdma_wr(wr)->rkey;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		/*
		 * The original value needs 8 local bytes. The remote address
		 * is the target's to judge: misaligned is INVALID/ALIGN there,
		 * IB_WC_REM_INV_REQ_ERR here, as on InfiniBand.
		 */
		if (wr->num_sge != 1 || wr->sg_list[0].length != 8)
			return -EINVAL;
		write = true;
		wqe->atomic.remote_addr = atomic_wr(wr)->remote_addr;
		wqe->atomic.compare_add = atomic_wr(wr)->compare_add;
		wqe->atomic.swap = atomic_wr(wr)->swap;
		wqe->atomic.rkey = atomic_wr(wr)->rkey;
		break;
	case IB_WR_REG_MR:
		if (superp_mr_check_reg_wr(qp->ibqp.pd, reg_wr(wr))) {
			ibdev_dbg(ibdev, "post_send: bad REG_MR\n");
			return -EINVAL;
		}
		wqe->reg.key = reg_wr(wr)->key;
		wqe->reg.access = reg_wr(wr)->access;
		break;
	case IB_WR_LOCAL_INV:
		wqe->inv.key = wr->ex.invalidate_rkey;
		break;
	default:
		ibdev_dbg(ibdev, "post_send: opcode %d not supported\n",
			  wr->opcode);
		return -EINVAL;
	}

	if (qp->ibqp.qp_type != IB_QPT_RC) {
		/* UD and GSI: sends only, each to the address of its AH. */
		if ((wr->opcode != IB_WR_SEND &&
		     wr->opcode != IB_WR_SEND_WITH_IMM) || !ud_wr(wr)->ah) {
			ibdev_dbg(ibdev, "post_send: a UD QP sends to an AH only\n");
			return -EINVAL;
		}
		wqe->ud.av = to_sah(ud_wr(wr)->ah)->av;
		wqe->ud.remote_qpn = ud_wr(wr)->remote_qpn & SUPERP_QPN_MASK;
		wqe->ud.remote_qkey = ud_wr(wr)->remote_qkey;
	}
	wqe->wr_id = wr->wr_id;
	wqe->opcode = wr->opcode;
	wqe->send_flags = wr->send_flags;
	wqe->signaled = qp->sig_all || (wr->send_flags & IB_SEND_SIGNALED);
	/* Local WRs carry no data segments. */
	if (superp_wr_is_local(wr->opcode))
		return 0;
	if (wr->num_sge < 0)
		return -EINVAL;
	if (wr->send_flags & IB_SEND_INLINE) {
		if (!inline_ok)
			return -EINVAL;
		return superp_inline_copy(qp, wqe, wr);
	}
	if (wr->num_sge > qp->sq.max_sge)
		return -EINVAL;
	wqe->num_sge = wr->num_sge;
	return superp_sges_copy(qp->ibqp.pd, superp_send_sge(wqe), wr->sg_list,
				wr->num_sge, write, &wqe->length);
}

/**
 * superp_send_wqe_fill_bind - a bind of a memory window into @wqe
 * @qp: the QP, its sq.lock held
 * @wr: wr_id, opcode IB_WR_BIND_MW and send_flags
 * @b: the bind
 * @wqe: filled in
 *
 * Binds come from user rings only: a kernel consumer has no bind work
 * request, and superp_send_wqe_fill() refuses the opcode. The bind itself
 * is checked when it runs (superp_mw_bind()). Return: 0 or -EINVAL.
 */
int superp_send_wqe_fill_bind(struct superp_qp *qp,
			      const struct ib_send_wr *wr,
			      const struct superp_mw_bind *b,
			      struct superp_send_wqe *wqe)
{
	if (qp->ibqp.qp_type != IB_QPT_RC || wr->opcode != IB_WR_BIND_MW ||
	    wr->send_flags & ~(IB_SEND_FENCE | IB_SEND_SIGNALED))
		return -EINVAL;
	memset(wqe, 0, sizeof(*wqe));
	wqe->bind = *b;
	wqe->wr_id = wr->wr_id;
	wqe->opcode = wr->opcode;
	wqe->send_flags = wr->send_flags;
	wqe->signaled = qp->sig_all || (wr->send_flags & IB_SEND_SIGNALED);
	return 0;
}

int superp_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		     const struct ib_send_wr **bad_wr)
{
	struct superp_qp *qp = to_sqp(ibqp);
	struct superp_wq *sq = &qp->sq;
	enum ib_qp_state state;
	unsigned int todo = 0;
	unsigned long flags;
	bool broke = false;
	int err = 0;

	if (ibqp->uobject && wr) {
		*bad_wr = wr;
		return -EINVAL;	/* user QPs post through their rings */
	}
	/* A user QP's doorbell (no list) takes what its ring holds. */
	spin_lock_irqsave(&sq->lock, flags);
	state = qp->state;
	if (state == IB_QPS_RESET || state == IB_QPS_INIT ||
	    state == IB_QPS_RTR) {
		spin_unlock_irqrestore(&sq->lock, flags);
		ibdev_dbg(ibqp->device, "post_send: QP %u not ready to send\n",
			  ibqp->qp_num);
		*bad_wr = wr;
		return -EINVAL;
	}
	if (ibqp->uobject)
		atomic64_inc(&to_sdev(ibqp->device)->sq_doorbells);
	if (ibqp->uobject && (state == IB_QPS_RTS || state == IB_QPS_SQD))
		broke = superp_uqp_sq_pull(qp);
	for (; wr; wr = wr->next) {
		struct superp_send_wqe *wqe;

		if (sq->head - sq->tail == sq->max_wr) {
			err = -ENOMEM;
			break;
		}
		wqe = superp_wq_at(sq, sq->head);
		err = superp_send_wqe_fill(qp, wr, wqe);
		if (err)
			break;
		wqe->idx = sq->head++;
	}
	if (err)
		*bad_wr = wr;
	if (state == IB_QPS_ERR || state == IB_QPS_SQE)
		todo = superp_sq_flush(qp);
	else if (state == IB_QPS_RTS)
		todo = superp_sq_run_local(qp, &broke, NULL);
	spin_unlock_irqrestore(&sq->lock, flags);
	superp_cq_kick(to_scq(ibqp->send_cq), todo);
	if (broke)
		superp_qp_error(qp);
	else if (state == IB_QPS_RTS)
		qp->type->kick(qp);	/* the data path takes them */
	return err;
}

/**
 * superp_recv_post - copy a chain of receive WRs into @rq
 * @pd: the PD of the QP or SRQ: the SGEs' keys must be of it
 * @rq: a QP's receive queue or an SRQ's, locked by the caller
 * @wr: the chain; on error, left pointing at the WR refused
 *
 * Return: 0, -EINVAL for a bad WR, -ENOMEM when the queue is full.
 */
int superp_recv_post(struct ib_pd *pd, struct superp_wq *rq,
		     const struct ib_recv_wr **wr)
{
	const struct ib_recv_wr *w;
	int err;

	for (w = *wr; w; w = w->next) {
		struct superp_recv_wqe *wqe;

		*wr = w;
		if (rq->head - rq->tail == rq->max_wr)
			return -ENOMEM;
		if (w->num_sge < 0 || w->num_sge > rq->max_sge)
			return -EINVAL;
		wqe = superp_wq_at(rq, rq->head);
		err = superp_sges_copy(pd, wqe->sge, w->sg_list, w->num_sge,
				       true, &wqe->length);
		if (err)
			return err;
		wqe->wr_id = w->wr_id;
		wqe->num_sge = w->num_sge;
		rq->head++;
	}
	return 0;
}

int superp_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		     const struct ib_recv_wr **bad_wr)
{
	struct superp_qp *qp = to_sqp(ibqp);
	struct superp_wq *rq = &qp->rq;
	unsigned int todo = 0;
	unsigned long flags;
	int err;

	if (ibqp->srq || (ibqp->uobject && wr)) {
		*bad_wr = wr;
		return -EINVAL;	/* from the SRQ, or a user QP's ring */
	}
	/*
	 * A user QP's doorbell (no list): its receives are taken from the
	 * ring when a message needs one; in ERR they are flushed now.
	 */
	spin_lock_irqsave(&rq->lock, flags);
	if (qp->state == IB_QPS_RESET) {
		spin_unlock_irqrestore(&rq->lock, flags);
		*bad_wr = wr;
		return -EINVAL;
	}
	err = superp_recv_post(ibqp->pd, rq, &wr);
	if (err)
		*bad_wr = wr;
	if (qp->state == IB_QPS_ERR)
		todo = superp_rq_flush(qp);
	spin_unlock_irqrestore(&rq->lock, flags);
	if (todo)
		superp_cq_kick(to_scq(ibqp->recv_cq), todo);
	return err;
}
