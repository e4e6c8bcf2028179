// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the skb edge of ib_superp's data path. Packets built by
 * superp_tx_build() ("Sending a packet": PDL and TAL headers, operation
 * headers from the transaction's payload hook, in the linear room it
 * asks for, SUNH padding of short packets) are parsed back by
 * superp_rx_parse() ("Receiving a packet": fixed headers read once, from
 * any fragment layout, the Transaction Error code from its operation
 * header); the operation codec keeps Send to QP with Invalidate's key;
 * bad headers get their drop reason; superp_rx_peer_check()
 * accepts only the connection's peer and encapsulation; a stopped
 * connection's timer stays unqueued.
 */
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/skbuff.h>
#include <net/sunh.h>
#include <rdma/ib_verbs.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_dev.h"
#include "superp_op.h"
#include "superp_rx.h"
#include "superp_tx.h"
#include "superp_ud.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static const struct superp_pkt dp_noop = {
	.dcid = 7, .rwin = 31, .psn = 0x12345678, .ack_psn = 0xfffffff0,
	.sack = 0x5, .xid = 3, .seqno = 0, .ack_xid = 2,
	.opcode = SUPERP_OP_NOOP, .eom = 1,
};

static int dp_skb_init(struct kunit_resource *res, void *skb)
{
	res->data = skb;
	return 0;
}

static void dp_skb_free(struct kunit_resource *res)
{
	kfree_skb(res->data);
}

/* The test frees @skb when it ends, however it ends. */
static void dp_track(struct kunit *test, struct sk_buff *skb)
{
	if (!kunit_alloc_resource(test, dp_skb_init, dp_skb_free, GFP_KERNEL,
				  skb)) {
		kfree_skb(skb);
		KUNIT_ASSERT_FAILURE(test, "no memory for a test resource");
	}
}

/* Build @p and have the test free the skb. */
static struct sk_buff *dp_build(struct kunit *test, const struct superp_pkt *p,
				u8 encap, struct superp_xact_src *src)
{
	struct sk_buff *skb;
	int err = 0;

	skb = superp_tx_build(p, encap, false, src, &err);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	dp_track(test, skb);
	return skb;
}

static void dp_expect_same(struct kunit *test, const struct superp_pkt *a,
			   const struct superp_pkt *b)
{
	KUNIT_EXPECT_EQ(test, a->dcid, b->dcid);
	KUNIT_EXPECT_EQ(test, a->rwin, b->rwin);
	KUNIT_EXPECT_EQ(test, a->psn, b->psn);
	KUNIT_EXPECT_EQ(test, a->ack_psn, b->ack_psn);
	KUNIT_EXPECT_EQ(test, a->sack, b->sack);
	KUNIT_EXPECT_EQ(test, a->xid, b->xid);
	KUNIT_EXPECT_EQ(test, a->seqno, b->seqno);
	KUNIT_EXPECT_EQ(test, a->ack_xid, b->ack_xid);
	KUNIT_EXPECT_EQ(test, a->opcode, b->opcode);
	KUNIT_EXPECT_EQ(test, a->num_ops, b->num_ops);
	KUNIT_EXPECT_EQ(test, a->eom, b->eom);
}

/* A No-op over SUNH: headers only, zero-padded to the Ethernet minimum. */
static void dp_noop_sunh_round_trip(struct kunit *test)
{
	struct sk_buff *skb = dp_build(test, &dp_noop, SUPERP_ENCAP_SUNH, NULL);
	struct superp_pkt p;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, skb->len, SUPERP_ETH_MIN_PAYLOAD - SUNH_HLEN);
	KUNIT_EXPECT_GE(test, skb_headroom(skb), SUNH_MAX_HEADER);
	for (i = SUPERP_PDL_HLEN + SUPERP_TAL_HLEN; i < skb->len; i++)
		KUNIT_EXPECT_EQ(test, skb->data[i], 0);
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, false, &p), -1);
	dp_expect_same(test, &dp_noop, &p);
}

/*
 * UDP needs no padding: a pure ACK is exactly PDL + TAL, in a small
 * allocation (no room for operation headers it never has).
 */
static void dp_pure_ack_udp(struct kunit *test)
{
	struct superp_pkt a = dp_noop, p;
	struct sk_buff *skb;

	a.opcode = SUPERP_OP_PURE_ACK;
	a.eom = 0;
	skb = dp_build(test, &a, SUPERP_ENCAP_UDP6, NULL);
	KUNIT_EXPECT_EQ(test, skb->len, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN);
	KUNIT_EXPECT_LT(test, skb_tailroom(skb), SUPERP_TX_OPS_ROOM);
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, false, &p), -1);
	dp_expect_same(test, &a, &p);
}

