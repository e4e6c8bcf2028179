#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Teardown under traffic, on ib_superp over a SUNH connection
# between two guests, with the kernel RC probe (probes/superp_rc_probe.c)
# moving verified data: the client's eth0 down for 2 s then up, and an MTU
# change on both guests (9000 -> 1500 -> 9000), each while the probe runs
# (the transfer completes, data checked); netdev unregister under a device
# (superp on a veth end with a connection, the veth deleted); rmmod sunh
# while ib_superp serves a SUNH connection (refused: in use), then after
# ib_superp went (succeeds); the client's ib_superp unloaded and set up
# again with both ends' connection re-added (traffic flows again); the
# connection shut down hard, then soft, under traffic (the runs end in
# the right errors, bounded; del + add, traffic flows again); the link
# down and the restart again over a UDP/IPv4 connection. After
# each probe run the device's objects are what they were before it.
# The peer's device deleted or unloaded under traffic is rc.sh's
# peer-gone run, not repeated here. Documentation/superp-rc.rst,
# "Teardown", says what each case does and why.
# superp-topology: pair
# superp-kernel: test
# make check's probe runs take 1 s per throughput figure, make soak's 2 s;
# they run the probe's data steps only (error_steps=0): its error steps
# are rc.sh's, and here only traffic to disturb matters.
# superp-timeout: 600
# superp-soak-timeout: 900
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))
role=server
is_coordinator || role=client

TD_SIZE=1048576		# largest message of each probe run
TD_TPUT_MS=$(soak_or 2000 1000)	# per throughput figure (tput-64, tput-4K, tput-1M)
TD_MTU=$(cat /sys/class/net/eth0/mtu)

tap_begin


# on_step NAME STEP CMD...: once the probe run NAME printed STEP, CMD
# (in the background of the probe; bounded by 60 s of waiting); fails
# when the probe had finished before CMD began (no traffic to disturb).
# A CMD that ends the run (a shutdown) may well see it end before CMD
# returns: the case's own checks say how it ended.
on_step() {
	local name=$1 step=$2
	shift 2
	probe_at_step "$name" "$step" 60 || return 1
	timeout 60 sh -c "$*"
}

# td_action_start NAME WHO CMD: on side WHO (server, client or both), CMD
# in the background once the probe run NAME passed send-1 (on_step);
# TD_APID is its job, empty on the other side.
td_action_start() {
	TD_APID=
	if [ "$2" = both ] || [ "$2" = "$role" ]; then
		on_step "$1" send-1 "$3" > "/tmp/td-$1.action" 2>&1 &
		TD_APID=$!
	fi
}
# td_action_check NAME CMD: where td_action_start ran CMD, it succeeded.
td_action_check() {
	local arc
	[ -n "$TD_APID" ] || return 0
	wait "$TD_APID"
	arc=$?
	check "$1: '$2' during the transfer ($(tr '\n' ' ' < "/tmp/td-$1.action"))" \
		test "$arc" -eq 0
}

