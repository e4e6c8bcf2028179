// SPDX-License-Identifier: GPL-2.0
/*
 * SUNH: the SUPERp network layer (Scale Up Network Header). Module entry,
 * per-namespace state, device and neighbour events and ageing of dynamic
 * entries.
 */
#include <linux/if_ether.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/arp.h>
#include <net/genetlink.h>
#include <net/ndisc.h>
#include <net/neighbour.h>
#include <net/netevent.h>
#include "sunh_private.h"

u16 sunh_ethertype __read_mostly = ETH_P_SUNH;
module_param_named(ethertype, sunh_ethertype, ushort, 0444);
MODULE_PARM_DESC(ethertype, "EtherType of SUNH frames (default 0x88B5)");

unsigned int sunh_net_id __read_mostly;

#define SUNH_AGEING_DEFAULT	(300 * HZ)
#define SUNH_GC_INTERVAL	(5 * HZ)
#define SUNH_ECHO_RATE_DEFAULT	1000	/* replies per second, as ICMP's */

/**
 * sunh_stats_fold() - sum the per-cpu counters of a namespace
 * @sn: namespace state
 * @sum: __SUNH_STAT_MAX counters
 */
void sunh_stats_fold(struct sunh_net *sn, u64 *sum)
{
	u64 v[__SUNH_STAT_MAX];
	unsigned int cpu, i, start;

	memset(sum, 0, sizeof(*sum) * __SUNH_STAT_MAX);
	for_each_possible_cpu(cpu) {
		const struct sunh_stats *s = per_cpu_ptr(sn->stats, cpu);

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < __SUNH_STAT_MAX; i++)
				v[i] = u64_stats_read(&s->cnt[i]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		for (i = 0; i < __SUNH_STAT_MAX; i++)
			sum[i] += v[i];
	}
}

/**
 * sunh_dump_seq() - what a route dump checks for consistency
 * @sn: namespace state
 * @d: its domain (RCU; may be NULL)
 *
 * The entries (their generation), the subnet (gen_base), the devices and
 * their IPv4 and IPv6 addresses (which make the local addresses): every
 * counter only grows, so any change changes the sum, as the kernel's own
 * address dumps combine them.
 *
 * Return: the sequence for netlink_callback.seq.
 */
u32 sunh_dump_seq(struct sunh_net *sn, const struct sunh_domain *d)
{
	struct net *net = sn->net;
	u32 seq;

	seq = READ_ONCE(sn->gen_base) + READ_ONCE(net->dev_base_seq) +
	      atomic_read(&net->ipv4.dev_addr_genid);
#if IS_ENABLED(CONFIG_IPV6)
	seq += atomic_read(&net->ipv6.dev_addr_genid);
#endif
	if (d)
		seq += atomic_read(&d->gen);
	return seq;
}

/**
 * sunh_subnet_change() - set or remove the subnet of a namespace
 * @net: the namespace
 * @s: the new subnet, or NULL to turn SUNH off
 *
 * The forwarding table starts empty (addresses change meaning).
 *
 * Context: RTNL held.
 * Return: 0 or -ENOMEM.
 */
int sunh_subnet_change(struct net *net, const struct sunh_subnet *s)
{
	struct sunh_net *sn = sunh_pernet(net);
	struct sunh_domain *d = NULL, *old;
	u32 base;

	ASSERT_RTNL();
	if (s) {
		d = sunh_domain_alloc(s);
		if (!d)
			return -ENOMEM;
	}
	old = rtnl_dereference(sn->domain);
	/* dumps see a change: the sum of generations only grows */
	base = sn->gen_base + 1;
	if (old)
		base += atomic_read(&old->gen);
	WRITE_ONCE(sn->gen_base, base);
	rcu_assign_pointer(sn->domain, d);
	sunh_domain_release(old);
	/* after the domain is visible: a running work that saw none queues
	 * again here
	 */
	if (d)
		schedule_delayed_work(&sn->gc_work, SUNH_GC_INTERVAL);
	return 0;
}

/**
 * sunh_subnet_get() - the SUPERp subnet of a namespace
 * @net: the namespace
 * @s: filled in
 *
 * For users of the subnet outside sunh.ko (ib_superp maps a destination IP
 * to a SUNH address with it). Any context.
 *
 * Return: 0, or -ENOENT when the namespace has no subnet.
 */
