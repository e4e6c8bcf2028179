#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The modules load, attach to netdevs with `rdma link`, detach every way a
# device can go (rdma link delete, netdev removal, module unload) and
# unload cleanly, on the debug test kernel and on Debian's stock kernel.
# Attaching leaves no error of the RDMA core's MAD agent in the log.
# superp-topology: single
# superp-kernel: both
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"

tap_plan 16

link_present() { rdma link show | grep -q "link $1/1 "; }

check "modprobe sunh" modprobe sunh
check "modprobe ib_superp" modprobe ib_superp
dmesg -c > /dev/null
check "rdma link add superp0 on eth0" rdma link add superp0 type superp netdev eth0
# The RDMA core's MAD agent must not try a port that has no QP1 yet.
no_mad_error() {
	local out
	out=$(dmesg | grep -iE 'ib_mad|couldn.t (create|open|register)') || return 0
	printf '%s\n' "$out"
	return 1
}
check "... with no MAD error in the kernel log" no_mad_error
check "superp0 is listed with its netdev" sh -c 'rdma link show | grep "link superp0/1 .*netdev eth0"'
check "superp0 port is ACTIVE" sh -c 'rdma link show superp0/1 | grep -q "state ACTIVE"'
check_fail "a second device on eth0 is refused" rdma link add superp1 type superp netdev eth0
check_fail "a missing netdev is refused" rdma link add superp1 type superp netdev nosuchdev
check "rdma link delete superp0" rdma link delete superp0
check_fail "superp0 is gone" link_present superp0
# eth0 is free again: only the name can be the reason for a refusal.
check_fail "a name without the superp prefix is refused" rdma link add rdma7 type superp netdev eth0

ip link add sv0 type veth peer name sv1
ip link set sv0 up
ip link set sv1 up
check "rdma link add on a veth" rdma link add superpv type superp netdev sv0
ip link del sv0
sleep 1
check_fail "removing the netdev removes the device" link_present superpv

check "re-attach to eth0" rdma link add superp0 type superp netdev eth0
check "rmmod ib_superp with a device attached" rmmod ib_superp
check "rmmod sunh" rmmod sunh
tap_exit
