/* SPDX-License-Identifier: GPL-2.0 */
/* ibp_arch.h (aarch64) — the arm64 side of the ring-0 driver's generic part (../../ibp.h):
 *   ibp_cycles()      CNTVCT_EL0, the generic timer's virtual count, ordered (ISB before the
 *                     read, or the self-synchronising CNTVCTSS_EL0: __arch_counter_get_cntvct())
 *   ibp_cycles_raw()  the same (arm64 has no cheaper unordered read worth a second path)
 *   ibp_cycles_khz()  the counter's rate in kHz (CNTFRQ_EL0 as the arch timer driver read it;
 *                     0 when unknown)
 *   ibp_idle()        entered with interrupts off: cpu_do_idle() (DSB; WFI, which wakes on a
 *                     pending interrupt even while masked), then interrupts on, so the wake-up
 *                     interrupt is taken at once, as arch_cpu_idle() does
 *   struct ibp_arch_run  the hvc probe's function and calling convention, chosen by its check. */
#ifndef ISOBENCH_IBP_ARCH_H
#define ISOBENCH_IBP_ARCH_H

#include <linux/irqflags.h>
#include <linux/types.h>
#include <asm/arch_timer.h>
#include <asm/proc-fns.h>
#include <clocksource/arm_arch_timer.h>

struct ibp_arch_run {
	u32 fn;			/* the SMCCC function ID the hvc probe calls */
	bool smccc_1_1;		/* SMCCC >= 1.1: the inline call that preserves x4-x17 */
};

static __always_inline u64 ibp_cycles(void)
{
	return __arch_counter_get_cntvct();
}

static __always_inline u64 ibp_cycles_raw(void)
{
	return __arch_counter_get_cntvct();
}

static inline u64 ibp_cycles_khz(void)
{
	return arch_timer_get_rate() / 1000u;
}

static __always_inline void ibp_idle(void)
{
	cpu_do_idle();
	local_irq_enable();
}

#endif
