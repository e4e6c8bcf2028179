// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the UDP/IPv4 and UDP/IPv6 encapsulations. Each network
 * namespace gets two kernel UDP tunnel sockets bound to the SUPERp port
 * (7777, module parameter udp_port), one per address family; received
 * datagrams reach superp_udp_rcv() through the socket's encap_rcv hook
 * (the UDP checksum already verified) in NET_RX softirq. Packets are sent
 * from the connection's local address, source port = the connection's
 * flow entropy (udp_sport), the traffic class as TOS / IPv6 traffic class,
 * and the UDP checksum on (required for IPv6). The route, restricted to
 * the device's netdev, is kept per connection and CPU in a dst_cache.
 *
 * We push the UDP and IP headers ourselves, as udp_tunnel_xmit_skb() and
 * udp_tunnel6_xmit_skb() do, because those keep the netdev's verdict to
 * themselves (the IPv4 one returns nothing, the IPv6 one always 0, and a
 * drop is counted only on a tunnel netdev, which we do not have): a
 * packet dropped by a full qdisc must come back as -ENOBUFS, so that the
 * engine keeps it unsent and retries (superp_tx.c), as over SUNH.
 *
 * Locking: the sockets live from namespace creation to its exit (pernet
 * operations); the receive hook runs under the UDP stack's RCU read side,
 * and the socket's memory is freed after a grace period.
 */
#include <linux/module.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_encap.h"
#include "superp_rx.h"

static ushort udp_port = SUPERP_UDP_PORT;
module_param(udp_port, ushort, 0444);
MODULE_PARM_DESC(udp_port, "UDP port of the SUPERp encapsulation (default 7777)");

struct superp_udp_net {
	struct socket *sock4;
	struct socket *sock6;	/* NULL when IPv6 is disabled */
};

static unsigned int superp_udp_net_id __read_mostly;

static int superp_udp_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct superp_rx_src src = {};

	/* Header bytes only: the payload may stay in fragments. */
	if (!pskb_may_pull(skb, sizeof(struct udphdr))) {
		superp_rx_short(skb);
		return 0;
	}
	if (ip_hdr(skb)->version == 4) {
		src.encap = SUPERP_ENCAP_UDP4;
		src.addr.ip4 = ip_hdr(skb)->saddr;
		src.dst.ip4 = ip_hdr(skb)->daddr;
	} else {
		src.encap = SUPERP_ENCAP_UDP6;
		src.addr.ip6 = ipv6_hdr(skb)->saddr;
		src.dst.ip6 = ipv6_hdr(skb)->daddr;
	}
	__skb_pull(skb, sizeof(struct udphdr));
	superp_rx(skb, &src);
	return 0;
}

static struct socket *superp_udp_sock(struct net *net, bool ipv6)
{
	struct udp_tunnel_sock_cfg tcfg = {
		.encap_type = 1,
		.encap_rcv = superp_udp_rcv,
	};
	struct udp_port_cfg cfg = {
		.family = ipv6 ? AF_INET6 : AF_INET,
		.local_udp_port = htons(udp_port),
		.ipv6_v6only = 1,
	};
	struct socket *sock;
	int err;

	err = udp_sock_create(net, &cfg, &sock);
	if (err)
		return ERR_PTR(err);
	setup_udp_tunnel_sock(net, sock, &tcfg);
	return sock;
}

static int __net_init superp_udp_net_init(struct net *net)
{
	struct superp_udp_net *un = net_generic(net, superp_udp_net_id);
	struct socket *sock;

	sock = superp_udp_sock(net, false);
	if (IS_ERR(sock))
		return PTR_ERR(sock);
	un->sock4 = sock;
	sock = superp_udp_sock(net, true);
	if (IS_ERR(sock)) {
		/* IPv6 off (ipv6.disable=1): udp6 connections cannot send. */
		pr_info_once("%s: no UDP/IPv6 socket (%ld): udp6 connections will not work\n",
			     SUPERP_DRV_NAME, PTR_ERR(sock));
		sock = NULL;
	}
	un->sock6 = sock;
	return 0;
}

static void __net_exit superp_udp_net_exit(struct net *net)
{
	struct superp_udp_net *un = net_generic(net, superp_udp_net_id);

	if (un->sock6)
		udp_tunnel_sock_release(un->sock6);
	udp_tunnel_sock_release(un->sock4);
}

static struct pernet_operations superp_udp_net_ops = {
	.init = superp_udp_net_init,
	.exit = superp_udp_net_exit,
	.id = &superp_udp_net_id,
	.size = sizeof(struct superp_udp_net),
};

/**
 * superp_udp_conn_init() - a UDP connection's route cache.
 * @e: the new entry, not yet published (SUNH and loopback ones need none).
 *
 * The route to the peer is looked up once per CPU and kept until the
 * routing table changes (dst_check()), as UDP tunnels do, instead of once
 * per packet.
 *
 * Return: 0 or -ENOMEM.
 */
int superp_udp_conn_init(struct superp_conn_entry *e)
{
	if (e->addr.encap == SUPERP_ENCAP_SUNH || e->loop)
		return 0;
	return dst_cache_init(&e->dst_cache, GFP_KERNEL);
}

/* After the last packet: harmless on an entry without a cache. */
void superp_udp_conn_free(struct superp_conn_entry *e)
{
	dst_cache_destroy(&e->dst_cache);
}

