// SPDX-License-Identifier: GPL-2.0
/*
 * ibp_arch.c (x86-64) — the x86 instructions of isobench's ring-0 probe driver and x86-64's
 * probe table (ibp_probes[], in the order of isobench_probe_arch.h beside this file). The
 * generic part (char device, ioctl, worker, batching, clock check, IPIs, timer wake-up) is
 * ../../isobench_probe.c. The probes here are kvm-unit-tests' x86/vmexit.c list (our own
 * code). One iteration of each:
 *   cpuid              CPUID leaf 0 (always intercepted by VT-x and AMD-V)
 *   vmcall             a hypercall the hypervisor answers at once: KVM an unused number
 *                      (KVM answers -KVM_ENOSYS, include/uapi/linux/kvm_para.h), Xen
 *                      xen_version(XENVER_version), Hyper-V a fast hypercall with the
 *                      reserved code 0, VMware its backdoor (IN on port 0x5658, GETVERSION);
 *                      elsewhere VMCALL (Intel) / VMMCALL (AMD), whose #UD on bare metal is
 *                      caught by an exception-table fixup: then the probe is refused
 *   mov_from_cr8       read CR8 (the task priority); mov_to_cr8 writes back the value read
 *   rd_tsc_adjust_msr  RDMSR IA32_TSC_ADJUST (0x3b); wr_tsc_adjust_msr writes back the value
 *                      read with interrupts off, so the TSC never changes; refused when
 *                      CPUID.7.EBX[1] (TSC_ADJUST) is clear. The kernel's timers never write
 *                      this MSR while a probe runs (its TSC-sync check runs in idle entry)
 *   inl_from_pmtimer   IN (32 bit) from the ACPI PM timer port of the FADT (pmtmr_ioport)
 *   outb_0x80          OUT of one byte to port 0x80 (the POST port), only where the kernel
 *                      itself writes it for its I/O delay (io_delay_type, below): refused
 *                      when that is port 0xed (io_delay=0xed, CONFIG_IO_DELAY_0XED, or a
 *                      board on the kernel's io_delay_0xed_port_dmi_table, which locks up
 *                      on port 0x80), udelay or none
 *   mmio_lapic         read of the local APIC's version register through its MMIO page;
 *                      refused in x2APIC mode (no MMIO page then: rd_x2apic_ver_msr)
 *   inl_from_kernel    IN of one byte from port 0x4d0, the 8259 PIC's ELCR (kvm-unit-tests'
 *                      name and port: KVM's in-kernel PIC answers it, arch/x86/kvm/i8259.c,
 *                      where inl_from_pmtimer goes to QEMU); a side-effect-free register
 *                      read the kernel's i8259 code does itself (save_ELCR()); refused
 *                      without a legacy PIC (nr_legacy_irqs() 0)
 *   rd_x2apic_ver_msr  RDMSR 0x803, the local APIC's version register in x2APIC mode (the
 *                      x2APIC twin of mmio_lapic; kvm-unit-tests prefixes its x2APIC probes
 *                      with x2apic_ and calls MSR reads rd_*_msr); refused in xAPIC mode
 *   mmio_hpet          read of the HPET main counter (refused without an HPET)
 *   eoi                an EOI write to the local APIC (MMIO, or the MSR in x2APIC mode; the
 *                      hardware write, not KVM's PV EOI): with no interrupt in service it
 *                      changes nothing
 *   self_ipi, ipi, ipi_halt, hlt  the generic probes (isobench_probe.c); on x86 self_ipi is
 *                      IRQ_WORK_VECTOR through the local APIC, ipi a CALL_FUNCTION_SINGLE
 *                      vector, hlt the timer wake-up with STI; HLT as ibp_idle()
 */
#include <linux/acpi_pmtmr.h>
#include <linux/kernel.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/apic.h>
#include <asm/asm.h>
#include <asm/extable_fixup_types.h>
#include <asm/cpufeature.h>
#include <asm/hpet.h>
#include <asm/hypervisor.h>
#include <asm/i8259.h>
#include <asm/io.h>
#include <asm/kvm_para.h>
#include <asm/msr.h>
#include <asm/processor.h>
#ifdef CONFIG_XEN
#include <asm/xen/hypercall.h>
#include <xen/interface/version.h>
#endif
#ifdef CONFIG_HYPERV
#include <asm/mshyperv.h>
#endif

#include "ibp.h"

#define IBP_KVM_UNUSED_HC 0x49424e43u	/* "IBNC": no KVM_HC_* has this number */
#define IBP_VMWARE_MAGIC 0x564d5868u	/* VMware backdoor, arch/x86/kernel/cpu/vmware.c */
#define IBP_VMWARE_GETVERSION 10u

