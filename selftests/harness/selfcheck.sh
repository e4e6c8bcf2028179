#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prove the harness can fail: a failing test or capture check, a kernel WARN,
# a hung guest and a guest that never boots must each turn a run red, for
# the reason expected. Prints
# TAP and writes its counts to $SUPERP_RESULTS/counts.
set -uo pipefail
. "$(dirname "$0")/common.sh"

results=$SUPERP_RESULTS
passed=0 failed=0 n=0

expect_red() { # test why-pattern [env...]
	local t=$1 why=$2 out rc
	shift 2
	n=$((n + 1))
	out=$(env "$@" SUPERP_RESULTS="$results/selfcheck/$(basename "$t" .sh)" \
		"$SUPERP_TOP/selftests/harness/run.sh" --no-prepare "$t" 2>&1)
	rc=$?
	# A here-string, not a pipe: with pipefail, grep -q leaving at the
	# first match could make printf fail on the closed pipe, and the
	# pipeline then reported no match.
	if [ $rc -ne 0 ] && grep -qE "$why" <<< "$out"; then
		passed=$((passed + 1))
		echo "ok $n harness turns red on: $(basename "$t" .sh)"
	else
		failed=$((failed + 1))
		echo "not ok $n harness turns red on: $(basename "$t" .sh) (rc=$rc)"
		printf '%s\n' "$out" | sed 's/^/#   /' | tail -30
	fi
}

echo "TAP version 13"
echo "1..7"
expect_red selftests/harness/selfcheck/failing-test.sh '^not ok .*failing-test.sh'
expect_red selftests/harness/selfcheck/stops-early.sh '^not ok .*stops-early.sh .*planned 3, ran 1'
expect_red kunit/harness_selfcheck_test '^not ok .*kunit/harness_selfcheck_test \(1 passed, 1 failed'
expect_red selftests/harness/selfcheck/kernel-warning.sh '^not ok .*guest 1 \(kernel reported a problem\)'
expect_red selftests/harness/selfcheck/capture-check.sh '^not ok .*capture-check.sh \(2 passed, 1 failed, 0 skipped[,)]'
expect_red selftests/harness/selfcheck/hung-guest.sh '^not ok .*guest 1 \(timed out' SUPERP_GROUP_TIMEOUT=45
expect_red selftests/harness/selfcheck/passes.sh 'guest 1 \(did not come up within 2s, twice' SUPERP_BOOT_LIMIT=2
mkdir -p "$results"
echo "$passed $failed 0" > "$results/counts"
[ $failed -eq 0 ]
