#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The pair topology the harness promises: two guests on one jumbo-frame
# segment, each at 10.23.0.ID.
# superp-topology: pair
# superp-timeout: 120
. "$SUPERP_ROOT/selftests/lib.sh"

peer=$(guest_ip $((3 - SUPERP_ID)))
tap_plan 3
check "eth0 has 10.23.0.$SUPERP_ID/24" sh -c "ip -4 addr show eth0 | grep -q 'inet 10.23.0.$SUPERP_ID/24'"
check "eth0 MTU is 9000" sh -c 'ip link show eth0 | grep -q "mtu 9000"'
check "an 8000-byte ping reaches $peer" ping -c 2 -W 5 -s 8000 "$peer"
barrier done
tap_exit
