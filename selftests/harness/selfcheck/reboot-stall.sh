#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a test that reboots its guest must be booted again
# and end as if nothing had happened, even when
# - the memory watch (guest-run.sh) printed after the reboot marker, as it
#   may while the kernel goes down: the harness once took its line for the
#   guest's last word and never booted it again;
# - the next boot stops before /init (the self-check makes it so with
#   SUPERP_REBOOT_APPEND, as a loaded host's TCG sometimes does): it is
#   booted once more.
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"
if ! guest_resumed; then
	tap_plan 2
	ok "before the reboot"
	# guest_reboot, with a memory watch line after the marker.
	echo "@@SUPERP-REBOOT $SUPERP_TEST $_tap_n $_tap_failed" > /dev/ttyS1
	echo "@@SUPERP-MEM   skbuff_head_cache 50001 objects during $SUPERP_TEST" > /dev/ttyS1
	sync
	reboot -f
	sleep 600
fi
ok "after the reboot"
tap_exit
