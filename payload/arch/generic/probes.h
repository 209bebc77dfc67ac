/* probes.h — the one list of the tests that measure one instruction of one architecture
 * (group probes, ns per loop), in run order (payload/registry.c's BENCH_TESTS splices it in):
 *   X(id, title, owner, insn, hint)
 *     id     the descriptor is `const struct bench bench_<id>`; the test's name is id with
 *            '_' made '-' (BENCH_NAME(id), payload/registry.c's name table)
 *     title  its --list title
 *     owner  the architecture whose instruction it is, as its reason says it ("x86", "arm64")
 *     insn   the instruction, for the reason
 *     hint   what to run instead on the other architecture, by its row's id:
 *            HINT("arm64", clock_cntvct) gives " (arm64: clock-cntvct)"; NO_HINT: nothing
 * Every architecture's runner lists every row, so a log has one shape on all of them: the
 * architecture that owns a probe defines it in payload/arch/<arch>/ with INSN (insn_probe.h),
 * and on every other one generic/probes.c's weak definition SKIPs with the reason
 * "<insn> is an <owner> instruction<hint>". An architecture names only its own probes. */
#ifndef ISOBENCH_ARCH_PROBES_H
#define ISOBENCH_ARCH_PROBES_H

#define ARCH_PROBES(X) \
	X(clock_rdtsc, "RDTSC instruction", "x86", "RDTSC", \
	  HINT("arm64", clock_cntvct)) \
	X(clock_rdtscp, "RDTSCP instruction", "x86", "RDTSCP", \
	  HINT("arm64", clock_cntvct)) \
	X(clock_cntvct, "CNTVCT_EL0 read (virtual counter)", "arm64", \
	  "MRS CNTVCT_EL0", HINT("x86-64", clock_rdtsc)) \
	X(clock_cntpct, "CNTPCT_EL0 read (physical counter)", "arm64", \
	  "MRS CNTPCT_EL0", HINT("x86-64", clock_rdtsc)) \
	X(vmexit_cpuid, "CPUID leaf 0 (intercepted in a VM)", "x86", "CPUID", \
	  HINT("arm64", trap_mrs_idreg)) \
	X(vmexit_rdtsc, "RDTSC", "x86", "RDTSC", HINT("arm64", clock_cntvct)) \
	X(vmexit_rdtscp, "RDTSCP", "x86", "RDTSCP", HINT("arm64", clock_cntvct)) \
	X(vmexit_pause, "PAUSE", "x86", "PAUSE", HINT("arm64", vmexit_wfe)) \
	X(vmexit_wfe, "SEVL; WFE (exits where the host sets HCR_EL2.TWE)", "arm64", \
	  "WFE", HINT("x86-64", vmexit_pause)) \
	X(vmexit_wfe_wake, "WFE wake-up round trip, two CPUs", "arm64", "WFE", \
	  HINT("x86-64", vmexit_wake_crosscpu)) \
	X(trap_mrs_idreg, "MRS ID_AA64ISAR0_EL1 from EL0 (kernel-emulated)", \
	  "arm64", "MRS ID_AA64ISAR0_EL1", HINT("x86-64", vmexit_cpuid)) \
	X(trap_wfi, "WFI from EL0 (trapped to the kernel, skipped)", "arm64", "WFI", NO_HINT)

/* ARCH_PROBE_TITLE(id): row id's title, for the owner's descriptor (an address constant:
 * generic/probes.c defines them from the list; the name is BENCH_NAME(id), benchapi.h). */
#define ARCH_PROBE_DECL(id, ttl, owner, insn, hint) extern const char arch_probe_title_##id[];
ARCH_PROBES(ARCH_PROBE_DECL)
#undef ARCH_PROBE_DECL
#define ARCH_PROBE_TITLE(id) arch_probe_title_##id

#endif
