#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One guest reboots mid-transfer and the pair recovers, on
# ib_superp over a SUNH connection with the kernel RC probe
# (probes/superp_rc_probe.c). Guest 2 (the client) restarts at once
# (guest_reboot: SysRq b) while its WRITEs stream into guest 1 (the survivor, which coordinates the
# barriers and keeps its state); the harness boots it again and this test
# resumes there (guest_reboot, selftests/lib.sh):
#   cut       the survivor's probe run ends in failed steps within a bound,
#             no step found wrong data, and its objects are as before;
#   stale     the rebooted guest sets superp0 up again while the survivor
#             still holds the old connection: the new connection's first
#             transaction (a No-op) must not complete, since the survivor
#             answers with acknowledgements of PSNs the new incarnation
#             never sent (the hello handshake, Documentation/
#             superp-engine.rst, "A peer that lost its state"): the new
#             connection breaks after its retransmission budget, and the
#             survivor delivers nothing of it;
#   recover   both ends delete and add the connection, as the spec's
#             connection manager would, and verified traffic flows again.
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 600
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))
role=server
is_coordinator || role=client

# The cut run: throughput figures long enough for the reboot to land in
# one, and the survivor's limit for each wait on its vanished peer (its
# steps before the cut wait a second or two; at 30 s the survivor, not
# the reboot, was what the stale step waited for).
RB_TPUT_MS=20000
RB_WAIT_MS=12000
RB_CUT_SECS=120

rb_sunh="encap sunh local $me remote $peer"

# rb_cut_server: the survivor's side of the cut run (its steps are to
# fail, so their lines are diagnostics); sets RB_RC and RB_SECS.
rb_cut_server() {
	local t0
	t0=$(date +%s)
	modprobe superp_rc_probe dev=superp0 role=server peer="$(guest_ip "$peer")" \
		size=1048576 tput_ms="$RB_TPUT_MS" timeout_ms="$RB_WAIT_MS"
	RB_RC=$?
	RB_SECS=$(($(date +%s) - t0))
	[ $RB_RC -eq 0 ] && rmmod superp_rc_probe
	dmesg | superp_probe_lines cut | sed -n 's/.*superp_rc_probe: //p' > /tmp/rc-cut.log
	while read -r line; do
		tap_diag "cut server: $line"
	done < /tmp/rc-cut.log
}
if ! guest_resumed; then
	tap_begin
	check "set up superp0 over SUNH" setup_superp_sunh
	# Traffic first: the survivor's connection is far past PSN 0.
	probe before superp0 "$role" "$(guest_ip "$peer")" size=65536 tput_ms=0 error_steps=0 \
		atomics="$PROBE_ATOMICS"
	before=$(objects superp0)
	echo "rc probe run cut" > /dev/kmsg
	barrier rc-cut-start
	if [ "$role" = client ]; then
		modprobe superp_rc_probe dev=superp0 role=client \
			peer="$(guest_ip "$peer")" size=1048576 \
			tput_ms="$RB_TPUT_MS" timeout_ms="$RB_WAIT_MS" &
		check "cut client: WRITEs streaming (tput-64 began)" \
			probe_at_step cut packed-write 120
		guest_reboot
	fi
	rb_cut_server
	check "cut server: the run failed within $RB_CUT_SECS s ($RB_SECS s)" \
		cut_failed /tmp/rc-cut.log "$RB_RC" "$RB_SECS" "$RB_CUT_SECS"
	check_fail "cut server: no step found wrong data" grep -E ' FAIL .*wrong' /tmp/rc-cut.log
	check "cut server: rdma resource show superp0 as before ($before)" \
		objects_back superp0 "$before"
	check "stale server: the old connection still up" test "$(conn_state 1)" = up
	delivered=$(conn_show 1 | jq '.[0].stats.delivered')
	stale=$(conn_show 1 | jq '.[0].stats | .rx_dup + .rx_drop_psn_window')
else
	# A short retransmission budget (200 ms x (1 + 2 + 4 + 8), 3 s) for
	# the connection that is to break; re-added with the usual one.
	superp_usual=$superp_slow
	superp_slow="ordered both pdl_retrans_time_out 200000 pdl_max_rtx 3"
	check "rebooted: set up superp0 over SUNH again" setup_superp_sunh
	superp_slow=$superp_usual
fi
barrier reboot-back

if [ "$role" = client ]; then
	check_fail "stale client: a No-op on the new connection does not complete" \
		nulls 1 1 30000
	check "stale client: the new connection broke" wait_state 1 broken 10
	check "stale client: the survivor's ACKs were out of its window" jq_true \
		'.[0].stats.rx_drop_ack_window > 0' conn_show 1
fi
barrier stale-done
if [ "$role" = server ]; then
	tap_diag "stale server: $(conn_show 1 | jq -c '.[0].stats')"
	check "stale server: the new incarnation's packets arrived, taken for old ones" jq_true \
		".[0].stats | .rx_dup + .rx_drop_psn_window > $stale" conn_show 1
	check "stale server: nothing of the new incarnation delivered ($delivered)" jq_true \
		".[0].stats.delivered == $delivered" conn_show 1
fi

conn_readd recover 1 $rb_sunh $superp_slow
flows_again recover-again
check "tear down superp0" teardown_superp_sunh
barrier reboot-end
tap_exit
