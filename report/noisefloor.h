/* noisefloor.h — the smallest change of a test that a comparison may call a difference: what
 * same-machine repeats of one build already show (a change inside it is noise, however small
 * its p-value). Measured per test and copies by docs/benchmarks/noise-floor.sh (the method and
 * the figures: docs/benchmarks/noise-floor.md); the rows live in noisefloor.c.
 * In: a test name and its copies. Out: the floor in percent of the ratio (|ratio - 1| x 100)
 * and, in *from, "measured" or "default" (NOISE_FLOOR_DEFAULT_PCT for a test without a row). */
#ifndef ISOBENCH_NOISEFLOOR_H
#define ISOBENCH_NOISEFLOOR_H

/* LKP's threshold: it reports a change only beyond 5% (lkp-tests, stats/compare). */
#define NOISE_FLOOR_DEFAULT_PCT 5.0

double noise_floor_pct(const char *test, int copies, const char **from);

/* isobench-report --noise-floor PCT: every test's floor is pct (from: "option"), the
 * machine's own measure (noise-floor.sh) instead of the table's. pct < 0: the table again. */
void noise_floor_force(double pct);

#endif
