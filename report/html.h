/* html.h — the report a person reads: one self-contained HTML page (inline CSS, the charts as
 * inline SVG, no script, no external resource), from the same comparison as every other
 * format. Order: warnings and notes first; each run's identity (machine label, CPU, hypervisor
 * as CPUID and DMI say, kernel, clocksource, build, mode, run id, file; with replicates a
 * column per side, each of its runs' facts, said the same in all or differing); per pass the index
 * tests side by side with each run's value and index, the ratio to run 1 with its 95%
 * interval, p-value and noise mark (compare.h); the index scores; the other tests likewise;
 * then the ratio chart (svg.c). Every figure cell carries data-row/data-run/data-key naming
 * the JSON field it shows (json.c's comparison.rows[row].cells[run].<key>), so a test can
 * check the page against the JSON; an Index Score's cells carry data-copies/data-run instead
 * (data-key score, score_ratio, basis: with replicates its verdict's, JSON's
 * comparison.index_scores). Under every mark, what it rests on (compare.h cmp_basis()).
 * Text from a log is escaped; bytes outside printable ASCII
 * show as '?', as in the text report.
 * In: the runs (as model.h's report_in; every run behind the comparison in column order,
 * each naming its column in .side: with replicates several a side) and their comparison (any
 * number of runs >= 1).
 * Out: the page on out. Errors: -1 when writing fails. */
#ifndef ISOBENCH_HTML_H
#define ISOBENCH_HTML_H

#include "compare.h"

#include <stdio.h>

int html_report(FILE *out, const struct report_in *in, size_t n, const struct cmp *c);

/* The pages' one style sheet (inline CSS): the report's and the history's (histfmt.c). */
extern const char html_style[];

#endif
