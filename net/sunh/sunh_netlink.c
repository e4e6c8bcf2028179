// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "sunh": configuration, forwarding table, counters
 * and echo. Namespace aware; changes need CAP_NET_ADMIN over the namespace
 * (GENL_UNS_ADMIN_PERM: root of a container administers its own domain and
 * no other), echo needs CAP_NET_RAW over it. Memory allocated on behalf of
 * a namespace (its table, static entries) is charged to the caller's memory
 * cgroup. The family runs its operations in parallel: state changes are
 * serialised by RTNL. No operation waits on the network: an echo request
 * returns once sent and its reply is a notification to the requesting
 * socket (a sleeping handler would hold generic netlink's lock and stall
 * every family's registration on the system).
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include "sunh_private.h"

#define SUNH_ECHO_SIZE_DEFAULT		56
#define SUNH_ECHO_SIZE_MAX		1400
#define SUNH_ECHO_TIMEOUT_DEFAULT	1000
#define SUNH_ECHO_RATE_MAX		1000000

static struct netlink_range_validation sunh_echo_rate_range = {
	.max = SUNH_ECHO_RATE_MAX,
};

static struct netlink_range_validation sunh_ageing_range = {
	.min = 1,
	.max = 86400,
};

static struct netlink_range_validation sunh_timeout_range = {
	.min = 10,
	.max = 10000,
};

static const struct nla_policy sunh_nl_policy[SUNH_A_MAX + 1] = {
	[SUNH_A_PREFIX4]	= NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[SUNH_A_PREFIX6]	= NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[SUNH_A_PREFIX_LEN]	= NLA_POLICY_MAX(NLA_U8, 128),
	[SUNH_A_ADDR_BITS]	= NLA_POLICY_RANGE(NLA_U8, SUNH_ADDR_BITS_MIN,
						   SUNH_ADDR_BITS_MAX),
	[SUNH_A_HOP_LIMIT]	= NLA_POLICY_MAX(NLA_U8, SUNH_HOP_LIMIT_MAX),
	[SUNH_A_FORWARDING]	= NLA_POLICY_MAX(NLA_U8, 1),
	[SUNH_A_LEARNING]	= NLA_POLICY_MAX(NLA_U8, 1),
	[SUNH_A_AGEING]		= NLA_POLICY_FULL_RANGE(NLA_U32,
							&sunh_ageing_range),
	[SUNH_A_UDP_PORT]	= { .type = NLA_U16 },
	[SUNH_A_ADDR]		= { .type = NLA_U16 },
	[SUNH_A_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[SUNH_A_LLADDR]		= { .type = NLA_BINARY, .len = MAX_ADDR_LEN },
	[SUNH_A_ORIGIN]		= NLA_POLICY_MAX(NLA_U8, SUNH_ORIGIN_LEARNED),
	[SUNH_A_TCLASS]		= { .type = NLA_U8 },
	[SUNH_A_SIZE]		= NLA_POLICY_MAX(NLA_U16, SUNH_ECHO_SIZE_MAX),
	[SUNH_A_TIMEOUT_MS]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&sunh_timeout_range),
	[SUNH_A_SEQ]		= { .type = NLA_U16 },
	[SUNH_A_REPLACE]	= { .type = NLA_FLAG },
	[SUNH_A_FLUSH]		= { .type = NLA_FLAG },
	[SUNH_A_ECHO_RATE]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&sunh_echo_rate_range),
};

static struct genl_family sunh_nl_family;

