#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A guest that only answers traffic keeps its memory. On the debug kernel
# KASAN parks every freed object in its quarantine and trims it only when
# a slab allocation that may sleep comes; a guest whose processes all
# wait makes none, so every skb it frees stays allocated (the pileup of
# Documentation/testing.rst, "Known problems"). The harness runs
# superp-kasan-trim in such guests for that. Guest 2 sends small UDP
# datagrams to a port of guest 1 where nothing listens (superp-udp-flood,
# at a set rate) while guest 1 runs no process: its shell waits on a FIFO
# that a barrier, started with the flood, writes once guest 2 is done.
# Then guest 1 reads its skb count, starts five processes (which trim the
# quarantine to its bound) and reads it again: what the processes freed
# is what sat in the quarantine above its bound, and must be at most
# 5,000 (the trimmer runs every 250 ms). Without the trimmer, most
# skbs of the flood stay (2026-11-29: 74,424 held after 100,013
# packets, 33,588 above the bound; with it 1,376). On a kernel without
# KASAN nothing is parked and the test says so.
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 300
# superp-soak-timeout: 1200
. "$SUPERP_ROOT/selftests/lib.sh"

# The harness passes no environment into the guests: edit these defaults.
QG_DATAGRAMS=${QG_DATAGRAMS:-$(soak_or 1000000 100000)}
# Datagrams a second, at time scale 100: what guest 1 takes without loss.
QG_RATE=${QG_RATE:-6000}
QG_PORT=5299

# held: the skbs allocated now, read with shell built-ins only (no
# command substitution either): a fork would trim the quarantine.
read_held() {
	local name active rest
	held=0
	while read -r name active rest; do
		[ "$name" = skbuff_head_cache ] || continue
		held=$active
		return 0
	done < /proc/slabinfo
}

tap_begin
if is_coordinator; then
	has_kasan || tap_diag "no KASAN: nothing to trim"
	rm -f /tmp/qg.fifo && mkfifo /tmp/qg.fifo
	read -r rx0 < /sys/class/net/eth0/statistics/rx_packets
	barrier qg-ready
	# One barrier at a time: this one's program starts as the flood does
	# and waits; when guest 2 arrives after its flood, the subshell wakes
	# this shell.
	(barrier qg-flooded 600; echo flooded > /tmp/qg.fifo) &
	read -r _ < /tmp/qg.fifo
	read -r rx1 < /sys/class/net/eth0/statistics/rx_packets
	read_held
	held_quiet=$held
	/bin/true; /bin/true; /bin/true; /bin/true; /bin/true
	read_held
	rx=$((rx1 - rx0))
	tap_diag "received $rx packets; skbs held $held_quiet, after five processes $held"
	check "the flood arrived (at least half of $QG_DATAGRAMS datagrams)" \
		test "$rx" -ge $((QG_DATAGRAMS / 2))
	check "at most 5,000 skbs above KASAN's bound" test $((held_quiet - held)) -le 5000
else
	barrier qg-ready
	check "superp-udp-flood sends $QG_DATAGRAMS datagrams" \
		superp-udp-flood "$(guest_ip 1)" "$QG_PORT" "$QG_DATAGRAMS" \
		$((QG_RATE * 100 / ${SUPERP_TIME_SCALE:-100}))
	barrier qg-flooded 600
fi
barrier qg-done
tap_exit
