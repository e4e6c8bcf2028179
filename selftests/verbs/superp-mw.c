// SPDX-License-Identifier: GPL-2.0
/*
 * superp-mw: memory windows between two hosts, through plain libibverbs.
 *
 *   superp-mw DEV GID_INDEX PORT [SERVER_IP]
 *
 * Without SERVER_IP it listens on PORT and is the target; given one, it
 * connects and is the initiator. Over that TCP connection the two
 * exchange QP numbers and GIDs (as ibv_rc_pingpong does) for NQPS RC
 * QPs, QP i of one side connected to QP i of the other, and the target
 * tells the initiator the windows' keys and addresses.
 *
 * The target registers one buffer of three pages with local write and
 * MW_BIND only (no remote rights: what a peer may do comes from the
 * windows) and binds:
 *   W1   type 1 (ibv_bind_mw() on QP 0): page 1, remote read and write
 *   W2a  type 2 (IBV_WR_BIND_MW on QP 1): page 0, remote read and write
 *   W2b  type 2 on QP 3: page 2, then invalidated (IBV_WR_LOCAL_INV)
 *   W2c  type 2 on QP 4: page 0, then invalidated by the initiator's
 *        IBV_WR_SEND_WITH_INV, which the target's receive reports
 *        (IBV_WC_WITH_INV, the key)
 * The initiator runs each case as one signalled work request and checks
 * its completion status; an RC QP goes to the error state with its first
 * failed request, so each QP ends with the one case meant to fail:
 *   QP 0  WRITE and READ back through W1; WRITE across W1's end (bounds)
 *   QP 1  WRITE and READ back through W2a; W2a's key with another low
 *         byte (bad rkey)
 *   QP 2  WRITE through W2a, bound to the target's QP 1 (type 2 from
 *         another QP)
 *   QP 3  WRITE through W2b (invalidated locally)
 *   QP 4  SEND_WITH_INV of W2c, then WRITE through it (invalidated
 *         remotely)
 *   QP 5  WRITE through W1 after the target unbound it (a type 1 bind of
 *         length 0)
 * The refused WRITEs must complete with IBV_WC_REM_ACCESS_ERR. At the end
 * the target checks that page 2, which only refused WRITEs aimed at, is
 * still zero, that the MR can be neither deregistered nor reregistered
 * while a window is bound (EINVAL), and that once the windows are gone a
 * new access (ibv_rereg_mr) keeps its keys. Every case prints "ok NAME"
 * or "FAIL NAME: ..."; the last line is "summary N cases, N failed", and
 * the exit status 0 only if none failed.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "verbs-test.h"

#define NQPS		6
#define PAGE		4096
#define MSG		64
#define POLL_MS		20000	/* a completion that takes longer fails */

static struct {
	const char *dev, *server;
	int gidx, port;
} cfg = { .port = 18600 };

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_qp *qps[NQPS];
static int cases, failed;

/* Connection data: big-endian on the wire. */
struct wire_qp {
	uint32_t qpn, pad;
	uint8_t gid[16];
};

struct wire_keys {
	uint64_t addr;		/* the target's buffer */
	uint32_t w1, w2a, w2b, w2c;
};

