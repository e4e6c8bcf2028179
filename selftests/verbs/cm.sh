#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdma_cm between two guests over ib_superp: the IB core's MAD layer
# (QP1, ib_superp's GSI QP: UD datagrams) carries the CM's connection
# setup, so librdmacm's programs work unmodified: rping (RC, its data
# checked with -V), ucmatose (RC), udaddy (UD QPs through RDMA_PS_UDP)
# and perftest's -R mode (ib_write_bw, ib_read_lat, ib_send_bw). Once over
# a SUNH connection and once over a UDP/IPv4 one, as the RC tests set
# them up (selftests/verbs/rc.inc); the RC QPs that rdma_cm makes bind to
# that connection like hand-made ones. While rping listens, `rdma
# resource show cm_id` lists it; afterwards only the core's QP1 (and its
# PD and CQ) is left on superp0, and the receive accounting identity
# holds with the MADs counted as datagrams. Last, without any SUPERp
# connection rping must end with an error (not hang) and the kernel log
# must name the fix.
# superp-topology: pair
# superp-kernel: stock
# superp-capture: cm_capture
# superp-timeout: 900
# superp-soak-timeout: 1800
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

# The harness passes no environment into the guests: edit these defaults.
CM_DEVS=${CM_DEVS:-superp_sunh superp_udp4}
CM_PINGS=${CM_PINGS:-$(soak_or 1000 100)}
CM_TIMEOUT=${CM_TIMEOUT:-120}	# seconds per run

tap_begin

# cm_run NAME SECS LOG SERVER-ARGS -- CLIENT-ARGS: a librdmacm program as
# a server on guest 1 and its client on guest 2; rdma_cm servers do not
# listen on TCP, so the client starts once this server's own cm_id is
# listed listening (by its pid, which busybox's timeout execs the program
# as: the listing of the run before may not be gone yet), or after 10 s,
# with what was listed in the log.
cm_run() {
	local name=$1 secs=$2 log=$3 prog=$4 i pid
	shift 4
	if is_coordinator; then
		timeout "$secs" "$prog" "$@" > "$log" 2>&1 &
		pid=$!
		i=0
		until rdma resource show cm_id > "$log.cm_id" 2>&1 &&
			grep -q "LISTEN .* pid $pid " "$log.cm_id"; do
			i=$((i + 1))
			[ $i -lt 100 ] || { sed 's/^/no listener yet: /' "$log.cm_id" >> "$log"; break; }
			sleep 0.1
		done
		barrier "$name"
		wait "$pid"
	else
		barrier "$name"
		timeout "$secs" "$prog" "$@" > "$log" 2>&1
	fi
}

# Datagrams went both ways: the MADs of the CM, the datagrams of udaddy.
datagrams_went() { hw | jq -e '.rx_datagrams > 0 and .tx_datagrams > 0' > /dev/null; }

