#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench PLAN=focus`: the entries performance work is judged by, once,
# superp over SUNH beside rxe and TCP without offloads only, and the link's
# own latency floor: about 8 minutes under TCG, for a before/after of one
# change (with PROFILE=... for its flame graphs). Run by
# selftests/harness/bench.sh, not make check.
# superp-topology: pair
# superp-kernel: stock
# superp-timeout: 1200
. "$SUPERP_ROOT/selftests/harness/bench/lib.sh"

bench_contenders="link tcp_nooffload rxe superp_sunh"
tap_begin
bench_setup
bench_round ib_write_bw 65536 2000 5 1 0
bench_round ib_write_bw 1048576 200 5 1 0
bench_round ib_read_bw 65536 2000 5 1 0
bench_round ib_send_bw 65536 1000 5 1 0
bench_round ib_write_bw 64 5000 5 1 0
bench_round ib_write_bw 64 4800 5 1 0 16
bench_round ib_read_bw 64 5000 5 1 0
bench_round ib_send_bw 64 5000 5 1 0
bench_round ib_send_lat 2 2000 5 1 0
bench_round ib_write_lat 2 2000 5 1 0
bench_round ib_read_lat 2 2000 5 1 0
bench_teardown
tap_exit
