/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR Linux-OpenIB */
/*
 * Generic netlink interface of ib_superp (family "superp"): SUPERp
 * connections and the per-device defaults of new connections.
 * Administration guide: Documentation/superp-admin.rst.
 *
 * A device is named by its RDMA device name (SUPERP_A_DEV_NAME, e.g.
 * "superp0") and is visible in the network namespaces the RDMA core lets
 * see it (`rdma system` netns mode). Commands that change state need
 * CAP_NET_ADMIN.
 */
#ifndef _UAPI_RDMA_SUPERP_NETLINK_H
#define _UAPI_RDMA_SUPERP_NETLINK_H

#define SUPERP_GENL_NAME	"superp"
#define SUPERP_GENL_VERSION	1
#define SUPERP_GENL_MCGRP_EVENTS	"events"

/**
 * enum superp_cmd - commands of the "superp" generic netlink family
 * @SUPERP_CMD_UNSPEC: unused
 * @SUPERP_CMD_CONN_ADD: install a connection: SUPERP_A_DEV_NAME,
 *	SUPERP_A_LCID, SUPERP_A_RCID, SUPERP_A_ENCAP and the two addresses of
 *	that encapsulation (SUPERP_A_LOCAL_SUNH and SUPERP_A_REMOTE_SUNH,
 *	SUPERP_A_LOCAL_IP4 and SUPERP_A_REMOTE_IP4, or SUPERP_A_LOCAL_IP6 and
 *	SUPERP_A_REMOTE_IP6); optional SUPERP_A_UDP_SPORT, SUPERP_A_TCLASS,
 *	SUPERP_A_ORDERED, SUPERP_A_PARAMS (parameters not given are the
 *	device's defaults), SUPERP_A_LITE (then SUPERP_A_RCID is optional).
 *	-EEXIST when the local CID is in use, or when a lite connection
 *	would share its two nodes with another connection.
 * @SUPERP_CMD_CONN_DEL: remove the connection SUPERP_A_DEV_NAME,
 *	SUPERP_A_LCID at once (pending work fails, nothing is sent).
 * @SUPERP_CMD_CONN_GET: one connection (SUPERP_A_DEV_NAME, SUPERP_A_LCID)
 *	or, as a dump, every connection (of SUPERP_A_DEV_NAME if given). The
 *	answer carries what CONN_ADD took (with every parameter), plus
 *	SUPERP_A_STATE, SUPERP_A_STATS and SUPERP_A_EVENTS.
 * @SUPERP_CMD_CONN_SHUTDOWN: SUPERP_A_DEV_NAME, SUPERP_A_LCID,
 *	SUPERP_A_SHUTDOWN: soft (the spec's Last NULL procedure, ends
 *	quiescent) or hard (pending work fails, the connection is broken and
 *	stays installed until CONN_DEL).
 * @SUPERP_CMD_DEV_GET: one device (SUPERP_A_DEV_NAME) or, as a dump, all
 *	superp devices: SUPERP_A_DEV_NAME, SUPERP_A_DEV_INDEX,
 *	SUPERP_A_IFINDEX, SUPERP_A_IFNAME, SUPERP_A_PARAMS (defaults of new
 *	connections), SUPERP_A_CONN_COUNT, SUPERP_A_EVENT_DROPS,
 *	SUPERP_A_DROPS, SUPERP_A_RX_PACKETS.
 * @SUPERP_CMD_DEV_SET: change the defaults SUPERP_A_PARAMS of
 *	SUPERP_A_DEV_NAME; all or nothing. pdl_conn_per_xpu (the size of the
 *	CID table) changes only while the device has no connection (-EBUSY).
 * @SUPERP_CMD_EVENT: notification on the "events" group: an engine event
 *	(SUPERP_A_DEV_NAME, SUPERP_A_LCID, SUPERP_A_EVENT_ID,
 *	SUPERP_A_EVENT_NAME, SUPERP_A_EVENT_VALUE).
 * @__SUPERP_CMD_MAX: internal
 */
