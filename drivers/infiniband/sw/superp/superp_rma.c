// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: remote memory access at the target.
 *
 * A peer names memory by rkey, address and length; the target QP that the
 * operation header names brings its PD and access flags. superp_rma_check()
 * decides, in the order below, and answers a refusal with the Transaction
 * Error code that the initiator turns into a work completion status
 * (superp_terr_wc_status(); the table is in Documentation/wire-format.rst):
 *
 *   1. the QP allows the access         else PROTECTION/ACCESS
 *   2. the key finds a published MR     else PROTECTION/BAD_RKEY
 *      (or a bound memory window: superp_mw_rma_check() goes on with
 *      the window's PD, rights and range, and hands back its MR)
 *   3. the MR is in the QP's PD         else PROTECTION/PD_MISMATCH
 *   4. the MR allows the access         else PROTECTION/ACCESS
 *   5. [addr, addr + len) inside it     else PROTECTION/BOUNDS
 *   6. atomics: 8 bytes, 8-aligned      else INVALID/ALIGN
 *
 * A zero-length RDMA Read or Write touches no memory and presents no key
 * to check: it is allowed with any rkey (as InfiniBand does). The QP's
 * access flags still apply.
 *
 * The pages behind an MR range are walked one piece per page
 * (superp_mr_walk()) from the MR's page array, in O(1) per page whatever
 * the MR's size: the receive path copies a packet's payload into them
 * (superp_mr_copy_from_skb()), the transmit path attaches them to an skb.
 * The caller holds the MR (superp_mr_get()) for the whole walk, which keeps
 * its pages pinned (see superp_mr.c). Kernel virtual mappings are taken per
 * page (kmap_local_page()), never across a walk.
 *
 * Atomics (superp_mr_atomic()) run on the MR's page itself with the CPU's
 * 64-bit compare-and-exchange: atomic against every other RDMA atomic of
 * any ib_superp device of this host and against the CPU's own atomics on
 * the same word (IB_ATOMIC_GLOB). The word is the host's native u64.
 */
#include <kunit/visibility.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include "superp.h"
#include "superp_engine.h"
#include "superp_mr.h"
#include "superp_mw.h"
#include "superp_rma.h"

/**
 * superp_rma_grant() - do rights and a range allow a peer's access
 * @access: the IB_ACCESS_REMOTE_* the memory grants (an MR's, a window's)
 * @base: its first byte
 * @length: its size
 * @need: IB_ACCESS_REMOTE_WRITE, _READ or _ATOMIC
 * @addr: the access's first byte
 * @len: its bytes, not 0
 *
 * Steps 4 to 6 above, for an MR's own key and for a window's alike.
 *
 * Return: 0, or a Transaction Error code (SUPERP_TERR(major, minor)).
 */
u32 superp_rma_grant(int access, u64 base, u64 length, int need, u64 addr,
		     u64 len)
{
	if ((access & need) != need)
		return SUPERP_TERR(SUPERP_TERR_PROTECTION, SUPERP_TERR_ACCESS);
	/* Written so that nothing overflows: len <= length is checked first. */
	if (addr < base || len > length || addr - base > length - len)
		return SUPERP_TERR(SUPERP_TERR_PROTECTION, SUPERP_TERR_BOUNDS);
	if ((need & IB_ACCESS_REMOTE_ATOMIC) &&
	    (len != sizeof(u64) || !IS_ALIGNED(addr, sizeof(u64))))
		return SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_ALIGN);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_rma_grant);

/**
 * superp_rma_check() - may a peer access this memory through this QP
 * @t: the device's MR table
 * @scope: the target QP's PD and access flags
 * @rkey: the key the peer presented
 * @need: IB_ACCESS_REMOTE_WRITE, _READ or _ATOMIC
 * @addr: first byte, in the MR's address space (its iova)
 * @len: bytes
 * @mrp: the MR, held, when the answer is 0 and @len is not 0; else NULL
 *
 * Any context. The caller places or reads the data, then drops the MR
 * with superp_mr_put().
 *
 * Return: 0, or a Transaction Error code (SUPERP_TERR(major, minor)).
 */
