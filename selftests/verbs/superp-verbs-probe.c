// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp-verbs-probe: what the verbs selftests need beyond the stock
 * ibverbs utilities.
 *
 *   superp-verbs-probe pd DEV N        open DEV through libibverbs (and so
 *                                      through its provider), allocate N
 *                                      PDs, free them
 *   superp-verbs-probe context DEV MASK  open DEV's uverbs file directly
 *                                      and send GET_CONTEXT with driver
 *                                      comp_mask MASK; prints the driver
 *                                      response or the error
 *   superp-verbs-probe mr DEV N SIZE ACCESS  register N buffers of SIZE
 *                                      bytes with access flags ACCESS in
 *                                      one PD, check the MRs (keys
 *                                      distinct), deregister them
 *   superp-verbs-probe mr-bad DEV      try to register an unmapped range
 *                                      and a zero-length one; prints the
 *                                      error of each
 *   superp-verbs-probe mr-cycle DEV N  register and deregister one buffer
 *                                      N times; no key may come back while
 *                                      a peer could still hold the old one
 *   superp-verbs-probe mr-iova DEV LENGTH IOVA  register LENGTH bytes at
 *                                      device address IOVA; prints the
 *                                      outcome
 *   superp-verbs-probe udata DEV [N]   send ALLOC_PD and REG_MR straight to
 *                                      the uverbs file with 8 bytes of
 *                                      driver data, zero and not, N times
 *                                      (default 1); prints the outcome of
 *                                      each
 *   superp-verbs-probe hold DEV SECONDS  open DEV with a PD and an MR,
 *                                      print "holding", wait up to SECONDS
 *                                      for an asynchronous event (the
 *                                      device going away), print it, then
 *                                      release everything
 *
 *   superp-verbs-probe qp DEV          create user QPs through the provider
 *                                      (several sizes, inline data, an
 *                                      SRQ-less RC QP each), take one to
 *                                      INIT, query it, check that the
 *                                      kernel refuses a POST_RECV work
 *                                      request list for it (prints the
 *                                      error), destroy them
 *   superp-verbs-probe qp-ex DEV       ibv_create_qp_ex: every operation
 *                                      of each QP type alone and all
 *                                      together, empty creation flags;
 *                                      the rest refused with EOPNOTSUPP
 *
 *   superp-verbs-probe cq DEV          create CQs through the provider
 *                                      (with and without a completion
 *                                      channel, the smallest, max_cqe and
 *                                      too large), poll and arm them,
 *                                      check that no mmap() offset but a
 *                                      ring's maps, destroy them
 *   superp-verbs-probe cq-resize DEV   ibv_resize_cq with completions
 *                                      waiting (delivered by the module
 *                                      superp_cq_probe): grow, shrink,
 *                                      refusals
 *   superp-verbs-probe cq-resize-race DEV  resizes while a child process
 *                                      delivers completions
 *   superp-verbs-probe cq-ex DEV       ibv_create_cq_ex and its poll API
 *                                      on completions of superp_cq_probe
 *   superp-verbs-probe cq-overflow DEV  a CQ of 2 given more completions
 *                                      than it holds (superp_cq_probe):
 *                                      the CQ error event, the CQ in error
 *
 * Results the selftests look for go to stdout, other diagnostics to
 * stderr. The exit status is 0 on success, 1 on failure, 2 for bad usage.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>
#include <sys/wait.h>
#include <sys/mman.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/superp-abi.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Opens a verbs device by name. The device list may go once the device is
 * open.
 */
static struct ibv_context *open_device(const char *name)
{
	struct ibv_device **list, *dev = NULL;
	struct ibv_context *ctx = NULL;
	int i, num;

	list = ibv_get_device_list(&num);
	if (!list) {
		perror("ibv_get_device_list");
		return NULL;
	}
	for (i = 0; i < num; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			dev = list[i];
	if (!dev) {
		fprintf(stderr, "%s: no such verbs device (provider not loaded?)\n", name);
		goto out;
	}
	ctx = ibv_open_device(dev);
	if (!ctx)
		perror("ibv_open_device");
out:
	ibv_free_device_list(list);
	return ctx;
}

static int close_device(struct ibv_context *ctx)
{
	if (ibv_close_device(ctx)) {
		perror("ibv_close_device");
		return 1;
	}
	return 0;
}

/* Opens a device and allocates one PD in it; NULL (device closed) on error. */
static struct ibv_pd *open_pd(const char *name, struct ibv_context **ctx)
{
	struct ibv_pd *pd;

