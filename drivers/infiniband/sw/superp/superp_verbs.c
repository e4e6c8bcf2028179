// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the verbs device. Device and port queries, user contexts (for
 * the rdma-core provider), protection domains and user memory regions
 * (superp_mr.c), and the objects of kernel consumers: CQs (superp_cq.c),
 * RC QPs (superp_qp.c, superp_queue.c, superp_post.c), SRQs
 * (superp_srq.c) and AHs (superp_ah.c). Documentation/superp-verbs.rst.
 */
#include <kunit/visibility.h>
#include <linux/etherdevice.h>
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <rdma/superp-abi.h>

#include "superp.h"
#include "superp_ah.h"
#include "superp_cq.h"
#include "superp_dev.h"
#include "superp_mmap.h"
#include "superp_mr.h"
#include "superp_mw.h"
#include "superp_qp.h"
#include "superp_srq.h"

/* The largest operation headers (wire-format.rst) fit the MTU reserve. */
static_assert(sizeof(struct superp_atomic_cas_op) <= SUPERP_MAX_OP_HLEN);
static_assert(sizeof(struct superp_atomic_fadd_op) <= SUPERP_MAX_OP_HLEN);
static_assert(sizeof(struct superp_rdma_read_op) <= SUPERP_MAX_OP_HLEN);

bool superp_port_active(const struct superp_dev *sdev)
{
	return netif_running(sdev->ndev) && netif_carrier_ok(sdev->ndev);
}

static int superp_query_device(struct ib_device *ibdev,
			       struct ib_device_attr *attr,
			       struct ib_udata *udata)
{
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	attr->fw_ver = 0;
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = 0xffffff;	/* no OUI: software device */
	attr->max_pd = SUPERP_MAX_PD;
	attr->max_mr = SUPERP_MAX_MR;
	attr->max_pkeys = SUPERP_MAX_PKEYS;
	attr->max_cq = SUPERP_MAX_CQ;
	attr->max_cqe = SUPERP_MAX_CQE;
	attr->max_qp = SUPERP_MAX_QP;
	attr->max_qp_wr = SUPERP_MAX_QP_WR;
	attr->max_send_sge = SUPERP_MAX_SGE;
	attr->max_recv_sge = SUPERP_MAX_SGE;
	attr->max_sge_rd = SUPERP_MAX_SGE;
	attr->max_qp_rd_atom = SUPERP_MAX_RD_ATOM;
	attr->max_qp_init_rd_atom = SUPERP_MAX_RD_ATOM;
	attr->max_res_rd_atom = SUPERP_MAX_QP * SUPERP_MAX_RD_ATOM;
	attr->max_srq = SUPERP_MAX_SRQ;
	attr->max_srq_wr = SUPERP_MAX_SRQ_WR;
	attr->max_srq_sge = SUPERP_MAX_SRQ_SGE;
	attr->max_ah = SUPERP_MAX_AH;
	attr->max_fast_reg_page_list_len = SUPERP_MAX_FAST_REG_PAGES;
	attr->max_mw = SUPERP_MAX_MW;
	/*
	 * RNR: the target's wait and the initiator's retry (superp-rc.rst).
	 * Memory management extensions: fast registration (IB_WR_REG_MR),
	 * IB_WR_LOCAL_INV and IB_WR_SEND_WITH_INV, which the target runs as
	 * a remote invalidation (wire-format.rst, opcode 28). Memory windows
	 * of type 1 and type 2B (superp_mw.c).
	 */
	attr->device_cap_flags = IB_DEVICE_SYS_IMAGE_GUID |
				 IB_DEVICE_MEM_MGT_EXTENSIONS |
				 IB_DEVICE_MEM_WINDOW |
				 IB_DEVICE_MEM_WINDOW_TYPE_2B |
				 IB_DEVICE_RC_RNR_NAK_GEN;
	attr->atomic_cap = SUPERP_ATOMIC_CAP;
	attr->masked_atomic_cap = IB_ATOMIC_NONE;
	/*
	 * Kernel PDs get SUPERP_LOCAL_DMA_LKEY: the core then needs no DMA MR
	 * (get_dma_mr) for them.
	 */
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG | IBK_LOCAL_DMA_LKEY;
	return 0;
}

