# SPDX-License-Identifier: GPL-2.0
# What the tools' Makefiles share; each sets TOOL and includes this after
# its first target:
#   SUPERP_VERSION   the project's version (version.sh: git describe, or
#                    the VERSION file), for -V; VERSION_CPPFLAGS passes it
#                    as -DSUPERP_VERSION. .version holds it and changes
#                    only with it, so that what prints it is rebuilt after
#                    a commit and not otherwise.
#   TOOL-help.h      the usage, generated from the manual's SYNOPSIS
#                    (rst2help.awk: --help and the manual cannot differ)
#   TOOL.8           the manual page, from TOOL.8.rst by docutils' rst2man
#                    (Debian: python3-docutils); a warning is an error.
TOOLS_LIB := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ifeq ($(origin SUPERP_VERSION),undefined)
SUPERP_VERSION := $(shell $(TOOLS_LIB)/version.sh)
endif
VERSION_CPPFLAGS = -DSUPERP_VERSION='"$(SUPERP_VERSION)"'
RST2MAN ?= rst2man
AWK ?= awk

.version: FORCE
	@echo '$(SUPERP_VERSION)' | cmp -s - $@ || echo '$(SUPERP_VERSION)' > $@

$(TOOL)-help.h: $(TOOL).8.rst $(TOOLS_LIB)/rst2help.awk
	$(AWK) -f $(TOOLS_LIB)/rst2help.awk $< > $@.tmp && mv $@.tmp $@

$(TOOL).8: $(TOOL).8.rst .version
	@command -v $(RST2MAN) > /dev/null || \
		{ echo "$(RST2MAN) not found (Debian: apt-get install python3-docutils)" >&2; exit 1; }
	sed 's/@SUPERP_VERSION@/$(SUPERP_VERSION)/' $< | \
		$(RST2MAN) --halt=warning --no-generator > $@.tmp && mv $@.tmp $@

.PHONY: FORCE
