// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the engine's callbacks of an installed connection: transmit
 * (a packet built from the engine's fields and the transaction owner's
 * payload hook, sent by the connection's encapsulation), the connection's
 * timer, held buffers, events, completions.
 *
 * Where work runs: every callback runs where the engine event that caused
 * it runs: receive (and the ACK-driven transmit it causes) in NET_RX
 * softirq, the timer in HRTIMER_SOFTIRQ, submissions and shutdowns in the
 * caller's context with BH off. There is no worker: nothing here needs to
 * sleep.
 *
 * Timer: one hrtimer per connection (HRTIMER_MODE_ABS_SOFT) carries the
 * engine's deadline (arm_timer) and, after the device refused a packet
 * (-EBUSY), a short retry that calls superp_conn_window_open(). An idle
 * connection's timer fires at most once more and is then not queued, so
 * 4096 idle connections cost 4096 hrtimer structures and nothing per tick.
 *
 * Locking: everything here runs under the entry's lock (superp_conn_entry
 * .lock, BH-safe), taken by the caller of the engine event: superp_rx.c,
 * the timer callback below, superp_conn_submit() and superp_conn_table.c.
 * The timer is never cancelled under that lock: superp_conn_timer_cancel()
 * waits, and is called only once nothing can find the entry any more.
 */
#include <kunit/visibility.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/rcupdate.h>
#include <net/sunh.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_encap.h"
#include "superp_op.h"
#include "superp_tx.h"

/* How soon a connection tries again after its device refused a packet. */
#define SUPERP_TX_BUSY_RETRY_NS	(50 * NSEC_PER_USEC)

/*
 * Queue the hrtimer for the earlier of the deadline and a busy retry. A
 * broken connection sends nothing, so it retries nothing: the engine's
 * last arm_timer(0), from superp_conn_release() after the final
 * hrtimer_cancel(), must not queue the timer of an entry being freed.
 *
 * Lazily: nearly every ACK moves the retransmission deadline later or
 * clears it, and reprogramming an hrtimer per ACK is a cost per packet.
 * A queued timer due no later than the new deadline, or when there is
 * none, is left alone: it fires, finds the deadline not reached (or
 * gone), and programs the real one (superp_timer_fn()).
 */
static void superp_timer_program(struct superp_conn_entry *e)
{
	u64 at = e->deadline, retry;

	if (e->conn.state == SUPERP_ST_BROKEN)
		e->tx_busy = false;
	if (e->tx_busy) {
		retry = ktime_get_ns() + SUPERP_TX_BUSY_RETRY_NS;
		if (!at || retry < at)
			at = retry;
	}
	if (!at)
		return;
	if (hrtimer_is_queued(&e->timer) &&
	    ktime_to_ns(hrtimer_get_expires(&e->timer)) <= at)
		return;
	hrtimer_start(&e->timer, ns_to_ktime(at), HRTIMER_MODE_ABS_SOFT);
}

static enum hrtimer_restart superp_timer_fn(struct hrtimer *t)
{
	struct superp_conn_entry *e = container_of(t, struct superp_conn_entry,
						   timer);
	u64 now = ktime_get_ns();

	spin_lock(&e->lock);
	if (e->tx_busy) {
		e->tx_busy = false;
		superp_conn_window_open(&e->conn, now);
	}
	if (e->deadline && now >= e->deadline) {
		e->deadline = 0;
		superp_conn_timer(&e->conn, now);	/* re-arms if needed */
	}
	if (e->deadline || e->tx_busy)
		superp_timer_program(e);
	spin_unlock(&e->lock);
	return HRTIMER_NORESTART;
}

/**
 * superp_conn_timer_init() - set up a new entry's timer.
 * @e: the entry, not yet published.
 */
