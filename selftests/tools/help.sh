#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# superp-topology: host
# superp-timeout: 60
#
# sunh, superp and superp-gen as iproute2's tools behave, on the host
# (whose kernel never loads the project's modules): help, OBJECT help, -h
# and --help print the usage on stdout and exit 0; -V and --version print
# "TOOL (SUPERp) VERSION" and exit 0; an unknown object is named, with a
# pointer to help, and exits 2 as every usage error does; only a command
# that needs the kernel says its module is missing, and exits 1.
#
# Their manual pages, built with them from TOOL.8.rst (make tools): man
# renders each without a warning; --help is the manual's SYNOPSIS (the
# build generates one from the other: this shows the binary is not older
# than its manual); the options the code parses are the ones the manual's
# OPTIONS lists, and superp's parameter table is the manual's PARAMETERS.

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib.sh"

SUNH=$top/tools/sunh/sunh
SUPERP=$top/tools/superp/superp
GEN=$top/tools/superp-gen/superp-gen
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

# man's rendering of page $1, plain ASCII, one line per source line of
# preformatted text.
render() { LC_ALL=C MANWIDTH=200 man -l "$1" 2>/dev/null; }

# The lines of section $2 of page $1, without indentation.
section() {
	render "$1" | awk -v s="$2" '/^[A-Z]/ { on = $0 == s; next } on' |
		sed -E 's/^ +//; s/ +/ /g; /^$/d'
}

# man_clean PAGE: man and groff render it without a warning, and it has
# the sections of a manual page.
man_clean() {
	local out s
	[ -s "$1" ] || { echo "no $1 (make tools)"; return 1; }
	out=$(LC_ALL=C MANWIDTH=80 man -l "$1" 2>&1 >/dev/null)
	[ -z "$out" ] || { echo "man -l: $out"; return 1; }
	out=$(groff -man -ww -z "$1" 2>&1)
	[ -z "$out" ] || { echo "groff -ww: $out"; return 1; }
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		render "$1" | grep -qx "$s" || { echo "no section $s"; return 1; }
	done
}

# help_is_synopsis PAGE TOOL: TOOL --help begins with the page's SYNOPSIS.
help_is_synopsis() {
	local page=$1 syn help
	shift
	syn=$(section "$page" SYNOPSIS)
	[ -n "$syn" ] || { echo "no SYNOPSIS in $page"; return 1; }
	help=$("$@" --help | sed -E '1s/^Usage: //; s/^ +//; s/ +/ /g; /^$/d' |
		head -n "$(printf '%s\n' "$syn" | wc -l)")
	diff <(printf '%s\n' "$syn") <(printf '%s\n' "$help") ||
		{ echo "(< manual, > --help: rebuild with make tools)"; return 1; }
}

