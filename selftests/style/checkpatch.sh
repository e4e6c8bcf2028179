#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every kernel C file and header of the project passes checkpatch --strict
# (the kernel tree's own script, from the test kernel's source).
# superp-topology: host
# superp-timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../harness/common.sh"

checkpatch=$(test_kernel_dir)/src/scripts/checkpatch.pl
cd "$SUPERP_TOP" || exit 1
mapfile -t files < <(git ls-files -- 'net/*.[ch]' 'drivers/*.[ch]' 'kunit/*.[ch]' \
	'include/*.h' | LC_ALL=C sort)

tap_plan ${#files[@]}
[ -f "$checkpatch" ] || { tap_diag "no $checkpatch (run make kernel)"; exit "$KSFT_FAIL"; }
for f in "${files[@]}"; do
	# SPDX_LICENSE_TAG: uapi headers carry the Linux-syscall-note form.
	check "checkpatch --strict $f" perl "$checkpatch" --no-tree --strict --terse \
		--show-types --ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -q -f "$f"
done
tap_exit
