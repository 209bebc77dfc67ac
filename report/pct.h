/* pct.h — latency percentiles in a comparison, for any test whose SAMPLE records carry
 * lib/latency.h's LAT_QUANTILES extras (p50_ns, p99_ns, p999_ns, max_ns: the disk-* tests, the
 * net-* tests, whatever comes next); nothing here names a test.
 *
 * A test's figure per quantile (model.h's mtest.lat[], ns) is its RESULT's whole-run figure
 * (every sample's histogram merged by the runner) when the RESULT carries them; in logs
 * written before that, the median over its non-warmup samples of that extra (mtest.lat_whole
 * says which; NAN when nothing carries it); model.c derives it. Latency is
 * always lower-is-better, whatever the test's own direction (the p99 of an IOPS test too): a
 * ratio to the first run is perf_ratio(first, this, 0) = first / this, so < 1 means "slower
 * than the first run", as every other ratio. The writers: text.c (a table per run and side by
 * side), json.c (latency_ns, latency_ratio), csv.c (rows, through pct_each), pctsvg.c (the chart). */
#ifndef ISOBENCH_PCT_H
#define ISOBENCH_PCT_H

#include "compare.h"
#include "latency.h"

#include <stddef.h>

/* A label of quantile q (lib/latency.h lat_keys[q]) for a table or chart: "p50", "p99.9". */
const char *pct_label(int q);
/* 1 when cell j of r is a test with percentiles. */
int pct_has(const struct cmp_row *r, size_t j);
/* Quantile q of cell j of r in ns (its run's, or a side's over its runs: compare.h's
 * cmp_cell lat), NAN when it has none. */
double pct_value(const struct cmp_row *r, size_t j, int q);
/* What a side's figures are, for a table's or chart's header: "" when each side is one run,
 * else "a side of several runs: p50, p99, p99.9 the geometric mean ...". */
const char *pct_what(const struct cmp *c);
/* How many of cells 0 .. nruns-1 of r have percentiles (a row is shown from 2). */
int pct_runs_with(const struct cmp_row *r, size_t nruns);
/* The ratio (lower is better) of quantile q of cell j of r to cell 0, NAN when either lacks it. */
double pct_ratio(const struct cmp_row *r, size_t j, int q);
/* fn(arg, key, value) per quantile of t that has a value (key: lib/latency.h lat_keys[q],
 * value in ns): csv.c's rows. */
void pct_each(const struct mtest *t, void (*fn)(void *arg, const char *key, double v), void *arg);
/* 1 when some row of c has percentiles in at least two runs. */
int pct_comparable(const struct cmp *c);

#endif