enum superp_cmd {
	SUPERP_CMD_UNSPEC,
	SUPERP_CMD_CONN_ADD,
	SUPERP_CMD_CONN_DEL,
	SUPERP_CMD_CONN_GET,
	SUPERP_CMD_CONN_SHUTDOWN,
	SUPERP_CMD_DEV_GET,
	SUPERP_CMD_DEV_SET,
	SUPERP_CMD_EVENT,

	__SUPERP_CMD_MAX
};

#define SUPERP_CMD_MAX (__SUPERP_CMD_MAX - 1)

/**
 * enum superp_attr - attributes (one flat space for all commands)
 * @SUPERP_A_UNSPEC: unused
 * @SUPERP_A_PAD: padding for 64-bit attributes
 * @SUPERP_A_DEV_NAME: RDMA device name (string, e.g. "superp0")
 * @SUPERP_A_DEV_INDEX: RDMA device index (u32, read only)
 * @SUPERP_A_IFINDEX: the device's netdev (u32, read only)
 * @SUPERP_A_IFNAME: the device's netdev name (string, read only)
 * @SUPERP_A_LCID: local connection ID, the DCID of packets received on
 *	the connection: 0..pdl_conn_per_xpu - 1 of the device (u16)
 * @SUPERP_A_RCID: the peer's CID, the DCID of packets sent (u16)
 * @SUPERP_A_ENCAP: enum superp_encap (u8)
 * @SUPERP_A_LOCAL_SUNH: local SUNH address (u16), encapsulation sunh
 * @SUPERP_A_REMOTE_SUNH: peer's SUNH address (u16), encapsulation sunh
 * @SUPERP_A_LOCAL_IP4: local IPv4 address (4 bytes, network order), udp4
 * @SUPERP_A_REMOTE_IP4: peer's IPv4 address (4 bytes), udp4
 * @SUPERP_A_LOCAL_IP6: local IPv6 address (16 bytes), udp6
 * @SUPERP_A_REMOTE_IP6: peer's IPv6 address (16 bytes), udp6
 * @SUPERP_A_UDP_SPORT: UDP source port (flow entropy), 1..65535 (u16);
 *	default derived from the CIDs and addresses, 49152..65535
 * @SUPERP_A_TCLASS: traffic class (DSCP << 2 | ECN) of the connection (u8)
 * @SUPERP_A_ORDERED: SUPERP_ORDERED_* bits (u8): RX, this node delivers
 *	the peer's packets in PSN order; TX, the peer delivers ours in order
 * @SUPERP_A_PARAMS: nest of the spec's parameters, enum superp_param
 * @SUPERP_A_STATE: enum superp_conn_state (u8, read only)
 * @SUPERP_A_STATS: nest of u64 counters, attribute type = enum
 *	superp_conn_stat + 1 (read only)
 * @SUPERP_A_EVENTS: nest of SUPERP_A_EVENT, one per engine event, with
 *	its count (read only)
 * @SUPERP_A_EVENT: nest: SUPERP_A_EVENT_ID, SUPERP_A_EVENT_NAME,
 *	SUPERP_A_EVENT_COUNT
 * @SUPERP_A_EVENT_ID: engine event number (u32; names are the ABI, the
 *	numbers may grow)
 * @SUPERP_A_EVENT_NAME: engine event name (string, e.g. "conn_broken")
 * @SUPERP_A_EVENT_COUNT: times the event happened (u32)
 * @SUPERP_A_EVENT_VALUE: the event's detail (u32; e.g. the errno of a
 *	broken connection, the PSN or XID at fault)
 * @SUPERP_A_SHUTDOWN: enum superp_shutdown (u8)
 * @SUPERP_A_CONN_COUNT: connections installed on the device (u32)
 * @SUPERP_A_EVENT_DROPS: event notifications lost for want of memory
 *	(u64, read only)
 * @SUPERP_A_MEM_LIMIT: bytes the device's connections may take (u64;
 *	0: no limit); a connection that would exceed it is refused
 * @SUPERP_A_MEM_USED: bytes its connections take now (u64, read only)
 * @SUPERP_A_DROPS: nest of u64 counters of received packets that reached
 *	no connection, attribute type = enum superp_drop_reason + 1 (read only)
 * @SUPERP_A_RX_PACKETS: every packet the device's receive path took (u64,
 *	read only): the SUPERP_A_DROPS plus the RX_PKTS of its connections
 *	(those deleted included)
 * @SUPERP_A_LITE: flag: a SUPERp-lite connection (no PDL header, found
 *	by the peer's address; needs tal_transaction_timeout)
 * @__SUPERP_A_MAX: internal
 */
