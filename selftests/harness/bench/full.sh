#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench`: bandwidth of writes, reads and sends from 64 B to 1 MiB,
# message rate at 64 B with 1, 16 and 128 QPs and with a post list of 16,
# writes of 64 KiB under netem loss of 0.1 % and 1 %, latency (typical
# and 99th percentile) at 2 B and 4 KiB, and writes and latency again at
# a 1500-byte MTU; each three times, contenders interleaved. Run by
# selftests/harness/bench.sh.
# superp-topology: pair
# superp-kernel: stock
# superp-timeout: 7200
. "$SUPERP_ROOT/selftests/harness/bench/lib.sh"

tap_begin
bench_setup
for run in 1 2 3; do
	tap_diag "run $run"
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		for s in 64 4096 65536 1048576; do
			n=5000
			[ "$s" -ge 65536 ] && n=1000
			bench_round "$t" "$s" "$n" 10 1 0
		done
	done
	# perftest's -n counts per QP: about 20000 messages in all.
	for q in 16 128; do
		bench_round ib_write_bw 64 "$(bench_iters_per_qp 20000 "$q")" 10 "$q" 0
	done
	bench_round ib_write_bw 64 20000 10 1 0 16
	# The goodput ratio's 0 % is the 64 KiB write above.
	for l in 0.1 1; do
		bench_round ib_write_bw 65536 1000 10 1 "$l"
	done
	for t in ib_send_lat ib_write_lat ib_read_lat; do
		for s in 2 4096; do
			bench_round "$t" "$s" 5000 10 1 0
		done
	done
	bench_mtu 1500
	for s in 64 4096 65536 1048576; do
		n=5000
		[ "$s" -ge 65536 ] && n=1000
		bench_round ib_write_bw "$s" "$n" 10 1 0
	done
	bench_round ib_send_lat 2 5000 10 1 0
	bench_round ib_write_lat 4096 5000 10 1 0
	bench_mtu
done
bench_teardown
bench_scale 1 64 1024 4096
tap_exit
