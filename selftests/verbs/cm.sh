#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdma_cm between two guests over ib_superp: the IB core's MAD layer
# (QP1, ib_superp's GSI QP: UD datagrams) carries the CM's connection
# setup, so librdmacm's programs work unmodified: rping (RC, its data
# checked with -V), ucmatose (RC) and udaddy (UD QPs through RDMA_PS_UDP).
# Once over a SUNH connection and once over a UDP/IPv4 one, as the RC
# tests set them up (selftests/verbs/rc.inc); the RC QPs that rdma_cm
# makes bind to that connection like hand-made ones. While rping runs,
# `rdma resource show cm_id` lists it; afterwards only the core's QP1
# (and its PD and CQ) is left on superp0, and the receive accounting
# identity holds with the MADs counted as datagrams.
# superp-topology: pair
# superp-kernel: stock
# superp-timeout: 600
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

# The harness passes no environment into the guests: edit these defaults.
CM_DEVS=${CM_DEVS:-superp_sunh superp_udp4}
CM_PINGS=${CM_PINGS:-$(soak_or 1000 100)}
CM_TIMEOUT=${CM_TIMEOUT:-120}	# seconds per run

tap_begin

# cm_run NAME SECS LOG SERVER-ARGS -- CLIENT-ARGS: a librdmacm program as
# a server on guest 1 and its client on guest 2; rdma_cm servers do not
# listen on TCP, so the client starts once the server's cm_id is listed.
cm_run() {
	local name=$1 secs=$2 log=$3 prog=$4 i
	shift 4
	if is_coordinator; then
		timeout "$secs" "$prog" "$@" > "$log" 2>&1 &
		i=0
		until rdma resource show cm_id 2>/dev/null | grep -q LISTEN; do
			i=$((i + 1))
			[ $i -lt 100 ] || break
			sleep 0.1
		done
		barrier "$name"
		wait $!
	else
		barrier "$name"
		timeout "$secs" "$prog" "$@" > "$log" 2>&1
	fi
}

# A listening cm_id shows in rdma resource show while rping serves.
cm_id_listed() { rdma resource show cm_id | grep -q "dev superp0.*LISTEN"; }
# Datagrams went both ways: the MADs of the CM, the datagrams of udaddy.
datagrams_went() { hw | jq -e '.rx_datagrams > 0 and .tx_datagrams > 0' > /dev/null; }

for d in $CM_DEVS; do
	check "$d: set up superp0" "setup_$d"
	before=$(objects superp0)
	check "$d: the core's QP1 is superp0's only QP ($before)" \
		sh -c "echo '$before' | grep -q 'qp 1 '"

	log=/tmp/cm-rping-$d.log
	if is_coordinator; then
		cm_run "cm-$d-rping" "$CM_TIMEOUT" "$log" rping -s -V \
			-a "$(guest_ip "$me")" -C "$CM_PINGS" &
		sleep 1
		check "$d: rping's cm_id listed while it listens" retry 20 0.2 cm_id_listed
		wait $!
	else
		cm_run "cm-$d-rping" "$CM_TIMEOUT" "$log" rping -c -V -v \
			-a "$(guest_ip "$peer")" -C "$CM_PINGS"
	fi
	rc=$?
	tail -3 "$log" | sed 's/^/# /'
	check "$d: rping -C $CM_PINGS -V exits 0" test "$rc" -eq 0
	if ! is_coordinator; then
		check "$d: rping -v printed $CM_PINGS pings" \
			test "$(grep -c '^ping data: rdma-ping-' "$log")" -eq "$CM_PINGS"
	fi

	log=/tmp/cm-ucmatose-$d.log
	if is_coordinator; then
		cm_run "cm-$d-ucmatose" "$CM_TIMEOUT" "$log" ucmatose -c 4 -C 20
	else
		cm_run "cm-$d-ucmatose" "$CM_TIMEOUT" "$log" ucmatose -c 4 -C 20 \
			-s "$(guest_ip "$peer")"
	fi
	rc=$?
	tail -3 "$log" | sed 's/^/# /'
	check "$d: ucmatose (4 connections, 20 messages each) exits 0" test "$rc" -eq 0

	log=/tmp/cm-udaddy-$d.log
	if is_coordinator; then
		cm_run "cm-$d-udaddy" "$CM_TIMEOUT" "$log" udaddy -c 4 -C 20
	else
		cm_run "cm-$d-udaddy" "$CM_TIMEOUT" "$log" udaddy -c 4 -C 20 \
			-s "$(guest_ip "$peer")"
	fi
	rc=$?
	tail -3 "$log" | sed 's/^/# /'
	check "$d: udaddy (4 UD QPs, 20 datagrams each) exits 0" test "$rc" -eq 0

	check "$d: rdma resource show superp0 as before ($before)" \
		objects_back superp0 "$before"
	check "$d: MADs went as datagrams" datagrams_went
	barrier "cm-$d-done"
	check "$d: the receive accounting identity holds" accounting_holds
	tap_diag "$d: $(hw)"
	check "$d: tear down superp0" "teardown_$d"
done
tap_exit
