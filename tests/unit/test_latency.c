/* test_latency.c — the latency histogram against exact order statistics (lib/latency.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "latency.h"

static struct lat_hist h, h2;

/* Small values are exact: 1..100 -> p50 = 50, p99 = 99, max = 100. Above 64 the bucket width
 * is 1 up to 127, so these are still exact. */
static void exact_small(void **st)
{
	(void)st;
	lat_reset(&h);
	for (uint64_t v = 100; v >= 1; v--)
		lat_record(&h, v);
	uint64_t q[LAT_NQ];
	lat_quantiles(&h, q);
	assert_int_equal(q[0], 50);
	assert_int_equal(q[1], 99);
	assert_int_equal(q[2], 100);	/* rank ceil(0.999 * 100) = 100 */
	assert_int_equal(q[3], 100);
	assert_int_equal(h.count, 100);
	assert_int_equal(h.min, 1);
	assert_int_equal(h.sum, 5050);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Spread over nine decades: every quantile is >= the true order statistic and within the
 * 1/64 relative error the method promises. */
static void relative_error_bound(void **st)
{
	(void)st;
	enum { N = 20000 };
	static uint64_t v[N];
	uint64_t x = 88172645463325252ull;
	lat_reset(&h);
	for (int i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[i] = (x % 1000000000ull) >> (x % 20);
		lat_record(&h, v[i]);
	}
	qsort(v, N, sizeof v[0], cmp_u64);
	const uint32_t qs[] = {1, 25000, 50000, 90000, 99000, 99900, 99990};
	for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
		uint64_t rank = ((uint64_t)N * qs[k] + 99999) / 100000;
		uint64_t truth = v[rank - 1], got = lat_quantile(&h, qs[k]);
		assert_true(got >= truth);
		assert_true(got - truth <= truth / LAT_SUB);
	}
	assert_int_equal(lat_quantile(&h, 100000), v[N - 1]);
	assert_int_equal(h.min, v[0]);
}

static void empty_and_extremes(void **st)
{
	(void)st;
	lat_reset(&h);
	assert_int_equal(lat_quantile(&h, 50000), 0);
	lat_record(&h, UINT64_MAX);
	lat_record(&h, 0);
	assert_int_equal(lat_quantile(&h, 50000), 0);
	assert_int_equal(lat_quantile(&h, 100000), UINT64_MAX);
	assert_int_equal(h.sum, UINT64_MAX);	/* saturates */
}

static void merge_is_union(void **st)
{
	(void)st;
	lat_reset(&h);
	lat_reset(&h2);
	for (uint64_t v = 1; v <= 50; v++)
		lat_record(&h, v);
	for (uint64_t v = 51; v <= 100; v++)
		lat_record(&h2, v);
	lat_merge(&h, &h2);
	assert_int_equal(h.count, 100);
	assert_int_equal(lat_quantile(&h, 50000), 50);
	assert_int_equal(h.max, 100);
	assert_int_equal(h.min, 1);
}

/* The wire form (RESULT lat_hist): read back it is the same histogram (counts, quantiles),
 * two read back and merged are the two merged; malformed lists are refused. */
static void wire_round_trip(void **st)
{
	static char buf[1 << 16];
	static struct lat_hist back, a, b;
	uint64_t x = 88172645463325252ull;

	(void)st;
	lat_reset(&h);
	lat_reset(&h2);
	for (int i = 0; i < 20000; i++) {	/* xorshift: 0 .. ~16 ms, skewed low */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		lat_record(i % 2 ? &h : &h2, (x % 1000003) * (x % 16 + 1));
	}
	assert_true(lat_hist_format(&h, buf, sizeof buf) > 0);
	assert_int_equal(lat_hist_parse(buf, &back), 0);
	assert_int_equal(back.count, h.count);
	assert_memory_equal(back.bucket, h.bucket, sizeof h.bucket);
	back.max = h.max;
	for (uint32_t q = 1000; q <= 100000; q += 1000)
		assert_int_equal(lat_quantile(&back, q), lat_quantile(&h, q));
	/* merged on the reader's side = merged at the source */
	assert_int_equal(lat_hist_parse(buf, &a), 0);
	a.max = h.max;
	assert_true(lat_hist_format(&h2, buf, sizeof buf) > 0);
	assert_int_equal(lat_hist_parse(buf, &b), 0);
	b.max = h2.max;
	lat_merge(&a, &b);
	lat_merge(&h, &h2);
	assert_int_equal(lat_quantile(&a, 99900), lat_quantile(&h, 99900));
	assert_int_equal(lat_quantile(&a, 100000), lat_quantile(&h, 100000));
	/* too small a buffer, an empty histogram: nothing written */
	assert_int_equal(lat_hist_format(&h, buf, 8), 0);
	lat_reset(&back);
	assert_int_equal(lat_hist_format(&back, buf, sizeof buf), 0);
	static const char *const bad[] = {"", "5", "5,", "5,0", "5,1,0,1", "x,1", "5,1,",
					  "5,1 ", "3776,1", "0,1,3776,1", "5,4294967296", NULL};
	for (int i = 0; bad[i]; i++)
		assert_int_equal(lat_hist_parse(bad[i], &back), -1);
	assert_int_equal(lat_hist_parse("0,2,700,3", &back), 0);
	assert_int_equal(back.count, 5);
	assert_int_equal(back.bucket[700], 3);
}

static void key_names(void **st)
{
	(void)st;
	assert_string_equal(lat_keys[0], "p50_ns");
	assert_string_equal(lat_keys[1], "p99_ns");
	assert_string_equal(lat_keys[2], "p999_ns");
	assert_string_equal(lat_keys[3], "max_ns");
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(exact_small),
		cmocka_unit_test(relative_error_bound),
		cmocka_unit_test(empty_and_extremes),
		cmocka_unit_test(merge_is_union),
		cmocka_unit_test(wire_round_trip),
		cmocka_unit_test(key_names),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
