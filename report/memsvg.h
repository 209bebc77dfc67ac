/* memsvg.h — the `memory` group's latency curve (`isobench-report --mem-svg FILE`): load
 * latency (ns, log scale) against working set (log-2 scale) of the 1-copy
 * `mem-latency-<size>-<page>` RESULTs of every run compared, 4 KiB pages solid and 2 MiB pages
 * dashed, one colour per run; under the chart a table per point: each run's 4k and 2m values,
 * their ratio 4k/2m (at the largest point: the page-walk cost), and with several runs each
 * run's ratio to the first, per page size. A TCG run is labelled as emulation (plumbing).
 * Points are read from the test names (`16k`, `512k`, `16m`, `1g`: KiB, MiB, GiB), so a new
 * point appears without a change here. Plain SVG 1.1, no script; strings from the log are
 * XML-escaped. A 2m RESULT whose measured samples say thp_kib=0 (base pages: the runner
 * SKIPs that) is not drawn, and named under the table; so are the comparison's warnings
 * (compare.c: runs not comparable, e.g. build.version differs), up to four, so the chart
 * read alone says when its curves are not comparable. Returns 0, or -1 when the write fails
 * or no run holds a latency RESULT. */
#ifndef ISOBENCH_MEMSVG_H
#define ISOBENCH_MEMSVG_H

#include "compare.h"
#include <stdio.h>

int memsvg_chart(FILE *out, const struct cmp *c);

/* The working set of a `mem-latency-<size>-<page>` test name in KiB and its page (0: 4k,
 * 1: 2m); 0 when name is not one. */
double memsvg_point(const char *name, int *page);

#endif
