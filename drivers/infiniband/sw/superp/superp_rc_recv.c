// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the target of RC QPs (Documentation/superp-rc.rst, "At the
 * target"): the engine's target callbacks for an installed connection.
 *
 * target_pkt() runs each operation of a request packet as it is accepted
 * (the connection is ordered, so packets come in PSN order and a message's
 * packets in offset order): the QP by number, bound to this connection, in
 * RTR/RTS/SQD; RDMA Write: superp_rma_check() then one copy from the skb
 * into the MR; RDMA Read: checked and remembered; Sends: the first packet
 * of a message (offset 0) takes a receive WR, which the QP keeps until the
 * message's last packet (eom of a transaction other than 26), where the
 * receive completes (after Send to QP with Invalidate, 28, has invalidated
 * its key: superp_rc_recv_end()); Write Complete (18) consumes a receive. The first
 * failure of a transaction is kept in its slot (struct superp_rc_tgt,
 * indexed by XID) and later operations of it are skipped; target_request()
 * then answers with that Transaction Error, which names the failed
 * operation (seqno, opnum: the operations of a packed packet before it
 * ran, those after it did not), or, for an RDMA Read, with
 * its Read Response packets, built by fill() from the MR's pages;
 * target_done() drops the MR.
 *
 * Decisions: no receive posted for a SEND (or Write Complete) is answered
 * RNR/UNSPEC and the QP enters its RNR wait (qp->rc.tgt_rnr): every later
 * request operation of the QP, the rest of that message included, is
 * refused RNR/UNSPEC without being run, so nothing overtakes the refused
 * message, until a QP Resume (27) for it arrives; the sender replays from
 * the refused WR (superp_rc_rnr.c). A message
 * longer than its receive: INVALID/TOO_LONG, the receive completes with
 * IB_WC_LOC_LEN_ERR and the target QP goes to ERR. Atomics (19, 20, one
 * operation per packet) are checked and executed once, when their packet
 * is accepted (superp_mr_atomic(): the CPU's cmpxchg on the MR's page);
 * the original value waits in the slot for the Atomic Response, which
 * fill() rebuilds from it at every (re)transmission. A duplicate request
 * packet never reaches target_pkt() (PDL and TAL drop it), so nothing
 * executes twice.
 *
 * Slots: the array of struct superp_rc_tgt comes with the first QP bound
 * to the connection (superp_rc_qp_bind()); until then e->rc.tgt is NULL
 * and, since a request operation needs a QP bound to this connection,
 * every request is refused without state: target_pkt() does nothing and
 * target_request() answers INVALID/NO_QP with a NULL cookie, which xmit
 * builds from the code alone (seqno 0, opnum 0: the first operation, the
 * one today's checks would have refused). The array may appear in the
 * middle of a transaction whose first packet went that way; the rule is
 * that a slot is only used by a transaction whose seqno 0 packet found
 * it: the first packet resets its slot, and a new array starts with every
 * slot refusing INVALID/NO_QP at seqno 0, opnum 0, so the rest of such a
 * transaction is skipped and it is answered as if the array never came.
 *
 * Locking: every callback runs under the entry's lock (BH; lock order:
 * the top of superp_rc_bind.c); QPs are found with superp_qp_get() (RCU)
 * and their target state (qp->rc) is touched only under the lock of the
 * entry they are bound to, which is this one.
 */
#include <linux/skbuff.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_cq.h"
#include "superp_mr.h"
#include "superp_msg.h"
#include "superp_mw.h"
#include "superp_op.h"
#include "superp_qp.h"
#include "superp_rc.h"
#include "superp_rc_payload.h"

static struct superp_rc_tgt *superp_rc_slot(struct superp_conn_entry *e,
					    u16 xid)
{
	return &e->rc.tgt[superp_rc_slot_index(e->rc.tgt_slots, xid)];
}

/*
 * The receive of the current message completes with @status; @wc_flags
 * IB_WC_WITH_IMM or IB_WC_WITH_INVALIDATE take the immediate or the key
 * from @op.
 */
