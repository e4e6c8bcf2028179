// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the RC initiator's request packets: the engine's room() and
 * fill() for a transaction of send WRs (superp_rc_send.c has the
 * overview). Packets are built by fill() from the WR's copy and
 * (transaction, seqno) alone, retransmissions included: payload bytes of
 * registered memory go into the skb as page fragments (small ones, and
 * inline data, are copied).
 *
 * Locking: every function here runs under the bound entry's lock
 * (superp_conn_entry.lock, BH), from the engine's callbacks;
 * superp_rc_bind.c has the lock order.
 */
#include <linux/skbuff.h>

#include "superp.h"
#include "superp_msg.h"
#include "superp_op.h"
#include "superp_qp.h"
#include "superp_rc_int.h"
#include "superp_rc_payload.h"

/* What superp_rc_walk_wr() walks: bytes of a WR's SGEs or inline data. */
struct superp_rc_wr_range {
	struct superp_rc_wr *wr;
	u64 off;
	u32 len;
};

/*
 * Inline data lives in the WR's own copy, slab memory that may not be
 * attached as a fragment: room() counts it and the walk says "copy".
 */
static bool superp_rc_wr_inline(const struct superp_rc_wr *wr)
{
	return !wr->wqe.num_sge;
}

static int superp_rc_walk_wr(void *ctx, superp_seg_fn fn, void *arg)
{
	struct superp_rc_wr_range *r = ctx;
	struct superp_rc_wr *wr = r->wr;
	struct superp_qp *qp = wr->qp;

	if (!r->len)
		return 0;
	if (superp_rc_wr_inline(wr))
		return fn == superp_rc_piece_check ? -EPERM :
		       superp_virt_walk((uintptr_t)wr->wqe.data + r->off,
					r->len, fn, arg);
	return superp_rc_sge_walk(to_sdev(qp->ibqp.device), qp->ibqp.pd,
				  superp_send_sge(&wr->wqe), wr->wqe.num_sge,
				  r->off, r->len, fn, arg);
}

/* room(): the linear bytes superp_rc_fill() puts in packet @p. */
unsigned int superp_rc_room(struct superp_xact_src *src,
			    const struct superp_pkt *p)
{
	struct superp_rc_xact *x = container_of(src, struct superp_rc_xact, src);
	struct superp_rc_wr *wr = x->wr;
	struct superp_msg_pkt mp;
	unsigned int room;

	if (x->nops > 1)	/* every payload copied into its block */
		return x->nops * (superp_op_hlen(SUPERP_OP_RDMA_WRITE) +
				  x->block);
	room = superp_op_hlen(x->mx.opcode);
	if (!superp_op_has_data(x->mx.opcode))
		return room;
	superp_msg_pkt(&wr->msg, &x->mx, p->seqno, &mp);
	if (superp_rc_copies(mp.len, mp.pad) || superp_rc_wr_inline(wr))
		room += mp.len + mp.pad;
	return room;
}

/*
 * fill() of a packed transaction: one RDMA WRITE header per WR, then
 * their payloads, each in a block of x->block bytes (copied: they are
 * small), all in the room superp_rc_room() asked for.
 */
static int superp_rc_fill_packed(struct superp_rc_xact *x, struct sk_buff *skb)
{
	struct superp_rc_wr_range range;
	struct superp_rc_wr *wr;
	int err;
	u8 i;

	for (i = 0; i < x->nops; i++) {
		struct superp_op op = {};

		wr = superp_rc_xact_wr(x, i);
		op.qpn = wr->dqpn;
		op.rkey = wr->wqe.rdma.rkey;
		op.addr = wr->wqe.rdma.remote_addr;
		op.pad = x->block - wr->msg.len;
		err = superp_rc_put_op(skb, SUPERP_OP_RDMA_WRITE, &op);
		if (err)
			return err;
	}
	for (i = 0; i < x->nops; i++) {
		wr = superp_rc_xact_wr(x, i);
		range.wr = wr;
		range.off = 0;
		range.len = wr->msg.len;
		err = superp_rc_skb_append(skb, range.len, x->block - range.len,
					   superp_rc_walk_wr, &range);
		if (err)
			return err;
	}
	return 0;
}

/* fill(): operation header and payload of packet @p of a transaction. */
int superp_rc_fill(struct superp_xact_src *src,
		   const struct superp_pkt *p, struct sk_buff *skb)
{
	struct superp_rc_xact *x = container_of(src, struct superp_rc_xact, src);
	struct superp_rc_wr *wr = x->wr;
	struct superp_rc_wr_range range;
	struct superp_msg_pkt mp;
	struct superp_op op = {};
	int err;

	if (x->nops > 1)
		return superp_rc_fill_packed(x, skb);
	superp_msg_pkt(&wr->msg, &x->mx, p->seqno, &mp);
	op.qpn = wr->dqpn;
	op.pad = mp.pad;
	op.offset = mp.offset;
	switch (x->mx.opcode) {
	case SUPERP_OP_SEND_QP_IMM:
		op.imm = wr->wqe.ex.imm_data;
		break;
	case SUPERP_OP_SEND_QP_INV:
		op.rkey = wr->wqe.ex.invalidate_rkey;
		break;
	case SUPERP_OP_RDMA_WRITE:
		op.rkey = wr->wqe.rdma.rkey;
		op.addr = wr->wqe.rdma.remote_addr + mp.offset;
		break;
	case SUPERP_OP_RDMA_READ:
		op.rkey = wr->wqe.rdma.rkey;
		op.addr = wr->wqe.rdma.remote_addr + x->mx.offset;
		op.length = x->mx.len;
		break;
	case SUPERP_OP_WRITE_COMPLETE:
		op.imm = wr->wqe.ex.imm_data;
		op.length = wr->msg.len;
		op.write_xid = wr->write_xid;
		break;
	case SUPERP_OP_ATOMIC_CAS:
	case SUPERP_OP_ATOMIC_FADD:
		op.rkey = wr->wqe.atomic.rkey;
		op.addr = wr->wqe.atomic.remote_addr;
		op.operand = wr->wqe.atomic.compare_add;
		op.swap = wr->wqe.atomic.swap;
		break;
	}
	err = superp_rc_put_op(skb, x->mx.opcode, &op);
	if (err)
		return err;
	if (!superp_op_has_data(x->mx.opcode))
		return 0;
	range.wr = wr;
	range.off = mp.offset;
	range.len = mp.len;
	return superp_rc_skb_append(skb, mp.len, mp.pad, superp_rc_walk_wr,
				    &range);
}
