/* probe_util.h — shared helpers of the `probes` group (not a test itself).
 *
 * - A log-linear latency histogram (16 sub-buckets per power of two, ~6% resolution, 0 ns ..
 *   2^40 ns) whose counters may live in shared memory and be written by another process
 *   (relaxed atomics). Percentiles of an interval are taken from the difference of two
 *   cumulative snapshots, so the writer never has to reset it.
 * - Per-sample bookkeeping: the harness resets ctx->nextra to 0 before the first batch of
 *   every sample, so `probe_new_sample(ctx)` (nextra == 0) tells a test that a new sample
 *   has begun; tests then restart their per-sample accumulators and re-emit their extras
 *   after every batch (the harness keeps the values of the last bench_extra() call).
 * - CPU pinning and timer-slack helpers. The processor's own instructions (cycle counter,
 *   spin hint) are payload/arch/<arch>/arch_impl.h's. */
#ifndef ISOBENCH_PROBE_UTIL_H
#define ISOBENCH_PROBE_UTIL_H

#include "../benchapi.h"
#include "latency.h"

#include <stdint.h>

#define LH_SUB 16
#define LH_BUCKETS (38 * LH_SUB)

struct lathist {
	uint64_t n[LH_BUCKETS];	/* cumulative counts; written with relaxed atomics */
	uint64_t max;		/* largest value ever added */
};

void lh_add(struct lathist *h, uint64_t ns);
/* Copy the counts (for a later interval = now - snapshot). */
void lh_snapshot(const struct lathist *h, struct lathist *snap);
/* Percentile p (0..100) of the values added since `snap` (NULL: since the start); returns
 * the bucket's midpoint in ns capped at lh_max() (a percentile never exceeds the maximum),
 * 0 when empty. *count receives the number of values. */
uint64_t lh_pct(const struct lathist *h, const struct lathist *snap, double p, uint64_t *count);
/* Largest value in the interval (bucket upper bound, capped by the true max). */
uint64_t lh_max(const struct lathist *h, const struct lathist *snap);
/* The interval's values (since snap; NULL: since the start) as a lib/latency.h histogram
 * into out (reset first), for bench_lat(): each bucket's count at its midpoint capped at
 * lh_max() (as lh_pct() reports it), the largest bucket's last value at lh_max() itself, so
 * out's count equals the interval's and its max is lh_max(). The harness merges these over
 * the kept samples into the RESULT's whole-run p50/p99/p99.9/max. */
void lh_to_lat(const struct lathist *h, const struct lathist *snap, struct lat_hist *out);

/* Cycle-counter ticks per loop over a sample (arch_cycles(): TSC cycles on x86-64), reported
 * as the extra cycles_x100 (cycles x 100). */
struct probe_cycles {
	uint64_t cyc, loops;
};
/* Add one batch (cyc ticks for iters loops); restarts at each new sample. */
void probe_cycles_extra(struct bench_ctx *ctx, struct probe_cycles *pc, uint64_t cyc,
			uint64_t iters);

static inline int probe_new_sample(const struct bench_ctx *ctx)
{
	return ctx->nextra == 0;
}

/* The first two CPUs of this process's affinity mask; returns how many it found (0..2). */
int probe_two_cpus(int cpu[2]);
int probe_pin(int pid, int cpu);	/* 0 or -errno; pid 0 = caller */

/* Timer slack 1 ns for this thread (prctl PR_SET_TIMERSLACK: the default 50 us would
 * dominate a timed wake-up's lateness). 0; BENCH_SKIP with a note when the kernel knows no
 * timer slack (EINVAL: gVisor's Sentry), since the figure would then not be the test's;
 * else -errno. */
int probe_timer_slack_1ns(struct bench_ctx *ctx);

struct sockaddr_in;
/* The loopback listener of the socket tests (sockwrite, tbench): a TCP socket (close-on-exec)
 * bound to 127.0.0.1 on a port the kernel picks, listening with backlog; *sa set to its
 * address (for connect). The socket, or -errno of socket/bind/listen/getsockname. */
int probe_listen_loopback(int backlog, struct sockaddr_in *sa);

#endif
