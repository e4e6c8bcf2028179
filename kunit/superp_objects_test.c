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
#include <linux/rtnetlink.h>
#include <net/net_namespace.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "superp.h"
#include "superp_dev.h"
#include "superp_conn_table.h"
#include "superp_cq.h"
#include "superp_engine.h"
#include "superp_ah.h"
#include "superp_op.h"
#include "superp_qp.h"
#include "superp_rc.h"
#include "superp_rma.h"
#include "superp_srq.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define OBJS_DEV "superp_kunit_objs"

static struct ib_device *objs_ibdev;

struct objs {
	struct kunit *test;
	struct ib_pd *pd;
	struct ib_pd *pd2;		/* another PD, when a case needs one */
	struct ib_cq *cqs[8];
	int ncq;
	struct ib_qp *qps[4];
	int nqp;
	struct superp_mr *mrs[4];	/* published by hand (objs_mr()) */
	int nmr;
	struct ib_srq *srqs[4];
	int nsrq;
	struct ib_ah *ahs[4];
	int nah;
	struct ib_mr *frmrs[4];		/* ib_alloc_mr() */
	int nfrmr;
	int comp_calls;			/* completion handler calls */
	int cq_events;			/* IB_EVENT_CQ_ERR seen */
	int qp_fatal;			/* IB_EVENT_QP_FATAL seen */
	int sq_drained;			/* IB_EVENT_SQ_DRAINED seen */
	int srq_limit_events;		/* IB_EVENT_SRQ_LIMIT_REACHED seen */
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
	/* These cases play the data path by hand on unbound QPs. */
	superp_rc_allow_unbound = true;
	return objs_ibdev ? 0 : -ENODEV;
}

static void objs_suite_exit(struct kunit_suite *suite)
{
	superp_rc_allow_unbound = false;
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

static struct superp_dev *objs_sdev(void)
{
	return to_sdev(objs_ibdev);
}

/* Whatever a case left behind, in the order the core requires. */
static void objs_exit(struct kunit *test)
{
	struct objs *o = test->priv;

	if (!o)
		return;
	while (o->nah)
		rdma_destroy_ah(o->ahs[--o->nah], 0);
	while (o->nqp)
		ib_destroy_qp(o->qps[--o->nqp]);
	while (o->nsrq)
		ib_destroy_srq(o->srqs[--o->nsrq]);
	while (o->ncq)
		ib_destroy_cq(o->cqs[--o->ncq]);
	while (o->nfrmr)
		ib_dereg_mr(o->frmrs[--o->nfrmr]);
	while (o->nmr) {
		struct superp_mr *mr = o->mrs[--o->nmr];

		superp_mr_unpublish(&objs_sdev()->mrs, mr);
		superp_mr_wait_unused(mr);
	}
	if (o->pd2)
		ib_dealloc_pd(o->pd2);
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

/* superp0's counter @name of `rdma statistic`, or -1 when there is none. */
static s64 objs_hw_stat(struct kunit *test, const char *name)
{
	struct rdma_hw_stats *st;
	s64 v = -1;
	int i;

	st = objs_ibdev->ops.alloc_hw_port_stats(objs_ibdev, 1);
	KUNIT_ASSERT_NOT_NULL(test, st);
	objs_ibdev->ops.get_hw_stats(objs_ibdev, st, 1, 0);
	for (i = 0; i < st->num_counters; i++)
		if (!strcmp(st->descs[i].name, name))
			v = st->value[i];
	rdma_free_hw_stats_struct(st);
	return v;
}

/*
 * A CQ overflow is an error of the CQ, reported by an affiliated
 * asynchronous event (IB_EVENT_CQ_ERR): the full CQ refuses the
 * completion with -EOVERFLOW and goes into error, once and for good; it
 * keeps what it holds, poll_cq returns that and then -EIO; every later
 * completion is refused with -EIO and raises nothing. The device counts
 * the overflow (cq_overflows), also of a CQ with no event handler.
 */
static void cq_overflow_event(struct kunit *test)
{
	struct ib_cq_init_attr attr = { .cqe = 2 };
	struct objs *o = test->priv;
	struct ib_cq *cq = objs_cq(o, 2), *bare;
	s64 overflows = objs_hw_stat(test, "cq_overflows");
	struct ib_wc wc[4];

	KUNIT_EXPECT_GE(test, overflows, 0);
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 1, IB_WC_SUCCESS, false), 0);
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 2, IB_WC_SUCCESS, false), 0);
	KUNIT_EXPECT_EQ(test, o->cq_events, 0);
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 3, IB_WC_SUCCESS, false),
			-EOVERFLOW);
	KUNIT_EXPECT_EQ(test, o->cq_events, 1);
	KUNIT_EXPECT_EQ(test, objs_hw_stat(test, "cq_overflows"), overflows + 1);
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 4, IB_WC_SUCCESS, false), -EIO);
	KUNIT_EXPECT_EQ(test, o->cq_events, 1);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 4, wc), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 2);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 4, wc), -EIO);
	/* Room again, still in error. */
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 5, IB_WC_SUCCESS, false), -EIO);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 4, wc), -EIO);
	KUNIT_EXPECT_EQ(test, o->cq_events, 1);
	KUNIT_EXPECT_EQ(test, objs_hw_stat(test, "cq_overflows"), overflows + 1);

	/* No event handler: counted all the same. */
	bare = ib_create_cq(objs_ibdev, objs_comp, NULL, o, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(bare));
	o->cqs[o->ncq++] = bare;
	objs_deliver(bare, 1, IB_WC_SUCCESS, false);
	objs_deliver(bare, 2, IB_WC_SUCCESS, false);
	KUNIT_EXPECT_EQ(test, objs_deliver(bare, 3, IB_WC_SUCCESS, false),
			-EOVERFLOW);
	KUNIT_EXPECT_EQ(test, objs_hw_stat(test, "cq_overflows"), overflows + 2);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(bare, 4, wc), 2);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(bare, 4, wc), -EIO);
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

/*
 * resize_cq of a CQ that overflowed and is armed: the entries survive a
 * resize, also to exactly their number, but the CQ stays in error: the
 * next completion is refused (-EIO) and calls no handler, and poll_cq
 * returns the entries, then -EIO.
 */
static void cq_resize_armed_after_overflow(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_cq *cq = objs_cq(o, 2);
	struct ib_wc wc[4];

	objs_deliver(cq, 1, IB_WC_SUCCESS, false);
	objs_deliver(cq, 2, IB_WC_SUCCESS, false);
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 3, IB_WC_SUCCESS, false),
			-EOVERFLOW);
	KUNIT_EXPECT_EQ(test, o->cq_events, 1);
	KUNIT_ASSERT_EQ(test, ib_resize_cq(cq, 3), 0);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP), 0);
	KUNIT_EXPECT_EQ(test, objs_deliver(cq, 4, IB_WC_SUCCESS, false), -EIO);
	KUNIT_EXPECT_EQ(test, o->comp_calls, 0);
	KUNIT_EXPECT_EQ(test, o->cq_events, 1);

	KUNIT_ASSERT_EQ(test, ib_resize_cq(cq, 2), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 4, wc), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 1);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 2);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 4, wc), -EIO);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, 1), 0);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 4, wc), -EIO);
}

/* ---- RC QPs ---- */

static void objs_qp_event(struct ib_event *ev, void *ctx)
{
	struct objs *o = ctx;

	if (ev->event == IB_EVENT_QP_FATAL)
		o->qp_fatal++;
	if (ev->event == IB_EVENT_SQ_DRAINED)
		o->sq_drained++;
}

static struct ib_qp *objs_qp_init(struct objs *o, struct ib_qp_init_attr *init)
{
	struct ib_qp *qp;

	init->event_handler = objs_qp_event;
	init->qp_context = o;
	qp = ib_create_qp(o->pd, init);
	if (!IS_ERR(qp))
		o->qps[o->nqp++] = qp;
	return qp;
}

/* An RC QP with its own send and receive CQs (8 entries each). */
static struct ib_qp *objs_qp(struct objs *o, u32 wr, u32 sge)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = wr,
			.max_recv_wr = wr,
			.max_send_sge = sge,
			.max_recv_sge = sge,
		},
	};
	struct ib_qp *qp;

	init.send_cq = objs_cq(o, 64);
	init.recv_cq = objs_cq(o, 64);
	qp = objs_qp_init(o, &init);
	KUNIT_ASSERT_FALSE(o->test, IS_ERR(qp));
	return qp;
}

/* The attribute mask each transition carries (its required attributes). */
static int objs_mask(enum ib_qp_state cur, enum ib_qp_state new)
{
	if (new == IB_QPS_INIT && cur == IB_QPS_RESET)
		return IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT |
		       IB_QP_ACCESS_FLAGS;
	if (new == IB_QPS_RTR)
		return IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
		       IB_QP_DEST_QPN | IB_QP_RQ_PSN |
		       IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
	if (new == IB_QPS_SQD && cur == IB_QPS_RTS)
		return IB_QP_STATE | IB_QP_EN_SQD_ASYNC_NOTIFY;
	if (new == IB_QPS_RTS && cur != IB_QPS_SQD && cur != IB_QPS_RTS)
		return IB_QP_STATE | IB_QP_SQ_PSN | IB_QP_TIMEOUT |
		       IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
		       IB_QP_MAX_QP_RD_ATOMIC;
	return IB_QP_STATE;
}

/*
 * The destination of the cases' QPs: not one of the device's addresses
 * (that would bind them to the implicit loopback connection), of the
 * family of GID 0, the source: 192.0.2.1 or 2001:db8::1 (documentation
 * addresses, reached by nobody).
 */
static void objs_peer_gid(struct objs *o, union ib_gid *gid)
{
	KUNIT_ASSERT_EQ(o->test, rdma_query_gid(objs_ibdev, SUPERP_PORT, 0, gid),
			0);
	if (ipv6_addr_v4mapped((struct in6_addr *)gid->raw)) {
		ipv6_addr_set_v4mapped(htonl(0xc0000201),
				       (struct in6_addr *)gid->raw);
	} else {
		memset(gid->raw, 0, sizeof(gid->raw));
		gid->raw[0] = 0x20;
		gid->raw[1] = 0x01;
		gid->raw[2] = 0x0d;
		gid->raw[3] = 0xb8;
		gid->raw[15] = 1;
	}
}

/* Good values for every attribute; the AV is a loopback to GID 0. */
static void objs_attr(struct objs *o, struct ib_qp_attr *a,
		      enum ib_qp_state new, u32 dest_qpn)
{
	union ib_gid gid;

	memset(a, 0, sizeof(*a));
	a->qp_state = new;
	a->pkey_index = 0;
	a->port_num = SUPERP_PORT;
	a->qp_access_flags = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			     IB_ACCESS_REMOTE_READ;
	a->path_mtu = IB_MTU_1024;
	a->dest_qp_num = dest_qpn;
	a->rq_psn = 0x123;
	a->sq_psn = 0x456;
	a->max_dest_rd_atomic = 4;
	a->max_rd_atomic = 4;
	a->min_rnr_timer = 12;
	a->timeout = 14;
	a->retry_cnt = 7;
	a->rnr_retry = 7;
	a->en_sqd_async_notify = 1;
	objs_peer_gid(o, &gid);
	a->ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&a->ah_attr, SUPERP_PORT);
	rdma_ah_set_grh(&a->ah_attr, &gid, 0, 0, 64, 0);
}

static int objs_modify(struct objs *o, struct ib_qp *qp, enum ib_qp_state new)
{
	struct ib_qp_attr a;
	struct ib_qp_init_attr init;

	KUNIT_ASSERT_EQ(o->test, ib_query_qp(qp, &a, IB_QP_STATE, &init), 0);
	objs_attr(o, &a, new, qp->qp_num);
	return ib_modify_qp(qp, &a, objs_mask(to_sqp(qp)->state, new));
}

/* Drives @qp from its state along RESET, INIT, RTR, RTS, SQD to @state. */
static void objs_qp_to(struct objs *o, struct ib_qp *qp, enum ib_qp_state state)
{
	static const enum ib_qp_state path[] = {
		IB_QPS_RESET, IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS, IB_QPS_SQD,
	};
	int i = 0;

	/* ERR is entered from INIT here: RESET -> ERR is not a transition. */
	if (state == IB_QPS_ERR) {
		if (to_sqp(qp)->state == IB_QPS_RESET)
			objs_qp_to(o, qp, IB_QPS_INIT);
		KUNIT_ASSERT_EQ(o->test, objs_modify(o, qp, IB_QPS_ERR), 0);
		return;
	}
	while (i < ARRAY_SIZE(path) && path[i] != to_sqp(qp)->state)
		i++;
	KUNIT_ASSERT_LT(o->test, i, ARRAY_SIZE(path));
	for (i++; i < ARRAY_SIZE(path) && path[i - 1] != state; i++)
		KUNIT_ASSERT_EQ_MSG(o->test, objs_modify(o, qp, path[i]), 0,
				    "to %d", path[i]);
}

/*
 * create_qp: RC only; capabilities within the device's limits, reported
 * back; a QP number in [2, 2^24) that superp_qp_get() finds.
 */
