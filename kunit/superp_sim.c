// SPDX-License-Identifier: GPL-2.0
/*
 * Two SUPERp engines, a lossy channel and a simulated clock. Everything is
 * decided by one seeded PRNG, so a run is reproducible from its seed.
 */
#include <linux/errno.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "superp_engine_int.h"
#include "superp_sim.h"

#define SIM_POOL	16384
#define SIM_ERR_CODE	0x0102	/* Transaction Error the target injects */
#define SIM_QPS		3	/* QP tags sharing the connection */
/*
 * SUPERp-lite's transaction timer, 1 ms (10 ns units): a hundred simulated
 * round trips. With no bandwidth in the channel a lite transaction retires
 * within one round trip (16 us at most with the default jitter), so the
 * timer fires only after a loss, and a lossy run ends within a millisecond
 * of its first one.
 */
#define SIM_LITE_TIMEOUT	100000

struct sim_pkt {
	u64 at;
	u64 seq;
	struct superp_pdl_hdr pdl;
	struct superp_tal_hdr tal;
	u32 tag;		/* identifies the payload */
	u32 id;			/* transaction id (request) */
	u32 ord;		/* lite: the sender's count of its requests or replies */
	u16 aux;		/* read request: reply packets */
	u16 err;
	u8 to;
	u8 held;
};

struct sim_xact {
	u64 t_sub;		/* simulated time of submission */
	u32 id;
	u16 npkts;
	u16 rlen;		/* reply packets of a read */
	u16 rx;
	u8 opcode;
	u8 done;
	u8 barrier;
	u8 cancel;		/* superp_cancel() asked for it */
	u8 error_astray;	/* lite: its Transaction Error lost or late */
};

struct sim_tgt {
	u32 id;
	u16 xid;
	u16 rlen;
	u16 rcvd;
};

struct superp_sim;

struct sim_node {
	struct superp_sim *sim;
	struct superp_conn *c;
	int idx;
	u64 timer_at;
	struct sim_xact *x;
	u32 next;		/* next transaction to submit */
	u32 done;
	bool submitting;	/* in sim_submit_more() */
	u32 last_psn;
	u64 delivered;
	struct sim_tgt *tgt;
	u32 next_req[SIM_QPS];	/* ordered target: lowest id each QP may run */
	/* SUPERp-lite: [0] requests, [1] replies */
	u32 tx_ord[2];		/* sent so far */
	u32 rx_ord[2];		/* the next one expected */
	u16 ack_xid_sent;	/* in the last packet sent */
	int fail_status;	/* what a broken lite node's transactions get */
};

struct superp_sim {
	const struct superp_sim_cfg *cfg;
	struct superp_sim_result *res;
	u64 now;
	u64 rng;
	u64 seq;
	u64 fifo_at[2];		/* lite: last arrival at each node */
	bool finished;
	struct sim_node node[2];
	struct sim_pkt *pool;
	struct sim_pkt **free;
	u32 nfree;
	struct sim_pkt **heap;
	u32 nheap;
};

/* Record the first violated invariant; the run stops at the next event. */
static __printf(2, 3) void sim_fail(struct superp_sim *s, const char *fmt, ...)
{
	struct superp_sim_result *res = s->res;
	va_list ap;
	int n;

	if (res->fail[0])
		return;
	n = snprintf(res->fail, sizeof(res->fail), "t=%llu ns: ",
		     (unsigned long long)s->now);
	va_start(ap, fmt);
	vsnprintf(res->fail + n, sizeof(res->fail) - n, fmt, ap);
	va_end(ap);
}

#define SIM_CHECK(s, cond, ...)						\
	do {								\
		if (!(cond))						\
			sim_fail(s, __VA_ARGS__);			\
	} while (0)

static u64 sim_rand(struct superp_sim *s)
{
	u64 x = s->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	s->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, n). */
static u32 sim_below(struct superp_sim *s, u32 n)
{
	return (u32)(((sim_rand(s) >> 32) * n) >> 32);
}

static u32 sim_tag(int node, int reply, u32 id, u16 seqno)
{
	u32 h = id * 0x9e3779b1U ^ seqno * 0x85ebca6bU;

	return h ^ (node << 30) ^ (reply << 29);
}

