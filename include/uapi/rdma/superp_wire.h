/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * SUPERp wire format: Packet Delivery Layer (PDL), Transaction Layer (TAL)
 * and operation headers. Multi-byte fields are little endian.
 * Wire format: Documentation/wire-format.rst.
 */
#ifndef _UAPI_RDMA_SUPERP_WIRE_H
#define _UAPI_RDMA_SUPERP_WIRE_H

#include <linux/types.h>
#include <asm/byteorder.h>

#define SUPERP_UDP_PORT		7777
#define SUPERP_PDL_HLEN		16
#define SUPERP_TAL_HLEN		8

/* Ethernet placement: this pad puts the PDL of a SUNH frame on 8 bytes. */
#define SUPERP_ETH_ALIGN_PAD	2
#define SUPERP_ETH_HLEN		14
#define SUPERP_ETH_MIN_PAYLOAD	46	/* 60-byte frame without FCS */

struct superp_pdl_hdr {
	__le16	dcid;		/* destination connection id */
	__le16	rwin;		/* receive window advertisement - 1 */
	__le32	psn;
	__le32	ack_psn;
	__le32	sack;		/* bit i has value 1 << i */
};

#define SUPERP_TAL_EOM		0x80
#define SUPERP_TAL_RSVD_MASK	0x70
#define SUPERP_TAL_NUM_OPS_MASK	0x0f
#define SUPERP_TAL_MAX_OPS	15

struct superp_tal_hdr {
	__u8	eom_num_ops;	/* eom (bit 7) | reserved (6-4) | num_ops (3-0) */
	__u8	opcode;
	__le16	seqno;		/* packet number within the transaction */
	__le16	xid;
	__le16	ack_xid;
};

/*
 * Opcodes 0-12 are the specification's and keep its operation layouts byte
 * for byte. 16 and up are this project's; each is documented with its byte
 * diagram in Documentation/wire-format.rst.
 */
enum superp_opcode {
	SUPERP_OP_NOOP		= 0,
	SUPERP_OP_LAST_NULL	= 1,
	SUPERP_OP_TRANS_ERROR	= 2,
	SUPERP_OP_RMA_READ	= 8,	/* spec: global address, no key */
	SUPERP_OP_RMA_WRITE	= 9,	/* spec: global address, no key */
	SUPERP_OP_READ_RESP	= 10,
	SUPERP_OP_SEND		= 11,	/* spec: keyed receive context */
	SUPERP_OP_SEND_QP	= 12,
	SUPERP_OP_PURE_ACK	= 16,	/* this project: takes no PSN */
	/* extension opcodes for the verbs mapping start at 17 */
	SUPERP_OP_SEND_QP_IMM	= 17,	/* Send to QP with immediate */
	SUPERP_OP_WRITE_COMPLETE = 18,	/* immediate of an earlier write */
	SUPERP_OP_ATOMIC_CAS	= 19,
	SUPERP_OP_ATOMIC_FADD	= 20,
	SUPERP_OP_ATOMIC_RESP	= 21,
	SUPERP_OP_RD_SEND	= 22,	/* datagram send (RD and UD QPs) */
	SUPERP_OP_RDMA_WRITE	= 23,	/* write through a key to a QP's PD */
	SUPERP_OP_RDMA_READ	= 24,	/* read through a key, answered by 10 */
	SUPERP_OP_SEND_QP_OFF	= 25,	/* Send to QP with offset and pad */
	SUPERP_OP_SEND_QP_MORE	= 26,	/* as 25, the message goes on */
	SUPERP_OP_QP_RESUME	= 27,	/* a QP leaves its RNR wait */
	SUPERP_OP_SEND_QP_INV	= 28,	/* Send to QP with Invalidate */
};

#define SUPERP_ACK_PSN_NONE	0xffffffffU	/* nothing received yet */

/*
 * The DCID of a datagram (UD and GSI QPs): a packet outside every
 * connection, with its other PDL fields and its TAL XIDs and seqno zero,
 * one Datagram Send operation (22) with eom set, then the data block. A
 * receiver that knows no datagrams drops it as a packet of an unknown
 * connection; CIDs of connections stay below it.
 */
#define SUPERP_DCID_DATAGRAM	0xffff
#define SUPERP_ACK_XID_NONE	0xffffU

