// SPDX-License-Identifier: GPL-2.0
/*
 * superp-ring-garbage DEV GID_INDEX PEER_IPV4: a process that writes
 * garbage into its QP rings (Documentation/provider.rst, "Trust model").
 *
 * Each case takes a fresh RC QP to RTS toward PEER_IPV4 (a SUPERp
 * connection to it must exist; nothing needs to answer: every case is
 * refused before the wire), writes a crafted send WQE straight into the
 * send ring through the provider's own view of it (providers/superp),
 * then a valid one, and rings the doorbell (an empty POST_SEND). The
 * crafted WR must complete with the status the case names, the valid one
 * after it with IBV_WC_WR_FLUSH_ERR, and the QP must be in ERR. Further
 * cases: a producer index far ahead of the kernel's (QP to ERR, no
 * completion), and receive WQEs full of garbage flushed when the QP goes
 * to ERR (each completes IBV_WC_WR_FLUSH_ERR with its wr_id).
 *
 * Prints "ok CASE" or "FAIL CASE: why" per case, then "done N failed";
 * the exit status is 0 when no case failed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "superp.h"
#include "verbs-test.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_SGE		4
#define BUF_SIZE	4096

struct env {
	struct ibv_context *ctx;
	struct ibv_pd *pd, *other_pd;
	struct ibv_mr *mr, *other_mr;
	struct ibv_cq *cq;
	union ibv_gid dgid;
	int gid_index;
	char *buf;
};

struct qp {
	struct ibv_qp *ibqp;
	struct superp_qp *sqp;		/* the provider's view: the rings */
};

static int failed;

static void fail(const char *name, const char *why)
{
	printf("FAIL %s: %s\n", name, why);
	failed++;
}

static int qp_to_rts(struct env *e, struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};
	int err;

	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (err)
		return err;
	return rc_to_rts(qp, &(struct rc_path){
		.dgid = &e->dgid, .dest_qpn = 1, .sgid_index = e->gid_index,
		.hop_limit = 1, .mtu = IBV_MTU_1024, .rd_atomic = 1 });
}

static int qp_new(struct env *e, struct qp *q, const char *name)
{
	struct ibv_qp_init_attr init = {
		.send_cq = e->cq,
		.recv_cq = e->cq,
		.cap = {
			.max_send_wr = 8,
			.max_recv_wr = 8,
			.max_send_sge = MAX_SGE,
			.max_recv_sge = MAX_SGE,
			.max_inline_data = 64,
		},
		.qp_type = IBV_QPT_RC,
	};
	int err;

	q->ibqp = ibv_create_qp(e->pd, &init);
	if (!q->ibqp) {
		fail(name, "ibv_create_qp failed");
		return -1;
	}
	q->sqp = superp_container_of(q->ibqp, struct superp_qp, vqp.qp);
	err = qp_to_rts(e, q->ibqp);
	if (err) {
		char why[96];

		snprintf(why, sizeof(why), "the QP does not reach RTS: %s",
			 strerror(err));
		fail(name, why);
		ibv_destroy_qp(q->ibqp);
		return -1;
	}
	return 0;
}

/* The next free slot of a ring, as the provider would fill it. */
static void *slot(struct superp_uwq *wq)
{
	return (char *)(wq->ring + 1) +
	       (size_t)(wq->producer & (wq->entries - 1)) * wq->stride;
}

static void publish(struct superp_uwq *wq)
{
	__atomic_store_n(&wq->ring->producer, wq->producer, __ATOMIC_RELEASE);
}

/* A valid SEND of 16 bytes from the registered buffer. */
static void good_send(struct env *e, struct superp_uwqe_send *u, uint64_t id)
{
	struct superp_usge *s = (struct superp_usge *)(u + 1);

	memset(u, 0, sizeof(*u));
	u->wr_id = id;
	u->opcode = IBV_WR_SEND;
	u->send_flags = IBV_SEND_SIGNALED;
	u->num_sge = 1;
	s->addr = (uintptr_t)e->buf;
	s->length = 16;
	s->lkey = e->mr->lkey;
}

