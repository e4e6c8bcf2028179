#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (once) the SUPERp test kernel from Debian's linux-source-6.1 and the
# config fragment selftests/config. Prints the kernel tree's path.
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
make -s x86_64_defconfig >/dev/null
make -s kvm_guest.config >/dev/null
scripts/kconfig/merge_config.sh -m .config "$SUPERP_TOP/selftests/config" >/dev/null
make -s olddefconfig >/dev/null

# Every option of the fragment must have survived olddefconfig.
bad=0
while read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" .config || { log "config: wanted $line, got: $(grep "^${line%%=*}=" .config || echo unset)"; bad=1; }
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		grep -q "^$opt=" .config && { log "config: wanted $opt unset"; bad=1; }
		;;
	esac
done < "$SUPERP_TOP/selftests/config"
[ $bad = 0 ] || die "config fragment not applied"

make -s -j"$jobs" bzImage modules >"$dir/build.log" 2>&1 ||
	{ tail -40 "$dir/build.log"; die "kernel build failed (log: $dir/build.log)"; }
make -s INSTALL_MOD_PATH="$dir/modroot" INSTALL_MOD_STRIP=1 modules_install >/dev/null
touch "$dir/.done"
echo "$dir/src"