/*
 * Data blocks are at least SUPERP_MIN_BLOCK bytes. Under the spec's opcodes
 * every byte of a block is payload (a Read Response block may run past the
 * end of the read: the initiator knows the length it asked for). Extension
 * operations that carry data say how much of their block is not payload in
 * a pad count, the top byte (byte 3) of the QP word that starts their
 * header.
 *
 * QP word: the spec's figure of Send to QP numbers the bits of the word
 * 31..0, Reserved in bits 31-24 and the Queue Pair in bits 23-0, and the
 * spec's reference code writes it as a little-endian 32-bit word whose low
 * 24 bits are the QPN. So bytes 0-2 are the QPN (little endian) and byte 3
 * is the top byte, reserved in Send to QP. Extension headers keep the same
 * word and put their pad count or flags in its top byte.
 */
#define SUPERP_MIN_BLOCK	16
#define SUPERP_MAX_PAD		255
#define SUPERP_QPN_MASK		0x00ffffffU	/* QP word bits 23-0 */
#define SUPERP_QPN_TOP_SHIFT	24		/* QP word bits 31-24 */
#define SUPERP_PAD_BYTE		3		/* the top byte's offset */

/* 2: Transaction Error (target -> initiator), no data. Spec layout. */
struct superp_terr_op {
	__le16	seqno;		/* seqno of the packet of the failed operation */
	__u8	opnum;		/* its position in that packet, 0..14 */
	__u8	rsvd;
	__le16	major;		/* enum superp_terr_major */
	__le16	minor;		/* enum superp_terr_minor */
};

/* 8: RMA Read, no data; answered by Read Response. Spec layout. */
struct superp_read_op {
	__le64	addr;		/* in the target's global address space */
	__le32	length;
} __attribute__((packed, aligned(4)));	/* 12 bytes, as the spec draws it */

/* 9: RMA Write, data-bearing (the whole block). Spec layout. */
struct superp_write_op {
	__le64	addr;		/* in the target's global address space */
};

/* 10: Read Response (target -> initiator), data-bearing. Spec layout. */
struct superp_read_resp_op {
	__le16	req_seqno;	/* the Read op answered: seqno of its packet */
	__u8	req_opnum;	/* and its position in that packet */
	__u8	rsvd;
	__le32	offset;		/* of this block in the data read */
};

/* 11: Send to a keyed receive context, data-bearing. Spec layout. */
struct superp_send_op {
	__le32	key;
	__le32	offset;
};

/* 12: Send to QP, data-bearing (the whole block). Spec layout. */
struct superp_send_qp_op {
	__le32	qpn_rsvd;	/* QPN (bytes 0-2) | reserved (byte 3) */
};

/* 17: Send to QP with immediate data, data-bearing. */
struct superp_send_qp_imm_op {
	__le32	qpn_pad;	/* QPN (bytes 0-2) | pad count (byte 3) */
	__le32	offset;		/* of this block in the message */
	__be32	imm;		/* verbs imm_data, carried unchanged */
};

/* 18: Write Complete, no data: immediate of RDMA WRITE WITH IMMEDIATE. */
struct superp_write_complete_op {
	__le32	qpn_rsvd;
	__be32	imm;		/* verbs imm_data, carried unchanged */
	__le32	length;		/* bytes written: the receive's byte_len */
	__le16	write_xid;	/* XID of the write; ignored if length is 0 */
	__le16	rsvd;
};

/* 19: Atomic compare-and-swap, no data; answered by Atomic Response. */
struct superp_atomic_cas_op {
	__le32	qpn_rsvd;
	__le32	rkey;
	__le64	addr;		/* 8-byte aligned */
	__le64	compare;
	__le64	swap;
};

/* 20: Atomic fetch-and-add, no data; answered by Atomic Response. */
struct superp_atomic_fadd_op {
	__le32	qpn_rsvd;
	__le32	rkey;
	__le64	addr;		/* 8-byte aligned */
	__le64	add;
};

/* 21: Atomic Response (target -> initiator), no data. */
struct superp_atomic_resp_op {
	__le16	req_seqno;
	__u8	req_opnum;
	__u8	rsvd;
	__le32	rsvd2;
	__le64	orig;		/* value at addr before the operation */
};