/* Waits up to 3 s for one completion. */
static int poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	int i, n;

	for (i = 0; i < 3000; i++) {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n;
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	return 0;
}

static int qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &init))
		return -1;
	return a.qp_state;
}

/* Drains what is left on the CQ (a failed case may leave some). */
static void cq_drain(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	while (ibv_poll_cq(cq, 1, &wc) > 0)
		;
}

typedef void (*craft_fn)(struct env *e, struct superp_uwqe_send *u,
			 struct superp_uwq *sq);

/* One crafted send WQE, a valid one after it, one doorbell. */
static void send_case(struct env *e, const char *name, craft_fn craft,
		      enum ibv_wc_status want)
{
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	char why[160];
	struct qp q;
	int err;

	if (qp_new(e, &q, name))
		return;
	good_send(e, slot(&q.sqp->sq), 1);
	craft(e, slot(&q.sqp->sq), &q.sqp->sq);
	q.sqp->sq.producer++;
	good_send(e, slot(&q.sqp->sq), 2);
	q.sqp->sq.producer++;
	publish(&q.sqp->sq);
	err = ibv_cmd_post_send(q.ibqp, NULL, &bad);
	if (err) {
		snprintf(why, sizeof(why), "doorbell: %s", strerror(err));
		fail(name, why);
	} else if (!poll_one(e->cq, &wc)) {
		fail(name, "no completion for the crafted WR");
	} else if (wc.wr_id != 1 || wc.status != want) {
		snprintf(why, sizeof(why), "first completion wr_id %llu %s, want wr_id 1 %s",
			 (unsigned long long)wc.wr_id,
			 ibv_wc_status_str(wc.status), ibv_wc_status_str(want));
		fail(name, why);
	} else if (!poll_one(e->cq, &wc) || wc.wr_id != 2 ||
		   wc.status != IBV_WC_WR_FLUSH_ERR) {
		fail(name, "the valid WR after it is not flushed");
	} else if (qp_state(q.ibqp) != IBV_QPS_ERR) {
		fail(name, "the QP is not in ERR");
	} else {
		printf("ok %s\n", name);
	}
	cq_drain(e->cq);
	if (ibv_destroy_qp(q.ibqp))
		fail(name, "ibv_destroy_qp failed");
}

static void craft_opcode(struct env *e, struct superp_uwqe_send *u,
			 struct superp_uwq *sq)
{
	u->opcode = 0x77;
}

/* A key no MR or window of the process has (another slot). */
static void craft_local_inv(struct env *e, struct superp_uwqe_send *u,
			    struct superp_uwq *sq)
{
	u->opcode = IBV_WR_LOCAL_INV;
	u->imm_data = e->mr->lkey ^ 0x100;
}

/* A bind whose window is an MR's key, over a range past the MR. */
static void craft_bind_mw(struct env *e, struct superp_uwqe_send *u,
			  struct superp_uwq *sq)
{
	u->opcode = IBV_WR_BIND_MW;
	u->rkey = e->mr->lkey;
	u->imm_data = e->mr->lkey;
	u->bind.mr_lkey = e->mr->lkey;
	u->bind.addr = (uintptr_t)e->buf;
	u->bind.length = ~0ULL;
	u->bind.access = ~0U;
}

/* A bind carries no data: inline is refused before it runs. */
static void craft_bind_inline(struct env *e, struct superp_uwqe_send *u,
			      struct superp_uwq *sq)
{
	craft_bind_mw(e, u, sq);
	u->send_flags |= IBV_SEND_INLINE;
}

static void craft_flags(struct env *e, struct superp_uwqe_send *u,
			struct superp_uwq *sq)
{
	u->send_flags |= 0x80000000u;
}

static void craft_num_sge(struct env *e, struct superp_uwqe_send *u,
			  struct superp_uwq *sq)
{
	u->num_sge = 0xffffffffu;
}

static void craft_num_sge_max(struct env *e, struct superp_uwqe_send *u,
			      struct superp_uwq *sq)
{
	u->num_sge = MAX_SGE + 1;
}

