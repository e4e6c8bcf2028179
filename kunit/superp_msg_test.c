// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a verbs message as transactions and packets (superp_msg.c). The
 * spec's rules that a message's packets carry it in order under one XID
 * each transaction, seqno from 0 (TAL "initiator sending a request"), that
 * blocks are at least 16 bytes, and this project's mapping of verbs onto
 * opcodes (Documentation/superp-rc.rst).
 */
#include <kunit/test.h>
#include <rdma/superp_wire.h>

#include "superp_msg.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static struct superp_msg msg(u8 kind, u64 len, u32 mtu, u16 max_pkts)
{
	return (struct superp_msg){
		.kind = kind, .len = len, .mtu = mtu, .max_pkts = max_pkts,
	};
}

/* Transaction @i of @m, and packet @s of it. */
static struct superp_msg_xact xact(const struct superp_msg *m, u32 i)
{
	struct superp_msg_xact x;

	superp_msg_xact(m, i, &x);
	return x;
}

static struct superp_msg_pkt pkt(const struct superp_msg *m, u32 i, u16 s)
{
	struct superp_msg_xact x = xact(m, i);
	struct superp_msg_pkt p;

	superp_msg_pkt(m, &x, s, &p);
	return p;
}

/* A SEND that is one full block in one packet is the spec's Send to QP. */
static void send_one_packet(struct kunit *test)
{
	struct superp_msg m = msg(SUPERP_MSG_SEND, 16, 1024, 32);

	KUNIT_ASSERT_EQ(test, superp_msg_nxacts(&m), 1U);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).pad, 0);
	m.len = 1024;
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP);
	KUNIT_EXPECT_TRUE(test, xact(&m, 0).last);

	/* Shorter than a block: the extension with a pad count. */
	m.len = 15;
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP_OFF);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).len, 15U);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).pad, 1);
	m.len = 0;
	KUNIT_EXPECT_EQ(test, superp_msg_nxacts(&m), 1U);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).npkts, 1);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).len, 0U);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).pad, SUPERP_MIN_BLOCK);

	/* Two packets: 12 cannot say where the second one goes. */
	m.len = 1025;
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP_OFF);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).npkts, 2);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 1).offset, 1024ULL);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 1).len, 1U);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 1).pad, SUPERP_MIN_BLOCK - 1);
}

/* Longer than a transaction: 26 until the last, which is 25 (17: imm). */
static void send_many_transactions(struct kunit *test)
{
	u32 chunk = 4 * 256;
	struct superp_msg m = msg(SUPERP_MSG_SEND, 2 * chunk + 1, 256, 4);
	struct superp_msg_xact x;

	KUNIT_ASSERT_EQ(test, superp_msg_nxacts(&m), 3U);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP_MORE);
	KUNIT_EXPECT_EQ(test, xact(&m, 1).opcode, SUPERP_OP_SEND_QP_MORE);
	KUNIT_EXPECT_FALSE(test, xact(&m, 1).last);
	x = xact(&m, 2);
	KUNIT_EXPECT_EQ(test, x.opcode, SUPERP_OP_SEND_QP_OFF);
	KUNIT_EXPECT_TRUE(test, x.last);
	KUNIT_EXPECT_EQ(test, x.offset, 2ULL * chunk);
	KUNIT_EXPECT_EQ(test, x.npkts, 1);
	KUNIT_EXPECT_EQ(test, x.len, 1U);

	m.kind = SUPERP_MSG_SEND_IMM;
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP_MORE);
	KUNIT_EXPECT_EQ(test, xact(&m, 2).opcode, SUPERP_OP_SEND_QP_IMM);
	/* With an immediate, even a full one-packet message is 17. */
	m.len = 64;
	KUNIT_EXPECT_EQ(test, superp_msg_nxacts(&m), 1U);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP_IMM);
}

/*
 * SEND_WITH_INV: 28 carries the key in the message's last transaction
 * (the one whose end invalidates it), 26 before it; a full one-packet
 * message too is 28, never 12, and a short one gets 28's pad count.
 */
