// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "superp": SUPERp connections of ib_superp devices
 * (add, delete, show, shutdown), the devices' default parameters, and a
 * multicast group "events" that carries every engine event. The interface
 * is described in include/uapi/rdma/superp_netlink.h and
 * Documentation/superp-admin.rst.
 *
 * One file for the family, though it runs past 800 lines: the policy,
 * the attribute parsers and the reply builders are shared by every
 * command and by the events, and each command handler is short.
 *
 * A device is found by name among ib_superp's own devices, and only when
 * the RDMA core lets the caller's network namespace see it. Changes need
 * CAP_NET_ADMIN (GENL_ADMIN_PERM). Every request is validated whole before
 * anything changes.
 *
 * Locking: the family runs its operations in parallel. superp_devs_lock
 * (superp_main.c) is held only to find a device and take a registration
 * reference (ib_device_try_get()); that reference keeps the device and its
 * connection table alive until ib_device_put(). The table's own mutex
 * (superp_conn_table.c) serialises changes of one device. Events are sent
 * from the engine's callback, under a connection's BH-safe lock and maybe
 * in softirq, so they allocate with GFP_ATOMIC and take no other lock.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/jhash.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <rdma/superp_netlink.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_dev.h"
#include "superp_netlink.h"

#define SUPERP_CID_MAX		4095	/* pdl_conn_per_xpu is at most 4096 */
#define SUPERP_SPORT_MIN	49152	/* derived UDP source ports */

/* The spec's ranges (superp_params.c checks them again, with the rest). */
#define SUPERP_RANGE(_name, _min, _max)					\
	static struct netlink_range_validation _name = {		\
		.min = _min, .max = _max,				\
	}

SUPERP_RANGE(superp_r_usec, 100, 60000000);
SUPERP_RANGE(superp_r_usec0, 0, 60000000);
SUPERP_RANGE(superp_r_usec1, 1, 60000000);
SUPERP_RANGE(superp_r_0_64, 0, 64);
SUPERP_RANGE(superp_r_max_rtx, 1, 8);
SUPERP_RANGE(superp_r_window, 16, 1024);
SUPERP_RANGE(superp_r_1_1024, 1, 1024);
SUPERP_RANGE(superp_r_1_4096, 1, 4096);
SUPERP_RANGE(superp_r_ops, 1, 15);

#define SUPERP_P(_range) NLA_POLICY_FULL_RANGE(NLA_U32, &(_range))

static const struct nla_policy superp_param_policy[SUPERP_P_MAX + 1] = {
	[SUPERP_P_PDL_RETRANS_TIME_OUT]	= SUPERP_P(superp_r_usec),
	[SUPERP_P_PDL_RTX_TIME_WIN]	= SUPERP_P(superp_r_usec0),
	[SUPERP_P_PDL_RTX_MAX_PKTS]	= SUPERP_P(superp_r_0_64),
	[SUPERP_P_PDL_MAX_RTX]		= SUPERP_P(superp_r_max_rtx),
	[SUPERP_P_PDL_DELAYED_ACK_TIME]	= SUPERP_P(superp_r_usec1),
	[SUPERP_P_PDL_WINDOW_SIZE]	= SUPERP_P(superp_r_window),
	[SUPERP_P_PDL_CONN_PER_XPU]	= SUPERP_P(superp_r_1_4096),
	[SUPERP_P_PDL_RECEIVE_WIN]	= SUPERP_P(superp_r_1_1024),
	[SUPERP_P_PDL_STRETCH_ACK]	= SUPERP_P(superp_r_1_1024),
	[SUPERP_P_PDL_FAST_RTX_LIMIT]	= SUPERP_P(superp_r_0_64),
	[SUPERP_P_TAL_TRANS_WINDOW]	= SUPERP_P(superp_r_1_1024),
	[SUPERP_P_TAL_MAX_PKT_PER_TRANS] = SUPERP_P(superp_r_1_4096),
	[SUPERP_P_TAL_MAX_OPS_PER_PKT]	= SUPERP_P(superp_r_ops),
	[SUPERP_P_TAL_TRANSACTION_TIMEOUT] = { .type = NLA_U64 },
};

