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
