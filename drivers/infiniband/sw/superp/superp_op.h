/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SUPERp operation headers to and from host order: one codec for every
 * opcode of include/uapi/rdma/superp_wire.h, used by the receive and
 * transmit paths and by the conformance suite.
 */
#ifndef SUPERP_OP_H
#define SUPERP_OP_H

#include <linux/types.h>
#include <rdma/superp_wire.h>

/**
 * struct superp_op - one operation header in host order: the fields of
 * every opcode; those an opcode does not carry are zero after decoding
 * and ignored when encoding.
 * @addr: RMA/RDMA/atomic address.
 * @operand: atomic compare (CAS) or add (FADD) value.
 * @swap: atomic swap value (CAS).
 * @orig: original value (Atomic Response).
 * @qpn: target (destination) QP number, 24 bits.
 * @sqpn: source QP number (Datagram Send).
 * @rkey: remote key (RDMA Read/Write, atomics), the key a Send to QP with
 *	Invalidate invalidates.
 * @key: receive context key (the spec's Send).
 * @length: bytes to read (reads), bytes written (Write Complete).
 * @offset: position of the block in the message or read data.
 * @qkey: Q_Key (Datagram Send).
 * @imm: immediate data, as verbs hand it over (network byte order).
 * @seqno: seqno of the request packet (Transaction Error, responses).
 * @major: Transaction Error major code.
 * @minor: Transaction Error minor code.
 * @write_xid: XID of the write a Write Complete closes.
 * @opnum: position of the request operation in its packet.
 * @pad: bytes at the end of the block that are not payload.
 * @flags: SUPERP_RD_FLAG_* (Datagram Send).
 */
struct superp_op {
	u64 addr;
	u64 operand;
	u64 swap;
	u64 orig;
	u32 qpn;
	u32 sqpn;
	u32 rkey;
	u32 key;
	u32 length;
	u32 offset;
	u32 qkey;
	__be32 imm;
	u16 seqno;
	u16 major;
	u16 minor;
	u16 write_xid;
	u8 opnum;
	u8 pad;
	u8 flags;
};

int superp_op_decode(unsigned int opcode, const void *hdr,
		     struct superp_op *op);
int superp_op_encode(unsigned int opcode, const struct superp_op *op,
		     void *hdr);

#endif /* SUPERP_OP_H */
