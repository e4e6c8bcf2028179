#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make demo`: two guests load SUPERp, attach it to eth0, show the verbs
# device through libibverbs and exchange SUNH echoes.
# superp-topology: pair
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"

me=$(guest_ip "$SUPERP_ID")
peer=$((3 - SUPERP_ID))
tap_plan 6
tap_diag "guest $SUPERP_ID ($me), kernel $(uname -r)"
check "load sunh and ib_superp" modprobe -a sunh ib_superp
check "rdma link add superp0 type superp netdev eth0" \
	rdma link add superp0 type superp netdev eth0
rdma link show superp0/1 | sed 's/^/# /'
check "ibv_devinfo -d superp0 (through the superp provider)" \
	sh -c 'ibv_devinfo -d superp0 > /tmp/devinfo'
sed 's/^/# /' /tmp/devinfo
check "SUPERp subnet 10.23.0.0/16, 12-bit SUNH addresses" \
	sunh subnet set 10.23.0.0/16 bits 12
barrier attached
check "SUNH echo to the peer's address $peer" \
	sh -c "sunh ping $peer -c 3 -i 0.2 > /tmp/ping"
sed 's/^/# /' /tmp/ping
sunh route show | sed 's/^/# sunh route: /'
barrier done
check "detach and unload" sh -c 'rdma link delete superp0 && rmmod ib_superp sunh'
tap_exit
