# SPDX-License-Identifier: GPL-2.0
# SUPERp for Linux: top-level build.
#
#   make            sunh.ko and ib_superp.ko for the running kernel, the
#                   tools, the provider
#   make install    those where Debian looks for them (DESTDIR=DIR: staged)
#   make deb        the Debian packages, in build/deb (Documentation/packaging.rst)
#   make KDIR=DIR   the modules for the kernel tree DIR instead
#   make SUPERP_TESTS=1   the KUnit suites and test probes too
#   make check      every test, from a fresh machine (README's test command)
#   make soak       the long forms of the tests (1M fuzz, loss figures, ...)
#   make demo       two guests talking SUPERp (README's main command)
#   make bench      SUPERp beside TCP, rxe and siw (QUICK=1: under 15 min;
#                   PROFILE=TEST:SIZE: flame graphs of that entry)
#   make test T=... one KUnit suite or selftest, e.g. T=kunit/superp_wire_test
#   make kernel     the harness's test kernel (prints its tree)

HARNESS := selftests/harness
BUILD := build
# The running kernel's headers, as for any out-of-tree module: make &&
# make install gives modules the running kernel loads. The harness builds
# for its kernels with their trees (prepare.sh), never with this default.
KDIR ?= /lib/modules/$(shell uname -r)/build
TOOLS := $(patsubst %/Makefile,%,$(wildcard tools/*/Makefile))
PROVIDER := providers/superp

.PHONY: all modules userspace tools $(TOOLS) provider setup kernel check soak test demo bench clean \
	install install-modules install-tools install-provider deb deb-modules

all: modules tools provider

# Without headers kbuild's own error names no package: say which one.
NO_KDIR = no kernel build tree in $(KDIR): install linux-headers-$(shell uname -r) \
	(Debian; or linux-headers-amd64) or name one with make KDIR=DIR
modules:
	$(if $(wildcard $(KDIR)/Makefile),,$(error $(NO_KDIR)))
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# The tools and provider, and the test programs the harness puts in guests.
userspace: tools provider $(BUILD)/superp-barrier $(BUILD)/superp-kasan-trim \
	$(BUILD)/superp-verbs-probe \
	$(BUILD)/superp-ring-garbage $(BUILD)/superp-stress $(BUILD)/superp-mw \
	$(BUILD)/superp-udp-lat $(BUILD)/superp-udp-flood

tools: $(TOOLS)
$(TOOLS):
	$(MAKE) -C $@

# The rdma-core provider (libibverbs loads it for superp* devices).
provider:
	$(MAKE) -C $(PROVIDER)

$(BUILD)/superp-barrier: $(HARNESS)/superp-barrier.c
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -o $@ $<

$(BUILD)/superp-verbs-probe: selftests/verbs/superp-verbs-probe.c include/uapi/rdma/superp-abi.h
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -Werror -Iinclude/uapi -o $@ $< -libverbs

# Writes garbage into its rings through the provider's own view of them.
$(BUILD)/superp-ring-garbage: selftests/verbs/superp-ring-garbage.c \
		selftests/verbs/verbs-test.h $(PROVIDER)/superp.h $(PROVIDER)/ibverbs_provider.h \
		include/uapi/rdma/superp-abi.h
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -Werror -Wno-unused-parameter -Iinclude/uapi \
		-I$(PROVIDER) -o $@ $< -libverbs

# Memory windows between two guests (selftests/verbs/mw.sh).
$(BUILD)/superp-mw: selftests/verbs/superp-mw.c selftests/verbs/verbs-test.h
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $< -libverbs

# A data-verifying transfer through plain libibverbs (selftests/verbs/stress.sh).
$(BUILD)/superp-stress: selftests/verbs/superp-stress.c selftests/verbs/verbs-test.h
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $< -libverbs

# Programs of one file and no library: the link's own round trip (make
# bench's latency floor, bench/lib.sh), the idle guest's flood
# (topology/quiet_guest.sh), the KASAN quarantine's trimmer (guest-run.sh).
$(BUILD)/superp-udp-lat: selftests/bench/superp-udp-lat.c
$(BUILD)/superp-udp-flood: selftests/topology/superp-udp-flood.c
$(BUILD)/superp-kasan-trim: $(HARNESS)/superp-kasan-trim.c
$(BUILD)/superp-udp-lat $(BUILD)/superp-udp-flood $(BUILD)/superp-kasan-trim:
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $<

# make install [DESTDIR=DIR] [KDIR=DIR]: sunh.ko and ib_superp.ko in
# /lib/modules/RELEASE/updates, superp and sunh in /usr/sbin, superp-gen in
# /usr/bin, their manual pages (gzip -9n, as Debian ships them: no name or
# time in the header) in /usr/share/man/man8, the bash completion of superp
# and sunh, the Wireshark dissector in Wireshark's global plugin folder, the
# provider where Debian's libibverbs looks; no test code.
# install-tools and install-provider are the parts without the modules
# (the Debian packages build those with DKMS: debian/rules).
# RELEASE is the modules' own (their vermagic), the directory modprobe
# searches for the kernel they load into: a Debian headers tree's
# kernelrelease is its source version (6.1.192), not the release its
# kernel runs as (6.1.0-56-amd64). depmod runs for a real install only.
# modinfo and depmod are in /sbin, which a user's PATH may lack.
SBIN_PATH := PATH=$$PATH:/usr/sbin:/sbin
KREL = $(firstword $(shell $(SBIN_PATH) modinfo -F vermagic \
	drivers/infiniband/sw/superp/ib_superp.ko))
MAN_PAGES := tools/superp/superp.8 tools/sunh/sunh.8 tools/superp-gen/superp-gen.8
MULTIARCH ?= $(shell $(CC) -print-multiarch)
# Lua dissectors sit in the plugin folder itself (compiled plugins in its
# per-version subfolders): tshark -G folders, "Global Lua Plugins".
WIRESHARK_PLUGINS := /usr/lib/$(MULTIARCH)/wireshark/plugins
COMPLETIONS := /usr/share/bash-completion/completions
install: install-modules install-tools install-provider

install-modules: modules
	$(if $(KREL),,$(error no kernel release in ib_superp.ko's vermagic))
	install -D -m 0644 net/sunh/sunh.ko \
		$(DESTDIR)/lib/modules/$(KREL)/updates/sunh.ko
	install -D -m 0644 drivers/infiniband/sw/superp/ib_superp.ko \
		$(DESTDIR)/lib/modules/$(KREL)/updates/ib_superp.ko
	[ -n "$(DESTDIR)" ] || $(SBIN_PATH) depmod -a $(KREL)

install-tools: tools/superp tools/sunh tools/superp-gen
	install -D -m 0755 tools/superp/superp $(DESTDIR)/usr/sbin/superp
	install -D -m 0755 tools/sunh/sunh $(DESTDIR)/usr/sbin/sunh
	install -D -m 0755 tools/superp-gen/superp-gen $(DESTDIR)/usr/bin/superp-gen
	install -d $(DESTDIR)/usr/share/man/man8
	for m in $(MAN_PAGES); do \
		gzip -9n < $$m > $(DESTDIR)/usr/share/man/man8/$${m##*/}.gz && \
		chmod 0644 $(DESTDIR)/usr/share/man/man8/$${m##*/}.gz || exit 1; \
	done
	install -D -m 0644 tools/completion/superp $(DESTDIR)$(COMPLETIONS)/superp
	install -D -m 0644 tools/completion/sunh $(DESTDIR)$(COMPLETIONS)/sunh
	install -D -m 0644 tools/wireshark/superp.lua \
		$(DESTDIR)$(WIRESHARK_PLUGINS)/superp.lua

install-provider: provider
	$(MAKE) -C $(PROVIDER) install DESTDIR=$(DESTDIR) MULTIARCH=$(MULTIARCH)

# make deb [DEB_DIR=DIR]: superp-dkms, superp-tools, superp-ibverbs-provider
# in DIR (default build/deb), by dpkg-buildpackage from a copy of the tree.
# make deb-modules [KVER=RELEASE]: superp-modules-RELEASE, the modules built
# by DKMS for kernel RELEASE (default: the newest Debian *-amd64 kernel
# installed, the one the harness's stock guests boot), from superp-dkms.
DEB_DIR ?= $(BUILD)/deb
KVER ?= $(shell bash -c '. $(HARNESS)/common.sh && stock_kernel_version')
deb:
	tools/lib/deb.sh $(DEB_DIR)

deb-modules:
	tools/lib/deb.sh --modules $(KVER) $(DEB_DIR)

setup:
	$(HARNESS)/setup.sh

kernel: setup
	bash -c '. $(HARNESS)/common.sh && build_test_kernel'

check:
	$(HARNESS)/check.sh

soak: setup
	$(HARNESS)/soak.sh $(T)

test: setup
	$(HARNESS)/run.sh $(T)

demo: setup
	$(HARNESS)/demo.sh

bench: setup
	QUICK=$(QUICK) PLAN=$(PLAN) PROFILE=$(PROFILE) $(HARNESS)/bench.sh

# Needs no kernel tree (KDIR's may be gone): remove kbuild output by name.
clean:
	for t in $(TOOLS) $(PROVIDER); do $(MAKE) -C $$t clean; done
	find include net drivers kunit probes \( -name '*.o' -o -name '*.ko' -o -name '*.mod' \
		-o -name '*.mod.c' -o -name '.*.cmd' -o -name '.*.d' -o -name modules.order \) -delete
	rm -f Module.symvers modules.order .*.cmd
	rm -rf $(BUILD) results