static int superp_query_port(struct ib_device *ibdev, u32 port,
			     struct ib_port_attr *attr)
{
	struct superp_dev *sdev = to_sdev(ibdev);
	int err;

	/* The caller has zeroed *attr. */
	attr->gid_tbl_len = SUPERP_GID_TBL_LEN;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = 0x80000000;
	attr->pkey_tbl_len = SUPERP_MAX_PKEYS;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = superp_active_mtu(READ_ONCE(sdev->ndev->mtu));
	if (superp_port_active(sdev)) {
		attr->state = IB_PORT_ACTIVE;
		attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	} else if (netif_running(sdev->ndev)) {
		/* Up, no carrier: waiting for the link, as rxe reports it. */
		attr->state = IB_PORT_DOWN;
		attr->phys_state = IB_PORT_PHYS_STATE_POLLING;
	} else {
		attr->state = IB_PORT_DOWN;
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	}
	err = ib_get_eth_speed(ibdev, port, &attr->active_speed,
			       &attr->active_width);
	return err;
}

static int superp_get_port_immutable(struct ib_device *ibdev, u32 port,
				     struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr = {};
	int err;

	err = ib_query_port(ibdev, port, &attr);
	if (err)
		return err;
	/*
	 * A RoCE v2 port, as the core knows them: GIDs from the netdev's IP
	 * addresses, MADs over QP1 (the GSI QP, a UD QP of superp_ud.c), and
	 * with them the IB CM and rdma_cm.
	 */
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

/* One P_Key, the default full-membership key, as on any RoCE port. */
static int superp_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			     u16 *pkey)
{
	if (index > 0)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static enum rdma_link_layer superp_get_link_layer(struct ib_device *ibdev,
						  u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

/*
 * ibv_open_device(): the provider and the driver agree on the ABI version
 * (checked by libibverbs from sysfs, repeated in the response) and on the
 * optional fields each side filled in (comp_mask).
 */
static int superp_alloc_ucontext(struct ib_ucontext *ibuc,
				 struct ib_udata *udata)
{
	struct superp_alloc_ucontext_resp resp = {
		.comp_mask = SUPERP_UCTX_RESP_WQE_OPS,
		.abi_version = SUPERP_UVERBS_ABI_VERSION,
		.wqe_ops = SUPERP_WQE_OP_LOCAL_INV | SUPERP_WQE_OP_BIND_MW,
	};
	struct superp_alloc_ucontext_cmd cmd = {};
	int err;

	if (udata->inlen > sizeof(cmd) &&
	    !ib_is_udata_cleared(udata, sizeof(cmd),
				 udata->inlen - sizeof(cmd))) {
		superp_refuse(ibuc->device, "open: unknown trailing request data\n");
		return -EOPNOTSUPP;
	}
	err = ib_copy_from_udata(&cmd, udata, min(sizeof(cmd), udata->inlen));
	if (err)
		return err;
	if (cmd.comp_mask) {
		superp_refuse(ibuc->device, "open: unknown comp_mask 0x%llx\n",
			      cmd.comp_mask);
		return -EOPNOTSUPP;
	}
	return ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
}

/* Nothing is kept per context yet; the core requires the callback. */
static void superp_dealloc_ucontext(struct ib_ucontext *ibuc)
{
}

/*
 * Having this callback tells the core that a device can be removed (rdma
 * link delete, netdev gone, rmmod) while programs still hold contexts: the
 * core destroys their objects through the usual destroy callbacks, zaps
 * their mappings and sends them IB_EVENT_DEVICE_FATAL, instead of waiting
 * for them to exit. Nothing of ours needs more than that.
 */
static void superp_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

/*
 * PDs hold nothing yet, but max_pd is a promise: keep it. Kernel PDs use
 * SUPERP_LOCAL_DMA_LKEY (the core sets it). alloc_pd carries no driver
 * data: trailing bytes are refused unless zero, as the ABI promises.
 */
static int superp_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibpd->device);

	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen)) {
		superp_refuse(ibpd->device, "alloc_pd: unknown driver data\n");
		return -EOPNOTSUPP;
	}
	if (atomic_inc_return(&sdev->pd_count) > SUPERP_MAX_PD) {
		atomic_dec(&sdev->pd_count);
		return -ENOMEM;
	}
	return 0;
}

