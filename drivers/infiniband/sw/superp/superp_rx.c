// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: receive, common to every encapsulation. superp_sunh.c and
 * superp_udp.c strip their headers and call superp_rx() in NET_RX softirq
 * with skb->data at the PDL header; here the fixed headers are parsed once
 * (header bytes only, never a linearized skb), the device is found by the
 * receiving netdev, the connection by DCID, the source is checked against
 * the connection's peer and encapsulation, and the engine runs. A packet
 * from the peer of a SUPERp-lite connection has no PDL header: its
 * connection is found by its source and destination address instead, and
 * skb->data is moved back over 16 bytes of the headers just stripped, so
 * that everything after the engine reads it at the offsets of a full one. Anything
 * that reaches no connection is counted per device by reason
 * (enum superp_drop_reason) and dropped. Every packet of a device is
 * counted in its rx_packets first, so that rx_packets = rx_processed +
 * rx_dup + every rx_drop_* (+ packets held now) can be checked
 * (Documentation/superp-admin.rst, "Receive accounting").
 *
 * Locking: superp_rx_devs is an RCU list changed under superp_rx_devs_lock
 * (device creation and removal only, process context). The receive path
 * walks it and the connection table under rcu_read_lock(); a device leaves
 * the list before superp_conns_destroy(), whose grace period then covers
 * both. The engine runs under the entry's lock (BH-safe; plain spin_lock()
 * here, where BH is off), and its callbacks (superp_tx.c) run under it.
 *
 * Receive batches: SUNH hands over the frames of one NAPI poll as a list
 * and calls superp_rx_batch_end() after them, still in the core's
 * rcu_read_lock() section. The connections that received any of them hold
 * their pure ACKs until then (superp_conn_hold_acks()), so that a batch of
 * data packets draws one ACK rather than one per retired transaction and
 * per stretch: fewer frames both ways for the same acknowledgements. The
 * entries listed stay valid to the end of that section, as every entry a
 * receive finds does.
 */
#include <kunit/visibility.h>
#include <linux/ktime.h>
#include <linux/net.h>
#include <linux/rculist.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_op.h"
#include "superp_rx.h"

static HLIST_HEAD(superp_rx_devs);
static DEFINE_SPINLOCK(superp_rx_devs_lock);	/* changes of superp_rx_devs */

/*
 * The connections of this CPU's receive batch whose ACKs are held. A
 * connection already held (here or in another CPU's batch) is not listed
 * again; one that does not fit is not held.
 */
#define SUPERP_RX_BATCH_CONNS	16
struct superp_rx_batch {
	unsigned int n;
	struct superp_conn_entry *held[SUPERP_RX_BATCH_CONNS];
};

static DEFINE_PER_CPU(struct superp_rx_batch, superp_rx_batch);

/*
 * Under e->lock, BH off: @e's pure ACKs wait for superp_rx_batch_end().
 * The engine's hold says @e is listed already, here or on another CPU.
 */
static void superp_rx_hold_acks(struct superp_conn_entry *e)
{
	struct superp_rx_batch *b = this_cpu_ptr(&superp_rx_batch);

	if ((e->conn.flags & SUPERP_CF_ACK_HOLD) ||
	    b->n == SUPERP_RX_BATCH_CONNS)
		return;
	b->held[b->n++] = e;
	superp_conn_hold_acks(&e->conn);
}

/**
 * superp_rx_batch_end() - a receive batch ended: send the ACKs it held.
 *
 * Context: NET_RX softirq, in the rcu_read_lock() section of the batch's
 * superp_rx() calls (sunh_protocol.batch_end).
 */
void superp_rx_batch_end(void)
{
	struct superp_rx_batch *b = this_cpu_ptr(&superp_rx_batch);
	u64 now = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < b->n; i++) {
		struct superp_conn_entry *e = b->held[i];

		spin_lock(&e->lock);
		superp_conn_release_acks(&e->conn, now);
		spin_unlock(&e->lock);
	}
	b->n = 0;
}

/**
 * superp_rx_dev_add() - let the receive path find a device by its netdev.
 * @sdev: the device; its connection table exists.
 */
void superp_rx_dev_add(struct superp_dev *sdev)
{
	spin_lock(&superp_rx_devs_lock);
	hlist_add_head_rcu(&sdev->rx_node, &superp_rx_devs);
	spin_unlock(&superp_rx_devs_lock);
}

/**
 * superp_rx_dev_del() - hide a device from the receive path.
 * @sdev: the device (harmless if it was never added).
 *
 * Readers may still use it until a grace period ends.
 */
