#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SUNH forwarding: A (10.23.0.2, SUNH 2) reaches B (10.23.1.3, SUNH 259)
# through the router R (10.23.0.1 and 10.23.1.1, SUNH 1 and 257). The hop
# limit drops by one per hop, a packet sent with hop limit 1 dies at R and
# is counted there, R queues forwarded frames by traffic class, and with
# forwarding off R drops and counts. The host checks the captures of both
# segments afterwards (router_capture).
# superp-topology: router
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 300
# superp-capture: router_capture
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/sunh/sunh_lib"

R=1 A=2 B=3
B_ADDR=259

tap_begin

check "load sunh" load_sunh
check "subnet set 10.23.0.0/16 bits 12" sunh subnet set 10.23.0.0/16 bits 12
[ "$SUPERP_ID" = $R ] && sunh forwarding on

barrier sunh-configured

# 1. A pings B through R.
case $SUPERP_ID in
$A)
	check "A pings B through R" sh -c "sunh ping $B_ADDR -c 3 -i 0.2 | tee /tmp/ping.out"
	check "B received hop limit 14, A got the reply with 14" \
		grep -q "from $B_ADDR: seq=.* hlim=14 req_hlim=14" /tmp/ping.out
	;;
esac
barrier sunh-pinged

case $SUPERP_ID in
$R) check "R forwarded both ways" stat_ge fwd_packets 6 ;;
$B) check "B learned A (2) behind R" sh -c "sunh route show | grep -q '^2 dev eth0 lladdr 52:54:00:23:01:01 learned'" ;;
$A) check "A resolved B (259) to R's MAC" sh -c "sunh route show | grep -q '^$B_ADDR dev eth0 lladdr 52:54:00:23:00:01 resolved'" ;;
esac

# 2. R queues forwarded frames by traffic class: 0x08 is bulk, band 2
# (class 1:3) of a default prio qdisc on its output device.
if [ "$SUPERP_ID" = $R ]; then
	check "prio qdisc on R's eth1" tc qdisc add dev eth1 root handle 1: prio
	bulk=$(band_packets eth1 3)
fi
barrier sunh-prio
[ "$SUPERP_ID" = $A ] && check "A pings B with traffic class 0x08" sunh ping $B_ADDR -c 3 -i 0.1 -Q 0x08
barrier sunh-prio-sent
if [ "$SUPERP_ID" = $R ]; then
	check "R queued the forwarded requests in the bulk band" band_grew eth1 3 "${bulk:-0}" 3
	check "prio qdisc removed" tc qdisc del dev eth1 root
fi

# 3. Hop limit 1 from A: R must drop it.
[ "$SUPERP_ID" = $R ] && hl0=$(sunh_stat fwd_drop_hop_limit)
barrier sunh-hl1
if [ "$SUPERP_ID" = $A ]; then
	check_fail "hop limit 1 does not reach B" sunh ping $B_ADDR -c 1 -t 1 -W 1
	check "hop limit 2 reaches B with 1" sh -c "sunh ping $B_ADDR -c 1 -t 2 | grep -q 'req_hlim=1 '"
	check "traffic class with ECN CE kept through R both ways" \
		sh -c "sunh ping $B_ADDR -c 1 -Q 0xbb | grep -q 'tclass=0xbb '"
fi
barrier sunh-hl1-sent
if [ "$SUPERP_ID" = $R ]; then
	check "R counted the hop-limit drop" stat_grew fwd_drop_hop_limit "$hl0"
fi

# 4. Forwarding off at R.
if [ "$SUPERP_ID" = $R ]; then
	nl0=$(sunh_stat rx_drop_not_local)
	check "forwarding off" sunh forwarding off
fi
barrier sunh-fwd-off
if [ "$SUPERP_ID" = $A ]; then
	check_fail "B is unreachable" sunh ping $B_ADDR -c 1 -W 1
	check "R itself still answers on 257" sunh ping 257 -c 1
fi
barrier sunh-fwd-off-sent
if [ "$SUPERP_ID" = $R ]; then
	check "R counted the not-forwarded frame" stat_grew rx_drop_not_local "$nl0"
fi
check "rmmod sunh" rmmod sunh
tap_exit
