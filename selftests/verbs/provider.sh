#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The rdma-core provider: libibverbs finds superp devices through
# providers/superp, the stock utilities show them, a program opens one,
# allocates protection domains and registers memory, and the kernel side of
# the provider ABI answers GET_CONTEXT and refuses optional fields it does
# not know. The device and port attributes agree with each other and with
# what the driver accepts. The device can be
# deleted, and the module unloaded, while a program holds objects on it.
# (mr_keys.sh registers past the size of the MR table.)
# superp-topology: single
# superp-kernel: both
# superp-timeout: 200
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"
. "$SUPERP_ROOT/selftests/verbs/hold.inc"

tap_plan 46

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
# max_pkeys is the size of the P_Key table the port shows.
pkey_table_matches() {
	local max n
	max=$(sed -n 's/^[[:space:]]*max_pkeys:[[:space:]]*\([0-9]*\).*/\1/p' /tmp/devinfo)
	n=$(ls /sys/class/infiniband/superp0/ports/1/pkeys | wc -l)
	[ "${max:-0}" -ge 1 ] && [ "$max" = "$n" ] || { echo "max_pkeys '$max', P_Key table of $n"; return 1; }
}
check "... max_pkeys >= 1, the size of the P_Key table" pkey_table_matches

# The active MTU leaves room for the largest header stack beside a payload
# of that size: IPv6 40 + UDP 8 + PDL 16 + TAL 8 + operation header 32 =
# 104 bytes (Documentation/provider.rst).
active_mtu_at() { # netdev-MTU expected-active-MTU
	ip link set eth0 mtu "$1" || return 1
	output_has "active_mtu:[[:space:]]*$2 " ibv_devinfo -d superp0
}
check "... active MTU 4096 at netdev MTU 4200 (4096 + 104)" active_mtu_at 4200 4096
check "... active MTU 2048 at netdev MTU 4199" active_mtu_at 4199 2048
check "... active MTU 1024 at netdev MTU 1500" active_mtu_at 1500 1024
ip link set eth0 mtu 9000

check "100 PDs allocated and freed through the provider" superp-verbs-probe pd superp0 100
# max_pd PDs fit on the device, one more fails with ENOMEM; all are
# freed. The RDMA core's QP1 holds one of them.
check "the core's QP1 holds one PD" output_has '^pd 1 ' objects superp0
check "max_pd (32764) PDs fit with QP1's, one more is refused with ENOMEM" \
	output_has '^ibv_alloc_pd #32763: Cannot allocate memory' superp-verbs-probe pd superp0 32764
# Memory regions: keys distinct, access flags checked, bad ranges refused.
check "100 MRs of 64 KiB registered (local/remote write, remote read), keys distinct" \
	output_has '^registered 100 MRs, keys distinct$' superp-verbs-probe mr superp0 100 65536 0x7
check "a 16 MiB MR with local/remote write and remote read" \
	output_has '^registered 1 MRs' superp-verbs-probe mr superp0 1 16777216 0x7
# Remote atomic access is accepted exactly when the device has atomics.
atomic_matches() {
	if grep -q 'atomic_cap:[[:space:]]*ATOMIC_NONE' /tmp/devinfo; then
		output_has '\(errno 95\)' superp-verbs-probe mr superp0 1 4096 0x9
	else
		output_has '^registered 1 MRs' superp-verbs-probe mr superp0 1 4096 0x9
	fi
}
check "remote atomic access is accepted exactly when atomic_cap is not ATOMIC_NONE" atomic_matches
check "an optional access bit the driver does not know (1 << 21) is ignored" \
	output_has '^registered 1 MRs' superp-verbs-probe mr superp0 1 4096 0x200001
# mr_refused ACCESS ERRNO: registering with ACCESS fails with ERRNO.
mr_refused() { output_has "\\(errno $2\\)" superp-verbs-probe mr superp0 1 4096 "$1"; }
check "remote write without local write is refused with EINVAL" mr_refused 0x2 22
check "an MR for memory windows (MW_BIND) is registered" \
	output_has '^registered 1 MRs' superp-verbs-probe mr superp0 1 4096 0x11
