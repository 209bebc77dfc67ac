/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/* isobench_probe_arch.h (x86-64) — the probe list of isobench's ring-0 driver on x86-64,
 * included by ../../isobench_probe.h (the interface; kernel build: the same folder; user
 * space: -I kernel-config/driver/arch/x86_64). X(ID, name, title); a title fits the report's
 * 40 columns. Names follow kvm-unit-tests' x86/vmexit.c where one matches (cpuid, vmcall,
 * mov_from_cr8, mov_to_cr8, rd/wr_tsc_adjust_msr, inl_from_pmtimer, inl_from_kernel, ipi,
 * ipi_halt); rd_x2apic_ver_msr after its rd_*_msr and x2apic_* names; the others are
 * ours. The instructions: ibp_arch.c beside this file; self_ipi, ipi, ipi_halt and hlt are
 * the driver's generic probes (../../isobench_probe.c). What each exercises on each
 * hypervisor: those files' comments and docs/benchmarks/probes.md. The order is x86-64's
 * ABI (the probe number, recorded logs and the runner depend on it): append only. */
#ifndef ISOBENCH_PROBE_ARCH_H
#define ISOBENCH_PROBE_ARCH_H

#define ISOBENCH_PROBES(X) \
	X(CPUID, cpuid, "CPUID leaf 0") \
	X(VMCALL, vmcall, "hypercall (KVM, Xen, Hyper-V, VMware)") \
	X(MOV_FROM_CR8, mov_from_cr8, "MOV from CR8 (task priority)") \
	X(MOV_TO_CR8, mov_to_cr8, "MOV to CR8 (the value just read)") \
	X(RD_TSC_ADJUST, rd_tsc_adjust_msr, "RDMSR IA32_TSC_ADJUST") \
	X(WR_TSC_ADJUST, wr_tsc_adjust_msr, "WRMSR IA32_TSC_ADJUST (value just read)") \
	X(INL_PMTIMER, inl_from_pmtimer, "INL from the ACPI PM timer") \
	X(OUTB_0X80, outb_0x80, "OUTB to port 0x80") \
	X(MMIO_LAPIC, mmio_lapic, "MMIO read of the LAPIC version register") \
	X(MMIO_HPET, mmio_hpet, "MMIO read of the HPET counter") \
	X(EOI, eoi, "local APIC end-of-interrupt write") \
	X(SELF_IPI, self_ipi, "self-IPI, sent and handled") \
	X(IPI, ipi, "IPI round trip to a spinning CPU") \
	X(IPI_HALT, ipi_halt, "IPI round trip to a halted CPU") \
	X(HLT, hlt, "HLT wake-up lateness, 20 us timer") \
	X(INL_KERNEL, inl_from_kernel, "INB from the PIC's ELCR (port 0x4d0)") \
	X(RD_X2APIC_VER, rd_x2apic_ver_msr, "RDMSR x2APIC version register (0x803)")

#endif
