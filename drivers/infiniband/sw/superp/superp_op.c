// SPDX-License-Identifier: GPL-2.0
/*
 * SUPERp operation headers to and from host order. Headers may sit on a
 * 4-byte boundary (UDP/IPv4, VLAN), so 64-bit fields go through the
 * unaligned-safe helpers of superp_wire.h. Reserved fields are written as
 * zero and not read (Documentation/wire-format.rst, "Conventions").
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <kunit/visibility.h>
#include "superp_op.h"

/**
 * superp_op_decode() - read one operation header.
 * @opcode: TAL opcode of the packet.
 * @hdr: the operation header (superp_op_hlen(@opcode) bytes).
 * @op: host-order fields; those @opcode does not carry are zeroed.
 *
 * Return: 0, or -EPROTO for an opcode without operation headers or an
 * unknown one.
 */
int superp_op_decode(unsigned int opcode, const void *hdr,
		     struct superp_op *op)
{
	memset(op, 0, sizeof(*op));

	switch (opcode) {
	case SUPERP_OP_TRANS_ERROR: {
		const struct superp_terr_op *h = hdr;

		op->seqno = le16_to_cpu(h->seqno);
		op->opnum = h->opnum;
		op->major = le16_to_cpu(h->major);
		op->minor = le16_to_cpu(h->minor);
		return 0;
	}
	case SUPERP_OP_RMA_READ: {
		const struct superp_read_op *h = hdr;

		op->addr = superp_get_le64(&h->addr);
		op->length = le32_to_cpu(h->length);
		return 0;
	}
	case SUPERP_OP_RMA_WRITE: {
		const struct superp_write_op *h = hdr;

		op->addr = superp_get_le64(&h->addr);
		return 0;
	}
	case SUPERP_OP_READ_RESP: {
		const struct superp_read_resp_op *h = hdr;

		op->seqno = le16_to_cpu(h->req_seqno);
		op->opnum = h->req_opnum;
		op->offset = le32_to_cpu(h->offset);
		return 0;
	}
	case SUPERP_OP_SEND: {
		const struct superp_send_op *h = hdr;

		op->key = le32_to_cpu(h->key);
		op->offset = le32_to_cpu(h->offset);
		return 0;
	}
	case SUPERP_OP_SEND_QP: {
		const struct superp_send_qp_op *h = hdr;

		op->qpn = superp_qpn(h->qpn_rsvd);
		return 0;
	}
	case SUPERP_OP_SEND_QP_IMM: {
		const struct superp_send_qp_imm_op *h = hdr;

		op->qpn = superp_qpn(h->qpn_pad);
		op->pad = superp_qpn_word_top(h->qpn_pad);
		op->offset = le32_to_cpu(h->offset);
		op->imm = h->imm;
		return 0;
	}
	case SUPERP_OP_WRITE_COMPLETE: {
		const struct superp_write_complete_op *h = hdr;

		op->qpn = superp_qpn(h->qpn_rsvd);
		op->imm = h->imm;
		op->length = le32_to_cpu(h->length);
		op->write_xid = le16_to_cpu(h->write_xid);
		return 0;
	}
	case SUPERP_OP_ATOMIC_CAS: {
		const struct superp_atomic_cas_op *h = hdr;

		op->qpn = superp_qpn(h->qpn_rsvd);
		op->rkey = le32_to_cpu(h->rkey);
		op->addr = superp_get_le64(&h->addr);
		op->operand = superp_get_le64(&h->compare);
		op->swap = superp_get_le64(&h->swap);
		return 0;
	}
	case SUPERP_OP_ATOMIC_FADD: {
		const struct superp_atomic_fadd_op *h = hdr;

		op->qpn = superp_qpn(h->qpn_rsvd);
		op->rkey = le32_to_cpu(h->rkey);
		op->addr = superp_get_le64(&h->addr);
		op->operand = superp_get_le64(&h->add);
		return 0;
	}
	case SUPERP_OP_ATOMIC_RESP: {
		const struct superp_atomic_resp_op *h = hdr;

		op->seqno = le16_to_cpu(h->req_seqno);
		op->opnum = h->req_opnum;
		op->orig = superp_get_le64(&h->orig);
		return 0;
	}
	case SUPERP_OP_RD_SEND: {
		const struct superp_rd_send_op *h = hdr;

		op->qpn = superp_qpn(h->qpn_pad);
		op->pad = superp_qpn_word_top(h->qpn_pad);
		op->sqpn = superp_qpn(h->sqpn_flags);
		op->flags = superp_qpn_word_top(h->sqpn_flags);
		op->qkey = le32_to_cpu(h->qkey);
		op->imm = h->imm;
		return 0;
	}
	case SUPERP_OP_RDMA_WRITE: {
		const struct superp_rdma_write_op *h = hdr;

		op->qpn = superp_qpn(h->qpn_pad);
		op->pad = superp_qpn_word_top(h->qpn_pad);
		op->rkey = le32_to_cpu(h->rkey);
		op->addr = superp_get_le64(&h->addr);
		return 0;
	}
	case SUPERP_OP_RDMA_READ: {
		const struct superp_rdma_read_op *h = hdr;

		op->qpn = superp_qpn(h->qpn_rsvd);
		op->rkey = le32_to_cpu(h->rkey);
		op->addr = superp_get_le64(&h->addr);
		op->length = le32_to_cpu(h->length);
		return 0;
	}
	case SUPERP_OP_SEND_QP_OFF:
	case SUPERP_OP_SEND_QP_MORE: {
		const struct superp_send_qp_off_op *h = hdr;

		op->qpn = superp_qpn(h->qpn_pad);
		op->pad = superp_qpn_word_top(h->qpn_pad);
		op->offset = le32_to_cpu(h->offset);
		return 0;
	}
	case SUPERP_OP_QP_RESUME: {
		const struct superp_qp_resume_op *h = hdr;

		op->qpn = superp_qpn(h->qpn_rsvd);
		return 0;
	}
	case SUPERP_OP_SEND_QP_INV: {
		const struct superp_send_qp_inv_op *h = hdr;

		op->qpn = superp_qpn(h->qpn_pad);
		op->pad = superp_qpn_word_top(h->qpn_pad);
		op->offset = le32_to_cpu(h->offset);
		op->rkey = le32_to_cpu(h->inv_rkey);
		return 0;
	}
	}
	return -EPROTO;
}
EXPORT_SYMBOL_IF_KUNIT(superp_op_decode);