check "on-demand paging is refused (by the RDMA core: EINVAL)" mr_refused 0x41 22
superp-verbs-probe mr-bad superp0 > /tmp/mr-bad 2>&1
check "an unmapped range is refused with EFAULT" grep -q '^unmapped: error 14 ' /tmp/mr-bad
check "a zero length is refused with EINVAL" grep -q '^zero-length: error 22 ' /tmp/mr-bad
check "iova + length may end at 2^64" output_has '^registered at iova' \
	superp-verbs-probe mr-iova superp0 4096 0xfffffffffffff000
check "iova + length past 2^64 is refused with EINVAL" output_has '\(errno 22\)' \
	superp-verbs-probe mr-iova superp0 8192 0xfffffffffffff000
superp-verbs-probe udata superp0 > /tmp/udata 2>&1
sed "s/^/# /" /tmp/udata
check "ALLOC_PD with zero driver data is accepted" grep -q '^alloc_pd driver data 0x0: ok' /tmp/udata
check "ALLOC_PD with driver data it does not know is refused with EOPNOTSUPP" \
	grep -q '^alloc_pd driver data 0x1: error 95$' /tmp/udata
check "REG_MR with zero driver data is accepted" grep -q '^reg_mr driver data 0x0: ok' /tmp/udata
check "REG_MR with driver data it does not know is refused with EOPNOTSUPP" \
	grep -q '^reg_mr driver data 0x1: error 95$' /tmp/udata
# Each refusal says why in the kernel log, rate-limited: a process that
# asks again and again is told at most 10 times in 5 s (the kernel's
# default burst), not once per request: 100 refused ALLOC_PDs in a second
# or two make at most 20 lines (two windows, if one ends meanwhile).
check "the kernel log says why ALLOC_PD and REG_MR were refused" sh -c \
	"dmesg | grep -q 'superp0: alloc_pd: unknown driver data' &&
	 dmesg | grep -q 'superp0: reg_mr: unknown driver data'"
refusals() { dmesg | grep -c 'superp0: alloc_pd: unknown driver data'; }
before=$(refusals)
superp-verbs-probe udata superp0 100 > /tmp/udata100 2>&1
told=$(($(refusals) - before))
check "100 more refused ALLOC_PDs: $told more lines in the kernel log (1 to 20)" \
	test "$(grep -c '^alloc_pd driver data 0x1: error 95$' /tmp/udata100)" = 100 -a \
	"$told" -ge 1 -a "$told" -le 20
# rdma resource: per-device object counts, e.g. "0: superp0: pd 1 cq 1 ..."
# (the RDMA core's QP1 with its PD and CQ stays while the device does).
no_objects_left() {
	local out
	out=$(rdma resource show superp0) || return 1
	printf '%s\n' "$out" | grep -Eq ' mr 0( |$)' && printf '%s\n' "$out" | grep -Eq ' pd 1( |$)' &&
		printf '%s\n' "$out" | grep -Eq ' ctx 0( |$)' || { printf '%s\n' "$out"; return 1; }
}
tap_diag "$(rdma resource show superp0)"
check "no MR, context or PD but QP1's left behind" no_objects_left

check "GET_CONTEXT answers with ABI version 1, wqe_ops LOCAL_INV and BIND_MW" output_has \
	'^abi_version 1 comp_mask 0x1 wqe_ops 0x3$' superp-verbs-probe context superp0 0
check "an unknown comp_mask bit is refused with EOPNOTSUPP" output_has \
	'^error 95 ' superp-verbs-probe context superp0 0x1

# The device can go while a program holds objects on it: the kernel
# disassociates the program (DEVICE_FATAL, its objects destroyed) instead
# of waiting for it to exit; no port event comes first.
check "a program holds a PD and an MR" hold_start superp0 /tmp/hold1
check "rdma link delete superp0 does not wait for it" timeout 20 rdma link delete superp0
check "... it got DEVICE_FATAL only and released everything" hold_events /tmp/hold1 fatal
check_fail "ibv_devices no longer lists superp0" sh -c 'ibv_devices | grep -q superp0'

check "re-attach superp0" rdma link add superp0 type superp netdev eth0
check "a program holds a PD and an MR again" hold_start superp0 /tmp/hold2
check "rmmod ib_superp does not wait for it" timeout 20 rmmod ib_superp
check "... it got DEVICE_FATAL only and released everything" hold_events /tmp/hold2 fatal
tap_exit
