// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: registration with libibverbs, devices and user contexts.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "superp.h"

static void superp_free_context(struct ibv_context *ibctx)
{
	struct superp_context *ctx = to_sctx(ibctx);

	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static const struct verbs_context_ops superp_ctx_ops = {
	.alloc_mw = superp_alloc_mw,
	.alloc_pd = superp_alloc_pd,
	.bind_mw = superp_bind_mw,
	.create_ah = superp_create_ah,
	.create_cq = superp_create_cq,
	.create_cq_ex = superp_create_cq_ex,
	.create_qp = superp_create_qp,
	.create_qp_ex = superp_create_qp_ex,
	.create_srq = superp_create_srq,
	.dealloc_mw = superp_dealloc_mw,
	.dealloc_pd = superp_dealloc_pd,
	.destroy_ah = superp_destroy_ah,
	.destroy_cq = superp_destroy_cq,
	.destroy_qp = superp_destroy_qp,
	.destroy_srq = superp_destroy_srq,
	.dereg_mr = superp_dereg_mr,
	.free_context = superp_free_context,
	.modify_qp = superp_modify_qp,
	.modify_srq = superp_modify_srq,
	.poll_cq = superp_poll_cq,
	.post_recv = superp_post_recv,
	.post_send = superp_post_send,
	.post_srq_recv = superp_post_srq_recv,
	.query_device_ex = superp_query_device_ex,
	.query_port = superp_query_port,
	.query_qp = superp_query_qp,
	.query_srq = superp_query_srq,
	.reg_mr = superp_reg_mr,
	.req_notify_cq = superp_req_notify_cq,
	.rereg_mr = superp_rereg_mr,
	.resize_cq = superp_resize_cq,
};

/*
 * ibv_open_device(). cmd_fd is ours from here on: on failure it is closed
 * by _verbs_init_and_alloc_context() or verbs_uninit_context().
 */
static struct verbs_context *superp_alloc_context(struct ibv_device *ibdev,
						  int cmd_fd,
						  void *private_data)
{
	/* libibverbs takes the offset of our verbs_context as a pointer. */
	struct verbs_context *vctx_offset = (struct verbs_context *)
		(uintptr_t)offsetof(struct superp_context, vctx);
	struct superp_get_context_cmd cmd = {};	/* comp_mask 0 */
	struct superp_get_context_resp resp = {};
	struct superp_context *ctx;
	int err;

	ctx = _verbs_init_and_alloc_context(ibdev, cmd_fd, sizeof(*ctx),
					    vctx_offset, RDMA_DRIVER_UNKNOWN);
	if (!ctx)
		return NULL;

	err = ibv_cmd_get_context(&ctx->vctx, &cmd.ibv_cmd, sizeof(cmd),
				  &resp.ibv_resp, sizeof(resp));
	if (err)
		goto err_free;

	/* Unknown comp_mask bits announce fields we do not read: ignore. */
	if (resp.drv.abi_version != SUPERP_UVERBS_ABI_VERSION) {
		__verbs_log(&ctx->vctx, VERBS_LOG_ERR,
			    "superp: %s: kernel ABI %u, provider ABI %u\n",
			    ibdev->name, resp.drv.abi_version,
			    SUPERP_UVERBS_ABI_VERSION);
		err = EPROTO;
		goto err_free;
	}

	if (resp.drv.comp_mask & SUPERP_UCTX_RESP_WQE_OPS)
		ctx->wqe_ops = resp.drv.wqe_ops;
	verbs_set_ops(&ctx->vctx, &superp_ctx_ops);
	return &ctx->vctx;

err_free:
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
	errno = err;
	return NULL;
}

static struct verbs_device *superp_alloc_device(struct verbs_sysfs_dev *sdev)
{
	struct superp_device *dev;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	return &dev->vdev;
}

static void superp_uninit_device(struct verbs_device *vdev)
{
	free(superp_container_of(vdev, struct superp_device, vdev));
}

/*
 * ib_superp is out of tree and reports RDMA_DRIVER_UNKNOWN, so devices are
 * matched by name: libibverbs offers "rdma_device:N<ibdev name>".
 */
static const struct verbs_match_ent superp_match_table[] = {
	{
		.u.modalias = "rdma_device:*Nsuperp*",
		.kind = VERBS_MATCH_MODALIAS,
	},
	{}
};

static const struct verbs_device_ops superp_dev_ops = {
	.name = "superp",
	.match_min_abi_version = SUPERP_UVERBS_ABI_VERSION,
	.match_max_abi_version = SUPERP_UVERBS_ABI_VERSION,
	.match_table = superp_match_table,
	.alloc_device = superp_alloc_device,
	.uninit_device = superp_uninit_device,
	.alloc_context = superp_alloc_context,
};

/* Runs when libibverbs dlopen()s us; nothing else is exported. */
static void __attribute__((constructor)) superp_register(void)
{
	verbs_register_driver_34(&superp_dev_ops);
}
