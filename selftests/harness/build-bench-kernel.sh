#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (once) the SUPERp benchmark kernel: Debian's linux-source-6.1 with
# the config fragment selftests/config.bench (the test kernel's devices
# and RDMA, rxe and siw, no debugging option). Prints the kernel tree's
# path. Cached outside the work tree beside the test kernel; a second run
# only prints.
#
# The same recipe as build-kernel.sh, kept apart on purpose: the test
# kernel's cache key hashes build-kernel.sh, so folding this one into it
# would rebuild the test kernel (about 22 minutes on a cold machine) for
# nothing.
set -euo pipefail
. "$(dirname "$0")/common.sh"

dir=$(bench_kernel_dir)
if [ -f "$dir/.done" ]; then
	echo "$dir/src"
	exit 0
fi

log "building bench kernel in $dir (cold cache; takes a while)"
rm -rf "$dir"
mkdir -p "$dir/src"
tar -C "$dir/src" --strip-components=1 -xJf "$SUPERP_LINUX_TARBALL"
cd "$dir/src"

make -s x86_64_defconfig >/dev/null
make -s kvm_guest.config >/dev/null
scripts/kconfig/merge_config.sh -m .config "$SUPERP_TOP/selftests/config.bench" >/dev/null
make -s olddefconfig >/dev/null
# A debugging option that another one selected back on would skew every
# figure: each line of the fragment must have survived olddefconfig.
config_fragment_applied .config "$SUPERP_TOP/selftests/config.bench" ||
	die "config fragment not applied"

make -s -j"$(nproc)" bzImage modules >"$dir/build.log" 2>&1 ||
	{ tail -40 "$dir/build.log"; die "kernel build failed (log: $dir/build.log)"; }
make -s INSTALL_MOD_PATH="$dir/modroot" INSTALL_MOD_STRIP=1 modules_install >/dev/null
touch "$dir/.done"
echo "$dir/src"