static void superp_rc_recv_done(struct superp_qp *qp, enum ib_wc_status status,
				enum ib_wc_opcode opcode, u32 len, int wc_flags,
				const struct superp_op *op)
{
	struct ib_wc wc = {
		.wr_id = qp->rc.rwqe->wr_id,
		.status = status,
		.opcode = opcode,
		.byte_len = len,
		.qp = &qp->ibqp,
		.src_qp = qp->attr.dest_qp_num,
		.wc_flags = wc_flags,
	};

	if (wc_flags & IB_WC_WITH_IMM)
		wc.ex.imm_data = op->imm;
	else if (wc_flags & IB_WC_WITH_INVALIDATE)
		wc.ex.invalidate_rkey = op->rkey;
	qp->rc.rvalid = false;
	superp_cq_post(to_scq(qp->ibqp.recv_cq), &wc, false);
}

/*
 * The end of a message that arrived whole: its receive completes, and a
 * Send to QP with Invalidate (28) first invalidates its key, which must
 * name a fast-registration MR of the QP's PD registered with that key, or
 * a type 2 memory window bound to this QP with that key (the only memory
 * ib_superp lets a peer invalidate: the consumer registered or bound it
 * for one exchange). Return: the Transaction Error code, or 0.
 */
static u32 superp_rc_recv_end(struct superp_qp *qp, const struct superp_pkt *p,
			      const struct superp_op *op)
{
	struct superp_dev *sdev = to_sdev(qp->ibqp.device);
	int wc_flags = 0;

	switch (p->opcode) {
	case SUPERP_OP_SEND_QP_IMM:
		wc_flags = IB_WC_WITH_IMM;
		break;
	case SUPERP_OP_SEND_QP_INV:
		if (superp_key_invalidate(&sdev->mrs, qp->ibqp.pd, qp->serial,
					  op->rkey, true) != IB_WC_SUCCESS) {
			ibdev_dbg(&sdev->ibdev,
				  "QP %u: no MR or window of its PD to invalidate with key 0x%x\n",
				  qp->ibqp.qp_num, op->rkey);
			superp_rc_recv_done(qp, IB_WC_REM_INV_REQ_ERR,
					    IB_WC_RECV, 0, 0, NULL);
			superp_qp_error(qp);
			return SUPERP_TERR(SUPERP_TERR_INVALID,
					   SUPERP_TERR_INV_RKEY);
		}
		wc_flags = IB_WC_WITH_INVALIDATE;
		break;
	}
	superp_rc_recv_done(qp, IB_WC_SUCCESS, IB_WC_RECV, qp->rc.rlen,
			    wc_flags, op);
	return 0;
}

/* One Send operation (12, 25, 26, 17, 28): the Transaction Error code or 0. */
static u32 superp_rc_tgt_send(struct superp_qp *qp, const struct superp_pkt *p,
			      const struct superp_op *op,
			      const struct sk_buff *skb, int data_off, u32 plen)
{
	struct superp_rc_qp *rc = &qp->rc;
	u64 offset = p->opcode == SUPERP_OP_SEND_QP ? 0 : op->offset;
	bool last = p->eom && p->opcode != SUPERP_OP_SEND_QP_MORE;
	struct superp_skb_src pos = { .skb = skb, .offset = data_off };
	u32 err;

	if (!offset) {
		if (rc->rvalid)	/* the last message never ended */
			superp_rc_recv_done(qp, IB_WC_REM_INV_REQ_ERR,
					    IB_WC_RECV, 0, 0, NULL);
		rc->rerr = 0;
		rc->rlen = 0;
		switch (superp_qp_get_recv(qp, rc->rwqe)) {
		case 0:
			rc->rvalid = true;
			break;
		case -ENOENT:
			rc->rerr = SUPERP_TERR(SUPERP_TERR_RNR,
					       SUPERP_TERR_UNSPEC);
			rc->tgt_rnr = true;
			break;
		default:
			rc->rerr = SUPERP_TERR(SUPERP_TERR_INVALID,
					       SUPERP_TERR_QP_STATE);
		}
	} else if (!rc->rerr && !rc->rvalid) {
		/* The middle of a message whose start we never saw. */
		rc->rerr = SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_UNSPEC);
	}
	if (!rc->rerr) {
		if (offset + plen > rc->rwqe->length) {
			rc->rerr = SUPERP_TERR(SUPERP_TERR_INVALID,
					       SUPERP_TERR_TOO_LONG);
			superp_rc_recv_done(qp, IB_WC_LOC_LEN_ERR, IB_WC_RECV,
					    0, 0, NULL);
			superp_qp_error(qp);
		} else if (superp_rc_sge_walk(to_sdev(qp->ibqp.device),
					      superp_qp_recv_pd(qp),
					      rc->rwqe->sge,
					      rc->rwqe->num_sge, offset, plen,
					      superp_seg_from_skb, &pos)) {
			rc->rerr = SUPERP_TERR(SUPERP_TERR_OPERATION,
					       SUPERP_TERR_UNSPEC);
			superp_rc_recv_done(qp, IB_WC_LOC_PROT_ERR, IB_WC_RECV,
					    0, 0, NULL);
			superp_qp_error(qp);
		} else {
			rc->rlen = max(rc->rlen, offset + plen);
		}
	}
	err = rc->rerr;
	if (last) {
		if (rc->rvalid)
			err = superp_rc_recv_end(qp, p, op);
		rc->rerr = 0;
	}
	return err;
}

