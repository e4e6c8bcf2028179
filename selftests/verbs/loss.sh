#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The loss matrix: the kernel RC probe (probes/superp_rc_probe.c: SENDs,
# WRITEs, READs and atomics, data verified by the probe) between two
# guests on ib_superp over SUNH and over UDP/IPv4, once clean and once
# under each netem case on both guests' eth0 (so both directions suffer;
# TCP, the tests' control traffic, passes beside it: rc.inc netem_on):
# loss 0.1%, 1%, 10%, 30%, reordering 25%, duplication 1%, corruption
# 0.1% (UDP/IPv4 only: SUNH has no payload check, see
# Documentation/superp-rc.rst), delay 5 ms with 2 ms jitter, and a 5 s
# outage (netem loss 100% on both guests) in the middle of a WRITE run.
# Every case: the probe passes within its bound, the device's receive
# accounting identity holds, no QP, CQ, MR or PD is left. A summary line
# per case (goodput against the clean run, retransmissions per packet
# netem dropped, the time from the end of the outage to the first
# progress) goes to TAP and to the console (dmesg, "superp-loss:").
# superp-topology: pair
# make check runs it on Debian's stock kernel, make soak on both: under
# the debug kernel its runs take several times as long, and rc.sh runs
# the same recovery (netem loss, reordering, duplication) there.
# superp-kernel: stock
# superp-boot: 2
# superp-soak-kernel: both
# make check runs seven cases over SUNH (not 0.1% loss, where netem drops
# next to nothing in a short run, nor jitter, which the reordering case
# covers) and three over UDP/IPv4 (1% loss, corruption and the outage)
# with messages up to 64 KiB, 200 ms
# throughput figures and 100 FADDs; make soak every case on both with
# 1 MiB, 2 s and 1000.
# superp-timeout: 900
# superp-soak-timeout: 3600
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

# The harness passes no environment into the guests: edit these defaults.
LOSS_ENCAPS=${LOSS_ENCAPS:-superp_sunh superp_udp4}
LOSS_CASES=${LOSS_CASES:-loss0.1 loss1 loss10 loss30 reorder dup corrupt jitter outage}
# The cases an encapsulation runs, when not all of LOSS_CASES.
LOSS_CASES_superp_sunh=${LOSS_CASES_superp_sunh:-$(soak_or "$LOSS_CASES" "loss1 loss10 loss30 reorder dup corrupt outage")}
LOSS_CASES_superp_udp4=${LOSS_CASES_superp_udp4:-$(soak_or "$LOSS_CASES" "loss1 corrupt outage")}
LOSS_SIZE=${LOSS_SIZE:-$(soak_or 1048576 65536)}	# largest message
LOSS_TPUT_MS=${LOSS_TPUT_MS:-$(soak_or 2000 200)}	# per throughput figure
LOSS_ATOMICS=${LOSS_ATOMICS:-$(soak_or 1000 100)}	# FETCH_AND_ADDs (30% loss: a tenth)
LOSS_OUTAGE_S=${LOSS_OUTAGE_S:-5}
# Every case, the probe's waits included, ends within this (ms).
LOSS_TIMEOUT_MS=${LOSS_TIMEOUT_MS:-$(soak_or 180000 60000)}
# Cases that need a payload check the encapsulation lacks (see above).
LOSS_SKIP_superp_sunh=${LOSS_SKIP_superp_sunh:-corrupt}

tap_begin

