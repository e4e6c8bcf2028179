// SPDX-License-Identifier: GPL-2.0
/*
 * SUNH forwarding table: an array of 2^addr_bits entries indexed by the
 * destination address. Readers use RCU; writers (netlink, the netdev
 * notifier, the ageing work, and the receive and transmit paths when they
 * learn or resolve an entry) take the domain's spinlock. An entry is never
 * changed once published, only replaced. Every change bumps the domain's
 * generation, which netlink dumps check (NLM_F_DUMP_INTR).
 */
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <kunit/visibility.h>
#include "sunh_private.h"

/**
 * sunh_domain_alloc() - a new, empty domain for a subnet
 * @s: the subnet (already checked)
 *
 * Return: the domain or NULL.
 */
struct sunh_domain *sunh_domain_alloc(const struct sunh_subnet *s)
{
	unsigned int size = 1U << s->addr_bits;
	struct sunh_domain *d;

	d = kvzalloc(struct_size(d, routes, size), GFP_KERNEL_ACCOUNT);
	if (!d)
		return NULL;
	d->subnet = *s;
	d->size = size;
	spin_lock_init(&d->lock);
	INIT_LIST_HEAD(&d->dynamic);
	return d;
}
EXPORT_SYMBOL_IF_KUNIT(sunh_domain_alloc);

static void sunh_route_free(struct sunh_route *rt)
{
	netdev_put(rt->dev, &rt->dev_tracker);
	kfree(rt);
}

static void sunh_route_free_rcu(struct rcu_head *head)
{
	sunh_route_free(container_of(head, struct sunh_route, rcu));
}

static void sunh_domain_free_rcu(struct rcu_head *head)
{
	struct sunh_domain *d = container_of(head, struct sunh_domain, rcu);
	struct sunh_route *rt;
	unsigned int i;

	for (i = 0; i < d->size; i++) {
		rt = rcu_dereference_protected(d->routes[i], 1);
		if (rt)
			sunh_route_free(rt);
	}
	kvfree(d);
}

/**
 * sunh_domain_release() - free a domain and its entries after a grace period
 * @d: a domain no longer reachable by new readers (may be NULL)
 */
void sunh_domain_release(struct sunh_domain *d)
{
	if (d)
		call_rcu(&d->rcu, sunh_domain_free_rcu);
}
EXPORT_SYMBOL_IF_KUNIT(sunh_domain_release);

/**
 * sunh_route_lookup() - the entry for a destination
 * @d: domain
 * @addr: destination address
 *
 * Context: rcu_read_lock() or the domain lock.
 * Return: the entry or NULL (also for an address outside the width).
 */
struct sunh_route *sunh_route_lookup(struct sunh_domain *d, u16 addr)
{
	if (addr >= d->size)
		return NULL;
	return rcu_dereference_check(d->routes[addr],
				     lockdep_is_held(&d->lock));
}
EXPORT_SYMBOL_IF_KUNIT(sunh_route_lookup);

bool sunh_route_is_dynamic(const struct sunh_route *rt)
{
	return rt->origin != SUNH_ORIGIN_STATIC;
}

/* May @new (of origin @origin) take the place of @old? */
static int sunh_route_may_replace(const struct sunh_route *old, u8 origin,
				  bool replace)
{
	if (!old)
		return 0;
	switch (origin) {
	case SUNH_ORIGIN_STATIC:
		return old->origin == SUNH_ORIGIN_STATIC && !replace ?
			-EEXIST : 0;
	case SUNH_ORIGIN_RESOLVED:
		return old->origin == SUNH_ORIGIN_STATIC ? -EEXIST : 0;
	default:
		/* Learning never overrides configured or resolved entries. */
		return old->origin == SUNH_ORIGIN_LEARNED ? 0 : -EEXIST;
	}
}

/**
 * sunh_route_insert() - add or replace an entry
 * @d: domain
 * @addr: destination address
 * @dev: output device, registered (dynamic entries: and running)
 * @ha: next-hop link-layer address, @dev->addr_len bytes
 * @origin: enum sunh_origin
 * @replace: a static entry may replace a static one
 *
 * Static entries are only replaced by static ones, resolved entries
 * replace learned ones, learned entries replace learned ones.
 *
 * Context: static entries (configuration): process context, the entry is
 * charged to the caller's memory cgroup; dynamic entries: any context.
 * Takes the domain lock (BH).
 * Return: 0, -EINVAL (address out of range), -EEXIST (a stronger entry
 * is present), -ENODEV (@dev is going away), -ENOMEM.
 */
