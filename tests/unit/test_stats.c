/* test_stats.c — aggregation against hand-computed values (UnixBench's method). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../payload/stats.h"

static void unixbench_drops_lowest_third(void **st)
{
	(void)st;
	/* 6 samples: drop int(6/3) = 2 lowest (1, 2); geomean(4, 8, 16, 32) = 2^3.5. */
	double v[] = {16, 1, 32, 2, 8, 4};
	struct summary s;
	assert_int_equal(summarize(v, 6, 1, &s), 0);
	assert_float_equal(s.unixbench, pow(2, 3.5), 1e-9);
	assert_float_equal(s.median, 6, 1e-12);
	assert_float_equal(s.min, 1, 0);
	assert_float_equal(s.max, 32, 0);
	/* For times (lower is better) the highest third goes: geomean(1, 2, 4, 8) = 2^1.5. */
	assert_int_equal(summarize(v, 6, 0, &s), 0);
	assert_float_equal(s.unixbench, pow(2, 1.5), 1e-9);
}

static void small_n(void **st)
{
	(void)st;
	double one[] = {5}, two[] = {4, 9};
	struct summary s;
	assert_int_equal(summarize(one, 1, 1, &s), 0);
	assert_float_equal(s.unixbench, 5, 1e-12);
	assert_int_equal(summarize(two, 2, 1, &s), 0);
	assert_float_equal(s.unixbench, 6, 1e-12);	/* nothing dropped: sqrt(36) */
	assert_float_equal(s.median, 6.5, 1e-12);
	assert_int_equal(summarize(two, 0, 1, &s), -1);
	double zero[] = {0, 1};
	assert_int_equal(summarize(zero, 2, 1, &s), -1);
}

static void median_ci(void **st)
{
	(void)st;
	size_t lo, hi;
	/* n = 10: 5 - 3.099 -> 1 (floor 1.90); 1 + 5 + 3.099 -> 10 (ceil 9.1) */
	median_ci_ranks(10, &lo, &hi);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 10);
	/* n = 30: 15 - 5.368 = 9.63 -> 9; 16 + 5.368 = 21.37 -> 22 */
	median_ci_ranks(30, &lo, &hi);
	assert_int_equal(lo, 9);
	assert_int_equal(hi, 22);
	double v[30];
	for (int i = 0; i < 30; i++)
		v[i] = 100 + i;	/* ranks 9 and 22 hold 108 and 121 */
	struct summary s;
	summarize(v, 30, 1, &s);
	assert_float_equal(s.ci_lo, 108, 0);
	assert_float_equal(s.ci_hi, 121, 0);
	assert_float_equal(s.ci_half_pct, 6.5 / 114.5 * 100, 1e-9);
}

static void geomean_values(void **st)
{
	(void)st;
	double v[] = {1, 10, 100};
	assert_float_equal(geomean(v, 3), 10, 1e-9);
	assert_float_equal(geomean(v, 0), 0, 0);
	/* (The index score is payload/unixbench.c's, tested in test_unixbench.c.) */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unixbench_drops_lowest_third),
		cmocka_unit_test(small_n),
		cmocka_unit_test(median_ci),
		cmocka_unit_test(geomean_values),
	};
	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