static const struct nla_policy superp_nl_policy[SUPERP_A_MAX + 1] = {
	[SUPERP_A_DEV_NAME]	= { .type = NLA_NUL_STRING,
				    .len = IB_DEVICE_NAME_MAX - 1 },
	[SUPERP_A_LCID]		= NLA_POLICY_MAX(NLA_U16, SUPERP_CID_MAX),
	[SUPERP_A_RCID]		= NLA_POLICY_MAX(NLA_U16, SUPERP_CID_MAX),
	[SUPERP_A_ENCAP]	= NLA_POLICY_MAX(NLA_U8, SUPERP_ENCAP_UDP6),
	[SUPERP_A_LOCAL_SUNH]	= { .type = NLA_U16 },
	[SUPERP_A_REMOTE_SUNH]	= { .type = NLA_U16 },
	[SUPERP_A_LOCAL_IP4]	= NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[SUPERP_A_REMOTE_IP4]	= NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[SUPERP_A_LOCAL_IP6]	= NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[SUPERP_A_REMOTE_IP6]	= NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[SUPERP_A_UDP_SPORT]	= NLA_POLICY_MIN(NLA_U16, 1),
	[SUPERP_A_TCLASS]	= { .type = NLA_U8 },
	[SUPERP_A_ORDERED]	= NLA_POLICY_MASK(NLA_U8, SUPERP_ORDERED_RX |
						  SUPERP_ORDERED_TX),
	[SUPERP_A_PARAMS]	= NLA_POLICY_NESTED(superp_param_policy),
	[SUPERP_A_SHUTDOWN]	= NLA_POLICY_MAX(NLA_U8, SUPERP_SHUTDOWN_HARD),
	[SUPERP_A_MEM_LIMIT]	= { .type = NLA_U64 },
	[SUPERP_A_LITE]		= { .type = NLA_FLAG },
};

static struct genl_family superp_nl_family;

enum superp_nl_mcgrp {
	SUPERP_MCGRP_EVENTS,
};

static const struct genl_multicast_group superp_nl_mcgrps[] = {
	[SUPERP_MCGRP_EVENTS] = { .name = SUPERP_GENL_MCGRP_EVENTS },
};

/* ---- devices ---- */

/* The net namespace a device belongs to (init_net in shared mode). */
static struct net *superp_dev_net(struct superp_dev *sdev)
{
	return read_pnet(&sdev->ibdev.coredev.rdma_net);
}

/*
 * The @pos-th superp device (or the one named @name) that @net may see,
 * with a registration reference; NULL when there is none.
 */
static struct superp_dev *superp_nl_dev_find(struct net *net,
					     const char *name,
					     unsigned long pos)
{
	struct superp_dev *sdev, *found = NULL;
	unsigned long n = 0;

	mutex_lock(&superp_devs_lock);
	list_for_each_entry(sdev, &superp_devs, list) {
		if (!rdma_dev_access_netns(&sdev->ibdev, net))
			continue;
		if (name ? strcmp(dev_name(&sdev->ibdev.dev), name) :
		    n++ != pos)
			continue;
		if (ib_device_try_get(&sdev->ibdev))
			found = sdev;
		break;
	}
	mutex_unlock(&superp_devs_lock);
	return found;
}

/* The device a request names, or NULL with -ENODEV and an extack message. */
static struct superp_dev *superp_nl_dev(struct genl_info *info)
{
	struct nlattr *attr = info->attrs[SUPERP_A_DEV_NAME];
	struct superp_dev *sdev;

	if (GENL_REQ_ATTR_CHECK(info, SUPERP_A_DEV_NAME))
		return ERR_PTR(-EINVAL);
	sdev = superp_nl_dev_find(genl_info_net(info), nla_data(attr), 0);
	if (!sdev) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no such superp device in this namespace");
		return ERR_PTR(-ENODEV);
	}
	return sdev;
}

