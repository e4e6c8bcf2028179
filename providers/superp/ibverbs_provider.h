/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The provider side of libibverbs (symbol version IBVERBS_PRIVATE_34,
 * rdma-core 44), written out here because distributions ship no header for
 * it. Public types come from <infiniband/verbs.h> and the kernel's uverbs
 * headers; this file holds only the private part the provider uses.
 *
 * libibverbs reads several of these structures by layout, and nothing but
 * the symbol version guards them: every structure below must match
 * rdma-core v44.0 (libibverbs/driver.h, kern-abi.h) member for member.
 * A libibverbs with another private ABI lacks IBVERBS_PRIVATE_34, so the
 * provider then fails to load; that is when to compare this file again.
 *
 * Derived from rdma-core v44.0 libibverbs/driver.h and kern-abi.h,
 * Copyright (c) 2004, 2005 Topspin Communications, (c) 2005, 2006 Cisco
 * Systems, (c) 2005 PathScale, (c) 2020 Intel Corporation.
 */
#ifndef SUPERP_IBVERBS_PROVIDER_H
#define SUPERP_IBVERBS_PROVIDER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

/* libibverbs' list link (ccan); only its size matters to us. */
struct list_node {
	struct list_node *next;
	struct list_node *prev;
};

/* Owned by libibverbs; the provider never looks inside. */
struct verbs_sysfs_dev;

/* How an MR was made; ibv_dereg_mr() reads it back. */
enum ibv_mr_type {
	IBV_MR_TYPE_MR,
	IBV_MR_TYPE_NULL_MR,
	IBV_MR_TYPE_IMPORTED_MR,
	IBV_MR_TYPE_DMABUF_MR,
};

/*
 * The provider allocates an MR as this; ibv_cmd_reg_mr() fills in all of
 * it but the pd, addr and length of ibv_mr, which ibv_reg_mr() sets on
 * return. ibv_dereg_mr() reads mr_type and access behind the ibv_mr it is
 * given before handing the verbs_mr to the provider.
 */
struct verbs_mr {
	struct ibv_mr ibv_mr;
	enum ibv_mr_type mr_type;
	int access;
};

_Static_assert(sizeof(enum ibv_mr_type) == sizeof(int) &&
	       offsetof(struct verbs_mr, ibv_mr) == 0 &&
	       offsetof(struct verbs_mr, mr_type) == sizeof(struct ibv_mr) &&
	       offsetof(struct verbs_mr, access) ==
	       sizeof(struct ibv_mr) + sizeof(int),
	       "verbs_mr layout");

/* Only XRC QPs point at one; the provider never looks inside. */
struct verbs_xrcd;

/*
 * The provider allocates every QP as this (ibv_qp_ex begins with the
 * ibv_qp): libibverbs reaches comp_mask and xrcd behind an ibv_qp.
 */
struct verbs_qp {
	union {
		struct ibv_qp qp;
		struct ibv_qp_ex qp_ex;
	};
	uint32_t comp_mask;
	struct verbs_xrcd *xrcd;
};

/* Bits of verbs_qp.comp_mask: VERBS_QP_EX makes ibv_qp_to_qp_ex() work. */
enum {
	VERBS_QP_XRCD = 1 << 0,
	VERBS_QP_EX = 1 << 1,
};

_Static_assert(offsetof(struct ibv_qp_ex, qp_base) == 0,
	       "ibv_qp_ex begins with its ibv_qp");
_Static_assert(offsetof(struct verbs_qp, comp_mask) ==
	       sizeof(struct ibv_qp_ex) &&
	       offsetof(struct verbs_qp, xrcd) ==
	       sizeof(struct ibv_qp_ex) + sizeof(void *),
	       "verbs_qp layout");

/* Values of verbs_match_ent.kind that we use. */
enum {
	VERBS_MATCH_SENTINEL = 0,	/* ends a match table */
	VERBS_MATCH_MODALIAS = 2,	/* fnmatch() pattern in u.modalias */
};

struct verbs_match_ent {
	void *driver_data;
	union {
		const char *modalias;
		uint64_t driver_id;
	} u;
	uint16_t vendor;
	uint16_t device;
	uint8_t kind;
};

/* What a provider registers: how to match a device and open it. */
struct verbs_device_ops {
	const char *name;