/* ---- single instructions ---- */

IBP_LOOP(cpuid, u32 reg[4],
	 reg[0] = 0; reg[2] = 0; native_cpuid(&reg[0], &reg[1], &reg[2], &reg[3]);
	 r->sink += reg[0])

IBP_LOOP(from_cr8, unsigned long v = 0,
	 asm volatile("mov %%cr8, %0" : "=r"(v)); r->sink += v)

IBP_LOOP(to_cr8, unsigned long v; asm volatile("mov %%cr8, %0" : "=r"(v)),
	 asm volatile("mov %0, %%cr8" : : "r"(v) : "memory"))

/* On the probe's CPU, interrupts off (an IPI handler, or smp_call_function_single()'s local
 * call): RDMSR IA32_TSC_ADJUST and, for the write probe, WRMSR of the value just read, both
 * the _safe forms, so an MSR the CPUID bit promises but the hypervisor faults on is caught
 * here (1: the read faulted, 2: the write) instead of an "unchecked MSR access" per call. */
static void ibp_tsc_adjust_try(void *info)
{
	int *res = info;
	u64 v;

	if (rdmsrl_safe(MSR_IA32_TSC_ADJUST, &v))
		*res = 1;
	else if (*res && wrmsrl_safe(MSR_IA32_TSC_ADJUST, v))
		*res = 2;
	else
		*res = 0;
}

static int ibp_check_tsc_adjust(struct ibp_run *r)
{
	int res = r->req->probe == ISOBENCH_PROBE_WR_TSC_ADJUST;

	if (!boot_cpu_has(X86_FEATURE_TSC_ADJUST))
		return ibp_refuse(r, "CPU lacks IA32_TSC_ADJUST (CPUID.7.EBX bit 1 clear)");
	if (smp_call_function_single(r->req->cpu, ibp_tsc_adjust_try, &res, 1))
		return -ENODEV;
	if (res == 1)
		return ibp_refuse(r, "RDMSR IA32_TSC_ADJUST faulted");
	if (res == 2)
		return ibp_refuse(r, "WRMSR IA32_TSC_ADJUST faulted (read-only here)");
	return 0;
}

IBP_LOOP(rd_tsc_adjust, u64 v = 0,
	 rdmsrl(MSR_IA32_TSC_ADJUST, v); r->sink += v)

/* The value is read with interrupts off and written back unchanged: the TSC never moves. */
IBP_LOOP(wr_tsc_adjust, u64 v; rdmsrl(MSR_IA32_TSC_ADJUST, v),
	 wrmsrl(MSR_IA32_TSC_ADJUST, v))

static int ibp_check_pmtimer(struct ibp_run *r)
{
	if (!pmtmr_ioport)
		return ibp_refuse(r, "no ACPI PM timer (FADT has no PM_TMR_BLK port)");
	return 0;
}

IBP_LOOP(pmtimer, u16 port = (u16)pmtmr_ioport, r->sink += inl(port))

/* io_delay_type (arch/x86/kernel/io_delay.c, declared in <asm/io.h>) is the kernel's own
 * choice of I/O delay for inb_p()/outb_p(): CONFIG_IO_DELAY_* at build time, then the
 * io_delay= boot parameter, else io_delay_init()'s DMI quirk table, which moves the boards
 * that lock up on port 0x80 to port 0xed. Its values are private to io_delay.c (Linux 6.1):
 * IO_DELAY_TYPE_0X80 0, _0XED 1, _UDELAY 2, _NONE 3. Port 0x80 is written only where the
 * kernel writes it itself (paravirt guests may skip the delay, pv_ops.cpu.io_delay, but the
 * type stays, and a hypervisor emulates the port). */
#define IBP_IO_DELAY_0X80 0
#define IBP_IO_DELAY_0XED 1
#define IBP_IO_DELAY_UDELAY 2
#define IBP_IO_DELAY_NONE 3

static int ibp_check_outb80(struct ibp_run *r)
{
	switch (READ_ONCE(io_delay_type)) {
	case IBP_IO_DELAY_0X80:
		return 0;
	case IBP_IO_DELAY_0XED:
		return ibp_refuse(r, "the kernel's I/O delay is port 0xed (io_delay=0xed, or a board "
				  "that hangs on 0x80), not 0x80");
	case IBP_IO_DELAY_UDELAY:
		return ibp_refuse(r, "the kernel's I/O delay is udelay (io_delay=udelay), not "
				  "port 0x80");
	case IBP_IO_DELAY_NONE:
		return ibp_refuse(r, "the kernel's I/O delay is none (io_delay=none), not port 0x80");
	default:
		return ibp_refuse(r, "the kernel's I/O delay is of an unknown type, not port 0x80");
	}
}

