/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR Linux-OpenIB) */
/*
 * The private user verbs ABI between ib_superp and the rdma-core provider
 * providers/superp: the driver data that follows each core uverbs command
 * and response.
 *
 * Versioning: SUPERP_UVERBS_ABI_VERSION changes only for an incompatible
 * change. Everything else grows by appending fields and announcing them in
 * comp_mask: a request sets the bits of the fields it filled in, and the
 * kernel refuses bits it does not know (EOPNOTSUPP); a response sets the
 * bits of the fields the kernel filled in, and the provider ignores what it
 * does not know. Structures are 8-byte aligned and padded explicitly.
 */
#ifndef _UAPI_RDMA_SUPERP_ABI_H
#define _UAPI_RDMA_SUPERP_ABI_H

#include <linux/types.h>

#define SUPERP_UVERBS_ABI_VERSION 1

/* Driver data of the GET_CONTEXT command (ibv_open_device()). */
struct superp_alloc_ucontext_cmd {
	__aligned_u64 comp_mask;	/* no optional fields yet: 0 */
};

/* Driver data of the GET_CONTEXT response. */
struct superp_alloc_ucontext_resp {
	__aligned_u64 comp_mask;	/* SUPERP_UCTX_RESP_* */
	__u32 abi_version;		/* SUPERP_UVERBS_ABI_VERSION */
	__u32 wqe_ops;			/* SUPERP_WQE_OP_*, with its bit */
};

/* superp_alloc_ucontext_resp.comp_mask */
#define SUPERP_UCTX_RESP_WQE_OPS	(1ULL << 0)	/* wqe_ops is set */

/*
 * superp_alloc_ucontext_resp.wqe_ops: send WQE opcodes beyond the first
 * ones (superp_uwqe_send) that the kernel takes from a send ring. A kernel
 * without the comp_mask bit takes none of them (it completes such a WQE
 * with IBV_WC_LOC_QP_OP_ERR), and the provider refuses them at post.
 */
#define SUPERP_WQE_OP_LOCAL_INV		(1U << 0)	/* IBV_WR_LOCAL_INV */
#define SUPERP_WQE_OP_BIND_MW		(1U << 1)	/* IBV_WR_BIND_MW */

/*
 * Completion queues (Documentation/provider.rst, "Rings").
 *
 * A user CQ is a ring the kernel allocates and the process maps with
 * mmap() of its uverbs file at ring_offset: a struct superp_cq_ring
 * followed by num_entries struct superp_cqe, num_entries a power of two.
 * Indices run freely over all 32 bits; entry i is at i % num_entries.
 *
 * The kernel writes a completion at its own producer index, then stores
 * producer with release semantics; the process loads producer with
 * acquire semantics, reads the entries below it and stores consumer. The
 * kernel reads consumer only to see whether the ring is full: a value it
 * cannot believe (more than num_entries behind producer, or ahead of it)
 * counts as full, so the completion is lost and IBV_EVENT_CQ_ERR raised.
 *
 * A completion lost to a full ring puts the CQ in error for good: the
 * kernel sets SUPERP_CQ_RING_ERROR in flags (release) and moves producer
 * no more. The process reads the entries below producer as ever; with
 * none left and the flag set, polling fails with EIO. A kernel that
 * predates the flag leaves flags 0.
 */
struct superp_create_cq_cmd {
	__aligned_u64 comp_mask;	/* no optional fields yet: 0 */
};

struct superp_create_cq_resp {
	__aligned_u64 comp_mask;	/* no optional fields yet: 0 */
	__aligned_u64 ring_offset;	/* mmap() offset in the uverbs file */
	__aligned_u64 ring_size;	/* bytes to map, a multiple of pages */
	__u32 num_entries;		/* power of two, >= the cqe asked for */
	__u32 reserved;
};

/* The two indices live on cache lines of their own. */
struct superp_cq_ring {
	__u32 producer;			/* written by the kernel only */
	__u32 flags;			/* SUPERP_CQ_RING_*, by the kernel only */
	__u32 reserved0[14];
	__u32 consumer;			/* written by the process only */
	__u32 reserved1[15];
	/* struct superp_cqe entries[num_entries] follow */
};

/* superp_cq_ring.flags */
#define SUPERP_CQ_RING_ERROR	(1U << 0)	/* overflowed: no more completions */

/* superp_cqe.wc_flags */
#define SUPERP_CQE_WITH_IMM	(1U << 0)	/* imm_data is valid */
#define SUPERP_CQE_WITH_INV	(1U << 1)	/* imm_data is the invalidated rkey */
/* UD receive: the buffer's first 40 bytes hold the GRH (IBV_WC_GRH) */
#define SUPERP_CQE_WITH_GRH	(1U << 2)