# same_options PAGE OPTION...: the options the OPTIONS section of PAGE
# describes are OPTION...: the first word of each comma-separated part of
# an item's tag (man puts a short tag and its text on one line, two spaces
# apart).
same_options() {
	local page=$1 documented
	shift
	documented=$(render "$page" | awk '/^[A-Z]/ { on = $0 == "OPTIONS"; next }
		on && /^       -/ {
			tag = substr($0, 8); sub(/  .*/, "", tag)
			n = split(tag, a, ", ")
			for (i = 1; i <= n; i++) { split(a[i], w, " "); print w[1] }
		}' | LC_ALL=C sort -u)
	diff <(printf '%s\n' "$documented") <(printf '%s\n' "$@" | LC_ALL=C sort -u) ||
		{ echo "(< the manual's OPTIONS, > the options the code parses)"; return 1; }
}

# The global options sunh and superp compare with argv[1] (FILE...), and
# the options they share (tools/lib/options.c and output.c compare arg).
argv1_options() {
	grep -ohE 'strcmp\((argv\[1\]|arg), "-[^"]*"\)' "$@" | sed -E 's/.*"(-[^"]*)".*/\1/'
}

# superp-gen's: its long options and getopt's letters.
gen_options() {
	local c=$top/tools/superp-gen/main.c
	sed -nE 's/^\t\{ "([a-z-]+)", .*/--\1/p' "$c"
	sed -nE 's/.*getopt_long\(argc, argv, "([^"]*)".*/\1/p' "$c" | tr -d : | grep -o . | sed 's/^/-/'
}

# superp help's PARAM list and the manual's PARAMETERS section name the
# same parameters.
same_params() {
	local help man
	help=$("$SUPERP" help | sed -n '/PARAM :=/,$p' | grep -oE '[a-z_]+' | LC_ALL=C sort)
	man=$(section "$top/tools/superp/superp.8" PARAMETERS | grep -E '^(pdl|tal)_[a-z_]+$' | LC_ALL=C sort)
	[ -n "$help" ] || { echo "superp help lists no PARAM"; return 1; }
	diff <(printf '%s\n' "$man") <(printf '%s\n' "$help") ||
		{ echo "(< superp(8) PARAMETERS, > superp help's PARAM)"; return 1; }
}

tap_plan 45
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
for a in help -h --help; do
	check "superp-gen $a: usage on stdout, exit 0" runs 0 '^Usage: superp-gen' '' "$GEN" $a
done
check "superp-gen bogus: named, exit 2" runs 2 '' 'unexpected argument: bogus' "$GEN" bogus
check "superp-gen --bogus: usage on stderr, exit 2" runs 2 '' '^Usage: superp-gen' "$GEN" --bogus
check "superp-gen (nothing to do): exit 2" runs 2 '' 'nothing to do' "$GEN"
for t in sunh superp superp-gen; do
	for a in -V --version; do
		check "$t $a: \"$t (SUPERp) VERSION\" on stdout, exit 0" \
			runs 0 "^$t \\(SUPERp\\) [^ ]+\$" '' "$top/tools/$t/$t" $a
	done
done
# The output options, short and long, both tools: taken before -V.
for t in sunh superp; do
	check "$t -j -p -s -V: output options taken" \
		runs 0 "^$t \\(SUPERp\\) [^ ]+\$" '' "$top/tools/$t/$t" -j -p -s -V
	check "$t -json -pretty -stats -V: their long forms" \
		runs 0 "^$t \\(SUPERp\\) [^ ]+\$" '' "$top/tools/$t/$t" -json -pretty -stats -V
done
for t in sunh superp superp-gen; do
	check "$t.8: man and groff render it without warnings" man_clean "$top/tools/$t/$t.8"
	check "$t --help is $t(8)'s SYNOPSIS" help_is_synopsis "$top/tools/$t/$t.8" "$top/tools/$t/$t"
done
check "sunh(8)'s OPTIONS are those sunh parses" same_options "$top/tools/sunh/sunh.8" \
	$(argv1_options "$top/tools/sunh/sunh.c" "$top/tools/lib/netns.c" "$top/tools/lib/options.c" "$top/tools/lib/output.c")
check "superp(8)'s OPTIONS are those superp parses" same_options "$top/tools/superp/superp.8" \
	$(argv1_options "$top/tools/superp/superp.c" "$top/tools/lib/netns.c" "$top/tools/lib/options.c" "$top/tools/lib/output.c")
check "superp-gen(8)'s OPTIONS are those superp-gen parses" \
	same_options "$top/tools/superp-gen/superp-gen.8" $(gen_options)
check "superp help's PARAMs are superp(8)'s PARAMETERS" same_params
if [ -e /sys/module/sunh ] || [ -e /sys/module/ib_superp ]; then
	for i in 1 2 3 4; do skip "a command needs the module (the host has it loaded)"; done
	exit 0
fi
check "sunh subnet show without the module: says so, exit 1" \
	runs 1 '' 'family "sunh" not found \(is its module loaded\?\)' "$SUNH" subnet show
# Nothing on stdout, not even part of a JSON document.
check "sunh -j -p -s subnet show without the module: the same, no output" \
	runs 1 '' 'family "sunh" not found' "$SUNH" -j -p -s subnet show
check "superp -j -p dev show without the module: says so, no output" \
	runs 1 '' 'family "superp" not found' "$SUPERP" -j -p dev show
check "superp conn show -j -p -s (after the command) without the module: the same" \
	runs 1 '' 'family "superp" not found' "$SUPERP" conn show -j -p -s
tap_exit
