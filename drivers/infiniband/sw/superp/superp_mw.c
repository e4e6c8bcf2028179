// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: memory windows, type 1 and type 2B.
 *
 * A window is an rkey for a range of an MR, with remote rights of its own,
 * bound and unbound while the MR stays registered. Type 1 is bound with
 * ibv_bind_mw() and keeps no QP; type 2 is bound by a work request
 * (IB_WR_BIND_MW) to the QP that posts it, and only that QP may use its
 * rkey (2B: the remote access is checked against the QP and the PD).
 *
 * Keys. Windows live in the MR table beside the MRs (superp_mr.c), as
 * tagged entries, so window and MR keys come from one scheme and never
 * collide: at alloc a window takes a slot and, as an FRWR MR does, all 256
 * generations of a fresh top byte; each bind changes only the low byte
 * (type 1: the provider steps it, ibv_inc_rkey(); type 2: the consumer
 * chooses it). An unbound window's lookups match a key that names another
 * slot, so they miss; a key of an earlier binding, or of the slot's earlier
 * occupants, misses as an MR's does. The MR lookup of the data path
 * (superp_mr_get()) only adds a test of the entry's tag.
 *
 * Checks of a bind (superp_mw_bind(); a failure completes the WR with
 * IB_WC_MW_BIND_ERR and, as any failed WR of an RC QP, moves the QP to
 * ERR): the window exists and is of the QP's PD; the new key keeps the
 * window's upper 24 bits; rights are remote read, write and atomic (local
 * write is accepted and means nothing for a window; zero-based windows
 * are not offered); type 2 must be unbound and have a length; with a
 * length, the lkey names a user MR of the same PD, registered with
 * IB_ACCESS_MW_BIND, local write when the window grants remote write or
 * atomic (IBTA C10-74), and [addr, addr + length) inside it. A type 1
 * bind of length 0 unbinds the window (its key moves on, nothing is
 * reachable through it); type 1 rebinds a bound window in one step.
 *
 * Remote access through a window's rkey (superp_mw_rma_check(), when the
 * MR lookup missed) is checked as an MR's, with the window's own range
 * and rights, and the same Transaction Error codes: no bound window with
 * this key, or a type 2 window of another QP, is PROTECTION/BAD_RKEY;
 * another PD PD_MISMATCH; rights ACCESS; range BOUNDS. The caller gets
 * the MR, held, and walks it as if the MR's own rkey had been presented.
 *
 * Invalidation (superp_key_invalidate(), which takes MR keys too):
 * IB_WR_LOCAL_INV of a type 2 window's key from any QP of its PD, Send
 * with Invalidate only from the QP it is bound to. Type 1 windows are
 * never invalidated (IBTA o10-37.2.26): a type 1 bind of length 0 unbinds.
 *
 * An MR with windows bound cannot be deregistered (IBA 10.6.7.2.6):
 * dereg_mr fails with EINVAL, as rxe's does, until they are unbound or
 * deallocated. mr->mw_binds is 1 plus the windows bound; deregistration
 * swaps 1 for 0, and a bind after that fails.
 *
 * Lifetime rule: the memory behind a window's key outlives every user of
 * the key, as for MRs. The structure lookups read (struct superp_win) is
 * apart from the core's ib_mw, which the core frees as soon as dealloc_mw
 * returns; it is freed after an RCU grace period. A bound window holds a
 * reference on its MR (and counts in mr->mw_binds); a remote access takes
 * one more reference on that MR, under RCU, and places its data through
 * the MR as superp_rma.c does for an MR's own key. Nothing holds a window
 * across a packet.
 *
 * Locking: win->lock (irqsave: binds and local invalidations run under
 * the posting QP's sq.lock, remote invalidations under a connection
 * entry's lock in softirq; lock order: the top of superp_rc_bind.c)
 * serialises bind, invalidate and dealloc. The binding is written inside
 * win->seq's write section; the data path reads it with no lock, as a
 * snapshot (read_seqcount_begin/retry), takes the MR's reference and
 * checks the snapshot is still current.
 */
#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "superp.h"
#include "superp_engine.h"
#include "superp_mr.h"
#include "superp_mw.h"
#include "superp_rma.h"

/* Rights a window may grant; local write is accepted and ignored. */
#define SUPERP_MW_ACCESS (IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE | \
			  SUPERP_ATOMIC_ACCESS)

