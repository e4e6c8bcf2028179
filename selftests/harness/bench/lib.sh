# SPDX-License-Identifier: GPL-2.0
# `make bench` inside the guests (sourced by the plan scripts beside it and
# by selftests/bench/smoke.sh). Guest 1 serves, guest 2 measures; both run
# the same list in the same order and meet at a barrier before each
# measurement. Every measurement prints one TAP line and, on guest 2, one
# result line per figure for the host's report (bench/report.py):
#
#   @@BENCH test=T contender=C size=BYTES qps=N loss=PCT mtu=BYTES post=N round=K metric=M value=V unit=U
#   @@BENCH test=T contender=C size=BYTES qps=N loss=PCT mtu=BYTES post=N round=K status=failed reason=...
#
# metric: bw (Gbit/s), msgrate (Mpps, bandwidth tests at 64 B and less),
# lat_typical and lat_p99 (us, both from one latency run). mtu is eth0's,
# post perftest's post list (-l), round the bench_round that measured it
# (from 1; 0 outside a round): the report subtracts the link's floor of
# the same round from each contender's latency. A contender that cannot
# run is a row with a status, never a missing row. Contenders are
# interleaved (the loop over contenders is innermost) so that drift in the
# host's load hits all of them alike.
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID	# rc.inc's names: this guest and the other
peer=$((3 - me))
bench_server=$(guest_ip 1)
bench_rows=${BENCH_ROWS:-/tmp/bench-rows}	# result lines, also kept here
# Who is measured, in this order; a plan may name fewer (a profile of one).
# link is the link itself, the floor of the latency rounds (bench_link).
bench_contenders=${bench_contenders:-link tcp tcp_nooffload rxe siw superp_sunh superp_udp4}
: > "$bench_rows"
bench_n=0
bench_loss=0	# netem loss (%) on this guest's eth0 egress now
bench_post=1	# perftest's post list of the current round
bench_rounds=0	# rounds so far
bench_round_id=0	# the current round's number, 0 outside one
bench_link_port=7702	# superp-udp-lat's UDP port
# A perftest run's limit. The slowest of the full plan take about a
# minute (1000 writes of 1 MiB at siw's 0.12 Gbit/s at MTU 1500: 70 s);
# one that hangs is a failed row either way.
bench_pt_limit=180
# perftest's bandwidth tests ask for a completion every 100 WRs (its CQ
# moderation) and the last, and count each completion as 100. With
# several QPs and -n not a multiple of 100 the count passes the total
# while a QP that fell behind still waits for a completion; perftest
# stops polling there and never ends (it is not the device: the
# completion is in the CQ). So -n is a multiple of 100 with several QPs.
bench_cq_mod=100

# perftest's -n per QP for about @total messages over @qps QPs.
bench_iters_per_qp() { # total qps
	local n=$((($1 / $2 + bench_cq_mod / 2) / bench_cq_mod * bench_cq_mod))

	[ "$n" -ge "$bench_cq_mod" ] || n=$bench_cq_mod
	echo "$n"
}

# superp over UDP/IPv4 needs an address outside the SUNH subnet (a QP binds
# to the connection its peer's GID leads to: Documentation/superp-rc.rst),
# so each guest gets a second one on eth0 and superp0 serves both
# connections at once.
bench_udp_ip() { echo "10.24.0.$1"; }

bench_setup_udp4() {
	[ -e /sys/class/infiniband/superp0 ] || setup_superp_common || return 1
	ping -c 1 -W 2 "$(bench_udp_ip "$peer")" > /dev/null &&
		superp conn add dev superp0 lcid 2 rcid 2 encap udp4 \
			local "$(bench_udp_ip "$me")" remote "$(bench_udp_ip "$peer")" \
			$superp_slow &&
		wait_gid superp0 "$(bench_udp_ip "$me")"
}

# superp0 on eth0 with a SUNH connection (rc.inc's) and a UDP/IPv4 one to
# the peer; a state with the failing step's last words otherwise.
bench_setup_superp() {
	local out
	if out=$(setup_superp_sunh 2>&1); then
		bench_gid_superp_sunh=$(roce_gid_index superp0 "$(guest_ip "$me")") &&
			bench_state_superp_sunh=ok
	else
		bench_state_superp_sunh="set-up failed: $(printf '%s\n' "$out" | tail -1)"
	fi
	ip addr add "$(bench_udp_ip "$me")/24" dev eth0
	barrier bench-udp4-address
	if out=$(bench_setup_udp4 2>&1); then
		bench_gid_superp_udp4=$(roce_gid_index superp0 "$(bench_udp_ip "$me")") &&
			bench_state_superp_udp4=ok
	else
		bench_state_superp_udp4="set-up failed: $(printf '%s\n' "$out" | tail -1)"
	fi
}

