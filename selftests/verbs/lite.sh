#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SUPERp-lite connections between two guests (Documentation/superp-admin.rst,
# "SUPERp-lite connections"): each guest adds a lite connection toward the
# other (no PDL header on the wire, found by the peer's address), over SUNH,
# UDP/IPv4 and UDP/IPv6. `superp conn show` says lite; a second connection
# between the two nodes, or a lite one without tal_transaction_timeout, is
# refused with a message naming why. The kernel RC probe's steps
# (probes/superp_rc_probe.c, data verified) pass over it; nothing is
# retransmitted, nothing dropped, and the device's receive accounting
# identity holds. Then, over SUNH, netem loses SUPERp frames on both
# guests: the link breaks the promise a lite connection relies on, so the
# probe's transfers end in errors within a bound (no hang): a connection
# broke, by its transaction timer (its WRs completed with RETRY_EXC_ERR,
# "transport retry counter exceeded"; `superp monitor` printed conn_broken
# with ETIMEDOUT) or by a request packet out of sequence (lite_gap,
# conn_broken with EPIPE); no data check failed. Last, both sides
# delete the connection and add it again, and the probe's data steps pass
# once more.
# superp-topology: pair
# make check runs it on Debian's stock kernel (its runs are short); make
# soak on both, with larger messages.
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 600
# superp-capture: lite_capture
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

# The harness passes no environment into the guests: edit these defaults.
LITE_ENCAPS=${LITE_ENCAPS:-sunh udp4 udp6}
LITE_SIZE=${LITE_SIZE:-$(soak_or 1048576 65536)}	# largest message
# Under loss every wait of the probe ends within this (ms); the run within
# LITE_LOSS_BOUND_S.
LITE_LOSS_MS=${LITE_LOSS_MS:-2000}
LITE_LOSS_BOUND_S=${LITE_LOSS_BOUND_S:-$(soak_or 600 240)}
LITE_NETEM=${LITE_NETEM:-loss 10%}
# Marks on this test's frames, which lite_capture picks out of the boot's
# capture: UDP source port and SUNH flow label 4011, SUNH class 0x5c.
LITE_CONN="$LITE_CONN sport 4011 tclass 0x5c"

tap_begin

role=server
is_coordinator || role=client

lcid_of() { case $1 in sunh) echo 1 ;; udp4) echo 2 ;; udp6) echo 3 ;; esac; }

# refused TEXT CMD...: CMD fails and says TEXT.
refused() {
	local text=$1 out
	shift
	if out=$("$@" 2>&1); then
		echo "succeeded"
		return 1
	fi
	printf '%s\n' "$out" | grep -qF "$text" || { printf '%s\n' "$out"; return 1; }
}

# clean_counters LCID BEFORE: since BEFORE (hw's object), nothing was
# retransmitted and nothing SACKed (no PDL), and the connection dropped
# nothing it received.
clean_counters() {
	hw | jq -e --argjson b "$2" '
		.retrans_timer - $b.retrans_timer + .retrans_fast - $b.retrans_fast +
		.retrans_proactive - $b.retrans_proactive +
		.retrans_tail - $b.retrans_tail == 0 and
		.rx_sacks - $b.rx_sacks + .rx_nacks - $b.rx_nacks == 0' > /dev/null &&
		jq_true '.[0].stats.rx_dropped == 0 and .[0].stats.rx_pkts > 0' \
			conn_show "$1"
}

# bytes_both LCID NAME: the connection's tx_bytes and rx_bytes, quiet
# after the run, against the peer's: what one sent (from the TAL header,
# SUNH's zero padding included) is what the other received.
bytes_both() {
	local mine words theirs
	sleep 1
	mine=$(conn_show "$1" | jq -r '.[0].stats | "\(.tx_bytes):\(.rx_bytes)"')
	words=$(barrier_try "$2-bytes" 300 "$mine") ||
		{ not_ok "barrier $2-bytes: not every guest came"; return; }
	theirs=$(echo "$words" | awk -v i="$peer" '{ print $i }')
	check "$2: bytes received are the bytes the peer sent (tx:rx $mine, peer $theirs)" \
		test "${mine#*:}" = "${theirs%:*}"
}

