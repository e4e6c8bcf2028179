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
# Checkpatch over a dozen files at a time (its start-up costs as much as a
# file), as many at once as there are CPUs. With --terse it ends each
# file's report with one "total:" line, in the order given: that splits
# a batch's output into the files' slots. A batch whose output does not
# split (checkpatch itself failed) fails each of its files with all of it.
cp_dir=$(mktemp -d)
trap 'rm -rf "$cp_dir"' EXIT
batch() { # IGNORE FILE...
	local ignore=$1 out f
	shift
	out=$(perl "$checkpatch" --no-tree --strict --terse --show-types --ignore "$ignore" \
		-q -f "$@" 2>&1)
	if [ "$(grep -c '^total: ' <<< "$out")" -ne $# ]; then
		for f in "$@"; do printf '%s\n' "$out" > "$cp_dir/${f//\//_}"; done
		return
	fi
	printf '%s\n' "$out" | awk -v dir="$cp_dir" -v names="$*" '
		BEGIN { split(names, name, " ") }
		{ slot = name[i + 1]; gsub("/", "_", slot); print > (dir "/" slot) }
		/^total: / { close(dir "/" slot); i++ }'
}
export -f batch
export checkpatch cp_dir
# One line a batch: "IGNORE FILE...".
batches() { # IGNORE FILE...
	local ignore=$1
	shift
	printf '%s\n' "$@" | xargs -n 12 echo "$ignore"
}
{
	batches "$ignore" "${files[@]}"
	batches "$user_ignore" "${user_files[@]}"
	batches "$shim_ignore" "${shim_files[@]}"
} | xargs -L 1 -P "$(nproc)" bash -c 'batch "$0" "$@"'
verdict() { # FILE
	local slot=$cp_dir/${1//\//_}
	grep -qx 'total: 0 errors, 0 warnings, 0 checks, [0-9]* lines checked' "$slot" 2>/dev/null &&
		[ "$(wc -l < "$slot")" = 1 ] && return
	cat "$slot" 2>/dev/null || echo "no checkpatch report"
	return 1
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
