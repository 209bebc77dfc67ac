/* latency.h — the distribution of per-operation latencies within one sample, for the tests
 * that report percentiles (disk-*, net-*): a log-linear histogram in fixed memory, no
 * allocation, so a test can record millions of operations without sorting them.
 *
 * Method: HdrHistogram's (Gil Tene, http://hdrhistogram.org): values below 2^LAT_SUB_BITS ns
 * are exact; above, each power of two is split into 2^LAT_SUB_BITS equal buckets, so a
 * reported percentile is at most 1/2^LAT_SUB_BITS (1.6 %) above the true order statistic.
 * A quantile is the upper edge of the bucket holding the rank ceil(q * count) (fio's and
 * HdrHistogram's convention: the smallest recorded value v with at least q of values <= v),
 * clipped to the largest value seen. Units: nanoseconds in, nanoseconds out.
 *
 * The SAMPLE extras these become (one owner of their names): LAT_KEYS below, in the order
 * lat_quantiles() fills. */
#ifndef ISOBENCH_LATENCY_H
#define ISOBENCH_LATENCY_H

#include "vocab.h"

#include <stdint.h>

#define LAT_SUB_BITS 6
#define LAT_SUB (1u << LAT_SUB_BITS)
/* Bucket groups: exact values [0, LAT_SUB), then one group per power of two up to 2^63. */
#define LAT_GROUPS (64 - LAT_SUB_BITS + 1)
#define LAT_BUCKETS (LAT_GROUPS * LAT_SUB)

struct lat_hist {
	uint64_t count;		/* values recorded */
	uint64_t min, max;	/* smallest and largest value (ns); min is UINT64_MAX when empty */
	uint64_t sum;		/* sum of the values (ns), saturating */
	uint32_t bucket[LAT_BUCKETS];
};

/* The percentiles a latency test reports as SAMPLE extras, in lat_quantiles() order:
 * X(quantile in parts per 100000, extra name). p999 is the 99.9th percentile. */
#define LAT_QUANTILES(X) \
	X(50000, REC_EXTRA_P50_NS) X(99000, REC_EXTRA_P99_NS) X(99900, REC_EXTRA_P999_NS) \
	X(100000, REC_EXTRA_MAX_NS)
enum { LAT_NQ = 4 };
extern const char *const lat_keys[LAT_NQ];	/* "p50_ns", "p99_ns", "p999_ns", "max_ns" */

/* Empty h. */
void lat_reset(struct lat_hist *h);
/* Record one latency of ns nanoseconds. */
void lat_record(struct lat_hist *h, uint64_t ns);
/* Record n latencies of ns nanoseconds each (a bucket of another histogram carried over). */
void lat_record_n(struct lat_hist *h, uint64_t ns, uint64_t n);
/* The q-quantile (0 < q_ppm5 <= 100000, parts per 100000) in ns; 0 when h is empty. */
uint64_t lat_quantile(const struct lat_hist *h, uint32_t q_ppm5);
/* out[i] = the quantile named lat_keys[i], for i < LAT_NQ. */
void lat_quantiles(const struct lat_hist *h, uint64_t out[LAT_NQ]);
/* Add every value of src to dst (the copies or samples of one test). */
void lat_merge(struct lat_hist *dst, const struct lat_hist *src);

/* The histogram on the wire (RESULT lat_hist, docs/records.md): its non-empty buckets as a
 * comma list of pairs "GAP,COUNT", GAP the bucket's index less the previous non-empty one's
 * (the first: its index), so runs' histograms can be merged by a reader (the fleet pools
 * runs as the runner pools samples). lat_hist_format() writes it into out (cap bytes, NUL
 * included) and returns its length, or 0 when h is empty or it does not fit.
 * lat_hist_parse() reads one into h (reset first; count from the buckets, max the largest
 * bucket's top edge until the caller sets the true one, sum 0): 0, or -1 when s is not
 * such a list (an index beyond LAT_BUCKETS, a count of 0 or above UINT32_MAX, odd length). */
size_t lat_hist_format(const struct lat_hist *h, char *out, size_t cap);
int lat_hist_parse(const char *s, struct lat_hist *h);

#endif
