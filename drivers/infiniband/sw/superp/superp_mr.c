// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: memory regions and the table that finds them by key.
 *
 * Keys. lkey and rkey of an MR are the same 32-bit key:
 *
 *   31      24 23                 8 7        0
 *   +---------+--------------------+---------+
 *   | gen 15-8|  table index 15-0  | gen 7-0 |
 *   +---------+--------------------+---------+
 *
 * Each of the SUPERP_MAX_MR table slots keeps the 16-bit generation of the
 * last key it handed out (random at first) and bumps it on every reuse,
 * skipping 0. So a key
 * comes back only after its slot has been reused 65,535 times, however many
 * other MRs are held, and a stale key presented meanwhile finds a slot that
 * is empty or holds an MR with another key: it misses. Generation 0 is
 * never handed out, so key 0 is free for SUPERP_LOCAL_DMA_LKEY, the local
 * DMA lkey of kernel PDs, which is never looked up in the table.
 *
 * Fast-registration MRs (alloc_mr, for FRWR). The consumer chooses the low
 * byte of each key (ib_update_fast_reg_key()) and registers with
 * IB_WR_REG_MR: such an MR takes, at allocation, all 256 generations that
 * share a fresh, nonzero top byte, so no other key of its slot can equal
 * one the consumer picks. Its keys come back after 255 allocations in its
 * slot, or 65,535 plain registrations. An FRWR MR is in the table from
 * allocation to deregistration, but lookups match mr->key, which names
 * another slot (superp_mr_key_none()) while the MR is invalid.
 map_mr_sg fills the same page array as user MRs have (pages[], one
 * PAGE_SIZE page each, page_off), so superp_rma.c walks both alike.
 * IB_WR_REG_MR (superp_mr_fast_reg()) writes iova, length, page_off and
 * access while the MR is invalid, then publishes the key with a release
 * store that lookups pair with an acquire load; IB_WR_LOCAL_INV
 * (superp_mr_local_inv()) takes the key back. A lookup that started before
 * an invalidation may still hold the MR when a new registration rewrites
 * those fields: its accesses stay inside the MR's page array (max_pages
 * entries, never reallocated), that is inside memory the consumer mapped
 * for the device, and superp_mr_walk() bounds every page index of an FRWR
 * MR by max_pages and refuses a page never mapped.
 *
 * Memory windows (superp_mw.c) share the table: a window's entry is
 * tagged (SUPERP_MR_TAG_MW), takes its slot's 256 generations of a fresh
 * top byte as an FRWR MR does, and every lookup of an MR (lkey or rkey)
 * misses on it; superp_mr_table_mw() finds windows. An MR with windows
 * bound refuses deregistration (mw_binds; superp_mw.c).
 *
 * Lifetime rule: the memory behind a key outlives every user of the key.
 *
 *  - An MR is published in the table (xa_store()) only when complete:
 *    every field the data path reads is set before, and never changes
 *    after. Until then its slot is only reserved, and lookups miss.
 *    Reregistration (new access flags) publishes a new MR in the old
 *    one's slot under the same key (superp_mr_replace()), rather than
 *    change the old one; the old one is then deregistered as any.
 *  - A lookup (superp_mr_get(), under RCU, any context) succeeds only with
 *    the exact key, and takes a reference. The table holds one more.
 *    References are short: the receive path holds one while it places one
 *    packet, the transmit path while it builds one (pages put into an skb
 *    hold page references of their own until the skb is freed). A work
 *    request names keys, not MRs, and nothing holds a reference across a
 *    return to user space.
 *  - Deregistration unpublishes the MR (no new lookup can find it), drops
 *    the table's reference and waits, in process context, until the last
 *    lookup's reference is gone. Only then are the pages unpinned (which may
 *    sleep); the structure itself is freed after an RCU grace period,
 *    because a lookup may still be looking at it between xa_load() and its
 *    refcount_inc_not_zero().
 *
 * Locking: the table's xa_lock (a plain spinlock) serialises reservation,
 * publication and removal, all in process context. Lookups take no lock.
 * A slot's generation is written only by the one thread that reserved the
 * slot, while it holds xa_lock. An FRWR MR's fr_lock (irqsave: local work
 * requests run under a QP's send queue lock) serialises REG_MR and
 * LOCAL_INV on it, which QPs may post concurrently.
 */
