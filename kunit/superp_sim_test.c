// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: two SUPERp engines over a simulated lossy channel (superp_sim.c).
 * Each run exchanges 10,000 transactions, 100,000 with soak=1 (make soak,
 * and always natively: tools/superp-sim), half initiated by each side:
 * writes, sends, No-ops, barriers and reads with replies of 1 to 64
 * packets) with 1% duplication and 2% long reordering, and asserts:
 * every transaction completes exactly once with its data, the ordered side
 * delivers in PSN order, no window is exceeded, nothing deadlocks, no
 * error event is raised, both sides quiesce on soft shutdown, and
 * retransmissions stay bounded by the losses and reorderings. The
 * SUPERp-lite cases run both sides lite (sim_lite_*_test()).
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include "superp_sim.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static bool soak;
module_param(soak, bool, 0444);
MODULE_PARM_DESC(soak, "the long runs of make soak (ten times the transactions)");

/* Transactions per side: @n, or ten times as many under make soak. */
static u32 sim_trans(u32 n)
{
	return soak ? 10 * n : n;
}

static void sim_report(struct kunit *test, const struct superp_sim_cfg *cfg,
		       const struct superp_sim_result *r)
{
	kunit_info(test, "loss %u ppm: %llu transactions (%llu failed), %llu packets (%llu data, %llu pure ACKs, %llu NACKs), %llu lost, %llu duplicated",
		   cfg->loss_ppm, r->submitted, r->failed, r->packets,
		   r->data_pkts, r->pure_acks, r->nacks, r->lost,
		   r->duplicated);
	kunit_info(test, "retransmissions: %llu timer, %llu fast, %llu proactive, %llu tail probes; simulated time %llu us",
		   r->rtx_timer, r->rtx_fast, r->rtx_proactive, r->rtx_tail,
		   r->sim_ns / 1000);
}

static void sim_lossy(struct kunit *test, u32 loss_ppm, u32 max_rtx,
		      u32 window, u32 ntrans)
{
	struct superp_sim_result *r;
	struct superp_sim_cfg *cfg;
	u64 rtx;
	int ret;

	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, r);
	superp_sim_default_cfg(cfg);
	cfg->ntrans = ntrans;
	cfg->loss_ppm = loss_ppm;
	cfg->params.pdl_window_size = window;
	cfg->params.pdl_receive_win = window;
	cfg->params.tal_trans_window = window;
	cfg->seed = 0x5eed0000 + loss_ppm;
	cfg->params.pdl_max_rtx = max_rtx;
	ret = superp_sim_run(cfg, r);
	sim_report(test, cfg, r);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE_MSG(test, !r->fail[0], "%s", r->fail);
	KUNIT_EXPECT_EQ(test, r->submitted, 2 * ntrans);
	KUNIT_EXPECT_EQ(test, r->completed, 2 * ntrans);
	KUNIT_EXPECT_EQ(test, r->failed, 0);
	KUNIT_EXPECT_EQ(test, r->events, 0);
	KUNIT_EXPECT_FALSE(test, r->broken[0] || r->broken[1]);
	KUNIT_EXPECT_TRUE(test, r->quiescent[0] && r->quiescent[1]);
	KUNIT_EXPECT_LE(test, r->max_inflight_psn,
			cfg->params.pdl_window_size);
	/* each loss or long reordering costs a bounded number of resends */
	rtx = r->rtx_timer + r->rtx_fast + r->rtx_proactive + r->rtx_tail;
	KUNIT_EXPECT_LE(test, rtx, 2 * r->lost + r->packets / 50 + 100);
}

/* 0% loss: reordering and duplication only. */
static void sim_loss_0_test(struct kunit *test)
{
	sim_lossy(test, 0, 4, 32, sim_trans(5000));
}

/* 1% loss. */
static void sim_loss_1_test(struct kunit *test)
{
	sim_lossy(test, 10000, 4, 32, sim_trans(5000));
}

/* 10% loss. */
static void sim_loss_10_test(struct kunit *test)
{
	sim_lossy(test, 100000, 4, 32, sim_trans(5000));
}

