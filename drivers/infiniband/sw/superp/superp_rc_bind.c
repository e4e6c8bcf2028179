// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: binding RC QPs to connections (Documentation/superp-rc.rst,
 * "Binding a QP to a connection").
 *
 * On INIT->RTR, superp_rc_qp_bind() maps the destination IP of the QP's
 * address vector to a connection of the device: a SUNH connection to that
 * node when the IP lies in the namespace's SUPERp subnet, else a udp4/udp6
 * connection whose remote address is the IP; among several, the one with
 * the AV's traffic class, then the lowest local CID. RC needs an ordered
 * connection (both directions): -EINVAL otherwise. None: -ENOTCONN and one
 * rate-limited line naming the fix.
 *
 * Lifetime (decision: unbind on delete, no reference on the entry). A
 * bound QP is on its entry's list (e->rc.qps) and qp->conn points to the
 * entry; both change only under the entry's lock. Deleting a connection
 * (or its device) unbinds every QP - list emptied, qp->conn NULL, QP moved
 * to ERR - after unpublishing the entry and *before* the grace period that
 * precedes its free. So a reader that found qp->conn non-NULL inside an
 * RCU read-side section may lock that entry: its free waits for the
 * section. superp_rc_qp_unbind() (RESET, destroy) relies on the same rule.
 * A connection that breaks (event conn_broken) moves its bound QPs to ERR
 * at once; they stay bound until RESET, destroy or the connection's
 * deletion.
 *
 * The target's slots (e->rc.tgt, superp_rc_recv.c) come with the first
 * bind, not with the connection: a connection no QP was ever bound to
 * refuses every request (INVALID/NO_QP) and needs no per-transaction
 * state, and most connections of a large mesh carry no RC. They are
 * allocated under superp_conns_lock() (binds are serialised by it) but
 * outside the entry's lock, installed under the entry's lock, and freed
 * with the entry.
 *
 * Lock order of ib_superp. This is the one place it is written; the
 * other files and Documentation/superp-datapath.rst point here. It lives
 * here because binding is where the connection's locks and the QP's
 * locks first nest: a bound QP sits on its entry's list, and from then on
 * the data path reaches the QP's queues and CQs under the entry's lock.
 * Outermost first; "A > B" means B may be taken while A is held, never
 * the other way round:
 *
 *   qp->mutex (superp_qp.c: modify, query, destroy)
 *     > superp_conns.lock (mutex per device, superp_conns_lock())
 *       > superp_conn_entry.lock (spinlock, BH)
 *         > qp->sq.lock (irqsave)
 *           > qp->rq.lock (irqsave; both are held to change qp->state)
 *           > mr->fr_lock (irqsave; local WRs run under sq.lock)
 *         > win->lock (irqsave; superp_mw.c: binds and local
 *           invalidations under sq.lock, remote ones under the entry's)
 *           > cq->lock (irqsave; also taken under rq.lock)
 *         > srq->rq.lock (irqsave; never with a QP's queue lock held)
 *         > sdev->loop_q's lock (superp_loop.c, from xmit)
 *
 *   superp_link_mutex (superp_main.c)
 *     > RTNL (ib_register_device()) > superp_devs_lock (mutex)
 *     > superp_rx_devs_lock (superp_rx.c; nothing nests inside it)
 *     > superp_conns.lock (module exit unregisters devices, and
 *       superp_dealloc_driver() deletes their connections)
 *
 * cq->lock, mr->fr_lock, win->lock, the MR table's and the QP table's
 * xarray locks are innermost: nothing is taken under them. superp_devs_lock is held
 * only to find a device and take a reference (superp_netlink.c): no
 * connection or QP lock is taken under it. Under the entry's lock the
 * data path transmits through sunh.ko and the IP stack (sunh_output(),
 * ip_local_out()), whose own locks are then taken inside it.
 *
 * Waits: del_timer_sync() of the RNR timer and cancel_work_sync() of the
 * entry's kick_work are called with no driver spinlock held, since the
 * callbacks they wait for take the entry's lock.
 *
 * Handlers: completion handlers and QP events run with no QP queue lock
 * and no CQ lock held (superp_cq_kick() after the locks are dropped).
 * Those the data path produces (completions, superp_qp_error()) run under
 * the entry's lock: a kernel consumer's completion handler must not post
 * to a QP of the same connection synchronously (ib_alloc_cq()'s polling
 * contexts defer their work and are fine). A post made with interrupts
 * disabled cannot take the entry's BH lock and goes through the entry's
 * kick_work instead.
 */
#include <kunit/visibility.h>
#include <linux/slab.h>

#include "superp.h"
#include "superp_ah.h"
#include "superp_conn_table.h"
#include "superp_qp.h"
#include "superp_rc.h"

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * superp_objects_test plays the data path by hand on QPs that no
 * connection serves: RTR without a connection then binds nothing.
 */
bool superp_rc_allow_unbound;
EXPORT_SYMBOL_IF_KUNIT(superp_rc_allow_unbound);
#define superp_rc_unbound_ok()	READ_ONCE(superp_rc_allow_unbound)
#else
#define superp_rc_unbound_ok()	false
#endif

int superp_rc_conn_init(struct superp_conn_entry *e, u32 tal_window)
{
	INIT_LIST_HEAD(&e->rc.qps);
	INIT_WORK(&e->rc.kick_work, superp_rc_kick_work);
	/* The slots themselves: at the first bind (superp_rc_tgt_alloc()). */
	e->rc.tgt_slots = superp_rc_tgt_slots(tal_window);
	return 0;
}

/*
 * The target's slots of @e, each primed with the refusal of a transaction
 * whose first packet came before them (superp_rc_recv.c, "Slots").
 */
static struct superp_rc_tgt *superp_rc_tgt_alloc(struct superp_conn_entry *e)
{
	struct superp_rc_tgt *tgt;
	u32 i;

	tgt = kvcalloc(e->rc.tgt_slots, sizeof(*tgt), GFP_KERNEL);
	for (i = 0; tgt && i < e->rc.tgt_slots; i++)
		tgt[i].err = SUPERP_TERR(SUPERP_TERR_INVALID,
					 SUPERP_TERR_NO_QP);
	return tgt;
}

/* Unreachable for a grace period: no post can queue the kick work again. */
void superp_rc_conn_stop(struct superp_conn_entry *e)
{
	cancel_work_sync(&e->rc.kick_work);
}

/* The entry is unreachable and its engine released: drop what is left. */
void superp_rc_conn_free(struct superp_conn_entry *e)
{
	u32 i;

	if (!e->rc.tgt)
		return;
	for (i = 0; i < e->rc.tgt_slots; i++)
		if (e->rc.tgt[i].mr)
			superp_mr_put(e->rc.tgt[i].mr);
	kvfree(e->rc.tgt);
	e->rc.tgt = NULL;
}

/* Does @e lead to @av's destination? SUNH @addr valid when @sunh. */
static bool superp_rc_conn_matches(const struct superp_conn_entry *e,
				   const struct superp_av *av, bool sunh,
				   u16 addr)
{
	const struct superp_conn_addr *a = &e->addr;

	switch (a->encap) {
	case SUPERP_ENCAP_SUNH:
		return sunh && a->remote.sunh == addr;
	case SUPERP_ENCAP_UDP4:
		return !sunh && av->daddr.sa.sa_family == AF_INET &&
		       a->remote.ip4 == av->daddr.sin.sin_addr.s_addr;
	case SUPERP_ENCAP_UDP6:
		return !sunh && av->daddr.sa.sa_family == AF_INET6 &&
		       ipv6_addr_equal(&a->remote.ip6,
				       &av->daddr.sin6.sin6_addr);
	}
	return false;
}

/* The entry to bind to, under superp_conns_lock(), or NULL. */
static struct superp_conn_entry *superp_rc_pick(struct superp_dev *sdev,
						const struct superp_av *av)
{
	struct superp_conn_entry *e, *best = NULL;
	u32 i, size = 1;
	bool sunh;
	u16 addr = 0;

	sunh = superp_av_sunh(sdev, av, &addr, NULL);
	for (i = 0; i < size; i++) {
		e = superp_conn_at(sdev, i, &size);
		if (!e || !superp_rc_conn_matches(e, av, sunh, addr))
			continue;
		/* The lowest CID wins; one of the AV's class beats it. */
		if (!best || (e->addr.tclass == av->traffic_class &&
			      best->addr.tclass != av->traffic_class))
			best = e;
	}
	/* To this node, without a connection added for it: the implicit one. */
	if (!best && av->local)
		best = superp_conn_loop(sdev);
	return best;
}

/**
 * superp_rc_qp_bind - bind @qp to the connection toward its AV (INIT->RTR)
 * @qp: the QP, qp->mutex held, qp->av resolved
 *
 * Return: 0, -ENOTCONN (no connection, or it is broken), -EINVAL (not
 * ordered both ways) or -ENOMEM.
 */
int superp_rc_qp_bind(struct superp_qp *qp)
{
	struct superp_dev *sdev = to_sdev(qp->ibqp.device);
	struct superp_rc_tgt *tgt = NULL;
	struct superp_conn_entry *e;
	int err = 0;

	if (!qp->rc.rwqe) {
		qp->rc.rwqe = kzalloc(superp_recv_wqe_size(SUPERP_MAX_SGE),
				      GFP_KERNEL);
		if (!qp->rc.rwqe)
			return -ENOMEM;
	}
	if (!qp->rc.rnr_timer_ready) {
		timer_setup(&qp->rc.rnr_timer, superp_rc_rnr_timer, 0);
		qp->rc.rnr_timer_ready = true;
	}
	superp_conns_lock(sdev);
	e = superp_rc_pick(sdev, &qp->av);
	if (!e && superp_rc_unbound_ok())
		goto out;
	if (!e) {
		ibdev_warn_ratelimited(&sdev->ibdev,
				       "QP %u: no connection to %pISc; add one: superp conn add dev %s ... (or superp mesh up FILE)\n",
				       qp->ibqp.qp_num, &qp->av.daddr.sa,
				       dev_name(&sdev->ibdev.dev));
		err = -ENOTCONN;
		goto out;
	}
	if ((e->addr.ordered & (SUPERP_ORDERED_RX | SUPERP_ORDERED_TX)) !=
	    (SUPERP_ORDERED_RX | SUPERP_ORDERED_TX)) {
		ibdev_warn_ratelimited(&sdev->ibdev,
				       "QP %u: RC needs an ordered connection (ordered both); CID %u is not\n",
				       qp->ibqp.qp_num, e->conn.local_cid);
		err = -EINVAL;
		goto out;
	}
	/* Set only here, under superp_conns_lock(): no other bind races. */
	if (!e->rc.tgt) {
		tgt = superp_rc_tgt_alloc(e);
		if (!tgt) {
			err = -ENOMEM;
			goto out;
		}
	}
	spin_lock_bh(&e->lock);
	if (e->conn.state != SUPERP_ST_UP) {
		err = -ENOTCONN;
	} else {
		if (!e->rc.tgt) {
			e->rc.tgt = tgt;
			tgt = NULL;
		}
		qp->rc.cur = NULL;
		qp->rc.rd_inflight = 0;
		qp->rc.xinflight = 0;
		qp->rc.rnr = SUPERP_RC_RNR_NONE;
		qp->rc.rnr_tries = 0;
		qp->rc.tgt_rnr = false;
		qp->rc.cancelled = false;
		qp->rc.rvalid = false;
		qp->rc.rerr = 0;
		list_add_tail(&qp->rc.node, &e->rc.qps);
		WRITE_ONCE(qp->conn, e);
	}
	spin_unlock_bh(&e->lock);
out:
	superp_conns_unlock(sdev);
	kvfree(tgt);	/* not installed */
	return err;
}

/* Under e->lock: take @qp off @e. */
static void superp_rc_detach(struct superp_conn_entry *e, struct superp_qp *qp)
{
	superp_rc_qp_drop(qp);
	list_del_init(&qp->rc.node);
	WRITE_ONCE(qp->conn, NULL);
}

/**
 * superp_rc_qp_locked - run @fn on @qp under the lock of its entry
 * @qp: the QP
 * @fn: what to do, called with the entry's lock held (BH)
 *
 * qp->conn is read under RCU (its entry's free waits for the section),
 * then checked again under the entry's lock: a QP unbound meanwhile is
 * left alone. Process context, no spinlock held.
 *
 * Return: true when @fn ran.
 */
bool superp_rc_qp_locked(struct superp_qp *qp,
			 void (*fn)(struct superp_conn_entry *e,
				    struct superp_qp *qp))
{
	struct superp_conn_entry *e;
	bool ran = false;

	rcu_read_lock();
	e = READ_ONCE(qp->conn);
	if (e) {
		spin_lock_bh(&e->lock);
		ran = qp->conn == e;
		if (ran)
			fn(e, qp);
		spin_unlock_bh(&e->lock);
	}
	rcu_read_unlock();
	return ran;
}

/**
 * superp_rc_qp_unbind - leave the connection (RESET, destroy)
 * @qp: the QP, qp->mutex held
 *
 * The QP's transactions are cancelled first (superp_rc_qp_cancel()):
 * their WRs were flushed or discarded already.
 */
void superp_rc_qp_unbind(struct superp_qp *qp)
{
	superp_rc_qp_cancel(qp);
	superp_rc_qp_locked(qp, superp_rc_detach);
	/* Off the connection, the timer does nothing; it must not run late. */
	if (qp->rc.rnr_timer_ready)
		del_timer_sync(&qp->rc.rnr_timer);
	if (!qp->conn) {
		kfree(qp->rc.rwqe);
		qp->rc.rwqe = NULL;
	}
}

/**
 * superp_rc_conn_unbind_all - a connection goes away: its QPs to ERR
 * @e: the entry, unpublished, before the grace period that precedes its free
 *
 * Process context.
 */
void superp_rc_conn_unbind_all(struct superp_conn_entry *e)
{
	struct superp_qp *qp;
	bool held;

	for (;;) {
		spin_lock_bh(&e->lock);
		qp = list_first_entry_or_null(&e->rc.qps, struct superp_qp,
					      rc.node);
		if (!qp) {
			spin_unlock_bh(&e->lock);
			return;
		}
		superp_rc_detach(e, qp);
		/* A QP being destroyed (no reference left) needs nothing. */
		held = refcount_inc_not_zero(&qp->ref);
		spin_unlock_bh(&e->lock);
		if (held) {
			superp_qp_error(qp);
			superp_qp_put(qp);
		}
	}
}

/**
 * superp_rc_conn_broken - the connection broke: its QPs to ERR
 * @e: the entry, its lock held (the engine's event callback)
 * @reason: the engine's reason, a negative errno
 *
 * The engine failed the pending transactions first, so a WR that was on
 * the wire has its status already (superp_rc_status()). A WR taken with
 * nothing in flight gets the same here; the rest are flushed.
 */
void superp_rc_conn_broken(struct superp_conn_entry *e, int reason)
{
	enum ib_wc_status status = superp_rc_status(reason, 0);
	struct superp_qp *qp;

	list_for_each_entry(qp, &e->rc.qps, rc.node) {
		if (!refcount_inc_not_zero(&qp->ref))
			continue;
		superp_qp_send_broke(qp, status);
		superp_qp_put(qp);
	}
}

/* What the verbs objects ask of an RC QP (struct superp_qp_type_ops). */
const struct superp_qp_type_ops superp_rc_qp_type = {
	.bind = superp_rc_qp_bind,
	.unbind = superp_rc_qp_unbind,
	.cancel = superp_rc_qp_cancel,
	.kick = superp_rc_kick,
	.kick_later = superp_rc_kick_later,
};
