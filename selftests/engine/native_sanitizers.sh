#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The PDL/TAL engine built natively (tools/superp-sim) under AddressSanitizer
# and UndefinedBehaviorSanitizer: the KUnit procedure and simulation suites,
# then the simulator at 0%, 1%, 10% and 30% loss, and at 100% loss, where
# the connection must break with every transaction failed, and the matrix
# of transaction windows 1, 4, 8 and 32, without and with barriers, at 1%,
# 10% and 30% loss, three seeds each (and SUPERp-lite's rows), a run that
# cancels one transaction in seven (as a destroyed QP cancels its own), and
# SUPERp-lite lossless and at 0.1% loss, where the connection must break.
# superp-topology: host
# superp-timeout: 600
. "$(dirname "$0")/../lib.sh"

sim=$(cd "$(dirname "$0")/../../tools/superp-sim" && pwd)
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

tap_plan 13
flags="-O1 -g -Werror -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
check "build engine, tests and simulator with ASan/UBSan" \
	make -s -C "$sim" OUT="$build" CFLAGS="$flags" \
	"$build/superp-sim" "$build/superp-engine-test" "$build/superp-sim-test"
check "engine procedure suite (native)" "$build/superp-engine-test"
check "engine simulation suite (native)" "$build/superp-sim-test"
check "simulator: 50,000 transactions, 0% loss" "$build/superp-sim" -n 50000 -l 0
check "simulator: 50,000 transactions, 1% loss" "$build/superp-sim" -n 50000 -l 10000
check "simulator: 50,000 transactions, 10% loss" "$build/superp-sim" -n 50000 -l 100000
check "simulator: 50,000 transactions, 30% loss (pdl_max_rtx 8)" \
	"$build/superp-sim" -n 50000 -l 300000 -x 8
check "simulator: a window of 100 (not a power of two) across the wrap" \
	"$build/superp-sim" -n 20000 -w 100 -l 50000
check "simulator: 100% loss breaks the connection, all transactions fail" \
	"$build/superp-sim" -n 1000 -l 1000000 -b
check "simulator: windows 1/4/8/32 x barriers x 1/10/30% loss x 3 seeds, lite rows" \
	"$build/superp-sim" -M -n 2000 -S 3
check "simulator: one transaction in seven cancelled (superp_cancel), 10% loss" \
	"$build/superp-sim" -n 20000 -C 7 -x 8 -l 100000
check "simulator: SUPERp-lite, 50,000 transactions, lossless" \
	"$build/superp-sim" -L -n 50000
check "simulator: SUPERp-lite at 0.1% loss breaks the connection" \
	"$build/superp-sim" -L -n 50000 -l 1000 -b
tap_exit
