# payload/arch/aarch64/arch.mk — arm64's code-generation target (payload/arch/arch.mk).
# Baseline ARMv8.0-A so the image runs on every 64-bit Arm server, VM and Apple Silicon VMM
# (Cortex-A53/A72 boards, Graviton 1-4, Ampere Altra/One, Apple M1-M4); never -march=native.
ARCH_TARGET_FLAGS := -march=armv8-a -mtune=generic
# The compiler's machine (-dumpmachine's first field) this folder is built with.
ARCH_CC_MACHINE := aarch64
# The architecture's name in words (a ring-0 probe of its driver SKIPs elsewhere naming it:
# payload/arch/ring0-others.sh).
ARCH_NAME := arm64