static const struct {
	enum superp_param attr;
	size_t off;
} superp_param_attrs[] = {
#define SUPERP_PA(a, f) { SUPERP_P_##a, offsetof(struct superp_params, f) }
	SUPERP_PA(PDL_RETRANS_TIME_OUT, pdl_retrans_time_out),
	SUPERP_PA(PDL_RTX_TIME_WIN, pdl_rtx_time_win),
	SUPERP_PA(PDL_RTX_MAX_PKTS, pdl_rtx_max_pkts),
	SUPERP_PA(PDL_MAX_RTX, pdl_max_rtx),
	SUPERP_PA(PDL_DELAYED_ACK_TIME, pdl_delayed_ack_time),
	SUPERP_PA(PDL_WINDOW_SIZE, pdl_window_size),
	SUPERP_PA(PDL_CONN_PER_XPU, pdl_conn_per_xpu),
	SUPERP_PA(PDL_RECEIVE_WIN, pdl_receive_win),
	SUPERP_PA(PDL_STRETCH_ACK, pdl_stretch_ack),
	SUPERP_PA(PDL_FAST_RTX_LIMIT, pdl_fast_rtx_limit),
	SUPERP_PA(TAL_TRANS_WINDOW, tal_trans_window),
	SUPERP_PA(TAL_MAX_PKT_PER_TRANS, tal_max_pkt_per_trans),
	SUPERP_PA(TAL_MAX_OPS_PER_PKT, tal_max_ops_per_pkt),
#undef SUPERP_PA
};

/*
 * Apply the SUPERP_A_PARAMS nest of a request over @p and check the whole
 * set (the policy checked each range). @why names the bad parameter or
 * relation; it points to static strings of superp_params.c, so it can be
 * the extack message as is.
 */
static int superp_nl_params(struct genl_info *info, struct superp_params *p)
{
	struct nlattr *tb[SUPERP_P_MAX + 1];
	struct nlattr *nest = info->attrs[SUPERP_A_PARAMS];
	const char *why;
	unsigned int i;
	int err;

	if (nest) {
		err = nla_parse_nested(tb, SUPERP_P_MAX, nest,
				       superp_param_policy, info->extack);
		if (err)
			return err;
		for (i = 0; i < ARRAY_SIZE(superp_param_attrs); i++)
			if (tb[superp_param_attrs[i].attr])
				*(u32 *)((char *)p + superp_param_attrs[i].off) =
					nla_get_u32(tb[superp_param_attrs[i].attr]);
		if (tb[SUPERP_P_TAL_TRANSACTION_TIMEOUT])
			p->tal_transaction_timeout =
				nla_get_u64(tb[SUPERP_P_TAL_TRANSACTION_TIMEOUT]);
	}
	err = superp_params_validate(p, &why);
	if (err) {
		NL_SET_BAD_ATTR(info->extack, nest);
		info->extack->_msg = why;
	}
	return err;
}

static int superp_nl_put_params(struct sk_buff *msg,
				const struct superp_params *p)
{
	struct nlattr *nest = nla_nest_start(msg, SUPERP_A_PARAMS);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(superp_param_attrs); i++)
		if (nla_put_u32(msg, superp_param_attrs[i].attr,
				*(const u32 *)((const char *)p +
					       superp_param_attrs[i].off)))
			return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, SUPERP_P_TAL_TRANSACTION_TIMEOUT,
			      p->tal_transaction_timeout, SUPERP_P_PAD))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/* Packets that reached no connection, by reason (attribute = reason + 1). */
static int superp_nl_put_drops(struct sk_buff *msg, struct superp_dev *sdev)
{
	struct nlattr *nest = nla_nest_start(msg, SUPERP_A_DROPS);
	int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < __SUPERP_DROP_MAX; i++)
		if (nla_put_u64_64bit(msg, i + 1,
				      atomic64_read(&sdev->rx_drops[i]),
				      SUPERP_A_PAD))
			return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int superp_nl_put_dev(struct sk_buff *msg, struct superp_dev *sdev)
{
	struct superp_params p;
	u32 count = superp_conns_defaults(sdev, &p);
	u64 limit, used;

	superp_conns_mem(sdev, &limit, &used);

	if (nla_put_string(msg, SUPERP_A_DEV_NAME, dev_name(&sdev->ibdev.dev)) ||
	    nla_put_u32(msg, SUPERP_A_DEV_INDEX, sdev->ibdev.index) ||
	    nla_put_u32(msg, SUPERP_A_IFINDEX, sdev->ndev->ifindex) ||
	    nla_put_string(msg, SUPERP_A_IFNAME, netdev_name(sdev->ndev)) ||
	    nla_put_u32(msg, SUPERP_A_CONN_COUNT, count) ||
	    nla_put_u64_64bit(msg, SUPERP_A_EVENT_DROPS,
			      atomic64_read(&sdev->conns->event_drops),
			      SUPERP_A_PAD) ||
	    nla_put_u64_64bit(msg, SUPERP_A_MEM_LIMIT, limit, SUPERP_A_PAD) ||
	    nla_put_u64_64bit(msg, SUPERP_A_MEM_USED, used, SUPERP_A_PAD) ||
	    superp_nl_put_drops(msg, sdev) ||
	    nla_put_u64_64bit(msg, SUPERP_A_RX_PACKETS,
			      atomic64_read(&sdev->rx_packets), SUPERP_A_PAD) ||
	    superp_nl_put_params(msg, &p))
		return -EMSGSIZE;
	return 0;
}

