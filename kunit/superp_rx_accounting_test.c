// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: ib_superp's receive accounting identity at the engine. Every
 * packet handed to superp_conn_rx() ("Receiving a packet", SUPERp v0.4
 * Protocol operations) is counted once in rx_pkts and exactly once as
 * processed, duplicate or dropped under one named reason, or is held by
 * an ordered connection until its gap fills (Documentation/superp-admin.rst,
 * "Receive accounting").
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include "superp_engine_int.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static int acc_buf;	/* a non-NULL rx buffer the engine may hold */

static int acc_xmit(struct superp_conn *c, const struct superp_pkt *p,
		    void *cookie)
{
	return 0;
}

/* What a connection's callbacks need; NULL priv: defaults. */
struct acc_node {
	struct superp_conn *c;	/* the fuzz's current connection */
	u64 timer;		/* armed deadline, 0: none */
	unsigned int holds;
	bool short_of_memory;	/* every third hold() fails */
};

static void acc_arm(struct superp_conn *c, u64 at)
{
	struct acc_node *n = c->priv;

	if (n)
		n->timer = at;
}

static void *acc_hold(struct superp_conn *c, void *buf)
{
	struct acc_node *n = c->priv;

	if (n && n->short_of_memory && ++n->holds % 3 == 0)
		return NULL;
	return buf;
}

static void acc_release(struct superp_conn *c, void *buf)
{
}

static int acc_target_request(struct superp_conn *c, u16 xid, u8 op)
{
	if (op == SUPERP_OP_RMA_READ) {
		superp_tal_reply(c, xid, SUPERP_OP_READ_RESP, 1, 1, NULL, 0);
		return SUPERP_TGT_PENDING;
	}
	return SUPERP_TGT_DONE;
}

static void acc_complete(struct superp_conn *c, void *cookie, int status,
			 u32 err)
{
}

static const struct superp_engine_ops acc_ops = {
	.xmit = acc_xmit,
	.arm_timer = acc_arm,
	.hold = acc_hold,
	.release = acc_release,
	.target_request = acc_target_request,
	.complete = acc_complete,
};

static void acc_res_free(struct kunit_resource *res)
{
	superp_conn_destroy(res->data);
}

static int acc_res_init(struct kunit_resource *res, void *ctx)
{
	res->data = ctx;
	return 0;
}

static struct superp_conn *acc_new(struct kunit *test, unsigned int flags,
				   void *priv)
{
	struct superp_conn *c;

	c = superp_conn_create(&superp_default_params, &acc_ops, priv, 1, 2,
			       flags);
	KUNIT_ASSERT_NOT_NULL(test, c);
	kunit_alloc_resource(test, acc_res_init, acc_res_free, GFP_KERNEL, c);
	return c;
}

static struct superp_pkt acc_pkt(u32 psn, u8 op, u16 xid)
{
	struct superp_pkt p = {
		.psn = psn, .ack_psn = SUPERP_ACK_PSN_NONE, .rwin = 31,
		.opcode = op, .xid = xid, .eom = true,
		.ack_xid = SUPERP_ACK_XID_NONE, .num_ops = 1,
	};
	return p;
}

/*
 * "Receiving a packet" on a connection already broken (hard shutdown): the
 * packet is dropped, and counted as received as well as dropped.
 */
static void rx_broken_counted_test(struct kunit *test)
{
	struct superp_conn *c = acc_new(test, 0, NULL);
	struct superp_pkt p = acc_pkt(0, SUPERP_OP_NOOP, 0);
	const struct superp_stats *s = superp_conn_stats(c);

	superp_conn_abort(c, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, superp_conn_rx(c, &p, &acc_buf, 0), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, s->rx_dropped, 1);
	KUNIT_EXPECT_EQ(test, s->rx_pkts, 1);
	KUNIT_EXPECT_EQ(test, s->rx_drop_broken, 1);
}

/* Every term of the identity for one connection, and their sum. */
static u64 acc_terms(const struct superp_stats *s, u64 *drops)
{
	*drops = s->rx_drop_psn_window + s->rx_drop_ack_window +
		 s->rx_drop_ack_xid_window + s->rx_drop_broken +
		 s->rx_drop_no_hold + s->rx_drop_flushed + s->rx_drop_tal;
	return s->rx_processed + s->rx_dup + s->rx_holding + *drops;
}

static void acc_check(struct kunit *test, struct superp_conn *c, u64 fed,
		      u32 step)
{
	const struct superp_stats *s = superp_conn_stats(c);
	u64 drops, sum = acc_terms(s, &drops);

	KUNIT_ASSERT_TRUE_MSG(test, s->rx_pkts == fed && sum == fed &&
			      drops == s->rx_dropped,
			      "step %u: fed %llu rx_pkts %llu terms %llu drops %llu rx_dropped %llu",
			      step, fed, s->rx_pkts, sum, drops, s->rx_dropped);
}

