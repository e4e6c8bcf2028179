// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: queue pairs, RC and UD; any other type is refused here
 * (superp_qp_type_check()). The kernel gives each QP a send ring and
 * (without an SRQ) a receive ring that this process maps; posting writes
 * WQEs there (include/uapi/rdma/superp-abi.h has the protocol): a send
 * list costs one doorbell, a receive list none. A UD send names its
 * destination by the AH's number (ah.c), the remote QPN and Q_Key, and
 * is a SEND or SEND_WITH_IMM (SEND_WITH_INV is an RC QP's alone). The
 * kernel checks every WQE again; what is checked here is only what
 * writing one needs. modify, query and destroy are the plain commands.
 * qp_ex.c builds on this for ibv_create_qp_ex and the wr_* API.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "superp.h"

/* The ring must be what the kernel said and hold what was granted. */
int superp_uwq_map(struct superp_uwq *wq, int fd, uint64_t offset,
		   uint64_t size, uint32_t entries, uint32_t stride,
		   uint32_t max_wr, size_t min_stride)
{
	int err = EPROTO;	/* positive, as ibv_cmd_*() return */
	void *ring;

	if (!entries || entries & (entries - 1) || entries < max_wr ||
	    stride < min_stride ||
	    size < sizeof(struct superp_wq_ring) + (uint64_t)entries * stride)
		return err;
	ring = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    offset);
	if (ring == MAP_FAILED)
		return errno;
	wq->ring = ring;
	wq->size = size;
	wq->entries = entries;
	wq->stride = stride;
	wq->max_wr = max_wr;
	wq->producer = 0;
	pthread_spin_init(&wq->lock, PTHREAD_PROCESS_PRIVATE);
	return 0;
}

void superp_uwq_unmap(struct superp_uwq *wq)
{
	if (!wq->ring)
		return;
	munmap(wq->ring, wq->size);
	pthread_spin_destroy(&wq->lock);
	wq->ring = NULL;
}

void *superp_uwq_slot(struct superp_uwq *wq, uint32_t pos)
{
	return (char *)(wq->ring + 1) +
	       (size_t)(pos & (wq->entries - 1)) * wq->stride;
}

/* Whether one more WQE would exceed what the QP was granted. */
bool superp_uwq_full(struct superp_uwq *wq)
{
	uint32_t cons = __atomic_load_n(&wq->ring->consumer, __ATOMIC_ACQUIRE);

	return wq->producer - cons >= wq->max_wr;
}

static void superp_uwq_publish(struct superp_uwq *wq)
{
	__atomic_store_n(&wq->ring->producer, wq->producer, __ATOMIC_RELEASE);
}

/*
 * After the create command: map the rings the kernel made (ibv_create_qp
 * and ibv_create_qp_ex alike). On failure nothing stays mapped.
 */
int superp_qp_map_rings(struct superp_qp *qp, int fd,
			const struct superp_create_qp_resp *drv,
			const struct ibv_qp_cap *cap, bool srq)
{
	int err;

	err = superp_uwq_map(&qp->sq, fd, drv->sq_offset, drv->sq_size,
			     drv->sq_entries, drv->sq_stride, cap->max_send_wr,
			     sizeof(struct superp_uwqe_send));
	if (err)
		return err;
	qp->sq.max_sge = cap->max_send_sge;
	qp->sq.max_inline = cap->max_inline_data;
	if (srq)
		return 0;
	err = superp_uwq_map(&qp->rq, fd, drv->rq_offset, drv->rq_size,
			     drv->rq_entries, drv->rq_stride, cap->max_recv_wr,
			     sizeof(struct superp_uwqe_recv));
	if (err) {
		superp_uwq_unmap(&qp->sq);
		return err;
	}
	qp->rq.max_sge = cap->max_recv_sge;
	return 0;
}

/*
 * The types whose WQEs this provider writes: RC, and UD. Any other fails
 * before the kernel is asked, with EOPNOTSUPP and a line in the verbs log.
 */
int superp_qp_type_check(struct ibv_context *ibctx, enum ibv_qp_type type)
{
	int err = EOPNOTSUPP;	/* positive, as ibv_cmd_*() return */

	if (type == IBV_QPT_RC || type == IBV_QPT_UD)
		return 0;
	__verbs_log(&to_sctx(ibctx)->vctx, VERBS_LOG_ERR,
		    "superp: %s: QP type %d not supported (RC and UD only)\n",
		    ibctx->device->name, type);
	return err;
}

struct ibv_qp *superp_create_qp(struct ibv_pd *pd,
				struct ibv_qp_init_attr *attr)
{
	struct superp_create_qp_resp_drv resp = {};
	struct superp_create_qp_cmd_drv cmd = {};	/* comp_mask 0 */
	struct superp_qp *qp;
	int err;

