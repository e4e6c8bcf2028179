/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: completion queues (superp_cq.c). The verbs, and the internal
 * interface through which QPs and the data path deliver completions.
 */
#ifndef SUPERP_CQ_H
#define SUPERP_CQ_H

#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include <rdma/superp-abi.h>

#include "superp_mmap.h"

struct superp_cq {
	struct ib_cq	ibcq;
	spinlock_t	lock;		/* everything below; irqsave */
	struct ib_wc	*wc;		/* ring of ibcq.cqe entries */
	u32		head;		/* oldest entry */
	u32		count;		/* entries held */
	u8		armed;		/* 0, IB_CQ_SOLICITED or IB_CQ_NEXT_COMP */
	bool		error;		/* overflowed: takes nothing, for good */
	/* User CQs: the shared ring instead of wc (Documentation/provider.rst) */
	struct superp_cq_ring	*uring;
	struct superp_cqe	*ucqe;		/* uring's entries, ibcq.cqe */
	struct superp_ring_map	*umap;
	u32		uprod;		/* our producer index */
};

static inline struct superp_cq *to_scq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct superp_cq, ibcq);
}

/* What superp_cq_push() leaves its caller to do once it holds no lock. */
#define SUPERP_CQ_NOTIFY	BIT(0)	/* call the completion handler */
#define SUPERP_CQ_OVERFLOW	BIT(1)	/* overflowed now: raise IB_EVENT_CQ_ERR */
#define SUPERP_CQ_DROPPED	BIT(2)	/* not added: full, or in error */

/*
 * Delivering completions, any context. superp_cq_post() does everything;
 * a caller that holds a lock of its own (a QP's queue lock, to keep its
 * completions in order) pushes under it and kicks after dropping it. A
 * completion the CQ refuses is lost: the CQ is in error from then on and
 * its consumer learns of it from IB_EVENT_CQ_ERR and poll_cq, so the
 * producer has nothing more to do about it.
 */
int superp_cq_post(struct superp_cq *cq, const struct ib_wc *wc,
		   bool solicited);
unsigned int superp_cq_push(struct superp_cq *cq, const struct ib_wc *wc,
			    bool solicited);
void superp_cq_kick(struct superp_cq *cq, unsigned int todo);

#if IS_ENABLED(CONFIG_KUNIT)
bool superp_cq_uring_full(u32 prod, u32 cons, u32 n);
int superp_cq_uring_move(struct superp_cq *cq, u32 cons, u32 cqe,
			 struct superp_cqe *ucqe, u32 n);
#endif

/* Verbs */
int superp_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		     struct ib_udata *udata);
int superp_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int superp_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int superp_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc);
int superp_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);

#endif /* SUPERP_CQ_H */