static bool sim_earlier(const struct sim_pkt *a, const struct sim_pkt *b)
{
	return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

static void sim_heap_push(struct superp_sim *s, struct sim_pkt *p)
{
	u32 i = s->nheap++, up;

	while (i) {
		up = (i - 1) / 2;
		if (!sim_earlier(p, s->heap[up]))
			break;
		s->heap[i] = s->heap[up];
		i = up;
	}
	s->heap[i] = p;
}

static struct sim_pkt *sim_heap_pop(struct superp_sim *s)
{
	struct sim_pkt *top = s->heap[0], *last = s->heap[--s->nheap];
	u32 i = 0, kid;

	for (;;) {
		kid = 2 * i + 1;
		if (kid >= s->nheap)
			break;
		if (kid + 1 < s->nheap &&
		    sim_earlier(s->heap[kid + 1], s->heap[kid]))
			kid++;
		if (!sim_earlier(s->heap[kid], last))
			break;
		s->heap[i] = s->heap[kid];
		i = kid;
	}
	if (s->nheap)
		s->heap[i] = last;
	return top;
}

static void sim_put(struct superp_sim *s, struct sim_pkt *p)
{
	s->free[s->nfree++] = p;
}

/*
 * SUPERp-lite cannot see a lost Transaction Error that answers a write:
 * the target retired the write when it sent the error, and its ACK XID,
 * in any later packet, retires the write here as done. One overtaken by
 * that ACK XID is as good as lost. Marks the write whose error went
 * astray; true when @tmpl is such an error.
 */
static bool sim_lite_error_astray(struct superp_sim *s,
				  const struct sim_pkt *tmpl)
{
	if (!s->cfg->lite || tmpl->tal.opcode != SUPERP_OP_TRANS_ERROR)
		return false;
	s->node[tmpl->to].x[tmpl->id].error_astray = 1;
	return true;
}

/* The channel: loss, duplication, delay with jitter, rare long delays. */
static void sim_channel(struct superp_sim *s, const struct sim_pkt *tmpl)
{
	const struct superp_sim_cfg *cfg = s->cfg;
	int copies = 1, i;
	struct sim_pkt *p;
	bool reorder;
	u64 delay;

	if (cfg->loss_ppm && sim_below(s, 1000000) < cfg->loss_ppm) {
		s->res->lost++;
		s->res->lost_data += tmpl->tal.opcode != SUPERP_OP_PURE_ACK;
		if (sim_lite_error_astray(s, tmpl))
			s->res->lost_errors++;
		return;
	}
	if (cfg->dup_ppm && sim_below(s, 1000000) < cfg->dup_ppm) {
		copies = 2;
		s->res->duplicated++;
	}
	for (i = 0; i < copies; i++) {
		SIM_CHECK(s, s->nfree, "packet pool exhausted");
		if (!s->nfree)
			return;
		p = s->free[--s->nfree];
		*p = *tmpl;
		delay = cfg->delay_ns;
		if (cfg->jitter_ns)
			delay += sim_below(s, cfg->jitter_ns);
		reorder = cfg->reorder_ppm &&
			  sim_below(s, 1000000) < cfg->reorder_ppm;
		if (reorder) {
			delay += 2 * cfg->delay_ns +
				 sim_below(s, 4 * cfg->delay_ns + 1);
			s->res->reordered++;
			sim_lite_error_astray(s, tmpl);
		}
		p->at = s->now + delay;
		/* lite presumes an in-order link: jitter delays, never reorders */
		if (cfg->lite && !reorder) {
			p->at = max(p->at, s->fifo_at[p->to]);
			s->fifo_at[p->to] = p->at;
		}
		p->seq = s->seq++;
		sim_heap_push(s, p);
	}
}

/*
 * SUPERp-lite: no PDL on the wire; each request and reply packet gets its
 * place in the sender's order, which the receiver checks, and a pure ACK
 * must carry a new ACK XID (there is no ACK PSN to convey).
 */
static void sim_lite_xmit(struct sim_node *n, const struct superp_pkt *p,
			  struct sim_pkt *sp)
{
	if (p->opcode == SUPERP_OP_PURE_ACK)
		SIM_CHECK(n->sim, p->ack_xid != n->ack_xid_sent,
			  "node %d pure ACK without a new ACK XID (%u)", n->idx,
			  p->ack_xid);
	else
		sp->ord = n->tx_ord[!!(p->flags & SUPERP_PKT_REPLY)]++;
	n->ack_xid_sent = p->ack_xid;
	superp_pkt_encode_lite(p, &sp->tal);
}

static int sim_xmit(struct superp_conn *c, const struct superp_pkt *p,
		    void *cookie)
{
	struct sim_node *n = c->priv;
	struct superp_sim *s = n->sim;
	struct sim_pkt sp = { .to = !n->idx, .err = p->err };
	u32 inflight = c->next_spsn - c->unacked_spsn;

	if (p->flags & SUPERP_PKT_PROBE) {
		SIM_CHECK(s, !inflight && p->psn == c->unacked_spsn - 1,
			  "node %d probe psn %u with %u in flight", n->idx,
			  p->psn, inflight);
	} else if (p->opcode != SUPERP_OP_PURE_ACK) {
		u32 off = p->psn - c->unacked_spsn;

		SIM_CHECK(s, off < inflight && inflight <= c->window,
			  "node %d psn %u outside send window", n->idx, p->psn);
		SIM_CHECK(s, (p->flags & SUPERP_PKT_RTX) ||
			  (s32)(p->psn - c->max_spsn) < 0,
			  "node %d psn %u beyond peer RWIN", n->idx, p->psn);
		if (inflight > s->res->max_inflight_psn)
			s->res->max_inflight_psn = inflight;
		if (p->flags & SUPERP_PKT_REPLY) {
			const struct sim_tgt *t = cookie;

			if (t) {
				sp.tag = sim_tag(n->idx, 1, t->id, p->seqno);
				sp.id = t->id;
			}
		} else {
			const struct sim_xact *x = cookie;

			if (x) {	/* NULL: the engine's Last NULL */
				sp.tag = sim_tag(n->idx, 0, x->id, p->seqno);
				sp.id = x->id;
				sp.aux = x->rlen;
			}
		}
	}
	SIM_CHECK(s, (u16)(c->next_ixid - c->unacked_ixid) <= c->tal_window,
		  "node %d TAL window exceeded", n->idx);
	s->res->packets++;
	if (s->cfg->lite)
		sim_lite_xmit(n, p, &sp);
	else
		superp_pkt_encode(p, &sp.pdl, &sp.tal);
	sim_channel(s, &sp);
	return 0;
}

static void sim_arm_timer(struct superp_conn *c, u64 expires)
{
	struct sim_node *n = c->priv;

	n->timer_at = expires;
}

/* Did the link break SUPERp-lite's promise (so far)? */
static bool sim_lite_faults(const struct superp_sim_result *res)
{
	return res->lost || res->duplicated || res->reordered;
}

/*
 * SUPERp-lite's answers to a link that broke its promise, errors on one
 * that kept it: the transaction timer (a frame lost), a request packet
 * other than the one due (lost, duplicated or overtaken before it), and a
 * reply refused by the initiator's checks, duplicated or late (after the
 * ACK XID). Notes the status the node's transactions then fail with.
 */
static bool sim_lite_event(struct sim_node *n, enum superp_event ev)
{
	struct superp_sim_result *res = n->sim->res;

	switch (ev) {
	case SUPERP_EV_TRANS_TIMEOUT:
		n->fail_status = -ETIMEDOUT;
		res->lite_timeouts++;
		return res->lost;
	case SUPERP_EV_LITE_GAP:
		n->fail_status = -EPIPE;
		res->lite_gaps++;
		return sim_lite_faults(res);
	case SUPERP_EV_INI_DUP_SEQNO:
		return res->duplicated;
	case SUPERP_EV_INI_XID_RETIRED:
	case SUPERP_EV_INI_XID_OUT_OF_WINDOW:
		return res->duplicated || res->reordered;
	default:
		return false;
	}
}

static void sim_event(struct superp_conn *c, enum superp_event ev, u32 info)
{
	struct sim_node *n = c->priv;
	struct superp_sim *s = n->sim;

	if (s->finished)
		return;
	if (ev == SUPERP_EV_QUIESCENT) {
		s->res->quiescent[n->idx] = true;
		return;
	}
	if (ev == SUPERP_EV_CONN_BROKEN) {
		s->res->broken[n->idx] = true;
		return;
	}
	/*
	 * A cancelled transaction's packets go again as No-ops: the target
	 * refuses the mix, and packets of it still in flight meet the XID
	 * completed, or retired (behind the window), by design.
	 */
	if (s->cfg->cancel_every && n->idx == 1 &&
	    (ev == SUPERP_EV_BAD_OPCODE ||
	     ev == SUPERP_EV_TGT_XID_COMPLETED ||
	     (ev == SUPERP_EV_TGT_XID_OUT_OF_WINDOW &&
	      (s16)(u16)(info - c->next_acked_txid) < 0))) {
		s->res->refusals++;
		return;
	}
	s->res->events++;
	if (s->cfg->lite && sim_lite_event(n, ev))
		return;
	SIM_CHECK(s, false, "node %d event %s (%u)", n->idx,
		  superp_event_name(ev), info);
}

static void *sim_hold(struct superp_conn *c, void *buf)
{
	struct sim_pkt *sp = buf;

	sp->held = 1;
	return sp;
}

static void sim_release(struct superp_conn *c, void *held)
{
	struct sim_node *n = c->priv;

	sim_put(n->sim, held);
}

/*
 * SUPERp-lite: the target takes request packets in the order sent with no
 * hole (a gap breaks the connection first); replies arrive in the order
 * sent, with holes only after a loss, unless the link reordered some.
 */
static void sim_lite_rx(struct sim_node *n, const struct superp_pkt *p,
			const struct sim_pkt *sp)
{
	const struct superp_sim_result *res = n->sim->res;
	bool reply = superp_opcode_is_reply(p->opcode);
	u32 *next = &n->rx_ord[reply];

	if (!reply || (!res->lost && !res->reordered))
		SIM_CHECK(n->sim, sp->ord == *next,
			  "node %d took %s %u of the peer's, %u due (xid %u seqno %u)",
			  n->idx, reply ? "reply" : "request", sp->ord, *next,
			  p->xid, p->seqno);
	else if (!res->reordered)
		SIM_CHECK(n->sim, sp->ord >= *next,
			  "node %d took reply %u of the peer's after %u",
			  n->idx, sp->ord, *next - 1);
	*next = sp->ord + 1;
}

/*
 * Every delivery: ordered connections must deliver PSNs in sequence (lite:
 * the receiver numbers PSNs itself, sim_lite_rx() checks the order).
 */
static void sim_delivered(struct sim_node *n, const struct superp_pkt *p,
			  const struct sim_pkt *sp)
{
	struct superp_sim *s = n->sim;
	u32 psn = p->psn;

	if (s->cfg->lite)
		sim_lite_rx(n, p, sp);
	else if (s->cfg->ordered[n->idx])
		SIM_CHECK(s, psn == n->last_psn + 1,
			  "node %d delivered psn %u after %u", n->idx, psn,
			  n->last_psn);
	n->last_psn = psn;
	n->delivered++;
}

static void sim_target_pkt(struct superp_conn *c, const struct superp_pkt *p,
			   void *buf)
{
	struct sim_node *n = c->priv;
	struct superp_sim *s = n->sim;
	const struct sim_pkt *sp = buf;
	struct sim_tgt *t = &n->tgt[p->xid & (c->tslots - 1)];

	sim_delivered(n, p, sp);
	if (p->opcode == SUPERP_OP_LAST_NULL || p->opcode == SUPERP_OP_NOOP)
		return;
	SIM_CHECK(s, sp->tag == sim_tag(!n->idx, 0, sp->id, p->seqno),
		  "node %d bad request payload xid %u seqno %u", n->idx,
		  p->xid, p->seqno);
	if (!t->rcvd || t->xid != p->xid) {
		t->rcvd = 0;
		t->xid = p->xid;
		t->id = sp->id;
	}
	SIM_CHECK(s, t->id == sp->id, "node %d xid %u mixes transactions",
		  n->idx, p->xid);
	t->rcvd++;
	t->rlen = sp->aux;
}

/* Writes whose target answers with a Transaction Error (not in latency runs). */
static bool sim_error_id(const struct superp_sim *s, u32 id)
{
	return !s->cfg->latency && id % 101 == 7;
}

static bool sim_inject_error(const struct superp_sim *s,
			     const struct sim_xact *x)
{
	return x->opcode == SUPERP_OP_RMA_WRITE && sim_error_id(s, x->id);
}

static int sim_target_request(struct superp_conn *c, u16 xid, u8 opcode)
{
	struct sim_node *n = c->priv;
	struct superp_sim *s = n->sim;
	struct sim_tgt *t = &n->tgt[xid & (c->tslots - 1)];
	int ret;

	/* a request runs whole: a packet lost or refused holds it back */
	SIM_CHECK(s, s->cfg->cancel_every ||
		  t->rcvd == s->node[!n->idx].x[t->id].npkts,
		  "node %d ran id %u with %u of its %u packets", n->idx, t->id,
		  t->rcvd, s->node[!n->idx].x[t->id].npkts);
	t->rcvd = 0;
	/* an ordered connection runs each QP's requests in posted order */
	if (s->cfg->ordered[n->idx]) {
		u32 *next = &n->next_req[t->id % SIM_QPS];

		SIM_CHECK(s, t->id >= *next, "node %d ran id %u of QP %u after %u",
			  n->idx, t->id, t->id % SIM_QPS, *next - SIM_QPS);
		*next = t->id + SIM_QPS;
	}
	if (opcode == SUPERP_OP_RMA_READ) {
		ret = superp_tal_reply(c, xid, SUPERP_OP_READ_RESP, t->rlen, 1,
				       t, s->now);
		SIM_CHECK(s, !ret, "node %d reply failed %d", n->idx, ret);
		return SUPERP_TGT_PENDING;
	}
	if (opcode == SUPERP_OP_RMA_WRITE && sim_error_id(s, t->id)) {
		ret = superp_tal_error(c, xid, SIM_ERR_CODE, t, s->now);
		SIM_CHECK(s, !ret, "node %d error reply failed %d", n->idx, ret);
		return SUPERP_TGT_PENDING;
	}
	return SUPERP_TGT_DONE;
}

static void sim_initiator_pkt(struct superp_conn *c, const struct superp_pkt *p,
			      void *cookie, void *buf)
{
	struct sim_node *n = c->priv;
	struct superp_sim *s = n->sim;
	const struct sim_pkt *sp = buf;
	struct sim_xact *x = cookie;

	sim_delivered(n, p, sp);
	if (!x) {
		SIM_CHECK(s, s->cfg->cancel_every,
			  "node %d reply without a transaction", n->idx);
		return;
	}
	if (p->opcode == SUPERP_OP_READ_RESP) {
		SIM_CHECK(s, sp->tag == sim_tag(!n->idx, 1, x->id, p->seqno),
			  "node %d bad read data id %u seqno %u", n->idx, x->id,
			  p->seqno);
		x->rx++;
	} else {
		SIM_CHECK(s, p->err == SIM_ERR_CODE && sim_inject_error(s, x),
			  "node %d unexpected Transaction Error id %u", n->idx,
			  x->id);
	}
}

static void sim_submit_more(struct sim_node *n);

static void sim_complete(struct superp_conn *c, void *cookie, int status,
			 u32 err)
{
	struct sim_node *n = c->priv;
	struct superp_sim *s = n->sim;
	struct sim_xact *x = cookie;

	SIM_CHECK(s, !x->done, "node %d id %u completed twice", n->idx, x->id);
	x->done = 1;
	n->done++;
	if (x->opcode == SUPERP_OP_RMA_READ)
		s->res->max_lat_read = max(s->res->max_lat_read, s->now - x->t_sub);
	else
		s->res->max_lat_write = max(s->res->max_lat_write,
					    s->now - x->t_sub);
	if (status == 0) {
		SIM_CHECK(s, !sim_inject_error(s, x) || x->error_astray,
			  "node %d id %u missed its error", n->idx, x->id);
		SIM_CHECK(s, x->opcode != SUPERP_OP_RMA_READ || x->rx == x->rlen,
			  "node %d read id %u got %u of %u", n->idx, x->id,
			  x->rx, x->rlen);
		s->res->completed++;
	} else if (status == -EREMOTEIO) {
		SIM_CHECK(s, sim_inject_error(s, x) && err == SIM_ERR_CODE,
			  "node %d id %u bad error %u", n->idx, x->id, err);
		s->res->completed++;
	} else {
		SIM_CHECK(s, status != -ECANCELED || x->cancel,
			  "node %d id %u cancelled unasked", n->idx, x->id);
		/* lite: the break's reason, or a duplicated reply refused */
		SIM_CHECK(s, !s->cfg->lite || status == -ECANCELED ||
			  status == n->fail_status ||
			  (status == -EPROTO && s->res->duplicated),
			  "node %d id %u failed with %d", n->idx, x->id, status);
		s->res->cancelled += status == -ECANCELED;
		s->res->failed++;
	}
	/*
	 * Every other completion submits at once, as the RC data path does
	 * from complete(): new XIDs take retired slots before the pump runs.
	 */
	if (x->id & 1)
		sim_submit_more(n);
}

static bool sim_match(void *cookie, void *arg)
{
	return cookie == arg;
}

/* Node 0 forgets a transaction still pending, as a destroyed QP would. */
static void sim_cancel_some(struct sim_node *n)
{
	struct superp_sim *s = n->sim;
	struct sim_xact *x;
	u32 every = s->cfg->cancel_every;

	if (!every || n->idx || n->next < 4 || n->next % every)
		return;
	x = &n->x[n->next - 4];
	if (x->done)
		return;
	x->cancel = 1;
	SIM_CHECK(s, superp_cancel(n->c, sim_match, x, s->now) == 1,
		  "node %d could not cancel id %u", n->idx, x->id);
}

/* Transactions node @n initiates (latency runs: node 0 only). */
static u32 sim_ntrans(const struct sim_node *n)
{
	const struct superp_sim_cfg *cfg = n->sim->cfg;

	return cfg->latency && n->idx ? 0 : cfg->ntrans;
}

static void sim_submit_more(struct sim_node *n)
{
	struct superp_sim *s = n->sim;
	struct superp_xact t = { .num_ops = 1 };
	struct sim_xact *x;
	int ret;

	if (n->submitting)
		return;		/* a cancel's complete() called back */
	n->submitting = true;
	while (n->next < sim_ntrans(n)) {
		x = &n->x[n->next];
		t.opcode = x->opcode;
		t.npkts = x->npkts;
		t.barrier = x->barrier;
		t.qp = x->id % SIM_QPS;
		t.cookie = x;
		ret = superp_submit(n->c, &t, NULL, s->now);
		if (ret == -EAGAIN || ret == -ENOTCONN)
			break;
		SIM_CHECK(s, !ret, "node %d submit %d", n->idx, ret);
		if (ret)
			break;
		SIM_CHECK(s, !x->barrier || n->done == n->next,
			  "node %d barrier %u passed %u completions", n->idx,
			  x->id, n->done);
		x->t_sub = s->now;
		n->next++;
		s->res->submitted++;
		sim_cancel_some(n);
	}
	n->submitting = false;
}

static void sim_tx_ready(struct superp_conn *c)
{
	sim_submit_more(c->priv);
}

static const struct superp_engine_ops sim_ops = {
	.xmit		= sim_xmit,
	.arm_timer	= sim_arm_timer,
	.event		= sim_event,
	.hold		= sim_hold,
	.release	= sim_release,
	.target_pkt	= sim_target_pkt,
	.target_request	= sim_target_request,
	.initiator_pkt	= sim_initiator_pkt,
	.complete	= sim_complete,
	.tx_ready	= sim_tx_ready,
};

/* Mostly one packet, some up to max_pkts (mean about 3). */
static u16 sim_size(struct superp_sim *s)
{
	u32 r = sim_below(s, 100), max = s->cfg->max_pkts, n;

	if (r < 70)
		n = 1;
	else if (r < 90)
		n = 2 + sim_below(s, 3);
	else if (r < 98)
		n = 5 + sim_below(s, 12);
	else
		n = 17 + sim_below(s, max > 17 ? max - 16 : 1);
	return n < max ? n : max;
}

static void sim_workload(struct superp_sim *s, struct sim_node *n)
{
	const struct superp_sim_cfg *cfg = s->cfg;
	struct sim_xact *x;
	u32 i, r;

	for (i = 0; i < cfg->ntrans; i++) {
		x = &n->x[i];
		x->id = i;
		r = sim_below(s, 1000);
		x->npkts = 1;
		if (cfg->latency) {
			/* one packet each way: a write, then a read */
			x->opcode = i & 1 ? SUPERP_OP_RMA_READ :
					    SUPERP_OP_RMA_WRITE;
			x->rlen = 1;
			continue;
		}
		if (r < 10) {
			x->opcode = SUPERP_OP_NOOP;
		} else if (r < 250) {
			x->opcode = SUPERP_OP_RMA_READ;
			x->rlen = sim_size(s);
		} else if (r < 500) {
			x->opcode = SUPERP_OP_SEND_QP;
			x->npkts = sim_size(s);
		} else {
			x->opcode = SUPERP_OP_RMA_WRITE;
			x->npkts = sim_size(s);
		}
		x->barrier = cfg->barrier_every &&
			     i % cfg->barrier_every == cfg->barrier_every - 1;
	}
}

/*
 * SUPERp-lite on both nodes, over the link it presumes: in order and
 * without duplicates. A loss set afterwards, or a reordering or
 * duplication, breaks that promise: the run may then end broken, as the
 * rules in sim_lite_event() and sim_lite_check_end() say.
 */
void superp_sim_lite_cfg(struct superp_sim_cfg *cfg)
{
	cfg->lite = true;
	cfg->dup_ppm = 0;
	cfg->reorder_ppm = 0;
	cfg->params.tal_transaction_timeout = SIM_LITE_TIMEOUT;
}

void superp_sim_default_cfg(struct superp_sim_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->seed = 1;
	cfg->dup_ppm = 10000;
	cfg->reorder_ppm = 20000;
	cfg->delay_ns = 5000;
	cfg->jitter_ns = 3000;
	cfg->ntrans = 1000;
	cfg->max_pkts = 64;
	cfg->barrier_every = 997;
	cfg->psn_base = 0xfffff000;
	cfg->xid_base = 0xff00;
	cfg->ordered[0] = true;
	cfg->hello = true;
	cfg->shutdown = true;
	cfg->max_sim_ns = 600ULL * 1000 * 1000 * 1000;
	cfg->params = superp_default_params;
	cfg->params.tal_max_pkt_per_trans = 64;
	/* scaled to the simulated 10 us RTT */
	cfg->params.pdl_retrans_time_out = 200;
	cfg->params.pdl_delayed_ack_time = 20;
}

static bool sim_all_done(struct superp_sim *s)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct sim_node *n = &s->node[i];

		if (n->done != n->next)
			return false;
		if (n->next < sim_ntrans(n) && !s->res->broken[i])
			return false;
	}
	return true;
}