/* Write Complete (18): the immediate of an RDMA WRITE WITH IMM. */
static u32 superp_rc_tgt_write_imm(struct superp_qp *qp,
				   const struct superp_op *op)
{
	switch (superp_qp_get_recv(qp, qp->rc.rwqe)) {
	case 0:
		break;
	case -ENOENT:
		qp->rc.tgt_rnr = true;
		return SUPERP_TERR(SUPERP_TERR_RNR, SUPERP_TERR_UNSPEC);
	default:
		return SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_QP_STATE);
	}
	qp->rc.rvalid = true;
	superp_rc_recv_done(qp, IB_WC_SUCCESS, IB_WC_RECV_RDMA_WITH_IMM,
			    op->length, IB_WC_WITH_IMM, op);
	return 0;
}

/*
 * Atomic Compare-and-Swap or Fetch-and-Add (19, 20): checked, executed,
 * the original value kept for the Atomic Response. One per packet: the
 * response answers one operation.
 */
static u32 superp_rc_tgt_atomic(struct superp_dev *sdev,
				const struct superp_rma_scope *scope,
				struct superp_rc_tgt *slot,
				const struct superp_pkt *p,
				const struct superp_op *op)
{
	struct superp_mr *mr;
	u32 err;

	if (p->num_ops != 1 || p->seqno)
		return SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_UNSPEC);
	err = superp_rma_check(&sdev->mrs, scope, op->rkey,
			       IB_ACCESS_REMOTE_ATOMIC, op->addr, sizeof(u64),
			       &mr);
	if (err)
		return err;
	err = superp_mr_atomic(mr, op->addr, p->opcode, op->operand, op->swap,
			       &slot->orig);
	superp_mr_put(mr);
	return err;
}

