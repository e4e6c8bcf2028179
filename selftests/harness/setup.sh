#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install every Debian package the project needs. Idempotent: when all are
# present it returns at once; otherwise it refreshes the lists and installs.
set -euo pipefail
. "$(dirname "$0")/common.sh"

mapfile -t pkgs < <(grep -v '^#' "$SUPERP_TOP/selftests/harness/packages")
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" = 0 ] || die "installing ${missing[*]} needs root"
log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
