#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Route dumps under change. A namespace holds 1200 static entries (a dump
# of several parts). Quiet, every `sunh route show` lists each entry once
# and all 1200 of them. While two other processes add and remove an entry
# and a local address as fast as they can, a dump during which something
# changed comes back marked NLM_F_DUMP_INTR: the tool says so and asks
# again (and gives up after 5 tries) instead of printing it, and what it
# does print is still each entry once.
# superp-topology: single
# superp-kernel: stock
# superp-soak-kernel: both
# make check lists 3 times quiet and 5 times under change, make soak 5 and 5.
# superp-timeout: 400
# superp-soak-timeout: 800
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/sunh/sunh_lib"

tap_plan 7

check "load sunh" load_sunh
ip netns add sd
# Without IPv6 here: the veths' link-local addresses would finish DAD
# during the quiet listings, a change of the namespace's addresses that
# a dump rightly reports as an interruption (seen in 3 of 8 runs).
ip netns exec sd sh -c 'echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6 &&
	echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6'
ip -n sd link add d0 type veth peer name d1
ip -n sd addr add 10.40.0.1/16 dev d0
ip -n sd link set d0 up
ip -n sd link set d1 up
ip -n sd link set lo up
sd() { ip netns exec sd "$@"; }
check "subnet 10.40.0.0/16 bits 12" sunh -n sd subnet set 10.40.0.0/16 bits 12
M=$(mac d1 sd)
i=16
while [ $i -lt 1216 ]; do
	echo "route add $i dev d0 lladdr $M"
	i=$((i + 1))
done > /tmp/dump.batch
check "1200 entries added in one batch" sunh -n sd -batch /tmp/dump.batch
check "1200 static entries" test "$(sunh -n sd route show | grep -c ' static ')" -eq 1200

# run_dumps N: N listings; counts those with an entry twice, with one of
# the 1200 missing, that the tool reported interrupted, and that failed
# without saying why.
run_dumps() {
	twice=0 missing=0 intr=0 silent=0 done=0 partial=0
	for i in $(seq "$1"); do
		if sunh -n sd route show > /tmp/dump.out 2> /tmp/dump.err; then
			rc=0
		else
			rc=1
		fi
		grep -q interrupted /tmp/dump.err && intr=$((intr + 1))
		[ $rc -eq 0 ] || grep -q interrupted /tmp/dump.err ||
			{ silent=$((silent + 1)); cat /tmp/dump.err; }
		# A listing given up prints nothing of its tries.
		[ $rc -eq 0 ] || [ ! -s /tmp/dump.out ] || partial=$((partial + 1))
		[ $rc -eq 0 ] || continue
		done=$((done + 1))
		[ -z "$(awk '{ print $1 }' /tmp/dump.out | sort | uniq -d)" ] ||
			twice=$((twice + 1))
		[ "$(awk '$1 >= 16 && $1 < 1216 && / static /' /tmp/dump.out |
			wc -l)" -eq 1200 ] || missing=$((missing + 1))
	done
	tap_diag "$1 dumps: $done complete, $intr reported interrupted, $twice with an entry twice, $missing with entries missing, $partial given up with output, $silent failed silently"
}

quiet=$(soak_or 5 3)
run_dumps "$quiet"
check "a quiet table dumps complete and consistent" \
	test $done -eq "$quiet" -a $intr -eq 0 -a $twice -eq 0 -a $missing -eq 0 -a $partial -eq 0

# The changers, one process each: entry 5 and the local address
# 10.40.2.1 (SUNH 513) come and go every 20 ms. That is often enough for
# a dump of tens of messages to see changes, and paced: on the guest's one
# CPU, changers running flat out starved the dumps past the timeout, and
# at the lowest priority they starved themselves (no dump saw a change).
sd sh -c "while :; do
	echo 'route replace 5 dev d0 lladdr $M'
	echo 'route del 5'
	sleep 0.02
done | sunh -batch -" > /dev/null 2>&1 &
sd sh -c "while :; do
	echo 'addr add 10.40.2.1/16 dev d1'
	echo 'addr del 10.40.2.1/16 dev d1'
	sleep 0.02
done | ip -force -batch -" > /dev/null 2>&1 &
sleep 1
busy=5
run_dumps "$busy"
for p in $(ip netns pids sd); do kill "$p" 2> /dev/null; done
wait
check "under change a listing is whole ($done of $busy completed) or, given up, printed nothing" \
	test $twice -eq 0 -a $missing -eq 0 -a $partial -eq 0
check "dumps that saw a change were reported ($intr of $busy), none failed silently" \
	test $intr -ge 1 -a $silent -eq 0

ip netns del sd
sleep 1
tap_exit
