// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: completion queues for kernel consumers.
 *
 * A CQ is a ring of struct ib_wc in kernel memory, ibcq.cqe entries long.
 * Producers are the QPs (post_send's local work requests, flushes) and,
 * later, the data path in softirq; the consumer is poll_cq.
 *
 * Notification follows the verbs: req_notify_cq arms the CQ for the next
 * completion (IB_CQ_NEXT_COMP) or the next solicited or unsuccessful one
 * (IB_CQ_SOLICITED); the completion that matches disarms it and calls the
 * completion handler once. A CQ that is full refuses the completion
 * (-EOVERFLOW to the producer), keeps what it holds and raises
 * IB_EVENT_CQ_ERR once until it is polled again.
 *
 * Locking: cq->lock guards the ring, the arm state and the overflow flag.
 * It is taken with irqsave: kernel ULPs post work requests (whose local
 * completions land here) under their own irq-disabled locks, and the data
 * path delivers from softirq. The completion handler and the event handler
 * are called with no CQ lock held (they may poll or re-arm): producers that
 * hold a lock of their own use superp_cq_push() and call
 * superp_cq_kick() after dropping it. Lock order: a QP's queue lock, then
 * cq->lock.
 */
#include <kunit/visibility.h>
#include <linux/slab.h>

#include "superp.h"
#include "superp_cq.h"

static struct ib_wc *superp_cq_alloc_ring(int cqe)
{
	return kvcalloc(cqe, sizeof(struct ib_wc), GFP_KERNEL);
}

int superp_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		     struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibcq->device);
	struct superp_cq *cq = to_scq(ibcq);

	if (udata) {
		ibdev_dbg(ibcq->device, "create_cq: user CQs need the shared rings (not yet)\n");
		return -EOPNOTSUPP;
	}
	if (attr->flags) {
		ibdev_dbg(ibcq->device, "create_cq: unsupported flags 0x%x\n",
			  attr->flags);
		return -EOPNOTSUPP;
	}
	if (attr->cqe < 1 || attr->cqe > SUPERP_MAX_CQE ||
	    attr->comp_vector >= ibcq->device->num_comp_vectors)
		return -EINVAL;
	if (atomic_inc_return(&sdev->cq_count) > SUPERP_MAX_CQ) {
		atomic_dec(&sdev->cq_count);
		return -ENOMEM;
	}
	cq->wc = superp_cq_alloc_ring(attr->cqe);
	if (!cq->wc) {
		atomic_dec(&sdev->cq_count);
		return -ENOMEM;
	}
	spin_lock_init(&cq->lock);
	ibcq->cqe = attr->cqe;
	return 0;
}

/* The core destroys a CQ only once no QP or SRQ uses it. */
int superp_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct superp_cq *cq = to_scq(ibcq);

	kvfree(cq->wc);
	atomic_dec(&to_sdev(ibcq->device)->cq_count);
	return 0;
}

/* Keeps every entry held, in order; refuses a ring too small for them. */
int superp_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct superp_cq *cq = to_scq(ibcq);
	struct ib_wc *wc, *old;
	unsigned long flags;
	u32 i;

	if (udata)
		return -EOPNOTSUPP;
	if (cqe < 1 || cqe > SUPERP_MAX_CQE)
		return -EINVAL;
	wc = superp_cq_alloc_ring(cqe);
	if (!wc)
		return -ENOMEM;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->count > cqe) {
		spin_unlock_irqrestore(&cq->lock, flags);
		kvfree(wc);
		return -EINVAL;
	}
	for (i = 0; i < cq->count; i++)
		wc[i] = cq->wc[(cq->head + i) % ibcq->cqe];
	old = cq->wc;
	cq->wc = wc;
	cq->head = 0;
	ibcq->cqe = cqe;
	spin_unlock_irqrestore(&cq->lock, flags);
	kvfree(old);
	return 0;
}

int superp_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct superp_cq *cq = to_scq(ibcq);
	unsigned long flags;
	int n;

	spin_lock_irqsave(&cq->lock, flags);
	for (n = 0; n < num && cq->count; n++) {
		wc[n] = cq->wc[cq->head];
		cq->head = (cq->head + 1) % ibcq->cqe;
		cq->count--;
	}
	if (n)
		cq->overflowed = false;
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

int superp_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct superp_cq *cq = to_scq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	/* An arm for any completion is not narrowed by a solicited one. */
	if ((flags & IB_CQ_SOLICITED_MASK) == IB_CQ_NEXT_COMP)
		cq->armed = IB_CQ_NEXT_COMP;
	else if (cq->armed != IB_CQ_NEXT_COMP)
		cq->armed = IB_CQ_SOLICITED;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && cq->count)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

/**
 * superp_cq_push - add a completion to @cq under the caller's locks
 * @cq: the CQ
 * @wc: the completion, copied
 * @solicited: the completion is of a solicited event (a SEND with
 *	IB_SEND_SOLICITED at the sender)
 *
 * Any context. Unsuccessful completions wake an IB_CQ_SOLICITED arm too.
 *
 * Return: SUPERP_CQ_* flags for superp_cq_kick(); SUPERP_CQ_DROPPED means
 * the completion was not added (SUPERP_CQ_OVERFLOW: report it).
 */
unsigned int superp_cq_push(struct superp_cq *cq, const struct ib_wc *wc,
			    bool solicited)
{
	unsigned int todo = 0;
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->count == cq->ibcq.cqe) {
		if (!cq->overflowed)
			todo = SUPERP_CQ_OVERFLOW;
		cq->overflowed = true;
		spin_unlock_irqrestore(&cq->lock, flags);
		return todo | SUPERP_CQ_DROPPED;
	}
	cq->wc[(cq->head + cq->count) % cq->ibcq.cqe] = *wc;
	cq->count++;
	if (cq->armed == IB_CQ_NEXT_COMP ||
	    (cq->armed == IB_CQ_SOLICITED &&
	     (solicited || wc->status != IB_WC_SUCCESS))) {
		cq->armed = 0;
		todo = SUPERP_CQ_NOTIFY;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return todo;
}

/* With no lock held: the handlers superp_cq_push() asked for. */
void superp_cq_kick(struct superp_cq *cq, unsigned int todo)
{
	struct ib_cq *ibcq = &cq->ibcq;

	if ((todo & SUPERP_CQ_OVERFLOW) && ibcq->event_handler) {
		struct ib_event ev = {
			.device = ibcq->device,
			.element.cq = ibcq,
			.event = IB_EVENT_CQ_ERR,
		};

		ibdev_warn_ratelimited(ibcq->device, "CQ overflow: a completion was lost\n");
		ibcq->event_handler(&ev, ibcq->cq_context);
	}
	if ((todo & SUPERP_CQ_NOTIFY) && ibcq->comp_handler)
		ibcq->comp_handler(ibcq, ibcq->cq_context);
}

/**
 * superp_cq_post - deliver one completion to @cq
 * @cq: the CQ
 * @wc: the completion, copied
 * @solicited: see superp_cq_push()
 *
 * Any context, with no lock held that the completion handler could want.
 *
 * Return: 0, or -EOVERFLOW when the CQ was full (IB_EVENT_CQ_ERR raised).
 */
int superp_cq_post(struct superp_cq *cq, const struct ib_wc *wc,
		   bool solicited)
{
	unsigned int todo = superp_cq_push(cq, wc, solicited);

	superp_cq_kick(cq, todo);
	return todo & SUPERP_CQ_DROPPED ? -EOVERFLOW : 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_cq_post);
