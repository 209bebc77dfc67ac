/* stats.h — aggregation of samples. Pure functions of their inputs; no I/O.
 *
 * Sources: UnixBench 5.1.3 `Run` (combineRunResults): a test's result is the geometric mean
 * of its samples after dropping the worst third (int(n/3) samples). The index and the score
 * built on results are payload/unixbench.h's. The median's confidence interval is the distribution-
 * free one from order statistics (normal approximation to the binomial, e.g. Conover,
 * "Practical Nonparametric Statistics", 3rd ed., sec. 3.2). */
#ifndef ISOBENCH_STATS_H
#define ISOBENCH_STATS_H

#include <stddef.h>

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

/* Geometric mean of n positive values; 0 when n == 0 or any value <= 0. */
double geomean(const double *v, size_t n);

/* Ranks (1-based) of the order statistics bounding the median's 95% CI for n samples. */
void median_ci_ranks(size_t n, size_t *lo, size_t *hi);

#endif
