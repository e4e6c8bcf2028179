// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: completion queues. The kernel writes completions into a ring
 * this process maps (include/uapi/rdma/superp-abi.h has the layout and
 * the index protocol); polling reads the ring with no system call.
 * Arming is the plain REQ_NOTIFY_CQ command, and completion channels are
 * libibverbs' own: the kernel signals them. Resizing swaps the ring under
 * the CQ's lock (superp_resize_cq()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "superp.h"

/* The ring must be what the kernel said and hold what was asked. */
static bool superp_cq_ring_ok(uint32_t n, uint64_t size, int cqe)
{
	return n && !(n & (n - 1)) && n >= (uint32_t)cqe &&
	       size >= sizeof(struct superp_cq_ring) +
		       (uint64_t)n * sizeof(struct superp_cqe);
}

static int superp_cq_map(struct superp_cq *cq, struct ibv_context *ibctx,
			 uint64_t offset, uint64_t size, uint32_t n)
{
	void *ring;

	ring = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		    ibctx->cmd_fd, offset);
	if (ring == MAP_FAILED)
		return errno;
	cq->ring = ring;
	cq->cqes = (struct superp_cqe *)(cq->ring + 1);
	cq->ring_size = size;
	cq->num_entries = n;
	return 0;
}

/*
 * Both create verbs: the plain command, or the extended one when @attr
 * came through ibv_create_cq_ex() (@ex).
 */
struct superp_cq *superp_cq_new(struct ibv_context *ibctx,
				struct ibv_cq_init_attr_ex *attr, bool ex)
{
	struct superp_create_cq_ex_resp_drv xresp = {};
	struct superp_create_cq_ex_cmd_drv xcmd = {};	/* comp_mask 0 */
	struct superp_create_cq_resp_drv resp = {};
	struct superp_create_cq_cmd_drv cmd = {};	/* comp_mask 0 */
	struct superp_create_cq_resp *drv;
	struct superp_cq *cq;
	int err;

	cq = calloc(1, sizeof(*cq));
	if (!cq) {
		errno = ENOMEM;
		return NULL;
	}
	err = pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE);
	if (err)
		goto err_free;
	if (ex) {
		err = ibv_cmd_create_cq_ex(ibctx, attr, &cq->vcq,
					   &xcmd.ibv_cmd, sizeof(xcmd),
					   &xresp.ibv_resp, sizeof(xresp), 0);
		drv = &xresp.drv;
	} else {
		err = ibv_cmd_create_cq(ibctx, attr->cqe, attr->channel,
					attr->comp_vector, &cq->vcq.cq,
					&cmd.ibv_cmd, sizeof(cmd),
					&resp.ibv_resp, sizeof(resp));
		drv = &resp.drv;
	}
	if (err)
		goto err_lock;

	if (!superp_cq_ring_ok(drv->num_entries, drv->ring_size, attr->cqe)) {
		err = EPROTO;
		goto err_destroy;
	}
	err = superp_cq_map(cq, ibctx, drv->ring_offset, drv->ring_size,
			    drv->num_entries);
	if (err)
		goto err_destroy;
	return cq;

err_destroy:
	ibv_cmd_destroy_cq(&cq->vcq.cq);
err_lock:
	pthread_spin_destroy(&cq->lock);
err_free:
	free(cq);
	errno = err;
	return NULL;
}

struct ibv_cq *superp_create_cq(struct ibv_context *ibctx, int cqe,
				struct ibv_comp_channel *channel,
				int comp_vector)
{
	struct ibv_cq_init_attr_ex attr = {
		.cqe = cqe,
		.channel = channel,
		.comp_vector = comp_vector,
	};
	struct superp_cq *cq = superp_cq_new(ibctx, &attr, false);

	return cq ? &cq->vcq.cq : NULL;
}

/*
 * The protocol of include/uapi/rdma/superp-abi.h: the kernel copies what
 * we have not read into a new ring at the same indices and from then on
 * writes only there. Pollers wait on the lock meanwhile. The new ring is
 * mapped before the old one goes, so a failure leaves a mapped ring; but
 * if the mapping fails, the kernel has switched already and no completion
 * reaches this CQ again: the error says so, and the CQ is only good for
 * ibv_destroy_cq.
 */
