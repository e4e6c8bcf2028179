// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: queue pairs, their numbers and their state machine.
 *
 * RC QPs (superp_rc_*.c), UD QPs and QP1, the GSI QP of the IB core's MAD
 * layer (superp_ud.c); no SMI (QP0), which RoCE-style ports lack. Work
 * queues and flushing are in superp_queue.c, posting in
 * superp_post.c; the rings a user QP shares with its process in
 * superp_uqp.c.
 *
 * State machine. modify_qp accepts exactly the transitions and attribute
 * masks of the IB specification (ib_modify_qp_is_ok() for RC), validates
 * every attribute before it changes anything, then applies them all
 * (the masks of the QP's own type: UD and GSI QPs have a Q_Key and no
 * path or PSN to the peer):
 *
 *   RESET -> INIT -> RTR -> RTS <-> SQD;  any -> RESET, any -> ERR.
 *
 * RC never enters SQE: a send error takes an RC QP to ERR, as the verbs
 * require. Entering ERR (by modify_qp or by superp_qp_error() from the data
 * path) flushes every outstanding WR of both queues; entering RESET
 * discards them without completions. SQD stops the data path taking new
 * send WRs; once those it took have completed, IB_EVENT_SQ_DRAINED is
 * raised (if asked for with en_sqd_async_notify).
 *
 * Interface for the data path:
 *  - superp_qp_get(sdev, qpn) / superp_qp_put(qp): find a QP by number from
 *    any context (RCU, takes a reference). destroy_qp unpublishes the QP and
 *    waits for the last reference before freeing its queues.
 *  - qp->type->bind(qp): called on INIT->RTR with qp->av resolved; RC
 *    finds the connection for av.daddr and the traffic class and stores
 *    it in qp->conn, failing RTR (-ENOTCONN, with one rate-limited line
 *    naming the `superp conn add` that would fix it) when there is none
 *    (superp_rc_bind.c). qp->type->unbind(qp) undoes it on RESET and
 *    destroy.
 *  - superp_qp_error(qp): the QP broke (fatal transport error, retries
 *    exhausted, remote error): ERR, flush, IB_EVENT_QP_FATAL.
 *  - the send and receive queue functions of superp_queue.c.
 *
 * QP numbers come from a per-device xarray, cyclically in [2, 2^24): never
 * 0 or 1 (the special QPs of IB; QP1 is the GSI QP's), and a number comes back only after the
 * whole space has been used, so a late packet does not find a new QP.
 *
 * Locking: qp->mutex serialises modify, query and destroy (process
 * context). qp->state is written with both queue locks held (irqsave, as
 * in superp_queue.c) so that either lock suffices to read it. The QP table
 * is an xarray with its own lock; lookups take none. Events are raised
 * with no queue lock held. Lock order: the top of superp_rc_bind.c.
 */
#include <kunit/visibility.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>

#include "superp.h"
#include "superp_cq.h"
#include "superp_qp.h"
#include "superp_srq.h"

#define SUPERP_QPN_MIN	2
#define SUPERP_QPN_MAX	0xffffff

#define SUPERP_QP_ACCESS (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			  IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC)

/* Raises @type on @qp with no driver lock held. */
void superp_qp_event(struct superp_qp *qp, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = type,
	};

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

static int superp_qp_check_caps(struct superp_dev *sdev,
				const struct ib_qp_init_attr *init)
{
	const struct ib_qp_cap *cap = &init->cap;

	if (cap->max_send_wr > SUPERP_MAX_QP_WR ||
	    cap->max_send_sge > SUPERP_MAX_SGE ||
	    cap->max_inline_data > SUPERP_MAX_INLINE)
		return -EINVAL;
	/* With an SRQ the receive capabilities are ignored. */
	if (!init->srq && (cap->max_recv_wr > SUPERP_MAX_QP_WR ||
			   cap->max_recv_sge > SUPERP_MAX_SGE))
		return -EINVAL;
	return 0;
}

int superp_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		     struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibqp->device);
	struct superp_qp *qp = to_sqp(ibqp);
	struct ib_qp_cap *cap = &init->cap;
	size_t sq_size;
	u32 qpn;
	int err;

	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UD &&
	    init->qp_type != IB_QPT_GSI) {
		superp_refuse(ibqp->device,
			      "create_qp: QP type %d not supported (RC, UD and GSI)\n",
			      init->qp_type);
		return -EOPNOTSUPP;
	}
	if (init->qp_type == IB_QPT_GSI && udata)
		return -EINVAL;
	if (init->create_flags) {
		superp_refuse(ibqp->device, "create_qp: unsupported create_flags 0x%x\n",
			      init->create_flags);
		return -EOPNOTSUPP;
	}
	if (init->sq_sig_type != IB_SIGNAL_ALL_WR &&
	    init->sq_sig_type != IB_SIGNAL_REQ_WR)
		return -EINVAL;
	err = superp_qp_check_caps(sdev, init);
	if (err)
		return err;
	if (atomic_inc_return(&sdev->qp_count) > SUPERP_MAX_QP) {
		err = -ENOMEM;
		goto err_count;
	}

	/* The inline area is the SGE area: report the room there is. */
	sq_size = superp_send_wqe_size(cap->max_send_sge, cap->max_inline_data);
	err = superp_wq_init(&qp->sq, cap->max_send_wr, sq_size);
	if (err)
		goto err_count;
	qp->sq.max_sge = cap->max_send_sge;
	qp->sq.max_inline = sq_size - sizeof(struct superp_send_wqe);
	if (init->srq) {
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
	}
	err = superp_wq_init(&qp->rq, cap->max_recv_wr,
			     superp_recv_wqe_size(cap->max_recv_sge));
	if (err)
		goto err_sq;
	qp->rq.max_sge = cap->max_recv_sge;
	cap->max_inline_data = qp->sq.max_inline;

	mutex_init(&qp->mutex);
	qp->type = init->qp_type == IB_QPT_RC ? sdev->qp_rc : sdev->qp_ud;
	qp->state = IB_QPS_RESET;
	qp->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->serial = atomic64_inc_return(&sdev->qp_serial);
	qp->srq = init->srq ? to_ssrq(init->srq) : NULL;
	refcount_set(&qp->ref, 1);
	init_completion(&qp->unused);
	if (qp->type->create) {
		err = qp->type->create(qp);
		if (err)
			goto err_rq;
	}
	if (udata) {
		err = superp_uqp_create(qp, udata);
		if (err)
			goto err_type;
	}

	/* Published complete: lookups may find it from here on. */
	if (init->qp_type == IB_QPT_GSI) {
		qpn = 1;
		err = xa_insert(&sdev->qps, qpn, qp, GFP_KERNEL);
	} else {
		err = xa_alloc_cyclic(&sdev->qps, &qpn, qp,
				      XA_LIMIT(SUPERP_QPN_MIN, SUPERP_QPN_MAX),
				      &sdev->qpn_next, GFP_KERNEL);
	}
	if (err < 0)
		goto err_uqp;
	ibqp->qp_num = qpn;
	return 0;

