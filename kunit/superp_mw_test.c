// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: memory windows (superp_mw.c). Their keys in the MR table beside
 * the MRs' (never equal, a stale one misses, a window key is no lkey);
 * the checks of a bind, each answered with IB_WC_MW_BIND_ERR (IBTA C10-72
 * PD, C10-73 MW_BIND access, C10-74 local write for remote write and
 * atomic, C10-75 bounds, o10-37.2.30 a type 2 window bound already,
 * o10-37.2.40 a type 2 bind of length 0, the key's low byte only);
 * remote access through a window's rkey, checked as an MR's with the
 * Transaction Error codes of Documentation/wire-format.rst (key, PD,
 * type 2B's QP, rights, bounds, atomic alignment); local and remote
 * invalidation (type 1 never, o10-37.2.26); deregistration refused while
 * windows are bound (IBA 10.6.7.2.6) and dealloc while bound.
 */
#include <kunit/test.h>

#include "superp.h"
#include "superp_engine.h"
#include "superp_mr.h"
#include "superp_mw.h"
#include "superp_rma.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define MR_IOVA		0x7f0000001000ULL
#define MR_LEN		0x3000ULL
#define QP_A		7	/* serial numbers of two QPs of the PD */
#define QP_B		8

#define RW (IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE)
#define PROT(minor)	SUPERP_TERR(SUPERP_TERR_PROTECTION, SUPERP_TERR_##minor)

struct mw_fixture {
	struct superp_mr_table t;
	struct ib_pd pd, other_pd;
	struct superp_mr mr;		/* MW_BIND, local write */
	struct superp_win *w1, *w2;	/* type 1, type 2 */
	struct superp_mr *got;
};

static int mw_init(struct kunit *test)
{
	struct mw_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f || superp_mr_table_init(&f->t))
		return -ENOMEM;
	f->mr.pd = &f->pd;
	f->mr.iova = MR_IOVA;
	f->mr.length = MR_LEN;
	f->mr.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_MW_BIND;
	if (superp_mr_publish(&f->t, &f->mr) ||
	    superp_win_alloc(&f->t, &f->pd, IB_MW_TYPE_1, &f->w1) ||
	    superp_win_alloc(&f->t, &f->pd, IB_MW_TYPE_2, &f->w2))
		return -ENOMEM;
	test->priv = f;
	return 0;
}

static void mw_exit(struct kunit *test)
{
	struct mw_fixture *f = test->priv;

	if (!f)
		return;
	if (f->w1)
		superp_win_free(&f->t, f->w1);
	if (f->w2)
		superp_win_free(&f->t, f->w2);
	superp_mr_unpublish(&f->t, &f->mr);
	superp_mr_wait_unused(&f->mr);
	/* The windows went after a grace period: wait for their frees. */
	rcu_barrier();
	superp_mr_table_destroy(&f->t);
}

/* A bind of @w's next key (low byte + @step) over [addr, addr + len). */
static struct superp_mw_bind bind_of(struct mw_fixture *f,
				     const struct superp_win *w, u8 step,
				     u64 addr, u64 len, int access)
{
	return (struct superp_mw_bind){
		.mw_key = w->last,
		.new_key = (w->last & ~0xffu) | (u8)(w->last + step),
		.mr_lkey = f->mr.ibmr.lkey,
		.access = access,
		.addr = addr,
		.length = len,
	};
}

static enum ib_wc_status bind(struct mw_fixture *f, u64 qp,
			      const struct superp_mw_bind *b)
{
	return superp_mw_bind(&f->t, &f->pd, qp, b);
}

static u32 check(struct mw_fixture *f, u64 qp, u32 rkey, int need, u64 addr,
		 u64 len)
{
	struct superp_rma_scope s = {
		.pd = &f->pd,
		.qp_access = RW | IB_ACCESS_REMOTE_ATOMIC,
		.qp = qp,
	};
	u32 err = superp_rma_check(&f->t, &s, rkey, need, addr, len, &f->got);

	if (f->got)
		superp_mr_put(f->got);
	return err;
}

/* Keys: one scheme with the MRs', an unbound window's key misses. */
static void mw_keys(struct kunit *test)
{
	struct mw_fixture *f = test->priv;
	struct superp_mw_bind b = bind_of(f, f->w2, 1, MR_IOVA, 64, RW);

	/* Three slots, three keys; only the low byte is a window's own. */
	KUNIT_EXPECT_NE(test, f->w1->base >> 8, f->mr.ibmr.rkey >> 8);
	KUNIT_EXPECT_NE(test, f->w2->base >> 8, f->mr.ibmr.rkey >> 8);
	KUNIT_EXPECT_NE(test, f->w1->base >> 8, f->w2->base >> 8);
	/* Not bound yet: its key names nothing. */
	KUNIT_EXPECT_EQ(test, check(f, QP_A, f->w2->base, IB_ACCESS_REMOTE_READ,
				    MR_IOVA, 8), PROT(BAD_RKEY));
	KUNIT_ASSERT_EQ(test, bind(f, QP_A, &b), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, check(f, QP_A, b.new_key, IB_ACCESS_REMOTE_READ,
				    MR_IOVA, 8), 0);
	/* The key at alloc, or another low byte: stale, misses. */
	KUNIT_EXPECT_EQ(test, check(f, QP_A, b.mw_key, IB_ACCESS_REMOTE_READ,
				    MR_IOVA, 8), PROT(BAD_RKEY));
	KUNIT_EXPECT_EQ(test, check(f, QP_A, b.new_key ^ 0x80,
				    IB_ACCESS_REMOTE_READ, MR_IOVA, 8),
			PROT(BAD_RKEY));
	/* A window's key is no lkey, and no MR key finds a window. */
	KUNIT_EXPECT_NULL(test, superp_mr_get(&f->t, b.new_key));
	KUNIT_EXPECT_NULL(test, superp_mr_table_mw(&f->t, f->mr.ibmr.rkey));
	KUNIT_EXPECT_PTR_EQ(test, superp_mr_table_mw(&f->t, b.new_key),
			    (void *)f->w2);
	/* The MR's own key still works as before. */
	KUNIT_EXPECT_PTR_EQ(test, superp_mr_get(&f->t, f->mr.ibmr.lkey),
			    &f->mr);
	superp_mr_put(&f->mr);
}

/* Every refusal of a bind, then the same bind accepted. */
static void mw_bind_checks(struct kunit *test)
{
	struct mw_fixture *f = test->priv;
	struct superp_mw_bind b;

	/* C10-72: the QP's PD is not the window's. */
	b = bind_of(f, f->w2, 1, MR_IOVA, 64, RW);
	KUNIT_EXPECT_EQ(test, superp_mw_bind(&f->t, &f->other_pd, QP_A, &b),
			IB_WC_MW_BIND_ERR);
	/* The MR is of another PD. */
	f->mr.pd = &f->other_pd;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	f->mr.pd = &f->pd;
	/* C10-73: the MR was registered without IB_ACCESS_MW_BIND. */
	f->mr.access &= ~IB_ACCESS_MW_BIND;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	f->mr.access |= IB_ACCESS_MW_BIND;
	/* C10-74: remote write or atomic without local write on the MR. */
	f->mr.access &= ~IB_ACCESS_LOCAL_WRITE;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	b.access = IB_ACCESS_REMOTE_ATOMIC;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	b.access = RW;
	f->mr.access |= IB_ACCESS_LOCAL_WRITE;
	/* C10-75: below, beyond, and wrapping around the MR. */
	b.addr = MR_IOVA - 1;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	b.addr = MR_IOVA + MR_LEN - 63;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	b.addr = MR_IOVA + 64;
	b.length = U64_MAX - 32;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	b = bind_of(f, f->w2, 1, MR_IOVA, 64, RW);
	/* Rights a window cannot have: zero-based, MW_BIND. */
	b.access = RW | IB_ZERO_BASED;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	b.access = IB_ACCESS_MW_BIND;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	b.access = RW;
	/* Only the low byte of the key is the consumer's. */
	b.new_key ^= 0x100;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	b.new_key ^= 0x100;
	/* An lkey that names no MR; a window that is not there. */
	b.mr_lkey ^= 0x100;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	b.mr_lkey ^= 0x100;
	b.mw_key = f->mr.ibmr.rkey;
	b.new_key = f->mr.ibmr.rkey;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	b = bind_of(f, f->w2, 1, MR_IOVA, 64, RW);
	/* o10-37.2.40: a type 2 window is not bound with length 0. */
	b.length = 0;
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	b.length = 64;
	/* Nothing was bound by the refusals; the MR is as it was. */
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr.mw_binds), 1);
	KUNIT_EXPECT_EQ(test, refcount_read(&f->mr.ref), 1U);

	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr.mw_binds), 2);
	/* o10-37.2.30: a bound type 2 window is not bound again. */
	b = bind_of(f, f->w2, 1, MR_IOVA, 64, RW);
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr.mw_binds), 2);
}