/*
 * SUPERp-lite, whatever the link did: nothing retransmitted, probed or
 * selectively acknowledged; a lost data packet ends the connection, but
 * for a Transaction Error answering a write, which nothing can miss (the
 * ACK XID retires the write as done); and only a broken promise does.
 */
static void sim_lite_check_end(struct superp_sim *s)
{
	const struct superp_sim_result *res = s->res;
	u64 rtx = res->rtx_timer + res->rtx_fast + res->rtx_proactive +
		  res->rtx_tail + res->probes;
	bool broken = res->broken[0] || res->broken[1];

	SIM_CHECK(s, !rtx && !res->sacks && !res->nacks,
		  "lite: %llu retransmissions or probes, %llu SACKs, %llu NACKs",
		  rtx, res->sacks, res->nacks);
	SIM_CHECK(s, res->lost_data == res->lost_errors || broken,
		  "lite: %llu data packets lost, no node broke", res->lost_data);
	SIM_CHECK(s, !broken || sim_lite_faults(res),
		  "lite: broken on a link that kept its promise");
}

static void sim_collect(struct superp_sim *s)
{
	struct superp_sim_result *res = s->res;
	const struct superp_stats *st;
	int i;
	u32 j;

	for (i = 0; i < 2; i++) {
		struct sim_node *n = &s->node[i];
		struct superp_conn *peer = s->node[!i].c;

		st = superp_conn_stats(n->c);
		res->data_pkts += st->tx_new;
		res->rtx_timer += st->tx_rtx_timer;
		res->rtx_fast += st->tx_rtx_fast;
		res->rtx_proactive += st->tx_rtx_proactive;
		res->rtx_tail += st->tx_rtx_tail;
		res->probes += st->tx_probe;
		res->pure_acks += st->tx_pure_ack;
		res->sacks += st->tx_sack;
		res->nacks += st->tx_nack;
		SIM_CHECK(s, st->rx_pkts == st->rx_processed + st->rx_dup +
			  st->rx_holding + st->rx_dropped,
			  "node %d received %llu packets, accounted for %llu", i,
			  (unsigned long long)st->rx_pkts,
			  (unsigned long long)(st->rx_processed + st->rx_dup +
					       st->rx_holding + st->rx_dropped));
		for (j = 0; j < n->next; j++)
			SIM_CHECK(s, n->x[j].done, "node %d id %u never completed",
				  i, j);
		/* each refusal dropped one packet at the target's TAL */
		if (i == 1)
			n->delivered += res->refusals;
		/* lite: on a link that broke its promise, sim_lite_rx() */
		if (!res->broken[0] && !res->broken[1] &&
		    (!s->cfg->lite || !sim_lite_faults(res)))
			SIM_CHECK(s, n->delivered ==
				  (u32)(peer->next_spsn - s->cfg->psn_base),
				  "node %d delivered %llu of %u PSNs", i,
				  (unsigned long long)n->delivered,
				  peer->next_spsn - s->cfg->psn_base);
	}
	SIM_CHECK(s, res->completed + res->failed == res->submitted,
		  "%llu completed and %llu failed of %llu submitted",
		  res->completed, res->failed, res->submitted);
	if (s->cfg->lite)
		sim_lite_check_end(s);
	res->sim_ns = s->now;
}

