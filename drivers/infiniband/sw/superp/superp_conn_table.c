// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the connection table of a device. A connection's local CID is
 * a dense index into an array of RCU-published entries; the receive path
 * finds the connection of a packet's DCID with one bounds check and one
 * load (superp_conn_lookup()).
 *
 * Locking: superp_conns.lock (a mutex) serialises every change: publishing
 * and unpublishing an entry, replacing the table (only while it is empty,
 * when pdl_conn_per_xpu changes), the defaults and the count. Readers take
 * no lock: they run under rcu_read_lock(), and an entry or table is freed
 * only after a grace period, so a reader that found one may use it until
 * it leaves its read-side section. Entries are immutable once published
 * except for the engine's state, which superp_conn_entry.lock guards (a
 * BH-safe spinlock; the engine's event callback runs under it and only
 * allocates with GFP_ATOMIC). Lock order: the top of superp_rc_bind.c.
 *
 * An entry's engine callbacks are the device's (struct superp_conn_users:
 * superp_tx.c's, the QP types' and the device's own), its timer is
 * superp_tx.c's; an entry is freed only after it was unpublished (or its
 * table was), a grace period passed (no receive runs on it) and its timer
 * was cancelled, in that order (superp_conn_entry_free()).
 *
 * Entries come from a slab cache of their own size (superp_conn_entry_cache,
 * made at module init): kmalloc() would round one up to 512 bytes.
 */
#include <kunit/visibility.h>
#include <linux/ktime.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <net/ipv6.h>

#include <rdma/superp_netlink.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_encap.h"
#include "superp_rx.h"
#include "superp_tx.h"

static struct kmem_cache *superp_conn_entry_cache;

/**
 * superp_conn_cache_init() - make the connection entries' cache
 *
 * Module init, before any device exists.
 *
 * Return: 0 or -ENOMEM.
 */
int superp_conn_cache_init(void)
{
	superp_conn_entry_cache = KMEM_CACHE(superp_conn_entry, 0);
	return superp_conn_entry_cache ? 0 : -ENOMEM;
}

/**
 * superp_conn_cache_exit() - free the entries' cache
 *
 * Module exit, after the last device and so the last connection went.
 */
void superp_conn_cache_exit(void)
{
	kmem_cache_destroy(superp_conn_entry_cache);
	superp_conn_entry_cache = NULL;
}

static struct superp_conn_table *superp_ct_alloc(u32 size)
{
	struct superp_conn_table *t;

	t = kzalloc(struct_size(t, slot, size), GFP_KERNEL);
	if (t)
		t->size = size;
	return t;
}

static struct superp_conn_table *superp_ct(struct superp_conns *cs)
{
	return rcu_dereference_protected(cs->table, lockdep_is_held(&cs->lock));
}

/**
 * superp_conns_init() - give a new device an empty table and the spec's
 * default parameters.
 * @sdev: the device, not yet registered.
 * @users: what its connections call above the transport.
 *
 * Return: 0 or -ENOMEM.
 */
