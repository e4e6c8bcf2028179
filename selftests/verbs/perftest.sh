#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perftest (Debian's 4.5, unmodified) between two guests through the
# provider (providers/superp) over ib_superp on a SUNH connection: every
# program (ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw, ib_write_lat,
# ib_read_lat, ib_send_lat) once posting with the ibv_qp_ex wr_* API
# (perftest's default) over all sizes (-a; the latency programs at 2 B and
# 1 MiB in make check, every size under make soak: the bandwidth programs
# already carry each opcode through every size, and the latency ones took
# a minute of the run), and once with --use_old_post_send (ibv_post_send),
# the bandwidth programs with 16 QPs (-q 16); a few over a UDP/IPv4
# connection and over rxe (the reference).
# Every run's exit status is checked on both sides and the client's result
# rows parsed (bandwidth above 0, latency rows complete); after each device
# `rdma resource show` counts what it did before.
# On Debian's stock kernel, what users run (and fast enough in TCG for the
# whole matrix); the debug kernel's view of the user data path is
# pingpong.sh's and ring_garbage.sh's.
# superp-topology: pair
# superp-kernel: stock
# superp-boot: 2
# superp-timeout: 900
# superp-soak-timeout: 1200
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

# The harness passes no environment into the guests: edit these defaults.
# A run: device program posting(wr|old) arguments (commas for spaces).
# -a goes to 8 MiB: few iterations keep it short in TCG. perftest has
# several QPs in its bandwidth programs only; atomics have one size.
# rxe of 6.1.192 reads out of bounds in rxe_mr_copy() (KASAN on the test
# kernel) when a 1 MiB message lands in a user MR: small sizes for it.
PT_PLAN=${PT_PLAN:-"
rxe ib_write_bw wr -s,4096,-n,20
rxe ib_send_lat old -s,4096,-n,20
superp_sunh ib_write_bw wr -a,-n,5
superp_sunh ib_read_bw wr -a,-n,5
superp_sunh ib_send_bw wr -a,-n,5
superp_sunh ib_atomic_bw wr -n,100
$(soak_or "superp_sunh ib_write_lat wr -a,-n,5
superp_sunh ib_read_lat wr -a,-n,5
superp_sunh ib_send_lat wr -a,-n,5" "superp_sunh ib_write_lat wr -s,2,-n,20
superp_sunh ib_write_lat wr -s,1048576,-n,5
superp_sunh ib_read_lat wr -s,2,-n,20
superp_sunh ib_read_lat wr -s,1048576,-n,5
superp_sunh ib_send_lat wr -s,2,-n,20
superp_sunh ib_send_lat wr -s,1048576,-n,5")
superp_sunh ib_write_bw old -q,16,-s,4096,-n,20
superp_sunh ib_read_bw old -q,16,-s,4096,-n,20
superp_sunh ib_send_bw old -q,16,-s,4096,-n,20
superp_sunh ib_atomic_bw old -q,16,-n,100
superp_sunh ib_write_lat old -s,4096,-n,20
superp_sunh ib_read_lat old -s,4096,-n,20
superp_sunh ib_send_lat old -s,4096,-n,20
superp_udp4 ib_write_bw wr -q,16,-s,65536,-n,20
superp_udp4 ib_read_bw old -s,65536,-n,20
superp_udp4 ib_atomic_bw wr -n,100
superp_udp4 ib_send_lat old -s,2,-n,100
"}
PT_TIMEOUT=${PT_TIMEOUT:-120}	# seconds per run

tap_begin

ibdev() { case $1 in rxe) echo rxe0 ;; *) echo superp0 ;; esac; }