enum superp_attr {
	SUPERP_A_UNSPEC,
	SUPERP_A_PAD,
	SUPERP_A_DEV_NAME,
	SUPERP_A_DEV_INDEX,
	SUPERP_A_IFINDEX,
	SUPERP_A_IFNAME,
	SUPERP_A_LCID,
	SUPERP_A_RCID,
	SUPERP_A_ENCAP,
	SUPERP_A_LOCAL_SUNH,
	SUPERP_A_REMOTE_SUNH,
	SUPERP_A_LOCAL_IP4,
	SUPERP_A_REMOTE_IP4,
	SUPERP_A_LOCAL_IP6,
	SUPERP_A_REMOTE_IP6,
	SUPERP_A_UDP_SPORT,
	SUPERP_A_TCLASS,
	SUPERP_A_ORDERED,
	SUPERP_A_PARAMS,
	SUPERP_A_STATE,
	SUPERP_A_STATS,
	SUPERP_A_EVENTS,
	SUPERP_A_EVENT,
	SUPERP_A_EVENT_ID,
	SUPERP_A_EVENT_NAME,
	SUPERP_A_EVENT_COUNT,
	SUPERP_A_EVENT_VALUE,
	SUPERP_A_SHUTDOWN,
	SUPERP_A_CONN_COUNT,
	SUPERP_A_EVENT_DROPS,
	SUPERP_A_MEM_LIMIT,
	SUPERP_A_MEM_USED,
	SUPERP_A_DROPS,
	SUPERP_A_RX_PACKETS,
	SUPERP_A_LITE,

	__SUPERP_A_MAX
};

#define SUPERP_A_MAX (__SUPERP_A_MAX - 1)

/**
 * enum superp_encap - how a connection's packets travel
 * @SUPERP_ENCAP_SUNH: Ethernet | SUNH (Next Header 253)
 * @SUPERP_ENCAP_UDP4: Ethernet | IPv4 | UDP (port 7777)
 * @SUPERP_ENCAP_UDP6: Ethernet | IPv6 | UDP (port 7777)
 */
enum superp_encap {
	SUPERP_ENCAP_SUNH,
	SUPERP_ENCAP_UDP4,
	SUPERP_ENCAP_UDP6,
};

#define SUPERP_ORDERED_RX	0x01
#define SUPERP_ORDERED_TX	0x02

/**
 * enum superp_conn_state - state of a connection
 * @SUPERP_STATE_UP: transactions may start
 * @SUPERP_STATE_SHUTDOWN: soft shutdown in progress (Last NULL)
 * @SUPERP_STATE_QUIESCENT: soft shutdown finished
 * @SUPERP_STATE_BROKEN: hard shutdown, or broken (pdl_max_rtx, timeout)
 */
enum superp_conn_state {
	SUPERP_STATE_UP,
	SUPERP_STATE_SHUTDOWN,
	SUPERP_STATE_QUIESCENT,
	SUPERP_STATE_BROKEN,
};

/**
 * enum superp_shutdown - kind of SUPERP_CMD_CONN_SHUTDOWN
 * @SUPERP_SHUTDOWN_SOFT: the spec's Last NULL procedure
 * @SUPERP_SHUTDOWN_HARD: fail pending work now, connection broken
 */