int sunh_subnet_get(struct net *net, struct sunh_subnet *s)
{
	struct sunh_domain *d;
	int err = -ENOENT;

	rcu_read_lock();
	d = rcu_dereference(sunh_pernet(net)->domain);
	if (d) {
		*s = d->subnet;
		err = 0;
	}
	rcu_read_unlock();
	return err;
}
EXPORT_SYMBOL_GPL(sunh_subnet_get);

static void sunh_gc_work(struct work_struct *work)
{
	struct sunh_net *sn = container_of(to_delayed_work(work),
					   struct sunh_net, gc_work);
	struct sunh_domain *d;
	unsigned int n;

	rcu_read_lock();
	d = rcu_dereference(sn->domain);
	if (d) {
		n = sunh_route_flush(d, NULL, false, READ_ONCE(sn->ageing));
		SUNH_ADD(sn, ROUTES_AGED, n);
	}
	rcu_read_unlock();
	sunh_pending_expire(sn, NULL, false);
	/* A namespace without a subnet costs nothing: sunh_subnet_change()
	 * starts the work again.
	 */
	if (d || !skb_queue_empty_lockless(&sn->pending))
		schedule_delayed_work(&sn->gc_work, SUNH_GC_INTERVAL);
}

static int sunh_netdev_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct sunh_net *sn = sunh_pernet(dev_net(dev));
	struct sunh_domain *d;

	switch (event) {
	case NETDEV_DOWN:
	case NETDEV_UNREGISTER:
		break;
	default:
		return NOTIFY_DONE;
	}
	d = rtnl_dereference(sn->domain);
	if (d)
		sunh_route_flush(d, dev, event == NETDEV_UNREGISTER, 0);
	/* they hold the device through their neighbour */
	sunh_pending_expire(sn, dev, false);
	return NOTIFY_DONE;
}

static struct notifier_block sunh_netdev_notifier = {
	.notifier_call = sunh_netdev_event,
};

static bool sunh_neigh_table(const struct neighbour *n)
{
#if IS_ENABLED(CONFIG_IPV6)
	if (n->tbl == &nd_tbl)
		return true;
#endif
	return n->tbl == &arp_tbl;
}

/* A neighbour of ARP or ND changed (resolved, failed, new address, gone):
 * the packets waiting for it go, and entries in use are checked again.
 * Context: process or softirq, sometimes under the neighbour table's lock.
 */
static int sunh_netevent(struct notifier_block *nb, unsigned long event,
			 void *ptr)
{
	struct neighbour *n = ptr;
	struct sunh_net *sn;

	if (event != NETEVENT_NEIGH_UPDATE)
		return NOTIFY_DONE;
	if (!sunh_neigh_table(n))
		return NOTIFY_DONE;
	sn = sunh_pernet(dev_net(n->dev));
	atomic_inc(&sn->neigh_gen);
	sunh_pending_neigh_event(sn, n);
	return NOTIFY_DONE;
}

static struct notifier_block sunh_netevent_notifier = {
	.notifier_call = sunh_netevent,
};

static int __net_init sunh_net_init(struct net *net)
{
	struct sunh_net *sn = sunh_pernet(net);
	int cpu;

	sn->stats = alloc_percpu(struct sunh_stats);
	if (!sn->stats)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(sn->stats, cpu)->syncp);
	sn->net = net;
	sn->hop_limit = SUNH_HOP_LIMIT_DEFAULT;
	sn->forwarding = false;
	sn->learning = true;
	sn->udp_port = 7777;
	sn->ageing = SUNH_AGEING_DEFAULT;
	spin_lock_init(&sn->echo_lock);
	INIT_LIST_HEAD(&sn->echo_pending);
	sn->echo_rate = SUNH_ECHO_RATE_DEFAULT;
	sn->echo_tokens = sn->echo_rate;
	sn->echo_stamp = jiffies;
	skb_queue_head_init(&sn->pending);
	atomic_set(&sn->neigh_gen, 0);
	INIT_DELAYED_WORK(&sn->gc_work, sunh_gc_work);
	return 0;
}

