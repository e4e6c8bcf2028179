// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: a verbs message as transactions and packets.
 *
 * A message of len bytes travels in ceil(len / mtu) packets (one when len
 * is 0; mtu is the QP's segment, superp_rc_seg()), one operation each,
 * grouped into transactions of at most max_pkts packets
 * (tal_max_pkt_per_trans). Packet k carries message bytes
 * [k * mtu, min(len, (k + 1) * mtu)). Opcodes (Documentation/superp-rc.rst):
 *
 *   SEND        12 when the message is one packet of at least 16 bytes;
 *               else 25 for the last transaction, 26 for those before it
 *   SEND_IMM    17 for the last transaction, 26 for those before it
 *   SEND_INV    28 for the last transaction, 26 for those before it
 *   WRITE       23 for every transaction
 *   WRITE_IMM   23 for the data (none when len is 0), then one 18
 *   READ        one 24 request packet per transaction, each asking for
 *               at most max_pkts * mtu bytes, answered by 10
 *   CAS, FADD   one transaction of one 19 / 20 packet (len is 8, the
 *               local SGE the original value goes to), answered by 21
 *
 * A block is never shorter than SUPERP_MIN_BLOCK, nor than what makes the
 * packet m->min_len bytes long (SUPERp-lite over SUNH): a shorter payload
 * gets a pad count under the extension opcodes, and the spec's 12 (no pad
 * count) is used only when the payload fills such a block; Read Response (10) has none, and
 * its short last block is filled with zeros that the initiator ignores
 * (wire-format.rst, "Data blocks").
 *
 * Everything here is arithmetic on the message's shape, so the sender can
 * build any packet, a retransmission included, from the work request and
 * (transaction, seqno) alone (the engine hands both to xmit()).
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <rdma/superp_wire.h>

#include "superp_msg.h"

static bool superp_msg_is_atomic(const struct superp_msg *m)
{
	return m->kind == SUPERP_MSG_CAS || m->kind == SUPERP_MSG_FADD;
}

/* Data packets of a message: at least one, which may carry nothing. */
static u64 superp_msg_npkts(const struct superp_msg *m)
{
	return max_t(u64, 1, DIV_ROUND_UP_ULL(m->len, m->mtu));
}

/* Transactions that carry the message's bytes (reads: that ask for them). */
static u32 superp_msg_data_xacts(const struct superp_msg *m)
{
	if (superp_msg_is_atomic(m))
		return 1;
	if (m->kind == SUPERP_MSG_WRITE_IMM && !m->len)
		return 0;
	return DIV_ROUND_UP_ULL(superp_msg_npkts(m), m->max_pkts);
}

/**
 * superp_msg_check() - whether a message shape is one this file plans.
 * @m: the shape.
 *
 * Return: 0, or -EINVAL (unknown kind, segment not a multiple of
 * SUPERP_SEG_ALIGN up to SUPERP_SEG_MAX, max_pkts not in 1..4096, an atomic
 * not of 8 bytes), or
 * -EMSGSIZE (longer than SUPERP_MSG_MAX).
 */
int superp_msg_check(const struct superp_msg *m)
{
	if (m->kind > SUPERP_MSG_SEND_INV ||
	    (superp_msg_is_atomic(m) && m->len != sizeof(u64)) ||
	    !m->mtu || m->mtu > SUPERP_SEG_MAX || m->mtu % SUPERP_SEG_ALIGN ||
	    !m->max_pkts || m->max_pkts > 4096)
		return -EINVAL;
	return m->len > SUPERP_MSG_MAX ? -EMSGSIZE : 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_msg_check);

/* How many transactions the message takes (its shape checked). */
u32 superp_msg_nxacts(const struct superp_msg *m)
{
	u32 n = superp_msg_data_xacts(m);

	return m->kind == SUPERP_MSG_WRITE_IMM ? n + 1 : n;
}
EXPORT_SYMBOL_IF_KUNIT(superp_msg_nxacts);

/* The smallest block of an @opcode packet with one operation. */
static u32 superp_msg_min_block(const struct superp_msg *m, u8 opcode)
{
	int need = m->min_len - superp_data_offset(superp_op_hlen(opcode), 1);

	return max_t(int, need, SUPERP_MIN_BLOCK);
}

