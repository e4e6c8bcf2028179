// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: how the device joins its layers. Each layer names only the
 * ones below it (Documentation/superp-datapath.rst, "Layers"); where a
 * lower one must reach up, it calls through a table that is filled in
 * here, at the top:
 *  - a connection's engine callbacks (struct superp_engine_ops): transmit,
 *    the deadline and held buffers from the transport (superp_tx.c), the
 *    target's side and the window opening from RC, events to the netlink
 *    family's listeners and, when the connection breaks, to RC;
 *  - what the connection table does with the QP types' state of a
 *    connection (struct superp_conn_users);
 *  - what a QP's type does for the verbs objects (struct
 *    superp_qp_type_ops: RC's superp_rc_qp_type, UD's superp_ud_qp_type);
 *  - where the receive path hands datagrams (UD's superp_ud_rx()).
 *
 * Locking: none of its own; every callback runs under the locks its caller
 * documents (superp_tx.c for the engine's).
 */
#include <kunit/visibility.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_dev.h"
#include "superp_netlink.h"
#include "superp_rc.h"
#include "superp_tx.h"
#include "superp_ud.h"

/* Listeners hear every event; a broken connection's QPs go to ERR. */
static void superp_dev_conn_event(struct superp_conn *c, enum superp_event ev,
				  u32 info)
{
	superp_netlink_event(superp_entry(c), ev, info);
	if (ev == SUPERP_EV_CONN_BROKEN)
		superp_rc_conn_broken(superp_entry(c), -(int)info);
}

static const struct superp_engine_ops superp_dev_engine_ops = {
	.xmit = superp_tx_xmit,
	.arm_timer = superp_tx_arm_timer,
	.event = superp_dev_conn_event,
	.hold = superp_tx_hold,
	.release = superp_tx_release,
	.target_pkt = superp_rc_target_pkt,
	.target_request = superp_rc_target_request,
	.target_done = superp_rc_target_done,
	.tx_ready = superp_rc_tx_ready,
	.initiator_pkt = superp_tx_initiator_pkt,
	.placed = superp_tx_placed,
	.complete = superp_tx_complete,
};

const struct superp_conn_users superp_dev_conn_users = {
	.engine = &superp_dev_engine_ops,
	.attach = superp_rc_conn_init,
	.unbind_all = superp_rc_conn_unbind_all,
	.stop = superp_rc_conn_stop,
	.detach = superp_rc_conn_free,
};
EXPORT_SYMBOL_IF_KUNIT(superp_dev_conn_users);

/**
 * superp_dev_layers_init() - join a new device's layers.
 * @sdev: the device, before its connection table exists.
 *
 * Return: 0 or -ENOMEM (from the connection table and its implicit
 * loopback connection).
 */
int superp_dev_layers_init(struct superp_dev *sdev)
{
	int err;

	sdev->qp_rc = &superp_rc_qp_type;
	sdev->qp_ud = &superp_ud_qp_type;
	sdev->dgram_rx = superp_ud_rx;
	err = superp_conns_init(sdev, &superp_dev_conn_users);
	return err ?: superp_conn_loop_add(sdev);
}
