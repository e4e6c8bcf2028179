// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: module entry, `rdma link add ... type superp` and netdev events.
 *
 * Device life cycle. superp_devs lists every device of ours from before its
 * registration until the very end of superp_dealloc_driver(); it is also
 * our netdev -> device map (the core's ib_device_get_by_netdev() returns
 * any driver's device on a netdev, e.g. rxe's beside ours). Listing before
 * registering means that no unregistration (rdma link delete, netdev
 * removal) can free a device that module exit would not find; unlisting
 * last means that an empty list at module exit leaves no driver code
 * running. A device that is listed but whose unregistration is under way
 * is waited for by ib_unregister_device() (the core's unregistration_lock).
 *
 * Locking:
 *  - superp_link_mutex serialises link creation with itself and with
 *    module exit. It is held across ib_register_device(), which takes RTNL,
 *    so the netdev notifier (under RTNL) never takes it.
 *  - superp_devs_lock guards superp_devs and each device's registered and
 *    ndev_gone flags. Lock order: the top of superp_rc_bind.c.
 *  - sdev->port_active is written by the notifier only, under RTNL.
 *  - The netlink family (superp_netlink.c) finds devices by name in
 *    superp_devs under superp_devs_lock and keeps one only through
 *    ib_device_try_get(), which fails until registration completes.
 *
 * A netdev can go away while its device is being registered: the notifier
 * then finds the device listed but not registered, cannot queue its
 * unregistration (the core would refuse a device it has not registered)
 * and sets ndev_gone instead; superp_newlink() unregisters the device as
 * soon as registration returns.
 */
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <rdma/rdma_netlink.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_dev.h"
#include "superp_encap.h"
#include "superp_mr.h"
#include "superp_netlink.h"
#include "superp_rx.h"

/* Every superp device, */
LIST_HEAD(superp_devs);
/* guarded by this mutex (process context only). */
DEFINE_MUTEX(superp_devs_lock);
static DEFINE_MUTEX(superp_link_mutex);

/* Our device on @ndev, or NULL. Caller holds superp_devs_lock. */
static struct superp_dev *superp_find_by_netdev(struct net_device *ndev)
{
	struct superp_dev *sdev;

	lockdep_assert_held(&superp_devs_lock);
	list_for_each_entry(sdev, &superp_devs, list)
		if (sdev->ndev == ndev)
			return sdev;
	return NULL;
}

/*
 * rdma link add NAME type superp netdev NDEV. Exported for the KUnit
 * suite, which attaches a device the way the netlink command does.
 */
int superp_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct superp_dev *sdev;
	bool gone;
	int err;

	if (ndev->type != ARPHRD_ETHER)
		return -EINVAL;
	/*
	 * Out of tree we have no driver ID, so libibverbs finds our provider
	 * by this name prefix: any other name would hide the device from
	 * user space.
	 */
	if (strncmp(ibdev_name, SUPERP_LINK_TYPE, strlen(SUPERP_LINK_TYPE))) {
		pr_warn_ratelimited("%s: device name %s does not start with \"%s\" (libibverbs matches the provider by name)\n",
				    SUPERP_DRV_NAME, ibdev_name,
				    SUPERP_LINK_TYPE);
		return -EINVAL;
	}

	sdev = ib_alloc_device(superp_dev, ibdev);
	if (!sdev)
		return -ENOMEM;
	err = superp_mr_table_init(&sdev->mrs);
	if (err) {
		ib_dealloc_device(&sdev->ibdev);	/* not listed: no dealloc_driver */
		return err;
	}
	sdev->ndev = ndev;
	INIT_HLIST_NODE(&sdev->rx_node);
	superp_loop_init(sdev);
	netdev_hold(ndev, &sdev->ndev_tracker, GFP_KERNEL);
	/* Keeps *sdev readable below even if someone unregisters it. */
	get_device(&sdev->ibdev.dev);

	mutex_lock(&superp_link_mutex);
	mutex_lock(&superp_devs_lock);
	if (superp_find_by_netdev(ndev)) {
		mutex_unlock(&superp_devs_lock);
		err = -EEXIST;
		goto err_unlisted;
	}
	sdev->port_active = superp_port_active(sdev);
	list_add_tail(&sdev->list, &superp_devs);
	mutex_unlock(&superp_devs_lock);

	err = superp_dev_layers_init(sdev);
	if (!err) {
		superp_rx_dev_add(sdev);
		err = superp_register_device(sdev, ibdev_name);
	}
	if (err) {
		/* Calls superp_dealloc_driver(): unlisted, netdev dropped. */
		ib_dealloc_device(&sdev->ibdev);
		goto out;
	}

	mutex_lock(&superp_devs_lock);
	sdev->registered = true;
	gone = sdev->ndev_gone;
	mutex_unlock(&superp_devs_lock);
	if (gone) {
		/* Harmless if a concurrent delete got there first. */
		ib_unregister_device(&sdev->ibdev);
		err = -ENODEV;
	}
out:
	mutex_unlock(&superp_link_mutex);
	put_device(&sdev->ibdev.dev);
	return err;

err_unlisted:
	mutex_unlock(&superp_link_mutex);
	put_device(&sdev->ibdev.dev);
	netdev_put(ndev, &sdev->ndev_tracker);
	superp_mr_table_destroy(&sdev->mrs);
	ib_dealloc_device(&sdev->ibdev);	/* not listed: no dealloc_driver */
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(superp_newlink);

static struct rdma_link_ops superp_link_ops = {
	.type = SUPERP_LINK_TYPE,
	.newlink = superp_newlink,
};

/*
 * Called by the RDMA core when the device is unregistered, whichever way
 * (`rdma link delete`, the netdev going away, module unload), or when its
 * registration failed. Unlisting is the last step: see the top of the file.
 */
void superp_dealloc_driver(struct ib_device *ibdev)
{
	struct superp_dev *sdev = to_sdev(ibdev);

	/* superp_conns_destroy()'s grace period ends the receive path's use */
	superp_rx_dev_del(sdev);
	superp_conns_destroy(sdev);
	superp_loop_destroy(sdev);
	superp_mr_table_destroy(&sdev->mrs);
	netdev_put(sdev->ndev, &sdev->ndev_tracker);
	mutex_lock(&superp_devs_lock);
	list_del_init(&sdev->list);
	mutex_unlock(&superp_devs_lock);
}

static void superp_port_event(struct superp_dev *sdev, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &sdev->ibdev,
		.element.port_num = SUPERP_PORT,
		.event = type,
	};

	ib_dispatch_event(&ev);
}

