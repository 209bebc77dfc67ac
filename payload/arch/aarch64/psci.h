/* psci.h (aarch64) — arch_psci_hvc(dt, facp): 1 when the firmware's PSCI conduit is HVC
 * (a hypervisor at EL2), 0 SMC (firmware at EL3: bare metal), -1 unknown; from the device
 * tree's psci method file or the ACPI FADT's ARM boot flags. No instruction: psci.c, built
 * by the unit tests on any host. */
#ifndef ISOBENCH_AARCH64_PSCI_H
#define ISOBENCH_AARCH64_PSCI_H

int arch_psci_hvc(const char *dt, const char *facp);

#endif