	uint32_t match_min_abi_version;
	uint32_t match_max_abi_version;
	const struct verbs_match_ent *match_table;
	const struct verbs_device_ops **static_providers;

	bool (*match_device)(struct verbs_sysfs_dev *sysfs_dev);

	struct verbs_context *(*alloc_context)(struct ibv_device *device,
					       int cmd_fd, void *private_data);
	struct verbs_context *(*import_context)(struct ibv_device *device,
						int cmd_fd);

	struct verbs_device *(*alloc_device)(struct verbs_sysfs_dev *sysfs_dev);
	void (*uninit_device)(struct verbs_device *device);
};

/*
 * The provider allocates this (inside its own device struct) and
 * libibverbs fills it in; ibv_device must come first.
 */
struct verbs_device {
	struct ibv_device device;
	const struct verbs_device_ops *ops;
	atomic_int refcount;
	struct list_node entry;
	struct verbs_sysfs_dev *sysfs;
	uint64_t core_support;
};

#ifdef __LP64__
/* Sizes of the v44.0 layouts on LP64 (x86_64), worked out by hand. */
_Static_assert(sizeof(struct verbs_mr) == 56, "verbs_mr");
_Static_assert(sizeof(struct verbs_match_ent) == 24, "verbs_match_ent");
_Static_assert(sizeof(struct verbs_device_ops) == 72, "verbs_device_ops");
_Static_assert(sizeof(struct ibv_qp_ex) == 352 &&
	       sizeof(struct verbs_qp) == 368, "verbs_qp");
_Static_assert(offsetof(struct verbs_device, core_support) ==
	       sizeof(struct ibv_device) + 40 &&
	       sizeof(struct verbs_device) == sizeof(struct ibv_device) + 48,
	       "verbs_device");
#endif

/*
 * Every verb a provider may implement. verbs_set_ops() walks all of them,
 * so the full list is needed even though we fill in a few: 76 members, in
 * the order of rdma-core v44.0 (count and order checked against v44.0
 * libibverbs/driver.h). A NULL member keeps libibverbs' EOPNOTSUPP stub.
 */
