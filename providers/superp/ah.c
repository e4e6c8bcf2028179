// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: address handles, for UD QPs. The kernel makes each AH
 * (CREATE_AH resolves the destination as for a kernel AH) and gives it a
 * number, ah_num, which UD send WQEs carry instead of an address; the
 * provider keeps nothing else. The kernel looks the number up when it
 * takes a WQE from the ring: as verbs requires, an AH outlives the work
 * requests that name it, and a WQE whose AH is gone by then completes
 * with IBV_WC_LOC_QP_OP_ERR.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "superp.h"

struct ibv_ah *superp_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct superp_create_ah_resp_drv resp = {};
	struct superp_create_ah_resp drv;
	struct superp_ah *ah;
	int err;

	ah = calloc(1, sizeof(*ah));
	if (!ah) {
		errno = ENOMEM;
		return NULL;
	}
	err = ibv_cmd_create_ah(pd, &ah->ibah, attr, &resp.ibv_resp,
				sizeof(resp));
	if (err) {
		free(ah);
		errno = err;
		return NULL;
	}
	memcpy(&drv, resp.drv, sizeof(drv));
	ah->ah_num = drv.ah_num;
	return &ah->ibah;
}

/* Only freed once the kernel has let go of it, as for QPs. */
int superp_destroy_ah(struct ibv_ah *ibah)
{
	int err;

	err = ibv_cmd_destroy_ah(ibah);
	if (err)
		return err;
	free(to_sah(ibah));
	return 0;
}
