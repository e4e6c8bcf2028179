#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# superp-topology: host
# superp-timeout: 300
#
# superp-gen --peer on the host: the same seed gives the same frames, and
# what it sends covers what a hostile peer must try (decoded with
# tools/wireshark/superp.lua): every opcode of the table, PSNs in, at the
# edge of and outside the window and behind it, cuts at each header
# boundary, block sizes below 16, random SACK bits, both directions' XIDs;
# and --learn reads a connection's state from a capture.
# Needs: make -C tools/superp-gen, and tshark.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib.sh"

GEN=$top/tools/superp-gen/superp-gen
LUA=$top/tools/wireshark/superp.lua

if ! command -v tshark > /dev/null || [ ! -x "$GEN" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP needs tshark and $GEN (make -C tools/superp-gen)"
	exit $KSFT_SKIP
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tap_begin

# The victim expects PSN 1000 (window 32) and XID 40, sent PSN 500.
conn=(--encap sunh --dcid 9 --psn 1000 --ack-psn 500 --xid 40 --ack-xid 30)
N=4000
gen() { "$GEN" --peer "$1" -n $N -v -x "${conn[@]}"; }
if "$GEN" --peer 7 -n $N -v -x "${conn[@]}" -w "$tmp/a.pcap" > "$tmp/a.txt"; then
	ok "seed 7: $N frames"
else
	not_ok "seed 7: $N frames"
fi
gen 7 > "$tmp/b.txt"
gen 8 > "$tmp/c.txt"
check "seed 7 again: the same bytes" cmp "$tmp/a.txt" "$tmp/b.txt"
check_fail "seed 8: other bytes" cmp -s "$tmp/a.txt" "$tmp/c.txt"

tshark -r "$tmp/a.pcap" -X lua_script:"$LUA" -T fields -E separator=, \
	-e frame.len -e superp.pdl.dcid -e superp.pdl.psn -e superp.pdl.sack \
	-e superp.tal.opcode -e superp.tal.xid 2> /dev/null > "$tmp/f.csv"
check "tshark decodes $N frames" test "$(wc -l < "$tmp/f.csv")" -eq $N

# every opcode of superp-gen's table, from --describe
all_opcodes() {
	local n missing=
	for n in $("$GEN" --describe | awk '$1 == "opcode" { print $2 }'); do
		awk -F, -v o="$n" '$5 == o { f = 1 } END { exit !f }' "$tmp/f.csv" ||
			missing="$missing $n"
	done
	[ -z "$missing" ] || { echo "opcodes never sent:$missing"; return 1; }
}
check "every opcode of the table is sent" all_opcodes

# count AWK-CONDITION: frames (decoded with a PSN) that meet it
count() { awk -F, "\$3 != \"\" && ($1) { n++ } END { print n + 0 }" "$tmp/f.csv"; }
some() { [ "$(count "$1")" -gt 0 ] || { echo "none with $1"; return 1; }; }
check "PSNs inside the window" some '$3 >= 1000 && $3 < 1031'
check "PSNs at its edge (1031, 1032, 1033)" some '$3 >= 1031 && $3 <= 1033'
check "PSNs behind it (duplicates)" some '$3 < 1000 && $3 >= 900'
check "PSNs far outside it" some '$3 > 1033'
check "random SACK bits" some '$4 != 0'
check "the connection's DCID" some '$2 == 9'
check "XIDs near the target window" some '$6 >= 40 && $6 < 56'

# Cuts at every header boundary: Ethernet 14 + SUNH 8, + PDL 16, + TAL 8.
cut_at() { awk -F, -v l="$1" '$1 == l { f = 1 } END { exit !f }' "$tmp/f.csv"; }
check "cut after the SUNH header" cut_at 22
check "cut after the PDL header" cut_at 38
check "cut one byte short of the TAL header's end" cut_at 45
check "cut after the TAL header" cut_at 46
check "block sizes below 16" grep -Eq ' block ([1-9]|1[0-5])$' "$tmp/a.txt"

# --learn: the victim (SUNH 2) sent PSNs 70..79 acknowledging 40 and
# started XID 5 acknowledging our 11; we (1) sent PSNs 41..45, requests of
# XID 12, to its CID 9. It expects PSN 46 and XID 13 next.
learned() {
	"$GEN" -w "$tmp/cap.pcap" --saddr 2 --daddr 1 --dcid 4 --psn 70 \
		--ack-psn 40 --opcode write --xid 5 --ack-xid 11 -n 10 \
		--op addr=1,payload=4 &&
	"$GEN" -w "$tmp/cap.pcap" --append --saddr 1 --daddr 2 --dcid 9 \
		--psn 41 --opcode send --xid 12 -n 5 --op key=1,payload=4 &&
	"$GEN" --learn "$tmp/cap.pcap" --saddr 1 --daddr 2 --dcid 9 --peer 1 \
		-n 1 -v -x | head -1
}
check "--learn takes the state from a capture" output_has \
	'^learned psn 46 ack-psn 79 xid 13 ack-xid 5$' learned
check_fail "--learn refuses a file that is no pcap" "$GEN" --learn "$0" --peer 1 -x
check_fail "--learn refuses a capture without the connection" \
	"$GEN" --learn "$tmp/cap.pcap" --saddr 5 --daddr 6 --peer 1 -x

tap_exit