	err = superp_qp_type_check(pd->context, attr->qp_type);
	if (err) {
		errno = err;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	err = ibv_cmd_create_qp(pd, &qp->vqp.qp, attr, &cmd.ibv_cmd,
				sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	if (err)
		goto err_free;
	err = superp_qp_map_rings(qp, pd->context->cmd_fd, &resp.drv,
				  &attr->cap, attr->srq);
	if (err)
		goto err_destroy;
	return &qp->vqp.qp;

err_destroy:
	ibv_cmd_destroy_qp(&qp->vqp.qp);
err_free:
	free(qp);
	errno = err;
	return NULL;
}

/* RESET empties both queues: the kernel starts its positions again at 0. */
static void superp_uwq_reset(struct superp_uwq *wq)
{
	if (!wq->ring)
		return;
	pthread_spin_lock(&wq->lock);
	wq->producer = 0;
	superp_uwq_publish(wq);
	pthread_spin_unlock(&wq->lock);
}

int superp_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
		     int attr_mask)
{
	struct superp_qp *qp = to_sqp(ibqp);
	struct ibv_modify_qp cmd = {};
	int err;

	err = ibv_cmd_modify_qp(ibqp, attr, attr_mask, &cmd, sizeof(cmd));
	if (!err && (attr_mask & IBV_QP_STATE) &&
	    attr->qp_state == IBV_QPS_RESET) {
		superp_uwq_reset(&qp->sq);
		superp_uwq_reset(&qp->rq);
	}
	return err;
}

int superp_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
		    int attr_mask, struct ibv_qp_init_attr *init_attr)
{
	struct ibv_query_qp cmd = {};

	return ibv_cmd_query_qp(ibqp, attr, attr_mask, init_attr, &cmd,
				sizeof(cmd));
}

/* Only freed once the kernel has let go of it, as for CQs. */
int superp_destroy_qp(struct ibv_qp *ibqp)
{
	struct superp_qp *qp = to_sqp(ibqp);
	int err;

	err = ibv_cmd_destroy_qp(ibqp);
	if (err)
		return err;
	superp_uwq_unmap(&qp->rq);
	superp_uwq_unmap(&qp->sq);
	free(qp);
	return 0;
}

/* Inline data: the bytes of every SGE, copied after the WQE header. */
static int superp_wqe_inline(struct superp_uwq *sq, struct ibv_send_wr *wr,
			     struct superp_uwqe_send *u)
{
	char *dst = (char *)(u + 1);
	uint32_t total = 0;
	int i, err = EINVAL;

	for (i = 0; i < wr->num_sge; i++) {
		uint32_t len = wr->sg_list[i].length;

		if (len > sq->max_inline - total)
			return err;
		memcpy(dst + total, (void *)(uintptr_t)wr->sg_list[i].addr,
		       len);
		total += len;
	}
	u->inline_len = total;
	return 0;
}

/*
 * An opcode this provider does not write, or one the QP's type does not
 * have (a UD QP only sends), is refused with EINVAL, and so are LOCAL_INV
 * and BIND_MW when the kernel does not take them (wqe_ops). Those two are
 * local: no data, no inline; a bind is FENCE and SIGNALED at most.
 */
static int superp_wqe_send(struct ibv_context *ibctx, struct superp_uwq *sq,
			   bool ud, struct ibv_send_wr *wr,
			   struct superp_uwqe_send *u)
{
	uint32_t ops = to_sctx(ibctx)->wqe_ops;
	int i, err = EINVAL;

