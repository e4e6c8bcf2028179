#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# RC queue pairs between two guests through kernel verbs only
# (probes/superp_rc_probe.c): SEND/RECV and SEND_WITH_IMM, RDMA WRITE and
# WRITE_WITH_IMM checked by the server, RDMA READ checked by the client,
# completions in posted order, small WRITEs posted as one list (ib_superp
# packs them; one of them refused), one SEND of RC_BIG_MB MiB on ib_superp
# over SUNH, atomics (compare-and-swap, RC_ATOMICS
# fetch-and-adds, an unaligned one and one through an MR without remote
# atomic access failing), a wrong rkey failing with
# IB_WC_REM_ACCESS_ERR and flushing what follows, WRITE throughput as a
# figure, and the same on several QP pairs; receiver not ready (SENDs
# before their receives, another QP going on meanwhile, rnr_retry 0,
# destroy during the wait); then again under netem (loss,
# reordering, duplication on both guests; the device's counters are
# shown: over SUNH in make check, over UDP/IPv4 too in make soak), and the
# probe's error paths once (unknown device, no server); then,
# on ib_superp over SUNH and UDP/IPv4, the peer goes while WRITEs run
# (its device deleted with rdma link delete, or rmmod ib_superp): the
# probe's peer-gone step bounds everything by the connection's
# retransmission budget, and no object is left behind. On ib_superp
# over SUNH, 16 QP pairs stream WRITEs over a connection of their own
# with a small window, beside 16 idle ones, and must share it fairly
# (fair-share). Guest 1
# loads the probe as server, guest 2 as client; each turns the probe's
# step lines into TAP.
# For every provider in RC_DEVS: rxe (soft-RoCE, the reference the probe
# is proven on; under make soak only: it tests rxe, not this project), then
# ib_superp over a SUNH connection (superp_sunh), over
# a UDP/IPv4 one (superp_udp4) and over a UDP/IPv6 one (superp_udp6, clean
# only: the probe's QPs use the RoCE v2 GID of our IPv6 address).
# On UDP/IPv4 and UDP/IPv6, a burst of WRITEs into a device queue too
# short for it: every packet the client's qdisc drops is reported back as
# busy (the rdma statistic tx_busy), none is lost, the data arrives.
# superp-topology: pair
# superp-kernel: test
# superp-timeout: 900
# superp-soak-timeout: 1500
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

