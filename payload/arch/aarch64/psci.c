/* psci.c (aarch64) — which conduit the firmware's PSCI uses, as the kernel found it
 * (drivers/firmware/psci/psci.c): read from files, no instruction, so the unit tests build
 * it on any host. Bare metal's PSCI is firmware at EL3, reached by SMC; a hypervisor at EL2
 * answers HVC (KVM/arm64, Xen, Hyper-V, Apple's and QEMU's virt machines) — the one sign of
 * a hypervisor an arm64 guest has when the CPU (no CPUID) and the kernel's log say nothing.
 * In:  dt, the device tree's psci node's "method" property (the kernel's
 *      /sys/firmware/devicetree/base/psci/method: "hvc" or "smc", NUL-terminated);
 *      facp, the ACPI FADT (/sys/firmware/acpi/tables/FACP, root only): ARM boot flags, a
 *      little-endian u16 at byte 129 (ACPI 6.5 table 5.9), bit 0 PSCI_COMPLIANT, bit 1
 *      PSCI_USE_HVC; present from FADT revision 5 minor 1 (ACPI 5.1) on.
 * Out: 1 HVC, 0 SMC, -1 unknown (neither file readable, no PSCI, a short or old FADT). The
 *      device tree is asked first: a machine booted with ACPI has no psci node there. */
#include "psci.h"
#include "io.h"

#include <string.h>

#define FADT_ARM_BOOT_FLAGS 129		/* ACPI 5.1+: u16 */
#define FADT_MINOR_REVISION 131		/* u8: with the major revision at byte 8 */
#define ARM_PSCI_COMPLIANT 0x1
#define ARM_PSCI_USE_HVC 0x2

int arch_psci_hvc(const char *dt, const char *facp)
{
	unsigned char b[160];
	ssize_t n = read_file(dt, b, sizeof b - 1);

	if (n > 0) {
		b[n] = 0;
		if (!strcmp((char *)b, "hvc"))
			return 1;
		if (!strcmp((char *)b, "smc"))
			return 0;
	}
	n = read_file(facp, b, sizeof b);
	if (n <= FADT_MINOR_REVISION || memcmp(b, "FACP", 4))
		return -1;
	if (b[8] < 5 || (b[8] == 5 && (b[FADT_MINOR_REVISION] & 0xf) < 1))
		return -1;	/* before ACPI 5.1 the ARM boot flags are not there */
	unsigned flags = b[FADT_ARM_BOOT_FLAGS] | (unsigned)b[FADT_ARM_BOOT_FLAGS + 1] << 8;
	if (!(flags & ARM_PSCI_COMPLIANT))
		return -1;
	return (flags & ARM_PSCI_USE_HVC) ? 1 : 0;
}