u32 superp_rma_check(struct superp_mr_table *t,
		     const struct superp_rma_scope *scope, u32 rkey,
		     int need, u64 addr, u64 len, struct superp_mr **mrp)
{
	struct superp_mr *mr;
	u32 err;

	*mrp = NULL;
	if (!(scope->qp_access & need))
		return SUPERP_TERR(SUPERP_TERR_PROTECTION, SUPERP_TERR_ACCESS);
	if (!len)
		return 0;
	mr = superp_mr_get(t, rkey);
	if (!mr)	/* a window's key, or nothing */
		return superp_mw_rma_check(t, scope, rkey, need, addr, len,
					   mrp);
	if (mr->pd != scope->pd)
		err = SUPERP_TERR(SUPERP_TERR_PROTECTION,
				  SUPERP_TERR_PD_MISMATCH);
	else
		err = superp_rma_grant(mr->access, mr->iova, mr->length, need,
				       addr, len);
	if (err)
		superp_mr_put(mr);
	else
		*mrp = mr;
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(superp_rma_check);

/*
 * The status of the initiator's work request for a Transaction Error code.
 * A major code this implementation does not know (a newer peer's) is still
 * an error at the remote end: IB_WC_REM_OP_ERR.
 */
enum ib_wc_status superp_terr_wc_status(u32 err)
{
	switch (SUPERP_TERR_MAJOR(err)) {
	case SUPERP_TERR_PROTECTION:
		return IB_WC_REM_ACCESS_ERR;
	case SUPERP_TERR_INVALID:
		return IB_WC_REM_INV_REQ_ERR;
	case SUPERP_TERR_RNR:
		return IB_WC_RNR_RETRY_EXC_ERR;
	default:
		return IB_WC_REM_OP_ERR;
	}
}
EXPORT_SYMBOL_IF_KUNIT(superp_terr_wc_status);

/**
 * superp_virt_walk() - call @fn for each page piece of a kernel virtual range
 * @addr: first byte: a direct-mapped or vmalloc address
 * @len: bytes
 * @fn: called in order, with pieces that never cross a page boundary
 * @arg: for @fn
 *
 * The memory of the local DMA lkey and of DMA MRs: ib_superp uses
 * virtual DMA, so their addresses are the kernel's own.
 *
 * Return: 0, the first error of @fn, or -EFAULT where no page is mapped.
 */
int superp_virt_walk(u64 addr, u64 len, superp_seg_fn fn, void *arg)
{
	while (len) {
		void *va = (void *)(uintptr_t)addr;
		unsigned int off = offset_in_page(va), n;
		struct page *page;
		int err;

		if (is_vmalloc_addr(va))
			page = vmalloc_to_page(va);
		else if (virt_addr_valid(va))
			page = virt_to_page(va);
		else
			return -EFAULT;
		if (!page)
			return -EFAULT;
		n = min_t(u64, PAGE_SIZE - off, len);
		err = fn(arg, page, off, n);
		if (err)
			return err;
		addr += n;
		len -= n;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_virt_walk);

/**
 * superp_mr_walk() - call @fn for each page piece of an MR range
 * @mr: the MR, held by the caller
 * @addr: first byte, in the MR's address space; the range must be inside
 *	the MR (superp_rma_check() or the local key check said so)
 * @len: bytes
 * @fn: called in order, with pieces that never cross a page boundary
 * @arg: for @fn
 *
 * Return: 0, the first error of @fn, or -EFAULT for a range outside the
 * MR (a caller's bug: warned once).
 */
int superp_mr_walk(struct superp_mr *mr, u64 addr, u64 len,
		   superp_seg_fn fn, void *arg)
{
	u64 pos, end;
	unsigned int off, n;
	int err;

	if (WARN_ON_ONCE(addr < mr->iova || len > mr->length ||
			 addr - mr->iova > mr->length - len))
		return -EFAULT;
	if (unlikely(mr->dma))
		return superp_virt_walk(addr, len, fn, arg);
	pos = mr->page_off + (addr - mr->iova);
	end = pos + len;
	while (pos < end) {
		u64 idx = pos >> PAGE_SHIFT;
		struct page *page;

		/*
		 * An FRWR MR re-registered under a late walker: stay inside
		 * its page array, on pages it mapped (superp_mr.c).
		 */
		if (unlikely(mr->fast_reg) && idx >= mr->max_pages)
			return -EFAULT;
		page = READ_ONCE(mr->pages[idx]);
		if (unlikely(!page))
			return -EFAULT;
		off = offset_in_page(pos);
		n = min_t(u64, PAGE_SIZE - off, end - pos);
		err = fn(arg, page, off, n);
		if (err)
			return err;
		pos += n;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_walk);

/* superp_seg_fn: packet bytes (struct superp_skb_src) into the piece. */
int superp_seg_from_skb(void *arg, struct page *page, unsigned int off,
			unsigned int len)
{
	struct superp_skb_src *src = arg;
	void *dst = kmap_local_page(page);
	int err;

	/* Reads linear data and fragments alike: no linearising. */
	err = skb_copy_bits(src->skb, src->offset, dst + off, len);
	kunmap_local(dst);
	src->offset += len;
	return err;
}

/**
 * superp_mr_copy_from_skb() - place payload from an skb into an MR
 * @mr: the MR, held by the caller
 * @addr: where, in the MR's address space (range checked by the caller)
 * @skb: the packet; linear part and fragments are read alike
 * @offset: of the payload in @skb
 * @len: bytes
 *
 * The one copy of the receive path. Any context.
 *
 * Return: 0, or -EFAULT when @skb is shorter than @offset + @len.
 */
int superp_mr_copy_from_skb(struct superp_mr *mr, u64 addr,
			    const struct sk_buff *skb, int offset, u32 len)
{
	struct superp_skb_src src = { .skb = skb, .offset = offset };

	return superp_mr_walk(mr, addr, len, superp_seg_from_skb, &src);
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_copy_from_skb);

static int superp_seg_to_buf(void *arg, struct page *page, unsigned int off,
			     unsigned int len)
{
	u8 **dst = arg;

	memcpy_from_page(*dst, page, off, len);
	*dst += len;
	return 0;
}

/* Copy an MR range out (atomics, small replies). Any context. */
int superp_mr_copy_to_buf(struct superp_mr *mr, u64 addr, void *buf, u32 len)
{
	u8 *dst = buf;

	return superp_mr_walk(mr, addr, len, superp_seg_to_buf, &dst);
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_copy_to_buf);

/* What superp_seg_atomic() does, and what it found. */
struct superp_atomic_arg {
	u8 opcode;		/* SUPERP_OP_ATOMIC_CAS or _FADD */
	u64 operand;		/* compare, or add */
	u64 swap;
	u64 orig;
};

/* superp_seg_fn: the 8-byte piece, updated in one atomic instruction. */
static int superp_seg_atomic(void *arg, struct page *page, unsigned int off,
			     unsigned int len)
{
	struct superp_atomic_arg *a = arg;
	void *va;
	u64 *p, old, new;

	/* The caller checked 8 aligned bytes: one piece, never split. */
	if (len != sizeof(u64) || !IS_ALIGNED(off, sizeof(u64)))
		return -EINVAL;
	va = kmap_local_page(page);
	p = va + off;
	if (a->opcode == SUPERP_OP_ATOMIC_CAS) {
		a->orig = cmpxchg64(p, a->operand, a->swap);
	} else {
		old = READ_ONCE(*p);
		do {
			new = old + a->operand;
		} while (!try_cmpxchg64(p, &old, new));
		a->orig = old;
	}
	kunmap_local(va);
	return 0;
}

/**
 * superp_mr_atomic() - execute an Atomic Compare-and-Swap or Fetch-and-Add
 * @mr: the MR, held by the caller; superp_rma_check() passed for the
 *	8 bytes at @addr with IB_ACCESS_REMOTE_ATOMIC
 * @addr: the word, in the MR's address space
 * @opcode: SUPERP_OP_ATOMIC_CAS (write @swap if the word equals @operand)
 *	or SUPERP_OP_ATOMIC_FADD (add @operand)
 * @operand: compare or add value
 * @swap: CAS only
 * @orig: the word before the operation, set when the answer is 0
 *
 * The word's kernel address must be 8-byte aligned: an MR whose iova and
 * pages disagree modulo 8 (a user MR registered with another iova) cannot
 * take an atomic at an aligned iova. Any context.
 *
 * Return: 0, or a Transaction Error code (INVALID/ALIGN, INVALID/OPCODE).
 */
u32 superp_mr_atomic(struct superp_mr *mr, u64 addr, u8 opcode, u64 operand,
		     u64 swap, u64 *orig)
{
	struct superp_atomic_arg a = {
		.opcode = opcode, .operand = operand, .swap = swap,
	};

	if (opcode != SUPERP_OP_ATOMIC_CAS && opcode != SUPERP_OP_ATOMIC_FADD)
		return SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_OPCODE);
	if (!IS_ALIGNED(mr->page_off + (addr - mr->iova), sizeof(u64)) ||
	    superp_mr_walk(mr, addr, sizeof(u64), superp_seg_atomic, &a))
		return SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_ALIGN);
	*orig = a.orig;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_atomic);
