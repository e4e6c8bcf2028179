#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Connections over the "superp" generic netlink family, with the superp
# tool, in one guest: add, show (JSON parsed with jq) and delete; every
# bad request refused with its errno and a message naming what is wrong
# (CID in use, CID beyond pdl_conn_per_xpu, parameters out of range or
# inconsistent, over the device's memory budget, unknown device, another
# driver's device, a device hidden from the namespace, no CAP_NET_ADMIN);
# device defaults set all or nothing; soft shutdown started; hard
# shutdown and its event on the "events" group; connections removed with
# `rdma link delete` and `rmmod` (KASAN and kmemleak watch). The tools'
# JSON: a netdev named a"b\c comes back from superp's and sunh's -j
# exactly, a u64 at its maximum keeps every digit, -p indents the same
# document but not the monitor's stream, sunh -s adds the counters to
# subnet show.
# superp-topology: single
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 300
. "$SUPERP_ROOT/selftests/lib.sh"

tap_plan 72

# refused PATTERN command...: the command fails and says PATTERN (the
# errno's text and the kernel's message, as the tool prints them).
refused() {
	local pattern=$1 out
	shift
	if out=$("$@" 2>&1); then
		printf '%s\n(succeeded)\n' "$out"
		return 1
	fi
	printf '%s\n' "$out" | grep -Eq -- "$pattern" || { printf '%s\n' "$out"; return 1; }
}

add() { superp conn add dev superp0 "$@"; }
sunh_conn() {
	local lcid=$1
	shift
	add lcid "$lcid" rcid 2 encap sunh local 1 remote 2 "$@"
}

check "modprobe ib_superp" modprobe ib_superp
check "rdma link add superp0 on eth0" rdma link add superp0 type superp netdev eth0
check "dev show: spec defaults, 64 CIDs, no connection" jq_true \
	'.[0] | .dev == "superp0" and .netdev == "eth0" and .connections == 0 and
	 .params.pdl_conn_per_xpu == 64 and .params.pdl_window_size == 32 and
	 .params.pdl_retrans_time_out == 20000' superp -j dev show

# Round trip: what was added is what is shown.
check "conn add sunh lcid 1 (tclass, ordered both, a parameter)" \
	add lcid 1 rcid 2 encap sunh local 1 remote 2 tclass 3 ordered both pdl_window_size 64
check "conn add udp4 lcid 2 with a source port" \
	add lcid 2 rcid 7 encap udp4 local 10.23.0.1 remote 10.23.0.2 sport 5000 ordered rx
check "conn add udp6 lcid 3" add lcid 3 rcid 3 encap udp6 local fd00::1 remote fd00::2
# The device's implicit loopback connection (CID 65534) is listed too.
added='[.[] | select(.lcid != 65534)]'
check "conn show -j: three connections added" jq_true "$added | length == 3" superp -j conn show
check "... and the implicit loopback, CID 65534, last" jq_true \
	'length == 4 and .[3].lcid == 65534 and .[3].rcid == 65534 and
	 .[3].local == "127.0.0.1" and .[3].ordered == "both"' superp -j conn show
check "... lcid 1 as added, other parameters the device's" jq_true \
	'.[0] | .lcid == 1 and .rcid == 2 and .encap == "sunh" and .local == "1" and
	 .remote == "2" and .tclass == 3 and .ordered == "both" and .state == "up" and
	 .params.pdl_window_size == 64 and .params.tal_trans_window == 32' conn_show 1
check "... a derived source port in 49152..65535" jq_true \
	'.[0].sport >= 49152 and .[0].sport <= 65535' conn_show 1
check "... lcid 2: udp4 addresses, source port 5000, ordered rx" jq_true \
	'.[0] | .encap == "udp4" and .local == "10.23.0.1" and .remote == "10.23.0.2" and
	 .sport == 5000 and .ordered == "rx" and .rcid == 7' conn_show 2
check "... lcid 3: udp6 addresses" jq_true \
	'.[0] | .encap == "udp6" and .local == "fd00::1" and .remote == "fd00::2"' conn_show 3
check "... -s adds the engine's counters and events by name" jq_true \
	'.[0] | .stats.tx_new == 0 and .stats.rx_pkts == 0 and .events.conn_broken == 0 and
	 (.events | length) == 19' conn_show 1
