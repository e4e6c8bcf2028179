#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prove the harness can fail: a failing test or capture check, a kernel WARN,
# a hung guest, a test its guest cannot stop and a guest that never
# boots must each turn a run red, for
# the reason expected. Prints
# TAP and writes its counts to $SUPERP_RESULTS/counts.
set -uo pipefail
. "$(dirname "$0")/common.sh"

results=$SUPERP_RESULTS
passed=0 failed=0 n=0

# expect_red NAME "TEST..." WHY... [-- ENV...]: one run of the TESTs (one
# boot per kernel); the run must fail and its output match every WHY
# (LABEL=REGEX), one TAP line per WHY. Tests that fail for different
# reasons share a boot (fewer boots, a shorter make check): each WHY
# matches its own test's line.
expect_red() {
	local name=$1 tests=$2 out rc why label whys=() envs=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do whys+=("$1"); shift; done
	[ $# -gt 0 ] && { shift; envs=("$@"); }
	# shellcheck disable=SC2086 # TESTs are words
	out=$(env "${envs[@]}" SUPERP_RESULTS="$results/selfcheck/$name" \
		"$SUPERP_TOP/selftests/harness/run.sh" --no-prepare $tests 2>&1)
	rc=$?
	for why in "${whys[@]}"; do
		n=$((n + 1)) label=${why%%=*} why=${why#*=}
		# A here-string, not a pipe: with pipefail, grep -q leaving at
		# the first match could make printf fail on the closed pipe,
		# and the pipeline then reported no match.
		if [ $rc -ne 0 ] && grep -qE "$why" <<< "$out"; then
			passed=$((passed + 1))
			echo "ok $n harness turns red on: $label"
		else
			failed=$((failed + 1))
			echo "not ok $n harness turns red on: $label (rc=$rc, no line matching $why)"
			printf '%s\n' "$out" | sed 's/^/#   /' | tail -30
		fi
	done
}

s=selftests/harness/selfcheck
echo "TAP version 13"
echo "1..11"
expect_red failures "$s/failing-test.sh $s/stops-early.sh $s/left-behind.sh $s/starts-clean.sh $s/capture-check.sh kunit/harness_selfcheck_test $s/kernel-warning.sh" \
	"failing-test=^not ok .*failing-test.sh" \
	"stops-early=^not ok .*stops-early.sh .*planned 3, ran 1" \
	"left-behind=^not ok .*left-behind.sh .*stopped at its superp-timeout" \
	"starts-clean (not red: the test after it passes)=^ok .*starts-clean.sh \(4 passed, 0 failed" \
	"capture-check=^not ok .*capture-check.sh \(2 passed, 1 failed, 0 skipped[,)]" \
	"harness_selfcheck_test=^not ok .*kunit/harness_selfcheck_test \(1 passed, 1 failed" \
	"kernel-warning=^not ok .*test-single guest 1 \(kernel reported a problem\)"
expect_red hung-guest $s/hung-guest.sh "hung-guest=^not ok .*guest 1 \(timed out" -- SUPERP_GROUP_TIMEOUT=45
expect_red stuck-test $s/stuck-test.sh \
	"stuck-test=^not ok .*guest 1 \(stopped: guest 1: still at .*stuck-test.sh. after [0-9]+s" \
	"stuck-test's tasks=^#   +\[ *[0-9.]+\] task:sleep +state:S" -- SUPERP_TEST_SLACK=20
expect_red no-boot $s/passes.sh "no-boot=guest 1 \(did not come up within 2s, twice" -- SUPERP_BOOT_LIMIT=2
mkdir -p "$results"
echo "$passed $failed 0" > "$results/counts"
[ $failed -eq 0 ]
