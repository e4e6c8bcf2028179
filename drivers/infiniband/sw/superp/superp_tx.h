/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: transmit, timers and the engine's callbacks of an installed
 * connection (superp_tx.c). Documentation/superp-datapath.rst describes
 * the payload hook below for the owners of transactions (the QP code).
 */
#ifndef SUPERP_TX_H
#define SUPERP_TX_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "superp.h"
#include "superp_engine.h"

struct superp_conn_addr;
struct superp_conn_entry;
struct superp_xact_src;

/*
 * Headroom of every packet: the largest encapsulation (IPv6 + UDP, larger
 * than SUNH) below the PDL header, and the link layer's.
 */
#define SUPERP_TX_HEADROOM	(LL_MAX_HEADER + 40 + 8)
/*
 * Linear tailroom after the TAL header when the transaction's owner does
 * not say (superp_xact_ops.room): every operation header of a packet.
 */
#define SUPERP_TX_OPS_ROOM	(SUPERP_TAL_MAX_OPS * SUPERP_MAX_OP_HLEN)

/**
 * struct superp_xact_ops - what the owner of a transaction does for it.
 * Every callback runs under the connection entry's lock, in any context
 * (softirq included): no sleeping, GFP_ATOMIC only, and nothing on this
 * connection but what the engine allows from a callback.
 * @room: optional: how many bytes @fill will skb_put() for packet @p (its
 *	operation headers and the payload it copies), so that the skb is
 *	allocated with that tailroom and never grown. Without it, fill()
 *	gets SUPERP_TX_OPS_ROOM bytes.
 * @fill: append packet @p's operation headers (skb_put()) and payload
 *	(page fragments, or skb_put() within the tailroom) to @skb, which
 *	holds the PDL and TAL headers already. Called for every (re)transmission of a packet of the
 *	transaction: rebuild from the transaction's state, never from a kept
 *	copy. Return 0, or a negative errno to lose the packet (the
 *	retransmission timer repairs it). A SUNH packet with data blocks must
 *	not be shorter than the Ethernet minimum (wire-format.rst, "Small
 *	packets"): grow the block.
 * @rx: a reply packet of the transaction arrived (initiator side): @skb,
 *	skb->data at its PDL header, is valid during the call only.
 * @placed: optional: every reply packet arrived (or a Transaction Error
 *	did); @complete follows when the target's ACK XID covers the
 *	transaction. No reply packet of it reaches @rx after this.
 * @complete: the transaction retired (@status 0), failed (-EREMOTEIO with
 *	the Transaction Error code @err, -EPROTO) or was aborted (the reason).
 */
struct superp_xact_ops {
	unsigned int (*room)(struct superp_xact_src *src,
			     const struct superp_pkt *p);
	int (*fill)(struct superp_xact_src *src, const struct superp_pkt *p,
		    struct sk_buff *skb);
	void (*rx)(struct superp_xact_src *src, const struct superp_pkt *p,
		   struct sk_buff *skb);
	void (*placed)(struct superp_xact_src *src);
	void (*complete)(struct superp_xact_src *src, int status, u32 err);
};

/**
 * struct superp_xact_src - the engine's cookie of a transaction (request
 * or reply): embed it in the owner's structure and find that with
 * container_of() in the callbacks. A NULL cookie is a transaction without
 * operations (No-op), or the engine's own (Last NULL, Transaction Error).
 * @ops: the owner's callbacks.
 */
struct superp_xact_src {
	const struct superp_xact_ops *ops;
};

/*
 * The transport's part of the engine's callbacks of a connection
 * (struct superp_engine_ops): transmit, the deadline, held buffers, and
 * handing the initiator's packets and completions to the transaction's
 * owner. The device combines them with the QP types' and its own
 * (superp_main.c).
 */
int superp_tx_xmit(struct superp_conn *c, const struct superp_pkt *p,
		   void *cookie);
void superp_tx_arm_timer(struct superp_conn *c, u64 expires);
void *superp_tx_hold(struct superp_conn *c, void *buf);
void superp_tx_release(struct superp_conn *c, void *held);
void superp_tx_initiator_pkt(struct superp_conn *c, const struct superp_pkt *p,
			     void *cookie, void *buf);
void superp_tx_placed(struct superp_conn *c, void *cookie);
void superp_tx_complete(struct superp_conn *c, void *cookie, int status,
			u32 err);

void superp_conn_timer_init(struct superp_conn_entry *e);
void superp_conn_timer_cancel(struct superp_conn_entry *e);

struct sk_buff *superp_tx_build(const struct superp_pkt *p, u8 encap,
				bool lite, struct superp_xact_src *src,
				int *err);

int superp_conn_submit(struct superp_dev *sdev, u16 lcid,
		       const struct superp_xact *x);

/* Datagrams (UD and GSI QPs): no connection, no retransmission. */
struct sk_buff *superp_dgram_alloc(unsigned int room);
int superp_dgram_xmit(struct superp_dev *sdev, const struct superp_conn_addr *a,
		      bool loop, struct sk_buff *skb);

#endif /* SUPERP_TX_H */
