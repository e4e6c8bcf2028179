#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench QUICK=1`: one pass over the main tests at a few sizes, and one
# of each other kind (16 QPs, a post list, 1 % loss, a 1500-byte MTU);
# under 15 minutes under TCG. Run by selftests/harness/bench.sh, not make
# check.
# superp-topology: pair
# superp-kernel: stock
# superp-timeout: 1500
. "$SUPERP_ROOT/selftests/harness/bench/lib.sh"

tap_begin
bench_setup
bench_round ib_write_bw 64 2000 5 1 0
bench_round ib_write_bw 65536 1000 5 1 0
bench_round ib_read_bw 64 2000 5 1 0
bench_round ib_read_bw 65536 2000 5 1 0
bench_round ib_send_lat 2 2000 5 1 0
bench_round ib_write_lat 2 2000 5 1 0
bench_round ib_read_lat 2 2000 5 1 0
bench_round ib_send_bw 65536 1000 5 1 0
bench_round ib_write_bw 64 "$(bench_iters_per_qp 2000 16)" 5 16 0
bench_round ib_write_bw 64 2000 5 1 0 16
bench_round ib_write_bw 65536 1000 5 1 1
bench_mtu 1500
bench_round ib_write_bw 65536 1000 5 1 0
bench_mtu
bench_teardown
bench_scale 1 64 1024 4096
tap_exit
