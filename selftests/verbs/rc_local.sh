#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Both ends of the kernel RC probe on one guest (probes/superp_rc_probe.c as
# the client, its copy superp_rc_probe_peer as the server, meeting over
# TCP on 127.0.0.1): in loopback, over superp0's connection to this node
# itself, by SUNH and by UDP/IPv4 (superp_loop.c: no wire), and over a
# veth pair, superp1 on one end and superp2 on the other end in a network
# namespace of its own, by UDP/IPv4. Every step of the probe, data
# verified, on each; the device's objects gone afterwards. Both ends'
# lines: "superp_rc_probe: " (client), "superp_rc_probe_peer: " (server).
# superp-topology: single
# superp-kernel: test
# superp-timeout: 900
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
ip=$(guest_ip "$me")
# The harness passes no environment into the guests: edit these defaults.
LOCAL_SIZE=${LOCAL_SIZE:-1048576}
LOCAL_TPUT_MS=${LOCAL_TPUT_MS:-500}
port=18620

tap_begin

# local_probe NAME SDEV SGID CDEV CGID PARAMS...: the server copy on SDEV
# (GID index SGID) in the background, the client on CDEV in front; one TAP
# line per step each side printed, then both summaries and exit statuses.
local_probe() {
	local name=$1 sdev=$2 sgid=$3 cdev=$4 cgid=$5 crc src spid mod role log
	shift 5
	port=$((port + 1))
	echo "rc probe run $name" > /dev/kmsg
	modprobe superp_rc_probe_peer dev="$sdev" role=server port="$port" \
		gid_index="$sgid" "$@" > "/tmp/$name-server.out" 2>&1 &
	spid=$!
	modprobe superp_rc_probe dev="$cdev" role=client peer=127.0.0.1 \
		port="$port" gid_index="$cgid" "$@" > "/tmp/$name-client.out" 2>&1
	crc=$?
	wait "$spid"
	src=$?
	[ $crc -eq 0 ] && rmmod superp_rc_probe
	[ $src -eq 0 ] && rmmod superp_rc_probe_peer
	for role in server client; do
		mod=superp_rc_probe
		[ $role = server ] && mod=superp_rc_probe_peer
		log=/tmp/rc-$name-$role.log
		dmesg | superp_probe_lines "$name" |
			sed -n "s/.*$mod: //p" > "$log"
		probe_tap "$name $role" "$log"
	done
	if [ $crc -ne 0 ] || [ $src -ne 0 ]; then
		tap_diag "$name: $(cat "/tmp/$name-server.out" "/tmp/$name-client.out" | tr '\n' ' ')"
		tap_diag "$name: superp -s conn show: $(superp -s conn show 2>&1 | tr '\n' ' ')"
	fi
	check "$name: both modprobes succeeded (client $crc, server $src)" \
		test $crc -eq 0 -a $src -eq 0
}

# gid_of DEV IP: the index of DEV's RoCE v2 GID of IP.
gid_of() { roce_gid_index "$1" "$2"; }

check "modprobe sunh ib_superp" modprobe -a sunh ib_superp
check "SUPERp subnet 10.23.0.0/16, 12-bit SUNH addresses" sunh subnet set 10.23.0.0/16 bits 12
check "rdma link add superp0 type superp netdev eth0" rdma link add superp0 type superp netdev eth0
check "superp0 has the RoCE v2 GID of $ip" wait_gid superp0 "$ip"

# 1. Loopback: a connection of superp0 to this node itself.
for encap in sunh udp4; do
	if [ $encap = sunh ]; then
		addr="local $me remote $me"
	else
		check "udp4: no SUPERp subnet" sunh subnet del
		addr="local $ip remote $ip"
	fi
	# shellcheck disable=SC2086 # whole words
	check "loop-$encap: connection to this node (lcid 5 rcid 5)" \
		superp conn add dev superp0 lcid 5 rcid 5 encap $encap $addr $superp_slow
	g=$(gid_of superp0 "$ip")
	local_probe "loop-$encap" superp0 "$g" superp0 "$g" \
		size="$LOCAL_SIZE" qps=2 tput_ms="$LOCAL_TPUT_MS"
	check "loop-$encap: connection removed" superp conn del dev superp0 lcid 5
	check "loop-$encap: rdma resource show: nothing left" nothing_left superp0
done
check "rdma link delete superp0" rdma link delete superp0

# 2. A veth pair: superp1 on tdv1 here, superp2 on tdv2 in namespace sp2
# (one namespace would route the pair's addresses through lo). RDMA
# devices stay visible to the probes in the initial namespace (shared
# mode); superp2's connection and UDP socket are sp2's.
veth_up() {
	ip netns add sp2 &&
		ip link add tdv1 type veth peer name tdv2 &&
		ip link set tdv2 netns sp2 &&
		ip addr add 10.98.0.1/24 dev tdv1 && ip link set tdv1 up &&
		ip -n sp2 addr add 10.98.0.2/24 dev tdv2 &&
		ip -n sp2 link set tdv2 up && ip -n sp2 link set lo up &&
		rdma link add superp1 type superp netdev tdv1 &&
		ip netns exec sp2 rdma link add superp2 type superp netdev tdv2 &&
		superp conn add dev superp1 lcid 1 rcid 1 encap udp4 \
			local 10.98.0.1 remote 10.98.0.2 $superp_slow &&
		superp -n sp2 conn add dev superp2 lcid 1 rcid 1 \
			encap udp4 local 10.98.0.2 remote 10.98.0.1 $superp_slow &&
		wait_gid superp1 10.98.0.1 && wait_gid superp2 10.98.0.2
}
check "veth: tdv1 here, tdv2 in sp2, superp1 and superp2, their connections" veth_up
g1=$(gid_of superp1 10.98.0.1)
g2=$(gid_of superp2 10.98.0.2)
tap_diag "veth: GID index $g1 on superp1, $g2 on superp2"
# The server copy on superp2, the client on superp1.
local_probe veth superp2 "$g2" superp1 "$g1" size="$LOCAL_SIZE" qps=2 \
	tput_ms="$LOCAL_TPUT_MS"
check "veth: rdma resource show: nothing left on superp1" nothing_left superp1
check "veth: rdma resource show: nothing left on superp2" nothing_left superp2
check "veth: tear down" sh -c 'rdma link delete superp1 &&
	ip netns exec sp2 rdma link delete superp2 && ip link del tdv1 &&
	ip netns del sp2 && rmmod ib_superp sunh'
tap_exit
