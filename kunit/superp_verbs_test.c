// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the ib_superp verbs device. The MR table (keys that do not come
 * back, lookups that hold the memory, an MR replaced under its key by a
 * reregistration), the active MTU, and a device
 * attached to eth0 the way `rdma link add` does it, used by a kernel
 * consumer (ULP-style ib_alloc_pd()).
 */
#include <kunit/test.h>
#include <linux/netdevice.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

#include "superp.h"
#include "superp_dev.h"
#include "superp_mr.h"
#include "superp_rc.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* The first key found twice in keys[0..n) (sorted in place), or 0. */
static u32 repeated_key(u32 *keys, unsigned long n)
{
	unsigned long i;

	sort(keys, n, sizeof(*keys), cmp_u32, NULL);
	for (i = 1; i < n; i++)
		if (keys[i] == keys[i - 1])
			return keys[i];
	return 0;
}

struct mr_fixture {
	struct superp_mr_table t;
	struct superp_mr *mrs;		/* SUPERP_MAX_MR of them */
	u32 *keys;
};

static int mr_init(struct kunit *test)
{
	struct mr_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->mrs = vzalloc(array_size(SUPERP_MAX_MR, sizeof(*f->mrs)));
	f->keys = vmalloc(array_size(3 * SUPERP_MAX_MR, sizeof(*f->keys)));
	if (!f->mrs || !f->keys || superp_mr_table_init(&f->t)) {
		vfree(f->mrs);
		vfree(f->keys);
		return -ENOMEM;
	}
	test->priv = f;
	return 0;
}

static void mr_exit(struct kunit *test)
{
	struct mr_fixture *f = test->priv;

	xa_destroy(&f->t.xa);	/* what a failed case left behind */
	superp_mr_table_destroy(&f->t);
	vfree(f->keys);
	vfree(f->mrs);
}

/* Deregistration as superp_dereg_mr() does it, minus the pages. */
static void mr_remove(struct mr_fixture *f, struct superp_mr *mr)
{
	superp_mr_unpublish(&f->t, mr);
	superp_mr_wait_unused(mr);
}

/*
 * A defect once found here: with one per-device 8-bit counter, a plain
 * register/deregister loop handed out the same key again after 65,536
 * registrations. Past twice that, every key is new, and each stale key misses
 * at once.
 */
static void mr_keys_register_loop(struct kunit *test)
{
	const unsigned long n = 2 * SUPERP_MAX_MR + 1024;
	struct mr_fixture *f = test->priv;
	struct superp_mr *mr = &f->mrs[0];
	unsigned long i;

	/*
	 * Loops this long offer to reschedule: the debug guests run without
	 * voluntary preemption, and under TCG they outlast the soft lockup
	 * detector's 20 s.
	 */
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ(test, superp_mr_publish(&f->t, mr), 0);
		f->keys[i] = mr->ibmr.lkey;
		KUNIT_ASSERT_EQ(test, mr->ibmr.rkey, mr->ibmr.lkey);
		KUNIT_ASSERT_NE(test, mr->ibmr.lkey, SUPERP_LOCAL_DMA_LKEY);
		mr_remove(f, mr);
		KUNIT_ASSERT_PTR_EQ(test, superp_mr_get(&f->t, f->keys[i]), NULL);
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, repeated_key(f->keys, n), 0);
}

/*
 * A device set up again (a reboot, the module reloaded) does not hand out
 * the keys of its last incarnation, which a peer that kept its connection
 * may still present: the first 64 keys of a second table are not all the
 * first table's (with fixed first generations they were, in order).
 */
