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
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/superp-abi.h>

static int probe_pd(const char *name, int n)
{
	struct ibv_device **list, *dev = NULL;
	struct ibv_context *ctx;
	struct ibv_pd **pds;
	int i, num, ret = 1;

	list = ibv_get_device_list(&num);
	if (!list) {
		perror("ibv_get_device_list");
		return 1;
	}
	for (i = 0; i < num; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			dev = list[i];
	if (!dev) {
		fprintf(stderr, "%s: no such verbs device (provider not loaded?)\n", name);
		goto out_list;
	}
	ctx = ibv_open_device(dev);
	if (!ctx) {
		perror("ibv_open_device");
		goto out_list;
	}
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
	if (ibv_close_device(ctx)) {
		perror("ibv_close_device");
		ret = 1;
	}
out_list:
	ibv_free_device_list(list);
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
	printf("abi_version %u comp_mask 0x%llx reserved %u\n",
	       resp.drv.abi_version, (unsigned long long)resp.drv.comp_mask,
	       resp.drv.reserved);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "pd"))
		return probe_pd(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "context"))
		return probe_context(argv[2], strtoull(argv[3], NULL, 0));
	fprintf(stderr, "usage: %s pd DEV N | context DEV COMP_MASK\n", argv[0]);
	return 2;
}
