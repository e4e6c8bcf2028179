// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the ib_superp verbs objects as a kernel consumer sees them (CQ,
 * RC QP and its state machine, SRQ, AH, fast-registration MRs), on a
 * device attached to eth0 the way `rdma link add` does it. Each case names
 * the verbs rule it checks (IBTA Vol. 1 chapters 10 and 11 as the kernel's
 * ib_verbs.h expresses them, and Documentation/superp-verbs.rst).
 */
#include <kunit/test.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>

#include "superp.h"
#include "superp_cq.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define OBJS_DEV "superp_kunit_objs"

static struct ib_device *objs_ibdev;

struct objs {
	struct kunit *test;
	struct ib_pd *pd;
	struct ib_cq *cqs[8];
	int ncq;
	int comp_calls;			/* completion handler calls */
	int cq_events;			/* IB_EVENT_CQ_ERR seen */
};

static int objs_suite_init(struct kunit_suite *suite)
{
	struct net_device *ndev;
	int err;

	ndev = dev_get_by_name(&init_net, "eth0");
	if (!ndev)
		return 0;	/* each case skips */
	err = superp_newlink(OBJS_DEV, ndev);
	dev_put(ndev);
	if (err)
		return err;
	objs_ibdev = ib_device_get_by_name(OBJS_DEV, RDMA_DRIVER_UNKNOWN);
	return objs_ibdev ? 0 : -ENODEV;
}

static void objs_suite_exit(struct kunit_suite *suite)
{
	if (objs_ibdev)
		ib_unregister_device_and_put(objs_ibdev);
	objs_ibdev = NULL;
}

static int objs_init(struct kunit *test)
{
	struct objs *o;

	if (!objs_ibdev)
		kunit_skip(test, "no eth0 to attach to");
	o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->test = test;
	o->pd = ib_alloc_pd(objs_ibdev, 0);
	if (IS_ERR(o->pd))
		return PTR_ERR(o->pd);
	test->priv = o;
	return 0;
}

/* Whatever a case left behind, in the order the core requires. */
static void objs_exit(struct kunit *test)
{
	struct objs *o = test->priv;

	if (!o)
		return;
	while (o->ncq)
		ib_destroy_cq(o->cqs[--o->ncq]);
	ib_dealloc_pd(o->pd);
}

static void objs_comp(struct ib_cq *cq, void *ctx)
{
	struct objs *o = ctx;

	o->comp_calls++;
}

static void objs_cq_event(struct ib_event *ev, void *ctx)
{
	struct objs *o = ctx;

	if (ev->event == IB_EVENT_CQ_ERR)
		o->cq_events++;
}

static struct ib_cq *objs_cq_attr(struct objs *o,
				  const struct ib_cq_init_attr *attr)
{
	struct ib_cq *cq;

	cq = ib_create_cq(objs_ibdev, objs_comp, objs_cq_event, o, attr);
	if (!IS_ERR(cq))
		o->cqs[o->ncq++] = cq;
	return cq;
}

static struct ib_cq *objs_cq(struct objs *o, int cqe)
{
	struct ib_cq_init_attr attr = { .cqe = cqe };
	struct ib_cq *cq = objs_cq_attr(o, &attr);

	KUNIT_ASSERT_FALSE(o->test, IS_ERR(cq));
	return cq;
}

/* A completion as the data path would deliver it. */
static int objs_deliver(struct ib_cq *cq, u64 wr_id, enum ib_wc_status status,
			bool solicited)
{
	struct ib_wc wc = {
		.wr_id = wr_id,
		.status = status,
		.opcode = IB_WC_RECV,
	};

	return superp_cq_post(to_scq(cq), &wc, solicited);
}

/* create_cq: 1 <= cqe <= max_cqe, comp_vector < num_comp_vectors, no flags. */
static void cq_create_checks(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_cq_init_attr attr = {};
	struct ib_cq *cq;

	attr.cqe = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_cq_attr(o, &attr)), -EINVAL);
	attr.cqe = objs_ibdev->attrs.max_cqe + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_cq_attr(o, &attr)), -EINVAL);
	attr.cqe = 1;
	attr.comp_vector = objs_ibdev->num_comp_vectors;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_cq_attr(o, &attr)), -EINVAL);
	attr.comp_vector = 0;
	attr.flags = IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_cq_attr(o, &attr)), -EOPNOTSUPP);
	attr.flags = 0;
	attr.cqe = objs_ibdev->attrs.max_cqe;
	cq = objs_cq_attr(o, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cq));
	KUNIT_EXPECT_EQ(test, cq->cqe, objs_ibdev->attrs.max_cqe);
}

/* poll_cq returns completions in the order they were delivered. */
static void cq_poll_order(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_cq *cq = objs_cq(o, 4);
	struct ib_wc wc[4];
	int i, round;

	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 4, wc), 0);
	/* Twice round the ring. */
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 3; i++)
			KUNIT_ASSERT_EQ(test, objs_deliver(cq, round * 10 + i,
							   IB_WC_SUCCESS, false), 0);
		KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 2, wc), 2);
		KUNIT_EXPECT_EQ(test, wc[0].wr_id, round * 10);
		KUNIT_EXPECT_EQ(test, wc[1].wr_id, round * 10 + 1);
		KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 4, wc), 1);
		KUNIT_EXPECT_EQ(test, wc[0].wr_id, round * 10 + 2);
	}
}