static void result(const char *name, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void result(const char *name, bool ok, const char *fmt, ...)
{
	va_list ap;

	cases++;
	if (ok) {
		printf("ok %s\n", name);
		return;
	}
	failed++;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static int die(const char *what, int err)
{
	printf("FAIL %s: %s\n", what, strerror(err));
	return -1;
}

static int xfer(int fd, void *p, size_t len, bool wr)
{
	int err = ctl_xfer(fd, p, len, wr);

	return err ? die("control connection", err) : 0;
}

/* One byte each way: the two sides meet at step @tag. */
static int meet(int fd, uint8_t tag)
{
	uint8_t got;

	if (xfer(fd, &tag, 1, true) || xfer(fd, &got, 1, false))
		return -1;
	if (got != tag) {
		printf("FAIL control connection: step %u, peer at %u\n", tag, got);
		return -1;
	}
	return 0;
}

static int qp_create(int i)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 8, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_all = 1,
	};
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	qps[i] = ibv_create_qp(pd, &init);
	if (!qps[i])
		return die("ibv_create_qp", errno);
	errno = ibv_modify_qp(qps[i], &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			      IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	return errno ? die("modify_qp to INIT", errno) : 0;
}

static int qp_connect(struct ibv_qp *qp, const struct wire_qp *peer)
{
	union ibv_gid dgid;
	struct rc_path p = {
		.dgid = &dgid, .dest_qpn = be32toh(peer->qpn),
		.sgid_index = cfg.gidx, .hop_limit = 64, .mtu = IBV_MTU_1024,
		.rd_atomic = 1,
	};
	int err;

	memcpy(dgid.raw, peer->gid, 16);
	err = rc_to_rts(qp, &p);
	return err ? die("modify_qp to RTR and RTS", err) : 0;
}

/* The next completion, within POLL_MS; -1 when none came. */
static int poll_one(struct ibv_wc *wc)
{
	struct timespec t0, t;
	int n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		n = ibv_poll_cq(cq, 1, wc);
		if (n)
			return n < 0 ? -1 : 0;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 +
		    (t.tv_nsec - t0.tv_nsec) / 1000000 > POLL_MS)
			return -1;
		usleep(200);
	}
}

/* Posts @wr on QP @i and checks its completion's status. */
static bool run(const char *name, int i, struct ibv_send_wr *wr,
		enum ibv_wc_status want)
{
	struct ibv_send_wr *bad;
	struct ibv_wc wc = {};
	int err;

	wr->wr_id = i;
	err = ibv_post_send(qps[i], wr, &bad);
	if (err) {
		result(name, false, "ibv_post_send: %s", strerror(err));
		return false;
	}
	if (poll_one(&wc)) {
		result(name, false, "no completion within %d ms", POLL_MS);
		return false;
	}
	result(name, wc.status == want && wc.wr_id == (uint64_t)i,
	       "QP %d: status %s, expected %s (wr_id %llu)", i,
	       ibv_wc_status_str(wc.status), ibv_wc_status_str(want),
	       (unsigned long long)wc.wr_id);
	return wc.status == want;
}

static struct ibv_send_wr rdma_wr(enum ibv_wr_opcode op, struct ibv_sge *sge,
				  uint32_t rkey, uint64_t addr)
{
	struct ibv_send_wr wr = {
		.opcode = op, .sg_list = sge, .num_sge = 1,
		.send_flags = IBV_SEND_SIGNALED,
	};

	wr.wr.rdma.rkey = rkey;
	wr.wr.rdma.remote_addr = addr;
	return wr;
}