static struct sk_buff *sunh_nl_new(struct genl_info *info, u8 cmd,
				   void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put_reply(msg, info, &sunh_nl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int sunh_nl_put_subnet(struct sk_buff *msg, const struct sunh_subnet *s)
{
	if (s->family == AF_INET) {
		if (nla_put_in_addr(msg, SUNH_A_PREFIX4, s->prefix.v4))
			return -EMSGSIZE;
	} else {
		if (nla_put_in6_addr(msg, SUNH_A_PREFIX6, &s->prefix.v6))
			return -EMSGSIZE;
	}
	if (nla_put_u8(msg, SUNH_A_PREFIX_LEN, s->prefix_len) ||
	    nla_put_u8(msg, SUNH_A_ADDR_BITS, s->addr_bits))
		return -EMSGSIZE;
	return 0;
}

static int sunh_nl_config_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sunh_net *sn = sunh_pernet(genl_info_net(info));
	struct sunh_domain *d;
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = sunh_nl_new(info, SUNH_CMD_CONFIG_GET, &hdr);
	if (!msg)
		return -ENOMEM;

	rcu_read_lock();
	d = rcu_dereference(sn->domain);
	err = d ? sunh_nl_put_subnet(msg, &d->subnet) : 0;
	rcu_read_unlock();
	if (err ||
	    nla_put_u8(msg, SUNH_A_HOP_LIMIT, READ_ONCE(sn->hop_limit)) ||
	    nla_put_u8(msg, SUNH_A_FORWARDING, READ_ONCE(sn->forwarding)) ||
	    nla_put_u8(msg, SUNH_A_LEARNING, READ_ONCE(sn->learning)) ||
	    nla_put_u32(msg, SUNH_A_AGEING, READ_ONCE(sn->ageing) / HZ) ||
	    nla_put_u16(msg, SUNH_A_UDP_PORT, READ_ONCE(sn->udp_port)) ||
	    nla_put_u32(msg, SUNH_A_ECHO_RATE, READ_ONCE(sn->echo_rate)) ||
	    nla_put_u16(msg, SUNH_A_ETHERTYPE, sunh_ethertype)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int sunh_nl_config_set(struct sk_buff *skb, struct genl_info *info)
{
	struct sunh_net *sn = sunh_pernet(genl_info_net(info));
	struct nlattr **tb = info->attrs;

	if (tb[SUNH_A_HOP_LIMIT] && !nla_get_u8(tb[SUNH_A_HOP_LIMIT])) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SUNH_A_HOP_LIMIT],
				    "default hop limit must be 1..15");
		return -ERANGE;
	}
	if (tb[SUNH_A_HOP_LIMIT])
		WRITE_ONCE(sn->hop_limit, nla_get_u8(tb[SUNH_A_HOP_LIMIT]));
	if (tb[SUNH_A_FORWARDING])
		WRITE_ONCE(sn->forwarding, nla_get_u8(tb[SUNH_A_FORWARDING]));
	if (tb[SUNH_A_LEARNING])
		WRITE_ONCE(sn->learning, nla_get_u8(tb[SUNH_A_LEARNING]));
	if (tb[SUNH_A_AGEING])
		WRITE_ONCE(sn->ageing, nla_get_u32(tb[SUNH_A_AGEING]) * HZ);
	if (tb[SUNH_A_UDP_PORT])
		WRITE_ONCE(sn->udp_port, nla_get_u16(tb[SUNH_A_UDP_PORT]));
	if (tb[SUNH_A_ECHO_RATE])
		WRITE_ONCE(sn->echo_rate, nla_get_u32(tb[SUNH_A_ECHO_RATE]));
	return 0;
}

