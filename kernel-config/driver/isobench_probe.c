// SPDX-License-Identifier: GPL-2.0
/*
 * isobench_probe.c — isobench's ring-0 exit probes, the generic part: one misc device,
 * /dev/isobench-probe, whose one ioctl (isobench_probe.h) runs probe P for N iterations on
 * CPU C and returns the cycle-counter ticks and nanoseconds they took. The probes follow
 * kvm-unit-tests' x86/vmexit.c and arm/micro-bench.c (our own code), so the same kernel runs
 * them on bare metal and under every hypervisor.
 *
 * How a call runs: the ioctl holds the CPU-hotplug read lock (no CPU comes or goes), checks
 * that the probe can run here (else EOPNOTSUPP and a reason; also when the kernel's clock is
 * tick-based and could not time a batch: ibp_check_clock()), queues a worker bound to CPU C
 * and waits for it (the ipi probe's worker starts and stops the target's spinner itself).
 * The worker runs the iterations in batches of about 500 us: preemption off
 * and, unless the probe needs interrupts (self_ipi, ipi, ipi_halt, the timer wake-up),
 * interrupts off; the counter (ordered: ibp_cycles()) and ktime_get_ns() are read around each
 * batch, or around each operation where one operation's latency is the measurement
 * (ipi_halt, the timer wake-up: IBP_EACH). In the same stretch, alternately before and
 * after the batch, a null batch of the same size runs the same loop with no operation,
 * timed the same way (ibp_null()): what it costs is the loop and the reads of the counter
 * and clock, which the batch's figure holds too. Each batch gives (batch - null) and null
 * per iteration; the call returns the medians over its batches (ibp_medians()), so one
 * batch that a host preempted (interrupts off do not stop a hypervisor) or an interrupt
 * hit does not move them, and the sums (cycles, ns) as before.
 * Between batches interrupts and preemption come back (cond_resched()), and after about
 * ISOBENCH_PROBE_CALL_NS the call returns with the count done, so no call holds a CPU for
 * long; every wait for an interrupt gives up after IBP_WAIT_NS with ETIMEDOUT.
 *
 * The probes are the architecture's (arch/<arch>/: the instructions, the probe list
 * isobench_probe_arch.h and the table ibp_probes[] in ibp_arch.c, the counter and idle
 * instruction in ibp_arch.h) plus the generic ones here, which execute no instruction of
 * their own and are named by an architecture's table (ibp.h, IBP_PROBE_*):
 *   self_ipi           irq_work_queue(): an IPI to this CPU (x86: IRQ_WORK_VECTOR through the
 *                      local APIC; arm64: the IPI_IRQ_WORK SGI through the GIC), then spin
 *                      until its handler has run (send + delivery + handler + EOI)
 *   ipi                smp_call_function_single(target, nop, wait): IPI round trip to a CPU
 *                      that is spinning (preemption off) in a worker of ours (x86: the
 *                      CALL_FUNCTION_SINGLE vector; arm64: the IPI_CALL_FUNC SGI)
 *   ipi_halt           the same to an idle CPU (halted, or in the idle driver's state; WFI on
 *                      arm64), after a 50 us pause that lets it go back to idle (not measured)
 *   timer wake-up      (x86 hlt, arm64 wfi) arm a 20 us hrtimer, idle (ibp_idle()) until it
 *                      fires; the value is the lateness: elapsed - 20 us (the timer
 *                      programming, the interrupt, the wake-up)
 * The cycle counter (`cycles`) is the architecture's: the TSC on x86-64, CNTVCT_EL0 on arm64.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "ibp.h"

#define IBP_BATCH_NS 500000u		/* interrupts off for about this long at most (a batch
					 * and its null batch together) */
#define IBP_BATCH_MAX 65536u
#define IBP_HLT_NS 20000u		/* the timer wake-up probe's timer */
#define IBP_CLOCK_STEP_NS 10000u	/* a kernel clock moving in coarser steps times no batch */
/* ibp_check_clock()'s wait for a tick-based clock's 4 moves (3 steps after a partial one): 8
 * ticks (TICK_NSEC: 1e9 / HZ; 32 ms at this kernel's HZ=250, 4 ms ticks), at least
 * IBP_WAIT_NS, so that ticks coming late on a busy host still show a step to name. A wait of
 * IBP_WAIT_NS alone (20 ms) was made for HZ=1000 (1 ms ticks) and left HZ=250 16 ms of 20. */
