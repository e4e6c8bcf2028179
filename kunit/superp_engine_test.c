// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the SUPERp PDL/TAL engine, procedure by procedure. Each case names
 * the spec step it checks ("Protocol operations" section of SUPERp v0.4).
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "superp_engine_int.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define TQ	256
#define MS	(1000ULL * 1000)
#define US	1000ULL

/* One engine under test, with everything its callbacks saw. */
struct tnode {
	struct kunit *test;
	struct superp_conn *c;
	struct superp_pkt q[TQ];	/* sent, not yet delivered */
	struct superp_pkt in_flight[TQ];	/* being delivered */
	int qn;
	int nxmit;
	int busy;			/* xmit says -EBUSY this often */
	int fail;			/* then says @fail_err this often */
	int fail_err;
	bool reenter;			/* xmit calls the entry points back */
	int ncookie;			/* packets sent with a cookie */
	int nplaced;
	int ncomp_at_placed;		/* completions when placed() came */
	int ntdone;
	int tdone_status;
	u16 tdone_xid;
	int reenter_ret[3];
	u64 timer;
	u32 ev[SUPERP_EV_MAX];
	int ncomp_at_broken;		/* completions when conn_broken came */
	int ncomp;
	int status;
	u32 err;
	void *cookie;
	int nreq;
	u16 req_xid;
	u8 req_op;
	u16 reply_pkts;			/* target_request replies with a read */
	bool reply_err;
	bool defer;			/* target_request returns PENDING */
	u32 dlv[TQ];			/* delivered PSNs, in order */
	int ndlv;
	int nini;			/* reply packets */
	int nready;
	int resubmit;			/* complete() submits this many again */
	int nhold;
	int nrel;
};

static int tbuf;	/* a non-NULL rx buffer for the engine to hold */

static struct tnode *tn(struct superp_conn *c)
{
	return c->priv;
}

static int t_xmit(struct superp_conn *c, const struct superp_pkt *p,
		  void *cookie)
{
	struct tnode *n = tn(c);

	if (n->busy) {
		n->busy--;
		return -EBUSY;
	}
	if (n->fail) {
		n->fail--;
		return n->fail_err;
	}
	n->nxmit++;
	n->ncookie += !!cookie;
	if (n->qn < TQ)
		n->q[n->qn++] = *p;
	if (n->reenter) {
		n->reenter = false;
		n->reenter_ret[0] = superp_conn_rx(c, p, &tbuf, 0);
		n->reenter_ret[1] = superp_conn_timer(c, 0);
		n->reenter_ret[2] = superp_conn_window_open(c, 0);
	}
	return 0;
}

static void t_arm(struct superp_conn *c, u64 at)
{
	tn(c)->timer = at;
}

static void t_event(struct superp_conn *c, enum superp_event ev, u32 info)
{
	tn(c)->ev[ev]++;
	if (ev == SUPERP_EV_CONN_BROKEN)
		tn(c)->ncomp_at_broken = tn(c)->ncomp;
}

static void *t_hold(struct superp_conn *c, void *buf)
{
	tn(c)->nhold++;
	return buf;
}

static void t_release(struct superp_conn *c, void *buf)
{
	tn(c)->nrel++;
}

static void t_dlv(struct tnode *n, u32 psn)
{
	if (n->ndlv < TQ)
		n->dlv[n->ndlv++] = psn;
}

static void t_target_pkt(struct superp_conn *c, const struct superp_pkt *p,
			 void *buf)
{
	t_dlv(tn(c), p->psn);
}

static int t_target_request(struct superp_conn *c, u16 xid, u8 op)
{
	struct tnode *n = tn(c);

	n->nreq++;
	n->req_xid = xid;
	n->req_op = op;
	if (n->defer)
		return SUPERP_TGT_PENDING;
	if (n->reply_err) {
		superp_tal_error(c, xid, 0x0203, NULL, 0);
		return SUPERP_TGT_PENDING;
	}
	if (op == SUPERP_OP_RMA_READ) {
		superp_tal_reply(c, xid, SUPERP_OP_READ_RESP,
				 n->reply_pkts ? n->reply_pkts : 1, 1, NULL, 0);
		return SUPERP_TGT_PENDING;
	}
	return SUPERP_TGT_DONE;
}

static void t_initiator_pkt(struct superp_conn *c, const struct superp_pkt *p,
			    void *cookie, void *buf)
{
	t_dlv(tn(c), p->psn);
	tn(c)->nini++;
}

static void t_complete(struct superp_conn *c, void *cookie, int status,
		       u32 err)
{
	struct tnode *n = tn(c);

	n->ncomp++;
	n->status = status;
	n->err = err;
	n->cookie = cookie;
	if (n->resubmit) {
		struct superp_xact x = { .opcode = SUPERP_OP_RMA_WRITE,
					 .npkts = 1, .num_ops = 1,
					 .cookie = n };

		n->resubmit--;
		KUNIT_EXPECT_EQ(n->test, superp_submit(c, &x, NULL, 0), 0);
	}
}

static void t_placed(struct superp_conn *c, void *cookie)
{
	struct tnode *n = tn(c);

	n->nplaced++;
	n->ncomp_at_placed = n->ncomp;
}

static void t_target_done(struct superp_conn *c, u16 xid, void *cookie,
			  int status)
{
	struct tnode *n = tn(c);

	n->ntdone++;
	n->tdone_xid = xid;
	n->tdone_status = status;
}

static void t_ready(struct superp_conn *c)
{
	tn(c)->nready++;
}

static const struct superp_engine_ops t_ops = {
	.xmit = t_xmit,
	.arm_timer = t_arm,
	.event = t_event,
	.hold = t_hold,
	.release = t_release,
	.target_pkt = t_target_pkt,
	.target_request = t_target_request,
	.initiator_pkt = t_initiator_pkt,
	.placed = t_placed,
	.complete = t_complete,
	.target_done = t_target_done,
	.tx_ready = t_ready,
};

static int t_res_init(struct kunit_resource *res, void *ctx)
{
	res->data = ctx;
	return 0;
}

static void t_res_free(struct kunit_resource *res)
{
	superp_conn_destroy(res->data);
}

static struct tnode *t_new(struct kunit *test, const struct superp_params *p,
			   unsigned int flags)
{
	struct tnode *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	n->test = test;
	n->c = superp_conn_create(p ? p : &superp_default_params, &t_ops, n,
				  1, 2, flags);
	KUNIT_ASSERT_NOT_NULL(test, n->c);
	kunit_alloc_resource(test, t_res_init, t_res_free, GFP_KERNEL, n->c);
	return n;
}

/* A peer's packet as the engine sees it, built by hand. */
static struct superp_pkt t_pkt(u32 psn, u8 op, u16 xid, u16 seqno, bool eom)
{
	struct superp_pkt p = {
		.psn = psn, .ack_psn = SUPERP_ACK_PSN_NONE, .rwin = 31,
		.opcode = op, .xid = xid, .seqno = seqno, .eom = eom,
		.ack_xid = SUPERP_ACK_XID_NONE, .num_ops = 1,
	};
	return p;
}

static struct superp_pkt t_ack(u32 ack_psn, u32 sack, u16 ack_xid)
{
	struct superp_pkt p = {
		.opcode = SUPERP_OP_PURE_ACK, .ack_psn = ack_psn, .sack = sack,
		.rwin = 31, .ack_xid = ack_xid,
	};
	return p;
}

static int t_rx(struct tnode *n, struct superp_pkt p, u64 now)
{
	return superp_conn_rx(n->c, &p, &tbuf, now);
}

static int t_submit(struct tnode *n, u8 op, u16 npkts, u64 now)
{
	struct superp_xact x = { .opcode = op, .npkts = npkts, .num_ops = 1,
				 .cookie = n };

	return superp_submit(n->c, &x, NULL, now);
}

/* The user's timer is one-shot: it is disarmed when it fires. */
static void t_fire(struct tnode *n, u64 now)
{
	n->timer = 0;
	superp_conn_timer(n->c, now);
}

/* Deliver everything both sides sent until the link is quiet. */
static void t_link(struct tnode *a, struct tnode *b, u64 now)
{
	int i, k, rounds = 1000;

	while ((a->qn || b->qn) && rounds--) {
		for (k = 0; k < 2; k++) {
			struct tnode *from = k ? b : a, *to = k ? a : b;
			int nq = from->qn;

			memcpy(from->in_flight, from->q, nq * sizeof(from->q[0]));
			from->qn = 0;
			for (i = 0; i < nq; i++)
				superp_conn_rx(to->c, &from->in_flight[i],
					       &tbuf, now);
		}
	}
}

/*
 * Fire the earlier of the two sides' timers, then deliver what that sent;
 * false when neither side has one armed.
 */
static bool t_step(struct tnode *a, struct tnode *b, u64 *now)
{
	struct tnode *n;

	if (!a->timer && !b->timer)
		return false;
	n = (a->timer && (!b->timer || a->timer <= b->timer)) ? a : b;
	if (n->timer > *now)
		*now = n->timer;
	t_fire(n, *now);
	t_link(a, b, *now);
	return true;
}

/* Run both sides' timers and the link until nothing is pending. */
static u64 t_settle(struct tnode *a, struct tnode *b, u64 now)
{
	int rounds = 1000;

	t_link(a, b, now);
	while (rounds-- && t_step(a, b, &now))
		;
	return now;
}

