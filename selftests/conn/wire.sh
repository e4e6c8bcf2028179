#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Connections on the wire between two guests: over SUNH, UDP/IPv4 and
# UDP/IPv6, No-op transactions (probes/superp_null_probe.c) flow both ways
# at once and all complete; the counters move (tx_new, rx_pkts, delivered)
# with nothing dropped or lost; a soft shutdown on both ends (the spec's
# Last NULL procedure) ends quiescent on both, and `superp monitor` shows
# it. Under 10% loss (netem on both guests) every transaction still
# completes and retransmissions are counted; when the peer vanishes (100%
# loss) the connection breaks after pdl_max_rtx, its transactions fail
# and `superp monitor` prints conn_broken with ETIMEDOUT. Frames crafted
# with superp-gen (unknown DCID, wrong peer, wrong encapsulation,
# malformed, short) are counted under their reason and dropped. The
# capture of the segment decodes with the project's dissector without a
# malformed mark (wire_capture).
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 600
# superp-capture: wire_capture
. "$SUPERP_ROOT/selftests/lib.sh"

me=$SUPERP_ID
peer=$((3 - me))

tap_begin

# flow LCID NAME: both guests send at once; counters; no drops anywhere.
flow() {
	barrier "$2-up"
	check "$2: 500 No-op transactions complete" nulls "$1" 500
	barrier "$2-sent"
	tap_diag "$2: $(conn_show "$1" | jq -c '.[0].stats')"
	check "$2: tx_new, rx_pkts and delivered moved, nothing lost or dropped" jq_true \
		'.[0].stats | .tx_new >= 500 and .rx_pkts >= 500 and .delivered >= 500 and
		 .tx_err == 0 and .rx_dropped == 0' conn_show "$1"
	check "$2: no packet dropped on the device" jq_true \
		'.[0].drops | add == 0' superp -j dev show superp0
}

# shutdown_both LCID NAME: soft shutdown on both ends, quiescent on both.
shutdown_both() {
	superp monitor > "/tmp/monitor-$2" 2>&1 &
	mon=$!
	sleep 1
	barrier "$2-shutdown"
	check "$2: soft shutdown" superp conn shutdown dev superp0 lcid "$1" soft
	check "$2: quiescent" wait_state "$1" quiescent 10
	barrier "$2-quiescent"
	kill "$mon"
	wait "$mon" 2>/dev/null
	check "$2: monitor printed the quiescent event" \
		grep -q "^superp0 lcid $1 event quiescent" "/tmp/monitor-$2"
}

check "modprobe ib_superp" modprobe ib_superp
check "sunh subnet 10.23.0.0/16 bits 12" sunh subnet set 10.23.0.0/16 bits 12
check "rdma link add superp0 on eth0" rdma link add superp0 type superp netdev eth0
# SUNH resolves through ARP: make the peer's entry valid first.
ping -c 1 -W 2 "$(guest_ip "$peer")" > /dev/null

# TCG guests on a shared host stall for hundreds of milliseconds: the
# spec's 20 ms retransmission timeout would break connections that work.
slow="pdl_retrans_time_out 200000 pdl_max_rtx 8"
# Source ports (flow entropy, SUNH flow label) of our own: the capture
# check tells the frames superp-gen crafts (flow label / port 2989) apart.
sport() { echo $((50000 + $1)); }

# SUNH: the SUNH address is the host part of the guest's IP address.
check "sunh: conn add lcid 1" superp conn add dev superp0 lcid 1 rcid 1 \
	encap sunh local "$me" remote "$peer" sport "$(sport 1)" $slow
flow 1 sunh
shutdown_both 1 sunh

check "udp4: conn add lcid 2" superp conn add dev superp0 lcid 2 rcid 2 \
	encap udp4 local "$(guest_ip "$me")" remote "$(guest_ip "$peer")" \
	sport "$(sport 2)" $slow
flow 2 udp4
shutdown_both 2 udp4

check "udp6: fd00:23::$me on eth0" ip -6 addr add "fd00:23::$me/64" dev eth0 nodad
check "udp6: conn add lcid 3" superp conn add dev superp0 lcid 3 rcid 3 \
	encap udp6 local "fd00:23::$me" remote "fd00:23::$peer" sport "$(sport 3)" $slow
flow 3 udp6
shutdown_both 3 udp6

# Loss: netem drops 10% of each guest's frames; retransmissions repair.
check "loss: conn add lcid 4 (udp4)" superp conn add dev superp0 lcid 4 rcid 4 \
	encap udp4 local "$(guest_ip "$me")" remote "$(guest_ip "$peer")" \
	sport "$(sport 4)" $slow
