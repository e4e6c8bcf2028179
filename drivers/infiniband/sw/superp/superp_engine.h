/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SUPERp PDL/TAL engine: per-connection reliability (PDL) and transaction
 * (TAL) state machines, driven by events and free of verbs objects and skbs.
 * Documentation/superp-engine.rst describes procedures and decisions.
 *
 * Locking: the engine takes no lock, sleeps nowhere (except
 * superp_conn_init()/create(), which allocate with GFP_KERNEL) and reads no
 * clock. Its user serialises every call on one connection, with the
 * connection's own BH-safe lock (no device-wide lock on the data path);
 * calls on different connections may run in parallel. From inside a
 * callback, only superp_submit(), superp_tal_reply(), superp_tal_error(),
 * superp_tal_done(), superp_cancel() and superp_conn_set_rwin() may be
 * called, on the same connection: they are queued and sent when the
 * outermost event returns.
 * superp_conn_rx(), superp_conn_timer() and superp_conn_window_open() called
 * from a callback of the same connection return -EDEADLK (a half-updated
 * connection); calling anything on another connection from a callback is
 * the user's lock-order problem, so don't: a loopback xmit() queues the
 * packet and delivers it to the peer's superp_conn_rx() after this
 * connection's lock is dropped.
 */
#ifndef SUPERP_ENGINE_H
#define SUPERP_ENGINE_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/cache.h>
#include <rdma/superp_wire.h>

/* Times handed to the engine are nanoseconds of a monotonic clock. */
#define SUPERP_NSEC_PER_USEC	1000ULL
#define SUPERP_PSN_REUSE_NS	(2ULL * 1000 * 1000 * 1000)	/* spec: 2 s */

/*
 * PSN block entry times in 2^20 ns (about 1 ms) units, mod 2^32 (52 days):
 * four bytes a block, and a reuse check that a wrap can only make report
 * an event too many.
 */
static inline u32 superp_psn_epoch(u64 now)
{
	return (u32)(now >> 20) ?: 1;
}

/**
 * struct superp_params - configuration of a connection (spec's parameter
 * table; units differ from the spec where noted in superp-engine.rst).
 */
struct superp_params {
	u32 pdl_retrans_time_out;	/* usec */
	u32 pdl_rtx_time_win;		/* usec */
	u32 pdl_rtx_max_pkts;		/* 2nd "pdl_rtx_time_win" of the spec */
	u32 pdl_max_rtx;
	u32 pdl_delayed_ack_time;	/* usec */
	u32 pdl_window_size;
	u32 pdl_conn_per_xpu;
	u32 pdl_receive_win;
	u32 pdl_stretch_ack;		/* project: PSNs per forced ACK */
	u32 pdl_fast_rtx_limit;		/* project: fast rtx per ACK, 0 = off */
	u32 tal_trans_window;
	u32 tal_max_pkt_per_trans;
	u32 tal_max_ops_per_pkt;
	u64 tal_transaction_timeout;	/* 10 ns units, 0 = none */
};

extern const struct superp_params superp_default_params;
int superp_params_validate(const struct superp_params *p, const char **why);

/**
 * struct superp_pkt - the fixed PDL and TAL header fields in host order.
 * @err: Transaction Error code of the packet's first operation, major << 16
 *	| minor (wire: struct superp_terr_op; host only).
 * @flags: SUPERP_PKT_* (host only).
 */
struct superp_pkt {
	u32 psn;
	u32 ack_psn;
	u32 sack;
	u16 dcid;
	u16 rwin;
	u16 xid;
	u16 seqno;
	u16 ack_xid;
	u32 err;
	u8 opcode;
	u8 num_ops;
	u8 eom;
	u8 flags;
};

#define SUPERP_PKT_RTX		0x01	/* xmit: retransmission */
#define SUPERP_PKT_REPLY	0x02	/* xmit: target reply packet */
#define SUPERP_PKT_PROBE	0x04	/* xmit: ACK XID probe, headers only */
#define SUPERP_PKT_CANCELLED	0x08	/* xmit: cancelled, headers only */

