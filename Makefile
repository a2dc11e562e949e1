# cbench top-level build.
#
#   make                build cbenchctl, the examples and cbench.ko
#   make cbenchctl      the userspace tool only (build/cbenchctl)
#   make module         cbench.ko against KDIR (see below)
#   make examples       build/examples/*.so
#   make test           unit and integration tests, the VM tests and check-all
#   make unit           unit tests only
#   make itest          integration tests of cbenchctl (user backend)
#   make vmtest         VM tests only (Debian's kernels and the debug kernel)
#   make vmtest-planted the debug kernel must report each planted bug (not in make test)
#   make debug-kernel   build/debug-kernel/: KASAN, kmemleak, lockdep (make vmtest builds it)
#   make check          sparse and W=1 on the module (KDIR), cppcheck on user code
#   make check-all      make check for every installed Debian kernel (part of make test)
#   make bench          how good cbench is (prints figures; not a test);
#                       bench/clock.sh alone: est-cycles/op between runs,
#                       within one clock level and by a trial's floors, beside
#                       the bare loop; bench/tpoints.sh alone: time to an audit verdict with
#                       and without loop timing points; bench/history.sh
#                       alone: history's false alerts and steps found, on
#                       histories replayed from real runs; bench/layout.sh
#                       alone: A/A false verdicts with and without code
#                       layouts sampled; bench/stackcheck.sh alone: what
#                       ring 0's stack checks cost a recursion
#   make bench-audit    how honest compare and audit are here (figures)
#   make bench-lnt      LNT's view of a 1 % slowdown in cbench's reports (figures)
#
# V=1 shows full commands.  WERROR= turns warnings back into warnings.

CC       ?= gcc
PKG_CONFIG ?= pkg-config
BUILD    := build
# VERSION's number, with git describe's suffix past the commit that set it.
VERSION  := $(shell scripts/version.sh 2>/dev/null || cat VERSION)

# KDIR: the kernel build tree for cbench.ko.  Default: the running kernel's,
# else the newest installed Debian headers.
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	  $(lastword $(sort $(wildcard /usr/src/linux-headers-*-amd64))))

ifeq ($(V),1)
Q :=
else
Q := @
endif

WERROR   ?= -Werror
WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	    -Wformat=2 -Wundef -Wno-unused-parameter $(WERROR)
CFLAGS   ?= -O2 -g
NL_CFLAGS := $(shell $(PKG_CONFIG) --cflags libnl-genl-3.0 2>/dev/null)
NL_LIBS   := $(shell $(PKG_CONFIG) --libs libnl-genl-3.0 2>/dev/null)
# The results store (user/store/): Debian's libsqlite3.
SQLITE_CFLAGS := $(shell $(PKG_CONFIG) --cflags sqlite3 2>/dev/null)
SQLITE_LIBS   := $(or $(shell $(PKG_CONFIG) --libs sqlite3 2>/dev/null),-lsqlite3)
# A fleet's store on a PostgreSQL server (user/store/db_pg.c): Debian's libpq-dev.
PQ_CFLAGS := $(shell $(PKG_CONFIG) --cflags libpq 2>/dev/null)
PQ_LIBS   := $(or $(shell $(PKG_CONFIG) --libs libpq 2>/dev/null),-lpq)
CPPFLAGS += -Iinclude -Iuser -D_GNU_SOURCE -DCBENCH_VERSION='"$(VERSION)"' $(NL_CFLAGS) $(SQLITE_CFLAGS) \
	    $(PQ_CFLAGS)
LDLIBS   += $(NL_LIBS) $(SQLITE_LIBS) $(PQ_LIBS) -ldw -lelf -ldl -lm
# user/machine/alloc.c's malloc family must be what a benchmark object's calls bind
# to: exported from the executable.
ALLOC_SYMS := malloc calloc realloc aligned_alloc memalign posix_memalign free
LDFLAGS  += $(foreach s,$(ALLOC_SYMS),-Wl,--export-dynamic-symbol=$(s))