static bool superp_win_bound(const struct superp_win *w)
{
	return w->key != superp_mr_key_unused(w->base);
}

/*
 * Under w->lock: the window forgets its binding (lookups miss from now
 * on). Return: the MR it held, for superp_win_release() once unlocked,
 * or NULL.
 */
static struct superp_mr *superp_win_unbind(struct superp_win *w)
{
	struct superp_mr *mr = w->mr;

	write_seqcount_begin(&w->seq);
	WRITE_ONCE(w->key, superp_mr_key_unused(w->base));
	w->mr = NULL;
	w->addr = 0;
	w->length = 0;
	w->access = 0;
	w->qp = 0;
	write_seqcount_end(&w->seq);
	return mr;
}

/* Drops what a binding held of its MR. */
static void superp_win_release(struct superp_mr *mr)
{
	if (!mr)
		return;
	atomic_dec(&mr->mw_binds);
	superp_mr_put(mr);
}

/**
 * superp_win_alloc - a new, unbound window in the key table
 * @t: the device's MR table
 * @pd: its PD
 * @type: IB_MW_TYPE_1 or IB_MW_TYPE_2
 * @wp: set to the window; (*wp)->base is its first key
 *
 * Process context. Return: 0, -EINVAL for another type, -ENOMEM.
 */
VISIBLE_IF_KUNIT int superp_win_alloc(struct superp_mr_table *t,
				      struct ib_pd *pd, enum ib_mw_type type,
				      struct superp_win **wp)
{
	struct superp_win *w;
	int err;

	if (type != IB_MW_TYPE_1 && type != IB_MW_TYPE_2)
		return -EINVAL;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	spin_lock_init(&w->lock);
	seqcount_spinlock_init(&w->seq, &w->lock);
	w->pd = pd;
	w->type = type;
	/* Unbound from the start: lookups match a key of another slot. */
	err = superp_mr_table_add_mw(t, w, &w->base, &w->key);
	if (err) {
		kfree(w);
		return err;
	}
	/* Binds read it under the lock; none can name @w before we return. */
	spin_lock_irq(&w->lock);
	w->last = w->base;
	spin_unlock_irq(&w->lock);
	*wp = w;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_win_alloc);

/*
 * Unpublishes @w, drops its binding and frees it after a grace period.
 * Any context but hard irq; the caller owns @w (no bind or invalidation
 * of it can still start: superp_mw_bind() finds it through the table).
 */
VISIBLE_IF_KUNIT void superp_win_free(struct superp_mr_table *t,
				      struct superp_win *w)
{
	struct superp_mr *mr;
	unsigned long flags;

	superp_mr_table_del_mw(t, w->base);
	spin_lock_irqsave(&w->lock, flags);
	mr = superp_win_unbind(w);
	spin_unlock_irqrestore(&w->lock, flags);
	superp_win_release(mr);
	kfree_rcu(w, rcu);
}
EXPORT_SYMBOL_IF_KUNIT(superp_win_free);

int superp_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibmw->device);
	struct superp_mw *mw = to_smw(ibmw);
	int err;

	/* alloc_mw carries no driver data: trailing bytes must be zero. */
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen)) {
		superp_refuse(ibmw->device, "alloc_mw: unknown driver data\n");
		return -EOPNOTSUPP;
	}
	if (atomic_inc_return(&sdev->mw_count) > SUPERP_MAX_MW) {
		err = -ENOMEM;
		goto err_count;
	}
	err = superp_win_alloc(&sdev->mrs, ibmw->pd, ibmw->type, &mw->win);
	if (err)
		goto err_count;
	ibmw->rkey = mw->win->base;
	return 0;

err_count:
	atomic_dec(&sdev->mw_count);
	return err;
}

/* Allowed while bound: the binding goes with the window. */
int superp_dealloc_mw(struct ib_mw *ibmw)
{
	struct superp_dev *sdev = to_sdev(ibmw->device);
	struct superp_mw *mw = to_smw(ibmw);

	superp_win_free(&sdev->mrs, mw->win);
	mw->win = NULL;
	atomic_dec(&sdev->mw_count);
	return 0;
}