/* Configuration parameters: defaults valid, each range enforced by name. */
static void params_validate_test(struct kunit *test)
{
	struct superp_params p = superp_default_params;
	const char *why;

	KUNIT_EXPECT_EQ(test, superp_params_validate(&p, &why), 0);
	p.pdl_window_size = 15;
	KUNIT_EXPECT_EQ(test, superp_params_validate(&p, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "pdl_window_size");
	p = superp_default_params;
	p.pdl_max_rtx = 9;
	KUNIT_EXPECT_EQ(test, superp_params_validate(&p, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "pdl_max_rtx");
	p = superp_default_params;
	p.tal_max_ops_per_pkt = 16;
	KUNIT_EXPECT_EQ(test, superp_params_validate(&p, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "tal_max_ops_per_pkt");
	p = superp_default_params;
	p.pdl_receive_win = 64;
	KUNIT_EXPECT_EQ(test, superp_params_validate(&p, &why), -EINVAL);
	p = superp_default_params;
	p.pdl_delayed_ack_time = p.pdl_retrans_time_out;
	KUNIT_EXPECT_EQ(test, superp_params_validate(&p, &why), -EINVAL);
	p = superp_default_params;
	p.pdl_window_size = 1024;
	p.pdl_receive_win = 1024;
	p.tal_trans_window = 1024;
	p.tal_max_pkt_per_trans = 4096;
	KUNIT_EXPECT_EQ(test, superp_params_validate(&p, &why), 0);
}

/*
 * State layout: hot state in two cache lines, <= 4 KiB per connection; the
 * cold block takes from its allocator what it needs, not kmalloc()'s next
 * power of two (superp_conn_init(), superp_conn_cold_taken()).
 */
static void memory_per_connection_test(struct kunit *test)
{
	const struct superp_params *p = &superp_default_params;
	size_t ord = superp_conn_mem(p, SUPERP_CONN_ORDERED_RX);
	size_t uno = superp_conn_mem(p, 0);
	struct superp_params big = *p, bad = *p;
	struct superp_conn *table;
	int i;

	big.pdl_window_size = 1024;
	big.pdl_receive_win = 1024;
	big.tal_trans_window = 1024;
	kunit_info(test, "hot %zu B, per connection %zu B ordered, %zu B unordered, 4096 connections %zu KiB",
		   sizeof(struct superp_conn), ord, uno, 4096 * ord / 1024);
	kunit_info(test, "windows 1024/1024: %zu B per connection",
		   superp_conn_mem(&big, SUPERP_CONN_ORDERED_RX));
	KUNIT_EXPECT_LE(test, sizeof(struct superp_conn), 2 * SMP_CACHE_BYTES);
	KUNIT_EXPECT_LE(test, ord, 4096);
	KUNIT_EXPECT_LE(test, uno, ord);
	/* pdl_conn_per_xpu maximum: 4096 connections within 16 MiB */
	KUNIT_EXPECT_LE(test, 4096 * ord, 16 << 20);
	/* a dense CID table of hot states, cold blocks apart */
	table = kunit_kzalloc(test, 64 * sizeof(*table), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, table);
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, superp_conn_init(&table[i], p, &t_ops,
						       NULL, i, i, 0), 0);
	KUNIT_EXPECT_EQ(test, (char *)&table[1] - (char *)&table[0],
			2 * SMP_CACHE_BYTES);
	for (i = 0; i < 64; i++) {
		size_t taken = superp_conn_cold_taken(&table[i]);

		/* a slab cache may be shared with one up to a word larger */
		KUNIT_EXPECT_GE(test, taken, uno - sizeof(*table));
		KUNIT_EXPECT_LT(test, taken, uno - sizeof(*table) + 8);
		superp_conn_release(&table[i]);
	}
	KUNIT_EXPECT_EQ(test, superp_conn_init(&table[0], p, &t_ops, NULL, 0,
					       0, SUPERP_CONN_ORDERED_RX), 0);
	KUNIT_EXPECT_GE(test, superp_conn_cold_taken(&table[0]),
			ord - sizeof(*table));
	KUNIT_EXPECT_LT(test, superp_conn_cold_taken(&table[0]),
			ord - sizeof(*table) + 8);
	superp_conn_release(&table[0]);
	bad.pdl_window_size = 2000;
	KUNIT_EXPECT_EQ(test, superp_conn_init(&table[0], &bad, &t_ops, NULL,
					       0, 0, 0), -EINVAL);
	/* the largest parameter set still allocates (about 1.1 MiB) */
	big.tal_max_pkt_per_trans = 4096;
	kunit_info(test, "largest parameters: %zu B per connection",
		   superp_conn_mem(&big, SUPERP_CONN_ORDERED_RX));
	KUNIT_EXPECT_NOT_NULL(test, t_new(test, &big, SUPERP_CONN_ORDERED_RX));
}

/* Edges: fixed headers round-trip; a pure ACK with eom is malformed. */
static void pkt_encode_decode_test(struct kunit *test)
{
	struct superp_pkt a = {
		.dcid = 0x1234, .rwin = 31, .psn = 0xfffffffe,
		.ack_psn = 0x80000001, .sack = 0xa5a5a5a4, .xid = 0xffff,
		.seqno = 63, .ack_xid = 0xfffe, .opcode = SUPERP_OP_READ_RESP,
		.num_ops = 15, .eom = 1,
	}, b;
	struct superp_pdl_hdr pdl;
	struct superp_tal_hdr tal;

	superp_pkt_encode(&a, &pdl, &tal);
	KUNIT_EXPECT_EQ(test, tal.eom_num_ops, 0x8f);
	KUNIT_EXPECT_EQ(test, superp_pkt_decode(&pdl, &tal, &b), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&a, &b, sizeof(a)), 0);
	{
		u8 raw[SUPERP_PDL_HLEN + SUPERP_TAL_HLEN];

		memcpy(raw, &pdl, sizeof(pdl));
		memcpy(raw + sizeof(pdl), &tal, sizeof(tal));
		KUNIT_EXPECT_EQ(test, superp_pkt_parse(raw, sizeof(raw), &b),
				0);
		KUNIT_EXPECT_EQ(test, memcmp(&a, &b, sizeof(a)), 0);
		KUNIT_EXPECT_EQ(test, superp_pkt_parse(raw, sizeof(raw) - 1,
						       &b), -EINVAL);
	}
	tal.eom_num_ops |= 0x10;
	KUNIT_EXPECT_EQ(test, superp_pkt_decode(&pdl, &tal, &b), -EPROTO);
	a.opcode = SUPERP_OP_PURE_ACK;
	superp_pkt_encode(&a, &pdl, &tal);
	KUNIT_EXPECT_EQ(test, superp_pkt_decode(&pdl, &tal, &b), -EPROTO);
}

/*
 * Sending 1 + flow control 1: PSNs from 0, initial ACK PSN 0xffffffff and
 * ACK XID 0xffff; the last slot of a full window waits for new ACK info.
 */
static void send_window_last_slot_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);
	int i;

	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 20, 0), 0);
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 20, 0), 0);
	KUNIT_ASSERT_EQ(test, a->qn, 31);
	for (i = 0; i < 31; i++) {
		KUNIT_EXPECT_EQ(test, a->q[i].psn, i);
		KUNIT_EXPECT_EQ(test, a->q[i].xid, i / 20);
		KUNIT_EXPECT_EQ(test, a->q[i].seqno, i % 20);
		KUNIT_EXPECT_EQ(test, a->q[i].ack_psn, SUPERP_ACK_PSN_NONE);
		KUNIT_EXPECT_EQ(test, a->q[i].ack_xid, SUPERP_ACK_XID_NONE);
		KUNIT_EXPECT_EQ(test, a->q[i].dcid, 2);
	}
	KUNIT_EXPECT_FALSE(test, a->q[30].eom);
	/* a packet from the peer gives the last slot new ACK information */
	a->qn = 0;
	KUNIT_EXPECT_EQ(test, t_rx(a, t_pkt(0, SUPERP_OP_NOOP, 0, 0, true), 1),
			0);
	KUNIT_ASSERT_EQ(test, a->qn, 1);
	KUNIT_EXPECT_EQ(test, a->q[0].psn, 31);
	KUNIT_EXPECT_EQ(test, a->q[0].ack_psn, 0);
	KUNIT_EXPECT_EQ(test, a->q[0].ack_xid, 0);
	KUNIT_EXPECT_EQ(test, a->c->next_spsn, a->c->max_spsn);
}

/* Flow control 3.a-3.c: cumulative ACK slides the send window and rearms */
static void ack_slides_window_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);
	u64 rto = superp_default_params.pdl_retrans_time_out * US;

	t_submit(a, SUPERP_OP_RMA_WRITE, 20, 0);
	t_submit(a, SUPERP_OP_RMA_WRITE, 20, 0);
	KUNIT_EXPECT_EQ(test, a->timer, rto);
	a->qn = 0;
	KUNIT_EXPECT_EQ(test, t_rx(a, t_ack(9, 0, 0xffff), 5 * US), 0);
	KUNIT_EXPECT_EQ(test, a->c->unacked_spsn, 10);
	KUNIT_EXPECT_EQ(test, a->c->max_spsn, 42);
	KUNIT_EXPECT_EQ(test, a->qn, 9);	/* PSNs 31..39 */
	/* 3.a.ii: an older ACK is ignored, 3.a.iii: a future one dropped */
	KUNIT_EXPECT_EQ(test, t_rx(a, t_ack(5, 0, 0xffff), 6 * US), 0);
	KUNIT_EXPECT_EQ(test, a->c->unacked_spsn, 10);
	KUNIT_EXPECT_EQ(test, t_rx(a, t_ack(40, 0, 0xffff), 6 * US), -EINVAL);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_ACK_OUT_OF_WINDOW], 1);
	/* 3.c.i: all acknowledged, the retransmission timer stops */
	KUNIT_EXPECT_EQ(test, t_rx(a, t_ack(39, 0, 0xffff), 7 * US), 0);
	KUNIT_EXPECT_EQ(test, a->c->unacked_spsn, 40);
	KUNIT_EXPECT_EQ(test, superp_pdl_rtx_deadline(a->c), 0);
}

/* Receiving 1.c/1.d: out-of-order PSNs set SACK bits; PSN 0 slides past. */
static void receive_sack_slide_test(struct kunit *test)
{
	struct tnode *b = t_new(test, NULL, 0);
	int i, n;

	t_rx(b, t_pkt(2, SUPERP_OP_NOOP, 2, 0, true), 0);
	t_rx(b, t_pkt(3, SUPERP_OP_NOOP, 3, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_rpsn, 0);
	/* out of order: an ACK goes out at once; bit i is PSN ack_psn+1+i */
	KUNIT_ASSERT_TRUE(test, b->qn >= 1);
	KUNIT_EXPECT_EQ(test, b->q[b->qn - 1].opcode, SUPERP_OP_PURE_ACK);
	KUNIT_EXPECT_EQ(test, b->q[b->qn - 1].ack_psn, SUPERP_ACK_PSN_NONE);
	KUNIT_EXPECT_EQ(test, b->q[b->qn - 1].sack, 0xc);
	for (i = 0, n = 0; i < b->qn; i++)
		n += b->q[i].sack && !(b->q[i].sack & 1);
	KUNIT_EXPECT_GE(test, n, 1);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->tx_sack, n);
	t_rx(b, t_pkt(0, SUPERP_OP_NOOP, 0, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_rpsn, 1);
	t_rx(b, t_pkt(1, SUPERP_OP_NOOP, 1, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_rpsn, 4);
	KUNIT_EXPECT_EQ(test, superp_rbm(b->c)[0], 0);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 4);
}

/* Receiving 1.a/1.b: old PSN is a duplicate, PSN >= max_rpsn an error. */
static void receive_dup_and_out_of_window_test(struct kunit *test)
{
	struct tnode *b = t_new(test, NULL, 0);

	t_rx(b, t_pkt(0, SUPERP_OP_NOOP, 0, 0, true), 0);
	b->qn = 0;
	KUNIT_EXPECT_EQ(test, t_rx(b, t_pkt(0, SUPERP_OP_NOOP, 0, 0, true), 0),
			0);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->rx_dup, 1);
	KUNIT_EXPECT_EQ(test, b->qn, 1);	/* duplicate: ACK at once */
	KUNIT_EXPECT_EQ(test, b->q[0].ack_psn, 0);
	KUNIT_EXPECT_EQ(test, t_rx(b, t_pkt(33, SUPERP_OP_NOOP, 1, 0, true), 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_PSN_OUT_OF_WINDOW], 1);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 1);
}

/* Flow control 3.d: SACK bits and fast retransmit of the holes below. */
static void sack_fast_retransmit_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);
	int i;

	for (i = 0; i < 10; i++)
		t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	a->qn = 0;
	/* PSNs 5..9 arrived, 0..4 did not (bit i is PSN i here) */
	t_rx(a, t_ack(SUPERP_ACK_PSN_NONE, 0x3e0, 0xffff), 50 * US);
	KUNIT_EXPECT_EQ(test, a->c->unacked_spsn, 0);
	KUNIT_EXPECT_EQ(test, superp_sbm(a->c)[0], 0x3e0);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->rx_sack, 1);
	/* not yet: the holes are younger than 5/4 of the RTT just measured */
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_rtx_fast, 0);
	t_rx(a, t_ack(SUPERP_ACK_PSN_NONE, 0x3e0, 0xffff), 100 * US);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_rtx_fast, 5);
	for (i = 0; i < a->qn; i++) {
		KUNIT_EXPECT_TRUE(test, a->q[i].flags & SUPERP_PKT_RTX);
		KUNIT_EXPECT_LT(test, a->q[i].psn, 5);
	}
	/* the cumulative ACK over the holes slides past the SACKed PSNs */
	t_rx(a, t_ack(4, 0, 0xffff), 60 * US);
	KUNIT_EXPECT_EQ(test, a->c->unacked_spsn, 10);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->rx_sack, 2);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->rx_nack, 0);
}

/* The tail-loss probe's deadline as the engine's timer computes it. */
static u64 t_tail_deadline(struct tnode *n)
{
	return superp_pdl_tail_deadline(n->c, superp_pdl_rtx_deadline(n->c));
}

/*
 * Flow control 3.d and 4 between them: a hole that no later SACK repairs
 * (the SACKs came while it was too young to call lost, and then nothing)
 * is probed once, two smoothed RTTs and a delayed ACK after the last
 * news, long before the retransmission timer; the timer keeps its rules.
 */
static void tail_loss_probe_test(struct kunit *test)
{
	const struct superp_params *p = &superp_default_params;
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);
	u64 rto = p->pdl_retrans_time_out * US;
	u64 pto = 100 * US + 2 * 100 * US + p->pdl_delayed_ack_time * US;
	int i;

	for (i = 0; i < 4; i++)
		t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	a->qn = 0;
	/* PSNs 1..3 arrived at 100 us, 0 did not: too young to call lost */
	t_rx(a, t_ack(SUPERP_ACK_PSN_NONE, 0xe, 0xffff), 100 * US);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_rtx_fast, 0);
	KUNIT_EXPECT_EQ(test, t_tail_deadline(a), pto);
	KUNIT_EXPECT_EQ(test, a->timer, pto);
	t_fire(a, pto - 1);
	KUNIT_EXPECT_EQ(test, a->qn, 0);
	t_fire(a, pto);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_rtx_tail, 1);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_rtx_timer, 0);
	KUNIT_ASSERT_EQ(test, a->qn, 1);
	KUNIT_EXPECT_EQ(test, a->q[0].psn, 0);
	KUNIT_EXPECT_TRUE(test, a->q[0].flags & SUPERP_PKT_RTX);
	/* once: then the retransmission timer, from the probe's send time */
	KUNIT_EXPECT_EQ(test, t_tail_deadline(a), 0);
	KUNIT_EXPECT_EQ(test, a->timer, pto + rto);
	t_fire(a, pto + rto / 2);
	KUNIT_EXPECT_EQ(test, a->qn, 1);
	/* the probe's ACK ends it: nothing in flight, nothing armed */
	t_rx(a, t_ack(3, 0, 0xffff), pto + 100 * US);
	KUNIT_EXPECT_EQ(test, a->c->unacked_spsn, 4);
	KUNIT_EXPECT_EQ(test, t_tail_deadline(a), 0);

	/* A timer that fires at the retransmission deadline is the timer's. */
	t_submit(b, SUPERP_OP_RMA_WRITE, 1, 0);
	t_submit(b, SUPERP_OP_RMA_WRITE, 1, 0);
	t_rx(b, t_ack(SUPERP_ACK_PSN_NONE, 0x2, 0xffff), 100 * US);
	b->qn = 0;
	t_fire(b, rto);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->tx_rtx_timer, 1);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->tx_rtx_tail, 0);
}