/* Type 1: rebinds in one step; length 0 unbinds; the key moves on. */
static void mw_type1_rebind(struct kunit *test)
{
	struct mw_fixture *f = test->priv;
	struct superp_mw_bind a = bind_of(f, f->w1, 1, MR_IOVA, 64, RW);
	struct superp_mw_bind b;

	KUNIT_ASSERT_EQ(test, bind(f, QP_A, &a), IB_WC_SUCCESS);
	/* Any QP of the PD uses a type 1 window. */
	KUNIT_EXPECT_EQ(test, check(f, QP_B, a.new_key, IB_ACCESS_REMOTE_WRITE,
				    MR_IOVA, 64), 0);
	b = bind_of(f, f->w1, 1, MR_IOVA + 0x1000, 0x1000, RW);
	KUNIT_ASSERT_EQ(test, bind(f, QP_A, &b), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr.mw_binds), 2);
	KUNIT_EXPECT_EQ(test, check(f, QP_A, a.new_key, IB_ACCESS_REMOTE_READ,
				    MR_IOVA, 8), PROT(BAD_RKEY));
	KUNIT_EXPECT_EQ(test, check(f, QP_A, b.new_key, IB_ACCESS_REMOTE_READ,
				    MR_IOVA + 0x1000, 0x1000), 0);
	/* Length 0 with or without an MR: unbound, nothing reachable. */
	a = bind_of(f, f->w1, 1, MR_IOVA, 0, 0);
	KUNIT_ASSERT_EQ(test, bind(f, QP_A, &a), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr.mw_binds), 1);
	KUNIT_EXPECT_EQ(test, check(f, QP_A, a.new_key, IB_ACCESS_REMOTE_READ,
				    MR_IOVA, 8), PROT(BAD_RKEY));
	KUNIT_EXPECT_EQ(test, check(f, QP_A, b.new_key, IB_ACCESS_REMOTE_READ,
				    MR_IOVA + 0x1000, 8), PROT(BAD_RKEY));
	KUNIT_EXPECT_EQ(test, f->w1->last, a.new_key);
	KUNIT_EXPECT_EQ(test, refcount_read(&f->mr.ref), 1U);
}