/* Transaction replies: the engine's error code travels in the op header. */
static void dp_trans_error_code(struct kunit *test)
{
	struct superp_pkt t = dp_noop, p;
	const struct superp_terr_op *op;
	struct sk_buff *skb;

	t.opcode = SUPERP_OP_TRANS_ERROR;
	t.num_ops = 1;
	t.flags = SUPERP_PKT_REPLY;
	t.err = SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_OPCODE);
	skb = dp_build(test, &t, SUPERP_ENCAP_UDP4, NULL);
	KUNIT_ASSERT_EQ(test, skb->len, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN +
			sizeof(struct superp_terr_op));
	op = (void *)skb->data + SUPERP_PDL_HLEN + SUPERP_TAL_HLEN;
	KUNIT_EXPECT_EQ(test, le16_to_cpu(op->major), SUPERP_TERR_INVALID);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(op->minor), SUPERP_TERR_OPCODE);
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, false, &p), -1);
	KUNIT_EXPECT_EQ(test, p.err, t.err);
}

/*
 * The codec of Send to QP with Invalidate (28): the key to invalidate
 * comes out as rkey, beside QPN, pad count and offset, and goes back to
 * the same 12 bytes; the fields 28 does not carry stay zero.
 */
static void dp_send_qp_inv_codec_round_trip(struct kunit *test)
{
	static const u8 hdr[] = {
		0x05, 0x00, 0x00, 0x03,		/* QPN 5, pad 3 */
		0x00, 0x04, 0x00, 0x00,		/* offset 1024 */
		0x2a, 0x17, 0x01, 0x80,		/* key 0x8001172a */
	};
	struct superp_op op;
	u8 back[sizeof(hdr)];

	KUNIT_ASSERT_EQ(test, superp_op_decode(SUPERP_OP_SEND_QP_INV, hdr, &op), 0);
	KUNIT_EXPECT_EQ(test, op.qpn, 5U);
	KUNIT_EXPECT_EQ(test, op.pad, 3);
	KUNIT_EXPECT_EQ(test, op.offset, 1024U);
	KUNIT_EXPECT_EQ(test, op.rkey, 0x8001172aU);
	KUNIT_EXPECT_EQ(test, (__force u32)op.imm, 0U);
	KUNIT_EXPECT_EQ(test, op.addr, 0ULL);
	KUNIT_ASSERT_EQ(test, superp_op_encode(SUPERP_OP_SEND_QP_INV, &op, back),
			(int)sizeof(hdr));
	KUNIT_EXPECT_EQ(test, memcmp(back, hdr, sizeof(hdr)), 0);
}

struct dp_src {
	struct superp_xact_src src;
	int calls;
};

static int dp_fill(struct superp_xact_src *src, const struct superp_pkt *p,
		   struct sk_buff *skb)
{
	struct dp_src *d = container_of(src, struct dp_src, src);

	d->calls++;
	memset(skb_put(skb, 4 * p->num_ops), 0xab, 4 * p->num_ops);
	return 0;
}

static const struct superp_xact_ops dp_fill_ops = { .fill = dp_fill };

/*
 * The payload hook builds the operations of a request packet, and of
 * nothing else: not of probes, not of cancelled packets.
 */
static void dp_payload_hook(struct kunit *test)
{
	struct dp_src d = { .src.ops = &dp_fill_ops };
	struct superp_pkt s = dp_noop;
	struct sk_buff *skb;

	s.opcode = SUPERP_OP_SEND_QP;
	s.num_ops = 2;
	skb = dp_build(test, &s, SUPERP_ENCAP_SUNH, &d.src);
	KUNIT_EXPECT_EQ(test, d.calls, 1);
	KUNIT_EXPECT_EQ(test, skb->len, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN + 8);
	/* data-bearing: never padded (the block would grow) */
	s.flags = SUPERP_PKT_CANCELLED;
	s.opcode = SUPERP_OP_NOOP;
	s.num_ops = 0;
	dp_build(test, &s, SUPERP_ENCAP_SUNH, &d.src);
	s = dp_noop;
	s.flags = SUPERP_PKT_PROBE;
	dp_build(test, &s, SUPERP_ENCAP_SUNH, &d.src);
	KUNIT_EXPECT_EQ(test, d.calls, 1);
}