static void craft_other_pd(struct env *e, struct superp_uwqe_send *u,
			   struct superp_uwq *sq)
{
	((struct superp_usge *)(u + 1))->lkey = e->other_mr->lkey;
}

static void craft_lkey_zero(struct env *e, struct superp_uwqe_send *u,
			    struct superp_uwq *sq)
{
	((struct superp_usge *)(u + 1))->lkey = 0;
}

static void craft_lkey_random(struct env *e, struct superp_uwqe_send *u,
			      struct superp_uwq *sq)
{
	((struct superp_usge *)(u + 1))->lkey = 0x5a5a1234;
}

static void craft_past_mr(struct env *e, struct superp_uwqe_send *u,
			  struct superp_uwq *sq)
{
	struct superp_usge *s = (struct superp_usge *)(u + 1);

	s->addr = (uintptr_t)e->buf + BUF_SIZE - 8;
	s->length = 64;
}

static void craft_huge_length(struct env *e, struct superp_uwqe_send *u,
			      struct superp_uwq *sq)
{
	((struct superp_usge *)(u + 1))->length = 0xffffffffu;
}

static void craft_kernel_addr(struct env *e, struct superp_uwqe_send *u,
			      struct superp_uwq *sq)
{
	((struct superp_usge *)(u + 1))->addr = 0xffff888000000000ull;
}

static void craft_inline_huge(struct env *e, struct superp_uwqe_send *u,
			      struct superp_uwq *sq)
{
	u->send_flags |= IBV_SEND_INLINE;
	u->inline_len = 0x7fffffff;
}

static void craft_atomic_sges(struct env *e, struct superp_uwqe_send *u,
			      struct superp_uwq *sq)
{
	u->opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	u->num_sge = 1;		/* of 16 bytes: an atomic needs exactly 8 */
}

/* A producer index far ahead: the QP goes to ERR, nothing completes. */
static void producer_case(struct env *e)
{
	const char *name = "producer-far-ahead";
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	struct qp q;

	if (qp_new(e, &q, name))
		return;
	__atomic_store_n(&q.sqp->sq.ring->producer, 0x40000000u,
			 __ATOMIC_RELEASE);
	ibv_cmd_post_send(q.ibqp, NULL, &bad);
	if (qp_state(q.ibqp) != IBV_QPS_ERR)
		fail(name, "the QP is not in ERR");
	else if (poll_one(e->cq, &wc))
		fail(name, "a completion for a WR never posted");
	else
		printf("ok %s\n", name);
	cq_drain(e->cq);
	if (ibv_destroy_qp(q.ibqp))
		fail(name, "ibv_destroy_qp failed");
}

/* Garbage receive WQEs are flushed with their wr_id when the QP breaks. */
static void recv_flush_case(struct env *e)
{
	const char *name = "recv-garbage-flushed";
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
	struct superp_uwqe_recv *u;
	struct superp_uwq *rq;
	struct ibv_wc wc;
	struct qp q;
	int i;

	if (qp_new(e, &q, name))
		return;
	rq = &q.sqp->rq;
	for (i = 0; i < 3; i++) {
		u = slot(rq);
		memset(u, 0xa5, rq->stride);
		u->wr_id = 100 + i;
		rq->producer++;
	}
	publish(rq);
	if (ibv_modify_qp(q.ibqp, &a, IBV_QP_STATE)) {
		fail(name, "ibv_modify_qp to ERR failed");
		goto out;
	}
	for (i = 0; i < 3; i++) {
		if (!poll_one(e->cq, &wc) || wc.wr_id != (uint64_t)(100 + i) ||
		    wc.status != IBV_WC_WR_FLUSH_ERR ||
		    wc.opcode != IBV_WC_RECV) {
			fail(name, "a receive WQE not flushed in order");
			goto out;
		}
	}
	if (__atomic_load_n(&rq->ring->consumer, __ATOMIC_ACQUIRE) !=
	    rq->producer)
		fail(name, "the kernel did not give the slots back");
	else
		printf("ok %s\n", name);
out:
	cq_drain(e->cq);
	if (ibv_destroy_qp(q.ibqp))
		fail(name, "ibv_destroy_qp failed");
}

