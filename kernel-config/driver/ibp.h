/* SPDX-License-Identifier: GPL-2.0 */
/* ibp.h — what the ring-0 probe driver's generic part (isobench_probe.c) and the
 * architecture's part (arch/<arch>/ibp_arch.c, copied beside it into drivers/misc/isobench/)
 * share: one call's state (struct ibp_run: the sums, and each batch's figures against its
 * null batch), a probe's description (struct ibp_probe), the batch loop IBP_LOOP, and the
 * generic probes an architecture's table names (IBP_PROBE_*).
 * The architecture's kernel header ibp_arch.h gives the cycle counter (ibp_cycles(),
 * ibp_cycles_raw(), ibp_cycles_khz()), the idle instruction (ibp_idle()) and its own state
 * (struct ibp_arch_run); its ibp_arch.c defines ibp_probes[], indexed by its own
 * ISOBENCH_PROBES numbers (isobench_probe_arch.h). Kernel only. */
#ifndef ISOBENCH_IBP_H
#define ISOBENCH_IBP_H

#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "isobench_probe.h"
#include "ibp_arch.h"

#define IBP_WAIT_NS 20000000u		/* an awaited interrupt must come within 20 ms */

struct ibp_run {
	struct isobench_probe_req *req;
	const struct ibp_probe *p;
	u64 cycles, ns, done, sink;
	/* Per batch i < nb, per iteration x 1000: batch minus its null batch (net_*) and the
	 * null batch alone (null_*); the call reports their medians (isobench_probe.h). */
	u32 nb;
	u64 null_sum_ns;	/* the null batches' ns, summed: batch sizing counts them */
	s64 net_ns[ISOBENCH_PROBE_MAX_BATCHES], net_cyc[ISOBENCH_PROBE_MAX_BATCHES];
	s64 null_ns[ISOBENCH_PROBE_MAX_BATCHES], null_cyc[ISOBENCH_PROBE_MAX_BATCHES];
	struct ibp_arch_run arch;	/* the architecture's probes' choices (ibp_arch.h) */
	/* self_ipi, the timer wake-up: set by the handler, read by the waiting loop */
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
#define IBP_EACH 8u		/* each iteration is timed alone (counter and clock around it,
				 * summed), not the batch as a whole: so is its null batch */

struct ibp_probe {
	unsigned int flags;
	unsigned int max_batch;			/* 0: the driver's default */
	int (*check)(struct ibp_run *r);	/* NULL: runs everywhere; else 0 or -errno */
	/* n iterations, adds the ticks and ns they took to r->cycles and r->ns; 0 or -errno */
	int (*batch)(struct ibp_run *r, u64 n);
};

/* The architecture's table (arch/<arch>/ibp_arch.c): one entry per ISOBENCH_PROBES probe. */
extern const struct ibp_probe ibp_probes[ISOBENCH_PROBE_COUNT];

/* Fills the request's reason with `why`; returns -EOPNOTSUPP. */
int ibp_refuse(struct ibp_run *r, const char *why);

/* A batch of n single operations, timed as a whole (counter and monotonic ns around it).
 * Its null batch (isobench_probe.c, ibp_null()) is this loop with an empty body. */
#define IBP_LOOP(name, setup, ...)					\
static int name##_batch(struct ibp_run *r, u64 n)			\
{									\
	u64 t0, c0, i;							\
	setup;								\
	t0 = ktime_get_ns();						\
	c0 = ibp_cycles();						\
	for (i = 0; i < n; i++) {					\
		__VA_ARGS__;						\
	}								\
	r->cycles += ibp_cycles() - c0;					\
	r->ns += ktime_get_ns() - t0;					\
	return 0;							\
}

/* The generic probes (isobench_probe.c), no instruction of their own: what each exercises is
 * said there. An architecture's table names them with these initialisers. */
int ibp_check_self_ipi(struct ibp_run *r);
int ibp_self_ipi_batch(struct ibp_run *r, u64 n);
int ibp_ipi_batch(struct ibp_run *r, u64 n);
int ibp_ipi_halt_batch(struct ibp_run *r, u64 n);
int ibp_timer_wake_batch(struct ibp_run *r, u64 n);
#define IBP_PROBE_SELF_IPI { IBP_IRQS_ON, 0, ibp_check_self_ipi, ibp_self_ipi_batch }
#define IBP_PROBE_IPI { IBP_IRQS_ON | IBP_TARGET | IBP_SPINNER, 0, NULL, ibp_ipi_batch }
#define IBP_PROBE_IPI_HALT { IBP_IRQS_ON | IBP_TARGET | IBP_EACH, 8, NULL, ibp_ipi_halt_batch }
#define IBP_PROBE_TIMER_WAKE { IBP_IRQS_ON | IBP_EACH, 8, NULL, ibp_timer_wake_batch }

#endif
