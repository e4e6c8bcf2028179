#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Assemble guest initramfs pieces (cpio newc, uncompressed: the kernel
# unpacks concatenated archives, and TCG guests are faster without inflate).
#
#   mkinitramfs.sh base OUT                       binaries, libraries, project files
#   mkinitramfs.sh modules OUT VER MODROOT KODIR  kernel modules + project .ko files
#   mkinitramfs.sh plan OUT PLANFILE              the test plan of one boot
#   mkinitramfs.sh extra OUT NAME                 guest extra NAME (guest-extra/NAME)
set -euo pipefail
. "$(dirname "$0")/common.sh"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# Merged /usr like Debian: everything lives under usr/.
usr_path() {
	case "$1" in
	/lib/* | /lib64/* | /bin/* | /sbin/*) echo "/usr$1" ;;
	*) echo "$1" ;;
	esac
}

copy_file() {
	local dst
	dst=$stage$(usr_path "$1")
	[ -e "$dst" ] && return 0
	mkdir -p "$(dirname "$dst")"
	cp -L "$1" "$dst"
}

copy_with_libs() {
	local lib
	[ -e "$1" ] || die "missing guest binary $1 (run: make setup)"
	copy_file "$1"
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*'); do
		copy_file "$lib"
	done
}

write_cpio() {
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) > "$1"
}

make_base() {
	local b a
	mkdir -p "$stage"/usr/{bin,sbin,lib,lib64} "$stage"/{dev,proc,sys,tmp,run,etc,root,mnt}
	for d in bin sbin lib lib64; do ln -s "usr/$d" "$stage/$d"; done
	mknod "$stage/dev/console" c 5 1
	mknod "$stage/dev/null" c 1 3

	grep -v '^#' "$SUPERP_TOP/selftests/harness/guest-binaries" | while read -r b; do
		[ -n "$b" ] && copy_with_libs "$b"
	done
	# The guests' jq is gojq: the tests read every counter through jq,
	# and jq 1.6 compiles its library of builtins at each start (0.5 s
	# under TCG, 1 s in the debug guest; gojq a third of that).
	ln -s gojq "$stage/usr/bin/jq"
	for a in modprobe insmod rmmod lsmod depmod modinfo; do
		ln -s ../bin/kmod "$stage/usr/sbin/$a"
	done
	# /bin/sh is dash, not busybox ash: busybox's shell runs its own
	# applets ahead of PATH, so tests would get busybox's ip, tc or setpriv
	# instead of the real tools. Busybox only fills in what is missing.
	ln -s dash "$stage/usr/bin/sh"
	cp /bin/busybox "$stage/usr/bin/busybox"
	# No busybox init: if /init fails the kernel must panic, not wait.
	for a in $(/bin/busybox --list | grep -vxE 'init|linuxrc'); do
		[ -e "$stage/usr/bin/$a" ] || [ -e "$stage/usr/sbin/$a" ] ||
			ln -s busybox "$stage/usr/bin/$a"
	done

	# libibverbs: only the soft providers (and ours) are useful in a guest.
	mkdir -p "$stage/etc/libibverbs.d"
	cp /etc/libibverbs.d/rxe.driver /etc/libibverbs.d/siw.driver "$stage/etc/libibverbs.d/"
	copy_with_libs "$SUPERP_TOP/providers/superp/libsuperp-rdmav34.so"
	mv "$stage$SUPERP_TOP/providers/superp/libsuperp-rdmav34.so" \
		"$stage/usr/lib/x86_64-linux-gnu/libibverbs/"
	cp "$SUPERP_TOP/providers/superp/superp.driver" "$stage/etc/libibverbs.d/"

	# The dynamic linker's cache: without it each exec looks for every
	# library in each directory and its hwcaps subdirectories by name
	# (ip -V: 22 failed lookups, 3 with the cache).
	printf '/usr/lib/x86_64-linux-gnu\n' > "$stage/etc/ld.so.conf"
	ldconfig -X -r "$stage"

	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' \
		> "$stage/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' > "$stage/etc/group"
	printf '127.0.0.1 localhost\n' > "$stage/etc/hosts"

	# The project: harness scripts, tests, tools (one binary per tools/ dir).
	mkdir -p "$stage/superp/bin"
	install -m 755 "$SUPERP_TOP/selftests/harness/guest-init" "$stage/init"
	cp -r "$SUPERP_TOP/selftests" "$stage/superp/selftests"
	for b in superp-barrier superp-kasan-trim superp-verbs-probe superp-ring-garbage superp-stress \
		 superp-mw superp-udp-lat superp-udp-flood; do
		copy_with_libs "$SUPERP_BUILD/$b"
		mv "$stage$SUPERP_BUILD/$b" "$stage/superp/bin/"
	done
	for t in "$SUPERP_TOP"/tools/*/; do
		t=${t%/}
		if [ -x "$t/$(basename "$t")" ]; then
			copy_with_libs "$t/$(basename "$t")"
			mv "$stage$t/$(basename "$t")" "$stage/superp/bin/"
		fi
	done
	write_cpio "$1"
}

