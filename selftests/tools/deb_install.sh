#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Debian packages installed as a user installs them, on two guests
# running Debian's kernel: `dpkg -i` of superp-modules-KVER (the modules
# DKMS built for this kernel on the host: the guests cannot compile),
# superp-tools and superp-ibverbs-provider (harness/guest-extra/debs).
# The harness's own modules, provider and tools are moved out of the way
# first, so that everything used is the packages': modprobe ib_superp,
# rdma link add, a SUNH subnet, superp mesh up, ibv_devinfo and
# ibv_rc_pingpong between the guests. Then `dpkg -r` with the modules
# still loaded: the packages unload them and remove every file they
# installed but the provider's conffile (/etc/libibverbs.d/superp.driver,
# kept by dpkg -r as Debian keeps every conffile); dpkg --purge of the
# packages dpkg still remembers (that one, and the modules' for its
# postrm) removes it, and then the file system is as it was before
# (dpkg's database aside) and dpkg knows none of them.
# superp-topology: pair
# superp-kernel: stock
# superp-timeout: 240
# superp-guest-extra: debs
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))
kver=$(uname -r)
pkgs="superp-modules-$kver superp-tools superp-ibverbs-provider"
provider=/usr/lib/x86_64-linux-gnu/libibverbs/libsuperp-rdmav34.so
aside=/tmp/harness-copies
# The packages' programs first; the harness's barrier stays reachable.
PATH=/usr/sbin:/usr/bin:/superp/bin
export PATH

tap_begin

