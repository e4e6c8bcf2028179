# SPDX-License-Identifier: GPL-2.0
# SUPERp for Linux: top-level build.
#
#   make            kernel modules (against $(KDIR)), tools, provider
#   make check      every test, from a fresh machine (README's test command)
#   make soak       the long forms of the tests (1M fuzz, loss figures, ...)
#   make demo       two guests talking SUPERp (README's main command)
#   make bench      SUPERp beside TCP, rxe and siw (QUICK=1: under 15 min)
#   make test T=... one KUnit suite or selftest, e.g. T=kunit/superp_wire_test
#   make KDIR=/lib/modules/$(uname -r)/build   build against another kernel
#   make install    modules, tools and provider where Debian looks (DESTDIR)

HARNESS := selftests/harness
BUILD := build
KDIR ?= $(shell $(HARNESS)/build-kernel.sh)
TOOLS := $(patsubst %/Makefile,%,$(wildcard tools/*/Makefile))
PROVIDER := providers/superp

.PHONY: all modules userspace tools $(TOOLS) provider setup kernel check soak test demo bench clean \
	install

all: modules userspace

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace: tools provider $(BUILD)/superp-barrier $(BUILD)/superp-verbs-probe \
	$(BUILD)/superp-ring-garbage $(BUILD)/superp-stress

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
		$(PROVIDER)/superp.h $(PROVIDER)/ibverbs_provider.h \
		include/uapi/rdma/superp-abi.h
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -Werror -Wno-unused-parameter -Iinclude/uapi \
		-I$(PROVIDER) -o $@ $< -libverbs

# A data-verifying transfer through plain libibverbs (selftests/verbs/stress.sh).
$(BUILD)/superp-stress: selftests/verbs/superp-stress.c
	@mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -Werror -o $@ $< -libverbs

# make install [DESTDIR=DIR] [KDIR=...]: the two modules under
# /lib/modules/VERSION/updates (VERSION: KDIR's kernel), the superp and
# sunh tools in /usr/sbin, the provider and its driver file where Debian's
# libibverbs looks for them. depmod runs for a real install only.
KVER = $(shell $(MAKE) -s -C $(KDIR) kernelrelease)
install: all
	install -D -m 0644 net/sunh/sunh.ko \
		$(DESTDIR)/lib/modules/$(KVER)/updates/sunh.ko
	install -D -m 0644 drivers/infiniband/sw/superp/ib_superp.ko \
		$(DESTDIR)/lib/modules/$(KVER)/updates/ib_superp.ko
	install -D -m 0755 tools/superp/superp $(DESTDIR)/usr/sbin/superp
	install -D -m 0755 tools/sunh/sunh $(DESTDIR)/usr/sbin/sunh
	$(MAKE) -C $(PROVIDER) install DESTDIR=$(DESTDIR)
	[ -n "$(DESTDIR)" ] || depmod -a $(KVER)

setup:
	$(HARNESS)/setup.sh

kernel: setup
	$(HARNESS)/build-kernel.sh

check:
	$(HARNESS)/check.sh

soak: setup
	$(HARNESS)/soak.sh $(T)

test: setup
	$(HARNESS)/run.sh $(T)

demo: setup
	$(HARNESS)/demo.sh

bench: setup
	QUICK=$(QUICK) $(HARNESS)/bench.sh

# Needs no kernel tree (KDIR would build one): remove kbuild output by name.
clean:
	for t in $(TOOLS) $(PROVIDER); do $(MAKE) -C $$t clean; done
	find include net drivers kunit probes \( -name '*.o' -o -name '*.ko' -o -name '*.mod' \
		-o -name '*.mod.c' -o -name '.*.cmd' -o -name modules.order \) -delete
	rm -f Module.symvers modules.order .*.cmd
	rm -rf $(BUILD) results
