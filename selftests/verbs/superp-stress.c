// SPDX-License-Identifier: GPL-2.0
/*
 * superp-stress: a data-verifying RC transfer through plain libibverbs.
 *
 *   superp-stress -d DEV -x GIDX -p PORT [-q NQPS] [-b BYTES] [-s MSGSIZE]
 *                 [-S SEED] [-t SECONDS] [SERVER_IP]
 *
 * Without SERVER_IP it listens on PORT (the server); given one, it connects
 * (the client); the two exchange QP numbers, GIDs, rkeys and addresses
 * over that TCP connection (as ibv_rc_pingpong does), and both sides then
 * run the same traffic toward each other on NQPS RC QPs, QP i of one side
 * connected to QP i of the other.
 *
 * Each QP works in phases. In phase p it posts, round-robin with the
 * other QPs and up to QDEPTH work requests outstanding (every SIGNAL-th
 * signalled, and the last of a phase):
 *   - CHUNKS RDMA WRITEs of MSGSIZE into half p % 2 of its area in the
 *     peer's MR, a pattern of (seed, side, qp, phase, offset);
 *   - CHUNKS RDMA READs of the other half, written in phase p - 1, back
 *     into a local buffer: every byte checked against that phase's pattern;
 *   - CHUNKS SENDs with immediate, the immediate the QP's sequence number,
 *     a pattern of (seed, side, qp, sequence): the receiver checks order,
 *     length and every byte;
 *   - FETCH_AND_ADDs, a matching and a failing CMP_AND_SWP on a counter of
 *     its own in the peer's MR: every fetched value must be exactly the
 *     counter's value before that atomic (adds are positive, so fetched
 *     values are distinct and increasing between swaps).
 * A phase ends when all its WRs completed (a READ of the other half is
 * then safe). At the end a READ fetches each counter, which must hold its
 * initial value plus all that was added and swapped, and the peer, told
 * the expected values over TCP, checks its own copy too; each side checks
 * the last two halves the peer wrote into its memory.
 *
 * MSGSIZE is a multiple of 8, at most 1 MiB. BYTES (K, M, G suffixes) is
 * the payload of the whole run, both directions, WRITE, READ and SEND data
 * together; it is rounded up to whole phases. Prints one "summary ..."
 * line and exits 0 only if every completion succeeded and every byte and
 * atomic was as expected; else "FAIL ..." lines naming the QP, offset,
 * expected and found, and exit 1.
 * After -t SECONDS (default 600) it fails with the state of every QP; a
 * control connection still blocked 10 s later ends the process.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "verbs-test.h"

#define QDEPTH		16	/* send WRs outstanding per QP */
#define SIGNAL		4	/* every SIGNAL-th send WR is signalled */
#define RDEPTH		16	/* receives posted per QP */
#define CHUNKS		8	/* WRITEs, READs and SENDs per QP per phase */
#define FADDS		4	/* FETCH_AND_ADDs per QP per phase */
#define MAX_QPS		64
#define MAX_MSG		0x100000
#define CAS_STEP	1000003ULL
#define fallthrough	__attribute__((__fallthrough__))

enum op { OP_WRITE, OP_READ, OP_SEND, OP_FADD, OP_CAS, OP_CAS_MISS, OP_FINAL,
	  OP_NR };
static const char *const op_name[OP_NR] = {
	"write", "read", "send", "fadd", "cas", "cas-miss", "final-read",
};

/* What each side tells the other (big-endian on the wire). */
struct wire_qp {
	uint32_t qpn, rkey;
	uint64_t addr;		/* the QP's buffer */
	uint8_t gid[16];
};

struct wire_hdr {
	uint64_t seed;
	uint32_t nqps, msgsize, phases, pad;
};

/* One send WR in flight, in its QP's slot ring. */
struct slot {
	enum op op;
	uint32_t phase, chunk;	/* READ: what to check */
	uint64_t expect;	/* atomics: the value fetched */
	bool signalled;
};

/*
 * The buffer of one QP (one MR): areas of CHUNKS * msgsize unless noted.
 *   wr[2]	halves the peer writes and reads back
 *   rd		where our READs land
 *   wsrc	our WRITE data of this phase
 *   ssrc	our SEND data of this phase
 *   recv	RDEPTH receive buffers of msgsize
 *   ctr	the counter the peer's atomics work on (8 bytes)
 *   res	QDEPTH atomic results, and one for the final READ
 */
