/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Generic netlink interface of the SUNH network layer (family "sunh").
 * Administration guide: Documentation/sunh.rst.
 *
 * All state is per network namespace. Commands that change state need
 * CAP_NET_ADMIN over the namespace's user namespace; SUNH_CMD_ECHO needs
 * CAP_NET_RAW over it.
 */
#ifndef _UAPI_LINUX_SUNH_NETLINK_H
#define _UAPI_LINUX_SUNH_NETLINK_H

#define SUNH_GENL_NAME		"sunh"
#define SUNH_GENL_VERSION	1

/* Next Header of the SUNH echo protocol (RFC 3692 experimental value). */
#define SUNH_NEXTHDR_ECHO	254

/**
 * enum sunh_cmd - commands of the "sunh" generic netlink family
 * @SUNH_CMD_UNSPEC: unused
 * @SUNH_CMD_CONFIG_GET: namespace configuration (subnet, hop limit, ...)
 * @SUNH_CMD_CONFIG_SET: change any of SUNH_A_HOP_LIMIT, SUNH_A_FORWARDING,
 *	SUNH_A_LEARNING, SUNH_A_AGEING, SUNH_A_UDP_PORT, SUNH_A_ECHO_RATE
 * @SUNH_CMD_SUBNET_SET: set the SUPERp subnet: SUNH_A_PREFIX4 or
 *	SUNH_A_PREFIX6, SUNH_A_PREFIX_LEN, optional SUNH_A_ADDR_BITS
 *	(default 12). Flushes the forwarding table.
 * @SUNH_CMD_SUBNET_DEL: remove the subnet; SUNH is then off in the namespace
 * @SUNH_CMD_ROUTE_GET: one forwarding entry (SUNH_A_ADDR) or, as a dump,
 *	all of them
 * @SUNH_CMD_ROUTE_NEW: add a static entry: SUNH_A_ADDR, SUNH_A_IFINDEX,
 *	SUNH_A_LLADDR; an existing static entry is only replaced when
 *	SUNH_A_REPLACE is given
 * @SUNH_CMD_ROUTE_DEL: delete the entry SUNH_A_ADDR, or with SUNH_A_FLUSH
 *	all dynamic (resolved and learned) entries, all entries if
 *	SUNH_A_ORIGIN is SUNH_ORIGIN_STATIC
 * @SUNH_CMD_STATS_GET: namespace counters in the nest SUNH_A_STATS
 * @SUNH_CMD_ECHO: send one echo request to SUNH_A_ADDR and return at once
 *	(the request never waits inside netlink). A reply from SUNH_A_ADDR
 *	that arrives within SUNH_A_TIMEOUT_MS (default 1000) is sent to the
 *	requesting socket as an unsolicited SUNH_CMD_ECHO message with the
 *	request's nlmsg_seq, carrying SUNH_A_SADDR, SUNH_A_SEQ,
 *	SUNH_A_RTT_NS, SUNH_A_HOP_LIMIT (of the reply as received here),
 *	SUNH_A_REQ_HOP_LIMIT (of the request as received by the peer),
 *	SUNH_A_TCLASS (of the reply as received: the peer echoes the
 *	request's), SUNH_A_SIZE. No message comes without a reply; -EBUSY
 *	when too many requests of the namespace are outstanding.
 * @__SUNH_CMD_MAX: internal
 */
enum sunh_cmd {
	SUNH_CMD_UNSPEC,
	SUNH_CMD_CONFIG_GET,
	SUNH_CMD_CONFIG_SET,
	SUNH_CMD_SUBNET_SET,
	SUNH_CMD_SUBNET_DEL,
	SUNH_CMD_ROUTE_GET,
	SUNH_CMD_ROUTE_NEW,
	SUNH_CMD_ROUTE_DEL,
	SUNH_CMD_STATS_GET,
	SUNH_CMD_ECHO,

	__SUNH_CMD_MAX
};

#define SUNH_CMD_MAX (__SUNH_CMD_MAX - 1)

