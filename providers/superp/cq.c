// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: completion queues. The kernel writes completions into a ring
 * this process maps (include/uapi/rdma/superp-abi.h has the layout and
 * the index protocol); polling reads the ring with no system call.
 * Arming is the plain REQ_NOTIFY_CQ command, and completion channels are
 * libibverbs' own: the kernel signals them.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "superp.h"

static struct superp_cq *to_scq(struct ibv_cq *ibcq)
{
	return superp_container_of(ibcq, struct superp_cq, ibcq);
}

struct ibv_cq *superp_create_cq(struct ibv_context *ibctx, int cqe,
				struct ibv_comp_channel *channel,
				int comp_vector)
{
	struct superp_create_cq_resp_drv resp = {};
	struct superp_create_cq_cmd_drv cmd = {};	/* comp_mask 0 */
	struct superp_cq *cq;
	void *ring;
	int err;

	cq = calloc(1, sizeof(*cq));
	if (!cq) {
		errno = ENOMEM;
		return NULL;
	}
	err = pthread_spin_init(&cq->lock, PTHREAD_PROCESS_PRIVATE);
	if (err)
		goto err_free;
	err = ibv_cmd_create_cq(ibctx, cqe, channel, comp_vector, &cq->ibcq,
				&cmd.ibv_cmd, sizeof(cmd),
				&resp.ibv_resp, sizeof(resp));
	if (err)
		goto err_lock;

	/* The ring must be what the kernel said and hold what was asked. */
	if (!resp.drv.num_entries ||
	    resp.drv.num_entries & (resp.drv.num_entries - 1) ||
	    resp.drv.num_entries < (uint32_t)cqe ||
	    resp.drv.ring_size < sizeof(struct superp_cq_ring) +
	    (size_t)resp.drv.num_entries * sizeof(struct superp_cqe)) {
		err = EPROTO;
		goto err_destroy;
	}
	ring = mmap(NULL, resp.drv.ring_size, PROT_READ | PROT_WRITE,
		    MAP_SHARED, ibctx->cmd_fd, resp.drv.ring_offset);
	if (ring == MAP_FAILED) {
		err = errno;
		goto err_destroy;
	}
	cq->ring = ring;
	cq->cqes = (struct superp_cqe *)(cq->ring + 1);
	cq->ring_size = resp.drv.ring_size;
	cq->num_entries = resp.drv.num_entries;
	return &cq->ibcq;

err_destroy:
	ibv_cmd_destroy_cq(&cq->ibcq);
err_lock:
	pthread_spin_destroy(&cq->lock);
err_free:
	free(cq);
	errno = err;
	return NULL;
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

static void superp_cqe_to_wc(const struct superp_cqe *e, struct ibv_wc *wc)
{
	*wc = (struct ibv_wc){
		.wr_id = e->wr_id,
		.status = e->status,
		.opcode = e->opcode,
		.vendor_err = e->vendor_err,
		.byte_len = e->byte_len,
		.qp_num = e->qp_num,
		.src_qp = e->src_qp,
		.pkey_index = e->pkey_index,
	};
	if (e->wc_flags & SUPERP_CQE_WITH_IMM) {
		wc->wc_flags |= IBV_WC_WITH_IMM;
		wc->imm_data = e->imm_data;
	} else if (e->wc_flags & SUPERP_CQE_WITH_INV) {
		wc->wc_flags |= IBV_WC_WITH_INV;
		wc->invalidated_rkey = e->imm_data;
	}
}

/*
 * No system call: entries below the kernel's producer index (acquire
 * load: their contents are visible) are ours to read until we store the
 * consumer index past them (release: the kernel may reuse them after).
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
	pthread_spin_unlock(&cq->lock);
	return n;
}

/* One system call; the usual arm-then-poll-again rule applies. */
int superp_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
	return ibv_cmd_req_notify_cq(ibcq, solicited_only);
}
