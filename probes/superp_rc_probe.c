// SPDX-License-Identifier: GPL-2.0
/*
 * Not a KUnit suite: a test instrument for RC queue pairs between two
 * hosts, written only against the in-kernel verbs API (rdma/ib_verbs.h),
 * so that it runs unchanged on rxe and on superp. Used by
 * selftests/verbs/rc.sh; see Documentation/testing.rst.
 *
 * One guest loads it with role=server, the other with role=client and
 * peer=<the server's IPv4 address>. They meet over a kernel TCP socket
 * (port `port`), exchange one little-endian struct probe_wire per QP pair
 * (QPN, PSN, GID, rkey, buffer address and length), connect `qps` RC QP
 * pairs (RoCE address vector: GRH to the peer's GID, the port's active
 * MTU) and run the steps below, the client driving and both verifying.
 * The TCP socket also orders the steps: the server posts its receives
 * (or fills its buffer) and says "ready", the client acts, and each side
 * tells the other its verdict. Every step prints one line
 * "superp_rc_probe: <step> ok|FAIL <details>"; the load succeeds only if
 * every step passed, after "superp_rc_probe: summary N passed, M failed".
 *
 *   send-*, send-imm   SEND/RECV of 1 B, 4 KiB and `size`; SEND_WITH_IMM
 *   write-*, write-imm RDMA WRITE into the server's buffer at an offset,
 *                      then a SEND to have it checked; WRITE_WITH_IMM
 *   read-*             RDMA READ of `size` from the server's buffer
 *   big-<big_mb>M      big_mb set: both sides allocate big_mb MiB of
 *                      vmalloc memory, then
 *   send-<big_mb>M     one SEND from one SGE of it into one receive SGE
 *                      (local DMA lkey: ib_superp and rxe address memory
 *                      by kernel virtual address): one message of many
 *                      transactions
 *   write-<big_mb>M    one RDMA WRITE of it into the server's, through
 *                      the PD's unsafe global rkey (the device's DMA MR)
 *   read-<big_mb>M     one RDMA READ of the server's into it; every
 *                      64-bit word of each checked
 *   order              16 WRITEs and SENDs, every other one unsignalled:
 *                      completions in posted order, each once
 *   packed-write       12 small WRITEs (0 to 256 bytes) posted as one
 *                      list, the case where ib_superp packs them several
 *                      to a packet: each completes, in order; the server
 *                      finds each in place and nothing between them
 *   tput-*             WRITE throughput for `tput_ms` (a figure, not a
 *                      verdict: "ok" says only that every WR completed)
 *   atomic-cas         CMP_AND_SWP that matches, then one that does not:
 *                      the original value comes back both times, the
 *                      server checks its memory
 *   atomic-fadd        `atomics` FETCH_AND_ADDs of 1, 2, ..., every 8th
 *                      signalled: each signalled one returns the sum so
 *                      far (executed once each, in posted order), the
 *                      server checks the total; `fadd_rounds` times
 *   atomic-unaligned   on a QP pair of its own: FETCH_AND_ADD at an
 *                      address 4 bytes off: IB_WC_REM_INV_REQ_ERR, the
 *                      SEND behind it flushed, the QP in ERR, the word
 *                      untouched (rxe alone refuses it at post: -EINVAL)
 *   atomic-no-access   the same through an MR without remote atomic
 *                      access: IB_WC_REM_ACCESS_ERR
 *   qpN-write          qps > 1: WRITE and check on every QP pair
 *   rnr-send           two SENDs posted before the server posts their
 *                      receives (RNR_DELAY_MS later, many RNR timer
 *                      periods): both complete, in order, data verified
 *   rnr-other-qp       qps > 1: while QP 0's SEND waits for a receive
 *                      (RNR), QP 1's SEND is received and verified; then
 *                      QP 0's goes through
 *   rnr-retry-0        a new QP pair with rnr_retry 0 and no receive:
 *                      IB_WC_RNR_RETRY_EXC_ERR, the next WR flushed, the
 *                      QP in ERR
 *   rnr-destroy        a new QP pair; the client's SEND waits on RNR and
 *                      the client destroys its QP: destroy returns within
 *                      a second, whatever the peer does
 *   peer-gone          only this step, when gone_ms is set (rc.sh): ten
 *                      new QP pairs; the client keeps WRITEs in flight
 *                      on the first, the server prints "gone-ready" and
 *                      the shell deletes its device (rdma link delete,
 *                      rmmod), which the probe, an ib_client, sees in
 *                      remove(): it frees everything and tells the
 *                      client. Every WRITE of the first QP (one more
 *                      posted after the peer went) completes in posted
 *                      order within gone_ms, the last in error, the QP
 *                      in ERR. Once a WRITE of another QP goes
 *                      unanswered (the peer is silent), that QP is
 *                      destroyed in under gone_ms / 4, and a WRITE of
 *                      the next, pending toward the silent peer,
 *                      completes IB_WC_RETRY_EXC_ERR within gone_ms
 *   fair-share         only this step, when fair_spread is set (rc.sh):
 *                      the client streams WRITEs of PROBE_FAIR_LEN bytes
 *                      on the first `qps` - `fair_idle` QP pairs (the
 *                      rest post nothing), each QP always
 *                      PROBE_FAIR_DEPTH WRs deep (one more posted on a QP
 *                      as one of it completes), PROBE_FAIR_WRS per QP;
 *                      while they stream, the WRs completed by the most
 *                      and the least advanced QP differ by at most
 *                      fair_spread: QPs sharing a connection (rc.sh gives
 *                      them one of their own, with a small window, through
 *                      `tclass`) take turns
 *   qp-gone            a new QP pair with retry_cnt 2 whose server QP is
 *                      destroyed: the client's WRITE toward it completes
 *                      IB_WC_RETRY_EXC_ERR, not before IB's retry budget
 *                      (retry_cnt + 1 local ACK timeouts, less a tenth
 *                      for timer granularity), the WR behind it flushed,
 *                      the QP in ERR (as on rxe, whose responder drops
 *                      such requests unanswered)
 *   send-inv           on a pair of its own: SEND_WITH_INV of a key the
 *                      server registered for it (a second FRWR MR over
 *                      the buffer): the server's receive completes with
 *                      IB_WC_WITH_INVALIDATE and that key; a WRITE
 *                      through the key then fails IB_WC_REM_ACCESS_ERR
 *                      and places nothing
 *   send-inv-bad-key   on a pair of its own: SEND_WITH_INV of a stale key
 *                      of the server's MR, two SENDs behind it: the
 *                      server's receive completes IB_WC_REM_INV_REQ_ERR,
 *                      its QP in ERR; the client's WR completes
 *                      IB_WC_REM_INV_REQ_ERR (rxe: RETRY_EXC_ERR, it
 *                      sends no NAK), the SENDs flushed, the QP in ERR
 *   bad-rkey           WRITE with a wrong rkey on a pair of its own:
 *                      IB_WC_REM_ACCESS_ERR, the WRs behind it
 *                      IB_WC_WR_FLUSH_ERR, the QP in ERR (with
 *                      lossy_naks, RETRY_EXC_ERR also passes: rxe's
 *                      NAK is sent once).
 *   packed-bad-rkey    six 32-byte WRITEs posted as one list on a pair of
 *                      its own, the fourth with a wrong rkey (packed in
 *                      one packet by ib_superp): the first three
 *                      succeed and are placed, the fourth completes
 *                      IB_WC_REM_ACCESS_ERR, the last two flush, the
 *                      QP goes to ERR, nothing else is written.
 *   burst-<n>x<len>    only this step, when burst is set (rc.sh): `burst`
 *                      WRITEs of size / burst bytes posted as one list,
 *                      more packets at once than a short device queue
 *                      holds: each completes, in order; the server finds
 *                      each in place and nothing between them
 *
 * The buffer is physically contiguous pages (size + two pages: a margin
 * for offset writes and a small control area), mapped with ib_dma_map_sg.
 * Local SGEs use the PD's local_dma_lkey; the peer reaches it through a
 * fast-registration MR (IB_WR_REG_MR). Contiguity lets one local SGE cover
 * a whole message, and is checked on the DMA addresses.
 *
 * Locking: none. Everything runs in the loading task; the CQ is polled
 * (IB_POLL_DIRECT), never armed. The ib_client's remove() only sets
 * probe->gone (READ_ONCE/WRITE_ONCE) and wakes the task, which frees the
 * device's objects: the unregistration waits for its reference.
 */
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/in.h>
#include <linux/inet.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

/* "superp_rc_probe: ", or the name of a second copy (rc_local.sh). */
#define PFX KBUILD_MODNAME ": "

static char *dev = "rxe0";
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "ib device, e.g. rxe0 or superp0");
static char *role = "server";
module_param(role, charp, 0444);
MODULE_PARM_DESC(role, "server or client");
static char *peer = "";
module_param(peer, charp, 0444);
MODULE_PARM_DESC(peer, "client: the server's IPv4 address (TCP rendezvous)");
static ushort port = 18515;
module_param(port, ushort, 0444);
MODULE_PARM_DESC(port, "TCP port of the rendezvous");
static int gid_index = -1;
module_param(gid_index, int, 0444);
MODULE_PARM_DESC(gid_index, "source GID index (default: the RoCE v2 GID of our address)");
static uint size = 1 << 20;
module_param(size, uint, 0444);
MODULE_PARM_DESC(size, "largest message and buffer size, bytes");
static uint qps = 1;
module_param(qps, uint, 0444);
MODULE_PARM_DESC(qps, "QP pairs");
static uint timeout_ms = 60000;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "limit for each wait (rendezvous, completion, peer)");
static uint tput_ms = 2000;
module_param(tput_ms, uint, 0444);
MODULE_PARM_DESC(tput_ms, "duration of each throughput figure, 0 for none");
static uint atomics = 1000;
module_param(atomics, uint, 0444);
MODULE_PARM_DESC(atomics, "FETCH_AND_ADDs of the atomic-fadd step");
static uint gone_ms;
module_param(gone_ms, uint, 0444);
MODULE_PARM_DESC(gone_ms, "run only peer-gone, bounded by this many ms (see rc.sh)");
static uint fadd_rounds = 1;
module_param(fadd_rounds, uint, 0444);
MODULE_PARM_DESC(fadd_rounds, "times the atomic-fadd step runs (a soak)");
static bool canary;
module_param(canary, bool, 0444);
MODULE_PARM_DESC(canary, "fill pages around the registered buffer and check them at the end");
static bool lossy_naks;
module_param(lossy_naks, bool, 0444);
MODULE_PARM_DESC(lossy_naks, "the device's NAKs may be lost (rxe on a lossy link): a refused request may also end in RETRY_EXC_ERR");
static uint big_mb;
module_param(big_mb, uint, 0444);
MODULE_PARM_DESC(big_mb, "also one SEND, WRITE and READ of this many MiB, vmalloc memory on both sides (virtual-DMA devices, global rkey); 0 for none");
static uint burst;
module_param(burst, uint, 0444);
MODULE_PARM_DESC(burst, "run only burst: this many WRITEs of size / burst bytes, posted as one list (at most 64)");
static uint tclass;
module_param(tclass, uint, 0444);
MODULE_PARM_DESC(tclass, "traffic class of the QPs' address vectors (ib_superp binds a QP to a connection of its class)");
static uint fair_spread;
module_param(fair_spread, uint, 0444);
MODULE_PARM_DESC(fair_spread, "run only fair-share: while the QPs stream WRITEs, their completed WRs differ by at most this many (see rc.sh)");
static uint fair_idle;
module_param(fair_idle, uint, 0444);
MODULE_PARM_DESC(fair_idle, "fair-share: the last this many QP pairs post nothing");
static bool error_steps = true;
module_param(error_steps, bool, 0444);
MODULE_PARM_DESC(error_steps, "also the steps that end in an error or wait on one (refused atomics, RNR, qp-gone, bad rkey); 0 for the data steps only");

#define PROBE_MAGIC	0x53524350	/* "SRCP" */
#define PROBE_MAX_QPS	64
#define PROBE_SQ	64
#define PROBE_RQ	32
#define PROBE_OFF	100		/* write offset into the server's buffer */
#define PROBE_CANARY	0xc5		/* bytes of the pages around the MR */
#define PROBE_IMM	0x5eed0000
#define PROBE_BATCH	16
#define PROBE_BIG_MAX_MB	2047	/* byte_len and the SGE are u32 */
#define PROBE_TPUT_BYTES SZ_256K
/* Control-page words of the atomic steps (8-byte aligned, after order's). */
#define PROBE_AT_WORD	1024		/* the word the client operates on */
#define PROBE_AT_RES	2048		/* client: where originals land */
#define PROBE_AT_INIT	0x0123456789abcdefULL
/* Responder timeout 2^16 * 4.096 us (268 ms): TCG guests stall. */
#define PROBE_QP_TIMEOUT 16
/*
 * qp-gone's retry_cnt: rxe takes 7 for "retry for ever" (IB's rnr_retry
 * convention, not retry_cnt's), and the step needs an end.
 */
#define PROBE_FEW_RETRIES 2
/* rnr-*: how long the server holds its receives back (min_rnr_timer 12). */
#define PROBE_RNR_DELAY_MS 100
/*
 * peer-gone: QP pairs (one with WRITEs in flight, then tries at a silent
 * peer), wr_id base of the latter, how long a WRITE waits unanswered.
 * Until the peer's device is gone for good its connection still answers
 * (NO_QP): in a loaded TCG guest that took 1.5 s, past two tries.
 */
#define PROBE_GONE_QPS 10
#define PROBE_GONE_SILENT 1000
#define PROBE_GONE_QUIET_MS 500
/*
 * fair-share: WRITEs of more than ib_superp's 256 packed bytes (one WR,
 * one transaction), PROBE_FAIR_DEPTH of them outstanding on every QP,
 * PROBE_FAIR_WRS per QP in all.
 */
#define PROBE_FAIR_LEN 512
#define PROBE_FAIR_DEPTH 8
#define PROBE_FAIR_WRS 16

/* What each side tells the other per QP pair, little-endian on the wire. */
struct probe_wire {
	__le32 magic;
	__le32 qpn;
	__le32 psn;
	u8 gid[16];
	__le32 rkey;
	__le64 addr;
	__le32 len;
} __packed;

/* Step ordering and verdicts over the same socket. */
struct probe_ctl {
	__le32 magic;
	__le32 step;
	__le32 val;
} __packed;

struct probe_qp {
	struct ib_qp *qp;
	u32 psn;
	u32 rqpn;
	u32 rpsn;
	bool rnr_once;		/* rnr_retry 0 instead of 7 (infinite) */
	bool retry_few;		/* retry_cnt PROBE_FEW_RETRIES instead of 7 */
};

struct probe {
	bool server;
	struct socket *sock;
	struct ib_device *ibdev;
	u32 port;
	int sgid_index;
	union ib_gid sgid;
	union ib_gid dgid;
	enum ib_mtu mtu;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct probe_qp *qp;
	struct page *pages;
	unsigned int order;
	unsigned int skip;	/* canary pages before the buffer's first */
	void *buf;
	size_t buflen;		/* size + PROBE_OFF margin, page aligned */
	size_t ctl_off;		/* small control area after the data */
	struct sg_table sgt;
	int nents;
	u64 dma;		/* DMA address of buf, for local SGEs */
	struct ib_mr *mr;
	u32 rkey;		/* the peer's */
	u64 raddr;
	u32 rlen;
	unsigned int step;
	unsigned int passed;
	unsigned int failed;
	bool gone;		/* the device is being unregistered */
};

