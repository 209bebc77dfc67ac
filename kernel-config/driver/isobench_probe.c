// SPDX-License-Identifier: GPL-2.0
/*
 * isobench_probe.c — isobench's ring-0 exit probes: one misc device, /dev/isobench-probe,
 * whose one ioctl (isobench_probe.h) runs probe P for N iterations on CPU C and returns the
 * TSC cycles and nanoseconds they took. The probes are kvm-unit-tests' x86/vmexit.c list
 * (our own code), so the same kernel runs them on bare metal and under every hypervisor.
 *
 * How a call runs: the ioctl holds the CPU-hotplug read lock (no CPU comes or goes), checks
 * that the probe can run here (else EOPNOTSUPP and a reason; also when the kernel's clock is
 * tick-based and could not time a batch: ibp_check_clock()), queues a worker bound to CPU C
 * and waits for it (the ipi probe's worker starts and stops the target's spinner itself).
 * The worker runs the iterations in batches of about 500 us: preemption off
 * and, unless the probe needs interrupts (self_ipi, ipi, ipi_halt, hlt), interrupts off; TSC
 * (RDTSC with a fence, rdtsc_ordered()) and ktime_get_ns() are read around each batch, or
 * around each operation where one operation's latency is the measurement (ipi_halt, hlt).
 * Between batches interrupts and preemption come back (cond_resched()), and after about
 * ISOBENCH_PROBE_CALL_NS the call returns with the count done, so no call holds a CPU for
 * long; every wait for an interrupt gives up after IBP_WAIT_NS with ETIMEDOUT.
 *
 * The probes (one iteration of each):
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
 *   outb_0x80          OUT of one byte to port 0x80 (the POST port the kernel's io delay uses)
 *   mmio_lapic         read of the local APIC's version register through its MMIO page;
 *                      refused in x2APIC mode (no MMIO page then)
 *   mmio_hpet          read of the HPET main counter (refused without an HPET)
 *   eoi                an EOI write to the local APIC (MMIO, or the MSR in x2APIC mode; the
 *                      hardware write, not KVM's PV EOI): with no interrupt in service it
 *                      changes nothing
 *   self_ipi           irq_work_queue(): a fixed-vector IPI to this CPU, then spin until its
 *                      handler has run (send + delivery + handler + EOI)
 *   ipi                smp_call_function_single(target, nop, wait): IPI round trip to a CPU
 *                      that is spinning (preemption off) in a worker of ours
 *   ipi_halt           the same to an idle CPU (halted, or in the idle driver's state), after
 *                      a 50 us pause that lets it go back to idle (not measured)
 *   hlt                arm a 20 us hrtimer, HLT until it fires; the value is the lateness:
 *                      elapsed - 20 us (the timer programming, the interrupt, the wake-up)
 */
#include <linux/acpi_pmtmr.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <asm/apic.h>
#include <asm/asm.h>
#include <asm/extable_fixup_types.h>
#include <asm/cpufeature.h>
#include <asm/hpet.h>
#include <asm/hypervisor.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/kvm_para.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#ifdef CONFIG_XEN
#include <asm/xen/hypercall.h>
#include <xen/interface/version.h>
#endif
#ifdef CONFIG_HYPERV
#include <asm/mshyperv.h>
#endif

#include "isobench_probe.h"

#define IBP_BATCH_NS 500000u		/* interrupts off for about this long at most */
#define IBP_BATCH_MAX 65536u
#define IBP_WAIT_NS 20000000u		/* an awaited interrupt must come within 20 ms */
#define IBP_HLT_NS 20000u		/* the hlt probe's timer */
#define IBP_CLOCK_STEP_NS 10000u	/* a kernel clock moving in coarser steps times no batch */
#define IBP_HALT_GAP_US 50		/* ipi_halt: the target's time to go idle again */
#define IBP_KVM_UNUSED_HC 0x49424e43u	/* "IBNC": no KVM_HC_* has this number */
#define IBP_VMWARE_MAGIC 0x564d5868u	/* VMware backdoor, arch/x86/kernel/cpu/vmware.c */
#define IBP_VMWARE_GETVERSION 10u

