#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a guest that never finishes must turn the run red.
# The self-check runs this with a short group timeout; the test's own
# timeout is longer, so only the host's hard limit can stop it.
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 100000
. "$SUPERP_ROOT/selftests/lib.sh"
tap_plan 1
ok "about to hang"
exec sleep 100000
