// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the SUNH and SUPERp wire headers and their helpers
 * (include/uapi/linux/sunh.h, include/uapi/rdma/superp_wire.h): round trips,
 * boundary values and the byte order of every multi-byte field, checked on
 * the raw bytes. The layout is Documentation/wire-format.rst.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/sunh.h>
#include <rdma/superp_wire.h>

static void expect_bytes(struct kunit *test, const void *got, const u8 *want,
			 size_t len)
{
	const u8 *p = got;
	size_t i;

	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, p[i], want[i], "byte %zu", i);
}

static void sunh_hop_limit_flow_label_round_trip(struct kunit *test)
{
	static const unsigned int hops[] = { 0, 1, 14, SUNH_HOP_LIMIT_MAX };
	static const unsigned int flows[] = { 0, 1, 2048, SUNH_FLOW_LABEL_MASK };
	struct sunhhdr sh = {};
	int i, j;

	for (i = 0; i < ARRAY_SIZE(hops); i++) {
		for (j = 0; j < ARRAY_SIZE(flows); j++) {
			sh.hl_flow = sunh_hl_flow(hops[i], flows[j]);
			KUNIT_EXPECT_EQ(test, sunh_hop_limit(&sh), hops[i]);
			KUNIT_EXPECT_EQ(test, sunh_flow_label(&sh), flows[j]);
		}
	}
}

static void sunh_hop_limit_and_flow_label_are_big_endian(struct kunit *test)
{
	static const u8 max[] = { 0xff, 0xff };
	static const u8 one_two[] = { 0x10, 0x02 };
	static const u8 zero_4095[] = { 0x0f, 0xff };
	struct sunhhdr sh = {};

	sh.hl_flow = sunh_hl_flow(15, 4095);
	expect_bytes(test, &sh.hl_flow, max, 2);
	sh.hl_flow = sunh_hl_flow(1, 2);
	expect_bytes(test, &sh.hl_flow, one_two, 2);
	sh.hl_flow = sunh_hl_flow(0, 4095);
	expect_bytes(test, &sh.hl_flow, zero_4095, 2);
	KUNIT_EXPECT_EQ(test, sunh_hop_limit(&sh), 0);
}

static void sunh_out_of_range_values_do_not_spill(struct kunit *test)
{
	struct sunhhdr sh = {};

	sh.hl_flow = sunh_hl_flow(16, 4096);
	KUNIT_EXPECT_EQ(test, sunh_hop_limit(&sh), 0);
	KUNIT_EXPECT_EQ(test, sunh_flow_label(&sh), 0);
	sh.hl_flow = sunh_hl_flow(3, 0x1fff);
	KUNIT_EXPECT_EQ(test, sunh_hop_limit(&sh), 3);
	KUNIT_EXPECT_EQ(test, sunh_flow_label(&sh), 0xfff);
}

static void sunh_set_hop_limit_keeps_flow_label(struct kunit *test)
{
	struct sunhhdr sh = {};

	sh.hl_flow = sunh_hl_flow(15, 1234);
	sunh_set_hop_limit(&sh, 14);
	KUNIT_EXPECT_EQ(test, sunh_hop_limit(&sh), 14);
	KUNIT_EXPECT_EQ(test, sunh_flow_label(&sh), 1234);
}

static void sunh_header_raw_bytes(struct kunit *test)
{
	static const u8 want[] = { 0xb9, 253, 0xf0, 0x07, 0x0f, 0xff, 0xff, 0xfe };
	struct sunhhdr sh;

	KUNIT_ASSERT_EQ(test, sizeof(sh), SUNH_HLEN);
	sunh_hdr_init(&sh, 0xb9, SUNH_NEXTHDR_SUPERP, 15, 7, 0x0fff, 0xfffe);
	expect_bytes(test, &sh, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, sunh_dscp(&sh), 46);
	KUNIT_EXPECT_EQ(test, sunh_ecn(&sh), 1);
}

