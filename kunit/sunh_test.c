// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the SUNH network layer (sunh.ko): the header codec
 * (spec "SUNH encapsulation", header format), SUNH <-> IPv4/IPv6 header
 * compression at 8, 12 and 16 address bits (spec "SUPERp subnet",
 * nh_num_caddr_bits), the forwarding table, the hop-limit rule of a
 * forwarder and the Next Header demultiplexer.
 */
#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/sunh.h>
#include "../net/sunh/sunh_private.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static void sunh_test_hdr_codec(struct kunit *test)
{
	static const u8 wire[SUNH_HLEN] = {
		0xb9, 253, 0xe1, 0x23, 0x0f, 0xfe, 0x00, 0x07,
	};
	struct sunh_fields f = {
		.tclass = 0xb9, .nexthdr = 253, .hop_limit = 14,
		.flow_label = 0x123, .saddr = 0x0ffe, .daddr = 7,
	}, g;
	struct sunhhdr h;

	BUILD_BUG_ON(sizeof(struct sunhhdr) != SUNH_HLEN);
	sunh_hdr_pack(&h, &f);
	KUNIT_EXPECT_EQ(test, memcmp(&h, wire, SUNH_HLEN), 0);
	sunh_hdr_unpack((const struct sunhhdr *)wire, &g);
	KUNIT_EXPECT_EQ(test, g.tclass, 0xb9);
	KUNIT_EXPECT_EQ(test, g.nexthdr, 253);
	KUNIT_EXPECT_EQ(test, g.hop_limit, 14);
	KUNIT_EXPECT_EQ(test, g.flow_label, 0x123);
	KUNIT_EXPECT_EQ(test, g.saddr, 0x0ffe);
	KUNIT_EXPECT_EQ(test, g.daddr, 7);

	/* Out-of-width values do not spill into the neighbouring field. */
	f.hop_limit = 0x1f;
	f.flow_label = 0xffff;
	sunh_hdr_pack(&h, &f);
	sunh_hdr_unpack(&h, &g);
	KUNIT_EXPECT_EQ(test, g.hop_limit, 15);
	KUNIT_EXPECT_EQ(test, g.flow_label, 0xfff);
	KUNIT_EXPECT_EQ(test, g.nexthdr, 253);
}

static void sunh_test_subnet_init(struct kunit *test)
{
	__be32 p4 = htonl(0x0a170000);	/* 10.23.0.0 */
	__be32 bad = htonl(0x0a170001);
	struct in6_addr p6 = { .s6_addr = { 0xfd, 0, 0, 0x23 } };
	struct sunh_subnet s;

	KUNIT_EXPECT_EQ(test, sunh_subnet_init(&s, AF_INET, &p4, 16, 12), 0);
	KUNIT_EXPECT_EQ(test, sunh_subnet_init(&s, AF_INET, &p4, 16, 7),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sunh_subnet_init(&s, AF_INET, &p4, 16, 17),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sunh_subnet_init(&s, AF_INET, &p4, 15, 12),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, sunh_subnet_init(&s, AF_INET, &p4, 24, 12),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, sunh_subnet_init(&s, AF_INET, &p4, 24, 8), 0);
	KUNIT_EXPECT_EQ(test, sunh_subnet_init(&s, AF_INET, &bad, 24, 8),
			-EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, sunh_subnet_init(&s, AF_INET6, &p6, 112, 16), 0);
	KUNIT_EXPECT_EQ(test, sunh_subnet_init(&s, AF_INET6, &p6, 64, 16),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, sunh_subnet_init(&s, AF_PACKET, &p4, 16, 12),
			-EAFNOSUPPORT);
}

static const unsigned int sunh_test_bits[] = { 8, 12, 16 };

struct sunh_test_pkt4 {
	struct iphdr ip;
	struct udphdr udp;
} __packed;

struct sunh_test_pkt6 {
	struct ipv6hdr ip;
	struct udphdr udp;
} __packed;

