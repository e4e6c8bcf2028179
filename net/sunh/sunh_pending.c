// SPDX-License-Identifier: GPL-2.0
/*
 * SUNH packets waiting for address resolution.
 *
 * The neighbour layer's own queue is not for us: when it solicits, ARP and
 * ND read the source address out of the queued packet's IP header, and a
 * SUNH packet has none (what they would read is SUNH payload, chosen by
 * whoever sent a forwarded frame, or bytes past its end). So resolution is
 * started without a packet (neigh_event_send(n, NULL)) and the packets wait
 * here: a bounded queue per namespace, each packet holding a reference to
 * its neighbour. A netevent notifier sends them when the neighbour becomes
 * valid and drops them when it fails; the namespace's ageing work drops
 * those that waited too long.
 *
 * Locking: the queue's own lock (BH), never held while transmitting.
 */
#include <linux/etherdevice.h>
#include <net/arp.h>
#include <net/ndisc.h>
#include <net/neighbour.h>
#include <net/netevent.h>
#include "sunh_private.h"

#define SUNH_PENDING_MAX	64		/* packets per namespace */
#define SUNH_PENDING_TIMEOUT	(3 * HZ)	/* as an ARP resolution */

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
	int err;

	neigh_ha_snapshot(ha, n, dev);
	skb->dev = dev;
	skb->protocol = htons(sunh_ethertype);
	if (skb_cow_head(skb, LL_RESERVED_SPACE(dev)) ||
	    dev_hard_header(skb, dev, sunh_ethertype, ha, NULL, skb->len) < 0) {
		SUNH_INC(sn, TX_DROP_DEV);
		kfree_skb(skb);
		return -ENOMEM;
	}
	err = net_xmit_eval(dev_queue_xmit(skb));
	if (err) {
		SUNH_INC(sn, TX_DROP_DEV);
		return net_xmit_errno(err);
	}
	return 0;
}

static void sunh_pending_drop(struct sunh_net *sn, struct sk_buff *skb)
{
	neigh_release(sunh_pending_cb(skb)->n);
	SUNH_INC(sn, TX_DROP_UNRESOLVED);
	kfree_skb(skb);
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
	struct sk_buff *old = NULL;
	int err;

	/* Starts resolution without handing the neighbour layer our packet. */
	if (!neigh_event_send(n, NULL)) {
		err = sunh_neigh_send(sn, skb, n);
		neigh_release(n);
		return err;
	}
	if (READ_ONCE(n->nud_state) & NUD_FAILED) {
		neigh_release(n);
		SUNH_INC(sn, TX_DROP_UNRESOLVED);
		kfree_skb(skb);
		return -EHOSTUNREACH;
	}
	skb_dst_drop(skb);
	sunh_pending_cb(skb)->n = n;
	sunh_pending_cb(skb)->queued = jiffies;
	spin_lock_bh(&sn->pending.lock);
	if (skb_queue_len(&sn->pending) >= SUNH_PENDING_MAX)
		old = __skb_dequeue(&sn->pending);
	__skb_queue_tail(&sn->pending, skb);
	spin_unlock_bh(&sn->pending.lock);
	SUNH_INC(sn, RESOLVE_QUEUED);
	if (old)
		sunh_pending_drop(sn, old);
	return 0;
}

/**
 * sunh_pending_expire() - drop packets that waited too long (or all)
 * @sn: namespace state
 * @all: drop every packet (the namespace is going away)
 */
void sunh_pending_expire(struct sunh_net *sn, bool all)
{
	struct sk_buff_head gone;
	struct sk_buff *skb, *tmp;

	__skb_queue_head_init(&gone);
	spin_lock_bh(&sn->pending.lock);
	skb_queue_walk_safe(&sn->pending, skb, tmp) {
		if (!all && time_before(jiffies, sunh_pending_cb(skb)->queued +
					SUNH_PENDING_TIMEOUT))
			continue;
		__skb_unlink(skb, &sn->pending);
		__skb_queue_tail(&gone, skb);
	}
	spin_unlock_bh(&sn->pending.lock);
	while ((skb = __skb_dequeue(&gone)))
		sunh_pending_drop(sn, skb);
}

static bool sunh_neigh_ours(const struct neighbour *n)
{
	if (n->tbl == &arp_tbl)
		return true;
#if IS_ENABLED(CONFIG_IPV6)
	if (n->tbl == &nd_tbl)
		return true;
#endif
	return false;
}

/* A neighbour resolved or failed: send or drop the packets waiting for it. */
static int sunh_netevent(struct notifier_block *nb, unsigned long event,
			 void *ptr)
{
	struct neighbour *n = ptr;
	struct sk_buff_head ready;
	struct sk_buff *skb, *tmp;
	struct sunh_net *sn;
	u8 state;

	if (event != NETEVENT_NEIGH_UPDATE || !sunh_neigh_ours(n))
		return NOTIFY_DONE;
	state = READ_ONCE(n->nud_state);
	if (!(state & (NUD_VALID | NUD_FAILED)))
		return NOTIFY_DONE;
	sn = sunh_pernet(dev_net(n->dev));
	if (skb_queue_empty_lockless(&sn->pending))
		return NOTIFY_DONE;

	__skb_queue_head_init(&ready);
	spin_lock_bh(&sn->pending.lock);
	skb_queue_walk_safe(&sn->pending, skb, tmp) {
		if (sunh_pending_cb(skb)->n != n)
			continue;
		__skb_unlink(skb, &sn->pending);
		__skb_queue_tail(&ready, skb);
	}
	spin_unlock_bh(&sn->pending.lock);

	while ((skb = __skb_dequeue(&ready))) {
		if (state & NUD_FAILED) {
			sunh_pending_drop(sn, skb);
			continue;
		}
		sunh_neigh_send(sn, skb, n);
		neigh_release(n);
	}
	return NOTIFY_DONE;
}

static struct notifier_block sunh_netevent_nb = {
	.notifier_call = sunh_netevent,
};

int sunh_pending_init(void)
{
	return register_netevent_notifier(&sunh_netevent_nb);
}

void sunh_pending_exit(void)
{
	unregister_netevent_notifier(&sunh_netevent_nb);
}