err_uqp:
	superp_uqp_destroy(qp);
err_type:
	if (qp->type->destroy)
		qp->type->destroy(qp);
err_rq:
	superp_wq_free(&qp->rq);
err_sq:
	superp_wq_free(&qp->sq);
err_count:
	atomic_dec(&sdev->qp_count);
	return err;
}

/**
 * superp_qp_get - find a QP by number and hold it
 * @sdev: the device
 * @qpn: the QP number, as a peer names it
 *
 * Any context. Return: the QP, to be released with superp_qp_put(), or NULL.
 */
struct superp_qp *superp_qp_get(struct superp_dev *sdev, u32 qpn)
{
	struct superp_qp *qp;

	rcu_read_lock();
	qp = xa_load(&sdev->qps, qpn);
	if (qp && !refcount_inc_not_zero(&qp->ref))
		qp = NULL;
	rcu_read_unlock();
	return qp;
}
EXPORT_SYMBOL_IF_KUNIT(superp_qp_get);

void superp_qp_put(struct superp_qp *qp)
{
	if (refcount_dec_and_test(&qp->ref))
		complete(&qp->unused);
}
EXPORT_SYMBOL_IF_KUNIT(superp_qp_put);

/* Under both queue locks. */
static void superp_qp_set_state(struct superp_qp *qp, enum ib_qp_state state)
{
	WRITE_ONCE(qp->state, state);
	if (state == IB_QPS_SQD)
		qp->sq_drained = false;
}

static void superp_qp_lock(struct superp_qp *qp, unsigned long *flags)
	__acquires(&qp->sq.lock) __acquires(&qp->rq.lock)
{
	spin_lock_irqsave(&qp->sq.lock, *flags);
	spin_lock_nested(&qp->rq.lock, SINGLE_DEPTH_NESTING);
}

static void superp_qp_unlock(struct superp_qp *qp, unsigned long flags)
	__releases(&qp->rq.lock) __releases(&qp->sq.lock)
{
	spin_unlock(&qp->rq.lock);
	spin_unlock_irqrestore(&qp->sq.lock, flags);
}

/**
 * superp_qp_error - move @qp to ERR because the transport broke
 * @qp: the QP
 *
 * Any context, no QP lock held. Flushes both queues and raises
 * IB_EVENT_QP_FATAL, once: a QP already in ERR or RESET is left alone.
 */