check "... and dev show counts them" jq_true '.[0].connections == 3' superp -j dev show superp0
check "a reader without CAP_NET_ADMIN may show" \
	jq_true "$added | length == 3" setpriv --reuid 65534 --regid 65534 --clear-groups superp -j conn show

# Refusals: errno and message.
check "a CID in use: EEXIST" refused 'File exists \(local CID in use' sunh_conn 1
check "a CID not below pdl_conn_per_xpu (64): ERANGE" \
	refused 'Numerical result out of range \(local CID not below the device.s pdl_conn_per_xpu' \
	sunh_conn 64
check "a CID beyond 4095: ERANGE, named, with the range" \
	refused 'out of range \(integer out of range: lcid must be 0\.\.4095\)' sunh_conn 5000
check "a parameter out of its range: ERANGE, named, with the range" \
	refused 'out of range \(integer out of range: pdl_window_size must be 16\.\.1024\)' \
	sunh_conn 9 pdl_window_size 2000
check "inconsistent parameters: EINVAL naming them" \
	refused 'Invalid argument \(pdl_receive_win exceeds pdl_window_size' \
	sunh_conn 9 pdl_receive_win 64
check "pdl_conn_per_xpu per connection: EINVAL" \
	refused 'Invalid argument \(pdl_conn_per_xpu is a device setting' sunh_conn 9 pdl_conn_per_xpu 8
check "a multicast IPv4 address: EINVAL" refused 'Invalid argument \(IPv4 address is zero' \
	add lcid 9 rcid 9 encap udp4 local 224.0.0.1 remote 10.23.0.2
check "an unknown device: ENODEV" refused 'No such device \(no such superp device' \
	superp conn add dev superp9 lcid 9 rcid 9 encap sunh local 1 remote 2
ip link add rx0 type veth peer name rx1
ip link set rx0 up
if rdma link add rxe0 type rxe netdev rx0 2>/dev/null; then
	check "another driver's device (rxe0): ENODEV" refused 'No such device' \
		superp conn add dev rxe0 lcid 9 rcid 9 encap sunh local 1 remote 2
	rdma link delete rxe0
else
	skip "another driver's device (rxe0): ENODEV (no rxe)"
fi
ip link del rx0
check "without CAP_NET_ADMIN: EPERM" refused 'Operation not permitted' \
	setpriv --reuid 65534 --regid 65534 --clear-groups \
	superp conn add dev superp0 lcid 9 rcid 9 encap sunh local 1 remote 2
check "nothing was added by the refused requests" jq_true "$added | length == 3" superp -j conn show

