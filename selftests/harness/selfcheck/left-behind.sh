#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a test stopped at its timeout with state left
# behind (an RDMA link, its modules, netem, a process of its own) turns
# the run red, and the next test of the boot still starts clean
# (selfcheck/starts-clean.sh checks it).
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 30
. "$SUPERP_ROOT/selftests/lib.sh"
tap_plan 2
check "rdma link add superp0 (left behind)" \
	sh -c 'modprobe ib_superp && rdma link add superp0 type superp netdev eth0'
check "netem on eth0 (left behind)" tc qdisc add dev eth0 root netem delay 1ms
sleep 100000 &
exec sleep 100000
