/* json.h — machine-readable reports with jansson.
 * json_report(): every record of each chosen run (fields decoded) plus every derived figure
 * (values with units, CIs, index, scores), the damaged lines, and in comparison mode the rows,
 * ratios, noise marks and warnings. json_bench(): the list of {name, unit, value} that
 * github-action-benchmark's customBiggerIsBetter (smaller = 0) or customSmallerIsBetter
 * (smaller = 1) tools read; a test goes to the list its unit belongs to.
 * json_fleet(): a directory of logs grouped (fleet.h). json.c is the one JSON writer: every
 * document goes through its dump() and every number through its jnum(). Non-finite numbers
 * are written as null; byte strings that are not UTF-8 have the offending bytes written as
 * \xNN (util.h's utf8_hex(); in the fleet's document such a source path is left out, as it always was). Each
 * returns 0, or -1 when out of memory or the write fails. */
#ifndef ISOBENCH_JSON_H
#define ISOBENCH_JSON_H

#include "compare.h"
#include "fleet.h"
#include "history.h"
#include <stdio.h>

int json_report(FILE *out, const struct report_in *in, size_t n, const struct cmp *c);
int json_bench(FILE *out, const struct report_in *in, size_t n, const struct cmp *c, int smaller);
/* The fleet (fleet.h) grouped by by, as format isobench-fleet/1: groups with their sources,
 * rows with each group's figures, ratio, mark and p-value, the warnings. */
int json_fleet(FILE *out, const struct fleet *f, const char *by);
/* The results store's answers (store.h, history.h; docs/history.md): format
 * isobench-history/1 with "runs" (one object per run), or "series" (a trend: each with its
 * points, levels and change points), or "verdicts" (check: per test the ratio, p, runs,
 * method and regressed). */
int json_hist_runs(FILE *out, const struct store_run *r, size_t n);
int json_hist_trend(FILE *out, const struct hist_trend *t);
int json_hist_check(FILE *out, const struct hist_check *h);

#endif