/*
 * 30% loss, with pdl_max_rtx at its maximum (8): at 4, a PSN and its
 * ACKs lost five times in a row is likely somewhere in 300,000 PSNs.
 */
static void sim_loss_30_test(struct kunit *test)
{
	sim_lossy(test, 300000, 8, 32, sim_trans(5000));
}

/*
 * Windows of 1024 PSNs and XIDs at 5% loss: multi-word bitmaps, holes
 * beyond the 32-bit SACK reach, NACKs (4,000 transactions, 40,000 under
 * make soak).
 */
static void sim_window_1024_test(struct kunit *test)
{
	sim_lossy(test, 50000, 4, 1024, sim_trans(2000));
}

/*
 * Windows need not be powers of two (spec: 16..1024): with a window of 100
 * the PSN and XID windows cross the wrap (the runs start just below it)
 * without two in-flight sequence numbers sharing per-PSN or per-XID state.
 */
static void sim_window_100_test(struct kunit *test)
{
	sim_lossy(test, 50000, 4, 100, sim_trans(2000));
}

/*
 * 100% loss: flow control 4.a, the connection is broken after pdl_max_rtx
 * timer retransmissions of the first PSN (the second and later ones are
 * sent twice) and every pending transaction fails. With the handshake
 * (SUPERP_CONN_HELLO), the first PSN is the engine's No-op and the users'
 * transactions never start: they wait in the user's queue, whose owner
 * fails them when the connection breaks.
 */
static void sim_blackhole_test(struct kunit *test)
{
	struct superp_sim_result *r;
	struct superp_sim_cfg *cfg;
	u32 max_rtx;
	int hello;

	for (hello = 0; hello < 2; hello++) {
		cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
		r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, cfg);
		KUNIT_ASSERT_NOT_NULL(test, r);
		superp_sim_default_cfg(cfg);
		cfg->ntrans = 16;
		cfg->loss_ppm = 1000000;
		cfg->shutdown = false;
		cfg->hello = hello;
		max_rtx = cfg->params.pdl_max_rtx;
		superp_sim_run(cfg, r);
		sim_report(test, cfg, r);
		KUNIT_EXPECT_TRUE_MSG(test, !r->fail[0], "%s", r->fail);
		KUNIT_EXPECT_TRUE(test, r->broken[0] && r->broken[1]);
		KUNIT_EXPECT_EQ(test, r->submitted, hello ? 0 : 32);
		KUNIT_EXPECT_EQ(test, r->completed, 0);
		KUNIT_EXPECT_EQ(test, r->failed, hello ? 0 : 32);
		KUNIT_EXPECT_EQ(test, r->rtx_timer, 2 * (2 * max_rtx - 1));
		KUNIT_EXPECT_EQ(test, r->lost, r->packets);
	}
}

