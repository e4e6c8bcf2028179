// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: RC payloads as page pieces, for both sides: the bytes of an
 * SGE list walked through their MRs, a payload appended to an skb as page
 * fragments or copied, one operation header put at a packet's tail. The
 * initiator builds its requests with them (superp_rc_fill.c), the target
 * its replies (superp_rc_recv.c).
 *
 * Locking: nothing here takes a lock or keeps state. The callers run
 * under the bound entry's lock (superp_conn_entry.lock, BH; the lock
 * order is in superp_rc_bind.c); superp_rc_sge_walk() alone may be called
 * from any context.
 */
#include <linux/highmem.h>
#include <linux/net.h>
#include <linux/skbuff.h>

#include "superp.h"
#include "superp_op.h"
#include "superp_rc_payload.h"

/**
 * superp_rc_sge_walk - call @fn for each page piece of bytes
 * [@offset, @offset + @len) of an SGE list
 * @sdev: the device
 * @pd: the PD the keys must belong to
 * @sge: the list
 * @nsge: its entries
 * @offset: first byte, counted over the list
 * @len: bytes
 * @fn: superp_mr_walk()'s callback
 * @arg: for @fn
 *
 * Keys are looked up again (they may have been invalidated since the
 * post). Any context. Return: 0, -EFAULT (a key or range no longer valid,
 * or the list is shorter), or @fn's error.
 */
int superp_rc_sge_walk(struct superp_dev *sdev, struct ib_pd *pd,
		       const struct ib_sge *sge, u32 nsge, u64 offset, u32 len,
		       superp_seg_fn fn, void *arg)
{
	u32 i;

	for (i = 0; i < nsge && len; i++) {
		struct superp_mr *mr;
		u64 addr;
		u32 n;
		int err;

		if (offset >= sge[i].length) {
			offset -= sge[i].length;
			continue;
		}
		n = min_t(u64, len, sge[i].length - offset);
		addr = sge[i].addr + offset;
		offset = 0;
		if (superp_lkey_is_local_dma(pd, sge[i].lkey)) {
			err = superp_virt_walk(addr, n, fn, arg);
		} else {
			mr = superp_mr_get(&sdev->mrs, sge[i].lkey);
			if (!mr)
				return -EFAULT;
			if (mr->pd != pd || addr < mr->iova || n > mr->length ||
			    addr - mr->iova > mr->length - n)
				err = -EFAULT;
			else
				err = superp_mr_walk(mr, addr, n, fn, arg);
			superp_mr_put(mr);
		}
		if (err)
			return err;
		len -= n;
	}
	return len ? -EFAULT : 0;
}

/* superp_seg_fn: the piece appended to fill->skb, copied or as a frag. */
int superp_rc_piece_to_skb(void *arg, struct page *page, unsigned int off,
			   unsigned int len)
{
	struct superp_rc_skb_fill *fill = arg;
	struct sk_buff *skb = fill->skb;
	int i = skb_shinfo(skb)->nr_frags;

	if (fill->copy) {
		memcpy_from_page(skb_put(skb, len), page, off, len);
		return 0;
	}
	if (i >= MAX_SKB_FRAGS)
		return -EMSGSIZE;
	get_page(page);
	skb_add_rx_frag(skb, i, page, off, len, len);
	return 0;
}

/*
 * superp_seg_fn: may the piece's page be referenced by an skb? As for
 * sendpage: not a slab page, and one with a reference of its own (a tail
 * page of a non-compound higher-order allocation has none).
 */
int superp_rc_piece_check(void *arg, struct page *page, unsigned int off,
			  unsigned int len)
{
	return sendpage_ok(page) ? 0 : -EPERM;
}

/**
 * superp_rc_skb_append - append @len payload bytes, then @pad zeros
 * @skb: the packet being built
 * @len: bytes that @walk visits
 * @pad: zeros after them
 * @walk: visits the payload's pieces in order with (fn, arg)
 * @ctx: for @walk
 *
 * Pages go in as fragments, with a reference each, unless the payload is
 * small or padded (superp_rc_copies(): the owner's room() counted it), or
 * on a page that may not be referenced (slab memory, which room() cannot
 * know without walking): then it is copied, and only that last case may
 * grow the skb.
 *
 * Return: 0 or a negative errno (the packet is then lost and resent).
 */
int superp_rc_skb_append(struct sk_buff *skb, u32 len, u8 pad,
			 superp_rc_walk_fn walk, void *ctx)
{
	struct superp_rc_skb_fill fill = { .skb = skb };
	unsigned int room = len + pad;
	int err;

	fill.copy = superp_rc_copies(len, pad) ||
		    walk(ctx, superp_rc_piece_check, NULL);
	if (fill.copy && skb_tailroom(skb) < room &&
	    pskb_expand_head(skb, 0, room - skb_tailroom(skb), GFP_ATOMIC))
		return -ENOMEM;
	err = walk(ctx, superp_rc_piece_to_skb, &fill);
	if (err)
		return err;
	if (pad)
		skb_put_zero(skb, pad);
	return 0;
}

/**
 * superp_rc_put_op - one operation header at the tail of a packet
 * @skb: the packet being filled
 * @opcode: the operation's opcode
 * @op: its fields
 *
 * Return: 0, or -EINVAL when the header does not fit (or @opcode has
 * none) or does not encode.
 */
int superp_rc_put_op(struct sk_buff *skb, u8 opcode,
		     const struct superp_op *op)
{
	int hlen = superp_op_hlen(opcode);
	int err;

	if (hlen < 0 || hlen > skb_tailroom(skb))
		return -EINVAL;
	err = superp_op_encode(opcode, op, skb_put(skb, hlen));
	return err < 0 ? err : 0;	/* else the header's length */
}
