#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Loopback: both ends of rdma-core's unmodified programs on one guest's
# superp0. First with no `superp conn` command at all, through the
# device's implicit loopback connection (listed by `superp conn show`,
# deleted by nobody): ibv_rc_pingpong, ibv_ud_pingpong, ib_write_bw and
# rping (rdma_cm, its MADs looped too). Then through a connection to this
# node itself added by hand (`superp conn add ... remote` = local), which
# QPs prefer, over SUNH and over UDP/IPv4. Packets go up the receive path
# without a wire (superp_loop.c): every byte checked (-c), nothing
# dropped, the receive accounting identity holds, nothing left behind.
# superp-topology: single
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=1
ip=$(guest_ip "$me")

tap_begin

port=18600
# pp PROG NAME ARGS...: server and client of PROG on this guest.
pp() {
	local prog=$1 name=$2 pid rc src
	shift 2
	port=$((port + 1))
	"$prog" -d superp0 -g "$gidx" -p "$port" "$@" > "/tmp/$name-server.log" 2>&1 &
	pid=$!
	wait_listening "$port"
	timeout 120 "$prog" -d superp0 -g "$gidx" -p "$port" "$@" 127.0.0.1 \
		> "/tmp/$name-client.log" 2>&1
	rc=$?
	wait "$pid"
	src=$?
	[ $rc -eq 0 ] && [ $src -eq 0 ] ||
		sed 's/^/# /' "/tmp/$name-server.log" "/tmp/$name-client.log"
	check "$name: $prog $* (client $rc, server $src)" test $rc -eq 0 -a $src -eq 0
}

# clean: every packet the device took was processed, a duplicate or a
# datagram, none dropped, at least as many as one pingpong needs.
clean() {
	hw | jq -e '.rx_packets > 100 and .rx_packets == .rx_processed +
		.rx_duplicates + .rx_holding + .rx_datagrams and
		([to_entries[] | select(.key | startswith("rx_drop_")) | .value] | add) == 0' > /dev/null ||
		{ hw; return 1; }
}

check "modprobe sunh ib_superp" modprobe -a sunh ib_superp
check "SUPERp subnet 10.23.0.0/16, 12-bit SUNH addresses" sunh subnet set 10.23.0.0/16 bits 12
check "rdma link add superp0 type superp netdev eth0" rdma link add superp0 type superp netdev eth0
check "superp0 has the RoCE v2 GID of $ip" wait_gid superp0 "$ip"
gidx=$(roce_gid_index superp0 "$ip")

# No connection added: the implicit loopback connection carries them.
implicit_listed() {
	superp -j conn show dev superp0 | jq -e 'length == 1 and .[0].lcid == 65534 and
		.[0].state == "up"' > /dev/null || { superp conn show dev superp0; return 1; }
}
check "implicit: superp conn show lists the loopback connection (CID 65534)" implicit_listed
check_fail "implicit: superp conn del cannot remove it" \
	superp conn del dev superp0 lcid 65534
pp ibv_rc_pingpong "implicit-rc" -s 65536 -n 50 -c
pp ibv_ud_pingpong "implicit-ud" -s 1024 -n 100 -c
# -F: perftest times itself by the cycle counter, whose rate it measures
# against gettimeofday() before its report; on a loaded TCG guest that fit
# can fall below its r^2 of 0.9, and without -F the side that found so
# exits (testing.rst, perftest.sh's paragraph).
perf() {
	ib_write_bw -d superp0 -x "$gidx" -n 500 -p 18598 -F > /tmp/perf-server.log 2>&1 &
	pid=$!
	wait_listening 18598
	timeout 120 ib_write_bw -d superp0 -x "$gidx" -n 500 -p 18598 -F 127.0.0.1 \
		> /tmp/perf-client.log 2>&1 && wait "$pid" ||
		{ sed 's/^/# /' /tmp/perf-server.log /tmp/perf-client.log; return 1; }
}
check "implicit: ib_write_bw -n 500" perf
cm_listening() { rdma resource show cm_id 2>/dev/null | grep -q LISTEN; }
rping_local() {
	timeout 120 rping -s -a "$ip" -C 50 -V > /tmp/rping-server.log 2>&1 &
	pid=$!
	retry 100 0.1 cm_listening
	timeout 120 rping -c -a "$ip" -C 50 -V > /tmp/rping-client.log 2>&1 && wait "$pid" ||
		{ sed 's/^/# /' /tmp/rping-server.log /tmp/rping-client.log; return 1; }
}
check "implicit: rping -C 50 -V (rdma_cm)" rping_local
check "implicit: every packet processed or a datagram, none dropped" clean
check "implicit: rdma resource show: nothing left" nothing_left superp0
check "implicit: superp0 again" sh -c \
	'rdma link delete superp0 && rdma link add superp0 type superp netdev eth0'
check "implicit: its GID again" wait_gid superp0 "$ip"

for encap in sunh udp4; do
	gidx=$(roce_gid_index superp0 "$ip")
	if [ $encap = sunh ]; then
		addr="local $me remote $me"
	else
		# Outside the SUPERp subnet a QP's peer is reached by UDP/IPv4.
		check "udp4: no SUPERp subnet" sunh subnet del
		addr="local $ip remote $ip"
	fi
	# shellcheck disable=SC2086 # whole words
	check "$encap: connection to this node (lcid 5 rcid 5, $addr)" \
		superp conn add dev superp0 lcid 5 rcid 5 encap $encap $addr $superp_slow
	pp ibv_rc_pingpong "$encap-rc" -s 65536 -n 50 -c
	pp ibv_rc_pingpong "$encap-rc-small" -s 1 -n 200 -c
	pp ibv_srq_pingpong "$encap-srq" -s 4096 -n 20 -q 4
	# Its default 16 QPs: the client still has sends in flight when the
	# server, done, destroys its QPs; they must not fail it (superp-rc.rst,
	# "a target QP that is not there").
	pp ibv_srq_pingpong "$encap-srq16" -s 64 -n 200
	check "$encap: every packet processed, none dropped" clean
	check "$encap: connection removed" superp conn del dev superp0 lcid 5
	check "$encap: rdma resource show: nothing left" nothing_left superp0
	# Fresh counters for the next encapsulation.
	check "$encap: superp0 again" sh -c \
		'rdma link delete superp0 && rdma link add superp0 type superp netdev eth0'
	check "$encap: its GID again" wait_gid superp0 "$ip"
done
check "rdma link delete superp0, rmmod ib_superp sunh" sh -c \
	'rdma link delete superp0 && rmmod ib_superp sunh'
tap_exit