/* peer-gone: the ib_client's remove() tells the loading task. */
static struct probe *probe_cur;
static DECLARE_WAIT_QUEUE_HEAD(probe_gone_wq);

static void report(struct probe *p, const char *name, bool ok,
		   const char *fmt, ...) __printf(4, 5);

static void report(struct probe *p, const char *name, bool ok,
		   const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info(PFX "%s %s %pV\n", name, ok ? "ok" : "FAIL", &vaf);
	va_end(args);
	if (ok)
		p->passed++;
	else
		p->failed++;
}

/* The byte at @off of step @step: offsets a page or a packet apart differ. */
static u8 pattern(size_t off, unsigned int step)
{
	return (u8)(off ^ (off >> 8) * 7 ^ (off >> 16) * 13) + step * 37 + 1;
}

static void fill_pattern(struct probe *p, size_t off, size_t len, unsigned int step)
{
	size_t i;

	for (i = 0; i < len; i++)
		((u8 *)p->buf)[off + i] = pattern(i, step);
}

/* Returns the first wrong offset, or -1 when [off, off + len) is right. */
static long check_pattern(struct probe *p, size_t off, size_t len, unsigned int step)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((u8 *)p->buf)[off + i] != pattern(i, step))
			return i;
	return -1;
}

/* The pattern of @step at [off, off + len); if not, @why says where not. */
static bool verify(struct probe *p, size_t off, size_t len, unsigned int step,
		   char *why, size_t whylen)
{
	long bad = check_pattern(p, off, len, step);

	if (bad >= 0)
		snprintf(why, whylen, "byte %ld of %zu wrong", bad, len);
	return bad < 0;
}

static long check_zero(struct probe *p, size_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((u8 *)p->buf)[off + i])
			return i;
	return -1;
}

/* --- TCP rendezvous ----------------------------------------------------- */

static int sock_xfer(struct socket *sock, void *data, size_t len, bool tx)
{
	struct kvec iov = { .iov_base = data, .iov_len = len };
	struct msghdr msg = { .msg_flags = tx ? MSG_NOSIGNAL : MSG_WAITALL };
	int n;

	n = tx ? kernel_sendmsg(sock, &msg, &iov, 1, len) :
		 kernel_recvmsg(sock, &msg, &iov, 1, len, msg.msg_flags);
	if (n == len)
		return 0;
	return n < 0 ? n : -ECONNRESET;
}

static void sock_timeouts_ms(struct socket *sock, u32 ms)
{
	long t = msecs_to_jiffies(ms);

	sock->sk->sk_rcvtimeo = t;
	sock->sk->sk_sndtimeo = t;
}

static void sock_timeouts(struct socket *sock)
{
	sock_timeouts_ms(sock, timeout_ms);
}

static int rendezvous_server(struct probe *p)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	struct socket *lsock;
	int err;

	err = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP,
			       &lsock);
	if (err)
		return err;
	sock_set_reuseaddr(lsock->sk);
	sock_timeouts(lsock);
	err = kernel_bind(lsock, (struct sockaddr *)&sin, sizeof(sin));
	if (!err)
		err = kernel_listen(lsock, 1);
	if (!err)
		err = kernel_accept(lsock, &p->sock, 0);
	sock_release(lsock);
	return err;
}

static int rendezvous_client(struct probe *p)
{
	unsigned long until = jiffies + msecs_to_jiffies(timeout_ms);
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
	};
	int err;

	if (!in4_pton(peer, -1, (u8 *)&sin.sin_addr.s_addr, -1, NULL)) {
		pr_err(PFX "peer \"%s\" is not an IPv4 address\n", peer);
		return -EINVAL;
	}
	/* The server may not listen yet: retry refused connections. */
	for (;;) {
		err = sock_create_kern(&init_net, AF_INET, SOCK_STREAM,
				       IPPROTO_TCP, &p->sock);
		if (err)
			return err;
		sock_timeouts(p->sock);
		err = kernel_connect(p->sock, (struct sockaddr *)&sin,
				     sizeof(sin), 0);
		if (!err)
			return 0;
		sock_release(p->sock);
		p->sock = NULL;
		if (time_after(jiffies, until) || fatal_signal_pending(current))
			return err;
		msleep(200);
	}
}

static int ctl_send(struct probe *p, u32 val)
{
	struct probe_ctl c = {
		.magic = cpu_to_le32(PROBE_MAGIC),
		.step = cpu_to_le32(p->step),
		.val = cpu_to_le32(val),
	};

	return sock_xfer(p->sock, &c, sizeof(c), true);
}

/* The peer's word for the current step; -EPROTO when out of step. */
static int ctl_recv(struct probe *p, u32 *val)
{
	struct probe_ctl c;
	int err;

	err = sock_xfer(p->sock, &c, sizeof(c), false);
	if (err)
		return err;
	if (le32_to_cpu(c.magic) != PROBE_MAGIC ||
	    le32_to_cpu(c.step) != p->step) {
		pr_err(PFX "peer at step %u, we are at %u\n",
		       le32_to_cpu(c.step), p->step);
		return -EPROTO;
	}
	*val = le32_to_cpu(c.val);
	return 0;
}

/* The peer's word for this step, whatever it says (go, or done). */
static int ctl_await(struct probe *p)
{
	u32 v;

	return ctl_recv(p, &v);
}

/* Server: says go, then waits for the client's word (its WRs ran). */
static int ctl_go_wait(struct probe *p)
{
	int err;

	err = ctl_send(p, 0);
	return err ?: ctl_await(p);
}

/* Server first, then client: each tells the other @mine, *@theirs. */
static int ctl_swap(struct probe *p, u32 mine, u32 *theirs)
{
	int err;

	if (p->server) {
		err = ctl_send(p, mine);
		return err ?: ctl_recv(p, theirs);
	}
	err = ctl_recv(p, theirs);
	return err ?: ctl_send(p, mine);
}

/* --- Device, GID, buffer ------------------------------------------------ */

/* The RoCE v2 GID whose IPv4-mapped address is our end of the socket. */
static int find_gid(struct probe *p)
{
	const struct ib_gid_attr *attr;
	struct sockaddr_in me;
	struct in6_addr want;
	int i, err;

	if (gid_index >= 0) {
		p->sgid_index = gid_index;
		return rdma_query_gid(p->ibdev, p->port, gid_index, &p->sgid);
	}
	err = kernel_getsockname(p->sock, (struct sockaddr *)&me);
	if (err < 0)
		return err;
	ipv6_addr_set_v4mapped(me.sin_addr.s_addr, &want);
	for (i = 0; i < p->ibdev->port_data[p->port].immutable.gid_tbl_len; i++) {
		attr = rdma_get_gid_attr(p->ibdev, p->port, i);
		if (IS_ERR(attr))
			continue;
		if (attr->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP &&
		    !memcmp(&attr->gid, &want, sizeof(want))) {
			p->sgid = attr->gid;
			p->sgid_index = i;
			rdma_put_gid_attr(attr);
			return 0;
		}
		rdma_put_gid_attr(attr);
	}
	pr_err(PFX "%s: no RoCE v2 GID for %pI4 (set gid_index)\n", dev,
	       &me.sin_addr.s_addr);
	return -ENOENT;
}

/*
 * The canary: memory next to the registered buffer, in the same block of
 * pages, that no remote operation may reach. Filled before the MR exists
 * and checked after the last step (a hostile peer runs meanwhile in
 * selftests/verbs/fuzz.sh).
 */
static void canary_fill(struct probe *p)
{
	u8 *block = page_address(p->pages);

	memset(block, PROBE_CANARY, PAGE_SIZE);
	memset(p->buf + p->buflen, PROBE_CANARY,
	       (PAGE_SIZE << p->order) - PAGE_SIZE - p->buflen);
}

static void canary_check(struct probe *p)
{
	u8 *block = page_address(p->pages), *bad;
	size_t after = (PAGE_SIZE << p->order) - PAGE_SIZE - p->buflen;

	bad = memchr_inv(block, PROBE_CANARY, PAGE_SIZE);
	if (!bad)
		bad = memchr_inv(p->buf + p->buflen, PROBE_CANARY, after);
	if (bad)
		report(p, "canary", false, "byte %td of the block changed",
		       bad - block);
	else
		report(p, "canary", true, "%zu bytes around the buffer unchanged",
		       PAGE_SIZE + after);
}

static int setup_buffer(struct probe *p)
{
	struct scatterlist *sg;
	unsigned int npages, i;
	int n;

	p->ctl_off = PAGE_ALIGN(size + PROBE_OFF);
	p->buflen = p->ctl_off + PAGE_SIZE;
	npages = p->buflen >> PAGE_SHIFT;
	/* canary: a page before the buffer, the rest of the block after it */
	p->skip = canary;
	p->order = get_order(p->buflen + (canary ? 2 * PAGE_SIZE : 0));
	if (p->order > MAX_ORDER - 1) {
		pr_err(PFX "size %u: more than one contiguous allocation\n",
		       size);
		return -EINVAL;
	}
	if (npages > p->ibdev->attrs.max_fast_reg_page_list_len) {
		pr_err(PFX "size %u: %u pages, %s registers at most %u\n", size,
		       npages, dev, p->ibdev->attrs.max_fast_reg_page_list_len);
		return -EINVAL;
	}
	p->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN, p->order);
	if (!p->pages)
		return -ENOMEM;
	p->buf = page_address(p->pages + p->skip);
	if (canary)
		canary_fill(p);
	if (sg_alloc_table(&p->sgt, npages, GFP_KERNEL))
		return -ENOMEM;
	for_each_sg(p->sgt.sgl, sg, npages, i)
		sg_set_page(sg, p->pages + p->skip + i, PAGE_SIZE, 0);
	n = ib_dma_map_sg(p->ibdev, p->sgt.sgl, npages, DMA_BIDIRECTIONAL);
	if (n <= 0)
		return -EIO;
	p->nents = n;
	p->dma = sg_dma_address(p->sgt.sgl);
	for_each_sg(p->sgt.sgl, sg, n, i) {
		if (sg_dma_address(sg) != p->dma + (u64)i * PAGE_SIZE &&
		    n != 1) {
			pr_err(PFX "buffer not contiguous in DMA space\n");
			return -EIO;
		}
	}
	p->mr = ib_alloc_mr(p->pd, IB_MR_TYPE_MEM_REG, npages);
	if (IS_ERR(p->mr)) {
		n = PTR_ERR(p->mr);
		p->mr = NULL;
		pr_err(PFX "ib_alloc_mr of %u pages: %d\n", npages, n);
		return n;
	}
	n = ib_map_mr_sg(p->mr, p->sgt.sgl, p->nents, NULL, PAGE_SIZE);
	if (n != p->nents) {
		pr_err(PFX "ib_map_mr_sg mapped %d of %d\n", n, p->nents);
		return n < 0 ? n : -EIO;
	}
	return 0;
}

static struct ib_qp *create_qp(struct probe *p)
{
	struct ib_qp_init_attr init = {
		.send_cq = p->cq,
		.recv_cq = p->cq,
		.cap = {
			.max_send_wr = PROBE_SQ,
			.max_recv_wr = PROBE_RQ,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};

