/* cpu.c (aarch64) — the CPU facts of the machine header (payload/sysinfo.c); see arch.h. */
#include "arch.h"
#include "psci.h"
#include "vocab.h"

#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

/* HWCAP_CPUID (arch/arm64/include/uapi/asm/hwcap.h): the kernel emulates EL0 reads of the
 * ID registers (MIDR_EL1, ID_AA64*), which otherwise are undefined instructions (SIGILL). */
#define AARCH64_HWCAP_CPUID (1ul << 11)

/* MIDR_EL1 through the kernel's emulation, or 0 when it offers none. */
static uint64_t midr(void)
{
	uint64_t v;

	if (!(getauxval(AT_HWCAP) & AARCH64_HWCAP_CPUID))
		return 0;
	__asm__ volatile("mrs %0, midr_el1" : "=r"(v));
	return v;
}

/* arm64 has no user-space hypervisor signature (no CPUID leaf 0x40000000; the SMCCC vendor
 * UID needs an HVC from EL1): out (>= 13 bytes) = "TCGTCGTCGTCG" (QEMU TCG's x86 signature)
 * when the CPU is QEMU's emulated "max" model, else REC_HV_PSCI_HVC when the firmware's PSCI
 * is reached by HVC (a hypervisor at EL2, unnamed), else "". The kernel's log (INFO
 * kernel.hypervisor: KVM/arm64's and Xen's boot messages) names the hypervisor. */
void arch_hypervisor_id(char *out)
{
	uint64_t m = midr();

	out[0] = 0;
	/* QEMU's emulated "max" CPU: implementer 0x00 (reserved for software), part 'Q' = 0x051
	 * (QEMU target/arm/cpu64.c, aarch64_max_tcg_initfn). Only TCG presents it (under KVM
	 * "max" is the host's CPU), so it is reported as the signature QEMU's TCG gives x86
	 * guests; TCG with a named CPU model (-cpu cortex-a57) is not recognised. */
	if ((m >> 24 & 0xff) == 0 && (m >> 4 & 0xfff) == 0x051)
		strcpy(out, "TCGTCGTCGTCG");
	/* Else the only CPU-side sign: PSCI answered at EL2 (psci.c). The kernel's log may name
	 * the hypervisor (kernel.hypervisor; the report prefers that name). */
	else if (arch_psci_hvc("/sys/firmware/devicetree/base/psci/method",
			       "/sys/firmware/acpi/tables/FACP") == 1)
		strcpy(out, REC_HV_PSCI_HVC);
}

/* arm64 has no brand string: out (>= 49 bytes) = "implementer 0xII part 0xPPP r<v>p<r>" from
 * MIDR_EL1 (read through the kernel's emulation when it offers HWCAP_CPUID), else "". */
void arch_cpu_brand(char *out)
{
	uint64_t m = midr();

	out[0] = 0;
	if (!m)
		return;
	/* MIDR_EL1: [31:24] implementer, [23:20] variant, [15:4] part number, [3:0] revision. */
	snprintf(out, 49, "implementer 0x%02x part 0x%03x r%up%u", (unsigned)(m >> 24 & 0xff),
		 (unsigned)(m >> 4 & 0xfff), (unsigned)(m >> 20 & 0xf), (unsigned)(m & 0xf));
}
