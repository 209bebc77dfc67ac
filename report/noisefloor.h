/* noisefloor.h — the smallest change of a test that a comparison may call a difference: what
 * same-machine repeats of one build already show (a change inside it is noise, however small
 * its p-value). Measured per test and copies by docs/benchmarks/noise-floor.sh (the method and
 * the figures: docs/benchmarks/noise-floor.md); the rows live in noisefloor.c.
 * In: a test name and its copies. Out: the floor in percent, as noise-floor.sh measures it:
 * the larger of two figures over the smaller, minus 1, x 100 (noise_floor_beyond applies it),
 * and, in *from, "measured" or "default" (NOISE_FLOOR_DEFAULT_PCT for a test without a row). */
#ifndef ISOBENCH_NOISEFLOOR_H
#define ISOBENCH_NOISEFLOOR_H

#include <stddef.h>

/* LKP's threshold: it reports a change only beyond 5% (lkp-tests, stats/compare). */
#define NOISE_FLOOR_DEFAULT_PCT 5.0
/* The largest floor accepted (--noise-floor PCT or a file's): a change by a factor of 101;
 * a machine whose repeats spread more than that has no use for a comparison. */
#define NOISE_FLOOR_MAX_PCT 10000.0

double noise_floor_pct(const char *test, int copies, const char **from);

/* noise_floor_beyond: 1 when a performance ratio (compare.h: < 1 slower) is a larger change
 * than floor_pct, in either direction alike: max(ratio, 1 / ratio) - 1 against the floor, the
 * measure noise-floor.sh takes (max / min - 1), so a slowdown by a factor k and a speed-up by
 * the same k are judged the same. 0 for a ratio that is not finite and positive. */
int noise_floor_beyond(double ratio, double floor_pct);
/* The rule above in words, as the text and JSON reports state it. */
#define NOISE_FLOOR_RULE "(max(ratio, 1/ratio) - 1) x 100 > noise_floor_pct"

/* isobench-report --noise-floor PCT: every test's floor is pct (from: "option"), the
 * machine's own measure (noise-floor.sh) instead of the table's. pct < 0: the table again. */
void noise_floor_force(double pct);

/* isobench-report --noise-floor FILE: per test and copies, the floors of the machine being
 * compared, one "TEST COPIES PCT" per line ('#' starts a comment), as noise-floor.sh prints
 * them (from: "file"); a test the file does not name keeps the table's or the default.
 * Returns 0; -1 with err saying which line is wrong or that the file cannot be read (a
 * directory: "PATH: cannot be read: Is a directory"); -2 when it cannot be opened, err then
 * strerror(3)'s words alone (the caller says what else the argument is not). */
#define NOISE_FLOOR_FILE_MAX 1024
int noise_floor_load(const char *path, char *err, size_t cap);

#endif
