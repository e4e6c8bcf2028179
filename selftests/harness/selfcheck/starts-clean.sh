#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: runs after selfcheck/left-behind.sh in the same boot
# and finds nothing of it: the harness resets a guest after a test that
# failed or was stopped.
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 60
. "$SUPERP_ROOT/selftests/lib.sh"
tap_plan 4
check "no RDMA link" test -z "$(rdma link show)"
check "ib_superp not loaded" sh -c '! grep -q "^ib_superp " /proc/modules'
check "no netem on eth0" sh -c '! tc qdisc show dev eth0 | grep -q netem'
check "no process of the stopped test" sh -c '! ps -o args= | grep -q "^sleep 100000"'
