/* arch_impl.h (x86_64) — x86-64's bodies of the interface payload/arch/arch.h declares (see
 * there for the contract); included by it only. */
#ifndef ISOBENCH_ARCH_IMPL_H
#define ISOBENCH_ARCH_IMPL_H

#include <stdint.h>
#include <sys/time.h>

/* Where a glibc-linked program's libc.so.6 may be, in search order (payload/core/isoproc.c):
 * Debian's multiarch folders (x86_64-linux-gnu), then the lib64 of other distributions. */
#define ARCH_GLIBC_PATHS \
	"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6", \
	"/lib64/libc.so.6", "/usr/lib64/libc.so.6"

/* The cycle counter, in TSC ticks (RDTSC: the TSC's nominal rate, not core clocks; not
 * ordered against the instructions around it). Read around a batch to report cycles per
 * loop (extra cycles_x100). Where an architecture has no user-readable counter: 0. */
static inline uint64_t arch_cycles(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* One spin-wait hint (PAUSE), for loops that poll memory another CPU writes; also a
 * compiler barrier. Where an architecture has no hint: the barrier alone. */
static inline void arch_cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

/* reps x 128 dependent adds of step (a register: a renamer that folds adds of an immediate
 * cannot fold these) to v; the loop's count and branch run beside the chain. */
#define ARCH_CHAIN_ADDS 128
static inline uint64_t arch_add_chain(uint64_t reps, uint64_t v, uint64_t step)
{
	__asm__ volatile("1:\n\t"
			 ".rept 128\n\tadd %2, %0\n\t.endr\n\t"
			 "dec %1\n\t"
			 "jnz 1b"
			 : "+r"(v), "+r"(reps) : "r"(step) : "cc");
	return v;
}

/* One event read from /dev/input/event* (include/uapi/linux/input.h): on x86-64 a struct
 * timeval, u16 type, u16 code, s32 value. */
struct arch_input_event {
	struct timeval time;
	uint16_t type, code;
	int32_t value;
};

#endif
