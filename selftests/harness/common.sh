# SPDX-License-Identifier: GPL-2.0
# Shared settings for the SUPERp host-side harness scripts (sourced).

SUPERP_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SUPERP_CACHE=${SUPERP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/superp}
SUPERP_RESULTS=${SUPERP_RESULTS:-$SUPERP_TOP/results}
SUPERP_BUILD=${SUPERP_BUILD:-$SUPERP_TOP/build}
SUPERP_LINUX_TARBALL=${SUPERP_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}

# make check's own results under DIR, removed before it runs; make bench's
# (DIR/bench) and narrow runs' boots stay.
check_results_reset() { # DIR
	rm -rf "$1/suite" "$1/selfcheck" "$1/selfcheck.tap" "$1/phases"
}

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Phase timing: phase_begin NAME ... phase_end; both print one line.
phase_begin() { _phase_name=$1; _phase_t0=$(date +%s); log "phase $1: start"; }
phase_end() {
	local dt=$(( $(date +%s) - _phase_t0 ))
	log "phase $_phase_name: done in ${dt}s"
	[ -n "${SUPERP_PHASE_LOG:-}" ] && printf '%-28s %6ss\n' "$_phase_name" "$dt" >> "$SUPERP_PHASE_LOG"
	return 0
}

# A cached kernel PREFIX-VERSION-KEY: keyed by the source package version
# and by the contents of FILES (its config fragment and build recipe).
cached_kernel_dir() { # PREFIX FILE...
	local prefix=$1 ver key
	shift
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
		die "linux-source-6.1 is not installed (run: make setup)"
	key=$(cat "$@" | sha256sum | cut -c1-12)
	echo "$SUPERP_CACHE/$prefix-$ver-$key"
}

# The test kernel (build-kernel.sh) and the benchmark kernel
# (build-bench-kernel.sh).
test_kernel_dir() {
	cached_kernel_dir kernel "$SUPERP_TOP/selftests/config.base" "$SUPERP_TOP/selftests/config" \
		"$SUPERP_TOP/selftests/config.uninstrumented" \
		"$SUPERP_TOP/selftests/harness/build-kernel.sh"
}
bench_kernel_dir() {
	cached_kernel_dir bench-kernel "$SUPERP_TOP/selftests/config.bench" \
		"$SUPERP_TOP/selftests/harness/build-bench-kernel.sh"
}
# Build them (once) and print the tree's path. Every work tree of the
# machine shares the cache but not its own build directory's lock: one
# build at a time, under a lock beside the cached kernel, so that a
# second run waits and then finds it built instead of removing the tree
# the first is building in.
build_test_kernel() {
	local dir
	dir=$(test_kernel_dir) && mkdir -p "$(dirname "$dir")" &&
		flock "$dir.lock" "$SUPERP_TOP/selftests/harness/build-kernel.sh"
}
build_bench_kernel() {
	local dir
	dir=$(bench_kernel_dir) && mkdir -p "$(dirname "$dir")" &&
		flock "$dir.lock" "$SUPERP_TOP/selftests/harness/build-bench-kernel.sh"
}

# Whether every line of config FRAGMENT holds in .config FILE (log the
# ones that do not).
config_fragment_applied() { # FILE FRAGMENT
	local line opt bad=0
	while read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF "$line" "$1" || { log "config: wanted $line, got: $(grep "^${line%%=*}=" "$1" || echo unset)"; bad=1; }
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			grep -q "^$opt=" "$1" && { log "config: wanted $opt unset"; bad=1; }
			;;
		esac
	done < "$2"
	return $bad
}

# Debian's stock kernel, the one users run.
stock_kernel_version() {
	local v
	v=$(ls /lib/modules 2>/dev/null | grep -E -- '-amd64$' | sort -V | tail -1)
	[ -n "$v" ] || die "no Debian stock kernel found (run: make setup)"
	echo "$v"
}

# The machine's speed against the one the tests' limits were measured on,
# as a percentage for scaling timeouts (at least 100): a fixed
# interpreter loop, single-threaded and branchy like QEMU's TCG, timed
# on the idle machine. SUPERP_TIME_REF_MS is its time there.
SUPERP_TIME_REF_MS=${SUPERP_TIME_REF_MS:-1000}
time_scale() {
	local t0 t1 pct
	t0=$(date +%s%N)
	awk 'BEGIN { for (i = 0; i < 1e7; i++) s += i % 7 }'
	t1=$(date +%s%N)
	pct=$(( (t1 - t0) / 10000 / SUPERP_TIME_REF_MS ))
	[ "$pct" -ge 100 ] || pct=100
	echo "$pct"
}

# qemu_monitor_query SOCKET CMD: one command to a QEMU's human monitor on
# the unix socket SOCKET, its answer on stdout; fails when the monitor did
# not take it. The monitor greets with a prompt and prompts again once
# the command ran (or closes: quit): hanging up before that can lose the
# command, which QEMU then drops with the connection (about one in five,
# seen).
qemu_monitor_query() {
	python3 - "$1" "$2" <<-'PY' 2>/dev/null
	import socket, sys
	s = socket.socket(socket.AF_UNIX)
	s.settimeout(5)
	s.connect(sys.argv[1])
	s.sendall(sys.argv[2].encode() + b"\n")
	got = b""
	while got.count(b"(qemu) ") < 2:
	    d = s.recv(4096)
	    if not d:
	        break
	    got += d
	# The answer: between the echoed command line and the next prompt.
	answer = got.split(b"(qemu) ")[1] if got.count(b"(qemu) ") >= 2 else b""
	lines = answer.decode(errors="replace").replace("\r", "").split("\n")[1:]
	sys.stdout.write("\n".join(l for l in lines if l.strip()) + "\n")
	PY
}
# qemu_monitor_cmd SOCKET CMD: the same, the answer dropped (nmi, quit).
qemu_monitor_cmd() { qemu_monitor_query "$@" > /dev/null; }
