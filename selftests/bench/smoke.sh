#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark's machinery, so that `make bench` does not rot: one tiny
# measurement per contender between two guests (TCP with and without
# offloads, rxe, siw, superp), each a result row with a number or a status
# and its reason, never a missing row. Measures nothing worth reading.
# superp-topology: pair
# superp-kernel: stock
# superp-timeout: 400
. "$SUPERP_ROOT/selftests/harness/bench/lib.sh"

tap_begin
bench_setup
bench_round ib_write_bw 4096 200 1 1 0
bench_round ib_send_lat 2 200 1 1 0

if [ "$SUPERP_ID" = 2 ]; then
	row() { grep -E "^@@BENCH test=$1 contender=$2 size=$3 qps=1 loss=0 $4" "$bench_rows"; }
	num='value=[0-9]+(\.[0-9]+)? unit='
	check "TCP measured (offloads on)" row ib_write_bw tcp 4096 "metric=bw $num"
	check "TCP measured (offloads off)" row ib_write_bw tcp_nooffload 4096 "metric=bw $num"
	check "rxe bandwidth measured" row ib_write_bw rxe 4096 "metric=bw $num"
	check "rxe latency measured" row ib_send_lat rxe 2 "metric=lat_typical $num"
	check "siw: a row, measured or failed with its reason" \
		row ib_write_bw siw 4096 "(metric=bw $num|status=failed reason=.+)"
	check "superp over SUNH and UDP: rows saying not yet" sh -c \
		"grep -c 'contender=superp_.* status=not-yet' '$bench_rows' | grep -qx 4"
	check "one row per contender and measurement (10)" sh -c \
		"test \$(grep -c '^@@BENCH ' '$bench_rows') -eq 10"
fi
tap_exit