	*ctx = open_device(name);
	if (!*ctx)
		return NULL;
	pd = ibv_alloc_pd(*ctx);
	if (!pd) {
		fprintf(stderr, "ibv_alloc_pd: %s\n", strerror(errno));
		close_device(*ctx);
	}
	return pd;
}

static int probe_pd(const char *name, int n)
{
	struct ibv_context *ctx;
	struct ibv_pd **pds;
	int i, ret = 1;

	ctx = open_device(name);
	if (!ctx)
		return 1;
	pds = calloc(n, sizeof(*pds));
	if (!pds)
		goto out_ctx;
	for (i = 0; i < n; i++) {
		pds[i] = ibv_alloc_pd(ctx);
		if (!pds[i]) {
			fprintf(stderr, "ibv_alloc_pd #%d: %s\n", i, strerror(errno));
			break;
		}
	}
	if (i == n) {
		printf("allocated %d PDs\n", n);
		ret = 0;
	}
	while (i-- > 0) {
		if (ibv_dealloc_pd(pds[i])) {
			fprintf(stderr, "ibv_dealloc_pd #%d: %s\n", i, strerror(errno));
			ret = 1;
		}
	}
	free(pds);
out_ctx:
	if (close_device(ctx))
		ret = 1;
	return ret;
}

static int dealloc_pd(struct ibv_pd *pd)
{
	int err = ibv_dealloc_pd(pd);

	if (err) {
		fprintf(stderr, "ibv_dealloc_pd: %s\n", strerror(err));
		return 1;
	}
	return 0;
}

/*
 * ibv_dereg_mr() returns the errno value rather than setting errno. what
 * names the MR in the message ("#3", "unmapped").
 */
static int dereg_mr(struct ibv_mr *mr, const char *what)
{
	int err = ibv_dereg_mr(mr);

	if (err) {
		printf("ibv_dereg_mr %s: %s (errno %d)\n", what, strerror(err),
		       err);
		return 1;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts keys[0..n) and reports a value found twice. */
static int keys_distinct(uint32_t *keys, int n, const char *what)
{
	int i;

	qsort(keys, n, sizeof(*keys), cmp_u32);
	for (i = 1; i < n; i++) {
		if (keys[i] == keys[i - 1]) {
			printf("%s 0x%x used by more than one MR\n", what, keys[i]);
			return 0;
		}
	}
	return 1;
}

/* What ibv_reg_mr() must have filled in for MR #i. */
static int check_mr(const struct ibv_mr *mr, int i, struct ibv_context *ctx,
		    struct ibv_pd *pd, void *buf, size_t size)
{
	if (mr->context != ctx || mr->pd != pd) {
		printf("MR #%d: context/pd not set\n", i);
		return 0;
	}
	if (mr->addr != buf || mr->length != size) {
		printf("MR #%d: addr %p length %zu, registered %p length %zu\n",
		       i, mr->addr, mr->length, buf, size);
		return 0;
	}
	if (!mr->lkey || !mr->rkey) {
		printf("MR #%d: lkey 0x%x rkey 0x%x not filled in\n", i,
		       mr->lkey, mr->rkey);
		return 0;
	}
	return 1;
}

/*
 * Registers n buffers of size bytes, each malloc()ed on its own (small ones
 * may share a page, which costs the kernel no extra pinned memory for
 * large n), in one PD and checks the MRs. A registration failure is
 * printed with its errno (exit 1), after the MRs registered so far are
 * deregistered.
 */
static int probe_mr(const char *name, int n, size_t size,
		    unsigned int access)
{
	uint32_t *lkeys = NULL, *rkeys = NULL;
	struct ibv_mr **mrs = NULL;
	struct ibv_context *ctx;
	void **bufs = NULL;
	struct ibv_pd *pd;
	int i, reg = 0, ret = 1;

	pd = open_pd(name, &ctx);
	if (!pd)
		return 1;
	bufs = calloc(n, sizeof(*bufs));
	mrs = calloc(n, sizeof(*mrs));
	lkeys = calloc(n, sizeof(*lkeys));
	rkeys = calloc(n, sizeof(*rkeys));
	if (!bufs || !mrs || !lkeys || !rkeys) {
		fprintf(stderr, "out of memory for %d MRs\n", n);
		goto out_free;
	}
	for (i = 0; i < n; i++) {
		bufs[i] = malloc(size);
		if (!bufs[i]) {
			fprintf(stderr, "buffer #%d of %zu bytes: %s\n", i,
				size, strerror(errno));
			goto out_dereg;
		}
		memset(bufs[i], i, size);	/* mapped before registration */
	}
	for (reg = 0; reg < n; reg++) {
		mrs[reg] = ibv_reg_mr(pd, bufs[reg], size, access);
		if (!mrs[reg]) {
			int err = errno;

			printf("ibv_reg_mr #%d: %s (errno %d)\n", reg,
			       strerror(err), err);
			goto out_dereg;
		}
		if (!check_mr(mrs[reg], reg, ctx, pd, bufs[reg], size)) {
			reg++;
			goto out_dereg;
		}
		lkeys[reg] = mrs[reg]->lkey;
		rkeys[reg] = mrs[reg]->rkey;
	}
	if (keys_distinct(lkeys, n, "lkey") && keys_distinct(rkeys, n, "rkey")) {
		printf("registered %d MRs, keys distinct\n", n);
		ret = 0;
	}
out_dereg:
	while (reg-- > 0) {
		char what[16];

		snprintf(what, sizeof(what), "#%d", reg);
		if (dereg_mr(mrs[reg], what))
			ret = 1;
	}
	for (i = 0; i < n; i++)
		free(bufs[i]);
out_free:
	free(rkeys);
	free(lkeys);
	free(mrs);
	free(bufs);
	if (dealloc_pd(pd))
		ret = 1;
	if (close_device(ctx))
		ret = 1;
	return ret;
}

/* One registration expected to fail: "what: error E (text)" or "what: ok". */
static int try_bad_mr(struct ibv_pd *pd, const char *what, void *addr,
		      size_t length)
{
	struct ibv_mr *mr;
	int err;

	mr = ibv_reg_mr(pd, addr, length, IBV_ACCESS_LOCAL_WRITE);
	if (!mr) {
		err = errno;
		printf("%s: error %d (%s)\n", what, err, strerror(err));
		return 0;
	}
	printf("%s: ok\n", what);
	return dereg_mr(mr, what);
}

/*
 * Registrations the kernel must refuse: a range nothing is mapped at (two
 * pages unmapped just before), and zero bytes of a valid buffer.
 */
static int probe_mr_bad(const char *name)
{
	size_t page = sysconf(_SC_PAGESIZE);
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	char *hole, *buf;
	int ret = 1;

	pd = open_pd(name, &ctx);
	if (!pd)
		return 1;
	buf = malloc(page);
	if (!buf) {
		perror("malloc");
		goto out_pd;
	}
	memset(buf, 0, page);
	hole = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (hole == MAP_FAILED || munmap(hole, 2 * page)) {
		perror("mmap/munmap");
		goto out_buf;
	}
	ret = try_bad_mr(pd, "unmapped", hole, 2 * page);
	if (try_bad_mr(pd, "zero-length", buf, 0))
		ret = 1;
out_buf:
	free(buf);
out_pd:
	if (dealloc_pd(pd))
		ret = 1;
	if (close_device(ctx))
		ret = 1;
	return ret;
}

struct key_seen {
	uint32_t key;
	long reg;		/* registration number */
};

static int cmp_key_seen(const void *a, const void *b)
{
	const struct key_seen *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->reg < y->reg ? -1 : x->reg > y->reg;
}

/*
 * Registers and deregisters one buffer n times. Each key is printed as
 * stale once its MR is gone, and a peer may present it at any time later:
 * none may be handed out again within the run. Reports the first repeat.
 */
static int probe_mr_cycle(const char *name, long n)
{
	struct ibv_context *ctx;
	struct key_seen *seen;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	int ret = 1;
	long i;
	void *buf;

	pd = open_pd(name, &ctx);
	if (!pd)
		return 1;
	seen = calloc(n, sizeof(*seen));
	buf = calloc(1, 4096);
	if (!seen || !buf) {
		fprintf(stderr, "out of memory\n");
		goto out;
	}
	for (i = 0; i < n; i++) {
		mr = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
		if (!mr) {
			int err = errno;

			printf("ibv_reg_mr #%ld: %s (errno %d)\n", i,
			       strerror(err), err);
			goto out;
		}
		seen[i].key = mr->lkey;
		seen[i].reg = i;
		if (mr->rkey != mr->lkey) {
			printf("MR #%ld: rkey 0x%x differs from lkey 0x%x\n",
			       i, mr->rkey, mr->lkey);
			dereg_mr(mr, "cycled");
			goto out;
		}
		if (dereg_mr(mr, "cycled"))
			goto out;
	}
	qsort(seen, n, sizeof(*seen), cmp_key_seen);
	for (i = 1; i < n; i++) {
		if (seen[i].key == seen[i - 1].key) {
			printf("key 0x%x of registration #%ld repeats that of #%ld\n",
			       seen[i].key, seen[i].reg, seen[i - 1].reg);
			goto out;
		}
	}
	printf("cycled %ld registrations, keys distinct\n", n);
	ret = 0;
out:
	free(buf);
	free(seen);
	if (dealloc_pd(pd))
		ret = 1;
	if (close_device(ctx))
		ret = 1;
	return ret;
}

/* One registration of a page-aligned buffer at device address iova. */
static int probe_mr_iova(const char *name, size_t length, uint64_t iova)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	int ret = 0;
	void *buf;

	pd = open_pd(name, &ctx);
	if (!pd)
		return 1;
	buf = aligned_alloc(4096, (length + 4095) & ~(size_t)4095);
	if (!buf) {
		perror("aligned_alloc");
		ret = 1;
		goto out;
	}
	memset(buf, 0, length);
	mr = ibv_reg_mr_iova(pd, buf, length, iova, IBV_ACCESS_LOCAL_WRITE);
	if (!mr) {
		printf("ibv_reg_mr_iova: %s (errno %d)\n", strerror(errno),
		       errno);
	} else {
		printf("registered at iova 0x%llx\n",
		       (unsigned long long)iova);
		ret = dereg_mr(mr, "iova");
	}
	free(buf);
out:
	if (dealloc_pd(pd))
		ret = 1;
	if (close_device(ctx))
		ret = 1;
	return ret;
}

/* The uverbs character device of an RDMA device, from sysfs. */
static int open_uverbs(const char *name)
{
	char path[128], ibdev[64];
	int i, fd;
	FILE *f;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband_verbs/uverbs%d/ibdev", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(ibdev, sizeof(ibdev), f)) {
			ibdev[strcspn(ibdev, "\n")] = 0;
			if (!strcmp(ibdev, name)) {
				fclose(f);
				snprintf(path, sizeof(path),
					 "/dev/infiniband/uverbs%d", i);
				fd = open(path, O_RDWR | O_CLOEXEC);
				if (fd < 0)
					perror(path);
				return fd;
			}
		}
		fclose(f);
	}
	fprintf(stderr, "%s: no uverbs device\n", name);
	return -1;
}

/* GET_CONTEXT through the write() interface, with our driver data. */
static int probe_context(const char *name, uint64_t comp_mask)
{
	struct {
		struct ib_uverbs_get_context_resp core;
		struct superp_alloc_ucontext_resp drv;
	} resp;
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_get_context core;
		struct superp_alloc_ucontext_cmd drv;
	} cmd;
	int fd;

	fd = open_uverbs(name);
	if (fd < 0)
		return 1;
	memset(&cmd, 0, sizeof(cmd));
	memset(&resp, 0xff, sizeof(resp));
	cmd.hdr.command = IB_USER_VERBS_CMD_GET_CONTEXT;
	cmd.hdr.in_words = sizeof(cmd) / 4;
	cmd.hdr.out_words = sizeof(resp) / 4;
	cmd.core.response = (uintptr_t)&resp;
	cmd.drv.comp_mask = comp_mask;
	if (write(fd, &cmd, sizeof(cmd)) != sizeof(cmd)) {
		printf("error %d (%s)\n", errno, strerror(errno));
		close(fd);
		return 0;
	}
	printf("abi_version %u comp_mask 0x%llx wqe_ops 0x%x\n",
	       resp.drv.abi_version, (unsigned long long)resp.drv.comp_mask,
	       resp.drv.wqe_ops);
	close(fd);
	return 0;
}

