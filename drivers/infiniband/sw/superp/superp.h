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
#define SUPERP_MAX_MR		0x10000	/* MR table size; keys use 24 bits */

struct superp_conns;

struct superp_dev {
	struct ib_device	ibdev;
	struct net_device	*ndev;		/* held with ndev_tracker */
	netdevice_tracker	ndev_tracker;
	struct list_head	list;		/* in superp_devs, under superp_devs_lock */
	atomic_t		pd_count;	/* PDs allocated, up to SUPERP_MAX_PD */
	struct xarray		mrs;		/* MR table, indexed by key >> 8 */
	u32			mr_next;	/* next index to try */
	atomic_t		mr_key;		/* low 8 bits of the next key */
	struct superp_conns	*conns;		/* superp_conn_table.c */
};

/* Every superp device; the netlink family looks devices up here by name. */
extern struct list_head superp_devs;
extern struct mutex superp_devs_lock;

/* Objects of the verbs; PDs and MRs are functional so far. */
struct superp_pd {
	struct ib_pd	ibpd;
};

struct superp_cq {
	struct ib_cq	ibcq;
};

struct superp_qp {
	struct ib_qp	ibqp;
};

struct superp_mr {
	struct ib_mr	ibmr;
	struct ib_umem	*umem;
	int		access;
	struct rcu_head	rcu;
};

struct superp_ucontext {
	struct ib_ucontext ibuc;
};

static inline struct superp_dev *to_sdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct superp_dev, ibdev);
}

static inline struct superp_mr *to_smr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct superp_mr, ibmr);
}

int superp_register_device(struct superp_dev *sdev, const char *name);
bool superp_is_ours(const struct ib_device *ibdev);
bool superp_port_active(const struct superp_dev *sdev);
void superp_dealloc_driver(struct ib_device *ibdev);

/* superp_mr.c */
void superp_mr_table_init(struct superp_dev *sdev);
void superp_mr_table_destroy(struct superp_dev *sdev);
struct ib_mr *superp_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				 u64 iova, int access, struct ib_udata *udata);
int superp_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);

#endif /* SUPERP_H */
