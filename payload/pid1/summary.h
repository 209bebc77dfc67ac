/* summary.h — the screen's last page (issue 11 item 6): the UnixBench index of every pass
 * side by side, the score of each pass (computed from the RESULT records with lib/unixbench.c,
 * as the runner's own table is) and the run's counts, in at most 80 columns and 19 rows (12
 * index tests), so that one photograph of an 80x25 text screen holds the result. Details
 * (samples, CIs, extras) stay on serial and in the log.
 *
 * In:  the console stream kept by out.c (its TEST/RESULT/SKIP/FAIL/END records); version, a
 *      short build name.
 * Out: the text (starting with a clear-screen escape) in out; returns its length. A run of
 *      no index test (the disk, net or memory group alone) gets one line saying so instead
 *      of the table.
 * Errors: none; a missing value shows as "-", a run without END says "incomplete".
 */
#ifndef ISOBENCH_SUMMARY_H
#define ISOBENCH_SUMMARY_H

#include <stddef.h>

int summary_build(char *out, size_t cap, const char *version);
/* The same page from text (len bytes of records, one a line) instead of the console stream:
 * what summary_build() does with the stream's content (tests/unit/test_summary.c). */
int summary_of(const char *text, size_t len, char *out, size_t cap, const char *version);

#endif
