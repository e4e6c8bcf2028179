// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: completion queues for kernel consumers.
 *
 * A kernel CQ is a ring of struct ib_wc in kernel memory, ibcq.cqe entries long.
 * Producers are the QPs (post_send's local work requests, flushes) and,
 * later, the data path in softirq; the consumer is poll_cq.
 *
 * Notification follows the verbs: req_notify_cq arms the CQ for the next
 * completion (IB_CQ_NEXT_COMP) or the next solicited or unsuccessful one
 * (IB_CQ_SOLICITED); the completion that matches disarms it and calls the
 * completion handler once.
 *
 * Overflow: a CQ that is full refuses the completion (-EOVERFLOW to the
 * producer) and goes into error for good, as the verbs have it for a CQ
 * overrun: the completion is lost, and a CQ that silently went on would
 * hand its consumer a stream with a hole in it. It keeps what it held
 * (poll_cq returns that, then -EIO), takes no completion again (-EIO to
 * the producer), counts the overflow in the device's cq_overflows, logs
 * one rate-limited line and raises IB_EVENT_CQ_ERR once. Only destroying
 * it ends the error.
 *
 * A user CQ (created through the provider) has no wc ring: completions
 * go as struct superp_cqe into a ring shared with the process
 * (superp_mmap.c); the layout and the index protocol are in
 * include/uapi/rdma/superp-abi.h. The process polls it without the
 * kernel; the kernel believes nothing it reads there but uses the
 * consumer index only to decide that the ring is full. Resizing it
 * replaces the ring under cq->lock, the unread entries copied over at the
 * same indices (superp_cq_resize_uring()). The error state shows in the
 * ring's flags, which the provider reads when it finds the ring empty.
 *
 * Locking: cq->lock guards the ring (a user CQ's producer index too), the
 * arm state and the error flag. It is taken with irqsave: kernel ULPs
 * post work requests (whose local completions land here) under their own
 * irq-disabled locks, and the data path delivers from softirq. The
 * completion handler and the event handler are called with no CQ lock
 * held (they may poll or re-arm): producers that hold a lock of their own
 * use superp_cq_push() and call superp_cq_kick() after dropping it.
 * Lock order: the top of superp_rc_bind.c. The RDMA core may run two
 * resizes of one CQ at once (it holds the CQ only for reading): each
 * swaps its ring in under cq->lock, so the second copies from the first.
 */
#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/uverbs_ioctl.h>

#include "superp.h"
#include "superp_cq.h"

static struct ib_wc *superp_cq_alloc_ring(int cqe)
{
	return kvcalloc(cqe, sizeof(struct ib_wc), GFP_KERNEL);
}

/*
 * A user CQ's ring of @n entries (a power of two), mapped by the process
 * at *@offset, *@size bytes.
 */
static struct superp_cq_ring *superp_cq_uring_alloc(struct ib_udata *udata,
						    u32 n,
						    struct superp_ring_map **map,
						    u64 *offset, u64 *size)
{
	struct superp_ucontext *uc;

	uc = rdma_udata_to_drv_context(udata, struct superp_ucontext, ibuc);
	if (!uc)
		return NULL;
	*size = PAGE_ALIGN(sizeof(struct superp_cq_ring) +
			   (size_t)n * sizeof(struct superp_cqe));
	return superp_ring_alloc(&uc->ibuc, *size, map, offset);
}

/*
 * A user CQ's ring: a power of two of entries, at least @cqe. Its size
 * goes back to the process in the create response, with the offset it
 * maps the ring at.
 */
static int superp_cq_create_uring(struct superp_cq *cq, int cqe,
				  struct ib_udata *udata)
{
	struct superp_create_cq_resp resp = {};
	struct superp_create_cq_cmd cmd = {};
	u32 n = roundup_pow_of_two(cqe);
	int err;

	err = superp_udata_req(cq->ibcq.device, udata, &cmd,
			       min(sizeof(cmd), udata->inlen), sizeof(resp),
			       "create_cq");
	if (err)
		return err;

	cq->uring = superp_cq_uring_alloc(udata, n, &cq->umap,
					  &resp.ring_offset, &resp.ring_size);
	if (!cq->uring)
		return -ENOMEM;
	cq->ucqe = (struct superp_cqe *)(cq->uring + 1);
	cq->ibcq.cqe = n;
	resp.num_entries = n;
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err) {
		superp_ring_release(cq->umap);
		cq->umap = NULL;
		cq->uring = NULL;
	}
	return err;
}

int superp_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		     struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibcq->device);
	struct superp_cq *cq = to_scq(ibcq);
	int err;

	if (attr->flags) {
		superp_refuse(ibcq->device, "create_cq: unsupported flags 0x%x\n",
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
	spin_lock_init(&cq->lock);
	if (udata) {
		err = superp_cq_create_uring(cq, attr->cqe, udata);
		if (err)
			atomic_dec(&sdev->cq_count);
		return err;
	}
	cq->wc = superp_cq_alloc_ring(attr->cqe);
	if (!cq->wc) {
		atomic_dec(&sdev->cq_count);
		return -ENOMEM;
	}
	ibcq->cqe = attr->cqe;
	return 0;
}

/* The core destroys a CQ only once no QP or SRQ uses it. */
int superp_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct superp_cq *cq = to_scq(ibcq);

	kvfree(cq->wc);
	superp_ring_release(cq->umap);
	atomic_dec(&to_sdev(ibcq->device)->cq_count);
	return 0;
}

