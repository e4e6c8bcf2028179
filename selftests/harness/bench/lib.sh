# SPDX-License-Identifier: GPL-2.0
# `make bench` inside the guests (sourced by the plan scripts beside it and
# by selftests/bench/smoke.sh). Guest 1 serves, guest 2 measures; both run
# the same list in the same order and meet at a barrier before each
# measurement. Every measurement prints one TAP line and, on guest 2, one
# result line for the host's report (bench/report.py):
#
#   @@BENCH test=T contender=C size=BYTES qps=N loss=PCT metric=M value=V unit=U
#   @@BENCH test=T contender=C size=BYTES qps=N loss=PCT status=failed|not-yet reason=...
#
# A contender that cannot run is a row with a status, never a missing row.
# Contenders are interleaved (the loop over contenders is innermost) so
# that drift in the host's load hits all of them alike.
. "$SUPERP_ROOT/selftests/lib.sh"

bench_server=$(guest_ip 1)
bench_rows=${BENCH_ROWS:-/tmp/bench-rows}	# result lines, also kept here
: > "$bench_rows"
bench_n=0

# The RoCE v2 GID index of this guest's IPv4 address on an RDMA device.
bench_gid_index() { # dev
	local d=/sys/class/infiniband/$1/ports/1 f i want
	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \
		$(guest_ip "$SUPERP_ID" | tr . ' '))
	for f in "$d"/gids/*; do
		i=${f##*/}
		[ "$(cat "$f" 2>/dev/null)" = "$want" ] || continue
		grep -q 'RoCE v2' "$d/gid_attrs/types/$i" 2>/dev/null && { echo "$i"; return 0; }
	done
	return 1
}

# Contenders this kernel can run: sets bench_state_<c> to "ok" or a reason.
bench_setup() {
	local c
	bench_state_tcp=ok
	bench_state_tcp_nooffload=ok
	command -v ethtool > /dev/null || bench_state_tcp_nooffload="ethtool not in the guest"
	modprobe rdma_rxe 2> /dev/null && rdma link add rxe0 type rxe netdev eth0 2> /dev/null &&
		bench_gid_rxe=$(bench_gid_index rxe0) && bench_state_rxe=ok ||
		bench_state_rxe="no rxe on this kernel"
	modprobe siw 2> /dev/null && rdma link add siw0 type siw netdev eth0 2> /dev/null &&
		bench_gid_siw=0 && bench_state_siw=ok ||
		bench_state_siw="no siw on this kernel"
	# superp: the user-space data path (issue 12) is not there yet.
	bench_state_superp_sunh="not-yet"
	bench_state_superp_udp4="not-yet"
	for c in tcp tcp_nooffload rxe siw superp_sunh superp_udp4; do
		eval "tap_diag \"contender $c: \$bench_state_$c\""
	done
}

# One result line and one TAP line (guest 2, or both for rows without a
# measurement; guest 1 reports "served" for measured ones).
bench_emit() { # test contender size qps loss status|metric value unit
	local t=$1 c=$2 s=$3 q=$4 l=$5
	shift 5
	case $1 in
	failed | not-yet)
		[ "$SUPERP_ID" = 2 ] &&
			echo "@@BENCH test=$t contender=$c size=$s qps=$q loss=$l status=$1 reason=$2" |
			tee -a "$bench_rows"
		ok "$t $c size $s qps $q loss $l: $1 ($2)"
		;;
	*)
		[ "$SUPERP_ID" = 2 ] &&
			echo "@@BENCH test=$t contender=$c size=$s qps=$q loss=$l metric=$1 value=$2 unit=$3" |
			tee -a "$bench_rows"
		ok "$t $c size $s qps $q loss $l: $2 $3"
		;;
	esac
}

