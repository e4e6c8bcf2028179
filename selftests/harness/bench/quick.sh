#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench QUICK=1`: one pass over the main tests at a few sizes (about
# 10 minutes under TCG). Run by selftests/harness/bench.sh, not make check.
# superp-topology: pair
# superp-kernel: stock
# superp-timeout: 1500
. "$SUPERP_ROOT/selftests/harness/bench/lib.sh"

tap_begin
bench_setup
for s in 64 65536; do
	bench_round ib_write_bw "$s" 2000 5 1 0
done
bench_round ib_read_bw 65536 2000 5 1 0
bench_round ib_send_lat 2 2000 5 1 0
bench_round ib_write_lat 2 2000 5 1 0
tap_exit