/*
 * One legacy write() command: header, then the core command of core_len
 * bytes (its response pointer, if any, set by the caller, for resp_len
 * bytes), then 8 bytes of driver data if tail is not NULL. Returns 0 or
 * the errno.
 */
static int uverbs_write(int fd, uint32_t command, const void *core,
			size_t core_len, const uint64_t *tail, size_t resp_len)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		unsigned char body[64];
	} cmd;
	size_t len = sizeof(cmd.hdr) + core_len + (tail ? sizeof(*tail) : 0);

	memset(&cmd, 0, sizeof(cmd));
	cmd.hdr.command = command;
	cmd.hdr.in_words = len / 4;
	cmd.hdr.out_words = resp_len / 4;
	memcpy(cmd.body, core, core_len);
	if (tail)
		memcpy(cmd.body + core_len, tail, sizeof(*tail));
	if (write(fd, &cmd, len) != (ssize_t)len)
		return errno;
	return 0;
}

/*
 * Sends a creating command with 8 bytes of driver data (tail) and prints
 * "what driver data 0xTAIL: ok" or "...: error E"; what it created is
 * destroyed again with the one-handle command destroy (*handle is in the
 * response).
 */
static void try_driver_data(int fd, const char *what, uint32_t command,
			    const void *core, size_t core_len, uint64_t tail,
			    size_t resp_len, uint32_t destroy,
			    const uint32_t *handle)
{
	int err;

	err = uverbs_write(fd, command, core, core_len, &tail, resp_len);
	printf("%s driver data 0x%llx: ", what, (unsigned long long)tail);
	if (err) {
		printf("error %d\n", err);
		return;
	}
	printf("ok\n");
	err = uverbs_write(fd, destroy, handle, sizeof(*handle), NULL, 0);
	if (err)
		printf("%s: destroying: error %d\n", what, err);
}

/*
 * ALLOC_PD and REG_MR carry no driver data of ib_superp: trailing zero
 * bytes must be accepted (a newer provider may send an all-zero tail),
 * anything else refused.
 */
static int probe_udata(const char *name, unsigned int times)
{
	static const uint64_t tails[] = { 0, 1 };
	struct ib_uverbs_get_context_resp ctx_resp;
	struct ib_uverbs_get_context ctx_cmd = {};
	struct ib_uverbs_alloc_pd_resp pd_resp;
	struct ib_uverbs_reg_mr_resp mr_resp;
	struct ib_uverbs_alloc_pd apd = {};
	struct ib_uverbs_reg_mr rmr = {};
	int fd, err, ret = 1;
	unsigned int i, n;
	void *buf;

	buf = aligned_alloc(4096, 4096);
	if (!buf)
		return 1;
	memset(buf, 0, 4096);
	fd = open_uverbs(name);
	if (fd < 0)
		goto out_buf;
	ctx_cmd.response = (uintptr_t)&ctx_resp;
	err = uverbs_write(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &ctx_cmd,
			   sizeof(ctx_cmd), NULL, sizeof(ctx_resp));
	if (err) {
		printf("get_context: error %d\n", err);
		goto out_fd;
	}
	/* The PD of the MRs, allocated without driver data. */
	apd.response = (uintptr_t)&pd_resp;
	err = uverbs_write(fd, IB_USER_VERBS_CMD_ALLOC_PD, &apd, sizeof(apd),
			   NULL, sizeof(pd_resp));
	if (err) {
		printf("alloc_pd: error %d\n", err);
		goto out_fd;
	}
	rmr.response = (uintptr_t)&mr_resp;
	rmr.start = (uintptr_t)buf;
	rmr.length = 4096;
	rmr.hca_va = (uintptr_t)buf;
	rmr.pd_handle = pd_resp.pd_handle;
	rmr.access_flags = IBV_ACCESS_LOCAL_WRITE;

	for (n = 0; n < times * ARRAY_SIZE(tails); n++) {
		i = n % ARRAY_SIZE(tails);
		try_driver_data(fd, "alloc_pd", IB_USER_VERBS_CMD_ALLOC_PD,
				&apd, sizeof(apd), tails[i], sizeof(pd_resp),
				IB_USER_VERBS_CMD_DEALLOC_PD, &pd_resp.pd_handle);
		try_driver_data(fd, "reg_mr", IB_USER_VERBS_CMD_REG_MR,
				&rmr, sizeof(rmr), tails[i], sizeof(mr_resp),
				IB_USER_VERBS_CMD_DEREG_MR, &mr_resp.mr_handle);
	}
	ret = 0;
out_fd:
	close(fd);	/* what is left goes with the file */
out_buf:
	free(buf);
	return ret;
}

/* A whole-string number in [min, max]; base 0 takes 0x... and 0... too. */
static int parse_num(const char *s, long min, long max, long *val)
{
	char *end;

	errno = 0;
	*val = strtol(s, &end, 0);
	return !errno && end != s && !*end && *val >= min && *val <= max;
}

/*
 * Holds a context, a PD and an MR while the device is taken away under it:
 * the kernel must not wait for us, and must tell us (DEVICE_FATAL). What
 * is released afterwards was already destroyed by the kernel; libibverbs
 * reports that as success.
 */
static int probe_hold(const char *name, int seconds)
{
	struct ibv_async_event ev;
	struct ibv_context *ctx;
	struct pollfd pfd;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	int ret = 1, n;
	char *buf;

	pd = open_pd(name, &ctx);
	if (!pd)
		return 1;
	buf = calloc(1, 4096);
	mr = buf ? ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!mr) {
		fprintf(stderr, "ibv_reg_mr: %s\n", strerror(errno));
		goto out_pd;
	}
	printf("holding\n");
	fflush(stdout);

	/* Every event is printed; the one we wait for is DEVICE_FATAL. */
	pfd.fd = ctx->async_fd;
	pfd.events = POLLIN;
	while (ret) {
		n = poll(&pfd, 1, seconds * 1000);
		if (n != 1 || ibv_get_async_event(ctx, &ev)) {
			printf("no device-fatal event within %d s\n", seconds);
			break;
		}
		if (ev.event_type == IBV_EVENT_DEVICE_FATAL) {
			printf("event device-fatal\n");
			ret = 0;
		} else {
			printf("event %d (%s)\n", ev.event_type,
			       ibv_event_type_str(ev.event_type));
		}
		ibv_ack_async_event(&ev);
	}

	if (ibv_dereg_mr(mr)) {
		printf("ibv_dereg_mr: %s\n", strerror(errno));
		ret = 1;
	}
out_pd:
	free(buf);
	if (dealloc_pd(pd))
		ret = 1;
	if (close_device(ctx))
		ret = 1;
	if (!ret)
		printf("released\n");
	return ret;
}

static int show_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s pd DEV N | context DEV COMP_MASK |\n"
		"       %*s mr DEV N SIZE ACCESS | mr-bad DEV | hold DEV SECONDS |\n"
		"       %*s mr-cycle DEV N | mr-iova DEV LENGTH IOVA | udata DEV [N] | cq DEV |\n"
		"       %*s cq-resize DEV | cq-resize-race DEV | cq-ex DEV | cq-overflow DEV |\n"
		"       %*s qp DEV\n",
		prog, (int)strlen(prog), "", (int)strlen(prog), "",
		(int)strlen(prog), "", (int)strlen(prog), "");
	return 2;
}

/*
 * User CQs: each gets at least the entries asked for, polls empty with no
 * completion, arms for both kinds of event and is destroyed; the kernel
 * refuses sizes outside 1..max_cqe. mmap() of the uverbs file at an
 * offset no ring was given fails.
 */
