/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: SUPERp RDMA device over any netdev. Private definitions shared
 * by the driver's files.
 */
#ifndef SUPERP_H
#define SUPERP_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/refcount.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/superp_netlink.h>
#include <rdma/superp_wire.h>

/*
 * Kernel consumers hand ib_superp kernel virtual addresses as DMA addresses
 * (ib_uses_virt_dma()), and the driver reaches user memory through the
 * pages of an ib_umem: both need the core's virtual DMA support.
 */
#if !IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA)
#error "ib_superp needs CONFIG_INFINIBAND_VIRT_DMA (a kernel without CONFIG_HIGHMEM)"
#endif

/*
 * A request for something the device does not offer (an object type, a
 * flag, driver data it does not understand): the verb fails with
 * EOPNOTSUPP and says why in the kernel log, at most a few times in a
 * while, since any process can ask again and again.
 */
#define superp_refuse(ibdev, fmt, ...) \
	ibdev_info_ratelimited(ibdev, fmt, ##__VA_ARGS__)

#define SUPERP_DRV_NAME		"ib_superp"
#define SUPERP_LINK_TYPE	"superp"
#define SUPERP_PORT		1
#define SUPERP_GID_TBL_LEN	1024
#define SUPERP_MAX_PD		0x7ffc
#define SUPERP_MAX_MR		0x10000	/* MR table size: 16-bit index */
#define SUPERP_MAX_PKEYS	1	/* the default P_Key only */

/*
 * Limits of the verbs objects, announced by query_device and enforced where
 * each object is created (Documentation/superp-verbs.rst). A CQ ring of
 * SUPERP_MAX_CQE entries is about 5 MiB of kernel memory.
 */
#define SUPERP_MAX_CQ		16384
#define SUPERP_MAX_CQE		65535
#define SUPERP_MAX_QP		16384
#define SUPERP_MAX_QP_WR	16384
#define SUPERP_MAX_SGE		32
#define SUPERP_MAX_INLINE	(SUPERP_MAX_SGE * 16)	/* the SGE area */
#define SUPERP_MAX_RD_ATOM	16	/* READs and atomics in flight */
#define SUPERP_MAX_MSG_SIZE	0x80000000
#define SUPERP_MAX_FAST_REG_PAGES 512	/* pages of one FRWR MR */
#define SUPERP_MAX_SRQ		4096
#define SUPERP_MAX_SRQ_WR	16384
#define SUPERP_MAX_SRQ_SGE	SUPERP_MAX_SGE
#define SUPERP_MAX_AH		65536
/* Memory windows; they share the MR table's SUPERP_MAX_MR slots. */
#define SUPERP_MAX_MW		16384

/*
 * The lkey of every kernel PD (IBK_LOCAL_DMA_LKEY): an SGE with this key
 * names kernel virtual addresses directly. Never the key of an MR (see
 * superp_mr.c) and never valid from user space or as an rkey.
 */
#define SUPERP_LOCAL_DMA_LKEY	0

/*
 * Remote atomics (CAS and FADD, no masked ones) run on the target's memory
 * with the CPU's 64-bit cmpxchg (superp_mr_atomic()): atomic against the
 * CPU and every other agent that uses its atomics, hence IB_ATOMIC_GLOB.
 * Memory registration accepts remote atomic access exactly when the device
 * announces atomics (SUPERP_ATOMIC_ACCESS is what it adds to the accepted
 * flags); superp_mr.c checks that the two agree.
 */
#define SUPERP_ATOMIC_CAP	IB_ATOMIC_GLOB
#define SUPERP_ATOMIC_ACCESS	IB_ACCESS_REMOTE_ATOMIC

/*
 * The largest header stack beside a payload of the active MTU: IPv6 (40)
 * + UDP (8) is larger than SUNH (8); then PDL (16), TAL (8) and the largest
 * operation header (atomic compare-and-swap, 32). The active MTU is the
 * largest IB MTU that fits in the netdev MTU minus this.
 */
#define SUPERP_MAX_OP_HLEN	32
#define SUPERP_MAX_HDR_STACK	(40 + 8 + SUPERP_PDL_HLEN + SUPERP_TAL_HLEN + \
				 SUPERP_MAX_OP_HLEN)

/*
 * The largest IB MTU whose payload fits in a packet of @netdev_mtu bytes
 * beside the largest header stack (SUPERP_MAX_HDR_STACK), as rxe derives
 * its own; IB_MTU_256 if none does.
 */
static inline enum ib_mtu superp_active_mtu(unsigned int netdev_mtu)
{
	enum ib_mtu mtu;

	for (mtu = IB_MTU_4096; mtu > IB_MTU_256; mtu--)
		if (ib_mtu_enum_to_int(mtu) + SUPERP_MAX_HDR_STACK <= netdev_mtu)
			break;
	return mtu;
}

/* The MR table of a device; superp_mr.c describes keys and lifetimes. */
struct superp_mr_table {
	struct xarray	xa;		/* index -> complete MR, under RCU */
	u32		next;		/* cyclic allocation hint */
	u16		*gen;		/* per index: generation of its last key */
};