IBP_LOOP(outb80, , outb(0, 0x80))

static int ibp_check_elcr(struct ibp_run *r)
{
	if (!nr_legacy_irqs())
		return ibp_refuse(r, "no legacy 8259 PIC, so no ELCR at port 0x4d0");
	return 0;
}

IBP_LOOP(elcr, , r->sink += inb(PIC_ELCR1))

static int ibp_check_lapic(struct ibp_run *r)
{
	if (!boot_cpu_has(X86_FEATURE_APIC))
		return ibp_refuse(r, "no local APIC");
	if (x2apic_mode)
		return ibp_refuse(r, "local APIC in x2APIC mode: no MMIO page (rd_x2apic_ver_msr "
				  "reads it)");
	return 0;
}

IBP_LOOP(mmio_lapic, , r->sink += native_apic_mem_read(APIC_LVR))

static int ibp_check_x2apic(struct ibp_run *r)
{
	if (!boot_cpu_has(X86_FEATURE_APIC))
		return ibp_refuse(r, "no local APIC");
	if (!x2apic_mode)
		return ibp_refuse(r, "local APIC in xAPIC mode: its x2APIC MSRs fault (mmio_lapic "
				  "reads it)");
	return 0;
}

/* RDMSR of APIC_BASE_MSR + (APIC_LVR >> 4) = 0x803 (native_apic_msr_read()). */
IBP_LOOP(x2apic_lvr, , r->sink += native_apic_msr_read(APIC_LVR))

static int ibp_check_hpet(struct ibp_run *r)
{
	if (!is_hpet_enabled())
		return ibp_refuse(r, "no HPET (none in ACPI, or disabled)");
	return 0;
}

IBP_LOOP(mmio_hpet, , r->sink += hpet_readl(HPET_COUNTER))

static int ibp_check_apic(struct ibp_run *r)
{
	if (!boot_cpu_has(X86_FEATURE_APIC) || !apic)
		return ibp_refuse(r, "no local APIC");
	return 0;
}

/* The hardware EOI write: KVM's PV EOI hook (apic_set_eoi_write()) keeps it here. */
IBP_LOOP(eoi, void (*w)(u32, u32) = apic->native_eoi_write ?: apic->eoi_write,
	 w(APIC_EOI, APIC_EOI_ACK))

/* ---- vmcall: the hypercall this machine's hypervisor answers at once ---- */

/* VMCALL (Intel) or VMMCALL (AMD); 0, or -EFAULT when it raised an exception (#UD on bare
 * metal or under a VMM that does not take hypercalls), caught by the exception table. */
static int ibp_raw_hcall(bool amd, u64 *sink)
{
	unsigned long a = IBP_KVM_UNUSED_HC, b = 0, c = 0, d = 0;
	int err = 0;

	if (amd)
		asm volatile("1: vmmcall\n2:\n"
			     _ASM_EXTABLE_TYPE_REG(1b, 2b, EX_TYPE_EFAULT_REG, %[err])
			     : [err] "+r"(err), "+a"(a), "+b"(b), "+c"(c), "+d"(d) : : "memory");
	else
		asm volatile("1: vmcall\n2:\n"
			     _ASM_EXTABLE_TYPE_REG(1b, 2b, EX_TYPE_EFAULT_REG, %[err])
			     : [err] "+r"(err), "+a"(a), "+b"(b), "+c"(c), "+d"(d) : : "memory");
	*sink += a;
	return err;
}

/* VMware's backdoor: IN from port 0x5658 with the magic in EAX and GETVERSION in ECX. */
static u32 ibp_vmware_backdoor(void)
{
	u32 a = IBP_VMWARE_MAGIC, b = ~0u, c = IBP_VMWARE_GETVERSION, d = 0x5658;
	unsigned long si = 0, di = 0;

	asm volatile("inl (%%dx), %%eax"
		     : "+a"(a), "+b"(b), "+c"(c), "+d"(d), "+S"(si), "+D"(di) : : "memory");
	return b;
}