static int sunh_nl_subnet_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	unsigned int bits = SUNH_ADDR_BITS_DEFAULT;
	struct sunh_subnet s;
	const void *prefix;
	int family, err;

	if (!!tb[SUNH_A_PREFIX4] == !!tb[SUNH_A_PREFIX6]) {
		NL_SET_ERR_MSG(info->extack,
			       "need exactly one of an IPv4 and an IPv6 prefix");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, SUNH_A_PREFIX_LEN))
		return -EINVAL;
	if (tb[SUNH_A_ADDR_BITS])
		bits = nla_get_u8(tb[SUNH_A_ADDR_BITS]);
	if (tb[SUNH_A_PREFIX4]) {
		family = AF_INET;
		prefix = nla_data(tb[SUNH_A_PREFIX4]);
	} else {
		family = AF_INET6;
		prefix = nla_data(tb[SUNH_A_PREFIX6]);
	}

	err = sunh_subnet_init(&s, family, prefix,
			       nla_get_u8(tb[SUNH_A_PREFIX_LEN]), bits);
	switch (err) {
	case 0:
		break;
	case -ERANGE:
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SUNH_A_PREFIX_LEN],
				    "host part must hold the address bits and be at most 16 bits");
		return err;
	case -EADDRNOTAVAIL:
		NL_SET_ERR_MSG(info->extack,
			       "prefix has bits set beyond its length");
		return -EINVAL;
	default:
		NL_SET_ERR_MSG(info->extack, "invalid subnet");
		return err;
	}

	rtnl_lock();
	err = sunh_subnet_change(genl_info_net(info), &s);
	rtnl_unlock();
	return err;
}

static int sunh_nl_subnet_del(struct sk_buff *skb, struct genl_info *info)
{
	int err;

	rtnl_lock();
	err = sunh_subnet_change(genl_info_net(info), NULL);
	rtnl_unlock();
	return err;
}

/* The domain of a request, or NULL with an extack message. */
static struct sunh_domain *sunh_nl_domain(struct genl_info *info)
{
	struct sunh_domain *d;

	d = rtnl_dereference(sunh_pernet(genl_info_net(info))->domain);
	if (!d)
		NL_SET_ERR_MSG(info->extack, "no SUPERp subnet configured");
	return d;
}

static int sunh_nl_addr(struct genl_info *info, const struct sunh_domain *d,
			u16 *addr)
{
	if (GENL_REQ_ATTR_CHECK(info, SUNH_A_ADDR))
		return -EINVAL;
	*addr = nla_get_u16(info->attrs[SUNH_A_ADDR]);
	if (*addr >= d->size) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[SUNH_A_ADDR],
				    "address outside the configured address width");
		return -ERANGE;
	}
	return 0;
}

static int sunh_nl_route_new(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct nlattr **tb = info->attrs;
	struct net_device *dev;
	struct sunh_domain *d;
	u16 addr;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, SUNH_A_IFINDEX) ||
	    GENL_REQ_ATTR_CHECK(info, SUNH_A_LLADDR))
		return -EINVAL;

	rtnl_lock();
	d = sunh_nl_domain(info);
	err = d ? sunh_nl_addr(info, d, &addr) : -ENETUNREACH;
	if (err)
		goto out;
	dev = __dev_get_by_index(net, nla_get_u32(tb[SUNH_A_IFINDEX]));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SUNH_A_IFINDEX],
				    "no such device");
		err = -ENODEV;
		goto out;
	}
	if (dev->type != ARPHRD_ETHER) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SUNH_A_IFINDEX],
				    "not an Ethernet device");
		err = -EOPNOTSUPP;
		goto out;
	}
	if (nla_len(tb[SUNH_A_LLADDR]) != dev->addr_len ||
	    !is_valid_ether_addr(nla_data(tb[SUNH_A_LLADDR]))) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SUNH_A_LLADDR],
				    "invalid link-layer address for the device");
		err = -EINVAL;
		goto out;
	}
	err = sunh_route_insert(d, addr, dev, nla_data(tb[SUNH_A_LLADDR]),
				SUNH_ORIGIN_STATIC, nla_get_flag(tb[SUNH_A_REPLACE]));
	if (err == -EEXIST)
		NL_SET_ERR_MSG(info->extack,
			       "a static entry exists for this address (use replace)");
out:
	rtnl_unlock();
	return err;
}