static void sunh_test_compress_ipv4(struct kunit *test)
{
	__be32 p4 = htonl(0x0a170000);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sunh_test_bits); i++) {
		unsigned int bits = sunh_test_bits[i];
		u16 top = (1U << bits) - 1;
		struct sunh_test_pkt4 pkt = {}, out = {};
		struct sunh_fields f;
		struct sunh_subnet s;
		struct sunhhdr sh;
		u16 addr;

		/* The narrowest prefix for the width, e.g. /20 for 12 bits. */
		KUNIT_ASSERT_EQ(test, sunh_subnet_init(&s, AF_INET, &p4,
						       32 - bits, bits), 0);
		pkt.ip.version = 4;
		pkt.ip.ihl = 5;
		pkt.ip.tos = 0xb9;
		pkt.ip.tot_len = htons(sizeof(pkt) + 100);
		pkt.ip.frag_off = htons(IP_DF);
		pkt.ip.ttl = 64;
		pkt.ip.protocol = IPPROTO_UDP;
		pkt.ip.saddr = htonl(0x0a170000 | top);
		pkt.ip.daddr = htonl(0x0a170001);
		pkt.udp.source = htons(0xd234);
		pkt.udp.dest = htons(7777);
		pkt.udp.len = htons(sizeof(pkt.udp) + 100);

		KUNIT_EXPECT_EQ(test, sunh_compress(&s, &pkt, sizeof(pkt), 7777,
						    &sh), (int)sizeof(pkt));
		sunh_hdr_unpack(&sh, &f);
		KUNIT_EXPECT_EQ(test, f.tclass, 0xb9);
		KUNIT_EXPECT_EQ(test, f.nexthdr, SUNH_NEXTHDR_SUPERP);
		KUNIT_EXPECT_EQ(test, f.hop_limit, 15);	/* TTL 64 clamped */
		KUNIT_EXPECT_EQ(test, f.flow_label, 0x234);
		KUNIT_EXPECT_EQ(test, f.saddr, top);
		KUNIT_EXPECT_EQ(test, f.daddr, 1);

		KUNIT_EXPECT_EQ(test, sunh_decompress(&s, &sh, 100, 7777, &out,
						      sizeof(out)),
				(int)sizeof(out));
		KUNIT_EXPECT_EQ(test, (int)out.ip.version, 4);
		KUNIT_EXPECT_EQ(test, out.ip.tos, 0xb9);
		KUNIT_EXPECT_EQ(test, out.ip.ttl, 15);
		KUNIT_EXPECT_EQ(test, out.ip.protocol, IPPROTO_UDP);
		KUNIT_EXPECT_EQ(test, ntohs(out.ip.tot_len), sizeof(out) + 100);
		KUNIT_EXPECT_EQ(test, ntohl(out.ip.saddr), ntohl(pkt.ip.saddr));
		KUNIT_EXPECT_EQ(test, ntohl(out.ip.daddr), ntohl(pkt.ip.daddr));
		KUNIT_EXPECT_EQ(test, (__force u16)ip_fast_csum(&out.ip, 5), 0);
		KUNIT_EXPECT_EQ(test, ntohs(out.udp.dest), 7777);
		KUNIT_EXPECT_EQ(test, ntohs(out.udp.source), 0xc234);
		KUNIT_EXPECT_EQ(test, ntohs(out.udp.len), sizeof(out.udp) + 100);

		/* Compressing the decompressed header gives the same SUNH. */
		{
			struct sunhhdr again;

			KUNIT_EXPECT_EQ(test, sunh_compress(&s, &out, sizeof(out),
							    7777, &again),
					(int)sizeof(out));
			KUNIT_EXPECT_EQ(test, memcmp(&again, &sh, SUNH_HLEN), 0);
		}

		/* Low TTLs map directly. */
		pkt.ip.ttl = 3;
		sunh_compress(&s, &pkt, sizeof(pkt), 7777, &sh);
		sunh_hdr_unpack(&sh, &f);
		KUNIT_EXPECT_EQ(test, f.hop_limit, 3);

		/* Another protocol is carried as its Next Header, no UDP. */
		pkt.ip.protocol = 254;
		KUNIT_EXPECT_EQ(test, sunh_compress(&s, &pkt, sizeof(pkt), 7777,
						    &sh), (int)sizeof(pkt.ip));
		sunh_hdr_unpack(&sh, &f);
		KUNIT_EXPECT_EQ(test, f.nexthdr, 254);
		KUNIT_EXPECT_EQ(test, f.flow_label, 0);
		KUNIT_EXPECT_EQ(test, sunh_decompress(&s, &sh, 0, 7777, &out,
						      sizeof(out)),
				(int)sizeof(out.ip));
		KUNIT_EXPECT_EQ(test, out.ip.protocol, 254);
		pkt.ip.protocol = IPPROTO_UDP;

		/* UDP to another port stays UDP. */
		pkt.udp.dest = htons(53);
		sunh_compress(&s, &pkt, sizeof(pkt), 7777, &sh);
		KUNIT_EXPECT_EQ(test, sh.nexthdr, IPPROTO_UDP);
		pkt.udp.dest = htons(7777);

		/* Outside the subnet or the width, options, wrong family. */
		pkt.ip.daddr = htonl(0x0a180001);
		KUNIT_EXPECT_EQ(test, sunh_compress(&s, &pkt, sizeof(pkt), 7777,
						    &sh), -EADDRNOTAVAIL);
		KUNIT_EXPECT_EQ(test, sunh_ip4_to_addr(&s, pkt.ip.daddr, &addr),
				-EADDRNOTAVAIL);
		pkt.ip.daddr = htonl(0x0a170001);
		pkt.ip.ihl = 6;
		KUNIT_EXPECT_EQ(test, sunh_compress(&s, &pkt, sizeof(pkt), 7777,
						    &sh), -EOPNOTSUPP);
		KUNIT_EXPECT_EQ(test, sunh_compress(&s, &pkt, 10, 7777, &sh),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, sunh_decompress(&s, &sh, 0, 7777, &out,
						      10), -ENOBUFS);
	}

	/* A /16 with 12 bits: 10.23.16.1 has host part 0x1001, too wide. */
	{
		struct sunh_subnet s;
		u16 addr;

		KUNIT_ASSERT_EQ(test, sunh_subnet_init(&s, AF_INET, &p4, 16, 12),
				0);
		KUNIT_EXPECT_EQ(test, sunh_ip4_to_addr(&s, htonl(0x0a171001),
						       &addr), -EADDRNOTAVAIL);
		KUNIT_EXPECT_EQ(test, sunh_ip4_to_addr(&s, htonl(0x0a170103),
						       &addr), 0);
		KUNIT_EXPECT_EQ(test, addr, 0x103);
		KUNIT_EXPECT_EQ(test, ntohl(sunh_addr_to_ip4(&s, 0x103)),
				0x0a170103);
	}
}