static int ibp_check_vmcall(struct ibp_run *r)
{
	r->arch.amd = boot_cpu_data.x86_vendor == X86_VENDOR_AMD ||
		 boot_cpu_data.x86_vendor == X86_VENDOR_HYGON;
	switch (x86_hyper_type) {
	case X86_HYPER_KVM:
		r->arch.hcall = HC_KVM;
		return 0;
	case X86_HYPER_VMWARE:
		r->arch.hcall = HC_VMWARE;
		return 0;
#ifdef CONFIG_XEN
	case X86_HYPER_XEN_HVM:
		r->arch.hcall = HC_XEN;
		return 0;
#endif
#ifdef CONFIG_HYPERV
	case X86_HYPER_MS_HYPERV:
		if (!hv_hypercall_pg)
			return ibp_refuse(r, "Hyper-V without a hypercall page");
		r->arch.hcall = HC_HYPERV;
		return 0;
#endif
	default:
		r->arch.hcall = HC_RAW;
		if (ibp_raw_hcall(r->arch.amd, &r->sink))
			return ibp_refuse(r, r->arch.amd ? "VMMCALL raised #UD: no hypervisor takes hypercalls here"
					  : "VMCALL raised #UD: no hypervisor takes hypercalls here");
		return 0;
	}
}

IBP_LOOP(hc_kvm, , r->sink += kvm_hypercall0(IBP_KVM_UNUSED_HC))
IBP_LOOP(hc_vmware, , r->sink += ibp_vmware_backdoor())
#ifdef CONFIG_XEN
IBP_LOOP(hc_xen, , r->sink += HYPERVISOR_xen_version(XENVER_version, NULL))
#endif
#ifdef CONFIG_HYPERV
IBP_LOOP(hc_hyperv, , r->sink += hv_do_fast_hypercall8(0, 0))
#endif

static int hc_raw_batch(struct ibp_run *r, u64 n)
{
	u64 t0 = ktime_get_ns(), c0 = ibp_cycles(), i;
	int err = 0;

	for (i = 0; i < n; i++)
		err |= ibp_raw_hcall(r->arch.amd, &r->sink);
	r->cycles += ibp_cycles() - c0;
	r->ns += ktime_get_ns() - t0;
	return err ? -EFAULT : 0;
}

static int vmcall_batch(struct ibp_run *r, u64 n)
{
	switch (r->arch.hcall) {
	case HC_KVM:
		return hc_kvm_batch(r, n);
	case HC_VMWARE:
		return hc_vmware_batch(r, n);
#ifdef CONFIG_XEN
	case HC_XEN:
		return hc_xen_batch(r, n);
#endif
#ifdef CONFIG_HYPERV
	case HC_HYPERV:
		return hc_hyperv_batch(r, n);
#endif
	default:
		return hc_raw_batch(r, n);
	}
}

/* ---- x86-64's table: what each probe needs, how a batch runs ---- */

const struct ibp_probe ibp_probes[ISOBENCH_PROBE_COUNT] = {
	[ISOBENCH_PROBE_CPUID] = { 0, 0, NULL, cpuid_batch },
	[ISOBENCH_PROBE_VMCALL] = { 0, 0, ibp_check_vmcall, vmcall_batch },
	[ISOBENCH_PROBE_MOV_FROM_CR8] = { 0, 0, NULL, from_cr8_batch },
	[ISOBENCH_PROBE_MOV_TO_CR8] = { 0, 0, NULL, to_cr8_batch },
	[ISOBENCH_PROBE_RD_TSC_ADJUST] = { 0, 0, ibp_check_tsc_adjust, rd_tsc_adjust_batch },
	[ISOBENCH_PROBE_WR_TSC_ADJUST] = { 0, 0, ibp_check_tsc_adjust, wr_tsc_adjust_batch },
	[ISOBENCH_PROBE_INL_PMTIMER] = { 0, 0, ibp_check_pmtimer, pmtimer_batch },
	[ISOBENCH_PROBE_OUTB_0X80] = { 0, 0, ibp_check_outb80, outb80_batch },
	[ISOBENCH_PROBE_MMIO_LAPIC] = { 0, 0, ibp_check_lapic, mmio_lapic_batch },
	[ISOBENCH_PROBE_MMIO_HPET] = { 0, 0, ibp_check_hpet, mmio_hpet_batch },
	[ISOBENCH_PROBE_EOI] = { 0, 0, ibp_check_apic, eoi_batch },
	[ISOBENCH_PROBE_SELF_IPI] = IBP_PROBE_SELF_IPI,
	[ISOBENCH_PROBE_IPI] = IBP_PROBE_IPI,
	[ISOBENCH_PROBE_IPI_HALT] = IBP_PROBE_IPI_HALT,
	[ISOBENCH_PROBE_HLT] = IBP_PROBE_TIMER_WAKE,
	[ISOBENCH_PROBE_INL_KERNEL] = { 0, 0, ibp_check_elcr, elcr_batch },
	[ISOBENCH_PROBE_RD_X2APIC_VER] = { 0, 0, ibp_check_x2apic, x2apic_lvr_batch },
};
