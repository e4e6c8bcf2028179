// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: remote memory access at the target (superp_rma.c). The protection
 * checks of the spec's RMA Read/Write and the verbs extensions answered
 * with the Transaction Error codes of Documentation/wire-format.rst, their
 * work completion statuses at the initiator, the page walk that places
 * a packet's payload (linear part and fragments) into an MR (a DMA MR's
 * by kernel address), and the
 * execution of the verbs atomics (opcodes 19 and 20) on an MR's page.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/highmem.h>
#include <linux/kthread.h>
#include <linux/skbuff.h>
#include <linux/vmalloc.h>

#include "superp.h"
#include "superp_engine.h"
#include "superp_rma.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NPAGES		3
#define PAGE_OFF	100		/* the MR starts 100 bytes into page 0 */
#define MR_IOVA		0x7f0000001064ULL
#define MR_LEN		(NPAGES * PAGE_SIZE - PAGE_OFF - 50)

struct rma_fixture {
	struct superp_mr_table t;
	struct ib_pd pd, other_pd;
	struct superp_mr mr;		/* published, remote read and write */
	struct page *pages[NPAGES];
	struct superp_mr *got;		/* what the last check() returned */
};

static int rma_init(struct kunit *test)
{
	struct rma_fixture *f;
	int i;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f || superp_mr_table_init(&f->t))
		return -ENOMEM;
	for (i = 0; i < NPAGES; i++) {
		/* Separate allocations: the pages need not be contiguous. */
		f->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!f->pages[i])
			return -ENOMEM;
	}
	f->mr.pd = &f->pd;
	f->mr.pages = f->pages;
	f->mr.page_off = PAGE_OFF;
	f->mr.iova = MR_IOVA;
	f->mr.length = MR_LEN;
	f->mr.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		       IB_ACCESS_REMOTE_READ;
	if (superp_mr_publish(&f->t, &f->mr))
		return -ENOMEM;
	test->priv = f;
	return 0;
}

static void rma_exit(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	int i;

	if (!f)
		return;
	superp_mr_unpublish(&f->t, &f->mr);
	superp_mr_wait_unused(&f->mr);
	superp_mr_table_destroy(&f->t);
	for (i = 0; i < NPAGES; i++)
		if (f->pages[i])
			__free_page(f->pages[i]);
}

static struct superp_rma_scope rw_scope(struct rma_fixture *f)
{
	return (struct superp_rma_scope){
		.pd = &f->pd,
		.qp_access = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
			     IB_ACCESS_REMOTE_ATOMIC,
	};
}

/* The MR's reference count, read through a lookup of our own. */
static unsigned int mr_refs(struct rma_fixture *f)
{
	return refcount_read(&f->mr.ref);
}

/* superp_rma_check() on the fixture's table; the MR found in f->got. */
static u32 check(struct rma_fixture *f, const struct superp_rma_scope *s,
		 u32 key, int need, u64 addr, u64 len)
{
	return superp_rma_check(&f->t, s, key, need, addr, len, &f->got);
}

#define WR		IB_ACCESS_REMOTE_WRITE
#define RD		IB_ACCESS_REMOTE_READ
#define PROT(minor)	SUPERP_TERR(SUPERP_TERR_PROTECTION, SUPERP_TERR_##minor)