/* A default simulation set-up and a result, freed with the test. */
static struct superp_sim_cfg *sim_new(struct kunit *test,
				      struct superp_sim_result **r)
{
	struct superp_sim_cfg *cfg;

	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	*r = kunit_kzalloc(test, sizeof(**r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, *r);
	superp_sim_default_cfg(cfg);
	return cfg;
}

/*
 * Transaction windows 1, 4, 8 and 32, without and with barriers (every 5th
 * transaction), at 1%, 10% and 30% loss: every transaction completes exactly
 * once and nothing deadlocks. A target that retires a transaction outside a
 * request's receive path (its reply acknowledged) must still convey the new ACK
 * XID reliably (spec: Transaction Layer, "ACK XID"; a stall once found,
 * lost_ack_xid_probe_test() in superp_engine_test.c). tools/superp-sim -M runs
 * the same matrix with more seeds natively.
 */
static void sim_window_matrix_test(struct kunit *test)
{
	static const u32 twin[] = { 1, 4, 8, 32 };
	static const u32 loss[] = { 10000, 100000, 300000 };
	struct superp_sim_result *r;
	struct superp_sim_cfg *cfg;
	unsigned int w, b, l;
	int ret;

	cfg = sim_new(test, &r);
	for (w = 0; w < ARRAY_SIZE(twin); w++)
		for (b = 0; b < 2; b++)
			for (l = 0; l < ARRAY_SIZE(loss); l++) {
				superp_sim_default_cfg(cfg);
				cfg->ntrans = 1000;
				cfg->params.tal_trans_window = twin[w];
				cfg->barrier_every = b ? 5 : 0;
				cfg->loss_ppm = loss[l];
				cfg->params.pdl_max_rtx = 8;
				cfg->seed = 0x3a7000 + w * 16 + b * 4 + l;
				ret = superp_sim_run(cfg, r);
				kunit_info(test, "window %u barriers %s loss %u%%: %llu/%llu completed, simulated %llu us%s%s",
					   twin[w], b ? "yes" : "no",
					   loss[l] / 10000, r->completed,
					   r->submitted, r->sim_ns / 1000,
					   r->fail[0] ? ": " : "", r->fail);
				KUNIT_EXPECT_EQ(test, ret, 0);
				KUNIT_EXPECT_EQ(test, r->submitted, 2000);
				KUNIT_EXPECT_EQ(test, r->completed, 2000);
				KUNIT_EXPECT_EQ(test, r->events, 0);
				KUNIT_EXPECT_TRUE(test, r->quiescent[0] &&
						  r->quiescent[1]);
			}
}

/*
 * Completion latency in simulated time, one transaction at a time: a WRITE
 * completes when the ACK of its request (carrying the ACK XID) returns, one
 * round trip; a READ when the ACK XID follows the ACK of its reply, two round
 * trips. Neither waits for the delayed ACK timer (spec: Receiver flow control 3
 * coalesces ACKs; the retirement of an eom request or reply is acknowledged at
 * once; a defect once found, completion_ack_at_once_test() in
 * superp_engine_test.c).
 */
static void sim_latency_test(struct kunit *test)
{
	static const u32 delay[] = { 0, 5000 };
	struct superp_sim_result *r;
	struct superp_sim_cfg *cfg;
	unsigned int i;
	int ret;

	cfg = sim_new(test, &r);
	for (i = 0; i < ARRAY_SIZE(delay); i++) {
		superp_sim_default_cfg(cfg);
		cfg->latency = true;
		cfg->ntrans = 200;
		cfg->dup_ppm = 0;
		cfg->reorder_ppm = 0;
		cfg->jitter_ns = 0;
		cfg->delay_ns = delay[i];
		cfg->params.tal_trans_window = 1;
		ret = superp_sim_run(cfg, r);
		kunit_info(test, "one-way delay %u ns: WRITE completes in %llu ns, READ in %llu ns (RTT %u ns)",
			   delay[i], r->max_lat_write, r->max_lat_read,
			   2 * delay[i]);
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_TRUE_MSG(test, !r->fail[0], "%s", r->fail);
		KUNIT_EXPECT_EQ(test, r->completed, 200);
		KUNIT_EXPECT_LE(test, r->max_lat_write, 2ULL * delay[i]);
		KUNIT_EXPECT_LE(test, r->max_lat_read, 4ULL * delay[i]);
	}
}

/*
 * Per-QP flush under loss: node 0 cancels a pending transaction every 7th
 * submission (superp_cancel(), as a destroyed QP would). Each cancelled one
 * completes once, with -ECANCELED; its XID still reaches the target, which runs
 * none of a half-sent request; nothing deadlocks.
 */
static void sim_cancel_test(struct kunit *test)
{
	struct superp_sim_result *r;
	struct superp_sim_cfg *cfg;
	int ret;

	cfg = sim_new(test, &r);
	cfg->ntrans = 5000;
	cfg->loss_ppm = 100000;
	cfg->cancel_every = 7;
	cfg->params.pdl_max_rtx = 8;
	ret = superp_sim_run(cfg, r);
	sim_report(test, cfg, r);
	kunit_info(test, "%llu cancelled, %u target refusals", r->cancelled,
		   r->refusals);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE_MSG(test, !r->fail[0], "%s", r->fail);
	KUNIT_EXPECT_EQ(test, r->submitted, 10000);
	KUNIT_EXPECT_GT(test, r->cancelled, 0);
	KUNIT_EXPECT_EQ(test, r->completed + r->cancelled, 10000);
	KUNIT_EXPECT_EQ(test, r->failed, r->cancelled);
	KUNIT_EXPECT_EQ(test, r->events, 0);
	KUNIT_EXPECT_TRUE(test, r->quiescent[0] && r->quiescent[1]);
}

/*
 * SUPERp-lite: "the Transaction Layer and operations work the same way".
 * Both nodes lite, over the link lite presumes (in order: jitter delays but
 * never reorders; no loss, no duplicate), transaction windows 1, 8 and 32,
 * without and with barriers (every 5th transaction), 2,000 transactions a
 * side. Every transaction completes exactly once with its data (the
 * injected Transaction Errors included); nothing is retransmitted, probed
 * or selectively acknowledged; each pure ACK carries a new ACK XID; each
 * side takes the other's packets in the order sent; both quiesce, unbroken.
 */
static void sim_lite_transactions_test(struct kunit *test)
{
	static const u32 twin[] = { 1, 8, 32 };
	u32 ntrans = sim_trans(2000);
	struct superp_sim_result *r;
	struct superp_sim_cfg *cfg;
	unsigned int w, b;
	int ret;

	cfg = sim_new(test, &r);
	for (w = 0; w < ARRAY_SIZE(twin); w++)
		for (b = 0; b < 2; b++) {
			superp_sim_default_cfg(cfg);
			superp_sim_lite_cfg(cfg);
			cfg->ntrans = ntrans;
			cfg->params.tal_trans_window = twin[w];
			cfg->barrier_every = b ? 5 : 0;
			cfg->seed = 0x11e000 + w * 2 + b;
			ret = superp_sim_run(cfg, r);
			kunit_info(test, "window %u barriers %s: %llu/%llu completed, %llu packets (%llu pure ACKs), simulated %llu us%s%s",
				   twin[w], b ? "yes" : "no", r->completed,
				   r->submitted, r->packets, r->pure_acks,
				   r->sim_ns / 1000, r->fail[0] ? ": " : "",
				   r->fail);
			KUNIT_EXPECT_EQ(test, ret, 0);
			KUNIT_EXPECT_EQ(test, r->submitted, 2 * ntrans);
			KUNIT_EXPECT_EQ(test, r->completed, 2 * ntrans);
			KUNIT_EXPECT_EQ(test, r->events, 0);
			KUNIT_EXPECT_EQ(test, r->rtx_timer + r->rtx_fast +
					r->rtx_proactive + r->rtx_tail +
					r->probes + r->sacks + r->nacks, 0);
			/* at most one per retired XID: hellos and Last NULLs too */
			KUNIT_EXPECT_LE(test, r->pure_acks, 2 * ntrans + 4);
			KUNIT_EXPECT_TRUE(test, r->quiescent[0] && r->quiescent[1]);
			KUNIT_EXPECT_FALSE(test, r->broken[0] || r->broken[1]);
		}
}

/*
 * One lite run whose link breaks lite's promise: it must end, with both
 * nodes broken (the connection manager hard-shuts the peer of the side
 * that broke) by one transaction timer or one request gap, and every
 * transaction completed or failed once; superp_sim.c checks the rest (how
 * each failed, nothing retransmitted, nothing run after a packet lost).
 */
static void sim_lite_broken(struct kunit *test, struct superp_sim_cfg *cfg,
			    struct superp_sim_result *r)
{
	int ret = superp_sim_run(cfg, r);

