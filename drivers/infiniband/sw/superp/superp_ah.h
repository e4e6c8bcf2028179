/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: address handles (superp_ah.c).
 */
#ifndef SUPERP_AH_H
#define SUPERP_AH_H

#include <rdma/ib_verbs.h>

#include "superp_qp.h"

struct superp_ah {
	struct ib_ah		ibah;
	struct superp_av	av;	/* resolved, for the binding step */
	struct rdma_ah_attr	attr;	/* as created, for query_ah */
	u32			num;	/* user AHs: in superp_dev.ahs */
};

static inline struct superp_ah *to_sah(struct ib_ah *ibah)
{
	return container_of(ibah, struct superp_ah, ibah);
}

void superp_ah_table_init(struct superp_dev *sdev);
bool superp_av_sunh(struct superp_dev *sdev, const struct superp_av *av,
		    u16 *daddr, u16 *saddr);
int superp_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		     struct ib_udata *udata);
int superp_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int superp_destroy_ah(struct ib_ah *ibah, u32 flags);

#endif /* SUPERP_AH_H */