static u8 superp_msg_send_opcode(const struct superp_msg *m, bool last)
{
	if (!last)
		return SUPERP_OP_SEND_QP_MORE;
	if (m->kind == SUPERP_MSG_SEND_IMM)
		return SUPERP_OP_SEND_QP_IMM;
	if (m->kind == SUPERP_MSG_SEND_INV)
		return SUPERP_OP_SEND_QP_INV;
	/* Only a whole message in one full-block packet fits the spec's 12. */
	if (superp_msg_npkts(m) == 1 &&
	    m->len >= superp_msg_min_block(m, SUPERP_OP_SEND_QP))
		return SUPERP_OP_SEND_QP;
	return SUPERP_OP_SEND_QP_OFF;
}

/**
 * superp_msg_xact() - transaction @i of a message.
 * @m: the shape (checked).
 * @i: 0 .. superp_msg_nxacts() - 1.
 * @x: filled in.
 */
void superp_msg_xact(const struct superp_msg *m, u32 i,
		     struct superp_msg_xact *x)
{
	u32 ndata = superp_msg_data_xacts(m);
	u64 chunk = (u64)m->max_pkts * m->mtu;
	u64 first = (u64)i * m->max_pkts;	/* its first data packet */

	x->last = i + 1 == superp_msg_nxacts(m);
	if (i == ndata) {
		/* WRITE_IMM's Write Complete: no data of its own. */
		x->offset = m->len;
		x->len = 0;
		x->npkts = 1;
		x->opcode = SUPERP_OP_WRITE_COMPLETE;
		return;
	}
	if (superp_msg_is_atomic(m)) {
		x->offset = 0;
		x->len = m->len;
		x->npkts = 1;
		x->opcode = m->kind == SUPERP_MSG_CAS ? SUPERP_OP_ATOMIC_CAS :
			    SUPERP_OP_ATOMIC_FADD;
		return;
	}
	x->offset = (u64)i * chunk;
	x->len = min_t(u64, chunk, m->len - x->offset);
	if (m->kind == SUPERP_MSG_READ) {
		x->npkts = 1;
		x->opcode = SUPERP_OP_RDMA_READ;
		return;
	}
	x->npkts = min_t(u64, m->max_pkts, superp_msg_npkts(m) - first);
	if (m->kind == SUPERP_MSG_WRITE || m->kind == SUPERP_MSG_WRITE_IMM)
		x->opcode = SUPERP_OP_RDMA_WRITE;
	else
		x->opcode = superp_msg_send_opcode(m, x->last);
}
EXPORT_SYMBOL_IF_KUNIT(superp_msg_xact);

/* Payload @len in a block of its own: the pad count that fills it. */
static u8 superp_msg_fill(u32 len, u32 block)
{
	return len < block ? block - len : 0;
}

/**
 * superp_msg_pkt() - packet @seqno of transaction @x of a message.
 * @m: the shape (checked).
 * @x: from superp_msg_xact().
 * @seqno: 0 .. x->npkts - 1.
 * @p: filled in; for opcodes without data, offset is the transaction's and
 *	len and pad are 0.
 */
void superp_msg_pkt(const struct superp_msg *m, const struct superp_msg_xact *x,
		    u16 seqno, struct superp_msg_pkt *p)
{
	p->offset = x->offset + (u64)seqno * m->mtu;
	if (!superp_op_has_data(x->opcode)) {
		p->offset = x->offset;
		p->len = 0;
		p->pad = 0;
		return;
	}
	p->len = min_t(u64, m->mtu, m->len - p->offset);
	p->pad = superp_op_has_pad(x->opcode) ?
		 superp_msg_fill(p->len, superp_msg_min_block(m, x->opcode)) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_msg_pkt);

/* Read Response packets that answer a read of @len bytes (at least one). */
u32 superp_msg_read_resp_pkts(u32 len, u32 mtu)
{
	return max_t(u32, 1, DIV_ROUND_UP(len, mtu));
}
EXPORT_SYMBOL_IF_KUNIT(superp_msg_read_resp_pkts);

/*
 * Read Response packet @seqno of a read of @len bytes: offset and length
 * of the read data it carries; pad is the zero fill up to a 16-byte block,
 * sent but not counted on the wire (10 has no pad count).
 */
void superp_msg_read_resp_pkt(u32 len, u32 mtu, u16 seqno,
			      struct superp_msg_pkt *p)
{
	p->offset = (u64)seqno * mtu;
	p->len = min_t(u64, mtu, len - p->offset);
	p->pad = superp_msg_fill(p->len, SUPERP_MIN_BLOCK);
}
EXPORT_SYMBOL_IF_KUNIT(superp_msg_read_resp_pkt);
