// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: UD QPs (and GSI, QP1, which is a UD QP with the MAD rules),
 * the datagram QP type (Documentation/superp-verbs.rst, "UD QPs").
 *
 * A send is one datagram (Documentation/wire-format.rst, "Datagrams"):
 * the DCID SUPERP_DCID_DATAGRAM, one Datagram Send operation (22) naming
 * the destination QP, the source QP and the Q_Key, and the message as its
 * data block, at most the path MTU. No connection, no PSN, no ACK, no
 * retransmission: the send completes once the datagram is handed to the
 * netdev, and a datagram lost on the way is lost. It goes where the
 * address handle's destination IP address leads, as an RC QP's binding
 * would choose: SUNH when the address lies in the namespace's SUPERp
 * subnet, else UDP/IPv4 or UDP/IPv6; to this node itself, up the receive
 * path directly.
 *
 * A received datagram takes a receive WR of its QP; the first 40 bytes of
 * the buffer get the GRH verbs promise (for IPv4 the IPv4 header in its
 * last 20 bytes, as RoCE v2), made from the sender's and the receiver's
 * IP addresses (a SUNH address becomes the IP address the subnet gives
 * it), and the completion names the source QP. Datagrams for no UD QP in
 * a receiving state, with another Q_Key than the QP's (IB_QP1_QKEY for
 * QP1), from a sender without an IP address, finding no receive posted,
 * or longer than the next receive of a QP without an SRQ (it stays
 * posted: a datagram cannot use up a QP's receives, QP1's among them, by
 * being too long), are dropped and counted by reason (the receive
 * accounting identity counts the others as rx_datagrams). With an SRQ
 * the receive is taken and completes with IB_WC_LOC_LEN_ERR.
 *
 * Locking: a QP's receives are serialised by its ud.rx_lock (BH), which
 * nests the QP's queue locks and its CQ's lock (taken by the verbs
 * objects' calls). Sends take no lock of their own: the send queue's
 * lock hands out each WR once, and completions leave in posted order.
 */
#include <kunit/visibility.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <net/ip.h>
#include <net/sunh.h>
#include <rdma/ib_mad.h>

#include "superp.h"
#include "superp_ah.h"
#include "superp_conn_table.h"
#include "superp_cq.h"
#include "superp_op.h"
#include "superp_qp.h"
#include "superp_rc_payload.h"
#include "superp_rx.h"
#include "superp_tx.h"
#include "superp_ud.h"

/*
 * The sender and the receiver of a datagram as IP addresses, for the GRH,
 * from the packet's addresses in its encapsulation. False when a SUNH
 * address has none (no subnet in the namespace).
 */
static bool superp_ud_ips(struct superp_dev *sdev,
			  const struct superp_rx_src *src,
			  struct sockaddr_in6 *sip, struct sockaddr_in6 *dip)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)sip;
	struct sockaddr_in *d4 = (struct sockaddr_in *)dip;
	struct sunh_subnet s;

	memset(sip, 0, sizeof(*sip));
	memset(dip, 0, sizeof(*dip));
	switch (src->encap) {
	case SUPERP_ENCAP_SUNH:
		if (sunh_subnet_get(dev_net(sdev->ndev), &s))
			return false;
		if (s.family == AF_INET) {
			s4->sin_family = AF_INET;
			d4->sin_family = AF_INET;
			s4->sin_addr.s_addr = sunh_addr_to_ip4(&s, src->addr.sunh);
			d4->sin_addr.s_addr = sunh_addr_to_ip4(&s, src->dst.sunh);
		} else {
			sip->sin6_family = AF_INET6;
			dip->sin6_family = AF_INET6;
			sunh_addr_to_ip6(&s, src->addr.sunh, &sip->sin6_addr);
			sunh_addr_to_ip6(&s, src->dst.sunh, &dip->sin6_addr);
		}
		return true;
	case SUPERP_ENCAP_UDP4:
		s4->sin_family = AF_INET;
		d4->sin_family = AF_INET;
		s4->sin_addr.s_addr = src->addr.ip4;
		d4->sin_addr.s_addr = src->dst.ip4;
		return true;
	default:
		sip->sin6_family = AF_INET6;
		dip->sin6_family = AF_INET6;
		sip->sin6_addr = src->addr.ip6;
		dip->sin6_addr = src->dst.ip6;
		return true;
	}
}

/*
 * The GRH of a datagram of @len bytes, as a RoCE v2 receiver writes it:
 * an IPv6 header, or 20 zero bytes and an IPv4 header with its checksum
 * (ib_get_rdma_header_version() tells them apart by it).
 */