static void sunh_test_compress_ipv6(struct kunit *test)
{
	struct in6_addr p6 = { .s6_addr = { 0xfd, 0, 0, 0x23 } };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sunh_test_bits); i++) {
		unsigned int bits = sunh_test_bits[i];
		u16 top = (1U << bits) - 1;
		struct sunh_test_pkt6 pkt = {}, out = {};
		struct in6_addr ip;
		struct sunh_fields f;
		struct sunh_subnet s;
		struct sunhhdr sh;
		u16 addr;

		KUNIT_ASSERT_EQ(test, sunh_subnet_init(&s, AF_INET6, &p6,
						       128 - bits, bits), 0);
		ip6_flow_hdr(&pkt.ip, 0x2a, htonl(0x12345));
		pkt.ip.payload_len = htons(sizeof(pkt.udp) + 100);
		pkt.ip.nexthdr = IPPROTO_UDP;
		pkt.ip.hop_limit = 255;
		pkt.ip.saddr = p6;
		pkt.ip.saddr.s6_addr16[7] = htons(top);
		pkt.ip.daddr = p6;
		pkt.ip.daddr.s6_addr16[7] = htons(2);
		pkt.udp.source = htons(0xc999);
		pkt.udp.dest = htons(7777);
		pkt.udp.len = htons(sizeof(pkt.udp) + 100);

		KUNIT_EXPECT_EQ(test, sunh_compress(&s, &pkt, sizeof(pkt), 7777,
						    &sh), (int)sizeof(pkt));
		sunh_hdr_unpack(&sh, &f);
		KUNIT_EXPECT_EQ(test, f.tclass, 0x2a);
		KUNIT_EXPECT_EQ(test, f.nexthdr, SUNH_NEXTHDR_SUPERP);
		KUNIT_EXPECT_EQ(test, f.hop_limit, 15);
		/* The IPv6 flow label wins over the UDP source port. */
		KUNIT_EXPECT_EQ(test, f.flow_label, 0x345);
		KUNIT_EXPECT_EQ(test, f.saddr, top);
		KUNIT_EXPECT_EQ(test, f.daddr, 2);

		KUNIT_EXPECT_EQ(test, sunh_decompress(&s, &sh, 100, 7777, &out,
						      sizeof(out)),
				(int)sizeof(out));
		KUNIT_EXPECT_EQ(test, (int)out.ip.version, 6);
		KUNIT_EXPECT_EQ(test, ip6_tclass(ip6_flowinfo(&out.ip)), 0x2a);
		KUNIT_EXPECT_EQ(test, ntohl(ip6_flowlabel(&out.ip)), 0x345);
		KUNIT_EXPECT_EQ(test, out.ip.hop_limit, 15);
		KUNIT_EXPECT_EQ(test, out.ip.nexthdr, IPPROTO_UDP);
		KUNIT_EXPECT_EQ(test, ntohs(out.ip.payload_len),
				sizeof(out.udp) + 100);
		KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&out.ip.saddr,
							&pkt.ip.saddr));
		KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&out.ip.daddr,
							&pkt.ip.daddr));
		KUNIT_EXPECT_EQ(test, ntohs(out.udp.source), 0xc345);
		KUNIT_EXPECT_EQ(test, ntohs(out.udp.dest), 7777);

		/* No IPv6 flow label: the UDP source port gives it. */
		ip6_flow_hdr(&pkt.ip, 0x2a, 0);
		sunh_compress(&s, &pkt, sizeof(pkt), 7777, &sh);
		sunh_hdr_unpack(&sh, &f);
		KUNIT_EXPECT_EQ(test, f.flow_label, 0x999);

		/* Address helpers and bounds. */
		KUNIT_EXPECT_EQ(test, sunh_ip6_to_addr(&s, &pkt.ip.saddr, &addr),
				0);
		KUNIT_EXPECT_EQ(test, addr, top);
		sunh_addr_to_ip6(&s, top, &ip);
		KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&ip, &pkt.ip.saddr));
		ip = p6;
		ip.s6_addr[2] = 1;
		KUNIT_EXPECT_EQ(test, sunh_ip6_to_addr(&s, &ip, &addr),
				-EADDRNOTAVAIL);

		/* An IPv4 header does not fit an IPv6 subnet. */
		{
			struct iphdr ip4 = { .version = 4, .ihl = 5 };

			KUNIT_EXPECT_EQ(test, sunh_compress(&s, &ip4,
							    sizeof(ip4), 7777,
							    &sh),
					-EAFNOSUPPORT);
		}
	}
}