#include <kunit/visibility.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <rdma/ib_umem.h>

#include "superp.h"
#include "superp_mr.h"

/* Access flags ib_superp implements; the core has checked the combination. */
#define SUPERP_MR_ACCESS (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			  IB_ACCESS_REMOTE_READ | SUPERP_ATOMIC_ACCESS)
/* User MRs may also take memory windows (FRWR and DMA MRs may not). */
#define SUPERP_UMR_ACCESS (SUPERP_MR_ACCESS | IB_ACCESS_MW_BIND)

/* The tag of a window's entry in the table (xa_tag_pointer()). */
#define SUPERP_MR_TAG_MW 1

/*
 * Remote atomic access exactly when the device announces atomics: it
 * does (IB_ATOMIC_GLOB), so MRs may allow IB_ACCESS_REMOTE_ATOMIC.
 */
static_assert((SUPERP_ATOMIC_ACCESS == 0) == (SUPERP_ATOMIC_CAP == IB_ATOMIC_NONE));
static_assert(SUPERP_ATOMIC_ACCESS == IB_ACCESS_REMOTE_ATOMIC);

static u32 superp_mr_key(u32 index, u16 gen)
{
	return (u32)(gen >> 8) << 24 | index << 8 | (gen & 0xff);
}

static u32 superp_key_index(u32 key)
{
	return key >> 8 & (SUPERP_MAX_MR - 1);
}

/* A key that lookups in slot @index never present: it names another slot. */
static u32 superp_mr_key_none(u32 index)
{
	return (index ^ 1) << 8;
}

int superp_mr_table_init(struct superp_mr_table *t)
{
	t->gen = kvmalloc_array(SUPERP_MAX_MR, sizeof(*t->gen), GFP_KERNEL);
	if (!t->gen)
		return -ENOMEM;
	/*
	 * Generations start anywhere: the keys of a device set up again (a
	 * reboot, the module reloaded) are not the last incarnation's, so a
	 * stale request from a peer that kept its state misses.
	 */
	get_random_bytes(t->gen, SUPERP_MAX_MR * sizeof(*t->gen));
	xa_init_flags(&t->xa, XA_FLAGS_ALLOC);
	t->next = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_table_init);

/* When the device is freed: the core has deregistered every MR. */
void superp_mr_table_destroy(struct superp_mr_table *t)
{
	WARN_ON(!xa_empty(&t->xa));
	xa_destroy(&t->xa);
	kvfree(t->gen);
	t->gen = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_table_destroy);

/* Under xa_lock: the generation of a new key in @index. */
static u16 superp_mr_next_gen(struct superp_mr_table *t, u32 index,
			      bool fast_reg)
{
	u16 gen = t->gen[index];

	if (fast_reg) {
		/* A fresh nonzero top byte; the MR owns its 256 generations. */
		u16 hi = (gen >> 8) + 1;

		if (hi > 0xff)
			hi = 1;
		t->gen[index] = hi << 8 | 0xff;
		return hi << 8;
	}
	gen++;
	if (!gen)
		gen = 1;
	t->gen[index] = gen;
	return gen;
}

/*
 * Under xa_lock: a free slot, reserved by a NULL entry (xa_load() still
 * returns NULL). 0, or -ENOMEM when the table is full.
 */
static int superp_mr_reserve(struct superp_mr_table *t, u32 *index)
{
	int err = __xa_alloc_cyclic(&t->xa, index, NULL,
				    XA_LIMIT(0, SUPERP_MAX_MR - 1), &t->next,
				    GFP_KERNEL);

	if (err < 0)
		return err == -EBUSY ? -ENOMEM : err;
	return 0;
}