static int probe_cq(const char *name)
{
	struct ibv_comp_channel *ch = NULL;
	struct ibv_device_attr attr;
	struct ibv_context *ctx;
	struct ibv_cq *cq[64] = {};
	struct ibv_wc wc[4];
	int i, err, ret = 1;
	void *p;

	ctx = open_device(name);
	if (!ctx)
		return 1;
	if (ibv_query_device(ctx, &attr)) {
		perror("ibv_query_device");
		goto out;
	}
	ch = ibv_create_comp_channel(ctx);
	if (!ch) {
		perror("ibv_create_comp_channel");
		goto out;
	}
	for (i = 0; i < (int)ARRAY_SIZE(cq); i++) {
		/* one of max_cqe entries: 4 MiB of ring */
		int want = i == 0 ? attr.max_cqe : i % 2 ? 1 : 100;

		cq[i] = ibv_create_cq(ctx, want, NULL, i % 2 ? ch : NULL, 0);
		if (!cq[i]) {
			fprintf(stderr, "ibv_create_cq #%d (%d entries): %s\n",
				i, want, strerror(errno));
			goto out;
		}
		if (cq[i]->cqe < want) {
			fprintf(stderr, "CQ #%d: %d entries, asked for %d\n",
				i, cq[i]->cqe, want);
			goto out;
		}
		if (ibv_poll_cq(cq[i], 4, wc) != 0) {
			fprintf(stderr, "CQ #%d: poll of a new CQ not empty\n", i);
			goto out;
		}
		err = ibv_req_notify_cq(cq[i], i % 3 == 0);
		if (!err)
			err = ibv_req_notify_cq(cq[i], 0);
		if (err) {
			fprintf(stderr, "CQ #%d: ibv_req_notify_cq: %s\n", i,
				strerror(err));
			goto out;
		}
	}
	printf("created %zu CQs, empty, armed\n", ARRAY_SIZE(cq));

	errno = 0;
	if (ibv_create_cq(ctx, attr.max_cqe + 1, NULL, NULL, 0) || errno != EINVAL) {
		fprintf(stderr, "CQ of max_cqe + 1 entries: %s\n", strerror(errno));
		goto out;
	}
	errno = 0;
	if (ibv_create_cq(ctx, 0, NULL, NULL, 0) || errno != EINVAL) {
		fprintf(stderr, "CQ of 0 entries: %s\n", strerror(errno));
		goto out;
	}
	printf("0 and max_cqe + 1 entries refused with EINVAL\n");

	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ctx->cmd_fd, 4096 * 4093);
	if (p != MAP_FAILED) {
		fprintf(stderr, "mmap() at an offset of no ring succeeded\n");
		munmap(p, 4096);
		goto out;
	}
	printf("mmap() at an unknown offset refused\n");
	ret = 0;
out:
	for (i = 0; i < (int)ARRAY_SIZE(cq); i++)
		if (cq[i] && ibv_destroy_cq(cq[i])) {
			fprintf(stderr, "ibv_destroy_cq #%d failed\n", i);
			ret = 1;
		}
	if (ch && ibv_destroy_comp_channel(ch))
		ret = 1;
	ibv_close_device(ctx);
	if (!ret)
		printf("destroyed all CQs\n");
	return ret;
}

/*
 * Completions for user CQs come from the test module superp_cq_probe
 * (probes/superp_cq_probe.c) until user QPs make them: this process's one
 * CQ is found by its cqn in `rdma resource show cq`.
 */
static int cq_number(const char *dev, unsigned int *cqn)
{
	char cmd[128], line[512];
	int found = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "rdma resource show cq dev %s pid %d",
		 dev, (int)getpid());
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, " cqn ");

		if (p && sscanf(p, " cqn %u", cqn) == 1)
			found++;
	}
	pclose(f);
	if (found != 1) {
		fprintf(stderr, "%d CQs of this process in `%s`\n", found, cmd);
		return -1;
	}
	return 0;
}

/* COUNT completions, wr_id FIRST on; 0 or the errno of the write. */
static int cq_inject(const char *dev, unsigned int cqn, unsigned int count,
		     uint64_t first)
{
	char buf[128];
	int fd, len, err = 0;

	fd = open("/sys/module/superp_cq_probe/parameters/inject", O_WRONLY);
	if (fd < 0)
		return errno;
	len = snprintf(buf, sizeof(buf), "%s %u %u %llu", dev, cqn, count,
		       (unsigned long long)first);
	if (write(fd, buf, len) != len)
		err = errno;
	close(fd);
	return err;
}

/* What superp_cq_probe_wc() delivers as completion k. */
static struct ibv_wc cq_expected(uint64_t k)
{
	struct ibv_wc wc = {
		.wr_id = k,
		.status = k % 5 == 4 ? IBV_WC_REM_ACCESS_ERR : IBV_WC_SUCCESS,
		.vendor_err = k % 5 == 4 ? 0x50 + (k & 0xf) : 0,
		.opcode = k & 1 ? IBV_WC_RECV : IBV_WC_SEND,
		.byte_len = (uint32_t)k * 7,
		.qp_num = 0x100 + (k & 0xff),
		.src_qp = (uint32_t)k + 1,
	};

	if (k & 1) {
		wc.wc_flags = IBV_WC_WITH_IMM;
		wc.imm_data = htobe32(0xabcd0000 ^ (uint32_t)k);
	}
	return wc;
}

static int cq_check_wc(const struct ibv_wc *wc, uint64_t k)
{
	struct ibv_wc e = cq_expected(k);

	if (wc->wr_id != e.wr_id || wc->status != e.status ||
	    wc->vendor_err != e.vendor_err || wc->opcode != e.opcode ||
	    wc->byte_len != e.byte_len || wc->qp_num != e.qp_num ||
	    wc->src_qp != e.src_qp || wc->wc_flags != e.wc_flags ||
	    (e.wc_flags & IBV_WC_WITH_IMM && wc->imm_data != e.imm_data)) {
		fprintf(stderr, "#%llu: id %llu st %d op %d len %u qp %u src %u fl %x imm %x\n",
			(unsigned long long)k, (unsigned long long)wc->wr_id,
			wc->status, wc->opcode, wc->byte_len, wc->qp_num,
			wc->src_qp, wc->wc_flags, be32toh(wc->imm_data));
		return -1;
	}
	return 0;
}

/* Polls exactly completions first..first+n-1, in order, then nothing. */
static int cq_poll_expect(struct ibv_cq *cq, uint64_t first, int n)
{
	struct ibv_wc wc[16];
	int got = 0, i, r;

	while (got < n) {
		r = ibv_poll_cq(cq, 1 + got % 16, wc);
		if (r <= 0) {
			fprintf(stderr, "poll: %d after %d of %d\n", r, got, n);
			return -1;
		}
		for (i = 0; i < r; i++)
			if (got + i >= n || cq_check_wc(&wc[i], first + got + i))
				return -1;
		got += r;
	}
	if (ibv_poll_cq(cq, 1, wc) != 0) {
		fprintf(stderr, "poll: more than %d completions\n", n);
		return -1;
	}
	return 0;
}

/*
 * RESIZE_CQ straight to the uverbs file with the consumer index given:
 * the kernel must not believe one that the ring cannot have.
 */
static int cq_resize_raw(struct ibv_cq *cq, int cqe, uint32_t consumer)
{
	struct {
		struct ib_uverbs_resize_cq_resp core;
		struct superp_resize_cq_resp drv;
	} resp;
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_resize_cq core;
		struct superp_resize_cq_cmd drv;
	} cmd = {
		.hdr.command = IB_USER_VERBS_CMD_RESIZE_CQ,
		.hdr.in_words = sizeof(cmd) / 4,
		.hdr.out_words = sizeof(resp) / 4,
		.core.response = (uintptr_t)&resp,
		.core.cq_handle = cq->handle,
		.core.cqe = cqe,
		.drv.consumer = consumer,
	};

	if (write(cq->context->cmd_fd, &cmd, sizeof(cmd)) != sizeof(cmd))
		return errno;
	return 0;
}

/*
 * ibv_resize_cq of a user CQ: completions waiting survive growing and
 * shrinking and are polled in order across the resize; a size below them,
 * 0, max_cqe + 1 and a consumer index the ring cannot have are refused
 * with EINVAL. The shrunk ring holds 2 and no more (the overflow that
 * shows it ends the CQ: cq-overflow).
 */
