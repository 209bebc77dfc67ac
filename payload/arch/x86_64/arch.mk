# payload/arch/x86_64/arch.mk — x86-64's code-generation target (payload/arch/arch.mk).
# Baseline x86-64 so the image runs on any 64-bit PC; never -march=native.
ARCH_TARGET_FLAGS := -march=x86-64 -mtune=generic
# The compiler's machine (-dumpmachine's first field) this folder is built with.
ARCH_CC_MACHINE := x86_64
# The architecture's name in words (a ring-0 probe of its driver SKIPs elsewhere naming it:
# payload/arch/ring0-others.sh).
ARCH_NAME := x86-64
