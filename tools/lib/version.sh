#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The project's version, as the tools' -V prints it: `git describe --always
# --dirty` when the top of the tree is a git checkout of its own (not a
# tarball unpacked inside another repository), else the first line of
# VERSION that is not a comment.
top=$(cd "$(dirname "$0")/../.." && pwd -P)
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ] &&
	v=$(git -C "$top" describe --always --dirty 2>/dev/null) && [ -n "$v" ]; then
	echo "$v"
else
	sed -n '/^[^#]/{p;q}' "$top/VERSION"
fi