struct dp_room_src {
	struct superp_xact_src src;
	unsigned int room;
	unsigned int tailroom;	/* what fill() found */
	unsigned char *head;
};

static unsigned int dp_room(struct superp_xact_src *src,
			    const struct superp_pkt *p)
{
	return container_of(src, struct dp_room_src, src)->room;
}

static int dp_room_fill(struct superp_xact_src *src,
			const struct superp_pkt *p, struct sk_buff *skb)
{
	struct dp_room_src *d = container_of(src, struct dp_room_src, src);

	d->tailroom = skb_tailroom(skb);
	d->head = skb->head;
	if (d->tailroom < d->room)
		return -ENOSPC;
	memset(skb_put(skb, d->room), 0xcd, d->room);
	return 0;
}

static const struct superp_xact_ops dp_room_ops = {
	.room = dp_room,
	.fill = dp_room_fill,
};

/*
 * A packet whose operations carry copied payload (a pack of small
 * WRITEs, a padded last packet) is built in one allocation: the linear
 * room the owner asks for is there when fill() runs, however large.
 */
static void dp_payload_room(struct kunit *test)
{
	static const unsigned int rooms[] = { 0, 32, 600, 2048, 4200, 9000 };
	struct dp_room_src d = { .src.ops = &dp_room_ops };
	struct superp_pkt s = dp_noop;
	struct sk_buff *skb;
	unsigned int i;

	s.opcode = SUPERP_OP_RDMA_WRITE;
	s.num_ops = 16;
	for (i = 0; i < ARRAY_SIZE(rooms); i++) {
		d.room = rooms[i];
		skb = dp_build(test, &s, SUPERP_ENCAP_UDP6, &d.src);
		KUNIT_EXPECT_GE(test, d.tailroom, rooms[i]);
		KUNIT_EXPECT_PTR_EQ(test, skb->head, d.head);
		KUNIT_EXPECT_EQ(test, skb->len,
				SUPERP_PDL_HLEN + SUPERP_TAL_HLEN + rooms[i]);
		KUNIT_EXPECT_GE(test, skb_headroom(skb), SUPERP_TX_HEADROOM);
	}
}

/* Receiving: headers split over the linear part and a page fragment. */
static void dp_parse_fragments(struct kunit *test)
{
	u8 hdr[SUPERP_PDL_HLEN + SUPERP_TAL_HLEN];
	struct superp_pkt p;
	struct sk_buff *skb;
	struct page *page;

	superp_pkt_encode(&dp_noop, (void *)hdr, (void *)hdr + SUPERP_PDL_HLEN);
	skb = alloc_skb(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	dp_track(test, skb);
	page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	skb_put_data(skb, hdr, 10);
	memcpy(page_address(page), hdr + 10, sizeof(hdr) - 10);
	skb_add_rx_frag(skb, 0, page, 0, sizeof(hdr) - 10, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, false, &p), -1);
	dp_expect_same(test, &dp_noop, &p);
	KUNIT_EXPECT_EQ(test, skb_headlen(skb), 10);	/* nothing linearized */
}

/* Receiving: what cannot reach the engine, with its reason. */
static void dp_parse_drops(struct kunit *test)
{
	struct superp_pkt t = dp_noop, p;
	struct sk_buff *skb;

	skb = dp_build(test, &dp_noop, SUPERP_ENCAP_UDP4, NULL);
	skb_trim(skb, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN - 1);
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, false, &p), SUPERP_DROP_SHORT);

	skb = dp_build(test, &dp_noop, SUPERP_ENCAP_UDP4, NULL);
	skb->data[SUPERP_PDL_HLEN] |= 0x10;	/* a reserved TAL bit */
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, false, &p), SUPERP_DROP_MALFORMED);

	t.opcode = SUPERP_OP_PURE_ACK;		/* with eom set */
	skb = dp_build(test, &t, SUPERP_ENCAP_UDP4, NULL);
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, false, &p), SUPERP_DROP_MALFORMED);

	t.opcode = SUPERP_OP_TRANS_ERROR;	/* without its operation */
	t.num_ops = 0;
	skb = dp_build(test, &t, SUPERP_ENCAP_UDP4, NULL);
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, false, &p), SUPERP_DROP_MALFORMED);
	t.num_ops = 1;				/* announced, but cut off */
	skb = dp_build(test, &t, SUPERP_ENCAP_UDP4, NULL);
	skb_trim(skb, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN + 4);
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, false, &p), SUPERP_DROP_MALFORMED);
}

