/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: memory shared with a process (superp_mmap.c), the rings of
 * user CQs, QPs and SRQs, and the driver data of the commands that make
 * them.
 */
#ifndef SUPERP_MMAP_H
#define SUPERP_MMAP_H

#include <rdma/ib_verbs.h>

struct superp_ring_map {
	struct rdma_user_mmap_entry	rdma;
	void				*addr;	/* vmalloc_user(), page aligned */
};

void *superp_ring_alloc(struct ib_ucontext *ibuc, size_t size,
			struct superp_ring_map **map, u64 *offset);
void superp_ring_release(struct superp_ring_map *map);
int superp_udata_req(struct ib_device *ibdev, struct ib_udata *udata,
		     void *req, size_t len, size_t resp_len, const char *verb);

int superp_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma);
void superp_mmap_free(struct rdma_user_mmap_entry *entry);

#endif /* SUPERP_MMAP_H */
