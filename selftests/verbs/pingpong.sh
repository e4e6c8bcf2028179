#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Unmodified libibverbs programs between two guests: ibv_rc_pingpong
# (rdma-core's ibverbs-utils) through the provider (providers/superp),
# from 1 B (inline data) to 1 MiB, with -c (the server checks the first
# byte of each page it received and names a page that differs) and with
# -e (completion events instead of busy polling), ibv_srq_pingpong (16
# QPs and 4 sharing a receive queue), and ibv_ud_pingpong (UD QPs and an
# address handle each side; 1 B, inline, to 4 KiB, the port's MTU; with
# -c the payload must land after the 40-byte GRH), over ib_superp on a
# SUNH connection and on a UDP/IPv4 one, the RC ones also under netem
# (1% loss, 25% reordering, 1% duplication both ways; not UD: a lost
# datagram stops ibv_ud_pingpong for good); under make soak rxe runs the
# same commands first, as the reference the test is proven on. Every
# run's exit status and its byte count are checked on both sides, and the
# server's log for pages -c found wrong; after each device `rdma resource
# show` counts what it did before the runs. ibv_uc_pingpong and
# ibv_xsrq_pingpong (QP types ib_superp does not offer) must fail at once
# with a message. Last, both ends of a long run are killed with SIGKILL
# mid-transfer, and everything they had must be freed.
# superp-topology: pair
# make check runs it on Debian's stock kernel, the one users run the
# programs on; make soak on both. The provider's paths run under the
# debug kernel in provider.sh, user_qp.sh and user_cq.sh.
# superp-kernel: stock
# superp-boot: 2
# superp-soak-kernel: both
# superp-timeout: 900
# superp-soak-timeout: 1500
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

# The harness passes no environment into the guests: edit these defaults.
PP_DEVS=${PP_DEVS:-$(soak_or rxe) superp_sunh superp_udp4}
# size:iterations (ibv_rc_pingpong -s and -n); a run moves 2 * size * n.
PP_RUNS=${PP_RUNS:-$(soak_or "1:500 4096:200 65536:50 1048576:10" "1:100 4096:50 65536:20 1048576:4")}
# rxe of this kernel (6.1.192) reads out of bounds in rxe_mr_copy()
# (KASAN: slab-out-of-bounds) when a 1 MiB message lands in a user MR, so
# the reference stops at 64 KiB (Documentation/testing.rst).
PP_RXE_RUNS=${PP_RXE_RUNS:-1:500 4096:200 65536:50}
# size:iterations of ibv_ud_pingpong, rxe's too: a UD message is at most
# the port's active MTU, 4096 with the guests' 9000-byte eth0 (1 B goes
# inline).
PP_UD_RUNS=${PP_UD_RUNS:-$(soak_or "1:500 1024:500 4096:500" "1:100 1024:100 4096:100")}
PP_TIMEOUT=${PP_TIMEOUT:-120}	# seconds per run
# tc-netem(8): reordering needs a delay, else every frame leaves at once.
PP_NETEM=${PP_NETEM:-delay 1ms loss 1% reorder 25% gap 5 duplicate 1%}

tap_begin

ibdev() { case $1 in rxe) echo rxe0 ;; *) echo superp0 ;; esac; }

port=18600
# pp PROG NAME DEV SIZE ITERS ARGS...: one run of PROG (ibv_rc_pingpong,
# ibv_srq_pingpong or ibv_ud_pingpong), guest 1 the server, guest 2 the
# client; each side checks its own exit status and that it moved 2 * SIZE
# * ITERS bytes (per QP: ibv_srq_pingpong counts one QP's), and the server
# that -c found no page wrong (the programs print it and still exit 0).
pp() {
	local prog=$1 name=$2 dev=$3 size=$4 iters=$5 gidx log rc
	shift 5
	port=$((port + 1))
	log=/tmp/pp-$name.log
	gidx=$(roce_gid_index "$dev" "$(guest_ip "$me")")
	set -- -d "$dev" -g "$gidx" -p "$port" -s "$size" -n "$iters" -c "$@"
	echo "pingpong run $name" > /dev/kmsg
	pair_run "pp-$name" "$port" "$PP_TIMEOUT" "$log" "$prog" "$@"
	rc=$?
	sed 's/^/# /' "$log"
	check "$name: $prog $* exits 0" test "$rc" -eq 0
	check "$name: $((2 * size * iters)) bytes moved" \
		grep -q "^$((2 * size * iters)) bytes in " "$log"
	is_coordinator || return 0
	check_fail "$name: no invalid data (-c)" grep -q "^invalid data" "$log"
}