static void qp_create_checks(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_device_attr *da = &objs_ibdev->attrs;
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 2, .max_recv_sge = 2,
			 .max_inline_data = 16 },
	};
	struct superp_qp *sqp;
	struct ib_qp *qp;
	u32 qpn;

	init.send_cq = objs_cq(o, 8);
	init.recv_cq = init.send_cq;

	init.qp_type = IB_QPT_UC;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_qp_init(o, &init)), -EOPNOTSUPP);
	init.qp_type = IB_QPT_RC;
	init.cap.max_send_wr = da->max_qp_wr + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_qp_init(o, &init)), -EINVAL);
	init.cap.max_send_wr = 4;
	init.cap.max_recv_wr = da->max_qp_wr + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_qp_init(o, &init)), -EINVAL);
	init.cap.max_recv_wr = 4;
	init.cap.max_send_sge = da->max_send_sge + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_qp_init(o, &init)), -EINVAL);
	init.cap.max_send_sge = 2;
	init.cap.max_recv_sge = da->max_recv_sge + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_qp_init(o, &init)), -EINVAL);
	init.cap.max_recv_sge = 2;
	init.cap.max_inline_data = SUPERP_MAX_INLINE + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_qp_init(o, &init)), -EINVAL);
	init.cap.max_inline_data = 16;

	qp = objs_qp_init(o, &init);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	KUNIT_EXPECT_EQ(test, init.cap.max_send_wr, 4);
	KUNIT_EXPECT_EQ(test, init.cap.max_recv_sge, 2);
	/* The inline area is the SGE area: 2 SGEs of 16 bytes. */
	KUNIT_EXPECT_EQ(test, init.cap.max_inline_data, 32);
	qpn = qp->qp_num;
	KUNIT_EXPECT_GE(test, qpn, 2);
	KUNIT_EXPECT_LE(test, qpn, 0xffffff);
	sqp = superp_qp_get(objs_sdev(), qpn);
	KUNIT_EXPECT_PTR_EQ(test, sqp, to_sqp(qp));
	if (sqp)
		superp_qp_put(sqp);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	o->nqp--;
	KUNIT_EXPECT_PTR_EQ(test, superp_qp_get(objs_sdev(), qpn), NULL);
	/* Numbers are cyclic: the next QP does not get the number back. */
	qp = objs_qp_init(o, &init);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	KUNIT_EXPECT_NE(test, qp->qp_num, qpn);
}

/*
 * Every transition of the RC state machine (IBTA Vol. 1 11.2.1.2, the
 * table ib_modify_qp_is_ok() encodes), from every reachable state, with
 * the attributes the transition requires: the legal ones land in the new
 * state, every other one is -EINVAL and leaves the state as it was. RC
 * never reaches SQE.
 */
static void qp_state_machine(struct kunit *test)
{
	static const bool legal[IB_QPS_ERR + 1][IB_QPS_ERR + 1] = {
		[IB_QPS_RESET] = { [IB_QPS_RESET] = 1, [IB_QPS_INIT] = 1 },
		[IB_QPS_INIT] = { [IB_QPS_RESET] = 1, [IB_QPS_INIT] = 1,
				  [IB_QPS_RTR] = 1, [IB_QPS_ERR] = 1 },
		[IB_QPS_RTR] = { [IB_QPS_RESET] = 1, [IB_QPS_RTS] = 1,
				 [IB_QPS_ERR] = 1 },
		[IB_QPS_RTS] = { [IB_QPS_RESET] = 1, [IB_QPS_RTS] = 1,
				 [IB_QPS_SQD] = 1, [IB_QPS_ERR] = 1 },
		[IB_QPS_SQD] = { [IB_QPS_RESET] = 1, [IB_QPS_RTS] = 1,
				 [IB_QPS_SQD] = 1, [IB_QPS_ERR] = 1 },
		[IB_QPS_ERR] = { [IB_QPS_RESET] = 1, [IB_QPS_ERR] = 1 },
	};
	static const enum ib_qp_state from[] = {
		IB_QPS_RESET, IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS, IB_QPS_SQD,
		IB_QPS_ERR,
	};
	struct objs *o = test->priv;
	struct ib_qp_init_attr init;
	struct ib_qp_attr a;
	int i, new, err;

	for (i = 0; i < ARRAY_SIZE(from); i++) {
		for (new = IB_QPS_RESET; new <= IB_QPS_ERR; new++) {
			struct ib_qp *qp = objs_qp(o, 2, 1);
			enum ib_qp_state cur = from[i];

			objs_qp_to(o, qp, cur);
			err = objs_modify(o, qp, new);
			KUNIT_EXPECT_EQ_MSG(test, err, legal[cur][new] ? 0 : -EINVAL,
					    "%d -> %d", cur, new);
			KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &a, IB_QP_STATE,
							  &init), 0);
			KUNIT_EXPECT_EQ_MSG(test, a.qp_state,
					    legal[cur][new] ? new : cur,
					    "%d -> %d", cur, new);
			/* Keep the CQs and QPs of the fixture few. */
			ib_destroy_qp(qp);
			o->nqp--;
			ib_destroy_cq(o->cqs[--o->ncq]);
			ib_destroy_cq(o->cqs[--o->ncq]);
		}
	}
}

/* A required attribute missing, or an optional one not allowed: -EINVAL. */
static void qp_transition_masks(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_qp *qp = objs_qp(o, 2, 1);
	struct ib_qp_attr a;

	int init_mask = objs_mask(IB_QPS_RESET, IB_QPS_INIT);
	int rtr_mask = objs_mask(IB_QPS_INIT, IB_QPS_RTR);

	objs_attr(o, &a, IB_QPS_INIT, 0);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PORT |
					   IB_QP_PKEY_INDEX), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, init_mask | IB_QP_SQ_PSN),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, init_mask), 0);
	objs_attr(o, &a, IB_QPS_RTR, qp->qp_num);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, rtr_mask & ~IB_QP_AV),
			-EINVAL);
	/* IB_QP_CUR_STATE must name the state the QP is in. */
	a.cur_qp_state = IB_QPS_RESET;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, rtr_mask | IB_QP_CUR_STATE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, to_sqp(qp)->state, IB_QPS_INIT);
}

/*
 * Our checks beyond the mask: each bad value is -EINVAL and changes
 * nothing (the QP stays where it was, with the attributes it had).
 */
static void qp_attr_checks(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_qp *qp = objs_qp(o, 2, 1);
	int init_mask = objs_mask(IB_QPS_RESET, IB_QPS_INIT);
	int rtr_mask = objs_mask(IB_QPS_INIT, IB_QPS_RTR);
	int rts_mask = objs_mask(IB_QPS_RTR, IB_QPS_RTS);
	struct ib_qp_init_attr init;
	struct ib_qp_attr a, q;

	objs_attr(o, &a, IB_QPS_INIT, 0);
	a.qp_access_flags = IB_ACCESS_MW_BIND << 4;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, init_mask), -EINVAL);
	objs_attr(o, &a, IB_QPS_INIT, 0);
	a.pkey_index = 1;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, init_mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, to_sqp(qp)->state, IB_QPS_RESET);
	objs_qp_to(o, qp, IB_QPS_INIT);

#define BAD_RTR(field, value) do {					\
		objs_attr(o, &a, IB_QPS_RTR, qp->qp_num);		\
		a.field = value;					\
		KUNIT_EXPECT_EQ_MSG(test, ib_modify_qp(qp, &a, rtr_mask),	\
				    -EINVAL, #field " = " #value);	\
	} while (0)
	BAD_RTR(dest_qp_num, 0x1000000);
	BAD_RTR(max_dest_rd_atomic, objs_ibdev->attrs.max_qp_rd_atom + 1);
	BAD_RTR(min_rnr_timer, 32);
	BAD_RTR(path_mtu, IB_MTU_4096 + 1);
	/* The GID index of an empty entry (the core resolves it: its errno). */
	objs_attr(o, &a, IB_QPS_RTR, qp->qp_num);
	a.ah_attr.grh.sgid_index = 255;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, rtr_mask), -ENODATA);
	BAD_RTR(ah_attr.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_EQ(test, to_sqp(qp)->state, IB_QPS_INIT);
	objs_qp_to(o, qp, IB_QPS_RTR);

#define BAD_RTS(field, value) do {					\
		objs_attr(o, &a, IB_QPS_RTS, qp->qp_num);		\
		a.field = value;					\
		KUNIT_EXPECT_EQ_MSG(test, ib_modify_qp(qp, &a, rts_mask),	\
				    -EINVAL, #field " = " #value);	\
	} while (0)
	BAD_RTS(timeout, 32);
	BAD_RTS(retry_cnt, 8);
	BAD_RTS(rnr_retry, 8);
	BAD_RTS(max_rd_atomic, objs_ibdev->attrs.max_qp_init_rd_atom + 1);
	KUNIT_EXPECT_EQ(test, to_sqp(qp)->state, IB_QPS_RTR);
	/* The core masks PSNs to 24 bits; the driver refuses more itself. */
	objs_attr(o, &a, IB_QPS_RTS, qp->qp_num);
	a.sq_psn = 0x1000000;
	KUNIT_EXPECT_EQ(test, objs_ibdev->ops.modify_qp(qp, &a, rts_mask, NULL),
			-EINVAL);
	objs_qp_to(o, qp, IB_QPS_RTS);

	/* query_qp returns what was set. */
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &q, IB_QP_STATE, &init), 0);
	KUNIT_EXPECT_EQ(test, q.qp_state, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, q.path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, q.dest_qp_num, qp->qp_num);
	KUNIT_EXPECT_EQ(test, q.rq_psn, 0x123);
	KUNIT_EXPECT_EQ(test, q.sq_psn, 0x456);
	KUNIT_EXPECT_EQ(test, q.timeout, 14);
	KUNIT_EXPECT_EQ(test, q.retry_cnt, 7);
	KUNIT_EXPECT_EQ(test, q.rnr_retry, 7);
	KUNIT_EXPECT_EQ(test, q.min_rnr_timer, 12);
	KUNIT_EXPECT_EQ(test, q.max_rd_atomic, 4);
	KUNIT_EXPECT_EQ(test, q.max_dest_rd_atomic, 4);
	KUNIT_EXPECT_EQ(test, q.qp_access_flags, a.qp_access_flags);
	KUNIT_EXPECT_EQ(test, q.cap.max_send_wr, 2);
	KUNIT_EXPECT_EQ(test, init.qp_type, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, init.sq_sig_type, IB_SIGNAL_REQ_WR);
	KUNIT_EXPECT_EQ(test, memcmp(rdma_ah_read_grh(&q.ah_attr)->dgid.raw,
				     rdma_ah_read_grh(&a.ah_attr)->dgid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, to_sqp(qp)->av.daddr.sa.sa_family, AF_INET6);
}

/* path_mtu is bounded by the port's active MTU, which follows the netdev. */
static void qp_path_mtu_active(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_qp *qp = objs_qp(o, 2, 1);
	struct net_device *ndev = objs_sdev()->ndev;
	int rtr_mask = objs_mask(IB_QPS_INIT, IB_QPS_RTR);
	unsigned int mtu = ndev->mtu;
	struct ib_qp_attr a;
	int err;

	objs_qp_to(o, qp, IB_QPS_INIT);
	rtnl_lock();
	err = dev_set_mtu(ndev, 1500);	/* active MTU 1024 */
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, err, 0);
	objs_attr(o, &a, IB_QPS_RTR, qp->qp_num);
	a.path_mtu = IB_MTU_2048;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, rtr_mask), -EINVAL);
	a.path_mtu = IB_MTU_1024;
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &a, rtr_mask), 0);
	rtnl_lock();
	dev_set_mtu(ndev, mtu);
	rtnl_unlock();
}

