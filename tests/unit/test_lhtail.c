/* test_lhtail.c — tbench's and sockwrite's latencies into the harness's whole-run tails (issue
 * 35, item 4): core/probe_util.c's lh_to_lat() turns an interval of their cumulative lathist
 * into a lib/latency.h histogram for bench_lat(), which the harness merges over the kept
 * samples (tests/unit/test_tails.c tests that merge). Here: the interval only (values before
 * the snapshot left out), every value carried (count, max), its percentiles those lh_pct()
 * reports within the two histograms' bucket widths, and a 10 ms stall in 10 of one sample's
 * 1000 operations (1 %) of five samples shows in the merged p99.9 and max although every
 * other sample says 10 us. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "latency.h"
#include "../../payload/core/probe_util.h"

#define OPS 1000
#define LOOP_NS 10000u		/* 10 us */
#define STALL_NS 10000000u	/* 10 ms */
#define STALLS 10
#define SAMPLES 5

static struct lathist lh, snap;
static struct lat_hist one, whole;

/* |a - b| <= pct % of b */
static int near(uint64_t a, uint64_t b, double pct)
{
	double d = (double)a - (double)b;
	return (d < 0 ? -d : d) <= pct / 100.0 * (double)b;
}

static void interval_only(void **st)
{
	(void)st;
	memset(&lh, 0, sizeof lh);
	for (int i = 0; i < 500; i++)
		lh_add(&lh, 5000000u);	/* before the snapshot: not this interval's */
	lh_snapshot(&lh, &snap);
	for (uint64_t v = 1; v <= 1000; v++)
		lh_add(&lh, v * 1000u);	/* 1 us .. 1 ms */
	lh_to_lat(&lh, &snap, &one);
	assert_int_equal(one.count, 1000);
	assert_int_equal(one.max, lh_max(&lh, &snap));
	assert_true(one.max <= 5000000u / 4);	/* the earlier 5 ms values are left out */
	/* lathist buckets are 1/16 of a power of two, lat_hist's 1/64: within ~7 % */
	assert_true(near(lat_quantile(&one, 50000), lh_pct(&lh, &snap, 50, NULL), 7));
	assert_true(near(lat_quantile(&one, 99000), lh_pct(&lh, &snap, 99, NULL), 7));
	assert_true(near(lat_quantile(&one, 50000), 500000u, 7));
	assert_true(near(lat_quantile(&one, 99000), 990000u, 7));
	lh_to_lat(&lh, NULL, &one);	/* NULL: since the start */
	assert_int_equal(one.count, 1500);
}

static void stall_in_one_sample(void **st)
{
	(void)st;
	memset(&lh, 0, sizeof lh);
	lat_reset(&whole);
	for (int k = 0; k < SAMPLES; k++) {
		lh_snapshot(&lh, &snap);
		for (int i = 0; i < OPS; i++)
			lh_add(&lh, k == 1 && i < STALLS ? STALL_NS : LOOP_NS);
		lh_to_lat(&lh, &snap, &one);
		if (k != 1)	/* the other samples: p99.9 and max ~10 us (a bucket edge) */
			assert_true(near(lat_quantile(&one, 99900), LOOP_NS, 7) && near(one.max, LOOP_NS, 7));
		lat_merge(&whole, &one);
	}
	assert_int_equal(whole.count, SAMPLES * OPS);
	/* 10 stalls in 5000 operations: 0.2 %, above the p99.9 rank */
	assert_true(lat_quantile(&whole, 99900) >= STALL_NS * 95 / 100);
	assert_true(near(whole.max, STALL_NS, 7));
	assert_true(near(lat_quantile(&whole, 99000), LOOP_NS, 7));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interval_only),
		cmocka_unit_test(stall_in_one_sample),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
