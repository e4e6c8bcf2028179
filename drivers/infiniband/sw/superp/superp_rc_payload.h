/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: RC payloads as page pieces, shared by the initiator
 * (superp_rc_fill.c) and the target (superp_rc_recv.c); the code is in
 * superp_rc_payload.c.
 *
 * Locking: none of their own; the callers hold the bound entry's lock
 * (superp_conn_entry.lock, BH), whose order superp_rc_bind.c gives.
 * superp_rc_sge_walk() may also be called from any context.
 */
#ifndef SUPERP_RC_PAYLOAD_H
#define SUPERP_RC_PAYLOAD_H

#include <linux/types.h>

#include "superp_rma.h"

struct superp_dev;
struct superp_op;

/* Shared by both sides: one operation header into a packet's tail. */
int superp_rc_put_op(struct sk_buff *skb, u8 opcode,
		     const struct superp_op *op);
/* Shared by both sides: SGE lists as page pieces. */
int superp_rc_sge_walk(struct superp_dev *sdev, struct ib_pd *pd,
		       const struct ib_sge *sge, u32 nsge, u64 offset, u32 len,
		       superp_seg_fn fn, void *arg);
int superp_rc_piece_to_skb(void *arg, struct page *page, unsigned int off,
			   unsigned int len);
int superp_rc_piece_check(void *arg, struct page *page, unsigned int off,
			  unsigned int len);
/* Small payloads are copied: a fragment costs more than the bytes. */
#define SUPERP_RC_COPY_MAX	256

/*
 * Payloads that superp_rc_skb_append() copies whatever their pages: small
 * ones, and padded ones (the zeros need linear room after them).
 */
static inline bool superp_rc_copies(u32 len, u8 pad)
{
	return len <= SUPERP_RC_COPY_MAX || pad;
}

/* Visits a payload's pieces in order: superp_mr_walk() over some range. */
typedef int (*superp_rc_walk_fn)(void *ctx, superp_seg_fn fn, void *arg);
int superp_rc_skb_append(struct sk_buff *skb, u32 len, u8 pad,
			 superp_rc_walk_fn walk, void *ctx);

/* For superp_rc_piece_to_skb(): copy or attach. */
struct superp_rc_skb_fill {
	struct sk_buff		*skb;
	bool			copy;
};

#endif /* SUPERP_RC_PAYLOAD_H */