struct qp {
	int idx;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	size_t area, wr_off, rd_off, wsrc_off, ssrc_off, recv_off, ctr_off,
	       res_off, len;
	struct wire_qp peer;
	/* send side */
	uint32_t phase, next, nops;	/* phase, its next op, ops in it */
	enum op plan[4 * CHUNKS + FADDS + 2];
	uint32_t plan_chunk[4 * CHUNKS + FADDS + 2];
	struct slot slots[QDEPTH];
	uint32_t head, tail;		/* posted, retired send WRs */
	uint32_t seq;			/* next SEND's sequence number */
	uint64_t aval, adds;		/* counter at the peer; atomics so far */
	bool done, final_done;
	/* receive side */
	uint32_t rseq, rposted;		/* next expected, receives posted */
};

static struct {
	const char *dev;
	int gidx, port, nqps, timeout;
	uint64_t bytes, seed;
	uint32_t msgsize;
	const char *server;
} cfg = { .gidx = 0, .port = 18515, .nqps = 4, .bytes = 1ULL << 30,
	  .msgsize = 65536, .timeout = 600 };

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *scq, *rcq;
static struct ibv_comp_channel *chan;
static struct qp qps[MAX_QPS];
static struct wire_hdr peer_hdr;
static uint32_t phases;
static int side;		/* 0 server, 1 client */
static uint64_t nwr[OP_NR], nrecv;
static uint64_t sent_bytes, read_bytes;	/* WRITE and SEND data; READ */
static uint32_t rd_atom;	/* READs and atomics in flight, both ways */
static double deadline;
static int failures;

/* The last resort, for a peer that stops talking on the control socket. */
static void on_alarm(int sig)
{
	static const char msg[] = "FAIL timeout: the control connection is stuck\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

#define fail(...) do { printf("FAIL " __VA_ARGS__); putchar('\n'); \
		       failures++; } while (0)

/* Word i of the pattern stream named tag (splitmix64's finaliser). */
static uint64_t pat_word(uint64_t tag, uint64_t i)
{
	uint64_t x = tag + (i + 1) * 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The name of a stream: seed, writing side, QP, kind, phase or sequence. */
static uint64_t pat_tag(uint64_t seed, int from, int qp, enum op kind,
			uint32_t n)
{
	return pat_word(seed, ((uint64_t)from << 56) | ((uint64_t)qp << 40) |
			((uint64_t)kind << 32) | n);
}

static uint8_t pat_byte(uint64_t tag, size_t off)
{
	return pat_word(tag, off / 8) >> (8 * (off % 8));
}

/* Fill len bytes at p with stream tag from byte offset base (8-aligned). */
static void pat_fill(uint8_t *p, size_t len, uint64_t tag, size_t base)
{
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t w = pat_word(tag, (base + i) / 8);

		memcpy(p + i, &w, 8);
	}
	for (; i < len; i++)
		p[i] = pat_byte(tag, base + i);
}

/* Check len bytes at p; on a difference, name it and count a failure. */
static bool pat_check(const uint8_t *p, size_t len, uint64_t tag, size_t base,
		      const char *what, int qp, uint32_t n)
{
	size_t i, first = len, bad = 0;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t w = pat_word(tag, (base + i) / 8);

		if (!memcmp(p + i, &w, 8))
			continue;
		for (size_t j = i; j < i + 8; j++) {
			if (p[j] == pat_byte(tag, base + j))
				continue;
			if (first == len)
				first = j;
			bad++;
		}
	}
	for (; i < len; i++) {
		if (p[i] == pat_byte(tag, base + i))
			continue;
		if (first == len)
			first = i;
		bad++;
	}
	if (!bad)
		return true;
	fail("qp %d %s %u offset %zu: expected 0x%02x got 0x%02x (%zu of %zu bytes differ)",
	     qp, what, n, base + first, pat_byte(tag, base + first), p[first],
	     bad, len);
	return false;
}

static uint64_t counter_init(uint64_t seed, int qp)
{
	return pat_word(seed ^ 0xc0ffee, qp) >> 8;	/* room to add to */
}

static int parse_size(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'G': case 'g':
		*v <<= 10;
		fallthrough;
	case 'M': case 'm':
		*v <<= 10;
		fallthrough;
	case 'K': case 'k':
		*v <<= 10;
		end++;
		break;
	}
	return *end ? -1 : 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The payload both sides move in p phases. */