/* A reply built by @put, or an error. */
static int superp_nl_reply(struct genl_info *info, u8 cmd,
			   int (*put)(struct sk_buff *msg, void *arg),
			   void *arg)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &superp_nl_family, 0, cmd);
	if (!hdr || put(msg, arg)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int superp_nl_put_dev_cb(struct sk_buff *msg, void *arg)
{
	return superp_nl_put_dev(msg, arg);
}

static int superp_nl_dev_get(struct sk_buff *skb, struct genl_info *info)
{
	struct superp_dev *sdev = superp_nl_dev(info);
	int err;

	if (IS_ERR(sdev))
		return PTR_ERR(sdev);
	err = superp_nl_reply(info, SUPERP_CMD_DEV_GET, superp_nl_put_dev_cb,
			      sdev);
	ib_device_put(&sdev->ibdev);
	return err;
}

/* Dump: cb->args[0] = devices done. */
static int superp_nl_dev_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(cb->skb->sk);
	struct superp_dev *sdev;
	void *hdr;
	int err;

	for (;;) {
		sdev = superp_nl_dev_find(net, NULL, cb->args[0]);
		if (!sdev)
			break;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &superp_nl_family,
				  NLM_F_MULTI, SUPERP_CMD_DEV_GET);
		err = hdr ? superp_nl_put_dev(skb, sdev) : -EMSGSIZE;
		ib_device_put(&sdev->ibdev);
		if (err) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0]++;
	}
	return skb->len;
}

static int superp_nl_dev_set(struct sk_buff *skb, struct genl_info *info)
{
	struct superp_dev *sdev = superp_nl_dev(info);
	struct superp_params p;
	u64 limit;
	int err;

	if (IS_ERR(sdev))
		return PTR_ERR(sdev);
	if (!info->attrs[SUPERP_A_PARAMS] && !info->attrs[SUPERP_A_MEM_LIMIT]) {
		NL_SET_ERR_MSG(info->extack, "nothing to set");
		err = -EINVAL;
		goto out;
	}
	err = 0;
	if (info->attrs[SUPERP_A_PARAMS]) {
		superp_conns_defaults(sdev, &p);
		err = superp_nl_params(info, &p);
		if (!err)
			err = superp_conns_set_defaults(sdev, &p,
							info->extack);
	}
	if (!err && info->attrs[SUPERP_A_MEM_LIMIT]) {
		limit = nla_get_u64(info->attrs[SUPERP_A_MEM_LIMIT]);
		superp_conns_set_mem_limit(sdev, limit);
	}
out:
	ib_device_put(&sdev->ibdev);
	return err;
}

/* ---- connections ---- */

static bool superp_ip4_ok(__be32 a)
{
	return !ipv4_is_zeronet(a) && !ipv4_is_multicast(a) &&
	       !ipv4_is_lbcast(a);
}

static bool superp_ip6_ok(const struct in6_addr *a)
{
	return !ipv6_addr_any(a) && !ipv6_addr_is_multicast(a);
}

