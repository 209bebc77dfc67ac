/* text.h — human-readable reports on a FILE (UTF-8-free plain ASCII; any byte of a record value
 * that is not printable ASCII is shown as '?', so a log cannot drive the terminal).
 * text_run(): the machine header, the classic UnixBench table per pass (copies) with the
 * System Benchmarks Index Score, other tests and probes (value + unit), FAIL/SKIP/ERROR lines.
 * text_compare(): one column per run, performance ratios to the first run and noise marks,
 * the comparability warnings first. Neither prints the verdict line (main.c does). */
#ifndef ISOBENCH_TEXT_H
#define ISOBENCH_TEXT_H

#include "compare.h"
#include <stdio.h>

void text_run(FILE *out, const struct model *m, const char *source);
void text_compare(FILE *out, const struct cmp *c, char *const *sources);

#endif