static int sunh_nl_route_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct sunh_domain *d;
	u16 addr;
	int err;

	rtnl_lock();
	d = sunh_nl_domain(info);
	if (!d) {
		err = -ENETUNREACH;
		goto out;
	}
	if (nla_get_flag(tb[SUNH_A_FLUSH])) {
		sunh_route_flush(d, NULL, tb[SUNH_A_ORIGIN] &&
				 nla_get_u8(tb[SUNH_A_ORIGIN]) ==
				 SUNH_ORIGIN_STATIC, 0);
		err = 0;
		goto out;
	}
	err = sunh_nl_addr(info, d, &addr);
	if (err)
		goto out;
	err = sunh_route_delete(d, addr);
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SUNH_A_ADDR],
				    "no entry for this address");
out:
	rtnl_unlock();
	return err;
}

static int sunh_nl_put_route(struct sk_buff *msg, u16 addr,
			     const struct sunh_route *rt)
{
	u64 age = sunh_route_is_dynamic(rt) ?
		  jiffies - READ_ONCE(rt->updated) :
		  get_jiffies_64() - rt->created;

	if (nla_put_u16(msg, SUNH_A_ADDR, addr) ||
	    nla_put_u32(msg, SUNH_A_IFINDEX, rt->dev->ifindex) ||
	    nla_put(msg, SUNH_A_LLADDR, rt->ha_len, rt->ha) ||
	    nla_put_u8(msg, SUNH_A_ORIGIN, rt->origin) ||
	    nla_put_u64_64bit(msg, SUNH_A_AGE_MS, jiffies64_to_msecs(age),
			      SUNH_A_PAD) ||
	    nla_put_u64_64bit(msg, SUNH_A_PACKETS,
			      atomic64_read(&rt->packets), SUNH_A_PAD) ||
	    nla_put_u64_64bit(msg, SUNH_A_BYTES, atomic64_read(&rt->bytes),
			      SUNH_A_PAD))
		return -EMSGSIZE;
	return 0;
}

static int sunh_nl_route_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sunh_net *sn = sunh_pernet(genl_info_net(info));
	struct sunh_route *rt;
	struct sunh_domain *d;
	struct sk_buff *msg;
	void *hdr;
	u16 addr;
	int err;

	msg = sunh_nl_new(info, SUNH_CMD_ROUTE_GET, &hdr);
	if (!msg)
		return -ENOMEM;
	rcu_read_lock();
	d = rcu_dereference(sn->domain);
	if (!d) {
		NL_SET_ERR_MSG(info->extack, "no SUPERp subnet configured");
		err = -ENETUNREACH;
		goto err;
	}
	err = sunh_nl_addr(info, d, &addr);
	if (err)
		goto err;
	rt = sunh_route_lookup(d, addr);
	if (!rt) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[SUNH_A_ADDR],
				    "no entry for this address");
		err = -ENOENT;
		goto err;
	}
	err = sunh_nl_put_route(msg, addr, rt);
	if (err)
		goto err;
	rcu_read_unlock();
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err:
	rcu_read_unlock();
	nlmsg_free(msg);
	return err;
}

/* Dump position, resumed by key (not by position, which shifts when
 * entries or devices come and go): the next address of the table, then the
 * ifindex of the last device whose local address was sent.
 */
struct sunh_dump_pos {
	u32 addr;
	u32 ifindex;
	bool local;	/* the table is done */
};

static struct sunh_dump_pos *sunh_dump_pos(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct sunh_dump_pos) > sizeof(cb->ctx));
	return (struct sunh_dump_pos *)cb->ctx;
}

static void *sunh_dump_put(struct sk_buff *skb, struct netlink_callback *cb)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
			  cb->nlh->nlmsg_seq, &sunh_nl_family, NLM_F_MULTI,
			  SUNH_CMD_ROUTE_GET);
	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}

/* The device with a local address and the smallest ifindex above @after. */
static struct net_device *sunh_dump_next_local(struct net *net,
					       const struct sunh_domain *d,
					       u32 after, u16 *addr)
{
	struct net_device *dev, *best = NULL;
	u16 a, best_addr = 0;

	for_each_netdev_rcu(net, dev) {
		if (dev->ifindex <= after ||
		    (best && dev->ifindex >= best->ifindex) ||
		    sunh_dev_addr(net, d, dev, &a))
			continue;
		best = dev;
		best_addr = a;
	}
	*addr = best_addr;
	return best;
}