/* Remote access through a window: as an MR's, with the window's limits. */
static void mw_remote_access(struct kunit *test)
{
	struct mw_fixture *f = test->priv;
	u64 at = MR_IOVA + 0x100;
	struct superp_mw_bind b = bind_of(f, f->w2, 7, at, 0x200,
					  IB_ACCESS_REMOTE_READ);
	u32 key = b.new_key;

	KUNIT_ASSERT_EQ(test, bind(f, QP_A, &b), IB_WC_SUCCESS);
	/* Accepted: the MR comes back held. */
	KUNIT_EXPECT_EQ(test, superp_rma_check(&f->t, &(struct superp_rma_scope){
		.pd = &f->pd, .qp_access = RW, .qp = QP_A },
		key, IB_ACCESS_REMOTE_READ, at, 0x200, &f->got), 0);
	KUNIT_EXPECT_PTR_EQ(test, f->got, &f->mr);
	KUNIT_EXPECT_EQ(test, refcount_read(&f->mr.ref), 3U);
	superp_mr_put(f->got);
	f->got = NULL;
	/* Rights: the window's, not the MR's or the QP's. */
	KUNIT_EXPECT_EQ(test, check(f, QP_A, key, IB_ACCESS_REMOTE_WRITE, at, 8),
			PROT(ACCESS));
	/* Bounds: the window's, inside the MR or not. */
	KUNIT_EXPECT_EQ(test, check(f, QP_A, key, IB_ACCESS_REMOTE_READ, at - 1,
				    8), PROT(BOUNDS));
	KUNIT_EXPECT_EQ(test, check(f, QP_A, key, IB_ACCESS_REMOTE_READ,
				    at + 0x200 - 7, 8), PROT(BOUNDS));
	KUNIT_EXPECT_EQ(test, check(f, QP_A, key, IB_ACCESS_REMOTE_READ,
				    at + 8, U64_MAX - 4), PROT(BOUNDS));
	KUNIT_EXPECT_EQ(test, check(f, QP_A, key, IB_ACCESS_REMOTE_READ,
				    at + 0x1ff, 1), 0);
	/* Type 2B: through another QP the key names nothing. */
	KUNIT_EXPECT_EQ(test, check(f, QP_B, key, IB_ACCESS_REMOTE_READ, at, 8),
			PROT(BAD_RKEY));
	/* A QP of another PD. */
	KUNIT_EXPECT_EQ(test, superp_rma_check(&f->t, &(struct superp_rma_scope){
		.pd = &f->other_pd, .qp_access = RW, .qp = QP_A },
		key, IB_ACCESS_REMOTE_READ, at, 8, &f->got), PROT(PD_MISMATCH));
	KUNIT_EXPECT_NULL(test, f->got);
	/* Every refusal dropped what it took. */
	KUNIT_EXPECT_EQ(test, refcount_read(&f->mr.ref), 2U);
}

