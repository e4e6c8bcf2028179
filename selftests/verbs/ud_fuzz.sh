#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hostile datagrams: guest 2 sends guest 1's superp0 datagrams crafted
# with superp-gen --datagram (DCID 0xffff, Documentation/wire-format.rst
# "Datagrams"), UD_FUZZ_COUNT of each kind over SUNH and as many over
# UDP/IPv4: to QP1 with its Q_Key (taken: the MAD layer drops them as bad
# MADs), with another Q_Key, to a QP that does not exist, longer than
# QP1's receives, with two operations, with another opcode, with a pad
# count past the block, cut inside the operation header, and over SUNH
# while guest 1 has no SUPERp subnet (SUNH drops those before superp0).
# Guest 1 counts every one under its reason, exactly; the receive
# accounting identity holds; QP1 still has its receives afterwards
# (udaddy, whose setup goes through the CM's MADs, works); nothing is
# left behind, and the harness checks both consoles (KASAN, UBSAN,
# lockdep, kmemleak).
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 600
# superp-soak-timeout: 1800
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

# The harness passes no environment into the guests: edit these defaults.
UD_FUZZ_COUNT=${UD_FUZZ_COUNT:-$(soak_or 5000 100)}
N=$UD_FUZZ_COUNT

tap_begin

setup() {
	modprobe sunh && sunh subnet set 10.23.0.0/16 bits 12 &&
		setup_superp_common && wait_gid superp0 "$(guest_ip "$me")"
}
check "set up superp0, no connection" setup

# send ENCAP ARGS...: N datagrams from this guest (2) to guest 1's
# superp0 over ENCAP (sunh or udp4), superp-gen's ARGS after the frame's.
# They carry the mark of crafted frames (SUNH flow label or UDP source
# port 2989), which the capture check of the same boot
# (conn/wire_capture) leaves out.
send() {
	local encap=$1 dmac smac
	shift
	if [ "$encap" = sunh ]; then
		dmac=$(ip neigh show "$(guest_ip "$peer")" dev eth0 | awk '{ print $3 }')
		smac=$(cat /sys/class/net/eth0/address)
		superp-gen -n "$N" -i eth0 --encap sunh --smac "$smac" \
			--dmac "$dmac" --saddr "$me" --daddr "$peer" \
			--flow-label 2989 --datagram "$@"
	else
		superp-gen -n "$N" --udp --encap ipv4 --sport 2989 \
			--src-ip "$(guest_ip "$me")" --dst-ip "$(guest_ip "$peer")" \
			--datagram "$@"
	fi
}

QP1="qpn=1,sqpn=5,qkey=0x80010000"
# KIND superp-gen arguments, and the counter that must take them.
kinds() {
	cat <<EOF
mad rx_datagrams --op $QP1,pad=0 --block 256 --pattern 0
qkey rx_drop_dgram_qkey --op qpn=1,sqpn=5,qkey=0x1234,pad=0 --block 256
qp rx_drop_dgram_qp --op qpn=0x123456,sqpn=5,qkey=0x80010000,pad=0 --block 64
long rx_drop_dgram_too_long --op $QP1,pad=0 --block 1024
two-ops rx_drop_dgram_malformed --num-ops 2 --op $QP1,pad=0 --block 64
opcode rx_drop_dgram_malformed --opcode 12 --op qpn=1 --block 64
pad rx_drop_dgram_malformed --op $QP1,pad=255 --block 16
cut rx_drop_dgram_malformed --op $QP1,pad=0 --block 64 @CUT@
EOF
}

if is_coordinator; then
	before=$(hw)
	barrier ud-fuzz-ready
	barrier ud-fuzz-sent
	after=$(hw)
	# delta COUNTER: how much COUNTER grew during the attack.
	delta() {
		echo $(($(echo "$after" | jq ".$1") - $(echo "$before" | jq ".$1")))
	}
	tap_diag "after the attack: $after"
	for c in rx_datagrams rx_drop_dgram_qkey rx_drop_dgram_qp \
		rx_drop_dgram_too_long rx_drop_dgram_malformed; do
		want=$((2 * N * $(kinds | awk -v c="$c" '$2 == c' | wc -l)))
		check "$c grew by $want (every kind, both encapsulations)" \
			test "$(delta "$c")" -eq "$want"
	done
	check "no other drop reason moved" test "$(delta rx_drop_short)$(delta rx_drop_malformed)$(delta rx_drop_unknown_dcid)$(delta rx_drop_dgram_sender)$(delta rx_drop_dgram_no_recv)" = 00000
	check "the receive accounting identity holds" accounting_holds

	# Without a subnet no SUNH source has an IP address.
	check "sunh subnet deleted" sunh subnet del
	before=$(hw)
	barrier ud-fuzz-nosubnet
	barrier ud-fuzz-nosubnet-sent
	after=$(hw)
	tap_diag "no subnet: $after"
	# Without a subnet this node has no SUNH address: SUNH itself drops
	# the frames (and a datagram that raced the deletion would count as
	# rx_drop_dgram_sender).
	check "no subnet: superp0 took none of the $N SUNH datagrams" \
		test "$(delta rx_packets)" -eq 0
	check "sunh subnet set again" sunh subnet set 10.23.0.0/16 bits 12
else
	barrier ud-fuzz-ready
	# Cut 8 bytes into the operation header: SUNH 14 + 8 + 16 + 8 + 8
	# (not padded to Ethernet's 60: SUNH has no length), UDP/IPv4 14 + 20
	# + 8 + 16 + 8 + 8.
	kinds > /tmp/ud-fuzz-kinds
	while read -r kind counter args; do
		for e in sunh udp4; do
			case $e in
			sunh) cut="--truncate 54 --no-pad" ;;
			*) cut="--truncate 74" ;;
			esac
			# shellcheck disable=SC2086
			check "$kind over $e: $N datagrams sent" \
				send "$e" $(echo "$args" | sed "s/@CUT@/$cut/")
		done
	done < /tmp/ud-fuzz-kinds
	barrier ud-fuzz-sent
	barrier ud-fuzz-nosubnet
	check "over SUNH to a guest without a subnet: $N datagrams sent" \
		send sunh --op $QP1,pad=0 --block 64
	barrier ud-fuzz-nosubnet-sent
fi

# QP1 kept its receives: the CM's MADs still get through.
log=/tmp/ud-fuzz-udaddy.log
if is_coordinator; then
	timeout 120 udaddy -c 2 -C 10 > "$log" 2>&1 &
	i=0
	until rdma resource show cm_id 2>/dev/null | grep -q LISTEN; do
		i=$((i + 1))
		[ $i -lt 100 ] || break
		sleep 0.1
	done
	barrier ud-fuzz-udaddy
	wait $!
else
	barrier ud-fuzz-udaddy
	timeout 120 udaddy -c 2 -C 10 -s "$(guest_ip "$peer")" > "$log" 2>&1
fi
rc=$?
tail -3 "$log" | sed 's/^/# /'
check "udaddy after the attack exits 0" test "$rc" -eq 0
check "rdma resource show superp0: nothing left" objects_back superp0 \
	"pd 1 cq 1 qp 1 cm_id 0 mr 0 ctx 0 srq 0"
barrier ud-fuzz-done
check "tear down superp0" teardown_superp_sunh
tap_exit
