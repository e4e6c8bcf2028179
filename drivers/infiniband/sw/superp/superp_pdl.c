// SPDX-License-Identifier: GPL-2.0
/*
 * SUPERp Packet Delivery Layer: send and receive windows, ACK PSN, SACK and
 * NACK, fast and timer retransmission, delayed and stretch ACKs.
 * Step numbers refer to the spec's "Protocol operations" section.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include "superp_engine_int.h"

/* A hole is deemed lost once this many later transmissions were acked. */
#define SUPERP_REORDER_PKTS	3
/* NACKs cover PSNs the 32-bit SACK bitmap cannot reach (spec: NACKs). */
#define SUPERP_SACK_BITS	32
/* Retransmission timeouts of one PSN back off up to 2^6 times. */
#define SUPERP_RTO_MAX_SHIFT	6

static u64 superp_rto_ns(const struct superp_conn *c, u8 nrtx)
{
	u64 rto = superp_p(c)->pdl_retrans_time_out * SUPERP_NSEC_PER_USEC;

	return rto << min_t(u8, nrtx, SUPERP_RTO_MAX_SHIFT);
}

/* Sending flow control 1: next_spsn < max_spsn, with the last-slot rule. */
bool superp_pdl_can_send(const struct superp_conn *c)
{
	if (c->state == SUPERP_ST_BROKEN || (c->flags & SUPERP_CF_TX_BUSY))
		return false;
	if (!psn_before(c->next_spsn, c->max_spsn))
		return false;
	/*
	 * The last slot of a full window may only carry new acknowledgment
	 * information, else both sides could sit on full windows forever.
	 */
	if (c->next_spsn + 1 == c->max_spsn &&
	    c->next_spsn != c->unacked_spsn &&
	    c->next_acked_rpsn - 1 == superp_spsn(c, c->unacked_spsn)->ack_psn)
		return false;
	return true;
}

/* Receiver flow control 2: every packet carries ACK PSN, SACK and ACK XID. */
static void superp_pdl_fill_ack(struct superp_conn *c, struct superp_pkt *p)
{
	p->dcid = c->remote_cid;
	p->rwin = c->rwin_adv - 1;
	p->ack_psn = c->next_acked_rpsn - 1;
	p->sack = (u32)superp_rbm(c)[0];
	if (p->sack)
		c->cold->stats.tx_sack++;
	p->ack_xid = c->next_acked_txid - 1;
	c->ack_psn_sent = p->ack_psn;
	c->ack_xid_sent = p->ack_xid;
	c->rx_since_ack = 0;
	c->dack_at = 0;
	c->flags &= ~SUPERP_CF_ACK_NOW;
}

/*
 * Sending a packet 3. Only -EBUSY means "queue full, resume on
 * window_open"; any other error (no route, no memory) loses this packet
 * like the network would, and retransmission repairs it.
 */
static int superp_pdl_xmit(struct superp_conn *c, const struct superp_pkt *p,
			   void *cookie)
{
	int ret = c->ops->xmit(c, p, cookie);

	if (ret == -EBUSY) {
		c->cold->stats.tx_busy++;
		c->flags |= SUPERP_CF_TX_BUSY | SUPERP_CF_ACK_NOW;
	} else if (ret) {
		c->cold->stats.tx_err++;
	}
	return ret;
}

/* Rebuild a sent PSN's packet from its spsn entry; return its cookie. */
static void *superp_pdl_rebuild(struct superp_conn *c, u32 psn,
				struct superp_pkt *p)
{
	const struct superp_spsn *s = superp_spsn(c, psn);

