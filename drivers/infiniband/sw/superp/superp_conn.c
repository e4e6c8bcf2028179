// SPDX-License-Identifier: GPL-2.0
/*
 * SUPERp engine: connection life cycle, event entry points, timer arming
 * and error events.
 *
 * Locking: none here for a connection's state; the caller serialises each
 * connection's events (superp_engine.h). c->depth counts nested entries so
 * that API calls made from callbacks only queue work, and the entry points
 * refuse to run inside a callback of the same connection (-EDEADLK).
 *
 * The cold blocks come from slab caches of their exact size, made on first
 * use: kmalloc() would round the default block (about 3.2 KiB) up to 4 KiB,
 * a quarter of a connection's memory. superp_cold_lock (a mutex, process
 * context: superp_conn_init() may sleep anyway) serialises the creation of
 * a cache; an entry of superp_cold_caches[] is published with a release
 * store once its cache exists and stays until superp_conn_caches_destroy()
 * (module exit, no connection left), so lookups take no lock. Whether a
 * block came from a cache is a function of its size alone: a size is in
 * the table at release exactly when it was at allocation, since entries
 * are only added and a size that finds the table full, or is larger than
 * SUPERP_COLD_CACHE_MAX, always goes to kvzalloc().
 */
#include <linux/bitmap.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include "superp_engine_int.h"

struct superp_layout {
	size_t spsn, ixid, txid, bm, rq, held, iseq, size;
	unsigned int wslots, tslots, wlongs, tlongs;
};

static size_t superp_al8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/*
 * Place the cold arrays after the cold header. Per-PSN and per-XID state is
 * indexed by sequence number modulo a power of two (the window rounded up):
 * a power of two divides 2^32 and 2^16, so the sequence numbers of a window
 * keep distinct slots across the wrap whatever the window size; the spec's
 * "PSN % pdl_window_size" would not for, say, a window of 24.
 */
static void superp_layout(const struct superp_params *p, unsigned int flags,
			  struct superp_layout *l)
{
	size_t w = p->pdl_window_size, t = p->tal_trans_window, off;
	size_t ws = roundup_pow_of_two(w), ts = roundup_pow_of_two(t);

	l->wlongs = BITS_TO_LONGS(w);
	l->tlongs = BITS_TO_LONGS(t);
	off = superp_al8(sizeof(struct superp_conn_cold));
	l->wslots = ws;
	l->tslots = ts;
	l->spsn = off;
	off += ws * sizeof(struct superp_spsn);
	l->ixid = off;
	off += ts * sizeof(struct superp_ixid);
	l->txid = off;
	off += ts * sizeof(struct superp_txid);
	l->bm = off;
	off += (2 * l->wlongs + 3 * l->tlongs) * sizeof(long);
	l->rq = off;
	off = superp_al8(off + t * sizeof(u16));
	l->held = off;
	if (flags & SUPERP_CONN_ORDERED_RX)
		off += ws * sizeof(struct superp_held);
	l->iseq = off;
	off += BITS_TO_LONGS(2 * ts * p->tal_max_pkt_per_trans) * sizeof(long);
	l->size = off;
}

/*
 * Cold block sizes served by a cache of their own: a device uses one or
 * two (ordered or not, at its parameters), tests a few more. Above
 * SUPERP_COLD_CACHE_MAX (large windows) kvzalloc() rounds by little or
 * falls back to vmalloc, and such connections are few.
 */
#define SUPERP_COLD_CACHES	4
#define SUPERP_COLD_CACHE_MAX	(4 * 4096)

struct superp_cold_cache {
	size_t size;			/* 0: free */
	struct kmem_cache *cache;
};

static struct superp_cold_cache superp_cold_caches[SUPERP_COLD_CACHES];
static DEFINE_MUTEX(superp_cold_lock);

/* The cache of @size, or NULL; lock-free (see the top of the file). */
static struct kmem_cache *superp_cold_cache_find(size_t size)
{
	int i;

