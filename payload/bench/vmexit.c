/* vmexit.c — the `vmexit-*` probes: what single VM exits and virtual hardware cost, in ns
 * (the value, BENCH_TIME) and, for the shootdown, cycle-counter ticks (extra cycles_x100,
 * arch_cycles() around each batch inside run(), summed over the sample). All are meaningful
 * on bare metal too: there they show the native cost the virtualized figure is compared with.
 * The family's single instructions (x86-64: vmexit-cpuid, -rdtsc, -rdtscp, -pause) are the
 * architecture's: payload/arch/<arch>/insn.c.
 *
 *   vmexit-pagefault one loop = one first-touch fault on fresh anonymous memory: mmap up to
 *                    1024 pages (MADV_NOHUGEPAGE so every 4 KiB page faults), write one byte
 *                    each, munmap; mmap/munmap amortized over the chunk. Under EPT/NPT with
 *                    the host backing memory lazily, the first touch also costs a host fault.
 *   vmexit-shootdown one loop = mmap one page, write it, munmap it, while a second thread of
 *                    the process spins on another CPU, so munmap must send a TLB-shootdown
 *                    IPI (a VM exit per IPI without posted interrupts / PV TLB flush). Extra
 *                    local_ns: the same loop measured in setup before the thread starts (no
 *                    IPI), best of 3 x 10 ms. SKIP on a 1-CPU machine.
 *   vmexit-wake-samecpu / vmexit-wake-crosscpu
 *                    one loop = one round trip through two pipes (1 byte each way) between
 *                    two processes pinned to the same CPU / to two CPUs; the cross-CPU case
 *                    needs an IPI to wake the partner (and an idle-halt exit in a guest).
 *                    crosscpu SKIPs on 1 CPU.
 *   vmexit-nanosleep-50us / vmexit-nanosleep-1ms
 *                    one loop = one nanosleep() of 50 us / 1 ms with timer slack set to 1 ns
 *                    (prctl PR_SET_TIMERSLACK; the default 50 us slack would dominate).
 *                    The clock IS read around every call here: the lateness of each wake-up
 *                    (elapsed - requested) is the measurement. Extras: p50_late_ns,
 *                    p99_late_ns, max_late_ns (per sample), slack_ns. The value is the
 *                    median lateness, p50_late_ns (descriptor field value_extra); the mean
 *                    wall time per call is ns / loops of the SAMPLE records.
 */
#define _GNU_SOURCE
#include "../core/probe_util.h"
#include "arch.h"
#include "../sys.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PF_CHUNK 1024

struct vx_state {
	struct probe_cycles cycles;	/* per sample */
	/* shootdown */
	pthread_t spinner;
	int have_spinner, cpu[2];
	atomic_int stop;
	int64_t local_ns;
	/* wake */
	int to[2], from[2];
	pid_t partner;
	/* nanosleep */
	struct lathist h, snap;
	long req_ns;
	int64_t slack_ns;
	long page;
};

static int vx_alloc(struct bench_ctx *ctx)
{
	struct vx_state *s = calloc(1, sizeof *s);
	if (!s)
		return -ENOMEM;
	s->page = sysconf(_SC_PAGESIZE);
	s->to[0] = s->to[1] = s->from[0] = s->from[1] = -1;
	ctx->state = s;
	return 0;
}

static void vx_free(struct bench_ctx *ctx)
{
	free(ctx->state);
}

static void cycles_extra(struct bench_ctx *ctx, uint64_t cyc, uint64_t iters)
{
	struct vx_state *s = ctx->state;
	probe_cycles_extra(ctx, &s->cycles, cyc, iters);
}

/* ---- first-touch page faults ---- */

static int pf_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct vx_state *s = ctx->state;
	uint64_t acc = 0;

	while (iters) {
		size_t n = iters < PF_CHUNK ? (size_t)iters : PF_CHUNK;
		size_t len = n * (size_t)s->page;
		volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -errno;
		madvise((void *)p, len, MADV_NOHUGEPAGE);
		for (size_t i = 0; i < n; i++)
			p[i * (size_t)s->page] = (char)i;
		acc += (uint64_t)p[(n - 1) * (size_t)s->page];
		if (munmap((void *)p, len))
			return -errno;
		iters -= n;
	}
	ctx->sink += acc;
	return 0;
}

