// SPDX-License-Identifier: GPL-2.0
/*
 * ib_superp: the device's counters for `rdma statistic show link` (the
 * rdma_hw_stats of the port). Each value is the sum of the per-connection
 * counters (struct superp_stats, which the engine bumps under each
 * connection's lock) over the installed connections plus the counters
 * folded in when a connection was deleted, and the receive path's per
 * device counters (every packet it took, and those that reached no
 * connection): rx_packets = rx_processed + rx_duplicates + rx_holding +
 * rx_datagrams + every rx_drop_* (Documentation/superp-admin.rst,
 * "Receive accounting").
 * The verbs objects keep atomic device counters of their own (user send
 * queues' doorbells and WQEs, CQ overflows).
 *
 * Locking: superp_conns_stats() takes the connection table's mutex and
 * each entry's lock in turn, only for a copy; nothing here is on the
 * data path.
 */
#include "superp.h"
#include "superp_conn_table.h"
#include "superp_dev.h"

enum superp_hw_stat {
	SUPERP_HW_TX_PACKETS,
	SUPERP_HW_TX_NEW,
	SUPERP_HW_RTX_TIMER,
	SUPERP_HW_RTX_FAST,
	SUPERP_HW_RTX_PROACTIVE,
	SUPERP_HW_RTX_TAIL,
	SUPERP_HW_TX_PURE_ACK,
	SUPERP_HW_TX_NACK,
	SUPERP_HW_TX_ERR,
	SUPERP_HW_RX_PACKETS,
	SUPERP_HW_RX_DUPLICATES,
	SUPERP_HW_RX_CONN_DROPS,
	SUPERP_HW_PACKED_OPS,
	SUPERP_HW_DROP_SHORT,
	SUPERP_HW_DROP_MALFORMED,
	SUPERP_HW_DROP_UNKNOWN_DCID,
	SUPERP_HW_DROP_WRONG_PEER,
	SUPERP_HW_DROP_WRONG_ENCAP,
	SUPERP_HW_DROP_DGRAM_MALFORMED,
	SUPERP_HW_DROP_DGRAM_SENDER,
	SUPERP_HW_DROP_DGRAM_QP,
	SUPERP_HW_DROP_DGRAM_QKEY,
	SUPERP_HW_DROP_DGRAM_NO_RECV,
	SUPERP_HW_DROP_DGRAM_TOO_LONG,
	SUPERP_HW_RX_PROCESSED,
	SUPERP_HW_RX_HOLDING,
	SUPERP_HW_DROP_PSN_WINDOW,
	SUPERP_HW_DROP_ACK_WINDOW,
	SUPERP_HW_DROP_ACK_XID_WINDOW,
	SUPERP_HW_DROP_BROKEN,
	SUPERP_HW_DROP_NO_HOLD,
	SUPERP_HW_DROP_FLUSHED,
	SUPERP_HW_DROP_TAL,
	SUPERP_HW_SQ_DOORBELLS,
	SUPERP_HW_SQ_RING_WQES,
	SUPERP_HW_TX_BYTES,
	SUPERP_HW_RX_BYTES,
	SUPERP_HW_TX_SACKS,
	SUPERP_HW_RX_SACKS,
	SUPERP_HW_RX_NACKS,
	SUPERP_HW_TX_TRANS_ERRORS,
	SUPERP_HW_RX_TRANS_ERRORS,
	SUPERP_HW_TX_RNR,
	SUPERP_HW_RX_RNR,
	SUPERP_HW_CQ_OVERFLOWS,
	SUPERP_HW_TX_BUSY,
	SUPERP_HW_TX_DATAGRAMS,
	SUPERP_HW_TX_DGRAM_DROPS,
	SUPERP_HW_RX_DATAGRAMS,
	__SUPERP_HW_MAX
};