struct verbs_context_ops {
	int (*advise_mr)(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
			 uint32_t flags, struct ibv_sge *sg_list,
			 uint32_t num_sges);
	struct ibv_dm *(*alloc_dm)(struct ibv_context *context,
				   struct ibv_alloc_dm_attr *attr);
	struct ibv_mw *(*alloc_mw)(struct ibv_pd *pd, enum ibv_mw_type type);
	struct ibv_mr *(*alloc_null_mr)(struct ibv_pd *pd);
	struct ibv_pd *(*alloc_parent_domain)(struct ibv_context *context,
					      struct ibv_parent_domain_init_attr *attr);
	struct ibv_pd *(*alloc_pd)(struct ibv_context *context);
	struct ibv_td *(*alloc_td)(struct ibv_context *context,
				   struct ibv_td_init_attr *init_attr);
	void (*async_event)(struct ibv_context *context,
			    struct ibv_async_event *event);
	int (*attach_counters_point_flow)(struct ibv_counters *counters,
					  struct ibv_counter_attach_attr *attr,
					  struct ibv_flow *flow);
	int (*attach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid,
			    uint16_t lid);
	int (*bind_mw)(struct ibv_qp *qp, struct ibv_mw *mw,
		       struct ibv_mw_bind *mw_bind);
	int (*close_xrcd)(struct ibv_xrcd *xrcd);
	void (*cq_event)(struct ibv_cq *cq);
	struct ibv_ah *(*create_ah)(struct ibv_pd *pd,
				    struct ibv_ah_attr *attr);
	struct ibv_counters *(*create_counters)(struct ibv_context *context,
						struct ibv_counters_init_attr *init_attr);
	struct ibv_cq *(*create_cq)(struct ibv_context *context, int cqe,
				    struct ibv_comp_channel *channel,
				    int comp_vector);
	struct ibv_cq_ex *(*create_cq_ex)(struct ibv_context *context,
					  struct ibv_cq_init_attr_ex *init_attr);
	struct ibv_flow *(*create_flow)(struct ibv_qp *qp,
					struct ibv_flow_attr *flow_attr);
	struct ibv_flow_action *(*create_flow_action_esp)(struct ibv_context *context,
							  struct ibv_flow_action_esp_attr *attr);
	struct ibv_qp *(*create_qp)(struct ibv_pd *pd,
				    struct ibv_qp_init_attr *attr);
	struct ibv_qp *(*create_qp_ex)(struct ibv_context *context,
				       struct ibv_qp_init_attr_ex *attr);
	struct ibv_rwq_ind_table *(*create_rwq_ind_table)(struct ibv_context *ctx,
							  struct ibv_rwq_ind_table_init_attr *attr);
	struct ibv_srq *(*create_srq)(struct ibv_pd *pd,
				      struct ibv_srq_init_attr *attr);
	struct ibv_srq *(*create_srq_ex)(struct ibv_context *context,
					 struct ibv_srq_init_attr_ex *attr);
	struct ibv_wq *(*create_wq)(struct ibv_context *context,
				    struct ibv_wq_init_attr *attr);
	int (*dealloc_mw)(struct ibv_mw *mw);
	int (*dealloc_pd)(struct ibv_pd *pd);
	int (*dealloc_td)(struct ibv_td *td);
	int (*dereg_mr)(struct verbs_mr *vmr);
	int (*destroy_ah)(struct ibv_ah *ah);
	int (*destroy_counters)(struct ibv_counters *counters);
	int (*destroy_cq)(struct ibv_cq *cq);
	int (*destroy_flow)(struct ibv_flow *flow);
	int (*destroy_flow_action)(struct ibv_flow_action *action);
	int (*destroy_qp)(struct ibv_qp *qp);
	int (*destroy_rwq_ind_table)(struct ibv_rwq_ind_table *table);
	int (*destroy_srq)(struct ibv_srq *srq);
	int (*destroy_wq)(struct ibv_wq *wq);
	int (*detach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid,
			    uint16_t lid);
	void (*free_context)(struct ibv_context *context);
	int (*free_dm)(struct ibv_dm *dm);
	int (*get_srq_num)(struct ibv_srq *srq, uint32_t *srq_num);
	struct ibv_dm *(*import_dm)(struct ibv_context *context,
				    uint32_t dm_handle);
	struct ibv_mr *(*import_mr)(struct ibv_pd *pd, uint32_t mr_handle);
	struct ibv_pd *(*import_pd)(struct ibv_context *context,
				    uint32_t pd_handle);
	int (*modify_cq)(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr);
	int (*modify_flow_action_esp)(struct ibv_flow_action *action,
				      struct ibv_flow_action_esp_attr *attr);
	int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			 int attr_mask);
	int (*modify_qp_rate_limit)(struct ibv_qp *qp,
				    struct ibv_qp_rate_limit_attr *attr);
	int (*modify_srq)(struct ibv_srq *srq, struct ibv_srq_attr *attr,
			  int attr_mask);
	int (*modify_wq)(struct ibv_wq *wq, struct ibv_wq_attr *attr);
	struct ibv_qp *(*open_qp)(struct ibv_context *context,
				  struct ibv_qp_open_attr *attr);
	struct ibv_xrcd *(*open_xrcd)(struct ibv_context *context,
				      struct ibv_xrcd_init_attr *attr);
	int (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
	int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			 struct ibv_recv_wr **bad_wr);
	int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr,
			 struct ibv_send_wr **bad_wr);
	int (*post_srq_ops)(struct ibv_srq *srq, struct ibv_ops_wr *op,
			    struct ibv_ops_wr **bad_op);
	int (*post_srq_recv)(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			     struct ibv_recv_wr **bad_wr);
	int (*query_device_ex)(struct ibv_context *context,
			       const struct ibv_query_device_ex_input *input,
			       struct ibv_device_attr_ex *attr,
			       size_t attr_size);
	int (*query_ece)(struct ibv_qp *qp, struct ibv_ece *ece);
	int (*query_port)(struct ibv_context *context, uint8_t port_num,
			  struct ibv_port_attr *port_attr);
	int (*query_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			int attr_mask, struct ibv_qp_init_attr *init_attr);
	int (*query_qp_data_in_order)(struct ibv_qp *qp, enum ibv_wr_opcode op,
				      uint32_t flags);
	int (*query_rt_values)(struct ibv_context *context,
			       struct ibv_values_ex *values);
	int (*query_srq)(struct ibv_srq *srq, struct ibv_srq_attr *attr);
	int (*read_counters)(struct ibv_counters *counters,
			     uint64_t *counters_value, uint32_t ncounters,
			     uint32_t flags);
	struct ibv_mr *(*reg_dm_mr)(struct ibv_pd *pd, struct ibv_dm *dm,
				    uint64_t dm_offset, size_t length,
				    unsigned int access);
	struct ibv_mr *(*reg_dmabuf_mr)(struct ibv_pd *pd, uint64_t offset,
					size_t length, uint64_t iova, int fd,
					int access);
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length,
				 uint64_t hca_va, int access);
	int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only);
	int (*rereg_mr)(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
			void *addr, size_t length, int access);
	int (*resize_cq)(struct ibv_cq *cq, int cqe);
	int (*set_ece)(struct ibv_qp *qp, struct ibv_ece *ece);
	void (*unimport_dm)(struct ibv_dm *dm);
	void (*unimport_mr)(struct ibv_mr *mr);
	void (*unimport_pd)(struct ibv_pd *pd);
};

