/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: the state an RC QP keeps on its connection. struct superp_qp
 * holds it (no allocation and no pointer to follow on the data path) and
 * never reads it: only the RC files (superp_rc.h) do.
 */
#ifndef SUPERP_RC_QP_H
#define SUPERP_RC_QP_H

#include <linux/list.h>
#include <linux/timer.h>
#include <linux/types.h>

struct superp_rc_wr;
struct superp_recv_wqe;

/**
 * struct superp_rc_qp - a QP's state on its connection; everything but
 * @rwqe's allocation is under the bound entry's lock.
 * @node: in the entry's list of bound QPs.
 * @cur: initiator: the send WR whose transactions are being submitted.
 * @rd_inflight: initiator: RDMA Read and atomic transactions not yet
 *	completed (bounded by max_rd_atomic).
 * @xinflight: initiator: transactions submitted and not yet completed.
 * @rnr: initiator: enum superp_rc_rnr, the step of the QP's RNR wait.
 * @rnr_idx: initiator: wqe->idx of the first WR refused RNR.
 * @rnr_absent: initiator: the wait is for a target QP that is not there
 *	(INVALID/NO_QP or QP_STATE): no Resume, its timer fails @rnr_idx.
 * @rnr_tries: initiator: QP Resumes sent since a WR last completed well.
 * @rnr_timer: initiator: min_rnr_timer after the last answer came in.
 * @rnr_timer_ready: @rnr_timer is set up (superp_rc_qp_bind()).
 * @cancelled: initiator: superp_rc_qp_cancel() ran: nothing more is
 *	submitted and the WRs still held complete silently (until RTR).
 * @idle: initiator: had nothing that could go in the current round robin
 *	of its connection (superp_rc_kick_all()).
 * @tgt_rnr: target: a Send found no receive; every request of the QP is
 *	refused RNR until a QP Resume.
 * @rwqe: target: the receive WR of the message being received.
 * @rvalid: target: @rwqe holds a receive taken for the current message.
 * @rerr: target: Transaction Error of the current message, until its last
 *	transaction.
 * @rlen: target: bytes of the current message placed so far (its end).
 */
struct superp_rc_qp {
	struct list_head	node;
	struct superp_rc_wr	*cur;
	u32			rd_inflight;
	u32			xinflight;
	u8			rnr;
	u32			rnr_idx;
	bool			rnr_absent;
	u8			rnr_tries;
	struct timer_list	rnr_timer;
	bool			rnr_timer_ready;
	bool			cancelled;
	bool			idle;
	bool			tgt_rnr;
	struct superp_recv_wqe	*rwqe;
	bool			rvalid;
	u32			rerr;
	u64			rlen;
};

/*
 * The initiator's RNR wait (Documentation/superp-rc.rst, "receiver not
 * ready"): refused, waiting for the QP's other answers; then the timer;
 * then the QP Resume is due (it waits for the window like any request).
 * A wait for an absent target QP ends at its timer instead.
 */
enum superp_rc_rnr {
	SUPERP_RC_RNR_NONE,
	SUPERP_RC_RNR_ANSWERS,
	SUPERP_RC_RNR_TIMER,
	SUPERP_RC_RNR_RESUME,
};

#endif /* SUPERP_RC_QP_H */