static const struct rdma_stat_desc superp_hw_descs[] = {
	[SUPERP_HW_TX_PACKETS] = { .name = "tx_packets" },
	[SUPERP_HW_TX_NEW] = { .name = "tx_new_packets" },
	[SUPERP_HW_RTX_TIMER] = { .name = "retrans_timer" },
	[SUPERP_HW_RTX_FAST] = { .name = "retrans_fast" },
	[SUPERP_HW_RTX_PROACTIVE] = { .name = "retrans_proactive" },
	[SUPERP_HW_RTX_TAIL] = { .name = "retrans_tail" },
	[SUPERP_HW_TX_PURE_ACK] = { .name = "tx_pure_acks" },
	[SUPERP_HW_TX_NACK] = { .name = "tx_nacks" },
	[SUPERP_HW_TX_ERR] = { .name = "tx_errors" },
	[SUPERP_HW_RX_PACKETS] = { .name = "rx_packets" },
	[SUPERP_HW_RX_DUPLICATES] = { .name = "rx_duplicates" },
	[SUPERP_HW_RX_CONN_DROPS] = { .name = "rx_conn_drops" },
	[SUPERP_HW_PACKED_OPS] = { .name = "packed_ops" },
	[SUPERP_HW_DROP_SHORT] = { .name = "rx_drop_short" },
	[SUPERP_HW_DROP_MALFORMED] = { .name = "rx_drop_malformed" },
	[SUPERP_HW_DROP_UNKNOWN_DCID] = { .name = "rx_drop_unknown_dcid" },
	[SUPERP_HW_DROP_WRONG_PEER] = { .name = "rx_drop_wrong_peer" },
	[SUPERP_HW_DROP_WRONG_ENCAP] = { .name = "rx_drop_wrong_encap" },
	[SUPERP_HW_DROP_DGRAM_MALFORMED] = { .name = "rx_drop_dgram_malformed" },
	[SUPERP_HW_DROP_DGRAM_SENDER] = { .name = "rx_drop_dgram_sender" },
	[SUPERP_HW_DROP_DGRAM_QP] = { .name = "rx_drop_dgram_qp" },
	[SUPERP_HW_DROP_DGRAM_QKEY] = { .name = "rx_drop_dgram_qkey" },
	[SUPERP_HW_DROP_DGRAM_NO_RECV] = { .name = "rx_drop_dgram_no_recv" },
	[SUPERP_HW_DROP_DGRAM_TOO_LONG] = { .name = "rx_drop_dgram_too_long" },
	[SUPERP_HW_RX_PROCESSED] = { .name = "rx_processed" },
	[SUPERP_HW_RX_HOLDING] = { .name = "rx_holding" },
	[SUPERP_HW_DROP_PSN_WINDOW] = { .name = "rx_drop_psn_window" },
	[SUPERP_HW_DROP_ACK_WINDOW] = { .name = "rx_drop_ack_window" },
	[SUPERP_HW_DROP_ACK_XID_WINDOW] = { .name = "rx_drop_ack_xid_window" },
	[SUPERP_HW_DROP_BROKEN] = { .name = "rx_drop_broken" },
	[SUPERP_HW_DROP_NO_HOLD] = { .name = "rx_drop_no_hold" },
	[SUPERP_HW_DROP_FLUSHED] = { .name = "rx_drop_flushed" },
	[SUPERP_HW_DROP_TAL] = { .name = "rx_drop_tal" },
	[SUPERP_HW_SQ_DOORBELLS] = { .name = "sq_doorbells" },
	[SUPERP_HW_SQ_RING_WQES] = { .name = "sq_ring_wqes" },
	[SUPERP_HW_TX_BYTES] = { .name = "tx_bytes" },
	[SUPERP_HW_RX_BYTES] = { .name = "rx_bytes" },
	[SUPERP_HW_TX_SACKS] = { .name = "tx_sacks" },
	[SUPERP_HW_RX_SACKS] = { .name = "rx_sacks" },
	[SUPERP_HW_RX_NACKS] = { .name = "rx_nacks" },
	[SUPERP_HW_TX_TRANS_ERRORS] = { .name = "tx_trans_errors" },
	[SUPERP_HW_RX_TRANS_ERRORS] = { .name = "rx_trans_errors" },
	[SUPERP_HW_TX_RNR] = { .name = "tx_rnr_naks" },
	[SUPERP_HW_RX_RNR] = { .name = "rx_rnr_naks" },
	[SUPERP_HW_CQ_OVERFLOWS] = { .name = "cq_overflows" },
	[SUPERP_HW_TX_BUSY] = { .name = "tx_busy" },
	[SUPERP_HW_TX_DATAGRAMS] = { .name = "tx_datagrams" },
	[SUPERP_HW_TX_DGRAM_DROPS] = { .name = "tx_dgram_drops" },
	[SUPERP_HW_RX_DATAGRAMS] = { .name = "rx_datagrams" },
};

