/* arch.h (x86-64) — what generic code asks of the processor and the platform's ABI. Every
 * folder payload/arch/<arch>/ provides this header with the same names (the build puts the
 * selected folder on the include path: payload/arch/arch.mk) and defines the tests that
 * name one architecture's instructions (insn.c here; another architecture lists them as
 * unsupported, with a reason: payload/arch/unsupported.h). Outside payload/arch/ no file
 * holds an instruction, an x86-only header or a multiarch triplet (tests/test-arch.sh). */
#ifndef ISOBENCH_ARCH_H
#define ISOBENCH_ARCH_H

#include <stdint.h>
#include <sys/time.h>

/* Where a glibc-linked program's libc.so.6 may be, in search order (payload/bench/proc.c):
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

/* The hypervisor's vendor signature (CPUID leaf 0x40000000: "KVMKVMKVM", "VMwareVMware",
 * "Microsoft Hv", "XenVMMXenVMM", "TCGTCGTCGTCG", ...) into out (>= 13 bytes); "" on bare
 * metal (CPUID.1:ECX bit 31 clear) and where an architecture has no such signature. */
void arch_hypervisor_id(char *out);

/* The processor's brand string as the CPU reports it (CPUID 0x80000002..4: 48 bytes, blanks
 * kept) into out (>= 49 bytes); "" when the CPU or the architecture has none. */
void arch_cpu_brand(char *out);

/* One event read from /dev/input/event* (include/uapi/linux/input.h): on x86-64 a struct
 * timeval, u16 type, u16 code, s32 value. */
struct arch_input_event {
	struct timeval time;
	uint16_t type, code;
	int32_t value;
};

#endif
