#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# NVMe over Fabrics over ib_superp: guest 1 exports a RAM disk (brd) as
# namespace 1 of an NVMe subsystem through the kernel's target, nvmet-rdma,
# set up in configfs; guest 2 connects to it with nvme-cli (`nvme
# discover`, `nvme connect -t rdma`: the kernel's nvme-rdma host), writes
# random data over the whole namespace with O_DIRECT, reads it back and
# compares, then disconnects. 256 MiB over a SUNH connection, 32 MiB over
# a UDP/IPv4 one (rdma_cm's RC QPs bind to it like any other) and 256 MiB
# over a SUNH SUPERp-lite one; make soak moves 256 MiB over each (the
# target guest has 512 MiB of memory). nvme-rdma
# registers every I/O buffer with a fast-registration MR and asks the
# target to invalidate its key; nvmet-rdma answers each command with a
# SEND_WITH_INV, which the host checks (IB_WC_WITH_INVALIDATE and the key).
# Checked: the data (MD5s of 32 MiB segments: of what the host wrote, of
# what it read back, of the target's RAM disk afterwards), that it crossed
# superp0 (the host's rdma statistic tx_bytes and rx_bytes grew by the
# size at least), no NVMe-oF error in either kernel log, the controller
# gone after `nvme disconnect`, and on both guests superp0's objects as
# before (CQs apart: the core's CQ pool keeps them) once the host and the
# target are torn down. Documentation/nvme-of.rst has the steps by hand.
# On the test kernel (KASAN, lockdep, kmemleak watching nvme-rdma,
# nvmet-rdma and ib_superp together) 32 MiB over SUNH, 256 MiB over SUNH
# and over lite under make soak.
# superp-topology: pair
# superp-kernel: both
# superp-guest-extra: nvme
# superp-timeout: 600
# superp-soak-timeout: 1800
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

# The harness passes no environment into the guests: edit these defaults.
# DEV:MIB, the size of the namespace (and of the data moved each way).
case $(uname -r) in
*-superp-test)
	NVME_RUNS=${NVME_RUNS:-$(soak_or "superp_sunh:256 superp_lite:256" "superp_sunh:32")} ;;
*)
	NVME_RUNS=${NVME_RUNS:-$(soak_or "superp_sunh:256 superp_udp4:256 superp_lite:256" \
		"superp_sunh:256 superp_udp4:32 superp_lite:256")} ;;
esac	# MIB: a multiple of 32
NVME_PORT=4420
NVME_NQN=nqn.2024-01.io.superp:nvmeof-ram0
NVME_HOSTNQN=nqn.2024-01.io.superp:nvmeof-host2
CFG=/sys/kernel/config/nvmet

tap_begin

# The target: RAM disk, subsystem, namespace, RDMA port listening on our
# address (nvmet-rdma listens when the subsystem is linked to the port).
nvmet_export() {
	local sub=$CFG/subsystems/$NVME_NQN port=$CFG/ports/1
	modprobe brd rd_nr=1 rd_size=$(($1 * 1024)) max_part=0 &&
		modprobe nvmet_rdma &&
		{ mountpoint -q /sys/kernel/config ||
			mount -t configfs configfs /sys/kernel/config; } &&
		mkdir "$sub" &&
		echo 1 > "$sub/attr_allow_any_host" &&
		mkdir "$sub/namespaces/1" &&
		echo /dev/ram0 > "$sub/namespaces/1/device_path" &&
		echo 1 > "$sub/namespaces/1/enable" &&
		mkdir "$port" &&
		echo rdma > "$port/addr_trtype" &&
		echo ipv4 > "$port/addr_adrfam" &&
		guest_ip "$me" > "$port/addr_traddr" &&
		echo "$NVME_PORT" > "$port/addr_trsvcid" &&
		ln -s "$sub" "$port/subsystems/$NVME_NQN"
}
nvmet_listening() {
	rdma resource show cm_id | grep -q "superp0/1 .*LISTEN.*src-addr $(guest_ip "$me"):$NVME_PORT" ||
		{ rdma resource show cm_id; return 1; }
}
nvmet_unexport() {
	local sub=$CFG/subsystems/$NVME_NQN port=$CFG/ports/1
	rm "$port/subsystems/$NVME_NQN" &&
		rmdir "$port" &&
		echo 0 > "$sub/namespaces/1/enable" &&
		rmdir "$sub/namespaces/1" &&
		rmdir "$sub" &&
		umount /sys/kernel/config &&
		rmmod nvmet_rdma nvmet &&
		rmmod brd
}

