/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in: nothing else runs on the simulator's thread. */
#ifndef SUPERP_SHIM_LINUX_SCHED_H
#define SUPERP_SHIM_LINUX_SCHED_H

static inline void cond_resched(void)
{
}

#endif
