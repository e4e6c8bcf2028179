/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: the per-device connection table (superp_conn_table.c), indexed
 * by local CID, and the device's default connection parameters.
 */
#ifndef SUPERP_CONN_TABLE_H
#define SUPERP_CONN_TABLE_H

#include <linux/in6.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#include "superp_engine.h"

struct superp_dev;

/* Where a connection's packets go: what CONN_ADD says, fixed for its life. */
struct superp_conn_addr {
	u8 encap;			/* enum superp_encap */
	u8 tclass;
	u8 ordered;			/* SUPERP_ORDERED_* */
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
 *	path will run in softirq).
 * @sdev: the device.
 * @addr: addressing, immutable once published.
 */
struct superp_conn_entry {
	struct superp_conn conn;
	spinlock_t lock;		/* engine events on @conn */
	struct superp_dev *sdev;
	struct superp_conn_addr addr;
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
 */
struct superp_conns {
	struct mutex lock;		/* changes of everything below */
	struct superp_conn_table __rcu *table;
	struct superp_params defaults;
	u32 count;
	atomic64_t event_drops;
	struct superp_mem_budget budget;
};

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

int superp_conns_init(struct superp_dev *sdev);
void superp_conns_destroy(struct superp_dev *sdev);
struct superp_conn_entry *superp_conn_lookup(struct superp_dev *sdev,
					     u16 dcid);
int superp_conn_add(struct superp_dev *sdev, u16 lcid, u16 rcid,
		    const struct superp_conn_addr *addr,
		    const struct superp_params *p,
		    struct netlink_ext_ack *extack);
int superp_conn_del(struct superp_dev *sdev, u16 lcid);
int superp_conn_abort_cid(struct superp_dev *sdev, u16 lcid);
int superp_conn_info(struct superp_dev *sdev, u32 *lcid, bool next,
		     struct superp_conn_info *ci);
u32 superp_conns_defaults(struct superp_dev *sdev, struct superp_params *p);
int superp_conns_set_defaults(struct superp_dev *sdev,
			      const struct superp_params *p,
			      struct netlink_ext_ack *extack);
void superp_conns_mem(struct superp_dev *sdev, u64 *limit, u64 *used);
void superp_conns_set_mem_limit(struct superp_dev *sdev, u64 limit);

#endif /* SUPERP_CONN_TABLE_H */