/* A Transaction Error code: major << 16 | minor (enum superp_terr_*). */
#define SUPERP_TERR(major, minor)	((u32)(major) << 16 | (minor))
#define SUPERP_TERR_MAJOR(err)		((u16)((err) >> 16))
#define SUPERP_TERR_MINOR(err)		((u16)(err))

void superp_pkt_encode(const struct superp_pkt *p, struct superp_pdl_hdr *pdl,
		       struct superp_tal_hdr *tal);
int superp_pkt_decode(const struct superp_pdl_hdr *pdl,
		      const struct superp_tal_hdr *tal, struct superp_pkt *p);
int superp_pkt_parse(const void *hdr, unsigned int len, struct superp_pkt *p);
/* SUPERp-lite: the TAL header alone; the PDL fields of @p are not sent. */
void superp_pkt_encode_lite(const struct superp_pkt *p,
			    struct superp_tal_hdr *tal);
int superp_pkt_parse_lite(const void *hdr, unsigned int len,
			  struct superp_pkt *p);

/* Target -> initiator opcodes (Documentation/wire-format.rst). */
static inline bool superp_opcode_is_reply(u8 op)
{
	switch (op) {
	case SUPERP_OP_TRANS_ERROR:
	case SUPERP_OP_READ_RESP:
	case SUPERP_OP_ATOMIC_RESP:
		return true;
	}
	return false;
}

/*
 * The reply a request expects (RMA Read and keyed RDMA Read: Read Response;
 * atomics: Atomic Response), or 0 (No-op, never a reply) when it has none.
 */
static inline u8 superp_opcode_reply_of(u8 op)
{
	switch (op) {
	case SUPERP_OP_RMA_READ:
	case SUPERP_OP_RDMA_READ:
		return SUPERP_OP_READ_RESP;
	case SUPERP_OP_ATOMIC_CAS:
	case SUPERP_OP_ATOMIC_FADD:
		return SUPERP_OP_ATOMIC_RESP;
	}
	return 0;
}

/* Initiator -> target opcodes. An opcode that is neither is unknown. */
static inline bool superp_opcode_is_request(u8 op)
{
	switch (op) {
	case SUPERP_OP_NOOP:
	case SUPERP_OP_LAST_NULL:
	case SUPERP_OP_RMA_READ:
	case SUPERP_OP_RMA_WRITE:
	case SUPERP_OP_SEND:
	case SUPERP_OP_SEND_QP:
	case SUPERP_OP_SEND_QP_IMM:
	case SUPERP_OP_WRITE_COMPLETE:
	case SUPERP_OP_ATOMIC_CAS:
	case SUPERP_OP_ATOMIC_FADD:
	case SUPERP_OP_RD_SEND:
	case SUPERP_OP_RDMA_WRITE:
	case SUPERP_OP_RDMA_READ:
	case SUPERP_OP_SEND_QP_OFF:
	case SUPERP_OP_SEND_QP_MORE:
	case SUPERP_OP_QP_RESUME:
	case SUPERP_OP_SEND_QP_INV:
		return true;
	}
	return false;
}