/* What the vmcall probe executes here (chosen once per call by ibp_check_vmcall()). */
enum ibp_hcall { HC_RAW, HC_KVM, HC_XEN, HC_HYPERV, HC_VMWARE };

struct ibp_run {
	struct isobench_probe_req *req;
	const struct ibp_probe *p;
	u64 cycles, ns, done, sink;
	enum ibp_hcall hcall;
	bool amd;
	/* self_ipi, hlt: set by the handler, read by the waiting loop */
	struct irq_work iw;
	struct hrtimer timer;
	int fired;
	/* ipi: the target's spinner */
	struct work_struct spin_work;
	int spinning, stop;
	/* the worker on the probe's CPU */
	struct work_struct work;
	int err;
};

#define IBP_IRQS_ON 1u		/* the probe needs interrupts enabled */
#define IBP_TARGET 2u		/* the probe needs a second online CPU */
#define IBP_SPINNER 4u		/* ... spinning in our worker while the probe runs */

struct ibp_probe {
	unsigned int flags;
	unsigned int max_batch;			/* 0: IBP_BATCH_MAX */
	int (*check)(struct ibp_run *r);	/* NULL: runs everywhere */
	int (*batch)(struct ibp_run *r, u64 n);	/* n iterations, adds to cycles/ns */
};

static DEFINE_MUTEX(ibp_lock);

static int ibp_refuse(struct ibp_run *r, const char *why)
{
	strscpy(r->req->reason, why, sizeof(r->req->reason));
	return -EOPNOTSUPP;
}

/* A batch of n single instructions, timed as a whole with interrupts off. */
#define IBP_LOOP(name, setup, ...)					\
static int name##_batch(struct ibp_run *r, u64 n)			\
{									\
	u64 t0, c0, i;							\
	setup;								\
	t0 = ktime_get_ns();						\
	c0 = rdtsc_ordered();						\
	for (i = 0; i < n; i++) {					\
		__VA_ARGS__;						\
	}								\
	r->cycles += rdtsc_ordered() - c0;				\
	r->ns += ktime_get_ns() - t0;					\
	return 0;							\
}

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

IBP_LOOP(outb80, , outb(0, 0x80))

static int ibp_check_lapic(struct ibp_run *r)
{
	if (!boot_cpu_has(X86_FEATURE_APIC))
		return ibp_refuse(r, "no local APIC");
	if (x2apic_mode)
		return ibp_refuse(r, "local APIC in x2APIC mode: it has no MMIO page");
	return 0;
}