# loss_run E: the probe under netem on both guests; bounded, then what
# each side saw.
loss_run() {
	local e=$1 lcid name="lite-$1-loss" log t0 rc secs state words mpid errno
	lcid=$(lcid_of "$e")
	log=/tmp/rc-$name.log
	superp monitor > "/tmp/lite-monitor-$e" 2>&1 &
	mpid=$!
	check "$name: netem $LITE_NETEM on eth0 (not TCP)" netem_on $LITE_NETEM
	echo "rc probe run $name" > /dev/kmsg
	barrier "$name-start"
	t0=$(date +%s)
	modprobe superp_rc_probe dev=superp0 role="$role" peer="$(guest_ip "$peer")" \
		size="$LITE_SIZE" tput_ms=0 error_steps=0 atomics="$PROBE_ATOMICS" \
		timeout_ms="$LITE_LOSS_MS"
	rc=$?
	[ $rc -eq 0 ] && rmmod superp_rc_probe
	secs=$(($(date +%s) - t0))
	dmesg | superp_probe_lines "$name" | sed -n 's/.*superp_rc_probe: //p' > "$log"
	sed 's/^/# /' "$log"
	check "$name: the run ended in $secs s, within $LITE_LOSS_BOUND_S s" \
		test "$secs" -le "$LITE_LOSS_BOUND_S"
	check "$name: netem removed" netem_off
	# A data step checks the bytes only after its completion succeeded
	# (packed-write and the atomics check what arrived whatever happened).
	check_fail "$name: no data step completed with wrong data" \
		grep -Eq '^(send|write|read)[^ ]* FAIL .*(wrong|written)' "$log"
	state=$(conn_state "$lcid")
	words=$(barrier_try "$name-states" 300 "$state") ||
		not_ok "barrier $name-states: not every guest came"
	tap_diag "$name: $role's connection $state; both: $words; modprobe $rc; $(conn_show "$lcid" | jq -c '.[0] | {events, stats: (.stats | {tx_new, rx_pkts, rx_processed, rx_dropped, rx_drop_broken})}')"
	case $words in
	*broken*) ok "$name: a connection broke (${words})" ;;
	*) not_ok "$name: no connection broke (${words}): netem lost nothing?" ;;
	esac
	if [ "$state" = broken ]; then
		check "$name: the probe failed (modprobe $rc)" test "$rc" -ne 0
		check "$name: conn_broken counted once, after trans_timeout or lite_gap" \
			jq_true '.[0].events | .conn_broken == 1 and
				.trans_timeout + .lite_gap == 1' conn_show "$lcid"
		if jq_true '.[0].events.trans_timeout == 1' conn_show "$lcid" > /dev/null; then
			check "$name: a WR completed with RETRY_EXC_ERR" \
				grep -q 'transport retry counter exceeded' "$log"
			errno=110
		else
			errno=32
		fi
		check "$name: monitor printed conn_broken with errno $errno" \
			grep -q "^superp0 lcid $lcid event conn_broken ([0-9]*) value $errno$" \
			"/tmp/lite-monitor-$e"
	fi
	kill "$mpid"
	wait "$mpid" 2> /dev/null
	check "$name: accounting identity holds" accounting_holds
}

for e in $LITE_ENCAPS; do
	lcid=$(lcid_of "$e")
	check "$e: set up superp0, lite connection ($LITE_CONN)" setup_lite "$e"
	check "$e: conn show says lite" jq_true \
		'.[0].lite == true and .[0].state == "up"' \
		superp -j conn show dev superp0 lcid "$lcid"
	if [ "$e" = sunh ]; then
		check "$e: a second connection between the nodes is refused" \
			refused "a lite connection joins these two nodes already" \
			superp conn add dev superp0 lcid 3 rcid 3 encap sunh \
			local "$me" remote "$peer" ordered both
		check "$e: a lite one without tal_transaction_timeout is refused" \
			refused "needs tal_transaction_timeout" \
			superp conn add dev superp0 lcid 3 encap udp4 \
			local "$(guest_ip "$me")" remote "$(guest_ip "$peer")" \
			ordered both lite tal_transaction_timeout 0
	fi
	before=$(objects superp0)
	pre=$(hw)
	probe "lite-$e" superp0 "$role" "$(guest_ip "$peer")" size="$LITE_SIZE" \
		tput_ms=0 atomics="$PROBE_ATOMICS" \
		gid_index="$(gid_index superp0 "$(lite_gid "$e")")"
	check "lite-$e: no retransmission, no SACK, nothing dropped" \
		clean_counters "$lcid" "$pre"
	check "lite-$e: accounting identity holds" accounting_holds
	check "lite-$e: rdma resource show superp0 as before ($before)" \
		objects_back superp0 "$before"
	bytes_both "$lcid" "lite-$e"
	if [ "$e" = sunh ]; then
		loss_run "$e"
		check "lite-$e: rdma resource show superp0 as before ($before)" \
			objects_back superp0 "$before"
		# shellcheck disable=SC2046,SC2086 # whole words
		{
			barrier "lite-$e-del"
			check "lite-$e: conn del" superp conn del dev superp0 lcid "$lcid"
			barrier "lite-$e-add"
			check "lite-$e: conn add again" superp conn add dev superp0 \
				$(lite_args "$e") $LITE_CONN
			barrier "lite-$e-added"
		}
		flows_again "lite-$e-again"
	fi
	check "$e: tear down superp0" teardown_lite "$e"
	barrier "lite-$e-gone"
done
tap_exit
