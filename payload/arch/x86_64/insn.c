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
#include "../unsupported.h"
#include "../../bench/probe_util.h"

#include <errno.h>
#include <stdlib.h>

struct insn_state {
	struct probe_cycles cycles;	/* per sample */
};

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

static int has_rdtscp(void)
{
	uint32_t r[4];

	cpuid(0x80000000u, 0, r);
	if (r[0] < 0x80000001u)
		return 0;
	cpuid(0x80000001u, 0, r);
	return (r[3] >> 27) & 1;
}

static int insn_setup(struct bench_ctx *ctx)
{
	struct insn_state *s = calloc(1, sizeof *s);
	if (!s)
		return -ENOMEM;
	ctx->state = s;
	return 0;
}

static void insn_teardown(struct bench_ctx *ctx)
{
	free(ctx->state);
}

static void cycles_extra(struct bench_ctx *ctx, uint64_t cyc, uint64_t iters)
{
	struct insn_state *s = ctx->state;
	probe_cycles_extra(ctx, &s->cycles, cyc, iters);
}

static int rdtsc_run(struct bench_ctx *ctx, uint64_t iters)
{
	uint64_t acc = 0, t0 = arch_cycles();

	for (uint64_t i = 0; i < iters; i++)
		acc += arch_cycles();
	uint64_t t1 = arch_cycles();
	ctx->sink += acc;
	cycles_extra(ctx, t1 - t0, iters);
	return 0;
}

static int rdtscp_setup(struct bench_ctx *ctx)
{
	if (!has_rdtscp()) {
		bench_note(ctx, "CPU does not advertise RDTSCP (CPUID 0x80000001 EDX bit 27)");
		return BENCH_SKIP;
	}
	return insn_setup(ctx);
}

static int rdtscp_run(struct bench_ctx *ctx, uint64_t iters)
{
	uint64_t acc = 0, t0 = arch_cycles();

	for (uint64_t i = 0; i < iters; i++)
		acc += rdtscp();
	uint64_t t1 = arch_cycles();
	ctx->sink += acc;
	cycles_extra(ctx, t1 - t0, iters);
	return 0;
}

static int cpuid_run(struct bench_ctx *ctx, uint64_t iters)
{
	uint32_t r[4];
	uint64_t acc = 0, t0 = arch_cycles();

	for (uint64_t i = 0; i < iters; i++) {
		cpuid(0, 0, r);
		acc += r[0];
	}
	uint64_t t1 = arch_cycles();
	ctx->sink += acc;
	cycles_extra(ctx, t1 - t0, iters);
	return 0;
}

static int pause_run(struct bench_ctx *ctx, uint64_t iters)
{
	uint64_t t0 = arch_cycles();

	for (uint64_t i = 0; i < iters; i++)
		arch_cpu_relax();
	uint64_t t1 = arch_cycles();
	ctx->sink += iters;
	cycles_extra(ctx, t1 - t0, iters);
	return 0;
}

/* max_copies: the clock-* family runs with any number of copies, the vmexit-* one alone. */
#define INSN(var, nm, ttl, maxc, su, ru) \
	const struct bench var = { .name = nm, .title = ttl, .group = "probes", .unit = "ns", \
		.kind = BENCH_TIME, .per_loop = 1, .max_copies = maxc, .setup = su, .run = ru, \
		.teardown = insn_teardown }

INSN(bench_clock_rdtsc, "clock-rdtsc", "RDTSC instruction", 0, insn_setup, rdtsc_run);
INSN(bench_clock_rdtscp, "clock-rdtscp", "RDTSCP instruction", 0, rdtscp_setup, rdtscp_run);
INSN(bench_vmexit_cpuid, "vmexit-cpuid", "CPUID leaf 0 (intercepted in a VM)", 1, insn_setup,
     cpuid_run);
INSN(bench_vmexit_rdtsc, "vmexit-rdtsc", "RDTSC", 1, insn_setup, rdtsc_run);
INSN(bench_vmexit_rdtscp, "vmexit-rdtscp", "RDTSCP", 1, rdtscp_setup, rdtscp_run);
INSN(bench_vmexit_pause, "vmexit-pause", "PAUSE", 1, insn_setup, pause_run);

/* arm64's instruction probes (payload/arch/aarch64/insn.c), listed on every architecture. */
#define ARM64(var, nm, ttl, insn, alt) \
	ARCH_UNSUPPORTED(var, nm, ttl, "probes", "ns", insn " is an arm64 instruction" alt)
ARM64(bench_clock_cntvct, "clock-cntvct", "CNTVCT_EL0 read (virtual counter)", "MRS CNTVCT_EL0",
      " (x86-64: clock-rdtsc)");
ARM64(bench_clock_cntpct, "clock-cntpct", "CNTPCT_EL0 read (physical counter)", "MRS CNTPCT_EL0",
      " (x86-64: clock-rdtsc)");
ARM64(bench_trap_mrs_idreg, "trap-mrs-idreg", "MRS ID_AA64ISAR0_EL1 from EL0 (kernel-emulated)",
      "MRS ID_AA64ISAR0_EL1", " (x86-64: vmexit-cpuid)");
ARM64(bench_trap_wfi, "trap-wfi", "WFI from EL0 (trapped to the kernel, skipped)", "WFI", "");
ARM64(bench_vmexit_wfe, "vmexit-wfe", "SEVL; WFE (exits where the host sets HCR_EL2.TWE)", "WFE",
      " (x86-64: vmexit-pause)");
