/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: the RC initiator's own declarations, shared by its files and
 * by nothing else (the rest of the driver has superp_rc.h):
 * superp_rc_send.c takes, submits and schedules the send WRs;
 * superp_rc_fill.c builds their request packets; superp_rc_reply.c takes
 * the answers and completes the WRs; superp_rc_rnr.c runs the RNR and
 * absent target QP waits and the QP Resume; superp_rc_pack.c packs small
 * WRITEs. superp_rc_payload.c walks the payloads, for the target too.
 *
 * Locking: everything here runs under the bound entry's lock
 * (superp_conn_entry.lock, BH); superp_rc_send.c says who takes it,
 * superp_rc_bind.c has the lock order.
 */
#ifndef SUPERP_RC_INT_H
#define SUPERP_RC_INT_H

#include <linux/types.h>

#include "superp_msg.h"
#include "superp_op.h"
#include "superp_qp.h"
#include "superp_rc.h"

struct sk_buff;
struct superp_conn_entry;
struct superp_pkt;

/**
 * struct superp_rc_wr - a send WR being run.
 * @e: the connection it runs on.
 * @qp: its QP, held.
 * @msg: its shape (superp_msg.c).
 * @nxacts: its transactions.
 * @next_x: the next transaction to submit.
 * @pending: transactions submitted and not completed.
 * @placed: of those, RDMA Read and atomic ones whose reply is placed.
 * @dqpn: the destination QP.
 * @write_xid: XID of its last RDMA Write transaction (for Write Complete).
 * @status: enum ib_wc_status: the first failure, or success.
 * @done: its completion is posted; the WR stays until @pending is 0.
 * @wqe: the WR as posted; SGEs or inline data follow.
 */
struct superp_rc_wr {
	struct superp_conn_entry *e;
	struct superp_qp *qp;
	struct superp_msg msg;
	u32 nxacts;
	u32 next_x;
	u32 pending;
	u32 placed;
	u32 dqpn;
	u16 write_xid;
	u8 status;
	bool done;
	struct superp_send_wqe wqe;
};

/**
 * struct superp_rc_xact - one transaction of a WR: the engine's cookie.
 * @src: what the engine holds.
 * @wr: the WR (the first, when packed).
 * @mx: the transaction's part of @wr.
 * @nops: operations in its packet: 1, or the WRs packed.
 * @block: packed: the data block of each operation.
 * @err_op: the operation a Transaction Error names (its opnum).
 * @bad_err: that Transaction Error named no operation of ours.
 * @terr: a Transaction Error answered it.
 * @placed: its reply is placed and counted in wr->placed.
 * @packed: packed: the WRs of operations 1 .. @nops - 1, in posted order.
 */
struct superp_rc_xact {
	struct superp_xact_src src;
	struct superp_rc_wr *wr;
	struct superp_msg_xact mx;
	u8 nops;
	u8 err_op;
	bool bad_err;
	bool terr;
	bool placed;
	u16 block;
	struct superp_rc_wr *packed[];
};

/* The WR of operation @i of @x. */
static inline struct superp_rc_wr *
superp_rc_xact_wr(const struct superp_rc_xact *x, u8 i)
{
	return i ? x->packed[i - 1] : x->wr;
}

/* Transactions that max_rd_atomic bounds: those the target answers. */
static inline bool superp_rc_is_rd_atomic(u8 opcode)
{
	return opcode == SUPERP_OP_RDMA_READ ||
	       opcode == SUPERP_OP_ATOMIC_CAS ||
	       opcode == SUPERP_OP_ATOMIC_FADD;
}

/*
 * What a QP's turn on its connection did (superp_rc_turn()): nothing, as
 * the QP has nothing that may go now (no WR; an RNR wait, a fence or
 * max_rd_atomic holds it); one transaction went (a packed packet is one);
 * or the engine took nothing: its window is full, tx_ready() follows.
 */
enum superp_rc_turn {
	SUPERP_RC_TURN_IDLE,
	SUPERP_RC_TURN_WENT,
	SUPERP_RC_TURN_FULL,
};

/* superp_rc_send.c */
struct superp_rc_wr *
superp_rc_wr_take(struct superp_conn_entry *e, struct superp_qp *qp,
		  bool (*match)(const struct superp_send_wqe *wqe, void *arg),
		  void *arg);
void superp_rc_kick_locked(struct superp_conn_entry *e,
			   struct superp_qp *qp);

/* superp_rc_fill.c */
unsigned int superp_rc_room(struct superp_xact_src *src,
			    const struct superp_pkt *p);
int superp_rc_fill(struct superp_xact_src *src,
		   const struct superp_pkt *p, struct sk_buff *skb);

/* superp_rc_reply.c */
extern const struct superp_xact_ops superp_rc_xact_ops;
void superp_rc_wr_fail(struct superp_rc_wr *wr,
		       enum ib_wc_status status);
void superp_rc_wr_finish(struct superp_rc_wr *wr);
enum ib_wc_status superp_rc_refused_status(const struct superp_rc_wr *wr,
					   int err);

/* superp_rc_rnr.c */
bool superp_rc_refused(u32 err, bool *absent);
void superp_rc_rnr_refused(struct superp_qp *qp,
			   struct superp_rc_wr *wr, bool absent);
void superp_rc_rnr_answered(struct superp_qp *qp);
bool superp_rc_rnr_go(struct superp_conn_entry *e,
		      struct superp_qp *qp, enum superp_rc_turn *turn);

/* superp_rc_pack.c */
bool superp_rc_pack_leads(const struct superp_rc_wr *wr,
			  const struct superp_msg_xact *mx);
void superp_rc_pack_gather(struct superp_conn_entry *e,
			   struct superp_rc_xact *x, u8 max_ops);

#endif /* SUPERP_RC_INT_H */
