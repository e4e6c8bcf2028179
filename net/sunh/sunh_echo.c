// SPDX-License-Identifier: GPL-2.0
/*
 * SUNH echo: a ping below RDMA, on Next Header 254 (SUNH_NEXTHDR_ECHO, an
 * RFC 3692 experimental value). The 8-byte echo header:
 *
 *   byte 0    type: 128 request, 129 reply (as ICMPv6)
 *   byte 1    request: 0; reply: hop limit of the request as received
 *   bytes 2-3 identifier (network byte order)
 *   bytes 4-5 sequence number
 *   bytes 6-7 reserved, zero
 *
 * followed by payload that the reply carries back unchanged. A node answers
 * the requests addressed to it, from the address the request was sent to,
 * at most echo_rate per second (a token bucket, like icmp_ratelimit), so
 * that a flood of forged requests cannot turn it into a reflector.
 *
 * Requests come from SUNH_CMD_ECHO, which returns as soon as the request
 * is sent: nothing waits inside netlink. The request is remembered (at most
 * SUNH_ECHO_PENDING_MAX per namespace, until its timeout); a reply that
 * matches it by identifier, sequence number and source address goes to the
 * requesting netlink socket as a notification. The pending list and the
 * token bucket are guarded by the namespace's echo_lock (BH).
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include "sunh_private.h"

#define SUNH_ECHO_PENDING_MAX	256

#define SUNH_ECHO_REQUEST	128
#define SUNH_ECHO_REPLY		129

struct sunh_echohdr {
	u8 type;
	u8 hop_limit;
	__be16 ident;
	__be16 seq;
	__be16 reserved;
};

/* A request waiting for its reply. */
struct sunh_echo_pending {
	struct list_head list;
	unsigned long expires;	/* jiffies */
	ktime_t sent;
	u32 portid;
	u32 nlseq;
	u16 daddr;
	u16 ident;
	u16 seq;
};

/* Forget requests past their timeout. Context: echo_lock held. */
static void sunh_echo_expire(struct sunh_net *sn)
{
	struct sunh_echo_pending *w, *tmp;

	list_for_each_entry_safe(w, tmp, &sn->echo_pending, list) {
		if (time_before(jiffies, w->expires))
			continue;
		list_del(&w->list);
		sn->echo_npending--;
		kfree(w);
	}
}

/* May a reply be sent now? A token bucket of echo_rate per second. */
static bool sunh_echo_allow(struct sunh_net *sn)
{
	u32 rate = READ_ONCE(sn->echo_rate);
	unsigned long now = jiffies, elapsed;
	bool ok;

	if (!rate)
		return true;
	spin_lock_bh(&sn->echo_lock);
	elapsed = now - sn->echo_stamp;
	if (elapsed) {
		u64 add = (u64)elapsed * rate / HZ;

		sn->echo_tokens = min_t(u64, rate, sn->echo_tokens + add);
		if (add)
			sn->echo_stamp = now;
	}
	ok = sn->echo_tokens > 0;
	if (ok)
		sn->echo_tokens--;
	spin_unlock_bh(&sn->echo_lock);
	return ok;
}

