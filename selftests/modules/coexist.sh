#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ib_superp beside another soft RDMA driver on the same netdev: rxe and
# superp devices on one interface, added in either order, keep to their
# own: a second superp device is still refused, superp's port events still
# arrive, and `rdma link delete` and the netdev's removal take each device
# away whichever went first. On the test kernel only: rxe needs the crc32
# crypto module, which the stock guests' initramfs does not carry.
# superp-topology: single
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 200
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/hold.inc"

tap_plan 21

link_present() { rdma link show | grep -q "link $1/1 "; }

# netdev_removal_removes NETDEV DEVICE...: deleting NETDEV removes every
# DEVICE within 10 s. The deletion runs in the background: a driver that
# keeps a reference on the netdev would block it.
netdev_removal_removes() {
	local nd=$1 d left
	shift
	ip link del "$nd" > /dev/null 2>&1 &
	for _ in $(seq 50); do
		left=
		for d; do link_present "$d" && left="$left $d"; done
		[ -z "$left" ] && return 0
		sleep 0.2
	done
	echo "still present:$left"
	rdma link show
	return 1
}

check "modprobe ib_superp" modprobe ib_superp
check "modprobe rdma_rxe" modprobe rdma_rxe

# superp first, rxe second, on eth0.
check "superp0 on eth0" rdma link add superp0 type superp netdev eth0
check "rxe0 on eth0 beside superp0" rdma link add rxe0 type rxe netdev eth0
check_fail "a second superp device on eth0 is still refused" \
	rdma link add superp1 type superp netdev eth0
check "a program holds superp0" hold_start superp0 /tmp/ev0
ip link set eth0 down
sleep 1
ip link set eth0 up
sleep 2
check "rdma link delete superp0 (rxe0 stays)" rdma link delete superp0
check "... the program saw eth0 go down and up, then DEVICE_FATAL" \
	hold_events /tmp/ev0 "10 9 fatal" 18
check "... rxe0 is still there" link_present rxe0
check "rdma link delete rxe0" rdma link delete rxe0

# rxe first, superp second; rxe deleted first.
check "rxe0 on eth0" rdma link add rxe0 type rxe netdev eth0
check "superp0 on eth0 beside rxe0" rdma link add superp0 type superp netdev eth0
check "rdma link delete rxe0 (superp0 stays)" rdma link delete rxe0
check "... superp0 is still there" link_present superp0
check "rdma link delete superp0" rdma link delete superp0

# Netdev removal, both orders of attachment.
ip link add sva type veth peer name svb
ip link set sva up
ip link set svb up
check "superpa, then rxea on a veth" sh -c \
	'rdma link add superpa type superp netdev sva && rdma link add rxea type rxe netdev sva'
check "... removing the veth removes both" netdev_removal_removes sva superpa rxea
ip link add sva type veth peer name svb
ip link set sva up
ip link set svb up
check "rxea, then superpa on a veth" sh -c \
	'rdma link add rxea type rxe netdev sva && rdma link add superpa type superp netdev sva'
check "... removing the veth removes both" netdev_removal_removes sva superpa rxea

check "rmmod ib_superp" rmmod ib_superp
check "rmmod rdma_rxe" rmmod rdma_rxe
tap_exit
