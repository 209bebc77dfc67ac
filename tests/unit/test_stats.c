/* test_stats.c — aggregation against hand-computed values (UnixBench's method). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats.h"

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
	/* (The index score is lib/unixbench.c's, tested in test_unixbench.c.) */
}

/* stats_median(): the harness's RESULT figure of a test's own extra (benchapi.h result_extra). */
static void median_values(void **st)
{
	(void)st;
	double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 100}, one[] = {7};
	assert_float_equal(stats_median(odd, 3), 3, 0);
	assert_float_equal(stats_median(even, 4), 3.5, 0);	/* (3 + 4) / 2, not the mean */
	assert_float_equal(stats_median(one, 1), 7, 0);
	assert_float_equal(stats_median(one, 0), 0, 0);
}

static void window_prorates_final_batch(void **st)
{
	(void)st;
	/* 1000 loops; the final batch of 100 ran from 90 to 110 ns; the window closed at 100:
	 * 900 whole loops + half the batch. */
	struct copy_span s = {1000, 100, 90, 110};
	assert_float_equal(window_loops(&s, 100), 950, 1e-9);
	assert_float_equal(window_loops(&s, 110), 1000, 0);	/* batch ended in the window */
	assert_float_equal(window_loops(&s, 200), 1000, 0);
	assert_float_equal(window_loops(&s, 90), 900, 0);	/* closed as the batch began */
	assert_float_equal(window_loops(&s, 10), 900, 0);
}

static void common_window_many_copies(void **st)
{
	(void)st;
	/* 64 copies on 2 CPUs over a 100 ms window (the case of issue 10): 63 copies ran 555
	 * loops each over the whole window; one started late and ran 175 loops in its last
	 * 0.5 ms. The machine did 63 x 555 + 175 = 35,140 loops in 0.1 s: 351,400 lps. Summing
	 * each copy's own rate would say 63 x 5,550 + 175 / 0.0005 = 699,650. */
	double wl[64];
	for (int c = 0; c < 63; c++)
		wl[c] = 555;
	wl[63] = 175;
	assert_float_equal(common_window_value(wl, 64, 100000000, 1, 1), 351400, 1e-6);
	/* Rates scale with per_loop (lpm: 60 per loop). */
	assert_float_equal(common_window_value(wl, 64, 100000000, 1, 60), 351400 * 60, 1e-3);
	/* Time tests: mean over copies of window / loops. 1 ms over 100 and 400 loops:
	 * 10,000 and 2,500 ns per loop, mean 6,250. */
	double t[] = {100, 400};
	assert_float_equal(common_window_value(t, 2, 1000000, 0, 1), 6250, 1e-9);
	t[1] = 0;	/* a copy with no loop has no time per loop: invalid, not infinite */
	assert_float_equal(common_window_value(t, 2, 1000000, 0, 1), 0, 0);
	assert_float_equal(common_window_value(wl, 64, 0, 1, 1), 0, 0);
}

static void needed_samples(void **st)
{
	(void)st;
	/* 96..105: median 100.5, absolute deviations 0.5,0.5,1.5,1.5,...,4.5,4.5 -> MAD 2.5:
	 * cv = 1.4826 x 2.5 / 100.5 = 3.688%; (1.96 x 1.25331 x 3.688 / 1)^2 = 82.08 -> 83. */
	double v[] = {100, 101, 99, 102, 98, 103, 97, 104, 96, 105};
	assert_int_equal(samples_needed(v, 10, 1.0), 83);
	/* Twice the target: a quarter of the samples, 82.08 / 4 = 20.52 -> 21. */
	assert_int_equal(samples_needed(v, 10, 2.0), 21);
	/* One outlier does not decide it (the MAD ignores it): 1e9 in place of 105. */
	v[9] = 1e9;
	assert_int_equal(samples_needed(v, 10, 1.0), 83);
	/* Spread so small that fewer than n would do: n itself. */
	double w[] = {100, 100.01, 99.99, 100, 100.01, 99.99};
	assert_int_equal(samples_needed(w, 6, 1.0), 6);
	/* No target, or one sample: n. */
	assert_int_equal(samples_needed(v, 10, 0), 10);
	assert_int_equal(samples_needed(v, 1, 1.0), 1);
	/* A spread far beyond the target is capped, never overflows. */
	double z[] = {1, 1000, 1e6, 1e9};
	assert_int_equal(samples_needed(z, 4, 1e-9), STATS_SAMPLES_NEEDED_MAX);
	/* The same from a known spread: the first set's MAD 2.5 and median 100.5. */
	double med, u[] = {100, 101, 99, 102, 98, 103, 97, 104, 96, 105};
	assert_float_equal(sample_mad(u, 10, &med), 2.5, 1e-12);
	assert_float_equal(med, 100.5, 1e-12);
	assert_int_equal(samples_needed_of(2.5, 100.5, 10, 1.0), 83);
	/* Three values: median 1.01, deviations 0.00951, 0, 0.01951 -> MAD 0.00951;
	 * (1.96 x 1.25331 x 1.4826 x 0.00951 / 1.01 x 100 / 0.5)^2 = 47.4 -> 48. */
	double t3[] = {1.00049, 1.01, 1.02951};
	assert_int_equal(samples_needed(t3, 3, 0.5), 48);
	assert_float_equal(sample_mad(t3, 3, &med), 0.00951, 1e-12);
	/* No spread known (a negative MAD: out of memory), no median: n. */
	assert_int_equal(samples_needed_of(-1, 1.01, 3, 0.5), 3);
	assert_int_equal(samples_needed_of(0.01, 0, 3, 0.5), 3);
	assert_float_equal(sample_mad(t3, 0, &med), -1, 0);
}

/* whole_of_values(): a rate's arithmetic mean, a time's harmonic mean (work over time of equal
 * windows); nothing from nothing or a non-positive value. */
static void whole_run_value(void **st)
{
	const double v[] = {1, 2, 4}, bad[] = {1, 0};

	(void)st;
	assert_float_equal(whole_of_values(v, 3, 1), 7.0 / 3, 1e-12);
	assert_float_equal(whole_of_values(v, 3, 0), 3 / 1.75, 1e-12);
	assert_float_equal(whole_of_values(v, 0, 1), 0, 0);
	assert_float_equal(whole_of_values(bad, 2, 1), 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unixbench_drops_lowest_third),
		cmocka_unit_test(small_n),
		cmocka_unit_test(median_ci),
		cmocka_unit_test(geomean_values),
		cmocka_unit_test(median_values),
		cmocka_unit_test(window_prorates_final_batch),
		cmocka_unit_test(common_window_many_copies),
		cmocka_unit_test(needed_samples),
		cmocka_unit_test(whole_run_value),
	};
	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