/* The target: binds, invalidates, checks what the initiator did. */
static int target(int fd, uint8_t *buf, struct ibv_mr *mr)
{
	struct ibv_mw *w1, *w2a, *w2b, *w2c;
	struct ibv_mw_bind mb = {
		.send_flags = IBV_SEND_SIGNALED,
		.bind_info = { .mr = mr, .addr = (uintptr_t)buf + PAGE,
			       .length = PAGE,
			       .mw_access_flags = IBV_ACCESS_REMOTE_WRITE |
						  IBV_ACCESS_REMOTE_READ },
	};
	struct ibv_sge rsge = { .addr = (uintptr_t)buf + 2 * PAGE + MSG,
				.length = MSG, .lkey = mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 4, .sg_list = &rsge, .num_sge = 1 };
	struct ibv_send_wr wr;
	struct ibv_recv_wr *bad;
	struct wire_keys k;
	struct ibv_wc wc = {};
	int i, err;

	w1 = ibv_alloc_mw(pd, IBV_MW_TYPE_1);
	w2a = ibv_alloc_mw(pd, IBV_MW_TYPE_2);
	w2b = ibv_alloc_mw(pd, IBV_MW_TYPE_2);
	w2c = ibv_alloc_mw(pd, IBV_MW_TYPE_2);
	if (!w1 || !w2a || !w2b || !w2c)
		return die("ibv_alloc_mw", errno);

	/* W1: type 1, page 1. */
	err = ibv_bind_mw(qps[0], w1, &mb);
	if (err)
		return die("ibv_bind_mw", err);
	result("bind-type1", !poll_one(&wc) && wc.status == IBV_WC_SUCCESS &&
	       wc.opcode == IBV_WC_BIND_MW, "status %s opcode %d",
	       ibv_wc_status_str(wc.status), wc.opcode);

	/* W2a on QP 1 (page 0), W2b on QP 3 (page 2), W2c on QP 4 (page 0). */
	memset(&wr, 0, sizeof(wr));
	wr.opcode = IBV_WR_BIND_MW;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.bind_mw.bind_info = mb.bind_info;
	wr.bind_mw.bind_info.addr = (uintptr_t)buf;
	wr.bind_mw.mw = w2a;
	wr.bind_mw.rkey = ibv_inc_rkey(w2a->rkey);
	k.w2a = wr.bind_mw.rkey;
	run("bind-type2-qp1", 1, &wr, IBV_WC_SUCCESS);
	wr.bind_mw.bind_info.addr = (uintptr_t)buf + 2 * PAGE;
	wr.bind_mw.mw = w2b;
	wr.bind_mw.rkey = ibv_inc_rkey(w2b->rkey);
	k.w2b = wr.bind_mw.rkey;
	run("bind-type2-qp3", 3, &wr, IBV_WC_SUCCESS);
	wr.bind_mw.bind_info.addr = (uintptr_t)buf;
	wr.bind_mw.mw = w2c;
	wr.bind_mw.rkey = ibv_inc_rkey(w2c->rkey);
	k.w2c = wr.bind_mw.rkey;
	run("bind-type2-qp4", 4, &wr, IBV_WC_SUCCESS);
	k.w1 = w1->rkey;	/* ibv_bind_mw() moved it on */

	/* W2b is invalidated before the initiator learns its key. */
	memset(&wr, 0, sizeof(wr));
	wr.opcode = IBV_WR_LOCAL_INV;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.invalidate_rkey = k.w2b;
	run("local-invalidate-type2", 3, &wr, IBV_WC_SUCCESS);

	/* The receive that W2c's SEND_WITH_INV takes. */
	err = ibv_post_recv(qps[4], &rwr, &bad);
	if (err)
		return die("ibv_post_recv", err);

	k.addr = htobe64((uintptr_t)buf);
	k.w1 = htobe32(k.w1);
	k.w2a = htobe32(k.w2a);
	k.w2b = htobe32(k.w2b);
	k.w2c = htobe32(k.w2c);
	if (xfer(fd, &k, sizeof(k), true))
		return -1;

	/* The initiator's SEND_WITH_INV arrives. */
	result("receive-with-invalidate", !poll_one(&wc) &&
	       wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV &&
	       (wc.wc_flags & IBV_WC_WITH_INV) &&
	       wc.invalidated_rkey == be32toh(k.w2c),
	       "status %s opcode %d flags 0x%x key 0x%x (W2c 0x%x)",
	       ibv_wc_status_str(wc.status), wc.opcode, wc.wc_flags,
	       wc.invalidated_rkey, be32toh(k.w2c));
	if (meet(fd, 1))	/* W2c is invalid now */
		return -1;

	/* The initiator is done with W1: unbind it (length 0). */
	if (meet(fd, 2))
		return -1;
	mb.bind_info.addr = 0;
	mb.bind_info.length = 0;
	mb.bind_info.mw_access_flags = 0;
	err = ibv_bind_mw(qps[0], w1, &mb);
	if (err)
		return die("ibv_bind_mw", err);
	result("unbind-type1", !poll_one(&wc) && wc.status == IBV_WC_SUCCESS,
	       "status %s", ibv_wc_status_str(wc.status));
	if (meet(fd, 3) || meet(fd, 4))	/* the initiator's last case */
		return -1;

	/* Page 2 only took refused WRITEs (and our own receive after MSG). */
	for (i = 0; i < MSG && !buf[2 * PAGE + i]; i++)
		;
	result("refused-writes-left-no-trace", i == MSG,
	       "page 2 byte %d is 0x%02x", i, buf[2 * PAGE + i]);
	/* Dealloc W2a while bound, and the MR once no window is bound. */
	err = ibv_dereg_mr(mr);
	result("dereg-mr-while-bound-refused", err == EINVAL,
	       "ibv_dereg_mr: %s", strerror(err));
	errno = 0;
	err = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
			   IBV_ACCESS_LOCAL_WRITE);
	result("rereg-mr-while-bound-refused", err && errno == EINVAL,
	       "ibv_rereg_mr: %d, errno %s", err, strerror(errno));
	if (ibv_dealloc_mw(w2a) || ibv_dealloc_mw(w2b) ||
	    ibv_dealloc_mw(w2c) || ibv_dealloc_mw(w1))
		return die("ibv_dealloc_mw", errno);
	i = mr->lkey;
	err = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
			   IBV_ACCESS_LOCAL_WRITE);
	result("rereg-mr-access-keeps-key", !err && mr->lkey == (uint32_t)i,
	       "ibv_rereg_mr: %d, errno %s, lkey 0x%x then 0x%x", err,
	       strerror(errno), (uint32_t)i, mr->lkey);
	err = ibv_dereg_mr(mr);
	result("dereg-mr-after-dealloc", !err, "ibv_dereg_mr: %s",
	       strerror(err));
	return 0;
}