static void mr_keys_new_incarnation(struct kunit *test)
{
	struct mr_fixture *f = test->priv;
	struct superp_mr_table t2;
	struct superp_mr *other;
	unsigned int i, same = 0;

	other = kunit_kcalloc(test, 64, sizeof(*other), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_ASSERT_EQ(test, superp_mr_table_init(&t2), 0);
	for (i = 0; i < 64; i++) {
		KUNIT_ASSERT_EQ(test, superp_mr_publish(&f->t, &f->mrs[i]), 0);
		KUNIT_ASSERT_EQ(test, superp_mr_publish(&t2, &other[i]), 0);
		same += f->mrs[i].ibmr.lkey == other[i].ibmr.lkey;
	}
	KUNIT_EXPECT_LT(test, same, 64U);
	for (i = 0; i < 64; i++) {
		mr_remove(f, &f->mrs[i]);
		superp_mr_unpublish(&t2, &other[i]);
		superp_mr_wait_unused(&other[i]);
	}
	superp_mr_table_destroy(&t2);
}

/*
 * The other case of that defect: long-lived MRs fill the table but one slot,
 * which every registration then reuses. Its key comes back only after 65,535
 * reuses; the table refuses an MR beyond max_mr.
 */
static void mr_keys_one_free_slot(struct kunit *test)
{
	struct mr_fixture *f = test->priv;
	struct superp_mr *last = &f->mrs[SUPERP_MAX_MR - 1];
	struct superp_mr extra = {};
	unsigned long i;
	u32 first;

	for (i = 0; i < SUPERP_MAX_MR; i++) {
		KUNIT_ASSERT_EQ(test, superp_mr_publish(&f->t, &f->mrs[i]), 0);
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, superp_mr_publish(&f->t, &extra), -ENOMEM);

	first = last->ibmr.lkey;
	for (i = 0; i < 0xffff; i++) {
		f->keys[i] = last->ibmr.lkey;
		mr_remove(f, last);
		KUNIT_ASSERT_EQ(test, superp_mr_publish(&f->t, last), 0);
		KUNIT_ASSERT_PTR_EQ(test, superp_mr_get(&f->t, f->keys[i]), NULL);
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, repeated_key(f->keys, 0xffff), 0);
	/* Generation 0 is skipped: the 65,536th key is the first again. */
	KUNIT_EXPECT_EQ(test, last->ibmr.lkey, first);

	for (i = 0; i < SUPERP_MAX_MR; i++) {
		mr_remove(f, &f->mrs[i]);
		cond_resched();
	}
}

/*
 * Defect 2: a lookup holds the MR; deregistration hides it at once but
 * waits (here: would wait) until that reference is gone before the pages
 * may go.
 */
static void mr_lookup_holds(struct kunit *test)
{
	struct mr_fixture *f = test->priv;
	struct superp_mr *mr = &f->mrs[0], *found;

	KUNIT_ASSERT_EQ(test, superp_mr_publish(&f->t, mr), 0);
	found = superp_mr_get(&f->t, mr->ibmr.lkey);
	KUNIT_ASSERT_PTR_EQ(test, found, mr);
	/* Another generation of the same slot is another key. */
	KUNIT_EXPECT_PTR_EQ(test, superp_mr_get(&f->t, mr->ibmr.lkey ^ 1), NULL);
	KUNIT_EXPECT_PTR_EQ(test, superp_mr_get(&f->t, mr->ibmr.lkey ^ 1 << 24),
			    NULL);

	superp_mr_unpublish(&f->t, mr);
	KUNIT_EXPECT_PTR_EQ(test, superp_mr_get(&f->t, mr->ibmr.lkey), NULL);
	KUNIT_EXPECT_FALSE(test, completion_done(&mr->unused));
	superp_mr_put(found);
	KUNIT_EXPECT_TRUE(test, completion_done(&mr->unused));
	superp_mr_wait_unused(mr);
}

/*
 * Reregistration (superp_rereg_user_mr()): the new MR takes the old one's
 * slot and key in one store, lookups find it from then on while one that
 * held the old MR keeps it, and the old one's deregistration waits for
 * that holder and leaves the slot to its successor.
 */
static void mr_replace_keeps_key(struct kunit *test)
{
	struct mr_fixture *f = test->priv;
	struct superp_mr *old = &f->mrs[0], *mr = &f->mrs[1], *held, *found;
	u32 key;

	KUNIT_ASSERT_EQ(test, superp_mr_publish(&f->t, old), 0);
	key = old->ibmr.lkey;
	held = superp_mr_get(&f->t, key);
	KUNIT_ASSERT_PTR_EQ(test, held, old);
	KUNIT_EXPECT_EQ(test, superp_mr_end_binds(old), 0);
	superp_mr_replace(&f->t, old, mr);
	KUNIT_EXPECT_EQ(test, mr->ibmr.lkey, key);
	KUNIT_EXPECT_EQ(test, mr->ibmr.rkey, key);
	found = superp_mr_get(&f->t, key);
	KUNIT_EXPECT_PTR_EQ(test, found, mr);
	if (found)
		superp_mr_put(found);

	/* The old MR's deregistration: binds ended already, that is fine. */
	KUNIT_EXPECT_EQ(test, superp_mr_end_binds(old), 0);
	superp_mr_unpublish(&f->t, old);
	KUNIT_EXPECT_FALSE(test, completion_done(&old->unused));
	superp_mr_put(held);
	superp_mr_wait_unused(old);
	found = superp_mr_get(&f->t, key);
	KUNIT_EXPECT_PTR_EQ(test, found, mr);
	if (found)
		superp_mr_put(found);

	mr_remove(f, mr);
	KUNIT_EXPECT_PTR_EQ(test, superp_mr_get(&f->t, key), NULL);
}

/* The local DMA lkey is no MR's key, and only kernel PDs may use it. */
static void mr_local_dma_lkey(struct kunit *test)
{
	struct mr_fixture *f = test->priv;
	struct ib_uobject uobj = {};
	struct ib_pd kpd = {}, upd = { .uobject = &uobj };

	/* Slot 0 is the slot of key 0: fill it. */
	KUNIT_ASSERT_EQ(test, superp_mr_publish(&f->t, &f->mrs[0]), 0);
	KUNIT_EXPECT_EQ(test, f->mrs[0].ibmr.lkey >> 8 & 0xffff, 0);
	KUNIT_EXPECT_PTR_EQ(test, superp_mr_get(&f->t, SUPERP_LOCAL_DMA_LKEY),
			    NULL);
	KUNIT_EXPECT_TRUE(test, superp_lkey_is_local_dma(&kpd,
							 SUPERP_LOCAL_DMA_LKEY));
	KUNIT_EXPECT_FALSE(test, superp_lkey_is_local_dma(&upd,
							  SUPERP_LOCAL_DMA_LKEY));
	KUNIT_EXPECT_FALSE(test, superp_lkey_is_local_dma(&kpd,
							  f->mrs[0].ibmr.lkey));
	mr_remove(f, &f->mrs[0]);
}

/*
 * Defect 6: the active MTU leaves room for SUPERP_MAX_HDR_STACK (104
 * bytes) of headers beside its payload.
 */
static void active_mtu(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, SUPERP_MAX_HDR_STACK, 104);
	KUNIT_EXPECT_EQ(test, superp_active_mtu(9000), IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, superp_active_mtu(4096 + 104), IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, superp_active_mtu(4096 + 103), IB_MTU_2048);
	KUNIT_EXPECT_EQ(test, superp_active_mtu(1500), IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, superp_active_mtu(1024 + 104), IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, superp_active_mtu(1024 + 103), IB_MTU_512);
	KUNIT_EXPECT_EQ(test, superp_active_mtu(68), IB_MTU_256);
}