	memset(p, 0, sizeof(*p));
	p->psn = psn;
	p->xid = s->xid;
	p->seqno = s->seqno;
	p->opcode = s->opcode;
	p->num_ops = s->num_ops;
	p->eom = !!(s->flags & SUPERP_SPSN_EOM);
	if (s->flags & SUPERP_SPSN_REPLY) {
		const struct superp_txid *t = superp_txid(c, s->xid);

		p->flags = SUPERP_PKT_REPLY;
		p->err = t->err;
		return t->cookie;
	}
	/*
	 * A cancelled transaction's packet goes again as a No-op: whatever
	 * the target holds of it, it then runs none of it (a No-op request,
	 * or mixed opcodes refused with a Transaction Error).
	 */
	if (superp_ixid(c, s->xid)->flags & SUPERP_IX_CANCELLED) {
		p->opcode = SUPERP_OP_NOOP;
		p->num_ops = 0;
		p->flags = SUPERP_PKT_CANCELLED;
	}
	return superp_ixid(c, s->xid)->cookie;
}

static void superp_pdl_lite_sent(struct superp_conn *c, u64 now);

/*
 * The 2-second PSN reuse rule, checked at the granularity of 2^28-PSN
 * blocks: entering block b again is safe when block b + 1 was entered (so
 * block b left) at least 2 s ago.
 */
static void superp_pdl_reuse_check(struct superp_conn *c, u32 psn, u64 now)
{
	u32 *epoch = c->cold->psn_epoch, t = superp_psn_epoch(now);
	unsigned int b = psn >> 28;
	u32 left = epoch[(b + 1) & 15];

	if (epoch[b] && left && t - left < (u32)(SUPERP_PSN_REUSE_NS >> 20))
		superp_event(c, SUPERP_EV_PSN_REUSE, psn);
	epoch[b] = t;
}

/**
 * superp_pdl_send() - send a new PSN (sending a packet, steps 1-3).
 * @c: the connection; superp_pdl_can_send() must be true.
 * @tmpl: TAL fields of the packet (xid, seqno, opcode, num_ops, eom, flags).
 * @cookie: the transaction's user cookie.
 * @now: current time.
 *
 * Return: 0, or -EBUSY when the device did not take it (it stays unsent).
 */
int superp_pdl_send(struct superp_conn *c, const struct superp_pkt *tmpl,
		    void *cookie, u64 now)
{
	u32 psn = c->next_spsn;
	struct superp_spsn *s = superp_spsn(c, psn);
	struct superp_pkt p = *tmpl;
	int ret;

	if (!(psn & ((1U << 28) - 1)))
		superp_pdl_reuse_check(c, psn, now);
	s->sent = now;
	s->tx_seq = ++c->tx_seq;
	s->xid = p.xid;
	s->seqno = p.seqno;
	s->nrtx = 0;
	s->opcode = p.opcode;
	s->num_ops = p.num_ops;
	s->flags = (p.flags & SUPERP_PKT_REPLY ? SUPERP_SPSN_REPLY : 0) |
		   (p.eom ? SUPERP_SPSN_EOM : 0);
	p.psn = psn;
	superp_pdl_fill_ack(c, &p);
	s->ack_psn = p.ack_psn;
	c->next_spsn = psn + 1;
	c->cold->stats.tx_new++;
	c->cold->pdl_heard = now;
	ret = superp_pdl_xmit(c, &p, cookie);
	if (ret != -EBUSY)
		c->unsent_spsn = psn + 1;
	if (c->flags & SUPERP_CF_LITE)
		superp_pdl_lite_sent(c, now);
	return ret;
}

/* Retransmitting a packet: same PSN, fresh ACK fields and send time. */
static int superp_pdl_retransmit(struct superp_conn *c, u32 psn, u64 now,
				 u64 *counter)
{
	struct superp_spsn *s = superp_spsn(c, psn);
	struct superp_pkt p;
	void *cookie;

	cookie = superp_pdl_rebuild(c, psn, &p);
	p.flags |= SUPERP_PKT_RTX;
	superp_pdl_fill_ack(c, &p);
	s->sent = now;
	s->tx_seq = ++c->tx_seq;
	s->flags |= SUPERP_SPSN_RTX;
	(*counter)++;
	return superp_pdl_xmit(c, &p, cookie);
}

