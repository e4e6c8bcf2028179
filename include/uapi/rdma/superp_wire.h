/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * SUPERp wire format: Packet Delivery Layer (PDL), Transaction Layer (TAL)
 * and operation headers. Multi-byte fields are little endian.
 * Wire format: Documentation/wire-format.rst.
 */
#ifndef _UAPI_RDMA_SUPERP_WIRE_H
#define _UAPI_RDMA_SUPERP_WIRE_H

#include <linux/types.h>

#define SUPERP_UDP_PORT		7777
#define SUPERP_PDL_HLEN		16
#define SUPERP_TAL_HLEN		8

struct superp_pdl_hdr {
	__le16	dcid;		/* destination connection id */
	__le16	rwin;		/* receive window advertisement - 1 */
	__le32	psn;
	__le32	ack_psn;
	__le32	sack;		/* bit i has value 1 << i */
};

#define SUPERP_TAL_EOM		0x80
#define SUPERP_TAL_NUM_OPS_MASK	0x0f
#define SUPERP_TAL_MAX_OPS	15

struct superp_tal_hdr {
	__u8	eom_num_ops;	/* eom (bit 7) | reserved (6-4) | num_ops (3-0) */
	__u8	opcode;
	__le16	xid;
	__le16	seqno;
	__le16	ack_xid;
};

enum superp_opcode {
	SUPERP_OP_NOOP		= 0,
	SUPERP_OP_LAST_NULL	= 1,
	SUPERP_OP_TRANS_ERROR	= 2,
	SUPERP_OP_RMA_READ	= 8,
	SUPERP_OP_RMA_WRITE	= 9,
	SUPERP_OP_READ_RESP	= 10,
	SUPERP_OP_SEND		= 11,
	SUPERP_OP_SEND_QP	= 12,
	SUPERP_OP_PURE_ACK	= 16,	/* this project: takes no PSN */
	/* extension opcodes for the verbs mapping start at 17 */
};

#define SUPERP_ACK_PSN_NONE	0xffffffffU	/* nothing received yet */
#define SUPERP_ACK_XID_NONE	0xffffU

#endif /* _UAPI_RDMA_SUPERP_WIRE_H */