/*
 * The tail-loss probe leaves a lone PSN in flight to the retransmission
 * timer: a ping-pong's answer is late far more often than lost. From two
 * PSNs on, the probe is armed.
 */
static void tail_probe_not_for_lone_psn_test(struct kunit *test)
{
	u64 dack = superp_default_params.pdl_delayed_ack_time * US;
	struct tnode *a = t_new(test, NULL, 0);
	u64 now = 1000 * US;

	/* one round trip of 100 us for an RTT sample */
	KUNIT_ASSERT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0), 0);
	t_rx(a, t_ack(0, 0, 0), 100 * US);
	KUNIT_ASSERT_EQ(test, a->c->srtt_ns, 100 * US);

	KUNIT_ASSERT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, now), 0);
	KUNIT_EXPECT_EQ(test, t_tail_deadline(a), 0);
	KUNIT_EXPECT_EQ(test, a->timer, superp_pdl_rtx_deadline(a->c));
	t_fire(a, now + 2 * 100 * US + dack);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_rtx_tail, 0);

	KUNIT_ASSERT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, now), 0);
	KUNIT_EXPECT_EQ(test, t_tail_deadline(a), now + 2 * 100 * US + dack);
}

/*
 * NACKs: a receiver acknowledges a PSN beyond the SACK reach with bit 0
 * set; the sender ORs the shifted bitmap and keeps its cumulative point.
 */
static void nack_test(struct kunit *test)
{
	struct superp_params p = superp_default_params;
	struct tnode *a, *b;

	p.pdl_window_size = 64;
	p.pdl_receive_win = 64;
	a = t_new(test, &p, 0);
	b = t_new(test, &p, 0);
	t_rx(b, t_pkt(40, SUPERP_OP_NOOP, 40, 0, true), 0);
	KUNIT_ASSERT_TRUE(test, b->qn >= 1);
	KUNIT_EXPECT_EQ(test, b->q[0].ack_psn, 40);
	KUNIT_EXPECT_EQ(test, b->q[0].sack, 1);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->tx_nack, 1);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->tx_sack, 0);

	t_submit(a, SUPERP_OP_RMA_WRITE, 23, 0);
	t_submit(a, SUPERP_OP_RMA_WRITE, 23, 0);
	a->qn = 0;
	t_rx(a, t_ack(40, 0x7, 0xffff), 100 * US);	/* 40, 41, 42 */
	t_rx(a, t_ack(40, 0x7, 0xffff), 200 * US);
	KUNIT_EXPECT_EQ(test, a->c->unacked_spsn, 0);
	KUNIT_EXPECT_TRUE(test, test_bit(40, superp_sbm(a->c)));
	KUNIT_EXPECT_TRUE(test, test_bit(42, superp_sbm(a->c)));
	KUNIT_EXPECT_FALSE(test, test_bit(43, superp_sbm(a->c)));
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_rtx_fast,
			p.pdl_fast_rtx_limit);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->rx_nack, 2);
	/* a NACK naming an unsent PSN is out of window, and not counted */
	KUNIT_EXPECT_EQ(test, t_rx(a, t_ack(46, 1, 0xffff), 100 * US), -EINVAL);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->rx_nack, 2);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->rx_sack, 0);
}

/*
 * Flow control 4: timeout = RTO - (now - sent), backed off per timeout;
 * after pdl_max_rtx retransmissions the connection is broken and every
 * pending transaction fails, before conn_broken is reported: a consumer
 * learns why each failed (the verbs' RETRY_EXC_ERR) before it flushes what
 * never went out.
 */
static void rtx_timer_broken_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);
	u64 rto = superp_default_params.pdl_retrans_time_out * US, now;
	int i;

	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 3 * US);
	KUNIT_EXPECT_EQ(test, a->timer, rto);
	/*
	 * 3.c.ii: after PSN 0 is acked the deadline follows PSN 1. Alone in
	 * flight, PSN 1 has no tail-loss probe (tail_probe_not_for_lone_psn_test):
	 * the timer is armed for the deadline itself.
	 */
	t_rx(a, t_ack(0, 0, 0xffff), 10 * US);
	KUNIT_EXPECT_EQ(test, superp_pdl_rtx_deadline(a->c), 3 * US + rto);
	KUNIT_EXPECT_EQ(test, t_tail_deadline(a), 0);
	KUNIT_EXPECT_EQ(test, a->timer, 3 * US + rto);
	now = superp_pdl_rtx_deadline(a->c);
	for (i = 0; i < superp_default_params.pdl_max_rtx; i++) {
		a->qn = 0;
		t_fire(a, now);
		KUNIT_EXPECT_GE(test, a->qn, 1);
		KUNIT_EXPECT_EQ(test, a->q[0].psn, 1);
		KUNIT_EXPECT_EQ(test, a->timer, now + (rto << (i + 1)));
		now = a->timer;
	}
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_rtx_tail, 0);
	KUNIT_EXPECT_EQ(test, superp_spsn(a->c, 1)->nrtx,
			superp_default_params.pdl_max_rtx);
	t_fire(a, now);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_CONN_BROKEN], 1);
	KUNIT_EXPECT_EQ(test, a->c->state, SUPERP_ST_BROKEN);
	KUNIT_EXPECT_EQ(test, a->ncomp, 2);	/* 0 waits for ACK XID too */
	KUNIT_EXPECT_EQ(test, a->ncomp_at_broken, 2);
	KUNIT_EXPECT_EQ(test, a->status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, a->timer, 0);
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, now),
			-ENOTCONN);
	KUNIT_EXPECT_EQ(test, t_rx(a, t_ack(1, 0, 0xffff), now), -ENOTCONN);
}

/*
 * Receiver flow control 3: delayed ACK timer, stretch ACKs, piggyback.
 * The packets are the middle of one long write: a packet that completes a
 * request is acknowledged at once (completion_ack_at_once_test).
 */
static void delayed_and_stretch_ack_test(struct kunit *test)
{
	struct tnode *b = t_new(test, NULL, 0);
	u64 dack = superp_default_params.pdl_delayed_ack_time * US;
	u32 i;

	t_rx(b, t_pkt(0, SUPERP_OP_RMA_WRITE, 0, 0, false), 0);
	KUNIT_EXPECT_EQ(test, b->qn, 0);
	KUNIT_EXPECT_EQ(test, b->timer, dack);
	t_fire(b, dack);
	KUNIT_ASSERT_EQ(test, b->qn, 1);
	/* a pure ACK: opcode 16, no ops, PSN = next_spsn, not consumed */
	KUNIT_EXPECT_EQ(test, b->q[0].opcode, SUPERP_OP_PURE_ACK);
	KUNIT_EXPECT_EQ(test, b->q[0].num_ops, 0);
	KUNIT_EXPECT_EQ(test, b->q[0].psn, 0);
	KUNIT_EXPECT_EQ(test, b->q[0].ack_psn, 0);
	KUNIT_EXPECT_EQ(test, b->q[0].ack_xid, SUPERP_ACK_XID_NONE);
	KUNIT_EXPECT_EQ(test, b->c->next_spsn, 0);
	KUNIT_EXPECT_EQ(test, b->timer, 0);
	b->qn = 0;
	for (i = 1; i <= superp_default_params.pdl_stretch_ack; i++)
		t_rx(b, t_pkt(i, SUPERP_OP_RMA_WRITE, 0, i, false), dack);
	KUNIT_EXPECT_EQ(test, b->qn, 1);	/* stretch ACK */
	KUNIT_EXPECT_EQ(test, b->q[0].ack_psn, i - 1);
	/* with data to send the ACK rides on it: no pure ACK */
	b->qn = 0;
	t_rx(b, t_pkt(i, SUPERP_OP_RMA_WRITE, 0, i, false), dack);
	t_submit(b, SUPERP_OP_RMA_WRITE, 1, dack);
	KUNIT_ASSERT_EQ(test, b->qn, 1);
	KUNIT_EXPECT_EQ(test, b->q[0].opcode, SUPERP_OP_RMA_WRITE);
	KUNIT_EXPECT_EQ(test, b->q[0].ack_psn, i);
	KUNIT_EXPECT_EQ(test, b->timer, superp_default_params.pdl_retrans_time_out * US + dack);
}

/*
 * Receiver flow control 3 over a receive batch: while the caller holds the
 * pure ACKs (superp_conn_hold_acks(), the packets of one NAPI poll), the
 * stretch ACK and the ACK that retires a transaction wait, and releasing
 * them sends one pure ACK for all; with data to send they still ride on it.
 */
static void held_acks_test(struct kunit *test)
{
	struct tnode *b = t_new(test, NULL, 0);
	u32 i, n = 2 * superp_default_params.pdl_stretch_ack;

	superp_conn_hold_acks(b->c);
	for (i = 0; i < n; i++)
		t_rx(b, t_pkt(i, SUPERP_OP_RMA_WRITE, i, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->qn, 0);
	KUNIT_EXPECT_EQ(test, superp_conn_release_acks(b->c, 0), 0);
	KUNIT_ASSERT_EQ(test, b->qn, 1);
	KUNIT_EXPECT_EQ(test, b->q[0].opcode, SUPERP_OP_PURE_ACK);
	KUNIT_EXPECT_EQ(test, b->q[0].ack_psn, n - 1);
	KUNIT_EXPECT_EQ(test, b->q[0].ack_xid, n - 1);
	/* released: the next one goes at once again */
	t_rx(b, t_pkt(n, SUPERP_OP_RMA_WRITE, n, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->qn, 2);
	/* held, but a data packet leaves: it carries the ACK */
	b->qn = 0;
	superp_conn_hold_acks(b->c);
	t_rx(b, t_pkt(n + 1, SUPERP_OP_RMA_WRITE, n + 1, 0, true), 0);
	t_submit(b, SUPERP_OP_RMA_WRITE, 1, 0);
	KUNIT_ASSERT_EQ(test, b->qn, 1);
	KUNIT_EXPECT_EQ(test, b->q[0].opcode, SUPERP_OP_RMA_WRITE);
	KUNIT_EXPECT_EQ(test, b->q[0].ack_psn, n + 1);
	superp_conn_release_acks(b->c, 0);
	KUNIT_EXPECT_EQ(test, b->qn, 1);
}

/* Flow control: RWIN advertisement throttles the peer (receiver 4). */
static void rwin_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);
	struct superp_pkt ack = t_ack(SUPERP_ACK_PSN_NONE, 0, 0xffff);

	superp_conn_set_rwin(b->c, 4);
	t_submit(b, SUPERP_OP_NOOP, 1, 0);
	KUNIT_EXPECT_EQ(test, b->q[0].rwin, 3);
	ack.rwin = 3;
	t_rx(a, ack, 0);
	t_submit(a, SUPERP_OP_RMA_WRITE, 10, 0);
	KUNIT_EXPECT_EQ(test, a->c->max_spsn, 4);
	KUNIT_EXPECT_EQ(test, a->qn, 3);	/* last slot needs new ACK */
}

/* Wrap-around: PSNs across 0xffffffff on both windows. */
static void psn_wrap_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);
	int i;

	superp_conn_set_base(a->c, 0xfffffffe, 0);
	superp_conn_set_base(b->c, 0xfffffffe, 0);
	t_submit(a, SUPERP_OP_RMA_WRITE, 4, 0);
	KUNIT_ASSERT_EQ(test, a->qn, 4);
	KUNIT_EXPECT_EQ(test, a->q[2].psn, 0);
	/* reverse order arrival: SACK bits across the wrap */
	for (i = 3; i >= 0; i--)
		superp_conn_rx(b->c, &a->q[i], &tbuf, 0);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_rpsn, 2);
	KUNIT_EXPECT_EQ(test, b->nreq, 1);
	a->qn = 0;
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->c->unacked_spsn, 2);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->status, 0);
}

/* Wrap-around: XIDs across 0xffff, reads with multi-packet replies. */
static void xid_wrap_read_reply_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);
	int i;

	superp_conn_set_base(a->c, 0, 0xfffe);
	superp_conn_set_base(b->c, 0, 0xfffe);
	b->reply_pkts = 3;
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_READ, 1, 0), 0);
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, b->nreq, 4);
	KUNIT_EXPECT_EQ(test, b->req_xid, 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, 4);
	KUNIT_EXPECT_EQ(test, a->nini, 12);	/* 4 x 3 reply packets */
	KUNIT_EXPECT_EQ(test, a->c->unacked_ixid, 2);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 2);
}

/* PSN reuse within 2 s is reported (checked per 2^28-PSN block). */
static void psn_reuse_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);
	u64 now = 10ULL * 1000 * MS;
	u32 *epoch = a->c->cold->psn_epoch;

	superp_conn_set_base(a->c, 0, 0);
	epoch[0] = 1;			/* block 0 was used before */
	epoch[1] = superp_psn_epoch(now - 1000 * MS);	/* and left 1 s ago */
	t_submit(a, SUPERP_OP_NOOP, 1, now);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_PSN_REUSE], 1);
	superp_conn_set_base(a->c, 0x10000000, 1);
	epoch[2] = superp_psn_epoch(now - 3000 * MS);	/* left 3 s ago: fine */
	t_submit(a, SUPERP_OP_NOOP, 1, now);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_PSN_REUSE], 1);
}

