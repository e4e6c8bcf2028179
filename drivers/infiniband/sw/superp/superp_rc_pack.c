// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: packing small RDMA WRITEs of an RC QP into one packet.
 *
 * Packing: an RDMA WRITE of at most SUPERP_RC_PACK_LEN bytes, when the
 * engine would start its transaction now, takes the small WRITEs queued
 * behind it in the same QP (superp_qp_next_send_if()) as the other
 * operations of its one packet, up to tal_max_ops_per_pkt, never waiting
 * for more (superp_rc_pack_*()). Each packed WR keeps its own completion:
 * a Transaction Error names the failed operation (opnum); those before it
 * ran, those after it did not (flushed, or replayed behind a refusal).
 *
 * Locking: every function here runs under the bound entry's lock
 * (superp_conn_entry.lock, BH), from superp_rc_submit()
 * (superp_rc_send.c); superp_rc_bind.c has the lock order.
 */
#include "superp.h"
#include "superp_msg.h"
#include "superp_op.h"
#include "superp_qp.h"
#include "superp_rc_int.h"

/* What a pack holds so far: superp_rc_pack_fits() tests one more. */
struct superp_rc_pack {
	u32 mtu;
	u32 shortest;
	u32 longest;
	u8 nops;
};

/* Payload bytes that make an RDMA WRITE small enough to pack. */
#define SUPERP_RC_PACK_LEN	256

/* The block that holds payloads of up to @longest bytes. */
static u32 superp_rc_pack_block(u32 longest)
{
	return max_t(u32, longest, SUPERP_MIN_BLOCK);
}

/*
 * Whether a WRITE of @len joins @pk: every payload's pad to the common
 * block fits the pad count (u8), and the headers and blocks take no more
 * than one operation of a full packet.
 */
static bool superp_rc_pack_fits(const struct superp_rc_pack *pk, u32 len)
{
	u32 hlen = superp_op_hlen(SUPERP_OP_RDMA_WRITE);
	u32 block = superp_rc_pack_block(max(pk->longest, len));

	return block - min(pk->shortest, len) <= U8_MAX &&
	       (pk->nops + 1) * (hlen + block) <= hlen + pk->mtu;
}

/* superp_qp_next_send_if()'s match: the next WR joins the pack. */
static bool superp_rc_pack_match(const struct superp_send_wqe *wqe, void *arg)
{
	return wqe->opcode == IB_WR_RDMA_WRITE &&
	       !(wqe->send_flags & IB_SEND_FENCE) &&
	       wqe->length <= SUPERP_RC_PACK_LEN &&
	       superp_rc_pack_fits(arg, wqe->length);
}

/* Whether @wr, about to submit transaction @mx, may lead a pack. */
bool superp_rc_pack_leads(const struct superp_rc_wr *wr,
			  const struct superp_msg_xact *mx)
{
	return wr->msg.kind == SUPERP_MSG_WRITE && wr->nxacts == 1 &&
	       mx->npkts == 1 && wr->msg.len <= SUPERP_RC_PACK_LEN;
}

/*
 * Takes the small WRITEs queued behind @x's WR into @x, at most @max_ops
 * operations in all; sets x->nops and x->block.
 */
void superp_rc_pack_gather(struct superp_conn_entry *e,
			   struct superp_rc_xact *x, u8 max_ops)
{
	struct superp_rc_pack pk = {
		.mtu = x->wr->msg.mtu,
		.shortest = x->wr->msg.len,
		.longest = x->wr->msg.len,
		.nops = 1,
	};
	struct superp_rc_wr *w;

	while (pk.nops < max_ops) {
		w = superp_rc_wr_take(e, x->wr->qp, superp_rc_pack_match, &pk);
		if (!w)
			break;
		if (w->nxacts != 1 || w->status != IB_WC_SUCCESS) {
			/* Not plannable after all (cannot be): it fails alone. */
			superp_rc_wr_fail(w, IB_WC_LOC_QP_OP_ERR);
			superp_rc_wr_finish(w);
			break;
		}
		x->packed[pk.nops - 1] = w;
		pk.shortest = min_t(u32, pk.shortest, w->msg.len);
		pk.longest = max_t(u32, pk.longest, w->msg.len);
		pk.nops++;
	}
	x->nops = pk.nops;
	x->block = superp_rc_pack_block(pk.longest);
}