/* Errors the spec reports to the connection manager, plus state changes. */
enum superp_event {
	SUPERP_EV_PSN_OUT_OF_WINDOW,	/* PDL receive 1.b */
	SUPERP_EV_ACK_OUT_OF_WINDOW,	/* PDL send flow control 3.a.iii */
	SUPERP_EV_PSN_REUSE,		/* PSN reused within 2 s */
	SUPERP_EV_CONN_BROKEN,		/* PDL timer 4.a: pdl_max_rtx */
	SUPERP_EV_TGT_XID_OUT_OF_WINDOW,	/* target receive 1.a */
	SUPERP_EV_TGT_XID_COMPLETED,	/* target receive 1.b */
	SUPERP_EV_TGT_DUP_SEQNO,	/* target receive 2.b */
	SUPERP_EV_TGT_DUP_EOM,		/* target receive 3.a */
	SUPERP_EV_INI_XID_OUT_OF_WINDOW,	/* initiator receive 1.a */
	SUPERP_EV_INI_XID_RETIRED,	/* initiator receive 1.b */
	SUPERP_EV_INI_EARLY_REPLY,	/* initiator receive 2.a */
	SUPERP_EV_INI_DUP_SEQNO,	/* initiator receive 2.b */
	SUPERP_EV_INI_DUP_EOM,		/* initiator receive 3.a */
	SUPERP_EV_ACK_XID_OUT_OF_WINDOW,	/* ACK XID beyond next_ixid */
	SUPERP_EV_SEQNO_RANGE,		/* seqno past eom or max pkts */
	SUPERP_EV_BAD_OPCODE,		/* unknown or mixed opcode */
	SUPERP_EV_TRANS_TIMEOUT,	/* tal_transaction_timeout expired */
	SUPERP_EV_QUIESCENT,		/* soft shutdown finished */
	SUPERP_EV_LITE_GAP,		/* SUPERp-lite: a request frame lost */
	SUPERP_EV_MAX
};

const char *superp_event_name(enum superp_event ev);

struct superp_conn;

/**
 * struct superp_engine_ops - what the engine asks of its user.
 * @xmit: send a packet; @cookie is the transaction's (NULL for ACKs).
 *	Return 0, or -EBUSY when the device queue is full (resume with
 *	superp_conn_window_open()).
 * @arm_timer: call superp_conn_timer() at @expires (ns); 0 cancels.
 * @event: an error or state change (counted before the call).
 * @hold: keep a received buffer of an ordered connection for later
 *	delivery; return the handle to pass back, or NULL to drop it.
 * @release: a held buffer is no longer needed.
 * @target_pkt: a request packet was accepted (process its operations).
 * @target_request: a whole request arrived; reply with superp_tal_reply()
 *	or superp_tal_error(), now or later; return SUPERP_TGT_DONE when no
 *	reply is needed, SUPERP_TGT_PENDING otherwise.
 * @initiator_pkt: a reply packet of @cookie's transaction was accepted
 *	(@cookie NULL: the transaction was cancelled, drop the data).
 * @placed: optional; every reply packet of @cookie's transaction arrived
 *	(a READ's data is placed) or a Transaction Error did; retirement
 *	follows when the target's ACK XID covers it. Not called when a reply
 *	packet was refused (the reply can never be whole: complete() says
 *	-EPROTO), nor for cancelled transactions.
 * @complete: an initiator transaction retired (status 0, -EREMOTEIO with
 *	a Transaction Error code in @err, -EPROTO when the engine refused a
 *	reply packet, or the abort reason).
 * @target_done: optional; the engine holds nothing of target transaction
 *	@xid any more: status 0 when it retired (its reply, @cookie's, was
 *	acknowledged), -EREMOTEIO when it was answered with a Transaction
 *	Error, or the abort reason when the connection stopped.
 * @tx_ready: superp_submit() may succeed again.
 */
struct superp_engine_ops {
	int (*xmit)(struct superp_conn *c, const struct superp_pkt *p,
		    void *cookie);
	void (*arm_timer)(struct superp_conn *c, u64 expires);
	void (*event)(struct superp_conn *c, enum superp_event ev, u32 info);
	void *(*hold)(struct superp_conn *c, void *buf);
	void (*release)(struct superp_conn *c, void *held);
	void (*target_pkt)(struct superp_conn *c, const struct superp_pkt *p,
			   void *buf);
	int (*target_request)(struct superp_conn *c, u16 xid, u8 opcode);
	void (*initiator_pkt)(struct superp_conn *c, const struct superp_pkt *p,
			      void *cookie, void *buf);
	void (*placed)(struct superp_conn *c, void *cookie);
	void (*complete)(struct superp_conn *c, void *cookie, int status,
			 u32 err);
	void (*target_done)(struct superp_conn *c, u16 xid, void *cookie,
			    int status);
	void (*tx_ready)(struct superp_conn *c);
};

#define SUPERP_TGT_DONE		0
#define SUPERP_TGT_PENDING	1

