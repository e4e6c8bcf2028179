#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Namespaces and bad input, in one guest. Two namespaces joined by a veth
# pair run two SUPERp domains (10.23.0.0/16 bits 12 and 10.99.0.0/24 bits
# 8): neither sees the other's configuration, and frames crossing between
# them are dropped and counted, not delivered; a port without an address
# in the subnet does not take part. Malformed frames (made with
# the frame generator tools/superp-gen) are each dropped and counted;
# netlink requests with bad or missing attributes fail with an error message.
# superp-topology: single
# make check runs it on the debug kernel, make soak on both: the code is
# the same on Debian's kernel, where make check's other SUNH tests run.
# superp-kernel: test
# superp-soak-kernel: both
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/sunh/sunh_lib"

tap_plan 51

check "load sunh" load_sunh
two_namespaces 10.23.0.1/16 10.99.0.5/24

check "sn1: subnet set" sunh -n sn1 subnet set 10.23.0.0/16 bits 12
check "sn2: subnet set" sunh -n sn2 subnet set 10.99.0.0/24 bits 8
check "sn1 sees its subnet" sh -c 'sunh -n sn1 subnet show | grep -q "^subnet 10.23.0.0/16 bits 12"'
check "sn2 sees its subnet" sh -c 'sunh -n sn2 subnet show | grep -q "^subnet 10.99.0.0/24 bits 8"'
check "the initial namespace has none" sh -c 'sunh subnet show | grep -q "^subnet none"'
check "sn1: static route to 2 over the veth" sunh -n sn1 route add 2 dev v1 lladdr "$M2"
check_fail "sn2 does not see sn1's route" sh -c "sunh -n sn2 route show | grep -q '^2 '"

# Traffic from sn1's domain is not for sn2 (10.99.0.2 is not sn2's).
nl=$(sunh_stat rx_drop_not_local sn2)
fw=$(sunh_stat fwd_packets sn2)
check_fail "sn1 cannot reach 2 in sn2" sunh -n sn1 ping 2 -c 1 -W 0.5
check "sn2 dropped it and counted" stat_grew rx_drop_not_local "$nl" sn2
check "sn2 forwarded nothing" sh -c "[ \"\$(sunh -n sn2 stats | awk '\$1==\"fwd_packets\" {print \$2}')\" = $fw ]"
check "sn2: subnet del" sunh -n sn2 subnet del
ns=$(sunh_stat rx_drop_no_subnet sn2)
sunh -n sn1 ping 2 -c 1 -W 0.3 >/dev/null 2>&1
check "sn2 without a subnet counts rx_drop_no_subnet" stat_grew rx_drop_no_subnet "$ns" sn2
check "sn2: subnet set again" sunh -n sn2 subnet set 10.99.0.0/24 bits 8
check "sn2: forwarding on" sunh -n sn2 forwarding on
check "sn1 forwarding stays off" sh -c 'sunh -n sn1 subnet show | grep -q "forwarding off"'

# Malformed frames from the frame generator, sent from sn1 to sn2 (local
# address 5, 8 address bits). Later options override the defaults of gen().
gen() { n1 superp-gen -i v1 --smac "$M1" --dmac "$M2" --saddr 1 --daddr 5 "$@"; }
bad() { # counter superp-gen-options...
	local counter=$1 before
	shift
	before=$(sunh_stat "$counter" sn2)
	gen "$@" > /dev/null
	sleep 0.2
	stat_grew "$counter" "$before" sn2
}
check "truncated frame" bad rx_drop_truncated --truncate 16 --no-pad
check "destination outside 8 bits" bad rx_drop_addr_range --daddr 300
check "source outside 8 bits" bad rx_drop_addr_range --saddr 0x200
check "unknown Next Header" bad rx_drop_unknown_nexthdr --nexthdr 99
check "malformed echo" bad rx_drop_echo_malformed --nexthdr 254 --truncate 24 --no-pad
check "hop limit 1 when forwarding" bad fwd_drop_hop_limit --hop-limit 1 --daddr 0x63
check "hop limit 0 when forwarding" bad fwd_drop_hop_limit --hop-limit 0 --daddr 0x63
check "frame for another MAC" bad rx_drop_otherhost --dmac 02:00:00:00:00:77
# A well-formed echo request with hop limit 0, built byte by byte.
check "hop limit 0 is accepted by the destination" sh -c \
	"sunh -n sn1 inject dev v1 lladdr $M2 00fe000000010005800000010001000000 && sleep 0.2 && [ \$(sunh -n sn2 stats | awk '\$1==\"echo_req_rx\" {print \$2}') -ge 1 ]"

