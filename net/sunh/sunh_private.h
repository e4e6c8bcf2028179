/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SUNH internals shared by the files of sunh.ko: per-namespace state, the
 * forwarding table, counters.
 */
#ifndef _SUNH_PRIVATE_H
#define _SUNH_PRIVATE_H

#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sunh.h>
#include <uapi/linux/sunh_netlink.h>

/**
 * struct sunh_route - one forwarding entry (immutable once published,
 * except @updated, @checked, @neigh_gen and the counters)
 * @dev: output device (a reference is held)
 * @dev_tracker: reference tracker of @dev
 * @dyn_node: in sunh_domain.dynamic (dynamic entries; domain lock)
 * @created: jiffies64 when made: a static entry's age (never wraps)
 * @updated: jiffies when created or last confirmed (dynamic entries live
 *	for at most a day without it, so it does not wrap on 32-bit either)
 * @checked: jiffies when last checked against the neighbour table
 * @neigh_gen: sunh_net.neigh_gen when last checked
 * @packets: packets sent through the entry
 * @bytes: bytes sent through the entry
 * @origin: enum sunh_origin
 * @addr: the destination it is the entry of
 * @ha_len: length of @ha (@dev->addr_len)
 * @ha: next-hop link-layer address
 * @rcu: deferred free
 */
struct sunh_route {
	struct net_device *dev;
	netdevice_tracker dev_tracker;
	struct list_head dyn_node;
	u64 created;
	unsigned long updated;
	unsigned long checked;
	u32 neigh_gen;
	atomic64_t packets;
	atomic64_t bytes;
	u16 addr;
	u8 origin;
	u8 ha_len;
	u8 ha[MAX_ADDR_LEN];
	struct rcu_head rcu;
};

/**
 * struct sunh_domain - a configured SUPERp subnet and its forwarding table
 * @subnet: prefix and address width
 * @lock: serialises writers of @routes (softirq learners included)
 * @gen: bumped on every change of @routes (dump consistency)
 * @dynamic: the resolved and learned entries, so that ageing and device
 *	events walk what exists rather than every slot (@lock)
 * @size: 1 << @subnet.addr_bits entries
 * @rcu: deferred free
 * @routes: the table, indexed by destination address
 *
 * Replaced as a whole when the subnet changes; readers use RCU.
 */
struct sunh_domain {
	struct sunh_subnet subnet;
	spinlock_t lock;		/* protects @routes updates */
	atomic_t gen;
	struct list_head dynamic;
	unsigned int size;
	struct rcu_head rcu;
	struct sunh_route __rcu *routes[];
};

/* 64-bit counters on every architecture: an unsigned long of a 32-bit
 * machine wraps after 4 GiB of rx_bytes.
 */
struct sunh_stats {
	u64_stats_t cnt[__SUNH_STAT_MAX];
	struct u64_stats_sync syncp;
};

/**
 * struct sunh_net - per network namespace state
 * @net: the namespace
 * @domain: subnet and table; NULL until configured (writers hold RTNL)
 * @stats: per-cpu counters
 * @hop_limit: default hop limit for sending
 * @forwarding: forward frames addressed to other nodes
 * @learning: learn entries from received frames
 * @udp_port: nh_udp_port
 * @ageing: lifetime of dynamic entries, in jiffies
 * @gc_work: ages dynamic entries out
 * @echo_lock: protects @echo_pending, @echo_npending and the reply bucket
 * @echo_pending: echo requests waiting for their reply
 * @echo_npending: entries of @echo_pending
 * @echo_ident: identifier of the next echo request
 * @echo_rate: echo replies per second at most (0: no limit)
 * @echo_tokens: replies that may be sent now (token bucket of @echo_rate)
 * @echo_stamp: jiffies when @echo_tokens was last refilled
 * @pending: packets waiting for address resolution (sunh_pending.c)
 * @neigh_gen: bumped on every neighbour change of the namespace: entries
 *	checked under an older value are checked again on their next use
 * @gen_base: sum of the generations of the domains replaced (RTNL), so
 *	that sunh_dump_seq() never goes back when the subnet changes
 */
struct sunh_net {
	struct net *net;
	struct sunh_domain __rcu *domain;
	struct sunh_stats __percpu *stats;
	u8 hop_limit;
	bool forwarding;
	bool learning;
	u16 udp_port;
	unsigned long ageing;
	struct delayed_work gc_work;
	spinlock_t echo_lock;		/* protects the echo_* below */
	struct list_head echo_pending;
	unsigned int echo_npending;
	atomic_t echo_ident;
	u32 echo_rate;
	u32 echo_tokens;
	unsigned long echo_stamp;
	struct sk_buff_head pending;
	atomic_t neigh_gen;
	u32 gen_base;
};

extern unsigned int sunh_net_id;
extern u16 sunh_ethertype;

static inline struct sunh_net *sunh_pernet(const struct net *net)
{
	return net_generic(net, sunh_net_id);
}

/* Any context: process context (netlink, the ageing work) and softirq
 * may count on the same CPU, hence irqsave (free on 64-bit machines).
 */