void superp_qp_error(struct superp_qp *qp)
{
	unsigned long flags;
	bool was_live;

	superp_qp_lock(qp, &flags);
	was_live = qp->state != IB_QPS_ERR && qp->state != IB_QPS_RESET;
	if (was_live)
		superp_qp_set_state(qp, IB_QPS_ERR);
	superp_qp_unlock(qp, flags);
	if (!was_live)
		return;
	superp_qp_flush(qp);
	superp_qp_event(qp, IB_EVENT_QP_FATAL);
}
EXPORT_SYMBOL_IF_KUNIT(superp_qp_error);

/* Every attribute of @mask that ib_modify_qp_is_ok() let through, checked. */
static int superp_qp_check_attr(struct superp_qp *qp,
				const struct ib_qp_attr *attr, int mask,
				struct superp_av *av)
{
	struct superp_dev *sdev = to_sdev(qp->ibqp.device);
	struct ib_device *ibdev = &sdev->ibdev;

	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~SUPERP_QP_ACCESS)) {
		ibdev_dbg(ibdev, "modify_qp: access flags 0x%x unknown\n",
			  attr->qp_access_flags & ~SUPERP_QP_ACCESS);
		return -EINVAL;
	}
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= SUPERP_MAX_PKEYS)
		return -EINVAL;
	if ((mask & IB_QP_PORT) && attr->port_num != SUPERP_PORT)
		return -EINVAL;
	if (mask & IB_QP_PATH_MTU) {
		enum ib_mtu active = superp_active_mtu(READ_ONCE(sdev->ndev->mtu));

		if (attr->path_mtu < IB_MTU_256 || attr->path_mtu > active) {
			ibdev_dbg(ibdev, "modify_qp: path_mtu %d above the port's active MTU %d\n",
				  ib_mtu_enum_to_int(attr->path_mtu),
				  ib_mtu_enum_to_int(active));
			return -EINVAL;
		}
	}
	if ((mask & IB_QP_DEST_QPN) && attr->dest_qp_num > SUPERP_QPN_MAX)
		return -EINVAL;
	if ((mask & IB_QP_RQ_PSN) && attr->rq_psn > 0xffffff)
		return -EINVAL;
	if ((mask & IB_QP_SQ_PSN) && attr->sq_psn > 0xffffff)
		return -EINVAL;
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > SUPERP_MAX_RD_ATOM)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > SUPERP_MAX_RD_ATOM)
		return -EINVAL;
	if (mask & IB_QP_ALT_PATH) {
		superp_refuse(ibdev, "modify_qp: no alternate paths\n");
		return -EOPNOTSUPP;
	}
	if ((mask & IB_QP_PATH_MIG_STATE) &&
	    attr->path_mig_state != IB_MIG_MIGRATED) {
		superp_refuse(ibdev, "modify_qp: no path migration\n");
		return -EOPNOTSUPP;
	}
	if (mask & IB_QP_AV)
		return superp_av_from_attr(sdev, &attr->ah_attr, av);
	return 0;
}

/* The attributes query_qp returns; the sgid_attr is the core's to hold. */
static void superp_qp_store_attr(struct superp_qp *qp,
				 const struct ib_qp_attr *attr, int mask)
{
	struct ib_qp_attr *a = &qp->attr;

	if (mask & IB_QP_ACCESS_FLAGS)
		a->qp_access_flags = attr->qp_access_flags;
	/* QP1's is IB_QP1_QKEY, whatever the MAD layer sets. */
	if ((mask & IB_QP_QKEY) && qp->ibqp.qp_type != IB_QPT_GSI)
		WRITE_ONCE(a->qkey, attr->qkey);
	if (mask & IB_QP_PKEY_INDEX)
		a->pkey_index = attr->pkey_index;
	if (mask & IB_QP_PORT)
		a->port_num = attr->port_num;
	if (mask & IB_QP_PATH_MTU)
		a->path_mtu = attr->path_mtu;
	if (mask & IB_QP_DEST_QPN)
		a->dest_qp_num = attr->dest_qp_num;
	if (mask & IB_QP_RQ_PSN)
		a->rq_psn = attr->rq_psn;
	if (mask & IB_QP_SQ_PSN)
		a->sq_psn = attr->sq_psn;
	if (mask & IB_QP_TIMEOUT)
		a->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		a->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		a->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_MIN_RNR_TIMER)
		a->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		a->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_PATH_MIG_STATE)
		a->path_mig_state = attr->path_mig_state;
	if (mask & IB_QP_EN_SQD_ASYNC_NOTIFY)
		a->en_sqd_async_notify = attr->en_sqd_async_notify;
	if (mask & IB_QP_AV) {
		a->ah_attr = attr->ah_attr;
		a->ah_attr.grh.sgid_attr = NULL;
	}
}