# netem_of CASE: its netem arguments (tc-netem(8); reordering needs a
# delay, else every frame leaves at once). The outage starts with none.
netem_of() {
	case $1 in
	loss*) echo "loss ${1#loss}%" ;;
	reorder) echo "delay 1ms reorder 25% gap 5" ;;
	dup) echo "duplicate 1%" ;;
	corrupt) echo "corrupt 0.1%" ;;
	jitter) echo "delay 5ms 2ms" ;;
	outage) echo "loss 0%" ;;
	esac
}
# The connection is $superp_slow (rc.inc): pdl_max_rtx 8 (the most,
# default 4), a 200 ms RTO. At the defaults (20 ms, 4) a connection breaks
# after 620 ms of silence. 30% loss and the outage need more: the backoff
# of a 200 ms RTO leaves up to 12.8 s between retransmissions, past the
# 10 s tal_transaction_timeout (the first runs broke there, both). A 50 ms
# RTO retransmits within 3.2 s of the link's return and breaks the
# connection after 12.75 s of silence; the transactions may take 30 s.
LOSS_HARD=${LOSS_HARD:-loss30 outage}
LOSS_HARD_CONN=${LOSS_HARD_CONN:-ordered both pdl_retrans_time_out 50000 pdl_max_rtx 8 tal_transaction_timeout 3000000000}
# The corrupt case runs on a connection whose UDP source port is the mark
# of crafted frames (2989, selftests/conn/wire_capture): the damaged
# frames are not counted as ones our kernels sent (netem flips one bit:
# one in the port leaves the IP or UDP header inconsistent, which the
# capture check leaves out too).
LOSS_MARKED_CONN="$superp_slow sport 2989"
hard() { case " $LOSS_HARD " in *" $1 "*) return 0 ;; esac; return 1; }
# special_conn CASE: the settings CASE runs its connection with, if not
# rc.inc's.
special_conn() {
	if hard "$1"; then
		echo "$LOSS_HARD_CONN"
	elif [ "$1" = corrupt ]; then
		echo "$LOSS_MARKED_CONN"
	fi
}
atomics_of() {
	case $1 in
	loss30) echo $((LOSS_ATOMICS / 10)) ;;
	*) echo "$LOSS_ATOMICS" ;;
	esac
}
# conn_of D: the connection rc.inc's setup_D adds, without its settings.
conn_of() {
	case $1 in
	superp_sunh) echo "lcid 1 rcid 1 encap sunh local $me remote $peer" ;;
	superp_udp4) echo "lcid 2 rcid 2 encap udp4 local $(guest_ip "$me") remote $(guest_ip "$peer")" ;;
	esac
}
# reconnect D NAME SETTINGS...: both sides replace the connection of D by
# one with SETTINGS (there is no "conn set"); nothing is bound to it now.
reconnect() {
	local d=$1 name=$2 args
	shift 2
	args=$(conn_of "$d")
	barrier "loss-$name-del"
	# shellcheck disable=SC2086 # whole words
	superp conn del dev superp0 ${args%% rcid*} > /dev/null 2>&1
	barrier "loss-$name-add"
	# shellcheck disable=SC2086 # whole words
	superp conn add dev superp0 $args "$@"
}

role=server
is_coordinator || role=client

# hw: superp0's counters, one JSON object.
retrans() { jq '.retrans_timer + .retrans_fast + .retrans_proactive + .retrans_tail'; }
# tput_of LOG: the probe's WRITE throughput at the largest size, MB/s.
tput_of() {
	sed -n 's/^tput-[0-9]*[KM] ok \([0-9.]*\) MB\/s.*/\1/p' "$1" | tail -1
}

# outage NAME: once this side's probe run NAME has passed tput-64 (both
# sides print it together, as the next WRITE run starts), lose every frame
# both ways for LOSS_OUTAGE_S; then the ms until rx_processed moves.
# (Polled: a read of the counters takes up to a second in the debug guest.
# The count before is read during the outage, not after it: that read
# once stretched a 5 s outage to 9 to 14 s.)
rx_moved() { [ "$(hw | jq .rx_processed)" != "$rx_before" ]; }
outage() {
	local t0 spid
	within "$LOSS_TIMEOUT_MS" 0.1 probe_said "$1" "tput-64 " ||
		{ echo "never reached tput-64"; return 1; }
	netem_set loss 100% || return 1
	sleep "$LOSS_OUTAGE_S" &
	spid=$!
	sleep 0.5	# what was on the wire has arrived
	rx_before=$(hw | jq .rx_processed)
	wait "$spid"
	netem_set loss 0% || return 1
	t0=$(now_ms)
	within 60000 0.05 rx_moved || { echo "no progress in 60 s"; return 1; }
	echo "$(($(now_ms) - t0))"
}

