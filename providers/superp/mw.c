// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * superp: memory windows, type 1 and type 2 (ib_superp offers 2B: a type
 * 2 window is usable only through the QP that bound it). Alloc and dealloc
 * are the plain uverbs commands; binding is a send WQE (superp-abi.h), for
 * type 2 posted by the consumer (IBV_WR_BIND_MW, ibv_wr_bind_mw()), for
 * type 1 by ibv_bind_mw(), which posts one on the QP it is given. The
 * kernel checks every bind when it runs and completes a refused one with
 * IBV_WC_MW_BIND_ERR; what is checked here is only what writing the WQE
 * needs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "superp.h"

/* Rights a window grants (local write is accepted and means nothing). */
#define SUPERP_MW_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			  IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)

struct ibv_mw *superp_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	struct ib_uverbs_alloc_mw_resp resp = {};
	struct ibv_alloc_mw cmd = {};
	struct ibv_mw *mw;
	int err;

	mw = calloc(1, sizeof(*mw));
	if (!mw) {
		errno = ENOMEM;
		return NULL;
	}
	/* The kernel judges the type: EINVAL for one verbs does not have. */
	err = ibv_cmd_alloc_mw(pd, type, mw, &cmd, sizeof(cmd), &resp,
			       sizeof(resp));
	if (err) {
		free(mw);
		errno = err;
		return NULL;
	}
	return mw;
}

/* Allowed while bound: the binding goes with it. */
int superp_dealloc_mw(struct ibv_mw *mw)
{
	int err;

	err = ibv_cmd_dealloc_mw(mw);
	if (err) {
		errno = err;
		return err;
	}
	free(mw);
	return 0;
}

/*
 * A BIND_MW WQE for window @mw with key @rkey (only its low byte may differ
 * from the window's) over @info. EINVAL for what the kernel would never
 * take (zero-based windows, unknown rights, a kernel without binds).
 */
int superp_wqe_bind(struct ibv_context *ibctx, struct superp_uwqe_send *u,
		    struct ibv_mw *mw, uint32_t rkey,
		    const struct ibv_mw_bind_info *info)
{
	int err = EINVAL;

	if (!(to_sctx(ibctx)->wqe_ops & SUPERP_WQE_OP_BIND_MW) || !mw ||
	    info->mw_access_flags & ~SUPERP_MW_ACCESS ||
	    (!info->mr && info->length))
		return err;
	u->opcode = IBV_WR_BIND_MW;
	u->rkey = mw->rkey;
	u->imm_data = rkey;
	u->bind.addr = info->addr;
	u->bind.length = info->length;
	u->bind.mr_lkey = info->mr ? info->mr->lkey : 0;
	u->bind.access = info->mw_access_flags;
	return 0;
}

/*
 * ibv_bind_mw() (type 1; libibverbs has checked the type and the PDs): a
 * bind WQE with the window's next key, posted alone. The window's rkey is
 * the new key from now on, as verbs specifies; if the bind completes in
 * error, the caller knows the key was not bound.
 */
int superp_bind_mw(struct ibv_qp *ibqp, struct ibv_mw *mw,
		   struct ibv_mw_bind *mw_bind)
{
	struct ibv_send_wr wr = {
		.wr_id = mw_bind->wr_id,
		.opcode = IBV_WR_BIND_MW,
		.send_flags = mw_bind->send_flags,
	};
	struct ibv_send_wr *bad;
	int err;

	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info = mw_bind->bind_info;
	err = superp_post_send(ibqp, &wr, &bad);
	if (err)
		return err;
	mw->rkey = wr.bind_mw.rkey;
	return 0;
}