/* The initiator: every case of the list at the top. */
static int initiator(int fd, uint8_t *buf, struct ibv_mr *mr)
{
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = MSG,
			       .lkey = mr->lkey };
	struct ibv_sge back = { .addr = (uintptr_t)buf + PAGE, .length = MSG,
				.lkey = mr->lkey };
	struct ibv_send_wr wr;
	struct wire_keys k;
	uint64_t a;
	int i;

	if (xfer(fd, &k, sizeof(k), false))
		return -1;
	a = be64toh(k.addr);
	k.w1 = be32toh(k.w1);
	k.w2a = be32toh(k.w2a);
	k.w2b = be32toh(k.w2b);
	k.w2c = be32toh(k.w2c);
	for (i = 0; i < MSG; i++)
		buf[i] = 0xa5 ^ i;

	/* QP 0: through W1 (page 1), then across its end. */
	wr = rdma_wr(IBV_WR_RDMA_WRITE, &sge, k.w1, a + PAGE + 128);
	run("type1-write", 0, &wr, IBV_WC_SUCCESS);
	wr = rdma_wr(IBV_WR_RDMA_READ, &back, k.w1, a + PAGE + 128);
	if (run("type1-read", 0, &wr, IBV_WC_SUCCESS))
		result("type1-read-data", !memcmp(buf, buf + PAGE, MSG),
		       "what was read is not what was written");
	wr = rdma_wr(IBV_WR_RDMA_WRITE, &sge, k.w1, a + 2 * PAGE - MSG / 2);
	run("type1-out-of-bounds", 0, &wr, IBV_WC_REM_ACCESS_ERR);

	/* QP 1: through W2a, bound to its peer; then a key it never had. */
	memset(buf + PAGE, 0, MSG);
	wr = rdma_wr(IBV_WR_RDMA_WRITE, &sge, k.w2a, a + 256);
	run("type2-write", 1, &wr, IBV_WC_SUCCESS);
	wr = rdma_wr(IBV_WR_RDMA_READ, &back, k.w2a, a + 256);
	if (run("type2-read", 1, &wr, IBV_WC_SUCCESS))
		result("type2-read-data", !memcmp(buf, buf + PAGE, MSG),
		       "what was read is not what was written");
	wr = rdma_wr(IBV_WR_RDMA_WRITE, &sge, k.w2a ^ 0x40, a + 256);
	run("bad-rkey", 1, &wr, IBV_WC_REM_ACCESS_ERR);

	/* QP 2: W2a belongs to the target's QP 1. */
	wr = rdma_wr(IBV_WR_RDMA_WRITE, &sge, k.w2a, a + 256);
	run("type2-from-another-qp", 2, &wr, IBV_WC_REM_ACCESS_ERR);

	/* QP 3: W2b was invalidated by the target (page 2). */
	wr = rdma_wr(IBV_WR_RDMA_WRITE, &sge, k.w2b, a + 2 * PAGE);
	run("locally-invalidated", 3, &wr, IBV_WC_REM_ACCESS_ERR);

	/* QP 4: invalidate W2c with a SEND, then try it. */
	memset(&wr, 0, sizeof(wr));
	wr.opcode = IBV_WR_SEND_WITH_INV;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.invalidate_rkey = k.w2c;
	run("send-with-invalidate", 4, &wr, IBV_WC_SUCCESS);
	if (meet(fd, 1))
		return -1;
	wr = rdma_wr(IBV_WR_RDMA_WRITE, &sge, k.w2c, a + 2 * PAGE);
	run("remotely-invalidated", 4, &wr, IBV_WC_REM_ACCESS_ERR);

	/* QP 5: W1 once the target unbound it. */
	if (meet(fd, 2) || meet(fd, 3))
		return -1;
	wr = rdma_wr(IBV_WR_RDMA_WRITE, &sge, k.w1, a + PAGE + 128);
	run("type1-unbound", 5, &wr, IBV_WC_REM_ACCESS_ERR);
	return meet(fd, 4);
}

