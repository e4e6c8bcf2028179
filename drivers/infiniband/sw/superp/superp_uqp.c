// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the rings of a user QP (created through the provider).
 *
 * create_qp with udata allocates a send ring and, without an SRQ, a
 * receive ring (superp_mmap.c) and returns where to map them; the layout
 * and the protocol are in include/uapi/rdma/superp-abi.h. The kernel work
 * queues stay as for a kernel QP: the rings only carry WQEs to them.
 * A send WQE is taken at the doorbell (superp_post_send() with no list)
 * or, while the kernel queue has WRs (SUPERP_WQ_BUSY), by the data path
 * when it asks for the next WR (superp_qp_next_send()) and as each WR
 * leaves the queue (superp_uqp_sq_recheck()); a receive WQE when an
 * incoming message finds the kernel receive queue empty
 * (superp_qp_get_recv()).
 *
 * Trust: the process may rewrite its rings at any moment. The kernel keeps
 * its own position (cons) and never reads one back from the ring; it
 * copies a WQE out once and checks the copy as a kernel work request
 * (keys of the QP's PD, bounds, lengths, opcodes). A WQE it refuses
 * completes in error after the WRs before it, and the QP goes to ERR; a
 * producer index more than a ring ahead moves the QP to ERR.
 *
 * Consumer: the ring position of the oldest WR still in the kernel queue
 * (cons minus the WRs queued), so that the process never has more than
 * the QP's max_wr outstanding and the kernel queue never overflows.
 *
 * Locking: the ring state is under the lock of the kernel queue it feeds
 * (sq.lock or rq.lock, superp_queue.c), which every function here but
 * create and destroy expects held; create and destroy run before the QP
 * is published and after it is unpublished (superp_qp.c).
 */
#include <kunit/visibility.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "superp.h"
#include "superp_ah.h"
#include "superp_cq.h"
#include "superp_qp.h"

/**
 * superp_uwq_geometry - entries, stride and mapped size of a user ring
 * @max_wr: work requests the QP asked for, 1 .. SUPERP_MAX_QP_WR
 * @max_sge: SGEs per WQE
 * @max_inline: inline bytes per send WQE (0 for a receive ring)
 * @hdr: bytes of the WQE header before its SGEs
 * @g: filled in
 *
 * The stride holds the header and the larger of the SGE area and the
 * inline data, rounded to 64 bytes so no WQE shares a cache line.
 */
void superp_uwq_geometry(u32 max_wr, u32 max_sge, u32 max_inline, size_t hdr,
			 struct superp_uwq_geom *g)
{
	size_t data = max_t(size_t, max_sge * sizeof(struct superp_usge),
			    max_inline);

	g->entries = roundup_pow_of_two(max(max_wr, 1U));
	g->stride = ALIGN(hdr + data, 64);
	g->size = PAGE_ALIGN(sizeof(struct superp_wq_ring) +
			     (size_t)g->entries * g->stride);
}
EXPORT_SYMBOL_IF_KUNIT(superp_uwq_geometry);

/**
 * superp_uring_alloc - allocate a work queue ring to share with a process
 * @r: the ring, zeroed
 * @uc: the process's context
 * @g: its geometry (superp_uwq_geometry())
 * @offset: set to the mmap() offset
 * @size: set to the bytes to map
 *
 * Return: 0, or -ENOMEM with nothing allocated.
 */
int superp_uring_alloc(struct superp_uqp_ring *r, struct ib_ucontext *uc,
		       const struct superp_uwq_geom *g, u64 *offset, u64 *size)
{
	r->wqe = kmalloc(g->stride, GFP_KERNEL);
	if (!r->wqe)
		return -ENOMEM;
	r->ring = superp_ring_alloc(uc, g->size, &r->map, offset);
	if (!r->ring) {
		kfree(r->wqe);
		r->wqe = NULL;
		return -ENOMEM;
	}
	r->entries = g->entries;
	r->stride = g->stride;
	*size = g->size;
	return 0;
}

/**
 * superp_uqp_create - give a user QP its rings
 * @qp: the QP, its kernel work queues set up, not yet published
 * @udata: the create_qp driver data
 *
 * Process context. Return: 0 (response written), or an errno with
 * nothing left allocated.
 */
int superp_uqp_create(struct superp_qp *qp, struct ib_udata *udata)
{
	struct superp_create_qp_resp resp = {};
	struct superp_create_qp_cmd cmd = {};
	struct superp_ucontext *uc;
	struct superp_uwq_geom g;
	int err;

	err = superp_udata_req(qp->ibqp.device, udata, &cmd,
			       min(sizeof(cmd), udata->inlen), sizeof(resp),
			       "create_qp");
	if (err)
		return err;
	uc = rdma_udata_to_drv_context(udata, struct superp_ucontext, ibuc);

	superp_uwq_geometry(qp->sq.max_wr, qp->sq.max_sge, qp->sq.max_inline,
			    sizeof(struct superp_uwqe_send), &g);
	err = superp_uring_alloc(&qp->usq, &uc->ibuc, &g, &resp.sq_offset,
				 &resp.sq_size);
	if (err)
		return err;
	resp.sq_entries = g.entries;
	resp.sq_stride = g.stride;
	if (!qp->srq) {
		superp_uwq_geometry(qp->rq.max_wr, qp->rq.max_sge, 0,
				    sizeof(struct superp_uwqe_recv), &g);
		err = superp_uring_alloc(&qp->urq, &uc->ibuc, &g,
					 &resp.rq_offset, &resp.rq_size);
		if (err)
			goto err_release;
		resp.rq_entries = g.entries;
		resp.rq_stride = g.stride;
	}
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err)
		goto err_release;
	return 0;

err_release:
	superp_uqp_destroy(qp);
	return err;
}

