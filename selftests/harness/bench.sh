#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench [QUICK=1]: SUPERp beside TCP, rxe and siw on one link between
# two guests, in one run; Documentation/performance.rst explains the figures.
# Results: results/bench/DATE/ (results.md, .csv, .json, a PNG per test).
set -uo pipefail
. "$(dirname "$0")/common.sh"

plan=full
[ -n "${QUICK:-}" ] && plan=quick
# PLAN=NAME: selftests/harness/bench/NAME.sh (e.g. focus)
[ -n "${PLAN:-}" ] && plan=$PLAN
[ -f "$SUPERP_TOP/selftests/harness/bench/$plan.sh" ] || die "no bench plan $plan"
# The benchmark kernel (no debugging, rxe and siw; build-bench-kernel.sh);
# SUPERP_BENCH_KERNEL=stock measures on Debian's kernel instead.
kernel=${SUPERP_BENCH_KERNEL:-bench}
case "$kernel" in
bench) kname="the project's benchmark kernel (no debugging options)" ;;
stock) kname="Debian's stock kernel" ;;
*) die "SUPERP_BENCH_KERNEL: bench or stock, not '$kernel'" ;;
esac
# PROFILE=TEST:SIZE: perf in both guests while each RDMA contender
# measures that entry (bench/lib.sh), a flame graph per contender and guest.
if [ -n "${PROFILE:-}" ]; then
	[[ "$PROFILE" == ib_*:[0-9]* ]] || die "PROFILE: TEST:SIZE, e.g. ib_write_bw:65536, not '$PROFILE'"
	export SUPERP_GUEST_APPEND="${SUPERP_GUEST_APPEND:-} superp.profile=$PROFILE"
	export SUPERP_GUEST_EXTRAS="${SUPERP_GUEST_EXTRAS:-} perf"
fi
out=$SUPERP_TOP/results/bench/$(date +%Y-%m-%d-%H%M%S)
mkdir -p "$out"
log "bench ($plan) -> $out"
start=$(date +%s)
SUPERP_RESULTS=$out/run "$SUPERP_TOP/selftests/harness/run.sh" --kernel "$kernel" \
	"selftests/harness/bench/$plan.sh" > "$out/run.log" 2>&1 &
runner=$!
# A progress line per measurement, as the measuring guest reports it.
sleep 2
tail -n +1 -F "$out/run/$kernel-pair/guest2.out" 2>/dev/null |
	sed -un 's/^@@BENCH /bench: /p' &
follower=$!
wait $runner
rc=$?
kill $follower 2>/dev/null
wait $follower 2>/dev/null
grep -h '^@@BENCH ' "$out/run/$kernel-pair/guest2.out" > "$out/rows.txt" 2>/dev/null
if [ -n "${PROFILE:-}" ]; then
	for g in 1 2; do
		awk -v dir="$out" -v g="$g" '$1 == "@@PROFILE" {
			f = dir "/profile-" $2 "-guest" g ".folded"
			$1 = $2 = $3 = ""
			sub(/^ +/, "")
			print > f
		}' "$out/run/$kernel-pair/guest$g.out" 2>/dev/null
	done
	for f in "$out"/profile-*.folded; do
		[ -f "$f" ] || { log "bench: PROFILE=$PROFILE: no samples (no such entry in the plan?)"; break; }
		b=$(basename "$f" .folded)
		/usr/bin/python3 "$SUPERP_TOP/selftests/harness/bench/flame.py" "$f" \
			"$PROFILE ${b#profile-}" "$out/$b.svg" > "$out/$b.top.txt" || rc=1
	done
fi
{
	echo "# SUPERp benchmark, $(date -u '+%Y-%m-%d %H:%M UTC') ($plan, $(($(date +%s) - start)) s)"
	echo
	echo "Host: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%d GiB", $2 / 1048576 }' /proc/meminfo)," \
		"guests under QEMU TCG, kernel: $kname, $(sed -n 's/^@@SUPERP-GUEST 2 up: \([^,]*\),.*/\1/p' \
		"$out/run/$kernel-pair/guest2.out" 2>/dev/null | head -1)"
	echo
} > "$out/header.md"
if ! /usr/bin/python3 "$SUPERP_TOP/selftests/harness/bench/report.py" "$out/rows.txt" "$out" \
	> "$out/report.log" 2>&1; then
	cat "$out/report.log"
	exit 1
fi
cat "$out/header.md" "$out/results.md" > "$out/README.md"
cat "$out/README.md"
log "bench: $(wc -l < "$out/rows.txt") rows in $out (harness exit $rc)"
exit $rc