static int sim_setup(struct superp_sim *s)
{
	const struct superp_sim_cfg *cfg = s->cfg;
	u32 i;

	if (cfg->lite && !cfg->params.tal_transaction_timeout) {
		sim_fail(s, "lite without tal_transaction_timeout: a loss would go unnoticed");
		return -EINVAL;
	}
	s->pool = kvcalloc(SIM_POOL, sizeof(*s->pool), GFP_KERNEL);
	s->free = kvcalloc(SIM_POOL, sizeof(*s->free), GFP_KERNEL);
	s->heap = kvcalloc(SIM_POOL, sizeof(*s->heap), GFP_KERNEL);
	if (!s->pool || !s->free || !s->heap)
		return -ENOMEM;
	for (i = 0; i < SIM_POOL; i++)
		sim_put(s, &s->pool[i]);
	for (i = 0; i < 2; i++) {
		struct sim_node *n = &s->node[i];

		n->sim = s;
		n->idx = i;
		n->last_psn = cfg->psn_base - 1;
		n->ack_xid_sent = cfg->xid_base - 1;
		n->x = kvcalloc(cfg->ntrans + 1, sizeof(*n->x), GFP_KERNEL);
		n->tgt = kvcalloc(roundup_pow_of_two(cfg->params.tal_trans_window),
				  sizeof(*n->tgt), GFP_KERNEL);
		n->c = superp_conn_create(&cfg->params, &sim_ops, n, i, !i,
					  (cfg->ordered[i] ?
					   SUPERP_CONN_ORDERED_RX : 0) |
					  (cfg->hello ? SUPERP_CONN_HELLO : 0) |
					  (cfg->lite ? SUPERP_CONN_LITE : 0));
		if (!n->x || !n->tgt || !n->c)
			return -ENOMEM;
		superp_conn_set_base(n->c, cfg->psn_base, cfg->xid_base);
		sim_workload(s, n);
	}
	return 0;
}

