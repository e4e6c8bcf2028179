/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * superp: the rdma-core (libibverbs) provider of the ib_superp soft-RDMA
 * device. superp.c binds devices and opens user contexts, verbs.c has the
 * queries and PDs, mr.c memory registration, ah.c address handles, cq.c
 * completion queues and cq_ex.c their ibv_cq_ex poll API, qp.c queue
 * pairs (RC and UD) and qp_ex.c their ibv_qp_ex wr_* API, srq.c shared
 * receive queues.
 */
#ifndef SUPERP_H
#define SUPERP_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <rdma/superp-abi.h>

#include "ibverbs_provider.h"

#define superp_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* One per RDMA device libibverbs matched to us. */
struct superp_device {
	struct verbs_device vdev;
};

/* One per ibv_open_device(). */
struct superp_context {
	struct verbs_context vctx;
	uint32_t wqe_ops;	/* SUPERP_WQE_OP_*: the kernel takes them */
};

static inline struct superp_context *to_sctx(struct ibv_context *ibctx)
{
	return superp_container_of(ibctx, struct superp_context, vctx.context);
}

/* GET_CONTEXT: our driver data right after the core command/response. */
struct superp_get_context_cmd {
	struct ibv_get_context ibv_cmd;
	struct superp_alloc_ucontext_cmd drv;
};

struct superp_get_context_resp {
	struct ib_uverbs_get_context_resp ibv_resp;
	struct superp_alloc_ucontext_resp drv;
};

/* The kernel finds driver data by these offsets; no padding allowed. */
_Static_assert(offsetof(struct superp_get_context_cmd, drv) ==
	       sizeof(struct ibv_get_context) &&
	       sizeof(struct superp_get_context_cmd) ==
	       sizeof(struct ibv_get_context) +
	       sizeof(struct superp_alloc_ucontext_cmd),
	       "GET_CONTEXT command layout");
_Static_assert(offsetof(struct superp_get_context_resp, drv) ==
	       sizeof(struct ib_uverbs_get_context_resp) &&
	       sizeof(struct superp_get_context_resp) ==
	       sizeof(struct ib_uverbs_get_context_resp) +
	       sizeof(struct superp_alloc_ucontext_resp),
	       "GET_CONTEXT response layout");

/*
 * A CQ: the ring the kernel fills (include/uapi/rdma/superp-abi.h), for
 * ibv_create_cq and ibv_create_cq_ex alike. The lock is held from a
 * successful start_poll to end_poll, and across a resize.
 */
struct superp_cq {
	struct verbs_cq vcq;
	pthread_spinlock_t lock;	/* all below; pollers on several threads */
	struct superp_cq_ring *ring;	/* mapped, ring_size bytes */
	struct superp_cqe *cqes;	/* num_entries, after the indices */
	size_t ring_size;
	uint32_t num_entries;
	uint32_t cons;			/* our consumer index */
	const struct superp_cqe *cur;	/* ibv_cq_ex: the entry being read */
};

static inline struct superp_cq *to_scq(struct ibv_cq *ibcq)
{
	return superp_container_of(ibcq, struct superp_cq, vcq.cq);
}

/*
 * Polling found the ring empty: EIO when the CQ is in error (it
 * overflowed), else 0. The kernel sets the flag after the last producer
 * index it will ever store, so with the flag seen (acquire) one more load
 * of that index tells whether completions are still to be read.
 */
static inline int superp_cq_empty_error(struct superp_cq *cq)
{
	if (!(__atomic_load_n(&cq->ring->flags, __ATOMIC_ACQUIRE) &
	      SUPERP_CQ_RING_ERROR))
		return 0;
	return cq->cons == __atomic_load_n(&cq->ring->producer,
					   __ATOMIC_ACQUIRE) ? EIO : 0;
}

struct superp_create_cq_ex_cmd_drv {
	struct ibv_create_cq_ex ibv_cmd;
	struct superp_create_cq_cmd drv;
};

struct superp_create_cq_ex_resp_drv {
	struct ib_uverbs_ex_create_cq_resp ibv_resp;
	struct superp_create_cq_resp drv;
};

struct superp_resize_cq_cmd_drv {
	struct ibv_resize_cq ibv_cmd;
	struct superp_resize_cq_cmd drv;
};

struct superp_resize_cq_resp_drv {
	struct ib_uverbs_resize_cq_resp ibv_resp;
	struct superp_resize_cq_resp drv;
};

_Static_assert(sizeof(struct superp_create_cq_ex_cmd_drv) ==
	       sizeof(struct ibv_create_cq_ex) +
	       sizeof(struct superp_create_cq_cmd) &&
	       sizeof(struct superp_create_cq_ex_resp_drv) ==
	       sizeof(struct ib_uverbs_ex_create_cq_resp) +
	       sizeof(struct superp_create_cq_resp),
	       "extended CREATE_CQ layouts");
