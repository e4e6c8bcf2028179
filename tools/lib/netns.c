// SPDX-License-Identifier: GPL-2.0
/*
 * -n NETNS for the project's tools, as ip(8) has it: the command runs in a
 * network namespace named by `ip netns add`, without the second program
 * that `ip netns exec NETNS tool ...` starts. Our tools name devices
 * through netlink and ioctls, which follow the namespace; unlike ip(8),
 * they read nothing from /sys, so no mount namespace is needed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "genl.h"
#include "netns.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Where ip(8) keeps the names of network namespaces: /run/netns as
 * distributions build it, /var/run/netns as iproute2 does by default
 * (the same directory where /var/run links to /run).
 */
static const char *const netns_run_dirs[] = { "/run/netns", "/var/run/netns" };

void netns_enter(const char *name)
{
	char path[PATH_MAX];
	unsigned int i;
	int fd = -1;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		die("invalid network namespace name \"%s\"", name);
	for (i = 0; i < ARRAY_SIZE(netns_run_dirs) && fd < 0; i++) {
		snprintf(path, sizeof(path), "%s/%s", netns_run_dirs[i], name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		die("cannot open network namespace \"%s\": %s", name, strerror(errno));
	if (setns(fd, CLONE_NEWNET) < 0)
		die("cannot enter network namespace \"%s\": %s", name, strerror(errno));
	close(fd);
}

int netns_option(int argc, char **argv)
{
	if (strcmp(argv[1], "-n") && strcmp(argv[1], "-netns"))
		return 0;
	if (argc < 3)
		return -1;
	netns_enter(argv[2]);
	return 2;
}