static void __net_exit sunh_net_exit(struct net *net)
{
	struct sunh_net *sn = sunh_pernet(net);

	cancel_delayed_work_sync(&sn->gc_work);
	sunh_echo_net_exit(sn);
	sunh_pending_expire(sn, NULL, true);
	/* The namespace's devices are gone: no reader or writer is left. */
	sunh_domain_release(rcu_dereference_protected(sn->domain, 1));
	RCU_INIT_POINTER(sn->domain, NULL);
	free_percpu(sn->stats);
}

static struct pernet_operations sunh_net_ops = {
	.init = sunh_net_init,
	.exit = sunh_net_exit,
	.id = &sunh_net_id,
	.size = sizeof(struct sunh_net),
};

static struct packet_type sunh_packet_type __read_mostly = {
	.func = sunh_rcv,
	.list_func = sunh_rcv_list,
};

/* EtherTypes the kernel's own stacks receive: taking one would hand their
 * traffic to sunh_rcv() and make SUNH frames read as theirs (ARP, IP,
 * VLAN tags, MPLS, ...). The experimental 0x88B5 and 0x88B6 are meant for
 * this; other free values are accepted for development.
 */
static bool sunh_ethertype_usable(u16 type)
{
	static const u16 taken[] = {
		ETH_P_IP, ETH_P_ARP, ETH_P_RARP, ETH_P_IPV6, ETH_P_8021Q,
		ETH_P_8021AD, ETH_P_QINQ1, ETH_P_QINQ2, ETH_P_QINQ3,
		ETH_P_MPLS_UC, ETH_P_MPLS_MC, ETH_P_PAE, ETH_P_LLDP,
		ETH_P_1588, ETH_P_SLOW, ETH_P_PPP_DISC, ETH_P_PPP_SES,
		ETH_P_TIPC, ETH_P_BATMAN, ETH_P_8021AH, ETH_P_MACSEC,
		ETH_P_TDLS, ETH_P_FCOE, ETH_P_FIP, ETH_P_80221, ETH_P_HSR,
		ETH_P_PRP, ETH_P_LOOPBACK, ETH_P_IBOE, ETH_P_TSN, ETH_P_NSH,
	};
	unsigned int i;

	if (type < ETH_P_802_3_MIN)
		return false;
	for (i = 0; i < ARRAY_SIZE(taken); i++)
		if (type == taken[i])
			return false;
	return true;
}

static int __init sunh_init(void)
{
	int err;

	if (!sunh_ethertype_usable(sunh_ethertype)) {
		pr_err("sunh: ethertype 0x%04x is a length or belongs to another protocol (use 0x88b5 or 0x88b6)\n",
		       sunh_ethertype);
		return -EINVAL;
	}
	err = register_pernet_subsys(&sunh_net_ops);
	if (err)
		return err;
	err = register_netdevice_notifier(&sunh_netdev_notifier);
	if (err)
		goto err_pernet;
	err = register_netevent_notifier(&sunh_netevent_notifier);
	if (err)
		goto err_notifier;
	err = sunh_echo_init();
	if (err)
		goto err_netevent;
	sunh_packet_type.type = htons(sunh_ethertype);
	dev_add_pack(&sunh_packet_type);
	err = sunh_netlink_init();
	if (err)
		goto err_pack;
	return 0;

err_pack:
	dev_remove_pack(&sunh_packet_type);
	sunh_echo_exit();
err_netevent:
	unregister_netevent_notifier(&sunh_netevent_notifier);
err_notifier:
	unregister_netdevice_notifier(&sunh_netdev_notifier);
err_pernet:
	unregister_pernet_subsys(&sunh_net_ops);
	return err;
}

static void __exit sunh_exit(void)
{
	sunh_netlink_exit();
	dev_remove_pack(&sunh_packet_type);
	sunh_echo_exit();
	unregister_netevent_notifier(&sunh_netevent_notifier);
	unregister_netdevice_notifier(&sunh_netdev_notifier);
	/* each namespace's exit drops its waiting packets */
	unregister_pernet_subsys(&sunh_net_ops);
	rcu_barrier();
}

module_init(sunh_init);
module_exit(sunh_exit);

MODULE_DESCRIPTION("SUNH: Scale Up Network Header layer of SUPERp");
MODULE_LICENSE("GPL");
MODULE_ALIAS_GENL_FAMILY(SUNH_GENL_NAME);