/* The addresses of an encapsulation: exactly its two, nothing else. */
static int superp_nl_addr(struct genl_info *info, struct superp_conn_addr *a)
{
	static const int attrs[][2] = {
		[SUPERP_ENCAP_SUNH] = { SUPERP_A_LOCAL_SUNH, SUPERP_A_REMOTE_SUNH },
		[SUPERP_ENCAP_UDP4] = { SUPERP_A_LOCAL_IP4, SUPERP_A_REMOTE_IP4 },
		[SUPERP_ENCAP_UDP6] = { SUPERP_A_LOCAL_IP6, SUPERP_A_REMOTE_IP6 },
	};
	struct nlattr **tb = info->attrs;
	unsigned int e, i;

	if (GENL_REQ_ATTR_CHECK(info, SUPERP_A_ENCAP))
		return -EINVAL;
	a->encap = nla_get_u8(tb[SUPERP_A_ENCAP]);
	for (e = 0; e < ARRAY_SIZE(attrs); e++)
		for (i = 0; i < 2; i++) {
			if (e == a->encap) {
				if (GENL_REQ_ATTR_CHECK(info, attrs[e][i]))
					return -EINVAL;
			} else if (tb[attrs[e][i]]) {
				NL_SET_ERR_MSG_ATTR(info->extack, tb[attrs[e][i]],
						    "address of another encapsulation");
				return -EINVAL;
			}
		}
	switch (a->encap) {
	case SUPERP_ENCAP_SUNH:
		a->local.sunh = nla_get_u16(tb[SUPERP_A_LOCAL_SUNH]);
		a->remote.sunh = nla_get_u16(tb[SUPERP_A_REMOTE_SUNH]);
		break;
	case SUPERP_ENCAP_UDP4:
		a->local.ip4 = nla_get_in_addr(tb[SUPERP_A_LOCAL_IP4]);
		a->remote.ip4 = nla_get_in_addr(tb[SUPERP_A_REMOTE_IP4]);
		if (!superp_ip4_ok(a->local.ip4) || !superp_ip4_ok(a->remote.ip4)) {
			NL_SET_ERR_MSG(info->extack,
				       "IPv4 address is zero, multicast or broadcast");
			return -EINVAL;
		}
		break;
	case SUPERP_ENCAP_UDP6:
		a->local.ip6 = nla_get_in6_addr(tb[SUPERP_A_LOCAL_IP6]);
		a->remote.ip6 = nla_get_in6_addr(tb[SUPERP_A_REMOTE_IP6]);
		if (!superp_ip6_ok(&a->local.ip6) || !superp_ip6_ok(&a->remote.ip6)) {
			NL_SET_ERR_MSG(info->extack,
				       "IPv6 address is unspecified or multicast");
			return -EINVAL;
		}
		break;
	}
	return 0;
}

/*
 * Default flow entropy: a hash of what identifies the connection, in the
 * dynamic port range, so that both ends of a pair and every pair differ.
 */
static u16 superp_sport(const struct superp_conn_addr *a, u16 lcid, u16 rcid)
{
	u32 h = jhash(&a->local, sizeof(a->local),
		      jhash(&a->remote, sizeof(a->remote), lcid << 16 | rcid));

	return SUPERP_SPORT_MIN + h % (65536 - SUPERP_SPORT_MIN);
}

static int superp_nl_conn_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct superp_conn_addr a = {};
	struct superp_params p;
	struct superp_dev *sdev;
	u16 lcid, rcid;
	int err;

	/* A lite connection's packets name no CID: the peer's is optional. */
	a.lite = nla_get_flag(tb[SUPERP_A_LITE]);
	if (GENL_REQ_ATTR_CHECK(info, SUPERP_A_LCID) ||
	    (!a.lite && GENL_REQ_ATTR_CHECK(info, SUPERP_A_RCID)))
		return -EINVAL;
	err = superp_nl_addr(info, &a);
	if (err)
		return err;
	lcid = nla_get_u16(tb[SUPERP_A_LCID]);
	rcid = tb[SUPERP_A_RCID] ? nla_get_u16(tb[SUPERP_A_RCID]) : 0;
	if (tb[SUPERP_A_TCLASS])
		a.tclass = nla_get_u8(tb[SUPERP_A_TCLASS]);
	if (tb[SUPERP_A_ORDERED])
		a.ordered = nla_get_u8(tb[SUPERP_A_ORDERED]);
	a.udp_sport = tb[SUPERP_A_UDP_SPORT] ?
		nla_get_u16(tb[SUPERP_A_UDP_SPORT]) :
		superp_sport(&a, lcid, rcid);

	sdev = superp_nl_dev(info);
	if (IS_ERR(sdev))
		return PTR_ERR(sdev);
	superp_conns_defaults(sdev, &p);
	if (tb[SUPERP_A_PARAMS] &&
	    nla_find_nested(tb[SUPERP_A_PARAMS], SUPERP_P_PDL_CONN_PER_XPU)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SUPERP_A_PARAMS],
				    "pdl_conn_per_xpu is a device setting (superp dev set)");
		err = -EINVAL;
		goto out;
	}
	err = superp_nl_params(info, &p);
	if (!err)
		err = superp_conn_add(sdev, lcid, rcid, &a, &p, info->extack);
	if (err == -ERANGE)
		NL_SET_BAD_ATTR(info->extack, tb[SUPERP_A_LCID]);
