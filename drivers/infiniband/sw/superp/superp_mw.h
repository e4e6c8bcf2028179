/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: memory windows (superp_mw.c): alloc and dealloc, binding,
 * invalidation, and remote access through a window's rkey.
 */
#ifndef SUPERP_MW_H
#define SUPERP_MW_H

#include <linux/seqlock.h>
#include <linux/spinlock.h>

#include "superp.h"
#include "superp_rma.h"

/*
 * What the key table and the data path see of a window: allocated apart
 * from the ib_mw (which the core frees as soon as dealloc_mw returns) and
 * freed after an RCU grace period. pd, type and base never change; the
 * binding (key, mr, addr, length, access, qp) changes under lock, inside
 * seq's write section (superp_mw.c).
 */
struct superp_win {
	spinlock_t		lock;	/* irqsave: bind, invalidate, dealloc */
	seqcount_spinlock_t	seq;	/* the binding, for lock-free readers */
	struct ib_pd		*pd;
	enum ib_mw_type		type;
	u32			base;	/* key at alloc: its upper 24 bits name it */
	u32			key;	/* what lookups match: bound key, or none */
	u32			last;	/* the last key bound (or base) */
	struct superp_mr	*mr;	/* held while bound with a length */
	u64			addr;
	u64			length;
	int			access;	/* IB_ACCESS_REMOTE_* */
	u64			qp;	/* type 2: serial of the QP bound to */
	struct rcu_head		rcu;
};

/* The core's object: rdma_zalloc_drv_obj() allocates it, dealloc frees. */
struct superp_mw {
	struct ib_mw		ibmw;
	struct superp_win	*win;
};

static inline struct superp_mw *to_smw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct superp_mw, ibmw);
}

/* A bind work request as the send queue keeps it (struct superp_send_wqe). */
struct superp_mw_bind {
	u32	mw_key;		/* a key of the window: names it */
	u32	new_key;	/* the key to bind; only its low byte may differ */
	u32	mr_lkey;
	int	access;
	u64	addr;
	u64	length;
};

/* superp_mw.c: verbs */
int superp_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int superp_dealloc_mw(struct ib_mw *ibmw);

/* superp_mw.c: local work requests (under the posting QP's sq.lock) */
enum ib_wc_status superp_mw_bind(struct superp_mr_table *t, struct ib_pd *pd,
				 u64 qp, const struct superp_mw_bind *b);
enum ib_wc_status superp_key_invalidate(struct superp_mr_table *t,
					struct ib_pd *pd, u64 qp, u32 key,
					bool remote);

/* superp_mw.c: remote access (superp_rma_check()) */
u32 superp_mw_rma_check(struct superp_mr_table *t,
			const struct superp_rma_scope *scope, u32 rkey,
			int need, u64 addr, u64 len, struct superp_mr **mrp);

#if IS_ENABLED(CONFIG_KUNIT)
int superp_win_alloc(struct superp_mr_table *t, struct ib_pd *pd,
		     enum ib_mw_type type, struct superp_win **wp);
void superp_win_free(struct superp_mr_table *t, struct superp_win *w);
#endif

#endif /* SUPERP_MW_H */
