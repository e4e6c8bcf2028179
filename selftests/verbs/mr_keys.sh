#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Memory keys do not come back: one buffer registered and deregistered
# 66,560 times in a row through the provider (the MR table's 65,536 slots
# and 1024 more) never gets a key it got before, so a stale key a peer
# still holds cannot reach the new region. On Debian's kernel only (4 s
# there under TCG; minutes on the debug kernel, where kunit/superp_verbs_test
# covers the table beyond this).
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 120
. "$SUPERP_ROOT/selftests/lib.sh"

tap_plan 4

check "modprobe ib_superp" modprobe ib_superp
check "rdma link add superp0 on eth0" rdma link add superp0 type superp netdev eth0
t0=$(date +%s)
check "66560 registrations in a row: no key handed out twice" \
	output_has '^cycled 66560 registrations, keys distinct$' superp-verbs-probe mr-cycle superp0 66560
tap_diag "took $(($(date +%s) - t0)) s"
check "rmmod ib_superp" rmmod ib_superp
tap_exit