out:
	ib_device_put(&sdev->ibdev);
	return err;
}

static int superp_nl_conn_del(struct sk_buff *skb, struct genl_info *info)
{
	struct superp_dev *sdev;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, SUPERP_A_LCID))
		return -EINVAL;
	sdev = superp_nl_dev(info);
	if (IS_ERR(sdev))
		return PTR_ERR(sdev);
	err = superp_conn_del(sdev, nla_get_u16(info->attrs[SUPERP_A_LCID]));
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[SUPERP_A_LCID],
				    "no connection with this local CID");
	ib_device_put(&sdev->ibdev);
	return err;
}

static int superp_nl_conn_shutdown(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct superp_dev *sdev;
	bool soft;
	u16 lcid;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, SUPERP_A_LCID) ||
	    GENL_REQ_ATTR_CHECK(info, SUPERP_A_SHUTDOWN))
		return -EINVAL;
	soft = nla_get_u8(tb[SUPERP_A_SHUTDOWN]) == SUPERP_SHUTDOWN_SOFT;
	sdev = superp_nl_dev(info);
	if (IS_ERR(sdev))
		return PTR_ERR(sdev);
	lcid = nla_get_u16(tb[SUPERP_A_LCID]);
	err = soft ? superp_conn_shutdown_cid(sdev, lcid) :
		     superp_conn_abort_cid(sdev, lcid);
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SUPERP_A_LCID],
				    "no connection with this local CID");
	else if (err == -EINVAL)
		NL_SET_ERR_MSG(info->extack,
			       "connection not up (shutting down, quiescent or broken)");
	else if (err == -ENOTCONN)
		NL_SET_ERR_MSG(info->extack, "connection already broken");
	ib_device_put(&sdev->ibdev);
	return err;
}

static const u8 superp_state_uapi[] = {
	[SUPERP_ST_UP] = SUPERP_STATE_UP,
	[SUPERP_ST_SHUTDOWN] = SUPERP_STATE_SHUTDOWN,
	[SUPERP_ST_QUIESCENT] = SUPERP_STATE_QUIESCENT,
	[SUPERP_ST_BROKEN] = SUPERP_STATE_BROKEN,
};

static int superp_nl_put_addr(struct sk_buff *msg,
			      const struct superp_conn_addr *a)
{
	switch (a->encap) {
	case SUPERP_ENCAP_SUNH:
		return nla_put_u16(msg, SUPERP_A_LOCAL_SUNH, a->local.sunh) ?:
		       nla_put_u16(msg, SUPERP_A_REMOTE_SUNH, a->remote.sunh);
	case SUPERP_ENCAP_UDP4:
		return nla_put_in_addr(msg, SUPERP_A_LOCAL_IP4, a->local.ip4) ?:
		       nla_put_in_addr(msg, SUPERP_A_REMOTE_IP4, a->remote.ip4);
	default:
		return nla_put_in6_addr(msg, SUPERP_A_LOCAL_IP6, &a->local.ip6) ?:
		       nla_put_in6_addr(msg, SUPERP_A_REMOTE_IP6, &a->remote.ip6);
	}
}

