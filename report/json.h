/* json.h — machine-readable reports with jansson.
 * json_report(): every record of each chosen run (fields decoded) plus every derived figure
 * (values with units, CIs, index, scores), the damaged lines, and in comparison mode the rows,
 * ratios, noise marks and warnings. json_bench(): the list of {name, unit, value} that
 * github-action-benchmark's customBiggerIsBetter (smaller = 0) or customSmallerIsBetter
 * (smaller = 1) tools read; a test goes to the list its unit belongs to.
 * Non-finite numbers are written as null; byte strings that are not UTF-8 have the offending
 * bytes replaced by '?'. Both return 0, or -1 when out of memory or the write fails. */
#ifndef ISOBENCH_JSON_H
#define ISOBENCH_JSON_H

#include "compare.h"
#include <stdio.h>

int json_report(FILE *out, const struct report_in *in, size_t n, const struct cmp *c);
int json_bench(FILE *out, const struct report_in *in, size_t n, const struct cmp *c, int smaller);

#endif
