#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a test that fails must turn the run red.
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 60
. "$SUPERP_ROOT/selftests/lib.sh"
tap_plan 2
ok "a passing check before the failure"
not_ok "deliberate failure"
tap_exit