# The host's block device of the subsystem, once its namespace is scanned:
# nvmeNn1, the namespace head of native multipathing (its one path,
# nvmeNcMn1, is hidden and cannot be opened).
nvme_dev() {
	local c n
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$NVME_NQN" ] || continue
		for n in /sys/block/nvme*n1; do
			case ${n##*/} in nvme*c*n1) continue ;; esac
			[ -e "$n" ] && echo "/dev/${n##*/}" && return 0
		done
	done
	return 1
}
wait_nvme_dev() { within "$(($(scaled_s 30) * 1000))" 0.2 nvme_dev > /dev/null; }
# nvme_size DEV: its size in MiB.
nvme_size() { echo $(($(cat "/sys/block/${1#/dev/}/size") / 2048)); }
no_controller() { ! ls /sys/class/nvme/nvme* > /dev/null 2>&1; }

# The data moves in segments of NVME_SEG MiB, each its own random data
# with its own MD5, at its own place: a segment lost, misplaced or
# corrupted changes the list of MD5s. Each segment is made and hashed
# before it is written: a random source and a hash running beside the
# write on a guest of one CPU slowed it tenfold (the host answers the
# target's RDMA READs of the data from the same CPU).
NVME_SEG=32
# nvme_write DEV MIB: random data over the first MIB MiB of DEV with
# O_DIRECT; the segments' MD5s in /tmp/nvme-w.md5, dd's reports and the
# time spent writing (ms) in /tmp/nvme-w.dd.
nvme_write() {
	local k=0 ms=0 t0 seg=/tmp/nvme-seg
	: > /tmp/nvme-w.md5
	: > /tmp/nvme-w.dd
	while [ $k -lt $(($2 / NVME_SEG)) ]; do
		dd if=/dev/urandom of="$seg" bs=1M count=$NVME_SEG iflag=fullblock 2> /dev/null &&
			md5sum < "$seg" >> /tmp/nvme-w.md5 || return 1
		t0=$(now_ms)
		dd if="$seg" of="$1" bs=1M seek=$((k * NVME_SEG)) oflag=direct 2>> /tmp/nvme-w.dd
		ms=$((ms + $(now_ms) - t0))
		k=$((k + 1))
	done
	rm -f "$seg"
	echo "ms $ms" >> /tmp/nvme-w.dd
	[ "$(grep -c "^$NVME_SEG+0 records out" /tmp/nvme-w.dd)" -eq $k ] || {
		cat /tmp/nvme-w.dd
		return 1
	}
}
# md5_segs DEV MIB OUT [FLAG]: the segments' MD5s of the first MIB MiB of
# DEV in OUT, dd's reports and the time in OUT.dd; FLAG: dd's iflag.
md5_segs() {
	local k=0 t0
	: > "$3"
	: > "$3.dd"
	t0=$(now_ms)
	while [ $k -lt $(($2 / NVME_SEG)) ]; do
		dd if="$1" bs=1M skip=$((k * NVME_SEG)) count=$NVME_SEG \
			${4:+iflag=$4} 2>> "$3.dd" | md5sum >> "$3"
		k=$((k + 1))
	done
	echo "ms $(($(now_ms) - t0))" >> "$3.dd"
	[ "$(grep -c "^$NVME_SEG+0 records out" "$3.dd")" -eq $k ] || {
		cat "$3.dd"
		return 1
	}
}
# nvme_read DEV MIB: the same MiB read back with O_DIRECT.
nvme_read() { md5_segs "$1" "$2" /tmp/nvme-r.md5 direct; }
# rate FILE MIB: "N MiB in S s, R MiB/s" from the time in FILE.
rate() {
	awk -v mb="$2" '$1 == "ms" && $2 > 0 {
		printf "%d MiB in %.1f s, %.1f MiB/s", mb, $2 / 1000, mb * 1000 / $2 }' "$1"
}
# list_md5 FILE: one word for a list of MD5s.
list_md5() { md5sum < "$1" | cut -d' ' -f1; }
# same_md5 MIB: both transfers moved MIB MiB, and their MD5s agree.
same_md5() {
	[ "$(grep -c . /tmp/nvme-w.md5)" -eq $(($1 / NVME_SEG)) ] &&
		cmp -s /tmp/nvme-w.md5 /tmp/nvme-r.md5 ||
		{ paste /tmp/nvme-w.md5 /tmp/nvme-r.md5; return 1; }
}
# No line of nvme-rdma or nvmet-rdma that reports a failure: a request
# that failed, a queue torn down in error, or an invalidation the host
# finds wrong (the key it asked the target to invalidate, checked in every
# completion of a SEND_WITH_INV).
no_nvme_errors() {
	! dmesg | grep -Ei 'nvmet?_rdma.*(fail|error|bogus)|nvme.*(reset|timeout|I/O error)'
}
# The RDMA core's CQ pool (ib_cq_pool_get(), which nvme-rdma and
# nvmet-rdma take their CQs from) keeps its CQs until the device goes
# away: superp0's objects but its CQs.
objects_but_cqs() { objects superp0 | sed 's/ cq [0-9]*//'; }
objects_are_but_cqs() { [ "$(objects_but_cqs)" = "$1" ]; }
# objects_back_but_cqs BEFORE: as rc.inc's objects_back, CQs apart.
objects_back_but_cqs() {
	retry 50 0.2 objects_are_but_cqs "$1" || { echo "# $(objects superp0)"; return 1; }
}
# counter NAME: one of superp0's counters.
counter() { hw | jq ".$1"; }
# grew_by BEFORE AFTER MIB: AFTER - BEFORE >= MIB MiB.
grew_by() { [ $(($2 - $1)) -ge $(($3 * 1048576)) ] || { echo "$1 -> $2"; return 1; }; }

