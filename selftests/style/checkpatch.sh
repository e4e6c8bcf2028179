#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every kernel C file and header of the project passes checkpatch --strict
# (the kernel tree's own script, from the test kernel's source), and so does
# the user-space C written in kernel style.
# superp-topology: host
# superp-timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../harness/common.sh"

checkpatch=$(test_kernel_dir)/src/scripts/checkpatch.pl
cd "$SUPERP_TOP" || exit 1
mapfile -t files < <(git ls-files -- 'net/*.[ch]' 'drivers/*.[ch]' 'kunit/*.[ch]' 'probes/*.[ch]' \
	'include/*.h' | LC_ALL=C sort)
# User-space C in kernel style (the provider, the tools, test helpers):
# the same rules minus the kernel-only ones (kernel integer types and
# attribute macros; C11's _Static_assert is not CamelCase; a signal
# handler's flag is volatile sig_atomic_t, as C requires) and the length
# of lines holding a format string, which stays whole so that a message
# can be found by grep (the kernel's rule for its own messages).
mapfile -t user_files < <(git ls-files -- 'providers/*.[ch]' 'tools/*.[ch]' 'selftests/*.c' |
	grep -v '^tools/superp-sim/include/' | LC_ALL=C sort)
# The native build's stand-ins for kernel headers define the kernel's
# own names: its typedefs (atomic_long_t) and export macros.
mapfile -t shim_files < <(git ls-files -- 'tools/superp-sim/include/*.h' | LC_ALL=C sort)

tap_plan $((${#files[@]} + ${#user_files[@]} + ${#shim_files[@]}))
[ -f "$checkpatch" ] || { tap_diag "no $checkpatch (run make kernel)"; exit "$KSFT_FAIL"; }
# SPDX_LICENSE_TAG: uapi headers carry the Linux-syscall-note form.
ignore=FILE_PATH_CHANGES,SPDX_LICENSE_TAG
user_ignore=$ignore,PREFER_KERNEL_TYPES,PREFER_DEFINED_ATTRIBUTE_MACRO,CAMELCASE,MACRO_ARG_REUSE
user_ignore=$user_ignore,VOLATILE,LONG_LINE_STRING
shim_ignore=$user_ignore,NEW_TYPEDEFS,EXPORT_SYMBOL
# One checkpatch per file, as many at once as there are CPUs (a file
# takes about a second); each file's output and status are kept under
# the file's name and reported in order.
cp_dir=$(mktemp -d)
trap 'rm -rf "$cp_dir"' EXIT
one() { # IGNORE FILE
	local slot=$cp_dir/${2//\//_}
	perl "$checkpatch" --no-tree --strict --terse --show-types --ignore "$1" \
		-q -f "$2" > "$slot.log" 2>&1
	echo $? > "$slot.rc"
}
export -f one
export checkpatch cp_dir
{
	for f in "${files[@]}"; do echo "$ignore $f"; done
	for f in "${user_files[@]}"; do echo "$user_ignore $f"; done
	for f in "${shim_files[@]}"; do echo "$shim_ignore $f"; done
} | xargs -n 2 -P "$(nproc)" bash -c 'one "$0" "$1"'
verdict() { # FILE
	local slot=$cp_dir/${1//\//_}
	cat "$slot.log"
	[ "$(cat "$slot.rc" 2>/dev/null)" = 0 ]
}
for f in "${files[@]}"; do
	check "checkpatch --strict $f" verdict "$f"
done
for f in "${user_files[@]}"; do
	check "checkpatch --strict $f (user space)" verdict "$f"
done
for f in "${shim_files[@]}"; do
	check "checkpatch --strict $f (kernel stand-in)" verdict "$f"
done
tap_exit
