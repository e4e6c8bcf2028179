#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make soak: the long forms of the tests that have one (selftests that
# declare "# superp-soak-timeout:", KUnit suites with a soak parameter:
# SOAK_KUNIT below), with make check's harness and pass/fail
# rules: the guests run with superp.soak=1 and each test picks its long
# settings (selftests/lib.sh soak_or). make check runs the short forms of
# the same tests. Documentation/testing.rst, "make soak", lists them.
#
#   soak.sh [TEST...]   default: every test with a long form
set -uo pipefail
. "$(dirname "$0")/common.sh"

export SUPERP_PHASE_LOG=$SUPERP_RESULTS/soak-phases
SUPERP_RESULTS=$SUPERP_RESULTS/soak
rm -rf "$SUPERP_RESULTS" "$SUPERP_PHASE_LOG"
mkdir -p "$SUPERP_RESULTS"
t0=$(date +%s)

"$SUPERP_TOP/selftests/harness/setup.sh" || die "package setup failed"
phase_begin "test kernel"
build_test_kernel >/dev/null || die "test kernel build failed"
phase_end

SOAK_KUNIT="kunit/superp_engine_sim_test"
tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
	tests=($SOAK_KUNIT)
	mapfile -t -O 1 tests < <(cd "$SUPERP_TOP" &&
		grep -l '^# superp-soak-timeout:' $(find selftests -name '*.sh' -path 'selftests/*/*' ! -path 'selftests/harness/*') |
		LC_ALL=C sort)
fi
[ ${#tests[@]} -gt 0 ] || die "no test has a long form"
SUPERP_SOAK=1 SUPERP_RESULTS=$SUPERP_RESULTS "$SUPERP_TOP/selftests/harness/run.sh" "${tests[@]}"
rc=$?
echo
echo "Phase times:"
cat "$SUPERP_PHASE_LOG"
printf '%-28s %6ss\n' total $(( $(date +%s) - t0 ))
exit $rc