/*
 * An RC QP whose path MTU is the port's active MTU (or above, once the
 * link shrank) segments at what the link carries beside the largest
 * header stack, in multiples of 256 bytes; a smaller path MTU (a peer on
 * a smaller link) is kept.
 */
static void rc_segment(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, superp_rc_seg(IB_MTU_4096, 9000), 8704U);
	KUNIT_EXPECT_EQ(test, superp_rc_seg(IB_MTU_1024, 9000), 1024U);
	KUNIT_EXPECT_EQ(test, superp_rc_seg(IB_MTU_1024, 1500), 1280U);
	KUNIT_EXPECT_EQ(test, superp_rc_seg(IB_MTU_4096, 1500), 1280U);
	KUNIT_EXPECT_EQ(test, superp_rc_seg(IB_MTU_512, 1500), 512U);
	KUNIT_EXPECT_EQ(test, superp_rc_seg(IB_MTU_4096, 4096 + 104), 4096U);
	KUNIT_EXPECT_EQ(test, superp_rc_seg(IB_MTU_4096, 65535),
			(u32)SUPERP_SEG_MAX);
	KUNIT_EXPECT_EQ(test, superp_rc_seg(IB_MTU_256, 68), 256U);
}

/*
 * Defect 5: a kernel consumer (a ULP's ib_client) allocates a PD on a
 * superp device and gets a working local DMA lkey; the port offers MADs
 * and the CM, which the core's MAD agent opens over QP1.
 */