#define IBP_CLOCK_WAIT_NS max_t(u64, IBP_WAIT_NS, 8ull * TICK_NSEC)
#define IBP_HALT_GAP_US 50		/* ipi_halt: the target's time to go idle again */

static DEFINE_MUTEX(ibp_lock);

int ibp_refuse(struct ibp_run *r, const char *why)
{
	strscpy(r->req->reason, why, sizeof(r->req->reason));
	return -EOPNOTSUPP;
}

/* ---- the generic probes: self-IPI, IPIs, timer wake-up ---- */

/* Spin until an interrupt handler sets r->fired; -ETIMEDOUT after about IBP_WAIT_NS. The
 * clock is read only every 1024 spins, so a prompt interrupt costs no clock read. */
static int ibp_await(struct ibp_run *r)
{
	u64 limit = (u64)ibp_cycles_khz() * (IBP_WAIT_NS / 1000000u), start = 0;
	unsigned int spins = 0;

	if (!limit)
		limit = 1ull << 32;
	while (!READ_ONCE(r->fired)) {
		cpu_relax();
		if (++spins % 1024)
			continue;
		if (!start)
			start = ibp_cycles_raw();
		else if (ibp_cycles_raw() - start > limit)
			return -ETIMEDOUT;
	}
	return 0;
}

static void ibp_irq_work_fn(struct irq_work *w)
{
	WRITE_ONCE(container_of(w, struct ibp_run, iw)->fired, 1);
}

int ibp_check_self_ipi(struct ibp_run *r)
{
	if (!arch_irq_work_has_interrupt())
		return ibp_refuse(r, "no interrupt controller to send a self-IPI");
	return 0;
}

/* irq_work_queue() sends the irq_work IPI to this CPU (arch_irq_work_raise()). */
int ibp_self_ipi_batch(struct ibp_run *r, u64 n)
{
	u64 t0 = ktime_get_ns(), c0 = ibp_cycles(), i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		WRITE_ONCE(r->fired, 0);
		irq_work_queue(&r->iw);
		err = ibp_await(r);
	}
	r->cycles += ibp_cycles() - c0;
	r->ns += ktime_get_ns() - t0;
	return err;
}

static void ibp_nop(void *info)
{
}

int ibp_ipi_batch(struct ibp_run *r, u64 n)
{
	u64 t0 = ktime_get_ns(), c0 = ibp_cycles(), i;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = smp_call_function_single(r->req->target, ibp_nop, NULL, 1);
	r->cycles += ibp_cycles() - c0;
	r->ns += ktime_get_ns() - t0;
	return err;
}

/* Each round trip timed alone, after a pause (not measured) in which the target goes idle. */
int ibp_ipi_halt_batch(struct ibp_run *r, u64 n)
{
	u64 t0, c0, i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		udelay(IBP_HALT_GAP_US);
		t0 = ktime_get_ns();
		c0 = ibp_cycles();
		err = smp_call_function_single(r->req->target, ibp_nop, NULL, 1);
		r->cycles += ibp_cycles() - c0;
		r->ns += ktime_get_ns() - t0;
	}
	return err;
}

static enum hrtimer_restart ibp_timer_fn(struct hrtimer *t)
{
	WRITE_ONCE(container_of(t, struct ibp_run, timer)->fired, 1);
	return HRTIMER_NORESTART;
}

/* One timer wake-up: arm the timer, idle (ibp_idle(): entered with interrupts off, so the
 * wake-up interrupt is taken right after it) until it fired; add the lateness beyond
 * IBP_HLT_NS. */
static int ibp_timer_wake_one(struct ibp_run *r)
{
	u64 t0, c0, dt, dc, period = (u64)ibp_cycles_khz() * IBP_HLT_NS / 1000000u;
	bool woke = false;

	WRITE_ONCE(r->fired, 0);
	t0 = ktime_get_ns();
	c0 = ibp_cycles();
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
		ibp_idle();
		woke = true;
	}
	dc = ibp_cycles() - c0;
	dt = ktime_get_ns() - t0;
	local_irq_enable();
	r->cycles += dc > period ? dc - period : 0;
	r->ns += dt > IBP_HLT_NS ? dt - IBP_HLT_NS : 0;
	return 0;
}

int ibp_timer_wake_batch(struct ibp_run *r, u64 n)
{
	u64 i;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = ibp_timer_wake_one(r);
	return err;
}

/* ---- running a request ---- */

/* The null batch: n turns of the probe's loop with an empty body (a compiler barrier, so
 * the loop stays), timed as the probe's batch is (as a whole, or each turn alone for
 * IBP_EACH); adds the ticks and ns to *cyc and *ns. */
