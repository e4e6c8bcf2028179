#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdma-core's own tests (pyverbs: Debian's python3-pyverbs and the tests
# under /usr/share/doc/rdma-core/tests) in this one guest, first on rxe0,
# the reference, then on superp0, each device alone on eth0. Each test's
# outcome comes from pyverbs-run (one line per test). superp0 must fail
# or error in none, and may skip a test that rxe0 passes only when the
# test is listed below, with the reason; the lists are printed. An entry
# that superp0 passes, or that rxe0 does not pass, fails the test: the
# lists hold only what is needed. The tests' QPs talk to the device
# itself, through superp0's implicit loopback connection.
# superp-topology: single
# superp-kernel: stock
# superp-soak-kernel: both
# superp-timeout: 120
# superp-soak-timeout: 600
# superp-guest-extra: pyverbs
. "$SUPERP_ROOT/selftests/lib.sh"
. "$SUPERP_ROOT/selftests/verbs/rc.inc"

TESTS=/usr/share/doc/rdma-core/tests
# Tests rxe0 passes that superp0 may skip: under a line that gives the
# reason (ending in ":"), the tests' ids. EXCEPTIONS: a feature rxe
# offers and SUPERp deliberately does not. NOT_YET: one superp does not
# offer yet; its entries go when it is built.
EXCEPTIONS='
UC QPs (SUPERp connections are reliable and its datagrams unconnected; an unreliable connected service has no procedure in the protocol, the provider refuses the type with EOPNOTSUPP):
  tests.test_qp.QPTest.test_create_uc_qp_no_attr
  tests.test_qp.QPTest.test_create_uc_qp_with_attr
  tests.test_qp.QPTest.test_create_uc_qp_ex_no_attr
  tests.test_qp.QPTest.test_create_uc_qp_ex_with_attr
  tests.test_qp.QPTest.test_query_uc_qp
'
NOT_YET='
'

me=1
ip=$(guest_ip "$me")
tap_begin

# suite DEV: run every test on DEV into /tmp/pyverbs-DEV.res (outcomes)
# and .log (unittest's report); it must run to its end, every test
# reported once.
suite() {
	local res=/tmp/pyverbs-$1.res gidx ran n
	gidx=$(roce_gid_index "$1" "$ip") || { echo "no RoCE v2 GID of $ip on $1"; return 1; }
	timeout "$(scaled_s "$(soak_or 240 45)")" python3 "$SUPERP_ROOT/selftests/verbs/pyverbs-run" "$TESTS" \
		--dev "$1" --gid "$gidx" -v > "$res" 2> "/tmp/pyverbs-$1.log"
	ran=$(sed -n 's/^@@PYV-RAN \([0-9]*\)$/\1/p' "$res")
	n=$(grep -c '^@@PYV ' "$res")
	counts "$1"
	[ -n "$ran" ] && [ "$ran" -eq "$n" ] && [ "$n" -gt 0 ] ||
		{ echo "ran ${ran:-?}, $n outcomes"; tail -20 "/tmp/pyverbs-$1.log"; return 1; }
}
# counts DEV: its outcomes by kind, as a comment.
counts() {
	awk -v dev="$1" '$1 == "@@PYV" { n[$2]++ }
		END { printf "# %s: %d passed, %d skipped, %d failed, %d errors\n", dev,
			n["pass"], n["skip"], n["fail"], n["error"] + n["xpass"] }' "/tmp/pyverbs-$1.res"
}
# outcome DEV TEST: DEV's outcome of TEST (pass, skip, fail, ...).
outcome() { awk -v t="$2" '$1 == "@@PYV" && $3 == t { print $2 }' "/tmp/pyverbs-$1.res"; }

check "modprobe rdma_rxe, rdma link add rxe0 type rxe netdev eth0" setup_rxe
check "rxe0: every test ran" suite rxe0
counts rxe0
# The reference's own failures are rxe's, not a verdict here.
awk '$1 == "@@PYV" && ($2 == "fail" || $2 == "error") { print "# rxe0 " $2 ": " $3 }' \
	/tmp/pyverbs-rxe0.res
check "rdma link delete rxe0, rmmod rdma_rxe" teardown_rxe

check "modprobe ib_superp, rdma link add superp0 type superp netdev eth0" sh -c \
	'modprobe ib_superp && rdma link add superp0 type superp netdev eth0'
check "superp0 has the RoCE v2 GID of $ip" wait_gid superp0 "$ip"
check "superp0: every test ran" suite superp0
counts superp0

# Where the two differ, for the log.
awk '$1 == "@@PYV" { if (FILENAME ~ /rxe0/) r[$3] = $2; else s[$3] = $2 }
	END { for (t in s) if (r[t] != s[t]) printf "# rxe0 %s, superp0 %s: %s\n", r[t], s[t], t }' \
	/tmp/pyverbs-rxe0.res /tmp/pyverbs-superp0.res | sort -k5
echo "# exceptions: rxe0 passes, superp0 skips: SUPERp does not offer it"
printf '%s\n' "$EXCEPTIONS" | sed '/^$/d; s/^/#   /'
echo "# not yet: rxe0 passes, superp0 skips: superp does not offer it yet"
printf '%s\n' "$NOT_YET" | sed '/^$/d; s/^/#   /'
# listed: the tests of both lists, one a line.
listed() { printf '%s\n%s\n' "$EXCEPTIONS" "$NOT_YET" | awk 'NF && !/:$/ { print $1 }'; }
excepted() { listed | grep -qxF "$1"; }

# Every test superp0 ran: no failure or error; no skip where rxe0 passed
# unless excepted.
bad=0
while read -r _ how test reason; do
	case $how in
	pass | skip | xfail) ;;
	*)
		not_ok "superp0: $test: $how: $reason"
		bad=$((bad + 1))
		continue
		;;
	esac
	[ "$how" = skip ] && [ "$(outcome rxe0 "$test")" = pass ] || continue
	excepted "$test" && continue
	not_ok "superp0: $test: skipped, rxe0 passes it: $reason"
	bad=$((bad + 1))
done <<EOT
$(grep '^@@PYV ' /tmp/pyverbs-superp0.res)
EOT
[ $bad -gt 0 ] || ok "superp0: no failure or error, skips only what rxe0 skips or the lists allow"

# Every entry still needed: rxe0 passes it, superp0 skips it.
stale=0
for test in $(listed); do
	r=$(outcome rxe0 "$test") s=$(outcome superp0 "$test")
	[ "$r" = pass ] && [ "$s" = skip ] && continue
	not_ok "listed $test: rxe0 ${r:-did not run it}, superp0 ${s:-did not run it}: remove it"
	stale=$((stale + 1))
done
[ $stale -gt 0 ] || ok "every entry of the lists is a test rxe0 passes and superp0 skips"

check "superp0: rdma resource show: nothing left" nothing_left superp0
check "rdma link delete superp0, rmmod ib_superp" sh -c \
	'rdma link delete superp0 && rmmod ib_superp'
tap_exit