/* Hand PSNs the device refused earlier to it again, in order. */
void superp_pdl_resend_unsent(struct superp_conn *c, u64 now)
{
	struct superp_pkt p;
	void *cookie;

	while (psn_before(c->unsent_spsn, c->next_spsn) &&
	       !(c->flags & SUPERP_CF_TX_BUSY)) {
		cookie = superp_pdl_rebuild(c, c->unsent_spsn, &p);
		superp_pdl_fill_ack(c, &p);
		superp_spsn(c, c->unsent_spsn)->sent = now;
		if (superp_pdl_xmit(c, &p, cookie) == -EBUSY)
			break;
		c->unsent_spsn++;
	}
	if (c->flags & SUPERP_CF_LITE)
		superp_pdl_lite_sent(c, now);
}

/*
 * Receiver flow control 3: a pure ACK takes no PSN, or every ACK would need
 * an ACK (Documentation/wire-format.rst).
 */
void superp_pdl_pure_ack(struct superp_conn *c, u64 now)
{
	struct superp_pkt p = { .opcode = SUPERP_OP_PURE_ACK };

	p.psn = c->next_spsn;
	superp_pdl_fill_ack(c, &p);
	c->cold->stats.tx_pure_ack++;
	/* not sent: try again after the delayed ACK time */
	if (superp_pdl_xmit(c, &p, NULL) && !(c->flags & SUPERP_CF_TX_BUSY))
		c->dack_at = now + superp_p(c)->pdl_delayed_ack_time *
				   SUPERP_NSEC_PER_USEC;
}

/**
 * superp_pdl_probe() - draw an ACK from the peer at once.
 * @c: the connection; every PSN it sent is acknowledged.
 * @now: current time.
 *
 * Sends a headers-only No-op with the PSN just below unacked_spsn, which
 * the peer received: a duplicate, answered with an immediate ACK
 * (Receiving a packet 1.a) carrying the peer's ACK XID, like a TCP
 * keep-alive that repeats an acknowledged sequence number. It takes no PSN
 * and reaches neither the peer's TAL nor any transaction.
 */
void superp_pdl_probe(struct superp_conn *c, u64 now)
{
	struct superp_pkt p = {
		.opcode = SUPERP_OP_NOOP, .eom = 1, .flags = SUPERP_PKT_PROBE,
	};

	p.psn = c->unacked_spsn - 1;
	superp_pdl_fill_ack(c, &p);
	c->cold->stats.tx_probe++;
	superp_pdl_xmit(c, &p, NULL);
}

/**
 * superp_pdl_nack() - acknowledge @psn selectively beyond the SACK reach.
 * @c: the connection.
 * @psn: a PSN received at least 32 past next_acked_rpsn.
 * @now: current time.
 *
 * Bit i of the NACK's SACK stands for PSN @psn + i; bit 0 marks the NACK.
 * The cumulative point is not conveyed, so the ACK state is left alone.
 */
void superp_pdl_nack(struct superp_conn *c, u32 psn, u64 now)
{
	struct superp_pkt p = { .opcode = SUPERP_OP_PURE_ACK };
	const unsigned long *rbm = superp_rbm(c);
	u32 off = psn - c->next_acked_rpsn, i;

	p.dcid = c->remote_cid;
	p.rwin = c->rwin_adv - 1;
	p.psn = c->next_spsn;
	p.ack_psn = psn;
	p.ack_xid = c->ack_xid_sent;
	for (i = 0; i < SUPERP_SACK_BITS && off + i < c->window; i++)
		if (test_bit(off + i, rbm))
			p.sack |= 1U << i;
	p.sack |= 1;
	c->cold->stats.tx_nack++;
	/* a NACK that cannot go is not repeated: the SACKs and timer repair */
	if (c->ops->xmit(c, &p, NULL))
		c->cold->stats.tx_err++;
}