int superp_resize_cq(struct ibv_cq *ibcq, int cqe)
{
	struct superp_resize_cq_resp_drv resp = {};
	struct superp_resize_cq_cmd_drv cmd = {};	/* comp_mask 0 */
	struct superp_cq *cq = to_scq(ibcq);
	struct superp_cq_ring *old;
	size_t old_size;
	int err;

	pthread_spin_lock(&cq->lock);
	cmd.drv.consumer = cq->cons;
	err = ibv_cmd_resize_cq(ibcq, cqe, &cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	if (err)
		goto out;
	if (!superp_cq_ring_ok(resp.drv.num_entries, resp.drv.ring_size,
			       cqe)) {
		err = EPROTO;
		goto out;
	}
	old = cq->ring;
	old_size = cq->ring_size;
	err = superp_cq_map(cq, ibcq->context, resp.drv.ring_offset,
			    resp.drv.ring_size, resp.drv.num_entries);
	if (!err)
		munmap(old, old_size);
out:
	pthread_spin_unlock(&cq->lock);
	return err;
}

/* Only freed once the kernel has let go of it, as for PDs. */
int superp_destroy_cq(struct ibv_cq *ibcq)
{
	struct superp_cq *cq = to_scq(ibcq);
	int err;

	err = ibv_cmd_destroy_cq(ibcq);
	if (err)
		return err;
	munmap(cq->ring, cq->ring_size);
	pthread_spin_destroy(&cq->lock);
	free(cq);
	return 0;
}

/*
 * The ring's flags as ibv_wc's: immediate data or an invalidated rkey
 * (one field carries either; immediate data wins), and the GRH a UD
 * receive placed in the first 40 bytes of its buffer.
 */
unsigned int superp_cqe_wc_flags(const struct superp_cqe *e)
{
	unsigned int f = 0;

	if (e->wc_flags & SUPERP_CQE_WITH_IMM)
		f |= IBV_WC_WITH_IMM;
	else if (e->wc_flags & SUPERP_CQE_WITH_INV)
		f |= IBV_WC_WITH_INV;
	if (e->wc_flags & SUPERP_CQE_WITH_GRH)
		f |= IBV_WC_GRH;
	return f;
}

/*
 * src_qp and pkey_index are what the kernel wrote (a UD receive's sender
 * and P_Key index); slid, sl and dlid_path_bits stay 0: an Ethernet link
 * layer has no LIDs.
 */
void superp_cqe_to_wc(const struct superp_cqe *e, struct ibv_wc *wc)
{
	*wc = (struct ibv_wc){
		.wr_id = e->wr_id,
		.status = e->status,
		.opcode = e->opcode,
		.vendor_err = e->vendor_err,
		.byte_len = e->byte_len,
		.qp_num = e->qp_num,
		.src_qp = e->src_qp,
		.wc_flags = superp_cqe_wc_flags(e),
		.pkey_index = e->pkey_index,
	};
	if (wc->wc_flags & (IBV_WC_WITH_IMM | IBV_WC_WITH_INV))
		wc->imm_data = e->imm_data;	/* or invalidated_rkey */
}

/*
 * No system call: entries below the kernel's producer index (acquire
 * load: their contents are visible) are ours to read until we store the
 * consumer index past them (release: the kernel may reuse them after).
 * A CQ in error with nothing left to read returns -EIO.
 */
int superp_poll_cq(struct ibv_cq *ibcq, int num, struct ibv_wc *wc)
{
	struct superp_cq *cq = to_scq(ibcq);
	uint32_t prod;
	int n = 0;

	pthread_spin_lock(&cq->lock);
	prod = __atomic_load_n(&cq->ring->producer, __ATOMIC_ACQUIRE);
	while (n < num && cq->cons != prod) {
		superp_cqe_to_wc(&cq->cqes[cq->cons & (cq->num_entries - 1)],
				 &wc[n]);
		cq->cons++;
		n++;
	}
	if (n)
		__atomic_store_n(&cq->ring->consumer, cq->cons,
				 __ATOMIC_RELEASE);
	else if (num > 0)
		n = -superp_cq_empty_error(cq);
	pthread_spin_unlock(&cq->lock);
	return n;
}

/* One system call; the usual arm-then-poll-again rule applies. */
int superp_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
	return ibv_cmd_req_notify_cq(ibcq, solicited_only);
}
