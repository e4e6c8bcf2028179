/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: queue pairs (superp_qp.c: objects and state machine;
 * superp_queue.c: work queues, flush and the data path's interface;
 * superp_post.c: posting). The rules are at the top of those files. What
 * a QP's transport service does (RC today) it reaches through its type's
 * ops.
 */
#ifndef SUPERP_QP_H
#define SUPERP_QP_H

#include <linux/in6.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>
#include <rdma/superp-abi.h>

#include "superp_mmap.h"
#include "superp_mw.h"
#include "superp_rc_qp.h"
#include "superp_ud_qp.h"

struct superp_dev;
struct superp_mr;
struct superp_qp;
struct superp_srq;

/*
 * A resolved address vector (QP's primary path or an AH): RoCE v2 style,
 * the destination GID and the IP address it stands for, which the data
 * path maps to a connection (struct superp_qp_type_ops.bind).
 */
struct superp_av {
	union ib_gid		dgid;
	u32			flow_label;
	u8			sgid_index;
	u8			hop_limit;
	u8			traffic_class;
	u8			network_type;	/* enum rdma_network_type */
	bool			local;		/* dgid is one of the device's */
	union {
		struct sockaddr		sa;
		struct sockaddr_in	sin;
		struct sockaddr_in6	sin6;
	} daddr;
	/* the source GID's IP address: a datagram's local address */
	union {
		struct sockaddr		sa;
		struct sockaddr_in	sin;
		struct sockaddr_in6	sin6;
	} saddr;
};

/*
 * A send work request as post_send copied it. The SGE list (or the inline
 * data) follows in data[]. Everything is the consumer's request, already
 * validated; the data path looks keys up again when it runs the WR, since
 * a key may be invalidated in between.
 */
struct superp_send_wqe {
	u64		wr_id;
	u32		idx;		/* free-running SQ position */
	u8		opcode;		/* enum ib_wr_opcode */
	u8		status;		/* enum ib_wc_status, once done */
	bool		signaled;	/* complete it even when successful */
	bool		done;		/* awaiting only its turn to complete */
	u32		send_flags;
	u32		num_sge;	/* 0 when inline */
	u32		length;		/* bytes: sum of the SGEs, or inline */
	union {
		__be32	imm_data;
		u32	invalidate_rkey;
	} ex;
	union {
		struct {
			u64	remote_addr;
			u32	rkey;
		} rdma;
		struct {
			u64	remote_addr;
			u64	compare_add;
			u64	swap;
			u32	rkey;
		} atomic;
		struct {
			u32	key;	/* the new key; its index names the MR */
			int	access;
		} reg;
		struct {
			u32	key;
		} inv;
		struct superp_mw_bind bind;	/* IB_WR_BIND_MW */
		struct {
			struct superp_av av;	/* copied: an AH may go */
			u32	remote_qpn;
			u32	remote_qkey;
		} ud;
	};
	u64		data[];		/* struct ib_sge[] or inline bytes */
};

/* A receive work request, from an RQ or an SRQ. */
struct superp_recv_wqe {
	u64		wr_id;
	u32		num_sge;
	u32		length;		/* sum of the SGEs */
	struct ib_sge	sge[];
};

/*
 * A work queue: a ring of max_wr WQEs of wqe_size bytes in kernel memory.
 * Positions are free-running u32 counters, taken modulo max_wr.
 */
struct superp_wq {
	spinlock_t	lock;		/* irqsave; see superp_queue.c */
	void		*buf;
	u32		max_wr;
	u32		wqe_size;
	u32		max_sge;
	u32		max_inline;	/* send queues */
	u32		head;		/* next position to post */
	u32		next;		/* SQ: next WR for the data path */
	u32		tail;		/* SQ: oldest not completed; RQ: oldest */
};

static inline void *superp_wq_at(const struct superp_wq *wq, u32 pos)
{
	return wq->buf + (size_t)(pos % wq->max_wr) * wq->wqe_size;
}

static inline struct ib_sge *superp_send_sge(struct superp_send_wqe *wqe)
{
	return (struct ib_sge *)wqe->data;
}

/*
 * A user QP's ring shared with the process (superp_uqp.c), under the lock
 * of the kernel queue it feeds.
 */