/* Only the connection's peer, by the connection's encapsulation. */
static void dp_peer_check(struct kunit *test)
{
	struct superp_conn_addr a = { .encap = SUPERP_ENCAP_SUNH };
	struct superp_rx_src src = { .encap = SUPERP_ENCAP_SUNH };

	a.remote.sunh = 2;
	src.addr.sunh = 2;
	KUNIT_EXPECT_EQ(test, superp_rx_peer_check(&a, &src), -1);
	src.addr.sunh = 3;
	KUNIT_EXPECT_EQ(test, superp_rx_peer_check(&a, &src),
			SUPERP_DROP_WRONG_PEER);

	a.encap = SUPERP_ENCAP_UDP4;
	a.remote.ip4 = htonl(0x0a170002);
	src.encap = SUPERP_ENCAP_UDP4;
	src.addr.ip4 = htonl(0x0a170002);
	KUNIT_EXPECT_EQ(test, superp_rx_peer_check(&a, &src), -1);
	src.addr.ip4 = htonl(0x0a170003);
	KUNIT_EXPECT_EQ(test, superp_rx_peer_check(&a, &src),
			SUPERP_DROP_WRONG_PEER);
	src.encap = SUPERP_ENCAP_SUNH;
	KUNIT_EXPECT_EQ(test, superp_rx_peer_check(&a, &src),
			SUPERP_DROP_WRONG_ENCAP);

	memset(&a.remote, 0, sizeof(a.remote));
	a.encap = SUPERP_ENCAP_UDP6;
	a.remote.ip6.s6_addr[0] = 0xfd;
	a.remote.ip6.s6_addr[15] = 2;
	memset(&src.addr, 0, sizeof(src.addr));
	src.encap = SUPERP_ENCAP_UDP6;
	src.addr.ip6 = a.remote.ip6;
	KUNIT_EXPECT_EQ(test, superp_rx_peer_check(&a, &src), -1);
	src.addr.ip6.s6_addr[15] = 1;
	KUNIT_EXPECT_EQ(test, superp_rx_peer_check(&a, &src),
			SUPERP_DROP_WRONG_PEER);
	src.encap = SUPERP_ENCAP_UDP4;
	KUNIT_EXPECT_EQ(test, superp_rx_peer_check(&a, &src),
			SUPERP_DROP_WRONG_ENCAP);
}

/*
 * The engine's last arm_timer(0) on a stopped connection comes from
 * superp_conn_release(), after the entry's final hrtimer_cancel(): with a
 * busy retry pending it must not queue the timer again, which would fire
 * on a freed entry.
 */
static void dp_broken_conn_timer_idle(struct kunit *test)
{
	struct superp_conn_addr a = { .encap = SUPERP_ENCAP_SUNH };
	struct superp_conn_entry *e;
	struct superp_dev *sdev;
	bool active;

	sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_EQ(test, superp_conns_init(sdev, &superp_dev_conn_users), 0);
	KUNIT_ASSERT_EQ(test, superp_conn_add(sdev, 1, 1, &a,
					      &sdev->conns->defaults, NULL), 0);
	rcu_read_lock();
	e = superp_conn_lookup(sdev, 1);	/* nobody deletes it meanwhile */
	rcu_read_unlock();
	KUNIT_ASSERT_NOT_NULL(test, e);

	spin_lock_bh(&e->lock);
	e->tx_busy = true;		/* the device refused a packet */
	e->conn.state = SUPERP_ST_BROKEN;
	e->conn.ops->arm_timer(&e->conn, 0);
	active = hrtimer_active(&e->timer);
	spin_unlock_bh(&e->lock);
	superp_conns_destroy(sdev);
	KUNIT_EXPECT_FALSE(test, active);
}

/*
 * A datagram's fixed headers (wire-format.rst, "Datagrams"): DCID 0xffff,
 * eom and one Datagram Send, every other PDL and TAL field zero; the
 * receive path's codec takes it.
 */