/* One request operation: the Transaction Error code, or 0. */
static u32 superp_rc_tgt_op(struct superp_conn_entry *e,
			    struct superp_rc_tgt *slot,
			    const struct superp_pkt *p,
			    const struct superp_op *op,
			    const struct sk_buff *skb, int data_off, u32 plen)
{
	struct superp_dev *sdev = e->sdev;
	struct superp_rma_scope scope;
	enum ib_qp_state state;
	struct superp_mr *mr;
	struct superp_qp *qp;
	u32 err = 0;

	qp = superp_qp_get(sdev, op->qpn);
	if (!qp)
		return SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_NO_QP);
	state = READ_ONCE(qp->state);
	if (READ_ONCE(qp->conn) != e) {
		err = SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_NO_QP);
		goto put;
	}
	if (state != IB_QPS_RTR && state != IB_QPS_RTS &&
	    state != IB_QPS_SQD) {
		err = SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_QP_STATE);
		goto put;
	}
	if (p->opcode == SUPERP_OP_QP_RESUME) {
		/* The refused message starts again at offset 0. */
		qp->rc.tgt_rnr = false;
		qp->rc.rerr = 0;
		goto put;
	}
	if (qp->rc.tgt_rnr) {
		err = SUPERP_TERR(SUPERP_TERR_RNR, SUPERP_TERR_UNSPEC);
		goto put;
	}
	scope.pd = qp->ibqp.pd;
	scope.qp_access = qp->attr.qp_access_flags;
	scope.qp = qp->serial;
	switch (p->opcode) {
	case SUPERP_OP_RDMA_WRITE:
		err = superp_rma_check(&sdev->mrs, &scope, op->rkey,
				       IB_ACCESS_REMOTE_WRITE, op->addr, plen,
				       &mr);
		if (!err && mr) {
			if (superp_mr_copy_from_skb(mr, op->addr, skb, data_off,
						    plen))
				err = SUPERP_TERR(SUPERP_TERR_INVALID,
						  SUPERP_TERR_BLOCK);
			superp_mr_put(mr);
		}
		break;
	case SUPERP_OP_RDMA_READ:
		if (p->num_ops != 1 || slot->mr) {
			err = SUPERP_TERR(SUPERP_TERR_INVALID,
					  SUPERP_TERR_UNSPEC);
			break;
		}
		err = superp_rma_check(&sdev->mrs, &scope, op->rkey,
				       IB_ACCESS_REMOTE_READ, op->addr,
				       op->length, &mr);
		if (err)
			break;
		slot->mr = mr;
		slot->addr = op->addr;
		slot->len = op->length;
		slot->mtu = superp_rc_seg(qp->attr.path_mtu,
					  READ_ONCE(sdev->ndev->mtu));
		break;
	case SUPERP_OP_ATOMIC_CAS:
	case SUPERP_OP_ATOMIC_FADD:
		err = superp_rc_tgt_atomic(sdev, &scope, slot, p, op);
		break;
	case SUPERP_OP_SEND_QP:
	case SUPERP_OP_SEND_QP_OFF:
	case SUPERP_OP_SEND_QP_MORE:
	case SUPERP_OP_SEND_QP_IMM:
	case SUPERP_OP_SEND_QP_INV:
		err = superp_rc_tgt_send(qp, p, op, skb, data_off, plen);
		break;
	case SUPERP_OP_WRITE_COMPLETE:
		err = superp_rc_tgt_write_imm(qp, op);
		break;
	default:
		err = SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_OPCODE);
	}
put:
	superp_qp_put(qp);
	return err;
}

/*
 * Runs the operations of request packet @p in order, up to the first that
 * fails: the Transaction Error code, *@opnum set to that operation; or 0.
 */
static u32 superp_rc_target_ops(struct superp_conn_entry *e,
				struct superp_rc_tgt *slot,
				const struct superp_pkt *p,
				const struct sk_buff *skb, u8 *opnum)
{
	int hlen = superp_op_hlen(p->opcode), block = 0;
	bool data = superp_op_has_data(p->opcode);
	u8 hbuf[SUPERP_MAX_OP_HLEN];
	u32 err;
	u8 i;

	*opnum = 0;
	if (hlen <= 0 || hlen > SUPERP_MAX_OP_HLEN || !p->num_ops)
		return SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_OPCODE);
	if (data)
		block = superp_block_size(skb->len - SUPERP_PDL_HLEN, hlen,
					  p->num_ops);
	if (block < 0)
		return SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_BLOCK);
	for (i = 0; i < p->num_ops; i++) {
		int off = SUPERP_PDL_HLEN + SUPERP_TAL_HLEN + i * hlen;
		const void *hdr = skb_header_pointer(skb, off, hlen, hbuf);
		struct superp_op op;
		int plen = 0;

		*opnum = i;
		if (!hdr || superp_op_decode(p->opcode, hdr, &op))
			return SUPERP_TERR(SUPERP_TERR_INVALID,
					   SUPERP_TERR_BLOCK);
		if (data) {
			plen = superp_payload_len(block, op.pad);
			if (plen < 0)
				return SUPERP_TERR(SUPERP_TERR_INVALID,
						   SUPERP_TERR_BLOCK);
		}
		off = SUPERP_PDL_HLEN + superp_data_offset(hlen, p->num_ops) +
		      i * block;
		err = superp_rc_tgt_op(e, slot, p, &op, skb, off, plen);
		if (err)
			return err;
	}
	return 0;
}

