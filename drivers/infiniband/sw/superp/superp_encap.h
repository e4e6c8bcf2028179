/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: the encapsulations, SUNH (superp_sunh.c) and UDP/IPv4 and
 * UDP/IPv6 (superp_udp.c). Each receives into superp_rx() and sends a
 * packet built by superp_tx_build() to a connection's peer; a connection
 * to this node itself loops its packets back instead (superp_loop.c).
 */
#ifndef SUPERP_ENCAP_H
#define SUPERP_ENCAP_H

#include <linux/skbuff.h>

struct dst_cache;
struct superp_conn_addr;
struct superp_conn_entry;
struct superp_dev;

/*
 * Send @skb (skb->data at the PDL header, always consumed) from @a's local
 * to its remote address, a connection's or a datagram's; UDP keeps the
 * route in @dc (a zeroed one: a lookup per packet). Return: 0, -ENOBUFS
 * when the device queue is full, or another errno when the packet was
 * lost.
 */
int superp_sunh_xmit(struct superp_dev *sdev, const struct superp_conn_addr *a,
		     struct sk_buff *skb);
int superp_udp_xmit(struct superp_dev *sdev, const struct superp_conn_addr *a,
		    struct dst_cache *dc, struct sk_buff *skb);
/* A UDP connection's route cache: set up before it sends, freed after. */
int superp_udp_conn_init(struct superp_conn_entry *e);
void superp_udp_conn_free(struct superp_conn_entry *e);

int superp_loop_xmit(struct superp_dev *sdev, const struct superp_conn_addr *a,
		     struct sk_buff *skb);
bool superp_loop_conn(const struct superp_conn_addr *a);
void superp_loop_init(struct superp_dev *sdev);
void superp_loop_destroy(struct superp_dev *sdev);

int superp_sunh_init(void);
void superp_sunh_exit(void);
int superp_udp_init(void);
void superp_udp_exit(void);

#endif /* SUPERP_ENCAP_H */
