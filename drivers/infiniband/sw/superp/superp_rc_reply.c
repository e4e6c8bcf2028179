// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the RC initiator's answers: the engine's rx(), placed() and
 * complete() for a transaction of send WRs, and the status each WR
 * completes with. The WR completes (superp_qp_send_done(), which keeps
 * posted order) when its last transaction retired; an RDMA Read's
 * transactions retire after their Read Response was placed by rx(), an
 * atomic's (one transaction of one packet) after rx() placed its Atomic
 * Response's original value, the host's native u64, into the local SGE.
 *
 * Locking: every function here runs under the bound entry's lock
 * (superp_conn_entry.lock, BH), from the engine's callbacks or from the
 * initiator's kicks (superp_rc_send.c); superp_rc_bind.c has the lock
 * order.
 */
#include <linux/highmem.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include "superp.h"
#include "superp_msg.h"
#include "superp_op.h"
#include "superp_qp.h"
#include "superp_rc_int.h"
#include "superp_rc_payload.h"

/* The WR cannot finish well: remember why and submit nothing more. */
void superp_rc_wr_fail(struct superp_rc_wr *wr,
		       enum ib_wc_status status)
{
	if (wr->status == IB_WC_SUCCESS)
		wr->status = status;
	wr->next_x = wr->nxacts;
	if (wr->qp->rc.cur == wr)
		wr->qp->rc.cur = NULL;
}

/*
 * Whether @wr, at or after the WR refused RNR, is to run again rather than
 * complete: the target ran none of it.
 */
static bool superp_rc_wr_replays(struct superp_rc_wr *wr)
{
	struct superp_qp *qp = wr->qp;

	return wr->status == IB_WC_SUCCESS &&
	       qp->rc.rnr != SUPERP_RC_RNR_NONE &&
	       READ_ONCE(qp->conn) == wr->e &&
	       (s32)(wr->wqe.idx - qp->rc.rnr_idx) >= 0;
}

/* Completes @wr once nothing of it is left to submit or in flight. */
void superp_rc_wr_finish(struct superp_rc_wr *wr)
{
	struct superp_qp *qp = wr->qp;

	if (wr->pending > wr->placed || wr->next_x < wr->nxacts ||
	    qp->rc.cur == wr)
		return;
	/* Cancelled: the flush or reset took the WR already. */
	if (!wr->done && !superp_rc_wr_replays(wr) && !qp->rc.cancelled) {
		if (wr->status == IB_WC_SUCCESS &&
		    READ_ONCE(qp->conn) == wr->e &&
		    qp->rc.rnr == SUPERP_RC_RNR_NONE)
			qp->rc.rnr_tries = 0;
		superp_qp_send_done(qp, wr->wqe.idx, wr->status);
	}
	wr->done = true;
	if (wr->pending)	/* placed: its transactions have yet to retire */
		return;
	superp_qp_put(qp);
	kfree(wr);
}

/* superp_seg_fn: bytes from a buffer (a u8 ** cursor) into the piece. */
static int superp_rc_seg_from_buf(void *arg, struct page *page,
				  unsigned int off, unsigned int len)
{
	const u8 **src = arg;

	memcpy_to_page(page, off, *src, len);
	*src += len;
	return 0;
}

/*
 * An Atomic Response: the original value into the local SGE (8 bytes,
 * checked at post), in the host's byte order as a verbs consumer reads it.
 */
static void superp_rc_rx_atomic(struct superp_rc_wr *wr,
				const struct superp_pkt *p,
				const struct sk_buff *skb)
{
	struct superp_qp *qp = wr->qp;
	u8 buf[sizeof(struct superp_atomic_resp_op)];
	struct superp_op op;
	const void *hdr;
	const u8 *val;
	u64 orig;

	hdr = skb_header_pointer(skb, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN,
				 sizeof(buf), buf);
	if (p->num_ops != 1 || !hdr ||
	    superp_op_decode(SUPERP_OP_ATOMIC_RESP, hdr, &op) ||
	    op.seqno || op.opnum) {
		superp_rc_wr_fail(wr, IB_WC_BAD_RESP_ERR);
		return;
	}
	orig = op.orig;
	val = (const u8 *)&orig;
	if (superp_rc_sge_walk(to_sdev(qp->ibqp.device), qp->ibqp.pd,
			       superp_send_sge(&wr->wqe), wr->wqe.num_sge, 0,
			       sizeof(orig), superp_rc_seg_from_buf, &val))
		superp_rc_wr_fail(wr, IB_WC_LOC_PROT_ERR);
}

