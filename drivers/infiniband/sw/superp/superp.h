/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: SUPERp RDMA device over any netdev. Private definitions shared
 * by the driver's files.
 */
#ifndef SUPERP_H
#define SUPERP_H

#include <linux/list.h>
#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>

#define SUPERP_DRV_NAME		"ib_superp"
#define SUPERP_LINK_TYPE	"superp"
#define SUPERP_PORT		1
#define SUPERP_GID_TBL_LEN	1024
#define SUPERP_MAX_PD		0x7ffc

struct superp_dev {
	struct ib_device	ibdev;
	struct net_device	*ndev;		/* held with ndev_tracker */
	netdevice_tracker	ndev_tracker;
	struct list_head	list;		/* in superp_devs, under superp_devs_lock */
};

/* Objects the RDMA core allocates for us; only PDs are functional so far. */
struct superp_pd {
	struct ib_pd	ibpd;
};

struct superp_cq {
	struct ib_cq	ibcq;
};

struct superp_qp {
	struct ib_qp	ibqp;
};

struct superp_ucontext {
	struct ib_ucontext ibuc;
};

static inline struct superp_dev *to_sdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct superp_dev, ibdev);
}

int superp_register_device(struct superp_dev *sdev, const char *name);
bool superp_is_ours(const struct ib_device *ibdev);
bool superp_port_active(const struct superp_dev *sdev);
void superp_dealloc_driver(struct ib_device *ibdev);

#endif /* SUPERP_H */
