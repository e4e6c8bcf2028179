/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: memory regions (superp_mr.c): the device's MR table and key
 * lookup, the MR verbs, fast registration.
 */
#ifndef SUPERP_MR_H
#define SUPERP_MR_H

#include "superp.h"

/* superp_mr.c: the MR table and key lookup (rules at the top of the file) */
int superp_mr_table_init(struct superp_mr_table *t);
void superp_mr_table_destroy(struct superp_mr_table *t);
int superp_mr_publish(struct superp_mr_table *t, struct superp_mr *mr);
void superp_mr_unpublish(struct superp_mr_table *t, struct superp_mr *mr);
void superp_mr_replace(struct superp_mr_table *t, struct superp_mr *old,
		       struct superp_mr *mr);
void superp_mr_wait_unused(struct superp_mr *mr);
struct superp_mr *superp_mr_get(struct superp_mr_table *t, u32 key);
void superp_mr_put(struct superp_mr *mr);
bool superp_lkey_is_local_dma(const struct ib_pd *pd, u32 lkey);

/* superp_mr.c: memory windows' entries in the table (superp_mw.c) */
int superp_mr_end_binds(struct superp_mr *mr);
u32 superp_mr_key_unused(u32 key);
int superp_mr_table_add_mw(struct superp_mr_table *t, void *mw, u32 *key,
			   u32 *unused);
void superp_mr_table_del_mw(struct superp_mr_table *t, u32 key);
void *superp_mr_table_mw(struct superp_mr_table *t, u32 key);

/* superp_mr.c: verbs */
struct ib_mr *superp_get_dma_mr(struct ib_pd *ibpd, int access);
struct ib_mr *superp_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				 u64 iova, int access, struct ib_udata *udata);
int superp_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
struct ib_mr *superp_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				   u64 length, u64 iova, int access,
				   struct ib_pd *ibpd, struct ib_udata *udata);

/* superp_mr.c: fast-registration MRs (FRWR) and their work requests */
struct ib_mr *superp_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			      u32 max_num_sg);
int superp_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		     unsigned int *sg_offset);
int superp_mr_check_reg_wr(struct ib_pd *pd, const struct ib_reg_wr *wr);
enum ib_wc_status superp_mr_fast_reg(struct superp_mr_table *t,
				     struct ib_pd *pd, u32 key, int access);
enum ib_wc_status superp_mr_local_inv(struct superp_mr_table *t,
				      struct ib_pd *pd, u32 key);

#endif /* SUPERP_MR_H */