int superp_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		     struct ib_udata *udata)
{
	struct superp_qp *qp = to_sqp(ibqp);
	enum ib_qp_state cur, new;
	bool flush = false, drained = false;
	struct superp_av av = {};
	unsigned long flags;
	int err;

	if (udata && (udata->inlen || udata->outlen) &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen)) {
		superp_refuse(ibqp->device, "modify_qp: unknown driver data\n");
		return -EOPNOTSUPP;
	}

	mutex_lock(&qp->mutex);
	cur = READ_ONCE(qp->state);
	if ((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != cur) {
		err = -EINVAL;
		goto out;
	}
	new = mask & IB_QP_STATE ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, new, ibqp->qp_type, mask)) {
		ibdev_dbg(ibqp->device, "modify_qp: %d -> %d with mask 0x%x not allowed\n",
			  cur, new, mask);
		err = -EINVAL;
		goto out;
	}
	err = superp_qp_check_attr(qp, attr, mask, &av);
	if (err)
		goto out;

	if (cur == IB_QPS_INIT && new == IB_QPS_RTR) {
		struct superp_av old = qp->av;

		qp->av = av;
		err = qp->type->bind(qp);
		if (err) {
			qp->av = old;
			goto out;
		}
	} else if (mask & IB_QP_AV) {
		qp->av = av;
	}
	if (new == IB_QPS_RESET)
		qp->type->unbind(qp);
	superp_qp_store_attr(qp, attr, mask);

	superp_qp_lock(qp, &flags);
	if (qp->state != cur && new != IB_QPS_ERR && new != IB_QPS_RESET) {
		/* superp_qp_error() got there first. */
		superp_qp_unlock(qp, flags);
		err = -EINVAL;
		goto out;
	}
	flush = new == IB_QPS_ERR && qp->state != IB_QPS_ERR;
	superp_qp_set_state(qp, new);
	if (new == IB_QPS_RESET)
		superp_qp_reset_queues(qp);
	superp_qp_unlock(qp, flags);

	if (flush)
		superp_qp_flush(qp);
	/* Flushed: what is in flight stops too, whatever the peer does. */
	if (new == IB_QPS_ERR)
		qp->type->cancel(qp);
	/* Nothing in flight: drained at once. */
	if (new == IB_QPS_SQD && cur != IB_QPS_SQD)
		drained = superp_qp_sq_idle(qp);
	/* What was posted while drained runs now. */
	if (new == IB_QPS_RTS && cur == IB_QPS_SQD)
		qp->type->kick(qp);
out:
	mutex_unlock(&qp->mutex);
	if (drained && qp->attr.en_sqd_async_notify)
		superp_qp_event(qp, IB_EVENT_SQ_DRAINED);
	return err;
}

int superp_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		    struct ib_qp_init_attr *init)
{
	struct superp_qp *qp = to_sqp(ibqp);

	mutex_lock(&qp->mutex);
	*attr = qp->attr;
	attr->qp_state = READ_ONCE(qp->state);
	attr->cur_qp_state = attr->qp_state;
	attr->sq_draining = attr->qp_state == IB_QPS_SQD && !qp->sq_drained;
	attr->cap.max_send_wr = qp->sq.max_wr;
	attr->cap.max_send_sge = qp->sq.max_sge;
	attr->cap.max_inline_data = qp->sq.max_inline;
	attr->cap.max_recv_wr = qp->rq.max_wr;
	attr->cap.max_recv_sge = qp->rq.max_sge;

	memset(init, 0, sizeof(*init));
	init->event_handler = ibqp->event_handler;
	init->qp_context = ibqp->qp_context;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	init->qp_type = ibqp->qp_type;
	init->port_num = SUPERP_PORT;
	mutex_unlock(&qp->mutex);
	return 0;
}

/*
 * The core destroys a QP once nothing of the consumer uses it; the data
 * path may still hold lookups, and a lookup may be between xa_load() and
 * its reference (the core frees *qp right after we return): wait for both.
 */
int superp_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct superp_dev *sdev = to_sdev(ibqp->device);
	struct superp_qp *qp = to_sqp(ibqp);
	unsigned long flags;

	xa_erase(&sdev->qps, ibqp->qp_num);
	/* Its transactions hold references: end them, not waiting for the peer. */
	qp->type->cancel(qp);
	superp_qp_put(qp);
	wait_for_completion(&qp->unused);
	synchronize_rcu();

	mutex_lock(&qp->mutex);
	qp->type->unbind(qp);
	superp_qp_lock(qp, &flags);
	superp_qp_set_state(qp, IB_QPS_RESET);
	superp_qp_reset_queues(qp);
	superp_qp_unlock(qp, flags);
	mutex_unlock(&qp->mutex);

	superp_uqp_destroy(qp);
	if (qp->type->destroy)
		qp->type->destroy(qp);
	superp_wq_free(&qp->rq);
	superp_wq_free(&qp->sq);
	mutex_destroy(&qp->mutex);
	atomic_dec(&sdev->qp_count);
	return 0;
}