# td_run NAME WHO CMD: the probe run NAME with CMD run on side WHO (server,
# client or both) once the run's first step (send-1) passed, i.e. while
# the later steps move data (TD_TPUT_MS per throughput figure makes the
# run outlast CMD); then the device's objects as before.
td_run() {
	local name=$1 who=$2 cmd=$3 before
	before=$(objects superp0)
	td_action_start "$name" "$who" "$cmd"
	probe "$name" superp0 "$role" "$(guest_ip "$peer")" size="$TD_SIZE" tput_ms="$TD_TPUT_MS" \
		error_steps=0 atomics="$PROBE_ATOMICS"
	td_action_check "$name" "$cmd"
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
flows_again restart

# The connection cut under traffic (5, 6): helpers.
TD_CUT_MS=10000		# the probe's limit per wait when a case cuts it
# The bound of such a run, start to summary: the probe waits its limit on
# each step the cut leaves unanswered (six in the soft case, which passes
# a limit of 3 s: 18 s by construction; with 10 s there, 63 s were seen
# on a slow TCG host), plus the steps before it.
TD_CUT_SECS=90
# td_cut NAME WHO CMD [MS]: the probe run NAME with CMD on side WHO once
# send-1 passed, as td_run, but CMD cuts the connection (the probe's limit
# per wait MS, TD_CUT_MS unless given): the run is to end in
# failed steps, so its lines go to TAP as diagnostics and the case checks
# them (in /tmp/rc-NAME.log). Sets TD_BEFORE (objects before), TD_RC (the
# modprobe's status) and TD_SECS (how long the run took).
td_cut() {
	local name=$1 who=$2 cmd=$3 ms=${4:-$TD_CUT_MS} t0 log=/tmp/rc-$1.log
	TD_BEFORE=$(objects superp0)
	td_action_start "$name" "$who" "$cmd"
	echo "rc probe run $name" > /dev/kmsg
	barrier "rc-$name-start"
	t0=$(date +%s)
	modprobe superp_rc_probe dev=superp0 role="$role" peer="$(guest_ip "$peer")" \
		size="$TD_SIZE" tput_ms="$TD_TPUT_MS" timeout_ms="$ms" error_steps=0
	TD_RC=$?
	TD_SECS=$(($(date +%s) - t0))
	[ $TD_RC -eq 0 ] && rmmod superp_rc_probe
	dmesg | superp_probe_lines "$name" | sed -n 's/.*superp_rc_probe: //p' > "$log"
	while read -r line; do
		tap_diag "$name $role: $line"
	done < "$log"
	td_action_check "$name" "$cmd"
	barrier "rc-$name-done"
}
# first_fail NAME ERE: the first failed step of run NAME says ERE, and no
# step found wrong data or waited out a completion (a hang).
first_fail() {
	local log=/tmp/rc-$1.log first
	first=$(grep -m1 '^[^ ]* FAIL ' "$log")
	echo "$first"
	echo "$first" | grep -Eq "$2" || return 1
	! grep -E ' FAIL .*(wrong|no completion)' "$log"
}
td_sunh="encap sunh local $me remote $peer"

# 5. Hard shutdown of the server's connection under traffic. The server's
# connection breaks at once (its QPs to ERR, its WRs fail) and drops what
# comes; nothing tells the client, whose requests go unanswered until its
# retransmission budget breaks its connection too, or, for a request the
# server acknowledged before it stopped (a READ then never answered), the
# transaction timeout: the connection is re-added with pdl_max_rtx 3
# (200 ms x (1 + 2 + 4 + 8), 3 s) and tal_transaction_timeout 4 s.
# Its QPs go to ERR then: the WR on the wire completes
# IB_WC_RETRY_EXC_ERR, the rest flush (Documentation/superp-rc.rst).
conn_readd hard-budget 1 $td_sunh ordered both pdl_retrans_time_out 200000 pdl_max_rtx 3 \
	tal_transaction_timeout 400000000
td_cut hard server "superp conn shutdown dev superp0 lcid 1 hard"
check "hard $role: the run failed within $TD_CUT_SECS s ($TD_SECS s)" \
	cut_failed /tmp/rc-hard.log "$TD_RC" "$TD_SECS" "$TD_CUT_SECS"
check "hard $role: connection broken" wait_state 1 broken 20
[ "$role" = client ] && check "hard client: first failure: retry exceeded" \
	first_fail hard 'transport retry counter exceeded'
check "hard $role: objects as before ($TD_BEFORE)" objects_back superp0 "$TD_BEFORE"
conn_readd hard-readd 1 $td_sunh $superp_slow
flows_again hard-again

# 6. Soft shutdown (Last NULL) of the client's connection under traffic:
# transactions in flight complete, later ones are refused (the WR fails
# IB_WC_RETRY_EXC_ERR, the rest flush; the data that arrived is right).
# The server's probe waits out a completion the client's refused WR never
# sent, on each step after the cut: 3 s (scaled) per wait, not TD_CUT_MS,
# since nothing the case checks comes from those waits (the client's
# refusal is immediate; only send-1 must complete within the limit).
# The server, told second as the spec's connection manager tells both
# ends, shuts down too: both end quiescent.
td_cut soft client "superp conn shutdown dev superp0 lcid 1 soft" "$(scaled_s 3)000"
check "soft $role: the run failed within $TD_CUT_SECS s ($TD_SECS s)" \
	cut_failed /tmp/rc-soft.log "$TD_RC" "$TD_SECS" "$TD_CUT_SECS"
[ "$role" = client ] && check "soft client: first failure: refused" \
	first_fail soft 'transport retry counter exceeded'
[ "$role" = server ] && check "soft server: conn shutdown soft" \
	superp conn shutdown dev superp0 lcid 1 soft
check "soft $role: quiescent" wait_state 1 quiescent 20
check "soft $role: objects as before ($TD_BEFORE)" objects_back superp0 "$TD_BEFORE"
conn_readd soft-readd 1 $td_sunh $superp_slow
flows_again soft-again

# 4 (cont.). Once ib_superp went, sunh unloads.
check "tear down superp0" teardown_superp
check "rmmod sunh after ib_superp: succeeds" rmmod sunh
barrier td-end

# 1 and 7 over a UDP/IPv4 connection (lcid 2): the client's link down for
# 2 s, then the client's ib_superp reloaded and the connection re-added.
check "udp4: set up superp0" setup_superp_udp4
td_run udp-netdev-down client \
	"ip link set eth0 down && sleep 2 && ip link set eth0 up"
barrier td-udp-down
if [ "$role" = client ]; then
	check "udp-restart: client unloads ib_superp" teardown_superp_udp4
	check "udp-restart: client sets superp0 up again" sh -c \
		'modprobe ib_superp && rdma link add superp0 type superp netdev eth0'
fi
barrier td-udp-restart-gone
[ "$role" = server ] && check "udp-restart: server: conn del" superp conn del dev superp0 lcid 2
barrier td-udp-restart-del
check "udp-restart: conn add" superp conn add dev superp0 lcid 2 rcid 2 encap udp4 \
	local "$(guest_ip "$me")" remote "$(guest_ip "$peer")" $superp_slow
check "udp-restart: GID back" wait_gid superp0 "$(guest_ip "$me")"
barrier td-udp-restart-add
flows_again udp-restart
check "udp4: tear down superp0" teardown_superp_udp4
barrier td-udp-end
tap_exit