	return ib_create_qp(p->pd, &init);
}

static int connect_qp(struct probe *p, struct probe_qp *q)
{
	struct ib_qp_attr a = {};
	int err;

	a.qp_state = IB_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = p->port;
	a.qp_access_flags = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			    IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC;
	err = ib_modify_qp(q->qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (err) {
		pr_err(PFX "QP %u to INIT: %d\n", q->qp->qp_num, err);
		return err;
	}

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	a.path_mtu = p->mtu;
	a.dest_qp_num = q->rqpn;
	a.rq_psn = q->rpsn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.type = rdma_ah_find_type(p->ibdev, p->port);
	rdma_ah_set_port_num(&a.ah_attr, p->port);
	rdma_ah_set_sl(&a.ah_attr, 0);
	rdma_ah_set_grh(&a.ah_attr, &p->dgid, 0, p->sgid_index, 64, tclass);
	err = ib_modify_qp(q->qp, &a, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (err) {
		pr_err(PFX "QP %u to RTR (peer QPN %u, GID %pI6): %d\n",
		       q->qp->qp_num, q->rqpn, p->dgid.raw, err);
		return err;
	}

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.timeout = PROBE_QP_TIMEOUT;
	a.retry_cnt = q->retry_few ? PROBE_FEW_RETRIES : 7;
	a.rnr_retry = q->rnr_once ? 0 : 7;
	a.sq_psn = q->psn;
	a.max_rd_atomic = 1;
	err = ib_modify_qp(q->qp, &a, IB_QP_STATE | IB_QP_TIMEOUT |
			   IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			   IB_QP_MAX_QP_RD_ATOMIC);
	if (err)
		pr_err(PFX "QP %u to RTS: %d\n", q->qp->qp_num, err);
	return err;
}

/* Tell the peer about each QP pair and learn about its own. */
static int exchange(struct probe *p)
{
	struct probe_wire w;
	unsigned int i;
	int err;

	for (i = 0; i < qps; i++) {
		memset(&w, 0, sizeof(w));
		w.magic = cpu_to_le32(PROBE_MAGIC);
		w.qpn = cpu_to_le32(p->qp[i].qp->qp_num);
		w.psn = cpu_to_le32(p->qp[i].psn);
		memcpy(w.gid, p->sgid.raw, sizeof(w.gid));
		w.rkey = cpu_to_le32(p->mr->rkey);
		w.addr = cpu_to_le64(p->mr->iova);
		w.len = cpu_to_le32(p->buflen);
		err = sock_xfer(p->sock, &w, sizeof(w), true);
		if (err)
			return err;
	}
	for (i = 0; i < qps; i++) {
		err = sock_xfer(p->sock, &w, sizeof(w), false);
		if (err)
			return err;
		if (le32_to_cpu(w.magic) != PROBE_MAGIC) {
			pr_err(PFX "peer sent a bad rendezvous record\n");
			return -EPROTO;
		}
		p->qp[i].rqpn = le32_to_cpu(w.qpn);
		p->qp[i].rpsn = le32_to_cpu(w.psn);
		memcpy(p->dgid.raw, w.gid, sizeof(w.gid));
		p->rkey = le32_to_cpu(w.rkey);
		p->raddr = le64_to_cpu(w.addr);
		p->rlen = le32_to_cpu(w.len);
	}
	if (p->rlen != p->buflen) {
		pr_err(PFX "peer's buffer is %u bytes, ours %zu (same size= on both)\n",
		       p->rlen, p->buflen);
		return -EPROTO;
	}
	return 0;
}

/* --- Work requests and completions -------------------------------------- */

/*
 * Polls, sleeping longer the longer it waits: a completion due soon is
 * seen within tens of microseconds, and a wait of seconds (a
 * retransmission after an outage, an RNR or retry budget) leaves the CPU
 * to the guest's other work: at 20 us a sleep, a one-vCPU TCG guest spent
 * itself on wakeups and the test's own commands beside the probe (counter
 * reads, netem changes) took seconds each.
 */
static int poll_one_for(struct probe *p, struct ib_wc *wc, u32 bound_ms)
{
	unsigned long start = jiffies;
	unsigned long until = start + msecs_to_jiffies(bound_ms);
	int n;

	for (;;) {
		n = ib_poll_cq(p->cq, 1, wc);
		if (n)
			return n < 0 ? n : 0;
		if (time_after(jiffies, until))
			return -ETIMEDOUT;
		if (fatal_signal_pending(current))
			return -EINTR;
		if (time_before(jiffies, start + msecs_to_jiffies(2)))
			usleep_range(20, 200);
		else if (time_before(jiffies, start + msecs_to_jiffies(100)))
			usleep_range(500, 1000);
		else
			usleep_range(5000, 10000);
	}
}

static int poll_one(struct probe *p, struct ib_wc *wc)
{
	return poll_one_for(p, wc, timeout_ms);
}

/*
 * The next completion, within @bound_ms, must be @wr_id with @status; a
 * line says why not.
 */
static int expect_wc_for(struct probe *p, u64 wr_id, enum ib_wc_status status,
			 struct ib_wc *wc, char *why, size_t whylen,
			 u32 bound_ms)
{
	int err = poll_one_for(p, wc, bound_ms);

	if (err) {
		snprintf(why, whylen, "no completion for wr %llu: %d", wr_id,
			 err);
		return err;
	}
	if (wc->wr_id != wr_id || wc->status != status) {
		snprintf(why, whylen, "wr %llu status %s, expected wr %llu %s",
			 wc->wr_id, ib_wc_status_msg(wc->status), wr_id,
			 ib_wc_status_msg(status));
		return -EIO;
	}
	return 0;
}

static int expect_wc(struct probe *p, u64 wr_id, enum ib_wc_status status,
		     struct ib_wc *wc, char *why, size_t whylen)
{
	return expect_wc_for(p, wr_id, status, wc, why, whylen, timeout_ms);
}

/* 0 if @qp is in the error state, else an error and *@why says why. */
static int expect_qp_err(struct ib_qp *qp, char *why, size_t whylen)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr a;
	int err;

	err = ib_query_qp(qp, &a, IB_QP_STATE, &init);
	if (err || a.qp_state != IB_QPS_ERR) {
		snprintf(why, whylen, "QP state %d (%d), expected ERR",
			 a.qp_state, err);
		return err ?: -EIO;
	}
	return 0;
}

/* WRs @first to @last complete in order, each with @status. */
static bool expect_wc_range(struct probe *p, u64 first, u64 last,
			    enum ib_wc_status status, char *why, size_t whylen)
{
	struct ib_wc wc;
	u64 i;

	for (i = first; i <= last; i++)
		if (expect_wc(p, i, status, &wc, why, whylen))
			return false;
	return true;
}

/* WRs @first to @last of @qp flushed, in order, and @qp in ERR. */
static bool flushed_in_err(struct probe *p, struct ib_qp *qp, u64 first,
			   u64 last, char *why, size_t whylen)
{
	return expect_wc_range(p, first, last, IB_WC_WR_FLUSH_ERR, why,
			       whylen) &&
	       !expect_qp_err(qp, why, whylen);
}

/*
 * WR 1's completion after a NAK, @want, on a scratch pair (retry_cnt
 * PROBE_FEW_RETRIES). rxe's responder NAKs once and enters ERR, where it
 * drops the requester's retries: with lossy_naks, the RETRY_EXC_ERR of a
 * lost NAK passes too (IB allows both). ib_superp's NAK rides the PDL,
 * which retransmits it. *@seen names what came.
 */
static int expect_nak(struct probe *p, enum ib_wc_status want,
		      const char **seen, char *why, size_t whylen)
{
	struct ib_wc wc = {};

	*seen = ib_wc_status_msg(want);
	if (!expect_wc(p, 1, want, &wc, why, whylen))
		return 0;
	if (!lossy_naks || wc.wr_id != 1 || wc.status != IB_WC_RETRY_EXC_ERR)
		return -EIO;
	*seen = "RETRY_EXC_ERR (NAK lost)";
	return 0;
}

/* One SGE of @len bytes at @addr (the PD's local DMA lkey). */
static struct ib_sge sge_at(struct probe *p, u64 addr, u32 len)
{
	struct ib_sge sge = {
		.addr = addr,
		.length = len,
		.lkey = p->pd->local_dma_lkey,
	};

	return sge;
}

/* A send-queue WR @wr_id of @op over the one SGE @sge, with @flags. */
static struct ib_send_wr send_wr(u64 wr_id, struct ib_sge *sge,
				 enum ib_wr_opcode op, int flags)
{
	struct ib_send_wr wr = {
		.wr_id = wr_id,
		.sg_list = sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = flags,
	};

	return wr;
}

static int post_recv(struct probe *p, struct ib_qp *qp, u64 wr_id,
		     size_t off, u32 len)
{
	struct ib_sge sge = sge_at(p, p->dma + off, len);
	struct ib_recv_wr wr = {
		.wr_id = wr_id,
		.sg_list = &sge,
		.num_sge = 1,
	};

	return ib_post_recv(qp, &wr, NULL);
}

/* One send-queue WR from our buffer at @off; @raddr_off for RDMA ops. */
static int post_send(struct probe *p, struct ib_qp *qp, u64 wr_id,
		     enum ib_wr_opcode op, size_t off, u32 len,
		     size_t raddr_off, u32 rkey, u32 imm, bool signalled)
{
	struct ib_sge sge = sge_at(p, p->dma + off, len);
	struct ib_rdma_wr wr = {
		.wr = send_wr(wr_id, &sge, op, signalled ? IB_SEND_SIGNALED : 0),
		.remote_addr = p->raddr + raddr_off,
		.rkey = rkey,
	};

	wr.wr.ex.imm_data = cpu_to_be32(imm);
	return ib_post_send(qp, &wr.wr, NULL);
}

/* Register @mr on @qp with @access (IB_WR_REG_MR), and wait for it. */
static int reg_mr(struct probe *p, struct ib_qp *qp, struct ib_mr *mr,
		  int access)
{
	struct ib_reg_wr wr = {
		.wr = {
			.wr_id = 1,
			.opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = mr,
		.key = mr->rkey,
		.access = access,
	};
	struct ib_wc wc;
	char why[96];
	int err;

	err = ib_post_send(qp, &wr.wr, NULL);
	if (err)
		return err;
	err = expect_wc(p, 1, IB_WC_SUCCESS, &wc, why, sizeof(why));
	if (err)
		pr_err(PFX "IB_WR_REG_MR: %s\n", why);
	return err;
}

/* Register our MR on QP 0 for the peer's remote reads, writes, atomics. */
static int register_mr(struct probe *p)
{
	if (p->ibdev->attrs.atomic_cap == IB_ATOMIC_NONE) {
		pr_err(PFX "%s: atomic_cap NONE, the atomic steps need atomics\n",
		       dev);
		return -EOPNOTSUPP;
	}
	return reg_mr(p, p->qp[0].qp, p->mr,
		      IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		      IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC);
}

/* One atomic WR; the original value lands in our buffer at @off. */
static int post_atomic(struct probe *p, struct ib_qp *qp, u64 wr_id,
		       enum ib_wr_opcode op, size_t off, u64 raddr_off,
		       u32 rkey, u64 compare_add, u64 swap, bool signalled)
{
	struct ib_sge sge = sge_at(p, p->dma + off, sizeof(u64));
	struct ib_atomic_wr wr = {
		.wr = send_wr(wr_id, &sge, op, signalled ? IB_SEND_SIGNALED : 0),
		.remote_addr = p->raddr + raddr_off,
		.compare_add = compare_add,
		.swap = swap,
		.rkey = rkey,
	};

	return ib_post_send(qp, &wr.wr, NULL);
}

/* --- Steps --------------------------------------------------------------- */

/*
 * A step ends with both verdicts exchanged (the server's first), so that
 * both sides print the same word: ok only if both checks passed.
 */
static int finish(struct probe *p, const char *name, bool ok, const char *why)
{
	u32 theirs = 0;
	int err;

	err = ctl_swap(p, ok, &theirs);
	if (err) {
		report(p, name, false, "%s; peer lost: %d", why, err);
		return err;
	}
	report(p, name, ok && theirs, "%s%s", why,
	       theirs ? "" : " (peer failed)");
	return 0;
}

/* A step's end: the verdicts exchanged, or, the peer lost, @err. */
static int step_end(struct probe *p, const char *name, int err, bool ok,
		    const char *why)
{
	if (!err)
		return finish(p, name, ok, why);
	report(p, name, false, "%d", err);
	return err;
}

/* Server: a zeroed buffer, receive @wr_id of @len bytes at @off, go. */
static int recv_ready(struct probe *p, struct ib_qp *qp, u64 wr_id,
		      size_t off, u32 len)
{
	int err;

	memset(p->buf, 0, p->buflen);
	err = post_recv(p, qp, wr_id, off, len);
	return err ?: ctl_send(p, 0);
}

static const char *size_name(u32 len, char *b, size_t blen)
{
	if (len >= SZ_1M && !(len % SZ_1M))
		snprintf(b, blen, "%uM", len / SZ_1M);
	else if (len >= SZ_1K && !(len % SZ_1K))
		snprintf(b, blen, "%uK", len / SZ_1K);
	else
		snprintf(b, blen, "%u", len);
	return b;
}

/* Server of send-*: @wc says the SEND of @len bytes (@imm?) arrived. */
static bool send_received(struct probe *p, const struct ib_wc *wc, u32 len,
			  bool with_imm, u32 imm, char *why, size_t whylen)
{
	if (wc->opcode != IB_WC_RECV || wc->byte_len != len) {
		snprintf(why, whylen, "opcode %d byte_len %u", wc->opcode,
			 wc->byte_len);
		return false;
	}
	if (with_imm && (!(wc->wc_flags & IB_WC_WITH_IMM) ||
			 be32_to_cpu(wc->ex.imm_data) != imm)) {
		snprintf(why, whylen, "flags %#x imm %#x, expected %#x",
			 wc->wc_flags, be32_to_cpu(wc->ex.imm_data), imm);
		return false;
	}
	if (!with_imm && (wc->wc_flags & IB_WC_WITH_IMM)) {
		snprintf(why, whylen, "IB_WC_WITH_IMM on a SEND");
		return false;
	}
	return verify(p, 0, len, p->step, why, whylen);
}

/*
 * Server of write-*: @wc says the WRITE of @len bytes (@imm?) is placed;
 * it is, at PROBE_OFF, and nothing else is written.
 */
static bool write_received(struct probe *p, const struct ib_wc *wc, u32 len,
			   bool with_imm, u32 imm, char *why, size_t whylen)
{
	if (with_imm) {
		/* byte_len: the length the WRITE placed. */
		if (wc->opcode != IB_WC_RECV_RDMA_WITH_IMM ||
		    !(wc->wc_flags & IB_WC_WITH_IMM) ||
		    be32_to_cpu(wc->ex.imm_data) != imm ||
		    wc->byte_len != len) {
			snprintf(why, whylen,
				 "opcode %d flags %#x imm %#x byte_len %u, expected RECV_RDMA_WITH_IMM %#x %u",
				 wc->opcode, wc->wc_flags,
				 be32_to_cpu(wc->ex.imm_data), wc->byte_len,
				 imm, len);
			return false;
		}
	} else if (wc->opcode != IB_WC_RECV || wc->byte_len != 4 ||
		   le32_to_cpu(*(__le32 *)(p->buf + p->ctl_off)) != p->step) {
		snprintf(why, whylen, "verify SEND: opcode %d byte_len %u",
			 wc->opcode, wc->byte_len);
		return false;
	}
	if (!verify(p, PROBE_OFF, len, p->step, why, whylen))
		return false;
	if (check_zero(p, 0, PROBE_OFF) >= 0 ||
	    check_zero(p, PROBE_OFF + len, p->ctl_off - PROBE_OFF - len) >= 0) {
		snprintf(why, whylen, "written outside [%u, %u)",
			 PROBE_OFF, PROBE_OFF + len);
		return false;
	}
	return true;
}

/* The operations of the data steps send-*, write-* and read-*. */
enum probe_op { PROBE_SEND, PROBE_WRITE, PROBE_READ };

/*
 * Client: the WRs of @op over @len bytes (@imm if @with_imm): a SEND; a
 * WRITE at PROBE_OFF into the server's buffer, without immediate followed
 * by a 4-byte SEND so that the server, when it sees that SEND, may check
 * the data (RC ordering); a READ.
 */
static int xfer_post(struct probe *p, struct ib_qp *qp, enum probe_op op,
		     u32 len, bool with_imm, u32 imm)
{
	if (op == PROBE_SEND)
		return post_send(p, qp, p->step,
				 with_imm ? IB_WR_SEND_WITH_IMM : IB_WR_SEND,
				 0, len, 0, 0, imm, true);
	if (op == PROBE_READ)
		return post_send(p, qp, p->step, IB_WR_RDMA_READ, 0, len, 0,
				 p->rkey, 0, true);
	if (with_imm)
		return post_send(p, qp, p->step, IB_WR_RDMA_WRITE_WITH_IMM, 0,
				 len, PROBE_OFF, p->rkey, imm, true);
	return post_send(p, qp, 0, IB_WR_RDMA_WRITE, 0, len, PROBE_OFF,
			 p->rkey, 0, false) ?:
	       post_send(p, qp, p->step, IB_WR_SEND, p->ctl_off, 4, 0, 0, 0,
			 true);
}

/* Client of read-*: @wc says the READ of @len bytes placed them. */
static bool read_received(struct probe *p, const struct ib_wc *wc, u32 len,
			  char *why, size_t whylen)
{
	if (wc->opcode != IB_WC_RDMA_READ) {
		snprintf(why, whylen, "opcode %d", wc->opcode);
		return false;
	}
	return verify(p, 0, len, p->step, why, whylen);
}

/*
 * send-*: a SEND (with @imm if asked) of @len bytes, which the server
 * checks. write-*: a WRITE (likewise) of @len bytes at PROBE_OFF into the
 * server's buffer, on QP pair @qi, which the server checks. read-*: a
 * READ of @len bytes from the server's buffer, which it filled; the
 * client checks them.
 */
static int step_xfer(struct probe *p, enum probe_op op, unsigned int qi,
		     u32 len, bool with_imm, const char *prefix)
{
	static const char *const ops[] = { "send", "write", "read" };
	struct ib_qp *qp = p->qp[qi].qp;
	char name[32], sz[16], why[128] = "";
	u32 imm = PROBE_IMM | p->step;
	struct ib_wc wc;
	bool ok = false;
	int err;

	p->step++;
	if (op == PROBE_WRITE)
		snprintf(why, sizeof(why), "%u bytes at offset %u", len,
			 PROBE_OFF);
	else
		snprintf(why, sizeof(why), "%u bytes", len);
	snprintf(name, sizeof(name), "%s%s%s-%s", prefix, ops[op],
		 with_imm ? "-imm" : "", size_name(len, sz, sizeof(sz)));
	if (p->server && op == PROBE_READ) {
		fill_pattern(p, 0, len, p->step);
		err = ctl_send(p, 0);
		ok = true;	/* the client checks */
	} else if (p->server) {
		err = op == PROBE_SEND ? recv_ready(p, qp, p->step, 0, size) :
		      recv_ready(p, qp, p->step, p->ctl_off, 64);
		if (!err && !expect_wc(p, p->step, IB_WC_SUCCESS, &wc, why,
				       sizeof(why)))
			ok = op == PROBE_SEND ?
			     send_received(p, &wc, len, with_imm, imm, why,
					   sizeof(why)) :
			     write_received(p, &wc, len, with_imm, imm, why,
					    sizeof(why));
	} else {
		if (op == PROBE_READ)
			memset(p->buf, 0, p->buflen);
		else
			fill_pattern(p, 0, len, p->step);
		if (op == PROBE_WRITE)
			*(__le32 *)(p->buf + p->ctl_off) = cpu_to_le32(p->step);
		err = ctl_await(p);
		if (!err)
			err = xfer_post(p, qp, op, len, with_imm, imm);
		if (!err && !expect_wc(p, p->step, IB_WC_SUCCESS, &wc, why,
				       sizeof(why)))
			ok = op != PROBE_READ ||
			     read_received(p, &wc, len, why, sizeof(why));
	}
	return step_end(p, name, err, ok, why);
}

/*
 * PROBE_BATCH WRs posted at once: even ones WRITE 64 bytes each to their
 * own slot, odd ones SEND their index; only odd ones are signalled. The
 * client sees the signalled ones in posted order, each once; the server
 * sees the SENDs in order and then every WRITE placed.
 */
static int step_order(struct probe *p)
{
	struct ib_qp *qp = p->qp[0].qp;
	char why[128] = "";
	struct ib_wc wc;
	bool ok = false;
	unsigned int i;
	long bad;
	u32 v;
	int err = 0, n;

	p->step++;
	if (p->server) {
		memset(p->buf, 0, p->buflen);
		for (i = 1; i < PROBE_BATCH && !err; i += 2)
			err = post_recv(p, qp, i, p->ctl_off + i * 8, 8);
		if (!err)
			err = ctl_send(p, 0);
		if (err)
			goto out;
		for (i = 1; i < PROBE_BATCH; i += 2) {
			if (expect_wc(p, i, IB_WC_SUCCESS, &wc, why, sizeof(why)))
				goto out;
			v = le32_to_cpu(*(__le32 *)(p->buf + p->ctl_off + i * 8));
			if (wc.byte_len != 4 || v != i) {
				snprintf(why, sizeof(why), "SEND %u carried %u, %u bytes",
					 i, v, wc.byte_len);
				goto out;
			}
			/* Every WRITE posted before this SEND is placed. */
			bad = check_pattern(p, (i - 1) * 64, 64, p->step + i - 1);
			if (bad >= 0) {
				snprintf(why, sizeof(why),
					 "WRITE %u not placed before SEND %u (byte %ld)",
					 i - 1, i, bad);
				goto out;
			}
		}
		ok = true;
	} else {
		for (i = 0; i < PROBE_BATCH; i += 2)
			fill_pattern(p, i * 64, 64, p->step + i);
		for (i = 1; i < PROBE_BATCH; i += 2)
			*(__le32 *)(p->buf + p->ctl_off + i * 8) = cpu_to_le32(i);
		err = ctl_recv(p, &v);
		for (i = 0; i < PROBE_BATCH && !err; i++) {
			if (i & 1)
				err = post_send(p, qp, i, IB_WR_SEND,
						p->ctl_off + i * 8, 4, 0, 0, 0,
						true);
			else
				err = post_send(p, qp, i, IB_WR_RDMA_WRITE,
						i * 64, 64, i * 64, p->rkey, 0,
						false);
		}
		if (err)
			goto out;
		for (i = 1; i < PROBE_BATCH; i += 2)
			if (expect_wc(p, i, IB_WC_SUCCESS, &wc, why, sizeof(why)))
				goto out;
		/* Once: nothing more may come. */
		msleep(100);
		n = ib_poll_cq(p->cq, 1, &wc);
		if (n) {
			snprintf(why, sizeof(why), "extra completion wr %llu %s",
				 wc.wr_id, ib_wc_status_msg(wc.status));
			goto out;
		}
		ok = true;
	}
out:
	if (ok)
		snprintf(why, sizeof(why), "%u WRs, %u signalled, in order",
			 PROBE_BATCH, PROBE_BATCH / 2);
	return step_end(p, "order", err, ok, why);
}

/* --- Big messages: one SEND, one WRITE, one READ ---------------------- */

static u64 big_word(size_t i, unsigned int step)
{
	return (i * 0x9e3779b97f4a7c15ULL) ^ ((u64)step << 56) ^ i;
}

static void big_fill(u64 *buf, size_t n, unsigned int step)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = big_word(i, step);
}

/* Every word of step @step's pattern, or @why says which is not. */
static bool big_check(const u64 *buf, size_t n, unsigned int step, char *why,
		      size_t whylen)
{
	size_t i;

	for (i = 0; i < n && buf[i] == big_word(i, step); i++)
		;
	if (i == n)
		snprintf(why, whylen, "%zu bytes, every word right",
			 n * sizeof(u64));
	else
		snprintf(why, whylen, "word at byte %zu wrong", i * sizeof(u64));
	return i == n;
}

/* The big steps' buffer, and the server's as the client reaches it. */
struct probe_big {
	u64 *buf;
	size_t len;
	size_t n;		/* 64-bit words */
	u32 bound_ms;
	u64 raddr;
	u32 rkey;		/* the server PD's unsafe_global_rkey */
};

/* Client: posts one WR over the whole buffer and waits for it. */
static bool big_post(struct probe *p, struct probe_big *b, enum ib_wr_opcode op,
		     char *why, size_t whylen)
{
	struct ib_sge sge = sge_at(p, (uintptr_t)b->buf, b->len);
	struct ib_rdma_wr wr = {
		.wr = send_wr(p->step, &sge, op, IB_SEND_SIGNALED),
		.remote_addr = b->raddr,
		.rkey = b->rkey,
	};
	struct ib_wc wc;
	ktime_t t0 = ktime_get();
	int err;

	err = ib_post_send(p->qp[0].qp, &wr.wr, NULL);
	if (err) {
		snprintf(why, whylen, "post: %d", err);
		return false;
	}
	if (expect_wc_for(p, p->step, IB_WC_SUCCESS, &wc, why, whylen,
			  b->bound_ms))
		return false;
	snprintf(why, whylen, "one message of %zu bytes in %lld ms", b->len,
		 ktime_ms_delta(ktime_get(), t0));
	return true;
}

/*
 * send-<N>M: the server posts one receive over its whole buffer, the
 * client sends its own.
 */
static int big_send(struct probe *p, struct probe_big *b, bool *ok, char *why,
		    size_t whylen)
{
	int err;

	if (p->server) {
		struct ib_sge sge = sge_at(p, (uintptr_t)b->buf, b->len);
		struct ib_recv_wr wr = {
			.wr_id = p->step, .sg_list = &sge, .num_sge = 1,
		};
		struct ib_wc wc;

		memset(b->buf, 0, b->len);
		err = ib_post_recv(p->qp[0].qp, &wr, NULL);
		if (!err)
			err = ctl_send(p, 0);
		if (err)
			return err;
		if (!expect_wc_for(p, p->step, IB_WC_SUCCESS, &wc, why,
				   whylen, b->bound_ms)) {
			if (wc.byte_len != b->len)
				snprintf(why, whylen, "byte_len %u of %zu",
					 wc.byte_len, b->len);
			else
				*ok = big_check(b->buf, b->n, p->step, why,
						whylen);
		}
	} else {
		big_fill(b->buf, b->n, p->step);
		err = ctl_await(p);
		if (err)
			return err;
		*ok = big_post(p, b, IB_WR_SEND, why, whylen);
	}
	return 0;
}

/*
 * write-<N>M: the client writes its buffer over the server's, through the
 * server PD's unsafe global rkey (the core's DMA MR), and says whether it
 * completed; the server checks every word.
 */
static int big_write(struct probe *p, struct probe_big *b, bool *ok,
		     char *why, size_t whylen)
{
	u32 v[3];
	int err;

	if (p->server) {
		memset(b->buf, 0, b->len);
		err = ctl_send(p, lower_32_bits((uintptr_t)b->buf));
		if (!err)
			err = ctl_send(p, upper_32_bits((uintptr_t)b->buf));
		if (!err)
			err = ctl_send(p, p->pd->unsafe_global_rkey);
		if (!err)
			err = ctl_recv(p, &v[0]);
		if (err)
			return err;
		if (v[0])
			*ok = big_check(b->buf, b->n, p->step, why, whylen);
		else
			snprintf(why, whylen, "the client's WRITE failed");
	} else {
		big_fill(b->buf, b->n, p->step);
		err = ctl_recv(p, &v[0]);
		if (!err)
			err = ctl_recv(p, &v[1]);
		if (!err)
			err = ctl_recv(p, &v[2]);
		if (err)
			return err;
		b->raddr = (u64)v[1] << 32 | v[0];
		b->rkey = v[2];
		*ok = big_post(p, b, IB_WR_RDMA_WRITE, why, whylen);
		err = ctl_send(p, *ok);
	}
	return err;
}

/* read-<N>M: the server fills its buffer, the client reads and checks it. */
static int big_read(struct probe *p, struct probe_big *b, bool *ok, char *why,
		    size_t whylen)
{
	int err;

	if (p->server) {
		big_fill(b->buf, b->n, p->step);
		err = ctl_send(p, 0);
		if (err)
			return err;
		*ok = true;
		snprintf(why, whylen, "served");
	} else {
		memset(b->buf, 0, b->len);
		err = ctl_await(p);
		if (err)
			return err;
		*ok = big_post(p, b, IB_WR_RDMA_READ, why, whylen) &&
		      big_check(b->buf, b->n, p->step, why, whylen);
	}
	return 0;
}

/*
 * The big buffer goes; after a failure a WR on it may still be posted or
 * in flight: the QP goes to ERR first, which flushes it (the run has
 * failed).
 */
static void big_release(struct ib_qp *qp, void *buf, bool ok)
{
	struct ib_qp_attr a = { .qp_state = IB_QPS_ERR };

	if (buf && !ok)
		ib_modify_qp(qp, &a, IB_QP_STATE);
	vfree(buf);
}

/*
 * big_mb set: one SEND, one RDMA WRITE and one RDMA READ of big_mb MiB,
 * each a single WR over one SGE of vmalloc memory. Both sides allocate
 * first and say whether they could; each step runs only after the
 * previous one passed on both sides.
 */
static int step_big(struct probe *p)
{
	static int (*const steps[])(struct probe *, struct probe_big *,
				    bool *, char *, size_t) = {
		big_send, big_write, big_read,
	};
	static const char *const names[] = { "send", "write", "read" };
	/* The debug kernel under TCG moves a few MB/s: allow 1 MB/s. */
	struct probe_big b = {
		.len = (size_t)big_mb << 20,
		.bound_ms = timeout_ms + big_mb * 1000,
	};
	unsigned int failed = p->failed, i;
	char name[32], why[128] = "";
	u32 mine, theirs = 0;
	bool ok;
	int err;

	b.n = b.len / sizeof(u64);
	p->step++;
	snprintf(name, sizeof(name), "big-%uM", big_mb);
	if (!ib_uses_virt_dma(p->ibdev))
		snprintf(why, sizeof(why), "%s addresses memory by DMA address",
			 dev);
	else if (big_mb > PROBE_BIG_MAX_MB)
		snprintf(why, sizeof(why), "big_mb above %u",
			 PROBE_BIG_MAX_MB);
	else if (!p->pd->unsafe_global_rkey)
		snprintf(why, sizeof(why), "no global rkey");
	else
		b.buf = vmalloc(b.len);
	mine = !!b.buf;
	if (!b.buf && !why[0])
		snprintf(why, sizeof(why), "no %zu bytes of vmalloc memory",
			 b.len);
	err = ctl_swap(p, mine, &theirs);
	if (err || !mine || !theirs) {
		if (!err)
			report(p, name, false, "%s", mine ?
			       "the peer could not take part" : why);
		else
			report(p, name, false, "peer lost: %d", err);
		vfree(b.buf);
		return err;
	}
	/* Each side may wait on the socket while the other moves it all. */
	sock_timeouts_ms(p->sock, b.bound_ms);
	for (i = 0, err = 0; i < ARRAY_SIZE(steps) && !err &&
	     p->failed == failed; i++) {
		p->step++;
		snprintf(name, sizeof(name), "%s-%uM", names[i], big_mb);
		ok = false;
		why[0] = '\0';
		err = steps[i](p, &b, &ok, why, sizeof(why));
		if (!err)
			err = finish(p, name, ok, why);
	}
	sock_timeouts(p->sock);
	if (err && p->failed == failed)
		report(p, name, false, "peer lost: %d", err);
	big_release(p->qp[0].qp, b.buf, !err && p->failed == failed);
	return err;
}

/* --- Small WRITEs posted as one list (packed by ib_superp) ------------ */

#define PROBE_PACK_STRIDE	320	/* WRITE i goes to i * stride */

static const u32 probe_pack_lens[] = {
	1, 7, 15, 16, 17, 63, 64, 100, 200, 255, 256, 0,
};

/*
 * Posts WRITEs of @lens as one list on @qp (wr_id i + 1, all signalled):
 * ours at i * @stride to the server's at i * @stride; WRITE @bad_i (if
 * below @n) with a wrong rkey.
 */
static int post_write_list(struct probe *p, struct ib_qp *qp, const u32 *lens,
			   unsigned int n, size_t stride, unsigned int bad_i)
{
	struct ib_rdma_wr *wr;
	struct ib_sge *sge;
	unsigned int i;
	int err;

	if (!n || n > PROBE_SQ)
		return -EINVAL;
	wr = kcalloc(n, sizeof(*wr), GFP_KERNEL);
	sge = kcalloc(n, sizeof(*sge), GFP_KERNEL);
	if (!wr || !sge) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		sge[i].addr = p->dma + i * stride;
		sge[i].length = lens[i];
		sge[i].lkey = p->pd->local_dma_lkey;
		wr[i].wr.wr_id = i + 1;
		wr[i].wr.sg_list = &sge[i];
		wr[i].wr.num_sge = 1;
		wr[i].wr.opcode = IB_WR_RDMA_WRITE;
		wr[i].wr.send_flags = IB_SEND_SIGNALED;
		wr[i].wr.next = i + 1 < n ? &wr[i + 1].wr : NULL;
		wr[i].remote_addr = p->raddr + i * stride;
		wr[i].rkey = i == bad_i ? p->rkey ^ 0x80 : p->rkey;
	}
	err = ib_post_send(qp, &wr[0].wr, NULL);
out:
	kfree(sge);
	kfree(wr);
	return err;
}

/*
 * Server: WRITE i of @lens (step @step's pattern) in place at i * @stride
 * for i < @placed, and every other byte of the buffer zero.
 */
static bool check_write_list(struct probe *p, const u32 *lens,
			     unsigned int placed, size_t stride, char *why,
			     size_t whylen)
{
	size_t off = 0, at;
	unsigned int i;
	long bad;

	for (i = 0; i < placed; i++) {
		at = i * stride;
		bad = check_zero(p, off, at - off);
		if (bad >= 0) {
			snprintf(why, whylen, "byte %zu written", off + bad);
			return false;
		}
		bad = check_pattern(p, at, lens[i], p->step + i);
		if (bad >= 0) {
			snprintf(why, whylen, "WRITE %u of %u bytes: byte %ld wrong",
				 i + 1, lens[i], bad);
			return false;
		}
		off = at + lens[i];
	}
	bad = check_zero(p, off, p->buflen - off);
	if (bad >= 0)
		snprintf(why, whylen, "byte %zu written", off + bad);
	return bad < 0;
}

static void fill_write_list(struct probe *p, const u32 *lens, unsigned int n,
			    size_t stride)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fill_pattern(p, i * stride, lens[i], p->step + i);
}