/* The process may keep its mappings; the kernel never touches them again. */
void superp_uring_release(struct superp_uqp_ring *r)
{
	superp_ring_release(r->map);
	kfree(r->wqe);
	memset(r, 0, sizeof(*r));
}

void superp_uqp_destroy(struct superp_qp *qp)
{
	superp_uring_release(&qp->usq);
	superp_uring_release(&qp->urq);
}

/* The WQE at ring position @pos. */
static void *superp_uqp_slot(const struct superp_uqp_ring *r, u32 pos)
{
	return (u8 *)(r->ring + 1) + (size_t)(pos & (r->entries - 1)) * r->stride;
}

/* WQEs written and not yet copied; false when producer is garbage. */
static bool superp_uqp_pending(const struct superp_uqp_ring *r, u32 *n)
{
	/* Acquire: pairs with the process's release of producer (its WQEs). */
	*n = smp_load_acquire(&r->ring->producer) - r->cons;
	return *n <= r->entries;
}

/* WQEs written and not yet copied, 0 when producer is garbage. */
u32 superp_uring_waiting(const struct superp_uqp_ring *r)
{
	u32 n;

	return superp_uqp_pending(r, &n) ? n : 0;
}

/* The slots of the WRs that left the kernel queue go back to the process. */
void superp_uqp_publish(struct superp_uqp_ring *r, u32 queued)
{
	/* Release: the slots were read before the process may reuse them. */
	smp_store_release(&r->ring->consumer, r->cons - queued);
}

/* RESET: both sides start again from 0 (the process resets producer). */
void superp_uqp_reset(struct superp_uqp_ring *r)
{
	if (!r->ring)
		return;
	r->cons = 0;
	r->refused = false;
	r->busy = false;
	WRITE_ONCE(r->ring->flags, 0);
	/* Release: as superp_uqp_publish(). */
	smp_store_release(&r->ring->consumer, 0);
}

static void superp_uqp_refuse(struct superp_uqp_ring *r, u64 wr_id,
			      enum ib_wc_status status,
			      enum ib_wc_opcode opcode)
{
	r->refused = true;
	r->refused_wr_id = wr_id;
	r->refused_status = status;
	r->refused_opcode = opcode;
}

/* The user SGE layout is the kernel's: the SGEs are used where they lie. */
static_assert(sizeof(struct superp_usge) == sizeof(struct ib_sge));
static_assert(offsetof(struct superp_usge, addr) ==
	      offsetof(struct ib_sge, addr));
static_assert(offsetof(struct superp_usge, length) ==
	      offsetof(struct ib_sge, length));
static_assert(offsetof(struct superp_usge, lkey) ==
	      offsetof(struct ib_sge, lkey));

/* enum ib_send_flags has the values of the uverbs ABI (ibv_send_flags). */
#define SUPERP_USEND_FLAGS (IB_SEND_FENCE | IB_SEND_SIGNALED | \
			    IB_SEND_SOLICITED | IB_SEND_INLINE)

