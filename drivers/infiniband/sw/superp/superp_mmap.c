// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: ring memory shared with a process, and the driver data of
 * the commands that make rings.
 *
 * A ring is zeroed vmalloc_user() memory, so the kernel reaches it from any
 * context (softirq included) through its kernel address, never through
 * copy_from_user(). The process maps it with mmap() of its uverbs file at
 * the offset the create response gave it (an rdma_user_mmap_entry).
 *
 * Lifetime: the mmap entry owns the memory. Destroying the object removes
 * the entry, so no new mapping can be made, and superp_mmap_free() frees
 * the memory once no mmap() call is using the entry. Pages still mapped in
 * a process stay its own until it unmaps them (remap_vmalloc_range() holds
 * a reference on each), so it reads stale but valid memory, and the
 * kernel, which drops its pointer at destroy, never writes them again.
 * No lock of our own: the RDMA core serialises entry lookups.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rdma/uverbs_ioctl.h>

#include "superp.h"
#include "superp_mmap.h"

/**
 * superp_ring_alloc - allocate @size bytes of memory to share with a process
 * @ibuc: the process's context
 * @size: bytes, rounded up to pages
 * @map: set to the mapping entry, for superp_ring_release()
 * @offset: set to the mmap() offset the process maps it at
 *
 * Return: the kernel address of the zeroed memory, or NULL.
 */
void *superp_ring_alloc(struct ib_ucontext *ibuc, size_t size,
			struct superp_ring_map **map, u64 *offset)
{
	struct superp_ring_map *m;

	size = PAGE_ALIGN(size);
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->addr = vmalloc_user(size);
	if (!m->addr)
		goto err_free;
	if (rdma_user_mmap_entry_insert(ibuc, &m->rdma, size))
		goto err_vfree;
	*map = m;
	*offset = rdma_user_mmap_get_offset(&m->rdma);
	return m->addr;

err_vfree:
	vfree(m->addr);
err_free:
	kfree(m);
	return NULL;
}

/* No new mappings; the memory goes with the last existing one. */
void superp_ring_release(struct superp_ring_map *map)
{
	if (map)
		rdma_user_mmap_entry_remove(&map->rdma);
}

/* mmap() of the uverbs file: only whole rings, only shared mappings. */
int superp_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *entry;
	struct superp_ring_map *m;
	int err;

	entry = rdma_user_mmap_entry_get(ibuc, vma);
	if (!entry)
		return -EINVAL;
	m = container_of(entry, struct superp_ring_map, rdma);
	err = remap_vmalloc_range(vma, m->addr, 0);
	rdma_user_mmap_entry_put(entry);
	return err;
}

void superp_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct superp_ring_map *m =
		container_of(entry, struct superp_ring_map, rdma);

	vfree(m->addr);
	kfree(m);
}

/**
 * superp_udata_req - the driver data of a command that makes or changes a ring
 * @ibdev: the device, for the log
 * @udata: the command's driver data
 * @req: filled in with the request
 * @len: bytes of @req required (the fields are all required)
 * @resp_len: bytes of the response the caller will write
 * @verb: the command's name, for the log
 *
 * Longer data is accepted only if the rest is zero; the comp_mask that
 * leads every request must have no bit set (none is defined yet).
 * Return: 0, -EINVAL when the request or the room for the response is
 * short, -EOPNOTSUPP for what is not understood.
 */
int superp_udata_req(struct ib_device *ibdev, struct ib_udata *udata,
		     void *req, size_t len, size_t resp_len, const char *verb)
{
	u64 comp_mask = 0;
	int err;

	if (udata->inlen < len || udata->outlen < resp_len)
		return -EINVAL;
	if (udata->inlen > len &&
	    !ib_is_udata_cleared(udata, len, udata->inlen - len)) {
		superp_refuse(ibdev, "%s: unknown trailing request data\n", verb);
		return -EOPNOTSUPP;
	}
	err = ib_copy_from_udata(req, udata, len);
	if (err)
		return err;
	memcpy(&comp_mask, req, min(len, sizeof(comp_mask)));
	if (comp_mask) {
		superp_refuse(ibdev, "%s: unknown comp_mask 0x%llx\n", verb,
			      comp_mask);
		return -EOPNOTSUPP;
	}
	return 0;
}