/* The UDP header in front of the PDL header; the checksum is the caller's. */
static void superp_udp_push(struct sk_buff *skb, u16 sport)
{
	struct udphdr *uh;

	__skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	uh->source = htons(sport);
	uh->dest = htons(udp_port);
	uh->len = htons(skb->len);
}

/*
 * ip_local_out()'s or ip6_local_out()'s result as superp_udp_xmit()
 * returns it: the qdisc's NET_XMIT_DROP (its queue full) is -ENOBUFS,
 * congestion notified (NET_XMIT_CN: the packet went) is 0, and a negative
 * errno (no neighbour, netfilter, device down) stays: a lost packet.
 */
static int superp_udp_result(int ret)
{
	return ret > 0 ? net_xmit_errno(ret) : ret;
}

/*
 * The skb is superp_tx_build()'s own, fresh: no dst, conntrack, mark,
 * priority or hash of an earlier life to scrub (iptunnel_xmit()'s
 * skb_scrub_packet()), and never GSO. tot_len and the header checksum
 * are ip_local_out()'s.
 */
static int superp_udp4_xmit(struct superp_dev *sdev,
			    const struct superp_conn_addr *a,
			    struct dst_cache *dc, struct net *net,
			    struct socket *sock, struct sk_buff *skb)
{
	struct flowi4 fl4 = {
		.daddr = a->remote.ip4,
		.saddr = a->local.ip4,
		.flowi4_oif = sdev->ndev->ifindex,
		.flowi4_tos = RT_TOS(a->tclass),
		.flowi4_proto = IPPROTO_UDP,
		.fl4_sport = htons(a->udp_sport),
		.fl4_dport = htons(udp_port),
	};
	struct rtable *rt;
	struct iphdr *iph;

	rt = dst_cache_get_ip4(dc, &fl4.saddr);
	if (!rt) {
		rt = ip_route_output_key(net, &fl4);
		if (IS_ERR(rt)) {
			kfree_skb(skb);
			return PTR_ERR(rt);
		}
		dst_cache_set_ip4(dc, &rt->dst, fl4.saddr);
	}
	superp_udp_push(skb, a->udp_sport);
	udp_set_csum(false, skb, fl4.saddr, fl4.daddr, skb->len);
	skb_dst_set(skb, &rt->dst);
	memset(IPCB(skb), 0, sizeof(*IPCB(skb)));

	skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->frag_off = 0;	/* DF clear: fragmented past the path MTU */
	iph->protocol = IPPROTO_UDP;
	iph->tos = a->tclass;
	iph->daddr = fl4.daddr;
	iph->saddr = fl4.saddr;
	iph->ttl = ip4_dst_hoplimit(&rt->dst);
	__ip_select_ident(net, iph, 1);

	return superp_udp_result(ip_local_out(net, sock->sk, skb));
}

static int superp_udp6_xmit(struct superp_dev *sdev,
			    const struct superp_conn_addr *a,
			    struct dst_cache *dc, struct net *net,
			    struct socket *sock, struct sk_buff *skb)
{
	__be32 label = cpu_to_be32(a->udp_sport) & IPV6_FLOWLABEL_MASK;
	struct in6_addr saddr = a->local.ip6, daddr = a->remote.ip6;
	struct flowi6 fl6 = {
		.daddr = a->remote.ip6,
		.saddr = a->local.ip6,
		.flowi6_oif = sdev->ndev->ifindex,
		.flowlabel = ip6_make_flowinfo(a->tclass, label),
		.flowi6_proto = IPPROTO_UDP,
		.fl6_sport = htons(a->udp_sport),
		.fl6_dport = htons(udp_port),
	};
	struct dst_entry *dst;
	struct ipv6hdr *ip6h;

	if (!sock) {
		kfree_skb(skb);
		return -EAFNOSUPPORT;
	}
	dst = dst_cache_get_ip6(dc, &saddr);
	if (!dst) {
		dst = ipv6_stub->ipv6_dst_lookup_flow(net, sock->sk, &fl6,
						      NULL);
		if (IS_ERR(dst)) {
			kfree_skb(skb);
			return PTR_ERR(dst);
		}
		dst_cache_set_ip6(dc, dst, &fl6.saddr);
	}
	superp_udp_push(skb, a->udp_sport);
	skb_dst_set(skb, dst);
	udp6_set_csum(false, skb, &saddr, &daddr, skb->len);

	/* payload_len is ip6_local_out()'s */
	__skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, a->tclass, label);
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = ip6_dst_hoplimit(dst);
	ip6h->daddr = daddr;
	ip6h->saddr = saddr;
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));

	return superp_udp_result(ip6_local_out(net, sock->sk, skb));
}

int superp_udp_xmit(struct superp_dev *sdev, const struct superp_conn_addr *a,
		    struct dst_cache *dc, struct sk_buff *skb)
{
	struct net *net = dev_net(sdev->ndev);
	struct superp_udp_net *un = net_generic(net, superp_udp_net_id);

	if (a->encap == SUPERP_ENCAP_UDP4)
		return superp_udp4_xmit(sdev, a, dc, net, un->sock4, skb);
	return superp_udp6_xmit(sdev, a, dc, net, un->sock6, skb);
}

int superp_udp_init(void)
{
	return register_pernet_subsys(&superp_udp_net_ops);
}

void superp_udp_exit(void)
{
	unregister_pernet_subsys(&superp_udp_net_ops);
}