/* Sending flow control 3.a: 1 new information, 0 old, <0 out of window. */
static int superp_pdl_ack_check(struct superp_conn *c,
				const struct superp_pkt *p)
{
	u32 inflight = c->next_spsn - c->unacked_spsn;
	u32 first, d, rem;

	/* NACK: ack_psn is itself selectively acked; ordinary: ack_psn + 1 */
	first = (p->sack & 1) ? p->ack_psn : p->ack_psn + 1;
	if (psn_before(first, c->unacked_spsn))
		return 0;				/* 3.a.ii */
	d = first - c->unacked_spsn;
	if ((p->sack & 1) ? d >= inflight : d > inflight)
		goto bad;				/* 3.a.iii */
	rem = inflight - d;	/* bit i names PSN first + i: must be sent */
	if (rem < SUPERP_SACK_BITS && (p->sack >> rem))
		goto bad;
	return 1;
bad:
	superp_event(c, SUPERP_EV_ACK_OUT_OF_WINDOW, p->ack_psn);
	return -EINVAL;
}

/* A PSN is known received: note its transmission order and RTT. */
static void superp_pdl_note_acked(struct superp_conn *c, u32 psn, u64 now)
{
	const struct superp_spsn *s = superp_spsn(c, psn);
	u64 rtt;

	c->cold->pdl_heard = now;
	if ((s32)(s->tx_seq - c->hi_acked_tx) > 0)
		c->hi_acked_tx = s->tx_seq;
	if (s->flags & SUPERP_SPSN_RTX)
		return;			/* ambiguous sample (Karn) */
	rtt = min_t(u64, now - s->sent, U32_MAX);
	if (!c->srtt_ns)
		c->srtt_ns = rtt;
	else
		c->srtt_ns = c->srtt_ns - (c->srtt_ns >> 3) + (rtt >> 3);
}

/* Slide the send window by @n PSNs, releasing them to the TAL. */
static void superp_pdl_slide(struct superp_conn *c, u32 n, u64 now)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (!test_bit(i, superp_sbm(c)))
			superp_pdl_note_acked(c, c->unacked_spsn + i, now);
		superp_tal_psn_acked(c, superp_spsn(c, c->unacked_spsn + i));
	}
	superp_bm_shift(superp_sbm(c), c->window, n);
	c->unacked_spsn += n;
}

/*
 * SUPERp-lite: the link promises delivery, so a PSN the device took counts
 * as acknowledged at once (there is no ACK PSN to wait for), and the
 * window moves with it (there is no RWIN). A frame the link loses all the
 * same leaves its transaction unretired: tal_transaction_timeout breaks
 * the connection.
 */
static void superp_pdl_lite_sent(struct superp_conn *c, u64 now)
{
	u32 n = c->unsent_spsn - c->unacked_spsn;

	if (n)
		superp_pdl_slide(c, n, now);
	c->max_spsn = c->unacked_spsn + c->window;
}

/*
 * Fast retransmit (3.d.ii / 3.e.iii): retransmit a hole known to the peer
 * as missing (offset below @upto) once later transmissions were
 * acknowledged and it has been out for more than 5/4 of the smoothed RTT
 * (so reordering is not loss). A lost retransmission is detected like a
 * lost original.
 */
static void superp_pdl_fast_rtx(struct superp_conn *c, u32 upto, u64 now)
{
	u32 limit = superp_p(c)->pdl_fast_rtx_limit, o, n = 0;
	u64 reo = (u64)c->srtt_ns + (c->srtt_ns >> 2);
	const unsigned long *sbm = superp_sbm(c);
	struct superp_spsn *s;

	for (o = 0; o < upto && n < limit; o++) {
		u32 psn = c->unacked_spsn + o;

		if (test_bit(o, sbm))
			continue;
		if (!psn_before(psn, c->unsent_spsn))
			break;
		s = superp_spsn(c, psn);
		if ((s32)(c->hi_acked_tx - s->tx_seq) <= SUPERP_REORDER_PKTS ||
		    now - s->sent <= reo)
			continue;
		superp_pdl_retransmit(c, psn, now, &c->cold->stats.tx_rtx_fast);
		n++;
	}
}