static uint64_t run_bytes(uint32_t p)
{
	uint64_t per = (uint64_t)CHUNKS * cfg.msgsize * cfg.nqps;

	return 2 * (2 * per * p + per * (p - 1));
}

/* TCP: read or write all of len bytes, or fail. */
static int xfer(int fd, void *p, size_t len, bool wr)
{
	int err = ctl_xfer(fd, p, len, wr);

	if (err)
		fail("control connection: %s", err == EPIPE ?
		     "closed by the peer" : strerror(err));
	return err ? -1 : 0;
}

static int tcp_connect(void)
{
	int fd = ctl_connect(cfg.server, cfg.port);

	if (fd < 0)
		fail("control connection on port %d: %s", cfg.port,
		     strerror(errno));
	return fd;
}

static int qp_create(struct qp *q, int idx)
{
	struct ibv_qp_init_attr init = {
		.send_cq = scq, .recv_cq = rcq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = QDEPTH, .max_recv_wr = RDEPTH,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			IBV_ACCESS_REMOTE_ATOMIC,
	};
	size_t m = cfg.msgsize;

	q->idx = idx;
	q->area = CHUNKS * m;
	q->wr_off = 0;
	q->rd_off = 2 * q->area;
	q->wsrc_off = 3 * q->area;
	q->ssrc_off = 4 * q->area;
	q->recv_off = 5 * q->area;
	q->ctr_off = (q->recv_off + RDEPTH * m + 7) & ~7UL;
	q->res_off = q->ctr_off + 8;
	q->len = q->res_off + 8 * (QDEPTH + 1);
	if (posix_memalign((void **)&q->buf, 4096, q->len)) {
		fail("qp %d: no memory for %zu bytes", idx, q->len);
		return -1;
	}
	memset(q->buf, 0, q->len);
	*(uint64_t *)(q->buf + q->ctr_off) = counter_init(cfg.seed, idx);
	q->mr = ibv_reg_mr(pd, q->buf, q->len, a.qp_access_flags);
	if (!q->mr) {
		fail("qp %d: ibv_reg_mr of %zu bytes: %s", idx, q->len,
		     strerror(errno));
		return -1;
	}
	q->qp = ibv_create_qp(pd, &init);
	if (!q->qp) {
		fail("qp %d: ibv_create_qp: %s", idx, strerror(errno));
		return -1;
	}
	errno = ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			      IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (errno) {
		fail("qp %d: to INIT: %s", idx, strerror(errno));
		return -1;
	}
	return 0;
}

static int qp_connect(struct qp *q, enum ibv_mtu mtu)
{
	union ibv_gid dgid;
	struct rc_path p = {
		.dgid = &dgid, .dest_qpn = q->peer.qpn,
		.sgid_index = cfg.gidx, .hop_limit = 64, .mtu = mtu,
		.rd_atomic = rd_atom,
	};

	memcpy(dgid.raw, q->peer.gid, 16);
	errno = rc_to_rts(q->qp, &p);
	if (errno) {
		fail("qp %d: to RTR and RTS: %s", q->idx, strerror(errno));
		return -1;
	}
	return 0;
}

static int post_recv(struct qp *q)
{
	uint32_t s = q->rposted % RDEPTH;
	struct ibv_sge sge = {
		.addr = (uintptr_t)(q->buf + q->recv_off + (size_t)s * cfg.msgsize),
		.length = cfg.msgsize, .lkey = q->mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = ((uint64_t)q->idx << 32) | s, .sg_list = &sge,
		.num_sge = 1,
	}, *bad;

	errno = ibv_post_recv(q->qp, &wr, &bad);
	if (errno) {
		fail("qp %d: ibv_post_recv: %s", q->idx, strerror(errno));
		return -1;
	}
	q->rposted++;
	return 0;
}