/* An MR in @pd over @buf, published as superp_mr.c would. */
static u32 objs_mr(struct objs *o, struct ib_pd *pd, void *buf, u64 len,
		   int access)
{
	struct superp_mr *mr = kunit_kzalloc(o->test, sizeof(*mr), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(o->test, mr);
	mr->pd = pd;
	mr->iova = (uintptr_t)buf;
	mr->length = len;
	mr->access = access;
	KUNIT_ASSERT_EQ(o->test, superp_mr_publish(&objs_sdev()->mrs, mr), 0);
	o->mrs[o->nmr++] = mr;
	return mr->ibmr.lkey;
}

/*
 * post_send and post_recv refuse a bad WR with -EINVAL (a full queue with
 * -ENOMEM) and point *bad_wr at it; the WRs before it are posted.
 */
static void qp_post_checks(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_qp *qp = objs_qp(o, 4, 2);
	struct ib_pd *other = ib_alloc_pd(objs_ibdev, 0);
	static u8 buf[256];
	u32 key, other_key, ro_key;
	struct ib_sge sge[3];
	struct ib_rdma_wr rw[5] = {};
	const struct ib_send_wr *bad;
	struct ib_recv_wr rwr[5] = {};
	const struct ib_recv_wr *rbad;
	struct ib_wc wc[8];
	int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(other));
	o->pd2 = other;
	key = objs_mr(o, o->pd, buf, 128, IB_ACCESS_LOCAL_WRITE);
	other_key = objs_mr(o, other, buf, 128, IB_ACCESS_LOCAL_WRITE);
	ro_key = objs_mr(o, o->pd, buf, 128, 0);
	for (i = 0; i < 3; i++)
		sge[i] = (struct ib_sge){ (uintptr_t)buf, 64, key };
	for (i = 0; i < 5; i++) {
		rw[i].wr.wr_id = i;
		rw[i].wr.opcode = IB_WR_SEND;
		rw[i].wr.sg_list = sge;
		rw[i].wr.num_sge = 1;
		rw[i].wr.next = i < 4 ? &rw[i + 1].wr : NULL;
		rwr[i].wr_id = 100 + i;
		rwr[i].sg_list = sge;
		rwr[i].num_sge = 1;
		rwr[i].next = i < 4 ? &rwr[i + 1] : NULL;
	}

	/* Wrong state: post_send before RTS, post_recv in RESET. */
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[0].wr, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &rw[0].wr);
	KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &rwr[0], &rbad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, rbad, &rwr[0]);
	objs_qp_to(o, qp, IB_QPS_RTR);
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[0].wr, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &rw[0].wr);

	/* Receive side, in RTR: too many SGEs, bad lkey, then queue full. */
	rwr[1].num_sge = 3;
	KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &rwr[0], &rbad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, rbad, &rwr[1]);
	rwr[1].num_sge = 1;
	rwr[1].sg_list = &(struct ib_sge){ (uintptr_t)buf, 8, key ^ 0x1000000 };
	KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &rwr[1], &rbad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, rbad, &rwr[1]);
	rwr[1].sg_list = &(struct ib_sge){ (uintptr_t)buf, 8, ro_key };
	KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &rwr[1], &rbad), -EINVAL);
	rwr[1].sg_list = sge;
	/* One posted above, three fit, the fifth finds the queue full. */
	KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &rwr[1], &rbad), -ENOMEM);
	KUNIT_EXPECT_PTR_EQ(test, rbad, &rwr[4]);

	objs_qp_to(o, qp, IB_QPS_RTS);
	/* Bad lkey in the second WR: the first is posted. */
	rw[1].wr.sg_list = &(struct ib_sge){ (uintptr_t)buf, 8, key + 1 };
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[0].wr, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &rw[1].wr);
	/* An MR of another PD. */
	rw[1].wr.sg_list = &(struct ib_sge){ (uintptr_t)buf, 8, other_key };
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[1].wr, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &rw[1].wr);
	/* Outside the MR. */
	rw[1].wr.sg_list = &(struct ib_sge){ (uintptr_t)buf + 120, 9, key };
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[1].wr, &bad), -EINVAL);
	/* RDMA READ lands in memory that must be locally writable. */
	rw[1].wr.opcode = IB_WR_RDMA_READ;
	rw[1].wr.sg_list = &(struct ib_sge){ (uintptr_t)buf, 8, ro_key };
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[1].wr, &bad), -EINVAL);
	rw[1].wr.opcode = IB_WR_SEND;
	/*
	 * Too many SGEs; an opcode we do not offer; an atomic whose local
	 * SGE is not the 8 bytes of the original value.
	 */
	rw[1].wr.sg_list = sge;
	rw[1].wr.num_sge = 3;
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[1].wr, &bad), -EINVAL);
	rw[1].wr.num_sge = 1;
	rw[1].wr.opcode = IB_WR_MASKED_ATOMIC_CMP_AND_SWP;
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[1].wr, &bad), -EINVAL);
	rw[1].wr.opcode = IB_WR_ATOMIC_FETCH_AND_ADD;
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[1].wr, &bad), -EINVAL);
	rw[1].wr.opcode = IB_WR_SEND;
	/* Inline beyond max_inline_data (32 here). */
	rw[1].wr.send_flags = IB_SEND_INLINE;
	rw[1].wr.num_sge = 1;
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[1].wr, &bad), -EINVAL);
	sge[2].length = 32;
	rw[1].wr.sg_list = &sge[2];
	rw[1].wr.next = NULL;
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[1].wr, &bad), 0);
	rw[1].wr.send_flags = 0;
	rw[1].wr.sg_list = sge;
	rw[1].wr.next = &rw[2].wr;
	/* Two posted; two more fit; the fifth finds the queue full. */
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &rw[2].wr, &bad), -ENOMEM);
	KUNIT_EXPECT_PTR_EQ(test, bad, &rw[4].wr);

	/* Nothing completed: no engine took them. */
	KUNIT_EXPECT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 0);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(qp->recv_cq, 8, wc), 0);
}

/*
 * Entering ERR flushes every outstanding WR with IB_WC_WR_FLUSH_ERR, in
 * posted order, to the queue's own CQ, signalled or not; a WR posted in
 * ERR is flushed at once.
 */
static void qp_flush_on_error(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_qp *qp = objs_qp(o, 8, 1);
	struct ib_rdma_wr swr[5] = {};
	struct ib_recv_wr rwr[4] = {};
	const struct ib_send_wr *bad;
	const struct ib_recv_wr *rbad;
	struct ib_wc wc[8];
	int i;

	objs_qp_to(o, qp, IB_QPS_RTS);
	for (i = 0; i < 5; i++) {
		swr[i].wr.wr_id = 10 + i;
		swr[i].wr.opcode = i & 1 ? IB_WR_SEND : IB_WR_RDMA_WRITE;
		swr[i].wr.send_flags = i & 1 ? IB_SEND_SIGNALED : 0;
		swr[i].wr.next = i < 4 ? &swr[i + 1].wr : NULL;
	}
	for (i = 0; i < 4; i++) {
		rwr[i].wr_id = 20 + i;
		rwr[i].next = i < 3 ? &rwr[i + 1] : NULL;
	}
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &swr[0].wr, &bad), 0);
	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, rwr, &rbad), 0);

	KUNIT_ASSERT_EQ(test, objs_modify(o, qp, IB_QPS_ERR), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 5);
	for (i = 0; i < 5; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, 10 + i);
		KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_WR_FLUSH_ERR);
		KUNIT_EXPECT_PTR_EQ(test, wc[i].qp, qp);
	}
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->recv_cq, 8, wc), 4);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, wc[i].wr_id, 20 + i);
		KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_WR_FLUSH_ERR);
	}
	/* Modified to ERR by the consumer: no fatal event. */
	KUNIT_EXPECT_EQ(test, o->qp_fatal, 0);

	swr[4].wr.wr_id = 99;
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &swr[4].wr, &bad), 0);
	rwr[3].wr_id = 98;
	KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &rwr[3], &rbad), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 99);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_WR_FLUSH_ERR);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->recv_cq, 8, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 98);

	/* RESET discards without completions; the QP can start again. */
	KUNIT_EXPECT_EQ(test, objs_modify(o, qp, IB_QPS_RESET), 0);
	objs_qp_to(o, qp, IB_QPS_INIT);
	KUNIT_EXPECT_EQ(test, ib_post_recv(qp, rwr, &rbad), 0);
	KUNIT_EXPECT_EQ(test, objs_modify(o, qp, IB_QPS_RESET), 0);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(qp->recv_cq, 8, wc), 0);
}

/*
 * The data path's side: WRs taken in order, completions in posted order
 * whatever order they finish in, unsignalled successes silent; an error
 * breaks the QP (IB_EVENT_QP_FATAL, the rest flushed); SQD drains.
 */
static void qp_data_path_interface(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_qp *qp = objs_qp(o, 8, 1);
	struct superp_qp *sqp = to_sqp(qp);
	struct ib_send_wr swr[4] = {};
	struct ib_recv_wr rwr[2] = {};
	const struct ib_send_wr *bad;
	const struct ib_recv_wr *rbad;
	struct superp_send_wqe *w[4];
	struct superp_recv_wqe *r;
	struct ib_wc wc[8];
	int i;

	r = kunit_kzalloc(test, superp_recv_wqe_size(SUPERP_MAX_SGE), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	objs_qp_to(o, qp, IB_QPS_RTS);
	for (i = 0; i < 4; i++) {
		swr[i].wr_id = i;
		swr[i].opcode = IB_WR_SEND;
		swr[i].send_flags = i == 1 ? 0 : IB_SEND_SIGNALED;
		swr[i].next = i < 3 ? &swr[i + 1] : NULL;
	}
	rwr[0].wr_id = 50;
	rwr[0].next = &rwr[1];
	rwr[1].wr_id = 51;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, swr, &bad), 0);
	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, rwr, &rbad), 0);

	for (i = 0; i < 3; i++) {
		w[i] = superp_qp_next_send(sqp);
		KUNIT_ASSERT_NOT_NULL(test, w[i]);
		KUNIT_EXPECT_EQ(test, w[i]->wr_id, i);
	}
	/* Finished out of order: nothing leaves before WR 0 is done. */
	superp_qp_send_done(sqp, w[2]->idx, IB_WC_SUCCESS);
	superp_qp_send_done(sqp, w[1]->idx, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 0);
	superp_qp_send_done(sqp, w[0]->idx, IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 2);	/* 1 was unsignalled */
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);

	KUNIT_EXPECT_EQ(test, superp_qp_get_recv(sqp, r), 0);
	KUNIT_EXPECT_EQ(test, r->wr_id, 50);

	/* SQD with WR 3 in flight: drained when it completes. */
	w[3] = superp_qp_next_send(sqp);
	KUNIT_ASSERT_NOT_NULL(test, w[3]);
	KUNIT_ASSERT_EQ(test, objs_modify(o, qp, IB_QPS_SQD), 0);
	KUNIT_EXPECT_EQ(test, o->sq_drained, 0);
	KUNIT_EXPECT_PTR_EQ(test, superp_qp_next_send(sqp), NULL);
	superp_qp_send_done(sqp, w[3]->idx, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, o->sq_drained, 1);
	KUNIT_ASSERT_EQ(test, objs_modify(o, qp, IB_QPS_RTS), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 1);

	/* An error: the WR completes with it, the QP breaks, the rest flush. */
	swr[0].next = NULL;
	swr[1].next = NULL;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &swr[0], &bad), 0);
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &swr[1], &bad), 0);
	w[0] = superp_qp_next_send(sqp);
	KUNIT_ASSERT_NOT_NULL(test, w[0]);
	superp_qp_send_done(sqp, w[0]->idx, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, sqp->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, o->qp_fatal, 1);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 2);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_REM_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, wc[1].status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 1);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->recv_cq, 8, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 51);
	KUNIT_EXPECT_EQ(test, superp_qp_get_recv(sqp, r), -EINVAL);

	/* SQD with nothing in flight is drained at once. */
	qp = objs_qp(o, 2, 1);
	objs_qp_to(o, qp, IB_QPS_SQD);
	KUNIT_EXPECT_EQ(test, o->sq_drained, 2);
}

/* ---- SRQ and AH ---- */

static void objs_srq_event(struct ib_event *ev, void *ctx)
{
	struct objs *o = ctx;

	if (ev->event == IB_EVENT_SRQ_LIMIT_REACHED)
		o->srq_limit_events++;
}

static struct ib_srq *objs_srq(struct objs *o, u32 max_wr, u32 max_sge)
{
	struct ib_srq_init_attr init = {
		.event_handler = objs_srq_event,
		.srq_context = o,
		.srq_type = IB_SRQT_BASIC,
		.attr = { .max_wr = max_wr, .max_sge = max_sge },
	};
	struct ib_srq *srq = ib_create_srq(o->pd, &init);

	if (!IS_ERR(srq))
		o->srqs[o->nsrq++] = srq;
	return srq;
}

static void objs_recv_chain(struct ib_recv_wr *wr, int n, u64 first)
{
	int i;

	memset(wr, 0, n * sizeof(*wr));
	for (i = 0; i < n; i++) {
		wr[i].wr_id = first + i;
		wr[i].next = i < n - 1 ? &wr[i + 1] : NULL;
	}
}

/*
 * create_srq within max_srq_wr and max_srq_sge; post_srq_recv refuses a
 * full queue with -ENOMEM at the WR that did not fit; resize keeps the WRs
 * and refuses a size below what is held.
 */
