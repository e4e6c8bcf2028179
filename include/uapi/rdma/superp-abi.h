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
	__aligned_u64 comp_mask;	/* no optional fields yet: 0 */
	__u32 abi_version;		/* SUPERP_UVERBS_ABI_VERSION */
	__u32 reserved;
};

#endif /* _UAPI_RDMA_SUPERP_ABI_H */
