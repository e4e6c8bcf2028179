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
 * every request addressed to it, from the address the request was sent to.
 * Requests come from SUNH_CMD_ECHO, which waits for the matching reply.
 */
#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/sched/signal.h>
#include <linux/skbuff.h>
#include "sunh_private.h"

#define SUNH_ECHO_REQUEST	128
#define SUNH_ECHO_REPLY		129

struct sunh_echohdr {
	u8 type;
	u8 hop_limit;
	__be16 ident;
	__be16 seq;
	__be16 reserved;
};

struct sunh_echo_wait {
	struct list_head list;
	u16 ident;
	u16 seq;
	bool replied;
	ktime_t sent;
	struct completion done;
	struct sunh_echo_result res;
};

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
	struct sunh_echo_wait *w;
	bool found = false;

	spin_lock_bh(&sn->echo_lock);
	list_for_each_entry(w, &sn->echo_pending, list) {
		if (w->ident != ident || w->seq != seq || w->replied)
			continue;
		w->res.rtt_ns = ktime_to_ns(ktime_sub(ktime_get(), w->sent));
		w->res.saddr = f->saddr;
		w->res.seq = seq;
		w->res.size = skb->len - sizeof(*eh);
		w->res.hop_limit = f->hop_limit;
		w->res.req_hop_limit = eh->hop_limit;
		w->res.tclass = f->tclass;
		w->replied = true;
		complete(&w->done);
		found = true;
		break;
	}
	spin_unlock_bh(&sn->echo_lock);

	if (!found) {
		SUNH_INC(sn, RX_DROP_ECHO_UNMATCHED);
		kfree_skb(skb);
		return NET_RX_DROP;
	}
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
 * sunh_echo_ping() - send one echo request and wait for its reply
 * @net: namespace
 * @daddr: destination
 * @seq: sequence number
 * @hop_limit: 0..15, or -1 for the default
 * @tclass: traffic class
 * @size: payload bytes
 * @timeout_ms: how long to wait
 * @res: the reply
 *
 * Context: process context, sleeps (killable).
 * Return: 0, -ETIMEDOUT, -EINTR, or an error of sunh_output().
 */
int sunh_echo_ping(struct net *net, u16 daddr, u16 seq, int hop_limit,
		   u8 tclass, u16 size, unsigned int timeout_ms,
		   struct sunh_echo_result *res)
{
	struct sunh_net *sn = sunh_pernet(net);
	struct sunh_xmit_params p = {
		.daddr = daddr,
		.nexthdr = SUNH_NEXTHDR_ECHO,
		.tclass = tclass,
		.hop_limit = hop_limit,
	};
	struct sunh_echo_wait w = { .seq = seq };
	struct sunh_echohdr *eh;
	struct sk_buff *skb;
	long left;
	int err;

	skb = alloc_skb(SUNH_MAX_HEADER + sizeof(*eh) + size, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, SUNH_MAX_HEADER);
	eh = skb_put_zero(skb, sizeof(*eh));
	memset(skb_put(skb, size), 0xa5, size);

	w.ident = atomic_inc_return(&sn->echo_ident);
	init_completion(&w.done);
	eh->type = SUNH_ECHO_REQUEST;
	eh->ident = htons(w.ident);
	eh->seq = htons(seq);
	p.flow_label = w.ident & SUNH_FLOW_LABEL_MASK;

	w.sent = ktime_get();
	spin_lock_bh(&sn->echo_lock);
	list_add(&w.list, &sn->echo_pending);
	spin_unlock_bh(&sn->echo_lock);

	err = sunh_output(net, skb, &p);
	if (!err) {
		left = wait_for_completion_killable_timeout(&w.done,
							    msecs_to_jiffies(timeout_ms));
		err = left < 0 ? -EINTR : left ? 0 : -ETIMEDOUT;
	}

	spin_lock_bh(&sn->echo_lock);
	list_del(&w.list);
	spin_unlock_bh(&sn->echo_lock);
	if (w.replied) {
		*res = w.res;
		return 0;
	}
	return err;
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
