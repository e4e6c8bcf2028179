// SPDX-License-Identifier: GPL-2.0
/*
 * SUNH receive: the EtherType handler, header checks, learning, and the
 * demultiplexing of local packets by Next Header to upper protocols.
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/mutex.h>
#include <net/ip6_route.h>
#include <net/ip_fib.h>
#include <kunit/visibility.h>
#include "sunh_private.h"

static const struct sunh_protocol __rcu *sunh_protos[256];
static DEFINE_MUTEX(sunh_protos_mutex);

/* Next Headers delivered from the list being received on this CPU. */
static DEFINE_PER_CPU(unsigned long [BITS_TO_LONGS(256)], sunh_batch_nexthdrs);

/**
 * sunh_add_protocol() - receive the packets of one Next Header value
 * @prot: the protocol; must stay valid until sunh_del_protocol()
 *
 * Return: 0, -EINVAL (no handler) or -EBUSY (the value is taken).
 */
int sunh_add_protocol(const struct sunh_protocol *prot)
{
	int err = 0;

	if (!prot->handler)
		return -EINVAL;
	mutex_lock(&sunh_protos_mutex);
	if (rcu_dereference_protected(sunh_protos[prot->nexthdr],
				      lockdep_is_held(&sunh_protos_mutex)))
		err = -EBUSY;
	else
		rcu_assign_pointer(sunh_protos[prot->nexthdr], prot);
	mutex_unlock(&sunh_protos_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(sunh_add_protocol);

/**
 * sunh_del_protocol() - stop receiving a Next Header value
 * @prot: the protocol given to sunh_add_protocol()
 *
 * Waits until no handler call of @prot is running.
 *
 * Context: process context, may sleep.
 * Return: 0, or -ENOENT if @prot was not registered.
 */
int sunh_del_protocol(const struct sunh_protocol *prot)
{
	int err = 0;

	mutex_lock(&sunh_protos_mutex);
	if (rcu_dereference_protected(sunh_protos[prot->nexthdr],
				      lockdep_is_held(&sunh_protos_mutex)) ==
	    prot)
		RCU_INIT_POINTER(sunh_protos[prot->nexthdr], NULL);
	else
		err = -ENOENT;
	mutex_unlock(&sunh_protos_mutex);
	if (!err)
		synchronize_net();
	return err;
}
EXPORT_SYMBOL_GPL(sunh_del_protocol);

/**
 * sunh_protocol_get() - the protocol registered for a Next Header value
 * @nexthdr: the value
 *
 * Context: rcu_read_lock().
 * Return: the protocol or NULL.
 */
const struct sunh_protocol *sunh_protocol_get(u8 nexthdr)
{
	return rcu_dereference(sunh_protos[nexthdr]);
}
EXPORT_SYMBOL_IF_KUNIT(sunh_protocol_get);

/**
 * sunh_deliver() - hand a local packet to its upper protocol
 * @net: namespace of the packet
 * @skb: the packet, skb->data at the SUNH header, SUNH_CB(skb) filled in
 *
 * Context: rcu_read_lock().
 * Return: the handler's verdict, or NET_RX_DROP (counted) when no protocol
 * is registered for the Next Header.
 */
int sunh_deliver(struct net *net, struct sk_buff *skb)
{
	struct sunh_net *sn = sunh_pernet(net);
	const struct sunh_protocol *prot;
	u8 nexthdr = SUNH_CB(skb)->hdr.nexthdr;

	prot = sunh_protocol_get(nexthdr);
	if (!prot) {
		SUNH_INC(sn, RX_DROP_UNKNOWN_NEXTHDR);
		net_dbg_ratelimited("sunh: no protocol for Next Header %u\n",
				    nexthdr);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	__skb_pull(skb, SUNH_HLEN);
	skb_reset_transport_header(skb);
	SUNH_INC(sn, RX_DELIVERED);
	if (SUNH_CB(skb)->batched && prot->batch_end)
		__set_bit(nexthdr, *this_cpu_ptr(&sunh_batch_nexthdrs));
	return prot->handler(skb);
}
EXPORT_SYMBOL_IF_KUNIT(sunh_deliver);

/* Reverse-path check, as rp_filter's strict mode: does the IP routing
 * table send traffic for @saddr out through @dev? Without it any host on
 * any segment could claim the address of a node elsewhere and have
 * routers and nodes learn a path through itself.
 */
static bool sunh_src_path_ok(struct net *net, const struct sunh_domain *d,
			     u16 saddr, const struct net_device *dev)
{
	if (d->subnet.family == AF_INET) {
		struct flowi4 fl4 = {
			.daddr = sunh_addr_to_ip4(&d->subnet, saddr),
			/* only routes through @dev match (fib_lookup_good_nhc) */
			.flowi4_oif = dev->ifindex,
		};
		struct fib_result res;

		return !fib_lookup(net, &fl4, &res, 0) &&
		       res.type == RTN_UNICAST;
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		struct flowi6 fl6 = { .flowi6_oif = dev->ifindex };
		struct dst_entry *dst;
		bool ok;

		sunh_addr_to_ip6(&d->subnet, saddr, &fl6.daddr);
		dst = ip6_route_output(net, NULL, &fl6);
		ok = !dst->error && dst->dev == dev;
		dst_release(dst);
		return ok;
	}
#else
	return false;
#endif
}

/* A learned entry is refreshed at most this often (a store per packet
 * would bounce its cache line between CPUs)...
 */
#define SUNH_LEARN_REFRESH	(HZ / 10)
/* ... and moves to another path only when its own was silent this long. */
#define SUNH_LEARN_HOLD		HZ

/* Remember that @saddr is reached through the frame's device and source.
 * A source seen through two paths at once (multipath spraying, or someone
 * alternating MACs) keeps the path it has while that one is in use: moving
 * the entry on every frame would cost an allocation, the table lock and an
 * RCU callback per packet.
 * Return: false when the frame claims a source that the routing table
 * puts behind another device (forged or misrouted): drop it.
 */
static bool sunh_learn(struct sunh_net *sn, struct sunh_domain *d,
		       struct sk_buff *skb, u16 saddr)
{
	struct net_device *dev = skb->dev;
	unsigned long now = jiffies;
	struct sunh_route *rt;
	const u8 *src;

	if (dev->type != ARPHRD_ETHER || !skb_mac_header_was_set(skb) ||
	    skb_mac_header_len(skb) < ETH_HLEN)
		return true;
	src = eth_hdr(skb)->h_source;
	rt = sunh_route_lookup(d, saddr);
	if (rt) {
		if (rt->origin != SUNH_ORIGIN_LEARNED)
			return true;
		if (rt->dev == dev && ether_addr_equal(rt->ha, src)) {
			if (time_after(now, READ_ONCE(rt->updated) +
					    SUNH_LEARN_REFRESH))
				WRITE_ONCE(rt->updated, now);
			return true;
		}
	}
	if (sunh_addr_is_local(sn->net, d, saddr))
		return true;
	/* Only a new or moved path costs a route lookup. */
	if (!sunh_src_path_ok(sn->net, d, saddr, dev)) {
		SUNH_INC(sn, RX_DROP_SRC_PATH);
		net_dbg_ratelimited("sunh: %s: source %u is not routed through this device, frame dropped\n",
				    dev->name, saddr);
		return false;
	}
	if (rt && time_before(now, READ_ONCE(rt->updated) + SUNH_LEARN_HOLD)) {
		SUNH_INC(sn, LEARN_HELD);
		return true;
	}
	if (!sunh_route_insert(d, saddr, dev, src, SUNH_ORIGIN_LEARNED, false))
		SUNH_INC(sn, ROUTES_LEARNED);
	return true;
}

static int __sunh_rcv(struct sk_buff *skb, struct net_device *dev,
		      bool batched);

/**
 * sunh_rcv() - the SUNH EtherType handler
 * @skb: received frame, skb->data at the SUNH header
 * @dev: receiving device
 * @pt: our packet_type
 * @orig_dev: original receiving device
 *
 * Context: softirq, rcu_read_lock().
 * Return: NET_RX_SUCCESS or NET_RX_DROP.
 */
int sunh_rcv(struct sk_buff *skb, struct net_device *dev,
	     struct packet_type *pt, struct net_device *orig_dev)
{
	return __sunh_rcv(skb, dev, false);
}

/**
 * sunh_rcv_list() - the SUNH EtherType handler for a list of frames
 * @head: the frames (one NAPI poll's), each as sunh_rcv() takes it
 * @pt: our packet_type
 * @orig_dev: original receiving device
 *
 * Each frame goes as through sunh_rcv(); then each upper protocol that
 * received any of them and asked for it gets its batch_end().
 *
 * Context: softirq, rcu_read_lock().
 */
void sunh_rcv_list(struct list_head *head, struct packet_type *pt,
		   struct net_device *orig_dev)
{
	unsigned long *nexthdrs = *this_cpu_ptr(&sunh_batch_nexthdrs);
	const struct sunh_protocol *prot;
	struct sk_buff *skb, *next;
	unsigned int nh;

	list_for_each_entry_safe(skb, next, head, list) {
		skb_list_del_init(skb);
		__sunh_rcv(skb, skb->dev, true);
	}
	for_each_set_bit(nh, nexthdrs, 256) {
		__clear_bit(nh, nexthdrs);
		prot = sunh_protocol_get(nh);
		if (prot && prot->batch_end)
			prot->batch_end();
	}
}

static int __sunh_rcv(struct sk_buff *skb, struct net_device *dev,
		      bool batched)
{
	struct net *net = dev_net(dev);
	struct sunh_net *sn = sunh_pernet(net);
	struct sunh_domain *d;
	struct sunh_skb_cb *cb;
	bool to_dev = false;

	BUILD_BUG_ON(sizeof(struct sunh_skb_cb) > sizeof(skb->cb));

	if (skb->pkt_type == PACKET_OTHERHOST) {
		SUNH_INC(sn, RX_DROP_OTHERHOST);
		goto drop;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		SUNH_INC(sn, RX_DROP_NOMEM);
		return NET_RX_DROP;
	}
	SUNH_INC(sn, RX_PACKETS);
	SUNH_ADD(sn, RX_BYTES, skb->len);

	if (!pskb_may_pull(skb, SUNH_HLEN)) {
		SUNH_INC(sn, RX_DROP_TRUNCATED);
		net_dbg_ratelimited("sunh: %s: truncated frame of %u bytes\n",
				    dev->name, skb->len);
		goto drop;
	}
	skb_reset_network_header(skb);
	cb = SUNH_CB(skb);
	memset(cb, 0, sizeof(*cb));
	sunh_hdr_unpack(sunh_hdr(skb), &cb->hdr);
	cb->iif = dev->ifindex;
	cb->batched = batched;

	d = rcu_dereference(sn->domain);
	if (!d) {
		SUNH_INC(sn, RX_DROP_NO_SUBNET);
		goto drop;
	}
	if (cb->hdr.daddr >= d->size || cb->hdr.saddr >= d->size) {
		SUNH_INC(sn, RX_DROP_ADDR_RANGE);
		net_dbg_ratelimited("sunh: %s: address %u -> %u outside %u bits\n",
				    dev->name, cb->hdr.saddr, cb->hdr.daddr,
				    d->subnet.addr_bits);
		goto drop;
	}
	/* Only the domain's interfaces (those with an IP address in the
	 * subnet) take part: a frame arriving on any other port is neither
	 * learned from, delivered nor forwarded. Local traffic loops back.
	 */
	if (!(dev->flags & IFF_LOOPBACK)) {
		u16 own;

		if (sunh_dev_addr(net, d, dev, &own)) {
			SUNH_INC(sn, RX_DROP_NO_DEV_ADDR);
			net_dbg_ratelimited("sunh: %s: no address in the subnet, frame %u -> %u dropped\n",
					    dev->name, cb->hdr.saddr, cb->hdr.daddr);
			goto drop;
		}
		/* Usually the frame is for this device's own address. */
		to_dev = cb->hdr.daddr == own;
		/* A zero, multicast or broadcast source is forged: no node
		 * sends from one, and answering it would create neighbour
		 * entries for whatever address it claims.
		 */
		if (dev->type == ARPHRD_ETHER && skb_mac_header_was_set(skb) &&
		    skb_mac_header_len(skb) >= ETH_HLEN &&
		    !is_valid_ether_addr(eth_hdr(skb)->h_source)) {
			SUNH_INC(sn, RX_DROP_BAD_SRC_MAC);
			net_dbg_ratelimited("sunh: %s: invalid source MAC, frame %u -> %u dropped\n",
					    dev->name, cb->hdr.saddr, cb->hdr.daddr);
			goto drop;
		}
	}
	if (READ_ONCE(sn->learning) && !sunh_learn(sn, d, skb, cb->hdr.saddr))
		goto drop;

	if (to_dev || sunh_addr_is_local(net, d, cb->hdr.daddr))
		return sunh_deliver(net, skb);
	if (!READ_ONCE(sn->forwarding) || skb->pkt_type != PACKET_HOST) {
		SUNH_INC(sn, RX_DROP_NOT_LOCAL);
		goto drop;
	}
	return sunh_forward(sn, d, skb);

drop:
	kfree_skb(skb);
	return NET_RX_DROP;
}
