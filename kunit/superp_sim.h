/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Deterministic simulation of two SUPERp engines joined by a lossy channel:
 * seeded loss, duplication, reordering and delay on a simulated clock.
 * Both run SUPERp, or SUPERp-lite over an in-order channel (cfg->lite).
 * Built into the KUnit suite and into tools/superp-sim (user space).
 */
#ifndef SUPERP_SIM_H
#define SUPERP_SIM_H

#include "superp_engine.h"

struct superp_sim_cfg {
	u64 seed;
	u32 loss_ppm;		/* per million packets, 1000000 = all */
	u32 dup_ppm;
	u32 reorder_ppm;	/* packets delayed by several RTTs */
	u32 delay_ns;		/* one-way base delay */
	u32 jitter_ns;		/* uniform extra delay */
	u32 ntrans;		/* transactions each node initiates */
	u32 max_pkts;		/* largest transaction, 1..64 */
	u32 barrier_every;	/* every Nth transaction is a barrier, 0: none */
	u32 psn_base;		/* first PSN (tests wrap-around) */
	u16 xid_base;		/* first XID */
	bool ordered[2];	/* node i delivers in PSN order */
	bool hello;		/* SUPERP_CONN_HELLO, as ib_superp's */
	bool shutdown;		/* soft shutdown at the end */
	bool latency;		/* node 0 alone: one-packet writes and reads */
	bool lite;		/* SUPERp-lite, both nodes: superp_sim_lite_cfg() */
	u32 cancel_every;	/* node 0 cancels every Nth (0: never) */
	u64 max_sim_ns;		/* give up (deadlock) after this */
	struct superp_params params;
};

struct superp_sim_result {
	u64 submitted;
	u64 completed;		/* status 0 */
	u64 failed;		/* status < 0 */
	u64 cancelled;		/* -ECANCELED, counted in failed too */
	u32 refusals;		/* target events caused by cancellations */
	u64 packets;		/* put on the channel, ACKs included */
	u64 data_pkts;		/* PSN-carrying packets sent first time */
	u64 lost;
	u64 lost_data;		/* of lost: PSN-carrying packets */
	u64 lost_errors;	/* of lost_data: lite's unseen Transaction Errors */
	u64 duplicated;
	u64 reordered;		/* packets given a long delay */
	u64 rtx_timer;
	u64 rtx_fast;
	u64 rtx_proactive;
	u64 rtx_tail;
	u64 probes;		/* ACK XID probes */
	u64 pure_acks;
	u64 sacks;		/* packets sent naming a PSN past ACK PSN */
	u64 nacks;
	u64 sim_ns;
	u64 max_inflight_psn;	/* largest next_spsn - unacked_spsn seen */
	u64 max_lat_write;	/* submit to completion, simulated ns */
	u64 max_lat_read;
	u32 events;		/* error events, both nodes */
	u32 lite_gaps;		/* of events: SUPERP_EV_LITE_GAP */
	u32 lite_timeouts;	/* of events: SUPERP_EV_TRANS_TIMEOUT */
	bool broken[2];
	bool quiescent[2];
	char fail[160];		/* first violated invariant, "" if none */
};

void superp_sim_default_cfg(struct superp_sim_cfg *cfg);
void superp_sim_lite_cfg(struct superp_sim_cfg *cfg);
int superp_sim_run(const struct superp_sim_cfg *cfg,
		   struct superp_sim_result *res);

#endif /* SUPERP_SIM_H */