	for (i = 0; i < SUPERP_COLD_CACHES; i++) {
		/* pairs with the release store in superp_cold_cache_get() */
		struct kmem_cache *k = smp_load_acquire(&superp_cold_caches[i].cache);

		if (!k)
			return NULL;	/* filled in order: none further */
		if (superp_cold_caches[i].size == size)
			return k;
	}
	return NULL;
}

/*
 * The cache of @size, made if the table has room. *@full set when it has
 * none (the block goes to kvzalloc()). NULL and !*@full: out of memory.
 */
static struct kmem_cache *superp_cold_cache_get(size_t size, bool *full)
{
	struct kmem_cache *k = superp_cold_cache_find(size);
	int i;

	*full = false;
	if (k)
		return k;
	mutex_lock(&superp_cold_lock);
	for (i = 0; i < SUPERP_COLD_CACHES; i++) {
		k = superp_cold_caches[i].cache;
		if (!k || superp_cold_caches[i].size == size)
			break;
	}
	if (i == SUPERP_COLD_CACHES) {
		*full = true;
		k = NULL;
	} else if (!k) {
		char name[32];

		/* word-aligned, as the layout needs; the name is copied */
		snprintf(name, sizeof(name), "superp_cold_%zu", size);
		k = kmem_cache_create(name, size, sizeof(u64), 0, NULL);
		if (k) {
			superp_cold_caches[i].size = size;
			/* the size before the cache: superp_cold_cache_find() */
			smp_store_release(&superp_cold_caches[i].cache, k);
		}
	}
	mutex_unlock(&superp_cold_lock);
	return k;
}

static struct superp_conn_cold *superp_cold_alloc(size_t size)
{
	struct kmem_cache *k;
	bool full = true;

	if (size <= SUPERP_COLD_CACHE_MAX) {
		k = superp_cold_cache_get(size, &full);
		if (k)
			return kmem_cache_zalloc(k, GFP_KERNEL);
	}
	/* up to about 1 MiB with the largest windows */
	return full ? kvzalloc(size, GFP_KERNEL) : NULL;
}

static void superp_cold_free(struct superp_conn_cold *cold)
{
	struct kmem_cache *k = NULL;

	if (cold->size <= SUPERP_COLD_CACHE_MAX)
		k = superp_cold_cache_find(cold->size);
	if (k)
		kmem_cache_free(k, cold);
	else
		kvfree(cold);
}

/**
 * superp_conn_cold_taken() - bytes the allocator set aside for a cold block
 * @c: an initialised connection.
 *
 * The object size of its cache, or what kvzalloc() took. A slab's own
 * overhead (the remainder of its pages, its metadata) is not counted
 * here, nor charged to the budget, which holds what the state needs
 * (superp_conn_mem()).
 */
size_t superp_conn_cold_taken(const struct superp_conn *c)
{
	struct kmem_cache *k = NULL;

	if (c->cold->size <= SUPERP_COLD_CACHE_MAX)
		k = superp_cold_cache_find(c->cold->size);
	if (k)
		return kmem_cache_size(k);
	if (is_vmalloc_addr(c->cold))
		return PAGE_ALIGN(c->cold->size);
	return ksize(c->cold);
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_cold_taken);

/**
 * superp_conn_caches_destroy() - free the cold blocks' caches
 *
 * Module exit, after the last connection was released.
 */
void superp_conn_caches_destroy(void)
{
	int i;

	mutex_lock(&superp_cold_lock);
	for (i = 0; i < SUPERP_COLD_CACHES; i++) {
		kmem_cache_destroy(superp_cold_caches[i].cache);
		superp_cold_caches[i].cache = NULL;
		superp_cold_caches[i].size = 0;
	}
	mutex_unlock(&superp_cold_lock);
}

/**
 * superp_conn_mem() - bytes one connection needs (hot + cold).
 * @p: its parameters.
 * @flags: SUPERP_CONN_* (ordered receive needs the held array).
 *
 * What the budget charges: the state's own size. The allocator's share
 * (the unused tail of a slab, superp_conn_cold_taken()) is not charged.
 */