void superp_rx_dev_del(struct superp_dev *sdev)
{
	spin_lock(&superp_rx_devs_lock);
	hlist_del_init_rcu(&sdev->rx_node);	/* no-op when never added */
	spin_unlock(&superp_rx_devs_lock);
}

static struct superp_dev *superp_rx_dev(const struct net_device *ndev)
{
	struct superp_dev *sdev;

	hlist_for_each_entry_rcu(sdev, &superp_rx_devs, rx_node)
		if (sdev->ndev == ndev)
			return sdev;
	return NULL;
}

/**
 * superp_rx_parse() - decode the fixed headers of a received packet.
 * @skb: the packet, skb->data at the PDL header (any fragment layout), or
 *	at the TAL header when @lite.
 * @lite: a SUPERp-lite packet: no PDL header (its fields in @p are 0).
 * @p: the decoded fields; for a Transaction Error, @p->err from its first
 *	operation header.
 *
 * Return: -1 when the packet may go on, or the enum superp_drop_reason.
 */
int superp_rx_parse(const struct sk_buff *skb, bool lite, struct superp_pkt *p)
{
	u8 buf[SUPERP_PDL_HLEN + SUPERP_TAL_HLEN];
	unsigned int hlen = lite ? SUPERP_TAL_HLEN : sizeof(buf);
	struct superp_terr_op tbuf;
	const struct superp_terr_op *t;
	struct superp_op op;
	const void *h;

	h = skb_header_pointer(skb, 0, hlen, buf);
	if (!h)
		return SUPERP_DROP_SHORT;
	if (lite ? superp_pkt_parse_lite(h, hlen, p) :
		   superp_pkt_parse(h, hlen, p))
		return SUPERP_DROP_MALFORMED;
	if (p->opcode != SUPERP_OP_TRANS_ERROR)
		return -1;
	/* The engine needs the error code; the operation header carries it. */
	t = skb_header_pointer(skb, hlen, sizeof(tbuf), &tbuf);
	if (!p->num_ops || !t || superp_op_decode(p->opcode, t, &op))
		return SUPERP_DROP_MALFORMED;
	p->err = SUPERP_TERR(op.major, op.minor);
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(superp_rx_parse);

/**
 * superp_rx_peer_check() - did a packet come from the connection's peer?
 * @a: the connection's addressing.
 * @src: where the packet came from.
 *
 * Return: -1 when it did, else SUPERP_DROP_WRONG_ENCAP or
 * SUPERP_DROP_WRONG_PEER.
 */
int superp_rx_peer_check(const struct superp_conn_addr *a,
			 const struct superp_rx_src *src)
{
	bool same;

	if (a->encap != src->encap)
		return SUPERP_DROP_WRONG_ENCAP;
	switch (a->encap) {
	case SUPERP_ENCAP_SUNH:
		same = a->remote.sunh == src->addr.sunh;
		break;
	case SUPERP_ENCAP_UDP4:
		same = a->remote.ip4 == src->addr.ip4;
		break;
	default:
		same = ipv6_addr_equal(&a->remote.ip6, &src->addr.ip6);
		break;
	}
	return same ? -1 : SUPERP_DROP_WRONG_PEER;
}
EXPORT_SYMBOL_IF_KUNIT(superp_rx_peer_check);

static const char *const superp_drop_names[__SUPERP_DROP_MAX] = {
	[SUPERP_DROP_SHORT] = "short",
	[SUPERP_DROP_MALFORMED] = "malformed",
	[SUPERP_DROP_UNKNOWN_DCID] = "unknown DCID",
	[SUPERP_DROP_WRONG_PEER] = "wrong peer",
	[SUPERP_DROP_WRONG_ENCAP] = "wrong encapsulation",
	[SUPERP_DROP_DGRAM_MALFORMED] = "malformed datagram",
	[SUPERP_DROP_DGRAM_SENDER] = "datagram from an unknown sender",
	[SUPERP_DROP_DGRAM_QP] = "datagram for no UD QP",
	[SUPERP_DROP_DGRAM_QKEY] = "datagram with a wrong Q_Key",
	[SUPERP_DROP_DGRAM_NO_RECV] = "datagram without a receive",
	[SUPERP_DROP_DGRAM_TOO_LONG] = "datagram too long for its receive",
};

/* A drop reason's name, for the rate-limited debug line of a drop. */
const char *superp_drop_name(int why)
{
	return superp_drop_names[why];
}

/*
 * The SUPERp-lite connection of a packet from @src, or NULL when it is a
 * full SUPERp packet. A datagram (DCID 0xffff) from a lite peer still
 * carries a PDL header: as a TAL header its first byte would set reserved
 * bits, so no lite packet starts that way.
 */
static struct superp_conn_entry *superp_rx_lite(struct superp_dev *sdev,
						const struct sk_buff *skb,
						const struct superp_rx_src *src)
{
	struct superp_conn_entry *e = superp_conn_lookup_lite(sdev, src);
	__le16 buf;
	const __le16 *dcid;

	if (!e)
		return NULL;
	dcid = skb_header_pointer(skb, 0, sizeof(buf), &buf);
	if (dcid && le16_to_cpu(*dcid) == SUPERP_DCID_DATAGRAM)
		return NULL;
	return e;
}

/**
 * superp_rx() - hand a received packet to its connection.
 * @skb: the packet, skb->data at the PDL header (at the TAL header from a
 *	SUPERp-lite peer), skb->dev the receiving netdev. Always consumed.
 * @src: its encapsulation and source address.
 *
 * Context: softirq (NET_RX). The engine gets @skb as its buffer: callbacks
 * (target_pkt, initiator_pkt, hold) see skb->data at the PDL header and
 * may read every byte of the packet; a held skb has its own reference.
 */
void superp_rx(struct sk_buff *skb, const struct superp_rx_src *src)
{
	struct superp_conn_entry *e;
	struct superp_dev *sdev;
	struct superp_pkt p;
	unsigned int len;
	int why, ret;

	rcu_read_lock();
	sdev = superp_rx_dev(skb->dev);
	if (!sdev)
		goto drop;	/* no superp device on this netdev */
	atomic64_inc(&sdev->rx_packets);
	e = superp_rx_lite(sdev, skb, src);
	if (e) {
		why = superp_rx_parse(skb, true, &p);
		if (why >= 0)
			goto count;
		/*
		 * The bytes pushed over are the stripped headers, never
		 * read. Every encapsulation stripped more than 16, so the
		 * copy (and its failure, counted as short) is theory.
		 */
		if (skb_headroom(skb) < SUPERP_PDL_HLEN &&
		    pskb_expand_head(skb, SUPERP_PDL_HLEN, 0, GFP_ATOMIC)) {
			why = SUPERP_DROP_SHORT;
			goto count;
		}
		len = skb->len;
		__skb_push(skb, SUPERP_PDL_HLEN);
		goto found;
	}
	why = superp_rx_parse(skb, false, &p);
	if (why >= 0)
		goto count;
	if (p.dcid == SUPERP_DCID_DATAGRAM && sdev->dgram_rx) {
		/* Counted there, delivered or dropped. */
		sdev->dgram_rx(sdev, skb, src, &p);
		rcu_read_unlock();
		return;
	}
	e = superp_conn_lookup(sdev, p.dcid);
	if (!e) {
		why = SUPERP_DROP_UNKNOWN_DCID;
		goto count;
	}
	why = superp_rx_peer_check(&e->addr, src);
	if (why >= 0)
		goto count;
	len = skb->len;
found:
	spin_lock(&e->lock);
	if (src->batched)
		superp_rx_hold_acks(e);
	/* counted by the engine: never -EDEADLK, no callback of it runs here */
	e->conn.cold->stats.rx_bytes += len;	/* as sent: lite from the TAL */
	ret = superp_conn_rx(&e->conn, &p, skb, ktime_get_ns());
	spin_unlock(&e->lock);
	rcu_read_unlock();
	if (ret)
		kfree_skb(skb);	/* refused by the engine, counted there */
	else
		consume_skb(skb);
	return;

count:
	atomic64_inc(&sdev->rx_drops[why]);
	net_dbg_ratelimited("%s: %s: packet dropped: %s\n", SUPERP_DRV_NAME,
			    dev_name(&sdev->ibdev.dev), superp_drop_names[why]);
drop:
	rcu_read_unlock();
	kfree_skb(skb);
}

/**
 * superp_rx_short() - count and drop a packet too short for its
 * encapsulation's own header.
 * @skb: the packet, skb->dev the receiving netdev. Always consumed.
 */
void superp_rx_short(struct sk_buff *skb)
{
	struct superp_dev *sdev;

	rcu_read_lock();
	sdev = superp_rx_dev(skb->dev);
	if (sdev) {
		atomic64_inc(&sdev->rx_packets);
		atomic64_inc(&sdev->rx_drops[SUPERP_DROP_SHORT]);
	}
	rcu_read_unlock();
	kfree_skb(skb);
}