/**
 * superp_rc_target_pkt - the engine's target_pkt(): a request packet
 * @c: the connection
 * @p: its fixed headers
 * @buf: the skb, data at the PDL header
 */
void superp_rc_target_pkt(struct superp_conn *c, const struct superp_pkt *p,
			  void *buf)
{
	struct superp_conn_entry *e = superp_entry(c);
	const struct sk_buff *skb = buf;
	struct superp_rc_tgt *slot;
	u8 opnum;

	if (!e->rc.tgt)
		return;		/* no QP bound yet: target_request() refuses */
	slot = superp_rc_slot(e, p->xid);
	if (!p->seqno) {
		/* A new transaction: its slot's last user retired. */
		if (slot->mr)
			superp_mr_put(slot->mr);
		slot->mr = NULL;
		slot->err = 0;
		slot->err_seqno = 0;
		slot->err_opnum = 0;
	}
	if (slot->err)
		return;		/* refused already: skip the rest */
	slot->err = superp_rc_target_ops(e, slot, p, skb, &opnum);
	if (slot->err) {
		/* The Transaction Error names the operation that failed. */
		slot->err_seqno = p->seqno;
		slot->err_opnum = opnum;
	}
}

/* Walks the part of a Read's MR range that one response carries. */
struct superp_rc_resp_range {
	struct superp_rc_tgt *slot;
	u64 off;
	u32 len;
};

static int superp_rc_walk_resp(void *ctx, superp_seg_fn fn, void *arg)
{
	struct superp_rc_resp_range *r = ctx;

	if (!r->len)
		return 0;
	return superp_mr_walk(r->slot->mr, r->slot->addr + r->off, r->len,
			      fn, arg);
}

/* room(): a Read Response's header, and its payload when copied. */
static unsigned int superp_rc_resp_room(struct superp_xact_src *src,
					const struct superp_pkt *p)
{
	struct superp_rc_tgt *slot = container_of(src, struct superp_rc_tgt,
						  src);
	unsigned int room = superp_op_hlen(SUPERP_OP_READ_RESP);
	struct superp_msg_pkt mp;

	superp_msg_read_resp_pkt(slot->len, slot->mtu, p->seqno, &mp);
	if (superp_rc_copies(mp.len, mp.pad))
		room += mp.len + mp.pad;
	return room;
}

/* fill() of a Read Response packet. */
static int superp_rc_resp_fill(struct superp_xact_src *src,
			       const struct superp_pkt *p, struct sk_buff *skb)
{
	struct superp_rc_tgt *slot = container_of(src, struct superp_rc_tgt,
						  src);
	int hlen = superp_op_hlen(SUPERP_OP_READ_RESP);
	struct superp_rc_resp_range range;
	struct superp_op op = {};
	struct superp_msg_pkt mp;
	int err;

	superp_msg_read_resp_pkt(slot->len, slot->mtu, p->seqno, &mp);
	op.offset = mp.offset;
	err = superp_op_encode(SUPERP_OP_READ_RESP, &op, skb_put(skb, hlen));
	if (err < 0)	/* else the header's length */
		return err;
	range.slot = slot;
	range.off = mp.offset;
	range.len = mp.len;
	return superp_rc_skb_append(skb, mp.len, mp.pad, superp_rc_walk_resp,
				    &range);
}

static const struct superp_xact_ops superp_rc_resp_ops = {
	.room = superp_rc_resp_room,
	.fill = superp_rc_resp_fill,
};

/* fill() of an Atomic Response: the value kept when the request ran. */
static int superp_rc_atomic_fill(struct superp_xact_src *src,
				 const struct superp_pkt *p,
				 struct sk_buff *skb)
{
	struct superp_rc_tgt *slot = container_of(src, struct superp_rc_tgt,
						  src);
	struct superp_op op = { .orig = slot->orig };

	/* The request's only operation: seqno 0, opnum 0. */
	return superp_rc_put_op(skb, SUPERP_OP_ATOMIC_RESP, &op);
}

static const struct superp_xact_ops superp_rc_atomic_ops = {
	.fill = superp_rc_atomic_fill,
};