static int __superp_mr_publish(struct superp_mr_table *t, struct superp_mr *mr)
{
	u32 index;
	int err;

	refcount_set(&mr->ref, 1);
	atomic_set(&mr->mw_binds, 1);
	init_completion(&mr->unused);

	xa_lock(&t->xa);
	err = superp_mr_reserve(t, &index);
	if (err) {
		xa_unlock(&t->xa);
		return err;
	}
	mr->ibmr.lkey = superp_mr_key(index,
				      superp_mr_next_gen(t, index, mr->fast_reg));
	mr->ibmr.rkey = mr->ibmr.lkey;
	mr->key = mr->fast_reg ? superp_mr_key_none(index) : mr->ibmr.lkey;
	/* Publish: the store orders every write to *mr before it. */
	__xa_store(&t->xa, index, mr, GFP_KERNEL);
	xa_unlock(&t->xa);
	return 0;
}

/**
 * superp_mr_publish - give @mr a key and make it visible to lookups
 * @t: the device's MR table
 * @mr: a complete MR: every field but the key set, and not to change
 *
 * Return: 0 with ibmr.lkey and ibmr.rkey set, or -ENOMEM when the table is
 * full.
 */
int superp_mr_publish(struct superp_mr_table *t, struct superp_mr *mr)
{
	mr->fast_reg = false;
	return __superp_mr_publish(t, mr);
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_publish);

/*
 * Takes @mr out of the table (lookups miss from now on) and drops the
 * table's reference. The caller then waits with superp_mr_wait_unused().
 * An MR that superp_mr_replace() replaced is no longer in its slot: the
 * slot is left to its successor.
 */
void superp_mr_unpublish(struct superp_mr_table *t, struct superp_mr *mr)
{
	xa_cmpxchg(&t->xa, superp_key_index(mr->ibmr.lkey), mr, NULL, 0);
	superp_mr_put(mr);
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_unpublish);

/**
 * superp_mr_replace - put @mr in @old's slot, under @old's key
 * @t: the device's MR table
 * @old: a published MR, whose deregistration follows
 * @mr: a complete MR (every field but the key set, and not to change)
 *
 * One store: a lookup finds @old or @mr, each complete and unchanging,
 * never a mixture. @old keeps its pages and the table's reference until
 * superp_mr_unpublish(), which then leaves the slot alone. Process context.
 */
void superp_mr_replace(struct superp_mr_table *t, struct superp_mr *old,
		       struct superp_mr *mr)
{
	refcount_set(&mr->ref, 1);
	atomic_set(&mr->mw_binds, 1);
	init_completion(&mr->unused);
	mr->ibmr.lkey = old->ibmr.lkey;
	mr->ibmr.rkey = old->ibmr.rkey;
	mr->key = old->key;
	/* The slot exists: nothing to allocate. The store orders *mr. */
	xa_store(&t->xa, superp_key_index(old->ibmr.lkey), mr, GFP_KERNEL);
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_replace);

/* Process context: returns once no lookup holds @mr any more. */
void superp_mr_wait_unused(struct superp_mr *mr)
{
	wait_for_completion(&mr->unused);
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_wait_unused);

/**
 * superp_mr_get - find the MR of a key and hold it
 * @t: the device's MR table
 * @key: an lkey or rkey as presented (by a work request or a peer)
 *
 * Any context; takes rcu_read_lock() itself. The caller still checks the
 * MR's PD, access flags and bounds, and calls superp_mr_put() soon (see
 * the lifetime rule above).
 *
 * Return: the MR, or NULL when no published MR has exactly this key.
 */
struct superp_mr *superp_mr_get(struct superp_mr_table *t, u32 key)
{
	struct superp_mr *mr;

	rcu_read_lock();
	mr = xa_load(&t->xa, superp_key_index(key));
	if (xa_pointer_tag(mr))	/* a memory window's entry: no MR */
		mr = NULL;
	/* Pairs with the release in superp_mr_fast_reg(). */
	if (mr && (smp_load_acquire(&mr->key) != key ||
		   !refcount_inc_not_zero(&mr->ref)))
		mr = NULL;
	rcu_read_unlock();
	return mr;
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_get);

void superp_mr_put(struct superp_mr *mr)
{
	if (refcount_dec_and_test(&mr->ref))
		complete(&mr->unused);
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_put);