/*
 * One completion. status and opcode use the values of enum ibv_wc_status
 * and enum ibv_wc_opcode (the kernel's ib_wc_status and ib_wc_opcode have
 * the same ones); imm_data is in network byte order, as in struct ibv_wc.
 */
struct superp_cqe {
	__aligned_u64 wr_id;
	__u32 status;
	__u32 opcode;
	__u32 vendor_err;
	__u32 byte_len;
	__u32 imm_data;
	__u32 qp_num;
	__u32 src_qp;
	__u32 wc_flags;			/* SUPERP_CQE_* */
	__u16 pkey_index;
	__u16 reserved0;
	__u32 reserved1;
	__aligned_u64 reserved2[2];
};

/*
 * Resizing a user CQ (Documentation/provider.rst, "CQ resize"). The
 * kernel allocates a new ring of num_entries (the cqe asked for rounded
 * up to a power of two), copies into it the completions from the
 * request's consumer index up to its own producer index, entry i staying
 * entry i, so both indices run on unchanged; it then writes into the new
 * ring and removes the old ring's mmap() offset. The process maps the new
 * ring before it unmaps the old one. A consumer index ahead of the
 * kernel's producer index or more than the old num_entries behind it is
 * refused with EINVAL, and so is a size below the completions waiting.
 */
struct superp_resize_cq_cmd {
	__aligned_u64 comp_mask;	/* no optional fields yet: 0 */
	__u32 consumer;			/* the process's consumer index */
	__u32 reserved;
};

struct superp_resize_cq_resp {
	__aligned_u64 comp_mask;	/* no optional fields yet: 0 */
	__aligned_u64 ring_offset;	/* the new ring's mmap() offset */
	__aligned_u64 ring_size;	/* bytes to map, a multiple of pages */
	__u32 num_entries;		/* power of two, >= the cqe asked for */
	__u32 reserved;
};

/*
 * Queue pairs (Documentation/provider.rst, "Rings").
 *
 * A user QP's send queue and receive queue are rings the kernel allocates
 * at create_qp and the process maps like a CQ ring: a struct
 * superp_wq_ring followed by num_entries WQEs of stride bytes each,
 * num_entries a power of two. Indices run freely over all 32 bits.
 *
 * The process writes WQEs at its producer index, then stores producer
 * with release semantics. The kernel copies each WQE out once, checks it,
 * and stores consumer (release) when the work request has left its
 * queue: a send once it completed (or would have, when unsignalled), a
 * receive once a message took it. The process keeps producer - consumer
 * at most max_send_wr / max_recv_wr. A QP with an SRQ has no receive
 * ring (rq_size 0).
 *
 * Send: after storing producer, the process rings the doorbell, a
 * POST_SEND command with no work requests, unless the send ring's flags
 * has SUPERP_WQ_BUSY: the kernel still has work requests of this queue
 * and looks at producer again as each of them leaves it. The process
 * stores producer, then a full barrier, then reads flags; the kernel
 * clears SUPERP_WQ_BUSY when its queue runs empty, then a full barrier,
 * then reads producer, so a WQE is never left without a doorbell. Receive: no command; the
 * kernel takes receives from the ring when a message needs one. When
 * flags has SUPERP_WQ_FLUSH (the QP is in the error state), the process
 * also sends an empty POST_RECV after storing the receive producer and
 * then a full barrier, so that late receives complete flushed; the
 * kernel sets the flag, then a full barrier, then reads producer.
 */
struct superp_create_qp_cmd {
	__aligned_u64 comp_mask;	/* no optional fields yet: 0 */
};

struct superp_create_qp_resp {
	__aligned_u64 comp_mask;	/* no optional fields yet: 0 */
	__aligned_u64 sq_offset;	/* mmap() offset of the send ring */
	__aligned_u64 sq_size;		/* bytes to map, a multiple of pages */
	__aligned_u64 rq_offset;	/* mmap() offset of the receive ring */
	__aligned_u64 rq_size;		/* 0: no receive ring (SRQ) */
	__u32 sq_entries;		/* power of two, >= max_send_wr */
	__u32 sq_stride;		/* bytes per send WQE */
	__u32 rq_entries;		/* power of two, >= max_recv_wr */
	__u32 rq_stride;		/* bytes per receive WQE */
};

/* A work queue's indices, on cache lines of their own. */
struct superp_wq_ring {
	__u32 producer;			/* written by the process only */
	__u32 reserved0[15];
	__u32 consumer;			/* written by the kernel only */
	__u32 flags;			/* SUPERP_WQ_*, written by the kernel */
	__u32 reserved1[14];
	/* WQEs follow, stride bytes each */
};

/* superp_wq_ring.flags */
#define SUPERP_WQ_FLUSH		(1U << 0)	/* QP in ERR: doorbell flushes */
#define SUPERP_WQ_BUSY		(1U << 1)	/* send: no doorbell needed */

