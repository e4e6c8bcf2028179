// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: ibv_create_qp_ex and the ibv_qp_ex wr_* API over the same send
 * ring as ibv_post_send (qp.c).
 *
 * A batch runs from wr_start to wr_complete or wr_abort with the send
 * queue's lock held, as the API allows. Each wr_<opcode> writes a WQE
 * header at the producer position and steps the producer; the wr_set_*
 * functions fill in that WQE's data. Nothing is published before
 * wr_complete, which rings the doorbell once; an error inside the batch
 * (ring full, a bad flag, too many SGEs, inline data too long) is kept
 * and returned by wr_complete, which then posts nothing of the batch.
 * Only the opcodes the caller asked for get a function.
 *
 * A UD QP may ask for wr_send and wr_send_imm only, and gets
 * wr_set_ud_addr, which names the destination of the WQE being built. A
 * UD WQE left without one (at the next wr_<opcode> or at wr_complete)
 * fails the batch with EINVAL: its ah_num would be 0, which superp-abi.h
 * does not set aside, so it may name an AH of the process and the
 * message would go there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "superp.h"

#define SUPERP_QP_EX_OPS (IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM | \
			  IBV_QP_EX_WITH_SEND_WITH_INV |		    \
			  IBV_QP_EX_WITH_RDMA_WRITE |			    \
			  IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |		    \
			  IBV_QP_EX_WITH_RDMA_READ |			    \
			  IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |		    \
			  IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |		    \
			  IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_BIND_MW)
#define SUPERP_QP_EX_UD_OPS (IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM)
#define SUPERP_QP_EX_MASK (IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS | \
			   IBV_QP_INIT_ATTR_CREATE_FLAGS)

static struct superp_qp *qp_ex_to_sqp(struct ibv_qp_ex *qp_ex)
{
	return to_sqp(&qp_ex->qp_base);
}

static void superp_wr_fail(struct superp_qp *qp, int err)
{
	if (!qp->wr_err)
		qp->wr_err = err;
	qp->wr_cur = NULL;
}

/* A new WQE for OPCODE at the producer position, or NULL on error. */
static struct superp_uwqe_send *superp_wr_new(struct ibv_qp_ex *qp_ex,
					      enum ibv_wr_opcode opcode)
{
	struct superp_qp *qp = qp_ex_to_sqp(qp_ex);
	struct superp_uwq *sq = &qp->sq;
	struct superp_uwqe_send *u;

	if (qp->wr_err)
		return NULL;
	if (qp->wr_no_addr) {	/* the UD WQE before has no destination */
		superp_wr_fail(qp, EINVAL);
		return NULL;
	}
	if (superp_uwq_full(sq)) {
		superp_wr_fail(qp, ENOMEM);
		return NULL;
	}
	if (qp_ex->wr_flags & ~SUPERP_SEND_FLAGS) {
		superp_wr_fail(qp, EINVAL);
		return NULL;
	}
	u = superp_uwq_slot(sq, sq->producer);
	memset(u, 0, sizeof(*u));
	u->wr_id = qp_ex->wr_id;
	u->opcode = opcode;
	/* Inline is what wr_set_inline_data says, not the flag. */
	u->send_flags = qp_ex->wr_flags & ~IBV_SEND_INLINE;
	sq->producer++;
	qp->wr_cur = u;
	qp->wr_no_addr = qp_ex->qp_base.qp_type == IBV_QPT_UD;
	return u;
}

static void superp_wr_remote(struct ibv_qp_ex *qp_ex,
			     enum ibv_wr_opcode opcode, uint32_t rkey,
			     uint64_t remote_addr, uint32_t imm)
{
	struct superp_uwqe_send *u = superp_wr_new(qp_ex, opcode);

	if (!u)
		return;
	u->rkey = rkey;
	u->remote_addr = remote_addr;
	u->imm_data = imm;
}

static void superp_wr_send(struct ibv_qp_ex *qp_ex)
{
	superp_wr_new(qp_ex, IBV_WR_SEND);
}

static void superp_wr_send_imm(struct ibv_qp_ex *qp_ex, __be32 imm_data)
{
	struct superp_uwqe_send *u = superp_wr_new(qp_ex, IBV_WR_SEND_WITH_IMM);

	if (u)
		u->imm_data = (uint32_t)imm_data;
}