/* Sending flow control 3.b-3.e on a validated ACK or NACK. */
static void superp_pdl_ack(struct superp_conn *c, const struct superp_pkt *p,
			   u64 now)
{
	unsigned long *sbm = superp_sbm(c);
	u32 sack = p->sack, base = 0, d, i, o, n, inflight, reach, upto, edge;

	if (sack & 1) {
		c->cold->stats.rx_nack++;
		base = p->ack_psn - c->unacked_spsn;	/* 3.e.i */
	} else {
		if (sack)
			c->cold->stats.rx_sack++;
		d = p->ack_psn + 1 - c->unacked_spsn;	/* 3.b */
		if (d)
			superp_pdl_slide(c, d, now);
	}
	while (sack) {					/* 3.d.i / 3.e.ii */
		i = __ffs(sack);
		sack &= sack - 1;
		o = base + i;
		if (o < c->window && !__test_and_set_bit(o, sbm))
			superp_pdl_note_acked(c, c->unacked_spsn + o, now);
	}
	/* SACKed PSNs at the left edge were received: the peer is past them. */
	n = find_first_zero_bit(sbm, c->window);
	if (n)
		superp_pdl_slide(c, n, now);
	/*
	 * Receiver flow control 4. The right edge never moves back once the
	 * peer advertised a window: an ACK with the same ACK PSN may be older
	 * than the last one (reordered), and packets already sent stay
	 * within the window they were sent in. A smaller RWIN takes effect as
	 * the cumulative point moves.
	 */
	c->rwin_peer = min_t(u32, (u32)p->rwin + 1, c->window);
	edge = c->unacked_spsn + c->rwin_peer;
	if (!(c->flags & SUPERP_CF_RWIN_HEARD) ||
	    psn_before(c->max_spsn, edge))
		c->max_spsn = edge;
	c->flags |= SUPERP_CF_RWIN_HEARD;
	/*
	 * Holes are known below a PSN SACKed within the reach of the SACK
	 * field, or, for a NACK, everything below its ACK PSN; a NACK whose
	 * PSN was the left edge (now slid past) names no hole.
	 */
	inflight = c->next_spsn - c->unacked_spsn;
	if (p->sack & 1) {
		upto = psn_before(p->ack_psn, c->unacked_spsn) ? 0 :
		       p->ack_psn - c->unacked_spsn;
	} else {
		reach = min_t(u32, inflight, SUPERP_SACK_BITS);
		upto = find_last_bit(sbm, reach);
		if (upto >= reach)
			upto = 0;
	}
	if (upto && !psn_before(c->unacked_spsn + upto, c->next_spsn))
		upto = 0;
	if (upto)
		superp_pdl_fast_rtx(c, upto, now);
}

/* Deliver a packet to the TAL (receiving a packet, step 2). */
static void superp_pdl_deliver(struct superp_conn *c,
			       const struct superp_pkt *p, void *buf)
{
	c->cold->stats.delivered++;
	if (superp_tal_rx(c, p, buf))
		c->cold->stats.rx_processed++;
	else
		superp_rx_dropped(c, &c->cold->stats.rx_drop_tal);
}

/* Ordered connections: deliver held PSNs that the gap was hiding. */
static void superp_pdl_deliver_held(struct superp_conn *c, u32 from, u32 n)
{
	struct superp_held *h;
	struct superp_pkt q;
	void *buf;
	u32 i;

	for (i = 0; i < n; i++) {
		h = superp_held(c, from + i);
		buf = h->buf;
		h->buf = NULL;
		if (!buf)
			continue;	/* flushed (and counted) by a stop */
		c->cold->stats.rx_holding--;
		if (c->state == SUPERP_ST_BROKEN) {
			superp_rx_dropped(c, &c->cold->stats.rx_drop_flushed);
		} else {
			memset(&q, 0, sizeof(q));
			q.psn = from + i;
			q.xid = h->xid;
			q.seqno = h->seqno;
			q.err = h->err;
			q.opcode = h->opcode;
			q.eom = !!(h->eom_num_ops & SUPERP_TAL_EOM);
			q.num_ops = h->eom_num_ops & SUPERP_TAL_NUM_OPS_MASK;
			superp_pdl_deliver(c, &q, buf);
		}
		if (c->ops->release)
			c->ops->release(c, buf);
	}
}