/* Per-PSN send state (cold): everything needed to rebuild the packet. */
struct superp_spsn {
	u64 sent;		/* ns of the last (re)transmission */
	u32 tx_seq;		/* transmission order, for loss detection */
	u32 ack_psn;		/* ACK PSN it carried (last-slot rule) */
	u16 xid;
	u16 seqno;
	u8 nrtx;		/* timer retransmissions */
	u8 flags;		/* SUPERP_SPSN_* */
	u8 opcode;
	u8 num_ops;
};

#define SUPERP_SPSN_REPLY	0x01
#define SUPERP_SPSN_EOM		0x02
#define SUPERP_SPSN_RTX		0x04	/* retransmitted: no RTT sample */
#define SUPERP_SPSN_PROBED	0x08	/* tail-loss probe sent (at the left edge) */

/* Initiator transaction (cold), indexed by XID % tal_trans_window. */
struct superp_ixid {
	void *cookie;
	union {
		struct {
			u16 rx_cnt;	/* reply packets received */
			u16 rx_num;	/* reply packets, from eom (0: ?) */
		};
		u32 err;	/* Transaction Error code, once RDONE */
	};
	u16 npkts;		/* request packets */
	u16 sent;		/* request packets given a PSN */
	u16 inflight;		/* request PSNs not yet acknowledged */
	u16 qp;			/* the user's tag, for fences */
	u8 opcode;
	u8 num_ops;
	u8 flags;		/* SUPERP_IX_* */
};

#define SUPERP_IX_OPEN		0x01
#define SUPERP_IX_REPLY		0x02	/* expects a reply (read, atomic) */
#define SUPERP_IX_ACKED		0x04	/* covered by ACK XID */
#define SUPERP_IX_RDONE		0x08	/* all reply packets received */
#define SUPERP_IX_ERROR		0x10	/* Transaction Error received */
#define SUPERP_IX_INTERNAL	0x20	/* engine's own (Last NULL) */
#define SUPERP_IX_BAD		0x40	/* a reply packet was refused */
#define SUPERP_IX_CANCELLED	0x80	/* superp_cancel(): cookie forgotten */

/* Target transaction (cold), indexed by XID % tal_trans_window. */
struct superp_txid {
	void *cookie;		/* reply's */
	union {
		struct {
			u16 num_packets;	/* request packets, from eom */
			u16 rcvd;		/* request packets received */
		};
		u32 err;	/* Transaction Error sent, once COMPLETE */
	};
	u16 rpl_npkts;
	u16 rpl_sent;
	u16 inflight;		/* reply PSNs not yet acknowledged */
	u8 state;		/* SUPERP_TX_* */
	u8 opcode;
	u8 rpl_opcode;
	u8 rpl_num_ops;
};

#define SUPERP_TX_CLOSED	0
#define SUPERP_TX_OPEN		1	/* receiving the request */
#define SUPERP_TX_COMPLETE	2	/* request received, user working */
#define SUPERP_TX_REPLY		3	/* reply queued or being sent */
#define SUPERP_TX_DONE		4	/* waiting for reply PSN ACKs */

/* A packet an ordered connection holds until the PSN gap fills. */
struct superp_held {
	void *buf;
	u16 xid;
	u16 seqno;
	u32 err;
	u8 opcode;
	u8 eom_num_ops;
};

