// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: conformance of ib_superp's header codec to the SUPERp v0.4
 * figures. The packets of superp_spec_packets.h were written byte by byte
 * from the specification's diagrams, not from our headers: the kernel
 * decodes each one field for field (superp_pkt_parse(), superp_op_decode())
 * and encodes the decoded fields back to the same bytes.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>
#include "superp_engine.h"
#include "superp_op.h"
#include "superp_spec_packets.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static void spec_packet_desc(const struct spec_packet *sp, char *desc)
{
	strscpy(desc, sp->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(spec_packet, spec_packets, spec_packet_desc);

static void expect_bytes(struct kunit *test, const void *got, const u8 *want,
			 size_t len)
{
	const u8 *p = got;
	size_t i;

	for (i = 0; i < len; i++)
		KUNIT_EXPECT_EQ_MSG(test, p[i], want[i], "byte %zu", i);
}

/* The member of struct superp_op that a figure's field name denotes. */
static bool op_field(const struct superp_op *op, const char *name, u64 *v)
{
	if (!strcmp(name, "addr"))
		*v = op->addr;
	else if (!strcmp(name, "length"))
		*v = op->length;
	else if (!strcmp(name, "offset"))
		*v = op->offset;
	else if (!strcmp(name, "key"))
		*v = op->key;
	else if (!strcmp(name, "qpn"))
		*v = op->qpn;
	else if (!strcmp(name, "seqno"))
		*v = op->seqno;
	else if (!strcmp(name, "opnum"))
		*v = op->opnum;
	else if (!strcmp(name, "major"))
		*v = op->major;
	else if (!strcmp(name, "minor"))
		*v = op->minor;
	else
		return false;
	return true;
}

/* Spec "Protocol format": PDL and TAL header fields of page 16. */
static void spec_fixed_headers_decode(struct kunit *test)
{
	const struct spec_packet *sp = test->param_value;
	struct superp_pdl_hdr pdl;
	struct superp_tal_hdr tal;
	struct superp_pkt p;

	KUNIT_ASSERT_EQ(test, superp_pkt_parse(sp->bytes, sp->len, &p), 0);
	KUNIT_EXPECT_EQ(test, p.dcid, sp->dcid);
	KUNIT_EXPECT_EQ(test, p.rwin, sp->rwin);
	KUNIT_EXPECT_EQ(test, p.psn, sp->psn);
	KUNIT_EXPECT_EQ(test, p.ack_psn, sp->ack_psn);
	KUNIT_EXPECT_EQ(test, p.sack, sp->sack);
	KUNIT_EXPECT_EQ(test, p.eom, sp->eom);
	KUNIT_EXPECT_EQ(test, p.num_ops, sp->num_ops);
	KUNIT_EXPECT_EQ(test, p.opcode, sp->opcode);
	KUNIT_EXPECT_EQ(test, p.seqno, sp->seqno);
	KUNIT_EXPECT_EQ(test, p.xid, sp->xid);
	KUNIT_EXPECT_EQ(test, p.ack_xid, sp->ack_xid);

	/* and the encoder writes the figure's bytes back */
	superp_pkt_encode(&p, &pdl, &tal);
	expect_bytes(test, &pdl, sp->bytes, SUPERP_PDL_HLEN);
	expect_bytes(test, &tal, sp->bytes + SUPERP_PDL_HLEN, SUPERP_TAL_HLEN);
}

/* Spec "Operations": the operation formats of pages 32-34. */
static void spec_operations_decode(struct kunit *test)
{
	const struct spec_packet *sp = test->param_value;
	const u8 *ops = sp->bytes + SUPERP_PDL_HLEN + SUPERP_TAL_HLEN;
	int hlen = superp_op_hlen(sp->opcode);
	unsigned int i, j;

	KUNIT_ASSERT_GE(test, hlen, 0);
	KUNIT_ASSERT_LE(test, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN +
			hlen * sp->num_ops, sp->len);
	for (i = 0; i < sp->num_ops; i++) {
		const u8 *hdr = ops + i * hlen;
		struct superp_op op;
		u8 back[32];

		KUNIT_ASSERT_EQ(test, superp_op_decode(sp->opcode, hdr, &op), 0);
		for (j = 0; j < SPEC_MAX_FIELDS && sp->ops[i][j].name; j++) {
			const struct spec_field *f = &sp->ops[i][j];
			u64 v;

			KUNIT_ASSERT_TRUE_MSG(test, op_field(&op, f->name, &v),
					      "field %s", f->name);
			KUNIT_EXPECT_EQ_MSG(test, v, f->value,
					    "op %u field %s", i, f->name);
		}
		KUNIT_EXPECT_EQ(test, superp_op_pad(sp->opcode, hdr), 0);
		KUNIT_EXPECT_EQ(test, superp_op_encode(sp->opcode, &op, back),
				hlen);
		expect_bytes(test, back, hdr, hlen);
	}
}

/* Spec "SUPERp packets": Block_size = (length - data offset) / num_ops. */
static void spec_data_blocks(struct kunit *test)
{
	const struct spec_packet *sp = test->param_value;
	unsigned int len = sp->len - SUPERP_PDL_HLEN;
	int hlen = superp_op_hlen(sp->opcode);
	unsigned int i, off;
	int block;

	KUNIT_ASSERT_GE(test, hlen, 0);
	KUNIT_EXPECT_EQ(test, superp_op_has_data(sp->opcode), sp->block > 0);
	if (!sp->block) {
		KUNIT_EXPECT_EQ(test, len, superp_data_offset(hlen, sp->num_ops));
		return;
	}
	block = superp_block_size(len, hlen, sp->num_ops);
	KUNIT_EXPECT_EQ(test, block, sp->block);
	off = SUPERP_PDL_HLEN + superp_data_offset(hlen, sp->num_ops);
	for (i = 0; i < sp->num_ops && block > 0; i++)
		KUNIT_EXPECT_EQ(test, sp->bytes[off + i * block], i * 16 + 1);
}

/*
 * Spec "Operations": direction of each opcode, and the reply a request
 * waits for (wire-format.rst, "Operation headers"; read requests of both
 * kinds are answered by the spec's Read Response).
 */
static void opcode_directions_and_replies(struct kunit *test)
{
	static const struct {
		u8 op;
		bool request, reply;
		u8 reply_of;
	} t[] = {
		{ SUPERP_OP_NOOP, true, false, 0 },
		{ SUPERP_OP_LAST_NULL, true, false, 0 },
		{ SUPERP_OP_TRANS_ERROR, false, true, 0 },
		{ SUPERP_OP_RMA_READ, true, false, SUPERP_OP_READ_RESP },
		{ SUPERP_OP_RMA_WRITE, true, false, 0 },
		{ SUPERP_OP_READ_RESP, false, true, 0 },
		{ SUPERP_OP_SEND, true, false, 0 },
		{ SUPERP_OP_SEND_QP, true, false, 0 },
		{ SUPERP_OP_PURE_ACK, false, false, 0 },
		{ SUPERP_OP_SEND_QP_IMM, true, false, 0 },
		{ SUPERP_OP_WRITE_COMPLETE, true, false, 0 },
		{ SUPERP_OP_ATOMIC_CAS, true, false, SUPERP_OP_ATOMIC_RESP },
		{ SUPERP_OP_ATOMIC_FADD, true, false, SUPERP_OP_ATOMIC_RESP },
		{ SUPERP_OP_ATOMIC_RESP, false, true, 0 },
		{ SUPERP_OP_RD_SEND, true, false, 0 },
		{ SUPERP_OP_RDMA_WRITE, true, false, 0 },
		{ SUPERP_OP_RDMA_READ, true, false, SUPERP_OP_READ_RESP },
		{ SUPERP_OP_SEND_QP_OFF, true, false, 0 },
		{ SUPERP_OP_SEND_QP_MORE, true, false, 0 },
		{ SUPERP_OP_QP_RESUME, true, false, 0 },
		{ SUPERP_OP_SEND_QP_INV, true, false, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		KUNIT_EXPECT_EQ_MSG(test, superp_opcode_is_request(t[i].op),
				    t[i].request, "opcode %u", t[i].op);
		KUNIT_EXPECT_EQ_MSG(test, superp_opcode_is_reply(t[i].op),
				    t[i].reply, "opcode %u", t[i].op);
		KUNIT_EXPECT_EQ_MSG(test, superp_opcode_reply_of(t[i].op),
				    t[i].reply_of, "opcode %u", t[i].op);
	}
}

static struct kunit_case superp_spec_conformance_cases[] = {
	KUNIT_CASE(opcode_directions_and_replies),
	KUNIT_CASE_PARAM(spec_fixed_headers_decode, spec_packet_gen_params),
	KUNIT_CASE_PARAM(spec_operations_decode, spec_packet_gen_params),
	KUNIT_CASE_PARAM(spec_data_blocks, spec_packet_gen_params),
	{}
};

static struct kunit_suite superp_spec_conformance_suite = {
	.name = "superp_spec_conformance",
	.test_cases = superp_spec_conformance_cases,
};

kunit_test_suite(superp_spec_conformance_suite);

MODULE_DESCRIPTION("KUnit: ib_superp's codec against the SUPERp figures");
MODULE_LICENSE("GPL");
