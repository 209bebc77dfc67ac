/* svg.h — the report's SVG: the scaffolding every chart shares (the document head and its
 * white background, the run palette, a chart label escaped), owned here and used by
 * the ratio chart below, the latency percentiles (pctsvg.c) and the memory curve (memsvg.c);
 * and the ratio chart of a comparison: per test (and per pass's index score), the
 * performance ratio of each run to the first on a log-2 scale, one coloured bar per run with
 * its value written at the bar's end; faded bars are within noise, solid ones beyond it
 * (marked '*'); with replicates the Index Score rows are marked too. What the marks rest on
 * (compare.h cmp_basis()) is in the legend and in each bar's tooltip: one basis for the chart,
 * or, when they differ (a test some runs lack, rounds that pair for some rows only), a [k]
 * after each mark naming one the legend lists. Plain SVG 1.1 text, no script, no external resources; every string from the
 * log is XML-escaped and reduced to printable ASCII. */
#ifndef ISOBENCH_SVG_H
#define ISOBENCH_SVG_H

#include "compare.h"
#include <stdio.h>

/* Colours of runs 1..SVG_NCOLOUR, in order (a chart draws at most that many runs). */
#define SVG_NCOLOUR 8
extern const char *const svg_colour[SVG_NCOLOUR];

/* util.h's xml_esc() of a label drawn in a chart: at most 60 bytes. */
void svg_esc(FILE *out, const char *s);

/* The document's head: the XML declaration, the <svg> element (width x height px, the
 * same viewBox, a sans-serif font at 13 px) and its white background. Close it with
 * fputs("</svg>\n", out). */
void svg_begin(FILE *out, double width, double height);

/* The ratio chart. Returns 0, or -1 when the write fails. */
int svg_chart(FILE *out, const struct cmp *c);

#endif
