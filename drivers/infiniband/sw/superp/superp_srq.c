// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: shared receive queues.
 *
 * An SRQ is a receive ring like a QP's (struct superp_wq, WRs copied and
 * their keys checked at post time against the SRQ's PD). QPs created with
 * it take their receives from it (superp_qp_get_recv()); their own receive
 * queue is empty and post_recv on them is refused. A QP's flush does not
 * touch the SRQ: its WRs belong to no QP until one takes them.
 *
 * A user SRQ also has a ring shared with the process (superp_uqp.c has
 * the rules): when a QP needs a receive and the kernel queue is empty,
 * the WQEs waiting there are copied in and checked. One the kernel
 * refuses is handed to the QP that was taking a receive, which completes
 * it in error and goes to ERR (superp_qp_get_recv()). The limit counts
 * what waits in the ring too. A user SRQ is not resized (EOPNOTSUPP).
 *
 * Limit: modify_srq with IB_SRQ_LIMIT arms the SRQ; when a receive is taken
 * and fewer than srq_limit WRs remain, IB_EVENT_SRQ_LIMIT_REACHED is raised
 * once and the SRQ disarms (srq_limit reads 0 until armed again).
 *
 * Locking: rq.lock (irqsave, as the QPs' queues: consumers post under
 * irq-disabled locks, the data path takes receives in softirq) guards the
 * ring, its positions, the limit and the user ring's state; a resize swaps
 * the ring under it. The event is raised with no lock held.
 */
#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/uverbs_ioctl.h>

#include "superp.h"
#include "superp_srq.h"

static int superp_usrq_create(struct superp_srq *srq, struct ib_udata *udata)
{
	struct superp_create_srq_resp resp = {};
	struct superp_create_srq_cmd cmd = {};
	struct superp_ucontext *uc;
	struct superp_uwq_geom g;
	int err;

	err = superp_udata_req(srq->ibsrq.device, udata, &cmd,
			       min(sizeof(cmd), udata->inlen), sizeof(resp),
			       "create_srq");
	if (err)
		return err;
	uc = rdma_udata_to_drv_context(udata, struct superp_ucontext, ibuc);
	superp_uwq_geometry(srq->rq.max_wr, srq->rq.max_sge, 0,
			    sizeof(struct superp_uwqe_recv), &g);
	err = superp_uring_alloc(&srq->ur, &uc->ibuc, &g, &resp.ring_offset,
				 &resp.ring_size);
	if (err)
		return err;
	resp.num_entries = g.entries;
	resp.stride = g.stride;
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err)
		superp_uring_release(&srq->ur);
	return err;
}

int superp_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		      struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibsrq->device);
	struct superp_srq *srq = to_ssrq(ibsrq);
	struct ib_srq_attr *attr = &init->attr;
	int err;

	if (init->srq_type != IB_SRQT_BASIC) {
		superp_refuse(ibsrq->device, "create_srq: only basic SRQs\n");
		return -EOPNOTSUPP;
	}
	if (attr->max_wr < 1 || attr->max_wr > SUPERP_MAX_SRQ_WR ||
	    attr->max_sge > SUPERP_MAX_SRQ_SGE)
		return -EINVAL;
	if (atomic_inc_return(&sdev->srq_count) > SUPERP_MAX_SRQ) {
		atomic_dec(&sdev->srq_count);
		return -ENOMEM;
	}
	err = superp_wq_init(&srq->rq, attr->max_wr,
			     superp_recv_wqe_size(attr->max_sge));
	if (err) {
		atomic_dec(&sdev->srq_count);
		return err;
	}
	srq->rq.max_sge = attr->max_sge;
	if (udata) {
		err = superp_usrq_create(srq, udata);
		if (err) {
			superp_wq_free(&srq->rq);
			atomic_dec(&sdev->srq_count);
			return err;
		}
	}
	/* The limit is armed by modify_srq only. */
	attr->srq_limit = 0;
	return 0;
}