/* The MR of a bind, held, or NULL when it may not take the window. */
static struct superp_mr *superp_mw_bind_mr(struct superp_mr_table *t,
					   const struct superp_win *w,
					   const struct superp_mw_bind *b,
					   int access)
{
	struct superp_mr *mr = superp_mr_get(t, b->mr_lkey);

	if (!mr)
		return NULL;
	/* Only user MRs: their range and pages never change. */
	if (mr->fast_reg || mr->dma || mr->pd != w->pd ||
	    !(mr->access & IB_ACCESS_MW_BIND))
		goto refuse;
	/* IBTA C10-74: remote write or atomic need local write on the MR. */
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(mr->access & IB_ACCESS_LOCAL_WRITE))
		goto refuse;
	if (b->addr < mr->iova || b->length > mr->length ||
	    b->addr - mr->iova > mr->length - b->length)
		goto refuse;
	/* Fails once deregistration has begun. */
	if (!atomic_inc_not_zero(&mr->mw_binds))
		goto refuse;
	return mr;

refuse:
	superp_mr_put(mr);
	return NULL;
}

/**
 * superp_mw_bind - run a bind work request
 * @t: the device's MR table
 * @pd: the PD of the posting QP
 * @qp: the serial number of the posting QP (struct superp_qp.serial)
 * @b: the request
 *
 * Any context (under the QP's sq.lock). The checks are at the top of the
 * file. Return: the status the WR completes with.
 */
enum ib_wc_status superp_mw_bind(struct superp_mr_table *t, struct ib_pd *pd,
				 u64 qp, const struct superp_mw_bind *b)
{
	enum ib_wc_status status = IB_WC_MW_BIND_ERR;
	int access = b->access & ~IB_ACCESS_LOCAL_WRITE;
	struct superp_mr *mr = NULL, *old = NULL;
	struct superp_win *w;
	unsigned long flags;

	if ((b->new_key ^ b->mw_key) & ~0xffu || access & ~SUPERP_MW_ACCESS)
		return status;
	rcu_read_lock();
	w = superp_mr_table_mw(t, b->mw_key);
	if (!w || w->pd != pd || (b->mw_key ^ w->base) & ~0xffu)
		goto out;
	if (w->type == IB_MW_TYPE_2 && !b->length)
		goto out;	/* IBTA o10-37.2.40: type 2 is invalidated */
	if (b->length) {
		mr = superp_mw_bind_mr(t, w, b, access);
		if (!mr)
			goto out;
	}
	spin_lock_irqsave(&w->lock, flags);
	/* Unpublished meanwhile (dealloc), or type 2 bound already. */
	if (superp_mr_table_mw(t, b->mw_key) != w ||
	    (w->type == IB_MW_TYPE_2 && superp_win_bound(w))) {
		spin_unlock_irqrestore(&w->lock, flags);
		goto out;
	}
	old = w->mr;
	write_seqcount_begin(&w->seq);
	w->mr = mr;
	w->addr = b->addr;
	w->length = b->length;
	w->access = access;
	w->qp = w->type == IB_MW_TYPE_2 ? qp : 0;
	w->last = b->new_key;
	WRITE_ONCE(w->key, b->length ? b->new_key :
				       superp_mr_key_unused(w->base));
	write_seqcount_end(&w->seq);
	spin_unlock_irqrestore(&w->lock, flags);
	mr = NULL;	/* the window holds it now */
	status = IB_WC_SUCCESS;
out:
	rcu_read_unlock();
	superp_win_release(old);
	superp_win_release(mr);
	return status;
}
EXPORT_SYMBOL_IF_KUNIT(superp_mw_bind);

/*
 * Invalidates window @w with @key. Remote (Send with Invalidate): only
 * a bound window of the QP @qp. Local: also succeeds on a window already
 * invalid whose last key was @key (the peer may have invalidated it).
 */
static enum ib_wc_status superp_win_invalidate(struct superp_mr_table *t,
					       struct superp_win *w,
					       struct ib_pd *pd, u64 qp,
					       u32 key, bool remote)
{
	enum ib_wc_status status = IB_WC_LOC_PROT_ERR;
	struct superp_mr *mr = NULL;
	unsigned long flags;

	if (w->type != IB_MW_TYPE_2 || w->pd != pd)
		return status;
	spin_lock_irqsave(&w->lock, flags);
	if (superp_mr_table_mw(t, key) != w) {
		/* deallocated meanwhile */
	} else if (superp_win_bound(w)) {
		if (w->key == key && (!remote || w->qp == qp)) {
			mr = superp_win_unbind(w);
			status = IB_WC_SUCCESS;
		}
	} else if (!remote && w->last == key) {
		status = IB_WC_SUCCESS;
	}
	spin_unlock_irqrestore(&w->lock, flags);
	superp_win_release(mr);
	return status;
}