/*
 * Deregistration's (and reregistration's) first step: not while memory
 * windows are bound to @mr (IBA 10.6.7.2.6; -EINVAL, as rxe). mw_binds
 * goes from 1 (none bound) to 0, after which no bind succeeds
 * (superp_mw.c); 0 already (a rereg replaced @mr) is fine.
 */
int superp_mr_end_binds(struct superp_mr *mr)
{
	return atomic_cmpxchg(&mr->mw_binds, 1, 0) <= 1 ? 0 : -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_end_binds);

/* A key of @key's slot that no lookup presents: it names another slot. */
u32 superp_mr_key_unused(u32 key)
{
	return superp_mr_key_none(superp_key_index(key));
}

/**
 * superp_mr_table_add_mw - give a memory window a slot and a first key
 * @t: the device's MR table
 * @mw: the window (struct superp_win), complete but for its keys
 * @key: set to its first key; the window owns all 256 of its low byte
 * @unused: set to superp_mr_key_unused() of it, what an unbound window
 *	matches; both are written before the window is published
 *
 * Process context. Return: 0, or -ENOMEM when the table is full.
 */
int superp_mr_table_add_mw(struct superp_mr_table *t, void *mw, u32 *key,
			   u32 *unused)
{
	u32 index;
	int err;

	xa_lock(&t->xa);
	err = superp_mr_reserve(t, &index);
	if (err) {
		xa_unlock(&t->xa);
		return err;
	}
	*key = superp_mr_key(index, superp_mr_next_gen(t, index, true));
	*unused = superp_mr_key_none(index);
	/* Publish: the store orders every write to the window before it. */
	__xa_store(&t->xa, index, xa_tag_pointer(mw, SUPERP_MR_TAG_MW),
		   GFP_KERNEL);
	xa_unlock(&t->xa);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_table_add_mw);

void superp_mr_table_del_mw(struct superp_mr_table *t, u32 key)
{
	xa_erase(&t->xa, superp_key_index(key));
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_table_del_mw);

/*
 * Under RCU: the window in @key's slot, whatever its current key, or NULL
 * (an MR, or nothing).
 */
void *superp_mr_table_mw(struct superp_mr_table *t, u32 key)
{
	void *entry = xa_load(&t->xa, superp_key_index(key));

	if (xa_pointer_tag(entry) != SUPERP_MR_TAG_MW)
		return NULL;
	return xa_untag_pointer(entry);
}
EXPORT_SYMBOL_IF_KUNIT(superp_mr_table_mw);

/*
 * Whether @lkey in a work request of a QP in @pd names kernel virtual
 * addresses directly: only the local DMA lkey, and only for kernel PDs.
 */
bool superp_lkey_is_local_dma(const struct ib_pd *pd, u32 lkey)
{
	return lkey == SUPERP_LOCAL_DMA_LKEY && !pd->uobject;
}
EXPORT_SYMBOL_IF_KUNIT(superp_lkey_is_local_dma);

/*
 * reg_mr carries no driver data: trailing bytes are refused unless zero,
 * as the ABI header promises.
 */
static int superp_mr_check_udata(struct ib_device *ibdev,
				 struct ib_udata *udata)
{
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen)) {
		superp_refuse(ibdev, "reg_mr: unknown driver data\n");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * The page array of a user MR, from its pinned pages: the data path finds
 * the page of any MR offset in O(1), which the umem's scatterlist (one
 * entry per contiguous run) cannot give.
 */
static int superp_mr_map_umem(struct superp_mr *mr)
{
	struct ib_umem *umem = mr->umem;
	struct sg_page_iter piter;
	unsigned long i = 0, n;

	mr->page_off = ib_umem_offset(umem);
	n = ib_umem_num_pages(umem);
	mr->pages = kvmalloc_array(n, sizeof(*mr->pages), GFP_KERNEL);
	if (!mr->pages)
		return -ENOMEM;
	for_each_sgtable_page(&umem->sgt_append.sgt, &piter, 0) {
		if (WARN_ON_ONCE(i == n))
			break;
		mr->pages[i++] = sg_page_iter_page(&piter);
	}
	return i == n ? 0 : -EFAULT;
}