/**
 * superp_uwqe_to_wr - a send WQE copied out of a ring as a work request
 * @u: the copy, @stride bytes
 * @stride: the ring's WQE stride
 * @max_sge: the QP's send SGEs
 * @max_inline: the QP's inline bytes
 * @w: filled in; its SGEs (or inline data) point into @u
 *
 * Checks the shape of the WQE only: keys and bounds are checked where
 * every work request is (superp_send_wqe_fill()). Return: IB_WC_SUCCESS,
 * or the status the WR completes with.
 */
VISIBLE_IF_KUNIT enum ib_wc_status
superp_uwqe_to_wr(const struct superp_uwqe_send *u, u32 stride, u32 max_sge,
		  u32 max_inline, struct superp_uwr *w)
{
	u32 room = stride - sizeof(*u);

	memset(w, 0, sizeof(*w));
	switch (u->opcode) {
	case IB_UVERBS_WR_SEND_WITH_IMM:
		w->wr.ex.imm_data = (__force __be32)u->imm_data;
		break;
	case IB_UVERBS_WR_SEND_WITH_INV:
		w->wr.ex.invalidate_rkey = u->imm_data;
		break;
	case IB_UVERBS_WR_SEND:
		break;
	case IB_UVERBS_WR_RDMA_WRITE_WITH_IMM:
		w->wr.ex.imm_data = (__force __be32)u->imm_data;
		fallthrough;
	case IB_UVERBS_WR_RDMA_WRITE:
	case IB_UVERBS_WR_RDMA_READ:
		w->rdma.remote_addr = u->remote_addr;
		w->rdma.rkey = u->rkey;
		break;
	case IB_UVERBS_WR_ATOMIC_CMP_AND_SWP:
	case IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD:
		w->atomic.remote_addr = u->remote_addr;
		w->atomic.compare_add = u->compare_add;
		w->atomic.swap = u->swap;
		w->atomic.rkey = u->rkey;
		break;
	case IB_UVERBS_WR_LOCAL_INV:
		w->wr.ex.invalidate_rkey = u->imm_data;
		break;
	case IB_UVERBS_WR_BIND_MW:
		w->bind.mw_key = u->rkey;
		w->bind.new_key = u->imm_data;
		w->bind.mr_lkey = u->bind.mr_lkey;
		w->bind.access = u->bind.access;
		w->bind.addr = u->bind.addr;
		w->bind.length = u->bind.length;
		break;
	default:
		return IB_WC_LOC_QP_OP_ERR;
	}
	if (u->send_flags & ~SUPERP_USEND_FLAGS)
		return IB_WC_LOC_QP_OP_ERR;
	/* The same values: enum ib_wr_opcode is defined from the uverbs one. */
	w->wr.opcode = u->opcode;
	w->wr.send_flags = u->send_flags;
	w->wr.wr_id = u->wr_id;
	/* Local WRs carry no data: what follows the header is not read. */
	if (u->opcode == IB_UVERBS_WR_LOCAL_INV ||
	    u->opcode == IB_UVERBS_WR_BIND_MW)
		return u->send_flags & IB_SEND_INLINE ? IB_WC_LOC_QP_OP_ERR :
							 IB_WC_SUCCESS;
	if (u->send_flags & IB_SEND_INLINE) {
		if (u->inline_len > room || u->inline_len > max_inline)
			return IB_WC_LOC_LEN_ERR;
		w->inline_sge.addr = (uintptr_t)(u + 1);
		w->inline_sge.length = u->inline_len;
		w->wr.sg_list = &w->inline_sge;
		w->wr.num_sge = 1;
		return IB_WC_SUCCESS;
	}
	if (u->num_sge > max_sge || u->num_sge > room / sizeof(struct ib_sge))
		return IB_WC_LOC_QP_OP_ERR;
	w->wr.sg_list = (struct ib_sge *)(u + 1);
	w->wr.num_sge = u->num_sge;
	return IB_WC_SUCCESS;
}
EXPORT_SYMBOL_IF_KUNIT(superp_uwqe_to_wr);

/*
 * superp_send_wqe_fill() of a ring's WQE: a UD QP's names its AH by
 * number, looked up and copied under the AH table's lock (superp_ah.c).
 * Return: the status the WR completes with when it is refused.
 */