/* Connection ordering: an ordered receiver holds PSNs until gaps fill. */
static void ordered_hold_test(struct kunit *test)
{
	struct tnode *o = t_new(test, NULL, SUPERP_CONN_ORDERED_RX);
	struct tnode *u = t_new(test, NULL, 0);
	int i;

	for (i = 2; i >= 0; i--) {
		t_rx(o, t_pkt(i, SUPERP_OP_NOOP, i, 0, true), 0);
		t_rx(u, t_pkt(i, SUPERP_OP_NOOP, i, 0, true), 0);
	}
	KUNIT_EXPECT_EQ(test, o->nhold, 2);
	KUNIT_EXPECT_EQ(test, o->nrel, 2);
	KUNIT_ASSERT_EQ(test, o->ndlv, 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, o->dlv[i], i);
	KUNIT_ASSERT_EQ(test, u->ndlv, 3);
	KUNIT_EXPECT_EQ(test, u->dlv[0], 2);	/* unordered: as received */
	KUNIT_EXPECT_EQ(test, u->nhold, 0);
}

/* Initiating 1: XIDs from 0, at most tal_trans_window outstanding. */
static void initiator_window_test(struct kunit *test)
{
	struct superp_params p = superp_default_params;
	struct tnode *a;
	int i;

	p.tal_trans_window = 4;
	a = t_new(test, &p, 0);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0), -EAGAIN);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, a->q[i].xid, i);
	/* ACK XID + PSN ACK retire XIDs 0 and 1; the window reopens */
	t_rx(a, t_ack(3, 0, 1), 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, 2);
	KUNIT_EXPECT_EQ(test, a->c->unacked_ixid, 2);
	KUNIT_EXPECT_EQ(test, a->nready, 1);
	/* ACK XID beyond next_ixid: out of window */
	KUNIT_EXPECT_EQ(test, t_rx(a, t_ack(3, 0, 9), 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_ACK_XID_OUT_OF_WINDOW], 1);
}

/* Target receive 1-5 and retirement: assembly, eom, ACK XID. */
static void target_assembly_test(struct kunit *test)
{
	struct tnode *b = t_new(test, NULL, 0);

	t_rx(b, t_pkt(0, SUPERP_OP_RMA_WRITE, 0, 2, true), 0);
	t_rx(b, t_pkt(1, SUPERP_OP_RMA_WRITE, 0, 0, false), 0);
	KUNIT_EXPECT_EQ(test, b->nreq, 0);
	KUNIT_EXPECT_EQ(test, superp_txid(b->c, 0)->num_packets, 3);
	t_rx(b, t_pkt(2, SUPERP_OP_RMA_WRITE, 0, 1, false), 0);
	KUNIT_EXPECT_EQ(test, b->nreq, 1);
	KUNIT_EXPECT_EQ(test, b->req_op, SUPERP_OP_RMA_WRITE);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 1);
	KUNIT_EXPECT_EQ(test, superp_txid(b->c, 0)->state, SUPERP_TX_CLOSED);
	/* out-of-order completion: XID 2 waits in the bitmap for XID 1 */
	t_rx(b, t_pkt(3, SUPERP_OP_RMA_WRITE, 2, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 1);
	KUNIT_EXPECT_TRUE(test, test_bit(1, superp_tbm(b->c)));
	t_rx(b, t_pkt(4, SUPERP_OP_RMA_WRITE, 1, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 3);
}

/*
 * Receiving a packet, step 2 (TAL by opcode): requests go to the target,
 * replies (Atomic Response included) to the initiator, and an opcode that
 * is neither is reported, never delivered (its XID, 0 here, is answered
 * with a Transaction Error: tal_drop_answered_test).
 */
static void opcode_dispatch_test(struct kunit *test)
{
	struct tnode *b = t_new(test, NULL, 0);
	static const u8 unknown[] = { 3, 7, 13, 29, 99, 255 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(unknown); i++)
		t_rx(b, t_pkt(i, unknown[i], 0, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_BAD_OPCODE], ARRAY_SIZE(unknown));
	KUNIT_EXPECT_EQ(test, b->nreq, 0);

	/* Nothing was initiated, so any reply is outside the window. */
	t_rx(b, t_pkt(i++, SUPERP_OP_ATOMIC_RESP, 0, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_INI_XID_OUT_OF_WINDOW], 1);

	t_rx(b, t_pkt(i++, SUPERP_OP_ATOMIC_FADD, 1, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->nreq, 1);
}

/*
 * Target 2.b duplicate seqno, 3.a duplicate eom, seqno past eom, mixed
 * opcodes: each reported and its transaction refused (one XID each: a
 * refused XID takes nothing more), while a good request completes.
 */
static void target_dup_seqno_eom_test(struct kunit *test)
{
	struct tnode *b = t_new(test, NULL, 0);

	t_rx(b, t_pkt(0, SUPERP_OP_RMA_WRITE, 0, 0, false), 0);
	t_rx(b, t_pkt(1, SUPERP_OP_RMA_WRITE, 0, 0, false), 0);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_TGT_DUP_SEQNO], 1);
	t_rx(b, t_pkt(2, SUPERP_OP_RMA_WRITE, 1, 2, true), 0);
	t_rx(b, t_pkt(3, SUPERP_OP_RMA_WRITE, 1, 3, true), 0);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_TGT_DUP_EOM], 1);
	t_rx(b, t_pkt(4, SUPERP_OP_RMA_WRITE, 2, 2, true), 0);
	t_rx(b, t_pkt(5, SUPERP_OP_RMA_WRITE, 2, 5, false), 0);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_SEQNO_RANGE], 1);
	t_rx(b, t_pkt(6, SUPERP_OP_RMA_WRITE, 3, 0, false), 0);
	t_rx(b, t_pkt(7, SUPERP_OP_SEND, 3, 1, false), 0);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_BAD_OPCODE], 1);
	KUNIT_EXPECT_EQ(test, b->nreq, 0);
	t_rx(b, t_pkt(8, SUPERP_OP_RMA_WRITE, 4, 1, true), 0);
	t_rx(b, t_pkt(9, SUPERP_OP_RMA_WRITE, 4, 0, false), 0);
	KUNIT_EXPECT_EQ(test, b->nreq, 1);
	KUNIT_EXPECT_EQ(test, b->req_xid, 4);
}

/* Target 1.a XID out of window, 1.b XID already completed. */
static void target_xid_window_test(struct kunit *test)
{
	struct tnode *b = t_new(test, NULL, 0);

	t_rx(b, t_pkt(0, SUPERP_OP_RMA_WRITE, 32, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_TGT_XID_OUT_OF_WINDOW], 1);
	t_rx(b, t_pkt(1, SUPERP_OP_RMA_WRITE, 0xffff, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_TGT_XID_OUT_OF_WINDOW], 2);
	b->defer = true;
	t_rx(b, t_pkt(2, SUPERP_OP_RMA_WRITE, 0, 0, true), 0);
	t_rx(b, t_pkt(3, SUPERP_OP_RMA_WRITE, 0, 1, true), 0);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_TGT_XID_COMPLETED], 1);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 0);
	KUNIT_EXPECT_EQ(test, superp_tal_done(b->c, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 1);
	KUNIT_EXPECT_EQ(test, superp_tal_done(b->c, 0, 0), -EINVAL);
}

/* Initiator 1.a, 2.a reply before the request finished, 2.b, 3.a. */
static void initiator_reply_checks_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);
	struct superp_pkt ack = t_ack(SUPERP_ACK_PSN_NONE, 0, 0xffff);

	ack.rwin = 0;			/* window of one PSN */
	t_rx(a, ack, 0);
	t_submit(a, SUPERP_OP_RMA_READ, 3, 0);
	KUNIT_EXPECT_EQ(test, a->qn, 1);
	t_rx(a, t_pkt(0, SUPERP_OP_READ_RESP, 0, 0, false), 0);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_INI_EARLY_REPLY], 1);
	t_rx(a, t_pkt(1, SUPERP_OP_READ_RESP, 5, 0, false), 0);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_INI_XID_OUT_OF_WINDOW], 1);
	/* let the request out (ACK PSNs 0 and 1, open the window) */
	t_rx(a, t_ack(0, 0, 0xffff), 0);
	t_rx(a, t_ack(1, 0, 0xffff), 0);
	KUNIT_EXPECT_EQ(test, superp_ixid(a->c, 0)->sent, 3);
	t_rx(a, t_pkt(2, SUPERP_OP_READ_RESP, 0, 0, false), 0);
	t_rx(a, t_pkt(3, SUPERP_OP_READ_RESP, 0, 0, false), 0);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_INI_DUP_SEQNO], 1);
	t_rx(a, t_pkt(4, SUPERP_OP_READ_RESP, 0, 2, true), 0);
	t_rx(a, t_pkt(5, SUPERP_OP_READ_RESP, 0, 3, true), 0);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_INI_DUP_EOM], 1);
	t_rx(a, t_pkt(6, SUPERP_OP_READ_RESP, 0, 1, false), 0);
	KUNIT_EXPECT_EQ(test, superp_ixid(a->c, 0)->flags & SUPERP_IX_RDONE,
			SUPERP_IX_RDONE);
	KUNIT_EXPECT_EQ(test, a->ncomp, 0);	/* waits for ACKs */
	t_rx(a, t_ack(2, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	/* 1.b: a reply for a retired XID (window slid: out of window) */
	t_rx(a, t_pkt(7, SUPERP_OP_READ_RESP, 0, 0, true), 0);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_INI_XID_OUT_OF_WINDOW], 2);
}

/* Initiator 1.b: a reply for an XID retired out of order. */
static void initiator_retired_bitmap_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);

	t_submit(a, SUPERP_OP_RMA_READ, 1, 0);
	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	t_rx(a, t_ack(1, 0, 1), 0);	/* XID 1 retires, XID 0 waits */
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_TRUE(test, test_bit(1, superp_ibm(a->c)));
	t_rx(a, t_pkt(0, SUPERP_OP_TRANS_ERROR, 1, 0, true), 0);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_INI_XID_RETIRED], 1);
	t_rx(a, t_pkt(1, SUPERP_OP_READ_RESP, 0, 0, true), 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 2);
	KUNIT_EXPECT_EQ(test, a->c->unacked_ixid, 2);
}

/* Transaction Error: the initiator's transaction fails with the code. */
static void transaction_error_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);

	b->reply_err = true;
	t_submit(a, SUPERP_OP_RMA_WRITE, 2, 0);
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->status, -EREMOTEIO);
	KUNIT_EXPECT_EQ(test, a->err, 0x0203);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 1);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->tx_trans_err, 1);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->rx_trans_err, 1);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_trans_err, 0);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->rx_rnr, 0);
}

/* Memory barrier: nothing new until every earlier transaction retired. */
static void memory_barrier_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);
	struct superp_xact x = { .opcode = SUPERP_OP_RMA_WRITE, .npkts = 1,
				 .barrier = true };

	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	KUNIT_EXPECT_EQ(test, superp_submit(a->c, &x, NULL, 0), -EAGAIN);
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0), -EAGAIN);
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->nready, 1);
	KUNIT_EXPECT_EQ(test, superp_submit(a->c, &x, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0), 0);
}

/* No-op, Last NULL and soft shutdown until both sides are quiescent. */
static void noop_last_null_shutdown_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);

	t_submit(a, SUPERP_OP_NOOP, 1, 0);
	t_submit(b, SUPERP_OP_RMA_READ, 1, 0);
	KUNIT_EXPECT_EQ(test, superp_conn_shutdown(a->c, 0), 0);
	KUNIT_EXPECT_EQ(test, superp_conn_shutdown(b->c, 0), 0);
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_NOOP, 1, 0), -ESHUTDOWN);
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->nreq, 1);	/* b's read; No-op is ours */
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, b->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_QUIESCENT], 1);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_QUIESCENT], 1);
	KUNIT_EXPECT_EQ(test, a->c->state, SUPERP_ST_QUIESCENT);
}

/* Sending 3: a full device queue defers the packet, same PSN later. */
static void device_busy_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);

	a->busy = 1;
	t_submit(a, SUPERP_OP_RMA_WRITE, 2, 0);
	KUNIT_EXPECT_EQ(test, a->qn, 0);
	KUNIT_EXPECT_EQ(test, a->c->next_spsn, 1);
	superp_conn_window_open(a->c, 1);
	KUNIT_ASSERT_EQ(test, a->qn, 2);
	KUNIT_EXPECT_EQ(test, a->q[0].psn, 0);
	KUNIT_EXPECT_EQ(test, a->q[1].psn, 1);
	KUNIT_EXPECT_TRUE(test, a->q[1].eom);
}

