#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Load one KUnit module in a guest, print its results as one KTAP document,
# unload it.
#
# Suites in a module log their KTAP while it loads, but Linux 6.1 prints the
# top-level header only for built-in suites and numbers suites with a
# counter global to the boot. So: strip the log prefix, keep the KTAP lines,
# add the header and renumber the top-level results.
mod=$1
before=$(ls /sys/kernel/debug/kunit 2>/dev/null)
dmesg -c > /dev/null
# Under make soak, a suite with a soak parameter runs its long form.
args=
if [ "${SUPERP_SOAK:-}" = 1 ] && modinfo -p "$mod" 2>/dev/null | grep -q '^soak:'; then
	args=soak=1
fi
modprobe "$mod" $args
rc=$?
log=$(dmesg -c | sed 's/^\[[ 0-9.]*\] //')
new=$(ls /sys/kernel/debug/kunit 2>/dev/null | grep -vxF "$before" | wc -l)
if [ "$new" -eq 0 ]; then
	echo "# $mod registered no KUnit suite"
	rc=1
fi
echo "KTAP version 1"
echo "1..$new"
printf '%s\n' "$log" |
	grep -E '^ *(K?TAP version|[0-9]+\.\.[0-9]+$|ok |not ok |# )' |
	grep -vE '^(K?TAP version|1\.\.[0-9]+$)' |
	awk '/^(ok|not ok) [0-9]+ / { n++; sub(/ [0-9]+ /, " " n " ") } { print }'
modprobe -r "$mod" || rc=1
exit $rc
