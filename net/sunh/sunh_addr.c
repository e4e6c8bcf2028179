// SPDX-License-Identifier: GPL-2.0
/*
 * SUNH addresses of this node: a node owns the SUNH address of every IP
 * address it has in the SUPERp subnet (weak host model, as for IP).
 */
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include "sunh_private.h"

/**
 * sunh_addr_is_local() - does this namespace own a SUNH address?
 * @net: namespace
 * @d: its domain
 * @addr: SUNH address
 *
 * Context: rcu_read_lock().
 * Return: true if the decompressed IP address is configured on a device.
 */
bool sunh_addr_is_local(struct net *net, const struct sunh_domain *d,
			u16 addr)
{
	if (d->subnet.family == AF_INET)
		return __ip_dev_find(net, sunh_addr_to_ip4(&d->subnet, addr),
				     false);
#if IS_ENABLED(CONFIG_IPV6)
	{
		struct in6_addr ip;

		sunh_addr_to_ip6(&d->subnet, addr, &ip);
		return ipv6_chk_addr(net, &ip, NULL, 0);
	}
#else
	return false;
#endif
}

/**
 * sunh_dev_addr() - the SUNH address of a device
 * @net: namespace of @dev
 * @d: the domain
 * @dev: the device
 * @addr: its address: the first IP address of @dev in the subnet
 *
 * Context: rcu_read_lock().
 * Return: 0 or -EADDRNOTAVAIL.
 */
int sunh_dev_addr(struct net *net, const struct sunh_domain *d,
		  const struct net_device *dev, u16 *addr)
{
	if (d->subnet.family == AF_INET) {
		const struct in_device *in_dev = __in_dev_get_rcu(dev);
		const struct in_ifaddr *ifa;

		if (!in_dev)
			return -EADDRNOTAVAIL;
		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			if (!sunh_ip4_to_addr(&d->subnet, ifa->ifa_local, addr))
				return 0;
		}
		return -EADDRNOTAVAIL;
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		struct inet6_dev *idev = __in6_dev_get(dev);
		const struct inet6_ifaddr *ifp;

		if (!idev)
			return -EADDRNOTAVAIL;
		/* The receive path asks per frame: walk under RCU, no lock. */
		list_for_each_entry_rcu(ifp, &idev->addr_list, if_list) {
			if (READ_ONCE(ifp->flags) & IFA_F_TENTATIVE)
				continue;
			if (!sunh_ip6_to_addr(&d->subnet, &ifp->addr, addr))
				return 0;
		}
		return -EADDRNOTAVAIL;
	}
#else
	return -EADDRNOTAVAIL;
#endif
}

/**
 * sunh_local_addr() - the SUNH address of a device in its namespace
 * @net: the namespace
 * @dev: the device
 * @addr: its SUNH address
 *
 * For upper protocols (e.g. to know the local address of a port).
 *
 * Return: 0, -ENETUNREACH (no subnet configured) or -EADDRNOTAVAIL (no
 * IP address of @dev in the subnet).
 */
int sunh_local_addr(struct net *net, const struct net_device *dev, u16 *addr)
{
	struct sunh_domain *d;
	int err = -ENETUNREACH;

	rcu_read_lock();
	d = rcu_dereference(sunh_pernet(net)->domain);
	if (d)
		err = sunh_dev_addr(net, d, dev, addr);
	rcu_read_unlock();
	return err;
}
EXPORT_SYMBOL_GPL(sunh_local_addr);