enum superp_shutdown {
	SUPERP_SHUTDOWN_SOFT,
	SUPERP_SHUTDOWN_HARD,
};

/**
 * enum superp_param - the spec's configuration parameters, in the nest
 * SUPERP_A_PARAMS (ranges and units: Documentation/superp-engine.rst)
 * @SUPERP_P_UNSPEC: unused
 * @SUPERP_P_PAD: padding for 64-bit attributes
 * @SUPERP_P_PDL_RETRANS_TIME_OUT: usec, 100..60000000 (u32)
 * @SUPERP_P_PDL_RTX_TIME_WIN: usec, 0..60000000 (u32)
 * @SUPERP_P_PDL_RTX_MAX_PKTS: 0..64 (u32)
 * @SUPERP_P_PDL_MAX_RTX: 1..8 (u32)
 * @SUPERP_P_PDL_DELAYED_ACK_TIME: usec, 1..60000000 (u32)
 * @SUPERP_P_PDL_WINDOW_SIZE: PSNs, 16..1024 (u32)
 * @SUPERP_P_PDL_CONN_PER_XPU: CID table size, 1..4096 (u32); a device
 *	setting only (refused in CONN_ADD)
 * @SUPERP_P_PDL_RECEIVE_WIN: 1..1024, at most pdl_window_size (u32)
 * @SUPERP_P_PDL_STRETCH_ACK: 1..1024, at most pdl_window_size (u32)
 * @SUPERP_P_PDL_FAST_RTX_LIMIT: 0..64 (u32)
 * @SUPERP_P_TAL_TRANS_WINDOW: XIDs, 1..1024 (u32)
 * @SUPERP_P_TAL_MAX_PKT_PER_TRANS: 1..4096 (u32)
 * @SUPERP_P_TAL_MAX_OPS_PER_PKT: 1..15 (u32)
 * @SUPERP_P_TAL_TRANSACTION_TIMEOUT: 10 ns units, 0 = none (u64)
 * @__SUPERP_P_MAX: internal
 */
enum superp_param {
	SUPERP_P_UNSPEC,
	SUPERP_P_PAD,
	SUPERP_P_PDL_RETRANS_TIME_OUT,
	SUPERP_P_PDL_RTX_TIME_WIN,
	SUPERP_P_PDL_RTX_MAX_PKTS,
	SUPERP_P_PDL_MAX_RTX,
	SUPERP_P_PDL_DELAYED_ACK_TIME,
	SUPERP_P_PDL_WINDOW_SIZE,
	SUPERP_P_PDL_CONN_PER_XPU,
	SUPERP_P_PDL_RECEIVE_WIN,
	SUPERP_P_PDL_STRETCH_ACK,
	SUPERP_P_PDL_FAST_RTX_LIMIT,
	SUPERP_P_TAL_TRANS_WINDOW,
	SUPERP_P_TAL_MAX_PKT_PER_TRANS,
	SUPERP_P_TAL_MAX_OPS_PER_PKT,
	SUPERP_P_TAL_TRANSACTION_TIMEOUT,

	__SUPERP_P_MAX
};

#define SUPERP_P_MAX (__SUPERP_P_MAX - 1)