VISIBLE_IF_KUNIT void superp_ud_grh(u8 *grh, const struct sockaddr_in6 *sip,
				    const struct sockaddr_in6 *dip, u32 len)
{
	memset(grh, 0, SUPERP_UD_GRH_LEN);
	if (sip->sin6_family == AF_INET) {
		struct iphdr *iph = (struct iphdr *)(grh + 20);

		iph->version = 4;
		iph->ihl = 5;
		iph->tot_len = htons(sizeof(*iph) + len);
		iph->ttl = 64;
		iph->protocol = IPPROTO_UDP;
		iph->saddr = ((const struct sockaddr_in *)sip)->sin_addr.s_addr;
		iph->daddr = ((const struct sockaddr_in *)dip)->sin_addr.s_addr;
		iph->check = ip_fast_csum((u8 *)iph, iph->ihl);
	} else {
		struct ipv6hdr *ip6h = (struct ipv6hdr *)grh;

		ip6h->version = 6;
		ip6h->payload_len = htons(len);
		ip6h->nexthdr = IPPROTO_UDP;
		ip6h->hop_limit = 64;
		ip6h->saddr = sip->sin6_addr;
		ip6h->daddr = dip->sin6_addr;
	}
}
EXPORT_SYMBOL_IF_KUNIT(superp_ud_grh);

/* superp_seg_fn: bytes of a buffer into the piece. */
static int superp_ud_seg_from_buf(void *arg, struct page *page,
				  unsigned int off, unsigned int len)
{
	const u8 **src = arg;

	memcpy_to_page(page, off, *src, len);
	*src += len;
	return 0;
}

/*
 * Under qp->ud.rx_lock, with qp->ud.rwqe taken: fill it with the GRH and
 * the @len data bytes at @off of @skb. Return: the completion status.
 */
static enum ib_wc_status superp_ud_place(struct superp_qp *qp,
					 const struct sk_buff *skb, int off,
					 u32 len, const u8 *grh)
{
	struct superp_dev *sdev = to_sdev(qp->ibqp.device);
	struct superp_recv_wqe *w = qp->ud.rwqe;
	struct superp_skb_src pos = { .skb = skb, .offset = off };
	struct ib_pd *pd = superp_qp_recv_pd(qp);
	const u8 *g = grh;

	if (w->length < SUPERP_UD_GRH_LEN + len)
		return IB_WC_LOC_LEN_ERR;
	if (superp_rc_sge_walk(sdev, pd, w->sge,
			       w->num_sge, 0, SUPERP_UD_GRH_LEN,
			       superp_ud_seg_from_buf, &g) ||
	    superp_rc_sge_walk(sdev, pd, w->sge,
			       w->num_sge, SUPERP_UD_GRH_LEN, len,
			       superp_seg_from_skb, &pos))
		return IB_WC_LOC_PROT_ERR;
	return IB_WC_SUCCESS;
}

/*
 * Under qp->ud.rx_lock: a datagram for @qp from QP @op->sqpn. Return: -1
 * when it took a receive WR (and completed it), else the drop reason.
 */
static int superp_ud_deliver(struct superp_qp *qp, const struct sk_buff *skb,
			     const struct superp_op *op, int off, u32 len,
			     const struct sockaddr_in6 *sip,
			     const struct sockaddr_in6 *dip)
{
	u8 grh[SUPERP_UD_GRH_LEN];
	struct ib_wc wc = {
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
		.src_qp = op->sqpn,
		.port_num = SUPERP_PORT,
		.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE,
		.network_hdr_type = sip->sin6_family == AF_INET ?
				    RDMA_NETWORK_IPV4 : RDMA_NETWORK_IPV6,
	};

	switch (superp_qp_get_recv_fit(qp, qp->ud.rwqe,
				       SUPERP_UD_GRH_LEN + len)) {
	case 0:
		break;
	case -ENOENT:
		return SUPERP_DROP_DGRAM_NO_RECV;
	case -EMSGSIZE:
		return SUPERP_DROP_DGRAM_TOO_LONG;
	default:
		return SUPERP_DROP_DGRAM_QP;
	}
	superp_ud_grh(grh, sip, dip, len);
	wc.wr_id = qp->ud.rwqe->wr_id;
	wc.status = superp_ud_place(qp, skb, off, len, grh);
	if (wc.status == IB_WC_SUCCESS)
		wc.byte_len = SUPERP_UD_GRH_LEN + len;
	if (op->flags & SUPERP_RD_FLAG_IMM) {
		wc.wc_flags |= IB_WC_WITH_IMM;
		wc.ex.imm_data = op->imm;
	}
	/* An unreliable datagram's error is its own: the QP goes on. */
	superp_cq_post(to_scq(qp->ibqp.recv_cq), &wc, false);
	return -1;
}