int sunh_route_insert(struct sunh_domain *d, u16 addr, struct net_device *dev,
		      const u8 *ha, u8 origin, bool replace)
{
	struct sunh_route *rt, *old;
	int err;

	if (addr >= d->size || dev->addr_len > MAX_ADDR_LEN)
		return -EINVAL;
	rt = kzalloc(sizeof(*rt), origin == SUNH_ORIGIN_STATIC ?
		     GFP_KERNEL_ACCOUNT : GFP_ATOMIC);
	if (!rt)
		return -ENOMEM;
	rt->addr = addr;
	rt->origin = origin;
	rt->ha_len = dev->addr_len;
	memcpy(rt->ha, ha, dev->addr_len);
	rt->created = get_jiffies_64();
	rt->updated = jiffies;
	rt->checked = rt->updated;
	atomic64_set(&rt->packets, 0);
	atomic64_set(&rt->bytes, 0);

	spin_lock_bh(&d->lock);
	old = rcu_dereference_protected(d->routes[addr],
					lockdep_is_held(&d->lock));
	err = sunh_route_may_replace(old, origin, replace);
	/* The netdev notifier flushes under this lock after reg_state has
	 * left NETREG_REGISTERED (and after the device went down), so an
	 * entry inserted here is either seen by that flush or not inserted.
	 */
	if (!err && (dev->reg_state != NETREG_REGISTERED ||
		     (origin != SUNH_ORIGIN_STATIC && !netif_running(dev))))
		err = -ENODEV;
	if (err) {
		spin_unlock_bh(&d->lock);
		kfree(rt);
		return err;
	}
	rt->dev = dev;
	netdev_hold(dev, &rt->dev_tracker, GFP_ATOMIC);
	if (old && sunh_route_is_dynamic(old))
		list_del(&old->dyn_node);
	if (sunh_route_is_dynamic(rt))
		list_add_tail(&rt->dyn_node, &d->dynamic);
	rcu_assign_pointer(d->routes[addr], rt);
	atomic_inc(&d->gen);
	spin_unlock_bh(&d->lock);

	if (old)
		call_rcu(&old->rcu, sunh_route_free_rcu);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(sunh_route_insert);

/**
 * sunh_route_delete() - remove the entry for a destination
 * @d: domain
 * @addr: destination address
 *
 * Return: 0 or -ENOENT.
 */
int sunh_route_delete(struct sunh_domain *d, u16 addr)
{
	struct sunh_route *old;

	if (addr >= d->size)
		return -ENOENT;
	spin_lock_bh(&d->lock);
	old = rcu_dereference_protected(d->routes[addr],
					lockdep_is_held(&d->lock));
	RCU_INIT_POINTER(d->routes[addr], NULL);
	if (old) {
		if (sunh_route_is_dynamic(old))
			list_del(&old->dyn_node);
		atomic_inc(&d->gen);
	}
	spin_unlock_bh(&d->lock);
	if (!old)
		return -ENOENT;
	call_rcu(&old->rcu, sunh_route_free_rcu);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(sunh_route_delete);

/**
 * sunh_route_delete_entry() - remove an entry if it is still @rt
 * @d: domain
 * @addr: destination address
 * @rt: the entry found by the caller (RCU)
 *
 * Return: true if @rt was removed (not replaced meanwhile).
 */
bool sunh_route_delete_entry(struct sunh_domain *d, u16 addr,
			     struct sunh_route *rt)
{
	bool gone;

	if (addr >= d->size)
		return false;
	spin_lock_bh(&d->lock);
	gone = rcu_dereference_protected(d->routes[addr],
					 lockdep_is_held(&d->lock)) == rt;
	if (gone) {
		RCU_INIT_POINTER(d->routes[addr], NULL);
		if (sunh_route_is_dynamic(rt))
			list_del(&rt->dyn_node);
		atomic_inc(&d->gen);
	}
	spin_unlock_bh(&d->lock);
	if (gone)
		call_rcu(&rt->rcu, sunh_route_free_rcu);
	return gone;
}
EXPORT_SYMBOL_IF_KUNIT(sunh_route_delete_entry);

/* Remove @rt from its slot. Context: domain lock held. */
static void sunh_route_unlink(struct sunh_domain *d, struct sunh_route *rt)
{
	RCU_INIT_POINTER(d->routes[rt->addr], NULL);
	if (sunh_route_is_dynamic(rt))
		list_del(&rt->dyn_node);
	call_rcu(&rt->rcu, sunh_route_free_rcu);
}

/* Does a flush with these arguments remove @rt? */
static bool sunh_route_flushed(const struct sunh_route *rt,
			       const struct net_device *dev, bool all,
			       unsigned long max_age, unsigned long now)
{
	if (dev && rt->dev != dev)
		return false;
	if (!sunh_route_is_dynamic(rt))
		return all && !max_age;
	return !max_age ||
	       !time_before(now, READ_ONCE(rt->updated) + max_age);
}

/**
 * sunh_route_flush() - remove entries matching a filter
 * @d: domain
 * @dev: only entries through this device (NULL: any device)
 * @all: static entries too (else only resolved and learned ones)
 * @max_age: only dynamic entries older than this many jiffies (0: any age)
 *
 * Without @all only the list of dynamic entries is walked: ageing costs
 * what exists, not the size of the table.
 *
 * Return: the number of entries removed.
 */
unsigned int sunh_route_flush(struct sunh_domain *d,
			      const struct net_device *dev, bool all,
			      unsigned long max_age)
{
	unsigned long now = jiffies;
	struct sunh_route *rt, *tmp;
	unsigned int i, n = 0;

	spin_lock_bh(&d->lock);
	if (!all || max_age) {
		list_for_each_entry_safe(rt, tmp, &d->dynamic, dyn_node) {
			if (!sunh_route_flushed(rt, dev, all, max_age, now))
				continue;
			sunh_route_unlink(d, rt);
			n++;
		}
	} else {
		for (i = 0; i < d->size; i++) {
			rt = rcu_dereference_protected(d->routes[i],
						       lockdep_is_held(&d->lock));
			if (!rt || !sunh_route_flushed(rt, dev, all, 0, now))
				continue;
			sunh_route_unlink(d, rt);
			n++;
		}
	}
	if (n)
		atomic_inc(&d->gen);
	spin_unlock_bh(&d->lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(sunh_route_flush);
