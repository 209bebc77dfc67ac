/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/* isobench_probe_arch.h (aarch64) — the probe list of isobench's ring-0 driver on arm64,
 * included by ../../isobench_probe.h (the interface; kernel build: the same folder; user
 * space: -I kernel-config/driver/arch/aarch64). X(ID, name, title); a title fits the
 * report's 40 columns. Names follow kvm-unit-tests' arm/micro-bench.c where one matches
 * (hvc, ipi); self_ipi, ipi_halt are the names of the same generic probes on x86-64, and wfi
 * is x86's hlt with arm64's instruction. hvc is ibp_arch.c's (beside this file), the others
 * are the driver's generic probes (../../isobench_probe.c). Not here, and why: mmio_read_vgic
 * and eoi (docs/benchmarks/probes.md, "arm64"). The order is arm64's ABI, its own numbering
 * (probe 0 is hvc here, cpuid on x86-64): append only. */
#ifndef ISOBENCH_PROBE_ARCH_H
#define ISOBENCH_PROBE_ARCH_H

#define ISOBENCH_PROBES(X) \
	X(HVC, hvc, "HVC: SMCCC/PSCI version call") \
	X(SELF_IPI, self_ipi, "self-IPI (SGI), sent and handled") \
	X(IPI, ipi, "IPI (SGI) round trip to a spinning CPU") \
	X(IPI_HALT, ipi_halt, "IPI (SGI) round trip to an idle CPU") \
	X(WFI, wfi, "WFI wake-up lateness, 20 us timer")

#endif
