/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: RC QPs over connections (Documentation/superp-rc.rst):
 * binding (superp_rc_bind.c), the initiator (superp_rc_send.c and the
 * files superp_rc_int.h names) and the target (superp_rc_recv.c). The
 * locking rules are at the top of each.
 */
#ifndef SUPERP_RC_H
#define SUPERP_RC_H

#include <linux/list.h>
#include <linux/log2.h>
#include <linux/timer.h>
#include <linux/types.h>

#include "superp_rma.h"
#include "superp_tx.h"

struct superp_conn;

/*
 * The target's per-transaction slots of a connection: tal_trans_window
 * rounded up to a power of two. XIDs are 16 bits, so a power of two keeps
 * the XIDs of any window (consecutive modulo 2^16) in distinct slots
 * across the wrap; a modulo by the window itself would not (24 slots:
 * XIDs 65530..65535 and 0..17 share six slots).
 */
static inline u32 superp_rc_tgt_slots(u32 tal_window)
{
	return roundup_pow_of_two(tal_window ? tal_window : 1);
}

static inline u32 superp_rc_slot_index(u32 slots, u16 xid)
{
	return xid & (slots - 1);
}

struct work_struct;
struct superp_conn_entry;
struct superp_mr;
struct superp_pkt;
struct superp_qp;
struct superp_recv_wqe;
struct superp_rc_wr;

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
 * @rnr_timer_ready: @rnr_timer is set up (superp_qp_bind()).
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

/**
 * struct superp_rc_tgt - the target's state of one transaction of a
 * connection, in the entry's array indexed by XID modulo its size.
 * @src: cookie of its reply (Read Response packets, the Atomic Response,
 *	or the Transaction Error).
 * @err: first Transaction Error code found in its packets, 0 if none.
 * @err_seqno: the packet of the operation that failed with @err.
 * @err_opnum: that operation's place in its packet.
 * @mr: RDMA Read: the MR read from, held until target_done.
 * @addr: RDMA Read: first byte.
 * @len: RDMA Read: bytes.
 * @mtu: RDMA Read: payload of a full Read Response packet.
 * @orig: atomic: the value before it executed, kept (the request is never
 *	executed again) until the Atomic Response is acknowledged, so that
 *	a retransmitted response carries the same value.
 */
struct superp_rc_tgt {
	struct superp_xact_src	src;
	u32			err;
	u16			err_seqno;
	u8			err_opnum;
	struct superp_mr	*mr;
	u64			addr;
	u32			len;
	u32			mtu;
	u64			orig;
};

/* superp_rc_bind.c */
int superp_rc_conn_init(struct superp_conn_entry *e, u32 tal_window);
void superp_rc_conn_unbind_all(struct superp_conn_entry *e);
void superp_rc_conn_stop(struct superp_conn_entry *e);
void superp_rc_conn_free(struct superp_conn_entry *e);
void superp_rc_conn_broken(struct superp_conn_entry *e, int reason);
extern bool superp_rc_allow_unbound;

/*
 * The initiator: superp_rc_send.c; superp_rc_status() is in
 * superp_rc_reply.c, superp_rc_rnr_*() in superp_rc_rnr.c and
 * superp_rc_qp_locked() in superp_rc_bind.c.
 */
enum ib_wc_status superp_rc_status(int status, u32 err);
void superp_rc_kick(struct superp_qp *qp);
void superp_rc_kick_later(struct superp_qp *qp);
void superp_rc_kick_work(struct work_struct *work);
void superp_rc_qp_drop(struct superp_qp *qp);
void superp_rc_qp_cancel(struct superp_qp *qp);
bool superp_rc_qp_locked(struct superp_qp *qp,
			 void (*fn)(struct superp_conn_entry *e,
				    struct superp_qp *qp));
void superp_rc_tx_ready(struct superp_conn *c);
void superp_rc_rnr_timer(struct timer_list *t);
u32 superp_rc_rnr_usecs(u8 min_rnr_timer);

/* superp_rc_recv.c */
void superp_rc_target_pkt(struct superp_conn *c, const struct superp_pkt *p,
			  void *buf);
int superp_rc_target_request(struct superp_conn *c, u16 xid, u8 opcode);
void superp_rc_target_done(struct superp_conn *c, u16 xid, void *cookie,
			   int status);

#endif /* SUPERP_RC_H */