/*
 * Server of a step whose WRITEs the client checks: a zeroed buffer, go,
 * and once the client's WRs completed, WRITE i of @lens in place at i *
 * @stride for i < @placed and nothing else written; then @what, if
 * given, is the line.
 */
static int server_placed(struct probe *p, const u32 *lens,
			 unsigned int placed, size_t stride, const char *what,
			 bool *ok, char *why, size_t whylen)
{
	int err;

	memset(p->buf, 0, p->buflen);
	err = ctl_go_wait(p);
	if (err)
		return err;
	*ok = check_write_list(p, lens, placed, stride, why, whylen);
	if (*ok && what)
		snprintf(why, whylen, "%s", what);
	return 0;
}

/*
 * Step @name: the client posts WRITEs of @lens (@n of them, @stride
 * apart) as one list on QP 0; each completes, in order, and the server
 * finds each in place and nothing between them. @what: their sizes, for
 * the line.
 */
static int write_list_step(struct probe *p, const char *name, const u32 *lens,
			   unsigned int n, size_t stride, const char *what)
{
	struct ib_qp *qp = p->qp[0].qp;
	char why[128] = "";
	bool ok = false;
	int err;

	p->step++;
	if (p->server) {
		err = server_placed(p, lens, n, stride, NULL, &ok, why,
				    sizeof(why));
		goto out;
	}
	fill_write_list(p, lens, n, stride);
	err = ctl_await(p);
	if (!err)
		err = post_write_list(p, qp, lens, n, stride, n);
	if (err)
		goto out;
	ok = expect_wc_range(p, 1, n, IB_WC_SUCCESS, why, sizeof(why));
	err = ctl_send(p, 0);
out:
	if (ok)
		snprintf(why, sizeof(why), "%u WRITEs of %s, in order, placed",
			 n, what);
	return step_end(p, name, err, ok, why);
}