/*
 * req_notify_cq: one handler call per arm; IB_CQ_SOLICITED wakes on a
 * solicited or an unsuccessful completion only; IB_CQ_REPORT_MISSED_EVENTS
 * answers 1 when completions are waiting.
 */
static void cq_notify(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_cq *cq = objs_cq(o, 16);
	struct ib_wc wc[16];

	objs_deliver(cq, 1, IB_WC_SUCCESS, false);
	KUNIT_EXPECT_EQ(test, o->comp_calls, 0);	/* not armed */

	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP), 0);
	objs_deliver(cq, 2, IB_WC_SUCCESS, false);
	KUNIT_EXPECT_EQ(test, o->comp_calls, 1);
	objs_deliver(cq, 3, IB_WC_SUCCESS, false);
	KUNIT_EXPECT_EQ(test, o->comp_calls, 1);	/* disarmed */

	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_SOLICITED), 0);
	objs_deliver(cq, 4, IB_WC_SUCCESS, false);
	KUNIT_EXPECT_EQ(test, o->comp_calls, 1);
	objs_deliver(cq, 5, IB_WC_SUCCESS, true);
	KUNIT_EXPECT_EQ(test, o->comp_calls, 2);

	ib_req_notify_cq(cq, IB_CQ_SOLICITED);
	objs_deliver(cq, 6, IB_WC_REM_ACCESS_ERR, false);
	KUNIT_EXPECT_EQ(test, o->comp_calls, 3);

	/* A solicited arm does not narrow a pending any-completion arm. */
	ib_req_notify_cq(cq, IB_CQ_NEXT_COMP);
	ib_req_notify_cq(cq, IB_CQ_SOLICITED);
	objs_deliver(cq, 7, IB_WC_SUCCESS, false);
	KUNIT_EXPECT_EQ(test, o->comp_calls, 4);

	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP |
					       IB_CQ_REPORT_MISSED_EVENTS), 1);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 16, wc), 7);
	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP |
					       IB_CQ_REPORT_MISSED_EVENTS), 0);
}

/*
 * A full CQ refuses the completion with -EOVERFLOW, keeps what it holds
 * and raises IB_EVENT_CQ_ERR once until it is polled.
 */
static void cq_overflow_event(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_cq *cq = objs_cq(o, 2);
	struct ib_wc wc[4];

	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 1, IB_WC_SUCCESS, false), 0);
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 2, IB_WC_SUCCESS, false), 0);
	KUNIT_EXPECT_EQ(test, o->cq_events, 0);
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 3, IB_WC_SUCCESS, false),
			-EOVERFLOW);
	KUNIT_EXPECT_EQ(test, o->cq_events, 1);
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 4, IB_WC_SUCCESS, false),
			-EOVERFLOW);
	KUNIT_EXPECT_EQ(test, o->cq_events, 1);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 4, wc), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 2);
	/* Polled: a new overflow is a new event. */
	objs_deliver(cq, 5, IB_WC_SUCCESS, false);
	objs_deliver(cq, 6, IB_WC_SUCCESS, false);
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 7, IB_WC_SUCCESS, false),
			-EOVERFLOW);
	KUNIT_EXPECT_EQ(test, o->cq_events, 2);
}

/* resize_cq keeps the entries, in order; smaller than them is -EINVAL. */
static void cq_resize(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_cq *cq = objs_cq(o, 4);
	struct ib_wc wc[8];
	int i;

	/* Move the ring's head so that the entries wrap round. */
	for (i = 0; i < 3; i++)
		objs_deliver(cq, 100 + i, IB_WC_SUCCESS, false);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 3, wc), 3);
	for (i = 0; i < 3; i++)
		objs_deliver(cq, i, IB_WC_SUCCESS, false);

	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, objs_ibdev->attrs.max_cqe + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, cq->cqe, 4);
	KUNIT_ASSERT_EQ(test, ib_resize_cq(cq, 8), 0);
	KUNIT_EXPECT_EQ(test, cq->cqe, 8);
	for (i = 3; i < 8; i++)
		KUNIT_EXPECT_EQ(test, objs_deliver(cq, i, IB_WC_SUCCESS, false), 0);
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 8, IB_WC_SUCCESS, false),
			-EOVERFLOW);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 8, wc), 8);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, i);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 3), 0);
	KUNIT_EXPECT_EQ(test, cq->cqe, 3);
}

static struct kunit_case superp_objects_cases[] = {
	KUNIT_CASE(cq_create_checks),
	KUNIT_CASE(cq_poll_order),
	KUNIT_CASE(cq_notify),
	KUNIT_CASE(cq_overflow_event),
	KUNIT_CASE(cq_resize),
	{}
};

static struct kunit_suite superp_objects_suite = {
	.name = "superp_objects",
	.suite_init = objs_suite_init,
	.suite_exit = objs_suite_exit,
	.init = objs_init,
	.exit = objs_exit,
	.test_cases = superp_objects_cases,
};

kunit_test_suite(superp_objects_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the ib_superp verbs objects");
