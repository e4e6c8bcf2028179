#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# superp-topology: host
# superp-timeout: 60
#
# sunh and superp as iproute2's tools behave, on the host (whose kernel
# never loads the project's modules): help, OBJECT help, -h and --help
# print the usage on stdout and exit 0; an unknown object is named, with
# a pointer to help, and exits 2 as every usage error does; only a
# command that needs the kernel says its module is missing, and exits 1.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib.sh"

SUNH=$top/tools/sunh/sunh
SUPERP=$top/tools/superp/superp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# runs EXIT STDOUT-ERE STDERR-ERE CMD...: CMD exits EXIT and its stdout
# and stderr match the EREs ("" for empty).
runs() {
	local want=$1 out=$2 err=$3 rc
	shift 3
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" = "$want" ] || { echo "exit $rc, not $want"; cat "$tmp/err"; return 1; }
	if [ -z "$out" ]; then
		[ ! -s "$tmp/out" ] || { echo "stdout not empty:"; head -3 "$tmp/out"; return 1; }
	else
		grep -Eq "$out" "$tmp/out" || { echo "stdout without /$out/:"; head -3 "$tmp/out"; return 1; }
	fi
	if [ -z "$err" ]; then
		[ ! -s "$tmp/err" ] || { echo "stderr not empty:"; head -3 "$tmp/err"; return 1; }
	else
		grep -Eq "$err" "$tmp/err" || { echo "stderr without /$err/:"; head -3 "$tmp/err"; return 1; }
	fi
}

tap_plan 16
for a in help -h --help "route help" "subnet help"; do
	# shellcheck disable=SC2086 # $a is words
	check "sunh $a: usage on stdout, exit 0" runs 0 '^Usage: sunh' '' "$SUNH" $a
done
check "sunh bogus: named, exit 2" \
	runs 2 '' '^Object "bogus" is unknown, try "sunh help"\.$' "$SUNH" bogus
check "sunh (nothing): usage on stderr, exit 2" runs 2 '' '^Usage: sunh' "$SUNH"
check "sunh --bogus: unknown option, exit 2" runs 2 '' 'unknown option "--bogus"' "$SUNH" --bogus
check "superp --bogus: unknown option, exit 2" runs 2 '' 'unknown option "--bogus"' "$SUPERP" --bogus
for a in help -h --help "conn help" "mesh help"; do
	# shellcheck disable=SC2086
	check "superp $a: usage on stdout, exit 0" runs 0 '^ *superp' '' "$SUPERP" $a
done
check "superp bogus: named, exit 2" \
	runs 2 '' '^Object "bogus" is unknown, try "superp help"\.$' "$SUPERP" bogus
if [ -e /sys/module/sunh ] || [ -e /sys/module/ib_superp ]; then
	skip "a command needs the module (the host has it loaded)"
	exit 0
fi
check "sunh subnet show without the module: says so, exit 1" \
	runs 1 '' 'family "sunh" not found \(is its module loaded\?\)' "$SUNH" subnet show
tap_exit
