#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a guest that announces its reboot but whose kernel
# never restarts (here the test only says it reboots; in earnest, a
# shutdown stuck in a driver) must be stopped within the reboot limit,
# not at its test's, and the run turn red.
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"
tap_plan 1
echo "@@SUPERP-REBOOT $SUPERP_TEST 0 0" > /dev/ttyS1
trap '' TERM
sleep 100000
