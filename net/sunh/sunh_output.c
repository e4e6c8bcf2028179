// SPDX-License-Identifier: GPL-2.0
/*
 * SUNH transmit: choosing the next hop and sending.
 *
 * The next hop of a destination is its forwarding entry. Without one, the
 * destination is decompressed to its IP address, routed by the IP routing
 * table of the namespace, and the next hop's neighbour entry (ARP/ND) is
 * looked up or created. A valid neighbour becomes a "resolved" entry; while
 * it is still resolving, the packet waits in a queue of ours
 * (sunh_pending.c: ARP/ND must never see a SUNH packet), and the next
 * packet finds the neighbour valid.
 *
 * Two rules keep the table honest. SUNH frames never leave the domain: a
 * next hop through a device without an address in the subnet (an uplink,
 * a management port, the default route) is refused, whatever entry or
 * route leads there. And dynamic entries in use are held against the
 * neighbour table once a second, and at their first use after any
 * neighbour of the namespace changed (sunh_net.neigh_gen, bumped by the
 * netevent notifier): a valid neighbour confirms a resolved entry (it
 * stays alive while used, and the neighbour is kept confirmed as IP's
 * traffic keeps it), replaces a learned one, or moves an entry whose
 * neighbour changed (failover, gratuitous ARP); a resolved entry whose
 * neighbour failed or is gone is removed, so that the next packet resolves
 * again.
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <net/arp.h>
#include <net/ip6_route.h>
#include <net/ndisc.h>
#include <net/neighbour.h>
#include <net/route.h>
#include "sunh_private.h"

static struct neighbour *sunh_neigh4(struct net *net,
				     const struct sunh_domain *d, u16 daddr,
				     bool create)
{
	__be32 ip = sunh_addr_to_ip4(&d->subnet, daddr), gw;
	struct neighbour *n;
	struct rtable *rt;

	rt = ip_route_output(net, ip, 0, 0, 0);
	if (IS_ERR(rt))
		return NULL;
	if (rt->rt_type != RTN_UNICAST || rt->rt_gw_family == AF_INET6) {
		ip_rt_put(rt);
		return NULL;
	}
	gw = rt_nexthop(rt, ip);
	n = __neigh_lookup(&arp_tbl, &gw, rt->dst.dev, create);
	ip_rt_put(rt);
	return n;
}

static struct neighbour *sunh_neigh6(struct net *net,
				     const struct sunh_domain *d, u16 daddr,
				     bool create)
{
#if IS_ENABLED(CONFIG_IPV6)
	struct flowi6 fl6 = {};
	struct dst_entry *dst;
	const struct in6_addr *gw;
	struct neighbour *n;

	sunh_addr_to_ip6(&d->subnet, daddr, &fl6.daddr);
	dst = ip6_route_output(net, NULL, &fl6);
	if (dst->error || (dst->dev->flags & IFF_LOOPBACK)) {
		dst_release(dst);
		return NULL;
	}
	gw = rt6_nexthop(container_of(dst, struct rt6_info, dst), &fl6.daddr);
	n = __neigh_lookup(&nd_tbl, gw, dst->dev, create);
	dst_release(dst);
	return n;
#else
	return NULL;
#endif
}

/* The neighbour of the IP next hop of @daddr, on an Ethernet port. */
static struct neighbour *sunh_neigh(struct sunh_net *sn,
				    const struct sunh_domain *d, u16 daddr,
				    bool create)
{
	struct neighbour *n;

	if (d->subnet.family == AF_INET)
		n = sunh_neigh4(sn->net, d, daddr, create);
	else
		n = sunh_neigh6(sn->net, d, daddr, create);
	if (n && n->dev->type != ARPHRD_ETHER) {
		neigh_release(n);
		n = NULL;
	}
	return n;
}

/* Is @dev a port of the domain (an address in the subnet)? */
static bool sunh_domain_port(struct sunh_net *sn, const struct sunh_domain *d,
			     const struct net_device *dev)
{
	u16 own;

	return !sunh_dev_addr(sn->net, d, dev, &own);
}