struct superp_stats {
	u64 tx_new;
	u64 tx_rtx_timer;
	u64 tx_rtx_fast;
	u64 tx_rtx_proactive;
	u64 tx_pure_ack;
	u64 tx_nack;
	u64 tx_busy;
	u64 tx_err;		/* xmit failed other than -EBUSY: lost */
	u64 tx_probe;		/* ACK XID probes */
	u64 rx_pkts;
	u64 rx_dup;
	u64 rx_held;
	u64 rx_dropped;		/* the sum of the rx_drop_* below */
	u64 delivered;
	/*
	 * Receive accounting: every packet in rx_pkts is in exactly one of
	 * rx_processed, rx_dup, the rx_drop_* or (for now) rx_holding.
	 */
	u64 rx_processed;	/* a pure ACK, or taken by the TAL */
	u64 rx_holding;		/* held behind a gap now (not a total) */
	u64 rx_drop_psn_window;	/* PDL receive 1.b */
	u64 rx_drop_ack_window;	/* ACK PSN beyond what was sent */
	u64 rx_drop_ack_xid_window;	/* ACK XID beyond next_ixid */
	u64 rx_drop_broken;	/* the connection is broken */
	u64 rx_drop_no_hold;	/* ordered, and hold() found no memory */
	u64 rx_drop_flushed;	/* held, then the connection stopped */
	u64 rx_drop_tal;	/* PDL accepted it, the TAL refused it */
	u64 tx_bytes;		/* every packet sent, from the PDL header */
	u64 rx_bytes;		/* every packet of rx_pkts, likewise */
	u64 tx_sack;		/* packets sent naming a PSN past ACK PSN */
	u64 rx_sack;		/* such ACKs received, valid */
	u64 rx_nack;		/* NACKs received, valid */
	u64 tx_trans_err;	/* transactions answered Transaction Error */
	u64 rx_trans_err;	/* ours answered Transaction Error */
	u64 tx_rnr;		/* of tx_trans_err: receiver not ready */
	u64 rx_rnr;		/* of rx_trans_err: receiver not ready */
	u64 tx_packed_ops;	/* operations submitted packed, num_ops > 1 */
	u64 tx_rtx_tail;	/* tail-loss probes (superp_pdl_tail_deadline()) */
};

/**
 * struct superp_mem_budget - memory the connections of one device may take.
 * @used: bytes charged by live connections (hot and cold).
 * @limit: bytes; 0 for no limit (still counted).
 *
 * The windows and packets per transaction multiply: about 1.1 MiB per
 * connection with every parameter at its maximum, 4.4 GiB for 4096 of
 * them. superp_conn_init_budget() refuses a connection that would exceed
 * the budget with -EDQUOT.
 */
struct superp_mem_budget {
	atomic_long_t used;
	unsigned long limit;
};

/* A default for a device: 4096 default connections fit 16 times over. */
#define SUPERP_MEM_BUDGET_DEFAULT	(256UL << 20)

void superp_mem_budget_init(struct superp_mem_budget *b, unsigned long limit);

/* Cold per-connection data, followed by the per-PSN/per-XID arrays. */
struct superp_conn_cold {
	struct superp_params p;
	struct superp_stats stats;
	u32 events[SUPERP_EV_MAX];
	/* superp_psn_epoch() when next_spsn entered each 2^28 block */
	u32 psn_epoch[16];
	/* SUPERp-lite: the request packet due next (where events[] pads) */
	u16 lite_xid;
	u16 lite_seqno;
	u64 timer_at;		/* deadline armed with the user, 0: none */
	u64 now;		/* time of the event being processed */
	u64 ixid_progress;	/* when unacked_ixid last moved */
	u64 probe_at;		/* next ACK XID probe, 0: none due */
	u16 nprobe;		/* probes for the current left edge (to 6) */
	u16 last_qp;		/* tag of the last request packet sent */
	u32 size;		/* bytes of this block */
	u64 pdl_heard;		/* last new PSN sent or newly acknowledged */
	/* charged superp_conn_mem(), i.e. the hot state and size, or NULL */
	struct superp_mem_budget *budget;
};

#define SUPERP_CONN_ORDERED_RX	0x01	/* we deliver in PSN order */
#define SUPERP_CONN_ORDERED_TX	0x02	/* the peer delivers in order */
/*
 * The first PSN of each direction is a handshake (superp-engine.rst,
 * "A peer that lost its state"): we start with a No-op and start nothing
 * else until it retires, and take no PSN from the peer before its first.
 */
#define SUPERP_CONN_HELLO	0x04
/*
 * SUPERp-lite (superp-engine.rst, "SUPERp-lite"): no PDL on the wire. A
 * PSN is delivered once the device took it, received packets take the
 * next PSN in arrival order, only the ACK XID is acknowledged, and a lost
 * packet ends the connection by tal_transaction_timeout, never by a
 * retransmission.
 */
