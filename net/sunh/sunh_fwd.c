// SPDX-License-Identifier: GPL-2.0
/*
 * SUNH forwarding: a node with forwarding enabled sends frames addressed to
 * other nodes on to their next hop, like an IP router. The hop limit is
 * decremented; traffic class (with its ECN bits) and flow label are kept.
 */
#include <linux/skbuff.h>
#include <kunit/visibility.h>
#include <net/route.h>
#include "sunh_private.h"

/**
 * sunh_hop_limit_forward() - the hop-limit rule of a forwarder
 * @hop_limit: hop limit as received
 * @next: the hop limit to forward with
 *
 * A forwarder discards a packet whose hop limit was 0 on arrival or becomes
 * 0 when decremented (a destination accepts hop limit 0).
 *
 * Return: true if the packet may be forwarded.
 */
bool sunh_hop_limit_forward(u8 hop_limit, u8 *next)
{
	if (hop_limit <= 1)
		return false;
	*next = hop_limit - 1;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(sunh_hop_limit_forward);

/**
 * sunh_forward() - forward a received frame
 * @sn: namespace state
 * @d: its domain
 * @skb: the frame, skb->data at the SUNH header, SUNH_CB(skb) filled in
 *
 * Context: softirq, rcu_read_lock().
 * Return: NET_RX_SUCCESS or NET_RX_DROP; every drop is counted.
 */
int sunh_forward(struct sunh_net *sn, struct sunh_domain *d,
		 struct sk_buff *skb)
{
	const struct sunh_fields *f = &SUNH_CB(skb)->hdr;
	struct sunh_nexthop nh;
	struct sunhhdr *sh;
	u8 hop_limit;
	int err;

	if (!sunh_hop_limit_forward(f->hop_limit, &hop_limit)) {
		SUNH_INC(sn, FWD_DROP_HOP_LIMIT);
		net_dbg_ratelimited("sunh: hop limit exhausted %u -> %u\n",
				    f->saddr, f->daddr);
		goto drop;
	}
	err = sunh_nexthop_get(sn, d, f->daddr, &nh);
	if (err == -ENETUNREACH) {
		SUNH_INC(sn, FWD_DROP_NOT_DOMAIN);
		net_dbg_ratelimited("sunh: %u -> %u: next hop outside the domain\n",
				    f->saddr, f->daddr);
		goto drop;
	}
	if (err || nh.local) {
		SUNH_INC(sn, FWD_DROP_NO_ROUTE);
		goto drop;
	}
	if (skb->len > READ_ONCE(nh.dev->mtu)) {
		SUNH_INC(sn, FWD_DROP_MTU);
		goto put;
	}
	if (skb_cow(skb, LL_RESERVED_SPACE(nh.dev))) {
		SUNH_INC(sn, FWD_DROP_NOMEM);
		goto put;
	}
	sh = sunh_hdr(skb);
	sh->hl_flow = htons((hop_limit << SUNH_HOP_LIMIT_SHIFT) |
			    f->flow_label);
	skb_forward_csum(skb);
	skb_clear_tstamp(skb);
	/* Queue by traffic class on the way out, as IPv4 forwarding does. */
	skb->priority = rt_tos2priority(f->tclass);
	SUNH_INC(sn, FWD_PACKETS);
	return sunh_nexthop_xmit(sn, skb, &nh) ? NET_RX_DROP : NET_RX_SUCCESS;

put:
	sunh_nexthop_put(&nh);
drop:
	kfree_skb(skb);
	return NET_RX_DROP;
}