static void pdl_fields_are_little_endian(struct kunit *test)
{
	static const u8 want[] = {
		0x02, 0x01, 0x1f, 0x00, 0x04, 0x03, 0x02, 0x01,
		0xff, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00, 0x80,
	};
	struct superp_pdl_hdr pdl = {
		.dcid = cpu_to_le16(0x0102),
		.rwin = cpu_to_le16(31),
		.psn = cpu_to_le32(0x01020304),
		.ack_psn = cpu_to_le32(SUPERP_ACK_PSN_NONE),
		.sack = cpu_to_le32(0x80000001),
	};

	KUNIT_ASSERT_EQ(test, sizeof(pdl), SUPERP_PDL_HLEN);
	expect_bytes(test, &pdl, want, sizeof(want));
}

static void pdl_psn_round_trips_boundaries(struct kunit *test)
{
	static const u32 psns[] = { 0, 1, 0x7fffffff, 0x80000000, 0xffffffff };
	struct superp_pdl_hdr pdl;
	int i;

	for (i = 0; i < ARRAY_SIZE(psns); i++) {
		pdl.psn = cpu_to_le32(psns[i]);
		pdl.ack_psn = cpu_to_le32(psns[i]);
		KUNIT_EXPECT_EQ(test, le32_to_cpu(pdl.psn), psns[i]);
		KUNIT_EXPECT_EQ(test, le32_to_cpu(pdl.ack_psn), psns[i]);
	}
}

static void tal_eom_num_ops_round_trip(struct kunit *test)
{
	struct superp_tal_hdr tal = {};
	unsigned int n;
	int eom;

	for (eom = 0; eom <= 1; eom++) {
		for (n = 0; n <= SUPERP_TAL_MAX_OPS; n++) {
			tal.eom_num_ops = superp_tal_eom_num_ops(eom, n);
			KUNIT_EXPECT_EQ(test, superp_tal_eom(&tal), eom);
			KUNIT_EXPECT_EQ(test, superp_tal_num_ops(&tal), n);
			KUNIT_EXPECT_EQ(test, tal.eom_num_ops & SUPERP_TAL_RSVD_MASK, 0);
		}
	}
	KUNIT_EXPECT_EQ(test, superp_tal_eom_num_ops(1, 15), 0x8f);
	KUNIT_EXPECT_EQ(test, superp_tal_eom_num_ops(0, 16), 0);
	tal.eom_num_ops = 0x7f;		/* reserved bits do not leak */
	KUNIT_EXPECT_EQ(test, superp_tal_num_ops(&tal), 15);
	KUNIT_EXPECT_EQ(test, superp_tal_eom(&tal), 0);
}

static void tal_fields_are_little_endian(struct kunit *test)
{
	/* spec figure (page 16): seqno in the first word, XID in the second */
	static const u8 want[] = { 0x81, SUPERP_OP_RMA_WRITE, 0x78, 0x56,
				   0x34, 0x12, 0xff, 0xff };
	struct superp_tal_hdr tal = {
		.eom_num_ops = superp_tal_eom_num_ops(1, 1),
		.opcode = SUPERP_OP_RMA_WRITE,
		.xid = cpu_to_le16(0x1234),
		.seqno = cpu_to_le16(0x5678),
		.ack_xid = cpu_to_le16(SUPERP_ACK_XID_NONE),
	};

	KUNIT_ASSERT_EQ(test, sizeof(tal), SUPERP_TAL_HLEN);
	expect_bytes(test, &tal, want, sizeof(want));
}

/*
 * Spec "Send to QP" figure (page 34): Reserved in bits 31-24, the QP number
 * in bits 23-0 of a little-endian 32-bit word, so bytes 0-2 are the QPN and
 * byte 3 the reserved byte (an extension's pad count or flags).
 */
static void qpn_word_is_24_bit_qpn_then_top_byte(struct kunit *test)
{
	static const u8 want[] = { 0x56, 0x34, 0x12, 0x00 };
	static const u8 want_top[] = { 0xef, 0xcd, 0xab, 0xff };
	struct superp_send_qp_op sq = {
		.qpn_rsvd = superp_qpn_word(0x123456, 0),
	};
	__le32 w = superp_qpn_word(0xabcdef, 0xff);

	expect_bytes(test, &sq, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, superp_qpn(sq.qpn_rsvd), 0x123456);
	expect_bytes(test, &w, want_top, sizeof(want_top));
	KUNIT_EXPECT_EQ(test, superp_qpn(w), 0xabcdef);
	KUNIT_EXPECT_EQ(test, superp_qpn_word_top(w), 0xff);
	KUNIT_EXPECT_EQ(test, superp_op_pad(SUPERP_OP_RDMA_WRITE, &w), 0xff);
	/* the spec's opcodes have no pad count: the whole block is payload */
	KUNIT_EXPECT_EQ(test, superp_op_pad(SUPERP_OP_SEND_QP, &w), 0);
	w = superp_qpn_word(0x1000001, 0);	/* QPN above 24 bits is cut */
	KUNIT_EXPECT_EQ(test, superp_qpn(w), 1);
	KUNIT_EXPECT_EQ(test, superp_qpn_word_top(w), 0);
}