/* Entries on the domain's list of dynamic entries (what ageing walks). */
static unsigned int sunh_test_ndynamic(struct sunh_domain *d)
{
	struct sunh_route *rt;
	unsigned int n = 0;

	spin_lock_bh(&d->lock);
	list_for_each_entry(rt, &d->dynamic, dyn_node)
		n++;
	spin_unlock_bh(&d->lock);
	return n;
}

static void sunh_test_table(struct kunit *test)
{
	static const u8 ha1[ETH_ALEN] = { 2, 0, 0, 0, 0, 1 };
	static const u8 ha2[ETH_ALEN] = { 2, 0, 0, 0, 0, 2 };
	struct net_device *dev = init_net.loopback_dev;
	__be32 p4 = htonl(0x0a170000);
	struct sunh_route *rt;
	struct sunh_domain *d;
	struct sunh_subnet s;

	KUNIT_ASSERT_EQ(test, sunh_subnet_init(&s, AF_INET, &p4, 24, 8), 0);
	d = sunh_domain_alloc(&s);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_EXPECT_EQ(test, d->size, 256U);

	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, sunh_route_lookup(d, 5));
	KUNIT_EXPECT_NULL(test, sunh_route_lookup(d, 256));
	rcu_read_unlock();

	/* insert + lookup */
	KUNIT_EXPECT_EQ(test, sunh_route_insert(d, 5, dev, ha1,
						SUNH_ORIGIN_LEARNED, false), 0);
	rcu_read_lock();
	rt = sunh_route_lookup(d, 5);
	KUNIT_ASSERT_NOT_NULL(test, rt);
	KUNIT_EXPECT_PTR_EQ(test, rt->dev, dev);
	KUNIT_EXPECT_EQ(test, rt->origin, SUNH_ORIGIN_LEARNED);
	KUNIT_EXPECT_EQ(test, memcmp(rt->ha, ha1, ETH_ALEN), 0);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, sunh_test_ndynamic(d), 1U);

	/* replace: resolved over learned, static over anything */
	KUNIT_EXPECT_EQ(test, sunh_route_insert(d, 5, dev, ha2,
						SUNH_ORIGIN_RESOLVED, false), 0);
	KUNIT_EXPECT_EQ(test, sunh_test_ndynamic(d), 1U);
	KUNIT_EXPECT_EQ(test, sunh_route_insert(d, 5, dev, ha1,
						SUNH_ORIGIN_LEARNED, false),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, sunh_route_insert(d, 5, dev, ha1,
						SUNH_ORIGIN_STATIC, false), 0);
	KUNIT_EXPECT_EQ(test, sunh_route_insert(d, 5, dev, ha2,
						SUNH_ORIGIN_RESOLVED, false),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, sunh_route_insert(d, 5, dev, ha2,
						SUNH_ORIGIN_STATIC, false),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, sunh_route_insert(d, 5, dev, ha2,
						SUNH_ORIGIN_STATIC, true), 0);
	rcu_read_lock();
	rt = sunh_route_lookup(d, 5);
	KUNIT_ASSERT_NOT_NULL(test, rt);
	KUNIT_EXPECT_EQ(test, rt->origin, SUNH_ORIGIN_STATIC);
	KUNIT_EXPECT_EQ(test, memcmp(rt->ha, ha2, ETH_ALEN), 0);
	rcu_read_unlock();
	/* a static entry is not on the list of what ages */
	KUNIT_EXPECT_EQ(test, sunh_test_ndynamic(d), 0U);

	/* out of range */
	KUNIT_EXPECT_EQ(test, sunh_route_insert(d, 256, dev, ha1,
						SUNH_ORIGIN_STATIC, false),
			-EINVAL);

	/* delete */
	KUNIT_EXPECT_EQ(test, sunh_route_delete(d, 5), 0);
	KUNIT_EXPECT_EQ(test, sunh_route_delete(d, 5), -ENOENT);
	KUNIT_EXPECT_EQ(test, sunh_route_delete(d, 300), -ENOENT);
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, sunh_route_lookup(d, 5));
	rcu_read_unlock();

	/* flush: dynamic only, by device, then everything; ageing */
	sunh_route_insert(d, 1, dev, ha1, SUNH_ORIGIN_STATIC, false);
	sunh_route_insert(d, 2, dev, ha1, SUNH_ORIGIN_RESOLVED, false);
	sunh_route_insert(d, 3, dev, ha1, SUNH_ORIGIN_LEARNED, false);
	KUNIT_EXPECT_EQ(test, sunh_test_ndynamic(d), 2U);
	KUNIT_EXPECT_EQ(test, sunh_route_flush(d, NULL, false, 3600 * HZ), 0U);
	KUNIT_EXPECT_EQ(test, sunh_route_flush(d, NULL, false, 0), 2U);
	KUNIT_EXPECT_EQ(test, sunh_test_ndynamic(d), 0U);
	sunh_route_insert(d, 3, dev, ha1, SUNH_ORIGIN_LEARNED, false);
	KUNIT_EXPECT_EQ(test, sunh_route_flush(d, dev, true, 0), 2U);
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, sunh_route_lookup(d, 1));
	rcu_read_unlock();

	/* delete_entry: only the entry the caller saw, not its successor
	 * (a resolved entry dropped when its neighbour failed must not take
	 * a newer entry with it)
	 */
	sunh_route_insert(d, 4, dev, ha1, SUNH_ORIGIN_RESOLVED, false);
	rcu_read_lock();
	rt = sunh_route_lookup(d, 4);
	KUNIT_ASSERT_NOT_NULL(test, rt);
	sunh_route_insert(d, 4, dev, ha2, SUNH_ORIGIN_RESOLVED, false);
	KUNIT_EXPECT_FALSE(test, sunh_route_delete_entry(d, 4, rt));
	KUNIT_EXPECT_NOT_NULL(test, sunh_route_lookup(d, 4));
	rt = sunh_route_lookup(d, 4);
	KUNIT_EXPECT_TRUE(test, sunh_route_delete_entry(d, 4, rt));
	KUNIT_EXPECT_NULL(test, sunh_route_lookup(d, 4));
	KUNIT_EXPECT_EQ(test, sunh_test_ndynamic(d), 0U);
	KUNIT_EXPECT_FALSE(test, sunh_route_delete_entry(d, 300, rt));
	rcu_read_unlock();

	/* The domain frees what is left after a grace period. */
	sunh_route_insert(d, 7, dev, ha1, SUNH_ORIGIN_STATIC, false);
	sunh_domain_release(d);
	rcu_barrier();
}

