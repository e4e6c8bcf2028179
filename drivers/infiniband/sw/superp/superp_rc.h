/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_superp: RC QPs over connections (Documentation/superp-rc.rst):
 * binding (superp_rc_bind.c), the initiator (superp_rc_send.c and the
 * files superp_rc_int.h names) and the target (superp_rc_recv.c). The
 * locking rules are at the top of each.
 */
#ifndef SUPERP_RC_H
#define SUPERP_RC_H

#include <linux/list.h>
#include <linux/log2.h>
#include <linux/timer.h>
#include <linux/types.h>

#include "superp.h"
#include "superp_msg.h"
#include "superp_qp.h"
#include "superp_rma.h"
#include "superp_tx.h"

struct superp_conn;

/*
 * The target's per-transaction slots of a connection: tal_trans_window
 * rounded up to a power of two. XIDs are 16 bits, so a power of two keeps
 * the XIDs of any window (consecutive modulo 2^16) in distinct slots
 * across the wrap; a modulo by the window itself would not (24 slots:
 * XIDs 65530..65535 and 0..17 share six slots).
 */
static inline u32 superp_rc_tgt_slots(u32 tal_window)
{
	return roundup_pow_of_two(tal_window ? tal_window : 1);
}

static inline u32 superp_rc_slot_index(u32 slots, u16 xid)
{
	return xid & (slots - 1);
}

struct work_struct;
struct superp_conn_entry;
struct superp_mr;
struct superp_pkt;
struct superp_qp;
struct superp_recv_wqe;
struct superp_rc_wr;

/*
 * The payload of a full RC data packet on a link of @netdev_mtu bytes:
 * what the largest header stack leaves, in whole SUPERP_SEG_ALIGN units,
 * SUPERP_SEG_ALIGN..SUPERP_SEG_MAX.
 */
static inline u32 superp_link_seg(unsigned int netdev_mtu)
{
	u32 room = netdev_mtu > SUPERP_MAX_HDR_STACK ?
		   netdev_mtu - SUPERP_MAX_HDR_STACK : 0;

	return clamp_t(u32, round_down(room, SUPERP_SEG_ALIGN),
		       SUPERP_SEG_ALIGN, SUPERP_SEG_MAX);
}

/*
 * How an RC QP segments its messages. Segmentation is the transport's: a
 * QP whose path MTU is the port's active MTU (what rdma_cm and perftest
 * agree on when both ends share the link's MTU), or above it once the
 * link shrank, fills what the link carries (8704 bytes on a 9000-byte
 * link, not 4096). A smaller path MTU says the peer's link is smaller, and
 * is kept.
 */
static inline u32 superp_rc_seg(enum ib_mtu path_mtu, unsigned int netdev_mtu)
{
	if (path_mtu >= superp_active_mtu(netdev_mtu))
		return superp_link_seg(netdev_mtu);
	return ib_mtu_enum_to_int(path_mtu);
}

/**
 * struct superp_rc_tgt - the target's state of one transaction of a
 * connection, in the entry's array indexed by XID modulo its size.
 * @src: cookie of its reply (Read Response packets, the Atomic Response,
 *	or the Transaction Error).
 * @err: first Transaction Error code found in its packets, 0 if none.
 * @err_seqno: the packet of the operation that failed with @err.
 * @err_opnum: that operation's place in its packet.
 * @mr: RDMA Read: the MR read from, held until target_done.
 * @addr: RDMA Read: first byte.
 * @len: RDMA Read: bytes.
 * @mtu: RDMA Read: payload of a full Read Response packet.
 * @orig: atomic: the value before it executed, kept (the request is never
 *	executed again) until the Atomic Response is acknowledged, so that
 *	a retransmitted response carries the same value.
 */
struct superp_rc_tgt {
	struct superp_xact_src	src;
	u32			err;
	u16			err_seqno;
	u8			err_opnum;
	struct superp_mr	*mr;
	u64			addr;
	u32			len;
	u32			mtu;
	u64			orig;
};

/* superp_rc_bind.c */
extern const struct superp_qp_type_ops superp_rc_qp_type;
int superp_rc_qp_bind(struct superp_qp *qp);
void superp_rc_qp_unbind(struct superp_qp *qp);
int superp_rc_conn_init(struct superp_conn_entry *e, u32 tal_window);
void superp_rc_conn_unbind_all(struct superp_conn_entry *e);
void superp_rc_conn_stop(struct superp_conn_entry *e);
void superp_rc_conn_free(struct superp_conn_entry *e);
void superp_rc_conn_broken(struct superp_conn_entry *e, int reason);
#if IS_ENABLED(CONFIG_KUNIT)
extern bool superp_rc_allow_unbound;
#endif

/*
 * The initiator: superp_rc_send.c; superp_rc_status() is in
 * superp_rc_reply.c, superp_rc_rnr_*() in superp_rc_rnr.c and
 * superp_rc_qp_locked() in superp_rc_bind.c.
 */
enum ib_wc_status superp_rc_status(int status, u32 err);
void superp_rc_kick(struct superp_qp *qp);
void superp_rc_kick_later(struct superp_qp *qp);
void superp_rc_kick_work(struct work_struct *work);
void superp_rc_qp_drop(struct superp_qp *qp);
void superp_rc_qp_cancel(struct superp_qp *qp);
bool superp_rc_qp_locked(struct superp_qp *qp,
			 void (*fn)(struct superp_conn_entry *e,
				    struct superp_qp *qp));
void superp_rc_tx_ready(struct superp_conn *c);
void superp_rc_rnr_timer(struct timer_list *t);
u32 superp_rc_rnr_usecs(u8 min_rnr_timer);

/* superp_rc_recv.c */
void superp_rc_target_pkt(struct superp_conn *c, const struct superp_pkt *p,
			  void *buf);
int superp_rc_target_request(struct superp_conn *c, u16 xid, u8 opcode);
void superp_rc_target_done(struct superp_conn *c, u16 xid, void *cookie,
			   int status);

#endif /* SUPERP_RC_H */
