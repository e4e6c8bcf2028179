/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: remote memory access at the target (superp_rma.c): may a
 * peer's operation touch this memory, and the walk over the pages behind
 * an MR range that both placement (receive) and zero-copy transmit use.
 */
#ifndef SUPERP_RMA_H
#define SUPERP_RMA_H

#include <linux/skbuff.h>
#include <rdma/ib_verbs.h>

#include "superp_mr.h"

/* What a target QP allows: the PD its MRs must share, its access flags. */
struct superp_rma_scope {
	const struct ib_pd *pd;
	int qp_access;			/* IB_ACCESS_REMOTE_* of the QP */
	u64 qp;				/* its serial: type 2 windows' QP */
};

u32 superp_rma_grant(int access, u64 base, u64 length, int need, u64 addr,
		     u64 len);
u32 superp_rma_check(struct superp_mr_table *t,
		     const struct superp_rma_scope *scope, u32 rkey,
		     int need, u64 addr, u64 len, struct superp_mr **mrp);
enum ib_wc_status superp_terr_wc_status(u32 err);

/*
 * Called for each piece of a range, in order; a piece never crosses a page
 * boundary. Return 0 to go on, or an error that ends the walk.
 */
typedef int (*superp_seg_fn)(void *arg, struct page *page,
			     unsigned int off, unsigned int len);

/* Where superp_seg_from_skb() reads the next piece's bytes from. */
struct superp_skb_src {
	const struct sk_buff *skb;
	int offset;
};

int superp_seg_from_skb(void *arg, struct page *page, unsigned int off,
			unsigned int len);
int superp_virt_walk(u64 addr, u64 len, superp_seg_fn fn, void *arg);
int superp_mr_walk(struct superp_mr *mr, u64 addr, u64 len,
		   superp_seg_fn fn, void *arg);
int superp_mr_copy_from_skb(struct superp_mr *mr, u64 addr,
			    const struct sk_buff *skb, int offset, u32 len);
int superp_mr_copy_to_buf(struct superp_mr *mr, u64 addr, void *buf, u32 len);
u32 superp_mr_atomic(struct superp_mr *mr, u64 addr, u8 opcode, u64 operand,
		     u64 swap, u64 *orig);

#endif /* SUPERP_RMA_H */