/* Receiving a packet 1.c / 1.d for a new in-window PSN at offset @off. */
static void superp_pdl_accept(struct superp_conn *c, const struct superp_pkt *p,
			      void *buf, u32 off, u64 now)
{
	unsigned long *rbm = superp_rbm(c);
	struct superp_held *h;
	u32 n, base;

	if (off == 0) {
		/* 1.c: slide past this PSN and the run of SACKed ones */
		n = find_next_zero_bit(rbm, c->window, 1);
		base = c->next_acked_rpsn;
		superp_bm_shift(rbm, c->window, n);
		c->next_acked_rpsn = base + n;
		c->flags &= ~SUPERP_CF_NACK_SENT;
		superp_pdl_deliver(c, p, buf);
		if (c->flags & SUPERP_CF_ORDERED)
			superp_pdl_deliver_held(c, base + 1, n - 1);
	} else {
		/* 1.d: remember it; ordered connections hold it back */
		if (c->flags & SUPERP_CF_ORDERED) {
			void *hb = c->ops->hold(c, buf);

			if (!hb) {
				superp_rx_dropped(c,
						  &c->cold->stats.rx_drop_no_hold);
				return;
			}
			h = superp_held(c, p->psn);
			h->buf = hb;
			h->xid = p->xid;
			h->seqno = p->seqno;
			h->err = p->err;
			h->opcode = p->opcode;
			h->eom_num_ops = (p->eom ? SUPERP_TAL_EOM : 0) | p->num_ops;
			c->cold->stats.rx_held++;
			c->cold->stats.rx_holding++;
		}
		__set_bit(off, rbm);
		/* out of order: tell the sender now so it can repair */
		c->flags |= SUPERP_CF_ACK_NOW;
		/*
		 * A NACK says every PSN from next_acked_rpsn to this one is
		 * missing (wire-format.rst, "SACK numbering"): only true for
		 * the first arrival after a hole wider than the SACK field.
		 */
		if (off >= SUPERP_SACK_BITS &&
		    find_next_bit(rbm, c->window, 1) == off &&
		    !(c->flags & SUPERP_CF_NACK_SENT)) {
			c->flags |= SUPERP_CF_NACK_SENT;
			superp_pdl_nack(c, p->psn, now);
		}
		if (!(c->flags & SUPERP_CF_ORDERED))
			superp_pdl_deliver(c, p, buf);
	}
	/* 3.a stretch ACKs; 3.b the delayed ACK timer is armed at the end */
	if (++c->rx_since_ack >= superp_p(c)->pdl_stretch_ack &&
	    !(c->flags & SUPERP_CF_LITE))
		c->flags |= SUPERP_CF_ACK_NOW;
}

/**
 * superp_pdl_rx() - receiving a packet, with ACK processing.
 * @c: the connection.
 * @p: decoded headers.
 * @buf: user buffer.
 * @now: current time.
 *
 * Everything is validated before any state changes, so a dropped packet
 * leaves no trace but its event.
 *
 * Return: 0 or a negative error when the packet was dropped.
 */
