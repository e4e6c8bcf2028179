/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: the state RC keeps on each connection. The connection entry
 * (struct superp_conn_entry, superp_conn_table.h) holds it, so that RC
 * needs no allocation or pointer per connection, and never reads it: only
 * the RC files do, under the entry's lock.
 */
#ifndef SUPERP_RC_CONN_H
#define SUPERP_RC_CONN_H

#include <linux/list.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct superp_rc_tgt;

/**
 * struct superp_rc_conn - RC on one connection.
 * @qps: RC QPs bound to this connection (struct superp_rc_qp.node)
 *	(superp_rc_bind.c).
 * @tgt: the target's per-transaction state, @tgt_slots entries indexed by
 *	XID modulo @tgt_slots (superp_rc_recv.c); NULL until the first QP
 *	binds to the connection (superp_rc_qp_bind()), then kept until the
 *	entry's free.
 * @tgt_slots: the connection's tal_trans_window rounded up to a power of
 *	two (superp_rc_tgt_slots()).
 * @kick_work: runs the bound QPs' send queues for posts made with
 *	interrupts disabled (superp_rc_send.c).
 * @qps_waiting: a bound QP's transaction was refused for the window
 *	since the last round robin: other kicks leave their QP to the next,
 *	which tx_ready() runs (superp_rc_send.c).
 */
struct superp_rc_conn {
	struct list_head	qps;
	struct superp_rc_tgt	*tgt;
	u32			tgt_slots;
	struct work_struct	kick_work;
	bool			qps_waiting;
};

#endif /* SUPERP_RC_CONN_H */