# iperf3 with the netdev's offloads on or off: Gbit/s received.
bench_tcp() { # test contender size seconds loss
	local t=$1 c=$2 s=$3 secs=$4 l=$5 bps
	if [ "$c" = tcp_nooffload ]; then
		ethtool -K eth0 tso off gso off gro off > /dev/null 2>&1
	else
		ethtool -K eth0 tso on gso on gro on > /dev/null 2>&1
	fi
	barrier "tcp-$bench_n"
	if [ "$SUPERP_ID" = 1 ]; then
		timeout $((secs + 20)) iperf3 -s -1 > /dev/null 2>&1
		ok "$t $c size $s: served"
		return
	fi
	sleep 1
	bps=$(timeout $((secs + 20)) iperf3 -c "$bench_server" -t "$secs" -l "$s" -J 2> /dev/null |
		jq -r '.end.sum_received.bits_per_second // empty')
	if [ -n "$bps" ]; then
		bench_emit "$t" "$c" "$s" 1 "$l" bw "$(echo "$bps" | awk '{ printf "%.3f", $1 / 1e9 }')" Gbit/s
	else
		bench_emit "$t" "$c" "$s" 1 "$l" failed "iperf3 gave no result"
	fi
}

# A perftest program between the guests on an RDMA device.
bench_perftest() { # test(prog) contender size iters qps loss
	local prog=$1 c=$2 s=$3 n=$4 q=$5 l=$6 dev gid out v metric unit qopt=
	case $c in
	rxe) dev=rxe0 gid=$bench_gid_rxe ;;
	siw) dev=siw0 gid=$bench_gid_siw ;;
	esac
	case $prog in
	*_lat) metric=lat_typical unit=us ;;
	*) metric=bw unit=Gbit/s ;;
	esac
	[ "$q" -gt 1 ] && qopt="-q $q"
	barrier "pt-$bench_n"
	if [ "$SUPERP_ID" = 1 ]; then
		timeout 300 "$prog" -d "$dev" -x "$gid" -s "$s" -n "$n" $qopt -F \
			--report_gbits > /dev/null 2>&1
		ok "$prog $c size $s qps $q: served"
		return
	fi
	sleep 1
	out=$(timeout 300 "$prog" -d "$dev" -x "$gid" -s "$s" -n "$n" $qopt -F \
		--report_gbits "$bench_server" 2>&1)
	# The result row: the line after perftest's column header.
	case $prog in
	*_lat) v=$(printf '%s\n' "$out" | awk '/t_typical/ { getline; print $5; exit }') ;;
	*) v=$(printf '%s\n' "$out" | awk '/BW average/ { getline; print $4; exit }') ;;
	esac
	if [ -n "$v" ]; then
		bench_emit "$prog" "$c" "$s" "$q" "$l" "$metric" "$v" "$unit"
	else
		bench_emit "$prog" "$c" "$s" "$q" "$l" failed "no result from $prog"
		printf '%s\n' "$out" | tail -5 | sed 's/^/#   /'
	fi
}

# One measurement of every contender: test, size, iterations (perftest) or
# seconds (TCP), QPs, loss in percent (applied by the host's netem; noted).
bench_round() { # test size iters secs qps loss
	local t=$1 s=$2 n=$3 secs=$4 q=$5 l=$6 c state
	for c in tcp tcp_nooffload rxe siw superp_sunh superp_udp4; do
		eval "state=\$bench_state_$c"
		bench_n=$((bench_n + 1))
		case $c in tcp*) [ "$t" = ib_write_bw ] || continue ;; esac
		if [ "$state" = not-yet ]; then
			bench_emit "$t" "$c" "$s" "$q" "$l" not-yet "user-space data path (issue 12)"
			continue
		fi
		if [ "$state" != ok ]; then
			bench_emit "$t" "$c" "$s" "$q" "$l" failed "$state"
			continue
		fi
		case $c in
		tcp*) bench_tcp "$t" "$c" "$s" "$secs" "$l" ;;
		*) bench_perftest "$t" "$c" "$s" "$n" "$q" "$l" ;;
		esac
	done
}
