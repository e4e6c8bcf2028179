# SPDX-License-Identifier: GPL-2.0
# Helpers for SUPERp selftests (sourced). Tests print TAP 13 like kselftest
# and exit 0 (pass), 1 (fail) or 4 (skip).
#
# Inside a guest the harness exports:
#   SUPERP_ID        this guest's number, 1..SUPERP_NGUESTS (1 coordinates)
#   SUPERP_NGUESTS   guests in the topology
#   SUPERP_TOPOLOGY  single | pair | router
#   SUPERP_KERNEL    test (debug kernel) | stock (Debian's kernel) |
#                    bench (no debugging, rxe and siw)
#   SUPERP_ROOT      the project files in the guest (modules/, bin/, selftests/)
#   SUPERP_TEST      the test's name in the plan (selftests/AREA/NAME.sh)
#   SUPERP_BOOT      1, then 2, ... after a test rebooted the guest
#   SUPERP_SOAK      1 under make soak: tests run their long form (soak_or)
#   SUPERP_TIME_SCALE  the harness's time scale, percent (scaled_s)

# soak_or LONG SHORT: a setting's value under make soak, or in make check.
soak_or() { if [ "${SUPERP_SOAK:-}" = 1 ]; then echo "$1"; else echo "$2"; fi; }

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

# The capture checks' display filter (tshark with tools/wireshark/superp.lua)
# for a frame the dissector marks malformed or warns about; a check may add
# its own.
capture_bad="_ws.malformed || superp.expert.short_frame || superp.expert.block_small ||
     superp.expert.num_ops_len || superp.expert.num_ops_opcode ||
     superp.expert.unknown_opcode || superp.expert.pad_too_large ||
     superp.expert.reserved || superp.expert.trailing ||
     superp.expert.pure_ack || superp.expert.ext_len || sunh.expert.short_frame"

# A test that rebooted its guest continues its count (guest_reboot).
_tap_n=0
_tap_failed=0
if [ -n "${SUPERP_TAP_RESUME:-}" ]; then
	_tap_n=${SUPERP_TAP_RESUME%%:*}
	_tap_failed=${SUPERP_TAP_RESUME#*:}
fi

# tap_plan N: results to come, when every run has the same number. A test
# whose guests check different things starts with tap_begin instead and
# tap_exit prints the plan at the end (TAP 13 allows either); each guest
# then reports only what it checked. The harness compares plan and results.
tap_plan() { echo "TAP version 13"; echo "1..$1"; _tap_planned=1; }
tap_begin() { echo "TAP version 13"; }
tap_diag() { echo "# $*"; }

# With SUPERP_TAP_TIMES=1 (guest parameter superp.times=1) each result is
# followed by "# @t UPTIME": where a test's time goes, for a profile.
_tap_time() {
	local up
	[ "${SUPERP_TAP_TIMES:-}" = 1 ] || return 0
	read -r up _ < /proc/uptime
	echo "# @t $up"
}

ok() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n $*"
	_tap_time
}

not_ok() {
	_tap_n=$((_tap_n + 1))
	_tap_failed=$((_tap_failed + 1))
	echo "not ok $_tap_n $*"
	_tap_time
}

skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n $* # SKIP"
	_tap_time
}

# check "description" command args...: one TAP line from a command's status;
# the command's output is shown as diagnostics when it fails.
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		not_ok "$desc"
		printf '%s\n' "$out" | sed 's/^/#   /'
	fi
}

# output_has PATTERN command args...: the command's output (stdout and
# stderr) has a line matching the extended regex PATTERN, whatever its exit
# status; the output is shown when it does not. For use with check.
output_has() {
	local pattern=$1 out
	shift
	out=$("$@" 2>&1)
	printf '%s\n' "$out" | grep -Eq -- "$pattern" || { printf '%s\n' "$out"; return 1; }
}

# check_fail "description" command args...: the command must fail.
check_fail() {
	local desc=$1
	shift
	if "$@" >/dev/null 2>&1; then not_ok "$desc (unexpectedly succeeded)"; else ok "$desc"; fi
}

tap_exit() {
	[ -n "${_tap_planned:-}" ] || echo "1..$_tap_n"
	[ "$_tap_failed" -eq 0 ] && exit $KSFT_PASS || exit $KSFT_FAIL
}

