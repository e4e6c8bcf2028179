/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * SUNH: the Scale Up Network Header of SUPERp, an 8-byte compressed IPv4/IPv6
 * network header with its own EtherType. Wire format: Documentation/wire-format.rst.
 * All fields are in network byte order, like the IP header it compresses.
 */
#ifndef _UAPI_LINUX_SUNH_H
#define _UAPI_LINUX_SUNH_H

#include <linux/types.h>

#define ETH_P_SUNH		0x88B5	/* IEEE 802 local experimental 1 */
#define SUNH_HLEN		8
#define SUNH_NEXTHDR_SUPERP	253	/* RFC 3692 experimental protocol */
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

#endif /* _UAPI_LINUX_SUNH_H */