/* RMA Write at the target: each refusal, in the documented order. */
static void rma_write_protection_order(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	struct superp_rma_scope s = rw_scope(f);
	u32 key = f->mr.ibmr.rkey;

	/* Accepted: the MR comes back held. */
	KUNIT_EXPECT_EQ(test, check(f, &s, key, WR, MR_IOVA, MR_LEN), 0);
	KUNIT_EXPECT_PTR_EQ(test, f->got, &f->mr);
	KUNIT_EXPECT_EQ(test, mr_refs(f), 2U);
	superp_mr_put(f->got);

	/* 1. The QP does not allow remote writes: refused before any lookup. */
	s.qp_access = IB_ACCESS_REMOTE_READ;
	KUNIT_EXPECT_EQ(test, check(f, &s, key ^ 0x100, WR, MR_IOVA, 8),
			PROT(ACCESS));
	KUNIT_EXPECT_NULL(test, f->got);
	s = rw_scope(f);

	/* 2. A key of another slot, another generation, key 0. */
	KUNIT_EXPECT_EQ(test, check(f, &s, key ^ 0x100, WR, MR_IOVA, 8),
			PROT(BAD_RKEY));
	KUNIT_EXPECT_EQ(test, check(f, &s, key ^ 0x1, WR, MR_IOVA, 8),
			PROT(BAD_RKEY));
	KUNIT_EXPECT_EQ(test, check(f, &s, 0, WR, MR_IOVA, 8), PROT(BAD_RKEY));

	/* 3. The QP is in another PD. */
	s.pd = &f->other_pd;
	KUNIT_EXPECT_EQ(test, check(f, &s, key, WR, MR_IOVA, 8),
			PROT(PD_MISMATCH));
	s = rw_scope(f);

	/* 4. The MR allows reads only. */
	f->mr.access = IB_ACCESS_REMOTE_READ;
	KUNIT_EXPECT_EQ(test, check(f, &s, key, WR, MR_IOVA, 8), PROT(ACCESS));
	f->mr.access |= IB_ACCESS_REMOTE_WRITE;

	/* Every refusal dropped the reference it took. */
	KUNIT_EXPECT_NULL(test, f->got);
	KUNIT_EXPECT_EQ(test, mr_refs(f), 1U);
}

/* 5. Bounds: below, beyond, longer than the MR, and 64-bit wrap-around. */
static void rma_bounds(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	struct superp_rma_scope s = rw_scope(f);
	u32 key = f->mr.ibmr.rkey;

	KUNIT_EXPECT_EQ(test, check(f, &s, key, RD, MR_IOVA - 1, 8),
			PROT(BOUNDS));
	KUNIT_EXPECT_EQ(test, check(f, &s, key, RD, MR_IOVA + MR_LEN - 7, 8),
			PROT(BOUNDS));
	KUNIT_EXPECT_EQ(test, check(f, &s, key, RD, MR_IOVA, MR_LEN + 1),
			PROT(BOUNDS));
	/* addr + len wraps to inside the MR: still outside. */
	KUNIT_EXPECT_EQ(test, check(f, &s, key, RD, MR_IOVA + 8, U64_MAX - 4),
			PROT(BOUNDS));
	KUNIT_EXPECT_EQ(test, check(f, &s, key, RD, U64_MAX, 2), PROT(BOUNDS));
	/* The last byte alone is inside. */
	KUNIT_EXPECT_EQ(test, check(f, &s, key, RD, MR_IOVA + MR_LEN - 1, 1),
			0);
	KUNIT_ASSERT_NOT_NULL(test, f->got);
	superp_mr_put(f->got);
	KUNIT_EXPECT_EQ(test, mr_refs(f), 1U);
}

/* A zero-length read or write presents no key; the QP's flags still count. */
static void rma_zero_length(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	struct superp_rma_scope s = rw_scope(f);

	KUNIT_EXPECT_EQ(test, check(f, &s, 0xdeadbeef, WR, 0, 0), 0);
	KUNIT_EXPECT_NULL(test, f->got);
	s.qp_access = 0;
	KUNIT_EXPECT_EQ(test, check(f, &s, 0xdeadbeef, RD, 0, 0), PROT(ACCESS));
}

