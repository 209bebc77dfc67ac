/* pctsvg.h — the latency percentiles of the compared runs as an SVG chart
 * (`isobench-report --svg-latency FILE`, e.g. a bare vs VM pair): per test with percentiles in
 * at least two runs (pct.h), per quantile one bar per run on a log scale of ns (decades), its
 * value in us and its ratio to run 1 (lower is better: < 1 slower) written at the bar's end;
 * svg.h's head, palette and escaping. Plain SVG 1.1, no script. Returns 0, or -1 when the
 * write fails. */
#ifndef ISOBENCH_PCTSVG_H
#define ISOBENCH_PCTSVG_H

#include "compare.h"
#include <stdio.h>

int pct_svg(FILE *out, const struct cmp *c);

#endif
