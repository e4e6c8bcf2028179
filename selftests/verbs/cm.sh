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

# cm_serve SECS LOG PROG ARGS...: on guest 1, a librdmacm program as a
# server (its pid in cm_pid); rdma_cm servers do not listen on TCP, so
# this returns once the server's own cm_id is listed listening (by its
# pid, which busybox's timeout execs the program as: the listing of the
# run before may not be gone yet), or after 10 s, with what was listed in
# the log.
cm_serve() {
	local secs=$1 log=$2 prog=$3 i
	shift 3
	timeout "$secs" "$prog" "$@" > "$log" 2>&1 &
	cm_pid=$!
	i=0
	until rdma resource show cm_id > "$log.cm_id" 2>&1 &&
		grep -q "LISTEN .* pid $cm_pid " "$log.cm_id"; do
		i=$((i + 1))
		[ $i -lt 100 ] || { sed 's/^/no listener yet: /' "$log.cm_id" >> "$log"; break; }
		sleep 0.1
	done
}

# cm_run NAME SECS LOG PROG ARGS...: PROG as a server on guest 1 and its
# client on guest 2, which starts once the server listens; each side's
# exit status.
cm_run() {
	local name=$1 secs=$2 log=$3
	shift 3
	if is_coordinator; then
		cm_serve "$secs" "$log" "$@"
		barrier "$name"
		wait "$cm_pid"
	else
		barrier "$name"
		timeout "$secs" "$@" > "$log" 2>&1
	fi
}

# The IB CM's own counts of what it sent and took (REQ, REJ, ...): which
# side dropped or refused the exchange.
cm_counters() {
	(cd /sys/class/infiniband/superp0/ports/1 2>/dev/null &&
		grep -H . cm_tx_msgs/* cm_rx_msgs/* cm_rx_duplicates/* | tr '\n' ' ')
	echo
}

# cm_verdict DESC RC LOG: "DESC exits 0", with the end of LOG when it
# did, else all of LOG and the CM's counts.
cm_verdict() {
	if [ "$2" -eq 0 ]; then
		tail -3 "$3"
	else
		cat "$3"
		cm_counters
	fi | sed 's/^/# /'
	check "$1 exits 0" test "$2" -eq 0
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
	cm_verdict "$d: $desc" "$rc" "$log"
}

# perftest's -R mode makes two rdma_cm connections in turn: one that
# carries its key exchange, then, once both sides have spoken over it, the
# test's own. Its client may ask for the second before the server listens
# for it (the IB CM refuses: REJ, invalid service ID, status 8); perftest
# then means to try again, 10 times 100 ms apart, but 4.5's retry reuses
# the cm_ids it has just destroyed and the client crashes. So the pair
# runs again when, and only when, the client saw that refusal, at most
# CM_PERF_RUNS times; any other failure, or the refusal every time, fails.
# The server ends with its client (their last words are over the first
# connection); one still running CM_PERF_GRACE s later is stopped.
CM_PERF_RUNS=${CM_PERF_RUNS:-3}
CM_PERF_GRACE=${CM_PERF_GRACE:-20}
perf_refused() { grep -q 'RDMA_CM_EVENT_REJECTED; error: 8\.' "$1"; }
cm_perftest() {
	local d=$1 t=$2 n=${2##*/} run=1 rc log vote votes i
	shift 2
	while :; do
		log=/tmp/cm-$n-$d.$run.log
		vote=-
		if is_coordinator; then
			cm_serve "$CM_TIMEOUT" "$log" "$t" "$@"
			barrier "cm-$d-$n-$run"
			barrier "cm-$d-$n-$run-end"
			i=0
			while kill -0 "$cm_pid" 2> /dev/null &&
				[ $i -lt $(($(scaled_s "$CM_PERF_GRACE") * 10)) ]; do
				i=$((i + 1))
				sleep 0.1
			done
			kill "$cm_pid" 2> /dev/null &&
				echo "stopped: still running $CM_PERF_GRACE s after its client" >> "$log"
			wait "$cm_pid"
			rc=$?
		else
			barrier "cm-$d-$n-$run"
			timeout "$CM_TIMEOUT" "$t" "$@" "$(guest_ip "$peer")" > "$log" 2>&1
			rc=$?
			barrier "cm-$d-$n-$run-end"
			[ $rc -ne 0 ] && perf_refused "$log" && vote=refused
		fi
		votes=$(barrier_words "cm-$d-$n-$run-verdict" "$vote") || votes=
		case " $votes " in
		*" refused "*) [ $run -lt "$CM_PERF_RUNS" ] || break ;;
		*) break ;;
		esac
		sed 's/^/# /' "$log"
		tap_diag "$d: $t -R: its client asked before the server listened (REJ 8), run $run of $CM_PERF_RUNS; again"
		run=$((run + 1))
	done
	cm_verdict "$d: $t $*" "$rc" "$log"
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
	# perftest over rdma_cm (-R): RC QPs bound like the others; -F as in
	# perftest.sh (testing.rst, perftest.sh's paragraph).
	for t in ib_write_bw ib_read_lat ib_send_bw; do
		cm_perftest "$d" "$t" -R -d superp0 -n 200 -F
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