/* Dump: the entries by address, then the local addresses by ifindex. A
 * change between two parts of the dump (entries, subnet, devices,
 * addresses) marks it NLM_F_DUMP_INTR, as the kernel's own dumps do.
 */
static int sunh_nl_route_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct sunh_dump_pos *pos = sunh_dump_pos(cb);
	struct net *net = sock_net(cb->skb->sk);
	struct sunh_net *sn = sunh_pernet(net);
	struct sunh_route *rt;
	struct net_device *dev;
	struct sunh_domain *d;
	void *hdr;
	u16 addr;

	rcu_read_lock();
	d = rcu_dereference(sn->domain);
	cb->seq = sunh_dump_seq(sn, d);
	if (!d)
		goto out;
	for (; !pos->local && pos->addr < d->size; pos->addr++) {
		rt = sunh_route_lookup(d, pos->addr);
		if (!rt)
			continue;
		hdr = sunh_dump_put(skb, cb);
		if (!hdr)
			goto out;
		if (sunh_nl_put_route(skb, pos->addr, rt)) {
			genlmsg_cancel(skb, hdr);
			goto out;
		}
		genlmsg_end(skb, hdr);
	}
	pos->local = true;

	while ((dev = sunh_dump_next_local(net, d, pos->ifindex, &addr))) {
		hdr = sunh_dump_put(skb, cb);
		if (!hdr)
			goto out;
		if (nla_put_u16(skb, SUNH_A_ADDR, addr) ||
		    nla_put_u32(skb, SUNH_A_IFINDEX, dev->ifindex) ||
		    nla_put_flag(skb, SUNH_A_LOCAL)) {
			genlmsg_cancel(skb, hdr);
			goto out;
		}
		genlmsg_end(skb, hdr);
		pos->ifindex = dev->ifindex;
	}
out:
	rcu_read_unlock();
	return skb->len;
}

static int sunh_nl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sunh_net *sn = sunh_pernet(genl_info_net(info));
	u64 sum[__SUNH_STAT_MAX];
	struct sk_buff *msg;
	struct nlattr *nest;
	unsigned int i;
	void *hdr;

	msg = sunh_nl_new(info, SUNH_CMD_STATS_GET, &hdr);
	if (!msg)
		return -ENOMEM;
	sunh_stats_fold(sn, sum);
	nest = nla_nest_start(msg, SUNH_A_STATS);
	if (!nest)
		goto err;
	for (i = 0; i < __SUNH_STAT_MAX; i++)
		if (nla_put_u64_64bit(msg, i + 1, sum[i], SUNH_A_PAD))
			goto err;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static int sunh_nl_echo(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct nlattr **tb = info->attrs;
	struct sunh_echo_request rq = {
		.hop_limit = -1,
		.size = SUNH_ECHO_SIZE_DEFAULT,
		.timeout_ms = SUNH_ECHO_TIMEOUT_DEFAULT,
		.portid = info->snd_portid,
		.nlseq = info->snd_seq,
	};
	struct sunh_domain *d;
	int err;

	if (!netlink_ns_capable(skb, net->user_ns, CAP_NET_RAW)) {
		NL_SET_ERR_MSG(info->extack, "echo needs CAP_NET_RAW");
		return -EPERM;
	}
	rcu_read_lock();
	d = rcu_dereference(sunh_pernet(net)->domain);
	if (!d) {
		NL_SET_ERR_MSG(info->extack, "no SUPERp subnet configured");
		err = -ENETUNREACH;
	} else {
		err = sunh_nl_addr(info, d, &rq.daddr);
	}
	rcu_read_unlock();
	if (err)
		return err;
	if (tb[SUNH_A_HOP_LIMIT])
		rq.hop_limit = nla_get_u8(tb[SUNH_A_HOP_LIMIT]);
	if (tb[SUNH_A_TCLASS])
		rq.tclass = nla_get_u8(tb[SUNH_A_TCLASS]);
	if (tb[SUNH_A_SIZE])
		rq.size = nla_get_u16(tb[SUNH_A_SIZE]);
	if (tb[SUNH_A_TIMEOUT_MS])
		rq.timeout_ms = nla_get_u32(tb[SUNH_A_TIMEOUT_MS]);
	if (tb[SUNH_A_SEQ])
		rq.seq = nla_get_u16(tb[SUNH_A_SEQ]);

	/* Sent, not awaited: the reply comes as a notification. */
	err = sunh_echo_send(net, &rq);
	if (err == -EBUSY)
		NL_SET_ERR_MSG(info->extack, "too many echo requests outstanding");
	else if (err)
		NL_SET_ERR_MSG(info->extack, "echo request not sent");
	return err;
}

