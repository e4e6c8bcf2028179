#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build what guests need for KERNEL (test|stock|bench): the project's modules for
# that kernel, the tools, and the initramfs. Prints nothing on success but
# phase lines; results go to $SUPERP_BUILD.
set -euo pipefail
. "$(dirname "$0")/common.sh"

kernel=$1
mkdir -p "$SUPERP_BUILD"
# One writer at a time: a second run waits rather than mixing its objects
# and initramfs with ours.
exec 9> "$SUPERP_BUILD/.lock"
flock 9

case "$kernel" in
test)
	kdir=$(build_test_kernel)
	kver=$(cat "$kdir/include/config/kernel.release")
	modroot=$(dirname "$kdir")/modroot
	;;
bench)
	kdir=$(build_bench_kernel)
	kver=$(cat "$kdir/include/config/kernel.release")
	modroot=$(dirname "$kdir")/modroot
	;;
stock)
	kver=$(stock_kernel_version)
	kdir=/lib/modules/$kver/build
	modroot=/
	;;
*) die "unknown kernel '$kernel'" ;;
esac

# The project's modules with the KUnit suites and test probes
# (SUPERP_TESTS=1; the top Kbuild leaves them out otherwise), built out of
# tree in a copy per kernel so that builds for two kernels never share
# objects. Warnings are errors; on the test kernel sparse checks every
# file compiled (C=1).
# The copy is built where every run builds it, beside the cached kernels
# (one run at a time), through ccache: a run on a fresh clone then
# compiles again only what changed since the last run (ccache's hash
# holds the paths, so a tree in another place would miss); sparse still
# checks every file. The .ko files go to $SUPERP_BUILD/modules-KERNEL.
phase_begin "modules ($kernel kernel)"
obj=$SUPERP_BUILD/modules-$kernel
src=$SUPERP_CACHE/modules-$kernel
mkdir -p "$SUPERP_CACHE"
exec 7> "$src.lock"
flock 7
rm -rf "$src" "$obj"
mkdir -p "$src" "$obj"
# Sources only: objects of a build in the source tree (another kernel's)
# must not reach this copy.
(cd "$SUPERP_TOP" && tar -c --exclude='*.o' --exclude='*.ko' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
	--exclude='modules.order' --exclude='Module.symvers' \
	Kbuild include net drivers kunit probes) | tar -x -C "$src"
sparse=
[ "$kernel" = test ] && sparse=C=1
cc=gcc
command -v ccache > /dev/null && cc="ccache gcc"
export CCACHE_DIR=$SUPERP_CACHE/ccache
make -s -j"$(nproc)" -C "$kdir" M="$src" W=1 $sparse SUPERP_TESTS=1 CC="$cc" modules >"$obj.log" 2>&1 ||
	{ cat "$obj.log"; die "module build for the $kernel kernel failed"; }
if grep -E 'warning:|error:' "$obj.log"; then
	die "module build for the $kernel kernel has warnings"
fi
(cd "$src" && find . -name '*.ko' | cpio -pdm --quiet "$obj")
exec 7>&-
phase_end

phase_begin "tools"
make -s -C "$SUPERP_TOP" userspace BUILD="$SUPERP_BUILD"
phase_end

phase_begin "initramfs ($kernel kernel)"
"$SUPERP_TOP/selftests/harness/mkinitramfs.sh" base "$SUPERP_BUILD/base.cpio"
"$SUPERP_TOP/selftests/harness/mkinitramfs.sh" modules "$SUPERP_BUILD/modules-$kernel.cpio" \
	"$kver" "$modroot" "$obj"
cat "$SUPERP_BUILD/base.cpio" "$SUPERP_BUILD/modules-$kernel.cpio" > "$SUPERP_BUILD/initrd-$kernel.cpio"
if [ "$kernel" = test ]; then
	cp "$kdir/arch/x86/boot/bzImage" "$SUPERP_BUILD/vmlinuz-test"
	ln -sfn "$kdir" "$SUPERP_BUILD/kernel-src"
elif [ "$kernel" = bench ]; then
	cp "$kdir/arch/x86/boot/bzImage" "$SUPERP_BUILD/vmlinuz-bench"
else
	cp "/boot/vmlinuz-$kver" "$SUPERP_BUILD/vmlinuz-stock"
fi
phase_end