/* Atomics through a window: its right, then 8 aligned bytes. */
static void mw_remote_atomic(struct kunit *test)
{
	struct mw_fixture *f = test->priv;
	int at = IB_ACCESS_REMOTE_ATOMIC;
	struct superp_mw_bind b = bind_of(f, f->w1, 1, MR_IOVA, 64, at);

	KUNIT_ASSERT_EQ(test, bind(f, QP_A, &b), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, check(f, QP_A, b.new_key, at, MR_IOVA + 4, 8),
			SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_ALIGN));
	KUNIT_EXPECT_EQ(test, check(f, QP_A, b.new_key, at, MR_IOVA + 8, 8), 0);
}

/* Invalidation of @key as QP @qp of the fixture's PD does it. */
static enum ib_wc_status inv(struct mw_fixture *f, u64 qp, u32 key,
			     bool remote)
{
	return superp_key_invalidate(&f->t, &f->pd, qp, key, remote);
}

/* A remote read of 8 bytes at the MR's start through @key, by QP @qp. */
static u32 read8(struct mw_fixture *f, u64 qp, u32 key)
{
	return check(f, qp, key, IB_ACCESS_REMOTE_READ, MR_IOVA, 8);
}

/* Invalidation: type 2 locally from its PD, remotely from its QP only. */
static void mw_invalidate(struct kunit *test)
{
	struct mw_fixture *f = test->priv;
	struct superp_mw_bind b1 = bind_of(f, f->w1, 1, MR_IOVA, 64, RW);
	struct superp_mw_bind b2 = bind_of(f, f->w2, 1, MR_IOVA, 64, RW);
	const enum ib_wc_status no = IB_WC_LOC_PROT_ERR;

	KUNIT_ASSERT_EQ(test, bind(f, QP_A, &b1), IB_WC_SUCCESS);
	KUNIT_ASSERT_EQ(test, bind(f, QP_A, &b2), IB_WC_SUCCESS);
	/* o10-37.2.26: type 1 is never invalidated, locally or remotely. */
	KUNIT_EXPECT_EQ(test, inv(f, QP_A, b1.new_key, false), no);
	KUNIT_EXPECT_EQ(test, inv(f, QP_A, b1.new_key, true), no);
	/* Another PD; a stale low byte; remotely from another QP. */
	KUNIT_EXPECT_EQ(test, superp_key_invalidate(&f->t, &f->other_pd, QP_A,
						    b2.new_key, false), no);
	KUNIT_EXPECT_EQ(test, inv(f, QP_A, b2.new_key ^ 1, false), no);
	KUNIT_EXPECT_EQ(test, inv(f, QP_B, b2.new_key, true), no);
	KUNIT_EXPECT_EQ(test, read8(f, QP_A, b2.new_key), 0);
	/* From its QP: gone; the key misses, the MR is let go. */
	KUNIT_EXPECT_EQ(test, inv(f, QP_A, b2.new_key, true), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, read8(f, QP_A, b2.new_key), PROT(BAD_RKEY));
	KUNIT_EXPECT_EQ(test, atomic_read(&f->mr.mw_binds), 2);
	/* Remotely again: nothing bound. Locally: already done, fine. */
	KUNIT_EXPECT_EQ(test, inv(f, QP_A, b2.new_key, true), no);
	KUNIT_EXPECT_EQ(test, inv(f, QP_B, b2.new_key, false), IB_WC_SUCCESS);
	/* Free again: bound anew, to another QP, locally invalidated. */
	b2 = bind_of(f, f->w2, 1, MR_IOVA, 64, RW);
	KUNIT_ASSERT_EQ(test, bind(f, QP_B, &b2), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, read8(f, QP_B, b2.new_key), 0);
	KUNIT_EXPECT_EQ(test, inv(f, QP_A, b2.new_key, false), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, read8(f, QP_B, b2.new_key), PROT(BAD_RKEY));
	/* An MR's key goes on to the MR rules: not an FRWR MR, refused. */
	KUNIT_EXPECT_EQ(test, inv(f, QP_A, f->mr.ibmr.rkey, false), no);
}