check "loss: netem loss 10% on eth0" tc qdisc add dev eth0 root netem loss 10%
barrier loss-up
check "loss: 300 No-op transactions complete" nulls 4 300 120000
barrier loss-sent
check "loss: netem removed" tc qdisc del dev eth0 root
tap_diag "loss: $(conn_show 4 | jq -c '.[0].stats')"
check "loss: retransmissions counted, every transaction delivered, still up" jq_true \
	'.[0] | .state == "up" and .stats.delivered >= 300 and
	 .stats.tx_rtx_timer + .stats.tx_rtx_fast + .stats.tx_rtx_proactive +
	 .stats.tx_rtx_tail > 0' conn_show 4

# A peer that vanishes: guest 1 loses every frame it sends; its connection
# breaks after pdl_max_rtx retransmissions (50 ms, then doubling). One
# No-op goes through first: until a fresh connection's handshake is done,
# no transaction starts (superp-engine.rst, "A peer that lost its state"),
# and these are to fail in flight.
check "vanish: conn add lcid 5 (sunh, pdl_max_rtx 3)" superp conn add dev superp0 \
	lcid 5 rcid 5 encap sunh local "$me" remote "$peer" sport "$(sport 5)" \
	pdl_retrans_time_out 50000 pdl_max_rtx 3
barrier vanish-up
if is_coordinator; then
	superp monitor > /tmp/monitor-vanish 2>&1 &
	mon=$!
	sleep 1
	check "vanish: one No-op transaction completes (handshake done)" nulls 5 1
	check "vanish: netem loss 100% on eth0" tc qdisc add dev eth0 root netem loss 100%
	check_fail "vanish: No-op transactions fail" nulls 5 10 30000
	check "vanish: netem removed" tc qdisc del dev eth0 root
	kill "$mon"
	wait "$mon" 2>/dev/null
	check "vanish: broken, conn_broken counted once" jq_true \
		'.[0].state == "broken" and .[0].events.conn_broken == 1' conn_show 5
	check "vanish: monitor printed conn_broken with ETIMEDOUT (110)" \
		grep -q '^superp0 lcid 5 event conn_broken ([0-9]*) value 110$' /tmp/monitor-vanish
	check "vanish: the transactions failed with ETIMEDOUT (-110)" sh -c \
		'dmesg | grep -q "superp_null_probe: superp0 lcid 5: 10 submitted, 0 completed, 10 failed"'
fi
barrier vanish-done

# Drop reasons: guest 1 crafts frames for guest 2 (flow label / UDP source
# port 2989 mark them for the capture check); guest 2 counts each reason.
# One read for all five: each superp and jq costs most of a second here.
reasons="short malformed unknown_dcid wrong_peer wrong_encap"
drop_counts() {
	superp -j dev show superp0 | jq -r ".[0].drops | [.$(echo $reasons | sed 's/ /, ./g')] | @tsv"
}
is_coordinator || before=$(drop_counts)
barrier drops-counted
if is_coordinator; then
	gen() { superp-gen -i eth0 --smac "52:54:00:23:00:0$me" --dmac "52:54:00:23:00:0$peer" "$@"; }
	sunh="--saddr $me --daddr $peer --flow-label 2989"
	ip4="--encap ipv4 --src-ip $(guest_ip "$me") --dst-ip $(guest_ip "$peer") --sport 2989"
	check "craft: unknown DCID (60)" gen $sunh --dcid 60 --opcode noop --eom -n 3
	check "craft: wrong peer (SUNH source 7 to lcid 1)" \
		gen --saddr 7 --daddr "$peer" --flow-label 2989 --dcid 1 --opcode noop --eom -n 3
	check "craft: wrong encapsulation (UDP/IPv4 to the SUNH lcid 1)" \
		gen $ip4 --dcid 1 --opcode noop --eom -n 3
	check "craft: malformed (reserved TAL bits)" gen $sunh --dcid 1 --opcode noop --tal-rsvd 1 -n 3
	check "craft: short (cut inside the PDL, no Ethernet padding)" \
		gen $sunh --dcid 1 --opcode noop --truncate 40 --no-pad -n 3
fi
barrier drops-sent
if ! is_coordinator; then
	sleep 1
	after=$(drop_counts)
	i=1
	for r in $reasons; do
		b=$(echo "$before" | cut -f$i) a=$(echo "$after" | cut -f$i)
		check "drops: $r counted ($b -> $a)" test "$a" -eq $((b + 3))
		i=$((i + 1))
	done
	check "drops: no connection saw them" jq_true '.[0].stats.rx_dropped == 0' conn_show 1
fi
barrier drops-done

check "rdma link delete superp0" rdma link delete superp0
check "sunh subnet del" sunh subnet del
check "rmmod ib_superp" rmmod ib_superp
tap_exit