	if (wr->send_flags & ~SUPERP_SEND_FLAGS || wr->num_sge < 0)
		return err;
	if (ud && wr->opcode != IBV_WR_SEND &&
	    wr->opcode != IBV_WR_SEND_WITH_IMM)
		return err;
	memset(u, 0, sizeof(*u));
	if (wr->opcode == IBV_WR_SEND_WITH_IMM ||
	    wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
		u->imm_data = wr->imm_data;
	else if (wr->opcode == IBV_WR_SEND_WITH_INV)
		u->imm_data = wr->invalidate_rkey;
	switch (wr->opcode) {
	case IBV_WR_SEND_WITH_IMM:
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_SEND:
		if (ud && superp_wqe_set_ud(u, wr->wr.ud.ah,
					    wr->wr.ud.remote_qpn,
					    wr->wr.ud.remote_qkey))
			return err;
		break;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_READ:
		u->remote_addr = wr->wr.rdma.remote_addr;
		u->rkey = wr->wr.rdma.rkey;
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		u->remote_addr = wr->wr.atomic.remote_addr;
		u->compare_add = wr->wr.atomic.compare_add;
		u->swap = wr->wr.atomic.swap;
		u->rkey = wr->wr.atomic.rkey;
		break;
	case IBV_WR_LOCAL_INV:
		if (!(ops & SUPERP_WQE_OP_LOCAL_INV) ||
		    wr->send_flags & IBV_SEND_INLINE)
			return err;
		u->imm_data = wr->invalidate_rkey;
		break;
	case IBV_WR_BIND_MW:
		if (wr->send_flags & ~(IBV_SEND_FENCE | IBV_SEND_SIGNALED) ||
		    superp_wqe_bind(ibctx, u, wr->bind_mw.mw, wr->bind_mw.rkey,
				    &wr->bind_mw.bind_info))
			return err;
		break;
	default:
		return err;
	}
	u->wr_id = wr->wr_id;
	u->opcode = wr->opcode;
	u->send_flags = wr->send_flags;
	if (wr->opcode == IBV_WR_LOCAL_INV || wr->opcode == IBV_WR_BIND_MW)
		return 0;
	if (wr->send_flags & IBV_SEND_INLINE)
		return superp_wqe_inline(sq, wr, u);
	if ((uint32_t)wr->num_sge > sq->max_sge)
		return err;
	u->num_sge = wr->num_sge;
	for (i = 0; i < wr->num_sge; i++) {
		struct superp_usge *s = (struct superp_usge *)(u + 1) + i;

		s->addr = wr->sg_list[i].addr;
		s->length = wr->sg_list[i].length;
		s->lkey = wr->sg_list[i].lkey;
	}
	return 0;
}

/*
 * Under sq->lock, WQEs written from start to sq->producer: publish them
 * and ring the doorbell, unless the kernel still works on this queue and
 * comes for them itself (SUPERP_WQ_BUSY). If the kernel refuses (QP not ready to send) it
 * took nothing: the producer goes back to start and the errno is returned.
 */
int superp_sq_doorbell(struct ibv_qp *ibqp, struct superp_uwq *sq,
		       uint32_t start)
{
	struct ibv_send_wr *none;
	int err;

	if (sq->producer == start)
		return 0;
	superp_uwq_publish(sq);
	/*
	 * Producer before flags: either the kernel, clearing SUPERP_WQ_BUSY
	 * and then reading producer, sees these WQEs, or this sees the flag
	 * gone and rings (superp-abi.h).
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sq->ring->flags, __ATOMIC_RELAXED) & SUPERP_WQ_BUSY)
		return 0;
	err = ibv_cmd_post_send(ibqp, NULL, &none);
	if (err) {
		sq->producer = start;
		superp_uwq_publish(sq);
	}
	return err;
}

int superp_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		     struct ibv_send_wr **bad_wr)
{
	struct superp_uwq *sq = &to_sqp(ibqp)->sq;
	struct ibv_send_wr *first = wr, *refused = NULL;
	bool ud = ibqp->qp_type == IBV_QPT_UD;
	uint32_t start;
	int err = 0, ret;

	pthread_spin_lock(&sq->lock);
	start = sq->producer;
	for (; wr; wr = wr->next) {
		if (superp_uwq_full(sq))
			err = ENOMEM;
		else
			err = superp_wqe_send(ibqp->context, sq, ud, wr,
					      superp_uwq_slot(sq, sq->producer));
		if (err) {
			refused = wr;
			break;
		}
		sq->producer++;
	}
	ret = superp_sq_doorbell(ibqp, sq, start);
	if (ret) {
		/* Not ready to send: the kernel took nothing. */
		err = ret;
		refused = first;
	}
	pthread_spin_unlock(&sq->lock);
	if (err)
		*bad_wr = refused;
	return err;
}

static int superp_wqe_recv(struct superp_uwq *rq, struct ibv_recv_wr *wr,
			   struct superp_uwqe_recv *u)
{
	struct superp_usge *s = (struct superp_usge *)(u + 1);
	int i, err = EINVAL;

	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > rq->max_sge)
		return err;
	u->wr_id = wr->wr_id;
	u->num_sge = wr->num_sge;
	u->reserved = 0;
	for (i = 0; i < wr->num_sge; i++) {
		s[i].addr = wr->sg_list[i].addr;
		s[i].length = wr->sg_list[i].length;
		s[i].lkey = wr->sg_list[i].lkey;
	}
	return 0;
}

/*
 * Under rq->lock: writes a receive list into a QP's or an SRQ's ring and
 * publishes it. Return: 0, or the errno with *bad_wr at the WR refused
 * (those before it are posted).
 */
int superp_uwq_post_recv(struct superp_uwq *rq, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad_wr)
{
	uint32_t start = rq->producer;
	int err = 0;

	for (; wr; wr = wr->next) {
		if (superp_uwq_full(rq))
			err = ENOMEM;
		else
			err = superp_wqe_recv(rq, wr,
					      superp_uwq_slot(rq, rq->producer));
		if (err) {
			*bad_wr = wr;
			break;
		}
		rq->producer++;
	}
	if (rq->producer != start)
		superp_uwq_publish(rq);
	return err;
}

int superp_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		     struct ibv_recv_wr **bad_wr)
{
	struct superp_uwq *rq = &to_sqp(ibqp)->rq;
	uint32_t start;
	int err = EINVAL;

	if (!rq->ring || ibqp->state == IBV_QPS_RESET) {
		*bad_wr = wr;
		return err;	/* an SRQ's QP, or not yet usable */
	}
	pthread_spin_lock(&rq->lock);
	start = rq->producer;
	err = superp_uwq_post_recv(rq, wr, bad_wr);
	if (rq->producer != start) {
		/* Pairs with the kernel's barrier between flag and producer. */
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (__atomic_load_n(&rq->ring->flags, __ATOMIC_RELAXED) &
		    SUPERP_WQ_FLUSH) {
			struct ibv_recv_wr *none;

			ibv_cmd_post_recv(ibqp, NULL, &none);
		}
	}
	pthread_spin_unlock(&rq->lock);
	return err;
}
