#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: boot two guests joined by virtio-net and show them talking
# SUPERp; their output is followed live.
set -uo pipefail
. "$(dirname "$0")/common.sh"

export SUPERP_RESULTS=$SUPERP_RESULTS/demo
rm -rf "$SUPERP_RESULTS"
# The demo runs on Debian's stock kernel (superp-kernel: stock).
group=$SUPERP_RESULTS/stock-pair
mkdir -p "$group"
"$SUPERP_TOP/selftests/harness/run.sh" selftests/harness/demo/superp-demo.sh \
	> "$SUPERP_RESULTS/run.log" 2>&1 &
runner=$!
sleep 1
tail -n +1 -F "$group/guest1.out" "$group/guest2.out" 2>/dev/null |
	grep --line-buffered -v '^@@' &
follower=$!
wait $runner
rc=$?
sleep 1
kill $follower 2>/dev/null
wait $follower 2>/dev/null
echo
# A few of the link's frames as the project's dissector decodes them.
sed -n 's/^# decoded: /    /p' "$group"/capture.*.seg 2>/dev/null
echo
grep -E '^(ok|not ok|superp:)' "$SUPERP_RESULTS/run.log"
exit $rc