static int step_packed_write(struct probe *p)
{
	return write_list_step(p, "packed-write", probe_pack_lens,
			       ARRAY_SIZE(probe_pack_lens), PROBE_PACK_STRIDE,
			       "0..256 bytes");
}

/*
 * burst: `burst` WRITEs of size / burst bytes each, posted as one list:
 * more packets at once than a short device queue holds (rc.sh gives the
 * client one).
 */
static int step_burst(struct probe *p)
{
	char name[32], sz[16], what[32];
	u32 len = size / burst, *lens;
	unsigned int i;
	int err;

	size_name(len, sz, sizeof(sz));
	snprintf(name, sizeof(name), "burst-%ux%s", burst, sz);
	snprintf(what, sizeof(what), "%u bytes", len);
	lens = kmalloc_array(burst, sizeof(*lens), GFP_KERNEL);
	if (!lens) {
		report(p, name, false, "%d", -ENOMEM);
		return -ENOMEM;
	}
	for (i = 0; i < burst; i++)
		lens[i] = len;
	err = write_list_step(p, name, lens, burst, len, what);
	kfree(lens);
	return err;
}

/*
 * WRITEs of @len for tput_ms: a figure. At most PROBE_TPUT_BYTES in
 * flight (and PROBE_SQ / 2 WRs), so that draining the queue at the end
 * stays short when the link is slow or lossy.
 */
static int step_tput(struct probe *p, u32 len)
{
	struct ib_qp *qp = p->qp[0].qp;
	char name[32], sz[16], why[128] = "";
	unsigned int depth = clamp_t(u32, PROBE_TPUT_BYTES / len, 1, PROBE_SQ / 2);
	unsigned int inflight = 0;
	u64 done = 0, us;
	struct ib_wc wc = {};
	ktime_t t0, end;
	bool ok = true;
	int err = 0;

	p->step++;
	snprintf(name, sizeof(name), "tput-%s", size_name(len, sz, sizeof(sz)));
	if (p->server)
		return finish(p, name, true, "(client measures)");
	fill_pattern(p, 0, len, p->step);
	t0 = ktime_get();
	end = ktime_add_ms(t0, tput_ms);
	while (!err && (inflight || ktime_before(ktime_get(), end))) {
		while (inflight < depth && ktime_before(ktime_get(), end)) {
			err = post_send(p, qp, p->step, IB_WR_RDMA_WRITE, 0,
					len, PROBE_OFF, p->rkey, 0, true);
			if (err)
				break;
			inflight++;
		}
		if (err || !inflight)
			break;
		err = poll_one(p, &wc);
		if (!err && wc.status != IB_WC_SUCCESS)
			err = -EIO;
		if (!err) {
			inflight--;
			done++;
		} else {
			snprintf(why, sizeof(why), "%d (%s) after %llu; ", err,
				 ib_wc_status_msg(wc.status), done);
		}
	}
	ok = !err;
	us = max_t(u64, ktime_us_delta(ktime_get(), t0), 1);
	snprintf(why + strlen(why), sizeof(why) - strlen(why),
		 "%llu.%03llu MB/s %llu msg/s (%llu WRITEs in %llu ms, %u in flight)",
		 div64_u64(done * len, us), div64_u64(done * len * 1000, us) % 1000,
		 div64_u64(done * USEC_PER_SEC, us), done,
		 div64_u64(us, USEC_PER_MSEC), depth);
	/* Tell the server we are done; it never fails this step. */
	err = ctl_await(p);
	if (!err)
		err = ctl_send(p, ok);
	report(p, name, ok && !err, "%s", why);
	/* WRs of a failed run may still be queued: stop here. */
	return err ?: (ok ? 0 : -EIO);
}

/* --- QPs sharing a connection take turns ------------------------------ */

/* The least and the most advanced QP by @done; their difference. */
static u32 fair_spread_of(const u32 *done, unsigned int n, unsigned int *lo,
			  unsigned int *hi)
{
	unsigned int i;

	*lo = 0;
	*hi = 0;
	for (i = 1; i < n; i++) {
		if (done[i] < done[*lo])
			*lo = i;
		if (done[i] > done[*hi])
			*hi = i;
	}
	return done[*hi] - done[*lo];
}

/*
 * Client: WRITEs on QPs 0 .. @n - 1, posted a round at a time (one on
 * each QP, then the next), then one more on a QP whenever one of its
 * completes, so that every QP has PROBE_FAIR_DEPTH outstanding until the
 * last are posted: how far apart the QPs' completions get is the
 * device's doing. *@worst is the largest spread seen while streaming,
 * *@at the completion that saw it, @lo_done and @hi_done the two QPs'
 * counts.
 */
static int fair_stream(struct probe *p, unsigned int n, u32 *done, u32 *worst,
		       u32 *at, u32 *lo_done, u32 *hi_done, unsigned int *lo_qp,
		       unsigned int *hi_qp, char *why, size_t whylen)
{
	u32 total = n * PROBE_FAIR_WRS, posted = 0, completed = 0, spread;
	unsigned int i, k, lo, hi;
	struct ib_wc wc;
	int err;

	for (k = 0; k < PROBE_FAIR_DEPTH; k++) {
		for (i = 0; i < n; i++) {
			err = post_send(p, p->qp[i].qp, i, IB_WR_RDMA_WRITE, 0,
					PROBE_FAIR_LEN, PROBE_OFF, p->rkey, 0,
					true);
			if (err) {
				snprintf(why, whylen, "post on QP %u: %d", i,
					 err);
				return err;
			}
			posted++;
		}
	}
	while (completed < posted) {
		err = poll_one(p, &wc);
		if (!err && (wc.status != IB_WC_SUCCESS || wc.wr_id >= n))
			err = -EIO;
		if (err) {
			snprintf(why, whylen,
				 "%d (wr %llu %s) after %u completions (spread up to %u)",
				 err, wc.wr_id, ib_wc_status_msg(wc.status),
				 completed, *worst);
			return err;
		}
		i = wc.wr_id;
		done[i]++;
		completed++;
		if (posted == total)
			continue;	/* draining: QPs run out of work */
		spread = fair_spread_of(done, n, &lo, &hi);
		if (spread > *worst) {
			*worst = spread;
			*at = completed;
			*lo_qp = lo;
			*hi_qp = hi;
			*lo_done = done[lo];
			*hi_done = done[hi];
		}
		err = post_send(p, p->qp[i].qp, i, IB_WR_RDMA_WRITE, 0,
				PROBE_FAIR_LEN, PROBE_OFF, p->rkey, 0, true);
		if (err) {
			snprintf(why, whylen, "post on QP %u: %d", i, err);
			return err;
		}
		posted++;
	}
	return 0;
}

static int step_fair(struct probe *p)
{
	unsigned int n = qps - fair_idle;
	u32 worst = 0, at = 0, lo_done = 0, hi_done = 0;
	unsigned int lo_qp = 0, hi_qp = 0;
	char why[192] = "";
	ktime_t t0;
	bool ok;
	u32 *done, v;
	int err;

	p->step++;
	/*
	 * The only step of the run: the client streams once the server's
	 * QPs are at RTR and its MR is registered (its setup, finished when
	 * it says so), not as soon as its own setup is done.
	 */
	if (p->server)
		return step_end(p, "fair-share", ctl_send(p, 0), true,
				"(client measures)");
	err = ctl_recv(p, &v);
	if (err) {
		report(p, "fair-share", false, "%d", err);
		return err;
	}
	done = kcalloc(n, sizeof(*done), GFP_KERNEL);
	if (!done)
		return -ENOMEM;
	fill_pattern(p, 0, PROBE_FAIR_LEN, p->step);
	t0 = ktime_get();
	err = fair_stream(p, n, done, &worst, &at, &lo_done, &hi_done, &lo_qp,
			  &hi_qp, why, sizeof(why));
	ok = !err && worst <= fair_spread;
	if (!err)
		snprintf(why, sizeof(why),
			 "%u QPs x %u WRITEs of %u B, %u deep, %u QPs idle: completed WRs %u apart at most while streaming (bound %u; QP %u at %u, QP %u at %u, completion %u), %lld ms",
			 n, PROBE_FAIR_WRS, PROBE_FAIR_LEN, PROBE_FAIR_DEPTH,
			 fair_idle, worst, fair_spread, lo_qp, lo_done, hi_qp, hi_done,
			 at, ktime_ms_delta(ktime_get(), t0));
	kfree(done);
	err = finish(p, "fair-share", ok, why);
	/* WRs of a failed run may still be queued: stop here. */
	return err ?: (ok ? 0 : -EIO);
}

/* Polls @n completions, any order: each of @ids once, with @status. */
static int expect_wcs(struct probe *p, const u64 *ids, unsigned int n,
		      enum ib_wc_status status, char *why, size_t whylen)
{
	unsigned long seen = 0;
	struct ib_wc wc;
	unsigned int i, k;
	int err;

	for (k = 0; k < n; k++) {
		err = poll_one(p, &wc);
		if (err) {
			snprintf(why, whylen, "%u of %u completions: %d", k, n,
				 err);
			return err;
		}
		for (i = 0; i < n; i++)
			if (wc.wr_id == ids[i] && !(seen & BIT(i)))
				break;
		if (i == n || wc.status != status) {
			snprintf(why, whylen, "wr %llu status %s unexpected",
				 wc.wr_id, ib_wc_status_msg(wc.status));
			return -EIO;
		}
		seen |= BIT(i);
	}
	return 0;
}

/*
 * The next completion is receive @wr_id on @qp, of @len bytes at @off
 * whose data is @step's.
 */
static bool recv_ok(struct probe *p, u64 wr_id, struct ib_qp *qp, size_t off,
		    u32 len, unsigned int step, char *why, size_t whylen)
{
	struct ib_wc wc;

	if (expect_wc(p, wr_id, IB_WC_SUCCESS, &wc, why, whylen))
		return false;
	if (wc.opcode != IB_WC_RECV || wc.byte_len != len || wc.qp != qp) {
		snprintf(why, whylen, "opcode %d byte_len %u on QP %u",
			 wc.opcode, wc.byte_len, wc.qp->qp_num);
		return false;
	}
	return verify(p, off, len, step, why, whylen);
}

/*
 * Client of rnr-send and rnr-other-qp, once the server says go: SEND
 * @ids[0] of @la bytes at 0 on @qa, then SEND @ids[1] of @lb bytes at
 * @offb on @qb (the step's pattern and the next step's).
 */
static int rnr_sends(struct probe *p, struct ib_qp *qa, struct ib_qp *qb,
		     const u64 *ids, u32 la, size_t offb, u32 lb)
{
	int err;

	fill_pattern(p, 0, la, p->step);
	fill_pattern(p, offb, lb, p->step + 1);
	err = ctl_await(p);
	if (!err)
		err = post_send(p, qa, ids[0], IB_WR_SEND, 0, la, 0, 0, 0,
				true);
	if (!err)
		err = post_send(p, qb, ids[1], IB_WR_SEND, offb, lb, 0, 0, 0,
				true);
	return err;
}

/*
 * Two SENDs (the first of several transactions when size allows) reach
 * the server before it posts their receives: RNR, retried until they fit.
 */
static int step_rnr_send(struct probe *p)
{
	struct ib_qp *qp = p->qp[0].qp;
	u32 la = min_t(u32, size / 2, SZ_64K), lb = 100;
	size_t offb = size / 2 + SZ_4K;
	u64 ids[2] = { p->step + 1, (p->step + 1) | BIT_ULL(32) };
	char why[128] = "";
	struct ib_wc wc;
	bool ok = false;
	int err;

	p->step++;
	if (p->server) {
		memset(p->buf, 0, p->buflen);
		err = ctl_go_wait(p);	/* both SENDs posted */
		if (!err) {
			msleep(PROBE_RNR_DELAY_MS);
			err = post_recv(p, qp, ids[0], 0, la);
		}
		if (!err)
			err = post_recv(p, qp, ids[1], offb, lb);
		if (!err &&
		    recv_ok(p, ids[0], qp, 0, la, p->step, why, sizeof(why)) &&
		    recv_ok(p, ids[1], qp, offb, lb, p->step + 1, why,
			    sizeof(why))) {
			snprintf(why, sizeof(why), "%u and %u bytes after %u ms",
				 la, lb, PROBE_RNR_DELAY_MS);
			ok = true;
		}
	} else {
		err = rnr_sends(p, qp, qp, ids, la, offb, lb);
		if (!err)
			err = ctl_send(p, 0);
		if (!err)
			ok = !expect_wc(p, ids[0], IB_WC_SUCCESS, &wc, why,
					sizeof(why)) &&
			     !expect_wc(p, ids[1], IB_WC_SUCCESS, &wc, why,
					sizeof(why));
	}
	return step_end(p, "rnr-send", err, ok, why);
}