static int superp_nl_put_counters(struct sk_buff *msg,
				  const struct superp_conn_info *ci)
{
	const u64 *s = (const u64 *)&ci->stats;
	struct nlattr *nest, *ev;
	unsigned int i;

	BUILD_BUG_ON(sizeof(ci->stats) != __SUPERP_STAT_MAX * sizeof(u64));
	nest = nla_nest_start(msg, SUPERP_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < __SUPERP_STAT_MAX; i++)
		if (nla_put_u64_64bit(msg, i + 1, s[i], SUPERP_A_PAD))
			return -EMSGSIZE;
	nla_nest_end(msg, nest);

	nest = nla_nest_start(msg, SUPERP_A_EVENTS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < SUPERP_EV_MAX; i++) {
		ev = nla_nest_start(msg, SUPERP_A_EVENT);
		if (!ev ||
		    nla_put_u32(msg, SUPERP_A_EVENT_ID, i) ||
		    nla_put_string(msg, SUPERP_A_EVENT_NAME,
				   superp_event_name(i)) ||
		    nla_put_u32(msg, SUPERP_A_EVENT_COUNT, ci->events[i]))
			return -EMSGSIZE;
		nla_nest_end(msg, ev);
	}
	nla_nest_end(msg, nest);
	return 0;
}

struct superp_nl_conn {
	struct superp_dev *sdev;
	struct superp_conn_info ci;
};

static int superp_nl_put_conn(struct sk_buff *msg, void *arg)
{
	const struct superp_nl_conn *c = arg;
	const struct superp_conn_info *ci = &c->ci;

	if (nla_put_string(msg, SUPERP_A_DEV_NAME,
			   dev_name(&c->sdev->ibdev.dev)) ||
	    nla_put_u16(msg, SUPERP_A_LCID, ci->lcid) ||
	    nla_put_u16(msg, SUPERP_A_RCID, ci->rcid) ||
	    nla_put_u8(msg, SUPERP_A_ENCAP, ci->addr.encap) ||
	    superp_nl_put_addr(msg, &ci->addr) ||
	    nla_put_u16(msg, SUPERP_A_UDP_SPORT, ci->addr.udp_sport) ||
	    nla_put_u8(msg, SUPERP_A_TCLASS, ci->addr.tclass) ||
	    nla_put_u8(msg, SUPERP_A_ORDERED, ci->addr.ordered) ||
	    (ci->addr.lite && nla_put_flag(msg, SUPERP_A_LITE)) ||
	    nla_put_u8(msg, SUPERP_A_STATE, superp_state_uapi[ci->state]) ||
	    superp_nl_put_params(msg, &ci->p) ||
	    superp_nl_put_counters(msg, ci))
		return -EMSGSIZE;
	return 0;
}

static int superp_nl_conn_get(struct sk_buff *skb, struct genl_info *info)
{
	struct superp_nl_conn *c;
	u32 lcid;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, SUPERP_A_LCID))
		return -EINVAL;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->sdev = superp_nl_dev(info);
	if (IS_ERR(c->sdev)) {
		err = PTR_ERR(c->sdev);
		goto free;
	}
	lcid = nla_get_u16(info->attrs[SUPERP_A_LCID]);
	err = superp_conn_info(c->sdev, &lcid, false, &c->ci);
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[SUPERP_A_LCID],
				    "no connection with this local CID");
	else
		err = superp_nl_reply(info, SUPERP_CMD_CONN_GET,
				      superp_nl_put_conn, c);
	ib_device_put(&c->sdev->ibdev);
free:
	kfree(c);
	return err;
}

/*
 * Dump: cb->args[0] = device position (among those @net sees), args[1] =
 * next local CID on it. With SUPERP_A_DEV_NAME, only that device.
 */
