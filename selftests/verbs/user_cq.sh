#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Completion queues of user space: the provider creates CQs whose ring the
# kernel allocates and the process maps (Documentation/provider.rst,
# "Rings"), polls them without the kernel, arms them (with and without a
# completion channel) and destroys them; sizes outside 1..max_cqe are
# refused, mmap() of the uverbs file maps rings only, and nothing is left
# behind. The test module superp_cq_probe delivers completions it
# chooses (every field known, failed ones among them) into a CQ's ring
# through the kernel's CQ path, for resize
# (grow and shrink with completions waiting, refusals, resizes racing
# deliveries from another process), ibv_create_cq_ex
# (its poll API, a completion channel, refused wc_flags) and a CQ overflow
# (the CQ error event, the CQ in error, the device's cq_overflows).
# superp-topology: single
# superp-kernel: test
# superp-timeout: 180
. "$SUPERP_ROOT/selftests/lib.sh"

tap_plan 27

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

# ibv_resize_cq on completions the test module delivers.
resize_cases() {
	superp-verbs-probe cq-resize superp0 > /tmp/cq-resize.out 2>&1
	sed "s/^/# /" /tmp/cq-resize.out
	check "resize: grow with 4 completions waiting, all polled in order" \
		grep -q '^grown to 128 with 4 waiting: 104 polled in order$' /tmp/cq-resize.out
	check "resize: shrink to the completions waiting, polled in order, then full" \
		grep -q '^shrunk to 2 with 2 waiting: polled in order, full at 2$' /tmp/cq-resize.out
	check "resize: below the completions waiting, 0, max_cqe + 1, bad consumer index: EINVAL" \
		grep -q '^resize refused with EINVAL: too small, 0, max_cqe + 1, bad consumer index$' /tmp/cq-resize.out
}

# Resizes while another process delivers completions: none lost, in order.
resize_race_case() {
	superp-verbs-probe cq-resize-race superp0 > /tmp/cq-race.out 2>&1
	sed "s/^/# /" /tmp/cq-race.out
	check "resize: 1024 completions in order across resizes racing their delivery" \
		grep -Eq '^1024 completions polled in order across [1-9][0-9]* resizes racing the deliveries$' /tmp/cq-race.out
}

# ibv_create_cq_ex and the ibv_cq_ex poll API.
cq_ex_cases() {
	superp-verbs-probe cq-ex superp0 > /tmp/cq-ex.out 2>&1
	sed "s/^/# /" /tmp/cq-ex.out
	check "cq_ex: unsupported wc_flags, comp_mask and flags: EOPNOTSUPP" \
		grep -q '^cq_ex: unsupported wc_flags, comp_mask and flags refused with EOPNOTSUPP$' /tmp/cq-ex.out
	check "cq_ex: start_poll of an empty CQ returns ENOENT" \
		grep -q '^cq_ex: start_poll of an empty CQ returns ENOENT$' /tmp/cq-ex.out
	check "cq_ex: the completion channel is signalled" \
		grep -q '^cq_ex: completion channel signalled$' /tmp/cq-ex.out
	check "cq_ex: every field of 7 completions reads as delivered" \
		grep -q '^cq_ex: 7 completions polled, every field as delivered$' /tmp/cq-ex.out
	check "cq_ex: mixed with ibv_poll_cq and across a resize, in order" \
		grep -q '^cq_ex: mixed with ibv_poll_cq and across a resize, in order$' /tmp/cq-ex.out
}

# superp0's counter $1 (rdma statistic).
counter() { rdma statistic show link superp0/1 -j | jq -e ".[0].$1"; }
# The overflow probe printed every line given.
overflow_says() {
	for l in "$@"; do
		grep -qxF "overflow: $l" /tmp/cq-overflow.out || { echo "no \"overflow: $l\""; return 1; }
	done
}
# $1 is $2 + 1.
one_more() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" -eq $(($2 + 1)) ]; }

# More completions than a CQ of 2 holds, none polled
# (Documentation/superp-verbs.rst, "Completion queues").
cq_overflow_cases() {
	local before after
	before=$(counter cq_overflows)
	superp-verbs-probe cq-overflow superp0 > /tmp/cq-overflow.out 2>&1
	sed "s/^/# /" /tmp/cq-overflow.out
	after=$(counter cq_overflows)
	tap_diag "cq_overflows before ${before:-none}, after ${after:-none}"
	check "overflow: the third completion into a CQ of 2 is refused" \
		overflow_says "5 completions into a CQ of 2: No space left on device"
	check "overflow: IBV_EVENT_CQ_ERR reaches the process through ibv_get_async_event" \
		overflow_says "IBV_EVENT_CQ_ERR for the CQ"
	check "overflow: the CQ in error refuses completions with EIO, full or not" \
		overflow_says "a completion into the full CQ in error: Input/output error" \
		"a completion into the CQ in error with room: Input/output error"
	check "overflow: no second event" \
		sh -c '! grep "^overflow: a second event" /tmp/cq-overflow.out'
	check "overflow: the completions held poll in order, then polling fails with EIO" \
		overflow_says "the 2 completions held polled in order" \
		"then ibv_poll_cq returns -5, start_poll Input/output error"
	check "overflow: the CQ in error is destroyed" overflow_says "CQ destroyed"
	check "overflow: cq_overflows counts the overflow once" \
		one_more "$after" "$before"
}

check "modprobe superp_cq_probe" modprobe superp_cq_probe
resize_cases
resize_race_case
cq_ex_cases
cq_overflow_cases
no_cq_left() {
	local out
	out=$(rdma resource show superp0) || return 1
	printf '%s\n' "$out" | grep -Eq ' cq 1( |$)' &&
		printf '%s\n' "$out" | grep -Eq ' ctx 0( |$)' || { printf '%s\n' "$out"; return 1; }
}
check "no CQ but QP1's and no context left behind" no_cq_left
check "rmmod superp_cq_probe" rmmod superp_cq_probe
check "rdma link delete superp0" rdma link delete superp0
check "rmmod ib_superp" rmmod ib_superp
tap_exit
