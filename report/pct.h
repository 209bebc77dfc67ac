/* pct.h — latency percentiles in the report, for any test whose SAMPLE records carry
 * lib/latency.h's LAT_QUANTILES extras (p50_ns, p99_ns, p999_ns, max_ns: the disk-* tests, the
 * net-* tests, whatever comes next); nothing here names a test.
 *
 * A test's figure per quantile is the median over its non-warmup samples of that extra (NAN
 * when no sample carries it). Latency is always lower-is-better, whatever the test's own
 * direction (the p99 of an IOPS test too): a ratio to the first run is perf_ratio(first,
 * this, 0) = first / this, so < 1 means "slower than the first run", as every other ratio.
 * Outputs: a table in text (one run; and side by side with ratios), an object in JSON, rows
 * in CSV, and an SVG chart of the percentiles of the compared runs (a bare vs VM pair) on a
 * log scale. Errors: the writers return 0, or -1 when out of memory or the write fails. */
#ifndef ISOBENCH_PCT_H
#define ISOBENCH_PCT_H

#include "compare.h"
#include "latency.h"
#include "record.h"

#include <jansson.h>
#include <stdio.h>

/* s->lat[] from the SAMPLE r's extras (NAN where absent). */
void pct_sample(struct msample *s, const struct record *r);
/* t->lat[] and t->has_lat from its samples. */
void pct_derive(struct mtest *t);
/* The quantile's extra name (lib/latency.h lat_keys[q]) and a label ("p99.9"). */
const char *pct_key(int q);
/* Text: the run's percentile table for one pass (nothing when no test has them). */
void pct_text_run(FILE *out, const struct model *m, int copies);
/* Text: the compared runs' percentiles with ratios (nothing when no row has them). */
void pct_text_compare(FILE *out, const struct cmp *c);
/* JSON: {"p50_ns": v, ...} of t, or json null when it has none. */
json_t *pct_json(const struct mtest *t);
/* JSON: {"p50_ns": ratio, ...} of cell j of r to cell 0 (lower is better), or null. */
json_t *pct_json_ratio(const struct cmp_row *r, size_t j);
/* CSV: fn(arg, key, value) per quantile of t that has a value. */
void pct_each(const struct mtest *t, void (*fn)(void *arg, const char *key, double v), void *arg);
/* The ratio (lower is better) of quantile q of cell j of r to cell 0, NAN when either lacks it. */
double pct_ratio(const struct cmp_row *r, size_t j, int q);
/* SVG: the percentiles of the compared runs, per test, log-scaled bars; -1 on a write error. */
int pct_svg(FILE *out, const struct cmp *c);
/* 1 when some row of c has percentiles in at least two runs. */
int pct_comparable(const struct cmp *c);

#endif