int superp_pdl_rx(struct superp_conn *c, const struct superp_pkt *p,
		  void *buf, u64 now)
{
	bool pure = p->opcode == SUPERP_OP_PURE_ACK, dup = false;
	struct superp_pkt lite;
	u32 off;
	int ack, xack;

	/*
	 * SUPERp-lite carries no PDL: the packet takes the next PSN (the
	 * link delivers in order or not at all), acknowledges nothing
	 * new of ours (each PSN was acknowledged when sent) and leaves the
	 * window open.
	 */
	if (c->flags & SUPERP_CF_LITE) {
		lite = *p;
		lite.psn = c->next_acked_rpsn;
		lite.ack_psn = c->unacked_spsn - 1;
		lite.sack = 0;
		lite.rwin = c->window - 1;
		p = &lite;
	}
	off = p->psn - c->next_acked_rpsn;

	c->cold->stats.rx_pkts++;
	if (!pure) {
		if ((c->flags & SUPERP_CF_HELLO_RX) && off) {
			/*
			 * Before the peer's first PSN no other is taken: the
			 * window is one PSN wide. Inside the usual one, the
			 * packet may be a fresh peer's, overtaking: resent,
			 * not worth an event.
			 */
			if (off >= c->window)
				superp_event(c, SUPERP_EV_PSN_OUT_OF_WINDOW,
					     p->psn);
			superp_rx_dropped(c, &c->cold->stats.rx_drop_psn_window);
			return -EINVAL;
		} else if (psn_before(p->psn, c->next_acked_rpsn)) {
			dup = true;			/* 1.a: old PSN */
		} else if (off >= c->window) {		/* 1.b */
			superp_event(c, SUPERP_EV_PSN_OUT_OF_WINDOW, p->psn);
			superp_rx_dropped(c, &c->cold->stats.rx_drop_psn_window);
			return -EINVAL;
		} else if (test_bit(off, superp_rbm(c))) {
			dup = true;			/* SACKed already */
		}
	}
	ack = superp_pdl_ack_check(c, p);
	if (ack < 0) {
		superp_rx_dropped(c, &c->cold->stats.rx_drop_ack_window);
		return ack;
	}
	xack = superp_tal_ack_xid_check(c, p->ack_xid);
	if (xack < 0) {
		superp_rx_dropped(c, &c->cold->stats.rx_drop_ack_xid_window);
		return xack;
	}
	if (ack)
		superp_pdl_ack(c, p, now);
	if (xack)
		superp_tal_ack_xid(c, p->ack_xid);
	if (pure) {
		c->cold->stats.rx_processed++;
		return 0;
	}
	if (c->state == SUPERP_ST_BROKEN) {
		/* the ACK broke it (a completion aborted): nothing to take */
		superp_rx_dropped(c, &c->cold->stats.rx_drop_broken);
		return 0;
	}
	if (dup) {
		/* our ACK was probably lost: repeat it at once */
		c->cold->stats.rx_dup++;
		c->flags |= SUPERP_CF_ACK_NOW;
		return 0;
	}
	superp_pdl_accept(c, p, buf, off, now);
	c->flags &= ~SUPERP_CF_HELLO_RX;
	return 0;
}

/* timeout = RTO - (now - sent) of the first unacknowledged PSN (3.c.ii) */
u64 superp_pdl_rtx_deadline(const struct superp_conn *c)
{
	const struct superp_spsn *s;

	/* SUPERp-lite: PSNs refused by a full device are resent unsent */
	if (c->next_spsn == c->unacked_spsn || (c->flags & SUPERP_CF_LITE))
		return 0;				/* 3.c.i */
	s = superp_spsn(c, c->unacked_spsn);
	return s->sent + superp_rto_ns(c, s->nrtx);
}
EXPORT_SYMBOL_IF_KUNIT(superp_pdl_rtx_deadline);

/*
 * Tail-loss probe. A lost packet is found by the SACKs of packets sent
 * after it; when none come (the loss was at the end of a burst, or a fast
 * retransmission was lost while the window waited on it), only the
 * retransmission timer is left, which is set for a path far slower than
 * the one measured (pdl_retrans_time_out). So once nothing new was sent
 * or acknowledged for two smoothed RTTs and a delayed ACK, the first
 * unacknowledged PSN goes again, once per left edge and only before the
 * timer fired for it: its ACK (or the SACKs it draws) repairs the rest.
 * No backoff and no pdl_max_rtx count: the timer's rules stay as they
 * were, and it takes over if the probe is not answered. A lone PSN in
 * flight is left to the timer, as RFC 8985 leaves it (its probe waits a
 * worst-case delayed ACK more): that is a ping-pong, whose answer is late
 * far more often than lost. @rto is superp_pdl_rtx_deadline(), which
 * every caller has at hand.
 */