# The harness's copies of what the packages install (modules, provider),
# kept in /tmp (another file system) and put back at the end.
harness_aside() {
	mkdir -p "$aside" &&
		mv "/lib/modules/$kver/extra/sunh.ko" "/lib/modules/$kver/extra/ib_superp.ko" \
			"$provider" /etc/libibverbs.d/superp.driver "$aside/" &&
		depmod -a "$kver"
}
harness_back() {
	mv "$aside"/*.ko "/lib/modules/$kver/extra/" &&
		mv "$aside/libsuperp-rdmav34.so" "$provider" &&
		mv "$aside/superp.driver" /etc/libibverbs.d/ &&
		depmod -a "$kver"
}
# Every file and directory of the root file system but dpkg's database
# (/proc, /sys, /dev, /tmp and /run are file systems of their own).
files() { find / -xdev ! -path '/var/lib/dpkg/*' | LC_ALL=C sort; }
# What changed between files.before and files.after, a path a line:
# +PATH added, -PATH gone (shown).
changes() {
	diff -u /tmp/files.before /tmp/files.after | grep -E '^[-+]/' | tee /dev/stderr
}
only_conffile_left() { [ "$(changes)" = +/etc/libibverbs.d/superp.driver ]; }
no_change() { [ -z "$(changes)" ]; }
installed() { [ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null)" = "ii " ]; }
all_installed() { for p in $pkgs; do installed "$p" || return 1; done; }
# Neither installed nor remembered (configuration files kept).
none_known() {
	for p in $pkgs; do
		s=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)
		[ -z "$s" ] || [ "$s" = "un " ] || { echo "$p: $s"; return 1; }
	done
}
loaded() { grep -q "^$1 " /proc/modules; }
# dpkg_quiet DESC ARGS...: dpkg ARGS succeeds and warns of nothing; its
# output goes to the log.
dpkg_quiet() {
	local desc=$1 rc
	shift
	dpkg "$@" > /tmp/dpkg.log 2>&1
	rc=$?
	sed 's/^/# /' /tmp/dpkg.log
	check "$desc: exit 0" test "$rc" -eq 0
	check_fail "$desc: no warning or error" grep -Eqi "warning|error" /tmp/dpkg.log
}
# The same module as the packaged file: the loaded one's srcversion.
loaded_is_packaged() {
	[ "$(cat "/sys/module/$1/srcversion")" = "$(modinfo -F srcversion "$1")" ]
}
# The packages' version, printed by the packaged tools' -V.
version_of_tools() {
	v=$(dpkg-query -W -f='${Version}' superp-tools) &&
		superp -V | grep -qF "$v" && sunh -V | grep -qF "$v" &&
		superp-gen -V | grep -qF "$v"
}

check_fail "no ib_superp or sunh loaded (earlier tests unloaded them)" \
	grep -Eq "^(ib_superp|sunh) " /proc/modules
check "the harness's modules and provider moved aside" harness_aside
check_fail "before: modprobe finds no ib_superp" modprobe -n ib_superp
files > /tmp/files.before

# (The packages' .deb files in /superp/debs, as built on the host.)
for deb in /superp/debs/*.deb; do tap_diag "$(basename "$deb")"; done
dpkg_quiet "dpkg -i the three packages" -i /superp/debs/*.deb
check "dpkg: $pkgs installed" all_installed
check "modprobe finds ib_superp in updates/dkms" output_has \
	"^/lib/modules/$kver/updates/dkms/ib_superp.ko$" modinfo -n ib_superp
check "superp, sunh, superp-gen are the packages' (/usr)" sh -c \
	'[ "$(command -v superp)" = /usr/sbin/superp ] && [ "$(command -v sunh)" = /usr/sbin/sunh ] &&
	 [ "$(command -v superp-gen)" = /usr/bin/superp-gen ] && dpkg -S /usr/sbin/superp | grep -q "^superp-tools:"'
check "the tools print the packages' version (-V)" version_of_tools
check "manual pages installed" sh -c 'ls /usr/share/man/man8/superp.8.gz /usr/share/man/man8/sunh.8.gz >/dev/null'

check "modprobe ib_superp" modprobe ib_superp
check "ib_superp: srcversion of the packaged module" loaded_is_packaged ib_superp
check "rdma link add superp0 type superp netdev eth0" rdma link add superp0 type superp netdev eth0
check "ibv_devinfo -d superp0 (the packaged provider)" output_has "hca_id:[[:space:]]*superp0" \
	ibv_devinfo -d superp0
check "sunh subnet set 10.23.0.0/16 bits 12" sh -c 'modprobe sunh && sunh subnet set 10.23.0.0/16 bits 12'
check "sunh: srcversion of the packaged module" loaded_is_packaged sunh
cat > /tmp/mesh <<EOF
a 1
b 2
defaults $superp_slow
EOF
check "superp mesh up: a connection to the peer" output_has \
	"^mesh up: [ab] is node $((me - 1)) of 2, 1 connection added on superp0$" superp mesh up /tmp/mesh
check "superp0 has the RoCE v2 GID of $(guest_ip "$me")" wait_gid superp0 "$(guest_ip "$me")"

gidx=$(roce_gid_index superp0 "$(guest_ip "$me")")
pair_run pp 18800 60 /tmp/pp.log ibv_rc_pingpong -d superp0 -g "$gidx" -p 18800 -s 4096 -n 100 -c
rc=$?
sed 's/^/# /' /tmp/pp.log
check "ibv_rc_pingpong -s 4096 -n 100 -c exits 0" test "$rc" -eq 0
check "819200 bytes moved" grep -q "^819200 bytes in " /tmp/pp.log
check_fail "no invalid data (-c)" grep -q "^invalid data" /tmp/pp.log
barrier pp-done

check "superp mesh down, rdma link delete superp0, sunh subnet del" sh -c \
	'superp mesh down /tmp/mesh && rdma link delete superp0 && sunh subnet del'
check "ib_superp and sunh still loaded before dpkg -r" sh -c 'grep -q "^ib_superp " /proc/modules && grep -q "^sunh " /proc/modules'
dpkg_quiet "dpkg -r the three packages" -r $pkgs
check_fail "dpkg -r unloaded ib_superp" loaded ib_superp
check_fail "dpkg -r unloaded sunh" loaded sunh
files > /tmp/files.after
check "dpkg -r removed every file but the provider's conffile" only_conffile_left
# superp-modules-KVER keeps its postrm for the purge, the provider its
# conffile: dpkg remembers them, and forgets superp-tools.
check "dpkg -r: the modules and the provider in config-files state" sh -c \
	"for p in superp-modules-$kver superp-ibverbs-provider; do
		[ \"\$(dpkg-query -W -f='\${db:Status-Abbrev}' \$p)\" = 'rc ' ] || exit 1; done"
dpkg_quiet "dpkg --purge the modules and the provider" --purge "superp-modules-$kver" superp-ibverbs-provider
check "dpkg knows none of the packages any more" none_known
files > /tmp/files.after
check "the file system as before dpkg -i (no file left)" no_change
check_fail "after: modprobe finds no ib_superp" modprobe -n ib_superp

# Whatever a failure above left installed goes, so the next tests of
# this boot find the harness's copies only.
none_known > /dev/null || dpkg --purge --force-all $pkgs > /dev/null 2>&1
check "the harness's copies back" harness_back
barrier install-done
tap_exit
