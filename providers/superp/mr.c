// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: memory regions. ib_superp wants no driver data with REG_MR, so
 * registration is the plain uverbs command; the kernel pins the pages and
 * picks the keys.
 */
#include <errno.h>
#include <stdlib.h>

#include "superp.h"

/*
 * ibv_reg_mr() and friends. libibverbs fills in the pd, addr and length of
 * the returned ibv_mr itself; everything else comes from the kernel.
 */
struct ibv_mr *superp_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			     uint64_t hca_va, int access)
{
	struct ib_uverbs_reg_mr_resp resp = {};
	struct ibv_reg_mr cmd = {};
	struct verbs_mr *vmr;
	int err;

	vmr = calloc(1, sizeof(*vmr));
	if (!vmr) {
		errno = ENOMEM;
		return NULL;
	}

	err = ibv_cmd_reg_mr(pd, addr, length, hca_va, access, vmr,
			     &cmd, sizeof(cmd), &resp, sizeof(resp));
	if (err) {
		free(vmr);
		errno = err;
		return NULL;
	}
	return &vmr->ibv_mr;
}

/*
 * ibv_rereg_mr(): the plain command. ib_superp changes the access flags
 * and keeps the keys; a new translation or PD it refuses (EOPNOTSUPP).
 * libibverbs sets the pd, addr and length of the ibv_mr on success.
 */
int superp_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		    void *addr, size_t length, int access)
{
	struct ib_uverbs_rereg_mr_resp resp = {};
	struct ibv_rereg_mr cmd = {};
	int err;

	err = ibv_cmd_rereg_mr(vmr, flags, addr, length, (uintptr_t)addr,
			       access, pd, &cmd, sizeof(cmd), &resp,
			       sizeof(resp));
	if (err)
		errno = err;
	return err;
}

/*
 * ibv_dereg_mr(). If the kernel still holds the MR, the caller keeps a
 * valid ibv_mr and may try again, so it is only freed on success.
 */
int superp_dereg_mr(struct verbs_mr *vmr)
{
	int err;

	err = ibv_cmd_dereg_mr(vmr);
	if (err) {
		errno = err;
		return err;
	}
	free(vmr);
	return 0;
}