static enum ib_wc_status superp_uqp_send_fill(struct superp_qp *qp,
					      const struct superp_uwqe_send *u,
					      struct superp_uwr *w,
					      struct superp_send_wqe *wqe)
{
	struct superp_dev *sdev = to_sdev(qp->ibqp.device);
	enum ib_wc_status status = IB_WC_LOC_QP_OP_ERR;
	struct superp_ah *ah;

	if (w->wr.opcode == IB_WR_BIND_MW)
		return superp_send_wqe_fill_bind(qp, &w->wr, &w->bind, wqe) ?
		       IB_WC_LOC_QP_OP_ERR : IB_WC_SUCCESS;
	if (qp->ibqp.qp_type == IB_QPT_RC)
		return superp_send_wqe_fill(qp, &w->wr, wqe) ?
		       IB_WC_LOC_PROT_ERR : IB_WC_SUCCESS;
	w->ud.remote_qpn = u->ud.remote_qpn;
	w->ud.remote_qkey = u->ud.remote_qkey;
	xa_lock(&sdev->ahs);
	ah = xa_load(&sdev->ahs, u->ud.ah_num);
	if (ah && ah->ibah.pd == qp->ibqp.pd) {
		w->ud.ah = &ah->ibah;
		status = superp_send_wqe_fill(qp, &w->wr, wqe) ?
			 IB_WC_LOC_PROT_ERR : IB_WC_SUCCESS;
	}
	xa_unlock(&sdev->ahs);
	return status;
}

/**
 * superp_uqp_sq_pull - take the send WQEs the process wrote
 * @qp: a user QP in RTS or SQD, sq.lock held
 *
 * Return: true when the QP must go to ERR (a refused WQE, or a producer
 * index that cannot be); the caller moves it there once unlocked.
 */
bool superp_uqp_sq_pull(struct superp_qp *qp)
{
	struct superp_dev *sdev = to_sdev(qp->ibqp.device);
	struct superp_uqp_ring *r = &qp->usq;
	struct superp_wq *sq = &qp->sq;
	struct superp_uwr w;
	u32 n, start = r->cons;
	bool broke = false;

	if (!superp_uqp_pending(r, &n)) {
		ibdev_dbg(qp->ibqp.device, "QP %u: send ring producer out of range\n",
			  qp->ibqp.qp_num);
		return true;
	}
	/* A process keeping to max_send_wr always fits; else the rest waits. */
	for (; n && sq->head - sq->tail < sq->max_wr; n--) {
		const struct superp_uwqe_send *u = r->wqe;
		struct superp_send_wqe *wqe = superp_wq_at(sq, sq->head);
		enum ib_wc_status status;

		memcpy(r->wqe, superp_uqp_slot(r, r->cons), r->stride);
		r->cons++;
		status = superp_uwqe_to_wr(u, r->stride, sq->max_sge,
					   sq->max_inline, &w);
		if (status == IB_WC_SUCCESS)
			status = superp_uqp_send_fill(qp, u, &w, wqe);
		if (status != IB_WC_SUCCESS) {
			ibdev_dbg(qp->ibqp.device, "QP %u: send WQE refused (status %d)\n",
				  qp->ibqp.qp_num, status);
			superp_uqp_refuse(r, u->wr_id, status,
					  superp_wc_opcode(u->opcode));
			broke = true;
			break;
		}
		wqe->idx = sq->head++;
	}
	atomic64_add(r->cons - start, &sdev->sq_ring_wqes);
	/* WRs in the queue: each leaving it rechecks the ring. */
	if (!broke && sq->head != sq->tail && !r->busy) {
		r->busy = true;
		WRITE_ONCE(r->ring->flags, SUPERP_WQ_BUSY);
	}
	return broke;
}

/**
 * superp_uqp_sq_recheck - a send WR left the kernel queue: more WQEs?
 * @qp: a user QP, its sq.lock held
 *
 * While SUPERP_WQ_BUSY is published the process writes WQEs without a
 * doorbell. When the queue runs empty the flag goes, then a full barrier,
 * then producer is read: either this sees the process's WQE or the
 * process sees the flag gone and rings (superp-abi.h).
 *
 * Return: true when WQEs are waiting in the ring: the data path must come
 * for them (superp_qp_next_send() takes them in RTS).
 */