static void srq_create_post_resize(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_device_attr *da = &objs_ibdev->attrs;
	struct superp_recv_wqe *r;
	struct ib_recv_wr wr[5];
	const struct ib_recv_wr *bad;
	struct ib_srq_attr sa = {};
	struct ib_srq *srq;
	int i;

	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_srq(o, 0, 1)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_srq(o, da->max_srq_wr + 1, 1)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_srq(o, 4, da->max_srq_sge + 1)),
			-EINVAL);
	srq = objs_srq(o, 4, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(srq));
	r = kunit_kzalloc(test, superp_recv_wqe_size(SUPERP_MAX_SGE), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);

	objs_recv_chain(wr, 5, 0);
	KUNIT_EXPECT_EQ(test, ib_post_srq_recv(srq, wr, &bad), -ENOMEM);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr[4]);
	KUNIT_EXPECT_EQ(test, superp_srq_get_recv(to_ssrq(srq), r, NULL), 0);
	KUNIT_EXPECT_EQ(test, r->wr_id, 0);

	sa.max_wr = 2;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &sa, IB_SRQ_MAX_WR), -EINVAL);
	sa.max_wr = 8;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &sa, IB_SRQ_MAX_WR), 0);
	KUNIT_EXPECT_EQ(test, ib_query_srq(srq, &sa), 0);
	KUNIT_EXPECT_EQ(test, sa.max_wr, 8);
	objs_recv_chain(wr, 5, 10);
	KUNIT_EXPECT_EQ(test, ib_post_srq_recv(srq, wr, &bad), 0);
	for (i = 1; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, superp_srq_get_recv(to_ssrq(srq), r, NULL), 0);
		KUNIT_EXPECT_EQ(test, r->wr_id, i);
	}
	for (i = 0; i < 5; i++) {
		KUNIT_EXPECT_EQ(test, superp_srq_get_recv(to_ssrq(srq), r, NULL), 0);
		KUNIT_EXPECT_EQ(test, r->wr_id, 10 + i);
	}
	KUNIT_EXPECT_EQ(test, superp_srq_get_recv(to_ssrq(srq), r, NULL), -ENOENT);
}

/*
 * srq_limit: armed by modify_srq, IB_EVENT_SRQ_LIMIT_REACHED once when
 * fewer than the limit remain, then disarmed (srq_limit reads 0).
 */
static void srq_limit_event_once(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_srq *srq = objs_srq(o, 8, 1);
	struct superp_recv_wqe *r;
	struct ib_recv_wr wr[6];
	const struct ib_recv_wr *bad;
	struct ib_srq_attr sa = {};

	KUNIT_ASSERT_FALSE(test, IS_ERR(srq));
	r = kunit_kzalloc(test, superp_recv_wqe_size(SUPERP_MAX_SGE), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	sa.srq_limit = 9;
	KUNIT_EXPECT_EQ(test, ib_modify_srq(srq, &sa, IB_SRQ_LIMIT), -EINVAL);
	objs_recv_chain(wr, 6, 0);
	KUNIT_ASSERT_EQ(test, ib_post_srq_recv(srq, wr, &bad), 0);
	sa.srq_limit = 4;
	KUNIT_ASSERT_EQ(test, ib_modify_srq(srq, &sa, IB_SRQ_LIMIT), 0);
	KUNIT_EXPECT_EQ(test, ib_query_srq(srq, &sa), 0);
	KUNIT_EXPECT_EQ(test, sa.srq_limit, 4);

	superp_srq_get_recv(to_ssrq(srq), r, NULL);	/* 5 left */
	superp_srq_get_recv(to_ssrq(srq), r, NULL);	/* 4 left: not below */
	KUNIT_EXPECT_EQ(test, o->srq_limit_events, 0);
	superp_srq_get_recv(to_ssrq(srq), r, NULL);	/* 3 left */
	KUNIT_EXPECT_EQ(test, o->srq_limit_events, 1);
	superp_srq_get_recv(to_ssrq(srq), r, NULL);
	KUNIT_EXPECT_EQ(test, o->srq_limit_events, 1);
	KUNIT_EXPECT_EQ(test, ib_query_srq(srq, &sa), 0);
	KUNIT_EXPECT_EQ(test, sa.srq_limit, 0);
	/* Armed again: once more. */
	sa.srq_limit = 2;
	KUNIT_ASSERT_EQ(test, ib_modify_srq(srq, &sa, IB_SRQ_LIMIT), 0);
	superp_srq_get_recv(to_ssrq(srq), r, NULL);	/* 1 left */
	KUNIT_EXPECT_EQ(test, o->srq_limit_events, 2);
}

/*
 * A QP with an SRQ takes its receives from it, refuses post_recv, and its
 * flush leaves the SRQ's WRs alone.
 */
static void srq_attached_qp(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_srq *srq = objs_srq(o, 4, 1);
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = 2, .max_send_sge = 1,
			 .max_recv_wr = 100000 },	/* ignored with an SRQ */
	};
	struct superp_recv_wqe *r;
	struct ib_recv_wr wr[3];
	const struct ib_recv_wr *bad;
	struct ib_wc wc[4];
	struct ib_qp *qp;

	KUNIT_ASSERT_FALSE(test, IS_ERR(srq));
	r = kunit_kzalloc(test, superp_recv_wqe_size(SUPERP_MAX_SGE), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	init.srq = srq;
	init.send_cq = objs_cq(o, 8);
	init.recv_cq = objs_cq(o, 8);
	qp = objs_qp_init(o, &init);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	KUNIT_EXPECT_EQ(test, init.cap.max_recv_wr, 0);
	objs_qp_to(o, qp, IB_QPS_RTR);

	objs_recv_chain(wr, 3, 0);
	KUNIT_EXPECT_EQ(test, ib_post_recv(qp, wr, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr[0]);
	KUNIT_ASSERT_EQ(test, ib_post_srq_recv(srq, wr, &bad), 0);
	KUNIT_EXPECT_EQ(test, superp_qp_get_recv(to_sqp(qp), r), 0);
	KUNIT_EXPECT_EQ(test, r->wr_id, 0);

	KUNIT_ASSERT_EQ(test, objs_modify(o, qp, IB_QPS_ERR), 0);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(qp->recv_cq, 4, wc), 0);
	KUNIT_EXPECT_EQ(test, superp_srq_get_recv(to_ssrq(srq), r, NULL), 0);
	KUNIT_EXPECT_EQ(test, r->wr_id, 1);
}

static struct ib_ah *objs_ah(struct objs *o, struct rdma_ah_attr *attr)
{
	struct ib_ah *ah = rdma_create_ah(o->pd, attr, 0);

	if (!IS_ERR(ah))
		o->ahs[o->nah++] = ah;
	return ah;
}

/*
 * AH: RoCE with a GRH; the source GID index must be an entry of the GID
 * table; query returns the address; the destination IP is resolved for
 * the binding step (an IPv4-mapped GID gives an IPv4 address).
 */
static void ah_create_query(struct kunit *test)
{
	struct objs *o = test->priv;
	const struct ib_gid_attr *gattr;
	struct rdma_ah_attr attr, q;
	struct ib_qp_attr qa;
	struct superp_ah *sah;
	union ib_gid gid;
	struct ib_ah *ah;
	int i;

	objs_attr(o, &qa, IB_QPS_RTR, 0);
	attr = qa.ah_attr;
	ah = objs_ah(o, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	KUNIT_EXPECT_EQ(test, rdma_query_ah(ah, &q), 0);
	KUNIT_EXPECT_EQ(test, memcmp(rdma_ah_read_grh(&q)->dgid.raw,
				     rdma_ah_read_grh(&attr)->dgid.raw, 16), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_read_grh(&q)->hop_limit, 64);
	sah = to_sah(ah);
	KUNIT_EXPECT_EQ(test, sah->av.daddr.sa.sa_family, AF_INET6);

	/* A GID index with no entry, and a missing GRH, are refused. */
	attr = qa.ah_attr;
	attr.grh.sgid_index = 255;
	KUNIT_EXPECT_TRUE(test, IS_ERR(objs_ah(o, &attr)));
	attr = qa.ah_attr;
	attr.ah_flags = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_ah(o, &attr)), -EINVAL);
	attr = qa.ah_attr;
	attr.type = RDMA_AH_ATTR_TYPE_IB;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_ah(o, &attr)), -EINVAL);

	/* eth0's IPv4 address, as a GID: the AV resolves it to IPv4. */
	for (i = 0; i < 16; i++) {
		gattr = rdma_get_gid_attr(objs_ibdev, SUPERP_PORT, i);
		if (IS_ERR(gattr))
			continue;
		if (ipv6_addr_v4mapped((struct in6_addr *)gattr->gid.raw))
			break;
		rdma_put_gid_attr(gattr);
	}
	if (i == 16)
		kunit_skip(test, "eth0 has no IPv4 address");
	attr = qa.ah_attr;
	gid = gattr->gid;
	rdma_put_gid_attr(gattr);
	rdma_ah_set_grh(&attr, &gid, 0, i, 64, 0);
	ah = objs_ah(o, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ah));
	sah = to_sah(ah);
	KUNIT_EXPECT_EQ(test, sah->av.daddr.sa.sa_family, AF_INET);
	KUNIT_EXPECT_EQ(test, memcmp(&sah->av.daddr.sin.sin_addr,
				     &rdma_ah_read_grh(&attr)->dgid.raw[12], 4), 0);
}

/* ---- Fast-registration MRs and device attributes ---- */

static struct ib_mr *objs_frmr(struct objs *o, enum ib_mr_type type, u32 n)
{
	struct ib_mr *mr = ib_alloc_mr(o->pd, type, n);

	if (!IS_ERR(mr))
		o->frmrs[o->nfrmr++] = mr;
	return mr;
}

/* IB_WR_REG_MR of @mr under @key with @access. */
static int objs_post_reg_access(struct ib_qp *qp, struct ib_mr *mr, u32 key,
				int access)
{
	struct ib_reg_wr wr = {
		.wr = {
			.wr_id = 0x1000 + (key & 0xff),
			.opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = mr,
		.key = key,
		.access = access,
	};
	const struct ib_send_wr *bad;

	return ib_post_send(qp, &wr.wr, &bad);
}

static int objs_post_reg(struct ib_qp *qp, struct ib_mr *mr, u32 key)
{
	return objs_post_reg_access(qp, mr, key, IB_ACCESS_LOCAL_WRITE |
				    IB_ACCESS_REMOTE_WRITE |
				    IB_ACCESS_REMOTE_READ);
}

static int objs_post_inv(struct ib_qp *qp, u32 key)
{
	struct ib_send_wr wr = {
		.wr_id = 0x2000 + (key & 0xff),
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = key,
	};
	const struct ib_send_wr *bad;

	return ib_post_send(qp, &wr, &bad);
}

/*
 * Atomics are offered (atomic_cap GLOB): an FRWR MR may allow remote
 * atomic access (with local write, IBTA 10.6.3.1), and an atomic WR with
 * its 8-byte local SGE is queued as posted, a misaligned remote address
 * included (the target refuses that one: INVALID/ALIGN).
 */
static void atomic_post_and_access(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_qp *qp = objs_qp(o, 8, 1);
	struct superp_send_wqe *w;
	struct scatterlist sg;
	const struct ib_send_wr *bad;
	struct ib_atomic_wr awr = {};
	struct superp_mr *smr;
	struct ib_wc wc[4];
	struct ib_mr *mr;
	void *buf;

	mr = objs_frmr(o, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	objs_qp_to(o, qp, IB_QPS_RTS);
	sg_init_one(&sg, buf, 64);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(objs_ibdev, &sg, 1,
					    DMA_BIDIRECTIONAL), 1);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE), 1);

	/* Remote atomic without local write: refused at post time. */
	KUNIT_EXPECT_EQ(test, objs_post_reg_access(qp, mr, mr->rkey,
						   IB_ACCESS_REMOTE_ATOMIC),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, objs_post_reg_access(qp, mr, mr->rkey,
						   IB_ACCESS_LOCAL_WRITE |
						   IB_ACCESS_REMOTE_ATOMIC), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 4, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	smr = superp_mr_get(&objs_sdev()->mrs, mr->rkey);
	KUNIT_ASSERT_NOT_NULL(test, smr);
	KUNIT_EXPECT_TRUE(test, smr->access & IB_ACCESS_REMOTE_ATOMIC);
	superp_mr_put(smr);

	/* CAS into the MR's first 8 bytes, at a misaligned remote address. */
	awr.wr.wr_id = 9;
	awr.wr.opcode = IB_WR_ATOMIC_CMP_AND_SWP;
	awr.wr.send_flags = IB_SEND_SIGNALED;
	awr.wr.sg_list = &(struct ib_sge){ (uintptr_t)buf, 8, mr->lkey };
	awr.wr.num_sge = 1;
	awr.remote_addr = 0x1004;
	awr.compare_add = 1;
	awr.swap = 2;
	awr.rkey = 0x1234;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &awr.wr, &bad), 0);
	w = superp_qp_next_send(to_sqp(qp));
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->wr_id, 9);
	KUNIT_EXPECT_EQ(test, w->length, 8U);
	KUNIT_EXPECT_EQ(test, w->atomic.remote_addr, 0x1004ULL);
	KUNIT_EXPECT_EQ(test, w->atomic.compare_add, 1ULL);
	KUNIT_EXPECT_EQ(test, w->atomic.swap, 2ULL);
	KUNIT_EXPECT_EQ(test, w->atomic.rkey, 0x1234U);
	superp_qp_send_done(to_sqp(qp), w->idx, IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 4, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_COMP_SWAP);

	/* The local SGE must hold the 8-byte original value. */
	awr.wr.sg_list = &(struct ib_sge){ (uintptr_t)buf, 16, mr->lkey };
	awr.wr.opcode = IB_WR_ATOMIC_FETCH_AND_ADD;
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &awr.wr, &bad), -EINVAL);
	/* Masked atomics are not offered (masked_atomic_cap NONE). */
	awr.wr.sg_list = &(struct ib_sge){ (uintptr_t)buf, 8, mr->lkey };
	awr.wr.opcode = IB_WR_MASKED_ATOMIC_FETCH_AND_ADD;
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &awr.wr, &bad), -EINVAL);
	ib_dma_unmap_sg(objs_ibdev, &sg, 1, DMA_BIDIRECTIONAL);
}