#define SUPERP_CONN_LITE	0x08

/* c->state */
#define SUPERP_ST_UP		0
#define SUPERP_ST_SHUTDOWN	1	/* soft: no new transactions */
#define SUPERP_ST_QUIESCENT	2
#define SUPERP_ST_BROKEN	3

/* c->flags */
#define SUPERP_CF_ACK_NOW	0x0001	/* send an ACK before returning */
#define SUPERP_CF_NACK_SENT	0x0002	/* NACK sent for the current hole */
#define SUPERP_CF_INI_BLOCKED	0x0004	/* superp_submit() said -EAGAIN */
#define SUPERP_CF_BARRIER	0x0008	/* a barrier waits for retirement */
#define SUPERP_CF_TX_BUSY	0x0010	/* device queue full */
#define SUPERP_CF_REPLY_TURN	0x0020	/* scheduler: replies go next */
#define SUPERP_CF_LN_ACKED	0x0040	/* our Last NULL retired */
#define SUPERP_CF_LN_RCVD	0x0080	/* peer's Last NULL retired */
#define SUPERP_CF_ORDERED	0x0100	/* hold out-of-order packets */
#define SUPERP_CF_LN_PENDING	0x0200	/* Last NULL waits for an XID */
#define SUPERP_CF_RWIN_HEARD	0x0400	/* the peer advertised a RWIN */
#define SUPERP_CF_FENCE_WAIT	0x0800	/* a fence waits for a retirement */
#define SUPERP_CF_HELLO_TX	0x1000	/* our first No-op not yet retired */
#define SUPERP_CF_HELLO_RX	0x2000	/* the peer's first PSN not yet here */
#define SUPERP_CF_LITE		0x4000	/* SUPERP_CONN_LITE */
#define SUPERP_CF_ACK_HOLD	0x8000	/* pure ACKs wait: superp_conn_release_acks() */

/**
 * struct superp_conn - hot per-connection state (two cache lines).
 *
 * Field names follow the spec. Arrays live in the cold block; the hot part
 * keeps only their offsets so that a CID table of these stays dense.
 */
struct superp_conn {
	/* PDL send window */
	u32 next_spsn;
	u32 unacked_spsn;
	u32 max_spsn;
	u32 unsent_spsn;	/* first PSN the device has not taken */
	/* PDL receive window (max_rpsn is next_acked_rpsn + window) */
	u32 next_acked_rpsn;
	u32 ack_psn_sent;	/* last ACK PSN sent */
	u32 tx_seq;		/* transmissions so far */
	u32 hi_acked_tx;	/* newest transmission known received */
	u32 srtt_ns;		/* smoothed RTT, for loss detection */
	u16 window;		/* pdl_window_size */
	u16 rwin_peer;		/* last received RWIN + 1 */
	u16 rwin_adv;		/* window we advertise */
	u16 rx_since_ack;	/* PSNs received since an ACK was sent */
	/* TAL initiator window */
	u16 next_ixid;
	u16 unacked_ixid;
	u16 acked_ixid;		/* ACK XID + 1 as last received */
	u16 send_ixid;		/* none older has unsent packets */
	/* TAL target window */
	u16 next_acked_txid;
	u16 ack_xid_sent;
	u16 rq_head;		/* reply queue (ring of XIDs) */
	u16 rq_len;
	u16 tal_window;
	u16 max_pkts;		/* tal_max_pkt_per_trans */
	u16 local_cid;
	u16 remote_cid;
	u16 flags;		/* SUPERP_CF_* */
	u8 state;		/* SUPERP_ST_* */
	u8 depth;		/* event nesting */
	u64 dack_at;		/* delayed ACK deadline, 0: none */
	/* cold block and offsets of its arrays, in 8-byte units */
	struct superp_conn_cold *cold;
	const struct superp_engine_ops *ops;
	void *priv;
	u16 off_spsn;
	u16 off_ixid;
	u16 off_txid;
	u16 off_bm;		/* bitmaps: sbm, rbm (window), ibm, cbm, tbm */
	u16 off_iseq;		/* seqno bits of ixid[], then of txid[] */
	u16 off_rq;		/* reply queue */
	u16 off_held;		/* ordered connections only */
	u16 wslots;		/* per-PSN slots: window rounded up to 2^n */
	u16 tslots;		/* per-XID slots: tal_window rounded up to 2^n */
	u8 wlongs;		/* longs per window bitmap */
	u8 tlongs;		/* longs per transaction-window bitmap */
} ____cacheline_aligned;

