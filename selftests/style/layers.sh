#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# superp-topology: host
# superp-timeout: 120
#
# ib_superp in layers (selftests/style/layers.map): no file of a lower
# layer includes a header of a higher one or names a function or
# variable defined in a higher one (comments aside), and every file of the
# driver has a layer. The check first proves itself on a small planted
# tree (an upward call, an upward include, an unmapped file, a clean
# one), then judges the driver; each offence is listed as
#   FILE (LAYER) names SYMBOL of FILE (LAYER)
#   FILE (LAYER) includes HEADER (LAYER)
#
#   layers.sh [DIR MAP]   another tree and map (default: the driver's)

set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# layer_table MAP DIR: "FILE LAYER NAME" for each .c/.h of DIR, the layer
# of the first map line that names it (exactly or by glob); UNMAPPED for
# none. kbuild's generated *.mod.c is no source: make builds in the tree.
layer_table() {
	local map=$1 dir=$2 f line n name pat
	for f in $(cd "$dir" && ls -- *.c *.h 2>/dev/null | grep -v '\.mod\.c$'); do
		n=
		while read -r line; do
			case "$line" in '' | '#'*) continue ;; esac
			set -f
			# shellcheck disable=SC2086 # a line is "LAYER NAME PATTERN..."
			set -- $line
			set +f
			name=$2
			for pat in "${@:3}"; do
				# shellcheck disable=SC2053 # glob match on purpose
				[[ $f == $pat ]] && { n=$1; break 2; }
			done
		done < "$map"
		if [ -n "$n" ]; then
			echo "$f $n $name"
		else
			echo "$f 0 UNMAPPED"
		fi
	done
}

# offences DIR MAP: every offence of DIR's files against MAP, one a line.
offences() {
	local dir=$1 map=$2 f n name g h
	declare -A layer lname
	layer_table "$map" "$dir" > "$tmp/layers"
	while read -r f n name; do
		layer[$f]=$n
		lname[$f]=$name
	done < "$tmp/layers"
	# What each .c defines for other files: functions and variables
	# with external linkage (ctags leaves out static ones): "SYMBOL FILE".
	: > "$tmp/defs"
	for g in "${!layer[@]}"; do
		case "$g" in *.c) ;; *) continue ;; esac
		ctags -x --kinds-C=fv --extras=-F --language-force=C -o - "$dir/$g" |
			awk -v g="$g" '{ print $1, g }' >> "$tmp/defs"
	done
	{
		awk '$2 == 0 { print $1 " has no layer in " m }' m="$(basename "$map")" "$tmp/layers"
		for f in "${!layer[@]}"; do
			n=${layer[$f]}
			[ "$n" = 0 ] && continue
			# The file without its comments: names in comments are prose.
			gcc -fpreprocessed -dD -E -P -x c "$dir/$f" > "$tmp/code" 2> /dev/null ||
				cp "$dir/$f" "$tmp/code"
			for h in $(sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$tmp/code"); do
				[ "${layer[$h]:-0}" -gt "$n" ] &&
					echo "$f (${lname[$f]}) includes $h (${lname[$h]})"
			done
			# Its words against the symbols of higher layers.
			grep -oE '[A-Za-z_][A-Za-z0-9_]*' "$tmp/code" | sort -u |
				awk -v f="$f" -v n="$n" -v lf="${lname[$f]}" '
					FILENAME == ARGV[1] { layer[$1] = $2; lname[$1] = $3; next }
					FILENAME == ARGV[2] { def[$1] = $2; next }
					($1 in def) && layer[def[$1]] > n {
						g = def[$1]
						print f " (" lf ") names " $1 " of " g " (" lname[g] ")"
					}' "$tmp/layers" "$tmp/defs" -
		done
	} | LC_ALL=C sort
}

tap_begin

# The planted tree: low.c calls up, mid.c includes up, stray.c has no
# layer, high.c may use everything.
plant=$tmp/plant
mkdir -p "$plant"
cat > "$plant/map" <<'EOF'
# test map
1 low low.c low.h
2 mid mid.c
3 high high.c high.h
EOF
printf '/* high_fn() in a comment is prose */\nint low_fn(void) { return 1; }\nint low_helper(void) { return high_fn(); }\n' > "$plant/low.c"
printf 'int low_fn(void);\n' > "$plant/low.h"
printf '#include "high.h"\n#include "low.h"\nstatic int mid_own(void) { return low_fn(); }\n' > "$plant/mid.c"
printf 'int high_var;\nint high_fn(void) { return low_fn() + high_var; }\n' > "$plant/high.c"
printf 'int high_fn(void);\n' > "$plant/high.h"
printf 'int stray(void) { return 0; }\n' > "$plant/stray.c"
offences "$plant" "$plant/map" > "$tmp/plant.out"
want="low.c (low) names high_fn of high.c (high)
mid.c (mid) includes high.h (high)
stray.c has no layer in map"
check "a planted tree's three offences are found, and nothing else" \
	test "$(cat "$tmp/plant.out")" = "$want"
[ "$(cat "$tmp/plant.out")" = "$want" ] || sed 's/^/# found: /' "$tmp/plant.out"

dir=${1:-$top/drivers/infiniband/sw/superp}
map=${2:-$top/selftests/style/layers.map}
offences "$dir" "$map" > "$tmp/out"
sed 's/^/# /' "$tmp/out"
check "$(basename "$dir"): every file has a layer and uses only its own and those below ($(wc -l < "$tmp/out") offences)" \
	test ! -s "$tmp/out"
tap_exit