# The harness passes no environment into the guests: edit these defaults.
RC_DEVS=${RC_DEVS:-$(soak_or rxe) superp_sunh superp_udp4 superp_udp6}
# No netem run for these. make check runs netem over SUNH only: the
# recovery is the engine's, the same for every encapsulation, and
# loss.sh runs it over UDP/IPv4 too (on the stock kernel in make check);
# make soak runs it over UDP/IPv4 here as well.
RC_CLEAN_ONLY=${RC_CLEAN_ONLY:-$(soak_or superp_udp6 "superp_udp4 superp_udp6")}
RC_SIZE=${RC_SIZE:-1048576}		# largest message, clean run
# One SEND, one WRITE and one READ of this many MiB, vmalloc memory on
# both guests (probe big_mb; the WRITE and READ through a global rkey),
# in the clean run of these: the largest message the 1 GiB guests of
# the test kernel hold comfortably beside everything else. The debug
# kernel under TCG moves each at a few MB/s: about a minute and a half
# for 256 MiB, make soak's size; make check moves 8 MiB (eight times
# the clean run's largest message, 2,000 packets each way).
RC_BIG_MB=${RC_BIG_MB:-$(soak_or 256 8)}
RC_BIG_DEVS=${RC_BIG_DEVS:-superp_sunh}
RC_QPS=${RC_QPS:-2}
# FETCH_AND_ADDs of a clean run, one round trip each: 4 to 11 ms apiece
# between debug guests, so make check's 200 (the same steps, every 8th
# signalled, the originals checked) save a quarter of a minute.
RC_ATOMICS=${RC_ATOMICS:-$(soak_or 1000 200)}
RC_TPUT_MS=${RC_TPUT_MS:-$(soak_or 2000 500)}	# per throughput figure
RC_LOSSY_SIZE=${RC_LOSSY_SIZE:-65536}	# largest message under netem
RC_LOSSY_TPUT_MS=${RC_LOSSY_TPUT_MS:-500}
RC_LOSSY_ATOMICS=${RC_LOSSY_ATOMICS:-300}	# FETCH_AND_ADDs under netem
# fair-share: RC_FAIR_QPS QP pairs stream WRITEs (one transaction each)
# over a connection of their own, lcid 9 with tclass 32 (the probe's
# tclass puts them there), whose XID window of RC_FAIR_WINDOW transactions
# they share; RC_FAIR_IDLE more QP pairs, bound after them, post nothing.
# Taking turns a transaction each, every QP that streams has about
# window / QPs transactions in flight, and the WRs completed by two of
# them differ by at most two such shares (one for the turns: a post that
# finds room submits ahead of them, up to a round early; one for what is
# in flight) plus the WR just counted. Before the round robin, the QP
# after the idle ones took nearly every freed slot.
RC_FAIR_DEVS=${RC_FAIR_DEVS:-superp_sunh}
RC_FAIR_QPS=${RC_FAIR_QPS:-16}
RC_FAIR_IDLE=${RC_FAIR_IDLE:-16}
RC_FAIR_WINDOW=${RC_FAIR_WINDOW:-16}
RC_FAIR_SPREAD=$((2 * ((RC_FAIR_WINDOW + RC_FAIR_QPS - 1) / RC_FAIR_QPS) + 1))
# tc-netem(8): reordering needs a delay, else every frame leaves at once.
RC_NETEM=${RC_NETEM:-delay 1ms loss 1% reorder 25% gap 5 duplicate 1%}
RC_BURST_DEVS=${RC_BURST_DEVS:-superp_udp4 superp_udp6}
# The burst: WRITEs posted as one list (probe burst=, at most 64) of
# RC_BURST_SIZE bytes in all, into a queue of RC_BURST_QUEUE.
RC_BURST_WRS=${RC_BURST_WRS:-32}
RC_BURST_SIZE=${RC_BURST_SIZE:-131072}
RC_BURST_QUEUE=${RC_BURST_QUEUE:-rate 2mbit limit 4}

tap_begin

# UDP/IPv6: our address (ip6_of, rc.inc) and its GID.
setup_superp_udp6() {
	ip6_add &&
		setup_superp_common &&
		superp conn add dev superp0 lcid 3 rcid 3 encap udp6 \
			local "$(ip6_of "$me")" remote "$(ip6_of "$peer")" $superp_slow &&
		wait_gid_of superp0 "$(gid6_of "$me")"
}
teardown_superp_udp6() {
	teardown_superp && ip6_del
}

# probe_args D: what the probe needs beyond the defaults for provider D.
# rxe-netem: rxe sends a NAK once, so a refused request may also end in
# RETRY_EXC_ERR (the probe's lossy_naks); ib_superp's NAKs are reliable.
probe_args() {
	case $1 in
	superp_udp6) echo "gid_index=$(gid_index superp0 "$(gid6_of "$me")")" ;;
	rxe-netem) echo "lossy_naks=1" ;;
	esac
}
fair_dev() { case " $RC_FAIR_DEVS " in *" $1 "*) return 0 ;; esac; return 1; }
clean_only() { case " $RC_CLEAN_ONLY " in *" $1 "*) return 0 ;; esac; return 1; }
big_args() { case " $RC_BIG_DEVS " in *" $1 "*) echo "big_mb=$RC_BIG_MB" ;; esac; }

ibdev() { case $1 in rxe) echo rxe0 ;; *) echo superp0 ;; esac; }

# Guest 1 serves, guest 2 is the client.
role=server
is_coordinator || role=client