/**
 * sunh_nl_echo_notify() - hand an echo reply to the socket that asked
 * @net: namespace of the request
 * @portid: the requesting socket
 * @nlseq: sequence number of its request
 * @res: the reply
 *
 * Context: any (softirq when the reply arrives); a lost notification
 * (no memory, socket gone or full) is the same as a lost reply.
 */
void sunh_nl_echo_notify(struct net *net, u32 portid, u32 nlseq,
			 const struct sunh_echo_result *res)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_ATOMIC);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, portid, nlseq, &sunh_nl_family, 0,
			  SUNH_CMD_ECHO);
	if (!hdr ||
	    nla_put_u16(msg, SUNH_A_SADDR, res->saddr) ||
	    nla_put_u16(msg, SUNH_A_SEQ, res->seq) ||
	    nla_put_u16(msg, SUNH_A_SIZE, res->size) ||
	    nla_put_u8(msg, SUNH_A_HOP_LIMIT, res->hop_limit) ||
	    nla_put_u8(msg, SUNH_A_REQ_HOP_LIMIT, res->req_hop_limit) ||
	    nla_put_u8(msg, SUNH_A_TCLASS, res->tclass) ||
	    nla_put_u64_64bit(msg, SUNH_A_RTT_NS, res->rtt_ns, SUNH_A_PAD)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_unicast(net, msg, portid);
}

static const struct genl_small_ops sunh_nl_ops[] = {
	{
		.cmd = SUNH_CMD_CONFIG_GET,
		.doit = sunh_nl_config_get,
	},
	{
		.cmd = SUNH_CMD_CONFIG_SET,
		.doit = sunh_nl_config_set,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SUNH_CMD_SUBNET_SET,
		.doit = sunh_nl_subnet_set,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SUNH_CMD_SUBNET_DEL,
		.doit = sunh_nl_subnet_del,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SUNH_CMD_ROUTE_GET,
		.doit = sunh_nl_route_get,
		.dumpit = sunh_nl_route_dump,
	},
	{
		.cmd = SUNH_CMD_ROUTE_NEW,
		.doit = sunh_nl_route_new,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SUNH_CMD_ROUTE_DEL,
		.doit = sunh_nl_route_del,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SUNH_CMD_STATS_GET,
		.doit = sunh_nl_stats_get,
	},
	{
		.cmd = SUNH_CMD_ECHO,
		.doit = sunh_nl_echo,
	},
};

static struct genl_family sunh_nl_family __ro_after_init = {
	.name = SUNH_GENL_NAME,
	.version = SUNH_GENL_VERSION,
	.maxattr = SUNH_A_MAX,
	.policy = sunh_nl_policy,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.small_ops = sunh_nl_ops,
	.n_small_ops = ARRAY_SIZE(sunh_nl_ops),
};

int __init sunh_netlink_init(void)
{
	return genl_register_family(&sunh_nl_family);
}

void sunh_netlink_exit(void)
{
	genl_unregister_family(&sunh_nl_family);
}
