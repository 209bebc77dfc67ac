/* stats.h — aggregation of samples. Pure functions of their inputs; no I/O.
 *
 * Sources: UnixBench 5.1.3 `Run` (combineRunResults): a test's result is the geometric mean
 * of its samples after dropping the worst third (int(n/3) samples). The index and the score
 * built on results are lib/unixbench.h's. The median's confidence interval is the distribution-
 * free one from order statistics (normal approximation to the binomial, e.g. Conover,
 * "Practical Nonparametric Statistics", 3rd ed., sec. 3.2). */
#ifndef ISOBENCH_STATS_H
#define ISOBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

struct summary {
	size_t n;
	double unixbench;	/* UnixBench aggregate (see above) */
	double median, min, max;
	double ci_lo, ci_hi;	/* 95% CI of the median; equal to min/max when n < 6 */
	double ci_half_pct;	/* (ci_hi - ci_lo) / 2 / median * 100 */
};

/* higher_is_better: 1 for rates (drop the lowest third), 0 for times (drop the highest).
 * Returns 0, or -1 for n == 0 or a non-positive sample (the geometric mean needs > 0). */
int summarize(const double *samples, size_t n, int higher_is_better, struct summary *out);

/* The whole-run value of n samples' values (issue 46: a comparison keeps every sample, where
 * summarize()'s UnixBench aggregate drops the worst third): the run's work over its time when
 * every sample is one window of the same length, i.e. for a rate (higher_is_better) the
 * arithmetic mean of the samples' rates, for a time per operation the harmonic mean of the
 * samples' times (total time over total operations). The runner takes it for a test whose
 * value is a per-sample figure (bench value_extra) and the report for a log written before
 * RESULT whole= existed; a rate or time test's RESULT whole= is the exact sum of loops over
 * the sum of windows (harness.c). In and out: the samples' unit. 0 when n == 0 or a value
 * is not > 0. */
double whole_of_values(const double *v, size_t n, int higher_is_better);

/* The median of v[0..n-1], sorting v in place: the middle value, or the mean of the two
 * middle ones; 0 when n == 0. */
double stats_median(double *v, size_t n);

/* Geometric mean of n positive values; 0 when n == 0 or any value <= 0. */
double geomean(const double *v, size_t n);

/* Ranks (1-based) of the order statistics bounding the median's 95% CI for n samples. */
void median_ci_ranks(size_t n, size_t *lo, size_t *hi);

/* About how many samples would bring the median's 95% CI half-width within target_pct (%)
 * if the n samples' spread stays as it is: the sample median's asymptotic standard error is
 * sqrt(pi/2) sigma / sqrt(n) (normal data; e.g. Kendall & Stuart, "The Advanced Theory of
 * Statistics", vol. 1, sec. 10.10), so n' = (1.96 sqrt(pi/2) cv / target)^2, with the
 * robust cv = 1.4826 MAD / median (the MAD's consistency constant for a normal sigma), so
 * one outlier does not decide it. The order-statistic CI of summarize() is coarse at small
 * n (min..max up to 10 samples): this estimate is not. Rounded up, at least n, at most
 * STATS_SAMPLES_NEEDED_MAX; n when target_pct is not positive or n < 2. */
#define STATS_SAMPLES_NEEDED_MAX 1000000
size_t samples_needed(const double *samples, size_t n, double target_pct);
/* The same from a spread already known: mad and med in the samples' unit (a reader that
 * bounds them from rounded values, report/validate.c). */
size_t samples_needed_of(double mad, double med, size_t n, double target_pct);

/* Median absolute deviation of n values (their unit); *median gets their median.
 * -1 (and *median 0) when n == 0 or out of memory. */
double sample_mad(const double *samples, size_t n, double *median);

/* N copies over a common window (harness.c): every copy starts when the window opens and
 * runs batches until it sees the stop flag, raised when the window closes at t_stop; the
 * batch running at t_stop finishes after it. One copy's sample: */
struct copy_span {
	uint64_t loops;		/* loops completed, every batch, the final one included */
	uint64_t last_batch;	/* loops of the final batch */
	uint64_t t_last0, t_end;	/* start and end of the final batch (ns, one clock) */
};

/* Loops of one copy inside the window that closes at t_stop: all loops before its final
 * batch, plus that batch's loops in proportion to the part of it before t_stop (a batch's
 * loops are taken as spread evenly over its time). Every loop when t_stop >= t_end. */
double window_loops(const struct copy_span *s, uint64_t t_stop);

/* A sample's value from the copies' loops inside a common window of window_ns:
 * rate (higher is better): sum over copies of wl[c] * per_loop / seconds, i.e. the work
 * every copy together did per second of the window (UnixBench sums its copies' counts);
 * time (lower is better): mean over copies of window_ns / wl[c] / per_loop.
 * 0 when window_ns is 0 or (time) a copy did no loop: summarize() rejects it. */
double common_window_value(const double *wl, int copies, uint64_t window_ns, int rate,
			   double per_loop);

#endif
