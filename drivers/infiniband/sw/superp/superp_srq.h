/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: shared receive queues (superp_srq.c).
 */
#ifndef SUPERP_SRQ_H
#define SUPERP_SRQ_H

#include <rdma/ib_verbs.h>

#include "superp_qp.h"

struct superp_srq {
	struct ib_srq		ibsrq;
	struct superp_wq	rq;	/* rq.lock guards limit and ur too */
	u32			limit;	/* armed srq_limit, or 0 */
	struct superp_uqp_ring	ur;	/* user SRQs: the receive ring */
};

static inline struct superp_srq *to_ssrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct superp_srq, ibsrq);
}

/* Verbs */
int superp_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		      struct ib_udata *udata);
int superp_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		      enum ib_srq_attr_mask mask, struct ib_udata *udata);
int superp_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int superp_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int superp_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			 const struct ib_recv_wr **bad_wr);

/* For the data path, through superp_qp_get_recv(). */
int superp_srq_get_recv(struct superp_srq *srq, struct superp_recv_wqe *wqe,
			u8 *refused);

#endif /* SUPERP_SRQ_H */
