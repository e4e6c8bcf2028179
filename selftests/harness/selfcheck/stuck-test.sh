#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a test that its guest's timeout cannot end (here it
# ignores the signal; in earnest, a task stuck in the kernel) must be
# stopped by the host soon after its limit, not at the boot's, and the
# report must show the guest's tasks.
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 10
. "$SUPERP_ROOT/selftests/lib.sh"
tap_plan 1
ok "about to outlive the limit"
trap '' TERM
sleep 100000