size_t superp_conn_mem(const struct superp_params *p, unsigned int flags)
{
	struct superp_layout l;

	superp_layout(p, flags, &l);
	return sizeof(struct superp_conn) + l.size;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_mem);

/**
 * superp_conn_init() - put a connection in its initial state.
 * @c: hot state, e.g. an entry of a dense CID-indexed table (zeroed here).
 * @p: parameters (validated and copied).
 * @ops: callbacks.
 * @priv: user pointer, kept in c->priv.
 * @local_cid: our CID.
 * @remote_cid: the peer's CID, sent as DCID.
 * @flags: SUPERP_CONN_ORDERED_RX to hold out-of-order packets,
 *	SUPERP_CONN_HELLO to start with the handshake, SUPERP_CONN_LITE for
 *	SUPERp-lite (no PDL on the wire).
 *
 * Only the cold block is allocated; superp_conn_release() frees it.
 *
 * Return: 0, -EINVAL for invalid parameters, or -ENOMEM.
 */
int superp_conn_init(struct superp_conn *c, const struct superp_params *p,
		     const struct superp_engine_ops *ops, void *priv,
		     u16 local_cid, u16 remote_cid, unsigned int flags)
{
	struct superp_layout l;
	const char *why;

	BUILD_BUG_ON(sizeof(struct superp_conn) > 2 * SMP_CACHE_BYTES);
	if (superp_params_validate(p, &why))
		return -EINVAL;
	superp_layout(p, flags, &l);
	memset(c, 0, sizeof(*c));
	c->cold = superp_cold_alloc(l.size);
	if (!c->cold)
		return -ENOMEM;
	c->cold->p = *p;
	c->cold->size = l.size;
	c->off_spsn = l.spsn >> 3;
	c->off_ixid = l.ixid >> 3;
	c->off_txid = l.txid >> 3;
	c->off_bm = l.bm >> 3;
	c->off_rq = l.rq >> 3;
	c->off_held = l.held >> 3;
	c->off_iseq = l.iseq >> 3;
	c->wslots = l.wslots;
	c->tslots = l.tslots;
	c->wlongs = l.wlongs;
	c->tlongs = l.tlongs;

	c->ops = ops;
	c->priv = priv;
	c->local_cid = local_cid;
	c->remote_cid = remote_cid;
	c->window = p->pdl_window_size;
	c->tal_window = p->tal_trans_window;
	c->max_pkts = p->tal_max_pkt_per_trans;
	c->rwin_adv = p->pdl_receive_win;
	c->rwin_peer = p->pdl_receive_win;
	if (flags & SUPERP_CONN_ORDERED_RX)
		c->flags |= SUPERP_CF_ORDERED;
	if (flags & SUPERP_CONN_HELLO)
		c->flags |= SUPERP_CF_HELLO_TX | SUPERP_CF_HELLO_RX;
	/* PSNs and XIDs start at zero; nothing is acknowledged yet. */
	c->max_spsn = c->rwin_peer;
	if (flags & SUPERP_CONN_LITE) {
		c->flags |= SUPERP_CF_LITE;
		c->max_spsn = c->window;	/* no RWIN: TAL flow control */
	}
	c->ack_psn_sent = SUPERP_ACK_PSN_NONE;
	c->ack_xid_sent = SUPERP_ACK_XID_NONE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_init);

/**
 * superp_mem_budget_init() - set up a device's connection memory budget.
 * @b: the budget.
 * @limit: bytes the device's connections may take together; 0: no limit.
 */
void superp_mem_budget_init(struct superp_mem_budget *b, unsigned long limit)
{
	atomic_long_set(&b->used, 0);
	b->limit = limit;
}
EXPORT_SYMBOL_IF_KUNIT(superp_mem_budget_init);