# rdma statistic -j of a superp device: one object per port with the
# counters as members; every packet has 24 bytes of headers or more. $2:
# "refused" also wants the probe's refusals counted (bad-rkey and the
# atomics' Transaction Errors, rnr-send's RNR: the server sends them, the
# client receives them); "retrans" wants a retransmission and SACKs or
# NACKs from the side that sent the data since the counters of file $3
# (hw's object, rc.inc; the netem run: 1000 new packets or more there, at 1% loss it loses
# about ten; the other side sends little and may lose none, whatever its
# clean run's 256 MiB sent before). Only superp devices are checked:
# rxe's counters have other names.
hw_stats_ok() {
	rdma statistic show link "$1/1" -j |
		jq -e --arg m "${2:-}" --slurpfile base "${3:-/dev/null}" '.[0] |
		($base[0] // {}) as $b | def d(k): .[k] - ($b[k] // 0);
		d("tx_new_packets") as $sent |
		(d("retrans_timer") + d("retrans_fast") + d("retrans_proactive") +
		 d("retrans_tail")) as $rtx |
		(d("rx_sacks") + d("rx_nacks")) as $repairs |
		.tx_packets > 0 and .rx_packets > 0 and
		.tx_packets >= .tx_new_packets and
		.tx_bytes >= 24 * .tx_new_packets and
		.rx_bytes >= 24 * .rx_processed and
		($m != "refused" or
		 ((.tx_trans_errors + .rx_trans_errors) > 0 and
		  (.tx_rnr_naks + .rx_rnr_naks) > 0)) and
		($m != "packed" or .packed_ops > 0) and
		($m != "retrans" or $sent < 1000 or ($rtx > 0 and $repairs > 0))'
}


# The burst's queue, on the client only: SUPERp's UDP packets (port 7777,
# IPv4 and IPv6) go to a netem that sends at 2 Mbit/s and holds 4 of
# them, where a connection's window (32 packets) overflows it at once
# (a 4 KiB packet leaves every 16 ms: a debug guest under TCG builds them
# faster; at 10 Mbit/s it did not, and the queue never filled); the rest
# (the tests' TCP, ARP, neighbour discovery) passes beside it.
# A full netem queue refuses a packet with NET_XMIT_DROP: the drops it
# counts are SUPERp packets the netdev refused, nothing else.
# shellcheck disable=SC2086 # RC_BURST_QUEUE is netem's arguments
burst_queue_on() {
	tc qdisc add dev eth0 root handle 1: prio bands 2 \
		priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 &&
		tc qdisc add dev eth0 parent 1:2 handle 20: netem $RC_BURST_QUEUE &&
		tc filter add dev eth0 parent 1: protocol ip prio 1 u32 \
			match ip protocol 17 0xff match ip dport 7777 0xffff flowid 1:2 &&
		tc filter add dev eth0 parent 1: protocol ipv6 prio 2 u32 \
			match ip6 protocol 17 0xff match ip6 dport 7777 0xffff flowid 1:2
}

# burst_delta BEFORE DROPS: what the burst changed in the counters since
# file BEFORE (hw's object), with the queue's DROPS, as one JSON object.
burst_delta() {
	hw | jq -c --slurpfile base "$1" --argjson drops "$2" '
		$base[0] as $b | def d(k): .[k] - $b[k];
		{drops: $drops, tx_busy: d("tx_busy"), tx_errors: d("tx_errors"),
		 tx_new_packets: d("tx_new_packets"), rx_sacks: d("rx_sacks"),
		 rx_nacks: d("rx_nacks"), retrans_fast: d("retrans_fast"),
		 retrans_timer: d("retrans_timer"),
		 retrans_proactive: d("retrans_proactive"),
		 retrans_tail: d("retrans_tail")}'
}
# burst_ok DELTA: the queue dropped packets, and each drop came back as
# busy (tx_busy grew by as many), no other transmit error; and none was
# lost. A packet the netdev refused silently is lost: the peer finds a
# hole in the PSNs after it, which it SACKs or NACKs (rx_sacks, rx_nacks)
# and we fill (retrans_fast), and a lost packet among the last ones is
# sent again by the timer: with the drops hidden, the retransmissions
# are at least the drops. One refused as busy stays in the connection's
# queue and goes in order: no hole, no fast retransmission, and the
# timer's (and proactive) ones and the tail-loss probes, fewer than the
# drops, are a stall of the TCG guest past the 200 ms RTO or the slow
# queue's delay past two smoothed RTTs.
burst_ok() {
	echo "$1" | jq -e '.drops > 0 and .tx_busy == .drops and
		.tx_errors == 0 and .rx_sacks + .rx_nacks == 0 and
		.retrans_fast == 0 and
		.retrans_timer + .retrans_proactive + .retrans_tail < .drops' > /dev/null
}

# burst_run D DEV: the burst on provider D. The server only takes part.
burst_run() {
	local d=$1 dev=$2 delta t0
	t0=$(now_ms)
	if [ "$role" = client ]; then
		hw > "/tmp/rc-$d-stats-burst"
		check "$d-burst: netem $RC_BURST_QUEUE for SUPERp on eth0" burst_queue_on
	fi
	# shellcheck disable=SC2046 # probe_args gives whole words
	probe "$d-burst" "$dev" "$role" "$(guest_ip "$peer")" size="$RC_BURST_SIZE" \
		burst="$RC_BURST_WRS" timeout_ms=20000 $(probe_args "$d")
	[ "$role" = client ] || return 0
	delta=$(burst_delta "/tmp/rc-$d-stats-burst" "$(netem_drops)")
	tap_diag "$d-burst: $(($(now_ms) - t0)) ms; $(tc -s qdisc show dev eth0 parent 1:2 | tr '\n' ' ')"
	tap_diag "$d-burst: rdma statistic, the differences: $delta"
	check "$d-burst: every drop of the queue reported as busy, none lost" \
		burst_ok "$delta"
	check "$d-burst: queue removed" tc qdisc del dev eth0 root
}
burst_case() { case " $RC_BURST_DEVS " in *" $1 "*) return 0 ;; esac; return 1; }