/* ---- TLB shootdown ---- */

static int map_touch_unmap(struct vx_state *s, uint64_t iters, uint64_t *acc)
{
	for (uint64_t i = 0; i < iters; i++) {
		volatile char *p = mmap(NULL, (size_t)s->page, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -errno;
		p[0] = (char)i;
		*acc += (uint64_t)p[0];
		if (munmap((void *)p, (size_t)s->page))
			return -errno;
	}
	return 0;
}

static void *spin(void *arg)
{
	struct vx_state *s = arg;

	probe_pin(0, s->cpu[1]);
	while (!atomic_load_explicit(&s->stop, memory_order_relaxed))
		arch_cpu_relax();
	return NULL;
}

static int shoot_setup(struct bench_ctx *ctx)
{
	int r = vx_alloc(ctx);
	if (r)
		return r;
	struct vx_state *s = ctx->state;
	if (probe_two_cpus(s->cpu) < 2) {
		bench_note(ctx, "one CPU: no other CPU to shoot down");
		return BENCH_SKIP;
	}
	if ((r = probe_pin(0, s->cpu[0])))
		return r;
	/* Baseline without a second thread: no other CPU runs this mm, no IPI. */
	uint64_t best = UINT64_MAX, acc = 0;
	for (int round = 0; round < 3; round++) {
		uint64_t n = 0, t0 = now_ns(), t1;
		do {
			if ((r = map_touch_unmap(s, 64, &acc)))
				return r;
			n += 64;
			t1 = now_ns();
		} while (t1 - t0 < 10000000u);
		if ((t1 - t0) / n < best)
			best = (t1 - t0) / n;
	}
	ctx->sink += acc;
	s->local_ns = (int64_t)best;
	if ((r = pthread_create(&s->spinner, NULL, spin, s)))
		return -r;
	s->have_spinner = 1;
	return 0;
}

static int shoot_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct vx_state *s = ctx->state;
	uint64_t acc = 0, t0 = arch_cycles();
	int r = map_touch_unmap(s, iters, &acc);
	uint64_t t1 = arch_cycles();

	ctx->sink += acc;
	cycles_extra(ctx, t1 - t0, iters);
	bench_extra(ctx, REC_EXTRA_LOCAL_NS, s->local_ns);
	return r;
}

static void shoot_teardown(struct bench_ctx *ctx)
{
	struct vx_state *s = ctx->state;

	if (s->have_spinner) {
		atomic_store(&s->stop, 1);
		pthread_join(s->spinner, NULL);
	}
	free(s);
}

/* ---- wake-up through a pipe ---- */

static void wake_partner(int in, int out)
{
	char c;

	while (read(in, &c, 1) == 1)
		if (write(out, &c, 1) != 1)
			_exit(3);
	_exit(0);
}

static int wake_setup(struct bench_ctx *ctx, int cross)
{
	int r = vx_alloc(ctx), cpu[2], n;
	if (r)
		return r;
	struct vx_state *s = ctx->state;
	n = probe_two_cpus(cpu);
	if (n < 1)
		return -EINVAL;
	if (cross && n < 2) {
		bench_note(ctx, "one CPU: no cross-CPU wake-up to measure");
		return BENCH_SKIP;
	}
	if (pipe(s->to) || pipe(s->from))
		return -errno;
	if ((r = probe_pin(0, cpu[0])))
		return r;
	s->partner = fork();
	if (s->partner < 0)
		return -errno;
	if (s->partner == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (probe_pin(0, cpu[cross ? 1 : 0]))
			_exit(4);
		close(s->to[1]);
		close(s->from[0]);
		wake_partner(s->to[0], s->from[1]);
	}
	close(s->to[0]);
	close(s->from[1]);
	return 0;
}

static int wake_same_setup(struct bench_ctx *ctx) { return wake_setup(ctx, 0); }
static int wake_cross_setup(struct bench_ctx *ctx) { return wake_setup(ctx, 1); }

