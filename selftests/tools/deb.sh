#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# superp-topology: host
# superp-timeout: 240
#
# make deb, in a copy of the tree with nothing built in it (as a fresh
# clone is), builds superp-dkms, superp-tools and superp-ibverbs-provider;
# each holds what it should and nothing of the tests: the modules' sources
# and a dkms.conf that builds both, the tools with their manual pages,
# bash completion and the dissector in Wireshark's plugin folder, the
# provider where Debian's ibverbs-providers puts providers; the packaged
# tools print the packages' version; lintian finds no error or warning.
# (The packages installed and the modules built by DKMS in a stock-kernel
# guest are a guest test's; this one needs no guest.)

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null)

# The package named $1 (its .deb in $tmp/out).
deb() { echo "$tmp/out/$1_${version}_$2.deb"; }

build() {
	local start=$SECONDS
	mkdir "$tmp/tree" && "$top/tools/lib/copy-tree.sh" "$tmp/tree" || return 1
	make -C "$tmp/tree" deb DEB_DIR="$tmp/out" > "$tmp/build.log" 2>&1 ||
		{ tail -20 "$tmp/build.log"; return 1; }
	echo "make deb took $((SECONDS - start)) s" > "$tmp/took"
}

# has DEB PATH-ERE...: DEB's file list (dpkg-deb -c, without the leading
# ".") has a line matching each ^ERE$.
has() {
	local list e bad=0
	list=$(dpkg-deb -c "$1" | awk '{ sub(/^\./, "", $6); print $6 }') || return 1
	shift
	for e in "$@"; do
		grep -Eq "^$e\$" <<< "$list" || { echo "no $e"; bad=1; }
	done
	return $bad
}

# control DEB FILE ERE: DEB's control file FILE has a line matching ERE.
control() {
	dpkg-deb -I "$1" "$2" | grep -Eq "$3" || { echo "$2 without /$3/"; return 1; }
}

# field DEB NAME ERE: control field NAME of DEB matches ERE.
field() {
	local v
	v=$(dpkg-deb -f "$1" "$2")
	grep -Eq "$3" <<< "$v" || { echo "$2: \"$v\", not /$3/"; return 1; }
}

# depends_on DEB PACKAGE...: DEB's Depends names every PACKAGE.
depends_on() {
	local deb=$1 p
	shift
	for p in "$@"; do
		field "$deb" Depends "(^|, )$p( |,|\$)" || return 1
	done
}

# The test programs, KUnit suites and probes are in no package: no file of
# any named after them, no .ko (superp-dkms ships sources only).
no_tests() {
	local d hits bad=0
	for d in "$tmp"/out/*.deb; do
		hits=$(dpkg-deb -c "$d" | awk '{ print $6 }' |
			grep -E 'kunit|probes/|selftests|_test\.|superp-(barrier|verbs-probe|ring-garbage|stress|sim)|\.ko$')
		[ -z "$hits" ] || { echo "${d##*/}:"; echo "$hits"; bad=1; }
	done
	return $bad
}

dkms_conf() {
	local conf=$tmp/x/usr/src/superp-$version/dkms.conf
	dpkg-deb -x "$(deb superp-dkms all)" "$tmp/x" || return 1
	grep -qx "PACKAGE_VERSION=\"$version\"" "$conf" || { echo "no PACKAGE_VERSION $version"; return 1; }
	if ! grep -qx 'BUILT_MODULE_NAME\[0\]="sunh"' "$conf" ||
		! grep -qx 'BUILT_MODULE_NAME\[1\]="ib_superp"' "$conf" ||
		! grep -qx 'AUTOINSTALL="yes"' "$conf"; then
		echo "dkms.conf:"
		cat "$conf"
		return 1
	fi
}

# tools_version TOOL...: each packaged TOOL's -V names the package version.
tools_version() {
	local t out bad=0
	dpkg-deb -x "$(deb superp-tools amd64)" "$tmp/t" || return 1
	for t in "$@"; do
		out=$("$tmp/t/$t" -V)
		[ "$out" = "${t##*/} (SUPERp) $version" ] || { echo "$t -V: $out"; bad=1; }
	done
	return $bad
}

lint() {
	local out
	out=$(lintian "$tmp"/out/*.deb 2>&1 | grep -v 'running with root privileges')
	[ -z "$out" ] || { echo "$out"; return 1; }
}

tap_plan 14
check "make deb in a fresh copy of the tree" build
[ ! -f "$tmp/took" ] || tap_diag "$(cat "$tmp/took")"
version=$(dpkg-deb -f "$tmp"/out/superp-dkms_*_all.deb Version 2>/dev/null)
src=/usr/src/superp-$version
check "superp-dkms: dkms.conf and the two modules' sources" has "$(deb superp-dkms all)" \
	"$src/dkms.conf" "$src/Kbuild" "$src/net/sunh/Kbuild" "$src/net/sunh/sunh_main\.c" \
	"$src/drivers/infiniband/sw/superp/Kbuild" \
	"$src/drivers/infiniband/sw/superp/superp_main\.c" "$src/include/uapi/rdma/superp_wire\.h"
check "superp-dkms: dkms.conf builds sunh and ib_superp for each new kernel" dkms_conf
check "superp-dkms: depends on dkms" field "$(deb superp-dkms all)" Depends '(^|, )dkms'
check "superp-tools: tools, manual pages, bash completion, dissector" \
	has "$(deb superp-tools amd64)" /usr/sbin/superp /usr/sbin/sunh /usr/bin/superp-gen \
	/usr/share/man/man8/superp\.8\.gz /usr/share/man/man8/sunh\.8\.gz \
	/usr/share/man/man8/superp-gen\.8\.gz \
	/usr/share/bash-completion/completions/superp /usr/share/bash-completion/completions/sunh \
	"/usr/lib/$multiarch/wireshark/plugins/superp\.lua"
check "superp-tools: depends on the libraries the tools link (libmnl0, libjson-c5)" \
	depends_on "$(deb superp-tools amd64)" libmnl0 libjson-c5
check "superp-tools: -V prints the package's version" \
	tools_version usr/sbin/superp usr/sbin/sunh usr/bin/superp-gen
check "superp-ibverbs-provider: the provider and its .driver" \
	has "$(deb superp-ibverbs-provider amd64)" \
	"/usr/lib/$multiarch/libibverbs/libsuperp-rdmav34\.so" /etc/libibverbs\.d/superp\.driver
check "superp-ibverbs-provider: Multi-Arch: same, as ibverbs-providers" \
	field "$(deb superp-ibverbs-provider amd64)" Multi-Arch '^same$'
check "superp-ibverbs-provider: depends on libibverbs1" \
	field "$(deb superp-ibverbs-provider amd64)" Depends '(^|, )libibverbs1'
check "superp.driver is a conffile" \
	control "$(deb superp-ibverbs-provider amd64)" conffiles '^/etc/libibverbs\.d/superp\.driver$'
check "no test program, KUnit suite, probe or built module in any package" no_tests
check "superp-dkms's postinst has DKMS build it" \
	control "$(deb superp-dkms all)" postinst 'dkms/common\.postinst'
check "lintian: no error, no warning" lint
tap_exit
