/* svg.h — a chart of a comparison: per test (and per pass's index score), the performance
 * ratio of each run to the first on a log-2 scale, one coloured bar per run with its value
 * written at the bar's end; faded bars are within noise, solid ones beyond it (marked '*').
 * Plain SVG 1.1 text, no script, no external resources; every string from the log is XML-
 * escaped and reduced to printable ASCII. Returns 0, or -1 when the write fails. */
#ifndef ISOBENCH_SVG_H
#define ISOBENCH_SVG_H

#include "compare.h"
#include <stdio.h>

int svg_chart(FILE *out, const struct cmp *c);

#endif
