// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the SUNH encapsulation. SUPERp is the upper protocol of SUNH
 * Next Header 253 (SUNH_NEXTHDR_SUPERP, include/net/sunh.h): sunh.ko hands
 * us each packet in NET_RX softirq with skb->data after the SUNH header,
 * and we send through sunh_output() to the connection's remote SUNH
 * address, with its traffic class and a flow label from its UDP source
 * port (the same entropy, Documentation/wire-format.rst).
 *
 * Locking: none of our own; receive runs under sunh.ko's rcu_read_lock(),
 * and sunh_del_protocol() waits for running handlers before we unload.
 */
#include <net/sunh.h>

#include "superp.h"
#include "superp_conn_table.h"
#include "superp_encap.h"
#include "superp_rx.h"

static int superp_sunh_rcv(struct sk_buff *skb)
{
	struct superp_rx_src src = {
		.encap = SUPERP_ENCAP_SUNH,
		.addr.sunh = SUNH_CB(skb)->hdr.saddr,
		.dst.sunh = SUNH_CB(skb)->hdr.daddr,
		.batched = SUNH_CB(skb)->batched,
	};

	superp_rx(skb, &src);
	return NET_RX_SUCCESS;
}

static const struct sunh_protocol superp_sunh_proto = {
	.handler = superp_sunh_rcv,
	.batch_end = superp_rx_batch_end,
	.nexthdr = SUNH_NEXTHDR_SUPERP,
};

int superp_sunh_xmit(struct superp_dev *sdev, const struct superp_conn_addr *a,
		     struct sk_buff *skb)
{
	struct sunh_xmit_params p = {
		.daddr = a->remote.sunh,
		.saddr = a->local.sunh,
		.set_saddr = true,
		.nexthdr = SUNH_NEXTHDR_SUPERP,
		.tclass = a->tclass,
		.flow_label = a->udp_sport & 0xfff,
		.hop_limit = -1,
	};

	return sunh_output(dev_net(sdev->ndev), skb, &p);
}

int superp_sunh_init(void)
{
	return sunh_add_protocol(&superp_sunh_proto);
}

void superp_sunh_exit(void)
{
	sunh_del_protocol(&superp_sunh_proto);
}