/* xorshift32: the same sequence natively and in the kernel, from a seed */
static u32 acc_rand(u32 *st)
{
	u32 x = *st;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*st = x;
	return x;
}

/* A hostile packet near the connection's windows, or anywhere. */
static struct superp_pkt acc_hostile(struct superp_conn *c, u32 *st)
{
	struct superp_pkt p = {};
	u32 r = acc_rand(st);

	p.opcode = r % 4 ? acc_rand(st) % 32 : SUPERP_OP_PURE_ACK;
	if (r & 0x10)
		p.psn = acc_rand(st);
	else
		p.psn = c->next_acked_rpsn + acc_rand(st) % 80 - 16;
	switch ((r >> 5) % 4) {
	case 0:
		p.ack_psn = SUPERP_ACK_PSN_NONE;
		break;
	case 1:
		p.ack_psn = acc_rand(st);
		break;
	default:
		p.ack_psn = c->unacked_spsn + acc_rand(st) % 40 - 4;
		break;
	}
	p.sack = r & 0x80 ? acc_rand(st) : 0;
	p.rwin = acc_rand(st) % 64;
	p.xid = r & 0x100 ? acc_rand(st) :
		c->next_acked_txid + acc_rand(st) % 48 - 16;
	if (r & 0x200)	/* a reply: near the initiator window */
		p.xid = c->unacked_ixid + acc_rand(st) % 12 - 2;
	p.seqno = acc_rand(st) % (c->max_pkts + 3);
	p.eom = r & 0x400;
	p.num_ops = acc_rand(st) % 4;
	p.err = acc_rand(st);
	switch ((r >> 11) % 4) {
	case 0:
		p.ack_xid = SUPERP_ACK_XID_NONE;
		break;
	case 1:
		p.ack_xid = acc_rand(st);
		break;
	default:
		p.ack_xid = c->acked_ixid + acc_rand(st) % 12 - 3;
		break;
	}
	return p;
}

/* Sum two connections' counters (struct superp_stats is all u64). */
static void acc_add(struct superp_stats *sum, const struct superp_stats *s)
{
	const u64 *v = (const u64 *)s;
	u64 *d = (u64 *)sum;
	size_t i;

	for (i = 0; i < sizeof(*s) / sizeof(u64); i++)
		d[i] += v[i];
}

#define ACC_STEPS	20000

static void acc_node_free(struct kunit_resource *res)
{
	struct acc_node *n = res->data;

	if (n->c)
		superp_conn_destroy(n->c);
}

/*
 * One connection's run: hostile packets, requests of its own, its timer.
 * A connection that breaks (by its retransmission limit, a transaction
 * timeout, or the abort half way) is checked once more, folded into @tot
 * and replaced by a new one.
 */
static void acc_run(struct kunit *test, struct acc_node *n, unsigned int flags,
		    u32 *st, struct superp_stats *tot)
{
	u64 fed = 0, now = 1000;
	u32 i, r;

	for (i = 0; i < ACC_STEPS; i++) {
		struct superp_xact x = { .num_ops = 1, .npkts = 1 };
		struct superp_pkt p;

		if (!n->c) {
			n->c = superp_conn_create(&superp_default_params,
						  &acc_ops, n, 1, 2, flags);
			KUNIT_ASSERT_NOT_NULL(test, n->c);
			fed = 0;
		}
		now += 1000;
		r = acc_rand(st) % 100;
		if (r < 90) {
			p = acc_hostile(n->c, st);
			superp_conn_rx(n->c, &p, &acc_buf, now);
			fed++;
		} else if (r < 98) {
			x.opcode = r & 1 ? SUPERP_OP_RMA_READ :
					   SUPERP_OP_RMA_WRITE;
			superp_submit(n->c, &x, NULL, now);
		} else if (n->timer) {
			if (n->timer > now)
				now = n->timer;
			n->timer = 0;
			superp_conn_timer(n->c, now);
		}
		if (i == ACC_STEPS / 2)
			superp_conn_abort(n->c, -ECONNRESET);
		acc_check(test, n->c, fed, i);
		if (n->c->state == SUPERP_ST_BROKEN && (r & 1)) {
			/* a few packets meet the broken one first */
			KUNIT_EXPECT_EQ(test, superp_conn_stats(n->c)->rx_holding,
					0);
			acc_add(tot, superp_conn_stats(n->c));
			superp_conn_destroy(n->c);
			n->c = NULL;
		}
	}
	superp_conn_abort(n->c, -ECONNRESET);
	acc_check(test, n->c, fed, i);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(n->c)->rx_holding, 0);
	acc_add(tot, superp_conn_stats(n->c));
}

