// SPDX-License-Identifier: GPL-2.0
/*
 * SUNH packets waiting for address resolution.
 *
 * The neighbour layer's own queue is not for us: when it solicits, ARP and
 * ND read the source address out of the queued packet's IP header, and a
 * SUNH packet has none (they would read SUNH payload, chosen by whoever
 * sent a forwarded frame, or bytes past its end). So resolution is started
 * without a packet (neigh_event_send(n, NULL)) and the packets wait here:
 * one queue per namespace, SUNH_PENDING_MAX packets and SUNH_PENDING_TIMEOUT
 * at most, each packet holding a reference to its neighbour in skb->cb.
 * sunh_pending_neigh_event() (the netevent notifier) sends them when their
 * neighbour becomes valid and drops them when it fails; the oldest are
 * dropped when the queue is full or they waited too long, and all of a
 * device's when it goes down. Every drop counts as tx_drop_unresolved.
 *
 * Locking: sn->pending.lock (BH; the notifier runs in process context and
 * in softirq) guards the queue. Packets are moved to a private list under
 * it and sent or freed after it is released: nothing is transmitted, and
 * no neighbour released, with the lock held.
 *
 * (A first version of this file crashed in veth_xmit: it wrote
 * net_xmit_eval(dev_queue_xmit(skb)), and net_xmit_eval() evaluates its
 * argument twice, so each packet was transmitted a second time after the
 * first transmission had consumed it.)
 */
#include <linux/etherdevice.h>
#include <net/dst.h>
#include <net/neighbour.h>
#include "sunh_private.h"

#define SUNH_PENDING_MAX	64		/* packets per namespace */
#define SUNH_PENDING_TIMEOUT	(3 * HZ)	/* as long as ARP tries */

struct sunh_pending_cb {
	struct neighbour *n;	/* reference held while queued */
	unsigned long queued;	/* jiffies */
};

static struct sunh_pending_cb *sunh_pending_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct sunh_pending_cb) > sizeof(skb->cb));
	return (struct sunh_pending_cb *)skb->cb;
}

/* Send @skb (at its SUNH header) to the valid neighbour @n. */
static int sunh_neigh_send(struct sunh_net *sn, struct sk_buff *skb,
			   struct neighbour *n)
{
	struct net_device *dev = n->dev;
	u8 ha[MAX_ADDR_LEN];

	neigh_ha_snapshot(ha, n, dev);
	skb->dev = dev;
	skb->protocol = htons(sunh_ethertype);
	skb_reset_network_header(skb);
	if (!(dev->flags & IFF_UP) ||
	    skb_cow_head(skb, LL_RESERVED_SPACE(dev)) ||
	    dev_hard_header(skb, dev, sunh_ethertype, ha, NULL, skb->len) < 0) {
		SUNH_INC(sn, TX_DROP_DEV);
		kfree_skb(skb);
		return -ENOBUFS;
	}
	return sunh_dev_xmit(sn, skb);
}

static void sunh_pending_drop(struct sunh_net *sn, struct sk_buff *skb)
{
	neigh_release(sunh_pending_cb(skb)->n);
	SUNH_INC(sn, TX_DROP_UNRESOLVED);
	kfree_skb(skb);
}

/* Send (or, if @n is not valid, drop) the packets of private list @q. */
static void sunh_pending_finish(struct sunh_net *sn, struct sk_buff_head *q)
{
	struct sk_buff *skb;
	struct neighbour *n;

	/* one context for the device, whoever called: BH off, as neigh does */
	local_bh_disable();
	while ((skb = __skb_dequeue(q))) {
		n = sunh_pending_cb(skb)->n;
		if ((READ_ONCE(n->nud_state) & NUD_VALID) && !READ_ONCE(n->dead)) {
			sunh_neigh_send(sn, skb, n);
			neigh_release(n);
		} else {
			sunh_pending_drop(sn, skb);
		}
	}
	local_bh_enable();
}

