#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# copy-tree.sh DIR: the project's tree as it is, without what was built in
# it, copied into DIR (which must exist): in a git checkout the files git
# tracks or would track (uncommitted changes included), otherwise (a
# release tarball) everything but build/ and results/.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
	cd "$top"
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ ! -e "$f" ] || printf '%s\0' "$f"; done |
		xargs -0 cp --parents -t "$1"
else
	tar -C "$top" --exclude=./build --exclude=./results -cf - . | tar -C "$1" -xf -
fi