# Contenders this kernel can run: sets bench_state_<c> to "ok" or a reason.
bench_setup() {
	local c
	bench_mtu_start=$(cat /sys/class/net/eth0/mtu)
	bench_state_link=ok
	command -v superp-udp-lat > /dev/null || bench_state_link="superp-udp-lat not in the guest"
	bench_state_tcp=ok
	bench_state_tcp_nooffload=ok
	command -v ethtool > /dev/null || bench_state_tcp_nooffload="ethtool not in the guest"
	modprobe rdma_rxe 2> /dev/null && rdma link add rxe0 type rxe netdev eth0 2> /dev/null &&
		wait_gid rxe0 "$(guest_ip "$me")" > /dev/null &&
		bench_gid_rxe=$(roce_gid_index rxe0 "$(guest_ip "$me")") && bench_state_rxe=ok ||
		bench_state_rxe="no rxe on this kernel"
	modprobe siw 2> /dev/null && rdma link add siw0 type siw netdev eth0 2> /dev/null &&
		bench_gid_siw=0 && bench_state_siw=ok ||
		bench_state_siw="no siw on this kernel"
	bench_state_superp_sunh="set-up failed"
	bench_state_superp_udp4="set-up failed"
	bench_setup_superp
	for c in $bench_contenders; do
		bench_agree "$c"
		eval "tap_diag \"contender $c: \$bench_state_$c\""
	done
}

# bench_agree CONTENDER: both guests run it or neither (one serves what the
# other measures): a barrier named after this guest's verdict fails when
# the other's differs, and the contender is then failed on both.
bench_agree() { # contender
	local s v=ok
	eval "s=\$bench_state_$1"
	[ "$s" = ok ] || v=failed
	barrier_try "bench-agree-$1-$v" > /dev/null 2>&1 && return 0
	[ "$s" = ok ] && eval "bench_state_$1=\"set-up failed on guest $peer\""
	return 0
}

# bench_netem PCT: netem loss PCT % on this guest's eth0 egress (each guest
# sets its own, so both directions lose), none for 0. The harness has no
# host-side netem; the guests' qdiscs drop the barrier's and perftest's
# TCP exchanges too, which TCP repairs.
bench_netem() { # pct
	[ "$1" = "$bench_loss" ] && return 0
	if [ "$1" = 0 ]; then
		tc qdisc del dev eth0 root || return 1
	else
		tc qdisc replace dev eth0 root netem loss "$1%" || return 1
	fi
	bench_loss=$1
}

# bench_mtu [BYTES]: eth0's MTU on both guests (each sets its own), or
# without BYTES the one it had at set-up (the harness's 9000); rows carry
# the MTU they ran at.
bench_mtu() { # [bytes]
	barrier "mtu-${1:-back}-$bench_n-set"
	ip link set eth0 mtu "${1:-$bench_mtu_start}"
	barrier "mtu-${1:-back}-$bench_n-done"
	tap_diag "eth0 mtu $(cat /sys/class/net/eth0/mtu)"
}

# One result line and one TAP line (guest 2, or both for rows without a
# measurement; guest 1 reports "served" for measured ones). The row's
# parameters beyond the arguments: eth0's MTU now, the round's post list
# and number.
bench_emit() { # test contender size qps loss status|metric value unit
	local t=$1 c=$2 s=$3 q=$4 l=$5 p
	shift 5
	p="size=$s qps=$q loss=$l mtu=$(cat /sys/class/net/eth0/mtu) post=$bench_post"
	p="$p round=$bench_round_id"
	case $1 in
	failed)
		[ "$SUPERP_ID" = 2 ] &&
			echo "@@BENCH test=$t contender=$c $p status=$1 reason=$2" |
			tee -a "$bench_rows"
		ok "$t $c $p: $1 ($2)"
		;;
	*)
		[ "$SUPERP_ID" = 2 ] &&
			echo "@@BENCH test=$t contender=$c $p metric=$1 value=$2 unit=$3" |
			tee -a "$bench_rows"
		ok "$t $c $p: $1 $2 $3"
		;;
	esac
}