static int probe_cq_resize(const char *name)
{
	struct ibv_device_attr attr;
	struct ibv_context *ctx;
	struct ibv_cq *cq = NULL;
	unsigned int cqn;
	int err, ret = 1;

	ctx = open_device(name);
	if (!ctx)
		return 1;
	if (ibv_query_device(ctx, &attr)) {
		perror("ibv_query_device");
		goto out;
	}
	cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	if (!cq || cq->cqe != 8 || cq_number(name, &cqn)) {
		fprintf(stderr, "CQ of 8: %s\n", strerror(errno));
		goto out;
	}
	/* 0, 1 polled: the indices are not where a new ring's start. */
	err = cq_inject(name, cqn, 6, 0);
	if (err) {
		fprintf(stderr, "inject: %s\n", strerror(err));
		goto out;
	}
	{
		struct ibv_wc wc[2];

		if (ibv_poll_cq(cq, 2, wc) != 2 || cq_check_wc(&wc[0], 0) ||
		    cq_check_wc(&wc[1], 1))
			goto out;
	}
	printf("6 completions delivered, 2 polled\n");

	err = ibv_resize_cq(cq, 3);
	if (err != EINVAL || cq->cqe != 8) {
		fprintf(stderr, "resize to 3 with 4 waiting: %s, cqe %d\n",
			strerror(err), cq->cqe);
		goto out;
	}
	if (ibv_resize_cq(cq, 0) != EINVAL ||
	    ibv_resize_cq(cq, attr.max_cqe + 1) != EINVAL) {
		fprintf(stderr, "resize to 0 or max_cqe + 1 not EINVAL\n");
		goto out;
	}
	if (cq_resize_raw(cq, 16, 2 + 5) != EINVAL ||
	    cq_resize_raw(cq, 16, 2 - 9) != EINVAL ||
	    cq_resize_raw(cq, 16, 0x80000000u) != EINVAL) {
		fprintf(stderr, "resize with a bad consumer index accepted\n");
		goto out;
	}
	printf("resize refused with EINVAL: too small, 0, max_cqe + 1, bad consumer index\n");

	err = ibv_resize_cq(cq, 100);
	if (err || cq->cqe < 100) {
		fprintf(stderr, "resize to 100: %s, cqe %d\n", strerror(err),
			cq->cqe);
		goto out;
	}
	err = cq_inject(name, cqn, 100, 6);
	if (err) {
		fprintf(stderr, "inject 100 after growing: %s\n", strerror(err));
		goto out;
	}
	if (cq_poll_expect(cq, 2, 104))
		goto out;
	printf("grown to %d with 4 waiting: 104 polled in order\n", cq->cqe);

	err = cq_inject(name, cqn, 3, 106);
	if (!err) {
		struct ibv_wc wc;

		if (ibv_poll_cq(cq, 1, &wc) != 1 || cq_check_wc(&wc, 106))
			goto out;
		err = ibv_resize_cq(cq, 2);
	}
	if (err || cq->cqe != 2) {
		fprintf(stderr, "shrink to 2 with 2 waiting: %s, cqe %d\n",
			strerror(err), cq->cqe);
		goto out;
	}
	/* Full at 2 once more: the third overflows the CQ, the last case. */
	if (cq_poll_expect(cq, 107, 2) || cq_inject(name, cqn, 2, 109))
		goto out;
	if (cq_inject(name, cqn, 1, 999) != ENOSPC) {
		fprintf(stderr, "a third completion fitted a ring of 2\n");
		goto out;
	}
	{
		struct ibv_wc wc[3];

		if (ibv_poll_cq(cq, 3, wc) != 2 || cq_check_wc(&wc[0], 109) ||
		    cq_check_wc(&wc[1], 110))
			goto out;
	}
	printf("shrunk to 2 with 2 waiting: polled in order, full at 2\n");
	ret = 0;
out:
	if (cq && ibv_destroy_cq(cq)) {
		fprintf(stderr, "ibv_destroy_cq failed\n");
		ret = 1;
	}
	ibv_close_device(ctx);
	return ret;
}

/*
 * The child of probe_cq_resize_race(): 16 completions from `first` on for
 * every byte read from `fd`, until EOF.
 */
static int cq_race_child(const char *name, unsigned int cqn, int fd,
			 uint64_t first)
{
	char token;
	int err;

	while (read(fd, &token, 1) == 1) {
		err = cq_inject(name, cqn, 16, first);
		if (err) {
			fprintf(stderr, "child: inject at %llu: %s\n",
				(unsigned long long)first, strerror(err));
			return 1;
		}
		first += 16;
	}
	return 0;
}

/*
 * Resizes racing deliveries: a child process delivers completions in
 * batches of 16 (at most 64 unpolled, by credits through a pipe) while
 * this one polls and resizes between 128 and 2048 entries; every
 * completion arrives once, in order.
 */
static int probe_cq_resize_race(const char *name)
{
	const int batches = 64, total = batches * 16;
	int sent = 0, got = 0, resizes = 0, idle = 0, iter = 0, pfd[2];
	struct ibv_context *ctx;
	struct ibv_cq *cq;
	struct ibv_wc wc[16];
	unsigned int cqn;
	int i, n, status, ret = 1;
	pid_t child;

	ctx = open_device(name);
	if (!ctx)
		return 1;
	cq = ibv_create_cq(ctx, 128, NULL, NULL, 0);
	if (!cq || cq_number(name, &cqn) || pipe(pfd)) {
		fprintf(stderr, "CQ of 128: %s\n", strerror(errno));
		goto out_cq;
	}
	child = fork();
	if (child < 0)
		goto out_pipe;
	if (!child) {
		close(pfd[1]);
		_exit(cq_race_child(name, cqn, pfd[0], 5000));
	}
	close(pfd[0]);
	pfd[0] = -1;
	while (got < total && idle < 20000) {
		if (sent < batches && sent * 16 - got <= 48) {
			if (write(pfd[1], "x", 1) != 1)
				break;
			sent++;
		}
		n = ibv_poll_cq(cq, 16, wc);
		if (n < 0)
			break;
		for (i = 0; i < n; i++)
			if (cq_check_wc(&wc[i], 5000 + got + i))
				goto out_child;
		got += n;
		idle = n ? 0 : idle + 1;
		if (!n)
			usleep(500);
		if (++iter % 4 == 0 && resizes < 400) {
			if (ibv_resize_cq(cq, resizes % 2 ? 128 : 2048)) {
				fprintf(stderr, "resize #%d failed\n", resizes);
				goto out_child;
			}
			resizes++;
		}
	}
	if (got == total && ibv_poll_cq(cq, 1, wc) == 0)
		ret = 0;
	else
		fprintf(stderr, "%d of %d completions\n", got, total);
out_child:
	close(pfd[1]);
	pfd[1] = -1;
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		ret = 1;
	if (!ret)
		printf("%d completions polled in order across %d resizes racing the deliveries\n",
		       total, resizes);
out_pipe:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
out_cq:
	if (cq && ibv_destroy_cq(cq))
		ret = 1;
	ibv_close_device(ctx);
	return ret;
}

/* One ibv_cq_ex completion against what superp_cq_probe_wc() sent. */
static int cq_ex_check(struct ibv_cq_ex *cq, uint64_t k)
{
	struct ibv_wc e = cq_expected(k);
	unsigned int flags = ibv_wc_read_wc_flags(cq);

	if (cq->wr_id != e.wr_id || cq->status != e.status ||
	    ibv_wc_read_opcode(cq) != e.opcode ||
	    ibv_wc_read_vendor_err(cq) != e.vendor_err ||
	    ibv_wc_read_byte_len(cq) != e.byte_len ||
	    ibv_wc_read_qp_num(cq) != e.qp_num ||
	    ibv_wc_read_src_qp(cq) != e.src_qp ||
	    flags != e.wc_flags ||
	    (flags & IBV_WC_WITH_IMM && ibv_wc_read_imm_data(cq) != e.imm_data) ||
	    ibv_wc_read_slid(cq) || ibv_wc_read_sl(cq) ||
	    ibv_wc_read_dlid_path_bits(cq)) {
		fprintf(stderr, "cq_ex #%llu: wr_id %llu status %d opcode %d flags 0x%x\n",
			(unsigned long long)k, (unsigned long long)cq->wr_id,
			cq->status, ibv_wc_read_opcode(cq), flags);
		return -1;
	}
	return 0;
}

/* Reads exactly first..first+n-1 in one start/next/end batch. */
static int cq_ex_poll_expect(struct ibv_cq_ex *cq, uint64_t first, int n)
{
	struct ibv_poll_cq_attr pa = {};
	int i, err;

	err = ibv_start_poll(cq, &pa);
	for (i = 0; !err; i++) {
		if (i >= n || cq_ex_check(cq, first + i)) {
			ibv_end_poll(cq);
			return -1;
		}
		err = ibv_next_poll(cq);
	}
	if (i)
		ibv_end_poll(cq);
	if (err != ENOENT || i != n) {
		fprintf(stderr, "cq_ex: %d of %d, then %s\n", i, n,
			strerror(err));
		return -1;
	}
	return 0;
}

