#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench`: bandwidth of writes, reads and sends from 64 B to 1 MiB,
# message rate with 1 and 16 QPs, latency at 2 B and 4 KiB, each three
# times, contenders interleaved. Run by selftests/harness/bench.sh.
# superp-topology: pair
# superp-kernel: stock
# superp-timeout: 7200
. "$SUPERP_ROOT/selftests/harness/bench/lib.sh"

tap_begin
bench_setup
for run in 1 2 3; do
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		for s in 64 4096 65536 1048576; do
			n=5000
			[ "$s" -ge 65536 ] && n=1000
			bench_round "$t" "$s" "$n" 10 1 0
		done
	done
	bench_round ib_write_bw 64 20000 10 16 0
	for t in ib_send_lat ib_write_lat ib_read_lat; do
		for s in 2 4096; do
			bench_round "$t" "$s" 5000 10 1 0
		done
	done
done
tap_exit
