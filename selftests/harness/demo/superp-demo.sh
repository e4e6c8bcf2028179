#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make demo`: two guests load SUPERp, attach it to eth0 and show it.
# superp-topology: pair
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"

me=$(guest_ip "$SUPERP_ID")
peer=$(guest_ip $((3 - SUPERP_ID)))
tap_plan 4
tap_diag "guest $SUPERP_ID ($me), kernel $(uname -r)"
check "load sunh and ib_superp" modprobe -a sunh ib_superp
check "rdma link add superp0 type superp netdev eth0" \
	rdma link add superp0 type superp netdev eth0
rdma link show superp0/1 | sed 's/^/# /'
rdma dev show superp0 | sed 's/^/# /'
tap_diag "GID 1: $(cat /sys/class/infiniband/superp0/ports/1/gids/1)"
barrier attached
check "peer $peer answers on the SUPERp segment" ping -c 3 -W 5 "$peer"
barrier done
check "detach and unload" sh -c 'rdma link delete superp0 && rmmod ib_superp sunh'
tap_exit