int superp_conn_init(struct superp_conn *c, const struct superp_params *p,
		     const struct superp_engine_ops *ops, void *priv,
		     u16 local_cid, u16 remote_cid, unsigned int flags);
int superp_conn_init_budget(struct superp_conn *c,
			    struct superp_mem_budget *b,
			    const struct superp_params *p,
			    const struct superp_engine_ops *ops, void *priv,
			    u16 local_cid, u16 remote_cid, unsigned int flags,
			    const char **why);
void superp_conn_release(struct superp_conn *c);
struct superp_conn *superp_conn_create(const struct superp_params *p,
				       const struct superp_engine_ops *ops,
				       void *priv, u16 local_cid,
				       u16 remote_cid, unsigned int flags);
void superp_conn_destroy(struct superp_conn *c);
size_t superp_conn_mem(const struct superp_params *p, unsigned int flags);
size_t superp_conn_cold_taken(const struct superp_conn *c);
void superp_conn_caches_destroy(void);

/* Events that drive a connection. All return after sending what they can. */
int superp_conn_rx(struct superp_conn *c, const struct superp_pkt *p,
		   void *buf, u64 now);
int superp_conn_timer(struct superp_conn *c, u64 now);
int superp_conn_window_open(struct superp_conn *c, u64 now);
void superp_conn_hold_acks(struct superp_conn *c);
int superp_conn_release_acks(struct superp_conn *c, u64 now);

/**
 * struct superp_xact - a transaction to submit.
 * @opcode: request opcode (SUPERP_OP_RMA_READ expects a reply).
 * @npkts: request packets (1..tal_max_pkt_per_trans).
 * @num_ops: operations per packet.
 * @barrier: start only when every earlier transaction has retired.
 * @fence: start only when every earlier transaction with the same @qp has
 *	retired (IB fence: holds back this QP only).
 * @qp: the user's tag for @fence, e.g. its QP number.
 * @cookie: handed back in xmit, initiator_pkt and complete.
 */
struct superp_xact {
	u8 opcode;
	u8 num_ops;
	u16 npkts;
	bool barrier;
	bool fence;
	u16 qp;
	void *cookie;
};

int superp_submit(struct superp_conn *c, const struct superp_xact *x,
		  u16 *xid, u64 now);
int superp_tal_reply(struct superp_conn *c, u16 xid, u8 opcode, u16 npkts,
		     u8 num_ops, void *cookie, u64 now);
bool superp_submit_ready(const struct superp_conn *c,
			 const struct superp_xact *x);
int superp_tal_error(struct superp_conn *c, u16 xid, u32 err, void *cookie,
		     u64 now);
int superp_tal_done(struct superp_conn *c, u16 xid, u64 now);
unsigned int superp_cancel(struct superp_conn *c,
			   bool (*match)(void *cookie, void *arg), void *arg,
			   u64 now);
void superp_conn_set_rwin(struct superp_conn *c, u16 rwin);
int superp_conn_shutdown(struct superp_conn *c, u64 now);
void superp_conn_abort(struct superp_conn *c, int reason);

static inline const struct superp_stats *
superp_conn_stats(const struct superp_conn *c)
{
	return &c->cold->stats;
}

static inline const struct superp_params *
superp_conn_params(const struct superp_conn *c)
{
	return &c->cold->p;
}

static inline u32 superp_conn_events(const struct superp_conn *c,
				     enum superp_event ev)
{
	return c->cold->events[ev];
}

#endif /* SUPERP_ENGINE_H */