/*
 * The DMA MR of a kernel PD. Kernel PDs need none for local access
 * (IBK_LOCAL_DMA_LKEY): the core asks for one only when a consumer
 * allocates its PD with IB_PD_UNSAFE_GLOBAL_RKEY, and then publishes its
 * rkey as pd->unsafe_global_rkey. As the flag's name says, that rkey
 * reaches all of this host's kernel memory: addresses are kernel virtual
 * addresses (the device uses virtual DMA), walked by superp_virt_walk(),
 * which refuses an address with no page behind it.
 */
struct ib_mr *superp_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct superp_dev *sdev = to_sdev(ibpd->device);
	struct superp_mr *mr;
	int err;

	if (ibpd->uobject)
		return ERR_PTR(-EOPNOTSUPP);
	access &= ~IB_ACCESS_OPTIONAL;
	if (access & ~SUPERP_MR_ACCESS) {
		superp_refuse(&sdev->ibdev, "get_dma_mr: unsupported access 0x%x\n",
			      access & ~SUPERP_MR_ACCESS);
		return ERR_PTR(-EOPNOTSUPP);
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->pd = ibpd;
	mr->dma = true;
	mr->access = access;
	mr->iova = 0;
	mr->length = U64_MAX;
	err = superp_mr_publish(&sdev->mrs, mr);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

/* Optional bits are hints: a device may ignore any of them. */
static int superp_umr_access(struct ib_device *ibdev, int *access)
{
	*access &= ~IB_ACCESS_OPTIONAL;
	if (*access & ~SUPERP_UMR_ACCESS) {
		superp_refuse(ibdev, "reg_mr: unsupported access 0x%x\n",
			      *access & ~SUPERP_UMR_ACCESS);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* A user MR, complete but not published: its pages pinned and listed. */
static struct superp_mr *superp_umr_new(struct ib_pd *ibpd, u64 start,
					u64 length, u64 iova, int access)
{
	struct superp_dev *sdev = to_sdev(ibpd->device);
	struct superp_mr *mr;
	u64 last;
	int err;

	/* The last byte must have a device address: iova + length - 1. */
	if (!length || check_add_overflow(iova, length - 1, &last))
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(&sdev->ibdev, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		goto err_free;
	}
	err = superp_mr_map_umem(mr);
	if (err)
		goto err_umem;
	mr->pd = ibpd;
	mr->access = access;
	mr->iova = iova;
	mr->length = length;
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	return mr;

err_umem:
	kvfree(mr->pages);
	ib_umem_release(mr->umem);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

/* What superp_umr_new() pinned and allocated. */
static void superp_umr_free(struct superp_mr *mr)
{
	kvfree(mr->pages);
	ib_umem_release(mr->umem);
	kfree(mr);
}

struct ib_mr *superp_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				 u64 iova, int access, struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibpd->device);
	struct superp_mr *mr;
	int err;

	err = superp_mr_check_udata(&sdev->ibdev, udata);
	if (!err)
		err = superp_umr_access(&sdev->ibdev, &access);
	if (err)
		return ERR_PTR(err);
	mr = superp_umr_new(ibpd, start, length, iova, access);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	err = superp_mr_publish(&sdev->mrs, mr);
	if (err) {
		superp_umr_free(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

/**
 * superp_rereg_user_mr - new access flags for a user MR
 * @ibmr: the MR
 * @flags: IB_MR_REREG_ACCESS; translation and PD are refused
 * @start: unused
 * @length: unused
 * @iova: unused
 * @access: the new access flags (the core has checked the combination)
 * @ibpd: unused
 * @udata: no driver data
 *
 * Fields the data path reads never change under it (superp.h), so the
 * answer is a new MR: the same pages pinned again, the same range, PD
 * and key, the new access, put in the old one's slot in one store
 * (superp_mr_replace()); the core then deregisters the old one. Refused
 * with EINVAL while memory windows are bound (as dereg_mr), and no window
 * binds to the old MR from here on. A new translation or PD is refused
 * with EOPNOTSUPP: a receive WQE whose SGE they would invalidate is
 * refused at the responder with a Remote Invalid Request, where verbs
 * programs expect a Remote Operation Error.
 *
 * Return: the new MR, or an ERR_PTR().
 */
struct ib_mr *superp_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				   u64 length, u64 iova, int access,
				   struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibmr->device);
	struct superp_mr *old = to_smr(ibmr), *mr;
	int err;

	err = superp_mr_check_udata(&sdev->ibdev, udata);
	if (err)
		return ERR_PTR(err);
	if (flags & ~IB_MR_REREG_ACCESS) {
		superp_refuse(ibmr->device, "rereg_mr: flags 0x%x: only IB_MR_REREG_ACCESS\n",
			      flags);
		return ERR_PTR(-EOPNOTSUPP);
	}
	err = superp_umr_access(&sdev->ibdev, &access);
	if (err)
		return ERR_PTR(err);
	if (!old->umem)
		return ERR_PTR(-EINVAL);
	if (superp_mr_end_binds(old)) {
		ibdev_dbg(ibmr->device, "rereg_mr: memory windows bound to 0x%x\n",
			  ibmr->lkey);
		return ERR_PTR(-EINVAL);
	}
	mr = superp_umr_new(old->pd, old->umem->address, old->length,
			    old->iova, access);
	if (IS_ERR(mr)) {
		atomic_set(&old->mw_binds, 1);
		return ERR_CAST(mr);
	}
	superp_mr_replace(&sdev->mrs, old, mr);
	return &mr->ibmr;
}

int superp_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibmr->device);
	struct superp_mr *mr = to_smr(ibmr);

	if (superp_mr_end_binds(mr)) {
		ibdev_dbg(ibmr->device, "dereg_mr: memory windows bound to 0x%x\n",
			  ibmr->lkey);
		return -EINVAL;
	}
	superp_mr_unpublish(&sdev->mrs, mr);
	superp_mr_wait_unused(mr);
	kvfree(mr->pages);
	ib_umem_release(mr->umem);
	kfree_rcu(mr, rcu);
	return 0;
}

/* ---- Fast-registration MRs (FRWR) ---- */

struct ib_mr *superp_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			      u32 max_num_sg)
{
	struct superp_dev *sdev = to_sdev(ibpd->device);
	struct superp_mr *mr;
	int err;

