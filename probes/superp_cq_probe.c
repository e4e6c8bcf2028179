// SPDX-License-Identifier: GPL-2.0
/*
 * Not a KUnit suite: a test instrument that delivers completions into a
 * CQ of an ib_superp device, so that selftests/verbs/user_cq.sh can check
 * a process's CQ ring (polling, ibv_cq_ex, resize, overflow) with
 * completions it knows field by field, failed ones among them, delivered
 * when the test asks: a transfer between QPs gives neither as exactly.
 * See Documentation/testing.rst.
 *
 * Writing "DEV CQN COUNT FIRST" to /sys/module/superp_cq_probe/parameters/
 * inject delivers COUNT completions through superp_cq_post(), the path
 * the QPs use, into the CQ whose resource id (the cqn of `rdma resource
 * show cq`) is CQN on device DEV. Completion k (wr_id = FIRST + k) is the
 * pattern superp_cq_probe_wc() builds, which superp-verbs-probe checks
 * field by field. The write fails with ENOSPC when the CQ refused one
 * for being full, EIO when it refused one for being in error (after an
 * overflow), ENOENT when there is no such CQ, ENODEV when DEV is not a
 * superp device. The caller must not destroy the CQ during the write.
 *
 * Locking: the parameter lock serialises writes, which the one stand-in
 * QP relies on.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <rdma/ib_verbs.h>
#include <rdma/restrack.h>

#include "superp_cq.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A QP only in name: the ring copies nothing from it but qp_num. */
static struct ib_qp probe_qp;

/*
 * Completion @k, a function of its wr_id that superp-verbs-probe repeats:
 * every fifth one an error, odd ones RECV with immediate data, even ones
 * SEND; byte_len, qp_num and src_qp derived from the wr_id.
 */
static void superp_cq_probe_wc(u64 k, struct ib_wc *wc)
{
	probe_qp.qp_num = 0x100 + (k & 0xff);
	*wc = (struct ib_wc){
		.wr_id = k,
		.status = k % 5 == 4 ? IB_WC_REM_ACCESS_ERR : IB_WC_SUCCESS,
		.vendor_err = k % 5 == 4 ? 0x50 + (k & 0xf) : 0,
		.opcode = k & 1 ? IB_WC_RECV : IB_WC_SEND,
		.byte_len = (u32)k * 7,
		.qp = &probe_qp,
		.src_qp = (u32)k + 1,
	};
	if (k & 1) {
		wc->wc_flags = IB_WC_WITH_IMM;
		wc->ex.imm_data = cpu_to_be32(0xabcd0000 ^ (u32)k);
	}
}

static int superp_cq_probe_inject(const char *val,
				  const struct kernel_param *kp)
{
	struct rdma_restrack_entry *res;
	struct ib_device *ibdev;
	char name[IB_DEVICE_NAME_MAX];
	u32 cqn, count, i;
	struct ib_wc wc;
	u64 first;
	int err = 0;

	if (sscanf(val, "%63s %u %u %llu", name, &cqn, &count, &first) != 4)
		return -EINVAL;
	ibdev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (!ibdev)
		return -ENODEV;
	if (!ibdev->ops.owner ||
	    strcmp(module_name(ibdev->ops.owner), "ib_superp")) {
		err = -ENODEV;
		goto out_dev;
	}
	res = rdma_restrack_get_byid(ibdev, RDMA_RESTRACK_CQ, cqn);
	if (IS_ERR(res)) {
		err = -ENOENT;
		goto out_dev;
	}
	for (i = 0; i < count && !err; i++) {
		superp_cq_probe_wc(first + i, &wc);
		err = superp_cq_post(to_scq(container_of(res, struct ib_cq, res)),
				     &wc, false);
		if (err && err != -EIO)
			err = -ENOSPC;
	}
	rdma_restrack_put(res);
out_dev:
	ib_device_put(ibdev);
	return err;
}

static const struct kernel_param_ops superp_cq_probe_inject_ops = {
	.set = superp_cq_probe_inject,
};
module_param_cb(inject, &superp_cq_probe_inject_ops, NULL, 0200);
MODULE_PARM_DESC(inject, "\"DEV CQN COUNT FIRST\": deliver COUNT completions");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test instrument: completions into an ib_superp CQ");
