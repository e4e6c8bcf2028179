// SPDX-License-Identifier: GPL-2.0
/* superp-gen: build one Ethernet frame from its description. */
#include <string.h>
#include <arpa/inet.h>
#include "gen.h"

#define B(f)	(1U << (f))
#define QP_WORD	(B(F_QPN) | B(F_PAD))
#define RMA	(B(F_QPN) | B(F_RKEY) | B(F_ADDR))

const char *const gen_field_names[F_NR] = {
	[F_QPN] = "qpn", [F_RKEY] = "rkey", [F_ADDR] = "addr",
	[F_LENGTH] = "length", [F_OFFSET] = "offset", [F_KEY] = "key",
	[F_IMM] = "imm", [F_SEQNO] = "seqno", [F_OPNUM] = "opnum",
	[F_MAJOR] = "major", [F_MINOR] = "minor", [F_COMPARE] = "compare",
	[F_SWAP] = "swap", [F_ADD] = "add", [F_ORIG] = "orig",
	[F_SQPN] = "sqpn", [F_FLAGS] = "flags", [F_QKEY] = "qkey",
	[F_WRITE_XID] = "write_xid", [F_RSVD] = "rsvd", [F_PAD] = "pad",
	[F_PAYLOAD] = "payload",
};

const struct gen_opcode gen_opcodes[] = {
	{ "noop", SUPERP_OP_NOOP, 0, "No-op" },
	{ "last-null", SUPERP_OP_LAST_NULL, 0, "Last NULL" },
	{ "terr", SUPERP_OP_TRANS_ERROR, B(F_SEQNO) | B(F_OPNUM) |
		B(F_MAJOR) | B(F_MINOR) | B(F_RSVD), "Transaction Error" },
	{ "read", SUPERP_OP_RMA_READ, B(F_ADDR) | B(F_LENGTH), "RMA Read" },
	{ "write", SUPERP_OP_RMA_WRITE, B(F_ADDR) | B(F_PAYLOAD),
		"RMA Write" },
	{ "read-resp", SUPERP_OP_READ_RESP, B(F_SEQNO) | B(F_OPNUM) |
		B(F_OFFSET) | B(F_RSVD) | B(F_PAYLOAD), "Read Response" },
	{ "send", SUPERP_OP_SEND, B(F_KEY) | B(F_OFFSET) | B(F_PAYLOAD),
		"Send" },
	{ "send-qp", SUPERP_OP_SEND_QP, B(F_QPN) | B(F_RSVD) | B(F_PAYLOAD),
		"Send to QP" },
	{ "ack", SUPERP_OP_PURE_ACK, 0, "Pure ACK" },
	{ "send-qp-imm", SUPERP_OP_SEND_QP_IMM, QP_WORD | B(F_OFFSET) |
		B(F_IMM) | B(F_PAYLOAD), "Send to QP with Immediate" },
	{ "write-complete", SUPERP_OP_WRITE_COMPLETE, B(F_QPN) | B(F_IMM) |
		B(F_LENGTH) | B(F_WRITE_XID) | B(F_RSVD), "Write Complete" },
	{ "cas", SUPERP_OP_ATOMIC_CAS, RMA | B(F_COMPARE) | B(F_SWAP),
		"Atomic Compare-and-Swap" },
	{ "fadd", SUPERP_OP_ATOMIC_FADD, RMA | B(F_ADD),
		"Atomic Fetch-and-Add" },
	{ "atomic-resp", SUPERP_OP_ATOMIC_RESP, B(F_SEQNO) | B(F_OPNUM) |
		B(F_ORIG) | B(F_RSVD), "Atomic Response" },
	{ "rd-send", SUPERP_OP_RD_SEND, QP_WORD | B(F_SQPN) | B(F_FLAGS) |
		B(F_QKEY) | B(F_IMM) | B(F_PAYLOAD), "Datagram Send" },
	{ "rdma-write", SUPERP_OP_RDMA_WRITE, RMA | B(F_PAD) | B(F_PAYLOAD),
		"RDMA Write" },
	{ "rdma-read", SUPERP_OP_RDMA_READ, RMA | B(F_LENGTH) | B(F_RSVD),
		"RDMA Read" },
	{ "send-qp-off", SUPERP_OP_SEND_QP_OFF, QP_WORD | B(F_OFFSET) |
		B(F_PAYLOAD), "Send to QP with Offset" },
	{ "send-qp-more", SUPERP_OP_SEND_QP_MORE, QP_WORD | B(F_OFFSET) |
		B(F_PAYLOAD), "Send to QP with Offset, More" },
	{ "qp-resume", SUPERP_OP_QP_RESUME, B(F_QPN) | B(F_RSVD), "QP Resume" },
	{ "send-qp-inv", SUPERP_OP_SEND_QP_INV, QP_WORD | B(F_OFFSET) |
		B(F_RKEY) | B(F_PAYLOAD), "Send to QP with Invalidate" },
	{ NULL, 0, 0, NULL }
};