static void kernel_pd(struct kunit *test)
{
	struct net_device *ndev;
	struct ib_device *ibdev;
	struct ib_pd *pd;
	int err;

	ndev = dev_get_by_name(&init_net, "eth0");
	if (!ndev)
		kunit_skip(test, "no eth0 to attach to");
	err = superp_newlink("superp_kunit0", ndev);
	dev_put(ndev);
	KUNIT_ASSERT_EQ(test, err, 0);
	ibdev = ib_device_get_by_name("superp_kunit0", RDMA_DRIVER_UNKNOWN);
	KUNIT_ASSERT_NOT_NULL(test, ibdev);

	/* A RoCE v2 port with QP1: MADs, and with them the IB CM. */
	KUNIT_EXPECT_TRUE(test, rdma_cap_ib_mad(ibdev, SUPERP_PORT));
	KUNIT_EXPECT_TRUE(test, rdma_cap_ib_cm(ibdev, SUPERP_PORT));
	KUNIT_EXPECT_TRUE(test, rdma_protocol_roce_udp_encap(ibdev,
							     SUPERP_PORT));
	KUNIT_EXPECT_TRUE(test, ibdev->attrs.kernel_cap_flags &
			  IBK_LOCAL_DMA_LKEY);

	pd = ib_alloc_pd(ibdev, 0);
	KUNIT_EXPECT_FALSE(test, IS_ERR(pd));
	if (!IS_ERR(pd)) {
		KUNIT_EXPECT_EQ(test, pd->local_dma_lkey, SUPERP_LOCAL_DMA_LKEY);
		KUNIT_EXPECT_TRUE(test,
				  superp_lkey_is_local_dma(pd, pd->local_dma_lkey));
		KUNIT_EXPECT_PTR_EQ(test, pd->__internal_mr, NULL);
		ib_dealloc_pd(pd);
	} else {
		kunit_info(test, "ib_alloc_pd: %ld\n", PTR_ERR(pd));
	}
	ib_unregister_device_and_put(ibdev);
}

static struct kunit_case superp_verbs_cases[] = {
	KUNIT_CASE(mr_keys_register_loop),
	KUNIT_CASE(mr_keys_one_free_slot),
	KUNIT_CASE(mr_keys_new_incarnation),
	KUNIT_CASE(mr_lookup_holds),
	KUNIT_CASE(mr_replace_keeps_key),
	KUNIT_CASE(mr_local_dma_lkey),
	KUNIT_CASE(active_mtu),
	KUNIT_CASE(rc_segment),
	KUNIT_CASE(kernel_pd),
	{}
};

static struct kunit_suite superp_verbs_suite = {
	.name = "superp_verbs",
	.init = mr_init,
	.exit = mr_exit,
	.test_cases = superp_verbs_cases,
};

kunit_test_suite(superp_verbs_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the ib_superp verbs device");