/*
 * A Transaction Error of a packed transaction: which operation failed.
 * (Unpacked, there is only one to fail.)
 */
static void superp_rc_rx_terr(struct superp_rc_xact *x,
			      const struct sk_buff *skb)
{
	struct superp_terr_op buf;
	struct superp_op op;
	const void *hdr;

	if (x->nops == 1)
		return;
	hdr = skb_header_pointer(skb, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN,
				 sizeof(buf), &buf);
	if (!hdr || superp_op_decode(SUPERP_OP_TRANS_ERROR, hdr, &op) ||
	    op.seqno || op.opnum >= x->nops)
		x->bad_err = true;
	else
		x->err_op = op.opnum;
}

/* rx(): a reply packet: its data into the local SGEs. */
static void superp_rc_rx(struct superp_xact_src *src,
			 const struct superp_pkt *p, struct sk_buff *skb)
{
	struct superp_rc_xact *x = container_of(src, struct superp_rc_xact, src);
	struct superp_rc_wr *wr = x->wr;
	struct superp_qp *qp = wr->qp;
	struct superp_skb_src pos = { .skb = skb };
	u8 buf[SUPERP_MAX_OP_HLEN];
	struct superp_op op;
	int hlen, block;
	const void *hdr;
	u32 n;

	if (p->opcode == SUPERP_OP_ATOMIC_RESP) {
		superp_rc_rx_atomic(wr, p, skb);
		return;
	}
	if (p->opcode == SUPERP_OP_TRANS_ERROR) {
		x->terr = true;
		superp_rc_rx_terr(x, skb);	/* complete() has the code */
		return;
	}
	if (p->opcode != SUPERP_OP_READ_RESP)
		return;
	hlen = superp_op_hlen(p->opcode);
	block = superp_block_size(skb->len - SUPERP_PDL_HLEN, hlen, p->num_ops);
	hdr = skb_header_pointer(skb, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN, hlen,
				 buf);
	if (block < 0 || p->num_ops != 1 || !hdr ||
	    superp_op_decode(p->opcode, hdr, &op) || op.offset > x->mx.len) {
		superp_rc_wr_fail(wr, IB_WC_BAD_RESP_ERR);
		return;
	}
	n = min_t(u32, block, x->mx.len - op.offset);
	pos.offset = SUPERP_PDL_HLEN + superp_data_offset(hlen, 1);
	if (superp_rc_sge_walk(to_sdev(qp->ibqp.device), qp->ibqp.pd,
			       superp_send_sge(&wr->wqe), wr->wqe.num_sge,
			       x->mx.offset + op.offset, n,
			       superp_seg_from_skb, &pos))
		superp_rc_wr_fail(wr, IB_WC_LOC_PROT_ERR);
}

/**
 * superp_rc_status - a failed transaction's WR status
 * @status: the engine's negative errno
 * @err: the Transaction Error, with -EREMOTEIO
 *
 * -ECONNRESET is our own doing (hard shutdown, the connection or device
 * deleted): flushed, as a move to ERR would. Anything else broke the
 * connection under the WR (retransmission budget, transaction timeout):
 * IB_WC_RETRY_EXC_ERR, as IB's requester reports a peer that went silent.
 */
enum ib_wc_status superp_rc_status(int status, u32 err)
{
	switch (status) {
	case -EREMOTEIO:
		return superp_terr_wc_status(err);
	case -EPROTO:
		return IB_WC_BAD_RESP_ERR;
	case -ECANCELED:
	case -ECONNRESET:
		return IB_WC_WR_FLUSH_ERR;
	default:
		return IB_WC_RETRY_EXC_ERR;
	}
}

/*
 * The status of a WR whose next transaction the engine would not take.
 * Out of memory is ours. A connection that broke under the QP (-ENOTCONN:
 * its pending transactions are failing, a READ's completion kicks us
 * meanwhile) flushes a WR of which nothing went out, as IB flushes the
 * WRs behind the one that failed. Anything else (soft shutdown's refusal,
 * part of the WR gone) is RETRY_EXC_ERR.
 */