u64 superp_pdl_tail_deadline(const struct superp_conn *c, u64 rto)
{
	const struct superp_spsn *s;
	u64 at;

	if (c->next_spsn - c->unacked_spsn < 2 || !c->srtt_ns ||
	    (c->flags & SUPERP_CF_LITE))
		return 0;
	s = superp_spsn(c, c->unacked_spsn);
	if (s->nrtx || (s->flags & SUPERP_SPSN_PROBED))
		return 0;
	at = c->cold->pdl_heard + 2 * (u64)c->srtt_ns +
	     superp_p(c)->pdl_delayed_ack_time * SUPERP_NSEC_PER_USEC;
	return at < rto ? at : 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_pdl_tail_deadline);

/* Is there acknowledgment information the peer has not seen? */
bool superp_pdl_ack_due(const struct superp_conn *c)
{
	/* SUPERp-lite acknowledges transactions only (no ACK PSN) */
	if (c->next_acked_rpsn - 1 != c->ack_psn_sent &&
	    !(c->flags & SUPERP_CF_LITE))
		return true;
	return (u16)(c->next_acked_txid - 1) != c->ack_xid_sent;
}

/* Sending flow control 4: the retransmission timer fired. */
void superp_pdl_timer(struct superp_conn *c, u64 now)
{
	const struct superp_params *prm = superp_p(c);
	u64 at = superp_pdl_rtx_deadline(c), head_sent, win;
	u64 tail = superp_pdl_tail_deadline(c, at);
	u32 inflight, o, n = 0;
	struct superp_spsn *s;

	/* Before the retransmission timer's deadline only: else it rules. */
	if (tail && now >= tail && now < at &&
	    psn_before(c->unacked_spsn, c->unsent_spsn) &&
	    !(c->flags & SUPERP_CF_TX_BUSY)) {
		superp_spsn(c, c->unacked_spsn)->flags |= SUPERP_SPSN_PROBED;
		superp_pdl_retransmit(c, c->unacked_spsn, now,
				      &c->cold->stats.tx_rtx_tail);
		return;
	}
	if (!at || now < at)
		return;
	s = superp_spsn(c, c->unacked_spsn);
	/*
	 * Nothing can be sent while the device queue is full: not a
	 * retransmission, so not counted; window_open resumes sending.
	 */
	if (c->flags & SUPERP_CF_TX_BUSY) {
		s->sent = now;
		return;
	}
	if (s->nrtx >= prm->pdl_max_rtx) {		/* 4.a */
		superp_conn_abort(c, -ETIMEDOUT);
		return;
	}
	head_sent = s->sent;
	s->nrtx++;					/* 4.b */
	if (superp_pdl_retransmit(c, c->unacked_spsn, now,
				  &c->cold->stats.tx_rtx_timer)) {
		/* not sent (s->sent is now): wait another RTO, uncounted */
		s->nrtx--;
		return;
	}
	/*
	 * A PSN that timed out before met heavy loss of data or ACKs: send
	 * it twice, so that pdl_max_rtx measures reachability, not bad luck.
	 */
	if (s->nrtx > 1)
		superp_pdl_retransmit(c, c->unacked_spsn, now,
				      &c->cold->stats.tx_rtx_timer);
	/* 4.c: PSNs sent within pdl_rtx_time_win of the first one */
	win = prm->pdl_rtx_time_win * SUPERP_NSEC_PER_USEC;
	inflight = c->next_spsn - c->unacked_spsn;
	for (o = 1; o < inflight && n < prm->pdl_rtx_max_pkts; o++) {
		u32 psn = c->unacked_spsn + o;

		if (!psn_before(psn, c->unsent_spsn))
			break;
		if (test_bit(o, superp_sbm(c)))
			continue;
		s = superp_spsn(c, psn);
		if (s->sent > head_sent + win)
			continue;
		superp_pdl_retransmit(c, psn, now,
				      &c->cold->stats.tx_rtx_proactive);
		n++;
	}
	/* 4.d: rearmed by superp_conn_end() from the new first PSN */
}
