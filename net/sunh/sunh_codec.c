// SPDX-License-Identifier: GPL-2.0
/*
 * SUNH header codec and SUNH <-> IPv4/IPv6 header conversion.
 *
 * A SUNH address is the low addr_bits bits of an IP address in the SUPERp
 * subnet; the full address is the prefix with the SUNH address in its host
 * part. Conversion rules (Documentation/sunh.rst, "SUNH and IP"):
 *
 *  - traffic class <-> IPv4 TOS / IPv6 traffic class, unchanged;
 *  - hop limit <-> TTL / hop limit; a TTL above 15 is clamped to 15;
 *  - Next Header 253 (SUPERp) <-> UDP to nh_udp_port, whose source port is
 *    0xc000 | flow label; other Next Header values are the IP protocol;
 *  - flow label <-> low 12 bits of the IPv6 flow label, else of the UDP
 *    source port.
 */
#include <linux/export.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/sunh.h>

/**
 * sunh_hdr_pack() - write a SUNH header
 * @h: header to write (8 bytes)
 * @f: the fields; hop limit and flow label are truncated to their width
 */
void sunh_hdr_pack(struct sunhhdr *h, const struct sunh_fields *f)
{
	h->tclass = f->tclass;
	h->nexthdr = f->nexthdr;
	h->hl_flow = htons(((f->hop_limit & SUNH_HOP_LIMIT_MAX) <<
			    SUNH_HOP_LIMIT_SHIFT) |
			   (f->flow_label & SUNH_FLOW_LABEL_MASK));
	h->saddr = htons(f->saddr);
	h->daddr = htons(f->daddr);
}
EXPORT_SYMBOL_GPL(sunh_hdr_pack);

/**
 * sunh_hdr_unpack() - read a SUNH header
 * @h: header to read (8 bytes)
 * @f: filled with the fields in host representation
 */
void sunh_hdr_unpack(const struct sunhhdr *h, struct sunh_fields *f)
{
	u16 hl_flow = ntohs(h->hl_flow);

	f->tclass = h->tclass;
	f->nexthdr = h->nexthdr;
	f->hop_limit = hl_flow >> SUNH_HOP_LIMIT_SHIFT;
	f->flow_label = hl_flow & SUNH_FLOW_LABEL_MASK;
	f->saddr = ntohs(h->saddr);
	f->daddr = ntohs(h->daddr);
}
EXPORT_SYMBOL_GPL(sunh_hdr_unpack);

/* Mask of the prefix bits within the last 32 (IPv4) or 16 (IPv6) bits. */
static u32 sunh_prefix_mask(const struct sunh_subnet *s)
{
	unsigned int width = s->family == AF_INET ? 32 : 128;

	return ~0U << (width - s->prefix_len);
}

/**
 * sunh_subnet_init() - check and fill in a SUPERp subnet
 * @s: subnet to fill in
 * @family: AF_INET or AF_INET6
 * @prefix: the prefix (__be32 or struct in6_addr)
 * @prefix_len: its length: the host part must hold @addr_bits and be at
 *	most 16 bits
 * @addr_bits: SUNH address width, SUNH_ADDR_BITS_MIN..SUNH_ADDR_BITS_MAX
 *
 * Return: 0, -EAFNOSUPPORT for a bad family, -EINVAL for a bad width,
 * -ERANGE for a bad prefix length, -EADDRNOTAVAIL if host bits are set.
 */