/* tal_transaction_timeout: no retirement in time is fatal (SUPERp-lite). */
static void transaction_timeout_test(struct kunit *test)
{
	struct superp_params p = superp_default_params;
	struct tnode *a;

	p.tal_transaction_timeout = 100000;		/* 1 ms in 10 ns */
	a = t_new(test, &p, 0);
	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	KUNIT_EXPECT_EQ(test, a->timer, MS);
	t_rx(a, t_ack(0, 0, 0xffff), MS / 2);	/* PSN acked, XID not */
	t_fire(a, MS / 2);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_TRANS_TIMEOUT], 0);
	t_fire(a, MS);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_TRANS_TIMEOUT], 1);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_CONN_BROKEN], 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->status, -ETIMEDOUT);
}

/* Hard shutdown: pending transactions fail, packets are dropped. */
static void hard_abort_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, SUPERP_CONN_ORDERED_RX);

	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	t_submit(a, SUPERP_OP_RMA_READ, 1, 0);
	t_rx(a, t_pkt(3, SUPERP_OP_NOOP, 0, 0, true), 0);	/* held */
	superp_conn_abort(a->c, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, a->ncomp, 2);
	KUNIT_EXPECT_EQ(test, a->status, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, a->nrel, a->nhold);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_CONN_BROKEN], 1);
	KUNIT_EXPECT_EQ(test, t_rx(a, t_pkt(0, SUPERP_OP_NOOP, 0, 0, true), 0),
			-ENOTCONN);
}

/*
 * A defect once found here. ACK XID (spec: Transaction Layer, "ACK XID"): both
 * sides finish a request late (superp_tal_done()) while their own window of one
 * XID is full, so only a pure ACK can carry the new ACK XID, and both pure ACKs
 * are lost. The initiator, whose request PSNs are all acknowledged and whose
 * XID is not, probes with an acknowledged PSN; the duplicate draws an ACK at
 * once (Receiving a packet 1.a), which carries the ACK XID. Without the probe
 * both windows stall for good.
 */
static void lost_ack_xid_probe_test(struct kunit *test)
{
	struct superp_params p = superp_default_params;
	u64 dack = p.pdl_delayed_ack_time * US, now = 0;
	struct tnode *a, *b;

	p.tal_trans_window = 1;
	a = t_new(test, &p, 0);
	b = t_new(test, &p, 0);
	a->defer = true;
	b->defer = true;
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, now), 0);
	KUNIT_EXPECT_EQ(test, t_submit(b, SUPERP_OP_RMA_WRITE, 1, now), 0);
	t_link(a, b, now);
	/* the ACKs of both request PSNs, without any ACK XID */
	now += dack;
	if (a->timer && a->timer <= now)
		t_fire(a, now);
	if (b->timer && b->timer <= now)
		t_fire(b, now);
	t_link(a, b, now);
	KUNIT_EXPECT_EQ(test, a->c->unacked_spsn, a->c->next_spsn);
	KUNIT_EXPECT_EQ(test, b->c->unacked_spsn, b->c->next_spsn);
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, now), -EAGAIN);
	/* both finish late; the ACKs carrying the ACK XIDs are lost */
	KUNIT_EXPECT_EQ(test, superp_tal_done(a->c, 0, now), 0);
	KUNIT_EXPECT_EQ(test, superp_tal_done(b->c, 0, now), 0);
	now += dack;
	if (a->timer && a->timer <= now)
		t_fire(a, now);
	if (b->timer && b->timer <= now)
		t_fire(b, now);
	a->qn = 0;
	b->qn = 0;
	t_settle(a, b, now);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, b->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->c->unacked_ixid, 1);
	KUNIT_EXPECT_EQ(test, b->c->unacked_ixid, 1);
}

/*
 * A defect once found here. Receiver flow control 3 coalesces ACKs, but the ACK
 * that retires a transaction goes at once: a WRITE completes when its request's
 * ACK returns, with no timer in between (t_link() runs none). A READ's data is
 * placed when its reply arrives (the user's completion): the ACK of a one-packet
 * reply rides the next request or goes after the delayed ACK time, and the
 * READ retires when the ACK XID answers it; a longer reply is acknowledged at
 * once, as is a reply that fills the initiator window.
 */
static void completion_ack_at_once_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);
	u64 dack = superp_default_params.pdl_delayed_ack_time * US;
	u16 xid;
	int i;

	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	t_link(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->status, 0);
	t_submit(a, SUPERP_OP_RMA_READ, 1, 0);
	t_link(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->nini, 1);
	KUNIT_EXPECT_EQ(test, a->nplaced, 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->timer, dack);
	/* the next request carries it */
	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	t_link(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 3);
	KUNIT_EXPECT_EQ(test, a->status, 0);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 3);
	/* or the delayed ACK timer */
	t_submit(a, SUPERP_OP_RMA_READ, 1, 0);
	t_link(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 3);
	t_fire(a, dack);
	t_link(a, b, dack);
	KUNIT_EXPECT_EQ(test, a->ncomp, 4);
	/* a reply of three packets: at once */
	b->reply_pkts = 3;
	t_submit(a, SUPERP_OP_RMA_READ, 1, dack);
	t_link(a, b, dack);
	KUNIT_EXPECT_EQ(test, a->nini, 2 + 3);
	KUNIT_EXPECT_EQ(test, a->ncomp, 5);
	/* a one-packet reply in a full initiator window: at once */
	b->defer = true;
	xid = a->c->next_ixid;
	t_submit(a, SUPERP_OP_RMA_READ, 1, dack);
	for (i = 1; i < superp_default_params.tal_trans_window; i++)
		t_submit(a, SUPERP_OP_RMA_WRITE, 1, dack);
	t_link(a, b, dack);
	KUNIT_EXPECT_EQ(test, (u16)(a->c->next_ixid - a->c->unacked_ixid),
			superp_default_params.tal_trans_window);
	KUNIT_EXPECT_EQ(test, superp_tal_reply(b->c, xid, SUPERP_OP_READ_RESP,
					       1, 1, NULL, dack), 0);
	KUNIT_ASSERT_EQ(test, b->qn, 1);
	a->nplaced = 0;
	t_rx(a, b->q[0], dack);
	KUNIT_EXPECT_EQ(test, a->nplaced, 1);
	KUNIT_ASSERT_EQ(test, a->qn, 1);
	KUNIT_EXPECT_EQ(test, a->q[0].opcode, SUPERP_OP_PURE_ACK);
}

/*
 * A defect once found here. Initiator transaction retirement: a request with a
 * reply (RMA Read, Atomic CAS, Atomic FADD) retires only when its reply
 * arrived, even when the ACK XID covers it first; an atomic takes an Atomic
 * Response, never a Read Response.
 */
static void atomic_waits_for_response_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);

	t_submit(a, SUPERP_OP_ATOMIC_FADD, 1, 0);
	t_submit(a, SUPERP_OP_ATOMIC_CAS, 1, 0);
	t_rx(a, t_ack(1, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 0);
	t_rx(a, t_pkt(0, SUPERP_OP_ATOMIC_RESP, 0, 0, true), 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->status, 0);
	t_rx(a, t_pkt(1, SUPERP_OP_READ_RESP, 1, 0, true), 0);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_BAD_OPCODE], 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, 2);
	KUNIT_EXPECT_EQ(test, a->status, -EPROTO);
	/* the keyed RDMA Read (extension opcode 24) reads like RMA Read */
	t_submit(a, SUPERP_OP_RDMA_READ, 1, 0);
	t_rx(a, t_ack(2, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 2);
	t_rx(a, t_pkt(2, SUPERP_OP_READ_RESP, 2, 0, true), 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 3);
	KUNIT_EXPECT_EQ(test, a->status, 0);
}

/*
 * An atomic executes once (Documentation/superp-rc.rst, "Atomics"): the
 * target's user sees its request packet once although it arrives twice
 * (its ACK was lost: Receiving a packet 1.a, a duplicate PSN, is only
 * acknowledged again), and a lost Atomic Response is retransmitted by the
 * target's PDL (retransmission timer) without the request being handed
 * up again. The initiator sees one response and completes once.
 */
static void atomic_executes_once_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);
	struct tnode *b = t_new(test, NULL, 0);
	struct superp_pkt req;
	u64 now = 0;
	int i, nresp = 0;

	b->defer = true;
	KUNIT_ASSERT_EQ(test, t_submit(a, SUPERP_OP_ATOMIC_FADD, 1, now), 0);
	KUNIT_ASSERT_EQ(test, a->qn, 1);
	req = a->q[0];
	a->qn = 0;
	KUNIT_EXPECT_EQ(test, t_rx(b, req, now), 0);
	KUNIT_EXPECT_EQ(test, b->ndlv, 1);
	KUNIT_EXPECT_EQ(test, b->nreq, 1);
	KUNIT_EXPECT_EQ(test, b->req_op, SUPERP_OP_ATOMIC_FADD);
	/* The request again, as if the initiator timed out. */
	b->qn = 0;
	KUNIT_EXPECT_EQ(test, t_rx(b, req, now), 0);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->rx_dup, 1);
	KUNIT_EXPECT_EQ(test, b->ndlv, 1);
	KUNIT_EXPECT_EQ(test, b->nreq, 1);
	/* The user answers; the response and every ACK so far are lost. */
	KUNIT_ASSERT_EQ(test, superp_tal_reply(b->c, b->req_xid,
					       SUPERP_OP_ATOMIC_RESP, 1, 1,
					       NULL, now), 0);
	for (i = 0; i < b->qn; i++)
		nresp += b->q[i].opcode == SUPERP_OP_ATOMIC_RESP;
	KUNIT_EXPECT_EQ(test, nresp, 1);
	b->qn = 0;
	t_settle(a, b, now);
	KUNIT_EXPECT_GE(test, superp_conn_stats(b->c)->tx_rtx_timer, 1);
	KUNIT_EXPECT_EQ(test, b->ndlv, 1);
	KUNIT_EXPECT_EQ(test, b->nreq, 1);
	KUNIT_EXPECT_EQ(test, a->nini, 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->status, 0);
	KUNIT_EXPECT_EQ(test, b->ntdone, 1);
}

/*
 * A defect once found here. Target receive 1-3 drops a packet the PDL already
 * acknowledged: its transaction is answered with a Transaction Error (unknown
 * or mixed opcode: invalid request, opcode) instead of staying open, and no
 * transaction can stay open forever by default.
 */
static void tal_drop_answered_test(struct kunit *test)
{
	struct tnode *b = t_new(test, NULL, 0);
	u32 opc = SUPERP_TERR_INVALID << 16 | SUPERP_TERR_OPCODE;
	int i, nerr = 0;

	KUNIT_EXPECT_NE(test, superp_default_params.tal_transaction_timeout, 0);
	t_rx(b, t_pkt(0, 13, 0, 0, true), 0);
	t_rx(b, t_pkt(1, SUPERP_OP_RMA_WRITE, 1, 0, false), 0);
	t_rx(b, t_pkt(2, SUPERP_OP_SEND, 1, 1, true), 0);
	t_rx(b, t_pkt(3, SUPERP_OP_RMA_WRITE, 2, 0, false), 0);
	t_rx(b, t_pkt(4, SUPERP_OP_RMA_WRITE, 2, 0, true), 0);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_BAD_OPCODE], 2);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_TGT_DUP_SEQNO], 1);
	KUNIT_EXPECT_EQ(test, b->nreq, 0);
	for (i = 0; i < b->qn; i++) {
		if (b->q[i].opcode != SUPERP_OP_TRANS_ERROR)
			continue;
		KUNIT_EXPECT_EQ(test, b->q[i].xid, nerr);
		KUNIT_EXPECT_EQ(test, b->q[i].err,
				nerr < 2 ? opc : SUPERP_TERR_INVALID << 16);
		nerr++;
	}
	KUNIT_EXPECT_EQ(test, nerr, 3);
}

/*
 * A defect once found here. Sending a packet 3: only -EBUSY means "device queue
 * full, resume on window_open"; another xmit error loses the packet (the PDL
 * retransmits it) without stopping the connection. Flow control 4: timeouts
 * while the device takes nothing are not retransmissions and do not break the
 * connection.
 */
static void xmit_error_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);
	u64 rto = superp_default_params.pdl_retrans_time_out * US, now = 0;
	int i;

	a->fail = 1;
	a->fail_err = -ENETUNREACH;
	t_submit(a, SUPERP_OP_RMA_WRITE, 2, 0);
	KUNIT_ASSERT_EQ(test, a->qn, 1);
	KUNIT_EXPECT_EQ(test, a->q[0].psn, 1);
	KUNIT_EXPECT_FALSE(test, a->c->flags & SUPERP_CF_TX_BUSY);
	t_fire(a, rto);
	KUNIT_ASSERT_GE(test, a->qn, 2);
	KUNIT_EXPECT_EQ(test, a->q[1].psn, 0);

	b->busy = 1000;
	t_submit(b, SUPERP_OP_RMA_WRITE, 1, 0);
	for (i = 0; i < 8; i++) {
		now = b->timer;
		KUNIT_ASSERT_NE(test, now, 0);
		t_fire(b, now);
	}
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_CONN_BROKEN], 0);
	KUNIT_EXPECT_EQ(test, superp_spsn(b->c, 0)->nrtx, 0);
	b->busy = 0;
	superp_conn_window_open(b->c, now);
	KUNIT_EXPECT_EQ(test, b->qn, 1);
}