IBP_LOOP(mmio_lapic, , r->sink += native_apic_mem_read(APIC_LVR))

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
	r->amd = boot_cpu_data.x86_vendor == X86_VENDOR_AMD ||
		 boot_cpu_data.x86_vendor == X86_VENDOR_HYGON;
	switch (x86_hyper_type) {
	case X86_HYPER_KVM:
		r->hcall = HC_KVM;
		return 0;
	case X86_HYPER_VMWARE:
		r->hcall = HC_VMWARE;
		return 0;
#ifdef CONFIG_XEN
	case X86_HYPER_XEN_HVM:
		r->hcall = HC_XEN;
		return 0;
#endif
#ifdef CONFIG_HYPERV
	case X86_HYPER_MS_HYPERV:
		if (!hv_hypercall_pg)
			return ibp_refuse(r, "Hyper-V without a hypercall page");
		r->hcall = HC_HYPERV;
		return 0;
#endif
	default:
		r->hcall = HC_RAW;
		if (ibp_raw_hcall(r->amd, &r->sink))
			return ibp_refuse(r, r->amd ? "VMMCALL raised #UD: no hypervisor takes hypercalls here"
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
	u64 t0 = ktime_get_ns(), c0 = rdtsc_ordered(), i;
	int err = 0;

	for (i = 0; i < n; i++)
		err |= ibp_raw_hcall(r->amd, &r->sink);
	r->cycles += rdtsc_ordered() - c0;
	r->ns += ktime_get_ns() - t0;
	return err ? -EFAULT : 0;
}

static int vmcall_batch(struct ibp_run *r, u64 n)
{
	switch (r->hcall) {
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

/* ---- interrupts: self-IPI, IPIs, HLT ---- */

/* Spin until an interrupt handler sets r->fired; -ETIMEDOUT after about IBP_WAIT_NS. The
 * clock is read only every 1024 spins, so a prompt interrupt costs no clock read. */
static int ibp_await(struct ibp_run *r)
{
	u64 limit = (u64)tsc_khz * (IBP_WAIT_NS / 1000000u), start = 0;
	unsigned int spins = 0;

	if (!limit)
		limit = 1ull << 32;
	while (!READ_ONCE(r->fired)) {
		cpu_relax();
		if (++spins % 1024)
			continue;
		if (!start)
			start = rdtsc();
		else if (rdtsc() - start > limit)
			return -ETIMEDOUT;
	}
	return 0;
}

static void ibp_irq_work_fn(struct irq_work *w)
{
	WRITE_ONCE(container_of(w, struct ibp_run, iw)->fired, 1);
}

static int ibp_check_self_ipi(struct ibp_run *r)
{
	if (!arch_irq_work_has_interrupt())
		return ibp_refuse(r, "no local APIC to send a self-IPI");
	return 0;
}

/* irq_work_queue() sends IRQ_WORK_VECTOR to this CPU (arch_irq_work_raise()). */
static int self_ipi_batch(struct ibp_run *r, u64 n)
{
	u64 t0 = ktime_get_ns(), c0 = rdtsc_ordered(), i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		WRITE_ONCE(r->fired, 0);
		irq_work_queue(&r->iw);
		err = ibp_await(r);
	}
	r->cycles += rdtsc_ordered() - c0;
	r->ns += ktime_get_ns() - t0;
	return err;
}

static void ibp_nop(void *info)
{
}

static int ipi_batch(struct ibp_run *r, u64 n)
{
	u64 t0 = ktime_get_ns(), c0 = rdtsc_ordered(), i;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = smp_call_function_single(r->req->target, ibp_nop, NULL, 1);
	r->cycles += rdtsc_ordered() - c0;
	r->ns += ktime_get_ns() - t0;
	return err;
}

/* Each round trip timed alone, after a pause (not measured) in which the target goes idle. */
static int ipi_halt_batch(struct ibp_run *r, u64 n)
{
	u64 t0, c0, i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		udelay(IBP_HALT_GAP_US);
		t0 = ktime_get_ns();
		c0 = rdtsc_ordered();
		err = smp_call_function_single(r->req->target, ibp_nop, NULL, 1);
		r->cycles += rdtsc_ordered() - c0;
		r->ns += ktime_get_ns() - t0;
	}
	return err;
}

static enum hrtimer_restart ibp_timer_fn(struct hrtimer *t)
{
	WRITE_ONCE(container_of(t, struct ibp_run, timer)->fired, 1);
	return HRTIMER_NORESTART;
}

/* One HLT wake-up: arm the timer, halt (STI; HLT, so the wake-up interrupt is handled
 * before the next instruction) until it fired; add the lateness beyond IBP_HLT_NS. */
static int hlt_one(struct ibp_run *r)
{
	u64 t0, c0, dt, dc, period = (u64)tsc_khz * IBP_HLT_NS / 1000000u;
	bool woke = false;

	WRITE_ONCE(r->fired, 0);
	t0 = ktime_get_ns();
	c0 = rdtsc_ordered();
	hrtimer_start(&r->timer, ns_to_ktime(IBP_HLT_NS), HRTIMER_MODE_REL_HARD);
	for (;;) {
		local_irq_disable();
		if (READ_ONCE(r->fired))
			break;
		if (woke && ktime_get_ns() - t0 > IBP_WAIT_NS) {
			local_irq_enable();
			hrtimer_cancel(&r->timer);
			return -ETIMEDOUT;
		}
		native_safe_halt();
		woke = true;
	}
	dc = rdtsc_ordered() - c0;
	dt = ktime_get_ns() - t0;
	local_irq_enable();
	r->cycles += dc > period ? dc - period : 0;
	r->ns += dt > IBP_HLT_NS ? dt - IBP_HLT_NS : 0;
	return 0;
}

static int hlt_batch(struct ibp_run *r, u64 n)
{
	u64 i;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = hlt_one(r);
	return err;
}

/* ---- the table: what each probe needs, how a batch runs ---- */

static const struct ibp_probe ibp_probes[ISOBENCH_PROBE_COUNT] = {
	[ISOBENCH_PROBE_CPUID] = { 0, 0, NULL, cpuid_batch },
	[ISOBENCH_PROBE_VMCALL] = { 0, 0, ibp_check_vmcall, vmcall_batch },
	[ISOBENCH_PROBE_MOV_FROM_CR8] = { 0, 0, NULL, from_cr8_batch },
	[ISOBENCH_PROBE_MOV_TO_CR8] = { 0, 0, NULL, to_cr8_batch },
	[ISOBENCH_PROBE_RD_TSC_ADJUST] = { 0, 0, ibp_check_tsc_adjust, rd_tsc_adjust_batch },
	[ISOBENCH_PROBE_WR_TSC_ADJUST] = { 0, 0, ibp_check_tsc_adjust, wr_tsc_adjust_batch },
	[ISOBENCH_PROBE_INL_PMTIMER] = { 0, 0, ibp_check_pmtimer, pmtimer_batch },
	[ISOBENCH_PROBE_OUTB_0X80] = { 0, 0, NULL, outb80_batch },
	[ISOBENCH_PROBE_MMIO_LAPIC] = { 0, 0, ibp_check_lapic, mmio_lapic_batch },
	[ISOBENCH_PROBE_MMIO_HPET] = { 0, 0, ibp_check_hpet, mmio_hpet_batch },
	[ISOBENCH_PROBE_EOI] = { 0, 0, ibp_check_apic, eoi_batch },
	[ISOBENCH_PROBE_SELF_IPI] = { IBP_IRQS_ON, 0, ibp_check_self_ipi, self_ipi_batch },
	[ISOBENCH_PROBE_IPI] = { IBP_IRQS_ON | IBP_TARGET | IBP_SPINNER, 0, NULL, ipi_batch },
	[ISOBENCH_PROBE_IPI_HALT] = { IBP_IRQS_ON | IBP_TARGET, 8, NULL, ipi_halt_batch },
	[ISOBENCH_PROBE_HLT] = { IBP_IRQS_ON, 8, NULL, hlt_batch },
};

/* ---- running a request ---- */

/* The next batch's size: about IBP_BATCH_NS at the cost per iteration seen so far. */
static u64 ibp_next_batch(struct ibp_run *r, u64 left)
{
	u64 max = r->p->max_batch ? r->p->max_batch : IBP_BATCH_MAX;
	u64 per = r->done ? r->ns / r->done : 0;
	u64 n = per ? IBP_BATCH_NS / per : max;

	return clamp_t(u64, n, 1, min(max, left));
}

static int ibp_spin_start(struct ibp_run *r);

/* The worker bound to the probe's CPU: batches until done or about ISOBENCH_PROBE_CALL_NS.
 * The ipi probe's spinner is started, awaited and stopped from here, never from the caller:
 * the caller may itself run on the target CPU (the runner is not pinned; taskset), where
 * the spinner (preemption off) would keep it from running for the spinner's whole bound. */
static void ibp_work(struct work_struct *w)
{
	struct ibp_run *r = container_of(w, struct ibp_run, work);
	u64 start = ktime_get_ns(), want = r->req->iters, n = 1;
	bool irqs = r->p->flags & IBP_IRQS_ON, spinner = r->p->flags & IBP_SPINNER;
	unsigned long flags = 0;
	int err = 0;

	if (raw_smp_processor_id() != r->req->cpu) {
		r->err = -EIO;
		return;
	}
	if (spinner)
		err = ibp_spin_start(r);
	if (err) {
		r->err = err;
		return;
	}
	while (!err && r->done < want) {
		preempt_disable();
		if (!irqs)
			local_irq_save(flags);
		err = r->p->batch(r, n);
		if (!irqs)
			local_irq_restore(flags);
		preempt_enable();
		if (!err)
			r->done += n;
		if (ktime_get_ns() - start >= ISOBENCH_PROBE_CALL_NS)
			break;
		n = ibp_next_batch(r, want - r->done);
		cond_resched();
	}
	if (spinner) {
		WRITE_ONCE(r->stop, 1);
		flush_work(&r->spin_work);
	}
	r->err = err;
}

/* The ipi probe's target: spins (preemption off, interrupts on) until told to stop, at most
 * about 4 x ISOBENCH_PROBE_CALL_NS. The bound is kept with the TSC, not ktime_get_ns(): a
 * clocksource read in the loop (the HPET under QEMU TCG takes QEMU's global lock) would slow
 * the very interrupt delivery the probe measures (seen under TCG: 12 ms per IPI), and it is
 * read only every 1024 turns. No PAUSE either: under KVM a PAUSE loop in ring 0 triggers
 * pause-loop exits (the target would be descheduled, not spinning), and under TCG each PAUSE
 * leaves the translated code (2 ms per IPI with it). */
static void ibp_spin(struct work_struct *w)
{
	struct ibp_run *r = container_of(w, struct ibp_run, spin_work);
	u64 limit = (u64)tsc_khz * (4ull * ISOBENCH_PROBE_CALL_NS / 1000000u), c0;
	unsigned long i;

	if (!limit)
		limit = 1ull << 32;
	preempt_disable();
	WRITE_ONCE(r->spinning, 1);
	c0 = rdtsc();
	for (i = 1; !READ_ONCE(r->stop); i++) {
		barrier();	/* no PAUSE: see above */
		if (!(i % 1024) && rdtsc() - c0 > limit)
			break;
	}
	preempt_enable();
}

static int ibp_spin_start(struct ibp_run *r)
{
	int i;

	INIT_WORK(&r->spin_work, ibp_spin);
	queue_work_on(r->req->target, system_highpri_wq, &r->spin_work);
	for (i = 0; i < 200 && !READ_ONCE(r->spinning); i++)
		usleep_range(1000, 1100);
	if (READ_ONCE(r->spinning))
		return 0;
	WRITE_ONCE(r->stop, 1);
	flush_work(&r->spin_work);
	strscpy(r->req->reason, "the target CPU's worker did not start within 200 ms",
		sizeof(r->req->reason));
	return -EBUSY;
}

/* Whether ktime_get_ns() can time a batch: the smallest of three consecutive steps of the
 * clock (read until it moves; preemption off, interrupts on, at most about IBP_WAIT_NS by
 * the TSC) must be at most IBP_CLOCK_STEP_NS. A tick-based clocksource (jiffies or
 * refined-jiffies: no TSC trusted as a clock, no HPET, no PM timer, as in QEMU's microvm
 * under TCG) moves once a tick and never with interrupts off, so every batch would read
 * 0 ns: refused with the step seen. A fine clock answers within a few reads. */
static int ibp_check_clock(struct ibp_run *r)
{
	u64 limit = (u64)tsc_khz * (IBP_WAIT_NS / 1000000u), c0, t, now, last = 0;
	u64 step = U64_MAX;
	char why[ISOBENCH_PROBE_REASON];
	int moves = 0;

	if (!limit)
		limit = 1ull << 32;
	preempt_disable();
	c0 = rdtsc();
	t = ktime_get_ns();
	while (moves < 4 && rdtsc() - c0 <= limit) {
		now = ktime_get_ns();
		if (now == t) {
			cpu_relax();
			continue;
		}
		if (moves++)	/* the first move ends a partial step */
			step = min(step, now - last);
		last = t = now;
	}
	preempt_enable();
	if (step <= IBP_CLOCK_STEP_NS)
		return 0;
	if (step == U64_MAX)
		snprintf(why, sizeof(why), "the kernel's clock did not move in %u ms: no ns figure",
			 IBP_WAIT_NS / 1000000u);
	else
		snprintf(why, sizeof(why), "the kernel's clock moves in %llu us steps "
			 "(a tick-based clocksource): no ns figure", step / 1000);
	return ibp_refuse(r, why);
}

/* The IPI probes' target CPU: the one asked for, or the next online CPU after cpu. */
static int ibp_pick_target(struct ibp_run *r)
{
	struct isobench_probe_req *q = r->req;
	int t, pick = -1;

	if (!(r->p->flags & IBP_TARGET)) {
		q->target = ISOBENCH_PROBE_ANY_CPU;
		return 0;
	}
	if (q->target != ISOBENCH_PROBE_ANY_CPU) {
		if (q->target < 0 || q->target >= nr_cpu_ids || q->target == q->cpu)
			return -EINVAL;
		return cpu_online(q->target) ? 0 : -ENODEV;
	}
	for_each_online_cpu(t) {
		if (t == q->cpu)
			continue;
		if (pick < 0 || (pick < q->cpu && t > q->cpu))
			pick = t;
	}
	if (pick < 0)
		return ibp_refuse(r, "needs a second online CPU");
	q->target = pick;
	return 0;
}

/* Under the hotplug lock: the CPUs, the probe's needs, then the run on the probe's CPU. */
static int ibp_locked_run(struct ibp_run *r)
{
	struct isobench_probe_req *q = r->req;
	int err;

	if (!cpu_online(q->cpu))
		return -ENODEV;
	err = ibp_check_clock(r);
	if (!err)
		err = ibp_pick_target(r);
	if (!err && r->p->check)
		err = r->p->check(r);
	if (err)
		return err;
	INIT_WORK(&r->work, ibp_work);
	queue_work_on(q->cpu, system_highpri_wq, &r->work);
	flush_work(&r->work);
	return r->err;
}

static int ibp_validate(struct isobench_probe_req *q)
{
	if (q->version != ISOBENCH_PROBE_VERSION)
		return -EPROTO;
	if (q->probe >= ISOBENCH_PROBE_COUNT || q->flags || q->pad)
		return -EINVAL;
	if (!q->iters || q->iters > ISOBENCH_PROBE_MAX_ITERS)
		return -EINVAL;
	if (q->cpu < 0 || q->cpu >= nr_cpu_ids)
		return -EINVAL;
	return 0;
}

static int ibp_request(struct isobench_probe_req *q)
{
	struct ibp_run *r;
	int err = ibp_validate(q);

	q->done = q->cycles = q->ns = 0;
	memset(q->reason, 0, sizeof(q->reason));
	if (err)
		return err;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->req = q;
	r->p = &ibp_probes[array_index_nospec(q->probe, ISOBENCH_PROBE_COUNT)];
	init_irq_work(&r->iw, ibp_irq_work_fn);
	hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	r->timer.function = ibp_timer_fn;
	if (mutex_lock_interruptible(&ibp_lock)) {
		kfree(r);
		return -EINTR;
	}
	cpus_read_lock();
	err = ibp_locked_run(r);
	cpus_read_unlock();
	mutex_unlock(&ibp_lock);
	q->done = r->done;
	q->cycles = r->cycles;
	q->ns = r->ns;
	hrtimer_cancel(&r->timer);
	/* A self-IPI that never came (ETIMEDOUT) may still run its handler: keep r. */
	if (irq_work_is_busy(&r->iw))
		pr_warn("isobench-probe: self-IPI still pending, leaking its %zu bytes\n", sizeof(*r));
	else
		kfree(r);
	return err;
}

static long ibp_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct isobench_probe_req q;
	int err;

	if (cmd != ISOBENCH_PROBE_IOC_RUN)
		return -ENOTTY;
	if (!capable(CAP_SYS_RAWIO))
		return -EPERM;
	if (copy_from_user(&q, (void __user *)arg, sizeof(q)))
		return -EFAULT;
	err = ibp_request(&q);
	q.version = ISOBENCH_PROBE_VERSION;
	if (copy_to_user((void __user *)arg, &q, sizeof(q)))
		return -EFAULT;
	return err;
}

static const struct file_operations ibp_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = ibp_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice ibp_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "isobench-probe",
	.fops = &ibp_fops,
	.mode = 0600,
};

static int __init ibp_init(void)
{
	int i;

	for (i = 0; i < ISOBENCH_PROBE_COUNT; i++)
		if (WARN_ON(!ibp_probes[i].batch))
			return -EINVAL;
	return misc_register(&ibp_dev);
}
device_initcall(ibp_init);
