/* histfmt.h — the results store's answers (store.h, history.h) as text, CSV and HTML; their
 * JSON is json.c's (the one JSON writer). Text: fixed columns, log text made safe (util.h's
 * text_safe). CSV: csv.h's quoting, CRLF, one header row. HTML: one self-contained page
 * (inline CSS and SVG, no script), text escaped. The trend chart (SVG, alone or in the page):
 * per test, value against the runs in date order, one line per machine, each segment's level
 * (the median between two change points) as a band of +- the test's noise floor, and the
 * change points ringed in red.
 * In: what the store and history.h computed. Out: on out. Errors: the int functions return
 * 0, or -1 when writing fails. */
#ifndef ISOBENCH_HISTFMT_H
#define ISOBENCH_HISTFMT_H

#include "history.h"
#include <stdio.h>

/* `runs`: one line per run with its run id, machine, hypervisor, image identity, date. */
int hist_runs_text(FILE *out, const struct store_run *r, size_t n);
int hist_runs_csv(FILE *out, const struct store_run *r, size_t n);
int hist_runs_html(FILE *out, const struct store_run *r, size_t n);

/* `trend`: per series its points, levels and change points. */
int hist_trend_text(FILE *out, const struct hist_trend *t);
int hist_trend_csv(FILE *out, const struct hist_trend *t);
int hist_trend_html(FILE *out, const struct hist_trend *t);
/* The charts of t as one SVG document (every test stacked). */
int hist_trend_svg(FILE *out, const struct hist_trend *t);

/* `check`: one line per regression (test, copies, ratio, p, runs, method), then one line per
 * other test with a verdict method when verbose. */
int hist_check_text(FILE *out, const struct hist_check *h, int verbose);

#endif
