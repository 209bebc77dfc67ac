/* text.h — human-readable reports on a FILE (UTF-8-free plain ASCII; any byte of a record value
 * that is not printable ASCII is shown as '?', so a log cannot drive the terminal).
 * text_run(): the machine header, the classic UnixBench table per pass (copies) with the
 * System Benchmarks Index Score, other tests and probes (value + unit), FAIL/SKIP/ERROR lines.
 * text_compare(): one column per run, performance ratios to the first run and noise marks,
 * the comparability warnings first. Neither prints the verdict line (main.c does). */
#ifndef ISOBENCH_TEXT_H
#define ISOBENCH_TEXT_H

#include "compare.h"
#include "fleet.h"
#include <stdio.h>

void text_run(FILE *out, const struct model *m, const char *source);
void text_compare(FILE *out, const struct cmp *c, char *const *sources);
/* The fleet (fleet.h) read from dir, grouped by by: its groups and their logs, the warnings,
 * then per row and group n, median, min, max, the median's 95% CI and the ratio with its
 * mark. */
void text_fleet(FILE *out, const struct fleet *f, const char *dir, const char *by);

#endif