/**
 * superp_op_encode() - write one operation header.
 * @opcode: TAL opcode of the packet.
 * @op: host-order fields (those @opcode does not carry are ignored).
 * @hdr: where to write superp_op_hlen(@opcode) bytes.
 *
 * Return: the header length, or -EINVAL for an opcode without operation
 * headers or an unknown one.
 */
int superp_op_encode(unsigned int opcode, const struct superp_op *op,
		     void *hdr)
{
	int len = superp_op_hlen(opcode);

	if (len <= 0)
		return -EINVAL;
	memset(hdr, 0, len);

	switch (opcode) {
	case SUPERP_OP_TRANS_ERROR: {
		struct superp_terr_op *h = hdr;

		h->seqno = cpu_to_le16(op->seqno);
		h->opnum = op->opnum;
		h->major = cpu_to_le16(op->major);
		h->minor = cpu_to_le16(op->minor);
		break;
	}
	case SUPERP_OP_RMA_READ: {
		struct superp_read_op *h = hdr;

		superp_put_le64(&h->addr, op->addr);
		h->length = cpu_to_le32(op->length);
		break;
	}
	case SUPERP_OP_RMA_WRITE: {
		struct superp_write_op *h = hdr;

		superp_put_le64(&h->addr, op->addr);
		break;
	}
	case SUPERP_OP_READ_RESP: {
		struct superp_read_resp_op *h = hdr;

		h->req_seqno = cpu_to_le16(op->seqno);
		h->req_opnum = op->opnum;
		h->offset = cpu_to_le32(op->offset);
		break;
	}
	case SUPERP_OP_SEND: {
		struct superp_send_op *h = hdr;

		h->key = cpu_to_le32(op->key);
		h->offset = cpu_to_le32(op->offset);
		break;
	}
	case SUPERP_OP_SEND_QP: {
		struct superp_send_qp_op *h = hdr;

		h->qpn_rsvd = superp_qpn_word(op->qpn, 0);
		break;
	}
	case SUPERP_OP_SEND_QP_IMM: {
		struct superp_send_qp_imm_op *h = hdr;

		h->qpn_pad = superp_qpn_word(op->qpn, op->pad);
		h->offset = cpu_to_le32(op->offset);
		h->imm = op->imm;
		break;
	}
	case SUPERP_OP_WRITE_COMPLETE: {
		struct superp_write_complete_op *h = hdr;

		h->qpn_rsvd = superp_qpn_word(op->qpn, 0);
		h->imm = op->imm;
		h->length = cpu_to_le32(op->length);
		h->write_xid = cpu_to_le16(op->write_xid);
		break;
	}
	case SUPERP_OP_ATOMIC_CAS: {
		struct superp_atomic_cas_op *h = hdr;

		h->qpn_rsvd = superp_qpn_word(op->qpn, 0);
		h->rkey = cpu_to_le32(op->rkey);
		superp_put_le64(&h->addr, op->addr);
		superp_put_le64(&h->compare, op->operand);
		superp_put_le64(&h->swap, op->swap);
		break;
	}
	case SUPERP_OP_ATOMIC_FADD: {
		struct superp_atomic_fadd_op *h = hdr;

		h->qpn_rsvd = superp_qpn_word(op->qpn, 0);
		h->rkey = cpu_to_le32(op->rkey);
		superp_put_le64(&h->addr, op->addr);
		superp_put_le64(&h->add, op->operand);
		break;
	}
	case SUPERP_OP_ATOMIC_RESP: {
		struct superp_atomic_resp_op *h = hdr;

		h->req_seqno = cpu_to_le16(op->seqno);
		h->req_opnum = op->opnum;
		superp_put_le64(&h->orig, op->orig);
		break;
	}
	case SUPERP_OP_RD_SEND: {
		struct superp_rd_send_op *h = hdr;

		h->qpn_pad = superp_qpn_word(op->qpn, op->pad);
		h->sqpn_flags = superp_qpn_word(op->sqpn, op->flags);
		h->qkey = cpu_to_le32(op->qkey);
		h->imm = op->imm;
		break;
	}
	case SUPERP_OP_RDMA_WRITE: {
		struct superp_rdma_write_op *h = hdr;

		h->qpn_pad = superp_qpn_word(op->qpn, op->pad);
		h->rkey = cpu_to_le32(op->rkey);
		superp_put_le64(&h->addr, op->addr);
		break;
	}
	case SUPERP_OP_RDMA_READ: {
		struct superp_rdma_read_op *h = hdr;

		h->qpn_rsvd = superp_qpn_word(op->qpn, 0);
		h->rkey = cpu_to_le32(op->rkey);
		superp_put_le64(&h->addr, op->addr);
		h->length = cpu_to_le32(op->length);
		break;
	}
	case SUPERP_OP_SEND_QP_OFF:
	case SUPERP_OP_SEND_QP_MORE: {
		struct superp_send_qp_off_op *h = hdr;

		h->qpn_pad = superp_qpn_word(op->qpn, op->pad);
		h->offset = cpu_to_le32(op->offset);
		break;
	}
	case SUPERP_OP_QP_RESUME: {
		struct superp_qp_resume_op *h = hdr;

		h->qpn_rsvd = superp_qpn_word(op->qpn, 0);
		break;
	}
	case SUPERP_OP_SEND_QP_INV: {
		struct superp_send_qp_inv_op *h = hdr;

		h->qpn_pad = superp_qpn_word(op->qpn, op->pad);
		h->offset = cpu_to_le32(op->offset);
		h->inv_rkey = cpu_to_le32(op->rkey);
		break;
	}
	}
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(superp_op_encode);