static int sunh_echo_reply(struct net *net, struct sk_buff *skb)
{
	const struct sunh_fields *f = &SUNH_CB(skb)->hdr;
	struct sunh_net *sn = sunh_pernet(net);
	struct sunh_xmit_params p = {
		.daddr = f->saddr,
		.saddr = f->daddr,
		.set_saddr = true,
		.nexthdr = SUNH_NEXTHDR_ECHO,
		.tclass = f->tclass,
		.flow_label = f->flow_label,
		.hop_limit = -1,
	};
	struct sunh_echohdr *eh;
	struct sk_buff *nskb;

	if (!sunh_echo_allow(sn)) {
		SUNH_INC(sn, RX_DROP_ECHO_RATELIMIT);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	nskb = alloc_skb(SUNH_MAX_HEADER + skb->len, GFP_ATOMIC);
	if (!nskb) {
		SUNH_INC(sn, TX_DROP_NOMEM);
		goto out;
	}
	skb_reserve(nskb, SUNH_MAX_HEADER);
	if (skb_copy_bits(skb, 0, skb_put(nskb, skb->len), skb->len)) {
		kfree_skb(nskb);
		goto out;
	}
	eh = (struct sunh_echohdr *)nskb->data;
	eh->type = SUNH_ECHO_REPLY;
	eh->hop_limit = f->hop_limit;
	if (!sunh_output(net, nskb, &p))
		SUNH_INC(sn, ECHO_REP_TX);
out:
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static int sunh_echo_match(struct net *net, struct sk_buff *skb)
{
	const struct sunh_fields *f = &SUNH_CB(skb)->hdr;
	const struct sunh_echohdr *eh = (void *)skb->data;
	struct sunh_net *sn = sunh_pernet(net);
	u16 ident = ntohs(eh->ident), seq = ntohs(eh->seq);
	struct sunh_echo_pending *w, *found = NULL;
	struct sunh_echo_result res;

	spin_lock_bh(&sn->echo_lock);
	sunh_echo_expire(sn);
	list_for_each_entry(w, &sn->echo_pending, list) {
		/* the source too: a reply is not taken from anybody */
		if (w->ident != ident || w->seq != seq || w->daddr != f->saddr)
			continue;
		list_del(&w->list);
		sn->echo_npending--;
		found = w;
		break;
	}
	spin_unlock_bh(&sn->echo_lock);

	if (!found) {
		SUNH_INC(sn, RX_DROP_ECHO_UNMATCHED);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	res.rtt_ns = ktime_to_ns(ktime_sub(ktime_get(), found->sent));
	res.saddr = f->saddr;
	res.seq = seq;
	res.size = skb->len - sizeof(*eh);
	res.hop_limit = f->hop_limit;
	res.req_hop_limit = eh->hop_limit;
	res.tclass = f->tclass;
	sunh_nl_echo_notify(net, found->portid, found->nlseq, &res);
	kfree(found);
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static int sunh_echo_rcv(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);
	struct sunh_net *sn = sunh_pernet(net);
	const struct sunh_echohdr *eh;

	if (!pskb_may_pull(skb, sizeof(*eh)))
		goto malformed;
	eh = (const struct sunh_echohdr *)skb->data;
	switch (eh->type) {
	case SUNH_ECHO_REQUEST:
		SUNH_INC(sn, ECHO_REQ_RX);
		return sunh_echo_reply(net, skb);
	case SUNH_ECHO_REPLY:
		SUNH_INC(sn, ECHO_REP_RX);
		return sunh_echo_match(net, skb);
	}
malformed:
	SUNH_INC(sn, RX_DROP_ECHO_MALFORMED);
	kfree_skb(skb);
	return NET_RX_DROP;
}

/**
 * sunh_echo_send() - send one echo request; its reply is notified later
 * @net: namespace
 * @rq: the request and where its reply goes
 *
 * Context: process context.
 * Return: 0, -ENOMEM, -EBUSY (too many requests outstanding), or an error
 * of sunh_output().
 */
int sunh_echo_send(struct net *net, const struct sunh_echo_request *rq)
{
	struct sunh_net *sn = sunh_pernet(net);
	struct sunh_xmit_params p = {
		.daddr = rq->daddr,
		.nexthdr = SUNH_NEXTHDR_ECHO,
		.tclass = rq->tclass,
		.hop_limit = rq->hop_limit,
	};
	struct sunh_echo_pending *w;
	struct sunh_echohdr *eh;
	struct sk_buff *skb;
	u16 ident;
	int err;

	w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);
	skb = alloc_skb(SUNH_MAX_HEADER + sizeof(*eh) + rq->size, GFP_KERNEL);
	if (!w || !skb) {
		kfree(w);
		kfree_skb(skb);
		return -ENOMEM;
	}
	skb_reserve(skb, SUNH_MAX_HEADER);
	eh = skb_put_zero(skb, sizeof(*eh));
	memset(skb_put(skb, rq->size), 0xa5, rq->size);

	ident = atomic_inc_return(&sn->echo_ident);
	w->ident = ident;
	w->seq = rq->seq;
	w->daddr = rq->daddr;
	w->portid = rq->portid;
	w->nlseq = rq->nlseq;
	eh->type = SUNH_ECHO_REQUEST;
	eh->ident = htons(ident);
	eh->seq = htons(rq->seq);
	p.flow_label = ident & SUNH_FLOW_LABEL_MASK;

	spin_lock_bh(&sn->echo_lock);
	sunh_echo_expire(sn);
	if (sn->echo_npending >= SUNH_ECHO_PENDING_MAX) {
		spin_unlock_bh(&sn->echo_lock);
		kfree(w);
		kfree_skb(skb);
		return -EBUSY;
	}
	w->sent = ktime_get();
	w->expires = jiffies + msecs_to_jiffies(rq->timeout_ms);
	list_add_tail(&w->list, &sn->echo_pending);
	sn->echo_npending++;
	spin_unlock_bh(&sn->echo_lock);

	/* A reply to ourselves may be matched (and @w freed) in here. */
	err = sunh_output(net, skb, &p);
	if (err) {
		spin_lock_bh(&sn->echo_lock);
		list_for_each_entry(w, &sn->echo_pending, list) {
			if (w->ident == ident) {
				list_del(&w->list);
				sn->echo_npending--;
				kfree(w);
				break;
			}
		}
		spin_unlock_bh(&sn->echo_lock);
	}
	return err;
}

/**
 * sunh_echo_net_exit() - forget the requests of a namespace going away
 * @sn: its state
 */
void sunh_echo_net_exit(struct sunh_net *sn)
{
	struct sunh_echo_pending *w, *tmp;

	spin_lock_bh(&sn->echo_lock);
	list_for_each_entry_safe(w, tmp, &sn->echo_pending, list) {
		list_del(&w->list);
		kfree(w);
	}
	sn->echo_npending = 0;
	spin_unlock_bh(&sn->echo_lock);
}

static const struct sunh_protocol sunh_echo_proto = {
	.handler = sunh_echo_rcv,
	.nexthdr = SUNH_NEXTHDR_ECHO,
};

int sunh_echo_init(void)
{
	return sunh_add_protocol(&sunh_echo_proto);
}

void sunh_echo_exit(void)
{
	sunh_del_protocol(&sunh_echo_proto);
}