	kunit_info(test, "window %u loss %u dup %u reorder %u ppm seed %llu: %llu/%llu completed, %llu failed, ended by %s, simulated %llu us%s%s",
		   cfg->params.tal_trans_window, cfg->loss_ppm, cfg->dup_ppm,
		   cfg->reorder_ppm, cfg->seed, r->completed, r->submitted,
		   r->failed, r->lite_gaps ? "a request gap" :
		   r->lite_timeouts ? "the timer" : "neither",
		   r->sim_ns / 1000, r->fail[0] ? ": " : "", r->fail);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE(test, r->broken[0] && r->broken[1]);
	KUNIT_EXPECT_EQ(test, r->lite_gaps + r->lite_timeouts, 1);
	KUNIT_EXPECT_EQ(test, r->completed + r->failed, r->submitted);
}

/*
 * SUPERp-lite: "an initiator should use a timer to ensure that
 * transactions are acknowledged ... if a timer fires then that is a fatal
 * error that must be reported to the connection manager". At 0.1%, 1%
 * and 30% loss, eight seeds each over windows 1, 8 and 32: each run ends
 * broken (sim_lite_broken()), never by a retransmission. The target sees
 * most losses first, as a request packet other than the one due; a lost
 * reply, ACK XID or last request leaves only the timer. Both are seen.
 */
static void sim_lite_loss_breaks_test(struct kunit *test)
{
	static const u32 twin[] = { 1, 8, 32 };
	static const u32 loss[] = { 1000, 10000, 300000 };
	u32 gaps = 0, timeouts = 0;
	struct superp_sim_result *r;
	struct superp_sim_cfg *cfg;
	unsigned int l, seed;

	cfg = sim_new(test, &r);
	for (l = 0; l < ARRAY_SIZE(loss); l++)
		for (seed = 0; seed < 8; seed++) {
			superp_sim_default_cfg(cfg);
			superp_sim_lite_cfg(cfg);
			cfg->loss_ppm = loss[l];
			cfg->params.tal_trans_window = twin[seed % 3];
			cfg->seed = 0x11e100 + l * 16 + seed;
			sim_lite_broken(test, cfg, r);
			gaps += r->lite_gaps;
			timeouts += r->lite_timeouts;
		}
	KUNIT_EXPECT_GT(test, gaps, 0);
	KUNIT_EXPECT_GT(test, timeouts, 0);
}

/*
 * SUPERp-lite's request gap (superp-engine.rst, "SUPERp-lite"): on a link
 * that duplicates (1%) and reorders (2%) but loses nothing, a duplicated
 * or overtaken request packet is not the one due, and the target breaks
 * the connection before any of it runs: no request runs twice or before
 * an earlier one. Eight seeds, windows 1, 8 and 32.
 */
static void sim_lite_gap_breaks_test(struct kunit *test)
{
	static const u32 twin[] = { 1, 8, 32 };
	struct superp_sim_result *r;
	struct superp_sim_cfg *cfg;
	unsigned int seed;

	cfg = sim_new(test, &r);
	for (seed = 0; seed < 8; seed++) {
		superp_sim_default_cfg(cfg);
		superp_sim_lite_cfg(cfg);
		cfg->dup_ppm = 10000;
		cfg->reorder_ppm = 20000;
		cfg->params.tal_trans_window = twin[seed % 3];
		cfg->seed = 0x11e200 + seed;
		sim_lite_broken(test, cfg, r);
		KUNIT_EXPECT_EQ(test, r->lite_gaps, 1);
	}
}

static struct kunit_case superp_sim_cases[] = {
	KUNIT_CASE(sim_loss_0_test),
	KUNIT_CASE(sim_loss_1_test),
	KUNIT_CASE(sim_loss_10_test),
	KUNIT_CASE(sim_loss_30_test),
	KUNIT_CASE(sim_window_1024_test),
	KUNIT_CASE(sim_window_100_test),
	KUNIT_CASE(sim_blackhole_test),
	KUNIT_CASE(sim_window_matrix_test),
	KUNIT_CASE(sim_latency_test),
	KUNIT_CASE(sim_cancel_test),
	KUNIT_CASE(sim_lite_transactions_test),
	KUNIT_CASE(sim_lite_loss_breaks_test),
	KUNIT_CASE(sim_lite_gap_breaks_test),
	{}
};

static struct kunit_suite superp_sim_suite = {
	.name = "superp_engine_sim",
	.test_cases = superp_sim_cases,
};

kunit_test_suite(superp_sim_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit: SUPERp engines over a simulated lossy channel");
