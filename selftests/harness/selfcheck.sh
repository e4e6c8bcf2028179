#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prove the harness can fail: a failing test or capture check, a barrier
# that times out, a kernel WARN,
# a hung guest, a test its guest cannot stop, a guest that never boots and
# one whose kernel never restarts after a reboot must each turn a run red,
# for the reason expected; a boot that stalls after a reboot must be
# booted again. Prints TAP and writes its counts to $SUPERP_RESULTS/counts.
set -uo pipefail
. "$(dirname "$0")/common.sh"

results=$SUPERP_RESULTS
# Measured once, before its runs share the machine.
SUPERP_TIME_SCALE=${SUPERP_TIME_SCALE:-$(time_scale)}
export SUPERP_TIME_SCALE
passed=0 failed=0 n=0

# red_run NAME "TEST..." [ENV...]: one run of the TESTs (one boot per
# kernel), its output and exit status kept for red_judge. Tests that fail
# for different reasons share a boot (fewer boots, a shorter make check).
red_run() {
	local name=$1 tests=$2 dir=$results/selfcheck
	shift 2
	mkdir -p "$dir"
	# shellcheck disable=SC2086 # TESTs are words
	env "$@" SUPERP_RESULTS="$dir/$name" \
		"$SUPERP_TOP/selftests/harness/run.sh" --no-prepare $tests \
		> "$dir/$name.log" 2>&1
	echo $? > "$dir/$name.rc"
}

# red_judge NAME WHY...: the run must have failed and its output match
# every WHY (LABEL=REGEX), one TAP line per WHY: each WHY matches its own
# test's line. green_judge: the same for a run that must have passed.
red_judge() { judge_run red "$@"; }
green_judge() { judge_run green "$@"; }
judge_run() {
	local want=$1 name=$2 out rc why label verdict
	shift 2
	out=$(cat "$results/selfcheck/$name.log")
	rc=$(cat "$results/selfcheck/$name.rc")
	if [ "$rc" -ne 0 ]; then verdict=red; else verdict=green; fi
	for why in "$@"; do
		n=$((n + 1)) label=${why%%=*} why=${why#*=}
		# A here-string, not a pipe: with pipefail, grep -q leaving at
		# the first match could make printf fail on the closed pipe,
		# and the pipeline then reported no match.
		if [ "$verdict" = "$want" ] && grep -qE "$why" <<< "$out"; then
			passed=$((passed + 1))
			echo "ok $n harness turns red on: $label"
		else
			failed=$((failed + 1))
			echo "not ok $n harness turns red on: $label (rc=$rc, $verdict, no line matching $why)"
			printf '%s\n' "$out" | sed 's/^/#   /' | tail -30
		fi
	done
}

s=selftests/harness/selfcheck
echo "TAP version 13"
echo "1..18"
# The hung guest, the stuck test, the guest that never boots and the
# reboots wait most of their time: they run beside the failures' boot (one
# guest each, six at most at once). The two reboot tests have a boot each:
# one after the other they were the self-check's longest run.
(
	red_run hung-guest "$s/hung-guest.sh" SUPERP_GROUP_TIMEOUT=45
	red_run no-boot "$s/passes.sh" SUPERP_BOOT_LIMIT=2
) &
red_run stuck-test "$s/stuck-test.sh" SUPERP_TEST_SLACK=20 &
red_run reboot-stall "$s/reboot-stall.sh" SUPERP_REBOOT_LIMIT=20 \
	SUPERP_REBOOT_APPEND="rdinit=/usr/bin/sleep -- 100000" &
red_run no-restart "$s/no-restart.sh" SUPERP_REBOOT_LIMIT=20 &
# The failures' boots, one per kernel, side by side too.
red_run failures-debug "kunit/harness_selfcheck_test $s/kernel-warning.sh" &
red_run failures "$s/failing-test.sh $s/stops-early.sh $s/left-behind.sh $s/starts-clean.sh $s/capture-check.sh $s/barrier-alone.sh $s/netdev-watchdog.sh"
wait
red_judge failures \
	"failing-test=^not ok .*failing-test.sh" \
	"stops-early=^not ok .*stops-early.sh .*planned 3, ran 1" \
	"left-behind=^not ok .*left-behind.sh .*stopped at its superp-timeout" \
	"starts-clean (not red: the test after it passes)=^ok .*starts-clean.sh \(4 passed, 0 failed" \
	"capture-check=^not ok .*capture-check.sh \(2 passed, 1 failed, 0 skipped[,)]" \
	"barrier-alone=^not ok .*barrier-alone.sh \(2 passed, 1 failed" \
	"netdev-watchdog=^not ok .*stock-single guest 1 \(kernel reported a problem\)" \
	"netdev-watchdog's queues=^#   virtio: +queue_index: +1$"
red_judge failures-debug \
	"harness_selfcheck_test=^not ok .*kunit/harness_selfcheck_test \(1 passed, 1 failed" \
	"kernel-warning=^not ok .*test-single guest 1 \(kernel reported a problem\)"
red_judge hung-guest "hung-guest=^not ok .*guest 1 \(timed out"
red_judge stuck-test \
	"stuck-test=^not ok .*guest 1 \(stopped: guest 1: still at .*stuck-test.sh. after [0-9]+s" \
	"stuck-test's tasks=^#   +\[ *[0-9.]+\] task:sleep +state:S"
red_judge no-boot "no-boot=guest 1 \(did not come up within 2s, twice"
green_judge reboot-stall \
	"reboot-stall (not red: booted again)=^ok .*reboot-stall.sh \(2 passed, 0 failed" \
	"reboot-stall's note=^# stock-single: guest 1: its kernel stopped before /init after the reboot in .*reboot-stall.sh; booted again"
red_judge no-restart \
	"no-restart=^not ok .*guest 1 \(stopped: guest 1: no new kernel started within 20s of its reboot in .*no-restart.sh"
# The watchdog stops a stalled boot and dumps a stuck guest through QEMU's
# monitor (quit, nmi): a command the monitor drops leaves the guest
# running. Twenty QEMUs, each stopped before its first instruction, are told
# to quit: every one must be gone within 2 s.
monitor_quits() {
	local i t q sock=$results/selfcheck/monitor.sock gone=0

	for i in $(seq 20); do
		rm -f "$sock"
		qemu-system-x86_64 -machine pc -accel tcg -S -nodefaults -display none \
			-monitor "unix:$sock,server=on,wait=off" 2> /dev/null &
		q=$!
		for t in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
		qemu_monitor_cmd "$sock" quit
		for t in $(seq 20); do kill -0 $q 2> /dev/null || break; sleep 0.1; done
		if kill -0 $q 2> /dev/null; then kill $q; else gone=$((gone + 1)); fi
		wait $q 2> /dev/null
	done
	rm -f "$sock"
	echo "$gone"
}
n=$((n + 1)) gone=$(monitor_quits)
if [ "$gone" = 20 ]; then
	passed=$((passed + 1))
	echo "ok $n a monitor command takes effect: 20 of 20 QEMUs quit"
else
	failed=$((failed + 1))
	echo "not ok $n a monitor command takes effect: $gone of 20 QEMUs quit"
fi
mkdir -p "$results"
echo "$passed $failed 0" > "$results/counts"
[ $failed -eq 0 ]