const struct gen_opcode *gen_opcode_by_num(unsigned int opcode)
{
	const struct gen_opcode *o;

	for (o = gen_opcodes; o->name; o++)
		if (o->opcode == opcode)
			return o;
	return NULL;
}

const struct gen_opcode *gen_opcode_by_name(const char *name)
{
	const struct gen_opcode *o;

	for (o = gen_opcodes; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v;
}

/* One operation header in the layout of <rdma/superp_wire.h>. */
static void put_op(uint8_t *p, unsigned int opcode, const struct gen_op *op,
		   unsigned int pad)
{
	const uint64_t *v = op->v;

	switch (opcode) {
	case SUPERP_OP_TRANS_ERROR: {
		struct superp_terr_op h = {
			.seqno = __cpu_to_le16(v[F_SEQNO]),
			.opnum = v[F_OPNUM],
			.rsvd = v[F_RSVD],
			.major = __cpu_to_le16(v[F_MAJOR]),
			.minor = __cpu_to_le16(v[F_MINOR]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_RMA_READ: {
		struct superp_read_op h = {
			.addr = __cpu_to_le64(v[F_ADDR]),
			.length = __cpu_to_le32(v[F_LENGTH]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_RMA_WRITE: {
		struct superp_write_op h = {
			.addr = __cpu_to_le64(v[F_ADDR]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_READ_RESP: {
		struct superp_read_resp_op h = {
			.req_seqno = __cpu_to_le16(v[F_SEQNO]),
			.req_opnum = v[F_OPNUM],
			.rsvd = v[F_RSVD],
			.offset = __cpu_to_le32(v[F_OFFSET]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_SEND: {
		struct superp_send_op h = {
			.key = __cpu_to_le32(v[F_KEY]),
			.offset = __cpu_to_le32(v[F_OFFSET]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_SEND_QP: {
		struct superp_send_qp_op h = {
			.qpn_rsvd = superp_qpn_word(v[F_QPN], v[F_RSVD]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_SEND_QP_IMM: {
		struct superp_send_qp_imm_op h = {
			.qpn_pad = superp_qpn_word(v[F_QPN], pad),
			.offset = __cpu_to_le32(v[F_OFFSET]),
			.imm = __cpu_to_be32(v[F_IMM]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_WRITE_COMPLETE: {
		struct superp_write_complete_op h = {
			.qpn_rsvd = superp_qpn_word(v[F_QPN], 0),
			.imm = __cpu_to_be32(v[F_IMM]),
			.length = __cpu_to_le32(v[F_LENGTH]),
			.write_xid = __cpu_to_le16(v[F_WRITE_XID]),
			.rsvd = __cpu_to_le16(v[F_RSVD]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_ATOMIC_CAS: {
		struct superp_atomic_cas_op h = {
			.qpn_rsvd = superp_qpn_word(v[F_QPN], 0),
			.rkey = __cpu_to_le32(v[F_RKEY]),
			.addr = __cpu_to_le64(v[F_ADDR]),
			.compare = __cpu_to_le64(v[F_COMPARE]),
			.swap = __cpu_to_le64(v[F_SWAP]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_ATOMIC_FADD: {
		struct superp_atomic_fadd_op h = {
			.qpn_rsvd = superp_qpn_word(v[F_QPN], 0),
			.rkey = __cpu_to_le32(v[F_RKEY]),
			.addr = __cpu_to_le64(v[F_ADDR]),
			.add = __cpu_to_le64(v[F_ADD]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_ATOMIC_RESP: {
		struct superp_atomic_resp_op h = {
			.req_seqno = __cpu_to_le16(v[F_SEQNO]),
			.req_opnum = v[F_OPNUM],
			.rsvd = v[F_RSVD],
			.orig = __cpu_to_le64(v[F_ORIG]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_RD_SEND: {
		struct superp_rd_send_op h = {
			.qpn_pad = superp_qpn_word(v[F_QPN], pad),
			.sqpn_flags = superp_qpn_word(v[F_SQPN], v[F_FLAGS]),
			.qkey = __cpu_to_le32(v[F_QKEY]),
			.imm = __cpu_to_be32(v[F_IMM]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_RDMA_WRITE: {
		struct superp_rdma_write_op h = {
			.qpn_pad = superp_qpn_word(v[F_QPN], pad),
			.rkey = __cpu_to_le32(v[F_RKEY]),
			.addr = __cpu_to_le64(v[F_ADDR]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_RDMA_READ: {
		struct superp_rdma_read_op h = {
			.qpn_rsvd = superp_qpn_word(v[F_QPN], 0),
			.rkey = __cpu_to_le32(v[F_RKEY]),
			.addr = __cpu_to_le64(v[F_ADDR]),
			.length = __cpu_to_le32(v[F_LENGTH]),
			.rsvd = __cpu_to_le32(v[F_RSVD]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_SEND_QP_OFF:
	case SUPERP_OP_SEND_QP_MORE: {
		struct superp_send_qp_off_op h = {
			.qpn_pad = superp_qpn_word(v[F_QPN], pad),
			.offset = __cpu_to_le32(v[F_OFFSET]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_QP_RESUME: {
		struct superp_qp_resume_op h = {
			.qpn_rsvd = superp_qpn_word(v[F_QPN], v[F_RSVD]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	case SUPERP_OP_SEND_QP_INV: {
		struct superp_send_qp_inv_op h = {
			.qpn_pad = superp_qpn_word(v[F_QPN], pad),
			.offset = __cpu_to_le32(v[F_OFFSET]),
			.inv_rkey = __cpu_to_le32(v[F_RKEY]),
		};
		memcpy(p, &h, sizeof(h));
		break;
	}
	}
}

/* The block every operation of a data-bearing packet gets. */
static unsigned int pick_block(const struct gen_frame *f, size_t hdrs)
{
	unsigned int i, block = SUPERP_MIN_BLOCK;

	if (f->block >= 0)
		return f->block;
	for (i = 0; i < f->nops; i++)
		if (f->ops[i].v[F_PAYLOAD] > block)
			block = f->ops[i].v[F_PAYLOAD];
	/* Never leave Ethernet padding where it would read as data. */
	while (f->nops && hdrs + (size_t)block * f->nops < SUPERP_ETH_MIN_PAYLOAD)
		block++;
	return block;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += p[len - 1] << 8;
	return sum;
}

/* IP + UDP around the SUPERp bytes at ip + iphlen + 8, len of them. */
static size_t put_udp_ip(const struct gen_frame *f, uint8_t *ip, size_t len)
{
	size_t iphlen = f->encap == ENCAP_IPV4 ? 20 : 40;
	uint8_t *udp = ip + iphlen;
	size_t ulen = len + 8;
	uint32_t sum = 0;
	uint16_t c;

	put16(udp, f->sport);
	put16(udp + 2, f->dport);
	put16(udp + 4, ulen);
	put16(udp + 6, 0);
	if (f->encap == ENCAP_IPV4) {
		ip[0] = 0x45;
		ip[1] = f->tclass;
		put16(ip + 2, iphlen + ulen);
		put16(ip + 4, 0);
		put16(ip + 6, 0x4000);		/* DF */
		ip[8] = f->ttl;
		ip[9] = IPPROTO_UDP;
		put16(ip + 10, 0);
		memcpy(ip + 12, &f->sip4, 4);
		memcpy(ip + 16, &f->dip4, 4);
		put16(ip + 10, csum_fold(csum_add(0, ip, 20)));
		sum = csum_add(sum, ip + 12, 8);
	} else {
		uint32_t w = 6U << 28 | f->tclass << 20 | f->flow_label;

		put16(ip, w >> 16);
		put16(ip + 2, w);
		put16(ip + 4, ulen);
		ip[6] = IPPROTO_UDP;
		ip[7] = f->ttl;
		memcpy(ip + 8, &f->sip6, 16);
		memcpy(ip + 24, &f->dip6, 16);
		sum = csum_add(sum, ip + 8, 32);
	}
	if (f->udp_csum || f->encap == ENCAP_IPV6) {
		sum += IPPROTO_UDP + ulen;
		c = csum_fold(csum_add(sum, udp, ulen));
		put16(udp + 6, c ? c : 0xffff);
	}
	return iphlen + 8;
}

int gen_build(const struct gen_frame *f, uint8_t *buf, struct gen_result *r)
{
	int hlen = superp_op_hlen(f->opcode);
	unsigned int i, k, op_hlen, block = 0, num_ops;
	int data = superp_op_has_data(f->opcode);
	size_t l2, nh, pos, superp, hdrs;
	struct superp_pdl_hdr pdl;
	struct superp_tal_hdr tal;

	op_hlen = hlen < 0 ? f->raw_op_len : (unsigned int)hlen;
	num_ops = f->num_ops >= 0 ? (unsigned int)f->num_ops : f->nops;

	memset(buf, 0, GEN_MAX_FRAME);
	memcpy(buf, f->dmac, 6);
	memcpy(buf + 6, f->smac, 6);
	l2 = 12;
	if (f->vlan >= 0) {
		put16(buf + l2, 0x8100);
		put16(buf + l2 + 2, f->vlan);
		l2 += 4;
	}
	if (f->ethertype >= 0)
		put16(buf + l2, f->ethertype);
	else if (f->encap == ENCAP_IPV4)
		put16(buf + l2, 0x0800);
	else if (f->encap == ENCAP_IPV6)
		put16(buf + l2, 0x86dd);
	else
		put16(buf + l2, ETH_P_SUNH);
	l2 += 2;

	switch (f->encap) {
	case ENCAP_SUNH:
	case ENCAP_LITE:
		nh = SUNH_HLEN;
		break;
	case ENCAP_IPV4:
		nh = 20 + 8;
		break;
	default:
		nh = 40 + 8;
		break;
	}
	superp = l2 + nh;
	pos = superp;
	if (!gen_lite(f)) {
		pdl.dcid = __cpu_to_le16(f->dcid);
		pdl.rwin = __cpu_to_le16(f->rwin);
		pdl.psn = __cpu_to_le32(f->psn);
		pdl.ack_psn = __cpu_to_le32(f->ack_psn);
		pdl.sack = __cpu_to_le32(f->sack);
		memcpy(buf + pos, &pdl, sizeof(pdl));
		pos += sizeof(pdl);
	}
	tal.eom_num_ops = superp_tal_eom_num_ops(f->eom, num_ops) |
			  (f->tal_rsvd << 4 & SUPERP_TAL_RSVD_MASK);
	tal.opcode = f->opcode;
	tal.xid = __cpu_to_le16(f->xid);
	tal.seqno = __cpu_to_le16(f->seqno);
	tal.ack_xid = __cpu_to_le16(f->ack_xid);
	memcpy(buf + pos, &tal, sizeof(tal));
	pos += sizeof(tal);

	hdrs = pos - l2 + (size_t)op_hlen * f->nops;
	if (data || hlen < 0)
		block = pick_block(f, hdrs);
	for (i = 0; i < f->nops; i++) {
		const struct gen_op *op = &f->ops[i];
		unsigned int len = op->v[F_PAYLOAD] < block ?
				   op->v[F_PAYLOAD] : block;
		unsigned int pad = op->set & B(F_PAD) ? op->v[F_PAD] :
				   superp_op_has_pad(f->opcode) ? block - len : 0;

		put_op(buf + pos, f->opcode, op, pad);
		pos += op_hlen;
	}
	r->data_off = pos;
	if (data || hlen < 0) {
		for (i = 0; i < f->nops; i++) {
			unsigned int len = f->ops[i].v[F_PAYLOAD] < block ?
					   f->ops[i].v[F_PAYLOAD] : block;

			for (k = 0; k < len; k++)
				buf[pos + k] = f->pattern >= 0 ? f->pattern :
					       (uint8_t)(i * 16 + k + 1);
			pos += block;
		}
	}
	if (pos + f->extra > GEN_MAX_FRAME)
		return -1;
	memset(buf + pos, 0xee, f->extra);
	pos += f->extra;
	if (f->encap == ENCAP_IPV4 || f->encap == ENCAP_IPV6)
		put_udp_ip(f, buf + l2, pos - superp);
	else
		sunh_hdr_init((struct sunhhdr *)(buf + l2), f->tclass,
			      f->nexthdr, f->hop_limit, f->flow_label,
			      f->saddr, f->daddr);
	/* Short frames are zero-padded to the Ethernet minimum (60). */
	if (!f->no_pad && pos < l2 + SUPERP_ETH_MIN_PAYLOAD)
		pos = l2 + SUPERP_ETH_MIN_PAYLOAD;
	if (f->truncate >= 0 && (size_t)f->truncate < pos)
		pos = f->truncate;
	r->len = pos;
	r->superp_off = superp;
	r->block = block;
	return 0;
}
