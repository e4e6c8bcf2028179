/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: a verbs message as transactions and packets (superp_msg.c).
 * Pure arithmetic shared by the sender, which builds every packet (a
 * retransmission included) from the message and these numbers alone, and
 * by the KUnit suite. Documentation/superp-rc.rst has the rules.
 */
#ifndef SUPERP_MSG_H
#define SUPERP_MSG_H

#include <linux/types.h>

/* What a work request asks the wire to carry. */
enum superp_msg_kind {
	SUPERP_MSG_SEND,
	SUPERP_MSG_SEND_IMM,
	SUPERP_MSG_WRITE,
	SUPERP_MSG_WRITE_IMM,
	SUPERP_MSG_READ,
	SUPERP_MSG_CAS,		/* atomics: 8 bytes */
	SUPERP_MSG_FADD,
	SUPERP_MSG_SEND_INV,	/* a SEND that invalidates a key at the target */
};

/**
 * struct superp_msg - the shape of one message.
 * @kind: enum superp_msg_kind.
 * @len: bytes of the message (at most SUPERP_MSG_MAX).
 * @mtu: payload bytes of a full packet (the QP's segment, superp_rc_seg()):
 *	a multiple of SUPERP_SEG_ALIGN in SUPERP_SEG_ALIGN..SUPERP_SEG_MAX.
 * @max_pkts: packets per transaction (tal_max_pkt_per_trans).
 * @min_len: bytes from the TAL header that a packet with data reaches at
 *	least, its block grown (pad count) when the payload is shorter: the
 *	Ethernet minimum of SUPERp-lite over SUNH (SUPERP_LITE_MIN_LEN),
 *	else 0 (a block of SUPERP_MIN_BLOCK suffices).
 */
struct superp_msg {
	u8 kind;
	u64 len;
	u32 mtu;
	u16 max_pkts;
	u8 min_len;
};

/*
 * SUPERp-lite over SUNH: an Ethernet payload of 46 bytes is 38 from the
 * TAL header; shorter, the link's zero padding would read as data
 * (Documentation/wire-format.rst, "Small packets").
 */
#define SUPERP_LITE_MIN_LEN	38

/* The largest message: the port's max_msg_sz, offsets fit 32 bits. */
#define SUPERP_MSG_MAX		0x80000000ULL

/*
 * Payload of a full RC data packet: a multiple of 256 bytes (every IB MTU
 * is one), at most 32 KiB, which a packet's page fragments always hold.
 */
#define SUPERP_SEG_ALIGN	256
#define SUPERP_SEG_MAX		(32 * 1024)

/**
 * struct superp_msg_xact - one transaction of a message.
 * @offset: message offset of its first byte.
 * @len: message bytes it carries (for a read: bytes it asks for).
 * @npkts: its request packets.
 * @opcode: their opcode (SUPERP_OP_*).
 * @last: the message's last transaction.
 */
struct superp_msg_xact {
	u64 offset;
	u32 len;
	u16 npkts;
	u8 opcode;
	bool last;
};

/**
 * struct superp_msg_pkt - one packet of a transaction (one operation).
 * @offset: message offset of its payload.
 * @len: payload bytes.
 * @pad: bytes after the payload that fill the block (pad count).
 */
struct superp_msg_pkt {
	u64 offset;
	u32 len;
	u8 pad;
};

int superp_msg_check(const struct superp_msg *m);
u32 superp_msg_nxacts(const struct superp_msg *m);
void superp_msg_xact(const struct superp_msg *m, u32 i,
		     struct superp_msg_xact *x);
void superp_msg_pkt(const struct superp_msg *m, const struct superp_msg_xact *x,
		    u16 seqno, struct superp_msg_pkt *p);
u32 superp_msg_read_resp_pkts(u32 len, u32 mtu);
void superp_msg_read_resp_pkt(u32 len, u32 mtu, u16 seqno,
			      struct superp_msg_pkt *p);

#endif /* SUPERP_MSG_H */
