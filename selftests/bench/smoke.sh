#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark's machinery, so that `make bench` does not rot: one tiny
# measurement per contender between two guests (TCP with and without
# offloads, rxe, siw, superp) and of the link's own latency floor, each a
# result row with a number or a status and its reason, never a missing
# row; then the scale step (receive cost per packet, memory per
# connection) at 1 and 64 connections. Measures nothing worth reading.
# superp-topology: pair
# superp-kernel: stock
# superp-boot: 2
# superp-timeout: 500
. "$SUPERP_ROOT/selftests/harness/bench/lib.sh"

tap_begin
bench_setup
bench_round ib_write_bw 4096 200 1 1 0
bench_round ib_send_lat 2 200 1 1 0

if [ "$SUPERP_ID" = 2 ]; then
	row() {
		grep -E "^@@BENCH test=$1 contender=$2 size=$3 qps=1 loss=0 mtu=[0-9]+ post=1 round=[1-9][0-9]* $4" \
			"$bench_rows"
	}
	num='value=[0-9]+(\.[0-9]+)? unit='
	measured_or_failed() { # test contender size metric
		row "$1" "$2" "$3" "(metric=$4 $num|status=failed reason=.+)"
	}
	check "TCP measured (offloads on)" row ib_write_bw tcp 4096 "metric=bw $num"
	check "TCP measured (offloads off)" row ib_write_bw tcp_nooffload 4096 "metric=bw $num"
	check "rxe bandwidth measured" row ib_write_bw rxe 4096 "metric=bw $num"
	check "rxe latency measured" row ib_send_lat rxe 2 "metric=lat_typical $num"
	check "rxe 99th percentile latency measured" row ib_send_lat rxe 2 "metric=lat_p99 $num"
	# The floor the report subtracts: in the same round as rxe's, above 0.
	positive() { # metric
		row ib_send_lat link 2 "metric=$1 $num" |
			sed -n 's/.* value=\([0-9.]*\) .*/\1/p' | awk '$1 > 0 { ok = 1 } END { exit !ok }'
	}
	check "the link's floor measured, a positive number" positive lat_typical
	check "the link's 99th percentile measured, a positive number" positive lat_p99
	round_of() { # contender
		row ib_send_lat "$1" 2 "metric=lat_typical" | sed 's/.* round=\([0-9]*\) .*/\1/'
	}
	same_round() { test -n "$(round_of link)" && test "$(round_of link)" = "$(round_of rxe)"; }
	check "the floor and rxe's latency from the same round" same_round
	check "siw: a row, measured or failed with its reason" \
		measured_or_failed ib_write_bw siw 4096 bw
	for c in superp_sunh superp_udp4; do
		check "$c bandwidth: measured or failed with its reason" \
			measured_or_failed ib_write_bw "$c" 4096 bw
		check "$c latency: measured or failed with its reason" \
			measured_or_failed ib_send_lat "$c" 2 lat_typical
	done
	# perftest hangs on -n that is not a multiple of its CQ moderation
	# with several QPs (bench/lib.sh): such a row is refused, not run.
	refused() {
		bench_rows=/tmp/bench-guard-rows
		: > "$bench_rows"
		bench_perftest ib_write_bw rxe 64 1250 16 0 &&
			grep -q "qps=16 .*status=failed reason=-n 1250 with 16 QPs" "$bench_rows"
	}
	check "-n 1250 over 16 QPs: a failed row, perftest not run" refused
	check "20000 messages over 16 QPs: -n 1300" \
		test "$(bench_iters_per_qp 20000 16)" = 1300
	check "a row for every contender and measurement (11)" sh -c \
		"test \$(sed -n 's/^@@BENCH test=\([^ ]*\) contender=\([^ ]*\) .*/\1 \2/p' \
			'$bench_rows' | sort -u | wc -l) -eq 11"
fi
bench_teardown

# The scale step at 1 and 64 connections: its rows, each a positive number.
bench_scale 1 64
bench_scale_check_rows 1 64
tap_exit