/**
 * superp_cq_uring_move - copy a user CQ's unread completions to a new ring
 * @cq: the CQ, cq->lock held
 * @cons: the consumer index the process gave, not trusted
 * @cqe: the size asked for
 * @ucqe: the new ring's entries
 * @n: their number, @cqe rounded up to a power of two
 *
 * Entry i of the old ring becomes entry i of the new one, for i from
 * @cons up to our producer index, so that neither index changes.
 *
 * Return: 0, or -EINVAL when @cons is ahead of our producer index or more
 * than the old ring's size behind it, or more completions wait than @cqe.
 */
VISIBLE_IF_KUNIT int superp_cq_uring_move(struct superp_cq *cq, u32 cons,
					  u32 cqe, struct superp_cqe *ucqe,
					  u32 n)
{
	u32 old_n = cq->ibcq.cqe, i;

	if (cq->uprod - cons > old_n)
		return -EINVAL;
	if (cq->uprod - cons > cqe)
		return -EINVAL;
	for (i = cons; i != cq->uprod; i++)
		ucqe[i & (n - 1)] = cq->ucqe[i & (old_n - 1)];
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_cq_uring_move);

/*
 * A user CQ's new ring. The response goes out before the switch, since
 * after it the process can only learn of the new ring from it; if the
 * switch is then refused, the process sees the error and drops the
 * response, and the new ring goes.
 */
static int superp_cq_resize_uring(struct superp_cq *cq, int cqe,
				  struct ib_udata *udata)
{
	struct superp_resize_cq_resp resp = {};
	struct superp_resize_cq_cmd cmd = {};
	struct superp_ring_map *map;
	struct superp_cq_ring *ring;
	u32 n = roundup_pow_of_two(cqe);
	unsigned long flags;
	u32 prod;
	int err;

	err = superp_udata_req(cq->ibcq.device, udata, &cmd, sizeof(cmd),
			       sizeof(resp), "resize_cq");
	if (err)
		return err;
	ring = superp_cq_uring_alloc(udata, n, &map, &resp.ring_offset,
				     &resp.ring_size);
	if (!ring)
		return -ENOMEM;
	resp.num_entries = n;
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err)
		goto out;

	spin_lock_irqsave(&cq->lock, flags);
	prod = cq->uprod;
	err = superp_cq_uring_move(cq, cmd.consumer, cqe,
				   (struct superp_cqe *)(ring + 1), n);
	if (!err) {
		ring->consumer = cmd.consumer;
		ring->producer = cq->uprod;
		ring->flags = cq->error ? SUPERP_CQ_RING_ERROR : 0;
		swap(cq->umap, map);
		cq->uring = ring;
		cq->ucqe = (struct superp_cqe *)(ring + 1);
		cq->ibcq.cqe = n;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	if (err)
		ibdev_dbg(cq->ibcq.device,
			  "resize_cq: consumer index %u, producer %u, %u entries: refused\n",
			  cmd.consumer, prod, n);
out:
	superp_ring_release(map);	/* the old ring, or the unused new one */
	return err;
}

/*
 * Keeps every entry held, in order; refuses a ring too small for them. A
 * CQ in error stays in error: the room does not bring back what was lost.
 */
int superp_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct superp_cq *cq = to_scq(ibcq);
	struct ib_wc *wc, *old;
	unsigned long flags;
	u32 i;

	if (cqe < 1 || cqe > SUPERP_MAX_CQE)
		return -EINVAL;
	if (cq->uring)
		return superp_cq_resize_uring(cq, cqe, udata);
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

/*
 * The completions held, in order; once a CQ in error has none left, -EIO
 * (the core's pollers stop at a negative return, as at an empty CQ).
 */
int superp_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct superp_cq *cq = to_scq(ibcq);
	unsigned long flags;
	int n;

	if (cq->uring)
		return -EOPNOTSUPP;	/* the process polls the ring itself */
	spin_lock_irqsave(&cq->lock, flags);
	for (n = 0; n < num && cq->count; n++) {
		wc[n] = cq->wc[cq->head];
		cq->head = (cq->head + 1) % ibcq->cqe;
		cq->count--;
	}
	if (!n && num > 0 && cq->error)
		n = -EIO;
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
 * superp_cq_uring_full - whether a user CQ's ring has no free entry
 * @prod: the kernel's producer index
 * @cons: the consumer index the process wrote, not trusted
 * @n: entries in the ring
 *
 * An index ahead of @prod or more than @n behind it is garbage: the ring
 * counts as full, so a process that writes garbage loses completions
 * (its CQ goes into error), never makes the kernel overwrite ones it has
 * not read.
 */
