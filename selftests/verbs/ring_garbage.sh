#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A process writes garbage into its QP rings (superp-ring-garbage): unknown
# opcodes, a LOCAL_INV of a key it does not have, a memory window bind
# naming no window (IBV_WC_MW_BIND_ERR) and one with inline data, unknown
# send flags, SGE counts past the QP's and
# past 2^32, keys of another PD, key 0, unknown keys, SGEs past their MR,
# huge lengths, kernel addresses, inline data longer than the QP allows,
# an atomic without its 8-byte SGE, a producer index far ahead, receive
# WQEs full of garbage. Each crafted WR completes with its error status,
# the valid WR after it is flushed, the QP goes to ERR, nothing crashes
# (KASAN/UBSAN/lockdep/kmemleak watch the console) and nothing is left.
# The QPs bind to a UDP/IPv4 connection toward an address no one has
# (a static neighbour entry stands in for its MAC): every case is refused
# before the wire.
# superp-topology: single
# superp-kernel: test
# superp-timeout: 180
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=1
nobody=10.23.0.9

tap_begin
check "modprobe ib_superp" modprobe ib_superp
check "rdma link add superp0 on eth0" rdma link add superp0 type superp netdev eth0
# The address vector resolves the peer's MAC: give the absent peer one.
check "a neighbour entry for $nobody" ip neigh replace "$nobody" \
	lladdr 02:00:00:00:00:09 dev eth0 nud permanent
check "a connection toward $nobody" superp conn add dev superp0 lcid 9 rcid 9 \
	encap udp4 local "$(guest_ip "$me")" remote "$nobody" ordered both
check "superp0 has the RoCE v2 GID of $(guest_ip "$me")" wait_gid superp0 "$(guest_ip "$me")"
gidx=$(roce_gid_index superp0 "$(guest_ip "$me")")
superp-ring-garbage superp0 "$gidx" "$nobody" > /tmp/garbage.out 2>&1
rc=$?
sed 's/^/# /' /tmp/garbage.out
[ "$rc" -eq 0 ] || dmesg | tail -20 | sed 's/^/# dmesg: /'
for c in opcode-unknown local-inv-unknown-key bind-mw-garbage bind-mw-inline \
	send-flags-unknown num-sge-huge \
	num-sge-over-max lkey-other-pd lkey-zero lkey-unknown sge-past-mr \
	sge-length-huge sge-kernel-address inline-length-huge atomic-sge-not-8 \
	producer-far-ahead recv-garbage-flushed; do
	check "$c: refused, QP in ERR, the rest flushed" grep -qx "ok $c" /tmp/garbage.out
done
check "superp-ring-garbage exits 0 (no case failed)" test "$rc" -eq 0
check "rdma resource show: nothing left" nothing_left superp0
check "rdma link delete superp0" rdma link delete superp0
check "rmmod ib_superp" rmmod ib_superp
ip neigh del "$nobody" dev eth0
tap_exit