static inline void sunh_stat_add(struct sunh_net *sn, unsigned int stat,
				 u64 v)
{
	struct sunh_stats *s = get_cpu_ptr(sn->stats);
	unsigned long flags;

	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_add(&s->cnt[stat], v);
	u64_stats_update_end_irqrestore(&s->syncp, flags);
	put_cpu_ptr(sn->stats);
}

#define SUNH_INC(sn, stat) sunh_stat_add((sn), SUNH_STAT_##stat, 1)
#define SUNH_ADD(sn, stat, v) sunh_stat_add((sn), SUNH_STAT_##stat, (v))

static inline struct sunhhdr *sunh_hdr(const struct sk_buff *skb)
{
	return (struct sunhhdr *)skb_network_header(skb);
}

/* sunh_table.c */
struct sunh_domain *sunh_domain_alloc(const struct sunh_subnet *s);
void sunh_domain_release(struct sunh_domain *d);
struct sunh_route *sunh_route_lookup(struct sunh_domain *d, u16 addr);
int sunh_route_insert(struct sunh_domain *d, u16 addr, struct net_device *dev,
		      const u8 *ha, u8 origin, bool replace);
int sunh_route_delete(struct sunh_domain *d, u16 addr);
bool sunh_route_delete_entry(struct sunh_domain *d, u16 addr,
			     struct sunh_route *rt);
unsigned int sunh_route_flush(struct sunh_domain *d,
			      const struct net_device *dev, bool all,
			      unsigned long max_age);
bool sunh_route_is_dynamic(const struct sunh_route *rt);

/* sunh_addr.c */
bool sunh_addr_is_local(struct net *net, const struct sunh_domain *d,
			u16 addr);
int sunh_dev_addr(struct net *net, const struct sunh_domain *d,
		  const struct net_device *dev, u16 *addr);

/* sunh_output.c */
/**
 * struct sunh_nexthop - where a packet goes next
 * @dev: output device
 * @rt: forwarding entry (RCU), or NULL when @neigh is set
 * @neigh: neighbour still resolving (a reference is held)
 * @local: the destination is this node
 */
struct sunh_nexthop {
	struct net_device *dev;
	struct sunh_route *rt;
	struct neighbour *neigh;
	bool local;
};

int sunh_nexthop_get(struct sunh_net *sn, struct sunh_domain *d, u16 daddr,
		     struct sunh_nexthop *nh);
int sunh_nexthop_xmit(struct sunh_net *sn, struct sk_buff *skb,
		      struct sunh_nexthop *nh);
void sunh_nexthop_put(struct sunh_nexthop *nh);
int sunh_dev_xmit(struct sunh_net *sn, struct sk_buff *skb);

/* sunh_rcv.c */
int sunh_rcv(struct sk_buff *skb, struct net_device *dev,
	     struct packet_type *pt, struct net_device *orig_dev);
void sunh_rcv_list(struct list_head *head, struct packet_type *pt,
		   struct net_device *orig_dev);
int sunh_deliver(struct net *net, struct sk_buff *skb);
const struct sunh_protocol *sunh_protocol_get(u8 nexthdr);

/* sunh_pending.c */
int sunh_pending_xmit(struct sunh_net *sn, struct sk_buff *skb,
		      struct neighbour *n);
void sunh_pending_neigh_event(struct sunh_net *sn, struct neighbour *n);
void sunh_pending_expire(struct sunh_net *sn, const struct net_device *dev,
			 bool all);

/* sunh_fwd.c */
bool sunh_hop_limit_forward(u8 hop_limit, u8 *next);
int sunh_forward(struct sunh_net *sn, struct sunh_domain *d,
		 struct sk_buff *skb);

/* sunh_echo.c */
int sunh_echo_init(void);
void sunh_echo_exit(void);
void sunh_echo_net_exit(struct sunh_net *sn);

/**
 * struct sunh_echo_request - an echo request to send
 * @daddr: destination
 * @seq: sequence number
 * @hop_limit: 0..15, or -1 for the default
 * @tclass: traffic class
 * @size: payload bytes
 * @timeout_ms: how long a reply is awaited
 * @portid: netlink socket that receives the reply
 * @nlseq: nlmsg_seq of the request, repeated in the reply
 */
struct sunh_echo_request {
	u16 daddr;
	u16 seq;
	int hop_limit;
	u8 tclass;
	u16 size;
	unsigned int timeout_ms;
	u32 portid;
	u32 nlseq;
};

struct sunh_echo_result {
	u16 saddr;
	u16 seq;
	u16 size;
	u8 hop_limit;
	u8 req_hop_limit;
	u8 tclass;
	u64 rtt_ns;
};

int sunh_echo_send(struct net *net, const struct sunh_echo_request *rq);

/* sunh_netlink.c */
int sunh_netlink_init(void);
void sunh_netlink_exit(void);
void sunh_nl_echo_notify(struct net *net, u32 portid, u32 nlseq,
			 const struct sunh_echo_result *res);

/* sunh_main.c */
void sunh_stats_fold(struct sunh_net *sn, u64 *sum);
u32 sunh_dump_seq(struct sunh_net *sn, const struct sunh_domain *d);
int sunh_subnet_change(struct net *net, const struct sunh_subnet *s);

#endif /* _SUNH_PRIVATE_H */
