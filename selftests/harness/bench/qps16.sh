#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Reproduces the 16-QP stall of superp over UDP/IPv4 that make bench found
# (Documentation/performance.rst): rxe's and siw's ib_write_bw with 16 QPs
# of 1,250 64-byte WRITEs (they hang until the bench's limit, as in the
# full plan), then superp over SUNH and over UDP/IPv4 with the same; a
# superp run still going after 60 s has both guests' connection counters,
# device counters and QPs dumped, and again 10 s later. Not a test of
# make check: run it with
#   selftests/harness/run.sh --kernel bench selftests/harness/bench/qps16.sh
# superp-topology: pair
# superp-kernel: bench
# superp-timeout: 1500
. "$SUPERP_ROOT/selftests/harness/bench/lib.sh"

tap_begin
bench_setup
dump() {
	tap_diag "=== $1 guest $SUPERP_ID"
	superp -j -s conn show 2>&1 | jq -c '.[] | {lcid, state, stats, events: (.events | with_entries(select(.value != 0)))}' | sed 's/^/# /'
	hw | sed 's/^/# /'
	rdma res show qp 2>&1 | head -40 | sed 's/^/# /'
}
try() { # contender qps n
	local c=$1 q=$2 n=$3 dev=superp0 gid pid
	eval "gid=\$bench_gid_$c"
	bench_n=$((bench_n + 1))
	barrier "hang-$bench_n"
	if [ "$SUPERP_ID" = 1 ]; then
		timeout 200 ib_write_bw -d $dev -x "$gid" -s 64 -n "$n" -q "$q" -F --report_gbits > /tmp/srv.out 2>&1 &
		pid=$!
	else
		sleep 1
		timeout 200 ib_write_bw -d $dev -x "$gid" -s 64 -n "$n" -q "$q" -F --report_gbits "$bench_server" > /tmp/cli.out 2>&1 &
		pid=$!
	fi
	i=0
	while [ $i -lt 60 ] && kill -0 $pid 2>/dev/null; do sleep 1; i=$((i + 1)); done
	if kill -0 $pid 2>/dev/null; then
		dump "$c q $q n $n: still running after 60 s"
		sleep 10
		dump "$c q $q n $n: 10 s later"
	fi
	wait $pid
	check "$c q $q n $n: perftest exit 0" test $? -eq 0
	[ "$SUPERP_ID" = 1 ] && tail -3 /tmp/srv.out | sed 's/^/# srv /'
	[ "$SUPERP_ID" = 2 ] && tail -3 /tmp/cli.out | sed 's/^/# cli /'
	barrier "hang-$bench_n-done" 400
}
bench_n=100
bench_perftest ib_write_bw rxe 64 1250 16 0
bench_n=$((bench_n + 1))
bench_perftest ib_write_bw siw 64 1250 16 0
try superp_sunh 16 1250
try superp_udp4 16 1250
bench_teardown
tap_exit