# guest_reboot: this guest reboots now, as a machine that loses power
# would: SysRq b restarts at once, without shutting devices down. The
# harness boots it again and runs this test once more from the start, with
# guest_resumed true and the TAP count continued; the other guests go on
# meanwhile. Call it from the test's own shell, not from a background job
# (the count is the shell's). Not reboot -f: its device shutdown breaks
# virtio-net's queues, and the 6.1 guest kernel's TX cleanup then spins
# for ever in softirq when the device had completed buffers (fixed
# upstream in "virtio_ring: fix infinite loop in virtnet_poll_cleantx when
# device is broken"): the guest never restarts.
guest_reboot() {
	echo "@@SUPERP-REBOOT $SUPERP_TEST $_tap_n $_tap_failed" > /dev/ttyS1
	sync
	echo b > /proc/sysrq-trigger 2>/dev/null || reboot -f
	sleep 600
}
guest_resumed() { [ -n "${SUPERP_TAP_RESUME:-}" ]; }

# now_ms: milliseconds since boot, in steps of 10 (busybox's date has no
# %N). awk, not shell arithmetic: a fraction such as "08" is not octal.
now_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }

# sunreclaim: the kernel's unreclaimable slab now, kB.
sunreclaim() { awk '$1 == "SUnreclaim:" { print $2 }' /proc/meminfo; }
# has_kasan: the running kernel has generic KASAN and its quarantine.
has_kasan() { grep -q ' kasan_quarantine_reduce$' /proc/kallsyms; }

# jq_true FILTER command...: the command's JSON output satisfies FILTER.
jq_true() {
	local filter=$1 out
	shift
	out=$("$@") || return 1
	printf '%s\n' "$out" | jq -e "$filter" > /dev/null || { printf '%s\n' "$out"; return 1; }
}

# SUPERp connections of superp0 (selftests/conn, selftests/verbs).
# conn_show LCID: the connection with its counters, as JSON.
conn_show() { superp -j -s conn show dev superp0 lcid "$1"; }

# nulls LCID N [TIMEOUT_MS]: N No-op transactions on LCID, all completed
# (probes/superp_null_probe.c).
nulls() {
	modprobe superp_null_probe dev=superp0 lcid="$1" count="$2" \
		timeout_ms="${3:-60000}" || { dmesg | grep superp_null_probe | tail -3; return 1; }
	rmmod superp_null_probe
}

# conn_state LCID: the connection's state (up, broken, quiescent, ...).
conn_state() { superp -j conn show dev superp0 lcid "$1" | jq -r '.[0].state'; }
# wait_state LCID STATE SECS: connection LCID reaches STATE within SECS.
wait_state() {
	local i=0
	until [ "$(conn_state "$1")" = "$2" ]; do
		i=$((i + 1))
		[ $i -lt $(($3 * 5)) ] || { echo "state $(conn_state "$1")"; return 1; }
		sleep 0.2
	done
}

# The address of guest N on segment S (default 0): 10.23.S.N.
guest_ip() { echo "10.23.${2:-0}.$1"; }

# scaled_s SECONDS: a wait's bound on this machine, SECONDS times the
# harness's time scale (SUPERP_TIME_SCALE, percent, never below 100): a
# slower machine gets as long as the test's own timeout does.
scaled_s() { echo $(($1 * ${SUPERP_TIME_SCALE:-100} / 100)); }

# barrier_try NAME [TIMEOUT_S [WORD]]: wait until every guest of the
# topology reaches NAME, for at most TIMEOUT_S (300 unless given) scaled;
# its exit status says whether all came, and nothing else is reported.
# With a WORD (no space), every guest's word is printed on one line, in
# the order of the guests' ids. A test that moved eth0 into a network
# namespace names it in SUPERP_BARRIER_NETNS.
barrier_try() {
	${SUPERP_BARRIER_NETNS:+ip netns exec "$SUPERP_BARRIER_NETNS"} \
		superp-barrier "$(guest_ip 1)" "$SUPERP_ID" "$SUPERP_NGUESTS" \
		"$1" "$(scaled_s "${2:-300}")" ${3:+"$3"}
}

# barrier NAME [TIMEOUT_S]: barrier_try within a test, where a guest that
# gave up waiting is out of step with its peers: the test fails there (a
# not-ok line), whatever it checks afterwards.
barrier() {
	barrier_try "$@" && return 0
	not_ok "barrier $1: not every guest came within $(scaled_s "${2:-300}") s"
	return 1
}

# barrier_words NAME WORD [TIMEOUT_S]: barrier, where each guest brings a
# WORD and all learn every guest's (barrier_try's output). How guests
# agree on a step that only one of them can judge (whether to run it
# again, say).
barrier_words() {
	barrier_try "$1" "${3:-300}" "$2" && return 0
	not_ok "barrier $1: not every guest came within $(scaled_s "${3:-300}") s"
	return 1
}

is_coordinator() { [ "${SUPERP_ID:-1}" = 1 ]; }