/**
 * superp_conn_init_budget() - superp_conn_init(), charged to a budget.
 * @c: hot state (zeroed here).
 * @b: the device's budget; superp_conn_release() gives the bytes back.
 * @p: parameters (validated and copied).
 * @ops: callbacks.
 * @priv: user pointer, kept in c->priv.
 * @local_cid: our CID.
 * @remote_cid: the peer's CID, sent as DCID.
 * @flags: SUPERP_CONN_ORDERED_RX to hold out-of-order packets,
 *	SUPERP_CONN_HELLO to start with the handshake.
 * @why: set to a message for the user (netlink extack) on refusal.
 *
 * Return: 0, -EINVAL for invalid parameters (@why names one), -EDQUOT when
 * the connection's memory (superp_conn_mem()) would exceed the budget, or
 * -ENOMEM.
 */
int superp_conn_init_budget(struct superp_conn *c,
			    struct superp_mem_budget *b,
			    const struct superp_params *p,
			    const struct superp_engine_ops *ops, void *priv,
			    u16 local_cid, u16 remote_cid, unsigned int flags,
			    const char **why)
{
	size_t need;
	int ret;

	if (superp_params_validate(p, why))
		return -EINVAL;
	need = superp_conn_mem(p, flags);
	/* charge first: two connections racing for the last bytes */
	if (atomic_long_add_return(need, &b->used) > b->limit && b->limit) {
		atomic_long_sub(need, &b->used);
		*why = "connection memory budget of the device exhausted";
		return -EDQUOT;
	}
	ret = superp_conn_init(c, p, ops, priv, local_cid, remote_cid, flags);
	if (ret) {
		atomic_long_sub(need, &b->used);
		*why = "out of memory";
		return ret;
	}
	c->cold->budget = b;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_init_budget);

/**
 * superp_conn_set_base() - start a fresh connection at chosen sequence numbers.
 * @c: a connection just initialised: nothing sent or received yet
 * @psn: the first PSN, of both directions
 * @xid: the first XID, of both directions
 *
 * The spec starts PSNs and XIDs at zero; tests start elsewhere to reach the
 * wrap-around without sending four billion packets first.
 */
void superp_conn_set_base(struct superp_conn *c, u32 psn, u16 xid)
{
	c->next_spsn = psn;
	c->unacked_spsn = psn;
	c->unsent_spsn = psn;
	c->max_spsn = psn + c->rwin_peer;
	c->next_acked_rpsn = psn;
	c->ack_psn_sent = psn - 1;
	c->next_ixid = xid;
	c->unacked_ixid = xid;
	c->acked_ixid = xid;
	c->send_ixid = xid;
	c->next_acked_txid = xid;
	c->ack_xid_sent = xid - 1;
	c->cold->lite_xid = xid;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_set_base);

/**
 * superp_conn_create() - allocate a connection in its initial state.
 * @p: parameters (validated and copied).
 * @ops: callbacks.
 * @priv: user pointer, kept in c->priv.
 * @local_cid: our CID.
 * @remote_cid: the peer's CID, sent as DCID.
 * @flags: SUPERP_CONN_ORDERED_RX to hold out-of-order packets,
 *	SUPERP_CONN_HELLO to start with the handshake.
 *
 * Return: the connection or NULL.
 */
struct superp_conn *superp_conn_create(const struct superp_params *p,
				       const struct superp_engine_ops *ops,
				       void *priv, u16 local_cid,
				       u16 remote_cid, unsigned int flags)
{
	struct superp_conn *c = kmalloc(sizeof(*c), GFP_KERNEL);

	if (c && superp_conn_init(c, p, ops, priv, local_cid, remote_cid,
				  flags)) {
		kfree(c);
		c = NULL;
	}
	return c;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_create);

static void superp_conn_stop(struct superp_conn *c, int reason, bool report);

/**
 * superp_conn_release() - undo superp_conn_init(); pending transactions
 * fail with -ECONNRESET.
 * @c: the connection. Not from within its own callbacks.
 */
void superp_conn_release(struct superp_conn *c)
{
	if (!c->cold)
		return;
	superp_conn_stop(c, -ECONNRESET, false);
	if (c->cold->budget)
		atomic_long_sub(sizeof(*c) + c->cold->size,
				&c->cold->budget->used);
	superp_cold_free(c->cold);
	c->cold = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_release);

