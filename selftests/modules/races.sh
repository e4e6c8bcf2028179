#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The edges of a device's life, raced: `rdma link add` while its netdev is
# being removed, and module unload while a device is being deleted or its
# netdev removed. Every round must end with no device and no netdev left
# behind (a device that kept its netdev would block the removal); the
# debug kernel's lockdep, KASAN and hung-task detector watch the rest.
# superp-topology: single
# superp-kernel: test
# make check runs 6 rounds of each race, make soak 50.
# superp-timeout: 300
# superp-soak-timeout: 1800
. "$SUPERP_ROOT/selftests/lib.sh"

tap_plan 4

ROUNDS=$(soak_or 50 6)

no_superp_left() {
	for _ in $(seq 50); do
		rdma link show | grep -q 'link superp' || return 0
		sleep 0.2
	done
	rdma link show
	return 1
}

# Netdev removal racing with link creation on it.
add_vs_netdev_removal() {
	local i
	modprobe ib_superp || return 1
	for i in $(seq $ROUNDS); do
		ip link add rv0 type veth peer name rv1 || return 1
		ip link set rv0 up
		rdma link add superpr type superp netdev rv0 > /dev/null 2>&1 &
		[ $((i % 2)) = 0 ] && sleep 0.0$i
		timeout 30 ip link del rv0 || { echo "round $i: ip link del rv0 hung"; return 1; }
		wait
		no_superp_left || { echo "round $i"; return 1; }
	done
}
check "rdma link add races with the removal of its netdev ($ROUNDS rounds)" add_vs_netdev_removal

# Module unload racing with `rdma link delete` and with netdev removal.
unload_vs_delete() {
	local i
	for i in $(seq $ROUNDS); do
		modprobe ib_superp || return 1
		ip link add rv0 type veth peer name rv1 || return 1
		rdma link add superp0 type superp netdev eth0 || return 1
		rdma link add superpr type superp netdev rv0 || return 1
		rdma link delete superp0 > /dev/null 2>&1 &
		ip link del rv0 > /dev/null 2>&1 &
		[ $((i % 2)) = 0 ] && sleep 0.0$i
		timeout 30 rmmod ib_superp 2> /dev/null ||
			{ wait; timeout 30 rmmod ib_superp; } || { echo "round $i: rmmod"; return 1; }
		wait
		! ip link show rv0 > /dev/null 2>&1 || { echo "round $i: rv0 left"; return 1; }
		no_superp_left || { echo "round $i"; return 1; }
	done
}
check "rmmod races with rdma link delete and netdev removal ($ROUNDS rounds)" unload_vs_delete
check "the module loads again" modprobe ib_superp
check "rmmod ib_superp" rmmod ib_superp
tap_exit