/* Find or start resolving the next hop of @daddr through the IP tables. */
static int sunh_resolve(struct sunh_net *sn, struct sunh_domain *d,
			u16 daddr, struct sunh_nexthop *nh)
{
	/* read before the neighbour: a change after it is not missed */
	u32 gen = atomic_read(&sn->neigh_gen);
	u8 ha[MAX_ADDR_LEN];
	struct neighbour *n;

	n = sunh_neigh(sn, d, daddr, true);
	if (!n)
		return -EHOSTUNREACH;
	if (!sunh_domain_port(sn, d, n->dev)) {
		neigh_release(n);
		return -ENETUNREACH;
	}

	if (READ_ONCE(n->nud_state) & NUD_VALID) {
		neigh_ha_snapshot(ha, n, n->dev);
		if (!sunh_route_insert(d, daddr, n->dev, ha,
				       SUNH_ORIGIN_RESOLVED, false))
			SUNH_INC(sn, ROUTES_RESOLVED);
		nh->rt = sunh_route_lookup(d, daddr);
		if (nh->rt) {
			WRITE_ONCE(nh->rt->neigh_gen, gen);
			neigh_release(n);
			nh->dev = nh->rt->dev;
			return 0;
		}
	}
	/* Not resolved yet (or the entry could not be added): queue. */
	nh->neigh = n;
	nh->dev = n->dev;
	return 0;
}

/* A dynamic entry in use, held against the neighbour table (at most once a
 * second, and after any neighbour change): confirmed, replaced by the
 * resolved next hop, removed (a resolved entry whose neighbour failed) or
 * left to age.
 */
static void sunh_route_recheck(struct sunh_net *sn, struct sunh_domain *d,
			       u16 daddr, struct sunh_nexthop *nh)
{
	u32 gen = atomic_read(&sn->neigh_gen);
	struct sunh_route *rt = nh->rt, *nrt;
	unsigned long now = jiffies;
	u8 ha[MAX_ADDR_LEN];
	struct neighbour *n;

	if (!sunh_route_is_dynamic(rt) ||
	    (time_before(now, READ_ONCE(rt->checked) + HZ) &&
	     READ_ONCE(rt->neigh_gen) == gen))
		return;
	WRITE_ONCE(rt->checked, now);
	WRITE_ONCE(rt->neigh_gen, gen);
	n = sunh_neigh(sn, d, daddr, false);
	if (!n) {
		/* the neighbour is gone (flushed, collected): resolve again */
		if (rt->origin == SUNH_ORIGIN_RESOLVED)
			sunh_route_delete_entry(d, daddr, rt);
		return;
	}
	if (!sunh_domain_port(sn, d, n->dev))
		goto out;
	if (!(READ_ONCE(n->nud_state) & NUD_VALID)) {
		/* failed or resolving again: the next packet waits for it */
		if (rt->origin == SUNH_ORIGIN_RESOLVED)
			sunh_route_delete_entry(d, daddr, rt);
		goto out;
	}
	/* Keeps the neighbour confirmed as IP traffic does (a STALE entry
	 * is probed), so that a peer that died or moved is noticed.
	 */
	neigh_event_send(n, NULL);
	neigh_ha_snapshot(ha, n, n->dev);
	if (rt->origin == SUNH_ORIGIN_RESOLVED && n->dev == rt->dev &&
	    !memcmp(ha, rt->ha, rt->ha_len)) {
		WRITE_ONCE(rt->updated, now);
		goto out;
	}
	if (sunh_route_insert(d, daddr, n->dev, ha, SUNH_ORIGIN_RESOLVED,
			      false))
		goto out;
	SUNH_INC(sn, ROUTES_RESOLVED);
	nrt = sunh_route_lookup(d, daddr);
	if (nrt) {
		/* @rt stays valid until rcu_read_unlock(); use the new one */
		nh->rt = nrt;
		nh->dev = nrt->dev;
	}
out:
	neigh_release(n);
}

/**
 * sunh_nexthop_get() - where to send a packet for a destination
 * @sn: namespace state
 * @d: its domain
 * @daddr: destination (within the address width)
 * @nh: the next hop; release it with sunh_nexthop_xmit() or
 *	sunh_nexthop_put()
 *
 * Context: rcu_read_lock(); @nh is valid until rcu_read_unlock().
 * Return: 0, -EHOSTUNREACH (no route), or -ENETUNREACH (the next hop is
 * not a port of the domain: SUNH frames do not leave it).
 */
