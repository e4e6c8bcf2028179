#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Teardown under traffic (issue 14), on ib_superp over a SUNH connection
# between two guests, with the kernel RC probe (kunit/superp_rc_probe.c)
# moving verified data: the client's eth0 down for 2 s then up, and an MTU
# change on both guests (9000 -> 1500 -> 9000), each while the probe runs
# (the transfer completes, data checked); netdev unregister under a device
# (superp on a veth end with a connection, the veth deleted); rmmod sunh
# while ib_superp serves a SUNH connection (refused: in use), then after
# ib_superp went (succeeds); the client's ib_superp unloaded and set up
# again with both ends' connection re-added (traffic flows again). After
# each probe run the device's objects are what they were before it.
# The peer's device deleted or unloaded under traffic is rc.sh's
# peer-gone run, not repeated here. Documentation/superp-rc.rst,
# "Teardown", says what each case does and why.
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 600
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))
role=server
is_coordinator || role=client

TD_SIZE=1048576		# largest message of each probe run
TD_TPUT_MS=2000		# per throughput figure (tput-64, tput-4K, tput-1M)
TD_MTU=$(cat /sys/class/net/eth0/mtu)

tap_begin


# run_log NAME: what the probe run NAME printed so far.
run_log() {
	dmesg | superp_probe_lines "$1"
}
# on_step NAME STEP CMD...: once the probe run NAME printed STEP, CMD
# (in the background of the probe; bounded by 60 s of waiting); fails
# when the probe had finished before CMD did (no traffic to disturb).
on_step() {
	local name=$1 step=$2 i=0
	shift 2
	until run_log "$name" | grep -q "superp_rc_probe: $step "; do
		i=$((i + 1))
		[ $i -lt 300 ] || { echo "no $step"; return 1; }
		sleep 0.2
	done
	timeout 60 sh -c "$*" || return 1
	! run_log "$name" | grep -q 'superp_rc_probe: summary ' ||
		{ echo "the probe ended first"; return 1; }
}

# td_run NAME WHO CMD: the probe run NAME with CMD run on side WHO (server,
# client or both) once the run's first step (send-1) passed, i.e. while
# the later steps move data (TD_TPUT_MS per throughput figure makes the
# run outlast CMD); then the device's objects as before.
td_run() {
	local name=$1 who=$2 cmd=$3 before apid= arc
	before=$(objects superp0)
	if [ "$who" = both ] || [ "$who" = "$role" ]; then
		on_step "$name" send-1 "$cmd" > "/tmp/td-$name.action" 2>&1 &
		apid=$!
	fi
	probe "$name" superp0 "$role" "$(guest_ip "$peer")" size="$TD_SIZE" tput_ms="$TD_TPUT_MS"
	if [ -n "$apid" ]; then
		wait "$apid"
		arc=$?
		check "$name: '$cmd' during the transfer ($(tr '\n' ' ' < "/tmp/td-$name.action"))" \
			test "$arc" -eq 0
	fi
	tap_diag "$name: $(rdma statistic show link superp0/1 2>&1 | tr '\n' ' ')"
	check "$name: rdma resource show superp0 as before ($before)" \
		test "$(objects superp0)" = "$before"
}

check "set up superp0 over SUNH" setup_superp_sunh

# 1. The client's data link down for 2 s: the engine retransmits
# until it is back (the connection's budget is 51 s, rc.sh).
td_run netdev-down client \
	"ip link set eth0 down && sleep 2 && ip link set eth0 up"
barrier td-down

# 2. MTU 9000 -> 1500 -> 9000 on both: packets of the QPs' path MTU (4096,
# set at RTR) do not fit 1500; they are retransmitted once it is back.
td_run mtu both \
	"ip link set eth0 mtu 1500 && sleep 1 && ip link set eth0 mtu $TD_MTU"
check "mtu: eth0 back at $TD_MTU" test "$(cat /sys/class/net/eth0/mtu)" = "$TD_MTU"
barrier td-mtu

# 3. The netdev under a device unregistered: superp on one end of a veth,
# with a UDP/IPv4 connection (no peer needed: nothing is sent).
# The unregistration is queued (ib_unregister_device_queued()): wait.
veth_gone() {
	local i=0
	while rdma link show 2>/dev/null | grep -q 'superp1/' ||
		[ -e /sys/class/infiniband/superp1 ]; do
		i=$((i + 1))
		[ $i -lt 50 ] || { rdma link show; return 1; }
		sleep 0.2
	done
}
check "veth: add the pair" sh -c 'ip link add tdv0 type veth peer name tdv1 &&
	ip addr add 10.99.0.1/24 dev tdv0 && ip addr add 10.99.0.2/24 dev tdv1 &&
	ip link set tdv0 up && ip link set tdv1 up'
check "veth: rdma link add superp1 on tdv0" rdma link add superp1 type superp netdev tdv0
check "veth: a connection on superp1" superp conn add dev superp1 lcid 9 rcid 9 \
	encap udp4 local 10.99.0.1 remote 10.99.0.2 $superp_slow
check "veth: ip link del tdv0 returns" timeout 30 ip link del tdv0
check "veth: superp1 is gone (rdma link show, sysfs)" veth_gone
check "veth: superp0 still there" test -e /sys/class/infiniband/superp0
barrier td-veth

# 4. rmmod sunh while ib_superp serves a SUNH connection.
# ib_superp uses sunh's symbols: the module loader refuses (in use).
sunh_refused() {
	local out
	out=$(rmmod sunh 2>&1) && return 1
	echo "$out"
	echo "$out" | grep -Eqi 'in use|temporarily unavailable'
}
check "rmmod sunh with a SUNH connection: refused, in use" sunh_refused
check "sunh still loaded" grep -q '^sunh ' /proc/modules
barrier td-sunh

# 7. The client loses its state (ib_superp unloaded, as a reboot would):
# it sets superp0 up again; the server's connection still expects the old
# PSNs, so both ends re-add the connection (superp conn del + add).
if [ "$role" = client ]; then
	check "restart: client unloads ib_superp" teardown_superp
	check "restart: client sets superp0 up again" sh -c \
		'modprobe ib_superp && rdma link add superp0 type superp netdev eth0'
fi
barrier td-restart-gone
[ "$role" = server ] && check "restart: server: conn del" superp conn del dev superp0 lcid 1
barrier td-restart-del
check "restart: conn add" superp conn add dev superp0 lcid 1 rcid 1 encap sunh \
	local "$me" remote "$peer" $superp_slow
check "restart: GID back" wait_gid superp0 "$(guest_ip "$me")"
barrier td-restart-add
td_run restart none ":"

# 4 (cont.). Once ib_superp went, sunh unloads.
check "tear down superp0" teardown_superp
check "rmmod sunh after ib_superp: succeeds" rmmod sunh
barrier td-end
tap_exit
