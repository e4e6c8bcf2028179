#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# superp-topology: host
# superp-timeout: 300
#
# Conformance to the SUPERp v0.4 figures, trusting none of our headers:
# the packets of kunit/superp_spec_packets.h were written byte by byte from
# the specification's diagrams (one or more per spec opcode, several with
# more than one operation). Here the dissector must decode each one field
# for field, and superp-gen, given the same field values, must build the
# same frame byte for byte. (The kernel codec decodes the same packets in
# the KUnit suite superp_spec_conformance.)
# Needs: make -C tools/superp-gen, tshark, a C compiler.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib.sh"

GEN=$top/tools/superp-gen/superp-gen
LUA=$top/tools/wireshark/superp.lua
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! cc -O2 -Wall -Wextra -Werror -I"$top/include/uapi" -I"$top/kunit" \
	-o "$tmp/spec-packets" "$top/selftests/wire/spec_packets.c" 2> "$tmp/cc.err"; then
	tap_plan 1
	not_ok "build selftests/wire/spec_packets.c"
	sed 's/^/#   /' "$tmp/cc.err"
	tap_exit
fi
"$tmp/spec-packets" list > "$tmp/list"
"$tmp/spec-packets" pcap "$tmp/spec.pcap"

declare -a NAME HEX ARGS EXP
n=0
while read -r kind rest; do
	case $kind in
	packet) NAME[n]=${rest#* }; n=$((n + 1)) ;;
	hex) HEX[n - 1]=$rest ;;
	gen) ARGS[n - 1]=$rest ;;
	expect) EXP[n - 1]=$rest ;;
	esac
done < "$tmp/list"

tap_plan $((2 * n + 1))

# ------------------------------------------------------------ dissector
declare -A want_field=([_ws.expert]=1)
for e in "${EXP[@]}"; do
	for kv in $e; do want_field[${kv%%=*}]=1; done
done
fields=(frame.number "${!want_field[@]}")
targs=()
for x in "${fields[@]}"; do targs+=(-e "$x"); done
tshark -n -X "lua_script:$LUA" -r "$tmp/spec.pcap" -T fields -E "separator=|" \
	-E occurrence=a -E aggregator=, "${targs[@]}" > "$tmp/fields" 2> "$tmp/tshark.err"
if [ "$(wc -l < "$tmp/fields")" -eq "$n" ] && ! grep -qi 'lua.*error' "$tmp/tshark.err"; then
	ok "tshark decodes the $n hand-built packets"
else
	not_ok "tshark decodes the $n hand-built packets"
	sed 's/^/#   /' "$tmp/tshark.err"
fi

for i in $(seq 0 $((n - 1))); do
	IFS="|" read -r -a row < <(sed -n "$((i + 1))p" "$tmp/fields")
	declare -A got=()
	for j in "${!fields[@]}"; do got[${fields[j]}]=${row[j]:-}; done
	bad=
	[ -z "${got[_ws.expert]}" ] || bad+=" expert-info=${got[_ws.expert]}"
	for kv in ${EXP[i]}; do
		k=${kv%%=*} w=${kv#*=}
		[ "${got[$k]:-}" = "$w" ] || bad+=" $k=${got[$k]:-<absent>}(want $w)"
	done
	if [ -z "$bad" ]; then
		ok "dissector decodes ${NAME[i]} field for field"
	else
		not_ok "dissector decodes ${NAME[i]} field for field"
		echo "#  $bad"
	fi
	unset got
done

# ------------------------------------------------------------ generator
for i in $(seq 0 $((n - 1))); do
	# shellcheck disable=SC2086 # the arguments are words
	g=$("$GEN" -x ${ARGS[i]} 2>&1 | tr -d ' \n')
	if [ "$g" = "${HEX[i]}" ]; then
		ok "superp-gen builds ${NAME[i]} byte for byte"
	else
		not_ok "superp-gen builds ${NAME[i]} byte for byte"
		echo "#   superp-gen ${ARGS[i]}"
		echo "#   want ${HEX[i]}"
		echo "#   got  $g"
	fi
done

tap_exit