int sunh_nexthop_get(struct sunh_net *sn, struct sunh_domain *d, u16 daddr,
		     struct sunh_nexthop *nh)
{
	memset(nh, 0, sizeof(*nh));
	nh->rt = sunh_route_lookup(d, daddr);
	if (nh->rt) {
		nh->dev = nh->rt->dev;
		sunh_route_recheck(sn, d, daddr, nh);
		/* static entries too: the port may have lost its address */
		return sunh_domain_port(sn, d, nh->dev) ? 0 : -ENETUNREACH;
	}
	if (sunh_addr_is_local(sn->net, d, daddr)) {
		nh->local = true;
		nh->dev = sn->net->loopback_dev;
		return 0;
	}
	return sunh_resolve(sn, d, daddr, nh);
}

/**
 * sunh_nexthop_put() - release a next hop that was not used
 * @nh: the next hop
 */
void sunh_nexthop_put(struct sunh_nexthop *nh)
{
	if (nh->neigh)
		neigh_release(nh->neigh);
	nh->neigh = NULL;
}

/**
 * sunh_dev_xmit() - hand a frame to its device
 * @sn: namespace state
 * @skb: the frame, link-layer header built (consumed)
 *
 * Return: 0 or a negative errno (the device refused it: counted).
 */
int sunh_dev_xmit(struct sunh_net *sn, struct sk_buff *skb)
{
	/* not net_xmit_eval(dev_queue_xmit(skb)): the macro evaluates its
	 * argument twice, and would send a consumed skb again
	 */
	int err = dev_queue_xmit(skb);

	err = net_xmit_eval(err);
	if (err) {
		SUNH_INC(sn, TX_DROP_DEV);
		return net_xmit_errno(err);
	}
	return 0;
}

/**
 * sunh_nexthop_xmit() - send a SUNH packet to its next hop
 * @sn: namespace state
 * @skb: the packet, skb->data at the SUNH header (consumed)
 * @nh: from sunh_nexthop_get(), released here
 *
 * Context: rcu_read_lock().
 * Return: 0 or a negative errno (the drop is counted).
 */
int sunh_nexthop_xmit(struct sunh_net *sn, struct sk_buff *skb,
		      struct sunh_nexthop *nh)
{
	struct net_device *dev = nh->dev;
	struct sunh_route *rt = nh->rt;
	unsigned int len = skb->len;
	int err;

	skb->protocol = htons(sunh_ethertype);
	skb->dev = dev;
	skb_reset_network_header(skb);

	if (nh->local) {
		/* To ourselves: received again, through the loopback device,
		 * with the Ethernet header that lo's taps (packet sockets)
		 * expect, as loopback_xmit() leaves it.
		 */
		skb_orphan(skb);
		skb_dst_drop(skb);
		if (skb_cow_head(skb, LL_RESERVED_SPACE(dev)) ||
		    dev_hard_header(skb, dev, sunh_ethertype, dev->dev_addr,
				    dev->dev_addr, len) < 0) {
			SUNH_INC(sn, TX_DROP_NOMEM);
			kfree_skb(skb);
			return -ENOMEM;
		}
		skb->protocol = eth_type_trans(skb, dev);
		return netif_rx(skb) == NET_RX_SUCCESS ? 0 : -ENOBUFS;
	}

	if (nh->neigh) {
		/* our queue, not the neighbour's (see sunh_pending.c) */
		err = sunh_pending_xmit(sn, skb, nh->neigh);
		nh->neigh = NULL;
		return err;
	}

	if (!(dev->flags & IFF_UP)) {
		err = -ENETDOWN;
		goto drop;
	}
	if (skb_cow_head(skb, LL_RESERVED_SPACE(dev))) {
		err = -ENOMEM;
		goto drop;
	}
	if (dev_hard_header(skb, dev, sunh_ethertype, rt->ha, NULL, len) < 0) {
		err = -EINVAL;
		goto drop;
	}
	atomic64_inc(&rt->packets);
	atomic64_add(len, &rt->bytes);
	return sunh_dev_xmit(sn, skb);

drop:
	SUNH_INC(sn, TX_DROP_DEV);
	kfree_skb(skb);
	return err;
}

