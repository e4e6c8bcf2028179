#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The router topology the harness promises: guest 1 routes between
# segment 0 (guest 2) and segment 1 (guest 3); the two ends reach each
# other only through it.
# superp-topology: router
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 120
. "$SUPERP_ROOT/selftests/lib.sh"

tap_plan 2
case "$SUPERP_ID" in
1)
	check "eth0 is on segment 0 and eth1 on segment 1" sh -c \
		'ip -4 addr show eth0 | grep -q 10.23.0.1/24 && ip -4 addr show eth1 | grep -q 10.23.1.1/24'
	check "IPv4 forwarding is on" grep -qx 1 /proc/sys/net/ipv4/ip_forward
	;;
2)
	check "guest 3 (10.23.1.3) is reachable through the router" ping -c 2 -W 5 10.23.1.3
	check "the route to segment 1 goes via the router" sh -c 'ip route get 10.23.1.3 | grep -q "via 10.23.0.1"'
	;;
3)
	check "guest 2 (10.23.0.2) is reachable through the router" ping -c 2 -W 5 10.23.0.2
	check "the route to segment 0 goes via the router" sh -c 'ip route get 10.23.0.2 | grep -q "via 10.23.1.1"'
	;;
esac
barrier done
tap_exit
