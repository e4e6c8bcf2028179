// SPDX-License-Identifier: GPL-2.0
/*
 * Not a KUnit suite: the scale micro-benchmark of `make bench`
 * (selftests/harness/bench/lib.sh, bench_scale; Documentation/
 * performance.rst, "Scale"). It times the receive path of a SUNH netdev
 * with the connections the shell installed through netlink, using only
 * the kernel's exported interfaces, so it builds and runs on Debian's
 * stock kernel as on the test kernel.
 *
 * The shell gives a template frame (superp-gen -x: Ethernet, SUNH, PDL,
 * TAL) and the connections' layout: local CID k has the remote SUNH
 * address saddr_base + k, for k < conns. Each round prebuilds `packets`
 * skbs from the template, each for a CID drawn at random (so that the
 * lookups miss the cache as a busy node's do), with the DCID and the
 * source address patched (the destination MAC is the netdev's), then hands them one by one to
 * netif_receive_skb() on the netdev with BH off, as NET_RX softirq does:
 * the SUNH packet_type handler, sunh's receive, superp_rx() (DCID lookup,
 * peer check) and the engine. Only that loop is timed (ktime_get_ns()).
 * It prints one line:
 *   superp_scale_probe: conns N packets M rounds R ns_per_packet MED min MIN max MAX
 * (MED the median of the rounds) and the load fails on bad parameters.
 * Nothing stays allocated: the receive path consumes every skb.
 */
#include <linux/etherdevice.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/sunh.h>
#include <rdma/superp_wire.h>
#include <asm/unaligned.h>

#define PFX "superp_scale_probe: "
#define SCALE_MAX_FRAME 256
#define SCALE_MAX_ROUNDS 32

static char *ifname = "eth0";
module_param(ifname, charp, 0444);
MODULE_PARM_DESC(ifname, "netdev that receives the frames");
static char *frame;
module_param(frame, charp, 0444);
MODULE_PARM_DESC(frame, "template frame in hex (Ethernet + SUNH + SUPERp)");
static uint conns = 1;
module_param(conns, uint, 0444);
MODULE_PARM_DESC(conns, "local CIDs 0..conns-1 are installed");
static uint saddr_base;
module_param(saddr_base, uint, 0444);
MODULE_PARM_DESC(saddr_base, "remote SUNH address of local CID 0 (+k for CID k)");
static uint packets = 4096;
module_param(packets, uint, 0444);
MODULE_PARM_DESC(packets, "frames per round");
static uint rounds = 5;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "timed rounds (the median is reported)");

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The round's frames, built before the clock starts. */
static int scale_build(struct net_device *ndev, const u8 *tmpl, size_t len,
		       struct sk_buff **skbs)
{
	unsigned int i;

	for (i = 0; i < packets; i++) {
		u32 k = get_random_u32() % conns;
		struct superp_pdl_hdr *pdl;
		struct sunhhdr *sh;
		struct sk_buff *skb;

		skb = netdev_alloc_skb(ndev, len);
		if (!skb)
			goto fail;
		skb_put_data(skb, tmpl, len);
		sh = (struct sunhhdr *)(skb->data + ETH_HLEN);
		sh->saddr = cpu_to_be16(saddr_base + k);
		pdl = (struct superp_pdl_hdr *)(skb->data + ETH_HLEN + SUNH_HLEN);
		pdl->dcid = cpu_to_le16(k);
		skb->protocol = eth_type_trans(skb, ndev);
		skbs[i] = skb;
	}
	return 0;
fail:
	while (i--)
		kfree_skb(skbs[i]);
	return -ENOMEM;
}

/* One timed round: ns for all of them. */
static u64 scale_round(struct sk_buff **skbs)
{
	unsigned int i;
	u64 t0, t1;

	local_bh_disable();
	t0 = ktime_get_ns();
	for (i = 0; i < packets; i++)
		netif_receive_skb(skbs[i]);
	t1 = ktime_get_ns();
	local_bh_enable();
	return t1 - t0;
}

static int __init scale_init(void)
{
	u64 ns[SCALE_MAX_ROUNDS];
	u8 tmpl[SCALE_MAX_FRAME];
	struct net_device *ndev;
	struct sk_buff **skbs;
	unsigned int r;
	size_t len;
	int err;

	len = frame ? strlen(frame) / 2 : 0;
	if (!len || len > sizeof(tmpl) || strlen(frame) % 2 ||
	    hex2bin(tmpl, frame, len) ||
	    len < ETH_HLEN + SUNH_HLEN + SUPERP_PDL_HLEN + SUPERP_TAL_HLEN ||
	    get_unaligned_be16(tmpl + 12) != ETH_P_SUNH) {
		pr_err(PFX "frame: a SUNH frame in hex, at most %d bytes\n",
		       SCALE_MAX_FRAME);
		return -EINVAL;
	}
	if (!conns || conns > 65536 || saddr_base + conns > 65536 ||
	    !packets || !rounds || rounds > SCALE_MAX_ROUNDS) {
		pr_err(PFX "conns 1..65536 within the SUNH addresses, packets > 0, rounds 1..%d\n",
		       SCALE_MAX_ROUNDS);
		return -EINVAL;
	}
	ndev = dev_get_by_name(&init_net, ifname);
	if (!ndev) {
		pr_err(PFX "no netdev %s\n", ifname);
		return -ENODEV;
	}
	ether_addr_copy(tmpl, ndev->dev_addr);	/* for this host, not dropped */
	skbs = kvmalloc_array(packets, sizeof(*skbs), GFP_KERNEL);
	err = skbs ? 0 : -ENOMEM;
	for (r = 0; !err && r < rounds; r++) {
		err = scale_build(ndev, tmpl, len, skbs);
		if (!err)
			ns[r] = scale_round(skbs);
	}
	kvfree(skbs);
	dev_put(ndev);
	if (err) {
		pr_err(PFX "out of memory\n");
		return err;
	}
	sort(ns, rounds, sizeof(*ns), cmp_u64, NULL);
	pr_info(PFX "conns %u packets %u rounds %u ns_per_packet %llu min %llu max %llu\n",
		conns, packets, rounds, div_u64(ns[rounds / 2], packets),
		div_u64(ns[0], packets), div_u64(ns[rounds - 1], packets));
	return 0;
}

static void __exit scale_exit(void)
{
}

module_init(scale_init);
module_exit(scale_exit);
MODULE_DESCRIPTION("SUPERp scale micro-benchmark: receive cost per packet");
MODULE_LICENSE("GPL");