/**
 * sunh_output() - send a packet over SUNH
 * @net: namespace to send in
 * @skb: the payload, skb->data at the first byte after the SUNH header;
 *	reserve SUNH_MAX_HEADER of headroom to avoid a copy. Always consumed.
 * @p: addresses and header fields
 *
 * Looks up (or resolves) the next hop of @p->daddr, prepends the SUNH
 * header and transmits. A destination owned by this node is looped back.
 * Unless the caller set skb->priority, the traffic class sets it (IPv4's
 * TOS to priority map), so qdiscs and egress QoS maps see the class.
 *
 * Context: any context that may call dev_queue_xmit().
 * Return: 0 when the packet was handed to the device or queued for address
 * resolution; -ENETUNREACH (no subnet configured), -EINVAL (address or hop
 * limit out of range), -EHOSTUNREACH (no route), -ENETUNREACH (the next
 * hop is outside the domain), -EADDRNOTAVAIL (no source address), -ENOMEM,
 * or a device error. Every failure is counted.
 */
int sunh_output(struct net *net, struct sk_buff *skb,
		const struct sunh_xmit_params *p)
{
	struct sunh_net *sn = sunh_pernet(net);
	struct sunh_nexthop nh;
	struct sunh_domain *d;
	struct sunh_fields f;
	struct sunhhdr *sh;
	int err;

	rcu_read_lock();
	d = rcu_dereference(sn->domain);
	if (!d) {
		SUNH_INC(sn, TX_DROP_NO_SUBNET);
		err = -ENETUNREACH;
		goto drop;
	}
	if (p->daddr >= d->size || (p->set_saddr && p->saddr >= d->size) ||
	    p->hop_limit > SUNH_HOP_LIMIT_MAX) {
		SUNH_INC(sn, TX_DROP_ADDR_RANGE);
		err = -EINVAL;
		goto drop;
	}
	err = sunh_nexthop_get(sn, d, p->daddr, &nh);
	if (err == -ENETUNREACH) {
		SUNH_INC(sn, TX_DROP_NOT_DOMAIN);
		goto drop;
	} else if (err) {
		SUNH_INC(sn, TX_DROP_NO_ROUTE);
		goto drop;
	}

	f.daddr = p->daddr;
	if (p->set_saddr) {
		f.saddr = p->saddr;
	} else if (nh.local) {
		f.saddr = p->daddr;
	} else if (sunh_dev_addr(net, d, nh.dev, &f.saddr)) {
		SUNH_INC(sn, TX_DROP_NO_SOURCE);
		err = -EADDRNOTAVAIL;
		goto put;
	}
	f.tclass = p->tclass;
	f.nexthdr = p->nexthdr;
	f.flow_label = p->flow_label;
	f.hop_limit = p->hop_limit < 0 ? READ_ONCE(sn->hop_limit) :
					 p->hop_limit;

	if (skb_cow_head(skb, SUNH_HLEN + LL_RESERVED_SPACE(nh.dev))) {
		SUNH_INC(sn, TX_DROP_NOMEM);
		err = -ENOMEM;
		goto put;
	}
	sh = skb_push(skb, SUNH_HLEN);
	sunh_hdr_pack(sh, &f);
	/* A priority chosen by the sender wins; otherwise the traffic class
	 * picks the queue, as the TOS byte does for IPv4.
	 */
	if (!skb->priority)
		skb->priority = rt_tos2priority(f.tclass);
	SUNH_INC(sn, TX_PACKETS);
	SUNH_ADD(sn, TX_BYTES, skb->len);
	err = sunh_nexthop_xmit(sn, skb, &nh);
	rcu_read_unlock();
	return err;

put:
	sunh_nexthop_put(&nh);
drop:
	rcu_read_unlock();
	kfree_skb(skb);
	return err;
}
EXPORT_SYMBOL_GPL(sunh_output);
