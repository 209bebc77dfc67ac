/* clock.c — the `clock-*` probes: what one clock read costs (ns per call).
 *
 * One loop is one call; run() makes `iters` calls back to back and folds every result into
 * ctx->sink, so the harness reads the clock only around whole batches. Unit ns per call
 * (BENCH_TIME). Source of the case: a server that spent ~10% of its time in gettimeofday()
 * once virtualized, because its clocksource had no vDSO fast path (xen, hpet, acpi_pm): the
 * libc call then enters the kernel. The clocksource in use is in the run's INFO header
 * (clocksource.current); the kernel parameter `clocksource=` switches it.
 *
 *   clock-monotonic        clock_gettime(CLOCK_MONOTONIC)   extras: vdso (1: the libc call
 *                          costs under half the forced syscall; best of 4 x 5 ms each
 *                          in setup), syscall_ns (the forced-syscall cost measured there)
 *   clock-monotonic-raw    clock_gettime(CLOCK_MONOTONIC_RAW)
 *   clock-monotonic-coarse clock_gettime(CLOCK_MONOTONIC_COARSE) (tick resolution)
 *   clock-realtime         clock_gettime(CLOCK_REALTIME)
 *   clock-realtime-coarse  clock_gettime(CLOCK_REALTIME_COARSE)
 *   clock-boottime         clock_gettime(CLOCK_BOOTTIME)
 *   clock-gettimeofday     gettimeofday()
 *   clock-time             time() (musl: a full clock_gettime(CLOCK_REALTIME))
 *   clock-syscall          syscall(SYS_clock_gettime, CLOCK_MONOTONIC): always the kernel
 * The family's instruction reads (x86-64: clock-rdtsc, clock-rdtscp, extra cycles_x100) are
 * the architecture's: payload/arch/<arch>/insn.c. */
#define _GNU_SOURCE
#include "../core/probe_util.h"
#include "../sys.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

struct clk_state {
	int vdso;
	int64_t syscall_ns;
};

static uint64_t fold_ts(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

static int probe_clk_setup(struct bench_ctx *ctx)
{
	struct clk_state *s = calloc(1, sizeof *s);
	if (!s)
		return -ENOMEM;
	ctx->state = s;
	return 0;
}

static void probe_clk_teardown(struct bench_ctx *ctx)
{
	free(ctx->state);
}

static int loop_clock(struct bench_ctx *ctx, clockid_t id, uint64_t iters)
{
	struct timespec ts;
	uint64_t acc = 0;

	for (uint64_t i = 0; i < iters; i++) {
		if (clock_gettime(id, &ts))
			return -errno;
		acc += fold_ts(&ts);
	}
	ctx->sink += acc;
	return 0;
}

/* ns per call of `fn` over ~`ms` milliseconds (the setup-time vDSO check). */
static double per_call(clockid_t id, int forced, int ms)
{
	struct timespec ts;
	uint64_t n = 0, acc = 0, t0 = now_ns(), t1;

	do {
		for (int i = 0; i < 256; i++) {
			if (forced)
				syscall(SYS_clock_gettime, id, &ts);
			else
				clock_gettime(id, &ts);
			acc += (uint64_t)ts.tv_nsec;
		}
		n += 256;
		t1 = now_ns();
	} while (t1 - t0 < (uint64_t)ms * 1000000u);
	*(volatile uint64_t *)&acc = acc;
	return (double)(t1 - t0) / (double)n;
}

static int mono_setup(struct bench_ctx *ctx)
{
	int r = probe_clk_setup(ctx);
	if (r)
		return r;
	struct clk_state *s = ctx->state;
	double lib = 1e18, sys = 1e18;
	for (int round = 0; round < 4; round++) {	/* best of 4 x 5 ms each: noise only adds */
		double l = per_call(CLOCK_MONOTONIC, 0, 5), y = per_call(CLOCK_MONOTONIC, 1, 5);
		lib = l < lib ? l : lib;
		sys = y < sys ? y : sys;
	}
	s->vdso = lib < sys / 2;
	s->syscall_ns = (int64_t)(sys + 0.5);
	return 0;
}

static int mono_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct clk_state *s = ctx->state;
	int r = loop_clock(ctx, CLOCK_MONOTONIC, iters);
	bench_extra(ctx, REC_EXTRA_VDSO, s->vdso);
	bench_extra(ctx, REC_EXTRA_SYSCALL_NS, s->syscall_ns);
	return r;
}

#define CLOCK_RUN(fn, id) \
	static int fn(struct bench_ctx *ctx, uint64_t iters) { return loop_clock(ctx, id, iters); }
CLOCK_RUN(raw_run, CLOCK_MONOTONIC_RAW)
CLOCK_RUN(mcoarse_run, CLOCK_MONOTONIC_COARSE)
CLOCK_RUN(real_run, CLOCK_REALTIME)
CLOCK_RUN(rcoarse_run, CLOCK_REALTIME_COARSE)
CLOCK_RUN(boot_run, CLOCK_BOOTTIME)

static int tod_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct timeval tv;
	uint64_t acc = 0;

	for (uint64_t i = 0; i < iters; i++) {
		if (gettimeofday(&tv, NULL))
			return -errno;
		acc += (uint64_t)tv.tv_usec;
	}
	ctx->sink += acc;
	return 0;
}

static int time_run(struct bench_ctx *ctx, uint64_t iters)
{
	uint64_t acc = 0;

	for (uint64_t i = 0; i < iters; i++)
		acc += (uint64_t)time(NULL);
	ctx->sink += acc;
	return 0;
}

static int sys_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct timespec ts;
	uint64_t acc = 0;

	for (uint64_t i = 0; i < iters; i++) {
		if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts))
			return -errno;
		acc += fold_ts(&ts);
	}
	ctx->sink += acc;
	return 0;
}

#define CLOCK_BENCH(id, ttl, su, ru) \
	BENCH(id, .title = ttl, .group = REC_GROUP_PROBES, \
		.unit = REC_UNIT_NS, .kind = BENCH_TIME, .per_loop = 1, .setup = su, .run = ru, \
		.teardown = probe_clk_teardown)

CLOCK_BENCH(clock_monotonic, "clock_gettime(CLOCK_MONOTONIC)",
	    mono_setup, mono_run);
CLOCK_BENCH(clock_monotonic_raw,
	    "clock_gettime(CLOCK_MONOTONIC_RAW)", probe_clk_setup, raw_run);
CLOCK_BENCH(clock_monotonic_coarse,
	    "clock_gettime(CLOCK_MONOTONIC_COARSE)", probe_clk_setup, mcoarse_run);
CLOCK_BENCH(clock_realtime, "clock_gettime(CLOCK_REALTIME)",
	    probe_clk_setup, real_run);
CLOCK_BENCH(clock_realtime_coarse,
	    "clock_gettime(CLOCK_REALTIME_COARSE)", probe_clk_setup, rcoarse_run);
CLOCK_BENCH(clock_boottime, "clock_gettime(CLOCK_BOOTTIME)",
	    probe_clk_setup, boot_run);
CLOCK_BENCH(clock_gettimeofday, "gettimeofday()", probe_clk_setup,
	    tod_run);
CLOCK_BENCH(clock_time, "time()", probe_clk_setup, time_run);
CLOCK_BENCH(clock_syscall,
	    "syscall(SYS_clock_gettime, CLOCK_MONOTONIC)", probe_clk_setup, sys_run);
