/* arch_impl.h (aarch64) — arm64's bodies of the interface payload/arch/arch.h declares (see
 * there for the contract); included by it only. */
#ifndef ISOBENCH_ARCH_IMPL_H
#define ISOBENCH_ARCH_IMPL_H

#include <stdint.h>
#include <sys/time.h>

/* Where a glibc-linked program's libc.so.6 may be, in search order (payload/core/isoproc.c):
 * Debian's multiarch folders (aarch64-linux-gnu), then the lib64 of other distributions. */
#define ARCH_GLIBC_PATHS \
	"/lib/aarch64-linux-gnu/libc.so.6", "/usr/lib/aarch64-linux-gnu/libc.so.6", \
	"/lib64/libc.so.6", "/usr/lib64/libc.so.6"

/* The cycle counter: CNTVCT_EL0, the generic timer's virtual count, in its ticks (CNTFRQ_EL0
 * per second: 24 MHz on Apple M1 and Graviton 2, 25 MHz on Ampere Altra, 1 GHz from ARMv8.6;
 * QEMU TCG: 62.5 MHz), not core clocks; readable from EL0 because Linux sets CNTKCTL_EL1.EL0VCTEN.
 * The ISB orders it after the instructions before it (as the kernel's __arch_counter_get_cntvct
 * does). Under KVM/arm64 it does not exit: the hypervisor applies CNTVOFF_EL2 in hardware. */
static inline uint64_t arch_cycles(void)
{
	uint64_t v;
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

/* One spin-wait hint (YIELD, as the kernel's cpu_relax()), also a compiler barrier. */
static inline void arch_cpu_relax(void)
{
	__asm__ volatile("yield" ::: "memory");
}

/* reps x 128 dependent adds of step (a register) to v; the loop's count and branch run
 * beside the chain. */
#define ARCH_CHAIN_ADDS 128
static inline uint64_t arch_add_chain(uint64_t reps, uint64_t v, uint64_t step)
{
	__asm__ volatile("1:\n\t"
			 ".rept 128\n\tadd %0, %0, %2\n\t.endr\n\t"
			 "subs %1, %1, #1\n\t"
			 "b.ne 1b"
			 : "+r"(v), "+r"(reps) : "r"(step) : "cc");
	return v;
}

/* One event read from /dev/input/event* (include/uapi/linux/input.h): on arm64, as on
 * x86-64, a 64-bit struct timeval, u16 type, u16 code, s32 value. */
struct arch_input_event {
	struct timeval time;
	uint16_t type, code;
	int32_t value;
};

#endif