/* Whether a lookup of @key finds an MR, and releases it. */
static bool objs_key_found(u32 key)
{
	struct superp_mr *mr = superp_mr_get(&objs_sdev()->mrs, key);

	if (mr)
		superp_mr_put(mr);
	return mr;
}

/*
 * FRWR, as kernel ULPs use it: alloc_mr, map_mr_sg, IB_WR_REG_MR with a
 * key whose low byte the consumer chose, then IB_WR_LOCAL_INV. Lookups
 * find the MR exactly while it is valid and only with its current key; a
 * LOCAL_INV waits for the WRs before it; REG_MR on a valid MR fails.
 */
static void frwr_reg_inv(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_qp *qp = objs_qp(o, 8, 1);
	struct superp_send_wqe *w;
	struct scatterlist sg;
	struct ib_send_wr swr = {};
	const struct ib_send_wr *bad;
	struct superp_mr *smr;
	struct ib_wc wc[4];
	struct ib_mr *mr;
	void *buf;
	u32 key, n;

	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_frmr(o, IB_MR_TYPE_SG_GAPS, 4)),
			-EOPNOTSUPP);
	n = objs_ibdev->attrs.max_fast_reg_page_list_len + 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR(objs_frmr(o, IB_MR_TYPE_MEM_REG, n)),
			-EINVAL);
	mr = objs_frmr(o, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	buf = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	objs_qp_to(o, qp, IB_QPS_RTS);

	sg_init_one(&sg, buf, 2 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(objs_ibdev, &sg, 1,
					    DMA_BIDIRECTIONAL), 1);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE), 1);
	KUNIT_EXPECT_EQ(test, mr->length, 2 * PAGE_SIZE);

	/* Allocated but not registered: no key finds it. */
	KUNIT_EXPECT_FALSE(test, objs_key_found(mr->lkey));
	ib_update_fast_reg_key(mr, 0x5a);
	key = mr->rkey;
	KUNIT_ASSERT_EQ(test, objs_post_reg(qp, mr, key), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 4, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_REG_MR);
	smr = superp_mr_get(&objs_sdev()->mrs, key);
	KUNIT_ASSERT_NOT_NULL(test, smr);
	KUNIT_EXPECT_EQ(test, smr->iova, (u64)(uintptr_t)buf);
	KUNIT_EXPECT_EQ(test, smr->length, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, smr->npages, 2);
	KUNIT_EXPECT_EQ(test, smr->page_off, offset_in_page(buf));
	KUNIT_EXPECT_PTR_EQ(test, smr->pages[0], virt_to_page(buf));
	KUNIT_EXPECT_TRUE(test, smr->access & IB_ACCESS_REMOTE_WRITE);
	superp_mr_put(smr);
	KUNIT_EXPECT_FALSE(test, objs_key_found(key ^ 1));

	/* A SEND from the MR is accepted; a LOCAL_INV behind it waits. */
	swr.opcode = IB_WR_SEND;
	swr.wr_id = 7;
	swr.sg_list = &(struct ib_sge){ (uintptr_t)buf, 64, key };
	swr.num_sge = 1;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, &swr, &bad), 0);
	KUNIT_ASSERT_EQ(test, objs_post_inv(qp, key), 0);
	KUNIT_EXPECT_TRUE(test, objs_key_found(key));
	w = superp_qp_next_send(to_sqp(qp));
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, w->wr_id, 7);
	KUNIT_EXPECT_PTR_EQ(test, superp_qp_next_send(to_sqp(qp)), NULL);
	superp_qp_send_done(to_sqp(qp), w->idx, IB_WC_SUCCESS);
	KUNIT_EXPECT_FALSE(test, objs_key_found(key));
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 4, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].opcode, IB_WC_LOCAL_INV);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	/* The SEND's lkey is gone now. */
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &swr, &bad), -EINVAL);

	/* Registered again under a new key: only that key finds it. */
	ib_update_fast_reg_key(mr, 0x5b);
	KUNIT_ASSERT_EQ(test, objs_post_reg(qp, mr, mr->rkey), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 4, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_TRUE(test, objs_key_found(mr->rkey));
	KUNIT_EXPECT_FALSE(test, objs_key_found(key));

	/* Bad REG_MR WRs: a key of another MR's slot, at post time. */
	KUNIT_EXPECT_EQ(test, objs_post_reg(qp, mr, mr->rkey + 0x100), -EINVAL);

	/* REG_MR of a valid MR: error completion, the QP breaks. */
	KUNIT_ASSERT_EQ(test, objs_post_reg(qp, mr, mr->rkey), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 4, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].status, IB_WC_MW_BIND_ERR);
	KUNIT_EXPECT_EQ(test, to_sqp(qp)->state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, o->qp_fatal, 1);
	ib_dma_unmap_sg(objs_ibdev, &sg, 1, DMA_BIDIRECTIONAL);
}

/*
 * The RNR replay (Documentation/superp-rc.rst, "receiver not ready"):
 * superp_qp_send_rewind() returns the taken WRs from the refused one on to
 * waiting; WRs before it keep their state (done, unsignalled), a local WR
 * behind them still waits for its turn, completions stay in posted order,
 * and positions wrap (the ring's and the u32's).
 */
static void qp_send_rewind(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_qp *qp = objs_qp(o, 4, 1);
	struct superp_qp *sqp = to_sqp(qp);
	struct superp_send_wqe *w[4];
	struct ib_send_wr swr[4] = {};
	const struct ib_send_wr *bad;
	struct scatterlist sg;
	unsigned long flags;
	struct ib_wc wc[8];
	struct ib_mr *mr;
	void *buf;
	int i;

	objs_qp_to(o, qp, IB_QPS_RTS);
	for (i = 0; i < 4; i++) {
		swr[i].wr_id = i;
		swr[i].opcode = IB_WR_SEND;
		swr[i].send_flags = i == 1 ? 0 : IB_SEND_SIGNALED;
		swr[i].next = i < 3 ? &swr[i + 1] : NULL;
	}
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, swr, &bad), 0);
	for (i = 0; i < 4; i++) {
		w[i] = superp_qp_next_send(sqp);
		KUNIT_ASSERT_NOT_NULL(test, w[i]);
	}
	/* 1 (unsignalled) done before 0: stays done across the rewind. */
	superp_qp_send_done(sqp, w[1]->idx, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, superp_qp_send_rewind(sqp, w[1]->idx), -EBUSY);
	KUNIT_EXPECT_EQ(test, superp_qp_send_rewind(sqp, w[3]->idx + 1),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, superp_qp_send_rewind(sqp, w[2]->idx), 0);
	for (i = 2; i < 4; i++) {
		struct superp_send_wqe *again = superp_qp_next_send(sqp);

		KUNIT_ASSERT_PTR_EQ(test, again, w[i]);
		KUNIT_EXPECT_EQ(test, again->wr_id, i);
	}
	KUNIT_EXPECT_PTR_EQ(test, superp_qp_next_send(sqp), NULL);
	superp_qp_send_done(sqp, w[3]->idx, IB_WC_SUCCESS);
	superp_qp_send_done(sqp, w[0]->idx, IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 1);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0);
	superp_qp_send_done(sqp, w[2]->idx, IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 2);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 3);
	/* Retired WRs cannot be rewound to. */
	KUNIT_EXPECT_EQ(test, superp_qp_send_rewind(sqp, w[3]->idx), -EINVAL);

	/* Positions about to wrap the u32 (the ring of 4 divides 2^32). */
	spin_lock_irqsave(&sqp->sq.lock, flags);
	sqp->sq.head = U32_MAX - 1;
	sqp->sq.next = U32_MAX - 1;
	sqp->sq.tail = U32_MAX - 1;
	spin_unlock_irqrestore(&sqp->sq.lock, flags);
	swr[2].next = NULL;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, swr, &bad), 0);
	for (i = 0; i < 3; i++) {
		w[i] = superp_qp_next_send(sqp);
		KUNIT_ASSERT_NOT_NULL(test, w[i]);
	}
	KUNIT_EXPECT_EQ(test, w[2]->idx, 0);
	KUNIT_ASSERT_EQ(test, superp_qp_send_rewind(sqp, U32_MAX), 0);
	KUNIT_EXPECT_PTR_EQ(test, superp_qp_next_send(sqp), w[1]);
	KUNIT_EXPECT_PTR_EQ(test, superp_qp_next_send(sqp), w[2]);
	for (i = 0; i < 3; i++)
		superp_qp_send_done(sqp, w[i]->idx, IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0);
	KUNIT_EXPECT_EQ(test, wc[1].wr_id, 2);

	/* A LOCAL_INV behind rewound SENDs runs once they completed. */
	mr = objs_frmr(o, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	sg_init_one(&sg, buf, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(objs_ibdev, &sg, 1,
					    DMA_BIDIRECTIONAL), 1);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE), 1);
	KUNIT_ASSERT_EQ(test, objs_post_reg(qp, mr, mr->rkey), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 1);
	swr[1].next = NULL;
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, swr, &bad), 0);
	KUNIT_ASSERT_EQ(test, objs_post_inv(qp, mr->rkey), 0);
	w[0] = superp_qp_next_send(sqp);
	w[1] = superp_qp_next_send(sqp);
	KUNIT_ASSERT_NOT_NULL(test, w[1]);
	KUNIT_EXPECT_PTR_EQ(test, superp_qp_next_send(sqp), NULL);
	KUNIT_ASSERT_EQ(test, superp_qp_send_rewind(sqp, w[0]->idx), 0);
	KUNIT_EXPECT_PTR_EQ(test, superp_qp_next_send(sqp), w[0]);
	KUNIT_EXPECT_PTR_EQ(test, superp_qp_next_send(sqp), w[1]);
	KUNIT_EXPECT_PTR_EQ(test, superp_qp_next_send(sqp), NULL);
	KUNIT_EXPECT_TRUE(test, objs_key_found(mr->rkey));
	superp_qp_send_done(sqp, w[0]->idx, IB_WC_SUCCESS);
	superp_qp_send_done(sqp, w[1]->idx, IB_WC_SUCCESS);
	KUNIT_EXPECT_FALSE(test, objs_key_found(mr->rkey));
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 8, wc), 2);
	KUNIT_EXPECT_EQ(test, wc[0].wr_id, 0);
	KUNIT_EXPECT_EQ(test, wc[1].opcode, IB_WC_LOCAL_INV);
	KUNIT_EXPECT_EQ(test, wc[1].status, IB_WC_SUCCESS);

	/* In ERR the flush took everything: nothing to rewind. */
	KUNIT_ASSERT_EQ(test, ib_post_send(qp, swr, &bad), 0);
	w[0] = superp_qp_next_send(sqp);
	KUNIT_ASSERT_NOT_NULL(test, w[0]);
	KUNIT_ASSERT_EQ(test, objs_modify(o, qp, IB_QPS_ERR), 0);
	KUNIT_EXPECT_EQ(test, superp_qp_send_rewind(sqp, w[0]->idx), -EINVAL);
	ib_dma_unmap_sg(objs_ibdev, &sg, 1, DMA_BIDIRECTIONAL);
}

/*
 * min_rnr_timer as the RNR wait reads it (IB's enum ib_rnr_timeout, in
 * microseconds): 0 is the longest, 1..31 grow.
 */
static void rc_rnr_timer_encoding(struct kunit *test)
{
	int i;

	KUNIT_EXPECT_EQ(test, superp_rc_rnr_usecs(IB_RNR_TIMER_655_36), 655360);
	KUNIT_EXPECT_EQ(test, superp_rc_rnr_usecs(IB_RNR_TIMER_000_01), 10);
	KUNIT_EXPECT_EQ(test, superp_rc_rnr_usecs(IB_RNR_TIMER_000_64), 640);
	KUNIT_EXPECT_EQ(test, superp_rc_rnr_usecs(IB_RNR_TIMER_001_28), 1280);
	KUNIT_EXPECT_EQ(test, superp_rc_rnr_usecs(IB_RNR_TIMER_491_52), 491520);
	for (i = 2; i <= 31; i++)
		KUNIT_EXPECT_GT(test, superp_rc_rnr_usecs(i),
				superp_rc_rnr_usecs(i - 1));
}

/*
 * FRWR MRs and remote memory access (superp_rma.c): after IB_WR_REG_MR a
 * peer's RMA Read through the MR's rkey passes superp_rma_check() and
 * superp_mr_copy_to_buf() reads the registered memory, across a page
 * boundary; a range past the end is refused. After IB_WR_LOCAL_INV the
 * same check fails with BAD_RKEY.
 */