static int env_open(struct env *e, const char *dev, int gid_index,
		    const char *peer)
{
	struct ibv_device **list;
	int i, n;

	memset(e, 0, sizeof(*e));
	e->gid_index = gid_index;
	e->dgid.raw[10] = 0xff;
	e->dgid.raw[11] = 0xff;
	if (inet_pton(AF_INET, peer, &e->dgid.raw[12]) != 1)
		return -1;
	list = ibv_get_device_list(&n);
	if (!list)
		return -1;
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev))
			e->ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!e->ctx)
		return -1;
	e->buf = calloc(1, 2 * BUF_SIZE);
	e->pd = ibv_alloc_pd(e->ctx);
	e->other_pd = ibv_alloc_pd(e->ctx);
	e->cq = ibv_create_cq(e->ctx, 64, NULL, NULL, 0);
	if (!e->buf || !e->pd || !e->other_pd || !e->cq)
		return -1;
	e->mr = ibv_reg_mr(e->pd, e->buf, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	e->other_mr = ibv_reg_mr(e->other_pd, e->buf + BUF_SIZE, BUF_SIZE,
				 IBV_ACCESS_LOCAL_WRITE);
	return e->mr && e->other_mr ? 0 : -1;
}

static void env_close(struct env *e)
{
	if (e->other_mr)
		ibv_dereg_mr(e->other_mr);
	if (e->mr)
		ibv_dereg_mr(e->mr);
	if (e->cq)
		ibv_destroy_cq(e->cq);
	if (e->other_pd)
		ibv_dealloc_pd(e->other_pd);
	if (e->pd)
		ibv_dealloc_pd(e->pd);
	if (e->ctx)
		ibv_close_device(e->ctx);
	free(e->buf);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		craft_fn craft;
		enum ibv_wc_status want;
	} cases[] = {
		{ "opcode-unknown", craft_opcode, IBV_WC_LOC_QP_OP_ERR },
		{ "local-inv-unknown-key", craft_local_inv, IBV_WC_LOC_PROT_ERR },
		{ "bind-mw-garbage", craft_bind_mw, IBV_WC_MW_BIND_ERR },
		{ "bind-mw-inline", craft_bind_inline, IBV_WC_LOC_QP_OP_ERR },
		{ "send-flags-unknown", craft_flags, IBV_WC_LOC_QP_OP_ERR },
		{ "num-sge-huge", craft_num_sge, IBV_WC_LOC_QP_OP_ERR },
		{ "num-sge-over-max", craft_num_sge_max, IBV_WC_LOC_QP_OP_ERR },
		{ "lkey-other-pd", craft_other_pd, IBV_WC_LOC_PROT_ERR },
		{ "lkey-zero", craft_lkey_zero, IBV_WC_LOC_PROT_ERR },
		{ "lkey-unknown", craft_lkey_random, IBV_WC_LOC_PROT_ERR },
		{ "sge-past-mr", craft_past_mr, IBV_WC_LOC_PROT_ERR },
		{ "sge-length-huge", craft_huge_length, IBV_WC_LOC_PROT_ERR },
		{ "sge-kernel-address", craft_kernel_addr, IBV_WC_LOC_PROT_ERR },
		{ "inline-length-huge", craft_inline_huge, IBV_WC_LOC_LEN_ERR },
		{ "atomic-sge-not-8", craft_atomic_sges, IBV_WC_LOC_PROT_ERR },
	};
	struct env e;
	size_t i;

	if (argc != 4) {
		fprintf(stderr, "usage: %s DEV GID_INDEX PEER_IPV4\n", argv[0]);
		return 2;
	}
	if (env_open(&e, argv[1], atoi(argv[2]), argv[3])) {
		fprintf(stderr, "cannot set up %s: %s\n", argv[1],
			strerror(errno));
		env_close(&e);
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		send_case(&e, cases[i].name, cases[i].craft, cases[i].want);
	producer_case(&e);
	recv_flush_case(&e);
	env_close(&e);
	printf("done %d failed\n", failed);
	return failed ? 1 : 0;
}