# results PROG LOG ALL: the client's result rows are there, with ALL set
# (-a) one per size from 2 bytes to 8 MiB; every latency row (#bytes
# #iterations t_min ...) has nine numbers, every bandwidth row (#bytes
# #iterations peak average rate) of 4 KiB or more an average above 0 (five
# iterations of a few bytes print 0.00 MB/s).
results() {
	awk -v lat="$(case $1 in *_lat) echo 1 ;; esac)" -v all="$3" '
		$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5 {
			rows++
			size[$1] = 1
			if ((lat != "" && NF < 9) ||
			    (lat == "" && $1 >= 4096 && !($4 + 0 > 0))) {
				bad++
				print "bad row: " $0
			}
		}
		END {
			for (s = 2; all && s <= 8388608; s *= 2)
				if (!(s in size)) { print "no row for " s " bytes"; bad++ }
			if (!rows) print "no result rows"
			exit !(rows && !bad)
		}' "$2" && return 0
	# perftest's own clock fit, which -F lets through with figures of 0
	# (Documentation/testing.rst, perftest.sh)
	grep -i "correlation coefficient" "$2"
	return 1
}

port=18800
# pt PROG NAME DEV ARGS...: one run, guest 1 the server, guest 2 the
# client; each side checks its exit status, the client its results.
pt() {
	local prog=$1 name=$2 dev=$3 gidx log rc
	shift 3
	port=$((port + 1))
	log=/tmp/pt-$name.log
	gidx=$(roce_gid_index "$dev" "$(guest_ip "$me")")
	set -- -d "$dev" -x "$gidx" -p "$port" -F "$@"
	echo "perftest run $name" > /dev/kmsg
	pair_run "pt-$name" "$port" "$PT_TIMEOUT" "$log" "$prog" "$@"
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/# /' "$log"
	check "$name: $prog $* exits 0" test "$rc" -eq 0
	is_coordinator ||
		check "$name: results" results "$prog" "$log" \
			"$(case " $* " in *" -a "*) echo 1 ;; esac)"
	barrier "pt-$name-done"
}

# doorbells: a stream of WRITEs costs a doorbell only when the send queue
# had run empty: the kernel takes what the process writes while it still
# works on the queue (SUPERP_WQ_BUSY, Documentation/provider.rst). The
# client counts the doorbells and the WQEs taken; with ibv_post_send
# once per WR and up to 128 outstanding, fewer than half of the WQEs may
# have come with a doorbell of their own.
doorbells() {
	local pre post wqes rings
	pre=$(hw)
	pt ib_write_bw superp_sunh-doorbells superp0 --use_old_post_send -s 64 -n 2000
	is_coordinator && return 0
	post=$(hw)
	wqes=$(($(echo "$post" | jq .sq_ring_wqes) - $(echo "$pre" | jq .sq_ring_wqes)))
	rings=$(($(echo "$post" | jq .sq_doorbells) - $(echo "$pre" | jq .sq_doorbells)))
	check "superp_sunh-doorbells: $wqes WQEs taken (at least 2000)" test "$wqes" -ge 2000
	check "superp_sunh-doorbells: $rings doorbells, fewer than half of them" \
		test $((rings * 2)) -lt "$wqes"
}

# The devices in plan order, each set up once around its runs.
devs=$(echo "$PT_PLAN" | awk 'NF && !seen[$1]++ { print $1 }')
for d in $devs; do
	dev=$(ibdev "$d")
	check "$d: set up $dev" "setup_$d"
	before=$(objects "$dev")
	runs=$(echo "$PT_PLAN" | awk -v d="$d" '$1 == d { print $2 ":" $3 ":" $4 }')
	for r in $runs; do
		prog=${r%%:*} post=${r#*:} args=${r##*:}
		post=${post%%:*}
		extra=
		[ "$post" = old ] && extra=--use_old_post_send
		# shellcheck disable=SC2046 # the run's arguments
		pt "$prog" "$d-$prog-$post-$(echo "$args" | tr -d ,-)" "$dev" \
			$extra $(echo "$args" | tr , ' ')
	done
	[ "$d" = superp_sunh ] && doorbells
	check "$d: rdma resource show $dev as before ($before)" objects_back "$dev" "$before"
	barrier "pt-$d-done"
	check "$d: tear down $dev" "teardown_$d"
done
tap_exit
