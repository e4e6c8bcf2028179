// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: module entry, `rdma link add ... type superp` and netdev events.
 *
 * Locking: superp_link_mutex serialises link creation (it is held across
 * ib_register_device(), which takes RTNL). superp_devs_lock is a leaf lock
 * that only guards the device list (module exit, and the netlink family's
 * lookups by name in superp_netlink.c). The netdev notifier
 * runs under RTNL and finds its device through the RDMA core's netdev map,
 * so it takes neither.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <rdma/rdma_netlink.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_netlink.h"

LIST_HEAD(superp_devs);
DEFINE_MUTEX(superp_devs_lock);	/* guards superp_devs (leaf) */
static DEFINE_MUTEX(superp_link_mutex);

/* The superp device on @ndev, with a reference, or NULL. */
static struct superp_dev *superp_get_by_netdev(struct net_device *ndev)
{
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	if (!ibdev)
		return NULL;
	if (!superp_is_ours(ibdev)) {
		ib_device_put(ibdev);
		return NULL;
	}
	return to_sdev(ibdev);
}

static int superp_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct superp_dev *sdev;
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

	mutex_lock(&superp_link_mutex);
	sdev = superp_get_by_netdev(ndev);
	if (sdev) {
		ib_device_put(&sdev->ibdev);
		err = -EEXIST;
		goto unlock;
	}

	sdev = ib_alloc_device(superp_dev, ibdev);
	if (!sdev) {
		err = -ENOMEM;
		goto unlock;
	}
	sdev->ndev = ndev;
	netdev_hold(ndev, &sdev->ndev_tracker, GFP_KERNEL);
	INIT_LIST_HEAD(&sdev->list);
	superp_mr_table_init(sdev);

	err = superp_conns_init(sdev);
	if (!err)
		err = superp_register_device(sdev, ibdev_name);
	if (err) {
		/* Calls superp_dealloc_driver(), which drops the netdev. */
		ib_dealloc_device(&sdev->ibdev);
		goto unlock;
	}
	mutex_lock(&superp_devs_lock);
	list_add_tail(&sdev->list, &superp_devs);
	mutex_unlock(&superp_devs_lock);
unlock:
	mutex_unlock(&superp_link_mutex);
	return err;
}

static struct rdma_link_ops superp_link_ops = {
	.type = SUPERP_LINK_TYPE,
	.newlink = superp_newlink,
};

/*
 * Called by the RDMA core when the device is unregistered, whichever way:
 * `rdma link delete`, the netdev going away, or module unload.
 */
void superp_dealloc_driver(struct ib_device *ibdev)
{
	struct superp_dev *sdev = to_sdev(ibdev);

	mutex_lock(&superp_devs_lock);
	list_del_init(&sdev->list);
	mutex_unlock(&superp_devs_lock);
	superp_conns_destroy(sdev);
	superp_mr_table_destroy(sdev);
	netdev_put(sdev->ndev, &sdev->ndev_tracker);
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

static int superp_netdev_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct superp_dev *sdev;

	sdev = superp_get_by_netdev(ndev);
	if (!sdev)
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_UNREGISTER:
		ib_unregister_device_queued(&sdev->ibdev);
		break;
	case NETDEV_UP:
	case NETDEV_CHANGE:
		superp_port_event(sdev, superp_port_active(sdev) ?
				  IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR);
		break;
	case NETDEV_DOWN:
		superp_port_event(sdev, IB_EVENT_PORT_ERR);
		break;
	}
	ib_device_put(&sdev->ibdev);
	return NOTIFY_DONE;
}

static struct notifier_block superp_netdev_nb = {
	.notifier_call = superp_netdev_event,
};

static int __init superp_init(void)
{
	int err;

	err = register_netdevice_notifier(&superp_netdev_nb);
	if (err)
		return err;
	err = superp_netlink_init();
	if (err) {
		unregister_netdevice_notifier(&superp_netdev_nb);
		return err;
	}
	rdma_link_register(&superp_link_ops);
	return 0;
}

static void __exit superp_exit(void)
{
	struct superp_dev *sdev;

	rdma_link_unregister(&superp_link_ops);

	/*
	 * Unregistering calls superp_dealloc_driver(), which unlinks sdev. A
	 * device being unregistered from the work queue (its netdev went away)
	 * is still listed: ib_unregister_device() waits for that to finish.
	 */
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
	superp_netlink_exit();
	/*
	 * Only now: unregistering the notifier replays DOWN and UNREGISTER
	 * for every netdev, which would have sent users a spurious port error
	 * before their device went away.
	 */
	unregister_netdevice_notifier(&superp_netdev_nb);
}

module_init(superp_init);
module_exit(superp_exit);

MODULE_DESCRIPTION("SUPERp (Scale UP EtheRnet protocol) RDMA driver");
MODULE_LICENSE("GPL");
MODULE_ALIAS_RDMA_LINK(SUPERP_LINK_TYPE);