/* The work of phase q->phase, in posting order, with its chunks. */
static void plan_phase(struct qp *q)
{
	uint32_t n = 0, c;
	uint64_t wtag = pat_tag(cfg.seed, side, q->idx, OP_WRITE, q->phase);

	pat_fill(q->buf + q->wsrc_off, q->area, wtag, 0);
	for (c = 0; c < CHUNKS; c++) {
		uint64_t stag = pat_tag(cfg.seed, side, q->idx, OP_SEND,
					q->seq + c);

		pat_fill(q->buf + q->ssrc_off + (size_t)c * cfg.msgsize,
			 cfg.msgsize, stag, 0);
		q->plan_chunk[n] = c;
		q->plan[n++] = OP_WRITE;
		if (q->phase) {
			q->plan_chunk[n] = c;
			q->plan[n++] = OP_READ;
		}
		q->plan_chunk[n] = c;
		q->plan[n++] = OP_SEND;
		if (c % (CHUNKS / FADDS) == 0) {
			q->plan_chunk[n] = c;
			q->plan[n++] = OP_FADD;
		}
	}
	q->plan[n++] = OP_CAS;
	q->plan[n++] = OP_CAS_MISS;
	q->nops = n;
	q->next = 0;
}

/* Post one WR of q: the next of its phase, or the final counter READ. */
static int post_one(struct qp *q, enum op kind, uint32_t c)
{
	uint32_t s = q->head % QDEPTH;
	struct slot *sl = &q->slots[s];
	size_t m = cfg.msgsize, half = (q->phase & 1) * q->area;
	struct ibv_sge sge = { .lkey = q->mr->lkey, .length = m };
	struct ibv_send_wr wr = {
		.wr_id = ((uint64_t)q->idx << 32) | s, .sg_list = &sge,
		.num_sge = 1,
	}, *bad;
	uint64_t peer_ctr = q->peer.addr + q->ctr_off;

	memset(sl, 0, sizeof(*sl));
	sl->op = kind;
	sl->phase = q->phase;
	sl->chunk = c;
	switch (kind) {
	case OP_WRITE:
		wr.opcode = IBV_WR_RDMA_WRITE;
		sge.addr = (uintptr_t)(q->buf + q->wsrc_off + c * m);
		wr.wr.rdma.remote_addr = q->peer.addr + half + c * m;
		wr.wr.rdma.rkey = q->peer.rkey;
		sent_bytes += m;
		break;
	case OP_READ:
		wr.opcode = IBV_WR_RDMA_READ;
		sge.addr = (uintptr_t)(q->buf + q->rd_off + c * m);
		wr.wr.rdma.remote_addr = q->peer.addr + (q->area - half) + c * m;
		wr.wr.rdma.rkey = q->peer.rkey;
		read_bytes += m;
		break;
	case OP_SEND:
		wr.opcode = IBV_WR_SEND_WITH_IMM;
		sge.addr = (uintptr_t)(q->buf + q->ssrc_off + c * m);
		wr.imm_data = htonl(q->seq++);
		sent_bytes += m;
		break;
	case OP_FADD:
	case OP_CAS:
	case OP_CAS_MISS:
		sge.addr = (uintptr_t)(q->buf + q->res_off + 8 * s);
		sge.length = 8;
		*(uint64_t *)(q->buf + q->res_off + 8 * s) = ~0ULL;
		wr.wr.atomic.remote_addr = peer_ctr;
		wr.wr.atomic.rkey = q->peer.rkey;
		sl->expect = q->aval;
		q->adds++;
		if (kind == OP_FADD) {
			wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
			wr.wr.atomic.compare_add = q->adds;
			q->aval += q->adds;
		} else if (kind == OP_CAS) {
			wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
			wr.wr.atomic.compare_add = q->aval;
			wr.wr.atomic.swap = q->aval + CAS_STEP;
			q->aval += CAS_STEP;
		} else {
			wr.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
			wr.wr.atomic.compare_add = q->aval + 1;
			wr.wr.atomic.swap = 0;
		}
		break;
	case OP_FINAL:
		wr.opcode = IBV_WR_RDMA_READ;
		sge.addr = (uintptr_t)(q->buf + q->res_off + 8 * QDEPTH);
		sge.length = 8;
		wr.wr.rdma.remote_addr = peer_ctr;
		wr.wr.rdma.rkey = q->peer.rkey;
		break;
	default:
		return -1;
	}
	/* Every SIGNAL-th, and the last of a phase: the queue drains. */
	sl->signalled = q->head % SIGNAL == SIGNAL - 1 || kind == OP_FINAL ||
			q->next + 1 == q->nops;
	if (sl->signalled)
		wr.send_flags = IBV_SEND_SIGNALED;
	errno = ibv_post_send(q->qp, &wr, &bad);
	if (errno) {
		fail("qp %d: ibv_post_send %s: %s", q->idx, op_name[kind],
		     strerror(errno));
		return -1;
	}
	nwr[kind]++;
	q->head++;
	return 0;
}

