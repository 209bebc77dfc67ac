/* counters.c (aarch64) — arch_core_counters() (payload/arch/arch.h). The Activity Monitors'
 * core-cycle and constant counters (AMEVCNTR00/01, ARMv8.4 AMU) are what APERF/MPERF are on
 * x86, but Linux (CONFIG_ARM64_AMU_EXTN) reads them at EL1, for frequency invariance, and
 * leaves AMUSERENR_EL0 clear, so a user-space read traps. (On ACPI servers CPPC's feedback
 * counters in sysfs, acpi_cppc/feedback_ctrs, may come from them: not used yet.) So: not
 * readable here; the clock is estimated (payload/cpuclock.c). */
#include "arch.h"

#include <errno.h>
#include <stdio.h>

int arch_core_counters(int cpu, uint64_t *actual, uint64_t *ref, char *why, size_t n)
{
	(void)cpu, (void)actual, (void)ref;
	snprintf(why, n, "APERF not exposed (arm64: the AMU counters are not readable at EL0)");
	return -ENOTSUP;
}
