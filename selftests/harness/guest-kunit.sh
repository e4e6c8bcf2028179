#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Load one KUnit module in a guest, print the KTAP it logs, unload it.
mod=$1
before=$(ls /sys/kernel/debug/kunit 2>/dev/null)
dmesg -c > /dev/null
modprobe "$mod"
rc=$?
# KUnit logs the KTAP of a module's suites while the module loads.
dmesg -c | sed -n '/K\{0,1\}TAP version/,$p'
new=$(ls /sys/kernel/debug/kunit 2>/dev/null | grep -vxF "$before")
if [ -z "$new" ]; then
	echo "# $mod registered no KUnit suite"
	rc=1
fi
modprobe -r "$mod" || rc=1
exit $rc