# cm_check D NAME DESC CLIENT-OPT PROG ARGS...: PROG ARGS as the server on
# guest 1 and as the client on guest 2, which adds CLIENT-OPT (if any) and
# the server's address; the exit status of each side is checked.
cm_check() {
	local d=$1 name=$2 desc=$3 copt=$4 log=/tmp/cm-$2-$1.log rc
	shift 4
	if is_coordinator; then
		cm_run "cm-$d-$name" "$CM_TIMEOUT" "$log" "$@"
	else
		# shellcheck disable=SC2086 # no option: no word
		cm_run "cm-$d-$name" "$CM_TIMEOUT" "$log" "$@" $copt "$(guest_ip "$peer")"
	fi
	rc=$?
	if [ "$rc" -eq 0 ]; then
		tail -3 "$log"
	else
		cat "$log"
		# The IB CM's own counts of what it sent and took (REQ,
		# REJ, ...): which side dropped or refused the exchange.
		(cd /sys/class/infiniband/superp0/ports/1 2>/dev/null &&
			grep -H . cm_tx_msgs/* cm_rx_msgs/* cm_rx_duplicates/* | tr '\n' ' ')
		echo
	fi | sed 's/^/# /'
	check "$d: $desc exits 0" test "$rc" -eq 0
}

for d in $CM_DEVS; do
	check "$d: set up superp0" "setup_$d"
	before=$(objects superp0)
	check "$d: the core's QP1 is superp0's only QP ($before)" \
		sh -c "echo '$before' | grep -q 'qp 1 '"

	log=/tmp/cm-rping-$d.log
	if is_coordinator; then
		cm_run "cm-$d-rping" "$CM_TIMEOUT" "$log" rping -s -V \
			-a "$(guest_ip "$me")" -C "$CM_PINGS"
	else
		cm_run "cm-$d-rping" "$CM_TIMEOUT" "$log" rping -c -V -v \
			-a "$(guest_ip "$peer")" -C "$CM_PINGS"
	fi
	rc=$?
	tail -3 "$log" | sed 's/^/# /'
	check "$d: rping -C $CM_PINGS -V exits 0" test "$rc" -eq 0
	if is_coordinator; then
		sed 's/^/# /' "$log.cm_id"
		check "$d: rdma resource show cm_id listed rping listening on superp0" \
			grep -q "superp0/1 .*LISTEN.*rping" "$log.cm_id"
	fi
	if ! is_coordinator; then
		check "$d: rping -v printed $CM_PINGS pings" \
			test "$(grep -c '^ping data: rdma-ping-' "$log")" -eq "$CM_PINGS"
	fi

	cm_check "$d" ucmatose "ucmatose (4 connections, 20 messages each)" -s \
		ucmatose -c 4 -C 20
	cm_check "$d" udaddy "udaddy (4 UD QPs, 20 datagrams each)" -s \
		udaddy -c 4 -C 20
	# perftest over rdma_cm (-R): RC QPs bound like the others.
	for t in ib_write_bw ib_read_lat ib_send_bw; do
		cm_check "$d" "$t" "$t -R -n 200" "" "$t" -R -d superp0 -n 200
	done

	check "$d: rdma resource show superp0 as before ($before)" \
		objects_back superp0 "$before"
	check "$d: MADs went as datagrams" datagrams_went
	barrier "cm-$d-done"
	check "$d: the receive accounting identity holds" accounting_holds
	tap_diag "$d: $(hw)"
	check "$d: tear down superp0" "teardown_$d"
done

# No SUPERp connection between the guests: rdma_cm's RC QPs cannot bind.
# The QP's move to RTR fails (one kernel line names the fix), the side
# that failed rejects or drops the connection, and both programs end with
# an error instead of waiting.
setup_alone() { setup_superp_common && wait_gid superp0 "$(guest_ip "$me")"; }
check "no connection: set up superp0 alone" setup_alone
log=/tmp/cm-noconn.log
if is_coordinator; then
	cm_run cm-noconn 90 "$log" rping -s -a "$(guest_ip "$me")" -C 10
else
	cm_run cm-noconn 90 "$log" rping -c -a "$(guest_ip "$peer")" -C 10
fi
rc=$?
sed 's/^/# /' "$log"
check "no connection: rping ends with an error, not at its timeout (exit $rc)" \
	sh -c "[ $rc -ne 0 ] && [ $rc -ne 124 ]"
barrier cm-noconn-done
noconn_said() { dmesg | grep -q "no connection to $(guest_ip "$peer").*superp conn add"; }
if is_coordinator; then
	check "no connection: the kernel named the fix (superp conn add)" noconn_said
fi
check "no connection: rdma resource show superp0 back to QP1 alone" \
	objects_back superp0 "pd 1 cq 1 qp 1 cm_id 0 mr 0 ctx 0 srq 0"
check "no connection: tear down superp0" teardown_superp
tap_exit