static void frwr_rma_access(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_qp *qp = objs_qp(o, 8, 1);
	struct superp_rma_scope scope = {
		.pd = o->pd,
		.qp_access = IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE,
	};
	struct superp_mr_table *t = &objs_sdev()->mrs;
	struct superp_mr *got;
	struct scatterlist sg;
	struct ib_wc wc[2];
	u8 out[32], *buf;
	struct ib_mr *mr;
	u64 at;
	u32 key;
	int i;

	mr = objs_frmr(o, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	buf = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < 2 * PAGE_SIZE; i++)
		buf[i] = i * 7 + 3;
	objs_qp_to(o, qp, IB_QPS_RTS);
	/* The MR starts 100 bytes into a page: page_off is not 0. */
	sg_init_one(&sg, buf + 100, 2 * PAGE_SIZE - 100);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(objs_ibdev, &sg, 1,
					    DMA_BIDIRECTIONAL), 1);
	/* Only PAGE_SIZE pages: the layout superp_mr_walk() knows. */
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, &sg, 1, NULL, 2 * PAGE_SIZE),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE), 1);
	ib_update_fast_reg_key(mr, 0x33);
	key = mr->rkey;
	KUNIT_ASSERT_EQ(test, objs_post_reg(qp, mr, key), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 2, wc), 1);
	KUNIT_ASSERT_EQ(test, wc[0].status, IB_WC_SUCCESS);

	/* 32 bytes ending 16 past the first page boundary of the buffer. */
	at = mr->iova + PAGE_SIZE - 100 - 16;
	KUNIT_ASSERT_EQ(test, superp_rma_check(t, &scope, key,
					       IB_ACCESS_REMOTE_READ, at,
					       sizeof(out), &got), 0);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_EXPECT_EQ(test, superp_mr_copy_to_buf(got, at, out,
						    sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out, buf + PAGE_SIZE - 16, sizeof(out)),
			0);
	superp_mr_put(got);
	KUNIT_EXPECT_EQ(test, superp_rma_check(t, &scope, key,
					       IB_ACCESS_REMOTE_READ,
					       mr->iova + mr->length - 8, 16,
					       &got),
			SUPERP_TERR(SUPERP_TERR_PROTECTION,
				    SUPERP_TERR_BOUNDS));

	KUNIT_ASSERT_EQ(test, objs_post_inv(qp, key), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(qp->send_cq, 2, wc), 1);
	KUNIT_ASSERT_EQ(test, wc[0].status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, superp_rma_check(t, &scope, key,
					       IB_ACCESS_REMOTE_READ, at,
					       sizeof(out), &got),
			SUPERP_TERR(SUPERP_TERR_PROTECTION,
				    SUPERP_TERR_BAD_RKEY));
	KUNIT_EXPECT_PTR_EQ(test, got, NULL);
	ib_dma_unmap_sg(objs_ibdev, &sg, 1, DMA_BIDIRECTIONAL);
}

/* An FRWR MR is its PD's: a QP of another PD cannot register it. */
static void frwr_other_pd(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = 2, .max_send_sge = 1 },
	};
	struct ib_mr *mr;
	struct ib_qp *qp;

	o->pd2 = ib_alloc_pd(objs_ibdev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(o->pd2));
	mr = ib_alloc_mr(o->pd2, IB_MR_TYPE_MEM_REG, 2);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
	o->frmrs[o->nfrmr++] = mr;
	init.send_cq = objs_cq(o, 4);
	init.recv_cq = init.send_cq;
	qp = objs_qp_init(o, &init);
	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	objs_qp_to(o, qp, IB_QPS_RTS);
	KUNIT_EXPECT_EQ(test, objs_post_reg(qp, mr, mr->rkey), -EINVAL);
}

/* One object more than a device maximum: the create functions below. */
struct at_limit_ctx {
	struct objs *o;
	struct ib_cq_init_attr ca;
	struct ib_qp_init_attr qi;
	struct ib_srq_init_attr si;
	struct rdma_ah_attr ah;
};

static void *at_limit_cq(struct at_limit_ctx *c)
{
	return ib_create_cq(objs_ibdev, NULL, NULL, NULL, &c->ca);
}

static void at_limit_cq_free(void *x)
{
	ib_destroy_cq(x);
}

static void *at_limit_qp(struct at_limit_ctx *c)
{
	return ib_create_qp(c->o->pd, &c->qi);
}

static void at_limit_qp_free(void *x)
{
	ib_destroy_qp(x);
}

static void *at_limit_srq(struct at_limit_ctx *c)
{
	return ib_create_srq(c->o->pd, &c->si);
}

static void at_limit_srq_free(void *x)
{
	ib_destroy_srq(x);
}

static void *at_limit_ah(struct at_limit_ctx *c)
{
	return rdma_create_ah(c->o->pd, &c->ah, 0);
}

static void at_limit_ah_free(void *x)
{
	rdma_destroy_ah(x, 0);
}

/*
 * With the device's count of such objects one below @max, @create succeeds
 * once and then fails with -ENOMEM.
 */
static void at_limit(struct kunit *test, struct at_limit_ctx *c,
		     atomic_t *counter, int max,
		     void *(*create)(struct at_limit_ctx *c),
		     void (*destroy)(void *x))
{
	int saved = atomic_read(counter);
	void *x, *y;

	atomic_set(counter, max - 1);
	x = create(c);
	KUNIT_EXPECT_FALSE(test, IS_ERR(x));
	y = create(c);
	KUNIT_EXPECT_EQ(test, PTR_ERR(y), -ENOMEM);
	if (!IS_ERR(y))
		destroy(y);
	if (!IS_ERR(x))
		destroy(x);
	atomic_set(counter, saved);
}

/*
 * The attributes agree with each other and with what the objects accept:
 * one object more than max_cq, max_qp, max_srq or max_ah fails, and the
 * largest sizes are accepted.
 */
static void device_attr_consistency(struct kunit *test)
{
	struct objs *o = test->priv;
	struct ib_device_attr *a = &objs_ibdev->attrs;
	struct superp_dev *sdev = objs_sdev();
	struct at_limit_ctx c = {
		.o = o,
		.ca = { .cqe = 1 },
		.qi = {
			.qp_type = IB_QPT_RC,
			.sq_sig_type = IB_SIGNAL_ALL_WR,
		},
		.si = {
			.srq_type = IB_SRQT_BASIC,
			.attr = { .max_wr = 1 },
		},
	};
	struct ib_qp_init_attr *qi = &c.qi;
	struct ib_qp_attr qa;
	struct ib_qp *qp;

	KUNIT_EXPECT_LE(test, a->max_qp_wr, a->max_cqe);
	KUNIT_EXPECT_LE(test, a->max_srq_wr, a->max_cqe);
	KUNIT_EXPECT_LE(test, a->max_sge_rd, a->max_send_sge);
	KUNIT_EXPECT_LE(test, a->max_srq_sge, a->max_recv_sge);
	KUNIT_EXPECT_LE(test, a->max_qp_rd_atom, a->max_res_rd_atom);
	KUNIT_EXPECT_LE(test, a->max_qp_init_rd_atom, a->max_res_rd_atom);
	KUNIT_EXPECT_LE(test, a->max_srq, a->max_qp);
	KUNIT_EXPECT_EQ(test, a->atomic_cap, IB_ATOMIC_GLOB);
	KUNIT_EXPECT_EQ(test, a->masked_atomic_cap, IB_ATOMIC_NONE);
	KUNIT_EXPECT_GT(test, a->max_qp_rd_atom, 0);
	KUNIT_EXPECT_EQ(test, a->max_qp_init_rd_atom, a->max_qp_rd_atom);
	KUNIT_EXPECT_TRUE(test, a->device_cap_flags &
			  IB_DEVICE_MEM_MGT_EXTENSIONS);
	KUNIT_EXPECT_GT(test, a->max_fast_reg_page_list_len, 0);
	KUNIT_EXPECT_TRUE(test, a->kernel_cap_flags & IBK_LOCAL_DMA_LKEY);
	KUNIT_EXPECT_EQ(test, a->max_mr, SUPERP_MAX_MR);
	/* Memory windows, type 1 and 2B (superp_mw.c). */
	KUNIT_EXPECT_TRUE(test, a->device_cap_flags & IB_DEVICE_MEM_WINDOW);
	KUNIT_EXPECT_TRUE(test, a->device_cap_flags &
			  IB_DEVICE_MEM_WINDOW_TYPE_2B);
	KUNIT_EXPECT_FALSE(test, a->device_cap_flags &
			   IB_DEVICE_MEM_WINDOW_TYPE_2A);
	KUNIT_EXPECT_EQ(test, a->max_mw, SUPERP_MAX_MW);
	KUNIT_EXPECT_LE(test, a->max_mw, a->max_mr);

	/* The largest sizes are accepted. */
	qi->send_cq = objs_cq(o, 1);
	qi->recv_cq = qi->send_cq;
	qi->cap.max_send_wr = a->max_qp_wr;
	qi->cap.max_recv_wr = a->max_qp_wr;
	qi->cap.max_send_sge = a->max_send_sge;
	qi->cap.max_recv_sge = a->max_recv_sge;
	qi->cap.max_inline_data = SUPERP_MAX_INLINE;
	qp = objs_qp_init(o, qi);
	KUNIT_EXPECT_FALSE(test, IS_ERR(qp));
	if (!IS_ERR(qp)) {
		ib_destroy_qp(qp);
		o->nqp--;
	}
	memset(&qi->cap, 0, sizeof(qi->cap));
	qi->cap.max_send_wr = 1;

	at_limit(test, &c, &sdev->cq_count, a->max_cq, at_limit_cq,
		 at_limit_cq_free);
	at_limit(test, &c, &sdev->qp_count, a->max_qp, at_limit_qp,
		 at_limit_qp_free);
	at_limit(test, &c, &sdev->srq_count, a->max_srq, at_limit_srq,
		 at_limit_srq_free);
	objs_attr(o, &qa, IB_QPS_RTR, 0);
	c.ah = qa.ah_attr;
	at_limit(test, &c, &sdev->ah_count, a->max_ah, at_limit_ah,
		 at_limit_ah_free);
}

/*
 * A connection from the device's own GID 0 to where objs_attr()'s AV
 * points (objs_peer_gid()): udp4 or udp6 by the GID's address family.
 */
static void objs_conn_to_av(struct objs *o, struct superp_conn_addr *a,
			    u8 ordered)
{
	union {
		struct sockaddr sa;
		struct sockaddr_in sin;
		struct sockaddr_in6 sin6;
	} ip, peer;
	union ib_gid gid;

	memset(a, 0, sizeof(*a));
	KUNIT_ASSERT_EQ(o->test, rdma_query_gid(objs_ibdev, SUPERP_PORT, 0, &gid),
			0);
	rdma_gid2ip(&ip.sa, &gid);
	objs_peer_gid(o, &gid);
	rdma_gid2ip(&peer.sa, &gid);
	a->ordered = ordered;
	if (ip.sa.sa_family == AF_INET) {
		a->encap = SUPERP_ENCAP_UDP4;
		a->local.ip4 = ip.sin.sin_addr.s_addr;
		a->remote.ip4 = peer.sin.sin_addr.s_addr;
	} else {
		a->encap = SUPERP_ENCAP_UDP6;
		a->local.ip6 = ip.sin6.sin6_addr;
		a->remote.ip6 = peer.sin6.sin6_addr;
	}
}

#define OBJS_LCID	7

/*
 * Binding at INIT->RTR (superp-rc.rst, "Binding a QP to a connection"):
 * no connection toward the AV: -ENOTCONN; one not ordered both ways:
 * -EINVAL; an ordered one: bound (qp->conn is its entry, the QP on its
 * list). Deleting the connection moves the QP to ERR and unbinds it.
 */
static void rc_bind_rules(struct kunit *test)
{
	struct objs *o = test->priv;
	struct superp_dev *sdev = to_sdev(objs_ibdev);
	const u8 both = SUPERP_ORDERED_RX | SUPERP_ORDERED_TX;
	struct ib_qp *qp = objs_qp(o, 2, 1);
	struct superp_qp *sqp = to_sqp(qp);
	struct superp_conn_entry *e;
	struct superp_conn_addr a;

	superp_rc_allow_unbound = false;
	objs_qp_to(o, qp, IB_QPS_INIT);
	KUNIT_EXPECT_EQ(test, objs_modify(o, qp, IB_QPS_RTR), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, sqp->state, IB_QPS_INIT);

	objs_conn_to_av(o, &a, SUPERP_ORDERED_RX);
	KUNIT_ASSERT_EQ(test, superp_conn_add(sdev, OBJS_LCID, OBJS_LCID, &a,
					      &superp_default_params, NULL), 0);
	KUNIT_EXPECT_EQ(test, objs_modify(o, qp, IB_QPS_RTR), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, sqp->conn, NULL);
	KUNIT_ASSERT_EQ(test, superp_conn_del(sdev, OBJS_LCID), 0);

	objs_conn_to_av(o, &a, both);
	KUNIT_ASSERT_EQ(test, superp_conn_add(sdev, OBJS_LCID, OBJS_LCID, &a,
					      &superp_default_params, NULL), 0);
	KUNIT_EXPECT_EQ(test, objs_modify(o, qp, IB_QPS_RTR), 0);
	rcu_read_lock();
	e = superp_conn_lookup(sdev, OBJS_LCID);
	KUNIT_EXPECT_PTR_EQ(test, sqp->conn, (void *)e);
	rcu_read_unlock();
	KUNIT_EXPECT_FALSE(test, list_empty(&sqp->rc.node));
	KUNIT_EXPECT_EQ(test, superp_conn_del(sdev, OBJS_LCID), 0);
	KUNIT_EXPECT_EQ(test, sqp->state, IB_QPS_ERR);
	KUNIT_EXPECT_PTR_EQ(test, sqp->conn, NULL);
	KUNIT_EXPECT_EQ(test, o->qp_fatal, 1);
	superp_rc_allow_unbound = true;
}

