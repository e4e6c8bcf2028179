#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hostile frames: 20,000 fuzzed variants of SUNH frames (superp-gen --fuzz,
# fixed seeds) hit a forwarding node. Every frame it received must end in
# exactly one place: delivered, forwarded, or one counted drop (the
# accounting identity below), the fuzzer must reach the deep checks, the
# node must still work afterwards, and the kernel must stay clean (KASAN,
# kmemleak, lockdep on the test kernel).
# superp-topology: single
# make check runs it on the debug kernel, make soak on both: the code is
# the same on Debian's kernel, where make check's other SUNH tests run.
# superp-kernel: test
# superp-soak-kernel: both
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/sunh/sunh_lib"

tap_plan 13

check "load sunh" load_sunh
two_namespaces "" 10.99.0.5/24
# sn2 is a router of a 256-address domain with a route back to the sender,
# so fuzzed frames can be delivered (5), forwarded (7) or dropped anywhere.
check "sn2: subnet 10.99.0.0/24 bits 8" sunh -n sn2 subnet set 10.99.0.0/24 bits 8
check "sn2: forwarding on" sunh -n sn2 forwarding on
check "sn2: route to 7 back over the veth" sunh -n sn2 route add 7 dev v2 lladdr "$M1"

# Four seeds, 5,000 frames each: SUPERp to the node, echo to the node,
# SUPERp to be forwarded, echo to be forwarded.
fuzz() { # seed superp-gen-options...
	local seed=$1
	shift
	n1 superp-gen -i v1 --smac "$M1" --dmac "$M2" --saddr 3 --fuzz "$seed" -n 5000 "$@"
}
check "fuzz 1: SUPERp frames for the node" fuzz 1 --daddr 5
check "fuzz 2: echo frames for the node" fuzz 2 --daddr 5 --nexthdr 254
check "fuzz 3: SUPERp frames to forward" fuzz 3 --daddr 7
check "fuzz 4: echo frames to forward" fuzz 4 --daddr 7 --nexthdr 254 --hop-limit 2
sleep 1

# Traffic has stopped: the counters of sn2 stay as they are now.
# Each received frame ends in exactly one of these.
accounted() {
	local sum=0 c
	for c in rx_delivered fwd_packets fwd_drop_hop_limit fwd_drop_no_route \
		fwd_drop_mtu fwd_drop_nomem rx_drop_truncated rx_drop_no_subnet \
		rx_drop_addr_range rx_drop_no_dev_addr rx_drop_bad_src_mac \
		rx_drop_src_path \
		rx_drop_not_local fwd_drop_not_domain \
		rx_drop_unknown_nexthdr; do
		sum=$((sum + $(sunh_stat $c sn2)))
	done
	[ "$sum" -eq "$(sunh_stat rx_packets sn2)" ] ||
		{ echo "accounted for $sum"; sunh -n sn2 stats; return 1; }
}
received() { # n
	[ "$(sunh_stat rx_packets sn2)" -eq "$1" ] || { sunh -n sn2 stats; return 1; }
}
reached() { # counter...
	local c
	for c in "$@"; do
		stat_ge "$c" 1 sn2 || return 1
	done
}
check "all 20000 frames were received" received 20000
check "every frame is delivered, forwarded or dropped and counted once" accounted
check "the fuzzer reached every stage" reached rx_drop_truncated rx_drop_addr_range \
	rx_drop_unknown_nexthdr rx_drop_echo_malformed rx_delivered fwd_packets fwd_drop_hop_limit
tap_diag "$(sunh -n sn2 stats | tr '\n' ' ')"

# The node still works: a clean echo from sn1 (given an address and the
# subnet) is answered.
ip -n sn1 addr add 10.99.0.3/24 dev v1
sunh -n sn1 subnet set 10.99.0.0/24 bits 8
check "sn1 still reaches sn2 (5) with a clean echo" sunh -n sn1 ping 5 -c 2 -i 0.2

ip netns del sn1
ip netns del sn2
sleep 1
check "rmmod sunh" rmmod sunh
tap_exit