static int superp_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	atomic_dec(&to_sdev(ibpd->device)->pd_count);
	return 0;
}

static const struct ib_device_ops superp_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_abi_ver = SUPERP_UVERBS_ABI_VERSION,

	.alloc_mr = superp_alloc_mr,
	.alloc_mw = superp_alloc_mw,
	.alloc_pd = superp_alloc_pd,
	.create_ah = superp_create_ah,
	.create_user_ah = superp_create_ah,
	.create_srq = superp_create_srq,
	.destroy_ah = superp_destroy_ah,
	.destroy_srq = superp_destroy_srq,
	.modify_srq = superp_modify_srq,
	.post_srq_recv = superp_post_srq_recv,
	.query_ah = superp_query_ah,
	.query_srq = superp_query_srq,
	.alloc_ucontext = superp_alloc_ucontext,
	.create_cq = superp_create_cq,
	.create_qp = superp_create_qp,
	.dealloc_driver = superp_dealloc_driver,
	.dealloc_mw = superp_dealloc_mw,
	.dealloc_pd = superp_dealloc_pd,
	.dealloc_ucontext = superp_dealloc_ucontext,
	.disassociate_ucontext = superp_disassociate_ucontext,
	.dereg_mr = superp_dereg_mr,
	.destroy_cq = superp_destroy_cq,
	.destroy_qp = superp_destroy_qp,
	.get_dma_mr = superp_get_dma_mr,
	.get_link_layer = superp_get_link_layer,
	.get_port_immutable = superp_get_port_immutable,
	.map_mr_sg = superp_map_mr_sg,
	.mmap = superp_mmap,
	.mmap_free = superp_mmap_free,
	.modify_qp = superp_modify_qp,
	.poll_cq = superp_poll_cq,
	.post_recv = superp_post_recv,
	.post_send = superp_post_send,
	.query_device = superp_query_device,
	.query_pkey = superp_query_pkey,
	.query_port = superp_query_port,
	.query_qp = superp_query_qp,
	.reg_user_mr = superp_reg_user_mr,
	.rereg_user_mr = superp_rereg_user_mr,
	.req_notify_cq = superp_req_notify_cq,
	.resize_cq = superp_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, superp_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, superp_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_mw, superp_mw, ibmw),
	INIT_RDMA_OBJ_SIZE(ib_pd, superp_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, superp_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, superp_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, superp_ucontext, ibuc),
};

/**
 * superp_register_device - register @sdev with the RDMA core as @name
 * @sdev: device allocated by ib_alloc_device(), with ndev set
 * @name: device name chosen by the user (`rdma link add NAME ...`)
 *
 * The node GUID is derived from the netdev's MAC address (EUI-64), so it
 * is stable across reloads like rxe's.
 */
int superp_register_device(struct superp_dev *sdev, const char *name)
{
	struct ib_device *ibdev = &sdev->ibdev;
	int err;

	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = num_possible_cpus();
	ibdev->local_dma_lkey = SUPERP_LOCAL_DMA_LKEY;
	strscpy(ibdev->node_desc, "superp", sizeof(ibdev->node_desc));
	addrconf_addr_eui48((unsigned char *)&ibdev->node_guid,
			    sdev->ndev->dev_addr);
	ib_set_device_ops(ibdev, &superp_dev_ops);
	/*
	 * The core enables only the object commands by default. The data
	 * path commands the provider sends: arming a user CQ (it polls the
	 * ring itself) and the doorbells of a user QP's rings, POST_SEND and
	 * POST_RECV with no work requests (superp_uqp.c).
	 */
	ibdev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ) |
				  BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				  BIT_ULL(IB_USER_VERBS_CMD_POST_RECV);
	ib_set_device_ops(ibdev, &superp_hw_stats_ops);
	xa_init_flags(&sdev->qps, XA_FLAGS_ALLOC);
	superp_ah_table_init(sdev);

	err = ib_device_set_netdev(ibdev, sdev->ndev, SUPERP_PORT);
	if (err)
		return err;
	return ib_register_device(ibdev, name, NULL);
}