/* 6. Atomics: 8 bytes at an 8-byte aligned address, else INVALID/ALIGN. */
static void rma_atomic_alignment(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	struct superp_rma_scope s = rw_scope(f);
	u32 key = f->mr.ibmr.rkey;
	int at = IB_ACCESS_REMOTE_ATOMIC;
	u64 aligned = ALIGN(MR_IOVA, 8);

	/* The MR must allow atomics first. */
	KUNIT_EXPECT_EQ(test, check(f, &s, key, at, aligned, 8), PROT(ACCESS));
	f->mr.access |= IB_ACCESS_REMOTE_ATOMIC;
	KUNIT_EXPECT_EQ(test, check(f, &s, key, at, aligned + 4, 8),
			SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_ALIGN));
	KUNIT_EXPECT_EQ(test, check(f, &s, key, at, aligned, 4),
			SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_ALIGN));
	KUNIT_EXPECT_EQ(test, check(f, &s, key, at, aligned, 8), 0);
	KUNIT_ASSERT_NOT_NULL(test, f->got);
	superp_mr_put(f->got);
}

/* A key that was deregistered misses, even with the range still valid. */
static void rma_stale_key(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	struct superp_rma_scope s = rw_scope(f);
	u32 old = f->mr.ibmr.rkey;

	superp_mr_unpublish(&f->t, &f->mr);
	superp_mr_wait_unused(&f->mr);
	KUNIT_ASSERT_EQ(test, superp_mr_publish(&f->t, &f->mr), 0);
	KUNIT_EXPECT_NE(test, f->mr.ibmr.rkey, old);
	KUNIT_EXPECT_EQ(test, check(f, &s, old, RD, MR_IOVA, 8),
			PROT(BAD_RKEY));
}

/* The initiator's status for each major code (wire-format.rst table). */
static void terr_wc_status(struct kunit *test)
{
	static const struct {
		u32 err;
		enum ib_wc_status status;
	} map[] = {
		{ PROT(BOUNDS), IB_WC_REM_ACCESS_ERR },
		{ SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_NO_QP),
		  IB_WC_REM_INV_REQ_ERR },
		{ SUPERP_TERR(SUPERP_TERR_RNR, 0), IB_WC_RNR_RETRY_EXC_ERR },
		{ SUPERP_TERR(SUPERP_TERR_OPERATION, SUPERP_TERR_RESOURCE),
		  IB_WC_REM_OP_ERR },
		/* A major code from a newer peer is still a remote error. */
		{ SUPERP_TERR(77, 1), IB_WC_REM_OP_ERR },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		KUNIT_EXPECT_EQ_MSG(test, superp_terr_wc_status(map[i].err),
				    map[i].status, "code 0x%x", map[i].err);
}

struct walk_log {
	struct kunit *test;
	u64 total;
	int pieces;
	int last_page;
};

static int log_piece(void *arg, struct page *page, unsigned int off,
		     unsigned int len)
{
	struct walk_log *w = arg;
	struct rma_fixture *f = w->test->priv;
	int i;

	KUNIT_EXPECT_GT(w->test, len, 0U);
	KUNIT_EXPECT_LE(w->test, off + len, (unsigned int)PAGE_SIZE);
	for (i = 0; i < NPAGES && f->pages[i] != page; i++)
		;
	KUNIT_EXPECT_LT(w->test, i, NPAGES);
	/* Pages come in order; a piece after the first starts its page. */
	KUNIT_EXPECT_GE(w->test, i, w->last_page);
	if (w->pieces)
		KUNIT_EXPECT_EQ(w->test, off, 0U);
	w->last_page = i;
	w->total += len;
	w->pieces++;
	return 0;
}

/* Pieces never cross a page, come in order and cover the range exactly. */
static void mr_walk_pieces(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	struct walk_log w = { .test = test };
	u64 at;

	KUNIT_EXPECT_EQ(test, superp_mr_walk(&f->mr, MR_IOVA, MR_LEN,
					     log_piece, &w), 0);
	KUNIT_EXPECT_EQ(test, w.total, (u64)MR_LEN);
	KUNIT_EXPECT_EQ(test, w.pieces, NPAGES);

	/* From the last byte of page 0 into page 1. */
	w = (struct walk_log){ .test = test };
	at = MR_IOVA + PAGE_SIZE - PAGE_OFF - 1;
	KUNIT_EXPECT_EQ(test, superp_mr_walk(&f->mr, at, 2, log_piece, &w), 0);
	KUNIT_EXPECT_EQ(test, w.pieces, 2);
	KUNIT_EXPECT_EQ(test, w.last_page, 1);
	KUNIT_EXPECT_EQ(test, w.total, 2ULL);
}

