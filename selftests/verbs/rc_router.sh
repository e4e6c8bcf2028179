#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# RC queue pairs through a SUNH router: A (guest 2, 10.23.0.2, SUNH 2) and
# B (guest 3, 10.23.1.3, SUNH 259) run the kernel verbs probe
# (probes/superp_rc_probe.c) over a SUNH connection that R (guest 1)
# forwards; clean, then with netem (loss, reordering, duplication) on R's
# two output ports. The host decodes both segments' captures with the
# project's dissector afterwards (rc_router_capture).
# superp-topology: router
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 600
# superp-capture: rc_router_capture
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

R=1 A=2 B=3
RC_SIZE=1048576
RC_QPS=2
RC_TPUT_MS=500
RC_NETEM="delay 1ms loss 1% reorder 25% gap 5 duplicate 1%"

case $SUPERP_ID in
$A) me_ip=10.23.0.2 peer_ip=10.23.1.3 me_addr=2 peer_addr=259 role=server ;;
$B) me_ip=10.23.1.3 peer_ip=10.23.0.2 me_addr=259 peer_addr=2 role=client ;;
esac

tap_begin

check "load sunh, subnet 10.23.0.0/16 bits 12" sh -c \
	'modprobe sunh && sunh subnet set 10.23.0.0/16 bits 12'
if [ "$SUPERP_ID" = $R ]; then
	check "R forwards SUNH" sunh forwarding on
else
	# A TCG guest stalls: a long retransmission timeout, as in rc.sh.
	check "superp0 on eth0, SUNH connection $me_addr -> $peer_addr" sh -c "
		modprobe ib_superp && rdma link add superp0 type superp netdev eth0 &&
		ping -c 1 -W 5 $peer_ip > /dev/null &&
		superp conn add dev superp0 lcid 1 rcid 1 encap sunh \
			local $me_addr remote $peer_addr ordered both \
			pdl_retrans_time_out 200000 pdl_max_rtx 8"
	check "superp0 has the RoCE v2 GID of $me_ip" wait_gid superp0 "$me_ip"
fi

# run NAME: both ends run the probe; R waits at the same barriers.
run() {
	if [ "$SUPERP_ID" = $R ]; then
		barrier "rc-$1-start"
		barrier "rc-$1-done"
	else
		probe "$1" superp0 "$role" "$peer_ip" size="$RC_SIZE" \
			qps="$RC_QPS" tput_ms="$RC_TPUT_MS"
	fi
}

run router
if [ "$SUPERP_ID" = $R ]; then
	fwd=$(sunh stats | awk '$1 == "fwd_packets" { print $2 }')
	check "R forwarded the RC traffic ($fwd frames)" [ "${fwd:-0}" -gt 1000 ]
	check "netem on R's eth0 and eth1" sh -c \
		"tc qdisc add dev eth0 root netem $RC_NETEM && tc qdisc add dev eth1 root netem $RC_NETEM"
fi
RC_SIZE=65536
run router-netem
if [ "$SUPERP_ID" = $R ]; then
	tap_diag "R eth1: $(tc -s qdisc show dev eth1 | tr '\n' ' ')"
	check "netem removed" sh -c 'tc qdisc del dev eth0 root && tc qdisc del dev eth1 root'
else
	check "superp0 torn down" sh -c 'rdma link delete superp0 && rmmod ib_superp'
fi
barrier rc-router-gone
check "SUNH subnet removed" sunh subnet del
tap_exit
