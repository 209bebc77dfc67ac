/* noisefloor.h — the smallest change of a test that a comparison may call a difference: what
 * same-machine repeats of one build already show (a change inside it is noise, however small
 * its p-value). Measured per test and copies by docs/benchmarks/noise-floor.sh (the method and
 * the figures: docs/benchmarks/noise-floor.md); the rows live in noisefloor.c.
 * In: a test name and its copies. Out: the floor in percent of the ratio (|ratio - 1| x 100)
 * and, in *from, "measured" or "default" (NOISE_FLOOR_DEFAULT_PCT for a test without a row). */
#ifndef ISOBENCH_NOISEFLOOR_H
#define ISOBENCH_NOISEFLOOR_H

#include <stddef.h>

/* LKP's threshold: it reports a change only beyond 5% (lkp-tests, stats/compare). */
#define NOISE_FLOOR_DEFAULT_PCT 5.0

double noise_floor_pct(const char *test, int copies, const char **from);

/* isobench-report --noise-floor PCT: every test's floor is pct (from: "option"), the
 * machine's own measure (noise-floor.sh) instead of the table's. pct < 0: the table again. */
void noise_floor_force(double pct);

/* isobench-report --noise-floor FILE: per test and copies, the floors of the machine being
 * compared, one "TEST COPIES PCT" per line ('#' starts a comment), as noise-floor.sh prints
 * them (from: "file"); a test the file does not name keeps the table's or the default.
 * Returns 0, or -1 with err saying which line is wrong (or that the file cannot be read). */
#define NOISE_FLOOR_FILE_MAX 1024
int noise_floor_load(const char *path, char *err, size_t cap);

#endif
