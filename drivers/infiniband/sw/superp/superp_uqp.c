// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the rings of a user QP (created through the provider).
 *
 * create_qp with udata allocates a send ring and, without an SRQ, a
 * receive ring (superp_mmap.c) and returns where to map them; the layout
 * is in include/uapi/rdma/superp-abi.h. The kernel work queues stay as
 * for a kernel QP: the rings only carry WQEs to them. Until the kernel
 * drains the rings, a user QP refuses work request lists from uverbs
 * (superp_queue.c): their SGEs and inline data are user addresses.
 *
 * No lock of its own: the rings are set up before the QP is published
 * and released after it is unpublished (superp_qp.c).
 */
#include <kunit/visibility.h>
#include <linux/log2.h>
#include <rdma/uverbs_ioctl.h>

#include "superp.h"
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
VISIBLE_IF_KUNIT void superp_uwq_geometry(u32 max_wr, u32 max_sge,
					  u32 max_inline, size_t hdr,
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

static int superp_uqp_ring(struct superp_uqp_ring *r, struct ib_ucontext *uc,
			   const struct superp_uwq_geom *g, u64 *offset,
			   u64 *size)
{
	r->ring = superp_ring_alloc(uc, g->size, &r->map, offset);
	if (!r->ring)
		return -ENOMEM;
	r->entries = g->entries;
	r->stride = g->stride;
	*size = g->size;
	return 0;
}

static int superp_uqp_check_cmd(struct superp_qp *qp, struct ib_udata *udata)
{
	struct superp_create_qp_cmd cmd = {};
	int err;

	if (udata->inlen > sizeof(cmd) &&
	    !ib_is_udata_cleared(udata, sizeof(cmd),
				 udata->inlen - sizeof(cmd))) {
		ibdev_dbg(qp->ibqp.device, "create_qp: unknown trailing request data\n");
		return -EOPNOTSUPP;
	}
	err = ib_copy_from_udata(&cmd, udata, min(sizeof(cmd), udata->inlen));
	if (err)
		return err;
	if (cmd.comp_mask) {
		ibdev_dbg(qp->ibqp.device, "create_qp: unknown comp_mask 0x%llx\n",
			  cmd.comp_mask);
		return -EOPNOTSUPP;
	}
	if (udata->outlen < sizeof(struct superp_create_qp_resp))
		return -EINVAL;
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
	struct superp_ucontext *uc;
	struct superp_uwq_geom g;
	int err;

	err = superp_uqp_check_cmd(qp, udata);
	if (err)
		return err;
	uc = rdma_udata_to_drv_context(udata, struct superp_ucontext, ibuc);
	if (!uc)
		return -EINVAL;

	superp_uwq_geometry(qp->sq.max_wr, qp->sq.max_sge, qp->sq.max_inline,
			    sizeof(struct superp_uwqe_send), &g);
	err = superp_uqp_ring(&qp->usq, &uc->ibuc, &g, &resp.sq_offset,
			      &resp.sq_size);
	if (err)
		return err;
	resp.sq_entries = g.entries;
	resp.sq_stride = g.stride;
	if (!qp->srq) {
		superp_uwq_geometry(qp->rq.max_wr, qp->rq.max_sge, 0,
				    sizeof(struct superp_uwqe_recv), &g);
		err = superp_uqp_ring(&qp->urq, &uc->ibuc, &g, &resp.rq_offset,
				      &resp.rq_size);
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
void superp_uqp_destroy(struct superp_qp *qp)
{
	superp_ring_release(qp->usq.map);
	superp_ring_release(qp->urq.map);
	memset(&qp->usq, 0, sizeof(qp->usq));
	memset(&qp->urq, 0, sizeof(qp->urq));
}