static void sim_teardown(struct superp_sim *s)
{
	int i;

	s->finished = true;
	for (i = 0; i < 2; i++) {
		superp_conn_destroy(s->node[i].c);
		kvfree(s->node[i].x);
		kvfree(s->node[i].tgt);
	}
	kvfree(s->pool);
	kvfree(s->free);
	kvfree(s->heap);
}

/**
 * superp_sim_run() - run one simulation to completion.
 * @cfg: channel, workload and engine parameters.
 * @res: figures; res->fail names the first violated invariant.
 *
 * Return: 0 when the run finished without a violation, -EINVAL otherwise,
 * -ENOMEM when it could not start.
 */
int superp_sim_run(const struct superp_sim_cfg *cfg,
		   struct superp_sim_result *res)
{
	struct superp_sim *s;
	struct sim_node *n;
	bool shut = false, have;
	u64 t;
	int i, ret;

	memset(res, 0, sizeof(*res));
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->cfg = cfg;
	s->res = res;
	s->rng = cfg->seed * 0x9e3779b97f4a7c15ULL + 1;
	ret = sim_setup(s);
	if (ret)
		goto out;
	for (i = 0; i < 2; i++)
		sim_submit_more(&s->node[i]);
	while (!res->fail[0]) {
		/* A run takes seconds of CPU: no soft lockup, no stalled RCU. */
		cond_resched();
		if (cfg->shutdown && !shut && sim_all_done(s) &&
		    !res->broken[0] && !res->broken[1]) {
			shut = true;
			for (i = 0; i < 2; i++)
				superp_conn_shutdown(s->node[i].c, s->now);
		}
		/* the connection manager hard-shuts the peer of a broken side */
		for (i = 0; i < 2; i++)
			if (res->broken[i] && !res->broken[!i]) {
				s->node[!i].fail_status = -ECONNRESET;
				superp_conn_abort(s->node[!i].c, -ECONNRESET);
			}
		/* next event: a packet arrival or, if earlier, a timer */
		n = NULL;
		have = s->nheap;
		t = have ? s->heap[0]->at : 0;
		for (i = 0; i < 2; i++) {
			u64 at = s->node[i].timer_at;

			if (at && (!have || at < t)) {
				t = at;
				n = &s->node[i];
				have = true;
			}
		}
		if (!have)
			break;
		if (t > cfg->max_sim_ns)
			break;
		if (t > s->now)
			s->now = t;
		if (n) {
			n->timer_at = 0;
			superp_conn_timer(n->c, s->now);
		} else {
			struct sim_pkt *sp = sim_heap_pop(s);
			struct superp_pkt p;

			SIM_CHECK(s, !(cfg->lite ?
				       superp_pkt_parse_lite(&sp->tal,
							     sizeof(sp->tal), &p) :
				       superp_pkt_decode(&sp->pdl, &sp->tal, &p)),
				  "undecodable packet");
			p.err = sp->err;
			sp->held = 0;
			superp_conn_rx(s->node[sp->to].c, &p, sp, s->now);
			if (!sp->held)
				sim_put(s, sp);
		}
	}
	SIM_CHECK(s, sim_all_done(s), "deadlock: %u/%u and %u/%u done",
		  s->node[0].done, cfg->ntrans, s->node[1].done, cfg->ntrans);
	if (cfg->shutdown && !res->broken[0] && !res->broken[1])
		SIM_CHECK(s, res->quiescent[0] && res->quiescent[1],
			  "soft shutdown did not quiesce");
	sim_collect(s);
	ret = res->fail[0] ? -EINVAL : 0;
out:
	sim_teardown(s);
	kfree(s);
	return ret;
}
