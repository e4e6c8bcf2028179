# SPDX-License-Identifier: GPL-2.0
# Runs the tests of /superp/plan inside a guest (run by the harness's /init,
# output on ttyS1). Plan lines: "kunit MODULE TIMEOUT" or
# "selftest PATH TIMEOUT". Each test is framed by markers the host parses:
#   @@SUPERP-BEGIN NAME  ...  @@SUPERP-END NAME rc=N time=SECONDSs
# After a test rebooted the guest (SUPERP_RESUME=TEST:TAP-N:TAP-FAILED,
# guest_reboot in lib.sh), the tests before TEST are skipped and TEST runs
# again inside the frame it opened, told where its TAP count stood.
. /superp/selftests/lib.sh

resume=${SUPERP_RESUME%%:*}

# A KASAN kernel's quarantine of freed objects is trimmed only by slab
# allocations that may sleep; a guest that just answers traffic makes
# none and keeps every skb it freed (superp-kasan-trim.c). The trimmer
# runs for the whole boot; guest_reset spares it.
trim_pid=
if has_kasan; then
	/superp/bin/superp-kasan-trim </dev/null &
	trim_pid=$!
fi

# The last process ID handed out: processes started since an earlier
# reading (forks cost most of the debug kernel's time in scripts).
last_pid() { awk '{ print $5 }' /proc/loadavg; }

skb_count() {
	awk '$1 == "skbuff_head_cache" { print $2; n = 1 } END { if (!n) print 0 }' \
		/proc/slabinfo 2>/dev/null
}

# skb_watch TEST: every 5 s during TEST; the first time the guest holds
# more than 50,000 skbs (about 100 MB; a test holds a few thousand, and
# KASAN's quarantine up to about 40,000 more: superp-kasan-trim.c), print
# where socket buffers can wait, once (Documentation/testing.rst, "Known
# problems"). Socket queues show in /proc/net (rx_queue, Rmem: the guest
# has no ss); leaked skbs in a kmemleak scan, with where they were
# allocated.
skb_watch() {
	local n

	while sleep 5; do
		n=$(skb_count)
		[ "$n" -gt 50000 ] || continue
		{
			echo "skbuff_head_cache $n objects during $1"
			grep -E 'MemFree|Slab|SUnreclaim' /proc/meminfo
			sort -k3 -n -r /proc/slabinfo | head -8
			tc -s qdisc show
			ip -s link show eth0
			rdma link show 2>&1
			rdma resource show 2>&1
			rdma statistic show 2>&1
			for f in netlink packet udp udp6 tcp tcp6 raw; do
				echo "/proc/net/$f:"
				head -60 "/proc/net/$f"
			done
			if [ -w /sys/kernel/debug/kmemleak ]; then
				echo scan > /sys/kernel/debug/kmemleak
				head -120 /sys/kernel/debug/kmemleak
			fi
		} 2>&1 | sed 's/^/@@SUPERP-MEM   /'
		return
	done
}
# guest_reset: after a test that failed or was stopped at its timeout,
# what it may have left running or loaded, so that the next test starts
# as on a fresh boot: its processes (timeout(1) stops only the test's
# shell), qdiscs, network namespaces, RDMA links, and the modules of the
# project and of rxe and siw. A module that cannot be unloaded (a
# reference still held) is said, and the next test's own setup then
# fails with the reason.
guest_reset() {
	local p d m

	# Kernel threads ignore the signal; this shell, init and the
	# quarantine's trimmer stay.
	for p in $(ps -o pid=); do
		[ "$p" = 1 ] || [ "$p" = $$ ] || [ "$p" = "$trim_pid" ] || kill -KILL "$p" 2>/dev/null
	done
	for d in $(ls /sys/class/net); do
		tc qdisc del dev "$d" root 2>/dev/null
		tc qdisc del dev "$d" clsact 2>/dev/null
	done
	for d in $(ip netns list 2>/dev/null | awk '{ print $1 }'); do
		ip netns del "$d"
	done
	for d in $(rdma link show 2>/dev/null | awk '{ sub("/.*", "", $2); print $2 }'); do
		rdma link delete "$d" 2>/dev/null
	done
	for m in $(awk '{ print $1 }' /proc/modules); do
		case "$m" in superp_*_probe* | superp_*_test) rmmod "$m" ;; esac
	done
	for m in ib_superp sunh rdma_rxe siw; do
		grep -q "^$m " /proc/modules || continue
		rmmod "$m" || echo "# guest_reset: $m stays loaded"
	done
	ip link set eth0 mtu 9000 up 2>/dev/null
}

while read -r kind name timeout; do
	case "$kind" in kunit | selftest) ;; *) continue ;; esac
	tap_resume=
	if [ -n "$resume" ]; then
		[ "$name" = "$resume" ] || continue
		resume=
		tap_resume=${SUPERP_RESUME#*:}
	elif ! barrier_try "begin $name" </dev/null; then
		echo "@@SUPERP-END $name rc=125 (barrier failed)"
		continue
	else
		echo "@@SUPERP-BEGIN $name"
	fi
	start=$(date +%s)
	pid0=$(last_pid)
	skb_watch "$name" </dev/null &
	watch_pid=$!
	if [ "$kind" = kunit ]; then
		timeout "$timeout" /superp/selftests/harness/guest-kunit.sh "$name" </dev/null 2>&1
	else
		(cd "/superp/$(dirname "$name")" &&
			SUPERP_TEST=$name SUPERP_TAP_RESUME=$tap_resume \
			timeout "$timeout" "/superp/$name" </dev/null) 2>&1
	fi
	rc=$?
	# The guest's timeout is busybox's: it runs the test in its own
	# process and kills it from a child, so a test stopped at its limit
	# ends by the signal (143, or 137), not with coreutils' 124. Past the
	# limit, say 124: the host reports the test as stopped at its timeout.
	case "$rc" in
	137 | 143) [ $(($(date +%s) - start)) -lt "$timeout" ] || rc=124 ;;
	esac
	kill "$watch_pid" 2>/dev/null
	wait "$watch_pid" 2>/dev/null
	[ "$rc" = 0 ] || [ "$rc" = 4 ] || guest_reset </dev/null 2>&1
	echo "@@SUPERP-END $name rc=$rc time=$(($(date +%s) - start))s processes=$(($(last_pid) - pid0))"
	# The kernel's memory after each test, so that a pileup shows where
	# it began (Documentation/testing.rst, "Known problems").
	skbs=$(skb_count)
	echo "@@SUPERP-MEM $name SUnreclaim $(sunreclaim) kB, skbuff_head_cache $skbs objects"
	# Where so many skbs came from, when the guest tracks it
	# (SUPERP_GUEST_APPEND="slub_debug=U,skbuff_head_cache").
	traces=/sys/kernel/debug/slab/skbuff_head_cache/alloc_traces
	if [ "$skbs" -gt 20000 ] && [ -r "$traces" ]; then
		grep -A 8 -m 3 '^ *[0-9]' "$traces" | sed 's/^/@@SUPERP-MEM   /'
	fi
done < /superp/plan