/* RC only (SUPERP_QP_EX_UD_OPS): the peer invalidates its key @invalidate_rkey. */
static void superp_wr_send_inv(struct ibv_qp_ex *qp_ex, uint32_t invalidate_rkey)
{
	struct superp_uwqe_send *u = superp_wr_new(qp_ex, IBV_WR_SEND_WITH_INV);

	if (u)
		u->imm_data = invalidate_rkey;
}

static void superp_wr_rdma_write(struct ibv_qp_ex *qp_ex, uint32_t rkey,
				 uint64_t remote_addr)
{
	superp_wr_remote(qp_ex, IBV_WR_RDMA_WRITE, rkey, remote_addr, 0);
}

static void superp_wr_rdma_write_imm(struct ibv_qp_ex *qp_ex, uint32_t rkey,
				     uint64_t remote_addr, __be32 imm_data)
{
	superp_wr_remote(qp_ex, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, remote_addr,
			 (uint32_t)imm_data);
}

static void superp_wr_rdma_read(struct ibv_qp_ex *qp_ex, uint32_t rkey,
				uint64_t remote_addr)
{
	superp_wr_remote(qp_ex, IBV_WR_RDMA_READ, rkey, remote_addr, 0);
}

static void superp_wr_atomic(struct ibv_qp_ex *qp_ex,
			     enum ibv_wr_opcode opcode, uint32_t rkey,
			     uint64_t remote_addr, uint64_t compare_add,
			     uint64_t swap)
{
	struct superp_uwqe_send *u = superp_wr_new(qp_ex, opcode);

	if (!u)
		return;
	u->rkey = rkey;
	u->remote_addr = remote_addr;
	u->compare_add = compare_add;
	u->swap = swap;
}

static void superp_wr_atomic_cmp_swp(struct ibv_qp_ex *qp_ex, uint32_t rkey,
				     uint64_t remote_addr, uint64_t compare,
				     uint64_t swap)
{
	superp_wr_atomic(qp_ex, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, remote_addr,
			 compare, swap);
}

static void superp_wr_atomic_fetch_add(struct ibv_qp_ex *qp_ex, uint32_t rkey,
				       uint64_t remote_addr, uint64_t add)
{
	superp_wr_atomic(qp_ex, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, remote_addr,
			 add, 0);
}

/* RC only; the kernel checks the bind when it runs. */
static void superp_wr_bind_mw(struct ibv_qp_ex *qp_ex, struct ibv_mw *mw,
			      uint32_t rkey,
			      const struct ibv_mw_bind_info *bind_info)
{
	struct superp_qp *qp = qp_ex_to_sqp(qp_ex);
	struct superp_uwqe_send *u;

	if (qp_ex->wr_flags & ~(IBV_SEND_FENCE | IBV_SEND_SIGNALED)) {
		superp_wr_fail(qp, EINVAL);
		return;
	}
	u = superp_wr_new(qp_ex, IBV_WR_BIND_MW);
	if (u && superp_wqe_bind(qp_ex->qp_base.context, u, mw, rkey,
				 bind_info))
		superp_wr_fail(qp, EINVAL);
}

static void superp_wr_local_inv(struct ibv_qp_ex *qp_ex,
				uint32_t invalidate_rkey)
{
	struct superp_qp *qp = qp_ex_to_sqp(qp_ex);
	struct superp_uwqe_send *u;

	if (!(to_sctx(qp_ex->qp_base.context)->wqe_ops &
	      SUPERP_WQE_OP_LOCAL_INV)) {
		superp_wr_fail(qp, EINVAL);
		return;
	}
	u = superp_wr_new(qp_ex, IBV_WR_LOCAL_INV);
	if (u)
		u->imm_data = invalidate_rkey;
}

static void superp_wr_set_ud_addr(struct ibv_qp_ex *qp_ex, struct ibv_ah *ah,
				  uint32_t remote_qpn, uint32_t remote_qkey)
{
	struct superp_qp *qp = qp_ex_to_sqp(qp_ex);

	if (!qp->wr_cur)
		return;	/* no WQE, or the batch already failed */
	if (superp_wqe_set_ud(qp->wr_cur, ah, remote_qpn, remote_qkey)) {
		superp_wr_fail(qp, EINVAL);
		return;
	}
	qp->wr_no_addr = false;
}