static int cq_ex_refused(struct ibv_context *ctx, uint64_t wc_flags,
			 uint32_t comp_mask, uint32_t flags)
{
	struct ibv_cq_init_attr_ex a = {
		.cqe = 4,
		.wc_flags = wc_flags,
		.comp_mask = comp_mask,
		.flags = flags,
	};
	struct ibv_cq_ex *cq;

	errno = 0;
	cq = ibv_create_cq_ex(ctx, &a);
	if (cq || errno != EOPNOTSUPP) {
		fprintf(stderr, "cq_ex wc_flags 0x%llx comp_mask 0x%x flags 0x%x: %s\n",
			(unsigned long long)wc_flags, comp_mask, flags,
			cq ? "created" : strerror(errno));
		if (cq)
			ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
		return -1;
	}
	return 0;
}

/*
 * ibv_create_cq_ex: wc_flags, comp_mask and flags we cannot serve are
 * refused with EOPNOTSUPP; start_poll of an empty CQ is ENOENT; a
 * completion channel is signalled; every field reads as delivered, also
 * after a resize and mixed with ibv_poll_cq.
 */
static int probe_cq_ex(const char *name)
{
	struct ibv_cq_init_attr_ex a = {
		.cqe = 16,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
		.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS,
		.flags = IBV_CREATE_CQ_ATTR_SINGLE_THREADED,
	};
	struct ibv_poll_cq_attr pa = {};
	struct ibv_comp_channel *ch;
	struct ibv_cq_ex *cq = NULL;
	struct ibv_context *ctx;
	struct ibv_cq *ev_cq;
	struct pollfd pfd;
	unsigned int cqn;
	void *ev_ctx;
	int err, ret = 1;

	ctx = open_device(name);
	if (!ctx)
		return 1;
	ch = ibv_create_comp_channel(ctx);
	if (!ch)
		goto out;
	if (cq_ex_refused(ctx, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, 0, 0) ||
	    cq_ex_refused(ctx, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK, 0, 0) ||
	    cq_ex_refused(ctx, IBV_WC_EX_WITH_CVLAN, 0, 0) ||
	    cq_ex_refused(ctx, IBV_WC_EX_WITH_FLOW_TAG, 0, 0) ||
	    cq_ex_refused(ctx, 0, IBV_CQ_INIT_ATTR_MASK_PD, 0) ||
	    cq_ex_refused(ctx, 0, 1u << 7, 0) ||
	    cq_ex_refused(ctx, 0, IBV_CQ_INIT_ATTR_MASK_FLAGS,
			  IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN) ||
	    cq_ex_refused(ctx, 0, IBV_CQ_INIT_ATTR_MASK_FLAGS, 1u << 9))
		goto out;
	printf("cq_ex: unsupported wc_flags, comp_mask and flags refused with EOPNOTSUPP\n");

	a.channel = ch;
	cq = ibv_create_cq_ex(ctx, &a);
	if (!cq || cq_number(name, &cqn)) {
		fprintf(stderr, "ibv_create_cq_ex: %s\n", strerror(errno));
		goto out;
	}
	err = ibv_start_poll(cq, &pa);
	if (err != ENOENT) {
		fprintf(stderr, "start_poll of an empty CQ: %s\n", strerror(err));
		if (!err)
			ibv_end_poll(cq);
		goto out;
	}
	printf("cq_ex: start_poll of an empty CQ returns ENOENT\n");

	if (ibv_req_notify_cq(ibv_cq_ex_to_cq(cq), 0)) {
		fprintf(stderr, "ibv_req_notify_cq failed\n");
		goto out;
	}
	err = cq_inject(name, cqn, 7, 1000);
	if (err) {
		fprintf(stderr, "inject: %s\n", strerror(err));
		goto out;
	}
	pfd = (struct pollfd){ .fd = ch->fd, .events = POLLIN };
	if (poll(&pfd, 1, 10000) != 1 ||
	    ibv_get_cq_event(ch, &ev_cq, &ev_ctx) ||
	    ev_cq != ibv_cq_ex_to_cq(cq)) {
		fprintf(stderr, "no completion event\n");
		goto out;
	}
	ibv_ack_cq_events(ev_cq, 1);
	printf("cq_ex: completion channel signalled\n");
	if (cq_ex_poll_expect(cq, 1000, 7))
		goto out;
	printf("cq_ex: 7 completions polled, every field as delivered\n");

	/* a batch, then ibv_poll_cq, then a resize: one consumer index */
	if (cq_inject(name, cqn, 5, 1007))
		goto out;
	if (ibv_start_poll(cq, &pa) || cq_ex_check(cq, 1007))
		goto out;
	ibv_end_poll(cq);
	{
		struct ibv_wc wc;

		if (ibv_poll_cq(ibv_cq_ex_to_cq(cq), 1, &wc) != 1 ||
		    cq_check_wc(&wc, 1008))
			goto out;
	}
	err = ibv_resize_cq(ibv_cq_ex_to_cq(cq), 64);
	if (err) {
		fprintf(stderr, "cq_ex resize: %s\n", strerror(err));
		goto out;
	}
	if (cq_ex_poll_expect(cq, 1009, 3))
		goto out;
	printf("cq_ex: mixed with ibv_poll_cq and across a resize, in order\n");
	ret = 0;
out:
	if (cq && ibv_destroy_cq(ibv_cq_ex_to_cq(cq))) {
		fprintf(stderr, "ibv_destroy_cq failed\n");
		ret = 1;
	}
	if (ch && ibv_destroy_comp_channel(ch))
		ret = 1;
	ibv_close_device(ctx);
	return ret;
}

/*
 * The next asynchronous event within @ms milliseconds, acknowledged:
 * 1 and its type and CQ, or 0 when none came.
 */
static int cq_async_event(struct ibv_context *ctx, int ms,
			  enum ibv_event_type *type, struct ibv_cq **cq)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event ev;

	if (poll(&pfd, 1, ms) != 1 || ibv_get_async_event(ctx, &ev))
		return 0;
	*type = ev.event_type;
	*cq = ev.element.cq;
	ibv_ack_async_event(&ev);
	return 1;
}

/*
 * A CQ overflow (Documentation/superp-verbs.rst, "Completion queues"): a
 * CQ of 2 takes two completions and refuses the third; the process gets
 * IBV_EVENT_CQ_ERR for that CQ, once; the two completions held poll in
 * order, then polling fails with EIO (ibv_poll_cq and start_poll alike);
 * the CQ in error takes no completion, even with room in its ring; it is
 * destroyed once its event is acknowledged. Every step is tried and
 * printed, so that a failure shows all that differs.
 */