	if (type != IB_MR_TYPE_MEM_REG) {
		superp_refuse(ibpd->device, "alloc_mr: only IB_MR_TYPE_MEM_REG\n");
		return ERR_PTR(-EOPNOTSUPP);
	}
	if (!max_num_sg || max_num_sg > SUPERP_MAX_FAST_REG_PAGES)
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->pages = kvcalloc(max_num_sg, sizeof(*mr->pages), GFP_KERNEL);
	if (!mr->pages) {
		err = -ENOMEM;
		goto err_free;
	}
	mr->max_pages = max_num_sg;
	mr->pd = ibpd;
	mr->fast_reg = true;
	spin_lock_init(&mr->fr_lock);
	err = __superp_mr_publish(&sdev->mrs, mr);
	if (err)
		goto err_pages;
	mr->fr_key = superp_mr_key_none(superp_key_index(mr->ibmr.lkey));
	return &mr->ibmr;

err_pages:
	kvfree(mr->pages);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

/* @addr: a kernel virtual address (the device uses virtual DMA). */
static int superp_mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct superp_mr *mr = to_smr(ibmr);
	void *va = (void *)(uintptr_t)addr;

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	if (!virt_addr_valid(va))
		return -EINVAL;
	mr->pages[mr->npages++] = virt_to_page(va);
	return 0;
}

/*
 * The page array of the next IB_WR_REG_MR, in PAGE_SIZE pages: the one
 * layout superp_mr_walk() knows. ib_sg_to_pages() sets ibmr.iova and
 * length.
 */
int superp_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		     unsigned int *sg_offset)
{
	struct superp_mr *mr = to_smr(ibmr);

	if (ibmr->page_size != PAGE_SIZE) {
		ibdev_dbg(ibmr->device, "map_mr_sg: page size must be %lu\n",
			  PAGE_SIZE);
		return -EINVAL;
	}
	mr->npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset,
			      superp_mr_set_page);
}

