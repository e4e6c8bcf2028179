/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: the per-device connection table (superp_conn_table.c), indexed
 * by local CID, and the device's default connection parameters.
 */
#ifndef SUPERP_CONN_TABLE_H
#define SUPERP_CONN_TABLE_H

#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/in6.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/dst_cache.h>

#include "superp_engine.h"
#include "superp_rc_conn.h"

struct superp_dev;
struct superp_rx_src;

/* Where a connection's packets go: what CONN_ADD says, fixed for its life. */
struct superp_conn_addr {
	u8 encap;			/* enum superp_encap */
	u8 tclass;
	u8 ordered;			/* SUPERP_ORDERED_* */
	bool lite;			/* SUPERp-lite: no PDL on the wire */
	u16 udp_sport;
	union {
		u16 sunh;
		__be32 ip4;
		struct in6_addr ip6;
	} local, remote;
};

/**
 * struct superp_conn_entry - one installed connection.
 * @conn: the engine's state (first: it is cache-line aligned).
 * @lock: serialises the engine's events on @conn (BH-safe: the receive
 *	path runs in softirq), and @deadline and @tx_busy.
 * @sdev: the device.
 * @addr: addressing, immutable once published.
 * @timer: the engine's deadline and busy retries (superp_tx.c).
 * @deadline: the engine's deadline (ns), 0 for none.
 * @tx_busy: the device refused a packet: retry shortly.
 * @rc: RC's state of the connection (superp_rc_conn.h), under @lock.
 * @loop: the peer is this node: packets loop back (superp_loop.c).
 * @dst_cache: UDP connections: the route to the peer (superp_udp.c).
 * @lite_node: SUPERp-lite connections: in superp_conns.lite, by peer.
 */
struct superp_conn_entry {
	struct superp_conn conn;
	spinlock_t lock;		/* engine events on @conn */
	struct superp_dev *sdev;
	struct superp_conn_addr addr;
	struct hrtimer timer;
	u64 deadline;
	bool tx_busy;
	struct superp_rc_conn rc;
	bool loop;
	struct dst_cache dst_cache;
	struct hlist_node lite_node;
};

static inline struct superp_conn_entry *superp_entry(struct superp_conn *c)
{
	return container_of(c, struct superp_conn_entry, conn);
}

/**
 * struct superp_conn_users - what a device's connections call above the
 * transport: the QP types and the device's netlink family. The device
 * fills it in (superp_main.c), so that the transport names neither.
 * @engine: the engine's callbacks of each connection: the transport's
 *	(superp_tx.h) beside the QP types' and the device's.
 * @attach: set up the QP types' state of a new connection @e
 *	(@tal_window: its transaction window): 0 or -ENOMEM.
 * @unbind_all: @e is unpublished: every QP bound to it lets go, before
 *	the grace period.
 * @stop: a grace period later: the QP types' timers and work on @e end,
 *	before its own timer and engine state go.
 * @detach: frees what @attach set up (also after a failed add).
 */
struct superp_conn_users {
	const struct superp_engine_ops *engine;
	int (*attach)(struct superp_conn_entry *e, u32 tal_window);
	void (*unbind_all)(struct superp_conn_entry *e);
	void (*stop)(struct superp_conn_entry *e);
	void (*detach)(struct superp_conn_entry *e);
};

/* A table of 1..4096 slots, replaced whole when its size changes. */
struct superp_conn_table {
	struct rcu_head rcu;
	u32 size;
	struct superp_conn_entry __rcu *slot[];
};

/**
 * struct superp_conns - a device's connections and defaults.
 * @lock: serialises every change of @table, its slots, @defaults, @count.
 * @table: the CID table (size defaults.pdl_conn_per_xpu).
 * @defaults: parameters of new connections (the spec's table).
 * @count: connections installed.
 * @event_drops: event notifications that could not be sent.
 * @budget: memory of the connections (superp_conn_init_budget()); its
 *	limit changes under @lock.
 * @gone: counters of deleted connections, folded in under @lock so that
 *	the device's totals never go backwards (superp_hw_stats.c).
 * @users: what the connections call above the transport.
 * @loop: the device's implicit loopback connection (superp_conn_loop_add()),
 *	outside @table and @count; NULL before it is made.
 * @lite: the SUPERp-lite connections in @table, hashed by peer address
 *	(RCU: the receive path finds them by a packet's source).
 * @nlite: how many; the receive path looks in @lite only when not 0.
 */
struct superp_conns {
	struct mutex lock;		/* changes of everything below */
	struct superp_conn_table __rcu *table;
	struct superp_params defaults;
	u32 count;
	atomic64_t event_drops;
	struct superp_mem_budget budget;
	struct superp_stats gone;
	const struct superp_conn_users *users;
	struct superp_conn_entry __rcu *loop;
	DECLARE_HASHTABLE(lite, 6);
	u32 nlite;
};

/*
 * The implicit loopback connection's CID, both ends: outside every
 * connection table (CIDs stay below 4096) and never on a wire, since its
 * packets go up the receive path directly.
 */
#define SUPERP_LCID_LOOP	0xfffe
/* Its retransmission timeout (us) and limit: see superp_conn_loop_add(). */
#define SUPERP_LOOP_RTO_US	1000000
#define SUPERP_LOOP_MAX_RTX	8

/* A consistent copy of one connection, for netlink replies. */
struct superp_conn_info {
	u16 lcid;
	u16 rcid;
	u8 state;			/* SUPERP_ST_* */
	struct superp_conn_addr addr;
	struct superp_params p;
	struct superp_stats stats;
	u32 events[SUPERP_EV_MAX];
};

int superp_conn_cache_init(void);
void superp_conn_cache_exit(void);
int superp_conns_init(struct superp_dev *sdev,
		      const struct superp_conn_users *users);
void superp_conns_destroy(struct superp_dev *sdev);
struct superp_conn_entry *superp_conn_lookup(struct superp_dev *sdev,
					     u16 dcid);
struct superp_conn_entry *superp_conn_lookup_lite(struct superp_dev *sdev,
						  const struct superp_rx_src *src);
int superp_conn_add(struct superp_dev *sdev, u16 lcid, u16 rcid,
		    const struct superp_conn_addr *addr,
		    const struct superp_params *p,
		    struct netlink_ext_ack *extack);
int superp_conn_del(struct superp_dev *sdev, u16 lcid);
void superp_conns_lock(struct superp_dev *sdev);
void superp_conns_unlock(struct superp_dev *sdev);
struct superp_conn_entry *superp_conn_at(struct superp_dev *sdev, u32 i,
					 u32 *size);
int superp_conn_abort_cid(struct superp_dev *sdev, u16 lcid);
int superp_conn_shutdown_cid(struct superp_dev *sdev, u16 lcid);
int superp_conn_loop_add(struct superp_dev *sdev);
struct superp_conn_entry *superp_conn_loop(struct superp_dev *sdev);
int superp_conn_info(struct superp_dev *sdev, u32 *lcid, bool next,
		     struct superp_conn_info *ci);
u32 superp_conns_defaults(struct superp_dev *sdev, struct superp_params *p);
int superp_conns_set_defaults(struct superp_dev *sdev,
			      const struct superp_params *p,
			      struct netlink_ext_ack *extack);
void superp_conns_mem(struct superp_dev *sdev, u64 *limit, u64 *used);
void superp_conns_set_mem_limit(struct superp_dev *sdev, u64 limit);
void superp_stats_add(struct superp_stats *sum, const struct superp_stats *s);
void superp_conns_stats(struct superp_dev *sdev, struct superp_stats *sum);

#endif /* SUPERP_CONN_TABLE_H */