/* Keeps the WRs it holds, in order; refuses a ring too small for them. */
static int superp_srq_resize(struct superp_srq *srq, u32 max_wr)
{
	struct superp_wq *rq = &srq->rq;
	unsigned long flags;
	void *buf, *old;
	u32 n, i;

	if (max_wr < 1 || max_wr > SUPERP_MAX_SRQ_WR)
		return -EINVAL;
	buf = kvcalloc(max_wr, rq->wqe_size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	spin_lock_irqsave(&rq->lock, flags);
	n = rq->head - rq->tail;
	if (n > max_wr || srq->limit > max_wr) {
		spin_unlock_irqrestore(&rq->lock, flags);
		kvfree(buf);
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		memcpy(buf + (size_t)i * rq->wqe_size,
		       superp_wq_at(rq, rq->tail + i), rq->wqe_size);
	old = rq->buf;
	rq->buf = buf;
	rq->max_wr = max_wr;
	rq->tail = 0;
	rq->head = n;
	spin_unlock_irqrestore(&rq->lock, flags);
	kvfree(old);
	return 0;
}

int superp_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		      enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct superp_srq *srq = to_ssrq(ibsrq);
	unsigned long flags;
	int err;

	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen)) {
		superp_refuse(ibsrq->device, "modify_srq: unknown driver data\n");
		return -EOPNOTSUPP;
	}
	/* The process's ring would have to move: not built. */
	if (srq->ur.ring && (mask & IB_SRQ_MAX_WR)) {
		superp_refuse(ibsrq->device, "modify_srq: a user SRQ is not resized\n");
		return -EOPNOTSUPP;
	}
	/* Checked before anything changes: the limit against the new size. */
	if ((mask & IB_SRQ_LIMIT) &&
	    attr->srq_limit > (mask & IB_SRQ_MAX_WR ? attr->max_wr :
			       srq->rq.max_wr))
		return -EINVAL;
	if (mask & IB_SRQ_MAX_WR) {
		err = superp_srq_resize(srq, attr->max_wr);
		if (err)
			return err;
	}
	if (mask & IB_SRQ_LIMIT) {
		spin_lock_irqsave(&srq->rq.lock, flags);
		srq->limit = attr->srq_limit;
		spin_unlock_irqrestore(&srq->rq.lock, flags);
	}
	return 0;
}

int superp_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct superp_srq *srq = to_ssrq(ibsrq);
	unsigned long flags;

	spin_lock_irqsave(&srq->rq.lock, flags);
	attr->max_wr = srq->rq.max_wr;
	attr->max_sge = srq->rq.max_sge;
	attr->srq_limit = srq->limit;
	spin_unlock_irqrestore(&srq->rq.lock, flags);
	return 0;
}

/* The core destroys an SRQ only once no QP uses it. */
int superp_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct superp_srq *srq = to_ssrq(ibsrq);

	superp_uring_release(&srq->ur);
	superp_wq_free(&srq->rq);
	atomic_dec(&to_sdev(ibsrq->device)->srq_count);
	return 0;
}

int superp_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			 const struct ib_recv_wr **bad_wr)
{
	struct superp_srq *srq = to_ssrq(ibsrq);
	struct superp_wq *rq = &srq->rq;
	unsigned long flags;
	int err;

	if (srq->ur.ring) {
		*bad_wr = wr;
		return -EINVAL;	/* a user SRQ's WRs come through its ring */
	}
	spin_lock_irqsave(&rq->lock, flags);
	err = superp_recv_post(ibsrq->pd, rq, &wr);
	spin_unlock_irqrestore(&rq->lock, flags);
	if (err)
		*bad_wr = wr;
	return err;
}

/**
 * superp_srq_get_recv - take the oldest receive WR of @srq
 * @srq: the SRQ of the QP an incoming SEND is for
 * @wqe: room for superp_recv_wqe_size(SUPERP_MAX_SGE) bytes
 * @refused: for a user SRQ, where the status of a refused WQE goes
 *
 * Any context. Return: 0, -ENOENT when none is posted, or -EIO when the
 * process's ring held a WQE the kernel refused: its wr_id is in @wqe
 * (no SGEs), its status in *@refused, for the caller to complete.
 */
int superp_srq_get_recv(struct superp_srq *srq, struct superp_recv_wqe *wqe,
			u8 *refused)
{
	struct superp_uqp_ring *r = &srq->ur;
	struct superp_wq *rq = &srq->rq;
	bool limit_reached = false;
	unsigned long flags;
	u32 left;
	int err;

	spin_lock_irqsave(&rq->lock, flags);
	/* A refused WQE waits until the WQEs before it are taken. */
	if (r->ring && rq->tail == rq->head && !r->refused)
		superp_uring_recv_pull(r, srq->ibsrq.pd, rq);
	if (r->ring && rq->tail == rq->head && r->refused) {
		r->refused = false;
		wqe->wr_id = r->refused_wr_id;
		wqe->num_sge = 0;
		wqe->length = 0;
		*refused = r->refused_status;
		superp_uqp_publish(r, 0);
		spin_unlock_irqrestore(&rq->lock, flags);
		return -EIO;
	}
	err = superp_recv_take(rq, wqe);
	left = rq->head - rq->tail;
	if (r->ring) {
		superp_uqp_publish(r, left);
		left += superp_uring_waiting(r);
	}
	if (!err && srq->limit && left < srq->limit) {
		srq->limit = 0;
		limit_reached = true;
	}
	spin_unlock_irqrestore(&rq->lock, flags);

	if (limit_reached && srq->ibsrq.event_handler) {
		struct ib_event ev = {
			.device = srq->ibsrq.device,
			.element.srq = &srq->ibsrq,
			.event = IB_EVENT_SRQ_LIMIT_REACHED,
		};

		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
	}
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(superp_srq_get_recv);
