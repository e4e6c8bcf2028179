#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Memory windows between two guests over a SUNH connection, through the
# provider (superp-mw, selftests/verbs/superp-mw.c): guest 1 binds type 1
# and type 2 windows over an MR that grants no remote rights itself,
# guest 2 writes and reads through them and is refused, each refusal an
# IBV_WC_REM_ACCESS_ERR completion: a key the target never bound (bad
# rkey), a range across a window's end (bounds), a type 2 window through
# a QP other than the one it is bound to, a window invalidated locally
# (IBV_WR_LOCAL_INV), one invalidated by guest 2's SEND_WITH_INV (the
# target's receive reports it), and a type 1 window unbound with a bind
# of length 0. The target then finds no trace of the refused WRITEs,
# can neither deregister nor reregister the MR while a window is bound
# to it (EINVAL), and can once the windows are deallocated (a new access
# keeps the keys).
# superp-topology: pair
# The debug kernel judges it in make check (new locking and RCU); make
# soak runs it on both.
# superp-kernel: test
# superp-soak-kernel: both
# superp-timeout: 240
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

me=$SUPERP_ID
peer=$((3 - me))

tap_begin
check "set up superp0 with a SUNH connection" setup_superp_sunh
before=$(objects superp0)
gidx=$(roce_gid_index superp0 "$(guest_ip "$me")")
log=/tmp/superp-mw.log
pair_run mw 18601 180 "$log" superp-mw superp0 "$gidx" 18601
rc=$?
sed 's/^/# /' "$log"
# Each case the program ran, as a TAP line of its own.
while read -r verdict name rest; do
	case $verdict in
	ok) ok "superp-mw: $name" ;;
	FAIL) not_ok "superp-mw: ${name%:} $rest" ;;
	esac
done < "$log"
check "superp-mw exits 0" test "$rc" -eq 0
check "summary: no case failed" grep -q '^summary [0-9]* cases, 0 failed$' "$log"
barrier mw-done
check "rdma resource show superp0 as before ($before)" objects_back superp0 "$before"
check "tear down superp0" teardown_superp_sunh
tap_exit
