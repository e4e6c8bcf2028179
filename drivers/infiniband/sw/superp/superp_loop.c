// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: connections to this node itself (loopback).
 *
 * A connection whose remote address is its local one carries the packets
 * of QPs talking to QPs of the same device (both ends of ibv_rc_pingpong
 * in one machine, as rxe users expect). Its packets never reach a wire:
 * neither SUNH nor the UDP socket would bring them back to this device.
 * They go up the receive path from a work item instead, exactly as if
 * they had arrived on the device's netdev from the connection's remote
 * address: the DCID finds the receiving connection (the same one when
 * its local and remote CIDs are equal), the peer check holds, and every
 * packet is counted in the receive accounting like any other.
 *
 * Sending happens under the connection's lock, and receiving takes it:
 * hence the queue. A full queue refuses the packet with -ENOBUFS, as a
 * full device queue does: the engine keeps it unsent and tries again
 * (superp_tx.c), so no loopback packet is ever lost.
 *
 * Locking: loop_q has its own lock (skb_queue_*()); the work takes no lock
 * of its own and runs superp_rx() with bottom halves disabled, as the
 * receive path expects.
 */
#include <linux/skbuff.h>
#include <linux/workqueue.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_encap.h"
#include "superp_rx.h"

/* Packets waiting to go up; beyond this the sender waits. */
#define SUPERP_LOOP_QLEN	1024

/* Where a looped packet came from, kept in skb->cb until it goes up. */
struct superp_loop_cb {
	struct superp_rx_src src;
};

static struct superp_loop_cb *superp_loop_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct superp_loop_cb) > sizeof(skb->cb));
	return (struct superp_loop_cb *)skb->cb;
}

bool superp_loop_conn(const struct superp_conn_addr *a)
{
	switch (a->encap) {
	case SUPERP_ENCAP_SUNH:
		return a->local.sunh == a->remote.sunh;
	case SUPERP_ENCAP_UDP4:
		return a->local.ip4 == a->remote.ip4;
	default:
		return ipv6_addr_equal(&a->local.ip6, &a->remote.ip6);
	}
}

int superp_loop_xmit(struct superp_dev *sdev, const struct superp_conn_addr *a,
		     struct sk_buff *skb)
{
	struct superp_rx_src *src;

	if (skb_queue_len(&sdev->loop_q) >= SUPERP_LOOP_QLEN) {
		kfree_skb(skb);
		return -ENOBUFS;
	}
	src = &superp_loop_cb(skb)->src;
	memset(src, 0, sizeof(*src));
	src->encap = a->encap;
	/* From @a's local address to its remote one, both this node's. */
	switch (a->encap) {
	case SUPERP_ENCAP_SUNH:
		src->addr.sunh = a->local.sunh;
		src->dst.sunh = a->remote.sunh;
		break;
	case SUPERP_ENCAP_UDP4:
		src->addr.ip4 = a->local.ip4;
		src->dst.ip4 = a->remote.ip4;
		break;
	default:
		src->addr.ip6 = a->local.ip6;
		src->dst.ip6 = a->remote.ip6;
		break;
	}
	skb->dev = sdev->ndev;
	skb_queue_tail(&sdev->loop_q, skb);
	queue_work(system_highpri_wq, &sdev->loop_work);
	return 0;
}

static void superp_loop_work(struct work_struct *work)
{
	struct superp_dev *sdev = container_of(work, struct superp_dev,
					       loop_work);
	struct sk_buff *skb;

	local_bh_disable();
	while ((skb = skb_dequeue(&sdev->loop_q))) {
		struct superp_rx_src src = superp_loop_cb(skb)->src;

		superp_rx(skb, &src);
	}
	local_bh_enable();
}

void superp_loop_init(struct superp_dev *sdev)
{
	skb_queue_head_init(&sdev->loop_q);
	INIT_WORK(&sdev->loop_work, superp_loop_work);
}

/* After the last connection went: nothing queues any more. */
void superp_loop_destroy(struct superp_dev *sdev)
{
	cancel_work_sync(&sdev->loop_work);
	skb_queue_purge(&sdev->loop_q);
}
