/* cpu.c (x86-64) — the CPU facts of the machine header (payload/sysinfo.c), read with
 * CPUID; see arch.h. */
#include "arch.h"

#include <cpuid.h>
#include <string.h>

/* CPUID leaf 0x40000000's signature; "" when CPUID.1:ECX bit 31 (hypervisor) is clear. */
void arch_hypervisor_id(char *out)
{
	unsigned a, b, c, d;

	out[0] = 0;
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(out, &b, 4);
	memcpy(out + 4, &c, 4);
	memcpy(out + 8, &d, 4);
	out[12] = 0;
}

void arch_cpu_brand(char *out)
{
	unsigned r[12], max;

	out[0] = 0;
	max = __get_cpuid_max(0x80000000, NULL);
	if (max < 0x80000004)
		return;
	for (unsigned i = 0; i < 3; i++)
		__cpuid(0x80000002 + i, r[i * 4], r[i * 4 + 1], r[i * 4 + 2], r[i * 4 + 3]);
	memcpy(out, r, 48);
	out[48] = 0;
}