/* post_send's checks of an IB_WR_REG_MR: the MR, its PD, key and access. */
int superp_mr_check_reg_wr(struct ib_pd *pd, const struct ib_reg_wr *wr)
{
	struct superp_mr *mr = to_smr(wr->mr);
	int access = wr->access & ~IB_ACCESS_OPTIONAL;

	if (wr->mr->device != pd->device || !mr->fast_reg || mr->pd != pd)
		return -EINVAL;
	/* Only the low byte of the key is the consumer's. */
	if ((wr->key ^ mr->ibmr.lkey) & ~0xffu)
		return -EINVAL;
	if (access & ~SUPERP_MR_ACCESS)
		return -EINVAL;
	/* Remote write and remote atomic need local write (IBTA 10.6.3.1). */
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	return 0;
}

/* The FRWR MR of slot key_index(@key), held, whatever its current key. */
static struct superp_mr *superp_mr_get_fast_reg(struct superp_mr_table *t,
						u32 key, struct ib_pd *pd)
{
	struct superp_mr *mr;

	rcu_read_lock();
	mr = xa_load(&t->xa, superp_key_index(key));
	if (mr && (xa_pointer_tag(mr) || !mr->fast_reg || mr->pd != pd ||
		   !refcount_inc_not_zero(&mr->ref)))
		mr = NULL;
	rcu_read_unlock();
	return mr;
}

/**
 * superp_mr_fast_reg - run an IB_WR_REG_MR: make the MR valid with @key
 * @t: the device's MR table
 * @pd: the PD of the posting QP
 * @key: the new key (its index names the MR)
 * @access: the access flags of the registration
 *
 * Any context. The MR must be invalid (IBTA: fast registration applies to
 * a free region). Return: the status the WR completes with.
 */
enum ib_wc_status superp_mr_fast_reg(struct superp_mr_table *t,
				     struct ib_pd *pd, u32 key, int access)
{
	enum ib_wc_status status = IB_WC_SUCCESS;
	struct superp_mr *mr;
	unsigned long flags;

	mr = superp_mr_get_fast_reg(t, key, pd);
	if (!mr)
		return IB_WC_MW_BIND_ERR;
	spin_lock_irqsave(&mr->fr_lock, flags);
	if (READ_ONCE(mr->key) != superp_mr_key_none(superp_key_index(key)) ||
	    !mr->npages) {
		status = IB_WC_MW_BIND_ERR;	/* valid already, or unmapped */
	} else {
		mr->iova = mr->ibmr.iova;
		mr->length = mr->ibmr.length;
		mr->page_off = offset_in_page(mr->ibmr.iova);
		mr->access = access & ~IB_ACCESS_OPTIONAL;
		mr->fr_key = key;
		mr->ibmr.lkey = key;
		mr->ibmr.rkey = key;
		/* Lookups see the fields above once they see the key. */
		smp_store_release(&mr->key, key);
	}
	spin_unlock_irqrestore(&mr->fr_lock, flags);
	superp_mr_put(mr);
	return status;
}

/**
 * superp_mr_local_inv - run an IB_WR_LOCAL_INV of @key
 * @t: the device's MR table
 * @pd: the PD of the posting QP
 * @key: the key last registered on the MR
 *
 * Any context. Invalidating an MR that is already invalid, with its last
 * key, succeeds (a peer may have invalidated it remotely). Return: the
 * status the WR completes with.
 */
enum ib_wc_status superp_mr_local_inv(struct superp_mr_table *t,
				      struct ib_pd *pd, u32 key)
{
	enum ib_wc_status status = IB_WC_SUCCESS;
	struct superp_mr *mr;
	unsigned long flags;

	mr = superp_mr_get_fast_reg(t, key, pd);
	if (!mr)
		return IB_WC_LOC_PROT_ERR;
	spin_lock_irqsave(&mr->fr_lock, flags);
	if (mr->fr_key != key)
		status = IB_WC_LOC_PROT_ERR;
	else
		WRITE_ONCE(mr->key, superp_mr_key_none(superp_key_index(key)));
	spin_unlock_irqrestore(&mr->fr_lock, flags);
	superp_mr_put(mr);
	return status;
}
