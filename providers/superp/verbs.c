// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: the verbs. Queries and PDs need no driver data, so they are the
 * plain uverbs commands.
 */
#include <errno.h>
#include <stdlib.h>

#include "superp.h"

int superp_query_device_ex(struct ibv_context *ibctx,
			   const struct ibv_query_device_ex_input *input,
			   struct ibv_device_attr_ex *attr, size_t attr_size)
{
	return ibv_cmd_query_device_any(ibctx, input, attr, attr_size,
					NULL, NULL);
}

int superp_query_port(struct ibv_context *ibctx, uint8_t port_num,
		      struct ibv_port_attr *attr)
{
	struct ibv_query_port cmd = {};

	return ibv_cmd_query_port(ibctx, port_num, attr, &cmd, sizeof(cmd));
}

struct ibv_pd *superp_alloc_pd(struct ibv_context *ibctx)
{
	struct ib_uverbs_alloc_pd_resp resp = {};
	struct ibv_alloc_pd cmd = {};
	struct ibv_pd *pd;
	int err;

	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return NULL;

	err = ibv_cmd_alloc_pd(ibctx, pd, &cmd, sizeof(cmd),
			       &resp, sizeof(resp));
	if (err) {
		free(pd);
		errno = err;
		return NULL;
	}
	return pd;
}

/* The PD is only freed once the kernel has let go of it. */
int superp_dealloc_pd(struct ibv_pd *pd)
{
	int err;

	err = ibv_cmd_dealloc_pd(pd);
	if (err)
		return err;
	free(pd);
	return 0;
}
