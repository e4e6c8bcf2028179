// SPDX-License-Identifier: GPL-2.0
/*
 * Not a KUnit suite: a module whose loading registers, and unloading
 * unregisters, a generic netlink family. Registration takes generic
 * netlink's global lock for writing, so selftests/sunh/echo_async.sh uses
 * it to show that a pending `sunh ping` holds no generic netlink lock.
 */
#include <linux/module.h>
#include <net/genetlink.h>

static int sunh_genl_probe_doit(struct sk_buff *skb, struct genl_info *info)
{
	return 0;
}

static const struct genl_small_ops sunh_genl_probe_ops[] = {
	{
		.cmd = 1,
		.doit = sunh_genl_probe_doit,
	},
};

static struct genl_family sunh_genl_probe_family __ro_after_init = {
	.name = "sunh_probe",
	.version = 1,
	.module = THIS_MODULE,
	.small_ops = sunh_genl_probe_ops,
	.n_small_ops = ARRAY_SIZE(sunh_genl_probe_ops),
};

static int __init sunh_genl_probe_init(void)
{
	return genl_register_family(&sunh_genl_probe_family);
}

static void __exit sunh_genl_probe_exit(void)
{
	genl_unregister_family(&sunh_genl_probe_family);
}

module_init(sunh_genl_probe_init);
module_exit(sunh_genl_probe_exit);

MODULE_DESCRIPTION("Registers a generic netlink family (a test helper)");
MODULE_LICENSE("GPL");
