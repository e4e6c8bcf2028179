#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `superp mesh up` on two guests from one file: each finds itself by the
# address on its netdev, installs a connection to every other node with the
# file's settings, and the CIDs agree without any exchange: guest A's local
# CID toward B is B's remote CID toward A and the other way round (checked
# across the guests through the barrier's name, which both must give
# alike). Nodes given by SUNH address are found through the SUPERp subnet.
# `mesh down` removes them; a file too large for pdl_conn_per_xpu is
# refused.
# superp-topology: pair
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"

me=$SUPERP_ID
peer=$((3 - me))
peer_ip=$(guest_ip "$peer")

tap_plan 17

cat > /tmp/mesh <<EOF
# The test domain: guests 1 and 2, and a node that is not up.
cidbase 2
a 10.23.0.1
b 10.23.0.2
c 10.23.0.3
defaults ordered both tal_trans_window 64
pair a b tclass 5
EOF

check "modprobe ib_superp" modprobe ib_superp
check "rdma link add superp0 on eth0" rdma link add superp0 type superp netdev eth0
check "mesh up: this node found by its address, 2 connections" \
	output_has "^mesh up: [ab] is node $((me - 1)) of 3, 2 connections added on superp0$" \
	superp mesh up /tmp/mesh
superp -j conn show > /tmp/conns
toward_peer=".[] | select(.remote == \"$peer_ip\")"
check "the connection to the peer: udp4, pair and default settings" jq_true \
	"$toward_peer | .encap == \"udp4\" and .local == \"$(guest_ip "$me")\" and .tclass == 5 and
	 .ordered == \"both\" and .params.tal_trans_window == 64" cat /tmp/conns
check "... CIDs by the rule: local = cidbase + peer's index, remote = cidbase + mine" jq_true \
	"$toward_peer | .lcid == 2 + $peer - 1 and .rcid == 2 + $me - 1" cat /tmp/conns
check "the connection to c: defaults only, local CID 4" jq_true \
	'.[] | select(.remote == "10.23.0.3") | .lcid == 4 and .tclass == 0 and .ordered == "both"' \
	cat /tmp/conns
lcid=$(jq ".[] | select(.remote == \"$peer_ip\") | .lcid" /tmp/conns)
rcid=$(jq ".[] | select(.remote == \"$peer_ip\") | .rcid" /tmp/conns)
tap_diag "toward guest $peer: lcid $lcid rcid $rcid"
# Guest 1 names the barrier (its lcid, its rcid), guest 2 (its rcid, its
# lcid): the names match, and the barrier passes, only if each side's
# local CID is the other's remote CID.
if is_coordinator; then
	check "A's lcid toward B is B's rcid toward A, and back" barrier "mesh-$lcid-$rcid"
else
	check "A's lcid toward B is B's rcid toward A, and back" barrier "mesh-$rcid-$lcid"
fi
check "mesh up again: EEXIST" output_has 'File exists \(local CID in use' superp mesh up /tmp/mesh
check "mesh down removes both" output_has '^mesh down: .* 2 connections removed on superp0$' \
	superp mesh down /tmp/mesh
check "... none left but the implicit loopback" jq_true \
	'length == 1 and .[0].lcid == 65534' superp -j conn show
check "mesh down again is harmless" output_has ' 0 connections removed' superp mesh down /tmp/mesh
check "--self c installs c's connections (local CIDs 2 and 3)" sh -c \
	'superp mesh up /tmp/mesh --self c >/dev/null &&
	 superp -j conn show | jq -e "map(select(.lcid != 65534)) |
		map(.lcid) == [2, 3] and all(.rcid == 4)" >/dev/null &&
	 superp mesh down /tmp/mesh --self c >/dev/null'
# SUNH addresses: this node is found through the SUPERp subnet.
check "modprobe sunh, subnet 10.23.0.0/16 bits 12" \
	sh -c 'modprobe sunh && sunh subnet set 10.23.0.0/16 bits 12'
printf 'x 1\ny 2\n' > /tmp/mesh-sunh
check "mesh up with SUNH addresses: this node found through the subnet" \
	output_has "^mesh up: [xy] is node $((me - 1)) of 2, 1 connection added on superp0$" \
	superp mesh up /tmp/mesh-sunh
check "... a sunh connection from $me to $peer, CIDs by the rule" jq_true \
	".[0] | .encap == \"sunh\" and .local == \"$me\" and .remote == \"$peer\" and
	 .lcid == $peer - 1 and .rcid == $me - 1" superp -j conn show
superp mesh down /tmp/mesh-sunh > /dev/null
superp dev set superp0 pdl_conn_per_xpu 4
check "a file beyond pdl_conn_per_xpu is refused, naming the limit" \
	output_has 'need pdl_conn_per_xpu >= 5 on superp0 \(it is 4\)' superp mesh up /tmp/mesh
barrier mesh-done
check "rmmod ib_superp" rmmod ib_superp

tap_exit