/*
 * "Receiving a packet" fed hostile input: PSNs in, at the edge of and
 * outside the window, random ACK PSNs, SACK bits and ACK XIDs, every
 * opcode, seqnos past eom and max_pkts, eom twice, replies to requests
 * never made; meanwhile the connection sends requests and its timers
 * fire. After every event each packet is in exactly one term of the
 * identity; by the end every term was reached, on an ordered connection
 * short of memory and an unordered one.
 */
static void rx_identity_fuzz_test(struct kunit *test)
{
	unsigned int flags[2] = { SUPERP_CONN_ORDERED_RX, 0 };
	struct superp_stats tot = {};
	u32 st = 0x5eed1234;
	u64 drops;
	int k;

	for (k = 0; k < 2; k++) {
		struct acc_node *n = kunit_kzalloc(test, sizeof(*n),
						   GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, n);
		n->short_of_memory = !k;
		kunit_alloc_resource(test, acc_res_init, acc_node_free,
				     GFP_KERNEL, n);
		acc_run(test, n, flags[k], &st, &tot);
	}
	kunit_info(test, "%llu packets: %llu processed, %llu duplicates, %llu dropped (%llu TAL), %llu held",
		   tot.rx_pkts, tot.rx_processed, tot.rx_dup, tot.rx_dropped,
		   tot.rx_drop_tal, tot.rx_held);
	/* a fuzz that reached every outcome, or the test proves nothing */
	KUNIT_EXPECT_GT(test, tot.rx_processed, 0);
	KUNIT_EXPECT_GT(test, tot.rx_dup, 0);
	KUNIT_EXPECT_GT(test, tot.rx_held, 0);
	KUNIT_EXPECT_GT(test, tot.rx_drop_psn_window, 0);
	KUNIT_EXPECT_GT(test, tot.rx_drop_ack_window, 0);
	KUNIT_EXPECT_GT(test, tot.rx_drop_ack_xid_window, 0);
	KUNIT_EXPECT_GT(test, tot.rx_drop_broken, 0);
	KUNIT_EXPECT_GT(test, tot.rx_drop_no_hold, 0);
	KUNIT_EXPECT_GT(test, tot.rx_drop_flushed, 0);
	KUNIT_EXPECT_GT(test, tot.rx_drop_tal, 0);
	KUNIT_EXPECT_EQ(test, acc_terms(&tot, &drops), tot.rx_pkts);
	KUNIT_EXPECT_EQ(test, drops, tot.rx_dropped);
}

/*
 * SUPERp-lite (spec "SUPERp-lite": no PDL header): the same identity when
 * the PDL's fields are ignored and a request packet other than the one due
 * breaks the connection (rx_drop_tal); what follows meets it broken.
 * Nothing is a duplicate, held or outside a PSN window.
 */
static void rx_identity_lite_fuzz_test(struct kunit *test)
{
	struct acc_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	struct superp_stats tot = {};
	u32 st = 0x11e5eed;
	u64 drops;

	KUNIT_ASSERT_NOT_NULL(test, n);
	kunit_alloc_resource(test, acc_res_init, acc_node_free, GFP_KERNEL, n);
	acc_run(test, n, SUPERP_CONN_LITE | SUPERP_CONN_ORDERED_RX, &st, &tot);
	kunit_info(test, "lite: %llu packets: %llu processed, %llu dropped (%llu TAL, %llu broken)",
		   tot.rx_pkts, tot.rx_processed, tot.rx_dropped,
		   tot.rx_drop_tal, tot.rx_drop_broken);
	KUNIT_EXPECT_GT(test, tot.rx_processed, 0);
	KUNIT_EXPECT_GT(test, tot.rx_drop_tal, 0);
	KUNIT_EXPECT_GT(test, tot.rx_drop_broken, 0);
	KUNIT_EXPECT_GT(test, tot.rx_drop_ack_xid_window, 0);
	KUNIT_EXPECT_EQ(test, tot.rx_dup + tot.rx_held + tot.rx_drop_psn_window +
			tot.rx_drop_ack_window + tot.rx_drop_no_hold, 0);
	KUNIT_EXPECT_EQ(test, acc_terms(&tot, &drops), tot.rx_pkts);
	KUNIT_EXPECT_EQ(test, drops, tot.rx_dropped);
}

static struct kunit_case superp_rx_accounting_cases[] = {
	KUNIT_CASE(rx_broken_counted_test),
	KUNIT_CASE(rx_identity_fuzz_test),
	KUNIT_CASE(rx_identity_lite_fuzz_test),
	{}
};

static struct kunit_suite superp_rx_accounting_suite = {
	.name = "superp_rx_accounting",
	.test_cases = superp_rx_accounting_cases,
};

kunit_test_suite(superp_rx_accounting_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit: ib_superp's receive accounting identity");