/*
 * A defect once found here. A Transaction Error carries a 16-bit major and a
 * 16-bit minor code (wire: struct superp_terr_op); the initiator's completion
 * reports both.
 */
static void transaction_error_code_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);
	u32 code = SUPERP_TERR_PROTECTION << 16 | SUPERP_TERR_BOUNDS;

	b->defer = true;
	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	t_link(a, b, 0);
	KUNIT_EXPECT_EQ(test, superp_tal_error(b->c, 0, code, NULL, 0), 0);
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->status, -EREMOTEIO);
	KUNIT_EXPECT_EQ(test, a->err, code);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->tx_rnr, 0);
	/* receiver not ready: counted apart as well */
	code = SUPERP_TERR(SUPERP_TERR_RNR, SUPERP_TERR_UNSPEC);
	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	t_link(a, b, 0);
	KUNIT_EXPECT_EQ(test, superp_tal_error(b->c, 1, code, NULL, 0), 0);
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 2);
	KUNIT_EXPECT_EQ(test, a->err, code);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->tx_trans_err, 2);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->tx_rnr, 1);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->rx_trans_err, 2);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->rx_rnr, 1);
}

/*
 * A defect once found here. Sending flow control 3.e: a NACK names its own PSN
 * received and claims only the PSNs below it missing; when that PSN is the left
 * edge, nothing is missing and nothing may be fast-retransmitted. Receiver flow
 * control 4: an older ACK arriving late does not pull the right edge of the
 * send window back.
 */
static void nack_left_edge_and_rwin_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);
	int i;

	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	t_rx(a, t_ack(0, 0, 0xffff), 10 * US);
	for (i = 0; i < 10; i++)
		t_submit(a, SUPERP_OP_RMA_WRITE, 1, 10 * US);
	a->qn = 0;
	/* PSN 1 (the left edge) and PSNs 7..10 received */
	t_rx(a, t_ack(1, 1 | 0xf << 6, 0xffff), MS);
	KUNIT_EXPECT_EQ(test, a->c->unacked_spsn, 2);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_rtx_fast, 0);
	KUNIT_EXPECT_EQ(test, a->qn, 0);

	t_rx(a, t_ack(4, 0, 0xffff), MS);
	KUNIT_EXPECT_EQ(test, a->c->max_spsn, 37);
	/* an ACK sent before the one above, when the window was smaller */
	{
		struct superp_pkt old = t_ack(4, 0, 0xffff);

		old.rwin = 3;
		t_rx(a, old, MS);
	}
	KUNIT_EXPECT_EQ(test, a->c->max_spsn, 37);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_ACK_OUT_OF_WINDOW], 0);
}

/*
 * Locking contract (superp_engine.h): an event entry point called from a
 * callback of the same connection, as a naive loopback xmit() delivering
 * into its own connection would, is refused instead of running on a
 * half-updated connection; the outer event finishes normally.
 */
static void reentry_refused_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);
	int i;

	a->reenter = true;
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 2, 0), 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, a->reenter_ret[i], -EDEADLK);
	KUNIT_EXPECT_EQ(test, a->qn, 2);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->rx_pkts, 0);
	KUNIT_EXPECT_EQ(test, a->c->depth, 0);
	KUNIT_EXPECT_EQ(test, t_rx(a, t_ack(1, 0, 0), 1), 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
}

/*
 * A device-wide budget caps the connections' memory: the windows and packets
 * per transaction multiply to about 1.1 MiB per connection at their maxima. A
 * connection beyond it is refused with -EDQUOT and a message; releasing one
 * gives its bytes back.
 */
static void memory_budget_test(struct kunit *test)
{
	const struct superp_params *p = &superp_default_params;
	size_t one = superp_conn_mem(p, 0);
	struct superp_mem_budget b;
	struct superp_conn *c;
	const char *why = NULL;
	int i;

	c = kunit_kzalloc(test, 3 * sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	superp_mem_budget_init(&b, 2 * one + one / 2);
	for (i = 0; i < 2; i++) {
		int ret = superp_conn_init_budget(&c[i], &b, p, &t_ops, NULL,
						  i, i, 0, &why);

		KUNIT_EXPECT_EQ(test, ret, 0);
	}
	KUNIT_EXPECT_EQ(test, atomic_long_read(&b.used), 2 * one);
	KUNIT_EXPECT_EQ(test, superp_conn_init_budget(&c[2], &b, p, &t_ops,
						      NULL, 2, 2, 0, &why),
			-EDQUOT);
	KUNIT_EXPECT_NOT_NULL(test, why);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&b.used), 2 * one);
	superp_conn_release(&c[0]);
	KUNIT_EXPECT_EQ(test, superp_conn_init_budget(&c[2], &b, p, &t_ops,
						      NULL, 2, 2, 0, &why), 0);
	superp_conn_release(&c[1]);
	superp_conn_release(&c[2]);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&b.used), 0);
}

static bool t_match_all(void *cookie, void *arg)
{
	return true;
}

/*
 * Per-QP flush: a destroyed QP's pending transactions complete with -ECANCELED
 * at once and their cookies are never handed out again, while their XIDs still
 * reach the target in order (initiating 2-4): sent packets as headers only, an
 * unstarted transaction as a No-op, a partly sent one closed by a No-op eom
 * that the target refuses (mixed opcode), so that no half request executes.
 */
static void cancel_test(struct kunit *test)
{
	struct superp_params p = superp_default_params;
	struct tnode *a, *b;
	int i;

	p.pdl_receive_win = 3;	/* PSNs 0, 1 (2: last-slot rule) until b speaks */
	a = t_new(test, &p, 0);
	b = t_new(test, NULL, 0);
	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	t_submit(a, SUPERP_OP_RMA_WRITE, 3, 0);
	t_submit(a, SUPERP_OP_RMA_READ, 1, 0);
	KUNIT_ASSERT_EQ(test, a->qn, 2);
	KUNIT_EXPECT_EQ(test, superp_cancel(a->c, t_match_all, NULL, 0), 3);
	KUNIT_EXPECT_EQ(test, a->ncomp, 3);
	KUNIT_EXPECT_EQ(test, a->status, -ECANCELED);
	KUNIT_EXPECT_EQ(test, superp_cancel(a->c, t_match_all, NULL, 0), 0);
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 3);
	KUNIT_EXPECT_EQ(test, a->ncookie, 2);
	KUNIT_EXPECT_EQ(test, a->c->unacked_ixid, 3);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 3);
	KUNIT_EXPECT_EQ(test, b->nreq, 1);		/* the first write */
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_BAD_OPCODE], 1);
	for (i = 0; i < a->qn; i++)
		KUNIT_EXPECT_TRUE(test, a->q[i].opcode == SUPERP_OP_PURE_ACK ||
				  a->q[i].opcode == SUPERP_OP_NOOP ||
				  (a->q[i].flags & SUPERP_PKT_CANCELLED));
}

static int t_submit_qp(struct tnode *n, u16 qp, bool fence, u64 now)
{
	struct superp_xact x = { .opcode = SUPERP_OP_RMA_WRITE, .npkts = 1,
				 .num_ops = 1, .qp = qp, .fence = fence,
				 .cookie = n };

	return superp_submit(n->c, &x, NULL, now);
}

/*
 * Per-QP fence (IB fence semantics, where the spec's memory barrier of
 * initiating 1 holds back the whole connection): a fenced transaction waits for
 * the earlier transactions of its own QP only.
 */
static void fence_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);

	KUNIT_EXPECT_EQ(test, t_submit_qp(a, 1, false, 0), 0);
	KUNIT_EXPECT_EQ(test, t_submit_qp(a, 2, false, 0), 0);
	KUNIT_EXPECT_EQ(test, t_submit_qp(a, 1, true, 0), -EAGAIN);
	KUNIT_EXPECT_EQ(test, t_submit_qp(a, 2, false, 0), 0);
	KUNIT_EXPECT_EQ(test, t_submit_qp(a, 3, true, 0), 0);
	KUNIT_EXPECT_EQ(test, a->nready, 0);
	/* QP 1's write (XID 0) retires: the fence may pass */
	t_rx(a, t_ack(3, 0, 0), 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->nready, 1);
	KUNIT_EXPECT_EQ(test, t_submit_qp(a, 1, true, 1), 0);
	KUNIT_EXPECT_EQ(test, t_submit_qp(a, 2, true, 1), -EAGAIN);
}

/* superp_submit(), having asked superp_submit_ready() first: they agree. */
static int t_submit_asked(struct kunit *test, struct superp_conn *c,
			  const struct superp_xact *x)
{
	bool ready = superp_submit_ready(c, x);
	int err = superp_submit(c, x, NULL, 0);

	KUNIT_EXPECT_EQ(test, ready, !err);
	return err;
}

/*
 * Packing (small operations waiting on one connection share a packet, without
 * waiting for more): the packer asks superp_submit_ready() before it takes more
 * work; the answer is superp_submit()'s, through the fence, the memory barrier
 * (initiating 1) and a full XID window (initiating 1.a), and packed operations
 * are counted.
 */
static void submit_ready_test(struct kunit *test)
{
	struct superp_xact w = { .opcode = SUPERP_OP_RMA_WRITE, .npkts = 1,
				 .num_ops = 1, .qp = 1, .cookie = test };
	struct superp_xact packed = w, fenced = w, barrier = w;
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);
	int i, n = 0;

	packed.num_ops = 5;
	fenced.fence = true;
	barrier.barrier = true;
	KUNIT_EXPECT_EQ(test, t_submit_asked(test, a->c, &fenced), 0);
	KUNIT_EXPECT_EQ(test, t_submit_asked(test, a->c, &packed), 0);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_packed_ops, 5);
	KUNIT_EXPECT_EQ(test, t_submit_asked(test, a->c, &fenced), -EAGAIN);
	KUNIT_EXPECT_EQ(test, t_submit_asked(test, a->c, &barrier), -EAGAIN);
	/* the barrier now holds back everything, unfenced work too */
	KUNIT_EXPECT_EQ(test, t_submit_asked(test, a->c, &w), -EAGAIN);
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 2);
	/* fill the XID window: the next one waits */
	while (t_submit_asked(test, a->c, &w) == 0 && n <= a->c->tal_window)
		n++;
	KUNIT_EXPECT_EQ(test, n, a->c->tal_window);
	KUNIT_EXPECT_FALSE(test, superp_submit_ready(a->c, &packed));
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_packed_ops, 5);
	t_settle(a, b, 0);
	KUNIT_EXPECT_TRUE(test, superp_submit_ready(a->c, &packed));
	superp_conn_abort(a->c, -ECONNRESET);
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_NE(test, t_submit_asked(test, a->c, &w), 0);
}

/*
 * Fair share of the PDL window among the QPs that share a connection: a long
 * write of QP 1 submitted first takes turns with QP 2's one-packet send, which
 * goes second rather than after the write; each QP's own transactions keep
 * their XID order (initiating 2-4).
 */
