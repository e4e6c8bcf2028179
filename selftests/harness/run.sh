#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run SUPERp tests and print one summary line "N passed, N failed, N skipped".
#
#   run.sh [--kernel test|stock|bench] [--no-prepare] [--host | --guests] TEST...
#
# TEST is kunit/MODULE (a KUnit suite module built from kunit/), a selftest
# path (selftests/AREA/NAME.sh) or "all". --host runs only the TESTs that
# run on the host, --guests only the others. Selftests declare in comment lines:
#   # superp-topology: host | single | pair | router   (default single)
#   # superp-kernel: test | stock | bench | both       (default test)
#   # superp-timeout: SECONDS                          (default 300)
#   # superp-soak-timeout: SECONDS  (the test has a longer form for make soak)
#   # superp-soak-kernel: test | stock | both    (make soak's, if not the same)
#   # superp-capture: CHECK   (a script beside the test, run on the host)
#   # superp-guest-extra: NAME  (the boot's initramfs also carries guest
#                                extra NAME: harness/guest-extra/NAME)
#   # superp-boot: NAME       (a boot of its own: KERNEL-TOPOLOGY-NAME)
# Timeouts are scaled by this machine's speed (SUPERP_TIME_SCALE, percent;
# measured when unset: common.sh time_scale). With SUPERP_SOAK=1 the guests
# run each test's long form (selftests/lib.sh soak_or) under its
# superp-soak-timeout. SUPERP_GUEST_EXTRAS="NAME ..." adds guest extras to
# every boot (make bench PROFILE=...: perf).
# Tests sharing a kernel, topology and boot name run in one boot, in the
# order given. Debian's kernel's boots run side by side (below): a boot
# name splits a long one so that its halves can.
# When a test of the boot declares a capture, every segment's bridge is
# captured for the whole boot and CHECK runs afterwards with the captures
# (segment order) as arguments; its TAP counts as part of the test.
# Logs: $SUPERP_RESULTS/<group>/guestN.{console,out}, segN.pcap.
set -uo pipefail
. "$(dirname "$0")/common.sh"

force_kernel=
prepare=1
only=
tests=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) force_kernel=$2; shift ;;
	--no-prepare) prepare= ;;
	--host | --guests) only=${1#--} ;;
	-h | --help) sed -n '3,/^# Logs:/p' "$0"; exit 0 ;;
	*) tests+=("$1") ;;
	esac
	shift
done

