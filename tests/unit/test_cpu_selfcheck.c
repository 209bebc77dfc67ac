/* test_cpu_selfcheck.c — Dhrystone final values and Whetstone module values.
 *
 * Build and run (host gcc, not musl):  make -C tests/unit check (linked with the registry,
 * as the payload: tests/unit/Makefile.benches).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../payload/benchapi.h"
#include "../../payload/proc/dhry.h"
#include "../../payload/bench/whetstone.h"

extern const struct bench bench_whetstone_double;

static void dhry_n(uint64_t n)
{
	char why[128] = "";
	int r = dhry_selfcheck(n, why, sizeof why);

	if (r)
		print_error("n=%llu: %s\n", (unsigned long long)n, why);
	assert_int_equal(r, 0);
}

static void test_dhry_1000(void **st) { (void)st; dhry_n(1000); }
static void test_dhry_other(void **st) { (void)st; dhry_n(1); dhry_n(12345); dhry_n(2000000); }

/* The checker must reject what it cannot vouch for. */
static void test_dhry_check_can_fail(void **st)
{
	char why[128] = "";

	(void)st;
	assert_int_equal(dhry_selfcheck(0, why, sizeof why), -1);
	assert_non_null(strstr(why, "out of range"));
}

/* As isobench-proc's dhry-serve runs it, across several batches: the globals the spec prints.
 * (The runner's bench_dhry2reg only relays batches to that program: tests/test-proc.sh.) */
static void test_dhry_runs_batches(void **st)
{
	uint64_t fold;

	(void)st;
	dhry_init();
	fold = dhry_runs(700);
	fold += dhry_runs(300);
	assert_int_equal(Arr_2_Glob[8][7], 1000 + 10);
	assert_int_equal(Int_Glob, 5);
	assert_int_equal(Bool_Glob, 1);
	assert_int_equal(Ch_1_Glob, 'A');
	assert_int_equal(Ch_2_Glob, 'B');
	assert_int_equal(Arr_1_Glob[8], 7);
	assert_int_equal(Ptr_Glob->variant.var_1.Int_Comp, 17);
	assert_int_equal(Next_Ptr_Glob->variant.var_1.Int_Comp, 18);
	assert_true(fold != 0);
}

static void test_whet_reference(void **st)
{
	char why[128] = "";
	int r = whet_selfcheck(why, sizeof why);

	(void)st;
	if (r)
		print_error("%s\n", why);
	assert_int_equal(r, 0);
}

/* A value off by 2 in its 5th significant digit, or a wrong count, must be caught. */
static void test_whet_check_can_fail(void **st)
{
	struct whet_row rows[WHET_ROWS];
	char why[128];

	(void)st;
	memcpy(rows, whet_reference, sizeof rows);
	assert_int_equal(whet_compare(rows, why, sizeof why), 0);
	rows[9].x[2] = 8.3469e-01;
	assert_int_equal(whet_compare(rows, why, sizeof why), -1);
	assert_non_null(strstr(why, "module 11"));
	memcpy(rows, whet_reference, sizeof rows);
	rows[3].j = 0;
	assert_int_equal(whet_compare(rows, why, sizeof why), -1);
	assert_non_null(strstr(why, "module 4"));
}

/* One bench loop is a LOOP=1 pass: the weights that make it 100,000 Whetstone instructions. */
static void test_whet_loop1(void **st)
{
	static const long want_n[WHET_ROWS] = { 0, 12, 14, 345, 210, 32, 899, 616, 0, 93 };
	struct whet_row a[WHET_ROWS], b[WHET_ROWS];
	double va, vb;

	(void)st;
	va = whet_pass(1, a);
	vb = whet_pass(1, b);
	for (int i = 0; i < WHET_ROWS; i++)
		assert_int_equal(a[i].n, want_n[i]);
	assert_true(va == vb);
	assert_memory_equal(a, b, sizeof a);
	assert_true(bench_whetstone_double.per_loop == 0.1);
	assert_true(bench_whetstone_double.baseline == 55.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dhry_1000),
		cmocka_unit_test(test_dhry_other),
		cmocka_unit_test(test_dhry_check_can_fail),
		cmocka_unit_test(test_dhry_runs_batches),
		cmocka_unit_test(test_whet_reference),
		cmocka_unit_test(test_whet_check_can_fail),
		cmocka_unit_test(test_whet_loop1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
