#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Completion queues of user space: the provider creates CQs whose ring the
# kernel allocates and the process maps (Documentation/provider.rst,
# "Rings"), polls them without the kernel, arms them (with and without a
# completion channel) and destroys them; sizes outside 1..max_cqe are
# refused, mmap() of the uverbs file maps rings only, and nothing is left
# behind. Completions through these rings come with user QPs.
# superp-topology: single
# superp-kernel: test
# superp-timeout: 120
. "$SUPERP_ROOT/selftests/lib.sh"

tap_plan 9

check "modprobe ib_superp" modprobe ib_superp
check "rdma link add superp0 on eth0" rdma link add superp0 type superp netdev eth0
superp-verbs-probe cq superp0 > /tmp/cq.out 2>&1
sed "s/^/# /" /tmp/cq.out
check "64 CQs (1, 100 and max_cqe entries) created, empty when polled, armed" \
	grep -q '^created 64 CQs, empty, armed$' /tmp/cq.out
check "0 and max_cqe + 1 entries are refused with EINVAL" \
	grep -q '^0 and max_cqe + 1 entries refused with EINVAL$' /tmp/cq.out
check "mmap() of the uverbs file at an offset no ring was given fails" \
	grep -q '^mmap() at an unknown offset refused$' /tmp/cq.out
check "every CQ destroyed" grep -q '^destroyed all CQs$' /tmp/cq.out
no_cq_left() {
	local out
	out=$(rdma resource show superp0) || return 1
	printf '%s\n' "$out" | grep -Eq ' cq 0( |$)' &&
		printf '%s\n' "$out" | grep -Eq ' ctx 0( |$)' || { printf '%s\n' "$out"; return 1; }
}
check "no CQ or context left behind" no_cq_left
check "rdma link delete superp0" rdma link delete superp0
check "rmmod ib_superp" rmmod ib_superp
tap_exit