/* QP 0 waits on RNR; QP 1, on the same connection, moves data meanwhile. */
static int step_rnr_other_qp(struct probe *p)
{
	struct ib_qp *qa = p->qp[0].qp, *qb = p->qp[1].qp;
	size_t offb = size / 2;
	u64 ids[2] = { p->step + 1, (p->step + 1) | BIT_ULL(32) };
	char why[128] = "";
	bool ok = false;
	int err;

	p->step++;
	if (p->server) {
		err = recv_ready(p, qb, ids[1], offb, SZ_4K);
		if (err || !recv_ok(p, ids[1], qb, offb, SZ_4K, p->step + 1,
				    why, sizeof(why)))
			goto out;
		msleep(PROBE_RNR_DELAY_MS / 2);	/* QP 0 still refused */
		err = post_recv(p, qa, ids[0], 0, SZ_4K);
		if (!err &&
		    recv_ok(p, ids[0], qa, 0, SZ_4K, p->step, why, sizeof(why))) {
			snprintf(why, sizeof(why), "QP 1 received while QP 0 waited");
			ok = true;
		}
	} else {
		err = rnr_sends(p, qa, qb, ids, SZ_4K, offb, SZ_4K);
		if (!err)
			ok = !expect_wcs(p, ids, 2, IB_WC_SUCCESS, why,
					 sizeof(why));
	}
out:
	return step_end(p, "rnr-other-qp", err, ok, why);
}

/* The QPs of @q[0] to @q[@n - 1] that are still there go. */
static void destroy_qps(struct probe_qp *q, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (q[i].qp)
			ib_destroy_qp(q[i].qp);
		q[i].qp = NULL;
	}
}

/*
 * A QP pair of its own, connected, for a step that may leave it in ERR:
 * the server tells its QPN and PSN first, then the client.
 */
static int scratch_open(struct probe *p, struct probe_qp *q)
{
	int err = 0;

	q->qp = create_qp(p);
	if (IS_ERR(q->qp)) {
		err = PTR_ERR(q->qp);
		q->qp = NULL;
		return err;
	}
	q->psn = get_random_u32() & 0xffffff;
	if (p->server) {
		err = ctl_send(p, q->qp->qp_num);
		if (!err)
			err = ctl_send(p, q->psn);
	}
	if (!err)
		err = ctl_recv(p, &q->rqpn);
	if (!err)
		err = ctl_recv(p, &q->rpsn);
	if (!err && !p->server) {
		err = ctl_send(p, q->qp->qp_num);
		if (!err)
			err = ctl_send(p, q->psn);
	}
	return err ?: connect_qp(p, q);
}

/*
 * Step @name on the scratch pair @q (its retry settings given): once the
 * pair is connected, @server or @client runs (0 with its verdict, or an
 * error: the peer lost), the client then tells the server it is done,
 * and the pair goes before the verdicts are exchanged.
 */
static int scratch_step(struct probe *p, const char *name, struct probe_qp *q,
			int (*server)(struct probe *p, struct probe_qp *q,
				      bool *ok, char *why, size_t whylen),
			int (*client)(struct probe *p, struct probe_qp *q,
				      bool *ok, char *why, size_t whylen))
{
	char why[128] = "";
	bool ok = false;
	int err;

	p->step++;
	err = scratch_open(p, q);
	if (!err && p->server)
		err = server(p, q, &ok, why, sizeof(why));
	else if (!err)
		err = client(p, q, &ok, why, sizeof(why));
	if (!err && !p->server)
		err = ctl_send(p, 0);
	destroy_qps(q, 1);
	return step_end(p, name, err, ok, why);
}

/*
 * The server of rnr-retry-0 and rnr-destroy: posts no receive, says go,
 * and once the client is done, no completion may have come.
 */
static int rnr_server_idle(struct probe *p, struct probe_qp *q, bool *ok,
			   char *why, size_t whylen)
{
	struct ib_wc wc;
	int err;

	err = ctl_go_wait(p);
	if (err)
		return err;
	*ok = !ib_poll_cq(p->cq, 1, &wc);
	snprintf(why, whylen, *ok ? "no receive completion" :
		 "completion wr %llu status %s", wc.wr_id,
		 ib_wc_status_msg(wc.status));
	return 0;
}

/* The client of rnr-retry-0 and rnr-destroy: a SEND (WR 1) of 4 KiB. */
static int rnr_client_send(struct probe *p, struct probe_qp *q)
{
	int err;

	fill_pattern(p, 0, SZ_4K, p->step);
	err = ctl_await(p);
	if (!err)
		err = post_send(p, q->qp, 1, IB_WR_SEND, 0, SZ_4K, 0, 0, 0,
				true);
	return err;
}

static int rnr_retry0_client(struct probe *p, struct probe_qp *q, bool *ok,
			     char *why, size_t whylen)
{
	struct ib_wc wc;
	int err;

	err = rnr_client_send(p, q);
	if (!err)
		err = post_send(p, q->qp, 2, IB_WR_SEND, 0, 4, 0, 0, 0, true);
	if (err)
		return err;
	if (!expect_wc(p, 1, IB_WC_RNR_RETRY_EXC_ERR, &wc, why, whylen) &&
	    flushed_in_err(p, q->qp, 2, 2, why, whylen)) {
		*ok = true;
		snprintf(why, whylen, "RNR_RETRY_EXC_ERR, 1 flushed, QP in ERR");
	}
	return 0;
}

/* rnr_retry 0, no receive ever: the SEND fails RNR, the QP breaks. */
static int step_rnr_retry0(struct probe *p)
{
	struct probe_qp q = { .rnr_once = true };

	return scratch_step(p, "rnr-retry-0", &q, rnr_server_idle,
			    rnr_retry0_client);
}

static int rnr_destroy_client(struct probe *p, struct probe_qp *q, bool *ok,
			      char *why, size_t whylen)
{
	struct ib_wc wc;
	ktime_t t0;
	s64 ms;
	int err;

	err = rnr_client_send(p, q);
	if (err)
		return err;
	msleep(PROBE_RNR_DELAY_MS / 4);
	t0 = ktime_get();
	ib_destroy_qp(q->qp);
	q->qp = NULL;
	ms = ktime_ms_delta(ktime_get(), t0);
	/* A flush completion of the destroyed QP's WR may come: not ours. */
	while (ib_poll_cq(p->cq, 1, &wc) > 0)
		;
	*ok = ms < 1000;
	snprintf(why, whylen, "destroy took %lld ms", ms);
	return 0;
}

/* Destroying a QP whose SEND waits on RNR does not wait for the peer. */
static int step_rnr_destroy(struct probe *p)
{
	struct probe_qp q = {};

	return scratch_step(p, "rnr-destroy", &q, rnr_server_idle,
			    rnr_destroy_client);
}

static int qp_gone_server(struct probe *p, struct probe_qp *q, bool *ok,
			  char *why, size_t whylen)
{
	int err;

	ib_destroy_qp(q->qp);
	q->qp = NULL;
	err = ctl_go_wait(p);
	if (err)
		return err;
	*ok = true;
	snprintf(why, whylen, "QP destroyed before the WRITE");
	return 0;
}

static int qp_gone_client(struct probe *p, struct probe_qp *q, bool *ok,
			  char *why, size_t whylen)
{
	s64 budget_ms = div_u64((4096ULL << PROBE_QP_TIMEOUT) *
				(PROBE_FEW_RETRIES + 1), NSEC_PER_MSEC);
	struct ib_wc wc;
	ktime_t t0;
	s64 ms;
	int err;

	err = ctl_await(p);
	t0 = ktime_get();
	if (!err)
		err = post_send(p, q->qp, 1, IB_WR_RDMA_WRITE, 0, SZ_4K, 0,
				p->rkey, 0, true);
	if (!err)
		err = post_send(p, q->qp, 2, IB_WR_RDMA_WRITE, 0, SZ_4K, 0,
				p->rkey, 0, true);
	if (err)
		return err;
	if (expect_wc(p, 1, IB_WC_RETRY_EXC_ERR, &wc, why, whylen))
		return 0;
	ms = ktime_ms_delta(ktime_get(), t0);
	if (!flushed_in_err(p, q->qp, 2, 2, why, whylen))
		return 0;
	*ok = ms >= budget_ms - budget_ms / 10;
	snprintf(why, whylen,
		 "RETRY_EXC_ERR after %lld ms (retry budget %lld ms), 1 flushed, QP in ERR",
		 ms, budget_ms);
	return 0;
}

/*
 * A request toward a destroyed QP is never answered on IB: the requester
 * retransmits retry_cnt times, one local ACK timeout (4.096 us <<
 * timeout) apart, then gives up. The WRITE may not fail sooner.
 */
static int step_qp_gone(struct probe *p)
{
	struct probe_qp q = { .retry_few = true };

	return scratch_step(p, "qp-gone", &q, qp_gone_server, qp_gone_client);
}

static int bad_rkey_server(struct probe *p, struct probe_qp *q, bool *ok,
			   char *why, size_t whylen)
{
	return server_placed(p, NULL, 0, 0, "buffer untouched", ok, why,
			     whylen);
}

static int bad_rkey_client(struct probe *p, struct probe_qp *q, bool *ok,
			   char *why, size_t whylen)
{
	const char *nak;
	unsigned int i;
	int err;

	fill_pattern(p, 0, 4096, p->step);
	err = ctl_await(p);
	if (!err)
		err = post_send(p, q->qp, 1, IB_WR_RDMA_WRITE, 0, 4096, PROBE_OFF,
				p->rkey ^ 0x80, 0, true);
	for (i = 2; i <= 3 && !err; i++)
		err = post_send(p, q->qp, i, IB_WR_SEND, 0, 4, 0, 0, 0, true);
	if (err)
		return err;
	if (!expect_nak(p, IB_WC_REM_ACCESS_ERR, &nak, why, whylen) &&
	    flushed_in_err(p, q->qp, 2, 3, why, whylen)) {
		*ok = true;
		snprintf(why, whylen, "%s, 2 flushed, QP in ERR", nak);
	}
	return 0;
}

/*
 * WRITE with an rkey the server never gave, then two SENDs behind it, on a
 * scratch pair (retry_cnt PROBE_FEW_RETRIES): IB_WC_REM_ACCESS_ERR, then
 * IB_WC_WR_FLUSH_ERR twice, QP in ERR. The server's buffer stays
 * untouched.
 */
static int step_bad_rkey(struct probe *p)
{
	struct probe_qp q = { .retry_few = true };

	return scratch_step(p, "bad-rkey", &q, bad_rkey_server,
			    bad_rkey_client);
}

/* A SEND_WITH_INV @wr_id of our first @len bytes, invalidating @key. */
static int post_send_inv(struct probe *p, struct ib_qp *qp, u64 wr_id,
			 u32 len, u32 key)
{
	struct ib_sge sge = sge_at(p, p->dma, len);
	struct ib_send_wr wr = send_wr(wr_id, &sge, IB_WR_SEND_WITH_INV,
				       IB_SEND_SIGNALED);

	wr.ex.invalidate_rkey = key;
	return ib_post_send(qp, &wr, NULL);
}

/*
 * The server of send-inv: a second FRWR MR over the buffer, registered on
 * the scratch QP under a key of its own, which it tells the client in
 * place of go. The receive of the SEND_WITH_INV completes with
 * IB_WC_WITH_INVALIDATE and that key; the client's WRITE through the key
 * afterwards places nothing.
 */
static int send_inv_server(struct probe *p, struct probe_qp *q, bool *ok,
			   char *why, size_t whylen)
{
	struct ib_wc wc;
	struct ib_mr *mr;
	long bad;
	int err, n;

	memset(p->buf, 0, p->buflen);
	mr = ib_alloc_mr(p->pd, IB_MR_TYPE_MEM_REG, p->buflen >> PAGE_SHIFT);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	n = ib_map_mr_sg(mr, p->sgt.sgl, p->nents, NULL, PAGE_SIZE);
	err = n == p->nents ? 0 : n < 0 ? n : -EIO;
	if (!err) {
		ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey) & 0xff);
		err = reg_mr(p, q->qp, mr, IB_ACCESS_LOCAL_WRITE |
			     IB_ACCESS_REMOTE_WRITE);
	}
	if (!err)
		err = post_recv(p, q->qp, 1, 0, SZ_4K);
	if (!err)
		err = ctl_send(p, mr->rkey);
	if (err)
		goto out;
	if (expect_wc(p, 1, IB_WC_SUCCESS, &wc, why, whylen)) {
		err = ctl_await(p);
		goto out;
	}
	if (!(wc.wc_flags & IB_WC_WITH_INVALIDATE) ||
	    wc.ex.invalidate_rkey != mr->rkey) {
		snprintf(why, whylen, "flags %#x key %#x, expected %#x invalidated",
			 wc.wc_flags, wc.ex.invalidate_rkey, mr->rkey);
	} else if (wc.opcode != IB_WC_RECV || wc.byte_len != 4 ||
		   !verify(p, 0, 4, p->step, why, whylen)) {
		if (!why[0])
			snprintf(why, whylen, "opcode %d byte_len %u",
				 wc.opcode, wc.byte_len);
	} else {
		*ok = true;
	}
	err = ctl_await(p);	/* the client's WRITE has failed */
	bad = check_zero(p, PROBE_OFF, SZ_4K);
	if (!err && *ok && bad >= 0) {
		*ok = false;
		snprintf(why, whylen, "the WRITE through the invalidated key placed byte %ld",
			 bad);
	} else if (*ok) {
		snprintf(why, whylen, "key %#x invalidated", mr->rkey);
	}
out:
	ib_dereg_mr(mr);
	return err;
}

static int send_inv_client(struct probe *p, struct probe_qp *q, bool *ok,
			   char *why, size_t whylen)
{
	const char *nak;
	struct ib_wc wc;
	u32 key;
	int err;

	fill_pattern(p, 0, SZ_4K, p->step);
	err = ctl_recv(p, &key);
	if (!err)
		err = post_send_inv(p, q->qp, 0, 4, key);
	if (err)
		return err;
	if (expect_wc(p, 0, IB_WC_SUCCESS, &wc, why, whylen))
		return 0;
	err = post_send(p, q->qp, 1, IB_WR_RDMA_WRITE, 0, SZ_4K, PROBE_OFF,
			key, 0, true);
	if (err)
		return err;
	if (!expect_nak(p, IB_WC_REM_ACCESS_ERR, &nak, why, whylen) &&
	    !expect_qp_err(q->qp, why, whylen)) {
		*ok = true;
		snprintf(why, whylen, "then a WRITE through it: %s", nak);
	}
	return 0;
}

/*
 * SEND_WITH_INV of a key the server registered for this step alone, on a
 * scratch pair: the server's receive reports the key invalidated
 * (IB_WC_WITH_INVALIDATE, ex.invalidate_rkey), and a WRITE through the
 * key afterwards is refused (IB_WC_REM_ACCESS_ERR) and places nothing.
 */
static int step_send_inv(struct probe *p)
{
	struct probe_qp q = { .retry_few = true };

	return scratch_step(p, "send-inv", &q, send_inv_server,
			    send_inv_client);
}

static int send_inv_bad_server(struct probe *p, struct probe_qp *q, bool *ok,
			       char *why, size_t whylen)
{
	struct ib_wc wc;
	int err;

	memset(p->buf, 0, p->buflen);
	err = post_recv(p, q->qp, 1, 0, SZ_4K);
	if (!err)
		err = ctl_go_wait(p);
	if (err)
		return err;
	if (!expect_wc(p, 1, IB_WC_REM_INV_REQ_ERR, &wc, why, whylen) &&
	    !expect_qp_err(q->qp, why, whylen)) {
		*ok = true;
		snprintf(why, whylen, "receive %s, QP in ERR",
			 ib_wc_status_msg(wc.status));
	}
	return 0;
}

/*
 * rxe's responder completes the receive in error without a NAK
 * (InfiniBand's class J): its requester's retries go unanswered.
 */
static bool inv_refused_silently(void)
{
	return !strncmp(dev, "rxe", 3);
}

