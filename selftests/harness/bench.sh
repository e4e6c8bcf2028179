#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench [QUICK=1]: SUPERp beside TCP, rxe and siw on one link between
# two guests, in one run; Documentation/performance.rst explains the figures.
# Results: results/bench/DATE/ (results.md, .csv, .json, a PNG per test).
set -uo pipefail
. "$(dirname "$0")/common.sh"

plan=full
[ -n "${QUICK:-}" ] && plan=quick
# The benchmark kernel (no debugging, rxe and siw; build-bench-kernel.sh);
# SUPERP_BENCH_KERNEL=stock measures on Debian's kernel instead.
kernel=${SUPERP_BENCH_KERNEL:-bench}
case "$kernel" in
bench) kname="the project's benchmark kernel (no debugging options)" ;;
stock) kname="Debian's stock kernel" ;;
*) die "SUPERP_BENCH_KERNEL: bench or stock, not '$kernel'" ;;
esac
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
