#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perftest (Debian's 4.5, unmodified) between two guests through the
# provider (providers/superp): ib_write_bw, ib_read_bw, ib_send_bw,
# ib_atomic_bw, ib_write_lat, ib_read_lat and ib_send_lat, each posting
# with the ibv_qp_ex wr_* API (perftest's default) and with
# --use_old_post_send (ibv_post_send), one run over all sizes (-a) and
# one with 16 QPs (-q 16), over ib_superp on a SUNH connection (and a
# few of them on a UDP/IPv4 one); rxe runs a few of the same commands first, as the
# reference. Every run's exit status is checked on both sides and the
# client's result rows parsed (bandwidth above 0, latency rows present);
# after each device `rdma resource show` counts what it did before.
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 1500
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

# The harness passes no environment into the guests: edit these defaults.
PT_DEVS=${PT_DEVS:-rxe superp_sunh superp_udp4}
PT_PROGS=${PT_PROGS:-ib_write_bw ib_read_bw ib_send_bw ib_atomic_bw \
	ib_write_lat ib_read_lat ib_send_lat}
# How each program posts: the wr_* API (default) and ibv_post_send.
PT_POSTS=${PT_POSTS:-wr old}
# The runs: name:perftest arguments (commas for spaces). -a goes to 8 MiB:
# few iterations keep it short in TCG.
PT_RUNS=${PT_RUNS:-all:-a,-n,5 q16:-q,16,-s,4096,-n,20}
# rxe of this kernel (6.1.192) reads out of bounds in rxe_mr_copy()
# (KASAN) when a 1 MiB message lands in a user MR: small sizes only.
PT_RXE_RUNS=${PT_RXE_RUNS:-small:-s,4096,-n,20}
PT_RXE_PROGS=${PT_RXE_PROGS:-ib_write_bw ib_send_lat}
# UDP/IPv4 differs from SUNH only below the engine: a few programs.
PT_UDP4_PROGS=${PT_UDP4_PROGS:-ib_write_bw ib_atomic_bw ib_send_lat}
PT_TIMEOUT=${PT_TIMEOUT:-120}	# seconds per run

tap_begin

ibdev() { case $1 in rxe) echo rxe0 ;; *) echo superp0 ;; esac; }

# results PROG LOG: the client's result rows are there; every bandwidth
# row (#bytes #iterations peak average rate) has an average above 0,
# every latency row (#bytes #iterations t_min ... ) nine numbers.
results() {
	awk -v lat="$(case $1 in *_lat) echo 1 ;; esac)" '
		$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5 {
			rows++
			if (lat != "" && NF < 9) bad++
			if (lat == "" && !($4 + 0 > 0)) bad++
		}
		END { if (!rows) print "no result rows"; if (bad) print bad " bad rows"
			exit !(rows && !bad) }' "$2"
}

port=18800
# pt PROG NAME DEV ARGS...: one run, guest 1 the server, guest 2 the
# client; each side checks its exit status, the client its results.
pt() {
	local prog=$1 name=$2 dev=$3 gidx log rc pid
	shift 3
	port=$((port + 1))
	log=/tmp/pt-$name.log
	gidx=$(roce_gid_index "$dev" "$(guest_ip "$me")")
	set -- -d "$dev" -x "$gidx" -p "$port" -F "$@"
	echo "perftest run $name" > /dev/kmsg
	if is_coordinator; then
		timeout "$PT_TIMEOUT" "$prog" "$@" > "$log" 2>&1 &
		pid=$!
		wait_listening "$port"
		barrier "pt-$name"
		wait "$pid"
		rc=$?
	else
		barrier "pt-$name"
		timeout "$PT_TIMEOUT" "$prog" "$@" "$(guest_ip "$peer")" > "$log" 2>&1
		rc=$?
	fi
	[ $rc -eq 0 ] || sed 's/^/# /' "$log"
	check "$name: $prog $* exits 0" test "$rc" -eq 0
	is_coordinator ||
		check "$name: results" results "$prog" "$log"
	barrier "pt-$name-done"
}

for d in $PT_DEVS; do
	dev=$(ibdev "$d")
	check "$d: set up $dev" "setup_$d"
	before=$(objects "$dev")
	runs=$PT_RUNS progs=$PT_PROGS
	[ "$d" = rxe ] && runs=$PT_RXE_RUNS progs=$PT_RXE_PROGS
	[ "$d" = superp_udp4 ] && progs=$PT_UDP4_PROGS
	for prog in $progs; do
		for post in $PT_POSTS; do
			extra=
			[ "$post" = old ] && extra=--use_old_post_send
			for r in $runs; do
				args=$(echo "${r#*:}" | tr , ' ')
				# perftest has several QPs only in its bw tests.
				case "$prog $args" in *_lat*"-q "*) continue ;; esac
				# Atomics have one size: perftest refuses -s and -a.
				[ "$prog" = ib_atomic_bw ] &&
					args=$(echo "$args" | sed -e 's/-s [0-9]*//' -e 's/-a//')
				# shellcheck disable=SC2086 # the run's arguments
				pt "$prog" "$d-$prog-$post-${r%%:*}" "$dev" $extra $args
			done
		done
	done
	check "$d: rdma resource show $dev as before ($before)" objects_back "$dev" "$before"
	barrier "pt-$d-done"
	check "$d: tear down $dev" "teardown_$d"
done
tap_exit