int sunh_subnet_init(struct sunh_subnet *s, int family, const void *prefix,
		     unsigned int prefix_len, unsigned int addr_bits)
{
	unsigned int width;

	if (family != AF_INET && family != AF_INET6)
		return -EAFNOSUPPORT;
	if (addr_bits < SUNH_ADDR_BITS_MIN || addr_bits > SUNH_ADDR_BITS_MAX)
		return -EINVAL;
	width = family == AF_INET ? 32 : 128;
	if (prefix_len + SUNH_ADDR_BITS_MAX < width ||
	    prefix_len + addr_bits > width)
		return -ERANGE;

	memset(s, 0, sizeof(*s));
	s->family = family;
	s->prefix_len = prefix_len;
	s->addr_bits = addr_bits;
	if (family == AF_INET) {
		memcpy(&s->prefix.v4, prefix, sizeof(s->prefix.v4));
		if (ntohl(s->prefix.v4) & ~sunh_prefix_mask(s))
			return -EADDRNOTAVAIL;
	} else {
		memcpy(&s->prefix.v6, prefix, sizeof(s->prefix.v6));
		if (ntohs(s->prefix.v6.s6_addr16[7]) &
		    ~sunh_prefix_mask(s) & 0xffff)
			return -EADDRNOTAVAIL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(sunh_subnet_init);

/**
 * sunh_ip4_to_addr() - compress an IPv4 address
 * @s: IPv4 subnet
 * @ip: the address
 * @addr: its SUNH address
 *
 * Return: 0, or -EADDRNOTAVAIL if @ip is outside the subnet or its host
 * part does not fit the address width.
 */
int sunh_ip4_to_addr(const struct sunh_subnet *s, __be32 ip, u16 *addr)
{
	u32 mask = sunh_prefix_mask(s);
	u32 h = ntohl(ip);

	if (s->family != AF_INET || (h & mask) != ntohl(s->prefix.v4) ||
	    (h & ~mask) >> s->addr_bits)
		return -EADDRNOTAVAIL;
	*addr = h & ~mask;
	return 0;
}
EXPORT_SYMBOL_GPL(sunh_ip4_to_addr);

/**
 * sunh_addr_to_ip4() - decompress a SUNH address to IPv4
 * @s: IPv4 subnet
 * @addr: SUNH address (bits above the address width are ignored)
 *
 * Return: the IPv4 address.
 */
__be32 sunh_addr_to_ip4(const struct sunh_subnet *s, u16 addr)
{
	return htonl(ntohl(s->prefix.v4) |
		     (addr & ((1U << s->addr_bits) - 1)));
}
EXPORT_SYMBOL_GPL(sunh_addr_to_ip4);

/**
 * sunh_ip6_to_addr() - compress an IPv6 address
 * @s: IPv6 subnet
 * @ip: the address
 * @addr: its SUNH address
 *
 * Return: 0, or -EADDRNOTAVAIL if @ip is outside the subnet or its host
 * part does not fit the address width.
 */
int sunh_ip6_to_addr(const struct sunh_subnet *s, const struct in6_addr *ip,
		     u16 *addr)
{
	u16 mask = sunh_prefix_mask(s);
	u16 last = ntohs(ip->s6_addr16[7]);

	if (s->family != AF_INET6 ||
	    memcmp(ip, &s->prefix.v6, 14) ||
	    (last & mask) != ntohs(s->prefix.v6.s6_addr16[7]) ||
	    (last & (u16)~mask) >> s->addr_bits)
		return -EADDRNOTAVAIL;
	*addr = last & (u16)~mask;
	return 0;
}
EXPORT_SYMBOL_GPL(sunh_ip6_to_addr);

/**
 * sunh_addr_to_ip6() - decompress a SUNH address to IPv6
 * @s: IPv6 subnet
 * @addr: SUNH address (bits above the address width are ignored)
 * @ip: the IPv6 address
 */
void sunh_addr_to_ip6(const struct sunh_subnet *s, u16 addr,
		      struct in6_addr *ip)
{
	*ip = s->prefix.v6;
	ip->s6_addr16[7] = htons(ntohs(s->prefix.v6.s6_addr16[7]) |
				 (addr & ((1U << s->addr_bits) - 1)));
}
EXPORT_SYMBOL_GPL(sunh_addr_to_ip6);

/**
 * sunh_compress() - compress an IPv4 or IPv6 (+ UDP) header into SUNH
 * @s: the subnet both addresses must be in
 * @iph: start of the IP header
 * @len: bytes readable at @iph (the UDP header is looked at if present)
 * @udp_port: nh_udp_port: UDP to this port becomes Next Header 253
 * @sh: the SUNH header written
 *
 * IPv4 options, fragments and a family other than the subnet's are not
 * compressible. A TTL or hop limit above 15 is clamped to 15.
 *
 * Return: the number of header bytes replaced by @sh (IP, plus 8 when the
 * UDP header was absorbed), or a negative errno.
 */
int sunh_compress(const struct sunh_subnet *s, const void *iph,
		  unsigned int len, u16 udp_port, struct sunhhdr *sh)
{
	struct sunh_fields f = {};
	const struct udphdr *uh;
	unsigned int hlen;
	u8 ttl, proto;
	int err;

	if (len < 1)
		return -EINVAL;
	switch (*(const u8 *)iph >> 4) {
	case 4: {
		const struct iphdr *ip4 = iph;

		if (s->family != AF_INET)
			return -EAFNOSUPPORT;
		if (len < sizeof(*ip4))
			return -EINVAL;
		if (ip4->ihl != 5 || ip_is_fragment(ip4))
			return -EOPNOTSUPP;
		err = sunh_ip4_to_addr(s, ip4->saddr, &f.saddr);
		if (!err)
			err = sunh_ip4_to_addr(s, ip4->daddr, &f.daddr);
		if (err)
			return err;
		f.tclass = ip4->tos;
		ttl = ip4->ttl;
		proto = ip4->protocol;
		hlen = sizeof(*ip4);
		break;
	}
	case 6: {
		const struct ipv6hdr *ip6 = iph;

		if (s->family != AF_INET6)
			return -EAFNOSUPPORT;
		if (len < sizeof(*ip6))
			return -EINVAL;
		err = sunh_ip6_to_addr(s, &ip6->saddr, &f.saddr);
		if (!err)
			err = sunh_ip6_to_addr(s, &ip6->daddr, &f.daddr);
		if (err)
			return err;
		f.tclass = ip6_tclass(ip6_flowinfo(ip6));
		f.flow_label = ntohl(ip6_flowlabel(ip6)) & SUNH_FLOW_LABEL_MASK;
		ttl = ip6->hop_limit;
		proto = ip6->nexthdr;
		hlen = sizeof(*ip6);
		break;
	}
	default:
		return -EPROTONOSUPPORT;
	}

	f.hop_limit = min_t(u8, ttl, SUNH_HOP_LIMIT_MAX);
	f.nexthdr = proto;
	if (proto == IPPROTO_UDP && len >= hlen + sizeof(*uh)) {
		uh = iph + hlen;
		if (ntohs(uh->dest) == udp_port) {
			f.nexthdr = SUNH_NEXTHDR_SUPERP;
			if (!f.flow_label)
				f.flow_label = ntohs(uh->source) &
					       SUNH_FLOW_LABEL_MASK;
			hlen += sizeof(*uh);
		}
	}
	sunh_hdr_pack(sh, &f);
	return hlen;
}
EXPORT_SYMBOL_GPL(sunh_compress);

/**
 * sunh_decompress() - expand a SUNH header into IPv4 or IPv6 (+ UDP)
 * @s: the subnet (its family selects IPv4 or IPv6)
 * @sh: the SUNH header
 * @payload_len: bytes following the SUNH header
 * @udp_port: nh_udp_port, the UDP destination port for Next Header 253
 * @buf: where the IP (+ UDP) header is written
 * @buflen: room at @buf (48 bytes always suffice)
 *
 * Next Header 253 becomes UDP to @udp_port with source port
 * 0xc000 | flow label; the UDP checksum is left 0 for the caller, who has
 * the payload (it is mandatory for IPv6). The IPv4 header checksum is set.
 *
 * Return: the number of header bytes written, or -ENOBUFS, -EMSGSIZE.
 */
int sunh_decompress(const struct sunh_subnet *s, const struct sunhhdr *sh,
		    unsigned int payload_len, u16 udp_port, void *buf,
		    unsigned int buflen)
{
	struct sunh_fields f;
	unsigned int hlen, udplen;
	struct udphdr *uh;
	u8 proto;

	sunh_hdr_unpack(sh, &f);
	udplen = f.nexthdr == SUNH_NEXTHDR_SUPERP ? sizeof(*uh) : 0;
	proto = udplen ? IPPROTO_UDP : f.nexthdr;

	if (s->family == AF_INET) {
		struct iphdr *ip4 = buf;

		hlen = sizeof(*ip4) + udplen;
		if (buflen < hlen)
			return -ENOBUFS;
		if (payload_len > 0xffff - hlen)
			return -EMSGSIZE;
		memset(ip4, 0, sizeof(*ip4));
		ip4->version = 4;
		ip4->ihl = 5;
		ip4->tos = f.tclass;
		ip4->tot_len = htons(hlen + payload_len);
		ip4->frag_off = htons(IP_DF);
		ip4->ttl = f.hop_limit;
		ip4->protocol = proto;
		ip4->saddr = sunh_addr_to_ip4(s, f.saddr);
		ip4->daddr = sunh_addr_to_ip4(s, f.daddr);
		ip_send_check(ip4);
	} else {
		struct ipv6hdr *ip6 = buf;

		hlen = sizeof(*ip6) + udplen;
		if (buflen < hlen)
			return -ENOBUFS;
		if (payload_len > 0xffff - udplen)
			return -EMSGSIZE;
		ip6_flow_hdr(ip6, f.tclass, htonl(f.flow_label));
		ip6->payload_len = htons(udplen + payload_len);
		ip6->nexthdr = proto;
		ip6->hop_limit = f.hop_limit;
		sunh_addr_to_ip6(s, f.saddr, &ip6->saddr);
		sunh_addr_to_ip6(s, f.daddr, &ip6->daddr);
	}
	if (udplen) {
		uh = buf + hlen - udplen;
		uh->source = htons(SUNH_UDP_SPORT_BASE | f.flow_label);
		uh->dest = htons(udp_port);
		uh->len = htons(udplen + payload_len);
		uh->check = 0;
	}
	return hlen;
}
EXPORT_SYMBOL_GPL(sunh_decompress);
