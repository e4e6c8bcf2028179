#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Connections torn down while packets arrive and timers run, on guest 1
# while guest 2 streams No-op transactions at it: `superp conn del` of a
# connection (also under guest 1's own stream on another connection,
# whose pending transactions then fail), `rdma link delete`, and `rmmod
# ib_superp`. The console must stay clean (KASAN, lockdep, kmemleak), and
# every stream ends.
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 600
. "$SUPERP_ROOT/selftests/lib.sh"

me=$SUPERP_ID
peer=$((3 - me))

tap_begin

# Connections 1 (SUNH) and 2 (UDP/IPv4) with the spec's parameters: a
# stream toward a vanished peer breaks within a second.
conns() {
	for c in 1 2; do superp conn del dev superp0 lcid $c 2>/dev/null; done
	superp conn add dev superp0 lcid 1 rcid 1 encap sunh local "$me" remote "$peer" &&
	superp conn add dev superp0 lcid 2 rcid 2 encap udp4 \
		local "$(guest_ip "$me")" remote "$(guest_ip "$peer")"
}

# stream LCID: No-ops in the background until the connection goes (the
# probe then fails); once the probe is unloaded again its exit status
# lands in /tmp/stream.
stream() {
	rm -f /tmp/stream
	(modprobe superp_null_probe dev=superp0 lcid="$1" count=1000000 timeout_ms=20000
	 rc=$?
	 rmmod superp_null_probe
	 echo $rc > /tmp/stream.new && mv /tmp/stream.new /tmp/stream) > /dev/null 2>&1 &
	stream_pid=$!
}

# stream_ends: the background stream stopped within a minute, with an
# error (its connection went away under it). check runs this in a
# subshell, which cannot wait for the stream: poll its status file.
stream_ends() {
	local i=0
	while [ ! -s /tmp/stream ]; do
		[ $i -lt 60 ] || { echo "the stream still runs after 60 s"; return 1; }
		sleep 1
		i=$((i + 1))
	done
	[ "$(cat /tmp/stream)" != 0 ] || { echo "the stream completed without an error"; return 1; }
}

check "modprobe ib_superp" modprobe ib_superp
check "sunh subnet 10.23.0.0/16 bits 12" sunh subnet set 10.23.0.0/16 bits 12
check "rdma link add superp0 on eth0" rdma link add superp0 type superp netdev eth0
ping -c 1 -W 2 "$(guest_ip "$peer")" > /dev/null
check "connections 1 (sunh) and 2 (udp4)" conns

# Round 1: guest 2 streams on 1; guest 1 streams on 2, then deletes both.
barrier del-up
if is_coordinator; then
	stream 2
	sleep 2
	check "conn del lcid 1 while the peer's packets arrive" superp conn del dev superp0 lcid 1
	check "conn del lcid 2 under its own stream" superp conn del dev superp0 lcid 2
	check "... the stream's pending transactions failed" stream_ends
	wait "$stream_pid"
else
	stream 1
	check "the stream toward the deleted connection ends" stream_ends
	wait "$stream_pid"
fi
barrier del-done

# Round 2: rdma link delete while guest 2 streams at guest 1.
check "connections again" conns
barrier link-up
if is_coordinator; then
	sleep 2
	check "rdma link delete while packets arrive and timers run" rdma link delete superp0
else
	stream 1
	check "the stream toward the deleted device ends" stream_ends
	wait "$stream_pid"
fi
barrier link-done

# Round 3: rmmod ib_superp while guest 2 streams at guest 1.
if is_coordinator; then
	check "rdma link add superp0 again" rdma link add superp0 type superp netdev eth0
fi
check "connections again" conns
barrier rmmod-up
if is_coordinator; then
	sleep 2
	check "rmmod ib_superp while packets arrive and timers run" rmmod ib_superp
else
	stream 1
	check "the stream toward the unloaded driver ends" stream_ends
	wait "$stream_pid"
	check "rmmod ib_superp" rmmod ib_superp
fi
barrier rmmod-done
tap_exit
