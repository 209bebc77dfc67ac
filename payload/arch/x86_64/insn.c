/* insn.c (x86-64) — the probes that measure one x86 instruction, in ns per execution
 * (BENCH_TIME) and TSC cycles (extra cycles_x100: RDTSC around each batch, summed over the
 * sample). Their names and titles are rows of the one list payload/arch/generic/probes.h;
 * on an architecture without these instructions they SKIP with the list's reason
 * (generic/probes.c).
 *
 *   clock-rdtsc / vmexit-rdtsc   one loop = one RDTSC (a VM exit only if the hypervisor traps
 *                                it: TSC scaling off/unstable TSC, or some nested setups)
 *   clock-rdtscp / vmexit-rdtscp one loop = one RDTSCP (SKIP if the CPU does not advertise it)
 *   vmexit-cpuid                 one loop = one CPUID leaf 0. Always intercepted under
 *                                VT-x/AMD-V, so in a guest this is a full exit + re-entry
 *                                round trip (~1-2 us); ~100 cycles natively.
 *   vmexit-pause                 one loop = one PAUSE. Pause-loop exiting only triggers for
 *                                spinning at CPL 0, so from user space this shows the
 *                                instruction's own latency (~10 cycles before Skylake, ~140
 *                                after), not an exit.
 * The clock-* and vmexit-* names of RDTSC/RDTSCP are one measurement listed in both families
 * (payload/bench/clock.c, vmexit.c). */
#include "arch.h"
#include "../insn_probe.h"

static inline uint64_t rdtscp(void)
{
	uint32_t lo, hi, aux;
	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	return (uint64_t)hi << 32 | lo;
}

static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(sub));
}

/* CPUID leaf 0's EAX (the largest basic leaf). */
static inline uint64_t cpuid0(void)
{
	uint32_t r[4];
	cpuid(0, 0, r);
	return r[0];
}

static inline uint64_t pause1(void)
{
	arch_cpu_relax();
	return 1;
}

static int has_rdtscp(void)
{
	uint32_t r[4];

	cpuid(0x80000000u, 0, r);
	if (r[0] < 0x80000001u)
		return 0;
	cpuid(0x80000001u, 0, r);
	return (r[3] >> 27) & 1;
}

static int rdtscp_setup(struct bench_ctx *ctx)
{
	if (!has_rdtscp()) {
		bench_note(ctx, "CPU does not advertise RDTSCP (CPUID 0x80000001 EDX bit 27)");
		return BENCH_SKIP;
	}
	return insn_setup(ctx);
}

INSN_RUN(rdtsc_run, arch_cycles())
INSN_RUN(rdtscp_run, rdtscp())
INSN_RUN(cpuid_run, cpuid0())
INSN_RUN(pause_run, pause1())

INSN(clock_rdtsc, 0, insn_setup, rdtsc_run);
INSN(clock_rdtscp, 0, rdtscp_setup, rdtscp_run);
INSN(vmexit_cpuid, 1, insn_setup, cpuid_run);
INSN(vmexit_rdtsc, 1, insn_setup, rdtsc_run);
INSN(vmexit_rdtscp, 1, rdtscp_setup, rdtscp_run);
INSN(vmexit_pause, 1, insn_setup, pause_run);