/**
 * enum superp_conn_stat - per-connection counters in SUPERP_A_STATS (the
 * engine's struct superp_stats). New counters are appended: the values
 * are ABI.
 * @SUPERP_STAT_TX_NEW: packets sent for the first time
 * @SUPERP_STAT_TX_RTX_TIMER: retransmissions on the retransmit timer
 * @SUPERP_STAT_TX_RTX_FAST: fast retransmissions (NACK, SACK holes)
 * @SUPERP_STAT_TX_RTX_PROACTIVE: proactive retransmissions (spec's PDL
 *	timer 4.c, pdl_rtx_time_win and pdl_rtx_max_pkts)
 * @SUPERP_STAT_TX_PURE_ACK: pure ACKs sent (opcode 16, no PSN)
 * @SUPERP_STAT_TX_NACK: NACKs sent
 * @SUPERP_STAT_TX_BUSY: packets the device did not take (queue full)
 * @SUPERP_STAT_TX_ERR: packets lost in transmission (any other transmit
 *	error; until the data path exists, every packet)
 * @SUPERP_STAT_TX_PROBE: ACK XID probes sent
 * @SUPERP_STAT_RX_PKTS: packets the engine received (before its checks);
 *	each is in exactly one of RX_PROCESSED, RX_DUP, RX_HOLDING or an
 *	RX_DROP_* counter
 * @SUPERP_STAT_RX_DUP: duplicates received
 * @SUPERP_STAT_RX_HELD: packets held for in-order delivery (a total)
 * @SUPERP_STAT_RX_DROPPED: packets dropped by the engine: the sum of the
 *	RX_DROP_* counters
 * @SUPERP_STAT_DELIVERED: packets delivered to the transaction layer
 * @SUPERP_STAT_RX_PROCESSED: pure ACKs taken, and packets the transaction
 *	layer handed to the operation layer
 * @SUPERP_STAT_RX_HOLDING: packets held behind a PSN gap now (a level)
 * @SUPERP_STAT_RX_DROP_PSN_WINDOW: PSN beyond the receive window
 * @SUPERP_STAT_RX_DROP_ACK_WINDOW: ACK PSN beyond what was sent
 * @SUPERP_STAT_RX_DROP_ACK_XID_WINDOW: ACK XID beyond what was started
 * @SUPERP_STAT_RX_DROP_BROKEN: the connection was broken
 * @SUPERP_STAT_RX_DROP_NO_HOLD: out of order on an ordered connection and
 *	no memory to hold it
 * @SUPERP_STAT_RX_DROP_FLUSHED: held, then the connection stopped
 * @SUPERP_STAT_RX_DROP_TAL: acknowledged by the PDL, refused by a check of
 *	the transaction layer (its event says which)
 * @SUPERP_STAT_TX_BYTES: bytes sent, every transmission, from the PDL
 *	header on (no encapsulation)
 * @SUPERP_STAT_RX_BYTES: bytes of the RX_PKTS packets, likewise
 * @SUPERP_STAT_TX_SACK: packets sent whose SACK names a PSN past the ACK
 *	PSN (NACKs not included)
 * @SUPERP_STAT_RX_SACK: such ACKs received and found valid
 * @SUPERP_STAT_RX_NACK: NACKs received and found valid
 * @SUPERP_STAT_TX_TRANS_ERR: the peer's transactions we answered with a
 *	Transaction Error
 * @SUPERP_STAT_RX_TRANS_ERR: our transactions the peer answered with a
 *	Transaction Error
 * @SUPERP_STAT_TX_RNR: of TX_TRANS_ERR, receiver not ready
 * @SUPERP_STAT_RX_RNR: of RX_TRANS_ERR, receiver not ready
 * @SUPERP_STAT_TX_PACKED_OPS: operations submitted packed with others in
 *	one packet (each of a transaction with num_ops > 1)
 * @SUPERP_STAT_TX_RTX_TAIL: tail-loss probes: the first unacknowledged
 *	packet sent again when nothing was heard for two smoothed RTTs,
 *	before the retransmit timer
 * @__SUPERP_STAT_MAX: internal
 */
