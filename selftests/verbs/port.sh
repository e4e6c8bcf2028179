#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The port of a superp device follows its netdev: POLLING while the
# interface is up without a carrier, ACTIVE with one, DISABLED when it is
# down; a program gets one port event per change of that state and none
# for netdev changes that leave it alone (NETDEV_CHANGE of a flag, MTU).
# superp-topology: single
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 150
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/hold.inc"

tap_plan 10

# port_is DEVICE STATE PHYS_STATE, e.g. port_is superpv PORT_DOWN POLLING:
# waits up to 5 s (carrier changes reach the notifier through linkwatch).
port_is() {
	for _ in $(seq 25); do
		ibv_devinfo -v -d "$1" > /tmp/port.out 2>&1
		grep -q "[[:space:]]state:[[:space:]]*$2 " /tmp/port.out &&
			grep -q "phys_state:[[:space:]]*$3 " /tmp/port.out && return 0
		sleep 0.2
	done
	grep -E 'state|port:' /tmp/port.out
	return 1
}

check "modprobe ib_superp" modprobe ib_superp
# spa is up, its peer spb down: no carrier on spa.
ip link add spa type veth peer name spb
ip link set spa up
check "rdma link add superpv on an up veth without carrier" \
	rdma link add superpv type superp netdev spa
check "... port DOWN, physical state POLLING" port_is superpv PORT_DOWN POLLING
ip link set spb up
check "... ACTIVE, LINK_UP once the peer comes up" port_is superpv PORT_ACTIVE LINK_UP
ip link set spa down
check "... DOWN, DISABLED with the interface down" port_is superpv PORT_DOWN DISABLED
ip link set spa up
check "... ACTIVE again with the interface up" port_is superpv PORT_ACTIVE LINK_UP

# A program watches the port's events while the netdev changes.
check "a program holds superpv and waits for events" hold_start superpv /tmp/events
ip link set spa arp off		# NETDEV_CHANGE, the port stays ACTIVE
ip link set spa arp on
ip link set spa mtu 4000	# NETDEV_CHANGEMTU
sleep 1
ip link set spb down		# carrier off: NETDEV_CHANGE
port_is superpv PORT_DOWN POLLING > /dev/null
ip link set spb up
port_is superpv PORT_ACTIVE LINK_UP > /dev/null
sleep 1
check "rdma link delete superpv" rdma link delete superpv
# GID table changes (the veth's IPv6 addresses) are not counted.
check "... it saw PORT_ERR, PORT_ACTIVE, DEVICE_FATAL and no other port event" \
	hold_events /tmp/events "10 9 fatal" 18
ip link del spa
check "rmmod ib_superp" rmmod ib_superp
tap_exit