struct superp_usge {
	__aligned_u64 addr;
	__u32 length;
	__u32 lkey;
};

/*
 * A send WQE. opcode and send_flags use the values of enum ibv_wr_opcode
 * and enum ibv_send_flags (IB_UVERBS_WR_*, IB_UVERBS_SEND_*): SEND,
 * SEND_WITH_IMM, SEND_WITH_INV (RC), RDMA_WRITE, RDMA_WRITE_WITH_IMM,
 * RDMA_READ and the two atomics, and those wqe_ops announces (struct
 * superp_alloc_ucontext_resp); any other completes with IBV_WC_LOC_QP_OP_ERR and moves the QP
 * to the error state. imm_data is in network byte order. With
 * IBV_SEND_INLINE, inline_len bytes of data follow the header instead of
 * num_sge struct superp_usge.
 *
 * LOCAL_INV (SUPERP_WQE_OP_LOCAL_INV) carries the key to invalidate in
 * imm_data and no data. BIND_MW (SUPERP_WQE_OP_BIND_MW; RC, send_flags
 * FENCE and SIGNALED only) binds a memory window, type 1 (ibv_bind_mw())
 * or type 2: rkey is the window's current key, which names it, imm_data
 * the key to bind (only its low byte may differ from rkey's), bind the
 * MR by its lkey, the range and the rights (IB_UVERBS_ACCESS_*); no data
 * follows. A bind the kernel refuses completes with IBV_WC_MW_BIND_ERR
 * (Documentation/superp-verbs.rst, "Memory windows").
 *
 * A UD QP's WQE (SEND and SEND_WITH_IMM only) names its destination in
 * ud instead: the address handle by the ah_num the kernel gave at create
 * (struct superp_create_ah_resp; an AH of another PD, or none, completes
 * the WQE with IBV_WC_LOC_QP_OP_ERR), the destination QP and its Q_Key.
 */
struct superp_uwqe_send {
	__aligned_u64 wr_id;
	__u32 opcode;
	__u32 send_flags;
	__u32 num_sge;
	__u32 inline_len;
	__u32 imm_data;			/* or the rkey to invalidate */
	__u32 rkey;
	union {
		struct {
			__aligned_u64 remote_addr;
			__aligned_u64 compare_add;	/* atomics */
			__aligned_u64 swap;
		};
		struct {
			__u32 ah_num;
			__u32 remote_qpn;
			__u32 remote_qkey;
			__u32 reserved0;
			__aligned_u64 reserved1;
		} ud;
		struct {
			__aligned_u64 addr;
			__aligned_u64 length;
			__u32 mr_lkey;
			__u32 access;
		} bind;
	};
	/* struct superp_usge sge[num_sge], or inline data */
};

/* A receive WQE: num_sge struct superp_usge follow. */
struct superp_uwqe_recv {
	__aligned_u64 wr_id;
	__u32 num_sge;
	__u32 reserved;
};

/*
 * Address handles. A user AH is made by the kernel (CREATE_AH, which
 * resolves the destination as for a kernel AH) and named in UD send WQEs
 * by ah_num, valid until the AH is destroyed. As verbs requires, an AH
 * outlives the work requests that name it: the kernel looks ah_num up
 * when it takes the WQE from the ring, and a WQE whose AH is gone by
 * then completes with IBV_WC_LOC_QP_OP_ERR.
 *
 * The response has no comp_mask, unlike the others: it follows the core's
 * 4-byte CREATE_AH response, where an 8-byte field would not be aligned.
 * A field added later goes into reserved and is announced by a nonzero
 * value there, never by a larger structure.
 */
struct superp_create_ah_resp {
	__u32 ah_num;			/* from 1; 0 is never an AH */
	__u32 reserved;
};

/*
 * Shared receive queues: one receive ring, as a QP's (struct
 * superp_wq_ring, then struct superp_uwqe_recv WQEs), filled with no
 * system call; a QP of the SRQ takes its receives from it when a message
 * needs one. A WQE the kernel refuses completes in error on the CQ of the
 * QP that took it, and that QP goes to the error state.
 */
struct superp_create_srq_cmd {
	__aligned_u64 comp_mask;	/* no optional fields yet: 0 */
};

struct superp_create_srq_resp {
	__aligned_u64 comp_mask;	/* no optional fields yet: 0 */
	__aligned_u64 ring_offset;	/* mmap() offset of the ring */
	__aligned_u64 ring_size;	/* bytes to map, a multiple of pages */
	__u32 num_entries;		/* power of two, >= max_wr */
	__u32 stride;			/* bytes per receive WQE */
};

#endif /* _UAPI_RDMA_SUPERP_ABI_H */
