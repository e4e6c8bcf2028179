/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: the UD QP type (superp_ud.c), for UD and GSI QPs.
 */
#ifndef SUPERP_UD_H
#define SUPERP_UD_H

#include <linux/skbuff.h>

struct superp_dev;
struct superp_pkt;
struct superp_rx_src;

extern const struct superp_qp_type_ops superp_ud_qp_type;

void superp_ud_rx(struct superp_dev *sdev, struct sk_buff *skb,
		  const struct superp_rx_src *src, const struct superp_pkt *p);

#endif /* SUPERP_UD_H */