/* Check a completed WR's result. */
static void retire(struct qp *q, struct slot *sl, uint32_t s)
{
	uint64_t got;

	switch (sl->op) {
	case OP_READ:
		pat_check(q->buf + q->rd_off + (size_t)sl->chunk * cfg.msgsize,
			  cfg.msgsize, pat_tag(cfg.seed, side, q->idx, OP_WRITE,
					       sl->phase - 1),
			  (size_t)sl->chunk * cfg.msgsize, "read-back of phase",
			  q->idx, sl->phase - 1);
		break;
	case OP_FADD:
	case OP_CAS:
	case OP_CAS_MISS:
		got = *(uint64_t *)(q->buf + q->res_off + 8 * s);
		if (got != sl->expect)
			fail("qp %d %s in phase %u: fetched %#llx, expected %#llx",
			     q->idx, op_name[sl->op], sl->phase,
			     (unsigned long long)got,
			     (unsigned long long)sl->expect);
		break;
	case OP_FINAL:
		got = *(uint64_t *)(q->buf + q->res_off + 8 * QDEPTH);
		if (got != q->aval)
			fail("qp %d: peer's counter %#llx, not %#llx (from %#llx, %llu atomics)",
			     q->idx, (unsigned long long)got,
			     (unsigned long long)q->aval,
			     (unsigned long long)counter_init(peer_hdr.seed,
							      q->idx),
			     (unsigned long long)q->adds);
		q->final_done = true;
		break;
	default:
		break;
	}
}

static struct qp *qp_of(const struct ibv_wc *wc)
{
	uint32_t i = wc->wr_id >> 32;

	if (i >= (uint32_t)cfg.nqps || qps[i].qp->qp_num != wc->qp_num) {
		fail("completion with wr_id %#llx on qp_num %u: not ours",
		     (unsigned long long)wc->wr_id, wc->qp_num);
		return NULL;
	}
	return &qps[i];
}

static void send_done(const struct ibv_wc *wc)
{
	struct qp *q = qp_of(wc);
	uint32_t s = (uint32_t)wc->wr_id;

	if (!q)
		return;
	if (wc->status != IBV_WC_SUCCESS) {
		fail("qp %d: %s in phase %u (slot %u) completed with %s (vendor_err %#x)",
		     q->idx, op_name[q->slots[s % QDEPTH].op],
		     q->slots[s % QDEPTH].phase, s % QDEPTH,
		     ibv_wc_status_str(wc->status), wc->vendor_err);
		return;
	}
	if (s >= QDEPTH || q->tail == q->head || !q->slots[s].signalled) {
		fail("qp %d: completion for slot %u, which is not a signalled WR in flight",
		     q->idx, s);
		return;
	}
	/* A signalled completion retires every WR up to it, in order. */
	for (;;) {
		uint32_t t = q->tail % QDEPTH;

		retire(q, &q->slots[t], t);
		q->tail++;
		if (t == s)
			break;
		if (q->tail == q->head) {
			fail("qp %d: completion for slot %u out of order",
			     q->idx, s);
			return;
		}
	}
}

static void recv_done(const struct ibv_wc *wc)
{
	struct qp *q = qp_of(wc);
	uint32_t s = (uint32_t)wc->wr_id, imm;

	if (!q)
		return;
	if (wc->status != IBV_WC_SUCCESS) {
		fail("qp %d: receive %u (slot %u) completed with %s (vendor_err %#x)",
		     q->idx, q->rseq, s, ibv_wc_status_str(wc->status),
		     wc->vendor_err);
		return;
	}
	imm = ntohl(wc->imm_data);
	if (wc->opcode != IBV_WC_RECV || !(wc->wc_flags & IBV_WC_WITH_IMM) ||
	    s != q->rseq % RDEPTH || imm != q->rseq ||
	    wc->byte_len != cfg.msgsize) {
		fail("qp %d: receive %u: opcode %d flags %#x slot %u imm %u len %u, not %s",
		     q->idx, q->rseq, wc->opcode, wc->wc_flags, s, imm,
		     wc->byte_len, "RECV with immediate = receive, its slot, msgsize");
		return;
	}
	pat_check(q->buf + q->recv_off + (size_t)s * cfg.msgsize, cfg.msgsize,
		  pat_tag(peer_hdr.seed, !side, q->idx, OP_SEND, imm), 0,
		  "send", q->idx, imm);
	q->rseq++;
	nrecv++;
	if (q->rposted < peer_hdr.phases * CHUNKS)
		post_recv(q);
}