/**
 * enum sunh_attr - attributes (one flat space for all commands)
 * @SUNH_A_UNSPEC: unused
 * @SUNH_A_PAD: padding for 64-bit attributes
 * @SUNH_A_PREFIX4: IPv4 subnet prefix (__be32, binary)
 * @SUNH_A_PREFIX6: IPv6 subnet prefix (16 bytes, binary)
 * @SUNH_A_PREFIX_LEN: prefix length (u8)
 * @SUNH_A_ADDR_BITS: nh_num_caddr_bits, 8..16 (u8)
 * @SUNH_A_HOP_LIMIT: default hop limit for sending, 1..15 (u8); in an echo
 *	request the hop limit to send with, 0..15
 * @SUNH_A_FORWARDING: forward frames not addressed to this node (u8, 0/1)
 * @SUNH_A_LEARNING: learn entries from received frames (u8, 0/1)
 * @SUNH_A_AGEING: lifetime of dynamic entries in seconds, 1..86400 (u32)
 * @SUNH_A_UDP_PORT: nh_udp_port, used by SUNH <-> UDP/IP conversion (u16)
 * @SUNH_A_ETHERTYPE: EtherType in use (u16, read only)
 * @SUNH_A_ADDR: 16-bit SUNH address (u16): destination of a route or echo
 * @SUNH_A_IFINDEX: output interface of a route (u32)
 * @SUNH_A_LLADDR: next-hop link-layer address (binary)
 * @SUNH_A_ORIGIN: enum sunh_origin (u8)
 * @SUNH_A_AGE_MS: milliseconds since the entry was created or last
 *	confirmed (u64)
 * @SUNH_A_PACKETS: packets sent through an entry (u64)
 * @SUNH_A_BYTES: bytes sent through an entry (u64)
 * @SUNH_A_STATS: nest of u64 counters, attribute type = enum sunh_stat + 1
 * @SUNH_A_TCLASS: traffic class of an echo request, or of its reply (u8)
 * @SUNH_A_SIZE: echo payload size in bytes, 0..1400 (u16)
 * @SUNH_A_TIMEOUT_MS: how long to wait for an echo reply, 10..10000 (u32)
 * @SUNH_A_SEQ: echo sequence number (u16)
 * @SUNH_A_SADDR: SUNH address that answered an echo (u16)
 * @SUNH_A_RTT_NS: echo round-trip time in nanoseconds (u64)
 * @SUNH_A_REQ_HOP_LIMIT: hop limit of the echo request as the peer saw it
 * @SUNH_A_REPLACE: flag: SUNH_CMD_ROUTE_NEW may replace a static entry
 * @SUNH_A_FLUSH: flag: SUNH_CMD_ROUTE_DEL flushes the table
 * @SUNH_A_LOCAL: flag on a route dump entry whose address is local
 * @SUNH_A_ECHO_RATE: echo replies this node sends per second at most
 *	(u32, 0: no limit); requests beyond it are counted and not answered
 * @__SUNH_A_MAX: internal
 */
enum sunh_attr {
	SUNH_A_UNSPEC,
	SUNH_A_PAD,
	SUNH_A_PREFIX4,
	SUNH_A_PREFIX6,
	SUNH_A_PREFIX_LEN,
	SUNH_A_ADDR_BITS,
	SUNH_A_HOP_LIMIT,
	SUNH_A_FORWARDING,
	SUNH_A_LEARNING,
	SUNH_A_AGEING,
	SUNH_A_UDP_PORT,
	SUNH_A_ETHERTYPE,
	SUNH_A_ADDR,
	SUNH_A_IFINDEX,
	SUNH_A_LLADDR,
	SUNH_A_ORIGIN,
	SUNH_A_AGE_MS,
	SUNH_A_PACKETS,
	SUNH_A_BYTES,
	SUNH_A_STATS,
	SUNH_A_TCLASS,
	SUNH_A_SIZE,
	SUNH_A_TIMEOUT_MS,
	SUNH_A_SEQ,
	SUNH_A_SADDR,
	SUNH_A_RTT_NS,
	SUNH_A_REQ_HOP_LIMIT,
	SUNH_A_REPLACE,
	SUNH_A_FLUSH,
	SUNH_A_LOCAL,
	SUNH_A_ECHO_RATE,