# A namespace that may not see the device (rdma system netns exclusive;
# the mode changes only while no other namespace exists).
if rdma system set netns exclusive 2>/dev/null; then
	ip netns add cn1
	check "exclusive mode: another namespace sees no device" \
		jq_true 'length == 0' superp -n cn1 -j dev show
	check "... and cannot use it: ENODEV" refused 'No such device' \
		superp -n cn1 conn show dev superp0
	ip netns del cn1
	# The namespace goes away asynchronously.
	i=0
	until rdma system set netns shared 2>/dev/null || [ $i -ge 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
else
	skip "exclusive mode: another namespace sees no device (rdma system)"
	skip "... and cannot use it: ENODEV (rdma system)"
fi
ip netns add cn2
check "shared mode: another namespace sees superp0" \
	jq_true '.[0].dev == "superp0"' superp -n cn2 -j dev show
ip netns del cn2

# Device defaults: all or nothing.
check "dev set pdl_window_size 64 pdl_stretch_ack 8" \
	superp dev set superp0 pdl_window_size 64 pdl_stretch_ack 8
check "... shown by dev show" jq_true \
	'.[0].params.pdl_window_size == 64 and .[0].params.pdl_stretch_ack == 8' superp -j dev show superp0
check "... and taken by a new connection" sh -c 'superp conn add dev superp0 lcid 4 rcid 4 encap sunh local 1 remote 4 &&
	superp -j conn show dev superp0 lcid 4 | jq -e ".[0].params.pdl_window_size == 64" >/dev/null'
check "dev set out of range: ERANGE, named" \
	refused 'integer out of range: pdl_max_rtx must be 1\.\.8' superp dev set superp0 pdl_max_rtx 9
check "dev set inconsistent: EINVAL naming the relation" \
	refused 'Invalid argument \(pdl_stretch_ack exceeds pdl_window_size' \
	superp dev set superp0 pdl_max_rtx 2 pdl_stretch_ack 100
check "... and nothing of it applied" jq_true \
	'.[0].params.pdl_max_rtx == 4 and .[0].params.pdl_stretch_ack == 8' superp -j dev show superp0
check "pdl_conn_per_xpu while connections exist: EBUSY" \
	refused 'Device or resource busy \(pdl_conn_per_xpu changes only while' \
	superp dev set superp0 pdl_conn_per_xpu 128

# The device's connection memory budget.
mem_used() { superp -j dev show superp0 | jq '.[0].mem_used'; }
check "dev show: mem_limit 256 MiB by default, mem_used counts the connections" jq_true \
	'.[0].mem_limit == 268435456 and .[0].mem_used > 0' superp -j dev show superp0
used=$(mem_used)
check "dev set mem_limit to what is used ($used bytes)" superp dev set superp0 mem_limit "$used"
check "... one more connection: EDQUOT, named" \
	refused 'Disk quota exceeded \(connection memory budget of the device exhausted' sunh_conn 5
check "... the refusal charged nothing" jq_true ".[0].mem_used == $used and .[0].mem_limit == $used" \
	superp -j dev show superp0
check "dev set mem_limit 0 (no limit)" superp dev set superp0 mem_limit 0
check "... the connection is accepted" sunh_conn 5
check "... and deleting it gives its memory back" sh -c \
	"superp conn del dev superp0 lcid 5 && test \"\$(superp -j dev show superp0 | jq '.[0].mem_used')\" = $used"

# Shutdown, and the event it reports.
# No peer here: the Last NULL goes nowhere, so the soft shutdown of lcid 4
# starts and never ends (selftests/conn/wire.sh sees one end).
check "soft shutdown starts: state shutdown" sh -c \
	'superp conn shutdown dev superp0 lcid 4 soft &&
	 superp -j conn show dev superp0 lcid 4 | jq -e ".[0].state == \"shutdown\" or .[0].state == \"broken\"" >/dev/null'
check "soft shutdown again: EINVAL, not up" refused 'Invalid argument \(connection not up' \
	superp conn shutdown dev superp0 lcid 4 soft
superp monitor > /tmp/monitor 2>&1 &
mon=$!
# JSON, indented on request: a stream stays one compact object a line.
superp -j -p monitor > /tmp/monitor.json 2>&1 &
jmon=$!
sleep 1
check "hard shutdown" superp conn shutdown dev superp0 lcid 2 hard
sleep 1
kill "$mon" "$jmon"
wait "$mon" "$jmon" 2>/dev/null
check "... the connection is broken, conn_broken counted once" jq_true \
	'.[0].state == "broken" and .[0].events.conn_broken == 1' conn_show 2
check "... monitor printed conn_broken with ECONNRESET (104)" \
	grep -q '^superp0 lcid 2 event conn_broken ([0-9]*) value 104$' /tmp/monitor
check "... monitor -j -p: the same, one compact object a line, each one valid" sh -c \
	'grep -qx "{\"dev\":\"superp0\",\"lcid\":2,\"event\":\"conn_broken\",\"id\":[0-9]*,\"value\":104}" /tmp/monitor.json &&
	 while IFS= read -r l; do
		printf "%s\n" "$l" | jq -e "type == \"object\"" > /dev/null || { echo "$l"; exit 1; }
	 done < /tmp/monitor.json'
check "hard shutdown again: ENOTCONN" refused 'connection already broken' \
	superp conn shutdown dev superp0 lcid 2 hard
check "shutdown of no connection: ENOENT" refused 'No such file or directory \(no connection' \
	superp conn shutdown dev superp0 lcid 9 hard

# Delete.
check "conn del lcid 1" superp conn del dev superp0 lcid 1
check "... gone from conn show" jq_true 'map(.lcid) == [2, 3, 4, 65534]' superp -j conn show dev superp0
check "conn del lcid 1 again: ENOENT" refused 'No such file or directory \(no connection' \
	superp conn del dev superp0 lcid 1
for c in 2 3 4; do superp conn del dev superp0 lcid $c; done
check "with no connection left, pdl_conn_per_xpu 128 is accepted" \
	superp dev set superp0 pdl_conn_per_xpu 128
check "... and lcid 100 fits" sunh_conn 100

# The tools' JSON, escaped: a netdev whose name holds a quote and a
# backslash, as superp (dev show) and sunh (route show) name it.
odd='a"b\c'
# prints TEXT command...: the command's output is TEXT, exactly.
prints() {
	local want=$1 out
	shift
	out=$("$@") || return 1
	[ "$out" = "$want" ] || { printf 'got:  %s\nwant: %s\n' "$out" "$want"; return 1; }
}
check "a veth whose name holds a quote and a backslash" ip link add "$odd" type veth peer name esc1
check "rdma link add superp9 on it" rdma link add superp9 type superp netdev "$odd"
check "dev show -j: the netdev's name, escaped, read back exactly by jq" \
	prints "$odd" sh -c 'superp -j dev show superp9 | jq -r ".[0].netdev"'
check "dev set superp9 mem_limit 2^64-1" superp dev set superp9 mem_limit 18446744073709551615
check "... dev show -j writes it with all its digits, on one line" sh -c '
	out=$(superp -j dev show superp9) && [ "$(printf "%s\n" "$out" | wc -l)" = 1 ] &&
	printf "%s\n" "$out" | grep -q "\"mem_limit\":18446744073709551615,"'
check "dev show -j -p: indented, the same document" sh -c '
	a=$(superp -j -p dev show superp9) && b=$(superp -j dev show superp9) &&
	[ "$(printf "%s\n" "$a" | wc -l)" -gt 10 ] &&
	printf "%s\n" "$a" | grep -q "^    \"mem_limit\": 18446744073709551615,\$" &&
	[ "$(printf "%s\n" "$a" | jq -c .)" = "$(printf "%s\n" "$b" | jq -c .)" ]'
check "... -p without -j: the text" output_has '^superp9 index [0-9]+ netdev a"b\\c ' superp -p dev show superp9
check "rdma link delete superp9, the veth deleted" sh -c 'rdma link delete superp9 && ip link del "$1"' - "$odd"
ip netns add esc
check "sunh: in a namespace, that veth name, a subnet, a route through it" sh -c '
	ip -n esc link add "$1" type veth peer name esc2 &&
	sunh -n esc subnet set 10.99.0.0/16 &&
	sunh -n esc route add 5 dev "$1" lladdr 02:00:00:00:00:05' - "$odd"
check "route show -j: the device's name read back exactly by jq" \
	prints "$odd" sh -c 'sunh -n esc -j route show 5 | jq -r ".[0].dev"'
check "subnet show -j: one line, the subnet's / as is" \
	prints '{"subnet":"10.99.0.0/16","bits":12,"hoplimit":15,"forwarding":false,"learning":true,"ageing":300,"udpport":7777,"echorate":1000,"ethertype":34997}' \
	sunh -n esc -j subnet show
check "-s subnet show: the counters of stats follow the settings (text; -j -p: stats)" sh -c '
	sunh -n esc -s subnet show | grep -q "^rx_packets " &&
	sunh -n esc -j -p -s subnet show |
		jq -e ".subnet == \"10.99.0.0/16\" and (.stats | has(\"rx_packets\"))" >/dev/null'
ip netns del esc

# Teardown with connections installed.
sunh_conn 5 >/dev/null
check "rdma link delete superp0 with connections" rdma link delete superp0
check "rdma link add superp0 again: the implicit loopback alone, the spec's defaults" sh -c \
	'rdma link add superp0 type superp netdev eth0 &&
	 superp -j conn show | jq -e "length == 1 and .[0].lcid == 65534" >/dev/null &&
	 superp -j dev show superp0 | jq -e ".[0].params.pdl_conn_per_xpu == 64" >/dev/null'
for c in 1 2 3; do sunh_conn $c >/dev/null; done
check "rmmod ib_superp with connections installed" rmmod ib_superp
check "the family went with the module" refused 'family "superp" not found' superp dev show

tap_exit
