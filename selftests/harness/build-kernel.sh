#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (once) the SUPERp test kernel from Debian's linux-source-6.1 and the
# config fragments selftests/config.base and selftests/config. Prints the
# kernel tree's path.
# The result is cached outside the work tree; a second run only prints.
set -euo pipefail
. "$(dirname "$0")/common.sh"

dir=$(test_kernel_dir)
if [ -f "$dir/.done" ]; then
	echo "$dir/src"
	exit 0
fi

log "building test kernel in $dir (cold cache; takes a while)"
rm -rf "$dir"
mkdir -p "$dir/src"
tar -C "$dir/src" --strip-components=1 -xJf "$SUPERP_LINUX_TARBALL"
cd "$dir/src"

# Code not under test is built without KASAN and UBSAN instrumentation:
# each kbuild makefile of the directories selftests/config.uninstrumented
# lists says so first (kbuild's KASAN_SANITIZE and UBSAN_SANITIZE; a
# file's own setting still wins). Boot, real-mode, purgatory and host
# tool code has settings of its own and is left alone.
grep -v '^#' "$SUPERP_TOP/selftests/config.uninstrumented" | while read -r d; do
	[ -d "$d" ] || die "config.uninstrumented: no directory $d in the kernel tree"
	find "$d" \( -name Makefile -o -name Kbuild \) |
		grep -vE '^arch/x86/(boot|realmode|purgatory|tools|um)(/|$)' |
		while read -r f; do
			printf 'KASAN_SANITIZE := n\nUBSAN_SANITIZE := n\n' | cat - "$f" > "$f.new"
			mv "$f.new" "$f"
		done
done

jobs=$(nproc)
# allnoconfig, then the guest's base and the test fragment: every option
# not asked for stays off (Documentation/testing.rst, "The test kernel").
cat "$SUPERP_TOP/selftests/config.base" "$SUPERP_TOP/selftests/config" > "$dir/fragment"
make -s KCONFIG_ALLCONFIG="$dir/fragment" allnoconfig >/dev/null
make -s olddefconfig >/dev/null
config_fragment_applied .config "$dir/fragment" || die "config fragment not applied"

make -s -j"$jobs" bzImage modules >"$dir/build.log" 2>&1 ||
	{ tail -40 "$dir/build.log"; die "kernel build failed (log: $dir/build.log)"; }
make -s INSTALL_MOD_PATH="$dir/modroot" INSTALL_MOD_STRIP=1 modules_install >/dev/null
touch "$dir/.done"
echo "$dir/src"