struct superp_uqp_ring {
	struct superp_wq_ring	*ring;		/* NULL: none */
	struct superp_ring_map	*map;
	void			*wqe;		/* one WQE, copied out */
	u32			entries;	/* power of two */
	u32			stride;		/* bytes per WQE */
	u32			cons;		/* next ring position to copy */
	/* send: SUPERP_WQ_BUSY published (the ring's copy is not believed) */
	bool			busy;
	/* A WQE refused at copy: completes after the kernel queue's WRs. */
	bool			refused;
	u8			refused_status;	/* enum ib_wc_status */
	u8			refused_opcode;	/* enum ib_wc_opcode */
	u64			refused_wr_id;
};

/* A send WQE from a user ring as a kernel work request. */
struct superp_uwr {
	union {
		struct ib_send_wr	wr;
		struct ib_rdma_wr	rdma;
		struct ib_atomic_wr	atomic;
		struct ib_ud_wr		ud;
	};
	struct ib_sge			inline_sge;
	struct superp_mw_bind		bind;	/* IB_WR_BIND_MW */
};

struct superp_uwq_geom {
	u32	entries;
	u32	stride;
	size_t	size;
};

/**
 * struct superp_qp_type_ops - what a QP's transport service (its type:
 * RC, or UD for UD and GSI QPs) does for the verbs objects, which name no
 * type. The device chooses it at create (superp_dev.qp_rc, qp_ud).
 * @create: optional: the type's state of a new QP; 0 or an errno.
 * @destroy: optional: frees it, after @unbind.
 * @bind: INIT->RTR with qp->av resolved: attach to the way toward the
 *	destination; 0 or an errno (the reason in the debug log).
 * @unbind: RESET or destroy: let go of it (after @cancel).
 * @cancel: nothing more of the QP goes out; what it holds ends silently
 *	(error, destroy).
 * @kick: the send queue has work: run it now (process context or BH).
 * @kick_later: the same from a caller with interrupts disabled.
 */
struct superp_qp_type_ops {
	int (*create)(struct superp_qp *qp);
	void (*destroy)(struct superp_qp *qp);
	int (*bind)(struct superp_qp *qp);
	void (*unbind)(struct superp_qp *qp);
	void (*cancel)(struct superp_qp *qp);
	void (*kick)(struct superp_qp *qp);
	void (*kick_later)(struct superp_qp *qp);
};

struct superp_qp {
	struct ib_qp		ibqp;
	const struct superp_qp_type_ops *type;
	/*
	 * Serialises modify, query and destroy. The state is written with
	 * the mutex and both queue locks held (or, by superp_qp_error(),
	 * with both queue locks), and read under either.
	 */
	struct mutex		mutex;
	enum ib_qp_state	state;
	bool			sig_all;	/* IB_SIGNAL_ALL_WR */
	/* unique on the device for its lifetime: type 2 windows name it */
	u64			serial;
	bool			sq_drained;	/* SQD: drain reported */
	struct superp_wq	sq;
	struct superp_wq	rq;		/* unused with an SRQ */
	struct superp_srq	*srq;
	struct ib_qp_attr	attr;		/* as set, for query_qp */
	struct superp_av	av;		/* valid from INIT->RTR */
	/*
	 * The connection entry (struct superp_conn_entry) the QP is bound
	 * to, or NULL: written under that entry's lock, read under RCU
	 * (superp_rc_bind.c has the lifetime rules).
	 */
	void			*conn;
	struct superp_rc_qp	rc;		/* under conn's lock */
	struct superp_ud_qp	ud;		/* UD and GSI QPs */
	refcount_t		ref;		/* the QP table's, plus lookups */
	struct completion	unused;
	struct superp_uqp_ring	usq;		/* user QPs only */
	struct superp_uqp_ring	urq;		/* user QPs without an SRQ */
};

/* The PD a QP's receive buffers belong to: its SRQ's, if it has one. */
static inline struct ib_pd *superp_qp_recv_pd(struct superp_qp *qp)
{
	return qp->ibqp.srq ? qp->ibqp.srq->pd : qp->ibqp.pd;
}

static inline struct superp_qp *to_sqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct superp_qp, ibqp);
}

/* superp_qp.c: verbs */
int superp_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		     struct ib_udata *udata);
int superp_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		     struct ib_udata *udata);
int superp_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		    struct ib_qp_init_attr *init);
int superp_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);

/* superp_qp.c: for the data path (rules at the top of superp_qp.c) */
struct superp_qp *superp_qp_get(struct superp_dev *sdev, u32 qpn);
void superp_qp_put(struct superp_qp *qp);
void superp_qp_error(struct superp_qp *qp);
void superp_qp_event(struct superp_qp *qp, enum ib_event_type type);