int superp_conns_init(struct superp_dev *sdev,
		      const struct superp_conn_users *users)
{
	struct superp_conn_table *t;
	struct superp_conns *cs;

	cs = kzalloc(sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return -ENOMEM;
	cs->defaults = superp_default_params;
	cs->users = users;
	superp_mem_budget_init(&cs->budget, SUPERP_MEM_BUDGET_DEFAULT);
	t = superp_ct_alloc(cs->defaults.pdl_conn_per_xpu);
	if (!t) {
		kfree(cs);
		return -ENOMEM;
	}
	mutex_init(&cs->lock);
	hash_init(cs->lite);
	RCU_INIT_POINTER(cs->table, t);
	sdev->conns = cs;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conns_init);

/* After a grace period since @e was unpublished: only its timer may run. */
/*
 * A new entry for @addr, with its QP types' state and its route cache,
 * its engine not yet set up; NULL with *@err on failure.
 */
static struct superp_conn_entry *
superp_conn_entry_new(struct superp_dev *sdev,
		      const struct superp_conn_addr *addr, u32 tal_window,
		      int *err)
{
	const struct superp_conn_users *users = sdev->conns->users;
	struct superp_conn_entry *e;

	e = kmem_cache_zalloc(superp_conn_entry_cache, GFP_KERNEL);
	if (!e) {
		*err = -ENOMEM;
		return NULL;
	}
	spin_lock_init(&e->lock);
	superp_conn_timer_init(e);
	e->sdev = sdev;
	e->addr = *addr;
	e->loop = superp_loop_conn(addr);
	*err = users->attach(e, tal_window);
	if (*err) {
		kmem_cache_free(superp_conn_entry_cache, e);
		return NULL;
	}
	*err = superp_udp_conn_init(e);
	if (*err) {
		users->detach(e);
		kmem_cache_free(superp_conn_entry_cache, e);
		return NULL;
	}
	return e;
}

/* Undoes superp_conn_entry_new() of an entry never published. */
static void superp_conn_entry_discard(struct superp_conn_entry *e)
{
	superp_udp_conn_free(e);
	e->sdev->conns->users->detach(e);
	kmem_cache_free(superp_conn_entry_cache, e);
}

static void superp_conn_entry_free(struct superp_conn_entry *e)
{
	const struct superp_conn_users *users = e->sdev->conns->users;

	users->stop(e);
	superp_conn_timer_cancel(e);
	/* Pending transactions fail; nobody else can reach @e any more. */
	superp_conn_release(&e->conn);
	superp_udp_conn_free(e);
	users->detach(e);
	kmem_cache_free(superp_conn_entry_cache, e);
}

/**
 * superp_conns_destroy() - remove every connection of a device going away.
 * @sdev: the device (from its dealloc_driver: nothing else uses it).
 *
 * Safe when superp_conns_init() failed or never ran.
 */
void superp_conns_destroy(struct superp_dev *sdev)
{
	struct superp_conns *cs = sdev->conns;
	struct superp_conn_entry *e, *loop;
	struct superp_conn_table *t;
	u32 i;

	if (!cs)
		return;
	mutex_lock(&cs->lock);
	t = superp_ct(cs);
	RCU_INIT_POINTER(cs->table, NULL);
	loop = rcu_dereference_protected(cs->loop, lockdep_is_held(&cs->lock));
	RCU_INIT_POINTER(cs->loop, NULL);
	mutex_unlock(&cs->lock);
	/* Bound QPs let go before the grace period. */
	for (i = 0; i < t->size; i++) {
		e = rcu_dereference_protected(t->slot[i], true);
		if (e)
			cs->users->unbind_all(e);
	}
	if (loop)
		cs->users->unbind_all(loop);
	/* One grace period for all: the receive path may still hold entries. */
	synchronize_rcu();
	for (i = 0; i < t->size; i++) {
		e = rcu_dereference_protected(t->slot[i], true);
		if (e)
			superp_conn_entry_free(e);
	}
	if (loop)
		superp_conn_entry_free(loop);
	kfree(t);
	mutex_destroy(&cs->lock);
	kfree(cs);
	sdev->conns = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conns_destroy);

/**
 * superp_conn_lookup() - the connection a received packet belongs to.
 * @sdev: the receiving device.
 * @dcid: the packet's DCID (untrusted: any value).
 *
 * The receive path's entry point: one bounds check, one load, no lock.
 * The caller must hold rcu_read_lock() (softirq does) and may use the
 * entry until it leaves the read-side section; it then takes the entry's
 * lock to run the engine, and must expect the connection to be broken
 * (deleted connections are aborted before their grace period ends).
 *
 * Return: the entry, or NULL when no connection has that local CID.
 */
struct superp_conn_entry *superp_conn_lookup(struct superp_dev *sdev, u16 dcid)
{
	struct superp_conn_table *t = rcu_dereference(sdev->conns->table);

	/* Only looped packets come from the loopback's own address. */
	if (unlikely(dcid == SUPERP_LCID_LOOP))
		return rcu_dereference(sdev->conns->loop);
	if (unlikely(!t || dcid >= t->size))
		return NULL;
	return rcu_dereference(t->slot[array_index_nospec(dcid, t->size)]);
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_lookup);

/* The SUPERp-lite hash key of a peer address of encapsulation @encap. */
static u32 superp_lite_key(u8 encap, const void *addr)
{
	switch (encap) {
	case SUPERP_ENCAP_SUNH:
		return *(const u16 *)addr;
	case SUPERP_ENCAP_UDP4:
		return (__force u32)*(const __be32 *)addr;
	default:
		return ipv6_addr_hash(addr);
	}
}

/* Do @a and the addresses @local and @remote name the same node pair? */
static bool superp_lite_pair(const struct superp_conn_addr *a, u8 encap,
			     const void *local, const void *remote)
{
	if (a->encap != encap)
		return false;
	switch (encap) {
	case SUPERP_ENCAP_SUNH:
		return a->local.sunh == *(const u16 *)local &&
		       a->remote.sunh == *(const u16 *)remote;
	case SUPERP_ENCAP_UDP4:
		return a->local.ip4 == *(const __be32 *)local &&
		       a->remote.ip4 == *(const __be32 *)remote;
	default:
		return ipv6_addr_equal(&a->local.ip6, local) &&
		       ipv6_addr_equal(&a->remote.ip6, remote);
	}
}

/**
 * superp_conn_lookup_lite() - the SUPERp-lite connection a packet from
 * @src belongs to, found by its source and destination address (a lite
 * packet has no DCID).
 * @sdev: the receiving device.
 * @src: the packet's encapsulation and addresses.
 *
 * Context: rcu_read_lock(), as superp_conn_lookup().
 * Return: the entry, or NULL when no lite connection joins the two nodes.
 */
struct superp_conn_entry *superp_conn_lookup_lite(struct superp_dev *sdev,
						  const struct superp_rx_src *src)
{
	struct superp_conns *cs = sdev->conns;
	struct superp_conn_entry *e;

	if (!READ_ONCE(cs->nlite))
		return NULL;
	hash_for_each_possible_rcu(cs->lite, e, lite_node,
				   superp_lite_key(src->encap, &src->addr))
		if (superp_lite_pair(&e->addr, src->encap, &src->dst,
				     &src->addr))
			return e;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_lookup_lite);

/*
 * Nothing on the wire tells a lite packet from a full one: a lite
 * connection must be the only connection between its two nodes in its
 * encapsulation (the spec: "at most one connection between any two
 * nodes"), and a full one cannot join a pair that has a lite one.
 */
static int superp_lite_check(struct superp_conn_table *t,
			     const struct superp_conn_addr *addr,
			     struct netlink_ext_ack *extack)
{
	struct superp_conn_entry *e;
	u32 i;

	for (i = 0; i < t->size; i++) {
		e = rcu_dereference_protected(t->slot[i], true);
		if (!e || !superp_lite_pair(&e->addr, addr->encap,
					    &addr->local, &addr->remote))
			continue;
		if (!addr->lite && !e->addr.lite)
			continue;
		if (e->addr.lite)
			NL_SET_ERR_MSG(extack,
				       "a lite connection joins these two nodes already: at most one connection between them");
		else
			NL_SET_ERR_MSG(extack,
				       "a lite connection must be the only one between two nodes, and a connection joins them already");
		return -EEXIST;
	}
	return 0;
}

/**
 * superp_conn_add() - create a connection and publish it.
 * @sdev: the device.
 * @lcid: local CID, below the device's pdl_conn_per_xpu.
 * @rcid: the peer's CID.
 * @addr: encapsulation and addresses (validated by the caller).
 * @p: parameters (validated by the caller; pdl_conn_per_xpu is ignored,
 *	the table's size is used).
 * @extack: for the reason of a refusal.
 *
 * Return: 0, -ERANGE for a CID beyond the table, -EEXIST for a CID in use
 * or a second connection between two nodes where one is lite, -EINVAL for
 * parameters the engine refuses (or a lite connection without
 * tal_transaction_timeout, or to this node itself), or -ENOMEM.
 */
int superp_conn_add(struct superp_dev *sdev, u16 lcid, u16 rcid,
		    const struct superp_conn_addr *addr,
		    const struct superp_params *p,
		    struct netlink_ext_ack *extack)
{
	struct superp_conns *cs = sdev->conns;
	struct superp_params params = *p;
	struct superp_conn_entry *e;
	struct superp_conn_table *t;
	/* A restarted peer must not meet our old state unnoticed. */
	unsigned int flags = SUPERP_CONN_HELLO;
	const char *why;
	int err;

	if (addr->ordered & SUPERP_ORDERED_RX)
		flags |= SUPERP_CONN_ORDERED_RX;
	if (addr->ordered & SUPERP_ORDERED_TX)
		flags |= SUPERP_CONN_ORDERED_TX;
	if (addr->lite) {
		/* The timer is all that notices a lost frame: never a hang. */
		if (!p->tal_transaction_timeout) {
			NL_SET_ERR_MSG(extack,
				       "a lite connection needs tal_transaction_timeout (its only loss detector)");
			return -EINVAL;
		}
		if (superp_loop_conn(addr)) {
			NL_SET_ERR_MSG(extack,
				       "a lite connection needs a peer: not to this node itself");
			return -EINVAL;
		}
		flags |= SUPERP_CONN_LITE;
	}
	e = superp_conn_entry_new(sdev, addr, p->tal_trans_window, &err);
	if (!e)
		return err;

	mutex_lock(&cs->lock);
	t = superp_ct(cs);
	if (lcid >= t->size) {
		NL_SET_ERR_MSG(extack,
			       "local CID not below the device's pdl_conn_per_xpu");
		err = -ERANGE;
		goto unlock;
	}
	if (rcu_access_pointer(t->slot[lcid])) {
		NL_SET_ERR_MSG(extack, "local CID in use");
		err = -EEXIST;
		goto unlock;
	}
	err = superp_lite_check(t, addr, extack);
	if (err)
		goto unlock;
	params.pdl_conn_per_xpu = t->size;
	err = superp_conn_init_budget(&e->conn, &cs->budget, &params,
				      cs->users->engine, NULL, lcid,
				      rcid, flags, &why);
	if (err) {
		/* Names the parameter, or says the budget is exhausted. */
		if (extack)
			extack->_msg = why;
		goto unlock;
	}
	rcu_assign_pointer(t->slot[lcid], e);
	cs->count++;
	if (addr->lite) {
		hash_add_rcu(cs->lite, &e->lite_node,
			     superp_lite_key(addr->encap, &addr->remote));
		WRITE_ONCE(cs->nlite, cs->nlite + 1);
	}
	e = NULL;
unlock:
	mutex_unlock(&cs->lock);
	if (e)
		superp_conn_entry_discard(e);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_add);

/**
 * superp_conn_loop_add() - give a device its implicit loopback connection.
 * @sdev: the device, before it is registered.
 *
 * QPs whose destination is one of the device's own addresses bind to it
 * when no connection was added toward that address (superp-admin.rst,
 * "Loopback"), so that both ends of a program on one node need no
 * configuration. It has the defaults' parameters but a 1 s
 * retransmission timeout and the most retransmissions, ordered both ways,
 * and
 * lives as long as the device: outside the CID table (CID
 * SUPERP_LCID_LOOP, which netlink cannot name) and the connection count,
 * it cannot be deleted and does not keep pdl_conn_per_xpu from changing.
 *
 * Return: 0, -EINVAL when the defaults are refused, or -ENOMEM.
 */
int superp_conn_loop_add(struct superp_dev *sdev)
{
	struct superp_conn_addr a = {
		.encap = SUPERP_ENCAP_UDP4,
		.ordered = SUPERP_ORDERED_RX | SUPERP_ORDERED_TX,
		.local.ip4 = htonl(INADDR_LOOPBACK),
		.remote.ip4 = htonl(INADDR_LOOPBACK),
	};
	struct superp_conns *cs = sdev->conns;
	struct superp_params params;
	struct superp_conn_entry *e;
	const char *why;
	int err;

	e = superp_conn_entry_new(sdev, &a, cs->defaults.tal_trans_window,
				  &err);
	if (!e)
		return err;
	mutex_lock(&cs->lock);
	params = cs->defaults;
	params.pdl_conn_per_xpu = superp_ct(cs)->size;
	/*
	 * Nothing loses its packets (a full loop queue pushes back), so a
	 * retransmission means a delayed work item, never a loss: wait long,
	 * and never call the node unreachable from itself for a stall.
	 */
	params.pdl_retrans_time_out = SUPERP_LOOP_RTO_US;
	params.pdl_max_rtx = SUPERP_LOOP_MAX_RTX;
	err = superp_conn_init_budget(&e->conn, &cs->budget, &params,
				      cs->users->engine, NULL, SUPERP_LCID_LOOP,
				      SUPERP_LCID_LOOP,
				      SUPERP_CONN_HELLO | SUPERP_CONN_ORDERED_RX |
				      SUPERP_CONN_ORDERED_TX, &why);
	if (!err)
		rcu_assign_pointer(cs->loop, e);
	mutex_unlock(&cs->lock);
	if (err)
		superp_conn_entry_discard(e);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_loop_add);

/**
 * superp_conn_loop() - the implicit loopback connection, under
 * superp_conns_lock().
 * @sdev: the device.
 *
 * Return: the entry, or NULL before superp_conn_loop_add().
 */
struct superp_conn_entry *superp_conn_loop(struct superp_dev *sdev)
{
	return rcu_dereference_protected(sdev->conns->loop,
					 lockdep_is_held(&sdev->conns->lock));
}

/**
 * superp_conns_lock() - hold the device's connections still (no add, no
 * delete) while superp_conn_at() walks them.
 * @sdev: the device.
 */
void superp_conns_lock(struct superp_dev *sdev)
{
	mutex_lock(&sdev->conns->lock);
}

void superp_conns_unlock(struct superp_dev *sdev)
{
	mutex_unlock(&sdev->conns->lock);
}

/**
 * superp_conn_at() - the connection of local CID @i, under
 * superp_conns_lock().
 * @sdev: the device.
 * @i: the local CID.
 * @size: set to the table's size (CIDs are below it).
 *
 * Return: the entry or NULL.
 */
struct superp_conn_entry *superp_conn_at(struct superp_dev *sdev, u32 i,
					 u32 *size)
{
	struct superp_conns *cs = sdev->conns;
	struct superp_conn_table *t = superp_ct(cs);

	*size = t->size;
	if (i >= t->size)
		return NULL;
	return rcu_dereference_protected(t->slot[i],
					 lockdep_is_held(&cs->lock));
}

/**
 * superp_conn_del() - unpublish a connection and free it after a grace
 * period.
 * @sdev: the device.
 * @lcid: its local CID.
 *
 * The connection is aborted first (pending transactions fail with
 * -ECONNRESET, and the engine reports conn_broken unless it was broken
 * already); nothing is sent to the peer. Sleeps for a grace period.
 *
 * Return: 0 or -ENOENT.
 */
int superp_conn_del(struct superp_dev *sdev, u16 lcid)
{
	struct superp_conns *cs = sdev->conns;
	struct superp_conn_entry *e = NULL;
	struct superp_conn_table *t;

	mutex_lock(&cs->lock);
	t = superp_ct(cs);
	if (lcid < t->size)
		e = rcu_dereference_protected(t->slot[lcid],
					      lockdep_is_held(&cs->lock));
	if (e) {
		RCU_INIT_POINTER(t->slot[lcid], NULL);
		cs->count--;
		if (e->addr.lite) {
			hash_del_rcu(&e->lite_node);
			WRITE_ONCE(cs->nlite, cs->nlite - 1);
		}
		/* Readers that still find it see it broken and drop. */
		spin_lock_bh(&e->lock);
		superp_conn_abort(&e->conn, -ECONNRESET);
		superp_stats_add(&cs->gone, superp_conn_stats(&e->conn));
		spin_unlock_bh(&e->lock);
	}
	mutex_unlock(&cs->lock);
	if (!e)
		return -ENOENT;
	cs->users->unbind_all(e);
	synchronize_rcu();
	superp_conn_entry_free(e);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_del);

/**
 * superp_conns_set_defaults() - change the parameters of new connections.
 * @sdev: the device.
 * @p: the new defaults, already validated.
 * @extack: for the reason of a refusal.
 *
 * A new pdl_conn_per_xpu replaces the (empty) table whole.
 *
 * Return: 0, -EBUSY when pdl_conn_per_xpu changes while connections exist,
 * or -ENOMEM.
 */
int superp_conns_set_defaults(struct superp_dev *sdev,
			      const struct superp_params *p,
			      struct netlink_ext_ack *extack)
{
	struct superp_conns *cs = sdev->conns;
	struct superp_conn_table *t, *old;
	int err = 0;

	mutex_lock(&cs->lock);
	old = superp_ct(cs);
	if (p->pdl_conn_per_xpu != old->size) {
		if (cs->count) {
			NL_SET_ERR_MSG(extack,
				       "pdl_conn_per_xpu changes only while the device has no connection");
			err = -EBUSY;
			goto unlock;
		}
		t = superp_ct_alloc(p->pdl_conn_per_xpu);
		if (!t) {
			err = -ENOMEM;
			goto unlock;
		}
		rcu_assign_pointer(cs->table, t);
		kfree_rcu(old, rcu);
	}
	cs->defaults = *p;
unlock:
	mutex_unlock(&cs->lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conns_set_defaults);

/* The device's connection memory: its limit (0: none) and bytes in use. */
void superp_conns_mem(struct superp_dev *sdev, u64 *limit, u64 *used)
{
	struct superp_conns *cs = sdev->conns;

	*limit = READ_ONCE(cs->budget.limit);
	*used = atomic_long_read(&cs->budget.used);
}

/*
 * A new limit applies to connections added from now on; the ones that
 * exist keep their memory even above it.
 */
void superp_conns_set_mem_limit(struct superp_dev *sdev, u64 limit)
{
	struct superp_conns *cs = sdev->conns;

	mutex_lock(&cs->lock);
	WRITE_ONCE(cs->budget.limit, limit);
	mutex_unlock(&cs->lock);
}

/* The entry of @lcid; under cs->lock. */
static struct superp_conn_entry *superp_ct_get(struct superp_conns *cs,
					       u32 lcid)
{
	struct superp_conn_table *t = superp_ct(cs);

	if (lcid >= t->size)
		return NULL;
	return rcu_dereference_protected(t->slot[lcid],
					 lockdep_is_held(&cs->lock));
}

/* Hard (@soft false) or soft shutdown of @lcid's connection. */
static int superp_conn_stop_cid(struct superp_dev *sdev, u16 lcid, bool soft)
{
	struct superp_conns *cs = sdev->conns;
	struct superp_conn_entry *e;
	int err = -ENOENT;

	mutex_lock(&cs->lock);
	e = superp_ct_get(cs, lcid);
	if (e) {
		spin_lock_bh(&e->lock);
		if (soft) {
			err = superp_conn_shutdown(&e->conn, ktime_get_ns());
		} else {
			err = e->conn.state == SUPERP_ST_BROKEN ? -ENOTCONN : 0;
			superp_conn_abort(&e->conn, -ECONNRESET);
		}
		spin_unlock_bh(&e->lock);
	}
	mutex_unlock(&cs->lock);
	return err;
}

/**
 * superp_conn_abort_cid() - hard shutdown: pending work fails, the
 * connection is broken and stays installed until deleted.
 * @sdev: the device.
 * @lcid: the connection's local CID.
 *
 * Return: 0, -ENOENT, or -ENOTCONN when it was broken already.
 */
int superp_conn_abort_cid(struct superp_dev *sdev, u16 lcid)
{
	return superp_conn_stop_cid(sdev, lcid, false);
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_abort_cid);

/**
 * superp_conn_shutdown_cid() - soft shutdown: the spec's Last NULL
 * procedure; the connection ends quiescent (SUPERP_EV_QUIESCENT).
 * @sdev: the device.
 * @lcid: the connection's local CID.
 *
 * Return: 0, -ENOENT, or -EINVAL when the connection is not up.
 */
int superp_conn_shutdown_cid(struct superp_dev *sdev, u16 lcid)
{
	return superp_conn_stop_cid(sdev, lcid, true);
}

/**
 * superp_conn_info() - a consistent copy of a connection's settings,
 * state and counters.
 * @sdev: the device.
 * @lcid: in: the local CID (with @next, the first one to consider);
 *	out: the CID found.
 * @next: find the first connection at or after *@lcid.
 * @ci: the copy.
 *
 * Return: 0 or -ENOENT.
 */
int superp_conn_info(struct superp_dev *sdev, u32 *lcid, bool next,
		     struct superp_conn_info *ci)
{
	struct superp_conns *cs = sdev->conns;
	struct superp_conn_entry *e = NULL;
	u32 i = *lcid;

	mutex_lock(&cs->lock);
	for (; i < superp_ct(cs)->size; i++) {
		e = superp_ct_get(cs, i);
		if (e || !next)
			break;
	}
	/* The implicit loopback comes after the table. */
	if (!e && (i == SUPERP_LCID_LOOP || (next && i < SUPERP_LCID_LOOP))) {
		e = superp_conn_loop(sdev);
		i = SUPERP_LCID_LOOP;
	}
	if (e) {
		*lcid = i;
		ci->addr = e->addr;
		spin_lock_bh(&e->lock);
		ci->lcid = e->conn.local_cid;
		ci->rcid = e->conn.remote_cid;
		ci->state = e->conn.state;
		ci->p = e->conn.cold->p;
		ci->stats = *superp_conn_stats(&e->conn);
		memcpy(ci->events, e->conn.cold->events, sizeof(ci->events));
		spin_unlock_bh(&e->lock);
	}
	mutex_unlock(&cs->lock);
	return e ? 0 : -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_info);

/**
 * superp_conns_defaults() - the device's defaults and connection count.
 * @sdev: the device.
 * @p: the defaults.
 *
 * Return: the number of connections installed.
 */
u32 superp_conns_defaults(struct superp_dev *sdev, struct superp_params *p)
{
	struct superp_conns *cs = sdev->conns;
	u32 n;

	mutex_lock(&cs->lock);
	*p = cs->defaults;
	n = cs->count;
	mutex_unlock(&cs->lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conns_defaults);

/* Add every counter of @s to @sum (both plain arrays of u64). */
void superp_stats_add(struct superp_stats *sum, const struct superp_stats *s)
{
	u64 *d = (u64 *)sum;
	const u64 *v = (const u64 *)s;
	size_t i;

	for (i = 0; i < sizeof(*s) / sizeof(u64); i++)
		d[i] += v[i];
}

/**
 * superp_conns_stats() - the device's totals over all its connections.
 * @sdev: the device.
 * @sum: filled with the deleted connections' counters plus those of every
 *	installed one, each read under its own lock.
 *
 * Holds the table's mutex (no connection is added or folded meanwhile)
 * and each entry's lock only for the copy: the data path is not stopped.
 */
void superp_conns_stats(struct superp_dev *sdev, struct superp_stats *sum)
{
	struct superp_conns *cs = sdev->conns;
	struct superp_conn_entry *e;
	struct superp_stats s;
	u32 i, size = 1;

	mutex_lock(&cs->lock);
	*sum = cs->gone;
	for (i = 0; i < size; i++) {
		e = superp_conn_at(sdev, i, &size);
		if (!e)
			continue;
		spin_lock_bh(&e->lock);
		s = *superp_conn_stats(&e->conn);
		spin_unlock_bh(&e->lock);
		superp_stats_add(sum, &s);
	}
	e = superp_conn_loop(sdev);
	if (e) {
		spin_lock_bh(&e->lock);
		s = *superp_conn_stats(&e->conn);
		spin_unlock_bh(&e->lock);
		superp_stats_add(sum, &s);
	}
	mutex_unlock(&cs->lock);
}