/* Post what fits on every QP, round-robin, one WR each per turn. */
static int post_round(bool *all_done)
{
	bool posted = true;
	int i;

	*all_done = true;
	while (posted && !failures) {
		posted = false;
		for (i = 0; i < cfg.nqps; i++) {
			struct qp *q = &qps[i];

			if (q->done || q->head - q->tail == QDEPTH)
				continue;
			if (q->phase < phases && q->next < q->nops) {
				if (post_one(q, q->plan[q->next],
					     q->plan_chunk[q->next]))
					return -1;
				q->next++;
				posted = true;
			} else if (q->tail != q->head) {
				continue;	/* the phase drains */
			} else if (q->phase + 1 < phases) {
				q->phase++;
				plan_phase(q);
				i--;
			} else if (q->phase < phases) {
				q->phase = phases;
				if (post_one(q, OP_FINAL, 0))
					return -1;
			} else if (q->final_done) {
				q->done = true;
			}
		}
	}
	for (i = 0; i < cfg.nqps; i++)
		if (!qps[i].done || qps[i].rseq < peer_hdr.phases * CHUNKS)
			*all_done = false;
	return failures ? -1 : 0;
}

static int poll_cq(struct ibv_cq *cq, void (*done)(const struct ibv_wc *))
{
	struct ibv_wc wc[16];
	int n, i, total = 0;

	while ((n = ibv_poll_cq(cq, 16, wc)) > 0) {
		for (i = 0; i < n; i++)
			done(&wc[i]);
		total += n;
	}
	if (n < 0) {
		fail("ibv_poll_cq: %d", n);
		return -1;
	}
	return total;
}

/* Wait for a completion event on either CQ, or a second. */
static int wait_event(void)
{
	struct pollfd p = { .fd = chan->fd, .events = POLLIN };
	struct ibv_cq *cq;
	void *cq_ctx;
	int n;

	if (ibv_req_notify_cq(scq, 0) || ibv_req_notify_cq(rcq, 0)) {
		fail("ibv_req_notify_cq failed");
		return -1;
	}
	/* Armed: what arrived before the arm is still in the CQs. */
	n = poll_cq(scq, send_done);
	if (n)
		return n < 0 ? -1 : 0;
	n = poll_cq(rcq, recv_done);
	if (n)
		return n < 0 ? -1 : 0;
	n = poll(&p, 1, 1000);
	if (n <= 0)
		return n < 0 ? -1 : 0;
	if (ibv_get_cq_event(chan, &cq, &cq_ctx)) {
		fail("ibv_get_cq_event failed");
		return -1;
	}
	ibv_ack_cq_events(cq, 1);
	return 0;
}

static void dump_state(void)
{
	int i;

	for (i = 0; i < cfg.nqps; i++) {
		struct qp *q = &qps[i];

		printf("# qp %d: phase %u/%u WR %u/%u, %u in flight (oldest %s), ",
		       i, q->phase, phases, q->next, q->nops, q->head - q->tail,
		       q->head == q->tail ? "-" :
		       op_name[q->slots[q->tail % QDEPTH].op]);
		printf("%u of %u receives, final READ %s\n", q->rseq,
		       peer_hdr.phases * CHUNKS, q->final_done ? "done" : "no");
	}
}

static int run(void)
{
	bool all_done = false;
	int n, m;

	while (!failures) {
		if (post_round(&all_done) || all_done)
			break;
		n = poll_cq(scq, send_done);
		m = poll_cq(rcq, recv_done);
		if (n < 0 || m < 0 || failures)
			break;
		if (now() > deadline) {
			fail("timeout: not done after %d s", cfg.timeout);
			dump_state();
			break;
		}
		if (!n && !m && wait_event())
			break;
	}
	return failures ? -1 : 0;
}

/* The last two halves the peer wrote into each of our QP buffers. */
static void check_written(void)
{
	uint32_t p, pp = peer_hdr.phases;
	int i;

	for (i = 0; i < cfg.nqps; i++) {
		struct qp *q = &qps[i];

		for (p = pp > 2 ? pp - 2 : 0; p < pp; p++)
			pat_check(q->buf + (p & 1) * q->area, q->area,
				  pat_tag(peer_hdr.seed, !side, i, OP_WRITE, p),
				  0, "written by the peer in phase", i, p);
	}
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"Usage: %s -d DEV -x GIDX -p PORT [-q NQPS] [-b BYTES] %s\n",
		prog, "[-s MSGSIZE] [-S SEED] [-t SECONDS] [SERVER_IP]");
	exit(2);
}