static void send_inv_last_transaction_carries_the_key(struct kunit *test)
{
	u32 chunk = 4 * 256;
	struct superp_msg m = msg(SUPERP_MSG_SEND_INV, 2 * chunk + 1, 256, 4);

	KUNIT_ASSERT_EQ(test, superp_msg_check(&m), 0);
	KUNIT_ASSERT_EQ(test, superp_msg_nxacts(&m), 3U);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP_MORE);
	KUNIT_EXPECT_EQ(test, xact(&m, 1).opcode, SUPERP_OP_SEND_QP_MORE);
	KUNIT_EXPECT_EQ(test, xact(&m, 2).opcode, SUPERP_OP_SEND_QP_INV);
	KUNIT_EXPECT_TRUE(test, xact(&m, 2).last);
	m.len = 64;
	KUNIT_EXPECT_EQ(test, superp_msg_nxacts(&m), 1U);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP_INV);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).pad, 0);
	m.len = 5;
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP_INV);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).pad, SUPERP_MIN_BLOCK - 5);
	m.len = 0;
	KUNIT_EXPECT_EQ(test, superp_msg_nxacts(&m), 1U);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).pad, SUPERP_MIN_BLOCK);
}

/* WRITE_IMM: the data, then a Write Complete; only that for 0 bytes. */
static void write_with_immediate(struct kunit *test)
{
	struct superp_msg m = msg(SUPERP_MSG_WRITE_IMM, 0, 4096, 32);
	struct superp_msg_xact x;

	KUNIT_ASSERT_EQ(test, superp_msg_nxacts(&m), 1U);
	x = xact(&m, 0);
	KUNIT_EXPECT_EQ(test, x.opcode, SUPERP_OP_WRITE_COMPLETE);
	KUNIT_EXPECT_TRUE(test, x.last);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).len, 0U);

	m.len = 3 * 4096;
	KUNIT_ASSERT_EQ(test, superp_msg_nxacts(&m), 2U);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).npkts, 3);
	KUNIT_EXPECT_FALSE(test, xact(&m, 0).last);
	x = xact(&m, 1);
	KUNIT_EXPECT_EQ(test, x.opcode, SUPERP_OP_WRITE_COMPLETE);
	KUNIT_EXPECT_EQ(test, x.offset, 3ULL * 4096);
	KUNIT_EXPECT_TRUE(test, x.last);

	/* A plain zero-length write is one 23 with an empty block. */
	m.kind = SUPERP_MSG_WRITE;
	m.len = 0;
	KUNIT_ASSERT_EQ(test, superp_msg_nxacts(&m), 1U);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).pad, SUPERP_MIN_BLOCK);
}

/* READ: one request packet per transaction, answered by up to max_pkts. */
static void read_chunks_and_responses(struct kunit *test)
{
	struct superp_msg m = msg(SUPERP_MSG_READ, 5, 1024, 8);
	struct superp_msg_pkt p;

	KUNIT_ASSERT_EQ(test, superp_msg_nxacts(&m), 1U);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_RDMA_READ);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).npkts, 1);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).len, 5U);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).len, 0U);
	KUNIT_EXPECT_EQ(test, superp_msg_read_resp_pkts(5, 1024), 1);
	superp_msg_read_resp_pkt(5, 1024, 0, &p);
	KUNIT_EXPECT_EQ(test, p.len, 5U);
	KUNIT_EXPECT_EQ(test, p.pad, SUPERP_MIN_BLOCK - 5);

	m.len = 3ULL * 8 * 1024 + 2000;
	KUNIT_ASSERT_EQ(test, superp_msg_nxacts(&m), 4U);
	KUNIT_EXPECT_EQ(test, xact(&m, 1).offset, 8ULL * 1024);
	KUNIT_EXPECT_EQ(test, xact(&m, 1).len, 8U * 1024);
	KUNIT_EXPECT_EQ(test, xact(&m, 3).len, 2000U);
	KUNIT_EXPECT_TRUE(test, xact(&m, 3).last);
	/* A full chunk is answered by exactly max_pkts packets. */
	KUNIT_EXPECT_EQ(test, superp_msg_read_resp_pkts(8 * 1024, 1024), 8);
	superp_msg_read_resp_pkt(2000, 1024, 1, &p);
	KUNIT_EXPECT_EQ(test, p.offset, 1024ULL);
	KUNIT_EXPECT_EQ(test, p.len, 976U);
	KUNIT_EXPECT_EQ(test, p.pad, 0);
	/* Nothing to read still gets one (empty) response packet. */
	KUNIT_EXPECT_EQ(test, superp_msg_read_resp_pkts(0, 1024), 1);
	/* a hostile 2 GiB read counts right, not modulo 65536 */
	KUNIT_EXPECT_EQ(test, superp_msg_read_resp_pkts(0x80000000U, 256),
			0x800000U);
}