_Static_assert(sizeof(struct superp_resize_cq_cmd_drv) ==
	       sizeof(struct ibv_resize_cq) +
	       sizeof(struct superp_resize_cq_cmd) &&
	       sizeof(struct superp_resize_cq_resp_drv) ==
	       sizeof(struct ib_uverbs_resize_cq_resp) +
	       sizeof(struct superp_resize_cq_resp),
	       "RESIZE_CQ layouts");

struct superp_create_cq_cmd_drv {
	struct ibv_create_cq ibv_cmd;
	struct superp_create_cq_cmd drv;
};

struct superp_create_cq_resp_drv {
	struct ib_uverbs_create_cq_resp ibv_resp;
	struct superp_create_cq_resp drv;
};

_Static_assert(sizeof(struct superp_create_cq_cmd_drv) ==
	       sizeof(struct ibv_create_cq) +
	       sizeof(struct superp_create_cq_cmd) &&
	       sizeof(struct superp_create_cq_resp_drv) ==
	       sizeof(struct ib_uverbs_create_cq_resp) +
	       sizeof(struct superp_create_cq_resp),
	       "CREATE_CQ layouts");

/* A work queue ring this process fills (include/uapi/rdma/superp-abi.h). */
struct superp_uwq {
	struct superp_wq_ring *ring;	/* mapped, size bytes; NULL: none */
	size_t size;
	uint32_t entries;		/* power of two */
	uint32_t stride;		/* bytes per WQE */
	uint32_t max_wr;		/* outstanding at most, as granted */
	uint32_t max_sge;
	uint32_t max_inline;		/* send rings */
	pthread_spinlock_t lock;	/* posters of this queue */
	uint32_t producer;		/* ours; the ring's copy is published */
};

/*
 * A QP: the kernel's, plus its rings. The wr_* batch (qp_ex.c) runs from
 * wr_start to wr_complete or wr_abort under sq.lock.
 */
struct superp_qp {
	struct verbs_qp vqp;
	struct superp_uwq sq;
	struct superp_uwq rq;		/* none with an SRQ */
	uint32_t wr_start;		/* sq.producer at wr_start */
	int wr_err;			/* the batch's first error, or 0 */
	struct superp_uwqe_send *wr_cur;	/* the WQE being built */
	bool wr_no_addr;		/* UD: wr_cur has no destination yet */
};

static inline struct superp_qp *to_sqp(struct ibv_qp *ibqp)
{
	return superp_container_of(ibqp, struct superp_qp, vqp.qp);
}

/* An AH: the kernel's; UD send WQEs name it by ah_num. */
struct superp_ah {
	struct ibv_ah ibah;
	uint32_t ah_num;
};

static inline struct superp_ah *to_sah(struct ibv_ah *ibah)
{
	return superp_container_of(ibah, struct superp_ah, ibah);
}

/*
 * A UD send WQE's destination (superp-abi.h): EINVAL without an AH, whose
 * number the WQE needs; the kernel checks the rest.
 */
static inline int superp_wqe_set_ud(struct superp_uwqe_send *u,
				    struct ibv_ah *ah, uint32_t remote_qpn,
				    uint32_t remote_qkey)
{
	int err = EINVAL;

	if (!ah)
		return err;
	u->ud.ah_num = to_sah(ah)->ah_num;
	u->ud.remote_qpn = remote_qpn;
	u->ud.remote_qkey = remote_qkey;
	return 0;
}

/*
 * CREATE_AH has no driver data in the request. The core response is 4
 * bytes and the kernel writes ours right after it: it arrives as bytes
 * and is copied out.
 */
struct superp_create_ah_resp_drv {
	struct ib_uverbs_create_ah_resp ibv_resp;
	uint8_t drv[sizeof(struct superp_create_ah_resp)];
};

_Static_assert(offsetof(struct superp_create_ah_resp_drv, drv) ==
	       sizeof(struct ib_uverbs_create_ah_resp) &&
	       sizeof(struct superp_create_ah_resp_drv) ==
	       sizeof(struct ib_uverbs_create_ah_resp) +
	       sizeof(struct superp_create_ah_resp),
	       "CREATE_AH response layout");

/* The send_flags a send WQE may carry. */
#define SUPERP_SEND_FLAGS (IBV_SEND_FENCE | IBV_SEND_SIGNALED | \
			   IBV_SEND_SOLICITED | IBV_SEND_INLINE)

/* An SRQ: the kernel's, plus its ring. */
struct superp_srq {
	struct ibv_srq ibsrq;
	struct superp_uwq rq;
};

struct superp_create_srq_cmd_drv {
	struct ibv_create_srq ibv_cmd;
	struct superp_create_srq_cmd drv;
};

struct superp_create_srq_resp_drv {
	struct ib_uverbs_create_srq_resp ibv_resp;
	struct superp_create_srq_resp drv;
};

_Static_assert(sizeof(struct superp_create_srq_cmd_drv) ==
	       sizeof(struct ibv_create_srq) +
	       sizeof(struct superp_create_srq_cmd) &&
	       sizeof(struct superp_create_srq_resp_drv) ==
	       sizeof(struct ib_uverbs_create_srq_resp) +
	       sizeof(struct superp_create_srq_resp),
	       "CREATE_SRQ layouts");

