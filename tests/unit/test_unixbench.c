/* test_unixbench.c — lib/unixbench.c (the index, score and classic table that the runner
 * and isobench-report share) against numbers computed by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "unixbench.h"

static void index_is_result_over_baseline_times_ten(void **st)
{
	(void)st;
	/* pipe in tests/fixtures/logs/native.log: 1904387.362 / 12440 x 10 = 1530.858008... */
	assert_float_equal(ub_index(1904387.362, 12440), 1530.8580080386, 1e-9);
	assert_float_equal(ub_index(43.0, 43.0), 10, 0);
	/* zero, negative, missing (NAN) or infinite results and baselines: 0, never NaN */
	assert_float_equal(ub_index(0, 43.0), 0, 0);
	assert_float_equal(ub_index(-5, 43.0), 0, 0);
	assert_float_equal(ub_index(NAN, 43.0), 0, 0);
	assert_float_equal(ub_index(INFINITY, 43.0), 0, 0);
	assert_float_equal(ub_index(100, 0), 0, 0);
	assert_false(ub_valid(NAN, 1));
	assert_true(ub_valid(1, 1));
}

static void full_score_from_known_ratios(void **st)
{
	(void)st;
	struct ub_score s;
	/* twelve tests: six at 2x their baseline, six at 8x: 10 x geomean = 10 x 4 = 40 */
	ub_score_init(&s);
	for (int i = 0; i < 6; i++) {
		ub_score_add(&s, 2 * 100.0, 100.0);
		ub_score_add(&s, 8 * 55.0, 55.0);
	}
	assert_int_equal(s.n, 12);
	assert_false(ub_score_partial(&s));
	assert_float_equal(ub_score_value(&s), 40, 1e-9);
	assert_string_equal(ub_score_label(&s), "System Benchmarks Index Score");
}

static void partial_score_and_missing_results(void **st)
{
	(void)st;
	struct ub_score s;
	char buf[256];
	/* native.log's pipe and syscall: 10 x sqrt(153.0858008 x 99.4063763) = 1233.6006127 */
	ub_score_init(&s);
	ub_score_add(&s, 1904387.362, 12440);
	ub_score_add(&s, 1491095.644, 15000);
	/* a FAIL (no result, passed as 0) and a NAN: left out, the score stays what it was */
	ub_score_add(&s, 0, 126);
	ub_score_add(&s, NAN, 4000);
	assert_int_equal(s.n, 2);
	assert_true(ub_score_partial(&s));
	assert_float_equal(ub_score_value(&s), 1233.600612669771, 1e-6);
	assert_string_equal(ub_footer(buf, sizeof buf, &s),
			    "                                                                   ========\n"
			    "System Benchmarks Index Score (Partial Only: 2 of 12 index tests)    1233.6");
	/* nothing valid at all: no score (0, n == 0), printed as ---, never NaN */
	ub_score_init(&s);
	ub_score_add(&s, 0, 43.0);
	assert_int_equal(s.n, 0);
	assert_float_equal(ub_score_value(&s), 0, 0);
	assert_false(isnan(ub_score_value(&s)));
	assert_string_equal(ub_footer(buf, sizeof buf, &s),
			    "                                                                   ========\n"
			    "System Benchmarks Index Score                                           ---");
}

static void classic_rows(void **st)
{
	(void)st;
	char buf[256];
	/* UnixBench's "%-40s%13.1f%13.1f%9.1f" */
	assert_string_equal(ub_row(buf, sizeof buf, "Pipe Throughput", 12440, 1904387.362, ""),
			    "Pipe Throughput                               12440.0    1904387.4   1530.9");
	assert_string_equal(ub_row(buf, sizeof buf, "Process Creation", 126, 0, "FAIL"),
			    "Process Creation                                126.0          ---      ---  FAIL");
	assert_string_equal(ub_row(buf, sizeof buf, "Execl Throughput", 43, NAN, NULL),
			    "Execl Throughput                                 43.0          ---      ---");
	assert_int_equal(strlen(UB_TABLE_HEAD), 75);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(index_is_result_over_baseline_times_ten),
		cmocka_unit_test(full_score_from_known_ratios),
		cmocka_unit_test(partial_score_and_missing_results),
		cmocka_unit_test(classic_rows),
	};
	return cmocka_run_group_tests_name("unixbench", tests, NULL, NULL);
}
