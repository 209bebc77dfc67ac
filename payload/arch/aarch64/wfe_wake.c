/* wfe_wake.c (aarch64) — vmexit-wfe-wake: the cross-CPU wake-up of a CPU waiting in WFE, in ns
 * per round trip (BENCH_TIME; extra cycles_x100 in generic-timer ticks, insn_probe.h).
 *
 * One loop = one round trip between this process and a thread of it pinned to another CPU,
 * each waiting for the other in the arm64 idiom of the kernel's smp_cond_load_acquire(): LDAXR
 * on a shared word arms the exclusive monitor, WFE sleeps until an event, and the other CPU's
 * store to that word clears the monitor, which is the event that wakes it. Linux's 100 us
 * timer event stream wakes any WFE too, so a lost wake-up costs time but never hangs the loop.
 * What it exercises on KVM/arm64: where KVM sets HCR_EL2.TWE (while the vCPU shares its
 * physical CPU with another task, kvm_vcpu_load), every WFE of the waiter exits to the host,
 * which treats it as a spin-loop yield (kvm_vcpu_on_spin), so the wake-up holds an exit, a
 * possible reschedule and a re-entry; with TWE clear the vCPU waits in the hardware and the
 * wake-up is the cache-line transfer plus the event, as natively. SKIPs on one CPU. */
#define _GNU_SOURCE
#include "arch.h"
#include "../insn_probe.h"

#include <pthread.h>
#include <stdatomic.h>

struct wfe_state {
	struct insn_state insn;		/* first: insn_cycles() reads it */
	pthread_t partner;
	int have_partner, cpu[2];
	_Alignas(64) _Atomic uint64_t seq;	/* odd: the partner's turn; even: ours */
	_Alignas(64) atomic_int stop;
};

/* Wait in WFE until *seq == want (or *stop); returns the last value read. */
static uint64_t wfe_wait(_Atomic uint64_t *seq, uint64_t want, atomic_int *stop)
{
	uint64_t v;

	for (;;) {
		__asm__ volatile("ldaxr %0, [%1]" : "=&r"(v) : "r"(seq) : "memory");
		if (v == want || atomic_load_explicit(stop, memory_order_relaxed))
			break;
		__asm__ volatile("wfe" ::: "memory");
	}
	__asm__ volatile("clrex" ::: "memory");
	return v;
}

static void *partner(void *arg)
{
	struct wfe_state *s = arg;

	probe_pin(0, s->cpu[1]);
	for (uint64_t k = 1;; k += 2) {
		wfe_wait(&s->seq, k, &s->stop);
		if (atomic_load(&s->stop))
			return NULL;
		atomic_store_explicit(&s->seq, k + 1, memory_order_release);
	}
}

static int wake_setup(struct bench_ctx *ctx)
{
	struct wfe_state *s = calloc(1, sizeof *s);
	int r;

	if (!s)
		return -ENOMEM;
	ctx->state = s;
	if (probe_two_cpus(s->cpu) < 2) {
		bench_note(ctx, "one CPU: no cross-CPU wake-up to measure");
		return BENCH_SKIP;
	}
	if ((r = probe_pin(0, s->cpu[0])))
		return r;
	if ((r = pthread_create(&s->partner, NULL, partner, s)))
		return -r;
	s->have_partner = 1;
	return 0;
}

static int wake_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct wfe_state *s = ctx->state;
	uint64_t v = atomic_load(&s->seq), t0 = arch_cycles();

	for (uint64_t i = 0; i < iters; i++) {
		atomic_store_explicit(&s->seq, v + 1, memory_order_release);
		v = wfe_wait(&s->seq, v + 2, &s->stop);
	}
	uint64_t t1 = arch_cycles();
	ctx->sink += v;
	insn_cycles(ctx, t1 - t0, iters);
	return 0;
}

static void wake_teardown(struct bench_ctx *ctx)
{
	struct wfe_state *s = ctx->state;

	if (s && s->have_partner) {
		atomic_store(&s->stop, 1);
		atomic_fetch_add(&s->seq, 2);	/* a store to the word it watches: the event */
		pthread_join(s->partner, NULL);
	}
	free(s);
}

BENCH(vmexit_wfe_wake, .title = ARCH_PROBE_TITLE(vmexit_wfe_wake),
	.group = REC_GROUP_PROBES, .unit = REC_UNIT_NS, .kind = BENCH_TIME, .per_loop = 1,
	.max_copies = 1, .setup = wake_setup, .run = wake_run, .teardown = wake_teardown);