static int probe_cq_overflow(const char *name)
{
	struct ibv_cq_init_attr_ex a = {
		.cqe = 2,
		.wc_flags = IBV_WC_STANDARD_FLAGS,
	};
	struct ibv_poll_cq_attr pa = {};
	enum ibv_event_type type;
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq;
	struct ibv_cq *ev_cq;
	struct ibv_wc wc[4];
	int err, n, ret = 0;
	unsigned int cqn;

	ctx = open_device(name);
	if (!ctx)
		return 1;
	cq = ibv_create_cq_ex(ctx, &a);
	if (!cq || cq->cqe != 2 || cq_number(name, &cqn)) {
		fprintf(stderr, "CQ of 2: %s\n", strerror(errno));
		if (cq)
			ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
		ibv_close_device(ctx);
		return 1;
	}

	err = cq_inject(name, cqn, 5, 0);
	printf("overflow: 5 completions into a CQ of 2: %s\n",
	       err ? strerror(err) : "all taken");
	ret |= err != ENOSPC;

	n = cq_async_event(ctx, 5000, &type, &ev_cq);
	if (n && type == IBV_EVENT_CQ_ERR && ev_cq == ibv_cq_ex_to_cq(cq))
		printf("overflow: IBV_EVENT_CQ_ERR for the CQ\n");
	else if (n)
		printf("overflow: event %d (%s)%s\n", type,
		       ibv_event_type_str(type),
		       ev_cq == ibv_cq_ex_to_cq(cq) ? "" : " not for the CQ");
	else
		printf("overflow: no asynchronous event within 5 s\n");
	ret |= !n || type != IBV_EVENT_CQ_ERR;

	err = cq_inject(name, cqn, 1, 5);
	printf("overflow: a completion into the full CQ in error: %s\n",
	       err ? strerror(err) : "taken");
	ret |= err != EIO;
	n = cq_async_event(ctx, 200, &type, &ev_cq);
	if (n)
		printf("overflow: a second event %d (%s)\n", type,
		       ibv_event_type_str(type));
	ret |= n;

	n = ibv_poll_cq(ibv_cq_ex_to_cq(cq), 4, wc);
	if (n == 2 && !cq_check_wc(&wc[0], 0) && !cq_check_wc(&wc[1], 1)) {
		printf("overflow: the 2 completions held polled in order\n");
	} else {
		printf("overflow: poll of the CQ in error: %d\n", n);
		ret = 1;
	}
	n = ibv_poll_cq(ibv_cq_ex_to_cq(cq), 4, wc);
	err = ibv_start_poll(cq, &pa);
	if (!err)
		ibv_end_poll(cq);
	printf("overflow: then ibv_poll_cq returns %d, start_poll %s\n", n,
	       strerror(err));
	ret |= n != -EIO || err != EIO;

	err = cq_inject(name, cqn, 1, 6);
	printf("overflow: a completion into the CQ in error with room: %s\n",
	       err ? strerror(err) : "taken");
	ret |= err != EIO;

	if (ibv_destroy_cq(ibv_cq_ex_to_cq(cq))) {
		printf("overflow: ibv_destroy_cq: %s\n", strerror(errno));
		ret = 1;
	} else {
		printf("overflow: CQ destroyed\n");
	}
	ibv_close_device(ctx);
	return ret;
}

/*
 * POST_RECV of one work request with one SGE straight to the uverbs file,
 * as an old provider would send it. Returns 0 or the errno.
 */
static int raw_post_recv(int fd, uint32_t qp_handle, void *buf,
			 uint32_t len, uint32_t lkey)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_post_recv cmd;
		struct ib_uverbs_recv_wr wr;
		struct ib_uverbs_sge sge;
	} __attribute__((packed)) c;
	struct ib_uverbs_post_recv_resp resp = {};

	memset(&c, 0, sizeof(c));
	c.hdr.command = IB_USER_VERBS_CMD_POST_RECV;
	c.hdr.in_words = sizeof(c) / 4;
	c.hdr.out_words = sizeof(resp) / 4;
	c.cmd.response = (uintptr_t)&resp;
	c.cmd.qp_handle = qp_handle;
	c.cmd.wr_count = 1;
	c.cmd.sge_count = 1;
	c.cmd.wqe_size = sizeof(c.wr);
	c.wr.wr_id = 7;
	c.wr.num_sge = 1;
	c.sge.addr = (uintptr_t)buf;
	c.sge.length = len;
	c.sge.lkey = lkey;
	if (write(fd, &c, sizeof(c)) != (ssize_t)sizeof(c))
		return errno;
	return 0;
}

/* To INIT, then the attributes query_qp gives back must be those. */
static int qp_to_init(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};
	struct ibv_qp_init_attr init;
	int err;

	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (err) {
		fprintf(stderr, "ibv_modify_qp to INIT: %s\n", strerror(err));
		return 0;
	}
	memset(&a, 0, sizeof(a));
	err = ibv_query_qp(qp, &a, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS, &init);
	if (err) {
		fprintf(stderr, "ibv_query_qp: %s\n", strerror(err));
		return 0;
	}
	if (a.qp_state != IBV_QPS_INIT ||
	    a.qp_access_flags != IBV_ACCESS_REMOTE_WRITE) {
		fprintf(stderr, "query_qp: state %d access 0x%x\n",
			a.qp_state, a.qp_access_flags);
		return 0;
	}
	return 1;
}

/*
 * User QPs on rings: the provider maps both rings of each (it checks
 * their geometry against what the kernel granted and fails the create
 * otherwise); modify and query work; the kernel takes no work request
 * list for a user QP, whose WQEs come through its rings.
 */
static int probe_qp(const char *name)
{
	static const struct ibv_qp_cap caps[] = {
		{ .max_send_wr = 1, .max_recv_wr = 1,
		  .max_send_sge = 1, .max_recv_sge = 1 },
		{ .max_send_wr = 100, .max_recv_wr = 500,
		  .max_send_sge = 4, .max_recv_sge = 2,
		  .max_inline_data = 256 },
		{ .max_send_wr = 16384, .max_recv_wr = 16384,
		  .max_send_sge = 32, .max_recv_sge = 32 },
	};
	struct ibv_qp *qp[ARRAY_SIZE(caps)] = {};
	struct ibv_context *ctx;
	struct ibv_mr *mr = NULL;
	struct ibv_cq *cq = NULL;
	struct ibv_pd *pd;
	static char buf[4096];
	int i, err, ret = 1;

	pd = open_pd(name, &ctx);
	if (!pd)
		return 1;
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	if (!cq || !mr) {
		perror("ibv_create_cq/ibv_reg_mr");
		goto out;
	}
	for (i = 0; i < (int)ARRAY_SIZE(caps); i++) {
		struct ibv_qp_init_attr init = {
			.send_cq = cq,
			.recv_cq = cq,
			.cap = caps[i],
			.qp_type = IBV_QPT_RC,
		};

		qp[i] = ibv_create_qp(pd, &init);
		if (!qp[i]) {
			fprintf(stderr, "ibv_create_qp #%d: %s\n", i,
				strerror(errno));
			goto out;
		}
		if (init.cap.max_send_wr < caps[i].max_send_wr ||
		    init.cap.max_recv_wr < caps[i].max_recv_wr ||
		    init.cap.max_inline_data < caps[i].max_inline_data) {
			fprintf(stderr, "QP #%d: granted less than asked\n", i);
			goto out;
		}
	}
	printf("created %zu user QPs with their rings\n", ARRAY_SIZE(qp));
	if (!qp_to_init(qp[1]))
		goto out;
	printf("modified to INIT and queried\n");
	err = raw_post_recv(ctx->cmd_fd, qp[1]->handle, buf, sizeof(buf),
			    mr->lkey);
	printf("POST_RECV work request list: %s\n",
	       err ? strerror(err) : "accepted");
	if (err)
		ret = 0;
out:
	for (i = 0; i < (int)ARRAY_SIZE(qp); i++)
		if (qp[i] && ibv_destroy_qp(qp[i])) {
			fprintf(stderr, "ibv_destroy_qp #%d failed\n", i);
			ret = 1;
		}
	if (mr && ibv_dereg_mr(mr))
		ret = 1;
	if (cq && ibv_destroy_cq(cq))
		ret = 1;
	if (dealloc_pd(pd))
		ret = 1;
	ibv_close_device(ctx);
	if (!ret)
		printf("destroyed all QPs\n");
	return ret;
}

/* The operations superp offers an RC QP; a UD QP has the two sends. */
static const uint64_t qp_ex_rc_ops[] = {
	IBV_QP_EX_WITH_SEND, IBV_QP_EX_WITH_SEND_WITH_IMM,
	IBV_QP_EX_WITH_RDMA_WRITE, IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM,
	IBV_QP_EX_WITH_RDMA_READ, IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP,
	IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD, IBV_QP_EX_WITH_SEND_WITH_INV,
	IBV_QP_EX_WITH_LOCAL_INV, IBV_QP_EX_WITH_BIND_MW,
};

/* the ten above */
#define QP_EX_RC_ALL (0x7fULL | IBV_QP_EX_WITH_SEND_WITH_INV | \
		      IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_BIND_MW)
#define QP_EX_UD_ALL (IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM)

/* The wr_<opcode> function of one of qp_ex_rc_ops. */
static void *qp_ex_op_fn(struct ibv_qp_ex *q, uint64_t op)
{
	switch (op) {
	case IBV_QP_EX_WITH_SEND: return q->wr_send;
	case IBV_QP_EX_WITH_SEND_WITH_IMM: return q->wr_send_imm;
	case IBV_QP_EX_WITH_RDMA_WRITE: return q->wr_rdma_write;
	case IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM: return q->wr_rdma_write_imm;
	case IBV_QP_EX_WITH_RDMA_READ: return q->wr_rdma_read;
	case IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP: return q->wr_atomic_cmp_swp;
	case IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD: return q->wr_atomic_fetch_add;
	case IBV_QP_EX_WITH_SEND_WITH_INV: return q->wr_send_inv;
	case IBV_QP_EX_WITH_LOCAL_INV: return q->wr_local_inv;
	case IBV_QP_EX_WITH_BIND_MW: return q->wr_bind_mw;
	}
	return NULL;
}