static void fair_share_test(struct kunit *test)
{
	struct superp_xact big = { .opcode = SUPERP_OP_RMA_WRITE, .npkts = 20,
				   .num_ops = 1, .qp = 1, .cookie = test };
	struct superp_xact small = { .opcode = SUPERP_OP_SEND, .npkts = 1,
				     .num_ops = 1, .qp = 2, .cookie = test };
	struct tnode *a = t_new(test, NULL, 0);
	int i, last = -1;

	KUNIT_EXPECT_EQ(test, superp_conn_window_open(a->c, 0), 0);
	a->busy = 1;	/* hold the write back until both are submitted */
	KUNIT_EXPECT_EQ(test, superp_submit(a->c, &big, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, superp_submit(a->c, &big, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, superp_submit(a->c, &small, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, superp_conn_window_open(a->c, 0), 0);
	KUNIT_ASSERT_GE(test, a->qn, 3);
	KUNIT_EXPECT_EQ(test, a->q[0].xid, 0);
	KUNIT_EXPECT_EQ(test, a->q[1].xid, 2);
	for (i = 0; i < a->qn; i++) {
		if (a->q[i].xid == 2)
			continue;
		KUNIT_EXPECT_GE(test, (int)a->q[i].xid, last);
		last = a->q[i].xid;
	}
}

/*
 * Initiating a new transaction, steps 1-3, a window's worth of XIDs on:
 * the user submits again from complete(), while the ACK that retired the
 * whole window is processed, so the new XIDs take the slots of XIDs whose
 * packets all went out. Each packet must carry its own transaction's XID
 * (the sender's cursor of the oldest unsent XID must not point at a
 * retired one whose slot now holds a newer transaction).
 */
static void send_xid_after_window_reuse_test(struct kunit *test)
{
	struct superp_params p = superp_default_params;
	const int n = 16;	/* XID slots: a power of two, this window */
	struct tnode *a;
	int i;

	/* the send window fills with the last XID's packet: no pick after */
	p.pdl_window_size = n + 1;	/* its last slot waits */
	p.pdl_receive_win = n + 1;
	p.pdl_stretch_ack = 1;
	p.tal_trans_window = n;
	a = t_new(test, &p, 0);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0), 0);
	KUNIT_ASSERT_EQ(test, a->qn, n);
	KUNIT_EXPECT_EQ(test, a->c->next_spsn + 1, a->c->max_spsn);
	a->resubmit = n;
	t_rx(a, t_ack(n - 1, 0, n - 1), 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, n);
	KUNIT_ASSERT_EQ(test, a->qn, 2 * n);
	for (i = 0; i < 2 * n; i++) {
		KUNIT_EXPECT_EQ(test, a->q[i].xid, i);
		KUNIT_EXPECT_EQ(test, a->q[i].psn, i);
	}
}

/*
 * Data path events: "reply placed" comes when a READ's reply is complete,
 * before the ACK XID retires it; the target learns when it may release what the
 * reply used (its PSNs are acknowledged: retirement, steps 1-3), and drops open
 * target state when the connection stops.
 */
static void placed_and_target_done_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0), *b = t_new(test, NULL, 0);

	t_submit(a, SUPERP_OP_RMA_READ, 1, 0);
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->nplaced, 1);
	KUNIT_EXPECT_EQ(test, a->ncomp_at_placed, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, b->ntdone, 1);
	KUNIT_EXPECT_EQ(test, b->tdone_status, 0);
	KUNIT_EXPECT_EQ(test, b->tdone_xid, 0);
	/* a write is retired on receipt: no reply to wait for */
	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->nplaced, 1);
	KUNIT_EXPECT_EQ(test, b->ntdone, 2);
	/* a request the user still works on is dropped on abort */
	b->defer = true;
	t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0);
	t_link(a, b, 0);
	superp_conn_abort(b->c, -ECONNRESET);
	KUNIT_EXPECT_EQ(test, b->ntdone, 3);
	KUNIT_EXPECT_EQ(test, b->tdone_xid, 2);
	KUNIT_EXPECT_EQ(test, b->tdone_status, -ECONNRESET);
}

/*
 * SUPERP_CONN_HELLO, the handshake of a fresh connection: the first
 * submission starts the engine's No-op and waits (-EAGAIN); tx_ready()
 * follows its retirement. Before the peer's first PSN arrives, no other
 * PSN is taken.
 */
static void hello_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, SUPERP_CONN_HELLO);
	struct tnode *b = t_new(test, NULL, SUPERP_CONN_HELLO);
	u64 now;

	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0), -EAGAIN);
	KUNIT_ASSERT_EQ(test, a->qn, 1);
	KUNIT_EXPECT_EQ(test, a->q[0].opcode, SUPERP_OP_NOOP);
	KUNIT_EXPECT_EQ(test, a->q[0].psn, 0);
	KUNIT_EXPECT_FALSE(test, superp_submit_ready(a->c, &(struct superp_xact){
		.opcode = SUPERP_OP_RMA_WRITE, .npkts = 1, .num_ops = 1 }));
	/* asking again sends no second hello */
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0), -EAGAIN);
	KUNIT_EXPECT_EQ(test, a->qn, 1);
	now = t_settle(a, b, 0);
	KUNIT_EXPECT_GE(test, a->nready, 1);
	KUNIT_EXPECT_EQ(test, b->nreq, 0);	/* the hello is no request */
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, now), 0);
	t_settle(a, b, now);
	KUNIT_EXPECT_EQ(test, b->nreq, 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->status, 0);

	/* receiving: PSN 1 before PSN 0 is refused, then both are taken */
	b = t_new(test, NULL, SUPERP_CONN_HELLO);
	KUNIT_EXPECT_EQ(test, t_rx(b, t_pkt(1, SUPERP_OP_NOOP, 1, 0, true), 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->rx_drop_psn_window, 1);
	KUNIT_EXPECT_EQ(test, t_rx(b, t_pkt(0, SUPERP_OP_NOOP, 0, 0, true), 0), 0);
	KUNIT_EXPECT_EQ(test, t_rx(b, t_pkt(1, SUPERP_OP_NOOP, 1, 0, true), 0), 0);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_rpsn, 2);
}

/* Submit @n one-packet WRITEs, the hello first if it is due. */
static void t_writes(struct tnode *n, int count, u64 *now,
		     struct tnode *peer)
{
	int i;

	if (t_submit(n, SUPERP_OP_RMA_WRITE, 1, *now) == -EAGAIN)
		*now = t_settle(n, peer, *now);
	else
		count--;
	for (i = 0; i < count; i++)
		KUNIT_EXPECT_EQ(n->test,
				t_submit(n, SUPERP_OP_RMA_WRITE, 1, *now), 0);
}

/*
 * A peer that lost its state (a reboot, the module reloaded) comes back
 * with a fresh connection: PSNs and XIDs from zero again, while this side
 * still expects what came after the old incarnation's. Without the
 * handshake, the new incarnation's first PSNs were taken for duplicates
 * and acknowledged unseen: its WRITEs completed without running. Now
 * nothing crosses between incarnations in either direction, and both
 * sides' work fails instead of completing: the peer restarts the
 * connection (superp conn del + add, as the spec's connection manager).
 */
static void peer_restart_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, SUPERP_CONN_HELLO);
	struct tnode *b = t_new(test, NULL, SUPERP_CONN_HELLO);
	u64 now = 0;
	int i, nreq;

	t_writes(a, 5, &now, b);
	t_writes(b, 5, &now, a);
	now = t_settle(a, b, now);
	KUNIT_ASSERT_EQ(test, a->ncomp, 5);
	KUNIT_ASSERT_EQ(test, b->ncomp, 5);
	KUNIT_ASSERT_EQ(test, a->nreq, 5);
	KUNIT_ASSERT_EQ(test, b->nreq, 5);

	b = t_new(test, NULL, SUPERP_CONN_HELLO);	/* b restarts */
	nreq = a->nreq;
	/* more than the old incarnation sent: PSNs 5.. would be new to a */
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, t_submit(b, SUPERP_OP_RMA_WRITE, 1, now),
				-EAGAIN);	/* the hello goes first */
	/* and a, unaware, writes to the old b */
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, now), 0);
	now = t_settle(a, b, now);
	KUNIT_EXPECT_EQ(test, a->nreq, nreq);	/* nothing of b's ran */
	KUNIT_EXPECT_EQ(test, b->nreq, 0);	/* nothing of a's ran */
	KUNIT_EXPECT_EQ(test, b->ncomp, 0);	/* b's WRITE never started */
	KUNIT_EXPECT_EQ(test, b->c->state, SUPERP_ST_BROKEN);
	KUNIT_EXPECT_EQ(test, a->c->state, SUPERP_ST_BROKEN);
	KUNIT_EXPECT_EQ(test, a->ncomp, 6);
	KUNIT_EXPECT_LT(test, a->status, 0);	/* a's WRITE failed */
	KUNIT_EXPECT_GT(test, b->ev[SUPERP_EV_ACK_OUT_OF_WINDOW], 0);
	KUNIT_EXPECT_GT(test, superp_conn_stats(b->c)->rx_drop_psn_window, 0);

	/* restarted on both sides, as the connection manager does */
	a = t_new(test, NULL, SUPERP_CONN_HELLO);
	b = t_new(test, NULL, SUPERP_CONN_HELLO);
	t_writes(b, 8, &now, a);
	now = t_settle(a, b, now);
	KUNIT_EXPECT_EQ(test, a->nreq, 8);
	KUNIT_EXPECT_EQ(test, b->ncomp, 8);
	KUNIT_EXPECT_EQ(test, b->status, 0);
}

/*
 * The restarted side's hello meets a survivor that acknowledges PSNs the
 * new incarnation never sent. Those ACKs are dropped, and the hello is
 * retransmitted on the doubling RTO: the connection breaks when its
 * retransmission budget is spent, rto * (2^(pdl_max_rtx + 1) - 1) after
 * the hello left (sending flow control 4.a), not later.
 */
static void peer_restart_budget_test(struct kunit *test)
{
	const struct superp_params *p = &superp_default_params;
	struct tnode *a = t_new(test, NULL, SUPERP_CONN_HELLO);
	struct tnode *b = t_new(test, NULL, SUPERP_CONN_HELLO);
	u64 rto = p->pdl_retrans_time_out * US, now = 0, t0;
	u64 budget = rto * ((2ULL << p->pdl_max_rtx) - 1);
	int rounds = 1000;

	t_writes(a, 5, &now, b);
	t_writes(b, 5, &now, a);
	now = t_settle(a, b, now);
	KUNIT_ASSERT_EQ(test, a->ncomp, 5);

	b = t_new(test, NULL, SUPERP_CONN_HELLO);	/* b restarts */
	t0 = now;
	KUNIT_EXPECT_EQ(test, t_submit(b, SUPERP_OP_RMA_WRITE, 1, now), -EAGAIN);
	t_link(a, b, now);
	while (b->c->state != SUPERP_ST_BROKEN && rounds-- && t_step(a, b, &now))
		;
	KUNIT_EXPECT_EQ(test, b->c->state, SUPERP_ST_BROKEN);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_CONN_BROKEN], 1);
	KUNIT_EXPECT_LE(test, now - t0, budget);
	KUNIT_EXPECT_GT(test, b->ev[SUPERP_EV_ACK_OUT_OF_WINDOW], 0);
}

/*
 * A refused reply packet (an Atomic Response answering a READ) never
 * makes the reply whole: placed() is not called, for the user would take
 * the READ's data as placed, and the READ fails (-EPROTO).
 */
static void placed_not_for_refused_reply_test(struct kunit *test)
{
	struct tnode *a = t_new(test, NULL, 0);

	KUNIT_ASSERT_EQ(test, t_submit(a, SUPERP_OP_RMA_READ, 1, 0), 0);
	t_rx(a, t_ack(0, 0, 0xffff), 0);
	t_rx(a, t_pkt(0, SUPERP_OP_ATOMIC_RESP, 0, 0, true), 0);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_BAD_OPCODE], 1);
	KUNIT_EXPECT_EQ(test, a->nplaced, 0);
	t_rx(a, t_ack(0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 1);
	KUNIT_EXPECT_EQ(test, a->status, -EPROTO);
}

/*
 * SUPERp-lite format: the TAL header alone, as superp_pkt_encode() writes
 * its second half; no PDL field survives the trip.
 */
static void lite_codec_test(struct kunit *test)
{
	struct superp_pkt a = {
		.xid = 0xfffe, .seqno = 7, .ack_xid = 0x1234,
		.opcode = SUPERP_OP_RMA_WRITE, .num_ops = 3, .eom = 1,
	}, b, full = a;
	struct superp_pdl_hdr pdl;
	struct superp_tal_hdr tal, tal2;
	u8 raw[SUPERP_TAL_HLEN];

	full.psn = 99;
	full.dcid = 5;
	superp_pkt_encode_lite(&full, &tal);
	superp_pkt_encode(&full, &pdl, &tal2);
	KUNIT_EXPECT_EQ(test, memcmp(&tal, &tal2, sizeof(tal)), 0);
	memcpy(raw, &tal, sizeof(raw));
	KUNIT_EXPECT_EQ(test, raw[0], 0x83);
	KUNIT_EXPECT_EQ(test, raw[1], SUPERP_OP_RMA_WRITE);
	KUNIT_EXPECT_EQ(test, superp_pkt_parse_lite(raw, sizeof(raw), &b), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&a, &b, sizeof(a)), 0);
	KUNIT_EXPECT_EQ(test, superp_pkt_parse_lite(raw, sizeof(raw) - 1, &b),
			-EINVAL);
	raw[0] |= 0x40;				/* reserved bit */
	KUNIT_EXPECT_EQ(test, superp_pkt_parse_lite(raw, sizeof(raw), &b),
			-EPROTO);
	/* a datagram's DCID 0xffff is no TAL header: reserved bits set */
	memset(raw, 0xff, 2);
	KUNIT_EXPECT_EQ(test, superp_pkt_parse_lite(raw, sizeof(raw), &b),
			-EPROTO);
}

/*
 * Two SUPERp-lite peers with the transaction timer @timeout (10 ns), their
 * hellos exchanged when @hello.
 */
static void t_lite_pair(struct kunit *test, u64 timeout, bool hello,
			struct tnode **a, struct tnode **b)
{
	struct superp_params p = superp_default_params;

	p.tal_transaction_timeout = timeout;
	*a = t_new(test, &p, SUPERP_CONN_LITE | SUPERP_CONN_HELLO);
	*b = t_new(test, &p, SUPERP_CONN_LITE | SUPERP_CONN_HELLO);
	if (!hello)
		return;
	KUNIT_EXPECT_EQ(test, t_submit(*a, SUPERP_OP_NOOP, 1, 0), -EAGAIN);
	KUNIT_EXPECT_EQ(test, t_submit(*b, SUPERP_OP_NOOP, 1, 0), -EAGAIN);
	t_settle(*a, *b, 0);
	KUNIT_EXPECT_EQ(test, (*a)->c->flags & SUPERP_CF_HELLO_TX, 0);
	KUNIT_EXPECT_EQ(test, (*b)->c->flags & SUPERP_CF_HELLO_TX, 0);
}

