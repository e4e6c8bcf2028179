#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check starts from clean results of its own, but a benchmark run
# (results/bench/DATE, make bench) is not its to remove:
# check_results_reset (harness/common.sh) removes what make check writes
# and nothing else.
# superp-topology: host
# superp-timeout: 30
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../harness/common.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/bench/2026-01-01-000000" "$dir/suite/test-pair" "$dir/selfcheck/no-boot"
echo row > "$dir/bench/2026-01-01-000000/rows.txt"
echo x > "$dir/phases"

tap_plan 4
check "reset done" check_results_reset "$dir"
check "make bench's results kept" test -s "$dir/bench/2026-01-01-000000/rows.txt"
check "the suite's and the self-check's results gone" \
	sh -c "! test -e '$dir/suite' && ! test -e '$dir/selfcheck'"
check "the phase log gone" sh -c "! test -e '$dir/phases'"
tap_exit
