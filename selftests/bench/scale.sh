#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The bench's scale step with every N the plans use (1, 64, 1024 and 4096
# connections), on the test kernel under KASAN, lockdep and kmemleak (the
# harness scans it after the boot): the probe's receive loop and 4096
# connections' set-up and removal leave nothing behind. make check's
# stock-kernel view is the bench smoke's (1 and 64); the curve of
# Documentation/performance.rst is `run.sh --kernel stock` of this test.
# Every frame reaches its connection and each N has its rows, positive
# numbers. Timing decides nothing. Guest 2 measures; guest 1 only shares
# the boot.
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 600
. "$SUPERP_ROOT/selftests/harness/bench/lib.sh"

tap_begin
bench_scale 1 64 1024 4096
bench_scale_check_rows 1 64 1024 4096
tap_exit