static int send_inv_bad_client(struct probe *p, struct probe_qp *q, bool *ok,
			       char *why, size_t whylen)
{
	const char *seen = ib_wc_status_msg(IB_WC_REM_INV_REQ_ERR);
	struct ib_wc wc;
	unsigned int i;
	int err;

	fill_pattern(p, 0, SZ_4K, p->step);
	err = ctl_await(p);
	/* The main MR's key with another low byte: a stale key of that MR. */
	if (!err)
		err = post_send_inv(p, q->qp, 1, 4, p->rkey ^ 0x80);
	for (i = 2; i <= 3 && !err; i++)
		err = post_send(p, q->qp, i, IB_WR_SEND, 0, 4, 0, 0, 0, true);
	if (err)
		return err;
	if (expect_wc(p, 1, IB_WC_REM_INV_REQ_ERR, &wc, why, whylen)) {
		if (!inv_refused_silently() || wc.wr_id != 1 ||
		    wc.status != IB_WC_RETRY_EXC_ERR)
			return 0;
		seen = "RETRY_EXC_ERR (no NAK)";
	}
	if (flushed_in_err(p, q->qp, 2, 3, why, whylen)) {
		*ok = true;
		snprintf(why, whylen, "%s, 2 flushed, QP in ERR", seen);
	}
	return 0;
}

/*
 * SEND_WITH_INV of a key that names no MR the server's QP may invalidate
 * (a stale key of its main MR), then two SENDs, on a scratch pair: the
 * server's receive completes IB_WC_REM_INV_REQ_ERR and its QP enters
 * ERR; the client's SEND_WITH_INV completes IB_WC_REM_INV_REQ_ERR, the
 * SENDs behind it are flushed. The main MR stays valid: the steps after
 * this one write through it.
 */
static int step_send_inv_bad_key(struct probe *p)
{
	struct probe_qp q = { .retry_few = true };

	return scratch_step(p, "send-inv-bad-key", &q, send_inv_bad_server,
			    send_inv_bad_client);
}

/* packed-bad-rkey's WRITEs, one list; the fourth (index 3) refused. */
static const u32 probe_bad_lens[] = { 32, 32, 32, 32, 32, 32 };

static int packed_bad_rkey_server(struct probe *p, struct probe_qp *q,
				  bool *ok, char *why, size_t whylen)
{
	return server_placed(p, probe_bad_lens, 3, PROBE_PACK_STRIDE,
			     "3 WRITEs placed, nothing else", ok, why, whylen);
}

static int packed_bad_rkey_client(struct probe *p, struct probe_qp *q,
				  bool *ok, char *why, size_t whylen)
{
	struct ib_wc wc;
	const char *nak;
	int err;

	fill_write_list(p, probe_bad_lens, ARRAY_SIZE(probe_bad_lens),
			PROBE_PACK_STRIDE);
	err = ctl_await(p);
	if (!err)
		err = post_write_list(p, q->qp, probe_bad_lens,
				      ARRAY_SIZE(probe_bad_lens),
				      PROBE_PACK_STRIDE, 3);
	if (err)
		return err;
	if (!expect_wc_range(p, 1, 3, IB_WC_SUCCESS, why, whylen))
		return 0;
	/* expect_nak() waits for wr_id 1: ours is 4 */
	if (expect_wc(p, 4, IB_WC_REM_ACCESS_ERR, &wc, why, whylen) &&
	    !(lossy_naks && wc.wr_id == 4 &&
	      wc.status == IB_WC_RETRY_EXC_ERR))
		return 0;
	nak = ib_wc_status_msg(wc.status);
	if (flushed_in_err(p, q->qp, 5, 6, why, whylen)) {
		*ok = true;
		snprintf(why, whylen, "3 succeeded, %s, 2 flushed, QP in ERR",
			 nak);
	}
	return 0;
}

/* Six WRITEs in one list, the fourth refused: three ran, two flushed. */
static int step_packed_bad_rkey(struct probe *p)
{
	struct probe_qp q = { .retry_few = true };

	return scratch_step(p, "packed-bad-rkey", &q, packed_bad_rkey_server,
			    packed_bad_rkey_client);
}

/* --- Atomics ------------------------------------------------------------ */

static u64 *probe_word(struct probe *p, size_t off)
{
	return p->buf + off;
}

/*
 * Server: set the word, say ready, wait for the client's "done", then
 * check the word against @want. Client: the caller ran its WRs.
 */
static bool server_word(struct probe *p, u64 init, u64 want, char *why,
			size_t whylen, int *errp)
{
	size_t w = p->ctl_off + PROBE_AT_WORD;
	u64 got;

	WRITE_ONCE(*probe_word(p, w), init);
	*errp = ctl_go_wait(p);
	if (*errp)
		return false;
	got = READ_ONCE(*probe_word(p, w));
	if (got != want) {
		snprintf(why, whylen, "word %#llx, expected %#llx", got, want);
		return false;
	}
	snprintf(why, whylen, "word %#llx", got);
	return true;
}

/*
 * Step @name on the word at PROBE_AT_WORD of the server's control page,
 * @init before and @want after: the server checks it; the client clears
 * @reslen bytes for the originals, runs @client once the server says go,
 * and says whether it passed.
 */
static int atomic_step(struct probe *p, const char *name, u64 init, u64 want,
		       size_t reslen,
		       bool (*client)(struct probe *p, u64 init, char *why,
				      size_t whylen))
{
	char why[128] = "";
	bool ok = false;
	int err;

	if (p->server) {
		ok = server_word(p, init, want, why, sizeof(why), &err);
	} else {
		memset(p->buf + p->ctl_off + PROBE_AT_RES, 0, reslen);
		err = ctl_await(p);
		if (!err) {
			ok = client(p, init, why, sizeof(why));
			err = ctl_send(p, ok);
		}
	}
	return step_end(p, name, err, ok, why);
}

/*
 * Client of atomic-cas: both CMP_AND_SWPs complete, and return the word
 * as it was.
 */
static bool cas_client(struct probe *p, u64 init, char *why, size_t whylen)
{
	struct ib_qp *qp = p->qp[0].qp;
	size_t w = p->ctl_off + PROBE_AT_WORD, res = p->ctl_off + PROBE_AT_RES;
	struct ib_wc wc;
	u64 got[2];
	int err, i;

	for (i = 0; i < 2; i++) {
		err = post_atomic(p, qp, p->step + i, IB_WR_ATOMIC_CMP_AND_SWP,
				  res + i * 8, w, p->rkey, init,
				  i ? 42 : ~init, true);
		if (err) {
			snprintf(why, whylen, "post CAS %d: %d", i, err);
			return false;
		}
		if (expect_wc(p, p->step + i, IB_WC_SUCCESS, &wc, why, whylen))
			return false;
		if (wc.opcode != IB_WC_COMP_SWAP) {
			snprintf(why, whylen, "opcode %d", wc.opcode);
			return false;
		}
	}
	got[0] = READ_ONCE(*probe_word(p, res));
	got[1] = READ_ONCE(*probe_word(p, res + 8));
	snprintf(why, whylen, "originals %#llx %#llx, expected %#llx %#llx",
		 got[0], got[1], init, ~init);
	return got[0] == init && got[1] == ~init;
}

/*
 * CMP_AND_SWP that matches (the word becomes ~init), then one with the
 * same compare value, which no longer matches: both return the word as
 * it was, and the server's word is ~init.
 */
static int step_atomic_cas(struct probe *p)
{
	u64 init;

	p->step++;
	init = PROBE_AT_INIT ^ p->step;
	return atomic_step(p, "atomic-cas", init, ~init, 16, cas_client);
}

/* Signalled FETCH_AND_ADDs of the atomic-fadd step. */
static bool fadd_signalled(u32 i)
{
	return i % 8 == 7 || i + 1 == atomics;
}

/* The original value FETCH_AND_ADD @i returns: init + 1 + 2 + ... + i. */
static u64 fadd_before(u64 init, u64 i)
{
	return init + i * (i + 1) / 2;
}

/*
 * Client: the next signalled completion of the atomic-fadd step, and the
 * original value it placed. *@reaped: the first WR not known complete.
 */
static bool fadd_reap(struct probe *p, u64 init, u32 *reaped, char *why,
		      size_t whylen)
{
	size_t res = p->ctl_off + PROBE_AT_RES;
	struct ib_wc wc;
	u32 j = *reaped;
	u64 got;

	while (!fadd_signalled(j))
		j++;
	if (expect_wc(p, j, IB_WC_SUCCESS, &wc, why, whylen))
		return false;
	got = READ_ONCE(*probe_word(p, res + (j % 256) * 8));
	if (wc.opcode != IB_WC_FETCH_ADD || got != fadd_before(init, j)) {
		snprintf(why, whylen, "FADD %u: opcode %d original %#llx, expected %#llx",
			 j, wc.opcode, got, fadd_before(init, j));
		return false;
	}
	*reaped = j + 1;
	return true;
}

/*
 * Client of atomic-fadd: the FETCH_AND_ADDs, at most 48 WRs outstanding,
 * and the original value each signalled one returned.
 */
static bool fadd_client(struct probe *p, u64 init, char *why, size_t whylen)
{
	struct ib_qp *qp = p->qp[0].qp;
	size_t w = p->ctl_off + PROBE_AT_WORD, res = p->ctl_off + PROBE_AT_RES;
	u32 i, reaped = 0;
	bool ok = true;
	int err;

	for (i = 0; i < atomics && ok; i++) {
		while (ok && i - reaped >= PROBE_SQ - 16)
			ok = fadd_reap(p, init, &reaped, why, whylen);
		if (!ok)
			break;
		err = post_atomic(p, qp, i, IB_WR_ATOMIC_FETCH_AND_ADD,
				  res + (i % 256) * 8, w, p->rkey, i + 1, 0,
				  fadd_signalled(i));
		if (err) {
			snprintf(why, whylen, "post FADD %u: %d", i, err);
			ok = false;
		}
	}
	while (ok && reaped < atomics)
		ok = fadd_reap(p, init, &reaped, why, whylen);
	if (ok)
		snprintf(why, whylen, "%u FADDs, %u signalled, originals right",
			 atomics, DIV_ROUND_UP(atomics, 8));
	return ok;
}

/*
 * `atomics` FETCH_AND_ADDs, the i-th adding i + 1, every 8th signalled;
 * at most 48 WRs outstanding. Each signalled one returns the sum of those
 * before it (each executed once, in posted order: retransmissions under
 * netem must not add twice); the server checks the total.
 */
static int step_atomic_fadd(struct probe *p)
{
	u64 init;

	p->step++;
	init = (1ULL << 40) + p->step;
	return atomic_step(p, "atomic-fadd", init, fadd_before(init, atomics),
			   256 * 8, fadd_client);
}

/* Server: an MR over our buffer without remote atomic access, on @qp. */
static struct ib_mr *noatomic_mr(struct probe *p, struct ib_qp *qp)
{
	struct ib_mr *mr;
	int n;

	mr = ib_alloc_mr(p->pd, IB_MR_TYPE_MEM_REG, p->buflen >> PAGE_SHIFT);
	if (IS_ERR(mr))
		return mr;
	n = ib_map_mr_sg(mr, p->sgt.sgl, p->nents, NULL, PAGE_SIZE);
	if (n != p->nents ||
	    reg_mr(p, qp, mr, IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		   IB_ACCESS_REMOTE_READ)) {
		ib_dereg_mr(mr);
		return ERR_PTR(-EIO);
	}
	return mr;
}

/*
 * On a QP pair of its own: a FETCH_AND_ADD the target must refuse (at an
 * address 4 bytes off the word, or through an MR without remote atomic
 * access), then a fenced SEND. The atomic completes with @want, the SEND
 * is flushed, the QP is in ERR, and the server's bytes are untouched.
 */
static int step_atomic_refused(struct probe *p, bool unaligned)
{
	const char *name = unaligned ? "atomic-unaligned" : "atomic-no-access";
	enum ib_wc_status want = unaligned ? IB_WC_REM_INV_REQ_ERR :
					     IB_WC_REM_ACCESS_ERR;
	size_t w = p->ctl_off + PROBE_AT_WORD, res = p->ctl_off + PROBE_AT_RES;
	struct ib_sge sge = sge_at(p, p->dma + p->ctl_off, 4);
	struct ib_send_wr send = send_wr(2, &sge, IB_WR_SEND,
					 IB_SEND_SIGNALED | IB_SEND_FENCE);
	struct probe_qp q = { .retry_few = true };
	struct ib_mr *mr = NULL;
	char why[128] = "";
	const char *nak;
	bool ok = false;
	long bad;
	u32 key = 0, v;
	int err;

	p->step++;
	if (p->server)
		memset(p->buf + w, 0xab, 16);
	err = scratch_open(p, &q);
	if (err)
		goto lost;
	if (p->server) {
		if (!unaligned) {
			mr = noatomic_mr(p, q.qp);
			if (IS_ERR(mr)) {
				err = PTR_ERR(mr);
				mr = NULL;
				goto lost;
			}
			key = mr->rkey;
		}
		err = ctl_send(p, key);
		if (!err)
			err = ctl_recv(p, &v);	/* the client has its errors */
		if (err)
			goto lost;
		for (bad = 0; bad < 16; bad++)
			if (((u8 *)p->buf)[w + bad] != 0xab)
				break;
		ok = bad == 16;
		if (ok)
			snprintf(why, sizeof(why), "word untouched");
		else
			snprintf(why, sizeof(why), "word byte %ld written", bad);
		goto out;
	}
	err = ctl_recv(p, &key);
	if (err)
		goto lost;
	err = post_atomic(p, q.qp, 1, IB_WR_ATOMIC_FETCH_AND_ADD, res,
			  unaligned ? w + 4 : w, unaligned ? p->rkey : key, 1, 0,
			  true);
	if (unaligned && err == -EINVAL &&
	    p->ibdev->ops.driver_id == RDMA_DRIVER_RXE) {
		/* rxe checks the remote address at post (validate_send_wr). */
		ok = true;
		snprintf(why, sizeof(why), "rxe refuses it at post (-EINVAL)");
		goto done;
	}
	if (!err)
		err = ib_post_send(q.qp, &send, NULL);
	if (err) {
		snprintf(why, sizeof(why), "post: %d", err);
		goto done;
	}
	if (expect_nak(p, want, &nak, why, sizeof(why)) ||
	    !flushed_in_err(p, q.qp, 2, 2, why, sizeof(why)))
		goto done;
	ok = true;
	snprintf(why, sizeof(why), "%s, SEND flushed, QP in ERR", nak);
done:
	err = ctl_send(p, ok);
	if (err)
		goto lost;
out:
	err = finish(p, name, ok, why);
	goto free;
lost:
	report(p, name, false, "%d", err);
free:
	if (q.qp)
		ib_destroy_qp(q.qp);
	if (mr)
		ib_dereg_mr(mr);
	return err;
}

/* Everything of the device, and our reference to it; may run twice. */
static void release_device(struct probe *p)
{
	if (!p->ibdev)
		return;		/* none found, or released already */
	if (p->qp)
		destroy_qps(p->qp, qps);
	kfree(p->qp);
	p->qp = NULL;
	if (p->mr)
		ib_dereg_mr(p->mr);
	if (p->nents)
		ib_dma_unmap_sg(p->ibdev, p->sgt.sgl, p->sgt.orig_nents,
				DMA_BIDIRECTIONAL);
	sg_free_table(&p->sgt);
	if (p->pages)
		__free_pages(p->pages, p->order);
	p->pages = NULL;	/* canary_check() looks */
	if (p->cq)
		ib_free_cq(p->cq);
	if (p->pd)
		ib_dealloc_pd(p->pd);
	ib_device_put(p->ibdev);
	p->ibdev = NULL;
}