/* Atomics: one transaction of one request packet, no data, 8 bytes back. */
static void atomic_one_request(struct kunit *test)
{
	struct superp_msg m = msg(SUPERP_MSG_CAS, 8, 1024, 8);
	struct superp_msg_xact x;
	struct superp_msg_pkt p;

	KUNIT_ASSERT_EQ(test, superp_msg_check(&m), 0);
	KUNIT_ASSERT_EQ(test, superp_msg_nxacts(&m), 1U);
	x = xact(&m, 0);
	KUNIT_EXPECT_EQ(test, x.opcode, SUPERP_OP_ATOMIC_CAS);
	KUNIT_EXPECT_EQ(test, x.npkts, 1);
	KUNIT_EXPECT_EQ(test, x.offset, 0ULL);
	KUNIT_EXPECT_EQ(test, x.len, 8U);
	KUNIT_EXPECT_TRUE(test, x.last);
	p = pkt(&m, 0, 0);
	KUNIT_EXPECT_EQ(test, p.len, 0U);
	KUNIT_EXPECT_EQ(test, p.pad, 0);

	m.kind = SUPERP_MSG_FADD;
	KUNIT_ASSERT_EQ(test, superp_msg_check(&m), 0);
	KUNIT_ASSERT_EQ(test, superp_msg_nxacts(&m), 1U);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_ATOMIC_FADD);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).npkts, 1);

	/* The original value is 8 bytes: any other local length is refused. */
	m.len = 4;
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), -EINVAL);
	m.len = 16;
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), -EINVAL);
	m.kind = SUPERP_MSG_CAS;
	m.len = 0;
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), -EINVAL);
}

/* Transactions tile @m in order, packets tile their transaction. */
static void check_tiling(struct kunit *test, const struct superp_msg *m)
{
	u32 i, n = superp_msg_nxacts(m);
	struct superp_msg_xact x;
	struct superp_msg_pkt p;
	u64 next = 0;
	u16 s;

	for (i = 0; i < n; i++) {
		superp_msg_xact(m, i, &x);
		KUNIT_ASSERT_EQ(test, x.offset, next);
		KUNIT_EXPECT_EQ(test, x.last, i + 1 == n);
		KUNIT_ASSERT_GE(test, x.npkts, 1);
		KUNIT_ASSERT_LE(test, x.npkts, m->max_pkts);
		for (s = 0; s < x.npkts; s++) {
			superp_msg_pkt(m, &x, s, &p);
			KUNIT_ASSERT_EQ(test, p.offset, next);
			KUNIT_ASSERT_LE(test, p.len, m->mtu);
			KUNIT_ASSERT_GE(test, p.len + p.pad,
					(u32)SUPERP_MIN_BLOCK);
			next += p.len;
		}
		KUNIT_ASSERT_EQ(test, next - x.offset, (u64)x.len);
	}
	KUNIT_ASSERT_EQ_MSG(test, next, m->len,
			    "kind %u len %llu mtu %u max_pkts %u",
			    m->kind, m->len, m->mtu, m->max_pkts);
}

/*
 * Every shape of SEND, SEND_IMM and WRITE: transactions tile the message in
 * order, packets tile their transaction, each packet at most one MTU,
 * blocks never under 16 bytes, only the last transaction marked last,
 * transactions within max_pkts.
 */
static void packets_tile_the_message(struct kunit *test)
{
	static const u64 lens[] = { 0, 1, 15, 16, 17, 255, 256, 257, 4095,
				    4096, 4097, 65535, 131072, 131073,
				    1000000 };
	static const u32 mtus[] = { 256, 1024, 1280, 4096, 8704 };
	static const u16 maxp[] = { 1, 3, 32 };
	const unsigned int nl = ARRAY_SIZE(lens), nm = ARRAY_SIZE(mtus);
	const unsigned int np = ARRAY_SIZE(maxp);
	struct superp_msg m;
	unsigned int k;

	for (k = 0; k < 3 * nl * nm * np; k++) {
		m = msg(SUPERP_MSG_SEND + k / (nl * nm * np),
			lens[k / (nm * np) % nl], mtus[k / np % nm],
			maxp[k % np]);
		KUNIT_ASSERT_EQ(test, superp_msg_check(&m), 0);
		check_tiling(test, &m);
	}
}

