// SPDX-License-Identifier: GPL-2.0
/*
 * superp-kasan-trim: keep a debug guest's KASAN quarantine within its bound.
 *
 * Generic KASAN does not free a slab object at once: it parks it in a
 * quarantine, so that a use after free still finds it poisoned, and trims
 * the quarantine back to its bound (1/32 of memory) only when a slab
 * allocation that may sleep comes, one batch (1 MiB or more) per such
 * allocation. A guest whose only work is in softirq (it answers the
 * traffic while its test's processes wait, or poll a ring without a system
 * call) makes none, so every skb it frees stays allocated there: hundreds
 * of thousands after a long transfer, until the guest runs out of memory
 * (Documentation/testing.rst, "Known problems").
 *
 * Every PERIOD_MS (default 250) this opens a file a few times: each open()
 * allocates a struct file and a path name buffer, both with GFP_KERNEL,
 * each a trim. A fork would do as well, at a hundred times the cost.
 *
 *   superp-kasan-trim [PERIOD_MS]
 */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define OPENS_PER_PERIOD 16

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 250;
	struct timespec period;
	int i, fd;

	if (ms <= 0)
		ms = 250;
	period.tv_sec = ms / 1000;
	period.tv_nsec = (ms % 1000) * 1000000L;
	for (;;) {
		for (i = 0; i < OPENS_PER_PERIOD; i++) {
			fd = open("/proc/uptime", O_RDONLY);
			if (fd >= 0)
				close(fd);
		}
		nanosleep(&period, NULL);
	}
}
