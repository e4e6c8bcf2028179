/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * SUNH: the Scale Up Network Header of SUPERp, an 8-byte compressed IPv4/IPv6
 * network header with its own EtherType. Wire format: Documentation/wire-format.rst.
 * All fields are in network byte order, like the IP header it compresses.
 */
#ifndef _UAPI_LINUX_SUNH_H
#define _UAPI_LINUX_SUNH_H

#include <linux/types.h>
#include <asm/byteorder.h>

#define ETH_P_SUNH		0x88B5	/* IEEE 802 local experimental 1 */
#define SUNH_HLEN		8
/*
 * SUPERp and SUPERp-lite (no PDL header) share one RFC 3692 experimental
 * value: lite is a per-connection mode, known to the receiver from the
 * connection of the source SUNH address. The other value, 254, is the SUNH
 * echo (SUNH_NEXTHDR_ECHO in <linux/sunh_netlink.h>).
 */
#define SUNH_NEXTHDR_SUPERP	253
#define SUNH_HOP_LIMIT_MAX	15
#define SUNH_HOP_LIMIT_DEFAULT	15
#define SUNH_HOP_LIMIT_SHIFT	12
#define SUNH_FLOW_LABEL_MASK	0x0fff
#define SUNH_ADDR_BITS_MIN	8
#define SUNH_ADDR_BITS_MAX	16
#define SUNH_ADDR_BITS_DEFAULT	12

struct sunhhdr {
	__u8	tclass;		/* DSCP << 2 | ECN */
	__u8	nexthdr;	/* IP protocol number of the payload */
	__be16	hl_flow;	/* hop limit (bits 15-12) | flow label (11-0) */
	__be16	saddr;
	__be16	daddr;
};

/*
 * Compile-time layout checks, usable in the kernel and in any C or C++
 * dialect: a false condition declares an array of negative size.
 */
#define __SUNH_ASSERT(expr, msg) \
	extern int __sunh_layout_check[(expr) ? 1 : -1]

__SUNH_ASSERT(sizeof(struct sunhhdr) == SUNH_HLEN, "sunhhdr is 8 bytes");
__SUNH_ASSERT(__builtin_offsetof(struct sunhhdr, hl_flow) == 2, "hl_flow @2");
__SUNH_ASSERT(__builtin_offsetof(struct sunhhdr, saddr) == 4, "saddr @4");
__SUNH_ASSERT(__builtin_offsetof(struct sunhhdr, daddr) == 6, "daddr @6");

/* Hop limit and flow label share one 16-bit field; bits above are cut. */
static __inline__ __be16 sunh_hl_flow(unsigned int hop_limit, unsigned int flow)
{
	return __cpu_to_be16((__u16)((hop_limit & SUNH_HOP_LIMIT_MAX) <<
				     SUNH_HOP_LIMIT_SHIFT |
				     (flow & SUNH_FLOW_LABEL_MASK)));
}

static __inline__ unsigned int sunh_hop_limit(const struct sunhhdr *sh)
{
	return __be16_to_cpu(sh->hl_flow) >> SUNH_HOP_LIMIT_SHIFT;
}

static __inline__ unsigned int sunh_flow_label(const struct sunhhdr *sh)
{
	return __be16_to_cpu(sh->hl_flow) & SUNH_FLOW_LABEL_MASK;
}

static __inline__ void sunh_set_hop_limit(struct sunhhdr *sh, unsigned int hop_limit)
{
	sh->hl_flow = sunh_hl_flow(hop_limit, sunh_flow_label(sh));
}

/* DSCP and ECN as in the IPv4 TOS / IPv6 traffic class octet. */
static __inline__ unsigned int sunh_dscp(const struct sunhhdr *sh)
{
	return sh->tclass >> 2;
}

static __inline__ unsigned int sunh_ecn(const struct sunhhdr *sh)
{
	return sh->tclass & 3;
}

static __inline__ void sunh_hdr_init(struct sunhhdr *sh, __u8 tclass, __u8 nexthdr,
				     unsigned int hop_limit, unsigned int flow,
				 __u16 saddr, __u16 daddr)
{
	sh->tclass = tclass;
	sh->nexthdr = nexthdr;
	sh->hl_flow = sunh_hl_flow(hop_limit, flow);
	sh->saddr = __cpu_to_be16(saddr);
	sh->daddr = __cpu_to_be16(daddr);
}

#endif /* _UAPI_LINUX_SUNH_H */
