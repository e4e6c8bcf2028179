#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A data-verifying transfer through plain libibverbs (superp-stress,
# selftests/verbs/superp-stress.c) between two guests on ib_superp, over
# SUNH and over UDP/IPv4: several RC QPs, each with RDMA WRITEs, READs of
# what it wrote a phase before, SENDs with immediate checked in order and
# FETCH_AND_ADD / CMP_AND_SWP on a counter whose fetched and final values
# both sides check; every byte is verified. First a clean run on four
# QPs (STRESS_CLEAN bytes), then one under netem on both guests' eth0
# (1% loss, 25% reordering, 1% duplication, 1 ms delay; TCP, the
# programs' rendezvous, passes beside it: rc.inc netem_on). The harness
# has no host-side netem; netem on the egress of both ends of a two-guest
# link is the same thing, each direction suffering once. Checks: both
# sides exit 0 with their summary line, the payload moved, netem removed
# afterwards, and `rdma resource show superp0` back to what it was.
# make check runs one round of 16 MiB per run; make soak four rounds
# (each with seeds of its own) of 256 MiB clean and 1 GiB under netem per
# encapsulation (about 5 minutes per 1 GiB run under TCG).
# superp-topology: pair
# make check runs it on Debian's stock kernel, make soak on both: under
# the debug kernel its runs take several times as long, and rc.sh moves
# data over the same paths there, under netem too.
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 600
# superp-soak-timeout: 9000
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

# The harness passes no environment into the guests: edit these defaults.
STRESS_ENCAPS=${STRESS_ENCAPS:-superp_sunh superp_udp4}
STRESS_QPS=${STRESS_QPS:-4}		# clean run
STRESS_QPS_NETEM=${STRESS_QPS_NETEM:-4}	# under netem
STRESS_ROUNDS=${STRESS_ROUNDS:-$(soak_or 4 1)}	# clean + netem, new seeds each
STRESS_CLEAN=${STRESS_CLEAN:-$(soak_or $((256 << 20)) $((16 << 20)))}
STRESS_NETEM_BYTES=${STRESS_NETEM_BYTES:-$(soak_or $((1024 << 20)) $((16 << 20)))}
STRESS_TIMEOUT=${STRESS_TIMEOUT:-$(soak_or 1800 240)}	# seconds per run (superp-stress -t)
# tc-netem(8): reordering needs a delay, else every frame leaves at once.
STRESS_NETEM=${STRESS_NETEM:-delay 1ms loss 1% reorder 25% gap 5 duplicate 1%}

tap_begin

port=18800
# stress NAME BYTES QPS: one run, guest 1 the server, guest 2 the client;
# each side checks its exit status, its summary and the payload moved.
stress() {
	local name=$1 bytes=$2 qps=$3 gidx log rc moved
	port=$((port + 1))
	log=/tmp/stress-$name.log
	gidx=$(roce_gid_index superp0 "$(guest_ip "$me")")
	set -- -d superp0 -x "$gidx" -p "$port" -q "$qps" -b "$bytes" \
		-S "$((port * 2 + me))" -t "$STRESS_TIMEOUT"
	echo "stress run $name" > /dev/kmsg
	# superp-stress bounds itself (-t); the outer bound is a last resort.
	pair_run "stress-$name" "$port" "$((STRESS_TIMEOUT + 60))" "$log" superp-stress "$@"
	rc=$?
	head -40 "$log" | sed 's/^/# /'
	check "$name: superp-stress $* exits 0" test "$rc" -eq 0
	check "$name: summary line" grep -q '^summary ' "$log"
	moved=$(sed -n 's/.* out \([0-9]*\) bytes, in \([0-9]*\) bytes.*/\1 + \2/p' "$log")
	check "$name: at least $bytes bytes moved (${moved:-none})" \
		test "$((${moved:-0}))" -ge "$bytes"
	if [ "$rc" -ne 0 ]; then
		tap_diag "$name: superp -s conn show: $(superp -s conn show 2>&1 | tr '\n' ' ')"
		tap_diag "$name: $(rdma statistic show link superp0/1 2>&1 | tr '\n' ' ')"
		dmesg | tail -20 | sed 's/^/# dmesg: /'
	fi
	echo "superp-stress $name: $(grep '^summary ' "$log")" > /dev/kmsg
	barrier "stress-$name-done"
}

no_netem() { ! tc qdisc show dev eth0 | grep -q netem; }

for d in $STRESS_ENCAPS; do
	check "$d: set up superp0" "setup_$d"
	before=$(objects superp0)
	for r in $(seq "$STRESS_ROUNDS"); do
		# Each run's seed follows from its port: every round differs.
		stress "$d-clean-$r" "$STRESS_CLEAN" "$STRESS_QPS"
		# shellcheck disable=SC2086 # netem arguments are words
		check "$d: netem $STRESS_NETEM on eth0 (not TCP)" netem_on $STRESS_NETEM
		stress "$d-netem-$r" "$STRESS_NETEM_BYTES" "$STRESS_QPS_NETEM"
		tap_diag "$d-netem-$r: $(tc -s qdisc show dev eth0 | tr '\n' ' ')"
		check "$d: netem removed" netem_off
		check "$d: no netem left on eth0" no_netem
	done
	check "$d: rdma resource show superp0 as before ($before)" objects_back superp0 "$before"
	tap_diag "$d: $(rdma statistic show link superp0/1 2>&1 | tr '\n' ' ')"
	barrier "stress-$d-gone"
	check "$d: tear down superp0" "teardown_$d"
done
tap_exit
