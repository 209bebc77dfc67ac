/* cpuclk.h — the clock the CPU ran at, per test and per run, from the SAMPLEs' mhz= and
 * mhz_method= (docs/records.md; payload/cpuclock.h measures them), and whether two runs' CPU
 * clock policies or effective clocks differ enough to matter (docs/report.md "CPU clock").
 *
 * CPU-bound: a test whose copies were on a CPU for at least CLK_CPU_BOUND_PCT of their run
 * time (the median over its measured SAMPLEs of sum cpu_ns / sum ran_ns over the copies): its
 * value moves with the clock about in proportion. The clock of a test: the median over its
 * measured SAMPLEs of the median over the copies' figures (0: no figure, left out). A run's
 * clock: the median over every measured SAMPLE's figure, all tests together; a copy's
 * figure of 0 or above CLK_MHZ_MAX is left out (the figure is
 * the CPU's, measured around the sample, whatever the test does in it).
 * In: models. Out: figures (MHz; NAN when the log has none: older logs, or method none) and
 * warnings in words. No allocation. */
#ifndef ISOBENCH_CPUCLK_H
#define ISOBENCH_CPUCLK_H

#include "model.h"

#define CLK_CPU_BOUND_PCT 90.0
/* A copy's mhz= above this is no clock (a runner's bug, a hand edit) and is left out like a 0:
 * no CPU's core has run near 10 GHz (overclocking records on liquid nitrogen: ~9 GHz), so
 * twice that is no real figure. */
#define CLK_MHZ_MAX 20000.0

/* The key of a test's (or side's) effective clock in JSON and the CSV (MHz); its method's key
 * is the record's own, RK_MHZ_METHOD; a side's CSV rows add CLK_SIDE_SUFFIX to both. */
#define CLK_KEY_MHZ "effective_mhz"
/* A side's method when its runs' differ (one run by aperf, another by the chain): its median
 * mixes them, and no one method's name is true of it. */
#define CLK_METHOD_MIXED "mixed"
#define CLK_SIDE_SUFFIX "_side"

struct clk_test {
	double mhz;		/* NAN: no figure */
	const char *method;	/* REC_MHZ_*, or "-" when the SAMPLEs do not say */
	double cpu_pct;		/* NAN when the SAMPLEs do not say (no cpu_ns/ran_ns) */
	int cpu_bound;
};
/* t must be one of m's tests (else: no figure). */
void clk_test_of(const struct model *m, const struct mtest *t, struct clk_test *out);

/* A side of n replicate runs (runs[0..n-1]): the median over the runs of each one's
 * clk_test_of() for its result of (test, copies), runs without a figure left out; cpu_pct
 * likewise, cpu_bound from that median; method the one of every run with a figure, or
 * CLK_METHOD_MIXED when they differ. */
void clk_side_of(const struct model *const *runs, size_t n, const char *test, int copies,
		 struct clk_test *out);

struct clk_run {
	double mhz;		/* NAN when no test has a figure */
	const char *method;
	size_t ntests;		/* tests with a figure */
};
void clk_run_of(const struct model *m, struct clk_run *out);
/* A side of n replicate runs: the median over the runs of each one's clk_run_of(); method as
 * clk_side_of()'s (CLK_METHOD_MIXED when the runs' differ). */
void clk_side_run_of(const struct model *const *runs, size_t n, struct clk_run *out);

/* Every clk_compare() warning starts so (compare.c drops the first runs' ones when the sides
 * turn out to be replicates, and asks again over every run). */
#define CLK_WARN_PREFIX "not comparable: the CPU"

/* Why side a (na replicate runs a[0..na-1], labelled la) and side b (nb runs, lb) do not run
 * their CPUs alike, up to max warnings of cap bytes each into w; returns how many:
 *   - policy: a run of a and a run of b both have a cpufreq driver and their cpu.governor or
 *     cpufreq.boost differ (the first such pair named);
 *   - clock: the sides' clocks (clk_side_run_of(): the median over every run) differ by more
 *     than the noise floor (noisefloor.h, the rule NOISE_FLOOR_RULE on the clocks' ratio) of
 *     the test both hold with the smallest floor, among those CPU-bound on either side
 *     (clk_side_of()) when there are such, else among all with a clock figure on both: a
 *     difference that test would show beyond its noise. */
int clk_compare(const struct model *const *a, size_t na, const char *la,
		const struct model *const *b, size_t nb, const char *lb, char (*w)[400], int max);

#endif
