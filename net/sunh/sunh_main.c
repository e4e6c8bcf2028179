// SPDX-License-Identifier: GPL-2.0
/*
 * SUNH: the SUPERp network layer. Module entry and per-namespace state.
 */
#include <linux/module.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

struct sunh_net {
	u8 addr_bits;
};

static unsigned int sunh_net_id __read_mostly;

static int __net_init sunh_net_init(struct net *net)
{
	struct sunh_net *sn = net_generic(net, sunh_net_id);

	sn->addr_bits = 12;
	return 0;
}

static struct pernet_operations sunh_net_ops = {
	.init = sunh_net_init,
	.id = &sunh_net_id,
	.size = sizeof(struct sunh_net),
};

static int __init sunh_init(void)
{
	return register_pernet_subsys(&sunh_net_ops);
}

static void __exit sunh_exit(void)
{
	unregister_pernet_subsys(&sunh_net_ops);
}

module_init(sunh_init);
module_exit(sunh_exit);

MODULE_DESCRIPTION("SUNH: Scale Up Network Header layer of SUPERp");
MODULE_LICENSE("GPL");