/**
 * superp_ud_rx() - a received datagram (SUPERP_DCID_DATAGRAM).
 * @sdev: the device it arrived on.
 * @skb: the packet, skb->data at the PDL header; always consumed.
 * @src: where it came from and went to.
 * @p: its decoded PDL and TAL headers.
 *
 * Context: softirq, under the receive path's rcu_read_lock(). Counts the
 * datagram once: rx_datagrams, or the drop reason.
 */
void superp_ud_rx(struct superp_dev *sdev, struct sk_buff *skb,
		  const struct superp_rx_src *src, const struct superp_pkt *p)
{
	const int off = SUPERP_PDL_HLEN + SUPERP_TAL_HLEN +
			sizeof(struct superp_rd_send_op);
	struct superp_rd_send_op buf;
	struct sockaddr_in6 sip, dip;
	struct superp_qp *qp = NULL;
	struct superp_op op;
	const void *h;
	int why;
	u32 qkey;

	h = skb_header_pointer(skb, SUPERP_PDL_HLEN + SUPERP_TAL_HLEN,
			       sizeof(buf), &buf);
	if (p->opcode != SUPERP_OP_RD_SEND || p->num_ops != 1 || !p->eom ||
	    !h || skb->len < off + SUPERP_MIN_BLOCK ||
	    superp_op_decode(p->opcode, h, &op) ||
	    op.pad > skb->len - off) {
		why = SUPERP_DROP_DGRAM_MALFORMED;
		goto drop;
	}
	if (!superp_ud_ips(sdev, src, &sip, &dip)) {
		why = SUPERP_DROP_DGRAM_SENDER;
		goto drop;
	}
	qp = superp_qp_get(sdev, op.qpn);
	if (!qp || qp->type != sdev->qp_ud) {
		why = SUPERP_DROP_DGRAM_QP;
		goto drop;
	}
	qkey = qp->ibqp.qp_type == IB_QPT_GSI ? IB_QP1_QKEY :
						READ_ONCE(qp->attr.qkey);
	if (op.qkey != qkey) {
		why = SUPERP_DROP_DGRAM_QKEY;
		goto drop;
	}
	spin_lock(&qp->ud.rx_lock);
	why = superp_ud_deliver(qp, skb, &op, off, skb->len - off - op.pad,
				&sip, &dip);
	spin_unlock(&qp->ud.rx_lock);
	if (why >= 0)
		goto drop;
	superp_qp_put(qp);
	atomic64_inc(&sdev->rx_datagrams);
	consume_skb(skb);
	return;

drop:
	if (qp)
		superp_qp_put(qp);
	atomic64_inc(&sdev->rx_drops[why]);
	net_dbg_ratelimited("%s: %s: datagram dropped: %s\n", SUPERP_DRV_NAME,
			    dev_name(&sdev->ibdev.dev), superp_drop_name(why));
	kfree_skb(skb);
}

/*
 * Where @av leads a datagram: SUNH between the SUNH addresses of both
 * ends when the subnet has both, else UDP between the IP addresses; to
 * one of this device's own addresses (return true), up the receive path
 * directly, from and to the IP addresses the receiver puts in the GRH.
 */
static bool superp_ud_addr(struct superp_dev *sdev, const struct superp_av *av,
			   u32 sqpn, u32 dqpn, struct superp_conn_addr *a)
{
	memset(a, 0, sizeof(*a));
	a->tclass = av->traffic_class;
	a->udp_sport = rdma_get_udp_sport(av->flow_label, sqpn, dqpn);
	if (!av->local &&
	    superp_av_sunh(sdev, av, &a->remote.sunh, &a->local.sunh)) {
		a->encap = SUPERP_ENCAP_SUNH;
	} else if (av->daddr.sa.sa_family == AF_INET) {
		a->encap = SUPERP_ENCAP_UDP4;
		a->local.ip4 = av->saddr.sin.sin_addr.s_addr;
		a->remote.ip4 = av->daddr.sin.sin_addr.s_addr;
	} else {
		a->encap = SUPERP_ENCAP_UDP6;
		a->local.ip6 = av->saddr.sin6.sin6_addr;
		a->remote.ip6 = av->daddr.sin6.sin6_addr;
	}
	return av->local;
}