/* IBA 10.6.7.2.6: no deregistration while bound; dealloc while bound. */
static void mw_dereg_and_dealloc(struct kunit *test)
{
	struct mw_fixture *f = test->priv;
	struct superp_mw_bind b = bind_of(f, f->w2, 1, MR_IOVA, 64, RW);
	u32 key = b.new_key;

	KUNIT_ASSERT_EQ(test, bind(f, QP_A, &b), IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, superp_mr_end_binds(&f->mr), -EINVAL);
	/* Dealloc while bound: the binding goes with it, the key misses. */
	superp_win_free(&f->t, f->w2);
	f->w2 = NULL;
	KUNIT_EXPECT_EQ(test, check(f, QP_A, key, IB_ACCESS_REMOTE_READ,
				    MR_IOVA, 8), PROT(BAD_RKEY));
	KUNIT_EXPECT_EQ(test, refcount_read(&f->mr.ref), 1U);
	KUNIT_EXPECT_EQ(test, superp_mr_end_binds(&f->mr), 0);
	/* Deregistration has begun: no window binds to the MR any more. */
	b = bind_of(f, f->w1, 1, MR_IOVA, 64, RW);
	KUNIT_EXPECT_EQ(test, bind(f, QP_A, &b), IB_WC_MW_BIND_ERR);
	KUNIT_EXPECT_EQ(test, refcount_read(&f->mr.ref), 1U);
}

static struct kunit_case superp_mw_cases[] = {
	KUNIT_CASE(mw_keys),
	KUNIT_CASE(mw_bind_checks),
	KUNIT_CASE(mw_type1_rebind),
	KUNIT_CASE(mw_remote_access),
	KUNIT_CASE(mw_remote_atomic),
	KUNIT_CASE(mw_invalidate),
	KUNIT_CASE(mw_dereg_and_dealloc),
	{}
};

static struct kunit_suite superp_mw_suite = {
	.name = "superp_mw",
	.init = mw_init,
	.exit = mw_exit,
	.test_cases = superp_mw_cases,
};

kunit_test_suite(superp_mw_suite);

MODULE_DESCRIPTION("KUnit: ib_superp memory windows");
MODULE_LICENSE("GPL");