# fair_conn_used: the client's WRITEs of fair-share (the probe's 16 per
# QP) went over lcid 9.
fair_conn_used() {
	jq_true ".[0].stats.tx_new >= $((RC_FAIR_QPS * 16))" \
		superp -j -s conn show dev superp0 lcid 9
}

# fair_run D: fair-share on provider D (superp over SUNH), over lcid 9.
fair_run() {
	local d="$1"
	# shellcheck disable=SC2086 # $superp_slow is several words
	check "$d-fair: conn add lcid 9 tclass 32 tal_trans_window $RC_FAIR_WINDOW" \
		superp conn add dev superp0 lcid 9 rcid 9 encap sunh local "$me" \
		remote "$peer" tclass 32 $superp_slow \
		tal_trans_window "$RC_FAIR_WINDOW"
	probe "$d-fair" superp0 "$role" "$(guest_ip "$peer")" \
		qps=$((RC_FAIR_QPS + RC_FAIR_IDLE)) fair_idle="$RC_FAIR_IDLE" \
		tclass=32 fair_spread="$RC_FAIR_SPREAD"
	[ "$role" = server ] ||
		check "$d-fair: the WRITEs went over lcid 9" fair_conn_used
	check "$d-fair: conn del lcid 9" superp conn del dev superp0 lcid 9
}

# peer-gone (superp only): how the server's device goes under traffic.
gone_how() {
	case $1 in
	superp_sunh) echo "rdma link delete superp0" ;;
	superp_udp4) echo "rmmod ib_superp" ;;
	esac
}
# Its bound: the connection's retransmission budget, twice over. The run
# waits that budget out (the peer is silent): both ends add the
# connection again for it with pdl_max_rtx 4 in make check, 200 ms *
# (1 + 2 + 4 + 8 + 16) = 6.2 s, and keep $superp_slow's 8 in make soak,
# 200 ms * (1 + 2 + ... + 64 + 64 + 64) = 51 s.
GONE_RTX=$(soak_or 8 4)
if [ "$GONE_RTX" = 8 ]; then GONE_MS=$((200 * 255 * 2)); else GONE_MS=$((200 * 31 * 2)); fi
gone_conn() {
	case $1 in
	superp_sunh) echo "1 encap sunh local $me remote $peer" ;;
	superp_udp4) echo "2 encap udp4 local $(guest_ip "$me") remote $(guest_ip "$peer")" ;;
	esac
}
# The server's device afterwards: gone (rdma link delete) or unloaded.
teardown_gone_superp_sunh() { rmmod ib_superp && sunh subnet del; }
teardown_gone_superp_udp4() { ! grep -q '^ib_superp ' /proc/modules; }

# gone_action NAME CMD...: once the probe run NAME says gone-ready, CMD.
gone_action() {
	local name=$1 i=0
	shift
	until dmesg | superp_probe_lines "$name" |
		grep -q 'superp_rc_probe: gone-ready'; do
		i=$((i + 1))
		[ $i -lt 600 ] || { echo "no gone-ready"; return 1; }
		sleep 0.2
	done
	timeout 60 "$@"
}

no_superp_left() {
	! rdma resource show 2>/dev/null | grep -q superp0
}

