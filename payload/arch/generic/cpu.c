/* cpu.c (generic) — arch_hypervisor_id() and arch_cpu_brand() (payload/arch/arch.h) for an
 * architecture whose folder does not define them: "" each. Weak, so an architecture's own
 * definitions (payload/arch/<arch>/cpu.c) replace them at link time. */
#include "arch.h"

__attribute__((weak)) void arch_hypervisor_id(char *out)
{
	out[0] = 0;
}

__attribute__((weak)) void arch_cpu_brand(char *out)
{
	out[0] = 0;
}