static int superp_nl_conn_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	struct nlattr *name = di->attrs[SUPERP_A_DEV_NAME];
	struct net *net = sock_net(cb->skb->sk);
	struct superp_nl_conn *c;
	u32 lcid;
	void *hdr;
	int err = 0;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	for (;;) {
		if (name && cb->args[0])
			break;
		c->sdev = superp_nl_dev_find(net, name ? nla_data(name) : NULL,
					     cb->args[0]);
		if (!c->sdev) {
			if (name && !skb->len) {
				NL_SET_ERR_MSG(cb->extack,
					       "no such superp device in this namespace");
				err = -ENODEV;
			}
			break;
		}
		for (lcid = cb->args[1];
		     !superp_conn_info(c->sdev, &lcid, true, &c->ci); lcid++) {
			hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
					  cb->nlh->nlmsg_seq, &superp_nl_family,
					  NLM_F_MULTI, SUPERP_CMD_CONN_GET);
			if (!hdr || superp_nl_put_conn(skb, c)) {
				if (hdr)
					genlmsg_cancel(skb, hdr);
				err = -EMSGSIZE;
				break;
			}
			genlmsg_end(skb, hdr);
		}
		ib_device_put(&c->sdev->ibdev);
		if (err) {
			cb->args[1] = lcid;
			break;
		}
		cb->args[0]++;
		cb->args[1] = 0;
	}
	kfree(c);
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* ---- events ---- */

/**
 * superp_netlink_event() - tell the "events" group about an engine event.
 * @e: the connection.
 * @ev: the event.
 * @value: its detail.
 *
 * Called by the engine's event callback, under @e's lock, maybe in
 * softirq. Nothing is rate-limited; a notification that cannot be
 * allocated or queued is counted in the device's event_drops.
 */
void superp_netlink_event(struct superp_conn_entry *e, enum superp_event ev,
			  u32 value)
{
	struct superp_dev *sdev = e->sdev;
	struct net *net = superp_dev_net(sdev);
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (!genl_has_listeners(&superp_nl_family, net, SUPERP_MCGRP_EVENTS))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_ATOMIC);
	if (!msg)
		goto drop;
	hdr = genlmsg_put(msg, 0, 0, &superp_nl_family, 0, SUPERP_CMD_EVENT);
	if (!hdr ||
	    nla_put_string(msg, SUPERP_A_DEV_NAME, dev_name(&sdev->ibdev.dev)) ||
	    nla_put_u16(msg, SUPERP_A_LCID, e->conn.local_cid) ||
	    nla_put_u32(msg, SUPERP_A_EVENT_ID, ev) ||
	    nla_put_string(msg, SUPERP_A_EVENT_NAME, superp_event_name(ev)) ||
	    nla_put_u32(msg, SUPERP_A_EVENT_VALUE, value)) {
		nlmsg_free(msg);
		goto drop;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_multicast_netns(&superp_nl_family, net, msg, 0,
				      SUPERP_MCGRP_EVENTS, GFP_ATOMIC);
	/* -ESRCH: the last listener left meanwhile; nothing was lost. */
	if (err && err != -ESRCH)
		goto drop;
	return;
drop:
	atomic64_inc(&sdev->conns->event_drops);
}

static const struct genl_small_ops superp_nl_ops[] = {
	{
		.cmd = SUPERP_CMD_CONN_ADD,
		.doit = superp_nl_conn_add,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = SUPERP_CMD_CONN_DEL,
		.doit = superp_nl_conn_del,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = SUPERP_CMD_CONN_GET,
		.doit = superp_nl_conn_get,
		.dumpit = superp_nl_conn_dump,
	},
	{
		.cmd = SUPERP_CMD_CONN_SHUTDOWN,
		.doit = superp_nl_conn_shutdown,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = SUPERP_CMD_DEV_GET,
		.doit = superp_nl_dev_get,
		.dumpit = superp_nl_dev_dump,
	},
	{
		.cmd = SUPERP_CMD_DEV_SET,
		.doit = superp_nl_dev_set,
		.flags = GENL_ADMIN_PERM,
	},
};

static struct genl_family superp_nl_family __ro_after_init = {
	.name = SUPERP_GENL_NAME,
	.version = SUPERP_GENL_VERSION,
	.maxattr = SUPERP_A_MAX,
	.policy = superp_nl_policy,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.small_ops = superp_nl_ops,
	.n_small_ops = ARRAY_SIZE(superp_nl_ops),
	.mcgrps = superp_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(superp_nl_mcgrps),
};

int __init superp_netlink_init(void)
{
	return genl_register_family(&superp_nl_family);
}

void superp_netlink_exit(void)
{
	genl_unregister_family(&superp_nl_family);
}
