/* signif.h — is run B different from run A for one test? Decided on the two runs' per-sample
 * values (SAMPLE value=, warm-ups left out), not on their medians' intervals.
 *
 * Test: Mann-Whitney U (Wilcoxon rank-sum), two-sided. Why it and not a permutation test of
 * the means: benchmark samples are skewed and carry outliers (a sample hit by preemption or a
 * host's neighbour), which a rank test shrugs off and a mean does not; it assumes nothing of
 * the distribution; and its p-value is deterministic, so a report gives the same verdict
 * every time it is made. Exact up to SIG_EXACT_MAX_N values in all: the permutation
 * distribution of the rank sum, with mid-ranks for ties (identical figures are common at the
 * printed precision), counted exactly; above, the normal approximation with tie and
 * continuity corrections (Conover, "Practical Nonparametric Statistics", 3rd ed., sec. 5.1).
 * Ratio CI: percentile bootstrap (Efron & Tibshirani, "An Introduction to the Bootstrap",
 * ch. 13) of the performance ratio of the two runs' RESULT values — UnixBench's aggregate,
 * lib/stats.c's summarize(), recomputed on each resample — SIG_BOOT resamples of each run with
 * a fixed seed (reproducible); the ratio is util.h's perf_ratio (> 1: B better).
 * Verdict: different when p < SIG_ALPHA and the ratio is beyond the test's noise floor
 * (noisefloor.h): a change smaller than what same-machine repeats show is never flagged.
 * Units: the samples' own; the ratio has none. Errors: NAN when a side has < SIG_MIN_N values. */
#ifndef ISOBENCH_SIGNIF_H
#define ISOBENCH_SIGNIF_H

#include <stddef.h>
#include <stdint.h>

#define SIG_ALPHA 0.01		/* Firecracker's A/B tool's threshold */
#define SIG_MIN_N 5		/* fewer values a side: no test. The smallest two-sided exact p
				 * is 2/C(na+nb, na): 0.1 for 3+3, 0.029 for 4+4, 0.0079 for 5+5,
				 * so below 5 a side p < SIG_ALPHA cannot happen (compare.c then
				 * falls back to the medians' intervals) */
#define SIG_EXACT_MAX_N 100	/* n_a + n_b up to which the p-value is exact (its counting
				 * takes (n_a + 1) x n^2 doubles: 4 MiB at 100) */
#define SIG_BOOT 2000		/* bootstrap resamples */
#define SIG_SEED 0x9e3779b97f4a7c15ull

/* Two-sided p-value of the Mann-Whitney U test of a against b; NAN when either has fewer
 * than SIG_MIN_N values. Non-finite values must not be passed. */
double sig_mwu_p(const double *a, size_t na, const double *b, size_t nb);

/* 95% percentile-bootstrap interval of perf_ratio(aggregate(a), aggregate(b), higher) into
 * *lo and *hi. Returns 0, or -1 (both NAN) with too few values, an unknown direction
 * (higher < 0), a non-positive value, or no memory. */
int sig_ratio_ci(const double *a, size_t na, const double *b, size_t nb, int higher,
		 double *lo, double *hi);

#endif