static struct rdma_hw_stats *superp_alloc_hw_port_stats(struct ib_device *ibdev,
							u32 port)
{
	BUILD_BUG_ON(ARRAY_SIZE(superp_hw_descs) != __SUPERP_HW_MAX);
	return rdma_alloc_hw_stats_struct(superp_hw_descs, __SUPERP_HW_MAX,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int superp_get_hw_stats(struct ib_device *ibdev,
			       struct rdma_hw_stats *stats, u32 port, int index)
{
	struct superp_dev *sdev = container_of(ibdev, struct superp_dev, ibdev);
	u64 *v = stats->value;
	struct superp_stats s;
	int i;

	superp_conns_stats(sdev, &s);
	v[SUPERP_HW_TX_NEW] = s.tx_new;
	v[SUPERP_HW_RTX_TIMER] = s.tx_rtx_timer;
	v[SUPERP_HW_RTX_FAST] = s.tx_rtx_fast;
	v[SUPERP_HW_RTX_PROACTIVE] = s.tx_rtx_proactive;
	v[SUPERP_HW_RTX_TAIL] = s.tx_rtx_tail;
	v[SUPERP_HW_TX_PURE_ACK] = s.tx_pure_ack;
	v[SUPERP_HW_TX_NACK] = s.tx_nack;
	v[SUPERP_HW_TX_ERR] = s.tx_err;
	v[SUPERP_HW_TX_PACKETS] = s.tx_new + s.tx_rtx_timer + s.tx_rtx_fast +
				  s.tx_rtx_proactive + s.tx_rtx_tail +
				  s.tx_pure_ack + s.tx_nack + s.tx_probe;
	/* counted on entry, before the device's drops: the identity's left */
	v[SUPERP_HW_RX_PACKETS] = atomic64_read(&sdev->rx_packets);
	v[SUPERP_HW_RX_DUPLICATES] = s.rx_dup;
	v[SUPERP_HW_RX_CONN_DROPS] = s.rx_dropped;
	v[SUPERP_HW_PACKED_OPS] = s.tx_packed_ops;
	for (i = 0; i < __SUPERP_DROP_MAX; i++)
		v[SUPERP_HW_DROP_SHORT + i] = atomic64_read(&sdev->rx_drops[i]);
	BUILD_BUG_ON(SUPERP_HW_DROP_DGRAM_TOO_LONG - SUPERP_HW_DROP_SHORT !=
		     SUPERP_DROP_DGRAM_TOO_LONG);
	BUILD_BUG_ON(SUPERP_HW_RX_PROCESSED - SUPERP_HW_DROP_SHORT !=
		     __SUPERP_DROP_MAX);
	v[SUPERP_HW_RX_PROCESSED] = s.rx_processed;
	v[SUPERP_HW_RX_HOLDING] = s.rx_holding;
	v[SUPERP_HW_DROP_PSN_WINDOW] = s.rx_drop_psn_window;
	v[SUPERP_HW_DROP_ACK_WINDOW] = s.rx_drop_ack_window;
	v[SUPERP_HW_DROP_ACK_XID_WINDOW] = s.rx_drop_ack_xid_window;
	v[SUPERP_HW_DROP_BROKEN] = s.rx_drop_broken;
	v[SUPERP_HW_DROP_NO_HOLD] = s.rx_drop_no_hold;
	v[SUPERP_HW_DROP_FLUSHED] = s.rx_drop_flushed;
	v[SUPERP_HW_DROP_TAL] = s.rx_drop_tal;
	v[SUPERP_HW_SQ_DOORBELLS] = atomic64_read(&sdev->sq_doorbells);
	v[SUPERP_HW_SQ_RING_WQES] = atomic64_read(&sdev->sq_ring_wqes);
	v[SUPERP_HW_TX_BYTES] = s.tx_bytes;
	v[SUPERP_HW_RX_BYTES] = s.rx_bytes;
	v[SUPERP_HW_TX_SACKS] = s.tx_sack;
	v[SUPERP_HW_RX_SACKS] = s.rx_sack;
	v[SUPERP_HW_RX_NACKS] = s.rx_nack;
	v[SUPERP_HW_TX_TRANS_ERRORS] = s.tx_trans_err;
	v[SUPERP_HW_RX_TRANS_ERRORS] = s.rx_trans_err;
	v[SUPERP_HW_TX_RNR] = s.tx_rnr;
	v[SUPERP_HW_RX_RNR] = s.rx_rnr;
	v[SUPERP_HW_CQ_OVERFLOWS] = atomic64_read(&sdev->cq_overflows);
	v[SUPERP_HW_TX_BUSY] = s.tx_busy;
	v[SUPERP_HW_TX_DATAGRAMS] = atomic64_read(&sdev->tx_datagrams);
	v[SUPERP_HW_TX_DGRAM_DROPS] = atomic64_read(&sdev->tx_dgram_drops);
	v[SUPERP_HW_RX_DATAGRAMS] = atomic64_read(&sdev->rx_datagrams);
	return __SUPERP_HW_MAX;
}

const struct ib_device_ops superp_hw_stats_ops = {
	.alloc_hw_port_stats = superp_alloc_hw_port_stats,
	.get_hw_stats = superp_get_hw_stats,
};
