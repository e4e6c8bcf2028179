#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a barrier that times out fails its test. A guest
# that gave up waiting is out of step with its peer, and whatever it checks
# next judges the wrong moment, so the test must not pass. Guest 1 waits
# for a second guest that this single topology does not have.
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 60
. "$SUPERP_ROOT/selftests/lib.sh"
tap_begin
check "a passing check before the barrier" true
SUPERP_NGUESTS=2 barrier never-reached 2
check "a passing check after it" true
tap_exit