static int count_piece(void *arg, struct page *page, unsigned int off,
		       unsigned int len)
{
	(*(unsigned int *)arg)++;
	return 0;
}

/*
 * A DMA MR (the core's, for IB_PD_UNSAFE_GLOBAL_RKEY) has no pages: its
 * addresses are kernel virtual ones, vmalloc included. The checks pass for
 * any range, the walk finds the pages behind the address, and an address
 * with no page behind it (vmalloc's guard page, a user address) is
 * refused instead of followed.
 */
static void mr_dma_walk(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	struct superp_rma_scope s = rw_scope(f);
	struct superp_mr *dma;
	u8 *buf, out[64];
	unsigned int pieces = 0;
	u64 at;
	int i;

	dma = kunit_kzalloc(test, sizeof(*dma), GFP_KERNEL);
	buf = vmalloc(2 * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, dma);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < 2 * PAGE_SIZE; i++)
		buf[i] = i * 7 + 3;
	dma->pd = &f->pd;
	dma->dma = true;
	dma->length = U64_MAX;
	dma->access = WR | RD;
	KUNIT_ASSERT_EQ(test, superp_mr_publish(&f->t, dma), 0);

	at = (uintptr_t)buf + PAGE_SIZE - 32;	/* straddles the two pages */
	KUNIT_EXPECT_EQ(test, check(f, &s, dma->ibmr.rkey, RD, at, 64), 0);
	KUNIT_EXPECT_PTR_EQ(test, f->got, dma);
	if (f->got)
		superp_mr_put(f->got);
	KUNIT_EXPECT_EQ(test, superp_mr_walk(dma, at, 64, count_piece, &pieces),
			0);
	KUNIT_EXPECT_EQ(test, pieces, 2);
	KUNIT_EXPECT_EQ(test, superp_mr_copy_to_buf(dma, at, out, 64), 0);
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, out[i], (u8)((PAGE_SIZE - 32 + i) * 7 + 3));
	/* Overflowing ranges still fail the bounds check. */
	KUNIT_EXPECT_EQ(test, check(f, &s, dma->ibmr.rkey, RD, U64_MAX - 8, 64),
			PROT(BOUNDS));

	KUNIT_EXPECT_EQ(test, superp_mr_copy_to_buf(dma, (uintptr_t)buf +
						    2 * PAGE_SIZE, out, 8),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, superp_mr_copy_to_buf(dma, 0x10000, out, 8),
			-EFAULT);

	superp_mr_unpublish(&f->t, dma);
	superp_mr_wait_unused(dma);
	vfree(buf);
}

/*
 * Placement: a payload split between an skb's linear part and two page
 * fragments lands at an MR offset that straddles a page boundary, byte for
 * byte, and nothing around it changes.
 */