# Kernel modules for one kernel version: the test kernel's own modules
# (few: most is built in), or the Debian modules the guests need, plus the
# project's modules in extra/, indexed by depmod so modprobe resolves deps.
make_modules() {
	local out=$1 ver=$2 modroot=$3 kodir=$4 m f
	# crc32_generic: rxe asks the crypto API for "crc32" (no module built in).
	# nvmet_rdma, nvme_rdma, brd: verbs/nvmeof.sh (NVMe over Fabrics; a
	# kernel without them gets a note).
	local want="virtio_pci virtio_net ib_core ib_uverbs rdma_ucm rdma_cm rdma_rxe siw sch_netem sch_prio cls_u32 veth crc32_generic nvmet_rdma nvme_rdma brd"

	mkdir -p "$stage/usr/lib/modules/$ver/extra"
	for m in $want; do
		deps=$(modprobe -d "$modroot" -S "$ver" --show-depends "$m" 2>/dev/null) ||
			{ log "note: kernel $ver has no module $m"; continue; }
		printf '%s\n' "$deps" | awk '$1 == "insmod" { print $2 }' | while read -r f; do
				rel=${f#"${modroot%/}"}
				rel=${rel#/usr}
				mkdir -p "$stage/usr$(dirname "$rel")"
				cp "$f" "$stage/usr$rel"
			done
	done
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		if [ -f "$modroot/lib/modules/$ver/$f" ]; then
			cp "$modroot/lib/modules/$ver/$f" "$stage/usr/lib/modules/$ver/"
		fi
	done
	find "$kodir" -name '*.ko' -exec cp {} "$stage/usr/lib/modules/$ver/extra/" \;
	depmod -b "$stage/usr" "$ver"
	write_cpio "$out"
}

make_plan() {
	mkdir -p "$stage/superp"
	cp "$2" "$stage/superp/plan"
	write_cpio "$1"
}

# What some boots carry beside the base: selftests/harness/guest-extra/NAME,
# a fragment of this script that stages files with copy_file and
# copy_with_libs, goes into the initramfs of the boots whose tests declare
# "# superp-guest-extra: NAME" (run.sh), and of no other.
make_extra() {
	local out=$1 name=$2 frag=$SUPERP_TOP/selftests/harness/guest-extra/$2
	[ -f "$frag" ] || die "no guest extra $name ($frag)"
	mkdir -p "$stage"/usr/{bin,lib}
	# shellcheck source=/dev/null
	. "$frag"
	write_cpio "$out"
}

case "${1:-}" in
base) make_base "$2" ;;
modules) make_modules "$2" "$3" "$4" "$5" ;;
plan) make_plan "$2" "$3" ;;
extra) make_extra "$2" "$3" ;;
*) die "usage: $0 base|modules|plan|extra OUT ..." ;;
esac