# run_case D CASE: one probe run on encapsulation D under CASE ("clean":
# no netem); its checks and summary line.
run_case() {
	local d=$1 c=$2 name="$1-$2" pre post drops rtx t0 secs tp base line opid=
	if [ "$c" != clean ]; then
		# shellcheck disable=SC2046 # netem_of gives whole words
		check "$name: netem $(netem_of "$c") on eth0 (not TCP)" \
			netem_on $(netem_of "$c")
	fi
	if [ -n "$(special_conn "$c")" ]; then
		# shellcheck disable=SC2046 # whole words
		check "$name: connection with $(special_conn "$c")" \
			reconnect "$d" "$name" $(special_conn "$c")
	fi
	pre=$(hw)
	if [ "$c" = outage ]; then
		outage "$name" > "/tmp/loss-$name.outage" 2>&1 &
		opid=$!
	fi
	t0=$(date +%s)
	probe "$name" superp0 "$role" "$(guest_ip "$peer")" size="$LOSS_SIZE" \
		tput_ms="$LOSS_TPUT_MS" atomics="$(atomics_of "$c")" \
		timeout_ms="$LOSS_TIMEOUT_MS"
	secs=$(($(date +%s) - t0))
	# The bound: every wait of the probe is bounded by timeout_ms; the
	# whole case by the same twice over (the harness's timeout is the last
	# resort, this names the case).
	check "$name: done in $secs s, within $((LOSS_TIMEOUT_MS / 500)) s" \
		test "$secs" -le $((LOSS_TIMEOUT_MS / 500))
	drops=0
	[ "$c" != clean ] && drops=$(netem_drops)
	if [ -n "$opid" ]; then
		# Not inside check: its command runs in a subshell.
		wait "$opid"
		check "$name: $LOSS_OUTAGE_S s outage mid-transfer, then recovery ($(tr '\n' ' ' < "/tmp/loss-$name.outage"))" \
			test $? -eq 0
	fi
	[ "$c" != clean ] && check "$name: netem removed" netem_off
	check "$name: accounting identity holds" accounting_holds
	check "$name: rdma resource show: nothing left" nothing_left superp0
	post=$(hw)
	rtx=$(($(echo "$post" | retrans) - $(echo "$pre" | retrans)))
	line="$name $role: $secs s; netem dropped $drops, retransmitted $rtx"
	[ "$drops" -gt 0 ] &&
		line="$line ($(echo "$rtx $drops" | awk '{ printf "%.2f", $1 / $2 }') per dropped packet)"
	tp=$(tput_of "/tmp/rc-$name.log")
	if [ "$role" = client ] && [ -n "$tp" ]; then
		base=$(tput_of "/tmp/rc-$d-clean.log")
		line="$line; goodput $tp MB/s"
		[ -n "$base" ] && [ "$c" != clean ] &&
			line="$line, $(echo "$tp $base" | awk '{ printf "%.2f", ($2 > 0 ? $1 / $2 : 0) }') of clean ($base MB/s)"
	fi
	[ "$c" = outage ] &&
		line="$line; first progress $(tail -1 "/tmp/loss-$name.outage") ms after the outage"
	tap_diag "summary $line"
	echo "superp-loss: $line" > /dev/kmsg
	if [ -n "$(special_conn "$c")" ]; then
		# shellcheck disable=SC2086 # whole words
		check "$name: connection back to $superp_slow" \
			reconnect "$d" "$name-back" $superp_slow
	fi
}

skipped() { # D CASE
	eval "case \" \$LOSS_SKIP_$1 \" in *\" $2 \"*) return 0 ;; esac"
	return 1
}

for d in $LOSS_ENCAPS; do
	check "$d: set up superp0" "setup_$d"
	run_case "$d" clean
	for c in $(eval echo "\${LOSS_CASES_$d:-\$LOSS_CASES}"); do
		if skipped "$d" "$c"; then
			tap_diag "$d-$c: not run (LOSS_SKIP_$d at the top of this file says why)"
			continue
		fi
		run_case "$d" "$c"
	done
	check "$d: tear down superp0" "teardown_$d"
	barrier "loss-$d-gone"
done
tap_exit