static void dp_datagram_headers(struct kunit *test)
{
	static const u8 want[SUPERP_PDL_HLEN + SUPERP_TAL_HLEN] = {
		0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x81, SUPERP_OP_RD_SEND, 0, 0, 0, 0, 0, 0,
	};
	struct sk_buff *skb = superp_dgram_alloc(16);
	struct superp_pkt p;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	dp_track(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, sizeof(want));
	KUNIT_EXPECT_EQ(test, memcmp(skb->data, want, sizeof(want)), 0);
	KUNIT_EXPECT_GE(test, skb_tailroom(skb), 16);
	KUNIT_EXPECT_GE(test, skb_headroom(skb), SUNH_MAX_HEADER);
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, false, &p), -1);
	KUNIT_EXPECT_EQ(test, p.dcid, SUPERP_DCID_DATAGRAM);
	KUNIT_EXPECT_EQ(test, p.opcode, SUPERP_OP_RD_SEND);
	KUNIT_EXPECT_EQ(test, p.num_ops, 1);
	KUNIT_EXPECT_TRUE(test, p.eom);
}

/*
 * The GRH a UD receive gets is what the IB core reads back: for IPv4 the
 * header in the last 20 bytes with a valid checksum (RoCE v2), so that
 * ib_get_rdma_header_version() and ib_init_ah_attr_from_wc() find it.
 */
static void dp_ud_grh(struct kunit *test)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in6 d6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in6 s = {}, d = {};
	struct sockaddr_in *s4 = (struct sockaddr_in *)&s;
	struct sockaddr_in *d4 = (struct sockaddr_in *)&d;
	union rdma_network_hdr *hdr;
	u8 grh[SUPERP_UD_GRH_LEN];
	unsigned int i;

	s4->sin_family = AF_INET;
	d4->sin_family = AF_INET;
	s4->sin_addr.s_addr = htonl(0x0a170002);
	d4->sin_addr.s_addr = htonl(0x0a170001);
	superp_ud_grh(grh, &s, &d, 100);
	hdr = (union rdma_network_hdr *)grh;
	for (i = 0; i < 20; i++)
		KUNIT_EXPECT_EQ(test, grh[i], 0);
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(hdr), 4);
	KUNIT_EXPECT_EQ(test, ntohl(hdr->roce4grh.saddr), 0x0a170002);
	KUNIT_EXPECT_EQ(test, ntohl(hdr->roce4grh.daddr), 0x0a170001);
	KUNIT_EXPECT_EQ(test, hdr->roce4grh.protocol, IPPROTO_UDP);

	s6.sin6_addr.s6_addr[0] = 0xfd;
	s6.sin6_addr.s6_addr[15] = 2;
	d6.sin6_addr.s6_addr[0] = 0xfd;
	d6.sin6_addr.s6_addr[15] = 1;
	superp_ud_grh(grh, &s6, &d6, 100);
	KUNIT_EXPECT_EQ(test, ib_get_rdma_header_version(hdr), 6);
	KUNIT_EXPECT_EQ(test, memcmp(hdr->ibgrh.sgid.raw, s6.sin6_addr.s6_addr, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(hdr->ibgrh.dgid.raw, d6.sin6_addr.s6_addr, 16), 0);
}

/*
 * The implicit loopback connection (superp-admin.rst, "Loopback"): found
 * by its DCID, listed after the table's connections, outside the count,
 * not deletable, no obstacle to a new table size; freed with the device.
 */
static void dp_implicit_loop(struct kunit *test)
{
	struct superp_conn_addr a = { .encap = SUPERP_ENCAP_SUNH };
	struct superp_conn_info *ci;
	struct superp_conn_entry *e;
	struct superp_params p;
	struct superp_dev *sdev;
	u32 lcid;

	sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	ci = kunit_kzalloc(test, sizeof(*ci), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_NOT_NULL(test, ci);
	KUNIT_ASSERT_EQ(test, superp_conns_init(sdev, &superp_dev_conn_users), 0);
	KUNIT_ASSERT_EQ(test, superp_conn_loop_add(sdev), 0);
	rcu_read_lock();
	e = superp_conn_lookup(sdev, SUPERP_LCID_LOOP);
	KUNIT_EXPECT_TRUE(test, e && e->loop);
	KUNIT_EXPECT_TRUE(test, e && e->addr.ordered ==
			  (SUPERP_ORDERED_RX | SUPERP_ORDERED_TX));
	rcu_read_unlock();

	/* Not a connection of the table: its size may change. */
	KUNIT_EXPECT_EQ(test, superp_conns_defaults(sdev, &p), 0);
	p.pdl_conn_per_xpu = 128;
	KUNIT_EXPECT_EQ(test, superp_conns_set_defaults(sdev, &p, NULL), 0);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, superp_conn_lookup(sdev, SUPERP_LCID_LOOP), e);
	rcu_read_unlock();

	/* Listed after the table's connections, never deleted. */
	KUNIT_ASSERT_EQ(test, superp_conn_add(sdev, 3, 3, &a,
					      &sdev->conns->defaults, NULL), 0);
	KUNIT_EXPECT_EQ(test, superp_conns_defaults(sdev, &p), 1);
	lcid = 0;
	KUNIT_EXPECT_EQ(test, superp_conn_info(sdev, &lcid, true, ci), 0);
	KUNIT_EXPECT_EQ(test, lcid, 3);
	lcid = 4;
	KUNIT_EXPECT_EQ(test, superp_conn_info(sdev, &lcid, true, ci), 0);
	KUNIT_EXPECT_EQ(test, lcid, SUPERP_LCID_LOOP);
	KUNIT_EXPECT_EQ(test, ci->p.pdl_retrans_time_out, SUPERP_LOOP_RTO_US);
	lcid = SUPERP_LCID_LOOP + 1;
	KUNIT_EXPECT_EQ(test, superp_conn_info(sdev, &lcid, true, ci), -ENOENT);
	lcid = 4;
	KUNIT_EXPECT_EQ(test, superp_conn_info(sdev, &lcid, false, ci), -ENOENT);
	KUNIT_EXPECT_EQ(test, superp_conn_del(sdev, SUPERP_LCID_LOOP), -ENOENT);
	/* Freed with the device (kmemleak checks the guest). */
	superp_conns_destroy(sdev);
}