static void ibp_null(struct ibp_run *r, u64 n, u64 *cyc, u64 *ns)
{
	u64 t0, c0, i;

	if (r->p->flags & IBP_EACH) {
		for (i = 0; i < n; i++) {
			t0 = ktime_get_ns();
			c0 = ibp_cycles();
			*cyc += ibp_cycles() - c0;
			*ns += ktime_get_ns() - t0;
		}
		return;
	}
	t0 = ktime_get_ns();
	c0 = ibp_cycles();
	for (i = 0; i < n; i++)
		barrier();
	*cyc += ibp_cycles() - c0;
	*ns += ktime_get_ns() - t0;
}

/* One batch of n and its null batch (first when null_first), already in the batch's
 * preemption and interrupt state; records both per iteration x 1000 as batch r->nb. */
static int ibp_pair(struct ibp_run *r, u64 n, bool null_first)
{
	u64 c0 = r->cycles, t0 = r->ns, nc = 0, nt = 0;
	u32 i = r->nb;
	int err;

	if (null_first)
		ibp_null(r, n, &nc, &nt);
	err = r->p->batch(r, n);
	if (!null_first)
		ibp_null(r, n, &nc, &nt);
	if (err)
		return err;
	r->null_sum_ns += nt;
	r->null_ns[i] = div64_u64(nt * 1000, n);
	r->null_cyc[i] = div64_u64(nc * 1000, n);
	r->net_ns[i] = (s64)div64_u64((r->ns - t0) * 1000, n) - r->null_ns[i];
	r->net_cyc[i] = (s64)div64_u64((r->cycles - c0) * 1000, n) - r->null_cyc[i];
	r->nb++;
	return 0;
}