static void parse(int argc, char **argv)
{
	uint64_t v;
	int c;

	cfg.seed = time(NULL);
	while ((c = getopt(argc, argv, "d:x:p:q:b:s:S:t:")) != -1) {
		switch (c) {
		case 'd':
			cfg.dev = optarg;
			break;
		case 'x':
			cfg.gidx = atoi(optarg);
			break;
		case 'p':
			cfg.port = atoi(optarg);
			break;
		case 'q':
			cfg.nqps = atoi(optarg);
			break;
		case 'b':
			if (parse_size(optarg, &cfg.bytes))
				usage(argv[0]);
			break;
		case 's':
			if (parse_size(optarg, &v) || v < 8 || v > MAX_MSG || v % 8)
				usage(argv[0]);
			cfg.msgsize = v;
			break;
		case 'S':
			cfg.seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			cfg.timeout = atoi(optarg);
			break;
		default:
			usage(argv[0]);
		}
	}
	if (!cfg.dev || cfg.nqps < 1 || cfg.nqps > MAX_QPS || !cfg.bytes ||
	    cfg.timeout < 1 || optind + 1 < argc)
		usage(argv[0]);
	cfg.server = optind < argc ? argv[optind] : NULL;
	side = !!cfg.server;
	for (phases = 1; run_bytes(phases) < cfg.bytes; phases++)
		;
}

static int open_device(void)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_device_attr dev;
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), cfg.dev))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx) {
		fail("cannot open %s", cfg.dev);
		return -1;
	}
	if (ibv_query_device(ctx, &dev)) {
		fail("ibv_query_device failed");
		return -1;
	}
	rd_atom = dev.max_qp_rd_atom < QDEPTH ? dev.max_qp_rd_atom : QDEPTH;
	pd = ibv_alloc_pd(ctx);
	chan = ibv_create_comp_channel(ctx);
	if (!pd || !chan) {
		fail("ibv_alloc_pd or ibv_create_comp_channel failed");
		return -1;
	}
	scq = ibv_create_cq(ctx, cfg.nqps * QDEPTH + 1, NULL, chan, 0);
	rcq = ibv_create_cq(ctx, cfg.nqps * RDEPTH + 1, NULL, chan, 0);
	if (!scq || !rcq) {
		fail("ibv_create_cq failed");
		return -1;
	}
	return 0;
}

/* Exchange the header and every QP's record; then the QPs connect. */
static int exchange(int fd)
{
	struct wire_hdr h = {
		.seed = htobe64(cfg.seed), .nqps = htobe32(cfg.nqps),
		.msgsize = htobe32(cfg.msgsize), .phases = htobe32(phases),
	};
	struct ibv_port_attr port;
	union ibv_gid gid;
	int i;

	if (ibv_query_port(ctx, 1, &port) ||
	    ibv_query_gid(ctx, 1, cfg.gidx, &gid)) {
		fail("cannot query port 1 or GID %d of %s", cfg.gidx, cfg.dev);
		return -1;
	}
	if (xfer(fd, &h, sizeof(h), true) ||
	    xfer(fd, &peer_hdr, sizeof(peer_hdr), false))
		return -1;
	peer_hdr.seed = be64toh(peer_hdr.seed);
	peer_hdr.nqps = be32toh(peer_hdr.nqps);
	peer_hdr.msgsize = be32toh(peer_hdr.msgsize);
	peer_hdr.phases = be32toh(peer_hdr.phases);
	if (peer_hdr.nqps != (uint32_t)cfg.nqps ||
	    peer_hdr.msgsize != cfg.msgsize) {
		fail("the peer runs %u QPs of %u-byte messages, we %d of %u",
		     peer_hdr.nqps, peer_hdr.msgsize, cfg.nqps, cfg.msgsize);
		return -1;
	}
	for (i = 0; i < cfg.nqps; i++) {
		struct qp *q = &qps[i];
		struct wire_qp w = {
			.qpn = htobe32(q->qp->qp_num), .rkey = htobe32(q->mr->rkey),
			.addr = htobe64((uintptr_t)q->buf),
		};

		memcpy(w.gid, gid.raw, 16);
		if (xfer(fd, &w, sizeof(w), true) ||
		    xfer(fd, &q->peer, sizeof(q->peer), false))
			return -1;
		q->peer.qpn = be32toh(q->peer.qpn);
		q->peer.rkey = be32toh(q->peer.rkey);
		q->peer.addr = be64toh(q->peer.addr);
		q->aval = counter_init(peer_hdr.seed, i);
		while (q->rposted < RDEPTH &&
		       q->rposted < peer_hdr.phases * CHUNKS)
			if (post_recv(q))
				return -1;
		if (qp_connect(q, port.active_mtu))
			return -1;
		plan_phase(q);
	}
	return 0;
}