static void rdma_write_op_raw_bytes(struct kunit *test)
{
	static const u8 want[] = {
		0x11, 0x00, 0x00, 0x0f, 0x34, 0x12, 0x00, 0x00,
		0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,
	};
	struct superp_rdma_write_op op = {
		.qpn_pad = superp_qpn_word(17, 15),
		.rkey = cpu_to_le32(0x1234),
		.addr = cpu_to_le64(0x0123456789abcdefULL),
	};

	expect_bytes(test, &op, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, superp_op_pad(SUPERP_OP_RDMA_WRITE, &op), 15);
	KUNIT_EXPECT_EQ(test, superp_get_le64(&op.addr), 0x0123456789abcdefULL);
}

static void immediate_data_is_carried_unchanged(struct kunit *test)
{
	static const u8 want[] = { 0x01, 0x02, 0x03, 0x04 };
	struct superp_send_qp_imm_op op = { .imm = cpu_to_be32(0x01020304) };
	struct superp_rd_send_op rd = {
		.sqpn_flags = superp_qpn_word(200, SUPERP_RD_FLAG_IMM),
		.imm = cpu_to_be32(0x01020304),
	};

	expect_bytes(test, &op.imm, want, sizeof(want));
	expect_bytes(test, &rd.imm, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, superp_qpn(rd.sqpn_flags), 200);
	KUNIT_EXPECT_EQ(test, superp_qpn_word_top(rd.sqpn_flags), SUPERP_RD_FLAG_IMM);
}

/*
 * Send to QP with Invalidate (28): the QP word (QPN, pad count in byte
 * 3), the offset and the key to invalidate, each little endian.
 */
static void send_qp_inv_op_raw_bytes(struct kunit *test)
{
	static const u8 want[] = {
		0x56, 0x34, 0x12, 0x0b,		/* QPN 0x123456, pad 11 */
		0x00, 0x10, 0x00, 0x00,		/* offset 0x1000 */
		0x07, 0xa5, 0x03, 0xc2,		/* key 0xc203a507 */
	};
	struct superp_send_qp_inv_op op = {
		.qpn_pad = superp_qpn_word(0x123456, 11),
		.offset = cpu_to_le32(0x1000),
		.inv_rkey = cpu_to_le32(0xc203a507),
	};

	KUNIT_ASSERT_EQ(test, sizeof(op), sizeof(want));
	expect_bytes(test, &op, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, superp_op_pad(SUPERP_OP_SEND_QP_INV, &op), 11);
	KUNIT_EXPECT_EQ(test, superp_qpn(op.qpn_pad), 0x123456);
}

static void atomic_operands_are_little_endian(struct kunit *test)
{
	static const u8 swap[] = { 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };
	struct superp_atomic_cas_op cas = {
		.compare = cpu_to_le64(0),
		.swap = cpu_to_le64(0x0102030405060708ULL),
	};
	struct superp_atomic_resp_op resp = { .orig = cpu_to_le64(~0ULL) };

	expect_bytes(test, &cas.swap, swap, sizeof(swap));
	KUNIT_EXPECT_EQ(test, superp_get_le64(&resp.orig), ~0ULL);
}

static void le64_helpers_work_unaligned(struct kunit *test)
{
	static const u8 want[] = { 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11 };
	u8 buf[16] = {};
	__le64 *p = (__le64 *)(buf + 4);	/* as after UDP/IPv4 */

	superp_put_le64(p, 0x1122334455667788ULL);
	expect_bytes(test, buf + 4, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, superp_get_le64(p), 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, buf[3], 0);
	KUNIT_EXPECT_EQ(test, buf[12], 0);
}