/* The largest message plans without overflow; bad shapes are refused. */
static void limits(struct kunit *test)
{
	struct superp_msg m = msg(SUPERP_MSG_WRITE, SUPERP_MSG_MAX, 256, 1);
	struct superp_msg_xact x;
	u32 n;

	KUNIT_ASSERT_EQ(test, superp_msg_check(&m), 0);
	n = superp_msg_nxacts(&m);
	KUNIT_EXPECT_EQ(test, n, (u32)(SUPERP_MSG_MAX / 256));
	x = xact(&m, n - 1);
	KUNIT_EXPECT_EQ(test, x.offset, SUPERP_MSG_MAX - 256);
	KUNIT_EXPECT_EQ(test, pkt(&m, n - 1, 0).len, 256U);

	m.len = SUPERP_MSG_MAX + 1;
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), -EMSGSIZE);
	m.len = 1;
	m.mtu = 300;	/* not a multiple of SUPERP_SEG_ALIGN */
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), -EINVAL);
	m.mtu = 128;
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), -EINVAL);
	m.mtu = SUPERP_SEG_MAX + SUPERP_SEG_ALIGN;
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), -EINVAL);
	m.mtu = SUPERP_SEG_MAX;
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), 0);
	m.mtu = 8704;	/* a 9000-byte link's segment */
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), 0);
	m.mtu = 4096;
	m.max_pkts = 0;
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), -EINVAL);
	m.max_pkts = 4097;
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), -EINVAL);
	m.max_pkts = 1;
	m.kind = SUPERP_MSG_SEND_INV + 1;	/* the first unknown kind */
	KUNIT_EXPECT_EQ(test, superp_msg_check(&m), -EINVAL);
}

/*
 * Small packets (spec, "Small packets"): over SUPERp-lite on SUNH a packet
 * with data reaches the Ethernet minimum from the TAL header on, its block
 * grown by the pad count; the spec's 12 only when the payload fills it.
 */
static void lite_small_packets(struct kunit *test)
{
	struct superp_msg m = msg(SUPERP_MSG_SEND, 16, 1024, 32);
	int h;

	m.min_len = SUPERP_LITE_MIN_LEN;
	h = SUPERP_TAL_HLEN + superp_op_hlen(SUPERP_OP_SEND_QP);
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP_OFF);
	m.len = SUPERP_LITE_MIN_LEN - h;
	KUNIT_EXPECT_EQ(test, xact(&m, 0).opcode, SUPERP_OP_SEND_QP);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).pad, 0);
	for (m.len = 0; m.len < 40; m.len++) {
		struct superp_msg_xact x = xact(&m, 0);
		struct superp_msg_pkt p = pkt(&m, 0, 0);

		h = SUPERP_TAL_HLEN + superp_op_hlen(x.opcode);
		KUNIT_EXPECT_GE(test, h + p.len + p.pad, SUPERP_LITE_MIN_LEN);
		KUNIT_EXPECT_GE(test, p.len + p.pad, SUPERP_MIN_BLOCK);
		KUNIT_EXPECT_EQ(test, p.len, m.len);
	}
	m.kind = SUPERP_MSG_WRITE;
	m.len = 1;
	h = SUPERP_TAL_HLEN + superp_op_hlen(SUPERP_OP_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).pad,
			max(SUPERP_LITE_MIN_LEN - h, SUPERP_MIN_BLOCK) - 1);
	/* without the minimum, nothing changes */
	m.min_len = 0;
	KUNIT_EXPECT_EQ(test, pkt(&m, 0, 0).pad, SUPERP_MIN_BLOCK - 1);
}

static struct kunit_case superp_msg_cases[] = {
	KUNIT_CASE(send_one_packet),
	KUNIT_CASE(send_many_transactions),
	KUNIT_CASE(send_inv_last_transaction_carries_the_key),
	KUNIT_CASE(write_with_immediate),
	KUNIT_CASE(read_chunks_and_responses),
	KUNIT_CASE(atomic_one_request),
	KUNIT_CASE(packets_tile_the_message),
	KUNIT_CASE(limits),
	KUNIT_CASE(lite_small_packets),
	{}
};

static struct kunit_suite superp_msg_suite = {
	.name = "superp_msg",
	.test_cases = superp_msg_cases,
};

kunit_test_suite(superp_msg_suite);

MODULE_DESCRIPTION("KUnit: ib_superp messages as transactions and packets");
MODULE_LICENSE("GPL");