/*
 * The end: each side sends every QP's expected counter value and its
 * payload counts; the counters the peer worked on must hold what it says.
 */
static int finish(int fd, double secs)
{
	uint64_t mine[MAX_QPS + 2], theirs[MAX_QPS + 2], out, in;
	int i, n = cfg.nqps;

	for (i = 0; i < n; i++)
		mine[i] = htobe64(qps[i].aval);
	mine[n] = htobe64(sent_bytes);
	mine[n + 1] = htobe64(read_bytes);
	if (xfer(fd, mine, (n + 2) * 8, true) ||
	    xfer(fd, theirs, (n + 2) * 8, false))
		return -1;
	for (i = 0; i < n; i++) {
		uint64_t got = *(uint64_t *)(qps[i].buf + qps[i].ctr_off);

		if (got != be64toh(theirs[i]))
			fail("qp %d: our counter holds %#llx, the peer's atomics made it %#llx",
			     i, (unsigned long long)got,
			     (unsigned long long)be64toh(theirs[i]));
	}
	check_written();
	/* Out: what we wrote and sent and the peer read; in: the reverse. */
	out = sent_bytes + be64toh(theirs[n + 1]);
	in = be64toh(theirs[n]) + read_bytes;
	printf("summary %s: %d QPs, %u-byte messages, %u phases: ",
	       side ? "client" : "server", n, cfg.msgsize, phases);
	printf("out %llu bytes, in %llu bytes, %.1f s, %.2f MB/s; ",
	       (unsigned long long)out, (unsigned long long)in,
	       secs, (out + in) / secs / 1e6);
	printf("WRs: write %llu read %llu send %llu recv %llu fadd %llu ",
	       (unsigned long long)nwr[OP_WRITE],
	       (unsigned long long)nwr[OP_READ],
	       (unsigned long long)nwr[OP_SEND], (unsigned long long)nrecv,
	       (unsigned long long)nwr[OP_FADD]);
	printf("cas %llu (%llu not matching) final-read %llu\n",
	       (unsigned long long)(nwr[OP_CAS] + nwr[OP_CAS_MISS]),
	       (unsigned long long)nwr[OP_CAS_MISS],
	       (unsigned long long)nwr[OP_FINAL]);
	return failures ? -1 : 0;
}

static void cleanup(void)
{
	int i;

	for (i = 0; i < cfg.nqps; i++) {
		if (qps[i].qp)
			ibv_destroy_qp(qps[i].qp);
		if (qps[i].mr)
			ibv_dereg_mr(qps[i].mr);
		free(qps[i].buf);
	}
	if (scq)
		ibv_destroy_cq(scq);
	if (rcq)
		ibv_destroy_cq(rcq);
	if (chan)
		ibv_destroy_comp_channel(chan);
	if (pd)
		ibv_dealloc_pd(pd);
	if (ctx)
		ibv_close_device(ctx);
}

int main(int argc, char **argv)
{
	double t0;
	char go = 'g', peer_go;
	int fd = -1, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	parse(argc, argv);
	signal(SIGALRM, on_alarm);
	alarm(cfg.timeout + 10);
	deadline = now() + cfg.timeout;
	if (open_device())
		goto out;
	for (i = 0; i < cfg.nqps; i++)
		if (qp_create(&qps[i], i))
			goto out;
	fd = tcp_connect();
	if (fd < 0 || exchange(fd))
		goto out;
	/* Both sides in RTS before either sends. */
	if (xfer(fd, &go, 1, true) || xfer(fd, &peer_go, 1, false))
		goto out;
	t0 = now();
	if (run())
		goto out;
	finish(fd, now() - t0);
out:
	if (fd >= 0)
		close(fd);
	cleanup();
	return failures ? 1 : 0;
}
