#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-check: a guest whose NIC stopped sending (the kernel's
# NETDEV WATCHDOG line) must turn the run red, and the harness must take
# the virtio queues' state from QEMU while the guest still runs. The line
# is written to the kernel log, as the watchdog would; the test then
# stays long enough for the harness's next look (every 5 s).
# superp-topology: single
# superp-kernel: stock
# superp-timeout: 60
. "$SUPERP_ROOT/selftests/lib.sh"
tap_plan 1
check "log a NETDEV WATCHDOG line" sh -c \
	'echo "virtio_net virtio0 eth0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 timed out 5504 ms (self-check)" > /dev/kmsg'
sleep 12
tap_exit
