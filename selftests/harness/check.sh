#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: build everything, run every test on the test kernel and on
# Debian's stock kernel, prove the harness can fail, print one summary.
set -uo pipefail
. "$(dirname "$0")/common.sh"

export SUPERP_PHASE_LOG=$SUPERP_RESULTS/phases
check_results_reset "$SUPERP_RESULTS"
mkdir -p "$SUPERP_RESULTS"
t0=$(date +%s)

# On a fresh machine the test kernel builds (both cores, 10 to 12
# minutes) while the packages the build does not need download and
# install (two minutes, mostly waiting on the archive).
phase_begin "setup (the kernel build's packages)"
"$SUPERP_TOP/selftests/harness/setup.sh" kernel || die "package setup failed"
phase_end

(
	phase_begin "test kernel"
	build_test_kernel >/dev/null || die "test kernel build failed"
	phase_end
) &
kernel_pid=$!
phase_begin "setup (Debian packages)"
"$SUPERP_TOP/selftests/harness/setup.sh" || die "package setup failed"
phase_end
wait "$kernel_pid" || exit 1

# Measured once, on a machine no test shares yet.
SUPERP_TIME_SCALE=${SUPERP_TIME_SCALE:-$(time_scale)}
export SUPERP_TIME_SCALE
SUPERP_RESULTS=$SUPERP_RESULTS/suite "$SUPERP_TOP/selftests/harness/run.sh" --guests all
suite_rc=$?

# The host tests (CPU-bound: checkpatch, compilers, tshark) run beside
# the harness's self-check, which spends most of its time waiting for the
# timeouts it provokes; their TAP follows the self-check's.
phase_begin "harness self-check"
SUPERP_PHASE_LOG= SUPERP_RESULTS=$SUPERP_RESULTS/selfcheck "$SUPERP_TOP/selftests/harness/selfcheck.sh" \
	> "$SUPERP_RESULTS/selfcheck.tap" &
self_pid=$!
SUPERP_RESULTS=$SUPERP_RESULTS/host "$SUPERP_TOP/selftests/harness/run.sh" --host all \
	> "$SUPERP_RESULTS/host.tap" 2>&1 &
host_pid=$!
wait "$self_pid"
self_rc=$?
phase_end
cat "$SUPERP_RESULTS/selfcheck.tap"
wait "$host_pid"
host_rc=$?
cat "$SUPERP_RESULTS/host.tap"

read -r p1 f1 s1 < "$SUPERP_RESULTS/suite/counts" || { p1=0 f1=1 s1=0; }
read -r p2 f2 s2 < "$SUPERP_RESULTS/selfcheck/counts" || { p2=0 f2=1 s2=0; }
read -r p3 f3 s3 < "$SUPERP_RESULTS/host/counts" || { p3=0 f3=1 s3=0; }
# The failures again, last: CI keeps the end of a long output.
if grep -qs '^not ok' "$SUPERP_RESULTS"/suite/*.tap "$SUPERP_RESULTS/host.tap" "$SUPERP_RESULTS/selfcheck.tap"; then
	echo
	echo "Failures (the full lines are above, the logs under $SUPERP_RESULTS):"
	grep -hs -A 8 '^not ok' "$SUPERP_RESULTS"/suite/*.tap "$SUPERP_RESULTS/host.tap" \
		"$SUPERP_RESULTS/selfcheck.tap" | head -100
fi
echo
echo "Phase times:"
cat "$SUPERP_PHASE_LOG"
printf '%-28s %6ss\n' total $(( $(date +%s) - t0 ))
echo "Logs: $SUPERP_RESULTS"
echo "check: $((p1 + p2 + p3)) passed, $((f1 + f2 + f3)) failed, $((s1 + s2 + s3)) skipped"
[ $suite_rc -eq 0 ] && [ $self_rc -eq 0 ] && [ $host_rc -eq 0 ] && [ $((f1 + f2 + f3)) -eq 0 ]