/*
 * SUPERp-lite: "the Transaction Layer and operations work the same way".
 * Writes and reads complete over the TAL alone; a PSN counts as delivered
 * once sent, nothing is retransmitted, and only the ACK XID is
 * acknowledged: no pure ACK is sent for PSNs.
 */
static void lite_transactions_test(struct kunit *test)
{
	const struct superp_stats *sa, *sb;
	struct tnode *a, *b;
	int i;

	t_lite_pair(test, 100000, true, &a, &b);
	sa = superp_conn_stats(a->c);
	sb = superp_conn_stats(b->c);
	b->reply_pkts = 2;
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 3, 0), 0);
		KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_READ, 1, 0), 0);
	}
	t_settle(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 8);
	KUNIT_EXPECT_EQ(test, a->status, 0);
	KUNIT_EXPECT_EQ(test, b->nreq, 8);
	KUNIT_EXPECT_EQ(test, a->nini, 4 * 2);
	KUNIT_EXPECT_EQ(test, a->c->unacked_spsn, a->c->next_spsn);
	KUNIT_EXPECT_EQ(test, b->c->unacked_spsn, b->c->next_spsn);
	KUNIT_EXPECT_EQ(test, sa->tx_rtx_timer + sa->tx_rtx_fast +
			sa->tx_rtx_proactive + sa->tx_rtx_tail +
			sa->tx_probe, 0);
	/* at most one per retired XID (hello + 8), none for PSNs */
	KUNIT_EXPECT_LE(test, sb->tx_pure_ack, 9);
	KUNIT_EXPECT_EQ(test, sb->tx_sack + sb->tx_nack, 0);
	KUNIT_EXPECT_EQ(test, a->c->unacked_ixid, a->c->next_ixid);
	KUNIT_EXPECT_EQ(test, b->c->next_acked_txid, 9);	/* hello + 8 */
	/* Receive accounting: every packet processed, none dropped. */
	KUNIT_EXPECT_EQ(test, sa->rx_pkts, sa->rx_processed);
	KUNIT_EXPECT_EQ(test, sb->rx_pkts, sb->rx_processed);
	KUNIT_EXPECT_EQ(test, sa->rx_dropped + sb->rx_dropped, 0);
	KUNIT_EXPECT_EQ(test, a->timer, 0);
	KUNIT_EXPECT_EQ(test, b->timer, 0);
}

/*
 * SUPERp-lite: "a receiver can use the source address for connection
 * lookup": whatever stands in the PDL fields of what it is handed (a lite
 * packet has none), packets take PSNs in arrival order and are delivered.
 */
static void lite_receive_order_test(struct kunit *test)
{
	struct superp_pkt p = t_pkt(0x55555555, SUPERP_OP_RMA_WRITE, 0, 0,
				    true);
	struct tnode *a, *b;

	t_lite_pair(test, 100000, false, &a, &b);
	p.ack_psn = 0x77777777;		/* would be out of window in SUPERp */
	p.sack = 0xf0f0f0f0;
	KUNIT_EXPECT_EQ(test, t_rx(b, p, 0), 0);
	p.xid = 1;
	p.psn = 3;
	KUNIT_EXPECT_EQ(test, t_rx(b, p, 0), 0);
	KUNIT_EXPECT_EQ(test, b->nreq, 2);
	KUNIT_EXPECT_EQ(test, b->ndlv, 2);
	KUNIT_EXPECT_EQ(test, b->dlv[0], 0);
	KUNIT_EXPECT_EQ(test, b->dlv[1], 1);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->rx_processed, 2);
	/* the ACK XID goes at once (each transaction retired) */
	KUNIT_ASSERT_GE(test, b->qn, 1);
	KUNIT_EXPECT_EQ(test, b->q[b->qn - 1].ack_xid, 1);
}

/*
 * SUPERp-lite: "an initiator should use a timer to ensure that
 * transactions are acknowledged ... if a timer fires then that is a fatal
 * error that must be reported to the connection manager". A lost request
 * is never retransmitted: tal_transaction_timeout fails every pending
 * transaction with -ETIMEDOUT (RC: IB_WC_RETRY_EXC_ERR) and reports the
 * broken connection, and the connection takes nothing after.
 */
static void lite_loss_breaks_test(struct kunit *test)
{
	struct tnode *a, *b;

	t_lite_pair(test, 100000, true, &a, &b);	/* 1 ms */
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 2, 0), 0);
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_READ, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, a->qn, 3);
	a->q[0] = a->q[1];				/* lose the first */
	a->q[1] = a->q[2];
	a->qn = 2;
	t_link(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->ncomp, 0);
	KUNIT_EXPECT_EQ(test, a->timer, MS);		/* no RTO before it */
	t_fire(a, MS - 1);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_CONN_BROKEN], 0);
	KUNIT_EXPECT_EQ(test, a->qn, 0);		/* nothing resent */
	t_fire(a, MS);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_TRANS_TIMEOUT], 1);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_CONN_BROKEN], 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, 2);
	KUNIT_EXPECT_EQ(test, a->ncomp_at_broken, 2);
	KUNIT_EXPECT_EQ(test, a->status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(a->c)->tx_rtx_timer, 0);
	KUNIT_EXPECT_EQ(test, a->c->state, SUPERP_ST_BROKEN);
	KUNIT_EXPECT_EQ(test, t_rx(a, t_ack(0, 0, 5), 2 * MS), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, a->timer, 0);
}

/*
 * SUPERp-lite: with no PSN, the TAL header is all that shows a lost frame.
 * Requests go XID by XID, seqno by seqno, whatever the QPs (no per-QP
 * turns), and a request packet other than the one due breaks the target's
 * connection before anything of it runs: a later SEND must not take the
 * receive of a lost one.
 */
static void lite_gap_breaks_test(struct kunit *test)
{
	struct superp_xact x = { .opcode = SUPERP_OP_RMA_WRITE, .num_ops = 1 };
	struct tnode *a, *b;
	int i;

	t_lite_pair(test, 100000, true, &a, &b);
	for (i = 0; i < 3; i++) {
		x.npkts = 2;
		x.qp = i;
		x.cookie = a;
		KUNIT_EXPECT_EQ(test, superp_submit(a->c, &x, NULL, 0), 0);
	}
	KUNIT_ASSERT_EQ(test, a->qn, 6);
	for (i = 0; i < 6; i++) {
		KUNIT_EXPECT_EQ(test, a->q[i].xid, a->q[0].xid + i / 2);
		KUNIT_EXPECT_EQ(test, a->q[i].seqno, i % 2);
	}
	/* the second packet of the first transaction is lost */
	memmove(&a->q[1], &a->q[2], 4 * sizeof(a->q[0]));
	a->qn = 5;
	t_link(a, b, 0);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_LITE_GAP], 1);
	KUNIT_EXPECT_EQ(test, b->ev[SUPERP_EV_CONN_BROKEN], 1);
	KUNIT_EXPECT_EQ(test, b->c->state, SUPERP_ST_BROKEN);
	KUNIT_EXPECT_EQ(test, b->nreq, 0);		/* nothing ran */
	KUNIT_EXPECT_EQ(test, b->ndlv, 2);	/* the hello, the one before */
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->rx_drop_tal, 1);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->rx_drop_broken, 3);
	KUNIT_EXPECT_EQ(test, superp_conn_stats(b->c)->rx_pkts,
			superp_conn_stats(b->c)->rx_processed +
			superp_conn_stats(b->c)->rx_dropped);
	/* the initiator learns it by its timer */
	t_fire(a, MS);
	KUNIT_EXPECT_EQ(test, a->ev[SUPERP_EV_CONN_BROKEN], 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, 3);
	KUNIT_EXPECT_EQ(test, a->status, -ETIMEDOUT);
}

/*
 * A defect once found here, by the simulator's lite runs (superp_sim.c).
 * SUPERp-lite acknowledges transactions only: a reply's PSNs count as
 * delivered once the target sent them, so the target retires the
 * transaction and sends the new ACK XID by itself, and the initiator owes
 * it nothing when the reply arrives. It used to send a pure ACK at once
 * after each reply (a READ's, a Transaction Error's) carrying no new ACK
 * XID: a frame wasted per READ, against "no pure ACK for PSNs".
 */
static void lite_reply_no_pure_ack_test(struct kunit *test)
{
	const struct superp_stats *sa;
	struct tnode *a, *b;
	u64 acks;

	t_lite_pair(test, 100000, true, &a, &b);
	sa = superp_conn_stats(a->c);
	acks = sa->tx_pure_ack;
	b->reply_pkts = 2;
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_READ, 1, 0), 0);
	t_link(a, b, 0);
	b->reply_pkts = 1;
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_READ, 1, 0), 0);
	t_link(a, b, 0);
	b->reply_err = true;
	KUNIT_EXPECT_EQ(test, t_submit(a, SUPERP_OP_RMA_WRITE, 1, 0), 0);
	t_link(a, b, 0);
	KUNIT_EXPECT_EQ(test, a->nini, 2 + 1 + 1);
	KUNIT_EXPECT_EQ(test, a->ncomp, 3);
	KUNIT_EXPECT_EQ(test, a->status, -EREMOTEIO);
	KUNIT_EXPECT_EQ(test, sa->tx_pure_ack, acks);
	KUNIT_EXPECT_EQ(test, a->timer, 0);
}

static struct kunit_case superp_engine_cases[] = {
	KUNIT_CASE(params_validate_test),
	KUNIT_CASE(memory_per_connection_test),
	KUNIT_CASE(pkt_encode_decode_test),
	KUNIT_CASE(send_window_last_slot_test),
	KUNIT_CASE(ack_slides_window_test),
	KUNIT_CASE(receive_sack_slide_test),
	KUNIT_CASE(receive_dup_and_out_of_window_test),
	KUNIT_CASE(sack_fast_retransmit_test),
	KUNIT_CASE(tail_loss_probe_test),
	KUNIT_CASE(tail_probe_not_for_lone_psn_test),
	KUNIT_CASE(nack_test),
	KUNIT_CASE(rtx_timer_broken_test),
	KUNIT_CASE(delayed_and_stretch_ack_test),
	KUNIT_CASE(held_acks_test),
	KUNIT_CASE(rwin_test),
	KUNIT_CASE(psn_wrap_test),
	KUNIT_CASE(xid_wrap_read_reply_test),
	KUNIT_CASE(psn_reuse_test),
	KUNIT_CASE(ordered_hold_test),
	KUNIT_CASE(initiator_window_test),
	KUNIT_CASE(target_assembly_test),
	KUNIT_CASE(opcode_dispatch_test),
	KUNIT_CASE(target_dup_seqno_eom_test),
	KUNIT_CASE(target_xid_window_test),
	KUNIT_CASE(initiator_reply_checks_test),
	KUNIT_CASE(initiator_retired_bitmap_test),
	KUNIT_CASE(transaction_error_test),
	KUNIT_CASE(memory_barrier_test),
	KUNIT_CASE(noop_last_null_shutdown_test),
	KUNIT_CASE(device_busy_test),
	KUNIT_CASE(transaction_timeout_test),
	KUNIT_CASE(hard_abort_test),
	KUNIT_CASE(lost_ack_xid_probe_test),
	KUNIT_CASE(completion_ack_at_once_test),
	KUNIT_CASE(atomic_waits_for_response_test),
	KUNIT_CASE(atomic_executes_once_test),
	KUNIT_CASE(tal_drop_answered_test),
	KUNIT_CASE(xmit_error_test),
	KUNIT_CASE(transaction_error_code_test),
	KUNIT_CASE(nack_left_edge_and_rwin_test),
	KUNIT_CASE(reentry_refused_test),
	KUNIT_CASE(memory_budget_test),
	KUNIT_CASE(cancel_test),
	KUNIT_CASE(fence_test),
	KUNIT_CASE(submit_ready_test),
	KUNIT_CASE(fair_share_test),
	KUNIT_CASE(placed_and_target_done_test),
	KUNIT_CASE(placed_not_for_refused_reply_test),
	KUNIT_CASE(hello_test),
	KUNIT_CASE(peer_restart_test),
	KUNIT_CASE(peer_restart_budget_test),
	KUNIT_CASE(send_xid_after_window_reuse_test),
	KUNIT_CASE(lite_codec_test),
	KUNIT_CASE(lite_transactions_test),
	KUNIT_CASE(lite_receive_order_test),
	KUNIT_CASE(lite_loss_breaks_test),
	KUNIT_CASE(lite_gap_breaks_test),
	KUNIT_CASE(lite_reply_no_pure_ack_test),
	{}
};

static struct kunit_suite superp_engine_suite = {
	.name = "superp_engine",
	.test_cases = superp_engine_cases,
};

kunit_test_suite(superp_engine_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the SUPERp PDL/TAL engine procedures");