static void mr_copy_from_nonlinear_skb(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	const unsigned int head = 40, frag = 700, len = 1000, skip = 30;
	u64 at = MR_IOVA + PAGE_SIZE - PAGE_OFF - 300;
	struct page *fp[2];
	struct sk_buff *skb;
	u8 *expect, *got;
	unsigned int i;

	skb = alloc_skb(head, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	for (i = 0; i < head; i++)
		skb_put_u8(skb, i);
	for (i = 0; i < 2; i++) {
		fp[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, fp[i]);
		memset(page_address(fp[i]), 0xa0 + i, PAGE_SIZE);
		skb_fill_page_desc(skb, i, fp[i], 16, frag);
	}
	skb->len += 2 * frag;
	skb->data_len += 2 * frag;
	KUNIT_ASSERT_TRUE(test, skb_is_nonlinear(skb));

	expect = kunit_kzalloc(test, MR_LEN, GFP_KERNEL);
	got = kunit_kzalloc(test, MR_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, expect);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, skip, expect + (at - MR_IOVA),
					    len), 0);

	KUNIT_EXPECT_EQ(test, superp_mr_copy_from_skb(&f->mr, at, skb, skip,
						      len), 0);
	KUNIT_EXPECT_EQ(test, superp_mr_copy_to_buf(&f->mr, MR_IOVA, got,
						    MR_LEN), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got, expect, MR_LEN), 0);
	/* The bytes really are in the pages, where page_off says. */
	KUNIT_EXPECT_EQ(test, ((u8 *)page_address(f->pages[1]))[0],
			expect[PAGE_SIZE - PAGE_OFF]);

	/* A payload that the skb does not hold: an error, not a read past. */
	KUNIT_EXPECT_EQ(test, superp_mr_copy_from_skb(&f->mr, MR_IOVA, skb,
						      skip, skb->len), -EFAULT);
	kfree_skb(skb);		/* drops the fragments' page references */
}

/* The u64 of the MR at @addr, through the kernel mapping of its page. */
static u64 *mr_word(struct rma_fixture *f, u64 addr)
{
	u64 pos = f->mr.page_off + (addr - f->mr.iova);

	return page_address(f->pages[pos >> PAGE_SHIFT]) + offset_in_page(pos);
}

#define CAS	SUPERP_OP_ATOMIC_CAS
#define FADD	SUPERP_OP_ATOMIC_FADD

/*
 * Atomic Compare-and-Swap (19) and Fetch-and-Add (20) at the target: the
 * original value comes back, memory holds the host's native u64, a CAS
 * that does not match writes nothing, and the last word of a page is as
 * good as any other.
 */
static void mr_atomic_execute(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	u64 at = MR_IOVA + PAGE_SIZE - PAGE_OFF - 8;	/* page 0's last word */
	u64 *w = mr_word(f, at), orig = 0;

	KUNIT_ASSERT_TRUE(test, IS_ALIGNED(at, 8));
	KUNIT_ASSERT_TRUE(test, IS_ALIGNED((unsigned long)w, 8));
	*w = 0x1122334455667788ULL;
	KUNIT_EXPECT_EQ(test, superp_mr_atomic(&f->mr, at, CAS,
					       0x1122334455667788ULL, 42,
					       &orig), 0U);
	KUNIT_EXPECT_EQ(test, orig, 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, *w, 42ULL);
	/* No match: the value is returned and stays. */
	KUNIT_EXPECT_EQ(test, superp_mr_atomic(&f->mr, at, CAS, 41, 7, &orig),
			0U);
	KUNIT_EXPECT_EQ(test, orig, 42ULL);
	KUNIT_EXPECT_EQ(test, *w, 42ULL);
	/* Fetch-and-add returns the old value and wraps modulo 2^64. */
	KUNIT_EXPECT_EQ(test, superp_mr_atomic(&f->mr, at, FADD, 8, 0, &orig),
			0U);
	KUNIT_EXPECT_EQ(test, orig, 42ULL);
	KUNIT_EXPECT_EQ(test, *w, 50ULL);
	KUNIT_EXPECT_EQ(test, superp_mr_atomic(&f->mr, at, FADD, U64_MAX, 0,
					       &orig), 0U);
	KUNIT_EXPECT_EQ(test, orig, 50ULL);
	KUNIT_EXPECT_EQ(test, *w, 49ULL);
	/* The neighbours are untouched. */
	KUNIT_EXPECT_EQ(test, *mr_word(f, at - 8), 0ULL);
	KUNIT_EXPECT_EQ(test, *mr_word(f, at + 8), 0ULL);
	/* Not an atomic opcode: refused, memory unchanged. */
	KUNIT_EXPECT_EQ(test, superp_mr_atomic(&f->mr, at,
					       SUPERP_OP_RDMA_WRITE, 1, 0,
					       &orig),
			SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_OPCODE));
	KUNIT_EXPECT_EQ(test, *w, 49ULL);
}

