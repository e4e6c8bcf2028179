// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: ibv_create_cq_ex and the ibv_cq_ex poll API over the same ring
 * as ibv_poll_cq (cq.c).
 *
 * A batch runs from a successful start_poll to end_poll with the CQ's
 * lock held, as the API allows: start_poll and next_poll step the
 * consumer index past the entry they make current, the read_* functions
 * read that entry in the ring, and end_poll hands everything read back to
 * the kernel with one release store of the consumer index, after the last
 * read. start_poll that finds nothing returns ENOENT with the lock
 * dropped (the caller then does not call end_poll); EIO instead when the
 * CQ is in error (it overflowed) and nothing is left to read.
 */
#include <errno.h>
#include <stdlib.h>

#include "superp.h"

/* The poll API returns positive errno values. */
#define SUPERP_POLL_EMPTY	ENOENT
#define SUPERP_POLL_BAD_ATTR	EINVAL
#define SUPERP_POLL_CQ_ERROR	EIO	/* overflowed, nothing left to read */

static struct superp_cq *cq_ex_to_scq(struct ibv_cq_ex *cq_ex)
{
	return to_scq(ibv_cq_ex_to_cq(cq_ex));
}

/* The next entry below the producer index, or ENOENT (EIO). Lock held. */
static int superp_cq_ex_next(struct superp_cq *cq)
{
	uint32_t prod = __atomic_load_n(&cq->ring->producer, __ATOMIC_ACQUIRE);
	const struct superp_cqe *e;

	if (cq->cons == prod) {
		cq->cur = NULL;
		if (superp_cq_empty_error(cq))
			return SUPERP_POLL_CQ_ERROR;
		return SUPERP_POLL_EMPTY;
	}
	e = &cq->cqes[cq->cons & (cq->num_entries - 1)];
	cq->cons++;
	cq->cur = e;
	cq->vcq.cq_ex.status = e->status;
	cq->vcq.cq_ex.wr_id = e->wr_id;
	return 0;
}

static int superp_start_poll(struct ibv_cq_ex *cq_ex,
			     struct ibv_poll_cq_attr *attr)
{
	struct superp_cq *cq = cq_ex_to_scq(cq_ex);
	int err;

	if (attr->comp_mask)
		return SUPERP_POLL_BAD_ATTR;
	pthread_spin_lock(&cq->lock);
	err = superp_cq_ex_next(cq);
	if (err)
		pthread_spin_unlock(&cq->lock);
	return err;
}

static int superp_next_poll(struct ibv_cq_ex *cq_ex)
{
	return superp_cq_ex_next(cq_ex_to_scq(cq_ex));
}

static void superp_end_poll(struct ibv_cq_ex *cq_ex)
{
	struct superp_cq *cq = cq_ex_to_scq(cq_ex);

	cq->cur = NULL;
	__atomic_store_n(&cq->ring->consumer, cq->cons, __ATOMIC_RELEASE);
	pthread_spin_unlock(&cq->lock);
}

static const struct superp_cqe *cur(struct ibv_cq_ex *cq_ex)
{
	return cq_ex_to_scq(cq_ex)->cur;
}

static enum ibv_wc_opcode superp_read_opcode(struct ibv_cq_ex *cq_ex)
{
	return cur(cq_ex)->opcode;
}

static uint32_t superp_read_vendor_err(struct ibv_cq_ex *cq_ex)
{
	return cur(cq_ex)->vendor_err;
}

static uint32_t superp_read_byte_len(struct ibv_cq_ex *cq_ex)
{
	return cur(cq_ex)->byte_len;
}

/* Immediate data (network order) or the invalidated rkey, as in ibv_wc. */
static __be32 superp_read_imm_data(struct ibv_cq_ex *cq_ex)
{
	return (__be32)cur(cq_ex)->imm_data;
}

static uint32_t superp_read_qp_num(struct ibv_cq_ex *cq_ex)
{
	return cur(cq_ex)->qp_num;
}

static uint32_t superp_read_src_qp(struct ibv_cq_ex *cq_ex)
{
	return cur(cq_ex)->src_qp;
}

/* As ibv_poll_cq's wc_flags, IBV_WC_GRH among them. */
static unsigned int superp_read_wc_flags(struct ibv_cq_ex *cq_ex)
{
	return superp_cqe_wc_flags(cur(cq_ex));
}

/* Ethernet link layer: no LIDs and no service level, as ibv_poll_cq says. */
static uint32_t superp_read_slid(struct ibv_cq_ex *cq_ex)
{
	return 0;
}

static uint8_t superp_read_sl(struct ibv_cq_ex *cq_ex)
{
	return 0;
}

static uint8_t superp_read_dlid_path_bits(struct ibv_cq_ex *cq_ex)
{
	return 0;
}

/* What the ring carries; timestamps, VLANs, flow tags and TM info not. */
#define SUPERP_CQ_EX_WC_FLAGS	IBV_WC_STANDARD_FLAGS

/*
 * Refuses (EOPNOTSUPP) wc_flags we cannot serve, comp_mask bits other
 * than FLAGS (a parent domain is not supported) and flags other than
 * SINGLE_THREADED (a hint; the lock stays). Only the read_* functions the
 * caller asked for are installed, with the three always present.
 */
struct ibv_cq_ex *superp_create_cq_ex(struct ibv_context *ibctx,
				      struct ibv_cq_init_attr_ex *attr)
{
	struct superp_cq *cq;
	struct ibv_cq_ex *x;

	if ((attr->wc_flags & ~(uint64_t)SUPERP_CQ_EX_WC_FLAGS) ||
	    (attr->comp_mask & ~(uint32_t)IBV_CQ_INIT_ATTR_MASK_FLAGS) ||
	    ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
	     (attr->flags & ~(uint32_t)IBV_CREATE_CQ_ATTR_SINGLE_THREADED))) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	cq = superp_cq_new(ibctx, attr, true);
	if (!cq)
		return NULL;
	x = &cq->vcq.cq_ex;
	x->start_poll = superp_start_poll;
	x->next_poll = superp_next_poll;
	x->end_poll = superp_end_poll;
	x->read_opcode = superp_read_opcode;
	x->read_vendor_err = superp_read_vendor_err;
	x->read_wc_flags = superp_read_wc_flags;
	if (attr->wc_flags & IBV_WC_EX_WITH_BYTE_LEN)
		x->read_byte_len = superp_read_byte_len;
	if (attr->wc_flags & IBV_WC_EX_WITH_IMM)
		x->read_imm_data = superp_read_imm_data;
	if (attr->wc_flags & IBV_WC_EX_WITH_QP_NUM)
		x->read_qp_num = superp_read_qp_num;
	if (attr->wc_flags & IBV_WC_EX_WITH_SRC_QP)
		x->read_src_qp = superp_read_src_qp;
	if (attr->wc_flags & IBV_WC_EX_WITH_SLID)
		x->read_slid = superp_read_slid;
	if (attr->wc_flags & IBV_WC_EX_WITH_SL)
		x->read_sl = superp_read_sl;
	if (attr->wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
		x->read_dlid_path_bits = superp_read_dlid_path_bits;
	return x;
}