static int wake_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct vx_state *s = ctx->state;
	char c = 0, back = 0;

	for (uint64_t i = 0; i < iters; i++, c++) {
		if (write(s->to[1], &c, 1) != 1)
			return -EPIPE;
		if (read(s->from[0], &back, 1) != 1 || back != c)
			return -EPIPE;
	}
	ctx->sink += (unsigned char)back;
	return 0;
}

static void wake_teardown(struct bench_ctx *ctx)
{
	struct vx_state *s = ctx->state;

	close(s->to[1]);
	close(s->from[0]);
	if (s->partner > 0)
		waitpid(s->partner, NULL, 0);
	free(s);
}

/* ---- timer accuracy ---- */

static int sleep_setup(struct bench_ctx *ctx, long req_ns)
{
	int r = vx_alloc(ctx);
	if (r)
		return r;
	struct vx_state *s = ctx->state;
	s->req_ns = req_ns;
	if ((r = probe_timer_slack_1ns(ctx)))
		return r;
	s->slack_ns = prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
	return 0;
}

static int sleep50_setup(struct bench_ctx *ctx) { return sleep_setup(ctx, 50000); }
static int sleep1m_setup(struct bench_ctx *ctx) { return sleep_setup(ctx, 1000000); }

static int sleep_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct vx_state *s = ctx->state;
	struct timespec req = {0, s->req_ns};

	if (probe_new_sample(ctx))
		lh_snapshot(&s->h, &s->snap);
	for (uint64_t i = 0; i < iters; i++) {
		uint64_t t0 = now_ns();
		if (nanosleep(&req, NULL) && errno != EINTR)
			return -errno;
		uint64_t dt = now_ns() - t0;
		lh_add(&s->h, dt > (uint64_t)s->req_ns ? dt - (uint64_t)s->req_ns : 0);
	}
	bench_extra(ctx, REC_EXTRA_P50_LATE_NS, (int64_t)lh_pct(&s->h, &s->snap, 50, NULL));
	bench_extra(ctx, REC_EXTRA_P99_LATE_NS, (int64_t)lh_pct(&s->h, &s->snap, 99, NULL));
	bench_extra(ctx, REC_EXTRA_MAX_LATE_NS, (int64_t)lh_max(&s->h, &s->snap));
	bench_extra(ctx, REC_EXTRA_SLACK_NS, s->slack_ns);
	ctx->sink += iters;
	return 0;
}

#define VX(id, ttl, su, ru, td) \
	BENCH(id, .title = ttl, .group = REC_GROUP_PROBES, \
		.unit = REC_UNIT_NS, .kind = BENCH_TIME, .per_loop = 1, .max_copies = 1, .setup = su, \
		.run = ru, .teardown = td)

VX(vmexit_pagefault, "First-touch page fault (per 4 KiB page)",
   vx_alloc, pf_run, vx_free);
VX(vmexit_shootdown, "mmap+munmap with a TLB shootdown",
   shoot_setup, shoot_run, shoot_teardown);
VX(vmexit_wake_samecpu, "Pipe wake-up round trip, same CPU",
   wake_same_setup, wake_run, wake_teardown);
VX(vmexit_wake_crosscpu, "Pipe wake-up round trip, two CPUs",
   wake_cross_setup, wake_run, wake_teardown);
/* The timer probes' value is the median lateness of a wake-up, not the wall time per call. */
BENCH(vmexit_nanosleep_50us, .title = "nanosleep(50 us), median lateness",
	.group = REC_GROUP_PROBES, .unit = REC_UNIT_NS, .kind = BENCH_TIME, .per_loop = 1, .max_copies = 1,
	.value_extra = REC_EXTRA_P50_LATE_NS, .setup = sleep50_setup, .run = sleep_run,
	.teardown = vx_free);
BENCH(vmexit_nanosleep_1ms, .title = "nanosleep(1 ms), median lateness",
	.group = REC_GROUP_PROBES, .unit = REC_UNIT_NS, .kind = BENCH_TIME, .per_loop = 1, .max_copies = 1,
	.value_extra = REC_EXTRA_P50_LATE_NS, .setup = sleep1m_setup, .run = sleep_run,
	.teardown = vx_free);