# iperf3 with the netdev's offloads on or off, QPS parallel streams: Gbit/s
# received. The offloads are back on afterwards, the netdev's default, in
# which the RDMA contenders run.
bench_tcp() { # test contender size seconds qps loss
	local t=$1 c=$2 s=$3 secs=$4 q=$5 l=$6 bps
	if [ "$c" = tcp_nooffload ]; then
		ethtool -K eth0 tso off gso off gro off > /dev/null 2>&1
	else
		ethtool -K eth0 tso on gso on gro on > /dev/null 2>&1
	fi
	barrier "tcp-$bench_n"
	if [ "$SUPERP_ID" = 1 ]; then
		timeout $((secs + 20)) iperf3 -s -1 > /dev/null 2>&1
		ok "$t $c size $s qps $q: served"
	else
		sleep 1
		bps=$(timeout $((secs + 20)) iperf3 -c "$bench_server" -t "$secs" -l "$s" -P "$q" -J \
			2> /dev/null | jq -r '.end.sum_received.bits_per_second // empty')
		if [ -n "$bps" ]; then
			bench_emit "$t" "$c" "$s" "$q" "$l" bw \
				"$(echo "$bps" | awk '{ printf "%.3f", $1 / 1e9 }')" Gbit/s
		else
			bench_emit "$t" "$c" "$s" "$q" "$l" failed "iperf3 gave no result"
		fi
	fi
	ethtool -K eth0 tso on gso on gro on > /dev/null 2>&1
}

# The link's own round trip at the round's size: superp-udp-lat, a UDP
# ping-pong over eth0 between the guests' 10.23.0.N addresses, as many
# round trips as perftest's iterations. It is the floor under every
# contender's latency in the same round: the report subtracts it. perftest
# halves the round trip of its SEND and WRITE ping-pongs (each side sends
# once per trip) and not a READ's (one request, one response), so the
# floor is halved for those tests as well.
bench_link() { # test contender size iters qps loss
	local t=$1 c=$2 s=$3 n=$4 q=$5 l=$6 out v div=2
	[ "$t" = ib_read_lat ] && div=1
	barrier "link-$bench_n"
	if [ "$SUPERP_ID" = 1 ]; then
		timeout "$bench_pt_limit" superp-udp-lat -p "$bench_link_port" -n "$n" -s "$s" \
			> /dev/null 2>&1
		ok "$t $c size $s: served"
		return
	fi
	# No pause for the server to start: the client repeats its hello
	# until one comes back.
	out=$(timeout "$bench_pt_limit" superp-udp-lat -p "$bench_link_port" -n "$n" -s "$s" \
		"$bench_server" 2>&1)
	tap_diag "link: $(printf '%s\n' "$out" | tail -1)"
	v=$(printf '%s\n' "$out" | sed -n 's/.* typical=\([0-9.]*\) p99=\([0-9.]*\) .*/\1 \2/p')
	if [ -z "$v" ]; then
		bench_emit "$t" "$c" "$s" "$q" "$l" failed \
			"superp-udp-lat: $(printf '%s\n' "$out" | tail -1)"
		return
	fi
	# shellcheck disable=SC2046 # two numbers
	set -- $(echo "$v" | awk -v d="$div" '{ printf "%.2f %.2f", $1 / d, $2 / d }')
	bench_emit "$t" "$c" "$s" "$q" "$l" lat_typical "$1" us
	bench_emit "$t" "$c" "$s" "$q" "$l" lat_p99 "$2" us
}

# bench_number V: V is a decimal number (perftest prints other words where
# a column is missing).
bench_number() { echo "$1" | grep -Eq '^[0-9]+(\.[0-9]+)?$'; }

# What superp0 counted on the measuring side during one run (hw, rc.inc):
# packets, retransmissions by cause (the timer's cost an RTO each, fast
# ones about a round trip: where loss recovery loses time), RNR NAKs,
# SACKs and NACKs received, as a TAP comment in the guest's output (why a
# figure is what it is).
bench_superp_counters() {
	hw | jq -r --slurpfile b /tmp/bench-hw-before '. as $a | $b[0] as $b |
		def d(k): $a[k] - $b[k];
		"superp0 during the run: tx \(d("tx_packets"))" +
		" rtx timer \(d("retrans_timer")) fast \(d("retrans_fast"))" +
		" proactive \(d("retrans_proactive"))" +
		" tail \(d("retrans_tail"))" +
		" rx_rnr_naks \(d("rx_rnr_naks"))" +
		" rx_sacks \(d("rx_sacks")) rx_nacks \(d("rx_nacks"))" +
		" packed_ops \(d("packed_ops"))"' | sed 's/^/# /'
}

