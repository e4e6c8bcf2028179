// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: shared receive queues. The kernel gives each SRQ a receive ring
 * like a QP's (include/uapi/rdma/superp-abi.h); ibv_post_srq_recv writes
 * WQEs there with no system call, and a QP of the SRQ takes them when a
 * message needs a receive. modify (the limit), query and destroy are the
 * plain commands.
 */
#include <errno.h>
#include <stdlib.h>

#include "superp.h"

static struct superp_srq *to_ssrq(struct ibv_srq *ibsrq)
{
	return superp_container_of(ibsrq, struct superp_srq, ibsrq);
}

struct ibv_srq *superp_create_srq(struct ibv_pd *pd,
				  struct ibv_srq_init_attr *attr)
{
	struct superp_create_srq_resp_drv resp = {};
	struct superp_create_srq_cmd_drv cmd = {};	/* comp_mask 0 */
	struct superp_srq *srq;
	int err;

	srq = calloc(1, sizeof(*srq));
	if (!srq) {
		errno = ENOMEM;
		return NULL;
	}
	err = ibv_cmd_create_srq(pd, &srq->ibsrq, attr, &cmd.ibv_cmd,
				 sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	if (err)
		goto err_free;
	err = superp_uwq_map(&srq->rq, pd->context->cmd_fd,
			     resp.drv.ring_offset, resp.drv.ring_size,
			     resp.drv.num_entries, resp.drv.stride,
			     attr->attr.max_wr, sizeof(struct superp_uwqe_recv));
	if (err)
		goto err_destroy;
	srq->rq.max_sge = attr->attr.max_sge;
	return &srq->ibsrq;

err_destroy:
	ibv_cmd_destroy_srq(&srq->ibsrq);
err_free:
	free(srq);
	errno = err;
	return NULL;
}

/* Only the limit: the kernel does not resize a user SRQ (EOPNOTSUPP). */
int superp_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr,
		      int attr_mask)
{
	struct ibv_modify_srq cmd = {};

	return ibv_cmd_modify_srq(ibsrq, attr, attr_mask, &cmd, sizeof(cmd));
}

int superp_query_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr)
{
	struct ibv_query_srq cmd = {};

	return ibv_cmd_query_srq(ibsrq, attr, &cmd, sizeof(cmd));
}

int superp_destroy_srq(struct ibv_srq *ibsrq)
{
	struct superp_srq *srq = to_ssrq(ibsrq);
	int err;

	err = ibv_cmd_destroy_srq(ibsrq);
	if (err)
		return err;
	superp_uwq_unmap(&srq->rq);
	free(srq);
	return 0;
}

int superp_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad_wr)
{
	struct superp_uwq *rq = &to_ssrq(ibsrq)->rq;
	int err;

	pthread_spin_lock(&rq->lock);
	err = superp_uwq_post_recv(rq, wr, bad_wr);
	pthread_spin_unlock(&rq->lock);
	return err;
}
