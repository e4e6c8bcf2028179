#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A guest that only answers traffic keeps its memory. On the debug kernel
# KASAN parks every freed object in its quarantine and trims it only when
# a slab allocation that may sleep comes; a guest whose processes all
# wait makes none, so every skb it frees stays allocated (the pileup of
# Documentation/testing.rst, "Known problems"). The harness runs
# superp-kasan-trim in such guests for that. Guest 2 floods guest 1 with
# small UDP datagrams while guest 1's shell and its iperf3 server wait
# (no process starts there until the count is read). Then guest 1 reads
# its skb count, starts five processes (which trim the quarantine to its
# bound) and reads it again: what the processes freed is what sat in the
# quarantine above its bound, and must be at most 5,000 (the trimmer
# runs every 250 ms; the flood brings about 2,500 packets a second).
# Without the trimmer (2026-11-29): 52,572 held after 120,106 packets,
# 11,860 of them above the bound; 232,368 after 300,110. With it, about
# 1,800 above it. iperf3's closing exchange allocates too, so a short
# flood shows less than it held.
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 300
# superp-soak-timeout: 1200
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

# The harness passes no environment into the guests: edit these defaults.
QG_DATAGRAMS=${QG_DATAGRAMS:-$(soak_or 1000000 120000)}
QG_PORT=5299
QG_LIMIT=$(soak_or 1000 240)	# seconds for the flood

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
	grep -q ' kasan_quarantine_reduce$' /proc/kallsyms || tap_diag "no KASAN: nothing to trim"
	read -r rx0 < /sys/class/net/eth0/statistics/rx_packets
	timeout "$(scaled_s "$QG_LIMIT")" iperf3 -s -1 -p "$QG_PORT" > /dev/null 2>&1 &
	server=$!
	retry 50 0.1 listening "$QG_PORT"
	barrier qg-listening
	wait "$server"
	read -r rx1 < /sys/class/net/eth0/statistics/rx_packets
	read_held
	held_quiet=$held
	for i in 1 2 3 4 5; do /bin/true; done
	read_held
	rx=$((rx1 - rx0))
	tap_diag "received $rx packets; skbs held $held_quiet, after five processes $held"
	check "the flood arrived (at least half of $QG_DATAGRAMS datagrams)" \
		test "$rx" -ge $((QG_DATAGRAMS / 2))
	check "at most 5,000 skbs above KASAN's bound" test $((held_quiet - held)) -le 5000
else
	barrier qg-listening
	check "iperf3 sends $QG_DATAGRAMS datagrams of 16 bytes" \
		timeout "$(scaled_s "$QG_LIMIT")" iperf3 -c "$(guest_ip 1)" -p "$QG_PORT" -u -b 0 -l 16 -k "$QG_DATAGRAMS"
fi
barrier qg-done
tap_exit
