/* arch.h — what generic code asks of the processor and the platform's ABI: the one interface
 * every architecture provides, declared here once. The build puts payload/arch/<arch>/ and
 * then payload/arch/generic/ on the include path (payload/arch/arch.mk), so a header or a
 * definition an architecture's folder lacks comes from generic/ (as musl's arch/generic/):
 *   arch_impl.h   the inline bodies and layouts below (generic/: no counter, a compiler
 *                 barrier, lib64 paths, the 64-bit input_event);
 *   cpu.c         arch_hypervisor_id(), arch_cpu_brand() (generic/cpu.c: weak, "");
 *   counters.c    arch_core_counters() (generic/cpu.c: weak, none);
 *   insn.c        the instruction probes it has, of the one list generic/probes.h (every
 *                 other one SKIPs with its reason: generic/probes.c, weak).
 * docs/architecture.md ("Adding an architecture") says what a new one must provide; outside
 * payload/arch/ no file holds an instruction, an x86-only header or a multiarch triplet
 * (tests/test-arch.sh). */
#ifndef ISOBENCH_ARCH_H
#define ISOBENCH_ARCH_H

#include <stddef.h>
#include <stdint.h>

/* arch_impl.h provides, for this architecture:
 *   ARCH_GLIBC_PATHS    where a glibc-linked program's libc.so.6 may be, in search order, a
 *                       comma list of string literals (payload/core/isoproc.c);
 *   uint64_t arch_cycles(void)
 *                       static inline: the cycle counter, in its own ticks (x86-64: the TSC;
 *                       arm64: CNTVCT_EL0), read around a batch to report cycles per loop
 *                       (extra cycles_x100); 0 where no counter is user-readable;
 *   void arch_cpu_relax(void)
 *                       static inline: one spin-wait hint for loops polling memory another
 *                       CPU writes (PAUSE, YIELD), and a compiler barrier; the barrier alone
 *                       where there is no hint;
 *   uint64_t arch_add_chain(uint64_t reps, uint64_t v, uint64_t step)
 *                       static inline: reps x ARCH_CHAIN_ADDS integer adds of step to v,
 *                       each depending on the one before (one cycle of latency each on the
 *                       cores the clock estimate assumes: payload/cpuclock.c), in an asm
 *                       block the compiler cannot remove; returns v plus them. reps >= 1.
 *                       ARCH_CHAIN_ADDS is 0 where the architecture has no such chain;
 *   struct arch_input_event
 *                       one event read from /dev/input/event* (include/uapi/linux/input.h):
 *                       struct timeval time, uint16_t type, code, int32_t value. */
#include "arch_impl.h"

/* The hypervisor's vendor signature (x86-64: CPUID leaf 0x40000000, "KVMKVMKVM",
 * "VMwareVMware", "Microsoft Hv", "TCGTCGTCGTCG", ...) into out (>= 13 bytes); "" on bare
 * metal and where the architecture has no such signature. */
void arch_hypervisor_id(char *out);

/* The processor's brand string as the CPU reports it (x86-64: CPUID 0x80000002..4, 48 bytes,
 * blanks kept) into out (>= 49 bytes); "" when the CPU or the architecture has none. */
void arch_cpu_brand(char *out);

/* The core's actual-cycle and reference-cycle counters of CPU cpu, read from the calling
 * thread (x86-64: IA32_APERF 0xE8 and IA32_MPERF 0xE7 through /dev/cpu/N/msr, Intel SDM vol.
 * 3B 15.2 / AMD APM vol. 2 17.3; both count only in C0, MPERF at the TSC's rate). 0 with
 * *actual and *ref, or -errno with the reason in words in why (n bytes): "APERF not exposed
 * (...)" (generic/: none on this architecture). */
int arch_core_counters(int cpu, uint64_t *actual, uint64_t *ref, char *why, size_t n);

#endif