#define SUPERP_RD_FLAG_IMM	0x01	/* imm is valid */

/* 22: Datagram send (UD and reliable-datagram QPs), data-bearing. */
struct superp_rd_send_op {
	__le32	qpn_pad;	/* destination QPN | pad count (byte 3) */
	__le32	sqpn_flags;	/* source QPN | flags (byte 7) */
	__le32	qkey;
	__be32	imm;		/* if SUPERP_RD_FLAG_IMM */
};

/* 23: RDMA Write through a remote key, data-bearing. */
struct superp_rdma_write_op {
	__le32	qpn_pad;	/* target QPN | pad count (byte 3) */
	__le32	rkey;
	__le64	addr;		/* virtual address in the MR of rkey */
};

/* 24: RDMA Read through a remote key, no data; answered by 10. */
struct superp_rdma_read_op {
	__le32	qpn_rsvd;	/* target QPN | reserved (byte 3) */
	__le32	rkey;
	__le64	addr;
	__le32	length;
	__le32	rsvd;
};

/*
 * 25: Send to QP with offset, data-bearing: any length, any order. Also
 * the layout of 26, a transaction of a message that later ones continue.
 */
struct superp_send_qp_off_op {
	__le32	qpn_pad;	/* target QPN | pad count (byte 3) */
	__le32	offset;		/* of this block in the message */
};

/* 27: QP Resume, no data: the target QP leaves its receiver-not-ready wait. */
struct superp_qp_resume_op {
	__le32	qpn_rsvd;	/* target QPN | reserved (byte 3) */
};

/*
 * 28: Send to QP with Invalidate, data-bearing: as 25, and when the
 * message completes the target invalidates the memory key inv_rkey.
 */
struct superp_send_qp_inv_op {
	__le32	qpn_pad;	/* target QPN | pad count (byte 3) */
	__le32	offset;		/* of this block in the message */
	__le32	inv_rkey;	/* the target's key to invalidate */
};

/* Transaction Error codes: the major code selects the initiator's status. */
enum superp_terr_major {
	SUPERP_TERR_PROTECTION	= 1,	/* remote access error */
	SUPERP_TERR_INVALID	= 2,	/* remote invalid request */
	SUPERP_TERR_RNR		= 3,	/* receiver not ready: no receive */
	SUPERP_TERR_OPERATION	= 4,	/* remote operation error */
};

enum superp_terr_minor {
	SUPERP_TERR_UNSPEC	= 0,
	/* SUPERP_TERR_PROTECTION */
	SUPERP_TERR_BAD_RKEY	= 1,
	SUPERP_TERR_PD_MISMATCH	= 2,
	SUPERP_TERR_ACCESS	= 3,	/* QP or MR lacks the access flag */
	SUPERP_TERR_BOUNDS	= 4,	/* outside the MR */
	/* SUPERP_TERR_INVALID */
	SUPERP_TERR_OPCODE	= 1,	/* unknown or unsupported opcode */
	SUPERP_TERR_NO_QP	= 2,
	SUPERP_TERR_QP_STATE	= 3,
	SUPERP_TERR_BLOCK	= 4,	/* block < 16 or pad > block */
	SUPERP_TERR_TOO_LONG	= 5,	/* message exceeds the receive */
	SUPERP_TERR_ALIGN	= 6,	/* misaligned atomic */
	SUPERP_TERR_QKEY	= 7,
	SUPERP_TERR_NO_GLOBAL	= 8,	/* no global address space or keyed
					 * receive context (spec 8, 9, 11)
					 */
	SUPERP_TERR_ORDER	= 9,	/* 12 out of seqno order, unordered */
	SUPERP_TERR_INV_RKEY	= 10,	/* 28's key: no MR this QP may
					 * invalidate
					 */
	/* SUPERP_TERR_RNR: SUPERP_TERR_UNSPEC */
	/* SUPERP_TERR_OPERATION */
	SUPERP_TERR_RESOURCE	= 1,
};

/*
 * Compile-time layout checks, usable in the kernel and in any C or C++
 * dialect: a false condition declares an array of negative size.
 */
#define __SUPERP_ASSERT(expr, msg) \
	extern int __superp_layout_check[(expr) ? 1 : -1]