static int ibp_cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0..n-1] (n > 0), sorting v: the middle one, or the mean of the two. */
static s64 ibp_median(s64 *v, u32 n)
{
	sort(v, n, sizeof(*v), ibp_cmp_s64, NULL);
	return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

/* The call's figures from its batches (all 0 when none was timed). */
static void ibp_medians(struct ibp_run *r, struct isobench_probe_req *q)
{
	q->batches = r->nb;
	if (!r->nb)
		return;
	q->net_ns_x1000 = ibp_median(r->net_ns, r->nb);
	q->net_cycles_x1000 = ibp_median(r->net_cyc, r->nb);
	q->null_ns_x1000 = ibp_median(r->null_ns, r->nb);
	q->null_cycles_x1000 = ibp_median(r->null_cyc, r->nb);
}

/* The next batch's size: about IBP_BATCH_NS, with its null batch, at the cost per
 * iteration seen so far. */
static u64 ibp_next_batch(struct ibp_run *r, u64 left)
{
	u64 max = r->p->max_batch ? r->p->max_batch : IBP_BATCH_MAX;
	u64 per = r->done ? div64_u64(r->ns + r->null_sum_ns, r->done) : 0;
	u64 n = per ? IBP_BATCH_NS / per : max;

	return clamp_t(u64, n, 1, min(max, left));
}

static int ibp_spin_start(struct ibp_run *r);

/* The worker bound to the probe's CPU: batches (each with its null batch) until done, about
 * ISOBENCH_PROBE_CALL_NS or ISOBENCH_PROBE_MAX_BATCHES.
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
	while (!err && r->done < want && r->nb < ISOBENCH_PROBE_MAX_BATCHES) {
		preempt_disable();
		if (!irqs)
			local_irq_save(flags);
		err = ibp_pair(r, n, r->nb % 2);
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
 * about 4 x ISOBENCH_PROBE_CALL_NS. The bound is kept with the counter (ibp_cycles_raw(),
 * the TSC or CNTVCT_EL0), not ktime_get_ns(): a clocksource read in the loop (the HPET
 * under QEMU TCG takes QEMU's global lock) would slow
 * the very interrupt delivery the probe measures (seen under TCG: 12 ms per IPI), and it is
 * read only every 1024 turns. No PAUSE either: under KVM a PAUSE loop in ring 0 triggers
 * pause-loop exits (the target would be descheduled, not spinning), and under TCG each PAUSE
 * leaves the translated code (2 ms per IPI with it). */
static void ibp_spin(struct work_struct *w)
{
	struct ibp_run *r = container_of(w, struct ibp_run, spin_work);
	u64 limit = (u64)ibp_cycles_khz() * (4ull * ISOBENCH_PROBE_CALL_NS / 1000000u), c0;
	unsigned long i;

	if (!limit)
		limit = 1ull << 32;
	preempt_disable();
	WRITE_ONCE(r->spinning, 1);
	c0 = ibp_cycles_raw();
	for (i = 1; !READ_ONCE(r->stop); i++) {
		barrier();	/* no PAUSE: see above */
		if (!(i % 1024) && ibp_cycles_raw() - c0 > limit)
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

/* Whether ktime_get_ns() can time a batch: either the smallest of three consecutive steps of
 * the clock (read until it moves; preemption off, interrupts on) is at most
 * IBP_CLOCK_STEP_NS, or the clock moved on every read of those steps (no read saw the value
 * of the one before: its resolution is finer than a read, however long a read takes). A
 * tick-based clocksource (jiffies or refined-jiffies: no TSC trusted as a clock, no HPET, no
 * PM timer, as in QEMU's microvm under TCG) stands still for many reads and then moves a
 * tick, and never with interrupts off, so every batch would read 0 ns: refused with the step
 * seen. A fine clock can still be slow to read: an emulated HPET whose every read waits for
 * QEMU's big lock on a busy host (14 us to 1 ms steps seen under TCG at load 5), or a TCG
 * guest under -icount shift=8 (256 ns of guest time per instruction: 13 us a read); what a
 * read costs the batch, its null batch holds too (ibp_null()). The check gives up only when
 * about IBP_CLOCK_WAIT_NS passed by the counter AND IBP_CLOCK_READS reads since the last move
 * saw the same value: a vCPU the host preempts for 20 ms (a busy host, an overcommitted cloud)
 * loses that time by the counter without having read the clock, which says nothing of the
 * clock. */
#define IBP_CLOCK_READS 1000u
static int ibp_check_clock(struct ibp_run *r)
{
	u64 limit = (u64)ibp_cycles_khz() * (IBP_CLOCK_WAIT_NS / 1000000u), c0, t, now, last = 0;
	u64 step = U64_MAX;
	char why[ISOBENCH_PROBE_REASON];
	unsigned int same = 0, stood = 0;	/* stood: steps with a repeated read */
	int moves = 0;

	if (!limit)
		limit = 1ull << 32;
	preempt_disable();
	c0 = ibp_cycles_raw();
	t = ktime_get_ns();
	while (moves < 4 && (same < IBP_CLOCK_READS || ibp_cycles_raw() - c0 <= limit)) {
		now = ktime_get_ns();
		if (now == t) {
			same++;
			cpu_relax();
			continue;
		}
		if (moves++) {	/* the first move ends a partial step */
			step = min(step, now - last);
			stood += same > 0;
		}
		last = t = now;
		same = 0;
	}
	preempt_enable();
	if (step <= IBP_CLOCK_STEP_NS || (moves == 4 && !stood))
		return 0;
	if (step == U64_MAX)
		snprintf(why, sizeof(why), "the kernel's clock did not move in %llu ms: no ns figure",
			 (unsigned long long)(IBP_CLOCK_WAIT_NS / 1000000u));
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
	q->batches = q->pad2 = 0;
	q->net_ns_x1000 = q->net_cycles_x1000 = 0;
	q->null_ns_x1000 = q->null_cycles_x1000 = 0;
	memset(q->reason, 0, sizeof(q->reason));
	if (err)
		return err;
	r = kvzalloc(sizeof(*r), GFP_KERNEL);	/* the batch arrays: ~8 KiB */
	if (!r)
		return -ENOMEM;
	r->req = q;
	r->p = &ibp_probes[array_index_nospec(q->probe, ISOBENCH_PROBE_COUNT)];
	init_irq_work(&r->iw, ibp_irq_work_fn);
	hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	r->timer.function = ibp_timer_fn;
	if (mutex_lock_interruptible(&ibp_lock)) {
		kvfree(r);
		return -EINTR;
	}
	cpus_read_lock();
	err = ibp_locked_run(r);
	cpus_read_unlock();
	mutex_unlock(&ibp_lock);
	q->done = r->done;
	q->cycles = r->cycles;
	q->ns = r->ns;
	ibp_medians(r, q);
	hrtimer_cancel(&r->timer);
	/* A self-IPI that never came (ETIMEDOUT) may still run its handler: keep r. */
	if (irq_work_is_busy(&r->iw))
		pr_warn("isobench-probe: self-IPI still pending, leaking its %zu bytes\n", sizeof(*r));
	else
		kvfree(r);
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
