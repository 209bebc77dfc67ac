/* cpu.c (generic) — arch_hypervisor_id(), arch_cpu_brand() and arch_core_counters()
 * (payload/arch/arch.h) for an architecture whose folder does not define them: "" each, and
 * no counters. Weak, so an architecture's own
 * definitions (payload/arch/<arch>/cpu.c) replace them at link time. */
#include "arch.h"

#include <errno.h>
#include <stdio.h>

__attribute__((weak)) void arch_hypervisor_id(char *out)
{
	out[0] = 0;
}

__attribute__((weak)) void arch_cpu_brand(char *out)
{
	out[0] = 0;
}

__attribute__((weak)) int arch_core_counters(int cpu, uint64_t *actual, uint64_t *ref, char *why,
					     size_t n)
{
	(void)cpu, (void)actual, (void)ref;
	snprintf(why, n, "APERF not exposed (no core counters on this architecture)");
	return -ENOTSUP;
}
