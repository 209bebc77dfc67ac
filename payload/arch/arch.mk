# payload/arch/arch.mk — which architecture folder a build uses, as musl does: ARCH is the
# first field of the compiler's target triple ($(CC) -dumpmachine: x86_64-linux-gnu ->
# x86_64), or `make ARCH=...`. Included (after CC is set) by payload/Makefile,
# payload/proc/Makefile and tests/unit/Makefile, which get:
#   ARCH_DIR           payload/arch/$(ARCH)
#   ARCH_CPPFLAGS      the include path: ARCH_DIR, then generic/ (what a folder lacks comes
#                      from there, as musl's arch/generic/), then payload/arch/ (arch.h, the
#                      one interface)
#   ARCH_SRCS          its .c files (the architecture's own tests and CPU facts), then
#                      generic/'s (weak fallbacks its own definitions replace)
#   ARCH_TARGET_FLAGS  the fixed code-generation target (never -march=native)
#   RING0_DIR          the ring-0 driver's probe list for ARCH (its isobench_probe_arch.h):
#                      kernel-config/driver/arch/$(ARCH), or .../arch/none (the empty list)
#                      for an architecture whose kernel has no driver
#   RING0_OTHERS_H     $(O)/gen/ring0_others.h (O: the includer's output folder), made by the
#                      rule below with ring0-others.sh: RING0_OTHERS(X), the other
#                      architectures' ring-0 probes this build's list lacks (each is listed
#                      and SKIPs here: payload/bench/ring0.h); RING0_CPPFLAGS puts it and
#                      RING0_DIR on the include path. A file that includes it (through
#                      bench/ring0.h) is built after it: `| $(RING0_OTHERS_H)`.
# A new architecture is a new folder beside x86_64/ with an arch.mk, and what else it has of
# its own (docs/architecture.md, "Adding an architecture"); nothing generic changes
# (tests/test-arch.sh builds one). A target without a folder is an error.
ARCH_ROOT := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ARCH := $(firstword $(subst -, ,$(shell $(CC) -dumpmachine)))
# ARCH must be one word naming a folder that has an arch.mk: an empty ARCH would name this
# file itself (arch//arch.mk, included over and over), a path another folder.
ARCH_SUPPORTED := $(sort $(patsubst $(ARCH_ROOT)/%/arch.mk,%,$(wildcard $(ARCH_ROOT)/*/arch.mk)))
ifneq ($(words $(ARCH)) $(filter $(ARCH),$(ARCH_SUPPORTED)),1 $(strip $(ARCH)))
$(error isobench has no support for ARCH '$(ARCH)' (from $(if $(filter command line,\
$(origin ARCH)),make ARCH=,$(CC) -dumpmachine)); supported: $(ARCH_SUPPORTED))
endif
ARCH_DIR := $(ARCH_ROOT)/$(strip $(ARCH))
include $(ARCH_DIR)/arch.mk
# A folder that names its compiler's machine (ARCH_CC_MACHINE) is built only by such a
# compiler: make ARCH=aarch64 with the host's x86-64 musl-gcc is one line, not pages of
# compiler errors (ARCH=arm64 ./build.sh brings the cross compiler).
ARCH_CC_GOT := $(firstword $(subst -, ,$(shell $(CC) -dumpmachine)))
ifneq ($(ARCH_CC_MACHINE),)
ifneq ($(ARCH_CC_MACHINE),$(ARCH_CC_GOT))
$(error isobench's ARCH '$(strip $(ARCH))' needs a compiler for $(ARCH_CC_MACHINE); $(CC) \
builds for $(ARCH_CC_GOT) (ARCH=arm64 ./build.sh cross-builds the arm64 runner))
endif
endif
ARCH_SRCS := $(sort $(wildcard $(ARCH_DIR)/*.c)) $(sort $(wildcard $(ARCH_ROOT)/generic/*.c))
ARCH_CPPFLAGS := -I$(ARCH_DIR) -I$(ARCH_ROOT)/generic -I$(ARCH_ROOT)
RING0_ROOT := $(ARCH_ROOT)/../../kernel-config/driver/arch
RING0_DIR := $(firstword $(wildcard $(RING0_ROOT)/$(strip $(ARCH))) $(RING0_ROOT)/none)
RING0_CPPFLAGS = -I$(RING0_DIR) -I$(O)/gen
RING0_OTHERS_H = $(O)/gen/ring0_others.h
# The other lists are read when the payload is built, not copied: the driver's lists are kernel
# inputs (the kernels are cached by them) and stay the one spelling of each probe. The rule
# leaves the includer's default goal as it was (none yet: the next rule the includer writes
# is its default, as before).
ARCH_INCLUDER_GOAL := $(.DEFAULT_GOAL)
$(RING0_OTHERS_H): $(ARCH_ROOT)/ring0-others.sh $(wildcard $(RING0_ROOT)/*/isobench_probe_arch.h) \
		$(wildcard $(ARCH_ROOT)/*/arch.mk)
	@mkdir -p $(dir $@)
	$(ARCH_ROOT)/ring0-others.sh "$(CC)" $(RING0_DIR) $(RING0_ROOT) $(ARCH_ROOT) >$@.tmp
	mv $@.tmp $@
.DEFAULT_GOAL := $(ARCH_INCLUDER_GOAL)
