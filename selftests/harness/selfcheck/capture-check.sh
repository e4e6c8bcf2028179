#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a failing capture check must turn the run red even
# though every check in the guest passes.
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 60
# superp-capture: capture-check.check
. "$SUPERP_ROOT/selftests/lib.sh"
tap_plan 1
ok "nothing to check in the guest"
tap_exit