static void superp_wr_set_sge_list(struct ibv_qp_ex *qp_ex, size_t num_sge,
				   const struct ibv_sge *sg_list)
{
	struct superp_qp *qp = qp_ex_to_sqp(qp_ex);
	struct superp_uwqe_send *u = qp->wr_cur;
	struct superp_usge *s;
	size_t i;

	if (!u)
		return;	/* no WQE, or the batch already failed */
	if (num_sge > qp->sq.max_sge) {
		superp_wr_fail(qp, EINVAL);
		return;
	}
	s = (struct superp_usge *)(u + 1);
	for (i = 0; i < num_sge; i++) {
		s[i].addr = sg_list[i].addr;
		s[i].length = sg_list[i].length;
		s[i].lkey = sg_list[i].lkey;
	}
	u->num_sge = num_sge;
	u->inline_len = 0;
	u->send_flags &= ~IBV_SEND_INLINE;
}

static void superp_wr_set_sge(struct ibv_qp_ex *qp_ex, uint32_t lkey,
			      uint64_t addr, uint32_t length)
{
	struct ibv_sge sge = { .addr = addr, .length = length, .lkey = lkey };

	superp_wr_set_sge_list(qp_ex, 1, &sge);
}

static void superp_wr_set_inline_data_list(struct ibv_qp_ex *qp_ex,
					   size_t num_buf,
					   const struct ibv_data_buf *buf_list)
{
	struct superp_qp *qp = qp_ex_to_sqp(qp_ex);
	struct superp_uwqe_send *u = qp->wr_cur;
	char *dst;
	size_t i, total = 0;

	if (!u)
		return;
	dst = (char *)(u + 1);
	for (i = 0; i < num_buf; i++) {
		if (buf_list[i].length > qp->sq.max_inline - total) {
			superp_wr_fail(qp, EINVAL);
			return;
		}
		memcpy(dst + total, buf_list[i].addr, buf_list[i].length);
		total += buf_list[i].length;
	}
	u->inline_len = total;
	u->num_sge = 0;
	u->send_flags |= IBV_SEND_INLINE;
}

static void superp_wr_set_inline_data(struct ibv_qp_ex *qp_ex, void *addr,
				      size_t length)
{
	struct ibv_data_buf buf = { .addr = addr, .length = length };

	superp_wr_set_inline_data_list(qp_ex, 1, &buf);
}

static void superp_wr_start(struct ibv_qp_ex *qp_ex)
{
	struct superp_qp *qp = qp_ex_to_sqp(qp_ex);

	pthread_spin_lock(&qp->sq.lock);
	qp->wr_start = qp->sq.producer;
	qp->wr_err = 0;
	qp->wr_cur = NULL;
	qp->wr_no_addr = false;
}

static void superp_wr_abort(struct ibv_qp_ex *qp_ex)
{
	struct superp_qp *qp = qp_ex_to_sqp(qp_ex);

	qp->sq.producer = qp->wr_start;
	qp->wr_cur = NULL;
	pthread_spin_unlock(&qp->sq.lock);
}

static int superp_wr_complete(struct ibv_qp_ex *qp_ex)
{
	struct superp_qp *qp = qp_ex_to_sqp(qp_ex);
	int err = qp->wr_err;

	if (!err && qp->wr_no_addr)
		err = EINVAL;	/* the last UD WQE has no destination */
	if (err)
		qp->sq.producer = qp->wr_start;
	else
		err = superp_sq_doorbell(&qp_ex->qp_base, &qp->sq,
					 qp->wr_start);
	qp->wr_cur = NULL;
	pthread_spin_unlock(&qp->sq.lock);
	return err;
}

