#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A `sunh ping` waiting for a reply holds no generic netlink lock: while
# one waits (for an address that never answers), loading and unloading a
# module that registers a generic netlink family completes at once. The
# echo request returns when sent; its reply would come as a notification.
# (Before, the request slept in the kernel for its whole timeout holding
# generic netlink's lock for reading, and every family registration on
# the system waited behind it.)
# superp-topology: single
# superp-kernel: test
# superp-timeout: 120
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/sunh/sunh_lib"

tap_plan 5

load_probe() {
	modprobe sunh_genl_probe 2>/dev/null ||
		insmod "$SUPERP_ROOT/modules/sunh_genl_probe.ko"
}

# ms MILLISECONDS COMMAND...: the command succeeds within the time.
ms() {
	local limit=$1 t0 t1
	shift
	t0=$(now_ms)
	"$@" || return 1
	t1=$(now_ms)
	[ $((t1 - t0)) -le "$limit" ] ||
		{ echo "took $((t1 - t0)) ms (limit $limit)"; return 1; }
}

check "load sunh" load_sunh
ip link add se1 type veth peer name se2
ip addr add 10.23.0.1/24 dev se1
ip link set se1 up
ip link set se2 up
sunh subnet set 10.23.0.0/16 bits 12

# 10.23.0.77 is on the link but absent: the request waits for ARP forever.
sunh ping 77 -c 1 -W 8 > /tmp/echo_async.out 2>&1 &
ping_pid=$!
sleep 1
check "a family registers while a ping waits" ms 4000 load_probe
check "... and unregisters" ms 4000 rmmod sunh_genl_probe
check "the ping was still waiting" kill -0 $ping_pid
wait $ping_pid
check "and ended without a reply" grep -q "0 received" /tmp/echo_async.out

sunh subnet del
ip link del se1
tap_exit