/* Spec "Operations" (pages 32-34) for 0-12; Documentation for 16 up. */
static void op_header_sizes_match_structs(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_NOOP), 0);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_LAST_NULL), 0);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_PURE_ACK), 0);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_TRANS_ERROR), 8);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_RMA_READ), 12);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_RMA_WRITE), 8);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_READ_RESP), 8);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_SEND), 8);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_SEND_QP), 4);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_SEND_QP_IMM), 12);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_WRITE_COMPLETE), 16);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_ATOMIC_CAS), 32);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_ATOMIC_FADD), 24);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_ATOMIC_RESP), 16);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_RD_SEND), 16);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_RDMA_WRITE), 16);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_RDMA_READ), 24);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_SEND_QP_OFF), 8);
	/* 26 is 25's layout; 27 is a QP word alone, without data. */
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_SEND_QP_MORE), 8);
	KUNIT_EXPECT_EQ(test, superp_op_has_data(SUPERP_OP_SEND_QP_MORE), 1);
	KUNIT_EXPECT_EQ(test, superp_op_has_pad(SUPERP_OP_SEND_QP_MORE), 1);
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_QP_RESUME), 4);
	KUNIT_EXPECT_EQ(test, superp_op_has_data(SUPERP_OP_QP_RESUME), 0);
	/* 28: 25's two words and the key, data with a pad count as 17. */
	KUNIT_EXPECT_EQ(test, superp_op_hlen(SUPERP_OP_SEND_QP_INV), 12);
	KUNIT_EXPECT_EQ(test, superp_op_has_data(SUPERP_OP_SEND_QP_INV), 1);
	KUNIT_EXPECT_EQ(test, superp_op_has_pad(SUPERP_OP_SEND_QP_INV), 1);
}

static void unknown_opcodes_have_no_layout(struct kunit *test)
{
	static const unsigned int unknown[] = { 3, 7, 13, 15, 29, 99, 255, 256 };
	int i;

	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		KUNIT_EXPECT_EQ(test, superp_op_hlen(unknown[i]), -1);
		KUNIT_EXPECT_EQ(test, superp_op_has_data(unknown[i]), 0);
		KUNIT_EXPECT_EQ(test, superp_op_has_pad(unknown[i]), 0);
	}
}

/* One data-bearing op with SUNH: all headers in one 64-byte cache line. */
static void data_op_headers_fit_a_cache_line(struct kunit *test)
{
	unsigned int op;

	for (op = 0; op < 256; op++) {
		if (!superp_op_has_data(op))
			continue;
		KUNIT_EXPECT_LE_MSG(test, superp_op_hlen(op), SUPERP_MIN_BLOCK,
				    "opcode %u", op);
		KUNIT_EXPECT_LE_MSG(test, SUPERP_ETH_ALIGN_PAD + SUPERP_ETH_HLEN +
				    SUNH_HLEN + SUPERP_PDL_HLEN + SUPERP_TAL_HLEN +
				    superp_op_hlen(op), 64, "opcode %u", op);
	}
	/* a pad count exists only in the extensions, and only with data */
	for (op = 0; op < 256; op++)
		if (superp_op_has_pad(op))
			KUNIT_EXPECT_TRUE_MSG(test, superp_op_has_data(op) &&
					      op > SUPERP_OP_PURE_ACK,
					      "opcode %u", op);
}

static void block_size_is_data_region_over_num_ops(struct kunit *test)
{
	unsigned int hl = sizeof(struct superp_write_op);
	unsigned int off = superp_data_offset(hl, 1);

	KUNIT_EXPECT_EQ(test, off, SUPERP_TAL_HLEN + hl);
	KUNIT_EXPECT_EQ(test, superp_block_size(off + 16, hl, 1), 16);
	KUNIT_EXPECT_EQ(test, superp_block_size(off + 4096, hl, 1), 4096);
	off = superp_data_offset(hl, 15);
	KUNIT_EXPECT_EQ(test, superp_block_size(off + 15 * 64, hl, 15), 64);
	KUNIT_EXPECT_EQ(test, superp_block_size(off + 15 * 16, hl, 15), 16);
}