/* One send WR as one datagram. Return: its completion status. */
static enum ib_wc_status superp_ud_send(struct superp_qp *qp,
					struct superp_send_wqe *wqe)
{
	struct superp_dev *sdev = to_sdev(qp->ibqp.device);
	struct superp_rc_skb_fill fill = { .copy = true };
	u32 len = wqe->length, block = max_t(u32, len, SUPERP_MIN_BLOCK);
	struct superp_op op = {
		.qpn = wqe->ud.remote_qpn,
		.sqpn = qp->ibqp.qp_num,
		.pad = block - len,
	};
	struct superp_conn_addr a;
	bool loop;

	if (len > ib_mtu_enum_to_int(superp_active_mtu(READ_ONCE(sdev->ndev->mtu))))
		return IB_WC_LOC_LEN_ERR;
	/* A Q_Key with the high bit set means the QP's own (verbs). */
	op.qkey = wqe->ud.remote_qkey & 0x80000000 ? READ_ONCE(qp->attr.qkey) :
						     wqe->ud.remote_qkey;
	if (wqe->opcode == IB_WR_SEND_WITH_IMM) {
		op.flags = SUPERP_RD_FLAG_IMM;
		op.imm = wqe->ex.imm_data;
	}
	fill.skb = superp_dgram_alloc(sizeof(struct superp_rd_send_op) + block);
	if (!fill.skb)
		goto lost;
	if (superp_rc_put_op(fill.skb, SUPERP_OP_RD_SEND, &op))
		goto lost;
	if (!wqe->num_sge) {
		skb_put_data(fill.skb, wqe->data, len);
	} else if (superp_rc_sge_walk(sdev, qp->ibqp.pd, superp_send_sge(wqe),
				      wqe->num_sge, 0, len,
				      superp_rc_piece_to_skb, &fill)) {
		kfree_skb(fill.skb);
		return IB_WC_LOC_PROT_ERR;
	}
	skb_put_zero(fill.skb, op.pad);
	loop = superp_ud_addr(sdev, &wqe->ud.av, op.sqpn, op.qpn, &a);
	superp_dgram_xmit(sdev, &a, loop, fill.skb);
	return IB_WC_SUCCESS;

lost:
	/* Unreliable: a datagram without memory is lost, not an error. */
	kfree_skb(fill.skb);
	atomic64_inc(&sdev->tx_dgram_drops);
	return IB_WC_SUCCESS;
}

static void superp_ud_run(struct superp_qp *qp)
{
	struct superp_send_wqe *wqe;

	while ((wqe = superp_qp_next_send(qp)))
		superp_qp_send_done(qp, wqe->idx, superp_ud_send(qp, wqe));
}

static void superp_ud_kick_work(struct work_struct *work)
{
	superp_ud_run(container_of(work, struct superp_qp, ud.kick_work));
}

static void superp_ud_kick_later(struct superp_qp *qp)
{
	queue_work(system_highpri_wq, &qp->ud.kick_work);
}

/*
 * Transmit needs bottom halves enabled (sunh.ko, the IP stack): a post
 * made with interrupts off (the MAD layer posts under its queue's
 * irqsave lock) sends from the work item.
 */
static void superp_ud_kick(struct superp_qp *qp)
{
	if (irqs_disabled())
		superp_ud_kick_later(qp);
	else
		superp_ud_run(qp);
}

static int superp_ud_create(struct superp_qp *qp)
{
	qp->ud.rwqe = kzalloc(superp_recv_wqe_size(SUPERP_MAX_SGE),
			      GFP_KERNEL);
	if (!qp->ud.rwqe)
		return -ENOMEM;
	spin_lock_init(&qp->ud.rx_lock);
	INIT_WORK(&qp->ud.kick_work, superp_ud_kick_work);
	if (qp->ibqp.qp_type == IB_QPT_GSI)
		qp->attr.qkey = IB_QP1_QKEY;
	return 0;
}

static void superp_ud_destroy(struct superp_qp *qp)
{
	kfree(qp->ud.rwqe);
}

/* Nothing to bind: each datagram finds its own way. */
static int superp_ud_bind(struct superp_qp *qp)
{
	return 0;
}

/* RESET or destroy: no kick of an earlier life runs after it. */
static void superp_ud_unbind(struct superp_qp *qp)
{
	cancel_work_sync(&qp->ud.kick_work);
}

/* Nothing is in flight: a send completed when its datagram left. */
static void superp_ud_cancel(struct superp_qp *qp)
{
}

const struct superp_qp_type_ops superp_ud_qp_type = {
	.create = superp_ud_create,
	.destroy = superp_ud_destroy,
	.bind = superp_ud_bind,
	.unbind = superp_ud_unbind,
	.cancel = superp_ud_cancel,
	.kick = superp_ud_kick,
	.kick_later = superp_ud_kick_later,
};
