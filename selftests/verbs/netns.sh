#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ib_superp inside a network namespace, as a container would run it. With
# `rdma system set netns exclusive`, each guest moves eth0 into namespace
# "sp", adds superp0 on it from there and moves the device in with `rdma
# dev set ... netns` (a new RDMA device starts in the initial namespace).
# Inside "sp" only: the SUNH subnet, the connections (SUNH and UDP/IPv4:
# the namespace's own UDP tunnel socket), `superp dev show`, and
# ibv_rc_pingpong over each, its data checked (-c); outside, superp0 is
# neither listed by rdma nor reachable by the superp tool. Deleting the
# namespace with the device still in it sends eth0 back to the initial
# namespace, and superp0 goes with its netdev's departure, as it goes
# when the netdev is unregistered; eth0 is set up again for the tests
# after this one.
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 400
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))
NS=sp

tap_begin

sp() { ip netns exec "$NS" "$@"; }


enter() {
	ip netns add "$NS" &&
		ip link set eth0 netns "$NS" &&
		sp ip link set lo up &&
		sp ip link set eth0 mtu 9000 up &&
		sp ip addr add "$(guest_ip "$me")/24" dev eth0
}

check "rdma system set netns exclusive" rdma system set netns exclusive
check "eth0 into namespace $NS" enter
# The guests meet over eth0: once it is in the namespace, so are the
# barriers.
SUPERP_BARRIER_NETNS=$NS
barrier netns-entered
check "modules" sh -c 'modprobe sunh && modprobe ib_superp'
check "$NS: rdma link add superp0 on its eth0" \
	sp rdma link add superp0 type superp netdev eth0
check "a new device starts in the initial namespace" \
	output_has '^[0-9]+: superp0:' rdma dev show
check "rdma dev set superp0 netns $NS" rdma dev set superp0 netns "$NS"
check "$NS: rdma dev show lists superp0" \
	output_has '^[0-9]+: superp0:' sp rdma dev show
check_fail "the initial namespace no longer sees superp0" \
	sh -c 'rdma dev show | grep -q superp0'
check "nor can the superp tool reach it from there" \
	output_has 'No such device' superp dev show superp0
check "$NS: superp dev show finds it" sp superp dev show superp0

check "$NS: sunh subnet" sp sunh subnet set 10.23.0.0/16 bits 12
check "$NS: SUNH connection" sp superp conn add dev superp0 lcid 1 rcid 1 \
	encap sunh local "$me" remote "$peer" $superp_slow
check "$NS: UDP/IPv4 connection" sp superp conn add dev superp0 lcid 2 \
	rcid 2 encap udp4 local "$(guest_ip "$me")" \
	remote "$(guest_ip "$peer")" $superp_slow
check_fail "the initial namespace has no SUNH subnet" \
	sh -c 'sunh subnet show | grep -q 10.23.0.0/16'
check "$NS: superp0's RoCE v2 GID of our address" \
	sp sh -c ". $SUPERP_ROOT/selftests/verbs/rc.inc; wait_gid superp0 $(guest_ip "$me")"

port=18700
# pp NAME ENCAP: ibv_rc_pingpong -c in the namespace, guest 1 serving;
# the connection it bound to moved the bytes.
pp() {
	local name=$1 lcid=$2 gidx log rc before after
	port=$((port + 1))
	log=/tmp/netns-$name.log
	gidx=$(sp sh -c ". $SUPERP_ROOT/selftests/verbs/rc.inc; roce_gid_index superp0 $(guest_ip "$me")")
	before=$(sp superp -j -s conn show dev superp0 lcid "$lcid" | jq '.[0].stats.tx_new')
	set -- ibv_rc_pingpong -d superp0 -g "$gidx" -p "$port" -s 4096 -n 50 -c
	if is_coordinator; then
		sp timeout 120 "$@" > "$log" 2>&1 &
		pid=$!
		sp sh -c ". $SUPERP_ROOT/selftests/verbs/rc.inc; wait_listening $port"
		barrier "netns-$name"
		wait "$pid"
		rc=$?
	else
		barrier "netns-$name"
		sp timeout 120 "$@" "$(guest_ip 1)" > "$log" 2>&1
		rc=$?
	fi
	sed 's/^/# /' "$log"
	check "$NS: ibv_rc_pingpong over $name exits 0" test "$rc" -eq 0
	check "$NS: $((2 * 4096 * 50)) bytes moved" \
		grep -q "^$((2 * 4096 * 50)) bytes in " "$log"
	after=$(sp superp -j -s conn show dev superp0 lcid "$lcid" | jq '.[0].stats.tx_new')
	check "$NS: connection $lcid carried it ($before -> $after new packets)" \
		test "$after" -gt "$((before + 49))"
}
# SUNH is the route inside the subnet: the QP binds to connection 1.
pp sunh 1
barrier netns-sunh-done
# Without the subnet the same address means UDP/IPv4: connection 2.
check "$NS: SUNH connection and subnet deleted" sp sh -c \
	'superp conn del dev superp0 lcid 1 && sunh subnet del'
pp udp4 2
barrier netns-udp4-done

check "$NS: connection 2 deleted" sp superp conn del dev superp0 lcid 2
check "$NS: nothing left of superp0 but the core's QP1" \
	sp sh -c 'rdma resource show superp0 | grep -q " pd 1 cq 1 qp 1 cm_id 0 mr 0 "'
barrier netns-done

# The namespace goes with superp0 in it: eth0 comes back, superp0 goes.
back() {
	local i=0
	ip netns del "$NS" || return 1
	until ip link show eth0 > /dev/null 2>&1 &&
		! rdma link show 2>/dev/null | grep -q superp0; do
		i=$((i + 1))
		[ $i -lt 100 ] || { ip link; rdma link show; return 1; }
		sleep 0.2
	done
}
check "deleting $NS: eth0 back, superp0 gone with it" back
SUPERP_BARRIER_NETNS=
check "eth0 set up again" sh -c "ip link set eth0 mtu 9000 up &&
	ip addr add $(guest_ip "$me")/24 dev eth0"
check "modules unloaded" sh -c 'rmmod ib_superp && rmmod sunh'
check "rdma system set netns shared" rdma system set netns shared
barrier netns-back
check "the peer answers again" ping -c 1 -W 5 "$(guest_ip "$peer")"
tap_exit
