#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench's report (bench/report.py) on rows of known figures: the
# link's floor is a column of the latency tables, and each contender's
# overhead is its latency minus the floor of the same round, the median
# over rounds (not the difference of the medians), with superp's overhead
# over rxe's; a round whose floor failed gives no overhead.
# superp-topology: host
# superp-timeout: 60
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../harness/common.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
row() { # test contender round metric value
	echo "@@BENCH test=$1 contender=$2 size=2 qps=1 loss=0 mtu=9000 post=1 round=$3 metric=$4 value=$5 unit=us"
}
{
	# Two rounds: overheads 60 and 40 (superp), 100 and 150 (rxe); the
	# medians of the latencies less that of the floor would be 40 and 115.
	row ib_write_lat link 1 lat_typical 100
	row ib_write_lat link 1 lat_p99 300
	row ib_write_lat superp_sunh 1 lat_typical 160
	row ib_write_lat rxe 1 lat_typical 200
	row ib_write_lat link 2 lat_typical 200
	row ib_write_lat superp_sunh 2 lat_typical 240
	row ib_write_lat rxe 2 lat_typical 350
	echo "@@BENCH test=ib_write_lat contender=siw size=2 qps=1 loss=0 mtu=9000 post=1 round=2 status=failed reason=no siw on this kernel"
	echo "@@BENCH test=ib_read_lat contender=link size=2 qps=1 loss=0 mtu=9000 post=1 round=3 status=failed reason=superp-udp-lat: ping 3 of 9: no echo in time (lost)"
	row ib_read_lat superp_sunh 3 lat_typical 330
	row ib_read_lat rxe 3 lat_typical 300
} > "$dir/rows.txt"

tap_plan 7
check "the report is made" \
	/usr/bin/python3 "$SUPERP_TOP/selftests/harness/bench/report.py" "$dir/rows.txt" "$dir"
csv() { # test contender metric median
	grep -qx "$1,2,1,0,9000,1,$2,$3,[^,]*,$4,.*" "$dir/results.csv"
}
check "superp's overhead: the median over rounds of latency minus floor (50)" \
	csv ib_write_lat superp_sunh lat_overhead 50.0
check "rxe's overhead (125)" csv ib_write_lat rxe lat_overhead 125.0
check "superp's overhead over rxe's (0.4)" csv ib_write_lat superp_sunh lat_overhead_ratio 0.4
check "the floor a column of the latency table, with its spread" \
	grep -q '^| 2 | 1 | 0 | 9000 | 1 | 150 (100-200) | 200 (160-240) |' "$dir/results.md"
check "a failed floor: its reason in the floor's column, no overhead" sh -c \
	"grep -q '| failed: superp-udp-lat: ping 3 of 9' '$dir/results.md' &&
	 ! grep -q '^ib_read_lat,.*,lat_overhead' '$dir/results.csv'"
siw_failed() { grep -A 4 '^## ib_write_lat: lat_overhead' "$dir/results.md" | grep -q 'failed: no siw'; }
check "a failed contender keeps its reason in the overhead table" siw_failed
tap_exit
