/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: the device, its list and its verbs (superp_main.c,
 * superp_verbs.c, superp_hw_stats.c), the top of the driver's layers.
 */
#ifndef SUPERP_DEV_H
#define SUPERP_DEV_H

#include "superp.h"

struct superp_conn_users;

/* Every superp device; the netlink family looks devices up here by name. */
extern struct list_head superp_devs;
extern struct mutex superp_devs_lock;

/* rdma statistic show link (superp_hw_stats.c) */
extern const struct ib_device_ops superp_hw_stats_ops;

/* superp_main.c: device life cycle */
int superp_newlink(const char *ibdev_name, struct net_device *ndev);
void superp_dealloc_driver(struct ib_device *ibdev);

/* superp_verbs.c: the verbs device */
int superp_register_device(struct superp_dev *sdev, const char *name);
bool superp_port_active(const struct superp_dev *sdev);

/* superp_layers.c: what the lower layers call above them */
int superp_dev_layers_init(struct superp_dev *sdev);
#if IS_ENABLED(CONFIG_KUNIT)
extern const struct superp_conn_users superp_dev_conn_users;
#endif

#endif /* SUPERP_DEV_H */
