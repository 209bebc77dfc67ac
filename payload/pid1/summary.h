/* summary.h — the screen's last page (issue 11 item 6): the UnixBench index of every pass
 * side by side, the score of each pass (with lib/unixbench.c, as the runner's own table
 * computes it) and the run's counts, in at most 80 columns and 19 rows (12 index tests), so
 * that one photograph of an 80x25 text screen holds the result. Details (samples, CIs,
 * extras) stay on serial and in the log.
 *
 * In:  the run's facts as it goes, never its records read back (this process wrote them):
 *      each test's announcement and outcome from the runner (summary_note(), the runner's
 *      watcher, runner.h struct runner_fact: a typed fact at the moment the runner writes
 *      the record, so the page needs no parser and cannot drift from the runner's reading of
 *      a RESULT), and the END's counts from out.c (out_last_end(): noted by END's one
 *      writer, or by PID 1's relay of its peer program's END, isobench.serve=1). The
 *      runner's own outcome table is not read instead: it is the runner's private
 *      bookkeeping for its text tables (one run's), and the page keeps its own order (rows
 *      by first announcement, passes by copies) and, over isobench.repeat=N's runs, the
 *      latest outcome of each test and pass. Version: a short build name.
 * Out: the text (starting with a clear-screen escape) in out; returns its length. A run of
 *      no index test (the disk, net or memory group alone) gets one line saying so instead
 *      of the table. Only index tests (a baseline, ub_is_index()) make rows: at most 32, in
 *      at most 4 passes (copies), the rest left out.
 * Errors: none; a missing value shows as "-", a run without END says "incomplete".
 */
#ifndef ISOBENCH_SUMMARY_H
#define ISOBENCH_SUMMARY_H

#include <stddef.h>

#include "../out.h"
#include "../runner.h"

/* One fact of the run (runner_cfg.watch): a test announced (its title and baseline) or its
 * outcome (a RESULT's value and index, a SKIP, a FAIL). */
void summary_note(const struct runner_fact *f);
/* Forget every fact noted (a new page; the unit tests). */
void summary_clear(void);
/* The page of the facts noted and end (the END's counts; NULL: the run has no END). */
int summary_page(const struct out_counts *end, char *out, size_t cap, const char *version);
/* The page of the facts noted and the stream's latest END (out_last_end()). */
int summary_build(char *out, size_t cap, const char *version);

#endif
