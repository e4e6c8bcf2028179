#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make demo`: two guests load SUPERp, attach it to eth0, show the verbs
# device through libibverbs, exchange SUNH echoes, then install the
# SUPERp connections of a two-node domain (superp mesh up) and move RDMA
# traffic over them with RC queue pairs (the kernel verbs probe: SEND,
# WRITE, READ, atomics, RNR, each verified; WRITE throughput figures), run
# ibv_rc_pingpong and perftest (ib_write_bw, ib_send_lat) through the
# provider, show the connection's counters and a short summary for a
# person; the host decodes a few of the link's frames with the project's
# dissector afterwards (demo_decode).
# superp-topology: pair
# superp-kernel: stock
# superp-timeout: 420
# superp-capture: demo_decode
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$(guest_ip "$SUPERP_ID")
peer=$((3 - SUPERP_ID))
tap_begin
tap_diag "guest $SUPERP_ID ($me), kernel $(uname -r)"
check "load sunh and ib_superp" modprobe -a sunh ib_superp
check "rdma link add superp0 type superp netdev eth0" \
	rdma link add superp0 type superp netdev eth0
rdma link show superp0/1 | sed 's/^/# /'
check "ibv_devinfo -d superp0 (through the superp provider)" \
	sh -c 'ibv_devinfo -d superp0 > /tmp/devinfo'
sed 's/^/# /' /tmp/devinfo
check "SUPERp subnet 10.23.0.0/16, 12-bit SUNH addresses" \
	sunh subnet set 10.23.0.0/16 bits 12
barrier attached
check "SUNH echo to the peer's address $peer" \
	sh -c "sunh ping $peer -c 3 -i 0.2 > /tmp/ping"
sed 's/^/# /' /tmp/ping
sunh route show | sed 's/^/# sunh route: /'

# The domain: both nodes by SUNH address, so SUNH carries SUPERp; ordered
# both ways as RC needs; a long retransmission timeout because TCG guests
# stall. Both nodes read the same file and agree on the CIDs.
printf '%s\n' "a 1" "b 2" \
	"defaults ordered both pdl_retrans_time_out 200000 pdl_max_rtx 8" > /tmp/domain
check "SUPERp connection over SUNH to node $peer (superp mesh up)" \
	sh -c 'superp mesh up /tmp/domain > /tmp/mesh'
sed 's/^/# /' /tmp/mesh
superp conn show | sed 's/^/# /'
check "superp0 has the RoCE v2 GID of $me" wait_gid superp0 "$me"
role=server
is_coordinator || role=client
probe demo superp0 "$role" "$(guest_ip "$peer")" size=65536 qps=2 tput_ms=1000 atomics=200

# An unmodified libibverbs program through the provider: guest 1 serves.
gidx=$(roce_gid_index superp0 "$me")
pp_args="-d superp0 -g $gidx -s 65536 -n 100 -c"
# shellcheck disable=SC2086 # pp_args is a command line
pair_run pingpong 18515 120 /tmp/pp.log ibv_rc_pingpong $pp_args
pp_rc=$?
sed 's/^/# /' /tmp/pp.log
check "ibv_rc_pingpong 64 KiB x 100 over SUPERp, every byte checked" \
	test "$pp_rc" -eq 0

# perftest through the provider (its ibv_qp_ex wr_* API): bandwidth of
# 64 KiB RDMA WRITEs, latency of 2-byte SENDs.
perftest() { # NAME PROGRAM ARGS...
	local name=$1 prog=$2 rc
	shift 2
	set -- -d superp0 -x "$gidx" -F "$@"
	pair_run "$name" 18515 120 "/tmp/$name.log" "$prog" "$@"
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/# /' "/tmp/$name.log"
	check "$prog $* over SUPERp" test "$rc" -eq 0
}
perftest write_bw ib_write_bw -s 65536 -n 300 --report_gbits
perftest send_lat ib_send_lat -s 2 -n 300
superp -s conn show | sed 's/^/# counters: /'

# The result, for a person, from the client (it measures throughput).
if ! is_coordinator; then
	stats=$(rdma statistic show link superp0/1 -j)
	stat() { echo "$stats" | jq -r ".[0].$1"; }
	{
		echo "==== SUPERp demo: what just happened ===="
		echo "Two QEMU guests, one virtio-net link, SUPERp over SUNH (EtherType 0x88B5)."
		echo "ibv_rc_pingpong (unmodified rdma-core tool, our provider):"
		grep -E 'bytes in|iters in' /tmp/pp.log | sed 's/^/    /'
		echo "Kernel verbs probe: SEND, WRITE, READ, atomics, RNR, each verified"
		grep '^tput-' /tmp/rc-demo.log | sed 's/^tput-\([^ ]*\) ok /    RDMA WRITE \1: /'
		echo "perftest (unmodified), through the provider:"
		awk '$1 == 65536 && NF >= 5 { print "    ib_write_bw 64 KiB: " $4 " Gbit/s average" }' /tmp/write_bw.log
		awk '$1 == 2 && NF >= 9 { print "    ib_send_lat 2 B: " $5 " us typical, " $8 " us 99th percentile" }' /tmp/send_lat.log
		echo "Reliability at work on this node:"
		echo "    packets sent $(stat tx_packets) (new $(stat tx_new_packets)), received $(stat rx_packets)"
		echo "    retransmissions: timer $(stat retrans_timer), fast $(stat retrans_fast), proactive $(stat retrans_proactive), tail probes $(stat retrans_tail)"
		echo "    duplicates dropped $(stat rx_duplicates), received out of order and held $(stat rx_holding)"
		echo "==========================================="
	} | sed 's/^/# /'
fi
barrier done
check "connections removed (superp mesh down)" superp mesh down /tmp/domain
check "detach and unload" sh -c 'rdma link delete superp0 && rmmod ib_superp sunh'
tap_exit