/* superp_uqp.c: a user QP's rings (under the lock of their kernel queue) */
int superp_uqp_create(struct superp_qp *qp, struct ib_udata *udata);
void superp_uqp_destroy(struct superp_qp *qp);
bool superp_uqp_sq_pull(struct superp_qp *qp);
bool superp_uqp_sq_recheck(struct superp_qp *qp);
unsigned int superp_uqp_sq_flush(struct superp_qp *qp);
unsigned int superp_uqp_rq_flush(struct superp_qp *qp);
void superp_uqp_publish(struct superp_uqp_ring *r, u32 queued);
void superp_uqp_reset(struct superp_uqp_ring *r);
int superp_uring_alloc(struct superp_uqp_ring *r, struct ib_ucontext *uc,
		       const struct superp_uwq_geom *g, u64 *offset, u64 *size);
void superp_uring_release(struct superp_uqp_ring *r);
bool superp_uring_recv_pull(struct superp_uqp_ring *r, struct ib_pd *pd,
			    struct superp_wq *rq);
u32 superp_uring_waiting(const struct superp_uqp_ring *r);
void superp_uwq_geometry(u32 max_wr, u32 max_sge, u32 max_inline, size_t hdr,
			 struct superp_uwq_geom *g);
#if IS_ENABLED(CONFIG_KUNIT)
enum ib_wc_status superp_uwqe_to_wr(const struct superp_uwqe_send *u,
				    u32 stride, u32 max_sge, u32 max_inline,
				    struct superp_uwr *w);
#endif

/* superp_post.c: verbs */
int superp_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		     const struct ib_send_wr **bad_wr);
int superp_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		     const struct ib_recv_wr **bad_wr);

/* superp_post.c: filling a queue, under its lock (superp_uqp.c, SRQs) */
int superp_recv_post(struct ib_pd *pd, struct superp_wq *rq,
		     const struct ib_recv_wr **wr);
int superp_send_wqe_fill(struct superp_qp *qp, const struct ib_send_wr *wr,
			 struct superp_send_wqe *wqe);
int superp_send_wqe_fill_bind(struct superp_qp *qp,
			      const struct ib_send_wr *wr,
			      const struct superp_mw_bind *b,
			      struct superp_send_wqe *wqe);

/* superp_queue.c: queues, for superp_qp.c and the data path */
int superp_wq_init(struct superp_wq *wq, u32 max_wr, size_t wqe_size);
void superp_wq_free(struct superp_wq *wq);
size_t superp_send_wqe_size(u32 max_sge, u32 max_inline);
size_t superp_recv_wqe_size(u32 max_sge);
int superp_recv_take(struct superp_wq *rq, struct superp_recv_wqe *wqe);
enum ib_wc_opcode superp_wc_opcode(u8 opcode);
void superp_qp_flush(struct superp_qp *qp);
void superp_qp_reset_queues(struct superp_qp *qp);
struct superp_send_wqe *superp_qp_next_send(struct superp_qp *qp);
struct superp_send_wqe *
superp_qp_next_send_if(struct superp_qp *qp,
		       bool (*match)(const struct superp_send_wqe *wqe,
				     void *arg),
		       void *arg);
void superp_qp_send_done(struct superp_qp *qp, u32 idx,
			 enum ib_wc_status status);
void superp_qp_send_broke(struct superp_qp *qp, enum ib_wc_status status);
int superp_qp_send_rewind(struct superp_qp *qp, u32 idx);
int superp_qp_get_recv(struct superp_qp *qp, struct superp_recv_wqe *wqe);
int superp_qp_get_recv_fit(struct superp_qp *qp, struct superp_recv_wqe *wqe,
			   u32 need);
bool superp_qp_sq_idle(struct superp_qp *qp);

/*
 * superp_queue.c: for superp_post.c; the last three under sq.lock
 * (superp_rq_flush() under rq.lock).
 */
bool superp_wr_is_local(u8 opcode);
unsigned int superp_sq_run_local(struct superp_qp *qp, bool *failed,
				 bool *pulled);
unsigned int superp_sq_flush(struct superp_qp *qp);
unsigned int superp_rq_flush(struct superp_qp *qp);

/* superp_ah.c: address vectors */
int superp_av_from_attr(struct superp_dev *sdev,
			const struct rdma_ah_attr *attr, struct superp_av *av);

#endif /* SUPERP_QP_H */