/* Move the packets matching (@n or @dev, or too old) to @out. */
static void sunh_pending_take(struct sunh_net *sn, struct sk_buff_head *out,
			      const struct neighbour *n,
			      const struct net_device *dev, bool all)
{
	unsigned long now = jiffies;
	struct sunh_pending_cb *cb;
	struct sk_buff *skb, *tmp;

	spin_lock_bh(&sn->pending.lock);
	skb_queue_walk_safe(&sn->pending, skb, tmp) {
		cb = sunh_pending_cb(skb);
		if (!all && cb->n != n && (!dev || cb->n->dev != dev) &&
		    time_before(now, cb->queued + SUNH_PENDING_TIMEOUT))
			continue;
		__skb_unlink(skb, &sn->pending);
		__skb_queue_tail(out, skb);
	}
	spin_unlock_bh(&sn->pending.lock);
}

/**
 * sunh_pending_xmit() - send a packet whose neighbour may still resolve
 * @sn: namespace state
 * @skb: the packet, skb->data at the SUNH header (consumed)
 * @n: its next hop's neighbour (the reference is consumed)
 *
 * Context: any context that may transmit.
 * Return: 0 (sent or queued), or a negative errno (counted).
 */
int sunh_pending_xmit(struct sunh_net *sn, struct sk_buff *skb,
		      struct neighbour *n)
{
	struct sk_buff_head gone;
	struct sk_buff *old;
	int err;

	/* Starts resolution without handing the neighbour layer our packet. */
	if (!neigh_event_send(n, NULL)) {
		err = sunh_neigh_send(sn, skb, n);
		neigh_release(n);
		return err;
	}
	skb_dst_drop(skb);
	sunh_pending_cb(skb)->n = n;
	sunh_pending_cb(skb)->queued = jiffies;

	__skb_queue_head_init(&gone);
	spin_lock_bh(&sn->pending.lock);
	/* the oldest give way: the queue is FIFO, so they are at its head */
	while ((old = skb_peek(&sn->pending)) &&
	       (skb_queue_len(&sn->pending) >= SUNH_PENDING_MAX ||
		time_after_eq(jiffies, sunh_pending_cb(old)->queued +
			      SUNH_PENDING_TIMEOUT))) {
		__skb_unlink(old, &sn->pending);
		__skb_queue_tail(&gone, old);
	}
	__skb_queue_tail(&sn->pending, skb);
	spin_unlock_bh(&sn->pending.lock);
	SUNH_INC(sn, RESOLVE_QUEUED);
	while ((old = __skb_dequeue(&gone)))
		sunh_pending_drop(sn, old);

	/* Resolved (or failed) while we queued: the notifier may have come
	 * and gone before the packet was in the queue. Reading the state
	 * after taking the lock that the notifier takes too sees its update.
	 */
	if (READ_ONCE(n->nud_state) & (NUD_VALID | NUD_FAILED))
		sunh_pending_neigh_event(sn, n);
	return 0;
}

/**
 * sunh_pending_neigh_event() - a neighbour changed: send or drop its packets
 * @sn: namespace of the neighbour's device
 * @n: the neighbour
 *
 * Context: process or softirq context (the netevent notifier).
 */
void sunh_pending_neigh_event(struct sunh_net *sn, struct neighbour *n)
{
	struct sk_buff_head q;

	if (!(READ_ONCE(n->nud_state) & (NUD_VALID | NUD_FAILED)) &&
	    !READ_ONCE(n->dead))
		return;
	if (skb_queue_empty_lockless(&sn->pending))
		return;
	__skb_queue_head_init(&q);
	sunh_pending_take(sn, &q, n, NULL, false);
	sunh_pending_finish(sn, &q);
}

/**
 * sunh_pending_expire() - drop packets that waited too long, that go out
 *	through @dev, or all
 * @sn: namespace state
 * @dev: drop the packets through this device (NULL: none in particular)
 * @all: drop every packet (the namespace is going away)
 *
 * Context: process context.
 */
void sunh_pending_expire(struct sunh_net *sn, const struct net_device *dev,
			 bool all)
{
	struct sk_buff_head q;
	struct sk_buff *skb;

	__skb_queue_head_init(&q);
	sunh_pending_take(sn, &q, NULL, dev, all);
	while ((skb = __skb_dequeue(&q)))
		sunh_pending_drop(sn, skb);
}
