// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: queue pairs. The kernel gives each QP a send ring and (without
 * an SRQ) a receive ring that this process maps
 * (include/uapi/rdma/superp-abi.h); modify, query and destroy are the
 * plain commands. Posting work requests through the rings is the next
 * step: until then ibv_post_send() and ibv_post_recv() fail with
 * EOPNOTSUPP (libibverbs' default).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "superp.h"

static struct superp_qp *to_sqp(struct ibv_qp *ibqp)
{
	return superp_container_of(ibqp, struct superp_qp, vqp.qp);
}

/* The ring must be what the kernel said and hold what was granted. */
static int superp_uwq_map(struct superp_uwq *wq, int fd, uint64_t offset,
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
	return 0;
}

static void superp_uwq_unmap(struct superp_uwq *wq)
{
	if (wq->ring)
		munmap(wq->ring, wq->size);
	wq->ring = NULL;
}

struct ibv_qp *superp_create_qp(struct ibv_pd *pd,
				struct ibv_qp_init_attr *attr)
{
	struct superp_create_qp_resp_drv resp = {};
	struct superp_create_qp_cmd_drv cmd = {};	/* comp_mask 0 */
	int fd = pd->context->cmd_fd;
	struct superp_qp *qp;
	int err;

	qp = calloc(1, sizeof(*qp));
	if (!qp) {
		errno = ENOMEM;
		return NULL;
	}
	err = ibv_cmd_create_qp(pd, &qp->vqp.qp, attr, &cmd.ibv_cmd,
				sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	if (err)
		goto err_free;
	err = superp_uwq_map(&qp->sq, fd, resp.drv.sq_offset,
			     resp.drv.sq_size, resp.drv.sq_entries,
			     resp.drv.sq_stride, attr->cap.max_send_wr,
			     sizeof(struct superp_uwqe_send));
	if (err)
		goto err_destroy;
	if (!attr->srq) {
		err = superp_uwq_map(&qp->rq, fd, resp.drv.rq_offset,
				     resp.drv.rq_size, resp.drv.rq_entries,
				     resp.drv.rq_stride, attr->cap.max_recv_wr,
				     sizeof(struct superp_uwqe_recv));
		if (err)
			goto err_unmap;
	}
	return &qp->vqp.qp;

err_unmap:
	superp_uwq_unmap(&qp->sq);
err_destroy:
	ibv_cmd_destroy_qp(&qp->vqp.qp);
err_free:
	free(qp);
	errno = err;
	return NULL;
}

int superp_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
		     int attr_mask)
{
	struct ibv_modify_qp cmd = {};

	return ibv_cmd_modify_qp(ibqp, attr, attr_mask, &cmd, sizeof(cmd));
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
