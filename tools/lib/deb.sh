#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make deb: the Debian packages superp-dkms, superp-tools and
# superp-ibverbs-provider, built by dpkg-buildpackage -b from a copy of the
# tree under OUT (default build/deb), where the .deb files end up.
# make deb-modules: those and superp-modules-KVER, the modules DKMS builds
# here from superp-dkms for the kernel KVER (its headers installed), for
# machines that cannot compile; DKMS works in a tree of its own under OUT.
#
#   deb.sh [OUT]
#   deb.sh --modules KVER [OUT]
#
# The packages' version is the project's (version.sh) in Debian's form:
# v0.1.0 or 0.1.0 as such, a commit after a tag v0.1.0-5-gabc1234 as
# 0.1.0+5.gabc1234, a commit of an untagged history abc1234 as
# 0.1.0+gabc1234 (0.1.0 from VERSION), -dirty as .dirty. The packaged tools
# print it with -V. Documentation/packaging.rst says why.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
kver=
if [ "${1:-}" = --modules ]; then
	kver=${2:?--modules needs a kernel release}
	shift 2
fi
out=$(mkdir -p "${1:-$top/build/deb}" && cd "${1:-$top/build/deb}" && pwd)

debian_version() {
	local v base
	v=$("$top/tools/lib/version.sh")
	base=$(sed -n '/^[^#]/{p;q}' "$top/VERSION")
	case $v in
	v[0-9]* | [0-9]*.[0-9]*)
		v=${v#v}
		v=${v/-/+}
		;;
	*) v=$base+g$v ;;
	esac
	echo "${v//-/.}"
}

version=$(debian_version)
src=$out/superp-$version
rm -rf "$src"
mkdir -p "$src"
"$top/tools/lib/copy-tree.sh" "$src"
# The version dpkg-buildpackage and the tools take; the committed
# changelog names the last release.
sed -i "1s/([^)]*)/($version)/" "$src/debian/changelog"

rm -f "$out"/superp*.deb "$out"/superp_*.changes "$out"/superp_*.buildinfo
(cd "$src" && dpkg-buildpackage -b -us -uc)
rm -rf "$src"
[ -n "$kver" ] || { ls "$out"/*.deb; exit 0; }

# The modules for KVER from superp-dkms's own files, by DKMS's own add and
# build on a private tree: nothing under /var/lib/dkms or /lib/modules
# changes. Unsigned (sign_file names no program): a machine that takes
# the package does not trust a key made here either, and Debian's kernel
# loads unsigned modules when Secure Boot is off. Debian 12's DKMS has no
# mkbmdeb any more: dpkg-deb packages the result.
dkms_src=$out/superp-dkms
dkms_tree=$out/dkms
rm -rf "$dkms_src" "$dkms_tree"
mkdir -p "$dkms_tree"
dpkg-deb -x "$out/superp-dkms_${version}_all.deb" "$dkms_src"
export PATH=$PATH:/usr/sbin:/sbin
dkms=(env sign_file=/nonexistent dkms --dkmstree "$dkms_tree" --sourcetree "$dkms_src/usr/src"
	-m superp -v "$version" -k "$kver")
"${dkms[@]}" add
"${dkms[@]}" build

pkg=superp-modules-$kver
root=$out/$pkg
built=$dkms_tree/superp/$version/$kver/$(dpkg --print-architecture | sed 's/amd64/x86_64/')/module
rm -rf "$root"
install -d "$root/DEBIAN" "$root/lib/modules/$kver/updates/dkms" "$root/usr/share/doc/$pkg"
install -m 0644 "$built"/sunh.ko "$built"/ib_superp.ko "$root/lib/modules/$kver/updates/dkms/"
install -m 0644 "$dkms_src/usr/share/doc/superp-dkms/copyright" \
	"$dkms_src/usr/share/doc/superp-dkms/changelog.gz" "$root/usr/share/doc/$pkg/"
# Where superp-dkms would put them, so the two cannot be installed together.
cat > "$root/DEBIAN/control" <<CONTROL
Package: $pkg
Source: superp
Version: $version
Architecture: $(dpkg --print-architecture)
Maintainer: $(dpkg-deb -f "$out/superp-dkms_${version}_all.deb" Maintainer)
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: linux-image-$kver
Conflicts: superp-dkms
Section: kernel
Priority: optional
Description: SUPERp transport for RDMA over Ethernet - modules for Linux $kver
 SUPERp (Scale UP EtheRnet) is a lightweight reliable transport for remote
 memory access between tightly coupled accelerators over plain Ethernet.
 .
 This package provides the sunh and ib_superp kernel modules built by
 DKMS for Linux $kver, for machines that cannot build them
 (superp-dkms builds them on the machine instead).
CONTROL
# modprobe finds them after depmod; they are unloaded before removal.
cat > "$root/DEBIAN/postinst" <<SCRIPT
#!/bin/sh
set -e
if [ "\$1" = configure ]; then
	depmod -a $kver
fi
SCRIPT
cat > "$root/DEBIAN/prerm" <<SCRIPT
#!/bin/sh
set -e
if [ "\$1" = remove ] && [ "\$(uname -r)" = $kver ]; then
	modprobe -r ib_superp sunh
fi
SCRIPT
cat > "$root/DEBIAN/postrm" <<SCRIPT
#!/bin/sh
set -e
if [ "\$1" = remove ] && [ -d /lib/modules/$kver/kernel ]; then
	depmod -a $kver
fi
SCRIPT
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"
(cd "$root" && find lib usr -type f -exec md5sum {} + > DEBIAN/md5sums)
dpkg-deb --root-owner-group --build "$root" "$out/${pkg}_${version}_$(dpkg --print-architecture).deb"
rm -rf "$root" "$dkms_src" "$dkms_tree"
ls "$out"/*.deb
