#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Queue pairs of user space: the provider creates RC QPs whose send and
# receive rings the kernel allocates and the process maps
# (Documentation/provider.rst, "Rings"), modifies and queries them and
# destroys them; the kernel refuses a work request list for a user QP
# (its WQEs come through the rings), and nothing is left behind.
# ibv_create_qp_ex gives every operation of the QP's type its wr_*
# function and refuses the rest with EOPNOTSUPP, as rxe's provider does.
# superp-topology: single
# superp-kernel: test
# superp-timeout: 120
. "$SUPERP_ROOT/selftests/lib.sh"

tap_plan 9

check "modprobe ib_superp" modprobe ib_superp
check "rdma link add superp0 on eth0" rdma link add superp0 type superp netdev eth0
superp-verbs-probe qp superp0 > /tmp/qp.out 2>&1
sed "s/^/# /" /tmp/qp.out
check "3 user QPs (1, 100/500 and max_qp_wr WRs, inline data) created and mapped" \
	grep -q '^created 3 user QPs with their rings$' /tmp/qp.out
check "a user QP goes to INIT and is queried" \
	grep -q '^modified to INIT and queried$' /tmp/qp.out
# POST_RECV is enabled as the receive ring's doorbell (no work requests);
# a list would carry user addresses: superp_post_recv() refuses it.
check "POST_RECV with a work request list is refused (EINVAL)" \
	grep -q '^POST_RECV work request list: Invalid argument$' /tmp/qp.out
no_qp_left() {
	local out
	grep -q '^destroyed all QPs$' /tmp/qp.out || return 1
	out=$(rdma resource show superp0) || return 1
	printf '%s\n' "$out" | grep -Eq ' qp 1( |$)' &&
		printf '%s\n' "$out" | grep -Eq ' cq 1( |$)' &&
		printf '%s\n' "$out" | grep -Eq ' mr 0( |$)' || { printf '%s\n' "$out"; return 1; }
}
superp-verbs-probe qp-ex superp0 > /tmp/qp-ex.out 2>&1
sed "s/^/# /" /tmp/qp-ex.out
check "ibv_create_qp_ex: 15 QPs with their wr_* functions, 14 refused with EOPNOTSUPP" \
	grep -q '^qp_ex: 15 created with their wr_\* functions, 14 refused (EOPNOTSUPP), 0 wrong$' \
	/tmp/qp-ex.out
check "every QP destroyed, none left but the core's QP1 (and its CQ), no MR" no_qp_left
check "rdma link delete superp0" rdma link delete superp0
check "rmmod ib_superp" rmmod ib_superp
tap_exit