struct superp_create_qp_cmd_drv {
	struct ibv_create_qp ibv_cmd;
	struct superp_create_qp_cmd drv;
};

struct superp_create_qp_resp_drv {
	struct ib_uverbs_create_qp_resp ibv_resp;
	struct superp_create_qp_resp drv;
};

_Static_assert(sizeof(struct superp_create_qp_cmd_drv) ==
	       sizeof(struct ibv_create_qp) +
	       sizeof(struct superp_create_qp_cmd) &&
	       sizeof(struct superp_create_qp_resp_drv) ==
	       sizeof(struct ib_uverbs_create_qp_resp) +
	       sizeof(struct superp_create_qp_resp),
	       "CREATE_QP layouts");

int superp_query_device_ex(struct ibv_context *ibctx,
			   const struct ibv_query_device_ex_input *input,
			   struct ibv_device_attr_ex *attr, size_t attr_size);
int superp_query_port(struct ibv_context *ibctx, uint8_t port_num,
		      struct ibv_port_attr *attr);
struct ibv_pd *superp_alloc_pd(struct ibv_context *ibctx);
int superp_dealloc_pd(struct ibv_pd *pd);
struct ibv_mr *superp_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			     uint64_t hca_va, int access);
int superp_dereg_mr(struct verbs_mr *vmr);
int superp_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		    void *addr, size_t length, int access);
/* mw.c */
struct ibv_mw *superp_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type);
int superp_dealloc_mw(struct ibv_mw *mw);
int superp_bind_mw(struct ibv_qp *ibqp, struct ibv_mw *mw,
		   struct ibv_mw_bind *mw_bind);
int superp_wqe_bind(struct ibv_context *ibctx, struct superp_uwqe_send *u,
		    struct ibv_mw *mw, uint32_t rkey,
		    const struct ibv_mw_bind_info *info);
struct ibv_ah *superp_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int superp_destroy_ah(struct ibv_ah *ibah);
struct ibv_cq *superp_create_cq(struct ibv_context *ibctx, int cqe,
				struct ibv_comp_channel *channel,
				int comp_vector);
/* cq.c, for cq_ex.c */
struct superp_cq *superp_cq_new(struct ibv_context *ibctx,
				struct ibv_cq_init_attr_ex *attr, bool ex);
void superp_cqe_to_wc(const struct superp_cqe *e, struct ibv_wc *wc);
unsigned int superp_cqe_wc_flags(const struct superp_cqe *e);
struct ibv_cq_ex *superp_create_cq_ex(struct ibv_context *ibctx,
				      struct ibv_cq_init_attr_ex *attr);
int superp_resize_cq(struct ibv_cq *ibcq, int cqe);
int superp_destroy_cq(struct ibv_cq *ibcq);
int superp_poll_cq(struct ibv_cq *ibcq, int num, struct ibv_wc *wc);
int superp_req_notify_cq(struct ibv_cq *ibcq, int solicited_only);
struct ibv_qp *superp_create_qp(struct ibv_pd *pd,
				struct ibv_qp_init_attr *attr);
int superp_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
		     int attr_mask);
int superp_query_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *attr,
		    int attr_mask, struct ibv_qp_init_attr *init_attr);
int superp_destroy_qp(struct ibv_qp *ibqp);
int superp_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		     struct ibv_send_wr **bad_wr);
int superp_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		     struct ibv_recv_wr **bad_wr);
/* qp.c: work queue rings, for srq.c and qp_ex.c */
int superp_uwq_map(struct superp_uwq *wq, int fd, uint64_t offset,
		   uint64_t size, uint32_t entries, uint32_t stride,
		   uint32_t max_wr, size_t min_stride);
void superp_uwq_unmap(struct superp_uwq *wq);
int superp_uwq_post_recv(struct superp_uwq *rq, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad_wr);
void *superp_uwq_slot(struct superp_uwq *wq, uint32_t pos);
bool superp_uwq_full(struct superp_uwq *wq);
int superp_qp_map_rings(struct superp_qp *qp, int fd,
			const struct superp_create_qp_resp *drv,
			const struct ibv_qp_cap *cap, bool srq);
int superp_sq_doorbell(struct ibv_qp *ibqp, struct superp_uwq *sq,
		       uint32_t start);
int superp_qp_type_check(struct ibv_context *ibctx, enum ibv_qp_type type);
/* qp_ex.c */
struct ibv_qp *superp_create_qp_ex(struct ibv_context *ibctx,
				   struct ibv_qp_init_attr_ex *attr);
/* srq.c */
struct ibv_srq *superp_create_srq(struct ibv_pd *pd,
				  struct ibv_srq_init_attr *attr);
int superp_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr,
		      int attr_mask);
int superp_query_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr);
int superp_destroy_srq(struct ibv_srq *ibsrq);
int superp_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad_wr);

#endif /* SUPERP_H */
