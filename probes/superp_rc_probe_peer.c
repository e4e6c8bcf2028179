// SPDX-License-Identifier: GPL-2.0
/*
 * Not a KUnit suite: the RC probe (superp_rc_probe.c) once more under a
 * name of its own, so that one host can load both ends at once, server and
 * client: over a device's connection to this node itself, or between two
 * devices of the host. Its lines begin "superp_rc_probe_peer: ". Used by
 * selftests/verbs/rc_local.sh.
 */
#include "superp_rc_probe.c"
