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

/* The GRH area at the start of every UD receive buffer. */
#define SUPERP_UD_GRH_LEN	40

extern const struct superp_qp_type_ops superp_ud_qp_type;

void superp_ud_rx(struct superp_dev *sdev, struct sk_buff *skb,
		  const struct superp_rx_src *src, const struct superp_pkt *p);

#if IS_ENABLED(CONFIG_KUNIT)
struct sockaddr_in6;
void superp_ud_grh(u8 *grh, const struct sockaddr_in6 *sip,
		   const struct sockaddr_in6 *dip, u32 len);
#endif

#endif /* SUPERP_UD_H */
