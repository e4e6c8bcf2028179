/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for <linux/log2.h>: what the engine uses of it. */
#ifndef SUPERP_SHIM_LOG2_H
#define SUPERP_SHIM_LOG2_H

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (8 * sizeof(long) - __builtin_clzl(n - 1));
}

#endif