/*
 * SUPERp-lite ("SUPERp-lite" and "Small packets" of the spec): the TAL
 * header alone, a Transaction Error's code after it, zero padding to the
 * Ethernet minimum over SUNH; parsed back without PDL fields.
 */
static void dp_lite_round_trip(struct kunit *test)
{
	struct superp_pkt t = dp_noop, p, want;
	struct sk_buff *skb;
	unsigned int i;
	int err = 0;

	skb = superp_tx_build(&dp_noop, SUPERP_ENCAP_SUNH, true, NULL, &err);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	dp_track(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, SUPERP_ETH_MIN_PAYLOAD - SUNH_HLEN);
	KUNIT_EXPECT_EQ(test, skb->data[0], SUPERP_TAL_EOM);
	for (i = SUPERP_TAL_HLEN; i < skb->len; i++)
		KUNIT_EXPECT_EQ(test, skb->data[i], 0);
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, true, &p), -1);
	want = dp_noop;
	want.dcid = 0;
	want.rwin = 0;
	want.psn = 0;
	want.ack_psn = 0;
	want.sack = 0;
	dp_expect_same(test, &want, &p);

	t.opcode = SUPERP_OP_TRANS_ERROR;
	t.num_ops = 1;
	t.flags = SUPERP_PKT_REPLY;
	t.err = SUPERP_TERR(SUPERP_TERR_INVALID, SUPERP_TERR_BLOCK);
	skb = superp_tx_build(&t, SUPERP_ENCAP_UDP4, true, NULL, &err);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	dp_track(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len,
			SUPERP_TAL_HLEN + sizeof(struct superp_terr_op));
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, true, &p), -1);
	KUNIT_EXPECT_EQ(test, p.err, t.err);
	/* short, or reserved bits: the device's drop reasons */
	skb_trim(skb, SUPERP_TAL_HLEN - 1);
	KUNIT_EXPECT_EQ(test, superp_rx_parse(skb, true, &p), SUPERP_DROP_SHORT);
}

static struct kunit_case superp_datapath_cases[] = {
	KUNIT_CASE(dp_noop_sunh_round_trip),
	KUNIT_CASE(dp_pure_ack_udp),
	KUNIT_CASE(dp_trans_error_code),
	KUNIT_CASE(dp_send_qp_inv_codec_round_trip),
	KUNIT_CASE(dp_payload_hook),
	KUNIT_CASE(dp_payload_room),
	KUNIT_CASE(dp_parse_fragments),
	KUNIT_CASE(dp_parse_drops),
	KUNIT_CASE(dp_peer_check),
	KUNIT_CASE(dp_broken_conn_timer_idle),
	KUNIT_CASE(dp_datagram_headers),
	KUNIT_CASE(dp_ud_grh),
	KUNIT_CASE(dp_implicit_loop),
	KUNIT_CASE(dp_lite_round_trip),
	{}
};

static struct kunit_suite superp_datapath_suite = {
	.name = "superp_datapath",
	.test_cases = superp_datapath_cases,
};

kunit_test_suite(superp_datapath_suite);

MODULE_DESCRIPTION("KUnit tests for ib_superp's skb data path");
MODULE_LICENSE("GPL");