_Static_assert(sizeof(struct verbs_context_ops) == 76 * sizeof(void (*)(void)),
	       "verbs_context_ops must have v44.0's 76 members");

/*
 * Legacy write() commands as libibverbs lays them out: the uverbs header,
 * then the kernel's core request. libibverbs also names the core fields
 * directly through an anonymous union with core_payload; the provider never
 * touches them, so core_payload alone gives the same layout. Driver data
 * follows at sizeof() of the command.
 */
struct ibv_get_context {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_get_context core_payload;
};

struct ibv_query_port {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_query_port core_payload;
};

struct ibv_alloc_pd {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_alloc_pd core_payload;
};

struct ibv_reg_mr {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_reg_mr core_payload;
};

struct ibv_rereg_mr {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_rereg_mr core_payload;
};

struct ibv_alloc_mw {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_alloc_mw core_payload;
};

struct ibv_create_cq {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_create_cq core_payload;
};

struct ibv_resize_cq {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_resize_cq core_payload;
};

/* Extended commands: the header gains the extended part. */
struct ex_hdr {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_ex_cmd_hdr ex_hdr;
};

struct ibv_create_cq_ex {
	struct ex_hdr hdr;
	struct ib_uverbs_ex_create_cq core_payload;
};

_Static_assert(offsetof(struct ibv_create_cq_ex, core_payload) ==
	       sizeof(struct ex_hdr) &&
	       sizeof(struct ibv_create_cq_ex) ==
	       sizeof(struct ex_hdr) + sizeof(struct ib_uverbs_ex_create_cq),
	       "ibv_create_cq_ex has padding");

struct ibv_create_qp {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_create_qp core_payload;
};

struct ibv_modify_qp {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_modify_qp core_payload;
};

struct ibv_query_qp {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_query_qp core_payload;
};

struct ibv_create_srq {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_create_srq core_payload;
};

struct ibv_modify_srq {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_modify_srq core_payload;
};

struct ibv_query_srq {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_query_srq core_payload;
};

