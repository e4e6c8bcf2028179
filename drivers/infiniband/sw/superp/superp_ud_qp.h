/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: UD's state in each QP (struct superp_qp.ud), used by the UD
 * type only (superp_ud.c); the verbs objects hold it without reading it.
 */
#ifndef SUPERP_UD_QP_H
#define SUPERP_UD_QP_H

#include <linux/spinlock.h>
#include <linux/workqueue.h>

struct superp_recv_wqe;

/**
 * struct superp_ud_qp - a UD or GSI QP's datagram state.
 * @rx_lock: serialises the QP's receives (BH): one datagram takes a
 *	receive WR, fills it and completes it before the next.
 * @rwqe: the receive WR being filled, under @rx_lock.
 * @kick_work: runs the send queue for a post made with interrupts off.
 */
struct superp_ud_qp {
	spinlock_t		rx_lock;	/* receives, one at a time; BH */
	struct superp_recv_wqe	*rwqe;
	struct work_struct	kick_work;
};

#endif /* SUPERP_UD_QP_H */