# Every user/*/*.c is part of cbenchctl; user/main.c holds main() alone.
USER_SRCS := $(wildcard user/*.c user/*/*.c)
USER_ASMS := $(wildcard user/*/*.S)
USER_OBJS := $(USER_SRCS:%.c=$(BUILD)/%.o) $(USER_ASMS:%.S=$(BUILD)/%.o)
LIB_OBJS  := $(filter-out $(BUILD)/user/main.o,$(USER_OBJS))

# kmod/lib/*.c is pure logic built into the module and, here, into the unit
# tests, so the same source is tested in userspace.
KLIB_SRCS := $(wildcard kmod/lib/*.c)
KLIB_OBJS := $(KLIB_SRCS:%.c=$(BUILD)/%.o)

# One tests/unit/test_<module>.c per module; each defines
# `CU_SuiteInfo test_<module>_suites[]`.  The runner's list is generated.
TEST_SRCS := $(wildcard tests/unit/test_*.c)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/%.o)

all: cbenchctl examples module

cbenchctl: $(BUILD)/cbenchctl

$(BUILD)/cbenchctl: $(USER_OBJS) $(KLIB_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	$(Q)$(CC) $(CPPFLAGS) -MMD -MP -c -o $@ $<

# Rewritten only when the list of test files changes (a removed one too).
# Objects that print the version are rebuilt when it changes.
$(BUILD)/version: FORCE
	@mkdir -p $(BUILD)
	$(Q)echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' >$@
$(patsubst %.c,$(BUILD)/%.o,$(shell grep -rl CBENCH_VERSION user tests/unit --include='*.c')): $(BUILD)/version

$(BUILD)/tests/unit/suites.h: FORCE
	@mkdir -p $(dir $@)
	$(Q)for f in $(notdir $(basename $(TEST_SRCS))); do echo "SUITES($${f}_suites)"; done >$@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/tests/unit/runner.o: tests/unit/runner.c $(BUILD)/tests/unit/suites.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) -I$(BUILD)/tests/unit $(CFLAGS) $(WARNINGS) -MMD -MP -c -o $@ $<

$(BUILD)/unit_tests: $(BUILD)/tests/unit/runner.o $(TEST_OBJS) $(LIB_OBJS) $(KLIB_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcunit

unit: $(BUILD)/unit_tests cbenchctl examples kfixtures symbols-fixtures fixtures
	$(BUILD)/unit_tests

# Examples: each examples/*.c becomes build/examples/<name>.so (user build).
EXAMPLE_SRCS := $(wildcard examples/*.c)
EXAMPLE_SOS  := $(EXAMPLE_SRCS:examples/%.c=$(BUILD)/examples/%.so)
EXAMPLE_CFLAGS := -O2 -g -fPIC -shared -Iinclude -Wall -Wextra $(WERROR)

$(BUILD)/examples/%.so: examples/%.c include/cbench.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) -o $@ $<

# --- Kernel-safe benchmark builds (kimage) ---------------------------------
#
# A benchmark cbench.ko runs in ring 0 must be self-contained position-
# independent code: no libc, no stack protector (it reads the user's TLS),
# no red zone (interrupts and the kernel share the stack), endbr64 at every
# function (IBT kernels), no jump tables (indirect jumps), frame pointers for
# the kernel's unwinder, every symbol resolved at link time.  The code runs
# on cbench.ko's own stack (256 KiB by default), so frames are capped at
# 16 KiB and stack arrays of run-time size refused, which cbenchctl could not
# bound (recursion is checked: docs/trust-model.md).  These two lists are the single source of
# cbench-kernel.pc, the examples' .kernel.so builds and the unit-test
# fixtures.
KERNEL_BENCH_CFLAGS := -fPIC -nostdlib -ffreestanding -fno-stack-protector -mno-red-zone \
	-fcf-protection=branch -fno-jump-tables -fno-omit-frame-pointer \
	-Werror=frame-larger-than=16384 -Werror=vla -Werror=alloca
KERNEL_BENCH_LIBS := -shared -nostdlib -Wl,-z,now -Wl,-z,defs -Wl,-z,noexecstack \
	-Wl,-z,separate-code -Wl,-z,nopack-relative-relocs -Wl,--hash-style=gnu
PREFIX ?= /usr/local

# `PKG_CONFIG_PATH=build/pkgconfig pkg-config --cflags --libs cbench-kernel`
# works in the tree; `make install-pkgconfig` installs header and .pc.
$(BUILD)/pkgconfig/cbench-kernel.pc: Makefile
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$(or $(PC_INCLUDEDIR),$(CURDIR)/include)' '' \
		'Name: cbench-kernel' \
		'Description: flags for benchmarks cbench.ko can run in ring 0' \
		'Version: $(VERSION)' \
		'Cflags: $(KERNEL_BENCH_CFLAGS) -I$${includedir}' \
		'Libs: $(KERNEL_BENCH_LIBS)' >$@

install-pkgconfig:
	$(MAKE) PC_INCLUDEDIR=$(PREFIX)/include $(BUILD)/pkgconfig/cbench-kernel.pc -B
	install -D -m 0644 include/cbench.h $(DESTDIR)$(PREFIX)/include/cbench.h
	install -D -m 0644 $(BUILD)/pkgconfig/cbench-kernel.pc \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig/cbench-kernel.pc

KERNEL_EXAMPLE_SOS := $(EXAMPLE_SRCS:examples/%.c=$(BUILD)/examples/%.kernel.so)

# Every example, for user mode and (kernel-safe ones) for ring 0.
examples: $(EXAMPLE_SOS) $(KERNEL_EXAMPLE_SOS) $(BUILD)/pkgconfig/cbench-kernel.pc

$(BUILD)/examples/%.kernel.so: examples/%.c include/cbench.h Makefile
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -O2 -g -Wall -Wextra $(WERROR) $(KERNEL_BENCH_CFLAGS) -Iinclude \
		$(KERNEL_BENCH_LIBS) -o $@ $<

# kimage fixtures: tests/kfixtures/<name>.c -> build/tests/kfixtures/<name>.so,
# kernel-safe unless the name says which rule it breaks.  The bad ones link
# without -z defs so the linker lets them through to kimage's checks.
KFIXTURE_SRCS := $(wildcard tests/kfixtures/*.c)
KFIXTURE_SOS  := $(KFIXTURE_SRCS:tests/kfixtures/%.c=$(BUILD)/tests/kfixtures/%.so)
, := ,
KFIXTURE_LIBS := $(filter-out -Wl$(,)-z$(,)defs,$(KERNEL_BENCH_LIBS))
kfixture_flags = $(if $(findstring stack_vla,$(1)),$(filter-out -Werror=vla -Werror=alloca,$(KERNEL_BENCH_CFLAGS)),$(KERNEL_BENCH_CFLAGS)) \
	$(if $(findstring stack_protector,$(1)),-fstack-protector-all) \
	$(if $(findstring deep_stack,$(1)),-Wno-frame-larger-than) \
	$(if $(findstring recursion,$(1)),-Wno-frame-larger-than) \
	$(if $(findstring stack_clash,$(1)),-fstack-clash-protection -Wno-frame-larger-than) \
	$(if $(findstring no_endbr,$(1)),-fcf-protection=none) \
	$(if $(findstring layout_whole,$(1)),-Wl$(,)-q,$(if $(findstring layout,$(1)),-ffunction-sections -Wl$(,)-q))

$(BUILD)/tests/kfixtures/%.so: tests/kfixtures/%.c tests/kfixtures/spin.h tests/kfixtures/layout.c \
		tests/kfixtures/recursion.c include/cbench.h Makefile
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -O2 -Iinclude $(call kfixture_flags,$*) $(KFIXTURE_LIBS) -o $@ $<

kfixtures: $(KFIXTURE_SOS)

$(BUILD)/tests/unit/test_layout.o: CPPFLAGS += -DCBENCH_LAYOUT_DIR='"$(BUILD)/tests/layout"' \
	-DCBENCH_FIXTURES_DIR='"$(BUILD)/tests/fixtures"' -DCBENCH_EXAMPLE_DIR='"$(BUILD)/examples"'
$(BUILD)/tests/unit/test_kimage.o $(BUILD)/tests/unit/test_kimage_layout.o $(BUILD)/tests/unit/test_backend_kmod.o $(BUILD)/tests/unit/test_kstack.o: CPPFLAGS += -DCBENCH_FIXTURE_DIR='"$(BUILD)/tests/kfixtures"' \
	-DCBENCH_FIXTURES_DIR='"$(BUILD)/tests/fixtures"' \
	-DCBENCH_EXAMPLE_DIR='"$(BUILD)/examples"'
$(BUILD)/tests/unit/test_symbols.o: CPPFLAGS += -DCBENCH_EXAMPLE_DIR='"$(BUILD)/examples"' \
	-DCBENCH_SYMBOLS_DIR='"$(BUILD)/tests/symbols"'

.PHONY: install-pkgconfig kfixtures
# --- end of kernel-safe benchmark builds -------------------------------------

# --- Installation ----------------------------------------------------------
#
#   make install PREFIX=/usr DESTDIR=...   cbenchctl, cbench.h, cbench.pc and
#       cbench-kernel.pc, the man pages, the bash completion
#   make uninstall PREFIX=/usr DESTDIR=... removes what install put there
#   make dkms-install     register cbench.ko with dkms (rebuilt per kernel)
#   make dkms-check       build it through dkms for every installed kernel,
#                         in a scratch tree that leaves the system's alone

BINDIR       ?= $(PREFIX)/bin
INCLUDEDIR   ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(PREFIX)/lib/pkgconfig
MANDIR       ?= $(PREFIX)/share/man
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions
# cbench's own benchmark objects: the selftest's known-answer kernels.
CBENCHLIBDIR ?= $(PREFIX)/lib/cbench

$(BUILD)/user/cmd/selftest.o: CPPFLAGS += -DCBENCH_LIBDIR='"$(CBENCHLIBDIR)"'
# insn builds its objects at run time with the kernel-safe flags, and the
# header it was built with (object/cbench_header.S includes its text).
$(BUILD)/user/object/asmgen.o: CPPFLAGS += -DCBENCH_KERNEL_CFLAGS='"$(KERNEL_BENCH_CFLAGS)"' \
	-DCBENCH_KERNEL_LIBS='"$(KERNEL_BENCH_LIBS)"'
$(BUILD)/user/object/asmgen.o: Makefile
$(BUILD)/user/object/cbench_header.o: include/cbench.h
# The run report's schema, which readers check reports against (results/run_schema.S).
$(BUILD)/user/results/run_schema.o: docs/schema/run.schema.json
# Rebuilt when the place changes (make install PREFIX=...).
$(BUILD)/cbenchlibdir: FORCE
	@mkdir -p $(BUILD)
	$(Q)echo '$(CBENCHLIBDIR)' | cmp -s - $@ || echo '$(CBENCHLIBDIR)' >$@
$(BUILD)/user/cmd/selftest.o: $(BUILD)/cbenchlibdir

# User-mode benchmark objects need nothing but a shared object's flags.
USER_BENCH_CFLAGS := -fPIC
USER_BENCH_LIBS   := -shared

# Where each installed file goes (make install, make uninstall).
INSTALLED := $(BINDIR)/cbenchctl $(INCLUDEDIR)/cbench.h $(PKGCONFIGDIR)/cbench.pc \
	$(PKGCONFIGDIR)/cbench-kernel.pc $(MANDIR)/man1/cbenchctl.1 $(MANDIR)/man3/cbench.h.3 \
	$(BASHCOMPDIR)/cbenchctl $(CBENCHLIBDIR)/known.so

# The .pc files' includedir, relative to ${prefix} where it lies under it.
PC_INCDIR = $(if $(filter $(PREFIX)/%,$(INCLUDEDIR)),$${prefix}/$(patsubst $(PREFIX)/%,%,$(INCLUDEDIR)),$(INCLUDEDIR))

# $(call write_pc,NAME,DESCRIPTION,CFLAGS-VARIABLE,LIBS-VARIABLE,FILE): the
# flags are passed by name, as their values hold commas.
define write_pc
	$(Q)printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$(PC_INCDIR)' '' 'Name: $(1)' 'Description: $(2)' \
		'Version: $(VERSION)' 'Cflags: $($(3)) -I$${includedir}' 'Libs: $($(4))' >$(5)
endef

install: cbenchctl $(BUILD)/examples/known.kernel.so
	@mkdir -p $(BUILD)/install
	$(call write_pc,cbench,flags for benchmarks cbenchctl runs in user mode,USER_BENCH_CFLAGS,USER_BENCH_LIBS,$(BUILD)/install/cbench.pc)
	$(call write_pc,cbench-kernel,flags for benchmarks cbench.ko can run in ring 0,KERNEL_BENCH_CFLAGS,KERNEL_BENCH_LIBS,$(BUILD)/install/cbench-kernel.pc)
	install -D -m 0755 $(BUILD)/cbenchctl $(DESTDIR)$(BINDIR)/cbenchctl
	install -D -m 0644 include/cbench.h $(DESTDIR)$(INCLUDEDIR)/cbench.h
	install -D -m 0644 $(BUILD)/install/cbench.pc $(DESTDIR)$(PKGCONFIGDIR)/cbench.pc
	install -D -m 0644 $(BUILD)/install/cbench-kernel.pc $(DESTDIR)$(PKGCONFIGDIR)/cbench-kernel.pc
	install -D -m 0644 man/cbenchctl.1 $(DESTDIR)$(MANDIR)/man1/cbenchctl.1
	install -D -m 0644 man/cbench.h.3 $(DESTDIR)$(MANDIR)/man3/cbench.h.3
	install -D -m 0644 completion/cbenchctl $(DESTDIR)$(BASHCOMPDIR)/cbenchctl
	install -D -m 0644 $(BUILD)/examples/known.kernel.so $(DESTDIR)$(CBENCHLIBDIR)/known.so

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

# `make install` into a scratch DESTDIR, every file checked, the man pages
# rendered without a warning; part of itest.
install-check: cbenchctl
	tests/run/install.sh

# DKMS wants the module's sources in <source tree>/cbench-<version>/ with
# dkms.conf beside them.
DKMS_VERSION := $(VERSION)
DKMS_KERNELS ?= $(shell uname -r)
# $(call dkms_sources,SOURCE-TREE)
define dkms_sources
	$(Q)rm -rf $(1)/cbench-$(DKMS_VERSION)
	$(Q)mkdir -p $(1)/cbench-$(DKMS_VERSION)
	$(Q)cp -p --parents $(KMOD_SRCS) $(1)/cbench-$(DKMS_VERSION)/
	$(Q)sed 's/@VERSION@/$(DKMS_VERSION)/' dkms.conf >$(1)/cbench-$(DKMS_VERSION)/dkms.conf
endef

dkms-install:
	$(call dkms_sources,$(DESTDIR)/usr/src)
	dkms status -m cbench -v $(DKMS_VERSION) | grep -q . || dkms add -m cbench -v $(DKMS_VERSION)
	$(Q)for k in $(DKMS_KERNELS); do \
		dkms build -m cbench -v $(DKMS_VERSION) -k $$k && \
		dkms install -m cbench -v $(DKMS_VERSION) -k $$k || exit 1; \
	done

# Every kernel whose headers are installed, built through dkms in a scratch
# tree (its own source, build and install trees, its own signing key), then
# removed: the system's dkms state, /usr/src and /lib/modules stay as they were.
DKMS_CHECK_KVERS = $(patsubst /usr/src/linux-headers-%,%,$(CHECK_KDIRS))

dkms-check:
	@test -n "$(DKMS_CHECK_KVERS)" || { echo "no kernel headers in /usr/src: run scripts/install-deps.sh --all" >&2; exit 1; }
	@command -v dkms >/dev/null || { echo "dkms is missing: run scripts/install-deps.sh --all" >&2; exit 1; }
	$(Q)rm -rf $(BUILD)/dkms && mkdir -p $(BUILD)/dkms/src $(BUILD)/dkms/tree $(BUILD)/dkms/install
	$(call dkms_sources,$(BUILD)/dkms/src)
	$(Q)set -e; t=$(CURDIR)/$(BUILD)/dkms; \
	export mok_signing_key=$$t/mok.key mok_certificate=$$t/mok.pub; \
	for k in $(DKMS_CHECK_KVERS); do \
		echo "  DKMS    cbench/$(DKMS_VERSION) for $$k"; \
		dkms build -m cbench -v $(DKMS_VERSION) -k $$k --kernelsourcedir /usr/src/linux-headers-$$k \
			--dkmstree $$t/tree --sourcetree $$t/src --installtree $$t/install >$$t/build-$$k.log 2>&1 || \
			{ cat $$t/build-$$k.log; exit 1; }; \
		test -f $$t/tree/cbench/$(DKMS_VERSION)/$$k/x86_64/module/cbench.ko* || \
			{ echo "dkms-check: no cbench.ko for $$k"; cat $$t/build-$$k.log; exit 1; }; \
	done; \
	dkms remove -m cbench -v $(DKMS_VERSION) --all --dkmstree $$t/tree --sourcetree $$t/src \
		--installtree $$t/install >$$t/remove.log 2>&1 || { cat $$t/remove.log; exit 1; }
	$(Q)rm -rf $(BUILD)/dkms
	@echo "dkms-check: cbench/$(DKMS_VERSION) builds through dkms for $(DKMS_CHECK_KVERS)"

.PHONY: install uninstall install-check dkms-install dkms-check
# --- end of installation -----------------------------------------------------

# Test fixtures: tests/fixtures/*.c -> build/tests/fixtures/*.so (bad input
# for the integration tests).
FIXTURE_SRCS := $(wildcard tests/fixtures/*.c)
FIXTURE_SOS  := $(FIXTURE_SRCS:tests/fixtures/%.c=$(BUILD)/tests/fixtures/%.so)

# Code layout (object/layout.h): tests/fixtures/layout.c with its loop placed
# 0, 16, 32 and 48 bytes further, and with one jump more (a real change),
# built so that its code can move.
LAYOUT_CFLAGS := -ffunction-sections -Wl,-q
LAYOUT_SOS := $(foreach s,0 16 32 48,$(BUILD)/tests/layout/shift$(s).so) $(BUILD)/tests/layout/jumps13.so \
	$(BUILD)/tests/layout/calls_functions.so $(BUILD)/tests/layout/calls_sections.so \
	$(BUILD)/tests/layout/address.so

$(BUILD)/tests/layout/shift%.so: tests/fixtures/layout.c include/cbench.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $(LAYOUT_CFLAGS) -DSHIFT=$* -o $@ $<
$(BUILD)/tests/layout/jumps13.so: tests/fixtures/layout.c include/cbench.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $(LAYOUT_CFLAGS) -DJUMPS=13 -o $@ $<
# run's: a benchmark whose speed its code's address decides (layout.sh).
$(BUILD)/tests/layout/address.so: tests/fixtures/layout_address.c tests/fixtures/count_calls.h include/cbench.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $(LAYOUT_CFLAGS) -o $@ $<
# The unit test's: every way code reaches code, with and without -ffunction-sections.
$(BUILD)/tests/layout/calls_functions.so: tests/fixtures/layout_calls.c include/cbench.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $(LAYOUT_CFLAGS) -o $@ $<
$(BUILD)/tests/layout/calls_sections.so: tests/fixtures/layout_calls.c include/cbench.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) -Wl,-q -o $@ $<

fixtures: $(FIXTURE_SOS) $(LAYOUT_SOS)

$(BUILD)/tests/fixtures/%.so: tests/fixtures/%.c include/cbench.h $(wildcard tests/fixtures/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) -o $@ $<

# Symbols fixtures, for the unit test of user/worker/symbols.c: one source
# with the classic PLT and with IBT's .plt.sec; stripped, with its debug
# file under a build-ID directory, and (another build) beside it through
# .gnu_debuglink only.
SYMBOLS_DIR := $(BUILD)/tests/symbols
SYMBOLS_OBJS := $(SYMBOLS_DIR)/plt.so $(SYMBOLS_DIR)/plt_ibt.so $(SYMBOLS_DIR)/stripped.so \
		$(SYMBOLS_DIR)/linked.so

$(SYMBOLS_DIR)/plt.so: tests/fixtures/symbols/plt.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -O2 -g -fPIC -shared -fcf-protection=none -o $@ $<
$(SYMBOLS_DIR)/plt_ibt.so: tests/fixtures/symbols/plt.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -O2 -g -fPIC -shared -fcf-protection=full -Wl,-z,ibtplt -o $@ $<
$(SYMBOLS_DIR)/stripped.so: tests/fixtures/symbols/plt.c
	@mkdir -p $(SYMBOLS_DIR)/debug
	@echo "  CC      $@"
	$(Q)$(CC) -O2 -g -fPIC -shared -DVARIANT=1 -Wl,--build-id=sha1 -o $@.full $<
	$(Q)id=$$(readelf -n $@.full | sed -n 's/.*Build ID: //p'); \
		mkdir -p $(SYMBOLS_DIR)/debug/.build-id/$$(echo $$id | cut -c1-2) && \
		objcopy --only-keep-debug $@.full \
			$(SYMBOLS_DIR)/debug/.build-id/$$(echo $$id | cut -c1-2)/$$(echo $$id | cut -c3-).debug
	$(Q)objcopy --strip-all $@.full $@ && rm $@.full
$(SYMBOLS_DIR)/linked.so: tests/fixtures/symbols/plt.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -O2 -g -fPIC -shared -DVARIANT=2 -Wl,--build-id=none -o $@.full $<
	$(Q)objcopy --only-keep-debug $@.full $@.debug
	$(Q)objcopy --strip-all --add-gnu-debuglink=$@.debug $@.full $@ && rm $@.full

# calls.so and the user's library it calls, for profile.sh.
$(SYMBOLS_DIR)/libcalls.so: tests/fixtures/symbols/lib.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -O2 -g -fPIC -shared -fcf-protection=none -o $@ $<
$(SYMBOLS_DIR)/calls.so: tests/fixtures/symbols/calls.c $(SYMBOLS_DIR)/libcalls.so include/cbench.h
	@echo "  CC      $@"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) -fcf-protection=none -o $@ $< -L$(SYMBOLS_DIR) -lcalls \
		-Wl,-rpath,'$$ORIGIN'

symbols-fixtures: $(SYMBOLS_OBJS) $(SYMBOLS_DIR)/calls.so

# Integration tests: `make install` into a scratch root, doctor and lab on a
# fake root and plot's pages in headless chromium first, then the run path
# and bad input (user backend), profiles and audits.
itest: cbenchctl examples fixtures symbols-fixtures kfixtures install-check itest-lab itest-plot
	tests/run/run.sh
	tests/run/params.sh
	tests/run/profile.sh
	tests/run/audit.sh
	tests/run/layout.sh
	tests/run/lnt.sh
	tests/run/junit.sh
	tests/run/resume.sh
	tests/run/selftest.sh
	tests/run/insn.sh
	tests/run/history.sh
	tests/run/jobs.sh
	tests/run/fleet.sh || [ $$? -eq 77 ]

itest-lab: cbenchctl
	tests/run/lab.sh
itest-plot: cbenchctl examples
	tests/run/plot.sh

.PHONY: itest-lab itest-plot


# cbench.ko is built in a copy of its sources, one per kernel, so builds
# against several kernels never share objects and the source tree stays clean.
KVER      ?= $(patsubst linux-headers-%,%,$(notdir $(patsubst %/build,%,$(KDIR))))

# Test builds only: CBENCH_PLANT_BUG=<kind> plants one deliberate bug
# (kmod/planted.c) for `make vmtest-planted`, or, with nonet, turns the
# fault nets off for the killed-thread boot of `make vmtest`.  Such a module
# goes to a directory of its own, so it can never be mistaken for the real one.
PLANT_BUGS := uaf lockinv atomic_sleep leak nonet
ifneq ($(filter-out $(PLANT_BUGS),$(CBENCH_PLANT_BUG))$(word 2,$(CBENCH_PLANT_BUG)),)
$(error CBENCH_PLANT_BUG=$(CBENCH_PLANT_BUG): one of $(PLANT_BUGS))
endif
KMOD_OUT  := $(BUILD)/kmod-$(KVER)$(if $(CBENCH_PLANT_BUG),-planted-$(CBENCH_PLANT_BUG))
KMOD_SRCS := Kbuild $(wildcard kmod/*.[chS] kmod/lib/*.[ch]) include/cbench.h include/uapi/linux/cbench.h
KBUILD_ARGS = -C $(KDIR) M=$(CURDIR)/$(KMOD_OUT) CBENCH_VERSION=$(VERSION) CBENCH_WERROR=$(WERROR) \
	CBENCH_PLANT_BUG=$(CBENCH_PLANT_BUG)

kmod-sources:
	@test -n "$(KDIR)" || { echo "no kernel build tree: install linux-headers-amd64 or set KDIR=" >&2; exit 1; }
	@mkdir -p $(KMOD_OUT)
	$(Q)find $(KMOD_OUT) -name '*.[chS]' -delete
	$(Q)cp -p --parents $(KMOD_SRCS) $(KMOD_OUT)/

module: kmod-sources
	$(MAKE) $(KBUILD_ARGS) modules
	@echo "  KO      $(KMOD_OUT)/cbench.ko"

module-clean:
	@test -z "$(KDIR)" || test ! -d $(KMOD_OUT) || $(MAKE) $(KBUILD_ARGS) clean

# Helpers the VM tests run in the guest, beside cbenchctl.
VMTEST_TOOLS := $(BUILD)/tests/vm/cbench-nlcheck $(BUILD)/tests/vm/cbench-kmodtest \
		$(BUILD)/tests/vm/cbench-fuzz

# The kernel backend's raw-netlink test client (tests/vm/kmod.sh drives it):
# tests/vm/kmod_test.c, its client and its parts (tests/vm/kmod_*.c).
KMODTEST_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/vm/kmod_*.c))
$(BUILD)/tests/vm/cbench-kmodtest: $(KMODTEST_OBJS) $(LIB_OBJS) $(KLIB_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The protocol fuzzer (tests/vm/fuzz.c): raw requests only, no library
# but the CRC-32 the module checks an upload against.
$(BUILD)/tests/vm/cbench-fuzz: $(BUILD)/tests/vm/fuzz.o $(BUILD)/kmod/lib/crc32.o
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

$(BUILD)/tests/vm/cbench-nlcheck: $(BUILD)/tests/vm/nlcheck.o $(LIB_OBJS) $(KLIB_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

vmtest: cbenchctl examples fixtures kfixtures $(VMTEST_TOOLS)
	scripts/vm-test.sh

# Not a test of cbench but of the VM tests: a module with one planted bug
# per boot of the debug kernel, each of which must be reported.
vmtest-planted: cbenchctl examples kfixtures $(VMTEST_TOOLS)
	scripts/vm-test.sh --planted

# The protocol fuzzer alone, as long as asked (FUZZ_SECONDS, default 600)
# on each kernel of VMTEST_KERNELS; make test runs it for two minutes.
FUZZ_SECONDS ?= 600
fuzz: cbenchctl examples kfixtures $(VMTEST_TOOLS)
	VMTEST_FUZZ_SECONDS=$(FUZZ_SECONDS) VMTEST_FUZZ_ONLY=1 scripts/vm-test.sh

# Everything: unit and integration tests, the VM tests on every kernel,
# the static checks on every kernel's headers, and the dkms build.
test: unit itest vmtest check-all dkms-check

CPPCHECK_DIRS := $(wildcard user tests/unit tests/vm examples kmod/lib)

check: cbenchctl kmod-sources
	@mkdir -p $(BUILD)
	$(MAKE) $(KBUILD_ARGS) C=2 CF="-D__CHECK_ENDIAN__" W=1 modules 2>&1 | tee $(BUILD)/sparse-$(KVER).log
	@! grep -iE 'warning|error' $(BUILD)/sparse-$(KVER).log
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
		--inline-suppr --std=c11 -Iinclude -Iuser -D__x86_64__ $(CPPCHECK_DIRS)
	scripts/long-functions.sh user/*.c user/*/*.c kmod/*.c kmod/lib/*.c
	scripts/dead-functions.sh user/*.c user/*/*.c kmod/*.c kmod/lib/*.c

# `make check` for every Debian kernel whose headers are installed, as the
# VM tests do; `make test` runs it.
CHECK_KDIRS := $(sort $(wildcard /usr/src/linux-headers-*-amd64))

check-all:
	@test -n "$(CHECK_KDIRS)" || { echo "no kernel headers in /usr/src: run scripts/install-deps.sh --all" >&2; exit 1; }
	$(Q)for k in $(CHECK_KDIRS); do $(MAKE) --no-print-directory check KDIR=$$k || exit 1; done

# The VM tests' debug kernel; rebuilt only when tests/vm/debug.config or
# the linux-source-6.1 package changes.
debug-kernel:
	scripts/debug-kernel.sh

bench: cbenchctl examples fixtures
	bench/run.sh
	bench/clock.sh
	bench/tpoints.sh
	bench/headline.sh
	bench/history.sh
	bench/changepoints.sh
	bench/history_xxhash.sh
	bench/insn.sh
	bench/layout.sh
	bench/night.sh
	bench/night_scale.sh
	bench/standing.sh
	bench/precision.sh
	bench/trials.sh
	bench/fleet.sh

# compare on A/A pairs of separate runs, and audit on A/A pairs and true
# slowdowns of compute-bound and memory-bound benchmarks (prints figures;
# not a test), under one hold of the lock.  N=100 for 100 audits a case.
bench-audit: cbenchctl examples
	flock /tmp/cbench-measure.lock env CBENCH_MEASURE_LOCKED=1 \
		sh -c 'bench/compare_aa.sh && bench/audit.sh'

# What LNT's own comparison makes of cbench's reports of a 1 % slowdown,
# beside cbench's audit (prints figures; not a test).  Needs llvm-lnt.
bench-lnt: cbenchctl
	bench/lnt.sh

clean:
	rm -rf $(BUILD)

FORCE:

.PHONY: FORCE bench-audit bench-lnt check-all all cbenchctl examples fixtures symbols-fixtures itest kmod-sources module module-clean unit vmtest \
	vmtest-planted debug-kernel test check bench clean

-include $(USER_OBJS:.o=.d) $(TEST_OBJS:.o=.d) $(KLIB_OBJS:.o=.d) $(BUILD)/tests/vm/nlcheck.d \
	$(KMODTEST_OBJS:.o=.d)