/* peer-gone, server: wait for the shell to delete the device, let go. */
static int gone_server(struct probe *p, struct probe_qp *q, char *why,
		       size_t whylen, bool *ok)
{
	long left;
	ktime_t t0;
	int err;

	err = ctl_await(p);		/* the client's WRITEs run */
	if (err)
		return err;
	pr_info(PFX "gone-ready\n");
	t0 = ktime_get();
	left = wait_event_timeout(probe_gone_wq, READ_ONCE(p->gone),
				  msecs_to_jiffies(timeout_ms));
	destroy_qps(q, PROBE_GONE_QPS);
	release_device(p);
	*ok = left > 0;
	snprintf(why, whylen, "device %s %lld ms after gone-ready",
		 *ok ? "went" : "still there", ktime_ms_delta(ktime_get(), t0));
	return ctl_send(p, *ok);
}

/*
 * peer-gone, client: did WRs 1..@n of the first QP complete once each, in
 * posted order, none well after a failure, at least one failed, before
 * @until? *@first_bad: the first that failed, with status *@bad.
 */
static bool gone_reap(struct probe *p, u32 n, ktime_t until, u32 *first_bad,
		      enum ib_wc_status *bad, char *why, size_t whylen)
{
	struct ib_wc wc;
	u32 next = 1;

	*first_bad = 0;
	while (next <= n) {
		if (ktime_after(ktime_get(), until)) {
			snprintf(why, whylen, "WR %u of %u not complete in time",
				 next, n);
			return false;
		}
		if (ib_poll_cq(p->cq, 1, &wc) <= 0) {
			usleep_range(100, 1000);
			continue;
		}
		if (wc.wr_id >= PROBE_GONE_SILENT)
			continue;	/* the destroyed QP's flush */
		if (wc.wr_id != next ||
		    (*first_bad && wc.status == IB_WC_SUCCESS)) {
			snprintf(why, whylen, "WR %llu %s, expected WR %u",
				 wc.wr_id, ib_wc_status_msg(wc.status), next);
			return false;
		}
		if (!*first_bad && wc.status != IB_WC_SUCCESS) {
			*first_bad = next;
			*bad = wc.status;
		}
		next++;
	}
	if (!*first_bad) {
		snprintf(why, whylen, "all %u WRITEs succeeded, the peer gone", n);
		return false;
	}
	return true;
}

/*
 * peer-gone, client, once the peer went: a QP whose WRITE gets no answer
 * for PROBE_GONE_QUIET_MS (the peer is silent; before, its QPs destroyed,
 * it may still answer INVALID/NO_QP) is destroyed: *@d_ms. A WRITE of the
 * next QP, posted before, then completes IB_WC_RETRY_EXC_ERR within
 * @bound_ms (the connection breaks): *@fail_ms, *@fail. A WRITE flushed at
 * once says the connection broke already: that QP is destroyed, *@fail_ms
 * 0.
 */
static bool gone_silent(struct probe *p, struct probe_qp *q, u32 bound_ms,
			s64 *d_ms, s64 *fail_ms, enum ib_wc_status *fail,
			char *why, size_t whylen)
{
	ktime_t t0, until;
	struct ib_wc wc;
	unsigned int i;
	int n;

	for (i = 1; i + 1 < PROBE_GONE_QPS; i++) {
		if (post_send(p, q[i].qp, PROBE_GONE_SILENT + i,
			      IB_WR_RDMA_WRITE, 0, SZ_4K, 0, p->rkey, 0, true))
			break;
		msleep(PROBE_GONE_QUIET_MS);
		n = ib_poll_cq(p->cq, 1, &wc);
		if (n > 0 && wc.wr_id == PROBE_GONE_SILENT + i &&
		    wc.status == IB_WC_WR_FLUSH_ERR) {
			/*
			 * The connection broke already: the first QP's WRs,
			 * held by the peer's INVALID/NO_QP answers until the
			 * retry budget or by the unanswered ones until the
			 * break, completed only then, and this QP was in
			 * ERR when posted to. The silent peer ended it.
			 */
			t0 = ktime_get();
			ib_destroy_qp(q[i].qp);
			q[i].qp = NULL;
			*d_ms = ktime_ms_delta(ktime_get(), t0);
			*fail_ms = 0;
			*fail = wc.status;
			return true;
		}
		if (n > 0)
			continue;	/* answered: not silent yet */
		if (post_send(p, q[i + 1].qp, PROBE_GONE_SILENT + i + 1,
			      IB_WR_RDMA_WRITE, 0, SZ_4K, 0, p->rkey, 0, true))
			break;
		t0 = ktime_get();
		ib_destroy_qp(q[i].qp);
		q[i].qp = NULL;
		*d_ms = ktime_ms_delta(ktime_get(), t0);
		until = ktime_add_ms(t0, bound_ms);
		/* A late answer to the destroyed QP's WRITE is not ours. */
		while (ib_poll_cq(p->cq, 1, &wc) <= 0 ||
		       wc.wr_id != PROBE_GONE_SILENT + i + 1) {
			if (ktime_after(ktime_get(), until)) {
				snprintf(why, whylen, "silent peer: WRITE not done in %u ms",
					 bound_ms);
				return false;
			}
			msleep(20);
		}
		*fail_ms = ktime_ms_delta(ktime_get(), t0);
		*fail = wc.status;
		/* It went out, and its answer never came: IB's status. */
		if (wc.status != IB_WC_RETRY_EXC_ERR) {
			snprintf(why, whylen,
				 "a WRITE toward the silent peer: %s, expected RETRY_EXC_ERR",
				 ib_wc_status_msg(wc.status));
			return false;
		}
		return true;
	}
	snprintf(why, whylen, "the peer kept answering");
	return false;
}

static int step_gone(struct probe *p)
{
	u32 len = min_t(u32, size, SZ_1M), n = PROBE_SQ - 16, v, bad_wr = 0;
	enum ib_wc_status bad = IB_WC_SUCCESS, fail = IB_WC_SUCCESS;
	struct probe_qp q[PROBE_GONE_QPS] = {};
	s64 done_ms, d_ms = 0, fail_ms = 0;
	char why[256] = "";
	bool ok = false;
	ktime_t t_gone;
	unsigned int i;
	int err = 0;

	p->step++;
	for (i = 0; i < PROBE_GONE_QPS && !err; i++)
		err = scratch_open(p, &q[i]);
	if (err)
		goto out;
	if (p->server) {
		err = gone_server(p, q, why, sizeof(why), &ok);
		goto out;
	}
	for (i = 1; i <= n && !err; i++)
		err = post_send(p, q[0].qp, i, IB_WR_RDMA_WRITE, 0, len, 0,
				p->rkey, 0, true);
	if (!err)
		err = ctl_send(p, 0);
	if (!err)
		err = ctl_recv(p, &v);	/* the server's device went */
	if (err)
		goto out;
	t_gone = ktime_get();
	if (!v) {
		snprintf(why, sizeof(why), "the server's device did not go");
		goto out;
	}
	/* One more WRITE after the peer went: it cannot succeed. */
	if (!post_send(p, q[0].qp, n + 1, IB_WR_RDMA_WRITE, 0, SZ_4K, 0,
		       p->rkey, 0, true))
		n++;
	if (!gone_reap(p, n, ktime_add_ms(t_gone, gone_ms), &bad_wr, &bad,
		       why, sizeof(why)))
		goto out;
	done_ms = ktime_ms_delta(ktime_get(), t_gone);
	if (expect_qp_err(q[0].qp, why, sizeof(why)))
		goto out;
	if (!gone_silent(p, q, gone_ms, &d_ms, &fail_ms, &fail, why,
			 sizeof(why)))
		goto out;
	ok = d_ms < gone_ms / 4;
	snprintf(why, sizeof(why),
		 "%u WRITEs: %u ok, then %s, all done %lld ms after the peer went; toward the silent peer: destroy %lld ms (bound %u), a WRITE %s after %lld ms (bound %u)",
		 n, bad_wr - 1, ib_wc_status_msg(bad), done_ms, d_ms,
		 gone_ms / 4, ib_wc_status_msg(fail), fail_ms, gone_ms);
out:
	destroy_qps(q, PROBE_GONE_QPS);
	return step_end(p, "peer-gone", err, ok, why);
}

static int run_steps(struct probe *p)
{
	u32 sizes[] = { 1, SZ_4K, size };
	enum probe_op op;
	unsigned int i;
	int err = 0;

	for (op = PROBE_SEND; op <= PROBE_WRITE && !err; op++) {
		for (i = 0; i < ARRAY_SIZE(sizes) && !err; i++)
			err = step_xfer(p, op, 0, sizes[i], false, "");
		if (!err)
			err = step_xfer(p, op, 0, SZ_4K, true, "");
	}
	if (!err)
		err = step_xfer(p, PROBE_READ, 0, size, false, "");
	if (!err && big_mb)
		err = step_big(p);
	if (!err)
		err = step_order(p);
	if (!err)
		err = step_packed_write(p);
	if (tput_ms) {
		u32 tsizes[] = { 64, SZ_4K, min_t(u32, SZ_1M, size) };

		for (i = 0; i < ARRAY_SIZE(tsizes) && !err; i++)
			err = step_tput(p, tsizes[i]);
	}
	if (!err)
		err = step_atomic_cas(p);
	for (i = 0; i < fadd_rounds && !err; i++)
		err = step_atomic_fadd(p);
	if (!err && error_steps)
		err = step_atomic_refused(p, true);
	if (!err && error_steps)
		err = step_atomic_refused(p, false);
	for (i = 1; i < qps && !err; i++) {
		char prefix[16];

		snprintf(prefix, sizeof(prefix), "qp%u-", i);
		err = step_xfer(p, PROBE_WRITE, i, min_t(u32, size, SZ_64K),
				false, prefix);
	}
	if (err || !error_steps)
		return err;
	err = step_rnr_send(p);
	if (!err && qps > 1)
		err = step_rnr_other_qp(p);
	if (!err)
		err = step_rnr_retry0(p);
	if (!err)
		err = step_rnr_destroy(p);
	if (!err)
		err = step_qp_gone(p);
	if (!err)
		err = step_send_inv(p);
	if (!err)
		err = step_send_inv_bad_key(p);
	if (!err)
		err = step_bad_rkey(p);
	if (!err)
		err = step_packed_bad_rkey(p);
	return err;
}

/* --- Module ------------------------------------------------------------- */

static void teardown(struct probe *p)
{
	release_device(p);
	if (p->sock)
		sock_release(p->sock);
}

/* A device goes away: if ours, the loading task lets go of it. */
static void probe_remove(struct ib_device *ibdev, void *client_data)
{
	struct probe *p = READ_ONCE(probe_cur);

	if (p && p->ibdev == ibdev) {
		WRITE_ONCE(p->gone, true);
		wake_up(&probe_gone_wq);
	}
}

static struct ib_client probe_client = {
	.name = KBUILD_MODNAME,
	.remove = probe_remove,
};

static int setup(struct probe *p)
{
	struct ib_port_attr pattr;
	unsigned int i;
	int err;

	p->ibdev = ib_device_get_by_name(dev, RDMA_DRIVER_UNKNOWN);
	if (!p->ibdev) {
		pr_err(PFX "no ib device %s\n", dev);
		return -ENODEV;
	}
	p->port = rdma_start_port(p->ibdev);
	err = ib_query_port(p->ibdev, p->port, &pattr);
	if (err)
		return err;
	p->mtu = pattr.active_mtu;
	/* big_mb: the WRITE and READ reach the peer's vmalloc buffer. */
	p->pd = ib_alloc_pd(p->ibdev, big_mb ? IB_PD_UNSAFE_GLOBAL_RKEY : 0);
	if (IS_ERR(p->pd)) {
		err = PTR_ERR(p->pd);
		p->pd = NULL;
		return err;
	}
	p->cq = ib_alloc_cq(p->ibdev, NULL, qps * (PROBE_SQ + PROBE_RQ), 0,
			    IB_POLL_DIRECT);
	if (IS_ERR(p->cq)) {
		err = PTR_ERR(p->cq);
		p->cq = NULL;
		return err;
	}
	err = setup_buffer(p);
	if (err)
		return err;
	p->qp = kcalloc(qps, sizeof(*p->qp), GFP_KERNEL);
	if (!p->qp)
		return -ENOMEM;
	for (i = 0; i < qps; i++) {
		p->qp[i].qp = create_qp(p);
		if (IS_ERR(p->qp[i].qp)) {
			err = PTR_ERR(p->qp[i].qp);
			p->qp[i].qp = NULL;
			pr_err(PFX "ib_create_qp %u: %d\n", i, err);
			return err;
		}
		p->qp[i].psn = get_random_u32() & 0xffffff;
	}
	err = p->server ? rendezvous_server(p) : rendezvous_client(p);
	if (err) {
		pr_err(PFX "TCP rendezvous on port %u: %d\n", port, err);
		return err;
	}
	err = find_gid(p);
	if (!err)
		err = exchange(p);
	for (i = 0; i < qps && !err; i++)
		err = connect_qp(p, &p->qp[i]);
	if (!err)
		err = register_mr(p);
	if (err)
		return err;
	pr_info(PFX "%s %s: %u QP pair(s), GID %pI6 -> %pI6, MTU %d, buffer %zu\n",
		dev, role, qps, p->sgid.raw, p->dgid.raw,
		ib_mtu_enum_to_int(p->mtu), p->buflen);
	return 0;
}

static int __init probe_init(void)
{
	struct probe *p;
	int err;

	if (strcmp(role, "server") && strcmp(role, "client")) {
		pr_err(PFX "role must be server or client\n");
		return -EINVAL;
	}
	if (!qps || qps > PROBE_MAX_QPS || size < SZ_4K || tclass > U8_MAX ||
	    fair_idle >= qps) {
		pr_err(PFX "qps 1..%u, size at least 4096, tclass 0..255, fair_idle below qps\n",
		       PROBE_MAX_QPS);
		return -EINVAL;
	}
	if (burst > PROBE_SQ) {
		pr_err(PFX "burst 1..%u\n", PROBE_SQ);
		return -EINVAL;
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->server = !strcmp(role, "server");
	WRITE_ONCE(probe_cur, p);
	err = ib_register_client(&probe_client);
	if (err) {
		kfree(p);
		return err;
	}
	err = setup(p);
	if (err)
		report(p, "setup", false, "%d", err);
	else if (gone_ms)
		step_gone(p);
	else if (burst)
		step_burst(p);
	else if (fair_spread)
		step_fair(p);
	else
		run_steps(p);
	if (canary && p->pages)
		canary_check(p);
	teardown(p);
	ib_unregister_client(&probe_client);
	WRITE_ONCE(probe_cur, NULL);
	pr_info(PFX "summary %u passed, %u failed\n", p->passed, p->failed);
	if (!err && (p->failed || !p->passed))
		err = -EIO;
	kfree(p);
	return err;
}

static void __exit probe_exit(void)
{
}

module_init(probe_init);
module_exit(probe_exit);

MODULE_DESCRIPTION("RC queue pair traffic between two hosts over kernel verbs (a test instrument)");
MODULE_LICENSE("GPL");