/* Under RTNL and superp_devs_lock; the device is registered and held. */
static void superp_port_changed(struct superp_dev *sdev)
{
	bool active = superp_port_active(sdev);

	/* One event per change of state, not one per netdev event. */
	if (active == sdev->port_active)
		return;
	sdev->port_active = active;
	superp_port_event(sdev, active ? IB_EVENT_PORT_ACTIVE :
			  IB_EVENT_PORT_ERR);
}

static int superp_netdev_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct superp_dev *sdev;

	if (event != NETDEV_UNREGISTER && event != NETDEV_UP &&
	    event != NETDEV_DOWN && event != NETDEV_CHANGE)
		return NOTIFY_DONE;

	mutex_lock(&superp_devs_lock);
	sdev = superp_find_by_netdev(ndev);
	if (!sdev)
		goto out;
	if (!sdev->registered) {
		/* superp_newlink() is registering it: leave it a note. */
		if (event == NETDEV_UNREGISTER)
			sdev->ndev_gone = true;
		else
			sdev->port_active = superp_port_active(sdev);
		goto out;
	}
	/* Fails only while the device is being unregistered: nothing to do. */
	if (!ib_device_try_get(&sdev->ibdev))
		goto out;
	if (event == NETDEV_UNREGISTER)
		ib_unregister_device_queued(&sdev->ibdev);
	else
		superp_port_changed(sdev);
	ib_device_put(&sdev->ibdev);
out:
	mutex_unlock(&superp_devs_lock);
	return NOTIFY_DONE;
}

static struct notifier_block superp_netdev_nb = {
	.notifier_call = superp_netdev_event,
};

static int __init superp_init(void)
{
	int err;

	err = superp_conn_cache_init();
	if (err)
		return err;
	/* Receivers first: until a device exists they find none and drop. */
	err = superp_sunh_init();
	if (err)
		goto err_cache;
	err = superp_udp_init();
	if (err)
		goto err_sunh;
	err = register_netdevice_notifier(&superp_netdev_nb);
	if (err)
		goto err_udp;
	err = superp_netlink_init();
	if (err)
		goto err_notifier;
	rdma_link_register(&superp_link_ops);
	return 0;

err_notifier:
	unregister_netdevice_notifier(&superp_netdev_nb);
err_udp:
	superp_udp_exit();
err_sunh:
	superp_sunh_exit();
err_cache:
	superp_conn_cache_exit();
	superp_conn_caches_destroy();
	return err;
}

static void __exit superp_exit(void)
{
	struct superp_dev *sdev;

	rdma_link_unregister(&superp_link_ops);

	/*
	 * No link creation runs from here on. Every device still listed is
	 * unregistered here, or, if its unregistration is already under way
	 * (its netdev went away), waited for by ib_unregister_device(); it
	 * unlists itself as the last step of superp_dealloc_driver().
	 */
	mutex_lock(&superp_link_mutex);
	for (;;) {
		mutex_lock(&superp_devs_lock);
		sdev = list_first_entry_or_null(&superp_devs, struct superp_dev, list);
		if (sdev)
			get_device(&sdev->ibdev.dev);
		mutex_unlock(&superp_devs_lock);
		if (!sdev)
			break;
		ib_unregister_device(&sdev->ibdev);
		put_device(&sdev->ibdev.dev);
	}
	mutex_unlock(&superp_link_mutex);
	superp_netlink_exit();
	/*
	 * Only now: unregistering the notifier replays DOWN and UNREGISTER
	 * for every netdev, which would have sent users a spurious port error
	 * before their device went away.
	 */
	unregister_netdevice_notifier(&superp_netdev_nb);
	superp_udp_exit();
	superp_sunh_exit();
	/* No connection is left: the entries' and engines' caches go last. */
	superp_conn_cache_exit();
	superp_conn_caches_destroy();
}

module_init(superp_init);
module_exit(superp_exit);

MODULE_DESCRIPTION("SUPERp (Scale UP EtheRnet protocol) RDMA driver");
MODULE_LICENSE("GPL");
MODULE_ALIAS_RDMA_LINK(SUPERP_LINK_TYPE);
