/* SPDX-License-Identifier: GPL-2.0 */
/* ibp_arch.h (x86-64) — the x86 side of the ring-0 driver's generic part (../../ibp.h):
 *   ibp_cycles()      the TSC, ordered (RDTSC behind a fence: rdtsc_ordered()), around a batch
 *   ibp_cycles_raw()  the TSC unordered (RDTSC), for the bounds of wait loops
 *   ibp_cycles_khz()  its rate in kHz (tsc_khz; 0 when unknown)
 *   ibp_idle()        entered with interrupts off: STI; HLT (native_safe_halt(), so a wake-up
 *                     interrupt is taken before the next instruction); returns with them on
 *   struct ibp_arch_run  the vmcall probe's choice of hypercall, made by its check. */
#ifndef ISOBENCH_IBP_ARCH_H
#define ISOBENCH_IBP_ARCH_H

#include <linux/types.h>
#include <asm/irqflags.h>
#include <asm/msr.h>
#include <asm/tsc.h>

/* What the vmcall probe executes here (chosen once per call by its check). */
enum ibp_hcall { HC_RAW, HC_KVM, HC_XEN, HC_HYPERV, HC_VMWARE };

struct ibp_arch_run {
	enum ibp_hcall hcall;
	bool amd;		/* VMMCALL, not VMCALL */
};

static __always_inline u64 ibp_cycles(void)
{
	return rdtsc_ordered();
}

static __always_inline u64 ibp_cycles_raw(void)
{
	return rdtsc();
}

static inline u64 ibp_cycles_khz(void)
{
	return tsc_khz;
}

static __always_inline void ibp_idle(void)
{
	native_safe_halt();
}

#endif
