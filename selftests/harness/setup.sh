#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the project needs: every one
# (selftests/harness/packages), or with "kernel" only those the test
# kernel's build needs (packages.kernel), so that make check can build the
# kernel while the rest install. Idempotent: when all are present it
# returns at once; otherwise it refreshes the lists (unless an earlier
# call did, within the hour) and installs.
set -euo pipefail
. "$(dirname "$0")/common.sh"

list=$SUPERP_TOP/selftests/harness/packages
[ "${1:-}" != kernel ] || list=$list.kernel
mapfile -t pkgs < <(grep -v '^#' "$list")
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

[ "$(id -u)" = 0 ] || die "installing ${missing[*]} needs root"
log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
stamp=$SUPERP_CACHE/apt-updated
if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
	apt-get update -q
	mkdir -p "$SUPERP_CACHE" && touch "$stamp"
fi
apt-get install -y -q --no-install-recommends "${missing[@]}"
