/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: the receive path common to every encapsulation (superp_rx.c).
 * Documentation/superp-datapath.rst describes it.
 */
#ifndef SUPERP_RX_H
#define SUPERP_RX_H

#include <linux/in6.h>
#include <linux/skbuff.h>

#include "superp_engine.h"

struct superp_dev;
struct superp_conn_addr;

/**
 * struct superp_rx_src - where a received packet came from.
 * @encap: enum superp_encap it arrived by.
 * @addr: its source address in that encapsulation.
 * @dst: the address it was sent to (a datagram's receiver reports it).
 * @batched: one of a list of packets received together (SUNH's list
 *	receive): its connection's pure ACK waits for superp_rx_batch_end().
 */
struct superp_rx_src {
	u8 encap;
	union {
		u16 sunh;
		__be32 ip4;
		struct in6_addr ip6;
	} addr, dst;
	bool batched;
};

void superp_rx(struct sk_buff *skb, const struct superp_rx_src *src);
void superp_rx_batch_end(void);
void superp_rx_short(struct sk_buff *skb);
const char *superp_drop_name(int why);

/* Pure steps of superp_rx(), for KUnit: a drop reason, or -1 to go on. */
int superp_rx_parse(const struct sk_buff *skb, bool lite, struct superp_pkt *p);
int superp_rx_peer_check(const struct superp_conn_addr *a,
			 const struct superp_rx_src *src);

/* The netdev -> device map of the receive path. */
void superp_rx_dev_add(struct superp_dev *sdev);
void superp_rx_dev_del(struct superp_dev *sdev);

#endif /* SUPERP_RX_H */