for run in $NVME_RUNS; do
	d=${run%%:*}
	mb=${run#*:}
	check "$d: set up superp0" "setup_$d"
	before=$(objects_but_cqs)

	if is_coordinator; then
		check "$d: export a $mb MiB RAM disk through nvmet-rdma" nvmet_export "$mb"
		check "$d: nvmet-rdma listens on superp0 port $NVME_PORT" nvmet_listening
		barrier "nvme-$d-exported"
		# Once the host has read back (hashing beside nvmet-rdma's
		# RDMA WRITEs slowed them down as much), the segments' MD5s of
		# the RAM disk itself, and the host's of what it wrote.
		barrier "nvme-$d-read" 600
		check "$d: MD5s of /dev/ram0" md5_segs /dev/ram0 "$mb" /tmp/nvme-t.md5 direct
		sums=$(barrier_words "nvme-$d-sums" "$(list_md5 /tmp/nvme-t.md5)" 600) || sums=
		tap_diag "$d: the MD5 of the segments' MD5s of /dev/ram0, of what the host wrote: $sums"
		check "$d: /dev/ram0 holds what the host wrote" \
			test "${sums% *}" = "${sums#* }"
		check "$d: the kernel logged no NVMe-oF error" no_nvme_errors
		check "$d: tear down the target" nvmet_unexport
	else
		check "$d: load nvme-rdma" modprobe nvme_rdma
		barrier "nvme-$d-exported"
		check "$d: nvme discover lists the subsystem" output_has "subnqn: *$NVME_NQN" \
			nvme discover -t rdma -a "$(guest_ip "$peer")" -s "$NVME_PORT" \
			-q "$NVME_HOSTNQN"
		check "$d: nvme connect -t rdma" nvme connect -t rdma -a "$(guest_ip "$peer")" \
			-s "$NVME_PORT" -n "$NVME_NQN" -q "$NVME_HOSTNQN"
		check "$d: the namespace appears" wait_nvme_dev
		dev=$(nvme_dev) || dev=/dev/nvme0n1
		tap_diag "$d: $(nvme list 2>&1 | tail -n +3 | tr -s ' ')"
		check "$d: $dev is $mb MiB" test "$(nvme_size "$dev")" -eq "$mb"
		tx0=$(counter tx_bytes)
		rx0=$(counter rx_bytes)
		t0=$(now_ms)
		check "$d: write $mb MiB of random data" nvme_write "$dev" "$mb"
		tap_diag "$d: write: $(rate /tmp/nvme-w.dd "$mb") ($(($(now_ms) - t0)) ms with making the data)"
		check "$d: read $mb MiB back" nvme_read "$dev" "$mb"
		barrier "nvme-$d-read" 600
		tap_diag "$d: read: $(rate /tmp/nvme-r.md5.dd "$mb") (with the MD5s)"
		check "$d: what was read is what was written (MD5 of each $NVME_SEG MiB)" \
			same_md5 "$mb"
		check "$d: the data went out over superp0 (tx_bytes)" \
			grew_by "$tx0" "$(counter tx_bytes)" "$mb"
		check "$d: the data came in over superp0 (rx_bytes)" \
			grew_by "$rx0" "$(counter rx_bytes)" "$mb"
		check "$d: the kernel logged no NVMe-oF error" no_nvme_errors
		check "$d: nvme disconnect" output_has "disconnected 1 controller" \
			nvme disconnect -n "$NVME_NQN"
		check "$d: no controller left" no_controller
		check "$d: unload nvme-rdma" rmmod nvme_rdma nvme_fabrics
		sums=$(barrier_words "nvme-$d-sums" "$(list_md5 /tmp/nvme-w.md5)" 600) || sums=
	fi
	barrier "nvme-$d-done"
	check "$d: rdma resource show superp0 as before ($before; CQs apart)" \
		objects_back_but_cqs "$before"
	tap_diag "$d: $(objects superp0) (the CQ pool's CQs stay until superp0 goes)"
	check "$d: the receive accounting identity holds" accounting_holds
	tap_diag "$d: $(hw)"
	check "$d: tear down superp0" "teardown_$d"
done
tap_exit