static void block_size_rejects_malformed_packets(struct kunit *test)
{
	unsigned int hl = sizeof(struct superp_send_qp_op);
	unsigned int off2 = superp_data_offset(hl, 2);

	KUNIT_EXPECT_EQ(test, superp_block_size(off2 + 2 * 15, hl, 2), -1);
	KUNIT_EXPECT_EQ(test, superp_block_size(off2 + 33, hl, 2), -1);
	KUNIT_EXPECT_EQ(test, superp_block_size(off2 - 1, hl, 2), -1);
	KUNIT_EXPECT_EQ(test, superp_block_size(off2 + 32, hl, 0), -1);
	KUNIT_EXPECT_EQ(test, superp_block_size(1000, hl, 16), -1);
	KUNIT_EXPECT_EQ(test, superp_block_size(off2 + 32, hl, 2), 16);
}

static void payload_length_from_pad_count(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, superp_payload_len(16, 15), 1);
	KUNIT_EXPECT_EQ(test, superp_payload_len(16, 0), 16);
	KUNIT_EXPECT_EQ(test, superp_payload_len(16, 16), 0);
	KUNIT_EXPECT_EQ(test, superp_payload_len(16, 17), -1);
	KUNIT_EXPECT_EQ(test, superp_payload_len(4096, SUPERP_MAX_PAD),
			4096 - SUPERP_MAX_PAD);
}

static void sack_bits_name_psns_after_ack_psn(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, superp_sack_is_nack(0xa));
	KUNIT_EXPECT_EQ(test, superp_sack_bit_psn(41, 0xa, 1), 43);
	KUNIT_EXPECT_EQ(test, superp_sack_bit_psn(41, 0xa, 3), 45);
	KUNIT_EXPECT_EQ(test, superp_sack_bit_psn(41, 0x80000000, 31), 73);
	/* wrap: nothing received yet, then the first PSNs */
	KUNIT_EXPECT_EQ(test, superp_sack_bit_psn(SUPERP_ACK_PSN_NONE, 2, 1), 1);
	KUNIT_EXPECT_EQ(test, superp_sack_bit_psn(0xfffffffe, 2, 1), 0);
}

static void nack_bits_name_psns_from_ack_psn(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, superp_sack_is_nack(0x5));
	KUNIT_EXPECT_EQ(test, superp_sack_bit_psn(41, 0x5, 0), 41);
	KUNIT_EXPECT_EQ(test, superp_sack_bit_psn(41, 0x5, 2), 43);
	KUNIT_EXPECT_EQ(test, superp_sack_bit_psn(0xffffffff, 0x3, 1), 0);
}

static struct kunit_case superp_wire_cases[] = {
	KUNIT_CASE(sunh_hop_limit_flow_label_round_trip),
	KUNIT_CASE(sunh_hop_limit_and_flow_label_are_big_endian),
	KUNIT_CASE(sunh_out_of_range_values_do_not_spill),
	KUNIT_CASE(sunh_set_hop_limit_keeps_flow_label),
	KUNIT_CASE(sunh_header_raw_bytes),
	KUNIT_CASE(pdl_fields_are_little_endian),
	KUNIT_CASE(pdl_psn_round_trips_boundaries),
	KUNIT_CASE(tal_eom_num_ops_round_trip),
	KUNIT_CASE(tal_fields_are_little_endian),
	KUNIT_CASE(qpn_word_is_24_bit_qpn_then_top_byte),
	KUNIT_CASE(rdma_write_op_raw_bytes),
	KUNIT_CASE(immediate_data_is_carried_unchanged),
	KUNIT_CASE(send_qp_inv_op_raw_bytes),
	KUNIT_CASE(atomic_operands_are_little_endian),
	KUNIT_CASE(le64_helpers_work_unaligned),
	KUNIT_CASE(op_header_sizes_match_structs),
	KUNIT_CASE(unknown_opcodes_have_no_layout),
	KUNIT_CASE(data_op_headers_fit_a_cache_line),
	KUNIT_CASE(block_size_is_data_region_over_num_ops),
	KUNIT_CASE(block_size_rejects_malformed_packets),
	KUNIT_CASE(payload_length_from_pad_count),
	KUNIT_CASE(sack_bits_name_psns_after_ack_psn),
	KUNIT_CASE(nack_bits_name_psns_from_ack_psn),
	{}
};

static struct kunit_suite superp_wire_suite = {
	.name = "superp_wire",
	.test_cases = superp_wire_cases,
};

kunit_test_suite(superp_wire_suite);

MODULE_DESCRIPTION("KUnit tests for the SUNH and SUPERp wire headers");
MODULE_LICENSE("GPL");
