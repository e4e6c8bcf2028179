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
# the boot. make check stops at 1024 connections (the same set-up, hash
# and removal paths), make soak goes on to 4096.
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 600
# superp-soak-timeout: 1200
. "$SUPERP_ROOT/selftests/harness/bench/lib.sh"

ns=$(soak_or "1 64 1024 4096" "1 64 1024")
tap_begin
# shellcheck disable=SC2086 # the Ns are words
bench_scale $ns
# shellcheck disable=SC2086
bench_scale_check_rows $ns
tap_exit