	__SUNH_A_MAX
};

#define SUNH_A_MAX (__SUNH_A_MAX - 1)

/**
 * enum sunh_origin - how a forwarding entry came to be
 * @SUNH_ORIGIN_STATIC: configured over netlink; never aged
 * @SUNH_ORIGIN_RESOLVED: from the IP route and neighbour tables (ARP/ND)
 * @SUNH_ORIGIN_LEARNED: from the source of a received frame
 */
enum sunh_origin {
	SUNH_ORIGIN_STATIC,
	SUNH_ORIGIN_RESOLVED,
	SUNH_ORIGIN_LEARNED,
};

/**
 * enum sunh_stat - per-namespace counters (Documentation/sunh.rst explains
 * each one); RX_DROP_* and TX_DROP_* and FWD_DROP_* count discarded frames.
 * New counters are appended: the values are ABI.
 */
enum sunh_stat {
	SUNH_STAT_RX_PACKETS,
	SUNH_STAT_RX_BYTES,
	SUNH_STAT_RX_DELIVERED,
	SUNH_STAT_TX_PACKETS,
	SUNH_STAT_TX_BYTES,
	SUNH_STAT_FWD_PACKETS,
	SUNH_STAT_ROUTES_RESOLVED,
	SUNH_STAT_ROUTES_LEARNED,
	SUNH_STAT_ROUTES_AGED,
	SUNH_STAT_RESOLVE_QUEUED,
	SUNH_STAT_ECHO_REQ_RX,
	SUNH_STAT_ECHO_REP_TX,
	SUNH_STAT_ECHO_REP_RX,
	SUNH_STAT_RX_DROP_OTHERHOST,
	SUNH_STAT_RX_DROP_NOMEM,
	SUNH_STAT_RX_DROP_TRUNCATED,
	SUNH_STAT_RX_DROP_NO_SUBNET,
	SUNH_STAT_RX_DROP_ADDR_RANGE,
	SUNH_STAT_RX_DROP_NOT_LOCAL,
	SUNH_STAT_RX_DROP_UNKNOWN_NEXTHDR,
	SUNH_STAT_RX_DROP_ECHO_MALFORMED,
	SUNH_STAT_RX_DROP_ECHO_UNMATCHED,
	SUNH_STAT_FWD_DROP_HOP_LIMIT,
	SUNH_STAT_FWD_DROP_NO_ROUTE,
	SUNH_STAT_FWD_DROP_MTU,
	SUNH_STAT_FWD_DROP_NOMEM,
	SUNH_STAT_TX_DROP_NO_SUBNET,
	SUNH_STAT_TX_DROP_ADDR_RANGE,
	SUNH_STAT_TX_DROP_NO_ROUTE,
	SUNH_STAT_TX_DROP_NO_SOURCE,
	SUNH_STAT_TX_DROP_NOMEM,
	SUNH_STAT_TX_DROP_DEV,
	SUNH_STAT_RX_DROP_NO_DEV_ADDR,
	SUNH_STAT_RX_DROP_SRC_PATH,
	SUNH_STAT_FWD_DROP_NOT_DOMAIN,
	SUNH_STAT_TX_DROP_NOT_DOMAIN,
	SUNH_STAT_RX_DROP_ECHO_RATELIMIT,
	SUNH_STAT_RX_DROP_BAD_SRC_MAC,
	SUNH_STAT_TX_DROP_UNRESOLVED,
	SUNH_STAT_LEARN_HELD,

	__SUNH_STAT_MAX
};

#define SUNH_STAT_MAX (__SUNH_STAT_MAX - 1)

#endif /* _UAPI_LINUX_SUNH_NETLINK_H */