/*
 * A request packet to @e's engine from its peer, as superp_rx() hands it:
 * an RDMA Read (no payload) of transaction @xid naming @qpn with a key no
 * MR has, at the PSN the engine takes next.
 */
static int objs_rx_read(struct kunit *test, struct superp_conn_entry *e,
			u16 xid, u16 seqno, bool eom, u32 qpn)
{
	int hlen = superp_op_hlen(SUPERP_OP_RDMA_READ);
	struct superp_conn *c = &e->conn;
	struct superp_op op = {
		.qpn = qpn, .rkey = 0xdead00, .addr = 4096, .length = 64,
	};
	struct superp_pkt p = {
		.dcid = OBJS_LCID, .xid = xid, .seqno = seqno, .eom = eom,
		.opcode = SUPERP_OP_RDMA_READ, .num_ops = 1,
	};
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = alloc_skb(SUPERP_PDL_HLEN + SUPERP_TAL_HLEN + hlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	hdr = skb_put(skb, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN);
	spin_lock_bh(&e->lock);
	p.psn = c->next_acked_rpsn;
	p.ack_psn = c->unacked_spsn - 1;	/* acknowledges nothing */
	p.ack_xid = c->acked_ixid - 1;
	p.rwin = c->window - 1;
	superp_pkt_encode(&p, hdr, hdr + SUPERP_PDL_HLEN);
	superp_op_encode(SUPERP_OP_RDMA_READ, &op, skb_put(skb, hlen));
	ret = superp_conn_rx(c, &p, skb, ktime_get_ns());
	spin_unlock_bh(&e->lock);
	consume_skb(skb);
	return ret;
}

/*
 * superp_rc_qp_bind() gives a connection its target slots, not
 * superp_conn_add(). Before, superp_rc_target_request() answers every
 * request INVALID/NO_QP (a Transaction Error, counted) with no slot; a
 * transaction whose first packet came before the slots keeps that answer
 * (its slot starts primed with it) rather than running the rest of it;
 * one begun after them runs. Deleting the connection frees the slots
 * (kmemleak).
 */
static void rc_tgt_slots_on_first_bind(struct kunit *test)
{
	const u32 no_qp = SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_NO_QP);
	struct objs *o = test->priv;
	struct superp_dev *sdev = to_sdev(objs_ibdev);
	struct ib_qp *qp = objs_qp(o, 2, 1);
	struct superp_rc_tgt *slot;
	struct superp_conn_entry *e;
	struct superp_conn_addr a;
	u64 terr;
	u16 x0;
	u32 i;

	superp_rc_allow_unbound = false;
	objs_conn_to_av(o, &a, SUPERP_ORDERED_RX | SUPERP_ORDERED_TX);
	KUNIT_ASSERT_EQ(test, superp_conn_add(sdev, OBJS_LCID, OBJS_LCID, &a,
					      &superp_default_params, NULL), 0);
	rcu_read_lock();
	e = superp_conn_lookup(sdev, OBJS_LCID);
	rcu_read_unlock();
	/* ours to delete: the entry outlives the read-side section */
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_PTR_EQ(test, e->rc.tgt, NULL);
	x0 = e->conn.next_acked_txid;
	terr = superp_conn_stats(&e->conn)->tx_trans_err;

	/* No slots: refused, counted, nothing kept. */
	KUNIT_EXPECT_EQ(test, objs_rx_read(test, e, x0, 0, true,
					   qp->qp_num), 0);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(&e->conn)->tx_trans_err,
			terr + 1);
	KUNIT_EXPECT_PTR_EQ(test, e->rc.tgt, NULL);
	/* The first packet of the next one, still without slots. */
	KUNIT_EXPECT_EQ(test, objs_rx_read(test, e, x0 + 1, 0, false,
					   qp->qp_num), 0);

	objs_qp_to(o, qp, IB_QPS_RTR);
	KUNIT_ASSERT_PTR_EQ(test, to_sqp(qp)->conn, (void *)e);
	KUNIT_ASSERT_NOT_NULL(test, e->rc.tgt);
	i = superp_rc_tgt_slots(superp_default_params.tal_trans_window);
	KUNIT_EXPECT_EQ(test, e->rc.tgt_slots, i);
	for (i = 0; i < e->rc.tgt_slots; i++)
		KUNIT_EXPECT_EQ(test, e->rc.tgt[i].err, no_qp);

	/* Its last packet names the bound QP, but it is not run. */
	KUNIT_EXPECT_EQ(test, objs_rx_read(test, e, x0 + 1, 1, true,
					   qp->qp_num), 0);
	slot = &e->rc.tgt[superp_rc_slot_index(e->rc.tgt_slots, x0 + 1)];
	KUNIT_EXPECT_EQ(test, slot->err, no_qp);
	KUNIT_EXPECT_EQ(test, slot->err_seqno, 0);
	KUNIT_EXPECT_EQ(test, slot->err_opnum, 0);
	KUNIT_EXPECT_PTR_EQ(test, slot->mr, NULL);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(&e->conn)->tx_trans_err,
			terr + 2);

	/* Begun with the slots: run, and refused for its key. */
	KUNIT_EXPECT_EQ(test, objs_rx_read(test, e, x0 + 2, 0, true,
					   qp->qp_num), 0);
	slot = &e->rc.tgt[superp_rc_slot_index(e->rc.tgt_slots, x0 + 2)];
	KUNIT_EXPECT_NE(test, slot->err, 0);
	KUNIT_EXPECT_NE(test, slot->err, no_qp);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(&e->conn)->tx_trans_err,
			terr + 3);

	KUNIT_EXPECT_EQ(test, superp_conn_del(sdev, OBJS_LCID), 0);
	KUNIT_EXPECT_PTR_EQ(test, to_sqp(qp)->conn, NULL);
	superp_rc_allow_unbound = true;
}

/*
 * A QP that goes back to RESET leaves its connection, which then deletes
 * without touching it.
 */
/*
 * TAL target procedure, step 1: every XID inside the transaction window
 * has state of its own. The target's slots must keep the window's XIDs
 * apart across the 16-bit wrap, for every window size.
 */
static void rc_tgt_slots_across_xid_wrap(struct kunit *test)
{
	static const u16 windows[] = { 1, 24, 32, 100, 1000, 1024 };
	static const u16 bases[] = { 0, 65000, 65520, 65530, 65535 };
	unsigned long *seen;
	unsigned int w, b, i;

	for (w = 0; w < ARRAY_SIZE(windows); w++) {
		u32 slots = superp_rc_tgt_slots(windows[w]);

		KUNIT_ASSERT_GE(test, slots, (u32)windows[w]);
		seen = kunit_kcalloc(test, BITS_TO_LONGS(slots), sizeof(long),
				     GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, seen);
		for (b = 0; b < ARRAY_SIZE(bases); b++) {
			bitmap_zero(seen, slots);
			for (i = 0; i < windows[w]; i++) {
				u16 xid = bases[b] + i;
				u32 idx = superp_rc_slot_index(slots, xid);
				bool shared;

				KUNIT_ASSERT_LT(test, idx, slots);
				shared = __test_and_set_bit(idx, seen);
				KUNIT_EXPECT_FALSE_MSG(test, shared,
						       "window %u base %u: XID %u shares slot %u",
						       windows[w], bases[b], xid, idx);
			}
		}
	}
}

static void rc_unbind_on_reset(struct kunit *test)
{
	struct objs *o = test->priv;
	struct superp_dev *sdev = to_sdev(objs_ibdev);
	struct ib_qp *qp = objs_qp(o, 2, 1);
	struct superp_qp *sqp = to_sqp(qp);
	struct superp_conn_addr a;

	superp_rc_allow_unbound = false;
	objs_conn_to_av(o, &a, SUPERP_ORDERED_RX | SUPERP_ORDERED_TX);
	KUNIT_ASSERT_EQ(test, superp_conn_add(sdev, OBJS_LCID, OBJS_LCID, &a,
					      &superp_default_params, NULL), 0);
	objs_qp_to(o, qp, IB_QPS_RTS);
	KUNIT_EXPECT_NOT_NULL(test, sqp->conn);
	KUNIT_EXPECT_EQ(test, objs_modify(o, qp, IB_QPS_RESET), 0);
	KUNIT_EXPECT_PTR_EQ(test, sqp->conn, NULL);
	KUNIT_EXPECT_EQ(test, superp_conn_del(sdev, OBJS_LCID), 0);
	KUNIT_EXPECT_EQ(test, sqp->state, IB_QPS_RESET);
	KUNIT_EXPECT_EQ(test, o->qp_fatal, 0);
	superp_rc_allow_unbound = true;
}

/*
 * A user CQ's consumer index is written by the process: the ring counts
 * as full whenever that index is not within num_entries behind ours, so
 * the kernel never overwrites an entry the process has not read, whatever
 * it wrote there.
 */
static void cq_uring_full_untrusted(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, superp_cq_uring_full(0, 0, 4));
	KUNIT_EXPECT_FALSE(test, superp_cq_uring_full(3, 0, 4));
	KUNIT_EXPECT_TRUE(test, superp_cq_uring_full(4, 0, 4));
	/* free-running indices wrap */
	KUNIT_EXPECT_FALSE(test, superp_cq_uring_full(1, 0xfffffffe, 4));
	KUNIT_EXPECT_TRUE(test, superp_cq_uring_full(2, 0xfffffffe, 4));
	/* garbage: ahead of the producer, or far behind it */
	KUNIT_EXPECT_TRUE(test, superp_cq_uring_full(10, 11, 4));
	KUNIT_EXPECT_TRUE(test, superp_cq_uring_full(10, 0x80000000, 4));
	KUNIT_EXPECT_TRUE(test, superp_cq_uring_full(0, 1, 65536));
}

/*
 * Resizing a user CQ: entry i of the old ring lands at entry i of the new
 * one whatever the 32-bit indices wrap to; a consumer index ahead of the
 * producer or more than the old ring behind it, or more completions
 * waiting than the size asked for, is refused and copies nothing.
 */
