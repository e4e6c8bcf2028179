#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A hostile host on a SUPERp segment, in one guest. Namespaces: node A
# (sa, 10.23.0.1, SUNH 1), router R (sr: 10.23.0.254 toward A, 10.23.1.254
# toward B, and an uplink 192.168.50.1 outside the domain with the default
# route behind it), node B (sb, 10.23.1.2, SUNH 258) and the upstream
# gateway (su, 192.168.50.2).
# - A frame from A's segment claiming B's source address is dropped by R
#   (reverse-path check) and R does not learn the forged path; honest
#   traffic between A and B keeps going through the B side.
# - Nothing SUNH leaves the domain through the uplink, whatever is sent:
#   forwarding and echo replies toward addresses routed out of the domain
#   are dropped and counted.
# - A flood of echo requests is answered at most at the configured rate;
#   frames from a zero or multicast source MAC are dropped.
# - Root of an unprivileged user namespace configures its own network
#   namespace's domain and cannot touch the initial namespace's.
# - The ethertype module parameter refuses EtherTypes of other protocols.
# superp-topology: single
# make check runs it on the debug kernel, make soak on both: the code is
# the same on Debian's kernel, where make check's other SUNH tests run.
# superp-kernel: test
# superp-soak-kernel: both
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/sunh/sunh_lib"

tap_plan 19

# ------------------------------------------------------------ the module
modprobe -r ib_superp 2>/dev/null
rmmod sunh 2>/dev/null
check_fail "ethertype 0x0800 (IPv4) is refused" modprobe sunh ethertype=0x0800
check_fail "ethertype 0x8100 (VLAN) is refused" modprobe sunh ethertype=0x8100
check "load sunh" load_sunh

# ------------------------------------------------------------ topology
for ns in sa sr sb su; do ip netns add $ns; done
ip link add va netns sa type veth peer name ra netns sr
ip link add vb netns sb type veth peer name rb netns sr
ip link add vu netns su type veth peer name ru netns sr
ip -n sa addr add 10.23.0.1/24 dev va
ip -n sr addr add 10.23.0.254/24 dev ra
ip -n sr addr add 10.23.1.254/24 dev rb
ip -n sb addr add 10.23.1.2/24 dev vb
ip -n sr addr add 192.168.50.1/24 dev ru
ip -n su addr add 192.168.50.2/24 dev vu
for l in sa:va sr:ra sr:rb sr:ru sb:vb su:vu sa:lo sr:lo sb:lo su:lo; do
	ip -n "${l%%:*}" link set "${l#*:}" up
done
ip -n sa route add default via 10.23.0.254
ip -n sb route add default via 10.23.1.254
ip -n sr route add default via 192.168.50.2
ip netns exec sr sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward'
for ns in sa sr sb; do
	sunh -n $ns subnet set 10.23.0.0/16 bits 12
done
sunh -n sr forwarding on
MA=$(mac va sa)
MRA=$(mac ra sr)
ns() { ip netns exec "$@"; }

check "A reaches B through R" sunh -n sa ping 258 -c 2 -i 0.2 -W 2

# ------------------------------------------------------------ forged source
sp=$(sunh_stat rx_drop_src_path sr)
forge() { # one frame from A's port claiming to come from B (258)
	ns sa superp-gen -i va --smac "$MA" --dmac "$MRA" --saddr 258 --daddr 254 \
		--opcode noop "$@" > /dev/null
}
sunh -n sr route flush
forge
forge --nexthdr 254
sleep 0.3
check "R drops frames from A's port with B's source" stat_grew rx_drop_src_path "$sp" sr
check_fail "R does not learn B behind A's port" sh -c "sunh -n sr route show 258 | grep -q 'dev ra'"
check "B still reaches A" sunh -n sb ping 1 -c 2 -i 0.2 -W 2
check "R's path to B is B's port" sh -c "sunh -n sr route show 258 | grep -q '^258 dev rb'"
forge
sleep 0.3
check "after more forged frames R's path to B is unchanged" sh -c "sunh -n sr route show 258 | grep -q '^258 dev rb'"

# ------------------------------------------------------------ leaks
# 10.23.5.0 (SUNH 0x500) has no connected route: R's IP table sends it
# out of the uplink, which is not a port of the domain.
up0=$(sunh_stat rx_packets su)
nd=$(sunh_stat fwd_drop_not_domain sr)
sunh -n sa ping 0x500 -c 2 -i 0.2 -W 0.5 > /dev/null 2>&1
check "R refuses to forward out of the domain" stat_grew fwd_drop_not_domain "$nd" sr
# A static entry through the uplink does not open a way out either.
sunh -n sr route add 0x501 dev ru lladdr "$(mac vu su)"
sunh -n sa ping 0x501 -c 1 -W 0.5 > /dev/null 2>&1
td=$(sunh_stat tx_drop_not_domain sr)
sunh -n sr ping 0x501 -c 1 -W 0.5 > /dev/null 2>&1
check "R's own echo toward the uplink is refused" stat_grew tx_drop_not_domain "$td" sr
# An echo request that claims a source routed out of the uplink gets no
# reply through it (and, learning on, is dropped by the reverse path).
ns sa superp-gen -i va --smac "$MA" --dmac "$MRA" --saddr 0x502 --daddr 254 \
	--nexthdr 254 --opcode noop --eom > /dev/null
sleep 0.3
up1=$(sunh_stat rx_packets su)
check "no SUNH frame reached the upstream gateway" test "${up1:-0}" -eq "${up0:-0}"

# ------------------------------------------------------------ echo flood
# Echo requests made of a lite frame's TAL bytes (as selftests/wire does):
# eom is type 128, opcode 0 the hop limit byte.
echo_req() {
	ns sa superp-gen -i va --dmac "$MRA" --saddr 1 --daddr 254 --encap lite \
		--nexthdr 254 --eom --opcode noop "$@" > /dev/null
}
sunh -n sr set echorate 20
tx=$(sunh_stat echo_rep_tx sr)
rl=$(sunh_stat rx_drop_echo_ratelimit sr)
t0=$(date +%s)
echo_req --smac "$MA" -n 300
sleep 0.5
t1=$(date +%s)
replies=$(($(sunh_stat echo_rep_tx sr) - tx))
check "R answered $replies of 300 requests, within 20 per second" \
	test "$replies" -le $((20 * (t1 - t0 + 2)))
check "... and counted the others" stat_grew rx_drop_echo_ratelimit "$rl" sr
bm=$(sunh_stat rx_drop_bad_src_mac sr)
echo_req --smac 00:00:00:00:00:00
echo_req --smac 01:00:5e:00:00:01
sleep 0.3
check "frames from a zero or a multicast source MAC are dropped" \
	stat_ge rx_drop_bad_src_mac $((bm + 2)) sr

# ------------------------------------------------------------ namespaces
check "root of a user namespace configures its own domain" \
	unshare -r -n sh -c 'sunh subnet set 10.77.0.0/16 bits 8 && sunh subnet show | grep -q "^subnet 10.77.0.0/16"'
check "the new subnet stayed in that namespace" sh -c '! sunh subnet show | grep -q 10.77.0.0'
check_fail "... and cannot change the initial namespace's" \
	unshare -r sh -c 'sunh subnet set 10.78.0.0/16 bits 8'
check "a user namespace may still read its domain" \
	unshare -r -n sh -c 'sunh stats > /dev/null'

for n in sa sr sb su; do ip netns del $n; done
sleep 1
tap_exit