struct qp_ex_case {
	enum ibv_qp_type type;
	uint32_t mask;		/* beside IBV_QP_INIT_ATTR_PD */
	uint64_t ops;
	uint32_t create_flags;
	int err;		/* 0: created */
};

/*
 * One ibv_create_qp_ex: created with the common functions and a
 * wr_<opcode> for each operation asked and none for the others, or
 * refused with c->err. Returns 0 when it went so.
 */
static int qp_ex_try(struct ibv_context *ctx, struct ibv_pd *pd,
		     struct ibv_cq *cq, const struct qp_ex_case *c)
{
	struct ibv_qp_init_attr_ex a = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = c->type,
		.comp_mask = IBV_QP_INIT_ATTR_PD | c->mask,
		.pd = pd,
		.send_ops_flags = c->ops,
		.create_flags = c->create_flags,
	};
	int i, ud = c->type == IBV_QPT_UD, ret = 0;
	struct ibv_qp_ex *q;
	struct ibv_qp *qp;

	errno = 0;
	qp = ibv_create_qp_ex(ctx, &a);
	if (!qp || c->err) {
		if (!qp && errno == c->err)
			return 0;
		fprintf(stderr, "qp_ex type %d mask 0x%x ops 0x%llx flags 0x%x: %s, not %s\n",
			c->type, c->mask, (unsigned long long)c->ops,
			c->create_flags, qp ? "created" : strerror(errno),
			c->err ? strerror(c->err) : "created");
		if (qp)
			ibv_destroy_qp(qp);
		return -1;
	}
	q = ibv_qp_to_qp_ex(qp);
	if (!q || !q->wr_start || !q->wr_complete || !q->wr_abort ||
	    !q->wr_set_sge || !q->wr_set_inline_data ||
	    ud != !!q->wr_set_ud_addr) {
		fprintf(stderr, "qp_ex type %d: no ibv_qp_ex or its common functions\n",
			c->type);
		ret = -1;
	}
	for (i = 0; q && i < (int)ARRAY_SIZE(qp_ex_rc_ops); i++) {
		uint64_t op = qp_ex_rc_ops[i];

		if (!qp_ex_op_fn(q, op) == !(c->ops & op))
			continue;
		fprintf(stderr, "qp_ex type %d ops 0x%llx: wr_* of 0x%llx %s\n",
			c->type, (unsigned long long)c->ops,
			(unsigned long long)op,
			c->ops & op ? "missing" : "installed unasked");
		ret = -1;
	}
	if (ibv_destroy_qp(qp))
		ret = -1;
	return ret;
}

/*
 * ibv_create_qp_ex as rxe's provider answers it: every operation of the
 * QP's type, alone and together, also with IBV_QP_INIT_ATTR_CREATE_FLAGS
 * and no flag; other operations, creation flags, comp_mask bits and QP
 * types are refused with EOPNOTSUPP (Documentation/provider.rst).
 */
static int probe_qp_ex(const char *name)
{
	const uint32_t ops = IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	const uint32_t flags = IBV_QP_INIT_ATTR_CREATE_FLAGS;
	const struct qp_ex_case fixed[] = {
		{ IBV_QPT_RC, ops, QP_EX_RC_ALL, 0, 0 },
		{ IBV_QPT_RC, ops | flags, QP_EX_RC_ALL, 0, 0 },
		{ IBV_QPT_RC, flags, 0, 0, 0 },
		{ IBV_QPT_UD, ops, IBV_QP_EX_WITH_SEND, 0, 0 },
		{ IBV_QPT_UD, ops | flags, QP_EX_UD_ALL, 0, 0 },
		{ IBV_QPT_RC, ops, IBV_QP_EX_WITH_TSO, 0, EOPNOTSUPP },
		{ IBV_QPT_RC, ops, QP_EX_RC_ALL | IBV_QP_EX_WITH_ATOMIC_WRITE, 0,
		  EOPNOTSUPP },
		{ IBV_QPT_RC, flags, 0, IBV_QP_CREATE_BLOCK_SELF_MCAST_LB,
		  EOPNOTSUPP },
		{ IBV_QPT_UD, flags, 0, IBV_QP_CREATE_SOURCE_QPN, EOPNOTSUPP },
		{ IBV_QPT_RC, IBV_QP_INIT_ATTR_MAX_TSO_HEADER, 0, 0, EOPNOTSUPP },
		{ IBV_QPT_UC, ops, IBV_QP_EX_WITH_SEND, 0, EOPNOTSUPP },
	};
	int i, bad = 0, accepted = 0, refused = 0;
	struct ibv_context *ctx;
	struct qp_ex_case c;
	struct ibv_cq *cq;
	struct ibv_pd *pd;

	pd = open_pd(name, &ctx);
	if (!pd)
		return 1;
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!cq) {
		perror("ibv_create_cq");
		bad++;
		goto out;
	}
	/* Each RC operation alone; on UD, each beyond the sends refused. */
	for (i = 0; i < (int)ARRAY_SIZE(qp_ex_rc_ops); i++) {
		c = (struct qp_ex_case){ .type = IBV_QPT_RC, .mask = ops,
					 .ops = qp_ex_rc_ops[i] };
		bad += !!qp_ex_try(ctx, pd, cq, &c);
		accepted++;
		if (qp_ex_rc_ops[i] & QP_EX_UD_ALL)
			continue;
		c = (struct qp_ex_case){ .type = IBV_QPT_UD, .mask = ops,
					 .ops = QP_EX_UD_ALL | qp_ex_rc_ops[i],
					 .err = EOPNOTSUPP };
		bad += !!qp_ex_try(ctx, pd, cq, &c);
		refused++;
	}
	for (i = 0; i < (int)ARRAY_SIZE(fixed); i++) {
		bad += !!qp_ex_try(ctx, pd, cq, &fixed[i]);
		if (fixed[i].err)
			refused++;
		else
			accepted++;
	}
	printf("qp_ex: %d created with their wr_* functions, %d refused (EOPNOTSUPP), %d wrong\n",
	       accepted, refused, bad);
out:
	if (cq && ibv_destroy_cq(cq))
		bad++;
	if (dealloc_pd(pd))
		bad++;
	ibv_close_device(ctx);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	long n, size, access;

	if (argc == 4 && !strcmp(argv[1], "pd"))
		return probe_pd(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "context"))
		return probe_context(argv[2], strtoull(argv[3], NULL, 0));
	if (argc == 6 && !strcmp(argv[1], "mr")) {
		if (!parse_num(argv[3], 1, 1 << 24, &n) ||
		    !parse_num(argv[4], 1, SSIZE_MAX, &size) ||
		    !parse_num(argv[5], 0, UINT_MAX, &access))
			return show_usage(argv[0]);
		return probe_mr(argv[2], n, size, access);
	}
	if (argc == 3 && !strcmp(argv[1], "mr-bad"))
		return probe_mr_bad(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "mr-cycle")) {
		if (!parse_num(argv[3], 1, 1 << 24, &n))
			return show_usage(argv[0]);
		return probe_mr_cycle(argv[2], n);
	}
	if (argc == 5 && !strcmp(argv[1], "mr-iova")) {
		if (!parse_num(argv[3], 1, 1 << 24, &size))
			return show_usage(argv[0]);
		return probe_mr_iova(argv[2], size, strtoull(argv[4], NULL, 0));
	}
	if (argc == 3 && !strcmp(argv[1], "cq"))
		return probe_cq(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "cq-resize"))
		return probe_cq_resize(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "cq-resize-race"))
		return probe_cq_resize_race(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "qp"))
		return probe_qp(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "qp-ex"))
		return probe_qp_ex(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "cq-ex"))
		return probe_cq_ex(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "cq-overflow"))
		return probe_cq_overflow(argv[2]);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "udata"))
		return probe_udata(argv[2], argc == 4 ? atoi(argv[3]) : 1);
	if (argc == 4 && !strcmp(argv[1], "hold")) {
		if (!parse_num(argv[3], 1, 3600, &n))
			return show_usage(argv[0]);
		return probe_hold(argv[2], n);
	}
	return show_usage(argv[0]);
}
