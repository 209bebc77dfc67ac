/* insn.c (x86-64) — the probes that measure one x86 instruction, in ns per execution
 * (BENCH_TIME) and TSC cycles (extra cycles_x100: RDTSC around each batch, summed over the
 * sample). payload/registry.c lists them on every architecture; an architecture without
 * these instructions defines the same descriptors as unsupported, with a reason
 * (payload/arch/unsupported.h).
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
#include "../unsupported.h"

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

INSN(bench_clock_rdtsc, "clock-rdtsc", "RDTSC instruction", 0, insn_setup, rdtsc_run);
INSN(bench_clock_rdtscp, "clock-rdtscp", "RDTSCP instruction", 0, rdtscp_setup, rdtscp_run);
INSN(bench_vmexit_cpuid, "vmexit-cpuid", "CPUID leaf 0 (intercepted in a VM)", 1, insn_setup,
     cpuid_run);
INSN(bench_vmexit_rdtsc, "vmexit-rdtsc", "RDTSC", 1, insn_setup, rdtsc_run);
INSN(bench_vmexit_rdtscp, "vmexit-rdtscp", "RDTSCP", 1, rdtscp_setup, rdtscp_run);
INSN(bench_vmexit_pause, "vmexit-pause", "PAUSE", 1, insn_setup, pause_run);

/* arm64's instruction probes (payload/arch/aarch64/insn.c), listed on every architecture. */
#define ARM64(var, nm, ttl, insn, alt) \
	ARCH_UNSUPPORTED(var, nm, ttl, REC_GROUP_PROBES, REC_UNIT_NS, insn " is an arm64 instruction" alt)
ARM64(bench_clock_cntvct, "clock-cntvct", "CNTVCT_EL0 read (virtual counter)", "MRS CNTVCT_EL0",
      " (x86-64: clock-rdtsc)");
ARM64(bench_clock_cntpct, "clock-cntpct", "CNTPCT_EL0 read (physical counter)", "MRS CNTPCT_EL0",
      " (x86-64: clock-rdtsc)");
ARM64(bench_trap_mrs_idreg, "trap-mrs-idreg", "MRS ID_AA64ISAR0_EL1 from EL0 (kernel-emulated)",
      "MRS ID_AA64ISAR0_EL1", " (x86-64: vmexit-cpuid)");
ARM64(bench_trap_wfi, "trap-wfi", "WFI from EL0 (trapped to the kernel, skipped)", "WFI", "");
ARM64(bench_vmexit_wfe, "vmexit-wfe", "SEVL; WFE (exits where the host sets HCR_EL2.TWE)", "WFE",
      " (x86-64: vmexit-pause)");
ARM64(bench_vmexit_wfe_wake, "vmexit-wfe-wake", "WFE wake-up round trip, two CPUs", "WFE",
      " (x86-64: vmexit-wake-crosscpu)");