VISIBLE_IF_KUNIT bool superp_cq_uring_full(u32 prod, u32 cons, u32 n)
{
	return prod - cons >= n;
}
EXPORT_SYMBOL_IF_KUNIT(superp_cq_uring_full);

/* Under cq->lock. Fills one superp_cqe and publishes it (release). */
static bool superp_cq_uring_add(struct superp_cq *cq, const struct ib_wc *wc)
{
	u32 n = cq->ibcq.cqe, prod = cq->uprod;
	struct superp_cqe *e;

	if (superp_cq_uring_full(prod, READ_ONCE(cq->uring->consumer), n))
		return false;
	e = &cq->ucqe[prod & (n - 1)];
	*e = (struct superp_cqe){
		.wr_id = wc->wr_id,
		.status = wc->status,
		.opcode = wc->opcode,
		.vendor_err = wc->vendor_err,
		.byte_len = wc->byte_len,
		.qp_num = wc->qp ? wc->qp->qp_num : 0,
		.src_qp = wc->src_qp,
		.pkey_index = wc->pkey_index,
	};
	if (wc->wc_flags & IB_WC_WITH_IMM) {
		e->imm_data = (__force u32)wc->ex.imm_data;
		e->wc_flags |= SUPERP_CQE_WITH_IMM;
	} else if (wc->wc_flags & IB_WC_WITH_INVALIDATE) {
		e->imm_data = wc->ex.invalidate_rkey;
		e->wc_flags |= SUPERP_CQE_WITH_INV;
	}
	if (wc->wc_flags & IB_WC_GRH)
		e->wc_flags |= SUPERP_CQE_WITH_GRH;
	cq->uprod = prod + 1;
	/* The entry is visible before the index that hands it over. */
	smp_store_release(&cq->uring->producer, cq->uprod);
	return true;
}

/**
 * superp_cq_push - add a completion to @cq under the caller's locks
 * @cq: the CQ
 * @wc: the completion, copied
 * @solicited: the completion is of a solicited event (a SEND with
 *	IB_SEND_SOLICITED at the sender)
 *
 * Any context. Unsuccessful completions wake an IB_CQ_SOLICITED arm too.
 * A full CQ goes into error here (counted once, in cq_overflows); a CQ in
 * error takes nothing.
 *
 * Return: SUPERP_CQ_* flags for superp_cq_kick(); SUPERP_CQ_DROPPED means
 * the completion was not added, SUPERP_CQ_OVERFLOW that the CQ overflowed
 * with it (report it).
 */
unsigned int superp_cq_push(struct superp_cq *cq, const struct ib_wc *wc,
			    bool solicited)
{
	unsigned int todo = 0;
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->error) {
		spin_unlock_irqrestore(&cq->lock, flags);
		return SUPERP_CQ_DROPPED;
	}
	if (cq->uring ? !superp_cq_uring_add(cq, wc) :
	    cq->count == cq->ibcq.cqe) {
		cq->error = true;
		if (cq->uring) {
			/* After every producer index the ring was given. */
			smp_store_release(&cq->uring->flags,
					  SUPERP_CQ_RING_ERROR);
		}
		spin_unlock_irqrestore(&cq->lock, flags);
		atomic64_inc(&to_sdev(cq->ibcq.device)->cq_overflows);
		return SUPERP_CQ_OVERFLOW | SUPERP_CQ_DROPPED;
	}
	if (!cq->uring) {
		cq->wc[(cq->head + cq->count) % cq->ibcq.cqe] = *wc;
		cq->count++;
	}
	if (cq->armed == IB_CQ_NEXT_COMP ||
	    (cq->armed == IB_CQ_SOLICITED &&
	     (solicited || wc->status != IB_WC_SUCCESS))) {
		cq->armed = 0;
		todo = SUPERP_CQ_NOTIFY;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return todo;
}

/*
 * With no lock held: the handlers superp_cq_push() asked for. The event
 * reaches a process through the handler uverbs gives every user CQ (its
 * async event file); a kernel CQ may have none (ib_alloc_cq()), so the
 * line in the log does not depend on one.
 */
void superp_cq_kick(struct superp_cq *cq, unsigned int todo)
{
	struct ib_cq *ibcq = &cq->ibcq;

	if (todo & SUPERP_CQ_OVERFLOW) {
		struct ib_event ev = {
			.device = ibcq->device,
			.element.cq = ibcq,
			.event = IB_EVENT_CQ_ERR,
		};

		ibdev_warn_ratelimited(ibcq->device,
				       "CQ %u overflowed: a completion was lost, the CQ is in error\n",
				       ibcq->res.id);
		if (ibcq->event_handler)
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
 * Return: 0; -EOVERFLOW when the CQ was full (it is in error now,
 * IB_EVENT_CQ_ERR raised); -EIO when it was in error already.
 */
int superp_cq_post(struct superp_cq *cq, const struct ib_wc *wc,
		   bool solicited)
{
	unsigned int todo = superp_cq_push(cq, wc, solicited);

	superp_cq_kick(cq, todo);
	if (todo & SUPERP_CQ_OVERFLOW)
		return -EOVERFLOW;
	return todo & SUPERP_CQ_DROPPED ? -EIO : 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_cq_post);