# make bench PROFILE=TEST:SIZE (SUPERP_PROFILE in the guests): while an
# RDMA contender measures that entry at one QP, perf samples both guests
# (perf record -a -g, the guest extra "perf"); the stacks are folded here,
# where the kallsyms are, and printed as "@@PROFILE CONTENDER GUEST STACK
# SAMPLES" lines, from which bench.sh draws a flame graph per contender
# and guest (flame.py).
bench_profiling() { # prog contender size qps
	[ -n "${SUPERP_PROFILE:-}" ] && [ "$SUPERP_PROFILE" = "$1:$3" ] && [ "$4" = 1 ] &&
		case $2 in tcp*) false ;; esac
}

bench_profile_start() {
	perf record -a -g -F 499 -o /tmp/bench-perf.data > /tmp/bench-perf.log 2>&1 &
	bench_perf_pid=$!
	sleep 1
}

bench_profile_stop() { # contender
	kill -INT "$bench_perf_pid" 2> /dev/null
	wait "$bench_perf_pid"
	# One record is "comm" and its frames, innermost first, then a blank.
	perf script -i /tmp/bench-perf.data -F comm,ip,sym 2> /dev/null | awk -v c="$1" -v g="$SUPERP_ID" '
		function flush(  st, i) {
			if (!n)
				return
			st = comm
			for (i = n; i >= 1; i--)
				st = st ";" f[i]
			count[st]++
			n = 0
		}
		/^[^ \t]/ { flush(); comm = $1; next }
		/^[ \t]/ { f[++n] = ($2 == "" ? "[unknown]" : $2); next }
		{ flush() }
		END { flush(); for (st in count) print "@@PROFILE " c " " g " " st " " count[st] }'
	rm -f /tmp/bench-perf.data
}

# A perftest program between the guests on an RDMA device: bandwidth
# (and message rate at 64 B and less), or typical and 99th percentile
# latency.
bench_perftest() { # test(prog) contender size iters qps loss
	local prog=$1 c=$2 s=$3 n=$4 q=$5 l=$6 dev gid out v v2 opts= try
	case $c in
	rxe) dev=rxe0 gid=$bench_gid_rxe ;;
	siw) dev=siw0 gid=$bench_gid_siw ;;
	superp_sunh) dev=superp0 gid=$bench_gid_superp_sunh ;;
	superp_udp4) dev=superp0 gid=$bench_gid_superp_udp4 ;;
	esac
	if [ "$q" -gt 1 ] && [ "$bench_post" = 1 ] && [ $((n % bench_cq_mod)) != 0 ]; then
		bench_emit "$prog" "$c" "$s" "$q" "$l" failed \
			"-n $n with $q QPs: not a multiple of perftest's CQ moderation, it would hang"
		return
	fi
	[ "$q" -gt 1 ] && opts="-q $q"
	[ "$bench_post" -gt 1 ] && opts="$opts -l $bench_post"
	# iWARP connects QPs through rdma_cm only, not by GID.
	[ "$c" = siw ] && opts="$opts -R"
	barrier "pt-$bench_n"
	bench_profiling "$prog" "$c" "$s" "$q" && bench_profile_start
	if [ "$SUPERP_ID" = 1 ]; then
		# shellcheck disable=SC2086 # opts are words
		timeout "$bench_pt_limit" "$prog" -d "$dev" -x "$gid" -s "$s" -n "$n" $opts -F \
			--report_gbits > /dev/null 2>&1
		ok "$prog $c size $s qps $q: served"
		bench_profiling "$prog" "$c" "$s" "$q" && bench_profile_stop "$c"
		return
	fi
	sleep 1
	case $c in superp_*) hw > /tmp/bench-hw-before ;; esac
	# A server still starting refuses the connection (siw's rdma_cm
	# connect fails so now and then): the server keeps waiting, so
	# connect again, twice at most.
	for try in 1 2 3; do
		# shellcheck disable=SC2086
		out=$(timeout "$bench_pt_limit" "$prog" -d "$dev" -x "$gid" -s "$s" -n "$n" $opts -F \
			--report_gbits "$bench_server" 2>&1)
		printf '%s\n' "$out" | grep -qE "Couldn't connect to|Failed to connect RDMA CM" ||
			break
		tap_diag "$prog $c: no connection to the server (try $try)"
		sleep 2
	done
	# The result row: the line after perftest's column header (latency:
	# t_typical in column 5, the 99% percentile in 8; bandwidth: the
	# average in 4, MsgRate in 5).
	case $c in superp_*) bench_superp_counters ;; esac
	bench_profiling "$prog" "$c" "$s" "$q" && bench_profile_stop "$c"
	case $prog in
	*_lat) v=$(printf '%s\n' "$out" | awk '/t_typical/ { getline; print $5 " " $8; exit }') ;;
	*) v=$(printf '%s\n' "$out" | awk '/BW average/ { getline; print $4 " " $5; exit }') ;;
	esac
	v2=${v#* }
	v=${v%% *}
	if ! bench_number "$v"; then
		bench_emit "$prog" "$c" "$s" "$q" "$l" failed "no result from $prog"
		printf '%s\n' "$out" | tail -5 | sed 's/^/#   /'
		return
	fi
	case $prog in
	*_lat)
		bench_emit "$prog" "$c" "$s" "$q" "$l" lat_typical "$v" us
		bench_number "$v2" && bench_emit "$prog" "$c" "$s" "$q" "$l" lat_p99 "$v2" us
		;;
	*)
		bench_emit "$prog" "$c" "$s" "$q" "$l" bw "$v" Gbit/s
		[ "$s" -le 64 ] && bench_number "$v2" &&
			bench_emit "$prog" "$c" "$s" "$q" "$l" msgrate "$v2" Mpps
		;;
	esac
}

