#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Two nodes on one segment: SUNH echo between them, entries resolved through
# ARP on the sender and learned from received frames on the receiver, hop
# limit untouched without a router, the traffic class picks the transmit
# queue, ping's JSON is one object a reply, unprivileged users cannot change
# anything, and `rmmod sunh` while echo traffic flows is clean.
# superp-topology: pair
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/sunh/sunh_lib"

me=$SUPERP_ID
peer=$((3 - me))

# ping_json: sunh -j -p ping, two replies: a stream, so one compact object
# a line whatever -p says, each as the text reply has it, time_ms with
# three decimals.
ping_json() {
	sunh -j -p ping "$peer" -c 2 -i 0.2 > /tmp/ping.json || return 1
	cat /tmp/ping.json
	[ "$(wc -l < /tmp/ping.json)" = 2 ] &&
	[ "$(grep -cE "^\{\"bytes\":[0-9]+,\"from\":$peer,\"seq\":[12],\"hlim\":15,\"req_hlim\":15,\"tclass\":0,\"time_ms\":[0-9]+\.[0-9]{3}\}\$" /tmp/ping.json)" = 2 ] &&
	jq -se 'length == 2 and map(.seq) == [1, 2]' /tmp/ping.json > /dev/null
}

tap_begin

check "load sunh" load_sunh
check "subnet set 10.23.0.0/16 bits 12" sunh subnet set 10.23.0.0/16 bits 12
check "subnet show" sh -c 'sunh subnet show | grep -q "^subnet 10.23.0.0/16 bits 12$"'
check "own address $me is local on eth0" sh -c "sunh route show | grep -q '^$me dev eth0 local$'"
# Guest 2's ARP entry for 1 is made valid too (see below).
is_coordinator || ping -c 1 -W 2 "$(guest_ip "$peer")" >/dev/null
barrier sunh-configured

# Guest 1 pings first: it resolves 2 through ARP (made valid by an IP ping
# first), and 2 learns 1 from the requests.
if is_coordinator; then
	ping -c 1 -W 2 "$(guest_ip "$peer")" >/dev/null
	check "ping $peer" sh -c "sunh ping $peer -c 3 -i 0.2 | tee /tmp/ping.out"
	check "one hop: hop limit 15 both ways" grep -q "hlim=15 req_hlim=15" /tmp/ping.out
	check "entry for $peer is resolved" sh -c "sunh route show | tee /dev/stderr | grep -q '^$peer dev eth0 lladdr 52:54:00:23:00:0$peer resolved'"
	check "ping -j -p: one compact object a reply" ping_json
fi
barrier sunh-pinged
if ! is_coordinator; then
	check "$peer was learned from its requests" stat_ge routes_learned 1
	# A dynamic entry in use is held against ARP at most once a second
	# (sooner after a neighbour change): by the second echo, 1.1 s later,
	# guest 2's valid ARP entry for 1 has replaced the learned entry. The
	# table trusts resolution over learning; a learned entry that ARP
	# cannot confirm stays learned (netns.sh).
	check "ping $peer, twice 1.1 s apart" sunh ping "$peer" -c 2 -i 1.1
	check "entry for $peer is confirmed by ARP" sh -c "sunh -j route show | grep -q '\"addr\":$peer,\"dev\":\"eth0\",\"lladdr\":\"52:54:00:23:00:0$peer\",\"origin\":\"resolved\"'"
fi
if is_coordinator; then
	check "echo replies counted" stat_ge echo_rep_rx 3
	# The traffic class picks the queue (IPv4's TOS map): 0x08 (throughput)
	# is bulk, band 2 (class 1:3) of a default prio qdisc; class 0 is not.
	check "prio qdisc on eth0" tc qdisc add dev eth0 root handle 1: prio
	bulk=$(band_packets eth0 3)
	check "ping with traffic class 0x08" sunh ping "$peer" -c 3 -i 0.1 -Q 0x08
	check "... queued in the bulk band" band_grew eth0 3 "${bulk:-0}" 3
	bulk=$(band_packets eth0 3)
	check "ping with traffic class 0" sunh ping "$peer" -c 3 -i 0.1
	check "... not queued in the bulk band" band_same eth0 3 "${bulk:-0}"
	check "prio qdisc removed" tc qdisc del dev eth0 root
else
	check "echo requests counted" stat_ge echo_req_rx 3
fi

check_fail "unprivileged route add is refused" setpriv --reuid=65534 --regid=65534 --clear-groups \
	sunh route add 9 dev eth0 lladdr 02:00:00:00:00:09
check "... with EPERM" sh -c "setpriv --reuid=65534 --regid=65534 --clear-groups \
	sunh forwarding on 2>&1 | grep -q 'Operation not permitted'"
check "unprivileged route show works" setpriv --reuid=65534 --regid=65534 --clear-groups sunh route show
barrier sunh-perm

# Echo traffic in both directions while guest 1 unloads, then guest 2.
sunh ping "$peer" -i 0.01 -W 0.1 -c 300 >/dev/null 2>&1 &
pid=$!
sleep 1
if is_coordinator; then
	check "rmmod sunh under traffic" rmmod sunh
	barrier sunh-rmmod1
else
	barrier sunh-rmmod1
	check "rmmod sunh under traffic" rmmod sunh
fi
wait $pid
barrier sunh-done
tap_exit
