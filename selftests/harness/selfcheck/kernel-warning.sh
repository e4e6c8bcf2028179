#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a kernel WARN in a guest must turn the run red even
# though every check of the test passes. LKDTM provokes a real WARN_ON().
# superp-topology: single
# superp-timeout: 60
. "$SUPERP_ROOT/selftests/lib.sh"
tap_plan 1
check "provoke a WARNING through lkdtm" \
	sh -c 'echo WARNING > /sys/kernel/debug/provoke-crash/DIRECT'
tap_exit
