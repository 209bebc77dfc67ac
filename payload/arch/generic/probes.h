/* probes.h — the one list of the tests that measure one instruction of one architecture
 * (group probes, ns per loop), in run order (payload/registry.c's BENCH_TESTS splices it in):
 *   X(id, name, title, owner, insn, hint)
 *     id     the descriptor is `const struct bench bench_<id>`
 *     name   the test's name; title its --list title
 *     owner  the architecture whose instruction it is, as its reason says it ("x86", "arm64")
 *     insn   the instruction, for the reason
 *     hint   what to run instead on the other architecture (" (arm64: clock-cntvct)"), or ""
 * Every architecture's runner lists every row, so a log has one shape on all of them: the
 * architecture that owns a probe defines it in payload/arch/<arch>/ with INSN (insn_probe.h),
 * and on every other one generic/probes.c's weak definition SKIPs with the reason
 * "<insn> is an <owner> instruction<hint>". An architecture names only its own probes. */
#ifndef ISOBENCH_ARCH_PROBES_H
#define ISOBENCH_ARCH_PROBES_H

#define ARCH_PROBES(X) \
	X(clock_rdtsc, "clock-rdtsc", "RDTSC instruction", "x86", "RDTSC", \
	  " (arm64: clock-cntvct)") \
	X(clock_rdtscp, "clock-rdtscp", "RDTSCP instruction", "x86", "RDTSCP", \
	  " (arm64: clock-cntvct)") \
	X(clock_cntvct, "clock-cntvct", "CNTVCT_EL0 read (virtual counter)", "arm64", \
	  "MRS CNTVCT_EL0", " (x86-64: clock-rdtsc)") \
	X(clock_cntpct, "clock-cntpct", "CNTPCT_EL0 read (physical counter)", "arm64", \
	  "MRS CNTPCT_EL0", " (x86-64: clock-rdtsc)") \
	X(vmexit_cpuid, "vmexit-cpuid", "CPUID leaf 0 (intercepted in a VM)", "x86", "CPUID", \
	  " (arm64: trap-mrs-idreg)") \
	X(vmexit_rdtsc, "vmexit-rdtsc", "RDTSC", "x86", "RDTSC", " (arm64: clock-cntvct)") \
	X(vmexit_rdtscp, "vmexit-rdtscp", "RDTSCP", "x86", "RDTSCP", " (arm64: clock-cntvct)") \
	X(vmexit_pause, "vmexit-pause", "PAUSE", "x86", "PAUSE", " (arm64: vmexit-wfe)") \
	X(vmexit_wfe, "vmexit-wfe", "SEVL; WFE (exits where the host sets HCR_EL2.TWE)", "arm64", \
	  "WFE", " (x86-64: vmexit-pause)") \
	X(vmexit_wfe_wake, "vmexit-wfe-wake", "WFE wake-up round trip, two CPUs", "arm64", "WFE", \
	  " (x86-64: vmexit-wake-crosscpu)") \
	X(trap_mrs_idreg, "trap-mrs-idreg", "MRS ID_AA64ISAR0_EL1 from EL0 (kernel-emulated)", \
	  "arm64", "MRS ID_AA64ISAR0_EL1", " (x86-64: vmexit-cpuid)") \
	X(trap_wfi, "trap-wfi", "WFI from EL0 (trapped to the kernel, skipped)", "arm64", "WFI", "")

/* ARCH_PROBE_NAME(id), ARCH_PROBE_TITLE(id): row id's name and title, for the owner's
 * descriptor (address constants: generic/probes.c defines them from the list). */
#define ARCH_PROBE_DECL(id, nm, ttl, owner, insn, hint) \
	extern const char arch_probe_name_##id[], arch_probe_title_##id[];
ARCH_PROBES(ARCH_PROBE_DECL)
#undef ARCH_PROBE_DECL
#define ARCH_PROBE_NAME(id) arch_probe_name_##id
#define ARCH_PROBE_TITLE(id) arch_probe_title_##id

#endif