static void cq_uring_move_untrusted(struct kunit *test)
{
	struct superp_cqe old[4] = {}, new[8] = {};
	struct superp_cq *cq;
	u32 i;

	cq = kunit_kzalloc(test, sizeof(*cq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cq);
	cq->ibcq.cqe = 4;
	cq->ucqe = old;
	cq->uprod = 2;			/* entries 0xfffffffe .. 1 wait */
	for (i = 0xfffffffe; i != 2; i++)
		old[i & 3].wr_id = 100 + (u8)i;

	KUNIT_EXPECT_EQ(test, superp_cq_uring_move(cq, 3, 8, new, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, superp_cq_uring_move(cq, 0xfffffffd, 8, new, 8),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, superp_cq_uring_move(cq, 0x80000000, 8, new, 8),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, superp_cq_uring_move(cq, 0xfffffffe, 3, new, 4),
			-EINVAL);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, new[i].wr_id, 0);

	KUNIT_ASSERT_EQ(test, superp_cq_uring_move(cq, 0xfffffffe, 5, new, 8), 0);
	for (i = 0xfffffffe; i != 2; i++)
		KUNIT_EXPECT_EQ(test, new[i & 7].wr_id, 100 + (u8)i);
	for (i = 2; i < 6; i++)
		KUNIT_EXPECT_EQ(test, new[i].wr_id, 0);
	/* Nothing waiting: any size will do. */
	KUNIT_EXPECT_EQ(test, superp_cq_uring_move(cq, 2, 1, new, 1), 0);
}

/*
 * A user QP's rings (include/uapi/rdma/superp-abi.h): at least max_wr
 * entries, a power of two; a stride that holds the header and the larger
 * of the SGEs and the inline data, in whole cache lines; whole pages.
 */
static void uqp_ring_geometry(struct kunit *test)
{
	size_t shdr = sizeof(struct superp_uwqe_send);
	size_t rhdr = sizeof(struct superp_uwqe_recv);
	struct superp_uwq_geom g;

	superp_uwq_geometry(1, 1, 0, rhdr, &g);
	KUNIT_EXPECT_EQ(test, g.entries, 1);
	KUNIT_EXPECT_EQ(test, g.stride, 64);
	KUNIT_EXPECT_EQ(test, g.size, PAGE_SIZE);

	/* header and one SGE do not fit one cache line: two */
	superp_uwq_geometry(1, 1, 0, shdr, &g);
	KUNIT_EXPECT_EQ(test, g.stride, ALIGN(shdr + sizeof(struct superp_usge), 64));
	KUNIT_EXPECT_EQ(test, g.stride, 128);

	superp_uwq_geometry(100, 2, 200, shdr, &g);
	KUNIT_EXPECT_EQ(test, g.entries, 128);
	KUNIT_EXPECT_GE(test, g.stride, shdr + 200);
	KUNIT_EXPECT_EQ(test, g.stride % 64, 0);
	KUNIT_EXPECT_EQ(test, g.size % PAGE_SIZE, 0);
	KUNIT_EXPECT_GE(test, g.size, sizeof(struct superp_wq_ring) +
			(size_t)g.entries * g.stride);

	/* no WRs asked for: still one entry */
	superp_uwq_geometry(0, 0, 0, rhdr, &g);
	KUNIT_EXPECT_EQ(test, g.entries, 1);

	superp_uwq_geometry(SUPERP_MAX_QP_WR, SUPERP_MAX_SGE, 0, rhdr, &g);
	KUNIT_EXPECT_EQ(test, g.entries, SUPERP_MAX_QP_WR);
	KUNIT_EXPECT_GE(test, g.stride,
			rhdr + SUPERP_MAX_SGE * sizeof(struct superp_usge));
	KUNIT_EXPECT_EQ(test, g.stride % 64, 0);
}

/*
 * A send WQE from a user ring (superp_uqp.c), copied out: every field the
 * process controls is checked before the WQE becomes a work request.
 */
static void uqp_wqe_to_wr(struct kunit *test)
{
	u32 stride = 128, room = stride - sizeof(struct superp_uwqe_send);
	struct superp_uwqe_send *u;
	struct superp_usge *sge;
	struct superp_uwr w;

	u = kunit_kzalloc(test, stride, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, u);
	sge = (struct superp_usge *)(u + 1);

	/* RDMA WRITE with immediate, two SGEs used where they lie */
	u->wr_id = 0x1234;
	u->opcode = IB_UVERBS_WR_RDMA_WRITE_WITH_IMM;
	u->send_flags = IB_SEND_SIGNALED;
	u->num_sge = 2;
	u->imm_data = (__force u32)cpu_to_be32(7);
	u->remote_addr = 0x10000;
	u->rkey = 0x55;
	sge[1].addr = 0x2000;
	sge[1].length = 64;
	sge[1].lkey = 0x99;
	KUNIT_ASSERT_EQ(test, superp_uwqe_to_wr(u, stride, 4, 0, &w),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w.wr.opcode, IB_WR_RDMA_WRITE_WITH_IMM);
	KUNIT_EXPECT_EQ(test, w.wr.wr_id, 0x1234);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(w.wr.ex.imm_data), 7);
	KUNIT_EXPECT_EQ(test, w.rdma.remote_addr, 0x10000);
	KUNIT_EXPECT_EQ(test, w.rdma.rkey, 0x55);
	KUNIT_EXPECT_EQ(test, w.wr.num_sge, 2);
	KUNIT_EXPECT_EQ(test, w.wr.sg_list[1].addr, 0x2000);
	KUNIT_EXPECT_EQ(test, w.wr.sg_list[1].length, 64);
	KUNIT_EXPECT_EQ(test, w.wr.sg_list[1].lkey, 0x99);

	/* atomics: remote address, operands and rkey where atomic_wr has them */
	u->opcode = IB_UVERBS_WR_ATOMIC_CMP_AND_SWP;
	u->compare_add = 0x1111222233334444ULL;
	u->swap = 0x5555666677778888ULL;
	u->num_sge = 1;
	KUNIT_ASSERT_EQ(test, superp_uwqe_to_wr(u, stride, 4, 0, &w),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w.atomic.remote_addr, 0x10000);
	KUNIT_EXPECT_EQ(test, w.atomic.compare_add, 0x1111222233334444ULL);
	KUNIT_EXPECT_EQ(test, w.atomic.swap, 0x5555666677778888ULL);
	KUNIT_EXPECT_EQ(test, w.atomic.rkey, 0x55);

	/* more SGEs than the QP has, or than the stride holds */
	u->opcode = IB_UVERBS_WR_SEND;
	u->num_sge = 5;
	KUNIT_EXPECT_EQ(test, superp_uwqe_to_wr(u, stride, 4, 0, &w),
			IB_WC_LOC_QP_OP_ERR);
	u->num_sge = room / sizeof(*sge) + 1;
	KUNIT_EXPECT_EQ(test, superp_uwqe_to_wr(u, stride, 32, 0, &w),
			IB_WC_LOC_QP_OP_ERR);
	u->num_sge = 0xffffffff;
	KUNIT_EXPECT_EQ(test, superp_uwqe_to_wr(u, stride, 32, 0, &w),
			IB_WC_LOC_QP_OP_ERR);

	/* inline: within the QP's inline room and the stride only */
	u->num_sge = 0;
	u->send_flags = IB_SEND_INLINE;
	u->inline_len = 16;
	KUNIT_ASSERT_EQ(test, superp_uwqe_to_wr(u, stride, 1, 64, &w),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w.wr.num_sge, 1);
	KUNIT_EXPECT_PTR_EQ(test, (void *)(uintptr_t)w.wr.sg_list[0].addr,
			    (void *)(u + 1));
	KUNIT_EXPECT_EQ(test, w.wr.sg_list[0].length, 16);
	u->inline_len = 65;
	KUNIT_EXPECT_EQ(test, superp_uwqe_to_wr(u, stride, 1, 64, &w),
			IB_WC_LOC_LEN_ERR);
	u->inline_len = room + 1;
	KUNIT_EXPECT_EQ(test, superp_uwqe_to_wr(u, stride, 1, 4096, &w),
			IB_WC_LOC_LEN_ERR);

	/* LOCAL_INV: the key in imm_data; no data, so never inline */
	u->send_flags = IB_SEND_SIGNALED;
	u->opcode = IB_UVERBS_WR_LOCAL_INV;
	u->imm_data = 0x123456;
	u->num_sge = 0xffff;	/* not read */
	KUNIT_ASSERT_EQ(test, superp_uwqe_to_wr(u, stride, 1, 0, &w),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w.wr.opcode, IB_WR_LOCAL_INV);
	KUNIT_EXPECT_EQ(test, w.wr.ex.invalidate_rkey, 0x123456);
	u->send_flags |= IB_SEND_INLINE;
	KUNIT_EXPECT_EQ(test, superp_uwqe_to_wr(u, stride, 1, 0, &w),
			IB_WC_LOC_QP_OP_ERR);

	/* BIND_MW: window's key in rkey, new key in imm_data, the bind */
	u->send_flags = IB_SEND_SIGNALED;
	u->opcode = IB_UVERBS_WR_BIND_MW;
	u->rkey = 0xabcd00;
	u->imm_data = 0xabcd07;
	u->bind.addr = 0x7000;
	u->bind.length = 0x100;
	u->bind.mr_lkey = 0x4200;
	u->bind.access = IB_ACCESS_REMOTE_READ;
	KUNIT_ASSERT_EQ(test, superp_uwqe_to_wr(u, stride, 1, 0, &w),
			IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, w.wr.opcode, IB_WR_BIND_MW);
	KUNIT_EXPECT_EQ(test, w.bind.mw_key, 0xabcd00);
	KUNIT_EXPECT_EQ(test, w.bind.new_key, 0xabcd07);
	KUNIT_EXPECT_EQ(test, w.bind.addr, 0x7000ULL);
	KUNIT_EXPECT_EQ(test, w.bind.length, 0x100ULL);
	KUNIT_EXPECT_EQ(test, w.bind.mr_lkey, 0x4200);
	KUNIT_EXPECT_EQ(test, w.bind.access, IB_ACCESS_REMOTE_READ);
	u->num_sge = 0;

	/* opcodes a user QP may not use, unknown flags */
	u->send_flags = 0;
	u->opcode = IB_WR_REG_MR;
	KUNIT_EXPECT_EQ(test, superp_uwqe_to_wr(u, stride, 1, 0, &w),
			IB_WC_LOC_QP_OP_ERR);
	u->opcode = 0xdeadbeef;
	KUNIT_EXPECT_EQ(test, superp_uwqe_to_wr(u, stride, 1, 0, &w),
			IB_WC_LOC_QP_OP_ERR);
	u->opcode = IB_UVERBS_WR_SEND;
	u->send_flags = IB_SEND_IP_CSUM;
	KUNIT_EXPECT_EQ(test, superp_uwqe_to_wr(u, stride, 1, 0, &w),
			IB_WC_LOC_QP_OP_ERR);
}

/*
 * The send ring's SUPERP_WQ_BUSY (superp-abi.h): published while the
 * kernel queue has WRs; cleared, with producer read after it, when the
 * last one leaves; a WQE the process wrote meanwhile makes the data path
 * come back. Never believed from the ring.
 */
static void uqp_sq_busy_recheck(struct kunit *test)
{
	struct superp_wq_ring *ring;
	struct superp_qp *qp;

	qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	ring = kunit_kzalloc(test, sizeof(*ring), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qp);
	KUNIT_ASSERT_NOT_NULL(test, ring);
	qp->usq.ring = ring;
	qp->usq.entries = 8;

	/* Not busy: nothing to do, whatever the ring says. */
	ring->flags = SUPERP_WQ_BUSY;
	ring->producer = 3;
	KUNIT_EXPECT_FALSE(test, superp_uqp_sq_recheck(qp));

	/* Busy, WRs still queued, WQEs waiting: come back, stay busy. */
	qp->usq.busy = true;
	qp->usq.cons = 2;
	qp->sq.head = 2;
	qp->sq.tail = 1;
	ring->flags = SUPERP_WQ_BUSY;
	KUNIT_EXPECT_TRUE(test, superp_uqp_sq_recheck(qp));
	KUNIT_EXPECT_TRUE(test, qp->usq.busy);
	KUNIT_EXPECT_EQ(test, ring->flags, SUPERP_WQ_BUSY);

	/* Busy, WRs queued, nothing waiting: nothing to do, still busy. */
	ring->producer = 2;
	KUNIT_EXPECT_FALSE(test, superp_uqp_sq_recheck(qp));
	KUNIT_EXPECT_TRUE(test, qp->usq.busy);

	/* The last WR left, nothing waiting: the flag goes. */
	qp->sq.tail = 2;
	KUNIT_EXPECT_FALSE(test, superp_uqp_sq_recheck(qp));
	KUNIT_EXPECT_FALSE(test, qp->usq.busy);
	KUNIT_EXPECT_EQ(test, ring->flags, 0);

	/* The last WR left as the process wrote one: busy again, come back. */
	qp->usq.busy = true;
	ring->flags = SUPERP_WQ_BUSY;
	ring->producer = 3;
	KUNIT_EXPECT_TRUE(test, superp_uqp_sq_recheck(qp));
	KUNIT_EXPECT_TRUE(test, qp->usq.busy);
	KUNIT_EXPECT_EQ(test, ring->flags, SUPERP_WQ_BUSY);

	/* A producer more than a ring ahead is garbage: no work from it. */
	qp->usq.busy = true;
	ring->producer = 2 + 9;
	KUNIT_EXPECT_FALSE(test, superp_uqp_sq_recheck(qp));
	KUNIT_EXPECT_FALSE(test, qp->usq.busy);
}

static struct kunit_case superp_objects_cases[] = {
	KUNIT_CASE(cq_create_checks),
	KUNIT_CASE(cq_poll_order),
	KUNIT_CASE(cq_notify),
	KUNIT_CASE(cq_overflow_event),
	KUNIT_CASE(cq_resize),
	KUNIT_CASE(cq_resize_armed_after_overflow),
	KUNIT_CASE(cq_uring_full_untrusted),
	KUNIT_CASE(cq_uring_move_untrusted),
	KUNIT_CASE(qp_create_checks),
	KUNIT_CASE(qp_state_machine),
	KUNIT_CASE(qp_transition_masks),
	KUNIT_CASE(qp_attr_checks),
	KUNIT_CASE(qp_path_mtu_active),
	KUNIT_CASE(qp_post_checks),
	KUNIT_CASE(qp_flush_on_error),
	KUNIT_CASE(qp_data_path_interface),
	KUNIT_CASE(srq_create_post_resize),
	KUNIT_CASE(srq_limit_event_once),
	KUNIT_CASE(srq_attached_qp),
	KUNIT_CASE(ah_create_query),
	KUNIT_CASE(frwr_reg_inv),
	KUNIT_CASE(atomic_post_and_access),
	KUNIT_CASE(frwr_rma_access),
	KUNIT_CASE(frwr_other_pd),
	KUNIT_CASE(qp_send_rewind),
	KUNIT_CASE(rc_rnr_timer_encoding),
	KUNIT_CASE(device_attr_consistency),
	KUNIT_CASE(rc_bind_rules),
	KUNIT_CASE(rc_unbind_on_reset),
	KUNIT_CASE(rc_tgt_slots_across_xid_wrap),
	KUNIT_CASE(rc_tgt_slots_on_first_bind),
	KUNIT_CASE(uqp_ring_geometry),
	KUNIT_CASE(uqp_wqe_to_wr),
	KUNIT_CASE(uqp_sq_busy_recheck),
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