#define CHECK_CMD_LAYOUT(cmd, core)					\
	_Static_assert(offsetof(struct cmd, core_payload) ==		\
		       sizeof(struct ib_uverbs_cmd_hdr) &&		\
		       sizeof(struct cmd) ==				\
		       sizeof(struct ib_uverbs_cmd_hdr) + sizeof(struct core), \
		       #cmd " has padding")
CHECK_CMD_LAYOUT(ibv_get_context, ib_uverbs_get_context);
CHECK_CMD_LAYOUT(ibv_query_port, ib_uverbs_query_port);
CHECK_CMD_LAYOUT(ibv_alloc_pd, ib_uverbs_alloc_pd);
CHECK_CMD_LAYOUT(ibv_reg_mr, ib_uverbs_reg_mr);
CHECK_CMD_LAYOUT(ibv_rereg_mr, ib_uverbs_rereg_mr);
CHECK_CMD_LAYOUT(ibv_alloc_mw, ib_uverbs_alloc_mw);
CHECK_CMD_LAYOUT(ibv_create_cq, ib_uverbs_create_cq);
CHECK_CMD_LAYOUT(ibv_resize_cq, ib_uverbs_resize_cq);
CHECK_CMD_LAYOUT(ibv_create_qp, ib_uverbs_create_qp);
CHECK_CMD_LAYOUT(ibv_modify_qp, ib_uverbs_modify_qp);
CHECK_CMD_LAYOUT(ibv_query_qp, ib_uverbs_query_qp);
CHECK_CMD_LAYOUT(ibv_create_srq, ib_uverbs_create_srq);
CHECK_CMD_LAYOUT(ibv_modify_srq, ib_uverbs_modify_srq);
CHECK_CMD_LAYOUT(ibv_query_srq, ib_uverbs_query_srq);
#undef CHECK_CMD_LAYOUT

/*
 * What a provider allocates (inside its own CQ struct) for a CQ that
 * ibv_create_cq_ex() may return: both views of one object.
 */
struct verbs_cq {
	union {
		struct ibv_cq cq;
		struct ibv_cq_ex cq_ex;
	};
};

/* The registration symbol carries the private ABI number in its name. */
void verbs_register_driver_34(const struct verbs_device_ops *ops);

/*
 * Allocates alloc_size bytes and initialises the verbs_context found at
 * byte offset (uintptr_t)context_offset in them. On failure it closes
 * cmd_fd, sets errno and returns NULL.
 */
void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd,
				    size_t alloc_size,
				    struct verbs_context *context_offset,
				    uint32_t driver_id);
void verbs_uninit_context(struct verbs_context *context);
void verbs_set_ops(struct verbs_context *vctx,
		   const struct verbs_context_ops *ops);

/* Levels of __verbs_log(); printed up to $VERBS_LOG_LEVEL. */
enum {
	VERBS_LOG_ERR = 1,
};

void __verbs_log(struct verbs_context *ctx, uint32_t level,
		 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The ibv_cmd_*() helpers return 0 or a positive errno value. */
int ibv_cmd_get_context(struct verbs_context *context,
			struct ibv_get_context *cmd, size_t cmd_size,
			struct ib_uverbs_get_context_resp *resp,
			size_t resp_size);
int ibv_cmd_query_device_any(struct ibv_context *context,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t attr_size,
			     struct ib_uverbs_ex_query_device_resp *resp,
			     size_t *resp_size);
int ibv_cmd_query_port(struct ibv_context *context, uint8_t port_num,
		       struct ibv_port_attr *port_attr,
		       struct ibv_query_port *cmd, size_t cmd_size);
int ibv_cmd_alloc_pd(struct ibv_context *context, struct ibv_pd *pd,
		     struct ibv_alloc_pd *cmd, size_t cmd_size,
		     struct ib_uverbs_alloc_pd_resp *resp, size_t resp_size);
int ibv_cmd_dealloc_pd(struct ibv_pd *pd);
/*
 * Fills in the REG_MR command (start, length, hca_va, pd_handle,
 * access_flags) and on success vmr's handle, keys, context, mr_type and
 * access; cmd_size and resp_size count any driver data after them.
 */
int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
		   uint64_t hca_va, int access, struct verbs_mr *vmr,
		   struct ibv_reg_mr *cmd, size_t cmd_size,
		   struct ib_uverbs_reg_mr_resp *resp, size_t resp_size);
int ibv_cmd_dereg_mr(struct verbs_mr *vmr);
/*
 * Fills in the REREG_MR command (handle, flags, start, length, hca_va,
 * pd_handle with IBV_REREG_MR_CHANGE_PD, access) and on success vmr's
 * keys (and context with a new PD).
 */
int ibv_cmd_rereg_mr(struct verbs_mr *vmr, uint32_t flags, void *addr,
		     size_t length, uint64_t hca_va, int access,
		     struct ibv_pd *pd, struct ibv_rereg_mr *cmd,
		     size_t cmd_sz, struct ib_uverbs_rereg_mr_resp *resp,
		     size_t resp_sz);
/*
 * Fills in the ALLOC_MW command (pd_handle, mw_type) and on success mw's
 * context, pd, rkey, handle and type.
 */
int ibv_cmd_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type,
		     struct ibv_mw *mw, struct ibv_alloc_mw *cmd,
		     size_t cmd_size,
		     struct ib_uverbs_alloc_mw_resp *resp, size_t resp_size);