# gone_run D DEV: the peer-gone run of provider D (the server's device
# goes by $(gone_how D)); the client's objects back to what they were.
gone_run() {
	local d=$1 dev=$2 how gpid grc before
	how=$(gone_how "$d")
	# shellcheck disable=SC2046 # gone_conn gives whole words
	conn_readd "$d-gone-budget" $(gone_conn "$d") ordered both \
		pdl_retrans_time_out 200000 pdl_max_rtx "$GONE_RTX"
	before=$(objects "$dev")
	if [ "$role" = server ]; then
		# shellcheck disable=SC2086 # $how is a command line
		gone_action "$d-gone" $how > "/tmp/rc-$d-gone.action" 2>&1 &
		gpid=$!
	fi
	# shellcheck disable=SC2046 # probe_args gives whole words
	probe "$d-gone" "$dev" "$role" "$(guest_ip "$peer")" size="$RC_SIZE" \
		gone_ms="$GONE_MS" timeout_ms=$((GONE_MS + 60000)) $(probe_args "$d")
	if [ "$role" = server ]; then
		wait "$gpid"
		grc=$?
		check "$d-gone: $how under traffic returned ($(tr '\n' ' ' < "/tmp/rc-$d-gone.action"))" \
			test "$grc" -eq 0
		check "$d-gone: rdma resource show: no $dev left" no_superp_left
	else
		check "$d-gone: rdma resource show $dev as before ($before)" \
			test "$(objects "$dev")" = "$before"
	fi
}

for d in $RC_DEVS; do
	dev=$(ibdev "$d")
	check "$d: set up $dev" "setup_$d"
	# shellcheck disable=SC2046 # probe_args gives whole words
	probe "$d" "$dev" "$role" "$(guest_ip "$peer")" size="$RC_SIZE" qps="$RC_QPS" tput_ms="$RC_TPUT_MS" \
		atomics="$RC_ATOMICS" $(probe_args "$d") $(big_args "$d")
	if [ "$dev" = superp0 ]; then
		check "$d: rdma statistic -j parses, packets and refusals counted" \
			hw_stats_ok "$dev" refused
		# The client's WRITE lists (packed-write, packed-bad-rkey) went packed.
		[ "$role" = server ] ||
			check "$d: rdma statistic counts packed operations" \
				hw_stats_ok "$dev" packed
	fi
	if burst_case "$d"; then
		burst_run "$d" "$dev"
	fi
	fair_dev "$d" && fair_run "$d"

	if ! clean_only "$d"; then
		[ "$dev" = superp0 ] &&
			hw > "/tmp/rc-$d-stats-clean"
		check "$d: netem $RC_NETEM on eth0" tc qdisc add dev eth0 root netem $RC_NETEM
		probe "$d-netem" "$dev" "$role" "$(guest_ip "$peer")" size="$RC_LOSSY_SIZE" qps="$RC_QPS" \
			tput_ms="$RC_LOSSY_TPUT_MS" atomics="$RC_LOSSY_ATOMICS" \
			$(probe_args "$d") $(probe_args "$d-netem")
		tap_diag "$d-netem: $(tc -s qdisc show dev eth0 | tr '\n' ' ')"
		tap_diag "$d-netem: $(rdma statistic show link "$dev/1" 2>&1 | tr '\n' ' ')"
		[ "$dev" = superp0 ] &&
			check "$d-netem: rdma statistic counts retransmissions" \
				hw_stats_ok "$dev" retrans "/tmp/rc-$d-stats-clean"
		check "$d: netem removed" tc qdisc del dev eth0 root
	fi

	# The probe's own error paths free what they set up (kmemleak scans
	# at shutdown): once, on the first device.
	if [ -z "${probe_errors_done:-}" ]; then
		probe_errors_done=1
		check_fail "$d: the probe refuses an unknown device" \
			modprobe superp_rc_probe dev=nosuch0 role=server
		check_fail "$d: a client without a server gives up after timeout_ms" \
			modprobe superp_rc_probe dev="$dev" role=client peer=127.0.0.1 \
			port=18599 timeout_ms=2000
	fi

	if [ -n "$(gone_how "$d")" ]; then
		gone_run "$d" "$dev"
		if [ "$role" = server ]; then
			check "$d: tear down what is left" "teardown_gone_$d"
		else
			check "$d: tear down $dev" "teardown_$d"
		fi
	else
		check "$d: tear down $dev" "teardown_$d"
	fi
	barrier "rc-$d-gone"
done
tap_exit