bool superp_uqp_sq_recheck(struct superp_qp *qp)
{
	struct superp_uqp_ring *r = &qp->usq;

	if (!r->busy)
		return false;
	if (qp->sq.tail == qp->sq.head) {
		r->busy = false;
		WRITE_ONCE(r->ring->flags, 0);
		/* Pairs with the process's barrier after its producer store. */
		smp_mb();
	}
	if (!superp_uring_waiting(r))
		return false;
	if (!r->busy) {
		r->busy = true;
		WRITE_ONCE(r->ring->flags, SUPERP_WQ_BUSY);
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(superp_uqp_sq_recheck);

/**
 * superp_uring_recv_pull - take the receive WQEs the process wrote
 * @r: the receive ring of a user QP or SRQ
 * @pd: the PD of that QP or SRQ: the WQEs' keys must be of it
 * @rq: the kernel queue @r feeds, its lock held
 *
 * Return: true when a WQE was refused (r->refused says which) or the
 * producer index cannot be: a QP must then go to ERR.
 */
bool superp_uring_recv_pull(struct superp_uqp_ring *r, struct ib_pd *pd,
			    struct superp_wq *rq)
{
	u32 n;

	if (!superp_uqp_pending(r, &n)) {
		ibdev_dbg(pd->device, "receive ring producer out of range\n");
		return true;
	}
	for (; n && rq->head - rq->tail < rq->max_wr; n--) {
		const struct superp_uwqe_recv *u = r->wqe;
		struct ib_recv_wr wr = {};
		const struct ib_recv_wr *wrp = &wr;
		enum ib_wc_status status = IB_WC_SUCCESS;

		memcpy(r->wqe, superp_uqp_slot(r, r->cons), r->stride);
		r->cons++;
		if (u->num_sge > rq->max_sge ||
		    u->num_sge > (r->stride - sizeof(*u)) / sizeof(struct ib_sge)) {
			status = IB_WC_LOC_QP_OP_ERR;
		} else {
			wr.wr_id = u->wr_id;
			wr.sg_list = (struct ib_sge *)(u + 1);
			wr.num_sge = u->num_sge;
			if (superp_recv_post(pd, rq, &wrp))
				status = IB_WC_LOC_PROT_ERR;
		}
		if (status != IB_WC_SUCCESS) {
			ibdev_dbg(pd->device, "receive WQE refused (status %d)\n",
				  status);
			superp_uqp_refuse(r, u->wr_id, status, IB_WC_RECV);
			return true;
		}
	}
	return false;
}

/*
 * The QP is in ERR and its kernel queue flushed: the refused WQE, then
 * every WQE still in the ring, completes to @cq. Returns superp_cq_push()'s
 * bits for superp_cq_kick().
 */
static unsigned int superp_uqp_flush(struct superp_qp *qp,
				     struct superp_uqp_ring *r,
				     struct ib_cq *cq, bool send)
{
	struct ib_wc wc = { .qp = &qp->ibqp };
	unsigned int todo = 0;
	u32 n;

	/*
	 * Late receives: the process rings the doorbell from now on; late
	 * sends: no longer busy, it rings it too.
	 */
	r->busy = false;
	WRITE_ONCE(r->ring->flags, send ? 0 : SUPERP_WQ_FLUSH);
	/* The flag before producer; pairs with the process's full barrier. */
	smp_mb();
	if (r->refused) {
		r->refused = false;
		wc.wr_id = r->refused_wr_id;
		wc.status = r->refused_status;
		wc.opcode = r->refused_opcode;
		todo |= superp_cq_push(to_scq(cq), &wc, false);
	}
	if (superp_uqp_pending(r, &n)) {
		wc.status = IB_WC_WR_FLUSH_ERR;
		for (; n; n--, r->cons++) {
			const struct superp_uwqe_send *u =
				superp_uqp_slot(r, r->cons);

			/* Both WQE formats start with wr_id. */
			wc.wr_id = READ_ONCE(u->wr_id);
			wc.opcode = send ? superp_wc_opcode(READ_ONCE(u->opcode)) :
					   IB_WC_RECV;
			todo |= superp_cq_push(to_scq(cq), &wc, false);
		}
	}
	superp_uqp_publish(r, 0);
	return todo;
}

unsigned int superp_uqp_sq_flush(struct superp_qp *qp)
{
	return superp_uqp_flush(qp, &qp->usq, qp->ibqp.send_cq, true);
}

unsigned int superp_uqp_rq_flush(struct superp_qp *qp)
{
	return superp_uqp_flush(qp, &qp->urq, qp->ibqp.recv_cq, false);
}