/*
 * An aligned iova whose page offset is not aligned (an MR registered with
 * an iova that disagrees with its pages modulo 8) cannot take an atomic:
 * INVALID/ALIGN, and no byte changes.
 */
static void mr_atomic_unaligned_page(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	u64 at = ALIGN(MR_IOVA, 8) + 16, orig = 0;
	u8 *p;
	int i;

	f->mr.page_off = PAGE_OFF + 2;
	p = (u8 *)mr_word(f, at);
	KUNIT_ASSERT_FALSE(test, IS_ALIGNED((unsigned long)p, 8));
	memset(p, 0xab, 8);
	KUNIT_EXPECT_EQ(test, superp_mr_atomic(&f->mr, at, FADD, 1, 0, &orig),
			SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_ALIGN));
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, p[i], 0xab);
	f->mr.page_off = PAGE_OFF;
}

#define RACE_N	20000

struct atomic_race {
	struct rma_fixture *f;
	u64 at;
	u32 errs;
	struct completion done;
};

static int atomic_race_thread(void *arg)
{
	struct atomic_race *r = arg;
	u64 orig;
	int i;

	for (i = 0; i < RACE_N; i++) {
		if (superp_mr_atomic(&r->f->mr, r->at, FADD, 1, 0, &orig))
			r->errs++;
		if (!(i & 255))
			cond_resched();
	}
	complete(&r->done);
	return 0;
}

/*
 * Atomic against the CPU (IB_ATOMIC_GLOB): Fetch-and-Add from one thread
 * while another increments the same word with the CPU's own atomic64
 * operations loses no update.
 */
static void mr_atomic_against_cpu(struct kunit *test)
{
	struct rma_fixture *f = test->priv;
	struct atomic_race r = { .f = f, .at = ALIGN(MR_IOVA, 8) + 64 };
	atomic64_t *cpu = (atomic64_t *)mr_word(f, r.at);
	struct task_struct *t;
	int i;

	init_completion(&r.done);
	t = kthread_run(atomic_race_thread, &r, "superp-atomic-race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	for (i = 0; i < RACE_N; i++) {
		atomic64_inc(cpu);
		if (!(i & 255))
			cond_resched();
	}
	wait_for_completion(&r.done);
	KUNIT_EXPECT_EQ(test, r.errs, 0U);
	KUNIT_EXPECT_EQ(test, atomic64_read(cpu), 2LL * RACE_N);
}

static struct kunit_case superp_rma_cases[] = {
	KUNIT_CASE(rma_write_protection_order),
	KUNIT_CASE(rma_bounds),
	KUNIT_CASE(rma_zero_length),
	KUNIT_CASE(rma_atomic_alignment),
	KUNIT_CASE(rma_stale_key),
	KUNIT_CASE(terr_wc_status),
	KUNIT_CASE(mr_walk_pieces),
	KUNIT_CASE(mr_dma_walk),
	KUNIT_CASE(mr_copy_from_nonlinear_skb),
	KUNIT_CASE(mr_atomic_execute),
	KUNIT_CASE(mr_atomic_unaligned_page),
	KUNIT_CASE(mr_atomic_against_cpu),
	{}
};

static struct kunit_suite superp_rma_suite = {
	.name = "superp_rma",
	.init = rma_init,
	.exit = rma_exit,
	.test_cases = superp_rma_cases,
};

kunit_test_suite(superp_rma_suite);

MODULE_DESCRIPTION("KUnit: ib_superp remote memory access at the target");
MODULE_LICENSE("GPL");