# A port of sn2 with no address in its subnet (a management port, say) is
# not an interface of the domain: a well-formed echo request arriving there
# is dropped and counted, and teaches sn2 nothing; with an address in the
# subnet the same frame is answered.
ip link add v3 netns sn1 type veth peer name v4 netns sn2
ip -n sn2 addr add 192.168.77.4/24 dev v4
ip -n sn1 link set v3 up
ip -n sn2 link set v4 up
M4=$(mac v4 sn2)
# Echo request 33 -> 5, hop limit 15, identifier 1, sequence 1.
mgmt_echo() { sunh -n sn1 inject dev v3 lladdr "$M4" 00fef00000210005800000010001000000; sleep 0.2; }
nd=$(sunh_stat rx_drop_no_dev_addr sn2)
rq=$(sunh_stat echo_req_rx sn2)
mgmt_echo
check "echo on a port outside the subnet is dropped and counted" stat_grew rx_drop_no_dev_addr "$nd" sn2
check "... not answered" sh -c "[ \$(sunh -n sn2 stats | awk '\$1==\"echo_req_rx\" {print \$2}') = $rq ]"
check_fail "... and not learned" sh -c "sunh -n sn2 route show | grep -q '^33 '"
ip -n sn2 addr add 10.99.0.6/24 dev v4
mgmt_echo
check "with an address in the subnet the port takes part" stat_grew echo_req_rx "$rq" sn2
check "... and its sender is learned" sh -c "sunh -n sn2 route show | grep -q '^33 dev v4 .* learned'"
ip -n sn1 link del v3

# Bad netlink requests: errno plus an extack message, nothing changed.
check "prefix too short: message" sh -c 'sunh subnet set 10.0.0.0/8 2>&1 | grep -q "host part"'
check_fail "address outside the width" sunh -n sn2 route add 300 dev v2 lladdr "$M1"
check "hop limit 0 refused with a message" sh -c 'sunh -n sn2 set hoplimit 0 2>&1 | grep -q "1..15"'
check_fail "hop limit 16 refused" sunh -n sn2 set hoplimit 16

# IPv6 domain: resolution through neighbour discovery.
ip -n sn1 addr add fd00:23::1/64 dev v1 nodad
ip -n sn2 addr add fd00:23::5/64 dev v2 nodad
check "sn1: IPv6 subnet" sunh -n sn1 subnet set fd00:23::/112 bits 16
check "sn2: IPv6 subnet" sunh -n sn2 subnet set fd00:23::/112 bits 16
# An ICMPv6 ping first makes the ND entry valid, so that SUNH resolves
# (without it the first echo waits in the neighbour queue and the reply
# teaches sn1 a learned entry instead).
n1 ping -c 1 -W 2 fd00:23::5 >/dev/null 2>&1
check "IPv6: ping 5" sunh -n sn1 ping 5 -c 2 -i 0.2
check "IPv6: 5 resolved through ND" sh -c "sunh -n sn1 route show | grep -q '^5 dev v1 lladdr $M2 resolved'"
# sn2 learns 1 from the echo request; its valid ND entry for fd00:23::1
# (the ICMPv6 ping made it) replaces the learned entry at the reply's
# first use: resolution is trusted over learning.
tap_diag "sn2: $(sunh -n sn2 route show | tr '\n' ';')"
check "IPv6: 1 learned, then confirmed by ND" sh -c "sunh -n sn2 route show | grep -q '^1 dev v2 lladdr $M1 resolved'"

# Ageing: dynamic entries go after the ageing time (checked every 5 s).
aged=$(sunh_stat routes_aged sn2)
check "sn2: ageing 1 s" sunh -n sn2 set ageing 1
sleep 7
check_fail "sn2: the dynamic entry aged out" sh -c "sunh -n sn2 route show | grep -q '^1 dev v2 '"
check "sn2: routes_aged counted it" stat_grew routes_aged "$aged" sn2

# Static entries: add, no silent overwrite, replace, delete, flush.
check "route add 9" sunh -n sn2 route add 9 dev v2 lladdr 02:00:00:00:00:09
check "a second add is refused with a message" sh -c "sunh -n sn2 route add 9 dev v2 lladdr 02:00:00:00:00:0a 2>&1 | grep -q 'use replace'"
check "route replace 9" sunh -n sn2 route replace 9 dev v2 lladdr 02:00:00:00:00:0a
check "route show 9" sh -c "sunh -n sn2 route show 9 | grep -q '^9 dev v2 lladdr 02:00:00:00:00:0a static'"
check "route del 9" sunh -n sn2 route del 9
check "route del 9 again: no entry" sh -c "sunh -n sn2 route del 9 2>&1 | grep -q 'no entry'"
sunh -n sn2 route add 10 dev v2 lladdr 02:00:00:00:00:10
check "route flush keeps static entries" sh -c "sunh -n sn2 route flush && sunh -n sn2 route show | grep -q '^10 '"
check_fail "route flush all removes them" sh -c "sunh -n sn2 route flush all; sunh -n sn2 route show | grep -q '^10 '"

# Entries go with their device.
sunh -n sn1 route add 7 dev v1 lladdr "$M2"
ip -n sn1 link del v1
check_fail "entries through a deleted device are gone" sh -c "sunh -n sn1 route show | grep -q 'dev v1'"

ip netns del sn1
ip netns del sn2
sleep 1
tap_exit
