# SPDX-License-Identifier: GPL-2.0
# rst2help.awk: the C help text of a tool from its manual page.
#
#   awk -f rst2help.awk TOOL.8.rst > TOOL-help.h
#
# The tools' manuals are written once, in reStructuredText (TOOL.8.rst,
# made into TOOL.8 by rst2man). Their --help is the manual's SYNOPSIS,
# word for word, so that the two cannot drift apart: iproute2's model,
# where "ip link help" gives the syntax and ip-link(8) explains it. This
# prints the first parsed-literal block of the SYNOPSIS section as
#
#   static const char help_text[] = "Usage: LINE1\n" "       LINE2\n" ...;
#
# with the inline markup (**bold**, *italic*, backslash escapes) removed;
# such a block therefore never holds a literal asterisk. It fails, and so
# does the build, when there is no such block.

function strip(s) {
	gsub(/\\ /, "", s)		# escaped space: markup separator only
	gsub(/\*/, "", s)
	gsub(/\\/, "", s)
	return s
}

function cstr(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return s
}

# Section titles: a line underlined with = (rst2man's top level).
prev != "" && /^=+$/ && length($0) >= length(prev) {
	section = prev
	prev = ""
	next
}

state == 0 && section == "SYNOPSIS" && /^\.\. parsed-literal::/ {
	state = 1
	next
}

# The block: directive options, then indented lines and blank lines, up
# to the first line that is not indented.
state == 1 {
	if (/^[ \t]+:[a-z-]+:/ && n == 0)
		next
	if (/^[ \t]/) {
		if (!indent) {
			match($0, /^[ \t]+/)
			indent = RLENGTH
		}
		lines[++n] = strip(substr($0, indent + 1))
		next
	}
	if (/^$/) {
		if (n)
			lines[++n] = ""
		next
	}
	state = 2
}

{ prev = $0 }

END {
	while (n && lines[n] == "")
		n--
	if (!n) {
		print FILENAME ": no parsed-literal block in SYNOPSIS" > "/dev/stderr"
		exit 1
	}
	print "/* Generated from " FILENAME " by tools/lib/rst2help.awk: do not edit. */"
	print "static const char help_text[] ="
	for (i = 1; i <= n; i++)
		printf "\t\"%s%s\\n\"\n", i == 1 ? "Usage: " : \
		       (lines[i] == "" ? "" : "       "), cstr(lines[i])
	print ";"
}