static void sunh_test_hop_limit(struct kunit *test)
{
	u8 next = 0xff;

	KUNIT_EXPECT_FALSE(test, sunh_hop_limit_forward(0, &next));
	KUNIT_EXPECT_FALSE(test, sunh_hop_limit_forward(1, &next));
	KUNIT_EXPECT_EQ(test, next, 0xff);
	KUNIT_EXPECT_TRUE(test, sunh_hop_limit_forward(2, &next));
	KUNIT_EXPECT_EQ(test, next, 1);
	KUNIT_EXPECT_TRUE(test, sunh_hop_limit_forward(15, &next));
	KUNIT_EXPECT_EQ(test, next, 14);
}

static struct {
	int calls;
	unsigned int len;
	struct sunh_fields hdr;
} sunh_test_rx;

static int sunh_test_handler(struct sk_buff *skb)
{
	sunh_test_rx.calls++;
	sunh_test_rx.len = skb->len;
	sunh_test_rx.hdr = SUNH_CB(skb)->hdr;
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static const struct sunh_protocol sunh_test_proto = {
	.handler = sunh_test_handler,
	.nexthdr = 200,
};

static const struct sunh_protocol sunh_test_proto2 = {
	.handler = sunh_test_handler,
	.nexthdr = 200,
};

static struct sk_buff *sunh_test_skb(struct kunit *test, u8 nexthdr)
{
	struct sunh_fields f = {
		.tclass = 0x11, .nexthdr = nexthdr, .hop_limit = 0,
		.flow_label = 0xabc, .saddr = 3, .daddr = 4,
	};
	struct sk_buff *skb;

	skb = alloc_skb(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb->dev = init_net.loopback_dev;
	sunh_hdr_pack(skb_put(skb, SUNH_HLEN), &f);
	skb_put_zero(skb, 12);
	skb_reset_network_header(skb);
	SUNH_CB(skb)->hdr = f;
	return skb;
}

static void sunh_test_demux(struct kunit *test)
{
	struct sk_buff *skb;
	int ret;

	memset(&sunh_test_rx, 0, sizeof(sunh_test_rx));
	KUNIT_ASSERT_EQ(test, sunh_add_protocol(&sunh_test_proto), 0);
	KUNIT_EXPECT_EQ(test, sunh_add_protocol(&sunh_test_proto2), -EBUSY);
	skb = sunh_test_skb(test, 200);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, sunh_protocol_get(200), &sunh_test_proto);
	ret = sunh_deliver(&init_net, skb);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, ret, NET_RX_SUCCESS);
	KUNIT_EXPECT_EQ(test, sunh_test_rx.calls, 1);
	KUNIT_EXPECT_EQ(test, sunh_test_rx.len, 12U);
	KUNIT_EXPECT_EQ(test, sunh_test_rx.hdr.tclass, 0x11);
	KUNIT_EXPECT_EQ(test, sunh_test_rx.hdr.flow_label, 0xabc);
	KUNIT_EXPECT_EQ(test, sunh_test_rx.hdr.hop_limit, 0);
	KUNIT_EXPECT_EQ(test, sunh_test_rx.hdr.saddr, 3);
	KUNIT_EXPECT_EQ(test, sunh_test_rx.hdr.daddr, 4);

	/* Unknown Next Header: dropped (and counted), handler not called. */
	skb = sunh_test_skb(test, 201);
	rcu_read_lock();
	ret = sunh_deliver(&init_net, skb);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, ret, NET_RX_DROP);
	KUNIT_EXPECT_EQ(test, sunh_test_rx.calls, 1);

	KUNIT_EXPECT_EQ(test, sunh_del_protocol(&sunh_test_proto2), -ENOENT);
	KUNIT_EXPECT_EQ(test, sunh_del_protocol(&sunh_test_proto), 0);
	KUNIT_EXPECT_EQ(test, sunh_del_protocol(&sunh_test_proto), -ENOENT);
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, sunh_protocol_get(200));
	/* The echo protocol of sunh.ko itself is registered. */
	KUNIT_EXPECT_NOT_NULL(test, sunh_protocol_get(SUNH_NEXTHDR_ECHO));
	rcu_read_unlock();
}

static struct kunit_case sunh_test_cases[] = {
	KUNIT_CASE(sunh_test_hdr_codec),
	KUNIT_CASE(sunh_test_subnet_init),
	KUNIT_CASE(sunh_test_compress_ipv4),
	KUNIT_CASE(sunh_test_compress_ipv6),
	KUNIT_CASE(sunh_test_table),
	KUNIT_CASE(sunh_test_hop_limit),
	KUNIT_CASE(sunh_test_demux),
	{}
};

static struct kunit_suite sunh_test_suite = {
	.name = "sunh",
	.test_cases = sunh_test_cases,
};

kunit_test_suite(sunh_test_suite);

MODULE_DESCRIPTION("KUnit tests of the SUNH network layer");
MODULE_LICENSE("GPL");