/**
 * superp_conn_destroy() - free a connection from superp_conn_create().
 * @c: the connection (may be NULL). Not from within its own callbacks.
 */
void superp_conn_destroy(struct superp_conn *c)
{
	if (!c)
		return;
	superp_conn_release(c);
	kfree(c);
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_destroy);

void superp_event(struct superp_conn *c, enum superp_event ev, u32 info)
{
	c->cold->events[ev]++;
	if (c->ops->event)
		c->ops->event(c, ev, info);
}

/* An event starts; callbacks it causes see the same time. */
void superp_conn_begin(struct superp_conn *c, u64 now)
{
	if (!c->depth++)
		c->cold->now = now;
}

/* tal_transaction_timeout: no retirement at the initiator's left edge. */
static u64 superp_tal_deadline(const struct superp_conn *c)
{
	u64 t = c->cold->p.tal_transaction_timeout;

	if (!t || c->next_ixid == c->unacked_ixid || t > U64_MAX / 20)
		return 0;
	return c->cold->ixid_progress + t * 10;
}

static void superp_conn_arm(struct superp_conn *c)
{
	u64 at = 0, rto, rtx;

	if (c->state != SUPERP_ST_BROKEN) {
		at = c->dack_at;
		rto = superp_pdl_rtx_deadline(c);
		if (rto && (!at || rto < at))
			at = rto;
		rtx = superp_pdl_tail_deadline(c, rto);
		if (rtx && (!at || rtx < at))
			at = rtx;
		rtx = superp_tal_deadline(c);
		if (rtx && (!at || rtx < at))
			at = rtx;
		rtx = superp_tal_probe_deadline(c);
		if (rtx && (!at || rtx < at))
			at = rtx;
	}
	if (at != c->cold->timer_at) {
		c->cold->timer_at = at;
		c->ops->arm_timer(c, at);
	}
}

/* Outermost event done: send what may be sent, then rearm the timer. */
void superp_conn_end(struct superp_conn *c, u64 now)
{
	if (--c->depth)
		return;
	/* callbacks made by the pump must not pump again */
	c->depth++;
	if (c->state != SUPERP_ST_BROKEN)
		superp_tal_pump(c, now);
	c->depth--;
	superp_conn_arm(c);
}

/**
 * superp_conn_rx() - event "packet received".
 * @c: the connection the DCID named.
 * @p: decoded headers.
 * @buf: the user's buffer, handed back in target_pkt/initiator_pkt/hold.
 * @now: current time (ns).
 *
 * Return: 0 when the packet was accepted (or was a duplicate or pure ACK),
 * a negative error when it was dropped; -EDEADLK (nothing done) when called
 * from a callback of @c.
 */
int superp_conn_rx(struct superp_conn *c, const struct superp_pkt *p,
		   void *buf, u64 now)
{
	int ret;

	if (c->depth)
		return -EDEADLK;
	if (c->state == SUPERP_ST_BROKEN) {
		c->cold->stats.rx_pkts++;
		superp_rx_dropped(c, &c->cold->stats.rx_drop_broken);
		return -ENOTCONN;
	}
	superp_conn_begin(c, now);
	ret = superp_pdl_rx(c, p, buf, now);
	superp_conn_end(c, now);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_rx);

/**
 * superp_conn_timer() - event "timer fired" (the deadline of arm_timer).
 * @c: the connection.
 * @now: current time (ns).
 *
 * Return: 0, or -EDEADLK (nothing done) when called from a callback of @c.
 */
int superp_conn_timer(struct superp_conn *c, u64 now)
{
	u64 at;

	if (c->depth)
		return -EDEADLK;
	if (c->state == SUPERP_ST_BROKEN)
		return 0;
	c->cold->timer_at = 0;
	superp_conn_begin(c, now);
	if (c->dack_at && now >= c->dack_at) {
		c->dack_at = 0;
		c->flags |= SUPERP_CF_ACK_NOW;
	}
	superp_pdl_timer(c, now);
	superp_tal_probe_timer(c, now);
	at = superp_tal_deadline(c);
	if (at && now >= at && c->state != SUPERP_ST_BROKEN) {
		superp_event(c, SUPERP_EV_TRANS_TIMEOUT, c->unacked_ixid);
		superp_conn_abort(c, -ETIMEDOUT);
	}
	superp_conn_end(c, now);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_timer);