# One measurement of every contender: test, size, iterations (perftest) or
# seconds (TCP), QPs (iperf3's parallel streams for TCP), netem loss in
# percent on both guests' eth0 for the round, perftest's post list (1: none;
# TCP has none, so it sits out such rounds, as it sits out every test but
# ib_write_bw). The link takes part in the latency tests only.
bench_round() { # test size iters secs qps loss [post]
	local t=$1 s=$2 n=$3 secs=$4 q=$5 l=$6 c state netem=ok
	bench_post=${7:-1}
	bench_rounds=$((bench_rounds + 1))
	bench_round_id=$bench_rounds
	bench_netem "$l" || netem="netem loss $l% on eth0 failed"
	for c in $bench_contenders; do
		eval "state=\$bench_state_$c"
		bench_n=$((bench_n + 1))
		case $c in
		tcp*) [ "$t" = ib_write_bw ] && [ "$bench_post" = 1 ] || continue ;;
		link) case $t in *_lat) ;; *) continue ;; esac ;;
		esac
		[ "$netem" = ok ] || state=$netem
		if [ "$state" != ok ]; then
			bench_emit "$t" "$c" "$s" "$q" "$l" failed "$state"
			continue
		fi
		case $c in
		tcp*) bench_tcp "$t" "$c" "$s" "$secs" "$q" "$l" ;;
		link) bench_link "$t" "$c" "$s" "$n" "$q" "$l" ;;
		*) bench_perftest "$t" "$c" "$s" "$n" "$q" "$l" ;;
		esac
	done
	bench_round_id=0
}

# Everything bench_setup and the rounds changed, undone, so that the tests
# after this one in the same boot find the guest as the harness made it:
# no netem, offloads on, its MTU, no RDMA device, no second address, no
# SUNH subnet. The barrier first: the peer may still be serving.
bench_teardown() {
	barrier bench-teardown
	# Which connection carried what: SUNH is lcid 1, UDP/IPv4 lcid 2.
	superp -s conn show 2> /dev/null | sed 's/^/# /'
	bench_netem 0
	ethtool -K eth0 tso on gso on gro on > /dev/null 2>&1
	ip link set eth0 mtu "$bench_mtu_start"
	rdma link delete superp0 2> /dev/null
	rmmod ib_superp 2> /dev/null
	sunh subnet del 2> /dev/null
	ip addr del "$(bench_udp_ip "$me")/24" dev eth0 2> /dev/null
	rdma link delete rxe0 2> /dev/null
	rmmod rdma_rxe 2> /dev/null
	rdma link delete siw0 2> /dev/null
	rmmod siw 2> /dev/null
	check "bench: no RDMA device left" sh -c '! rdma link show | grep -q .'
	check "bench: no netem on eth0" sh -c '! tc qdisc show dev eth0 | grep -q netem'
	check "bench: eth0's MTU back to $bench_mtu_start" \
		test "$(cat /sys/class/net/eth0/mtu)" = "$bench_mtu_start"
	barrier bench-teardown-done
}

. "$SUPERP_ROOT/selftests/harness/bench/scale.inc"
