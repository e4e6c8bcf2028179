#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The rdma-core provider: libibverbs finds superp devices through
# providers/superp, the stock utilities show them, a program opens one,
# allocates protection domains and registers memory, and the kernel side of
# the provider ABI answers GET_CONTEXT and refuses optional fields it does
# not know. The device can be deleted, and the module unloaded, while a
# program holds objects on it.
# superp-topology: single
# superp-kernel: both
# superp-timeout: 200
. "$SUPERP_ROOT/selftests/lib.sh"

tap_plan 31

check "modprobe ib_superp" modprobe ib_superp
check "rdma link add superp0 on eth0" rdma link add superp0 type superp netdev eth0
check "ibv_devices lists superp0 with its node GUID (EUI-64 of MAC 52:54:00:23:00:01)" \
	output_has 'superp0[[:space:]]*505400fffe230001' ibv_devices

ibv_devinfo -v -d superp0 > /tmp/devinfo 2>&1
check "ibv_devinfo opens superp0" grep -q '^hca_id:[[:space:]]*superp0' /tmp/devinfo
check "... transport InfiniBand, node type CA" grep -q 'transport:[[:space:]]*InfiniBand (0)' /tmp/devinfo
check "... port 1 active" grep -q 'state:[[:space:]]*PORT_ACTIVE (4)' /tmp/devinfo
check "... link layer Ethernet" grep -q 'link_layer:[[:space:]]*Ethernet' /tmp/devinfo
check "... active MTU 4096 on a 9000-byte netdev" grep -q 'active_mtu:[[:space:]]*4096 (5)' /tmp/devinfo
check "... max_pd from the driver" grep -q 'max_pd:[[:space:]]*32764' /tmp/devinfo
check "... max_mr from the driver" grep -q 'max_mr:[[:space:]]*65536' /tmp/devinfo
check "... RoCE v2 GID of 10.23.0.1" grep -q 'GID\[.*\]:[[:space:]]*::ffff:10.23.0.1, RoCE v2' /tmp/devinfo

check "100 PDs allocated and freed through the provider" superp-verbs-probe pd superp0 100
# max_pd PDs fit, one more fails with ENOMEM; all are freed.
check "max_pd (32764) PDs fit, one more is refused with ENOMEM" \
	output_has '^ibv_alloc_pd #32764: Cannot allocate memory' superp-verbs-probe pd superp0 32765
# Memory regions: keys distinct, access flags checked, bad ranges refused.
check "100 MRs of 64 KiB registered (local/remote write, remote read), keys distinct" \
	output_has '^registered 100 MRs, keys distinct$' superp-verbs-probe mr superp0 100 65536 0x7
check "a 16 MiB MR with all access flags (atomic too)" \
	output_has '^registered 1 MRs' superp-verbs-probe mr superp0 1 16777216 0xf
# mr_refused ACCESS ERRNO: registering with ACCESS fails with ERRNO.
mr_refused() { output_has "\\(errno $2\\)" superp-verbs-probe mr superp0 1 4096 "$1"; }
check "remote write without local write is refused with EINVAL" mr_refused 0x2 22
check "memory windows (MW_BIND) are refused with EOPNOTSUPP" mr_refused 0x11 95
check "on-demand paging is refused (by the RDMA core: EINVAL)" mr_refused 0x41 22
superp-verbs-probe mr-bad superp0 > /tmp/mr-bad 2>&1
check "an unmapped range is refused with EFAULT" grep -q '^unmapped: error 14 ' /tmp/mr-bad
check "a zero length is refused with EINVAL" grep -q '^zero-length: error 22 ' /tmp/mr-bad
# rdma resource: per-device object counts, e.g. "0: superp0: pd 0 cq 0 ...".
no_objects_left() {
	local out
	out=$(rdma resource show superp0) || return 1
	printf '%s\n' "$out" | grep -Eq ' mr 0( |$)' && printf '%s\n' "$out" | grep -Eq ' pd 0( |$)' &&
		printf '%s\n' "$out" | grep -Eq ' ctx 0( |$)' || { printf '%s\n' "$out"; return 1; }
}
tap_diag "$(rdma resource show superp0)"
check "no MR, PD or context left behind" no_objects_left

check "GET_CONTEXT answers with ABI version 1" output_has \
	'^abi_version 1 comp_mask 0x0 reserved 0$' superp-verbs-probe context superp0 0
check "an unknown comp_mask bit is refused with EOPNOTSUPP" output_has \
	'^error 95 ' superp-verbs-probe context superp0 0x1

# The device can go while a program holds objects on it: the kernel
# disassociates the program (DEVICE_FATAL, its objects destroyed) instead
# of waiting for it to exit. hold_start starts such a program.
hold_start() { # output-file
	superp-verbs-probe hold superp0 60 > "$1" 2>&1 &
	hold=$!
	for _ in $(seq 50); do
		grep -q '^holding' "$1" && return 0
		sleep 0.2
	done
	cat "$1"
	return 1
}
hold_released() { # output-file
	wait $hold
	# DEVICE_FATAL and no other event first (no spurious port error).
	[ "$(grep '^event' "$1")" = "event device-fatal" ] && grep -q '^released' "$1" ||
		{ cat "$1"; return 1; }
}
check "a program holds a PD and an MR" hold_start /tmp/hold1
check "rdma link delete superp0 does not wait for it" timeout 20 rdma link delete superp0
check "... it got DEVICE_FATAL only and released everything" hold_released /tmp/hold1
check_fail "ibv_devices no longer lists superp0" sh -c 'ibv_devices | grep -q superp0'

check "re-attach superp0" rdma link add superp0 type superp netdev eth0
check "a program holds a PD and an MR again" hold_start /tmp/hold2
check "rmmod ib_superp does not wait for it" timeout 20 rmmod ib_superp
check "... it got DEVICE_FATAL only and released everything" hold_released /tmp/hold2
tap_exit