void superp_conn_timer_init(struct superp_conn_entry *e)
{
	hrtimer_init(&e->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	e->timer.function = superp_timer_fn;
}

/**
 * superp_conn_timer_cancel() - stop an entry's timer for good.
 * @e: the entry, unpublished for a grace period: no receive runs on it and
 *	nobody submits; a running timer callback may re-queue itself, which
 *	hrtimer_cancel() handles.
 */
void superp_conn_timer_cancel(struct superp_conn_entry *e)
{
	hrtimer_cancel(&e->timer);
}

/* arm_timer: the engine's deadline in ns of CLOCK_MONOTONIC, 0 for none. */
void superp_tx_arm_timer(struct superp_conn *c, u64 expires)
{
	struct superp_conn_entry *e = superp_entry(c);

	e->deadline = expires;
	superp_timer_program(e);
}

/* A Transaction Error's operation header, from the engine's code. */
static void superp_tx_terr(const struct superp_pkt *p, struct sk_buff *skb)
{
	struct superp_op op = {
		.major = SUPERP_TERR_MAJOR(p->err),
		.minor = SUPERP_TERR_MINOR(p->err),
	};

	superp_op_encode(SUPERP_OP_TRANS_ERROR, &op,
			 skb_put(skb, sizeof(struct superp_terr_op)));
}

/**
 * superp_tx_build() - build a packet from the engine's fields.
 * @p: the packet's PDL and TAL fields (xmit's).
 * @encap: enum superp_encap of the connection (SUNH pads short packets).
 * @lite: SUPERp-lite: the TAL header without the PDL header.
 * @src: the transaction's cookie (may be NULL).
 * @err: the error when NULL is returned.
 *
 * Operation headers and payload come from @src's fill hook, except for
 * packets without operations and the engine's own Transaction Errors.
 *
 * Return: the skb, skb->data at the PDL header (the TAL header if @lite)
 * with SUPERP_TX_HEADROOM in front, or NULL.
 */
struct sk_buff *superp_tx_build(const struct superp_pkt *p, u8 encap,
				bool lite, struct superp_xact_src *src,
				int *err)
{
	unsigned int hlen = (lite ? 0 : SUPERP_PDL_HLEN) + SUPERP_TAL_HLEN;
	bool terr = p->opcode == SUPERP_OP_TRANS_ERROR && !src;
	unsigned int room = 0;
	struct sk_buff *skb;
	bool fill;
	void *pdl;

	fill = src && src->ops->fill && p->num_ops &&
	       !(p->flags & (SUPERP_PKT_PROBE | SUPERP_PKT_CANCELLED));
	/* Pure ACKs and probes carry headers only: keep them small. */
	if (fill)
		room = src->ops->room ? src->ops->room(src, p) :
					SUPERP_TX_OPS_ROOM;
	else if (terr)
		room = sizeof(struct superp_terr_op);
	/* One allocation: SUNH's padding fills at most the Ethernet minimum. */
	skb = alloc_skb(SUPERP_TX_HEADROOM + hlen +
			max_t(unsigned int, room, SUPERP_ETH_MIN_PAYLOAD),
			GFP_ATOMIC);
	if (!skb) {
		*err = -ENOMEM;
		return NULL;
	}
	skb_reserve(skb, SUPERP_TX_HEADROOM);
	pdl = skb_put(skb, hlen);
	if (lite)
		superp_pkt_encode_lite(p, pdl);
	else
		superp_pkt_encode(p, pdl, pdl + SUPERP_PDL_HLEN);
	if (terr) {
		superp_tx_terr(p, skb);
	} else if (fill) {
		*err = src->ops->fill(src, p, skb);
		if (*err) {
			kfree_skb(skb);
			return NULL;
		}
	}
	/*
	 * SUNH has no length: receivers ignore zeros after headers only,
	 * and after a Read Response's data (the initiator knows the length
	 * of its read). Other data packets of SUPERp-lite are never short:
	 * their blocks were grown (superp_msg.h, SUPERP_LITE_MIN_LEN). A
	 * full packet is at least 16 + 8 + 8 + 16 bytes long with data.
	 */
	if (encap == SUPERP_ENCAP_SUNH &&
	    skb->len < SUPERP_ETH_MIN_PAYLOAD - SUNH_HLEN &&
	    !skb_is_nonlinear(skb) && (!superp_op_has_data(p->opcode) ||
				       p->opcode == SUPERP_OP_READ_RESP))
		skb_put_zero(skb, SUPERP_ETH_MIN_PAYLOAD - SUNH_HLEN - skb->len);
	return skb;
}
EXPORT_SYMBOL_IF_KUNIT(superp_tx_build);

/**
 * superp_dgram_alloc() - a datagram with its PDL and TAL headers.
 * @room: the bytes its owner appends: the Datagram Send operation header
 *	and the data block.
 *
 * Return: the skb, skb->data at the PDL header, or NULL.
 */
struct sk_buff *superp_dgram_alloc(unsigned int room)
{
	const struct superp_pkt p = {
		.dcid = SUPERP_DCID_DATAGRAM,
		.opcode = SUPERP_OP_RD_SEND,
		.num_ops = 1,
		.eom = 1,
	};
	unsigned int hlen = SUPERP_PDL_HLEN + SUPERP_TAL_HLEN;
	struct sk_buff *skb;
	void *pdl;

	skb = alloc_skb(SUPERP_TX_HEADROOM + hlen + room, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, SUPERP_TX_HEADROOM);
	pdl = skb_put(skb, hlen);
	superp_pkt_encode(&p, pdl, pdl + SUPERP_PDL_HLEN);
	return skb;
}
EXPORT_SYMBOL_IF_KUNIT(superp_dgram_alloc);

/**
 * superp_dgram_xmit() - send a datagram outside every connection.
 * @sdev: the device.
 * @a: from where to where, in one encapsulation.
 * @loop: to this node itself: up the receive path as a loopback
 *	connection's packets, as if it came from @a's local address to its
 *	remote one.
 * @skb: from superp_dgram_alloc(), filled; always consumed.
 *
 * Unreliable: a datagram the device queue refuses is lost and counted
 * (tx_dgram_drops), as a switch would drop it. Any context but hard IRQ.
 *
 * Return: 0 when it left, or the errno of its loss.
 */
int superp_dgram_xmit(struct superp_dev *sdev, const struct superp_conn_addr *a,
		      bool loop, struct sk_buff *skb)
{
	struct dst_cache none = {};	/* a route lookup per datagram */
	int err;

	if (loop || superp_loop_conn(a))
		err = superp_loop_xmit(sdev, a, skb);
	else if (a->encap == SUPERP_ENCAP_SUNH)
		err = superp_sunh_xmit(sdev, a, skb);
	else
		err = superp_udp_xmit(sdev, a, &none, skb);
	atomic64_inc(err ? &sdev->tx_dgram_drops : &sdev->tx_datagrams);
	return err;
}

int superp_tx_xmit(struct superp_conn *c, const struct superp_pkt *p,
		   void *cookie)
{
	struct superp_conn_entry *e = superp_entry(c);
	struct sk_buff *skb;
	unsigned int len;
	int err;

	skb = superp_tx_build(p, e->addr.encap, e->addr.lite, cookie, &err);
	if (!skb)
		return err;
	len = skb->len;
	if (e->loop)
		err = superp_loop_xmit(e->sdev, &e->addr, skb);
	else if (e->addr.encap == SUPERP_ENCAP_SUNH)
		err = superp_sunh_xmit(e->sdev, &e->addr, skb);
	else
		err = superp_udp_xmit(e->sdev, &e->addr, &e->dst_cache, skb);
	/* Queue full: the engine keeps the packet unsent until window_open. */
	if (err == -ENOBUFS) {
		e->tx_busy = true;
		superp_timer_program(e);
		return -EBUSY;
	}
	if (!err)
		c->cold->stats.tx_bytes += len;
	return err;
}

/* An ordered connection keeps an out-of-order skb: take a reference. */
void *superp_tx_hold(struct superp_conn *c, void *buf)
{
	return skb_get(buf);
}

void superp_tx_release(struct superp_conn *c, void *held)
{
	consume_skb(held);
}

void superp_tx_initiator_pkt(struct superp_conn *c, const struct superp_pkt *p,
			     void *cookie, void *buf)
{
	struct superp_xact_src *src = cookie;

	if (src && src->ops->rx)
		src->ops->rx(src, p, buf);
}

void superp_tx_placed(struct superp_conn *c, void *cookie)
{
	struct superp_xact_src *src = cookie;

	if (src && src->ops->placed)
		src->ops->placed(src);
}

void superp_tx_complete(struct superp_conn *c, void *cookie, int status,
			u32 err)
{
	struct superp_xact_src *src = cookie;

	if (src && src->ops->complete)
		src->ops->complete(src, status, err);
}

/**
 * superp_conn_submit() - start a transaction on a connection.
 * @sdev: the device.
 * @lcid: the connection's local CID.
 * @x: the transaction; x->cookie is a struct superp_xact_src or NULL.
 *
 * Context: process or softirq; takes the entry's lock.
 * Return: 0, -ENOENT (no such connection), or superp_submit()'s error
 * (-EAGAIN when a window is full: try again after completions).
 */
int superp_conn_submit(struct superp_dev *sdev, u16 lcid,
		       const struct superp_xact *x)
{
	struct superp_conn_entry *e;
	int err = -ENOENT;
	u16 xid;

	rcu_read_lock();
	e = superp_conn_lookup(sdev, lcid);
	if (e) {
		spin_lock_bh(&e->lock);
		err = superp_submit(&e->conn, x, &xid, ktime_get_ns());
		spin_unlock_bh(&e->lock);
	}
	rcu_read_unlock();
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_submit);
