#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a test that reboots its guest, whose next boot stops
# before /init (the self-check makes it so with SUPERP_REBOOT_APPEND, as a
# loaded host's TCG sometimes does), must be booted once more and end as
# if nothing had happened.
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"
if ! guest_resumed; then
	tap_plan 2
	ok "before the reboot"
	guest_reboot
fi
ok "after the reboot"
tap_exit