/**
 * superp_key_invalidate - IB_WR_LOCAL_INV, or a Send with Invalidate's key
 * @t: the device's MR table
 * @pd: the PD of the QP
 * @qp: the serial number of the QP
 * @key: the key to invalidate: a type 2 window's, or an FRWR MR's
 * @remote: a peer asked (Send with Invalidate)
 *
 * Any context. Return: IB_WC_SUCCESS, or IB_WC_LOC_PROT_ERR.
 */
enum ib_wc_status superp_key_invalidate(struct superp_mr_table *t,
					struct ib_pd *pd, u64 qp, u32 key,
					bool remote)
{
	enum ib_wc_status status = IB_WC_LOC_PROT_ERR;
	struct superp_win *w;

	rcu_read_lock();
	w = superp_mr_table_mw(t, key);
	if (w)
		status = superp_win_invalidate(t, w, pd, qp, key, remote);
	rcu_read_unlock();
	if (!w)
		status = superp_mr_local_inv(t, pd, key);
	return status;
}
EXPORT_SYMBOL_IF_KUNIT(superp_key_invalidate);

/**
 * superp_mw_rma_check() - superp_rma_check() for a window's rkey
 * @t: the device's MR table
 * @scope: the target QP's PD, access flags and serial number
 * @rkey: the key the peer presented
 * @need: IB_ACCESS_REMOTE_WRITE, _READ or _ATOMIC
 * @addr: first byte
 * @len: bytes, not 0
 * @mrp: the window's MR, held, when the answer is 0; else NULL
 *
 * Any context; the QP's own access flags were checked by the caller.
 *
 * Return: 0, or a Transaction Error code (SUPERP_TERR(major, minor)).
 */
u32 superp_mw_rma_check(struct superp_mr_table *t,
			const struct superp_rma_scope *scope, u32 rkey,
			int need, u64 addr, u64 len, struct superp_mr **mrp)
{
	u32 err = SUPERP_TERR(SUPERP_TERR_PROTECTION, SUPERP_TERR_BAD_RKEY);
	u64 waddr, wlen, wqp;
	struct superp_win *w;
	struct superp_mr *mr;
	unsigned int seq;
	int access;
	u32 key;

	*mrp = NULL;
	rcu_read_lock();
	w = superp_mr_table_mw(t, rkey);
	if (!w)
		goto out;
again:
	do {
		seq = read_seqcount_begin(&w->seq);
		key = READ_ONCE(w->key);
		mr = w->mr;
		waddr = w->addr;
		wlen = w->length;
		access = w->access;
		wqp = w->qp;
	} while (read_seqcount_retry(&w->seq, seq));

	err = SUPERP_TERR(SUPERP_TERR_PROTECTION, SUPERP_TERR_BAD_RKEY);
	if (key != rkey || !mr)
		goto out;
	if (w->pd != scope->pd) {
		err = SUPERP_TERR(SUPERP_TERR_PROTECTION,
				  SUPERP_TERR_PD_MISMATCH);
		goto out;
	}
	/* Type 2B: to any other QP the key names nothing. */
	if (w->type == IB_MW_TYPE_2 && wqp != scope->qp)
		goto out;
	err = superp_rma_grant(access, waddr, wlen, need, addr, len);
	if (err)
		goto out;
	/*
	 * The MR is still allocated (RCU: it was bound when the snapshot
	 * was taken, so its deregistration, and its kfree_rcu(), come after
	 * this section began); it is usable while its reference is not 0.
	 */
	if (!refcount_inc_not_zero(&mr->ref)) {
		err = SUPERP_TERR(SUPERP_TERR_PROTECTION, SUPERP_TERR_BAD_RKEY);
		goto out;
	}
	if (read_seqcount_retry(&w->seq, seq)) {
		superp_mr_put(mr);
		goto again;
	}
	*mrp = mr;
	err = 0;
out:
	rcu_read_unlock();
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(superp_mw_rma_check);
