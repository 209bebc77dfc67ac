/* insn.c (aarch64) — the probes that measure one arm64 instruction, in ns per execution
 * (BENCH_TIME) and generic-timer ticks (extra cycles_x100: CNTVCT_EL0 around each batch,
 * summed over the sample; arch.h). Their names and titles are rows of the one list
 * payload/arch/generic/probes.h; elsewhere they SKIP with the list's reason
 * (generic/probes.c), as x86's do here.
 *
 * What each exercises on KVM/arm64 (and what it shows natively, its baseline):
 *   clock-cntvct    one loop = ISB; MRS CNTVCT_EL0, the counter clock_gettime() reads in the
 *                   vDSO. No exit under KVM (CNTVOFF_EL2 is applied by the hardware) unless
 *                   the host traps the counter (e.g. for an erratum workaround, or an old
 *                   nested setup): then a trap per read, visible here.
 *   clock-cntpct    one loop = ISB; MRS CNTPCT_EL0, the physical count. Linux grants EL0
 *                   the virtual counter only (CNTKCTL_EL1.EL0PCTEN clear), so this SKIPs
 *                   unless a kernel allows it; where it runs, under KVM it shows whether
 *                   the host traps the physical counter (KVM does, without ECV, for a guest
 *                   whose counter offset is non-zero).
 *   trap-mrs-idreg  one loop = MRS ID_AA64ISAR0_EL1 from EL0: undefined at EL0, trapped to
 *                   the guest's own kernel, which emulates it from its sanitised copy
 *                   (HWCAP_CPUID; arch/arm64/kernel/cpufeature.c) and returns: an EL0 -> EL1
 *                   exception round trip. Under KVM it does NOT reach the hypervisor (the
 *                   EL1 trap comes first; KVM's HCR_EL2.TID3 traps only the kernel's own
 *                   reads), so it measures how the guest takes synchronous exceptions. No
 *                   EL0 instruction portably reaches EL2 (HVC is undefined at EL0, every
 *                   EL0-trappable system register traps to EL1 first): the hypervisor round
 *                   trip needs ring 0 (the x86 ring0 group; not on arm64 yet).
 *   trap-wfi        one loop = WFI from EL0: Linux keeps SCTLR_EL1.nTWI clear, so it traps
 *                   to the kernel, which skips it (traps.c, wfi_handler): another EL0 -> EL1
 *                   round trip, never a wait, never an exit.
 *   vmexit-wfe      one loop = SEVL; WFE: the event register is set, so WFE returns at once
 *                   natively (a few cycles). KVM sets HCR_EL2.TWE while the vCPU shares its
 *                   physical CPU with another task (kvm_vcpu_load), and then every WFE exits
 *                   to the host, which treats it as a spin-loop yield (the arm64 cousin of
 *                   x86's pause-loop exiting). */
#include "arch.h"
#include "../insn_probe.h"

#include <setjmp.h>
#include <signal.h>
#include <sys/auxv.h>

/* HWCAP_CPUID (arch/arm64/include/uapi/asm/hwcap.h): EL0 ID-register reads are emulated. */
#define AARCH64_HWCAP_CPUID (1ul << 11)

static inline uint64_t cntpct(void)
{
	uint64_t v;
	__asm__ volatile("isb\n\tmrs %0, cntpct_el0" : "=r"(v) :: "memory");
	return v;
}

static inline uint64_t id_aa64isar0(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, id_aa64isar0_el1" : "=r"(v));
	return v;
}

static inline uint64_t wfi1(void)
{
	__asm__ volatile("wfi" ::: "memory");
	return 1;
}

static inline uint64_t wfe1(void)
{
	__asm__ volatile("sevl\n\twfe" ::: "memory");
	return 1;
}

static sigjmp_buf ill_jmp;
static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(ill_jmp, 1);
}

/* 1 when CNTPCT_EL0 is readable at EL0 here: one read under a SIGILL handler (the test runs
 * in its own child process; the handler is restored before returning). */
static int cntpct_readable(void)
{
	struct sigaction sa = {.sa_handler = on_sigill}, old;
	volatile int ok = 0;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGILL, &sa, &old))
		return 0;
	if (!sigsetjmp(ill_jmp, 1)) {
		(void)cntpct();
		ok = 1;
	}
	sigaction(SIGILL, &old, NULL);
	return ok;
}

static int cntpct_setup(struct bench_ctx *ctx)
{
	if (!cntpct_readable()) {
		bench_note(ctx, "CNTPCT_EL0 is not readable at EL0 (CNTKCTL_EL1.EL0PCTEN clear: "
				"Linux grants user space the virtual counter only)");
		return BENCH_SKIP;
	}
	return insn_setup(ctx);
}

static int idreg_setup(struct bench_ctx *ctx)
{
	if (!(getauxval(AT_HWCAP) & AARCH64_HWCAP_CPUID)) {
		bench_note(ctx, "the kernel does not emulate EL0 ID-register reads (no HWCAP_CPUID)");
		return BENCH_SKIP;
	}
	return insn_setup(ctx);
}

INSN_RUN(cntvct_run, arch_cycles())
INSN_RUN(cntpct_run, cntpct())
INSN_RUN(idreg_run, id_aa64isar0())
INSN_RUN(wfi_run, wfi1())
INSN_RUN(wfe_run, wfe1())

INSN(clock_cntvct, 0, insn_setup, cntvct_run);
INSN(clock_cntpct, 0, cntpct_setup, cntpct_run);
INSN(trap_mrs_idreg, 1, idreg_setup, idreg_run);
INSN(trap_wfi, 1, insn_setup, wfi_run);
INSN(vmexit_wfe, 1, insn_setup, wfe_run);