all_tests() {
	# harness_selfcheck_* suites fail on purpose: only selfcheck.sh runs them.
	sed -n 's/^obj-m[[:space:]]*+=[[:space:]]*\(.*\)\.o$/kunit\/\1/p' "$SUPERP_TOP/kunit/Kbuild" |
		grep -v '^kunit/harness_selfcheck_'
	(cd "$SUPERP_TOP" && find selftests -name '*.sh' -path 'selftests/*/*' \
		! -path 'selftests/harness/*' | LC_ALL=C sort)
}
[ ${#tests[@]} -eq 0 ] && tests=(all)
if [ "${tests[*]}" = all ]; then
	mapfile -t tests < <(all_tests)
fi

# A selftest's declared property, or a default.
prop() { # file key default
	local v
	v=$(sed -n "s/^# superp-$2:[[:space:]]*\\([^[:space:]]*\\).*/\\1/p" "$SUPERP_TOP/$1" | head -1)
	echo "${v:-$3}"
}

SUPERP_SOAK=${SUPERP_SOAK:-}
[ -n "${SUPERP_TIME_SCALE:-}" ] || SUPERP_TIME_SCALE=$(time_scale)
export SUPERP_TIME_SCALE
scaled() { echo $(($1 * SUPERP_TIME_SCALE / 100)); }
SUPERP_BOOT_LIMIT=${SUPERP_BOOT_LIMIT:-$(scaled 300)}

declare -A group_tests group_nguests group_topo group_extras
host_tests=()
for t in "${tests[@]}"; do
	t=${t#./}
	case "$t" in
	kunit/*) kernels=test topo=single timeout=$(scaled 600) extra= boot= ;;
	*)
		[ -f "$SUPERP_TOP/$t" ] || die "no such test: $t"
		topo=$(prop "$t" topology single)
		kernels=$(prop "$t" kernel test)
		[ -z "$SUPERP_SOAK" ] || kernels=$(prop "$t" soak-kernel "$kernels")
		timeout=$(prop "$t" timeout 300)
		[ -z "$SUPERP_SOAK" ] || timeout=$(prop "$t" soak-timeout "$timeout")
		timeout=$(scaled "$timeout")
		[ "$kernels" = both ] && kernels="test stock"
		extra=$(prop "$t" guest-extra "")
		boot=$(prop "$t" boot "")
		;;
	esac
	[ -n "$force_kernel" ] && kernels=$force_kernel
	if [ "$topo" = host ]; then
		[ "$only" = guests ] || host_tests+=("$t")
		continue
	fi
	[ "$only" != host ] || continue
	case "$topo" in single) n=1 ;; pair) n=2 ;; router) n=3 ;; *) die "$t: bad topology $topo" ;; esac
	for k in $kernels; do
		g="$k-$topo${boot:+-$boot}"
		group_tests[$g]+="${t#kunit/} $timeout $([ "${t%%/*}" = kunit ] && echo kunit || echo selftest)"$'\n'
		group_nguests[$g]=$n
		group_topo[$g]=$topo
		for x in $extra ${SUPERP_GUEST_EXTRAS:-}; do
			[[ " ${group_extras[$g]:-} " == *" $x "* ]] || group_extras[$g]+=" $x"
		done
	done
done

# Runs sharing a results directory would delete each other's logs under
# running guests: refuse. Separate runs set SUPERP_RESULTS (and, when they
# rebuild, SUPERP_BUILD, which prepare.sh locks while it writes).
mkdir -p "$SUPERP_RESULTS"
exec 8> "$SUPERP_RESULTS/.lock"
flock -n 8 || die "another run is using $SUPERP_RESULTS (set SUPERP_RESULTS)"
passed=0 failed=0 skipped=0 testno=0

report() { # verdict name detail
	testno=$((testno + 1))
	case "$1" in
	ok) echo "ok $testno $2 $3" ;;
	skip) echo "ok $testno $2 # SKIP $3" ;;
	*) echo "not ok $testno $2 $3" ;;
	esac
}

# Count the TAP result lines of one test's output (top level only). A
# missing plan, or one that does not match the results (a test that stopped
# early), is one more failure.
tally_tap() { # file -> sets tp tf ts, appends to detail
	local plan n
	tp=$(grep -cE '^ok [0-9]+' "$1")
	ts=$(grep -cE '^ok [0-9]+.*# *SKIP' "$1")
	tf=$(grep -cE '^not ok [0-9]+' "$1")
	n=$((tp + tf))
	tp=$((tp - ts))
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)\( *#.*\)\{0,1\}$/\1/p' "$1" | tail -1)
	if [ -z "$plan" ]; then
		tf=$((tf + 1)); detail+=" [$who: no TAP plan]"
	elif [ "$plan" != "$n" ]; then
		tf=$((tf + 1)); detail+=" [$who: planned $plan, ran $n]"
	fi
}

# Count a KUnit module's cases with the kernel tree's KTAP parser.
tally_kunit() { # file -> sets tp tf ts
	local out
	out=$(python3 "$SUPERP_BUILD/kernel-src/tools/testing/kunit/kunit.py" parse "$1" 2>&1)
	printf '%s\n' "$out" > "$1.parsed"
	tp=$(printf '%s\n' "$out" | sed -n 's/.*passed: \([0-9]*\).*/\1/p' | tail -1)
	tf=$(printf '%s\n' "$out" | sed -n 's/.*failed: \([0-9]*\).*/\1/p' | tail -1)
	ts=$(printf '%s\n' "$out" | sed -n 's/.*skipped: \([0-9]*\).*/\1/p' | tail -1)
	local crashed errors
	crashed=$(printf '%s\n' "$out" | sed -n 's/.*crashed: \([0-9]*\).*/\1/p' | tail -1)
	errors=$(printf '%s\n' "$out" | sed -n 's/.*errors: \([0-9]*\).*/\1/p' | tail -1)
	tp=${tp:-0} tf=$(( ${tf:-0} + ${crashed:-0} + ${errors:-0} )) ts=${ts:-0}
	[ $((tp + tf + ts)) -gt 0 ] || tf=1
}

# Judge one test from its output segment(s); adds to the totals.
judge() { # name kind seg...
	local name=$1 kind=$2 seg rc detail="" verdict=ok g=0 who
	shift 2
	local p=0 f=0 s=0 secs= t
	for seg in "$@"; do
		g=$((g + 1)) who="guest $g"
		case "$seg" in */capture.*) who="capture check" ;; esac
		if [ ! -s "$seg" ] || ! grep -q '^@@SUPERP-END ' "$seg"; then
			f=$((f + 1)); detail+=" [$who: did not finish]"
			continue
		fi
		rc=$(sed -n 's/^@@SUPERP-END .* rc=\([0-9]*\).*/\1/p' "$seg" | tail -1)
		# The test's time: its longest guest's (in a pair test one
		# guest may only serve, and end at once).
		t=$(sed -n 's/^@@SUPERP-END .* time=\([0-9]*\)s.*/\1/p' "$seg" | tail -1)
		if [ -n "$t" ] && { [ -z "$secs" ] || [ "$t" -gt "$secs" ]; }; then
			secs=$t
		fi
		if [ "$kind" = kunit ]; then tally_kunit "$seg"; else tally_tap "$seg"; fi
		[ "$rc" != 124 ] || detail+=" [$who: stopped at its superp-timeout]"
		if [ "$rc" != 0 ] && [ "$rc" != 4 ] && [ "$tf" = 0 ]; then
			tf=1; detail+=" [$who: exit $rc]"
		fi
		if [ "$rc" = 4 ] && [ $((tp + tf + ts)) = 0 ]; then ts=1; fi
		p=$((p + tp)) f=$((f + tf)) s=$((s + ts))
	done
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	if [ $f -gt 0 ]; then verdict=fail
	elif [ $p -eq 0 ] && [ $s -gt 0 ]; then verdict=skip; fi
	report $verdict "$name" "($p passed, $f failed, $s skipped${secs:+, $secs s})$detail"
	if [ $verdict = fail ]; then
		# The failures first (a long test's tail may be far past
		# them), then where it stopped.
		for seg in "$@"; do
			grep -E '^not ok [0-9]+' "$seg" | head -20 | sed 's/^/#   failed: /'
			sed 's/^/#   /' "$seg" | tail -40
		done
	fi
}

# Kernel messages that fail a run whatever the tests said.
SPLAT='NETDEV WATCHDOG|BUG:|WARNING:|Oops|Kernel panic|KASAN|UBSAN|kmemleak:.*leak|unreferenced object|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|detected stall|general protection fault|INFO: task .* blocked|DEBUG_LOCKS_WARN_ON|refcount_t:|list_(add|del) corruption|waiting for .* to become free|invoked oom-killer'

# Host tests run side by side, as many at once as the machine has cores
# (each is one busy process: checkpatch, a compiler, tshark; each works in
# a directory of its own), and are judged in order once all are done.
host_test_out() { echo "$SUPERP_RESULTS/host/$(echo "$1" | tr / _).out"; }
run_host_tests() {
	local t running=0
	mkdir -p "$SUPERP_RESULTS/host"
	for t in "${host_tests[@]}"; do
		if [ "$running" -ge "$(nproc)" ]; then
			wait -n
			running=$((running - 1))
		fi
		log "host test $t"
		(
			start=$SECONDS
			cd "$SUPERP_TOP/$(dirname "$t")" &&
				timeout "$(scaled "$(prop "$t" timeout 300)")" "$SUPERP_TOP/$t"
			echo "@@SUPERP-END $t rc=$? time=$((SECONDS - start))s"
		) > "$(host_test_out "$t")" 2>&1 &
		running=$((running + 1))
	done
	wait
	for t in "${host_tests[@]}"; do
		judge "$t" selftest "$(host_test_out "$t")"
	done
}

netns=
cap_pids=()
cleanup() {
	stop_capture
	[ -n "$netns" ] && ip netns del "$netns" 2>/dev/null
	[ -n "$netns" ] && rm -f "/tmp/$netns".g*.mon
	netns=
}

# Capture every segment's bridge of the running group (promiscuous: the
# bridge device then sees the frames it forwards between guests).
start_capture() { # dir nseg
	local s t
	for s in $(seq 0 $(($2 - 1))); do
		ip netns exec "$netns" dumpcap -q -P -i "br$s" -w "$1/seg$s.pcap" \
			2> "$1/seg$s.dumpcap" &
		cap_pids+=($!)
	done
	# Guests boot for seconds; still, nothing is sent before every
	# capture is running.
	for s in $(seq 0 $(($2 - 1))); do
		for t in $(seq 50); do
			[ -s "$1/seg$s.pcap" ] && break
			sleep 0.2
		done
		[ -s "$1/seg$s.pcap" ] || { log "capture on br$s did not start"; cat "$1/seg$s.dumpcap" >&2; return 1; }
	done
}

stop_capture() {
	[ ${#cap_pids[@]} -gt 0 ] || return 0
	kill -TERM "${cap_pids[@]}" 2>/dev/null
	wait "${cap_pids[@]}" 2>/dev/null
	cap_pids=()
}

# Run a test's capture check on the host; prints its output segment.
# Its bound: a boot of the debug kernel captures up to about 2 GB (rc.sh's
# 256 MiB transfers), which tshark with the Lua dissector reads in about a
# minute per pass on an idle build machine.
run_capture_check() { # dir check nseg
	local check=$2 out s pcaps=()
	out=$1/capture.$(echo "$check" | tr / _).seg
	for s in $(seq 0 $(($3 - 1))); do pcaps+=("$1/seg$s.pcap"); done
	(cd "$SUPERP_TOP/$(dirname "$check")" &&
		timeout "$(scaled 300)" "$SUPERP_TOP/$check" "${pcaps[@]}"; echo "@@SUPERP-END $check rc=$?") > "$out" 2>&1
	echo "$out"
}
trap cleanup EXIT

# Wait for a boot's QEMU processes, and stop them when a guest stops
# making progress:
# - a guest that has not announced itself (guest-init's first line) within
#   SUPERP_BOOT_LIMIT seconds: all are stopped and the stalled guests'
#   numbers printed. Guards against the rare TCG boot that stops in early
#   kernel init on a loaded host (Documentation/testing.rst).
# - a guest that rebooted (guest_reboot) and has not announced itself
#   again within SUPERP_REBOOT_LIMIT: if its new kernel started but did not
#   reach /init, that is the same stall, and the guest is booted once more
#   (its QEMU quits, boot_guest boots it again; $dir/reboot-stalls says
#   so); if no new kernel started, its old one did not finish restarting.
# - a guest whose boot ended (QEMU exited) before the guest was done: the
#   others can only wait for it at their next barrier.
# - a guest whose output has not passed its last marker (a test's begin
#   or end, a reboot) within that test's timeout and SUPERP_TEST_SLACK:
#   the guest's own limit did not end the test (a task stuck in the
#   kernel, a test that ignored the signal, a guest that stopped).
# In the last three cases every guest of the boot gets an NMI, on which
# its kernel prints every task and CPU and powers off (unknown_nmi_panic,
# panic_print); $dir/overrun says which guest and why. Without this, only
# the boot's limit (the sum of its tests' timeouts) would end it.
SUPERP_TEST_SLACK=${SUPERP_TEST_SLACK:-$(scaled 240)}
# A reboot takes about 20 s (the old kernel's restart and a new boot).
SUPERP_REBOOT_LIMIT=${SUPERP_REBOOT_LIMIT:-$(scaled 150)}
# The lines of a guest's output that say where its run is (guest-init,
# guest-run.sh, guest_reboot); not the memory watch's @@SUPERP-MEM lines,
# which come at any time.
MARKERS='^@@SUPERP-(GUEST|BEGIN|END|REBOOT|DONE) '
any_alive() { # pid...
	local p
	for p in "$@"; do kill -0 "$p" 2>/dev/null && return 0; done
	return 1
}
# reboot_state DIR I STALLS: after guest I's last reboot, whether a new
# kernel started and stopped before /init ("stalled") or none started
# ("none"). Each boot's kernel prints its "Linux version" line once, each
# /init its @@SUPERP-GUEST line; STALLS boots were stopped before /init
# already.
reboot_state() {
	local kernels inits
	kernels=$(grep -a -c '\] Linux version ' "$1/guest$2.console")
	inits=$(grep -a -c '^@@SUPERP-GUEST ' "$1/guest$2.out")
	[ "$kernels" -gt $((inits + $3)) ] && echo stalled || echo none
}
# virtio_state DIR N: the virtio-net queues of every guest of the group as
# QEMU sees them (RX and TX of each NIC: the indices tell which side
# stopped), into DIR/virtio-state; taken while the guests still run, once
# a guest's console says its NIC stopped sending (NETDEV WATCHDOG).
virtio_state() {
	local i path q
	for i in $(seq 1 "$2"); do
		echo "guest $i:"
		for path in $(guest_monitor_query "$i" "info virtio" |
				awk '$2 == "[virtio-net]" { print $1 }'); do
			for q in 0 1; do
				guest_monitor_query "$i" "info virtio-queue-status $path $q" |
					grep -E '^/|queue_index|inuse|used_idx|signalled_used|avail_idx'
			done
		done
	done > "$1/virtio-state" 2>&1
}
watch_guests() { # dir n pid...
	local dir=$1 n=$2 start=$SECONDS i stalled= booted= limit why
	local name t count last test
	local -A tmo=() seen=() since=() stalls=() again=()
	shift 2
	local pids=("$@")
	while read -r _ name t; do tmo[$name]=$t; done < "$dir/plan"
	while any_alive "$@"; do
		[ -e "$dir/virtio-state" ] ||
			! grep -aqs 'NETDEV WATCHDOG' "$dir"/guest*.console ||
			virtio_state "$dir" "$n"
		if [ -z "$booted" ] && [ $((SECONDS - start)) -ge "$SUPERP_BOOT_LIMIT" ]; then
			for i in $(seq 1 "$n"); do
				grep -q '^@@SUPERP-GUEST' "$dir/guest$i.out" 2>/dev/null ||
					stalled+=" $i"
			done
			if [ -n "$stalled" ]; then
				kill -TERM "$@" 2>/dev/null
				break
			fi
			booted=1
		fi
		for i in $(seq 1 "$n"); do
			read -r count last test < <(tr -d '\r' 2>/dev/null < "$dir/guest$i.out" | awk -v re="$MARKERS" '
				$0 ~ re {
					n++; last = $1
					if ($1 != "@@SUPERP-GUEST") t = $2
				}
				END { print n + 0, (last == "" ? "-" : last), (t == "" ? "-" : t) }')
			if [ "${seen[$i]:-}" != "$count" ]; then
				seen[$i]=$count since[$i]=$SECONDS again[$i]=
				# Where the run is, should CI stop it.
				[ "$i" != 1 ] || [ "$last" != @@SUPERP-BEGIN ] ||
					log "${dir##*/}: $test"
				continue
			fi
			case "$last" in -|@@SUPERP-DONE) continue ;; esac
			if ! kill -0 "${pids[$((i - 1))]}" 2>/dev/null; then
				why="guest $i: its boot ended at \"$last $test\" ($(cat "$dir/guest$i.exit" 2>/dev/null || echo "QEMU stopped"))"
			elif [ "$last" = @@SUPERP-REBOOT ] && [ -z "${again[$i]:-}" ]; then
				[ $((SECONDS - since[$i])) -gt "$SUPERP_REBOOT_LIMIT" ] || continue
				if [ "$(reboot_state "$dir" "$i" "${stalls[$i]:-0}")" = none ]; then
					why="guest $i: no new kernel started within ${SUPERP_REBOOT_LIMIT}s of its reboot in $test"
				elif [ -z "${stalls[$i]:-}" ]; then
					stalls[$i]=1 again[$i]=1 since[$i]=$SECONDS
					echo "guest $i: its kernel stopped before /init after the reboot in $test; booted again" >> "$dir/reboot-stalls"
					guest_monitor_cmd "$i" quit ||
						log "guest $i: its QEMU monitor did not take quit"
					continue
				else
					why="guest $i: its kernel stopped before /init after the reboot in $test (the second such boot)"
				fi
			elif [ "$last" = @@SUPERP-REBOOT ]; then
				# Booted again: a fresh QEMU, held to the boot limit
				# like the group's first boot, not to the reboot limit.
				[ $((SECONDS - since[$i])) -gt "$SUPERP_BOOT_LIMIT" ] || continue
				why="guest $i: booted again after the reboot in $test, not up within ${SUPERP_BOOT_LIMIT}s"
			else
				limit=$SUPERP_TEST_SLACK
				[ "$test" = - ] || limit=$((limit + ${tmo[$test]:-300}))
				[ $((SECONDS - since[$i])) -gt "$limit" ] || continue
				why="guest $i: still at \"$last $test\" after ${limit}s (the test's timeout and ${SUPERP_TEST_SLACK}s)"
			fi
			echo "$why" > "$dir/overrun"
			for t in $(seq 1 "$n"); do
				guest_monitor_cmd "$t" nmi || log "guest $t: its QEMU monitor did not take nmi"
			done
			for t in $(seq 30); do
				any_alive "$@" || break
				sleep 1
			done
			kill -TERM "$@" 2>/dev/null
			break 2
		done
		sleep 5
	done
	echo "$stalled"
}

# The QEMU monitor of a running group's guest (run_group's netns names it).
guest_monitor() { echo "/tmp/$netns.g$1.mon"; }

# guest_monitor_cmd I CMD: a command to guest I's QEMU monitor (nmi, quit);
# guest_monitor_query I CMD prints its answer.
guest_monitor_cmd() { qemu_monitor_cmd "$(guest_monitor "$1")" "$2"; }
guest_monitor_query() { qemu_monitor_query "$(guest_monitor "$1")" "$2"; }

# boot_guest DIR I N TOPO KERNEL SMP MEM DEADLINE NIC-ARGS...: guest I
# until it powers off (QEMU runs with -no-reboot) or DEADLINE ($SECONDS)
# passes; the exit status is QEMU's (124 or 137 past the deadline). A test
# that reboots its guest (guest_reboot, selftests/lib.sh) ends the boot
# with "@@SUPERP-REBOOT TEST TAP-COUNTS" as the last line of the guest's
# output: the guest boots again, told to resume TEST (superp.resume=), up
# to SUPERP_REBOOTS times; its serial logs continue where they were.
SUPERP_REBOOTS=${SUPERP_REBOOTS:-3}
# Extra guest kernel parameters for an investigation, e.g.
# SUPERP_GUEST_APPEND="slub_debug=U,skbuff_head_cache" (Documentation/testing.rst).
SUPERP_GUEST_APPEND=${SUPERP_GUEST_APPEND:-}
# And for the first boot after a test's reboot only (the self-check stalls
# that boot with "rdinit=/usr/bin/sleep -- 100000").
SUPERP_REBOOT_APPEND=${SUPERP_REBOOT_APPEND:-}
boot_guest() {
	local dir=$1 i=$2 n=$3 topo=$4 kernel=$5 smp=$6 mem=$7 deadline=$8
	local boot=1 resume= rc qpid last append
	shift 8
	trap '[ -z "${qpid:-}" ] || kill -TERM "$qpid" 2>/dev/null; exit 143' TERM
	while :; do
		[ "$SECONDS" -lt "$deadline" ] || return 124
		append=$SUPERP_GUEST_APPEND
		[ "$boot" != 2 ] || append+=" $SUPERP_REBOOT_APPEND"
		# The debug kernel's RCU-tasks self-test (PROVE_RCU) can
		# deadlock its boot: kernel_init finds the grace-period kthread
		# not yet started, is rescheduled in mutex_lock()'s might_sleep()
		# (voluntary preemption), and the kthread takes the mutex and
		# waits for callbacks that kernel_init was about to queue. A
		# loaded TCG host made that 1 boot in 8; without voluntary
		# preemption points the window is closed.
		[ "$kernel" != test ] || append="preempt=none $append"
		# lpj: TCG on a loaded host makes the kernel's delay-loop
		# calibration retry for minutes (it says so and asks for lpj=);
		# a fixed value of the right order keeps boots short.
		ip netns exec "$netns" timeout -k 5 "$((deadline - SECONDS))" \
			qemu-system-x86_64 -machine pc -accel tcg -cpu max,la57=off -smp "$smp" -m "$mem" \
			-nodefaults -display none -no-reboot \
			-kernel "$SUPERP_BUILD/vmlinuz-$kernel" -initrd "$dir/initrd.cpio" \
			-append "console=ttyS0 pci=noacpi panic=-1 loglevel=6 lpj=4000000 no_timer_check unknown_nmi_panic panic_print=0x41 superp.id=$i superp.n=$n superp.topo=$topo superp.kernel=$kernel superp.boot=$boot$resume superp.scale=$SUPERP_TIME_SCALE${SUPERP_SOAK:+ superp.soak=1} $append" \
			-chardev "file,id=con,path=$dir/guest$i.console,append=on" -serial chardev:con \
			-chardev "file,id=out,path=$dir/guest$i.out,append=on" -serial chardev:out \
			-d guest_errors,cpu_reset -D "$dir/guest$i.qemu-log" \
			-monitor "unix:$(guest_monitor "$i"),server=on,wait=off" \
			"$@" >> "$dir/guest$i.qemu" 2>&1 &
		qpid=$!
		wait "$qpid"
		rc=$?
		qpid=
		# The last marker: a reboot's may be followed by the memory
		# watch's lines, printed while the kernel went down.
		last=$(tr -d '\r' < "$dir/guest$i.out" | grep -a -E "$MARKERS" | tail -1)
		case "$rc/$last" in
		"0/@@SUPERP-REBOOT "*) ;;
		*) return "$rc" ;;
		esac
		# Not after the watchdog's NMI, whose panic restarts the guest.
		[ "$boot" -le "$SUPERP_REBOOTS" ] && [ ! -e "$dir/overrun" ] || return "$rc"
		boot=$((boot + 1))
		# "@@SUPERP-REBOOT T 12 0" -> superp.resume=T:12:0
		resume=" superp.resume=$(echo "$last" | awk '{ print $2 ":" $3 ":" $4 }')"
	done
}

# From a console with the task list of a panic (panic_print): the panic's
# lines, the running and blocked tasks with their stacks, and the other
# user-space tasks by name and state.
task_dump() { # console
	tr -d '\r' < "$1" | awk '
		/Kernel panic|NMI received/ { panic = 1 }
		!panic { next }
		/^\[ *[0-9.]+\] task:/ {
			keep = ($0 ~ / state:[DR] /)
			if (!keep && $0 !~ / ppid: *2 /) print
		}
		/^\[ *[0-9.]+\] (Kernel panic|Uhhuh|NMI)/ { print }
		keep { print }'
}

# guest_extra NAME: build guest extra NAME once in this run (the first
# boot that needs it builds it; another waits on the build directory's
# lock, which prepare.sh also takes while it writes).
guest_extra() {
	(
		flock 9
		[ ! -f "$extras_built/$1" ] || exit 0
		phase_begin "guest extra $1"
		"$SUPERP_TOP/selftests/harness/mkinitramfs.sh" extra "$SUPERP_BUILD/extra-$1.cpio" "$1" &&
			touch "$extras_built/$1" && phase_end
	) 9> "$SUPERP_BUILD/.lock"
}

# Boot the guests of one group and wait for them.
run_group() { # group [attempt]
	local g=$1 kernel=${1%%-*} topo=${group_topo[$1]} n=${group_nguests[$1]}
	local attempt=${2:-1}
	local dir=$SUPERP_RESULTS/$g plan total=0 i t line pids=() smp mem
	rm -rf "$dir"; mkdir -p "$dir"
	plan=$dir/plan
	printf '%s' "${group_tests[$g]}" | while read -r name timeout kind; do
		[ -n "$name" ] && echo "$kind $name $timeout"
	done > "$plan"
	while read -r _ _ t; do total=$((total + t)); done < "$plan"
	local gtimeout=${SUPERP_GROUP_TIMEOUT:-$((total + 240))}

	"$SUPERP_TOP/selftests/harness/mkinitramfs.sh" plan "$dir/plan.cpio" "$plan" || return 1
	# The guest extras of this boot's tests go between the base and the
	# plan; other boots stay without them.
	local extras=() x
	for x in ${group_extras[$g]:-}; do
		[ -z "$prepare" ] || guest_extra "$x" || return 1
		[ -f "$SUPERP_BUILD/extra-$x.cpio" ] || { log "no guest extra $x (run without --no-prepare)"; return 1; }
		extras+=("$SUPERP_BUILD/extra-$x.cpio")
	done
	cat "$SUPERP_BUILD/initrd-$kernel.cpio" "${extras[@]}" "$dir/plan.cpio" > "$dir/initrd.cpio"

	# One bridge per L2 segment, in a namespace of our own.
	netns=superp-$BASHPID
	ip netns add "$netns" || die "cannot create network namespace"
	local nseg=1
	[ "$topo" = router ] && nseg=2
	for s in $(seq 0 $((nseg - 1))); do
		ip -n "$netns" link add "br$s" type bridge
		ip -n "$netns" link set "br$s" mtu 9000 up
	done
	# Tests of this boot with a capture check: test -> check script.
	local -A capture=()
	local c
	while read -r kind name _; do
		[ "$kind" = selftest ] || continue
		c=$(prop "$name" capture "")
		[ -z "$c" ] || capture[$name]=$(dirname "$name")/$c
	done < "$plan"
	if [ ${#capture[@]} -gt 0 ]; then
		start_capture "$dir" "$nseg" || { cleanup; return 1; }
	fi
	smp=$(( $(nproc) / n )); [ "$smp" -ge 1 ] || smp=1
	[ "$kernel" = stock ] && mem=512 || mem=1024
	for i in $(seq 1 "$n"); do
		local nics=() segs=0
		case "$topo/$i" in
		router/1) segs="0 1" ;;
		router/3) segs=1 ;;
		esac
		local nic=0
		for s in $segs; do
			local tap=tap$i$nic
			ip -n "$netns" tuntap add "$tap" mode tap
			ip -n "$netns" link set "$tap" mtu 9000 master "br$s" up
			nics+=(-netdev "tap,id=n$nic,ifname=$tap,script=no,downscript=no"
			       -device "virtio-net-pci,netdev=n$nic,mac=52:54:00:23:0$s:0$i")
			nic=$((nic + 1))
		done
		{
			boot_guest "$dir" "$i" "$n" "$topo" "$kernel" "$smp" "$mem" \
				"$((SECONDS + gtimeout))" "${nics[@]}"
			t=$?
			echo "QEMU exit $t" > "$dir/guest$i.exit"
			exit "$t"
		} &
		pids+=($!)
	done
	local stalled
	stalled=$(watch_guests "$dir" "$n" "${pids[@]}")
	local rcs=()
	for i in $(seq 1 "$n"); do
		wait "${pids[$((i - 1))]}"
		rcs+=($?)
	done
	stop_capture
	cleanup
	rm -f "$dir/initrd.cpio"
	if [ -n "$stalled" ]; then
		# No test of this boot had started: booting again cannot turn a
		# failure into a pass, it only gives the tests their run.
		echo "# $g: guest(s)$stalled did not come up within ${SUPERP_BOOT_LIMIT}s (attempt $attempt); console tail:"
		for i in $stalled; do
			tail -5 "$dir/guest$i.console" | tr -d '\r' | sed "s/^/#   guest $i: /"
		done
		if [ "$attempt" -lt 2 ]; then
			rm -rf "$dir.stalled"; mv "$dir" "$dir.stalled"
			run_group "$g" $((attempt + 1))
			return
		fi
	fi
	# Serial lines end in CRLF.
	sed -i 's/\r$//' "$dir"/guest*.out "$dir"/guest*.console
	[ ! -s "$dir/reboot-stalls" ] || sed "s/^/# $g: /" "$dir/reboot-stalls"

	# Per test: its segment of each guest's output.
	while read -r kind name _; do
		local segs=()
		for i in $(seq 1 "$n"); do
			local seg=$dir/guest$i.$(echo "$name" | tr / _).seg
			awk -v n="$name" '$1 == "@@SUPERP-BEGIN" && $2 == n { on = 1; next }
				on { print } $1 == "@@SUPERP-END" && $2 == n { exit }' \
				"$dir/guest$i.out" > "$seg"
			segs+=("$seg")
		done
		[ -z "${capture[$name]:-}" ] ||
			segs+=("$(run_capture_check "$dir" "${capture[$name]}" "$nseg")")
		judge "$([ "$kind" = kunit ] && echo "kunit/$name" || echo "$name")" "$kind" "${segs[@]}"
	done < "$plan"

	# The guests themselves: finished in time, no kernel splat.
	for i in $(seq 1 "$n"); do
		local what="$g guest $i"
		if [[ " $stalled " == *" $i "* ]]; then
			failed=$((failed + 1))
			report fail "$what" "(did not come up within ${SUPERP_BOOT_LIMIT}s, twice)"
		elif [ -s "$dir/overrun" ]; then
			failed=$((failed + 1))
			report fail "$what" "(stopped: $(cat "$dir/overrun"))"
			tail -15 "$dir/guest$i.out" | sed 's/^/#   out: /'
			sed 's/^/#   qemu: /' "$dir/guest$i.qemu"
			# A splat before the NMI's panic.
			awk '/NMI received|not syncing: NMI/ { exit } { print }' "$dir/guest$i.console" |
				grep -E -A 12 "$SPLAT" | head -60 | sed 's/^/#   /'
			local tasks
			tasks=$(task_dump "$dir/guest$i.console" | head -150)
			if [ -n "$tasks" ]; then
				echo "$tasks" | sed 's/^/#   /'
			else
				# No NMI panic: a kernel in early boot, or no kernel.
				tail -20 "$dir/guest$i.console" | sed 's/^/#   /'
			fi
		elif [ "${rcs[$((i - 1))]}" = 124 ] || [ "${rcs[$((i - 1))]}" = 137 ]; then
			failed=$((failed + 1)); report fail "$what" "(timed out after ${gtimeout}s)"
			tail -30 "$dir/guest$i.console" | sed 's/^/#   /'
		elif ! grep -q '^@@SUPERP-DONE' "$dir/guest$i.out"; then
			failed=$((failed + 1))
			report fail "$what" "(died before finishing; qemu exit ${rcs[$((i - 1))]})"
			tail -30 "$dir/guest$i.console" | sed 's/^/#   /'
			sed 's/^/#   qemu: /' "$dir/guest$i.qemu"
			# A reset without a console message (e.g. a triple fault) is
			# only visible in QEMU's CPU reset log.
			grep -c 'CPU Reset' "$dir/guest$i.qemu-log" 2>/dev/null |
				sed 's/^/#   CPU resets logged by QEMU: /'
		elif grep -qE "$SPLAT" "$dir/guest$i.console"; then
			failed=$((failed + 1)); report fail "$what" "(kernel reported a problem)"
			grep -E -A 12 "$SPLAT" "$dir/guest$i.console" | head -60 | sed 's/^/#   /'
		else
			passed=$((passed + 1)); report ok "$what" "(clean console)"
		fi
	done
	# A NIC stopped sending: the queues as QEMU saw them then.
	[ ! -s "$dir/virtio-state" ] || sed 's/^/#   virtio: /' "$dir/virtio-state"
	return 0
}

if [ -n "$prepare" ]; then
	kernels_needed=$(for g in "${!group_tests[@]}"; do echo "${g%%-*}"; done | sort -u)
	# KUnit parsing needs the test kernel's tree even for host-only runs.
	for k in $kernels_needed; do
		"$SUPERP_TOP/selftests/harness/prepare.sh" "$k" || exit 1
	done
	[ ${#host_tests[@]} -gt 0 ] && make -s -C "$SUPERP_TOP" userspace
	# The guest extras the boots of this run need are built by the first
	# boot that needs each (guest_extra), so that the lanes of Debian's
	# kernel's boots overlap their building with other boots.
	extras_built=$SUPERP_RESULTS/.extras
	rm -rf "$extras_built"; mkdir -p "$extras_built"
fi

echo "TAP version 13"
echo "# time scale ${SUPERP_TIME_SCALE}% (timeouts; 100: as fast as the machine the limits were set on)"
if [ ${#host_tests[@]} -gt 0 ]; then
	phase_begin "host tests"; run_host_tests; phase_end
fi

# One boot in a lane: its TAP lines in $SUPERP_RESULTS/$g.tap (numbered
# from 1), its counts in $g.counts.
run_boot() { # group
	local g=$1
	passed=0 failed=0 skipped=0 testno=0
	trap cleanup EXIT
	phase_begin "guests $g"
	if ! run_group "$g"; then
		failed=$((failed + 1)); report fail "$g" "(the boot could not be set up)"
	fi
	log "guests $g: $passed ok, $failed not ok, $skipped skipped"
	phase_end
	echo "$passed $failed $skipped" > "$SUPERP_RESULTS/$g.counts"
}

# The debug kernel's boots keep both cores busy: they run one at a time,
# the heaviest (by its tests' declared timeouts) first. Debian's kernel's
# boots wait much of their time (timers, barriers, their peers, perftest's
# pauses) and leave about half the cores idle: after the others they run
# SUPERP_LANES at a time (default 2; 1: in turn), the heaviest first, each
# as soon as a lane is free (a fixed split by declared timeouts would
# follow the limits, not the times). Results are printed per boot, in
# name order, once all are done.
mapfile -t groups < <(for g in "${!group_tests[@]}"; do echo "$g"; done | LC_ALL=C sort)
lanes=${SUPERP_LANES:-2}
alone=() side=()
while read -r _ g; do
	if [ "${g%%-*}" = stock ] && [ "$lanes" -gt 1 ]; then side+=("$g"); else alone+=("$g"); fi
done < <(for g in "${groups[@]}"; do
		printf '%s' "${group_tests[$g]}" | awk -v g="$g" '{ w += $2 } END { print w + 0, g }'
	done | sort -rn)
for g in "${alone[@]}"; do (run_boot "$g" > "$SUPERP_RESULTS/$g.tap"); done
side_pids=()
for g in "${side[@]}"; do
	# A lane frees when one of this loop's boots ends.
	[ ${#side_pids[@]} -lt "$lanes" ] || wait -n "${side_pids[@]}"
	mapfile -t side_pids < <(for p in "${side_pids[@]}"; do kill -0 "$p" 2>/dev/null && echo "$p"; done)
	(run_boot "$g" > "$SUPERP_RESULTS/$g.tap") &
	side_pids+=($!)
done
[ ${#side_pids[@]} -eq 0 ] || wait "${side_pids[@]}"
for g in "${groups[@]}"; do
	read -r p f s < "$SUPERP_RESULTS/$g.counts" || { p=0 f=1 s=0; report fail "$g" "(the boot left no results)"; }
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	# Renumbered after what came before.
	awk -v base="$testno" '
		match($0, /^(ok|not ok) [0-9]+/) {
			n++; $0 = ($0 ~ /^ok/ ? "ok " : "not ok ") (base + n) substr($0, RLENGTH + 1)
		}
		{ print }' "$SUPERP_RESULTS/$g.tap" 2> /dev/null
	testno=$((testno + $(grep -cE '^(ok|not ok) [0-9]+' "$SUPERP_RESULTS/$g.tap" 2> /dev/null)))
done
echo "1..$testno"

echo "$passed $failed $skipped" > "$SUPERP_RESULTS/counts"
echo "superp: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$testno" -gt 0 ]