int ibv_cmd_dealloc_mw(struct ibv_mw *mw);
/*
 * Fills in the CREATE_CQ command (user_handle, cqe, comp_vector,
 * comp_channel) and on success cq->handle and cq->cqe; cmd_size and
 * resp_size count any driver data after them.
 */
int ibv_cmd_create_cq(struct ibv_context *context, int cqe,
		      struct ibv_comp_channel *channel, int comp_vector,
		      struct ibv_cq *cq, struct ibv_create_cq *cmd,
		      size_t cmd_size, struct ib_uverbs_create_cq_resp *resp,
		      size_t resp_size);
/*
 * The same through the extended command (cq_attr's cqe, channel,
 * comp_vector; its wc_flags and flags only for timestamps and overrun),
 * filling in cq->cq. cmd_flags: 0.
 */
int ibv_cmd_create_cq_ex(struct ibv_context *context,
			 const struct ibv_cq_init_attr_ex *cq_attr,
			 struct verbs_cq *cq, struct ibv_create_cq_ex *cmd,
			 size_t cmd_size,
			 struct ib_uverbs_ex_create_cq_resp *resp,
			 size_t resp_size, uint32_t cmd_flags);
/* Fills in cq_handle and cqe, and on success sets cq->cqe from resp. */
int ibv_cmd_resize_cq(struct ibv_cq *cq, int cqe, struct ibv_resize_cq *cmd,
		      size_t cmd_size, struct ib_uverbs_resize_cq_resp *resp,
		      size_t resp_size);
int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only);
int ibv_cmd_destroy_cq(struct ibv_cq *cq);
/*
 * Fills in the CREATE_QP command from pd and attr and on success qp's
 * handle, qp_num, context, pd, CQs, SRQ, type and state, and attr->cap
 * with what the kernel granted; driver data as for CREATE_CQ.
 */
int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp,
		      struct ibv_qp_init_attr *attr,
		      struct ibv_create_qp *cmd, size_t cmd_size,
		      struct ib_uverbs_create_qp_resp *resp, size_t resp_size);
/*
 * The same from ibv_create_qp_ex's attributes (comp_mask PD, XRCD or
 * SEND_OPS_FLAGS, else EINVAL) into a verbs_qp, whose comp_mask it
 * clears; attr_ex->cap gets what the kernel granted.
 */
int ibv_cmd_create_qp_ex(struct ibv_context *context, struct verbs_qp *qp,
			 struct ibv_qp_init_attr_ex *attr_ex,
			 struct ibv_create_qp *cmd, size_t cmd_size,
			 struct ib_uverbs_create_qp_resp *resp,
			 size_t resp_size);
int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *qp_attr,
		     int attr_mask, struct ibv_qp_init_attr *qp_init_attr,
		     struct ibv_query_qp *cmd, size_t cmd_size);
int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		      int attr_mask, struct ibv_modify_qp *cmd,
		      size_t cmd_size);
int ibv_cmd_destroy_qp(struct ibv_qp *qp);
int ibv_cmd_create_srq(struct ibv_pd *pd, struct ibv_srq *srq,
		       struct ibv_srq_init_attr *attr,
		       struct ibv_create_srq *cmd, size_t cmd_size,
		       struct ib_uverbs_create_srq_resp *resp,
		       size_t resp_size);
int ibv_cmd_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
		       int srq_attr_mask, struct ibv_modify_srq *cmd,
		       size_t cmd_size);
int ibv_cmd_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
		      struct ibv_query_srq *cmd, size_t cmd_size);
int ibv_cmd_destroy_srq(struct ibv_srq *srq);
int ibv_cmd_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad_wr);
int ibv_cmd_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad_wr);

/*
 * Sends the core CREATE_AH command from pd and attr (no driver data in
 * the request) and on success sets ah->handle and ah->context;
 * resp_size counts the driver data the kernel may write after the core
 * response. ibv_create_ah() sets the AH's context and pd on return.
 */
int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah,
		      struct ibv_ah_attr *attr,
		      struct ib_uverbs_create_ah_resp *resp,
		      size_t resp_size);
int ibv_cmd_destroy_ah(struct ibv_ah *ah);

#endif /* SUPERP_IBVERBS_PROVIDER_H */