/* An event that lifts what held packets back (@flag): send what may go. */
static int superp_conn_unblock(struct superp_conn *c, u16 flag, u64 now)
{
	if (c->depth)
		return -EDEADLK;
	c->flags &= ~flag;
	superp_conn_begin(c, now);
	superp_conn_end(c, now);
	return 0;
}

/**
 * superp_conn_window_open() - event "window opened": the device queue has
 * room again after xmit returned -EBUSY.
 * @c: the connection.
 * @now: current time (ns).
 *
 * Return: 0, or -EDEADLK (nothing done) when called from a callback of @c.
 */
int superp_conn_window_open(struct superp_conn *c, u64 now)
{
	return superp_conn_unblock(c, SUPERP_CF_TX_BUSY, now);
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_window_open);

/**
 * superp_conn_hold_acks() - let pure ACKs wait for the end of a batch.
 * @c: the connection.
 *
 * Receiver flow control 3 over a receive batch: until
 * superp_conn_release_acks(), an ACK due (stretch, retirement, a hole) is
 * not sent as a pure ACK but stays due, so the packets of one batch draw
 * one ACK; a data packet sent meanwhile still carries it.
 */
void superp_conn_hold_acks(struct superp_conn *c)
{
	c->flags |= SUPERP_CF_ACK_HOLD;
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_hold_acks);

/**
 * superp_conn_release_acks() - event "batch ended": send the ACK held.
 * @c: the connection.
 * @now: current time (ns).
 *
 * Return: 0, or -EDEADLK (nothing done) when called from a callback of @c.
 */
int superp_conn_release_acks(struct superp_conn *c, u64 now)
{
	return superp_conn_unblock(c, SUPERP_CF_ACK_HOLD, now);
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_release_acks);

/**
 * superp_conn_set_rwin() - throttle the peer (PDL receiver flow control 4).
 * @c: the connection.
 * @rwin: window to advertise, 1..pdl_window_size.
 */
void superp_conn_set_rwin(struct superp_conn *c, u16 rwin)
{
	c->rwin_adv = clamp_t(u16, rwin, 1, c->window);
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_set_rwin);

static void superp_conn_stop(struct superp_conn *c, int reason, bool report)
{
	u32 psn;

	if (c->state == SUPERP_ST_BROKEN)
		return;
	c->state = SUPERP_ST_BROKEN;
	c->dack_at = 0;
	if (c->flags & SUPERP_CF_ORDERED) {
		for (psn = c->next_acked_rpsn; psn != superp_max_rpsn(c); psn++) {
			struct superp_held *h = superp_held(c, psn);

			if (!h->buf)
				continue;
			c->cold->stats.rx_holding--;
			superp_rx_dropped(c, &c->cold->stats.rx_drop_flushed);
			if (c->ops->release)
				c->ops->release(c, h->buf);
			h->buf = NULL;
		}
	}
	/*
	 * Transactions fail before the break is reported: a consumer learns
	 * why each failed (RC: RETRY_EXC_ERR) before it flushes the rest.
	 */
	superp_tal_fail_all(c, reason);
	if (report)
		superp_event(c, SUPERP_EV_CONN_BROKEN, -reason);
	superp_conn_arm(c);
}

/**
 * superp_conn_abort() - hard shutdown: stop, fail pending transactions.
 * @c: the connection.
 * @reason: negative errno given to each failed transaction.
 *
 * Reports SUPERP_EV_CONN_BROKEN with -@reason as detail.
 */
void superp_conn_abort(struct superp_conn *c, int reason)
{
	superp_conn_stop(c, reason, true);
}
EXPORT_SYMBOL_IF_KUNIT(superp_conn_abort);