struct superp_conns;
struct superp_pkt;
struct superp_qp_type_ops;
struct superp_rx_src;

struct superp_dev {
	struct ib_device	ibdev;
	struct net_device	*ndev;		/* held with ndev_tracker */
	netdevice_tracker	ndev_tracker;
	/* In superp_devs, under superp_devs_lock (superp_main.c), from
	 * before registration to the end of superp_dealloc_driver().
	 */
	struct list_head	list;
	bool			registered;	/* under superp_devs_lock */
	bool			ndev_gone;	/* under superp_devs_lock */
	bool			port_active;	/* last state announced; RTNL */
	atomic_t		pd_count;	/* PDs allocated, up to SUPERP_MAX_PD */
	atomic_t		cq_count;	/* up to SUPERP_MAX_CQ */
	atomic_t		qp_count;	/* up to SUPERP_MAX_QP */
	atomic_t		srq_count;	/* up to SUPERP_MAX_SRQ */
	atomic_t		ah_count;	/* up to SUPERP_MAX_AH */
	atomic_t		mw_count;	/* up to SUPERP_MAX_MW */
	/* the last QP serial number given (struct superp_qp.serial) */
	atomic64_t		qp_serial;
	struct xarray		qps;		/* QPN -> QP (superp_qp.c) */
	struct xarray		ahs;		/* user AHs by number (superp_ah.c) */
	u32			qpn_next;	/* cyclic allocation hint */
	struct superp_mr_table	mrs;
	struct superp_conns	*conns;		/* superp_conn_table.c */
	/* what an RC and a UD QP's type does (struct superp_qp_type_ops) */
	const struct superp_qp_type_ops *qp_rc;
	const struct superp_qp_type_ops *qp_ud;
	/* superp_rx.c: the receive path's netdev -> device list (RCU) */
	struct hlist_node	rx_node;
	/* packets that reached no connection, by enum superp_drop_reason */
	atomic64_t		rx_drops[__SUPERP_DROP_MAX];
	/* every packet the receive path took for this device (identity) */
	atomic64_t		rx_packets;
	/*
	 * Datagrams (UD and GSI QPs): what the receive path hands to the QP
	 * type that takes them (set by the device, superp_layers.c), the
	 * datagrams it took, and those sent or lost on the way out.
	 */
	void (*dgram_rx)(struct superp_dev *sdev, struct sk_buff *skb,
			 const struct superp_rx_src *src,
			 const struct superp_pkt *p);
	atomic64_t		rx_datagrams;
	atomic64_t		tx_datagrams;
	atomic64_t		tx_dgram_drops;
	/* packets of connections to this node, on their way up (superp_loop.c) */
	struct sk_buff_head	loop_q;
	struct work_struct	loop_work;
	/* user send queues: doorbells rung, WQEs taken from the rings */
	atomic64_t		sq_doorbells;
	atomic64_t		sq_ring_wqes;
	/* CQs that overflowed and went into error (superp_cq.c) */
	atomic64_t		cq_overflows;
};

/* Objects of the verbs; PDs and MRs are functional so far. */
struct superp_pd {
	struct ib_pd	ibpd;
};

/*
 * A memory region. Everything the data path reads is set before the MR is
 * published in the table and does not change afterwards: key (equal to
 * ibmr.lkey and ibmr.rkey), pd, access, iova, length, umem, pages,
 * page_off. ibmr.pd is filled in by the core after registration returns:
 * use pd instead. Byte iova + x of the MR is byte page_off + x of the
 * memory that pages[] lists, one PAGE_SIZE page each (superp_mr_walk()).
 *
 * Fast-registration MRs (fast_reg) are the exception: key, iova, length,
 * page_off and access change with IB_WR_REG_MR and IB_WR_LOCAL_INV, and
 * pages[0..npages) with map_mr_sg, by the rules at the top of superp_mr.c;
 * pages[] itself (max_pages entries) never moves.
 */
struct superp_mr {
	struct ib_mr		ibmr;
	struct ib_pd		*pd;
	struct ib_umem		*umem;
	struct page		**pages;
	u64			iova;
	u64			length;
	unsigned int		page_off;	/* of iova in pages[0] */
	int			access;
	u32			key;	/* what lookups match */
	bool			fast_reg;
	bool			dma;	/* no pages: iova is a kernel address */
	u32			npages;		/* fast_reg: mapped by map_mr_sg */
	u32			max_pages;	/* fast_reg: size of pages[] */
	u32			fr_key;		/* fast_reg: last key registered */
	spinlock_t		fr_lock;	/* fast_reg: REG_MR vs LOCAL_INV */
	refcount_t		ref;	/* the table's, plus one per lookup */
	/* 1 + memory windows bound; 0 from deregistration on (superp_mw.c) */
	atomic_t		mw_binds;
	struct completion	unused;	/* ref reached zero */
	struct rcu_head		rcu;
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

#endif /* SUPERP_H */