/* fill() of a Transaction Error: the failed operation's place and code. */
static int superp_rc_terr_fill(struct superp_xact_src *src,
			       const struct superp_pkt *p, struct sk_buff *skb)
{
	struct superp_rc_tgt *slot = container_of(src, struct superp_rc_tgt,
						  src);
	struct superp_op op = {
		.seqno = slot->err_seqno,
		.opnum = slot->err_opnum,
		.major = SUPERP_TERR_MAJOR(p->err),
		.minor = SUPERP_TERR_MINOR(p->err),
	};

	return superp_rc_put_op(skb, SUPERP_OP_TRANS_ERROR, &op);
}

static const struct superp_xact_ops superp_rc_terr_ops = {
	.fill = superp_rc_terr_fill,
};

/**
 * superp_rc_target_request - the engine's target_request(): answer
 * @c: the connection
 * @xid: the request's XID
 * @opcode: its opcode
 *
 * Return: SUPERP_TGT_DONE when no reply is due, else SUPERP_TGT_PENDING.
 */
int superp_rc_target_request(struct superp_conn *c, u16 xid, u8 opcode)
{
	struct superp_conn_entry *e = superp_entry(c);
	u64 now = ktime_get_ns();
	struct superp_rc_tgt *slot;
	u32 npkts;

	if (!e->rc.tgt) {
		/* No QP was ever bound here: the first operation's refusal. */
		superp_tal_error(c, xid, SUPERP_TERR(SUPERP_TERR_INVALID,
						     SUPERP_TERR_NO_QP),
				 NULL, now);
		return SUPERP_TGT_PENDING;
	}
	slot = superp_rc_slot(e, xid);
	if (!slot->err && opcode == SUPERP_OP_RDMA_READ) {
		/*
		 * As many packets as the transaction may have, at most: a
		 * read sized by a peer of larger segments gets the smallest
		 * that fit, which are never larger than the peer's.
		 */
		if (superp_msg_read_resp_pkts(slot->len, slot->mtu) >
		    c->max_pkts)
			slot->mtu = min_t(u32, SUPERP_SEG_MAX,
					  round_up(DIV_ROUND_UP(slot->len,
								c->max_pkts),
						   SUPERP_SEG_ALIGN));
		npkts = superp_msg_read_resp_pkts(slot->len, slot->mtu);
		slot->src.ops = &superp_rc_resp_ops;
		if (npkts <= c->max_pkts &&
		    !superp_tal_reply(c, xid, SUPERP_OP_READ_RESP, npkts, 1,
				      &slot->src, now))
			return SUPERP_TGT_PENDING;
		slot->err = SUPERP_TERR(SUPERP_TERR_OPERATION,
					SUPERP_TERR_RESOURCE);
	}
	if (!slot->err && (opcode == SUPERP_OP_ATOMIC_CAS ||
			   opcode == SUPERP_OP_ATOMIC_FADD)) {
		slot->src.ops = &superp_rc_atomic_ops;
		if (!superp_tal_reply(c, xid, SUPERP_OP_ATOMIC_RESP, 1, 1,
				      &slot->src, now))
			return SUPERP_TGT_PENDING;
		/*
		 * Executed, but no response can be queued: the initiator
		 * hears an error and its QP goes to ERR.
		 */
		slot->err = SUPERP_TERR(SUPERP_TERR_OPERATION,
					SUPERP_TERR_RESOURCE);
	}
	if (!slot->err)
		return SUPERP_TGT_DONE;
	if (slot->mr) {
		superp_mr_put(slot->mr);
		slot->mr = NULL;
	}
	slot->src.ops = &superp_rc_terr_ops;
	superp_tal_error(c, xid, slot->err, &slot->src, now);
	return SUPERP_TGT_PENDING;
}

/* target_done(): the engine holds nothing of @xid: its MR goes. */
void superp_rc_target_done(struct superp_conn *c, u16 xid, void *cookie,
			   int status)
{
	struct superp_conn_entry *e = superp_entry(c);
	struct superp_rc_tgt *slot;

	if (!cookie || !e->rc.tgt)
		return;		/* a refusal without a slot holds nothing */
	slot = superp_rc_slot(e, xid);
	if (cookie == &slot->src && slot->mr) {
		superp_mr_put(slot->mr);
		slot->mr = NULL;
	}
}