#define __SUPERP_AT(type, field, off) \
	__SUPERP_ASSERT(__builtin_offsetof(struct type, field) == (off), \
			#type "." #field " @" #off)
#define __SUPERP_SIZE(type, size) \
	__SUPERP_ASSERT(sizeof(struct type) == (size), #type " size " #size)

__SUPERP_SIZE(superp_pdl_hdr, SUPERP_PDL_HLEN);
__SUPERP_AT(superp_pdl_hdr, rwin, 2);
__SUPERP_AT(superp_pdl_hdr, psn, 4);
__SUPERP_AT(superp_pdl_hdr, ack_psn, 8);
__SUPERP_AT(superp_pdl_hdr, sack, 12);
__SUPERP_SIZE(superp_tal_hdr, SUPERP_TAL_HLEN);
__SUPERP_AT(superp_tal_hdr, opcode, 1);
__SUPERP_AT(superp_tal_hdr, seqno, 2);
__SUPERP_AT(superp_tal_hdr, xid, 4);
__SUPERP_AT(superp_tal_hdr, ack_xid, 6);
/* The specification's operation headers (figures on its pages 32-34). */
__SUPERP_SIZE(superp_terr_op, 8);
__SUPERP_AT(superp_terr_op, opnum, 2);
__SUPERP_AT(superp_terr_op, rsvd, 3);
__SUPERP_AT(superp_terr_op, major, 4);
__SUPERP_AT(superp_terr_op, minor, 6);
__SUPERP_SIZE(superp_read_op, 12);
__SUPERP_AT(superp_read_op, length, 8);
__SUPERP_SIZE(superp_write_op, 8);
__SUPERP_SIZE(superp_read_resp_op, 8);
__SUPERP_AT(superp_read_resp_op, req_opnum, 2);
__SUPERP_AT(superp_read_resp_op, rsvd, 3);
__SUPERP_AT(superp_read_resp_op, offset, 4);
__SUPERP_SIZE(superp_send_op, 8);
__SUPERP_AT(superp_send_op, offset, 4);
__SUPERP_SIZE(superp_send_qp_op, 4);
/* This project's extension operation headers. */
__SUPERP_SIZE(superp_send_qp_imm_op, 12);
__SUPERP_AT(superp_send_qp_imm_op, offset, 4);
__SUPERP_AT(superp_send_qp_imm_op, imm, 8);
__SUPERP_SIZE(superp_write_complete_op, 16);
__SUPERP_AT(superp_write_complete_op, imm, 4);
__SUPERP_AT(superp_write_complete_op, length, 8);
__SUPERP_AT(superp_write_complete_op, write_xid, 12);
__SUPERP_SIZE(superp_atomic_cas_op, 32);
__SUPERP_AT(superp_atomic_cas_op, rkey, 4);
__SUPERP_AT(superp_atomic_cas_op, addr, 8);
__SUPERP_AT(superp_atomic_cas_op, compare, 16);
__SUPERP_AT(superp_atomic_cas_op, swap, 24);
__SUPERP_SIZE(superp_atomic_fadd_op, 24);
__SUPERP_AT(superp_atomic_fadd_op, addr, 8);
__SUPERP_AT(superp_atomic_fadd_op, add, 16);
__SUPERP_SIZE(superp_atomic_resp_op, 16);
__SUPERP_AT(superp_atomic_resp_op, orig, 8);
__SUPERP_SIZE(superp_rd_send_op, 16);
__SUPERP_AT(superp_rd_send_op, sqpn_flags, 4);
__SUPERP_AT(superp_rd_send_op, qkey, 8);
__SUPERP_AT(superp_rd_send_op, imm, 12);
__SUPERP_SIZE(superp_rdma_write_op, 16);
__SUPERP_AT(superp_rdma_write_op, rkey, 4);
__SUPERP_AT(superp_rdma_write_op, addr, 8);
__SUPERP_SIZE(superp_rdma_read_op, 24);
__SUPERP_AT(superp_rdma_read_op, rkey, 4);
__SUPERP_AT(superp_rdma_read_op, addr, 8);
__SUPERP_AT(superp_rdma_read_op, length, 16);
__SUPERP_SIZE(superp_send_qp_off_op, 8);
__SUPERP_AT(superp_send_qp_off_op, offset, 4);
__SUPERP_SIZE(superp_qp_resume_op, 4);
__SUPERP_SIZE(superp_send_qp_inv_op, 12);
__SUPERP_AT(superp_send_qp_inv_op, offset, 4);
__SUPERP_AT(superp_send_qp_inv_op, inv_rkey, 8);
/* One op with SUNH: pad + Ethernet + SUNH + PDL + TAL + op = a cache line. */
__SUPERP_ASSERT(SUPERP_ETH_ALIGN_PAD + SUPERP_ETH_HLEN + 8 + SUPERP_PDL_HLEN +
		SUPERP_TAL_HLEN + sizeof(struct superp_rdma_write_op) <= 64,
		"one-op SUNH headers fit 64 bytes");

/* TAL byte 0. */
static __inline__ __u8 superp_tal_eom_num_ops(int eom, unsigned int num_ops)
{
	return (eom ? SUPERP_TAL_EOM : 0) | (num_ops & SUPERP_TAL_NUM_OPS_MASK);
}

static __inline__ int superp_tal_eom(const struct superp_tal_hdr *tal)
{
	return !!(tal->eom_num_ops & SUPERP_TAL_EOM);
}

static __inline__ unsigned int superp_tal_num_ops(const struct superp_tal_hdr *tal)
{
	return tal->eom_num_ops & SUPERP_TAL_NUM_OPS_MASK;
}

/*
 * QP word: a 24-bit QPN in bits 23-0 (bytes 0-2), the top byte in bits
 * 31-24 (byte 3: pad count, flags or 0).
 */
static __inline__ __le32 superp_qpn_word(__u32 qpn, __u8 top)
{
	return __cpu_to_le32((__u32)top << SUPERP_QPN_TOP_SHIFT |
			     (qpn & SUPERP_QPN_MASK));
}

static __inline__ __u32 superp_qpn(__le32 word)
{
	return __le32_to_cpu(word) & SUPERP_QPN_MASK;
}

static __inline__ __u8 superp_qpn_word_top(__le32 word)
{
	return __le32_to_cpu(word) >> SUPERP_QPN_TOP_SHIFT;
}

/* 64-bit fields may sit on 4 bytes (UDP/IPv4, VLAN): load bytewise-safe. */
static __inline__ __u64 superp_get_le64(const __le64 *p)
{
	__le64 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return __le64_to_cpu(v);
}

static __inline__ void superp_put_le64(__le64 *p, __u64 val)
{
	__le64 v = __cpu_to_le64(val);

	__builtin_memcpy(p, &v, sizeof(v));
}

/*
 * Size of one operation header of an opcode: 0 for opcodes that carry no
 * operations (num_ops must be 0), -1 for an unknown opcode.
 */
static __inline__ int superp_op_hlen(unsigned int opcode)
{
	switch (opcode) {
	case SUPERP_OP_NOOP:
	case SUPERP_OP_LAST_NULL:
	case SUPERP_OP_PURE_ACK:
		return 0;
	case SUPERP_OP_TRANS_ERROR:
		return sizeof(struct superp_terr_op);
	case SUPERP_OP_RMA_READ:
		return sizeof(struct superp_read_op);
	case SUPERP_OP_RMA_WRITE:
		return sizeof(struct superp_write_op);
	case SUPERP_OP_READ_RESP:
		return sizeof(struct superp_read_resp_op);
	case SUPERP_OP_SEND:
		return sizeof(struct superp_send_op);
	case SUPERP_OP_SEND_QP:
		return sizeof(struct superp_send_qp_op);
	case SUPERP_OP_SEND_QP_IMM:
		return sizeof(struct superp_send_qp_imm_op);
	case SUPERP_OP_WRITE_COMPLETE:
		return sizeof(struct superp_write_complete_op);
	case SUPERP_OP_ATOMIC_CAS:
		return sizeof(struct superp_atomic_cas_op);
	case SUPERP_OP_ATOMIC_FADD:
		return sizeof(struct superp_atomic_fadd_op);
	case SUPERP_OP_ATOMIC_RESP:
		return sizeof(struct superp_atomic_resp_op);
	case SUPERP_OP_RD_SEND:
		return sizeof(struct superp_rd_send_op);
	case SUPERP_OP_RDMA_WRITE:
		return sizeof(struct superp_rdma_write_op);
	case SUPERP_OP_RDMA_READ:
		return sizeof(struct superp_rdma_read_op);
	case SUPERP_OP_SEND_QP_OFF:
	case SUPERP_OP_SEND_QP_MORE:
		return sizeof(struct superp_send_qp_off_op);
	case SUPERP_OP_QP_RESUME:
		return sizeof(struct superp_qp_resume_op);
	case SUPERP_OP_SEND_QP_INV:
		return sizeof(struct superp_send_qp_inv_op);
	}
	return -1;
}

/* Whether each operation of an opcode owns a data block. */
static __inline__ int superp_op_has_data(unsigned int opcode)
{
	switch (opcode) {
	case SUPERP_OP_RMA_WRITE:
	case SUPERP_OP_READ_RESP:
	case SUPERP_OP_SEND:
	case SUPERP_OP_SEND_QP:
	case SUPERP_OP_SEND_QP_IMM:
	case SUPERP_OP_RD_SEND:
	case SUPERP_OP_RDMA_WRITE:
	case SUPERP_OP_SEND_QP_OFF:
	case SUPERP_OP_SEND_QP_MORE:
	case SUPERP_OP_SEND_QP_INV:
		return 1;
	}
	return 0;
}

/*
 * Whether a data-bearing opcode has a pad count (byte 3 of its header, the
 * top byte of its QP word).
 * The spec's opcodes have none: their whole block is payload.
 */
static __inline__ int superp_op_has_pad(unsigned int opcode)
{
	switch (opcode) {
	case SUPERP_OP_SEND_QP_IMM:
	case SUPERP_OP_RD_SEND:
	case SUPERP_OP_RDMA_WRITE:
	case SUPERP_OP_SEND_QP_OFF:
	case SUPERP_OP_SEND_QP_MORE:
	case SUPERP_OP_SEND_QP_INV:
		return 1;
	}
	return 0;
}

/* Offset of the data region from the TAL header (PDL excluded). */
static __inline__ unsigned int superp_data_offset(unsigned int op_hlen,
						  unsigned int num_ops)
{
	return SUPERP_TAL_HLEN + op_hlen * num_ops;
}

/*
 * Block size of a data-bearing packet: len is the packet length from the
 * TAL header (PDL excluded) to the end. Returns -1 if the packet is
 * malformed: no operations, headers longer than the packet, a data region
 * not a multiple of num_ops, or a block shorter than SUPERP_MIN_BLOCK.
 */
static __inline__ int superp_block_size(unsigned int len, unsigned int op_hlen,
					unsigned int num_ops)
{
	unsigned int off = superp_data_offset(op_hlen, num_ops);

	if (!num_ops || num_ops > SUPERP_TAL_MAX_OPS || len < off)
		return -1;
	if ((len - off) % num_ops)
		return -1;
	if ((len - off) / num_ops < SUPERP_MIN_BLOCK)
		return -1;
	return (len - off) / num_ops;
}

/* Pad count of an operation header of an opcode: 0 if it has none. */
static __inline__ unsigned int superp_op_pad(unsigned int opcode,
					     const void *op)
{
	return superp_op_has_pad(opcode) ?
	       ((const __u8 *)op)[SUPERP_PAD_BYTE] : 0;
}

/* Payload bytes of a block, -1 if the pad count exceeds the block. */
static __inline__ int superp_payload_len(unsigned int block, unsigned int pad)
{
	return pad > block ? -1 : (int)(block - pad);
}

/*
 * SACK: in an ACK bit i stands for PSN ack_psn + 1 + i (bit 0 is 0); in a
 * NACK (bit 0 set) bit i stands for PSN ack_psn + i.
 */
static __inline__ int superp_sack_is_nack(__u32 sack)
{
	return sack & 1;
}

static __inline__ __u32 superp_sack_bit_psn(__u32 ack_psn, __u32 sack,
					    unsigned int bit)
{
	return ack_psn + bit + (superp_sack_is_nack(sack) ? 0 : 1);
}

#endif /* _UAPI_RDMA_SUPERP_WIRE_H */
