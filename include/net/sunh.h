/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SUNH: the SUPERp network layer, in-kernel API (sunh.ko).
 *
 * Upper protocols (ib_superp: Next Header 253) register a receive handler
 * per Next Header value and send with sunh_output(). The header codec and
 * the SUNH <-> IPv4/IPv6 header conversion are plain library functions.
 * Administration and design decisions: Documentation/sunh.rst.
 */
#ifndef _NET_SUNH_H
#define _NET_SUNH_H

#include <linux/in6.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <uapi/linux/sunh.h>

struct net;

/**
 * struct sunh_fields - the SUNH header in host representation
 * @tclass: traffic class (DSCP << 2 | ECN)
 * @nexthdr: Next Header (an IP protocol number)
 * @hop_limit: hop limit, 0..15
 * @flow_label: flow label, 0..4095
 * @saddr: source SUNH address
 * @daddr: destination SUNH address
 */
struct sunh_fields {
	u8 tclass;
	u8 nexthdr;
	u8 hop_limit;
	u16 flow_label;
	u16 saddr;
	u16 daddr;
};

/**
 * struct sunh_skb_cb - what the receive path tells an upper protocol
 * @hdr: the received SUNH header (hop limit as received, not decremented)
 * @iif: ifindex of the device the frame arrived on
 * @batched: the frame came in a list (netif_receive_skb_list(), the
 *	frames of one NAPI poll): its protocol's batch_end() follows
 *
 * Valid in skb->cb when a &struct sunh_protocol handler is called; the
 * handler owns the skb and may reuse skb->cb once it has read this.
 */
struct sunh_skb_cb {
	struct sunh_fields hdr;
	int iif;
	bool batched;
};

#define SUNH_CB(skb) ((struct sunh_skb_cb *)(skb)->cb)

/**
 * struct sunh_protocol - an upper protocol on top of SUNH
 * @handler: called in softirq context under rcu_read_lock() with skb->data
 *	at the SUNH payload (the SUNH header is skb_network_header()) and
 *	SUNH_CB(skb) filled in; must consume the skb. skb->dev is the
 *	receiving device, its namespace is the packet's namespace.
 * @batch_end: optional; called once after a list of frames received
 *	together (SUNH_CB(skb)->batched) if @handler ran for any of them, in
 *	the same softirq and rcu_read_lock() section as those calls: work
 *	per batch rather than per frame (ib_superp sends one ACK for all).
 * @nexthdr: the Next Header value this protocol receives
 */
struct sunh_protocol {
	int (*handler)(struct sk_buff *skb);
	void (*batch_end)(void);
	u8 nexthdr;
};

int sunh_add_protocol(const struct sunh_protocol *prot);
int sunh_del_protocol(const struct sunh_protocol *prot);

/**
 * struct sunh_xmit_params - how sunh_output() sends a packet
 * @daddr: destination SUNH address
 * @saddr: source address, used only when @set_saddr; by default the
 *	address of the output device in the subnet
 * @set_saddr: use @saddr
 * @nexthdr: Next Header
 * @tclass: traffic class
 * @flow_label: flow label, 0..4095
 * @hop_limit: hop limit 0..15, or -1 for the namespace default
 */
struct sunh_xmit_params {
	u16 daddr;
	u16 saddr;
	bool set_saddr;
	u8 nexthdr;
	u8 tclass;
	u16 flow_label;
	s8 hop_limit;
};

/* Headroom a sender should reserve in front of the SUNH payload. */
#define SUNH_MAX_HEADER (LL_MAX_HEADER + SUNH_HLEN)

int sunh_output(struct net *net, struct sk_buff *skb,
		const struct sunh_xmit_params *p);
int sunh_local_addr(struct net *net, const struct net_device *dev, u16 *addr);

/**
 * struct sunh_subnet - a SUPERp subnet: the domain's IP prefix
 * @family: AF_INET or AF_INET6
 * @prefix_len: prefix length; the host part is at most 16 bits
 * @addr_bits: width of SUNH addresses (nh_num_caddr_bits), 8..16, not more
 *	than the host part
 * @prefix: the prefix, host bits zero (IPv4 in @prefix.v4)
 */
struct sunh_subnet {
	u8 family;
	u8 prefix_len;
	u8 addr_bits;
	union {
		__be32 v4;
		struct in6_addr v6;
	} prefix;
};

void sunh_hdr_pack(struct sunhhdr *h, const struct sunh_fields *f);
void sunh_hdr_unpack(const struct sunhhdr *h, struct sunh_fields *f);

int sunh_subnet_init(struct sunh_subnet *s, int family, const void *prefix,
		     unsigned int prefix_len, unsigned int addr_bits);
int sunh_subnet_get(struct net *net, struct sunh_subnet *s);
int sunh_ip4_to_addr(const struct sunh_subnet *s, __be32 ip, u16 *addr);
__be32 sunh_addr_to_ip4(const struct sunh_subnet *s, u16 addr);
int sunh_ip6_to_addr(const struct sunh_subnet *s, const struct in6_addr *ip,
		     u16 *addr);
void sunh_addr_to_ip6(const struct sunh_subnet *s, u16 addr,
		      struct in6_addr *ip);

/* UDP source port of a decompressed packet: 0xc000 | flow label. */
#define SUNH_UDP_SPORT_BASE 0xc000

int sunh_compress(const struct sunh_subnet *s, const void *iph,
		  unsigned int len, u16 udp_port, struct sunhhdr *sh);
int sunh_decompress(const struct sunh_subnet *s, const struct sunhhdr *sh,
		    unsigned int payload_len, u16 udp_port, void *buf,
		    unsigned int buflen);

#endif /* _NET_SUNH_H */