static int gid_of(union ibv_gid *gid)
{
	errno = ibv_query_gid(ctx, 1, cfg.gidx, gid);
	return errno ? die("ibv_query_gid", errno) : 0;
}

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			c = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return c;
}

int main(int argc, char **argv)
{
	struct wire_qp mine[NQPS], peer[NQPS];
	union ibv_gid gid;
	struct ibv_mr *mr;
	uint8_t *buf;
	int fd, i, err;

	if (argc < 4 || argc > 5)
		goto usage;
	cfg.dev = argv[1];
	cfg.gidx = atoi(argv[2]);
	cfg.port = atoi(argv[3]);
	cfg.server = argc > 4 ? argv[4] : NULL;
	setvbuf(stdout, NULL, _IOLBF, 0);

	ctx = open_dev(cfg.dev);
	if (!ctx) {
		die(cfg.dev, ENODEV);
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	if (!pd || !cq || gid_of(&gid)) {
		die("ibv_alloc_pd, ibv_create_cq", errno);
		return 1;
	}
	if (posix_memalign((void **)&buf, PAGE, 3 * PAGE))
		return 1;
	memset(buf, 0, 3 * PAGE);
	/* The target's MR grants no remote rights: only its windows do. */
	mr = ibv_reg_mr(pd, buf, 3 * PAGE, IBV_ACCESS_LOCAL_WRITE |
			(cfg.server ? 0 : IBV_ACCESS_MW_BIND));
	if (!mr) {
		die("ibv_reg_mr", errno);
		return 1;
	}
	for (i = 0; i < NQPS; i++) {
		if (qp_create(i))
			return 1;
		mine[i].qpn = htobe32(qps[i]->qp_num);
		mine[i].pad = 0;
		memcpy(mine[i].gid, gid.raw, 16);
	}
	fd = ctl_connect(cfg.server, cfg.port);
	if (fd < 0)
		die("control connection", errno);
	if (fd < 0 || xfer(fd, mine, sizeof(mine), true) ||
	    xfer(fd, peer, sizeof(peer), false))
		return 1;
	for (i = 0; i < NQPS; i++)
		if (qp_connect(qps[i], &peer[i]))
			return 1;
	if (meet(fd, 0))
		return 1;
	err = cfg.server ? initiator(fd, buf, mr) : target(fd, buf, mr);
	printf("summary %d cases, %d failed\n", cases, failed);
	for (i = 0; i < NQPS; i++)
		ibv_destroy_qp(qps[i]);
	if (cfg.server)
		ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	close(fd);
	return err || failed ? 1 : 0;

usage:
	fprintf(stderr, "usage: %s DEV GID_INDEX PORT [SERVER_IP]\n",
		argv[0]);
	return 2;
}
