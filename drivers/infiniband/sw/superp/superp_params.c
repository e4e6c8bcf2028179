// SPDX-License-Identifier: GPL-2.0
/*
 * SUPERp configuration parameters: defaults and validation (the spec's
 * "Configuration parameters" table; units in Documentation/superp-engine.rst).
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <kunit/visibility.h>
#include "superp_engine.h"

const struct superp_params superp_default_params = {
	.pdl_retrans_time_out	= 20000,	/* 20 ms */
	.pdl_rtx_time_win	= 0,
	.pdl_rtx_max_pkts	= 8,
	.pdl_max_rtx		= 4,
	.pdl_delayed_ack_time	= 500,		/* 0.5 ms */
	.pdl_window_size	= 32,
	.pdl_conn_per_xpu	= 64,
	.pdl_receive_win	= 32,
	.pdl_stretch_ack	= 4,
	.pdl_fast_rtx_limit	= 8,
	.tal_trans_window	= 32,
	.tal_max_pkt_per_trans	= 32,
	/*
	 * The most the 4-bit field carries (the spec's table says 8):
	 * packing never waits for a packet to fill, so a higher limit only
	 * helps where small WRs queue, halving their packets and ACKs.
	 */
	.tal_max_ops_per_pkt	= 15,
	/*
	 * 10 s: a transaction that cannot finish (a request or reply packet
	 * refused after the PDL acknowledged it) ends the connection rather
	 * than holding both windows forever.
	 */
	.tal_transaction_timeout = 1000000000,
};
EXPORT_SYMBOL_IF_KUNIT(superp_default_params);

struct superp_param_range {
	const char *name;
	size_t off;
	u64 min;
	u64 max;
};

#define RANGE(f, lo, hi) { #f, offsetof(struct superp_params, f), lo, hi }

static const struct superp_param_range superp_ranges[] = {
	RANGE(pdl_retrans_time_out, 100, 60000000),
	RANGE(pdl_rtx_time_win, 0, 60000000),
	RANGE(pdl_rtx_max_pkts, 0, 64),
	RANGE(pdl_max_rtx, 1, 8),
	RANGE(pdl_delayed_ack_time, 1, 60000000),
	RANGE(pdl_window_size, 16, 1024),
	RANGE(pdl_conn_per_xpu, 1, 4096),
	RANGE(pdl_receive_win, 1, 1024),
	RANGE(pdl_stretch_ack, 1, 1024),
	RANGE(pdl_fast_rtx_limit, 0, 64),
	RANGE(tal_trans_window, 1, 1024),
	RANGE(tal_max_pkt_per_trans, 1, 4096),
	RANGE(tal_max_ops_per_pkt, 1, 15),
};

static u64 superp_param_get(const struct superp_params *p,
			    const struct superp_param_range *r)
{
	return *(const u32 *)((const char *)p + r->off);
}

/**
 * superp_params_validate() - check a parameter set.
 * @p: the parameters.
 * @why: set to a message naming the offending parameter on error.
 *
 * Return: 0, or -EINVAL when a value is out of its range or inconsistent
 * with another one.
 */
int superp_params_validate(const struct superp_params *p, const char **why)
{
	const struct superp_param_range *r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(superp_ranges); i++) {
		r = &superp_ranges[i];
		if (superp_param_get(p, r) < r->min ||
		    superp_param_get(p, r) > r->max) {
			*why = r->name;
			return -EINVAL;
		}
	}
	if (p->pdl_receive_win > p->pdl_window_size) {
		*why = "pdl_receive_win exceeds pdl_window_size";
		return -EINVAL;
	}
	if (p->pdl_delayed_ack_time >= p->pdl_retrans_time_out) {
		*why = "pdl_delayed_ack_time not below pdl_retrans_time_out";
		return -EINVAL;
	}
	if (p->pdl_stretch_ack > p->pdl_window_size) {
		*why = "pdl_stretch_ack exceeds pdl_window_size";
		return -EINVAL;
	}
	*why = NULL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(superp_params_validate);

static const char * const superp_event_names[SUPERP_EV_MAX] = {
	[SUPERP_EV_PSN_OUT_OF_WINDOW]	= "psn_out_of_window",
	[SUPERP_EV_ACK_OUT_OF_WINDOW]	= "ack_out_of_window",
	[SUPERP_EV_PSN_REUSE]		= "psn_reuse",
	[SUPERP_EV_CONN_BROKEN]		= "conn_broken",
	[SUPERP_EV_TGT_XID_OUT_OF_WINDOW] = "tgt_xid_out_of_window",
	[SUPERP_EV_TGT_XID_COMPLETED]	= "tgt_xid_completed",
	[SUPERP_EV_TGT_DUP_SEQNO]	= "tgt_dup_seqno",
	[SUPERP_EV_TGT_DUP_EOM]		= "tgt_dup_eom",
	[SUPERP_EV_INI_XID_OUT_OF_WINDOW] = "ini_xid_out_of_window",
	[SUPERP_EV_INI_XID_RETIRED]	= "ini_xid_retired",
	[SUPERP_EV_INI_EARLY_REPLY]	= "ini_early_reply",
	[SUPERP_EV_INI_DUP_SEQNO]	= "ini_dup_seqno",
	[SUPERP_EV_INI_DUP_EOM]		= "ini_dup_eom",
	[SUPERP_EV_ACK_XID_OUT_OF_WINDOW] = "ack_xid_out_of_window",
	[SUPERP_EV_SEQNO_RANGE]		= "seqno_range",
	[SUPERP_EV_BAD_OPCODE]		= "bad_opcode",
	[SUPERP_EV_TRANS_TIMEOUT]	= "trans_timeout",
	[SUPERP_EV_QUIESCENT]		= "quiescent",
	[SUPERP_EV_LITE_GAP]		= "lite_gap",
};

const char *superp_event_name(enum superp_event ev)
{
	if ((unsigned int)ev >= SUPERP_EV_MAX)
		return "unknown";
	return superp_event_names[ev];
}
EXPORT_SYMBOL_IF_KUNIT(superp_event_name);
