// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: memory regions. A user MR pins its pages (ib_umem) and gets a
 * key: the upper 24 bits index the device's MR table, the low 8 bits are a
 * per-device counter, so a stale key (from a deregistered MR whose index
 * was reused) does not match the new MR. lkey and rkey are the same key;
 * access flags decide what a remote peer may do with it.
 *
 * The MR structure is freed after an RCU grace period, so that the
 * receive path can look keys up without a lock.
 */
#include <linux/xarray.h>
#include <rdma/ib_umem.h>

#include "superp.h"

/* Access flags ib_superp implements; the core has checked the combination. */
#define SUPERP_MR_ACCESS (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			  IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC | \
			  IB_ACCESS_RELAXED_ORDERING)

void superp_mr_table_init(struct superp_dev *sdev)
{
	xa_init_flags(&sdev->mrs, XA_FLAGS_ALLOC1);
}

/* Called when the device is freed: the core has deregistered every MR. */
void superp_mr_table_destroy(struct superp_dev *sdev)
{
	WARN_ON(!xa_empty(&sdev->mrs));
	xa_destroy(&sdev->mrs);
}

static int superp_mr_insert(struct superp_dev *sdev, struct superp_mr *mr)
{
	u32 index;
	int err;

	err = xa_alloc_cyclic(&sdev->mrs, &index, mr,
			      XA_LIMIT(1, SUPERP_MAX_MR), &sdev->mr_next,
			      GFP_KERNEL);
	if (err < 0)
		return err == -EBUSY ? -ENOMEM : err;
	mr->ibmr.lkey = index << 8 | (u8)atomic_inc_return(&sdev->mr_key);
	mr->ibmr.rkey = mr->ibmr.lkey;
	return 0;
}

struct ib_mr *superp_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				 u64 iova, int access, struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibpd->device);
	struct superp_mr *mr;
	int err;

	if (access & ~SUPERP_MR_ACCESS) {
		ibdev_dbg(&sdev->ibdev, "reg_mr: unsupported access 0x%x\n",
			  access & ~SUPERP_MR_ACCESS);
		return ERR_PTR(-EOPNOTSUPP);
	}
	if (!length)
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(&sdev->ibdev, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		goto err_free;
	}
	mr->access = access;
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	err = superp_mr_insert(sdev, mr);
	if (err)
		goto err_umem;
	return &mr->ibmr;

err_umem:
	ib_umem_release(mr->umem);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

int superp_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibmr->device);
	struct superp_mr *mr = to_smr(ibmr);

	xa_erase(&sdev->mrs, ibmr->lkey >> 8);
	ib_umem_release(mr->umem);
	kfree_rcu(mr, rcu);
	return 0;
}