enum superp_conn_stat {
	SUPERP_STAT_TX_NEW,
	SUPERP_STAT_TX_RTX_TIMER,
	SUPERP_STAT_TX_RTX_FAST,
	SUPERP_STAT_TX_RTX_PROACTIVE,
	SUPERP_STAT_TX_PURE_ACK,
	SUPERP_STAT_TX_NACK,
	SUPERP_STAT_TX_BUSY,
	SUPERP_STAT_TX_ERR,
	SUPERP_STAT_TX_PROBE,
	SUPERP_STAT_RX_PKTS,
	SUPERP_STAT_RX_DUP,
	SUPERP_STAT_RX_HELD,
	SUPERP_STAT_RX_DROPPED,
	SUPERP_STAT_DELIVERED,
	SUPERP_STAT_RX_PROCESSED,
	SUPERP_STAT_RX_HOLDING,
	SUPERP_STAT_RX_DROP_PSN_WINDOW,
	SUPERP_STAT_RX_DROP_ACK_WINDOW,
	SUPERP_STAT_RX_DROP_ACK_XID_WINDOW,
	SUPERP_STAT_RX_DROP_BROKEN,
	SUPERP_STAT_RX_DROP_NO_HOLD,
	SUPERP_STAT_RX_DROP_FLUSHED,
	SUPERP_STAT_RX_DROP_TAL,
	SUPERP_STAT_TX_BYTES,
	SUPERP_STAT_RX_BYTES,
	SUPERP_STAT_TX_SACK,
	SUPERP_STAT_RX_SACK,
	SUPERP_STAT_RX_NACK,
	SUPERP_STAT_TX_TRANS_ERR,
	SUPERP_STAT_RX_TRANS_ERR,
	SUPERP_STAT_TX_RNR,
	SUPERP_STAT_RX_RNR,
	SUPERP_STAT_TX_PACKED_OPS,
	SUPERP_STAT_TX_RTX_TAIL,

	__SUPERP_STAT_MAX
};

#define SUPERP_STAT_MAX (__SUPERP_STAT_MAX - 1)

/**
 * enum superp_drop_reason - why a received packet reached no connection,
 * counted per device in SUPERP_A_DROPS. New reasons are appended: the
 * values are ABI.
 * @SUPERP_DROP_SHORT: fewer bytes than the PDL and TAL headers
 * @SUPERP_DROP_MALFORMED: fixed headers the codec refuses (reserved TAL
 *	bits, a pure ACK with operations or eom, a Transaction Error without
 *	its operation header)
 * @SUPERP_DROP_UNKNOWN_DCID: no connection has the packet's DCID
 * @SUPERP_DROP_WRONG_PEER: the source address is not the connection's peer
 * @SUPERP_DROP_WRONG_ENCAP: the packet came by another encapsulation than
 *	the connection's (SUNH, UDP/IPv4, UDP/IPv6)
 * @SUPERP_DROP_DGRAM_MALFORMED: a datagram (SUPERP_DCID_DATAGRAM) that is
 *	not one Datagram Send operation with its data
 * @SUPERP_DROP_DGRAM_SENDER: a datagram whose sender has no IP address to
 *	report (a SUNH source outside the namespace's SUPERp subnet)
 * @SUPERP_DROP_DGRAM_QP: a datagram for no UD QP able to receive
 * @SUPERP_DROP_DGRAM_QKEY: a datagram with another Q_Key than its QP's
 * @SUPERP_DROP_DGRAM_NO_RECV: a datagram that found no receive posted
 * @SUPERP_DROP_DGRAM_TOO_LONG: a datagram longer than the receive its QP
 *	(without an SRQ) has posted next, which stays posted
 * @__SUPERP_DROP_MAX: internal
 */
enum superp_drop_reason {
	SUPERP_DROP_SHORT,
	SUPERP_DROP_MALFORMED,
	SUPERP_DROP_UNKNOWN_DCID,
	SUPERP_DROP_WRONG_PEER,
	SUPERP_DROP_WRONG_ENCAP,
	SUPERP_DROP_DGRAM_MALFORMED,
	SUPERP_DROP_DGRAM_SENDER,
	SUPERP_DROP_DGRAM_QP,
	SUPERP_DROP_DGRAM_QKEY,
	SUPERP_DROP_DGRAM_NO_RECV,
	SUPERP_DROP_DGRAM_TOO_LONG,

	__SUPERP_DROP_MAX
};

#define SUPERP_DROP_MAX (__SUPERP_DROP_MAX - 1)

#endif /* _UAPI_RDMA_SUPERP_NETLINK_H */