enum ib_wc_status superp_rc_refused_status(const struct superp_rc_wr *wr,
					   int err)
{
	if (err == -ENOMEM)
		return IB_WC_LOC_QP_OP_ERR;
	if (err == -ENOTCONN && !wr->next_x)
		return IB_WC_WR_FLUSH_ERR;
	return IB_WC_RETRY_EXC_ERR;
}

/*
 * What transaction @x's end (@status, @err) means for the WR of its
 * operation @i. A Transaction Error names one operation: those before it
 * ran; those after it did not: they flush, or, behind a refusal (RNR, an
 * absent QP), wait with it.
 */
static void superp_rc_op_end(struct superp_rc_xact *x, u8 i, bool bound,
			     int status, u32 err)
{
	struct superp_rc_wr *wr = superp_rc_xact_wr(x, i);
	bool refused, absent;

	if (!status)
		return;
	if (status != -EREMOTEIO) {
		superp_rc_wr_fail(wr, superp_rc_status(status, err));
		return;
	}
	if (x->bad_err) {
		superp_rc_wr_fail(wr, IB_WC_BAD_RESP_ERR);
		return;
	}
	if (i < x->err_op)
		return;
	refused = bound && superp_rc_refused(err, &absent);
	if (i > x->err_op) {
		if (!refused)
			superp_rc_wr_fail(wr, IB_WC_WR_FLUSH_ERR);
		return;
	}
	if (refused)
		superp_rc_rnr_refused(wr->qp, wr, absent);
	else
		superp_rc_wr_fail(wr, superp_rc_status(status, err));
}

/*
 * placed(): an RDMA Read's data or an atomic's original value is in the
 * local SGEs. As on InfiniBand, that completes the WR (with its last
 * transaction), and the QP may start its next Read or atomic: the
 * target's ACK XID, which retires the transaction, comes a round trip
 * later. The engine delivers no reply packet of the transaction after
 * this, so the consumer may reuse the memory at once.
 */
static void superp_rc_placed(struct superp_xact_src *src)
{
	struct superp_rc_xact *x = container_of(src, struct superp_rc_xact, src);
	struct superp_rc_wr *wr = x->wr;
	struct superp_qp *qp = wr->qp;

	if (!superp_rc_is_rd_atomic(x->mx.opcode) || x->placed || x->terr ||
	    wr->status != IB_WC_SUCCESS)
		return;
	x->placed = true;
	qp->rc.rd_inflight--;
	wr->placed++;
	superp_rc_wr_finish(wr);
	if (READ_ONCE(qp->conn) == wr->e)
		superp_rc_kick_locked(wr->e, qp);
}

/* complete(): a transaction of WRs retired, failed or was aborted. */
static void superp_rc_complete(struct superp_xact_src *src, int status,
			       u32 err)
{
	struct superp_rc_xact *x = container_of(src, struct superp_rc_xact, src);
	struct superp_rc_wr *wr = x->wr;
	struct superp_conn_entry *e = wr->e;
	struct superp_qp *qp = wr->qp;
	bool read = superp_rc_is_rd_atomic(x->mx.opcode);
	bool bound = READ_ONCE(qp->conn) == e;
	u8 i;

	if (read && !x->placed)
		qp->rc.rd_inflight--;
	if (bound && qp->rc.xinflight)
		qp->rc.xinflight--;
	/* The QP may outlive its WRs only by its own reference: hold one. */
	refcount_inc(&qp->ref);
	for (i = 0; i < x->nops; i++) {
		wr = superp_rc_xact_wr(x, i);
		if (x->placed)		/* completed already (placed()) */
			wr->placed--;
		else
			superp_rc_op_end(x, i, bound, status, err);
		wr->pending--;
		superp_rc_wr_finish(wr);
	}
	kfree(x);
	if (bound && qp->rc.rnr == SUPERP_RC_RNR_ANSWERS &&
	    !qp->rc.xinflight)
		superp_rc_rnr_answered(qp);
	else if (read && bound)
		superp_rc_kick_locked(e, qp);
	superp_qp_put(qp);
}

const struct superp_xact_ops superp_rc_xact_ops = {
	.room = superp_rc_room,
	.fill = superp_rc_fill,
	.rx = superp_rc_rx,
	.placed = superp_rc_placed,
	.complete = superp_rc_complete,
};