/* Only the opcodes asked for, and the setters the QP's type has. */
static void superp_qp_ex_set_ops(struct ibv_qp_ex *q, uint64_t ops)
{
	if (ops & IBV_QP_EX_WITH_SEND)
		q->wr_send = superp_wr_send;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_IMM)
		q->wr_send_imm = superp_wr_send_imm;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_INV)
		q->wr_send_inv = superp_wr_send_inv;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE)
		q->wr_rdma_write = superp_wr_rdma_write;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)
		q->wr_rdma_write_imm = superp_wr_rdma_write_imm;
	if (ops & IBV_QP_EX_WITH_RDMA_READ)
		q->wr_rdma_read = superp_wr_rdma_read;
	if (ops & IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP)
		q->wr_atomic_cmp_swp = superp_wr_atomic_cmp_swp;
	if (ops & IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)
		q->wr_atomic_fetch_add = superp_wr_atomic_fetch_add;
	if (ops & IBV_QP_EX_WITH_LOCAL_INV)
		q->wr_local_inv = superp_wr_local_inv;
	if (ops & IBV_QP_EX_WITH_BIND_MW)
		q->wr_bind_mw = superp_wr_bind_mw;
	if (q->qp_base.qp_type == IBV_QPT_UD)
		q->wr_set_ud_addr = superp_wr_set_ud_addr;
	q->wr_set_sge = superp_wr_set_sge;
	q->wr_set_sge_list = superp_wr_set_sge_list;
	q->wr_set_inline_data = superp_wr_set_inline_data;
	q->wr_set_inline_data_list = superp_wr_set_inline_data_list;
	q->wr_start = superp_wr_start;
	q->wr_complete = superp_wr_complete;
	q->wr_abort = superp_wr_abort;
}

/*
 * What ibv_create_qp_ex may ask beyond ibv_create_qp: the opcodes of its
 * type (or none: no wr_<opcode>, ibv_post_send still works), and creation
 * flags only as none at all, which is what callers that set
 * IBV_QP_INIT_ATTR_CREATE_FLAGS by habit pass. Anything else is refused
 * with EOPNOTSUPP before a command is sent, and said in the log: the
 * caller learns at create time what the device lacks.
 */
static int superp_qp_ex_check(struct ibv_context *ibctx,
			      const struct ibv_qp_init_attr_ex *attr,
			      uint64_t *ops)
{
	uint64_t allowed = attr->qp_type == IBV_QPT_UD ? SUPERP_QP_EX_UD_OPS :
			   SUPERP_QP_EX_OPS;
	int err = EOPNOTSUPP;	/* positive, as ibv_cmd_*() return */
	const char *why;

	*ops = 0;
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
		*ops = attr->send_ops_flags;
	if (attr->comp_mask & ~SUPERP_QP_EX_MASK)
		why = "comp_mask";
	else if (attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS &&
		 attr->create_flags)
		why = "create_flags";
	else if (*ops & ~allowed)
		why = "send_ops_flags";
	else
		return 0;
	__verbs_log(&to_sctx(ibctx)->vctx, VERBS_LOG_ERR,
		    "superp: %s: ibv_create_qp_ex: %s not supported\n",
		    ibctx->device->name, why);
	return err;
}

struct ibv_qp *superp_create_qp_ex(struct ibv_context *ibctx,
				   struct ibv_qp_init_attr_ex *attr)
{
	struct superp_create_qp_resp_drv resp = {};
	struct superp_create_qp_cmd_drv cmd = {};	/* comp_mask 0 */
	struct ibv_qp_init_attr_ex cmd_attr;
	struct superp_qp *qp;
	uint64_t ops;
	int err;

	err = superp_qp_type_check(ibctx, attr->qp_type);
	if (err)
		goto err_out;
	err = superp_qp_ex_check(ibctx, attr, &ops);
	if (err)
		goto err_out;
	err = EINVAL;
	if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD))
		goto err_out;
	err = ENOMEM;
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		goto err_out;
	/*
	 * The command takes no creation flags (libibverbs refuses the bit
	 * with EINVAL), and they are none: leave the bit out.
	 */
	cmd_attr = *attr;
	cmd_attr.comp_mask &= ~IBV_QP_INIT_ATTR_CREATE_FLAGS;
	err = ibv_cmd_create_qp_ex(ibctx, &qp->vqp, &cmd_attr, &cmd.ibv_cmd,
				   sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	if (err)
		goto err_free;
	attr->cap = cmd_attr.cap;	/* what the kernel granted */
	err = superp_qp_map_rings(qp, ibctx->cmd_fd, &resp.drv, &attr->cap,
				  attr->srq);
	if (err)
		goto err_destroy;
	superp_qp_ex_set_ops(&qp->vqp.qp_ex, ops);
	qp->vqp.comp_mask |= VERBS_QP_EX;
	return &qp->vqp.qp;

err_destroy:
	ibv_cmd_destroy_qp(&qp->vqp.qp);
err_free:
	free(qp);
err_out:
	errno = err;
	return NULL;
}