# killed D DEV: both ends of a long ibv_rc_pingpong killed with SIGKILL
# mid-transfer; the kernel frees what they had (checked by objects_back).
killed() {
	local gidx pid
	port=$((port + 1))
	gidx=$(roce_gid_index "$2" "$(guest_ip "$me")")
	set -- -d "$2" -g "$gidx" -p "$port" -s 65536 -n 1000000
	if is_coordinator; then
		ibv_rc_pingpong "$@" > /tmp/killed.log 2>&1 &
		pid=$!
		wait_listening "$port"
		barrier "pp-$d-killed"
	else
		barrier "pp-$d-killed"
		ibv_rc_pingpong "$@" "$(guest_ip "$peer")" > /tmp/killed.log 2>&1 &
		pid=$!
	fi
	sleep 3
	check "$d: ibv_rc_pingpong still running after 3 s" kill -0 "$pid"
	kill -9 "$pid"
	wait "$pid"
	barrier "pp-$d-killed-done"
}

# refused_at_once D DEV: the QP types ib_superp does not offer (UC, XRC)
# make their pingpong fail at once with a message, not hang; guest 1 runs
# them as servers (they create their QP before they listen).
refused_at_once() {
	local prog rc
	is_coordinator || return 0
	for prog in ibv_uc_pingpong ibv_xsrq_pingpong; do
		timeout 20 "$prog" -d "$2" -g 1 -p 18700 > /tmp/refused.log 2>&1
		rc=$?
		sed 's/^/# /' /tmp/refused.log
		check "$1: $prog fails at once with a message (exit $rc)" \
			sh -c "[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ -s /tmp/refused.log ]"
	done
}

for d in $PP_DEVS; do
	dev=$(ibdev "$d")
	check "$d: set up $dev" "setup_$d"
	before=$(objects "$dev")
	runs=$PP_RUNS
	[ "$d" = rxe ] && runs=$PP_RXE_RUNS
	for r in $runs; do
		pp ibv_rc_pingpong "$d-${r%%:*}" "$dev" "${r%%:*}" "${r##*:}"
	done
	pp ibv_rc_pingpong "$d-4096-events" "$dev" 4096 200 -e
	# 16 QPs on one SRQ each side, over the one connection.
	pp ibv_srq_pingpong "$d-srq" "$dev" 4096 50
	pp ibv_srq_pingpong "$d-srq-events" "$dev" 1024 50 -q 4 -e
	for r in $PP_UD_RUNS; do
		pp ibv_ud_pingpong "$d-ud-${r%%:*}" "$dev" "${r%%:*}" "${r##*:}"
	done
	if [ "$d" != rxe ]; then
		# Loss, reordering and duplication both ways: the user rings
		# under retransmission, what arrived still checked (-c).
		check "$d: netem $PP_NETEM on eth0" tc qdisc add dev eth0 root netem $PP_NETEM
		pp ibv_rc_pingpong "$d-netem-65536" "$dev" 65536 50
		pp ibv_srq_pingpong "$d-netem-srq" "$dev" 4096 20 -q 4
		tap_diag "$d-netem: $(tc -s qdisc show dev eth0 | tr '\n' ' ')"
		check "$d: netem removed" tc qdisc del dev eth0 root
	fi
	[ "$d" = rxe ] || refused_at_once "$d" "$dev"
	killed "$d" "$dev"
	check "$d: rdma resource show $dev as before ($before)" objects_back "$dev" "$before"
	[ "$d" = rxe ] || tap_diag "$d: $(rdma statistic show link "$dev/1" 2>&1 | tr '\n' ' ')"
	barrier "pp-$d-done"
	check "$d: tear down $dev" "teardown_$d"
done
tap_exit
