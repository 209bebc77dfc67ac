/* test_registry.c — the one registry check: every test in payload/registry.c has a unique
 * name, a known group and unit, a direction, a positive per_loop, and every index test its
 * UnixBench baseline; the index holds exactly UB_INDEX_TESTS tests (lib/unixbench.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../payload/bench.h"
#include "vocab.h"
#include "unixbench.h"

static int in(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

static void names_unique_and_known(void **st)
{
	(void)st;
	int n = 0;

	for (int i = 0; bench_registry[i]; i++, n++) {
		const struct bench *b = bench_registry[i];
		assert_non_null(b->name);
		assert_non_null(b->title);
		if (!in(b->group, bench_groups))
			fail_msg("%s: unknown group '%s'", b->name, b->group);
		if (!in(b->unit, bench_units))
			fail_msg("%s: unknown unit '%s'", b->name, b->unit);
		/* a name must not shadow a group name or "all" (selection by name) */
		if (in(b->name, bench_groups) || !strcmp(b->name, "all"))
			fail_msg("%s: a test named like a group", b->name);
		for (int j = 0; j < i; j++)
			if (!strcmp(bench_registry[j]->name, b->name))
				fail_msg("%s: listed twice (entries %d and %d)", b->name, j, i);
		assert_ptr_equal(bench_find(b->name), b);
		if (!(b->per_loop > 0))
			fail_msg("%s: per_loop %g", b->name, b->per_loop);
		assert_non_null(b->run);
	}
	assert_true(n > UB_INDEX_TESTS);
}

static void every_test_has_a_direction(void **st)
{
	(void)st;
	for (int i = 0; bench_registry[i]; i++) {
		const struct bench *b = bench_registry[i];
		const char *d = bench_better(b);
		if (strcmp(d, REC_BETTER_HIGHER) && strcmp(d, REC_BETTER_LOWER))
			fail_msg("%s: direction '%s'", b->name, d);
		/* a time is never higher-is-better; an extra-valued test says which way it goes
		 * through its kind, and those in the registry (lateness, CPU share) are lower */
		if (!strcmp(b->unit, "ns") || !strcmp(b->unit, "%cpu") || b->value_extra)
			if (strcmp(d, REC_BETTER_LOWER))
				fail_msg("%s (%s): must be lower-is-better", b->name, b->unit);
	}
	assert_string_equal(bench_better(bench_find("sockwrite-paced")), "lower");
	assert_string_equal(bench_better(bench_find("pipe")), "higher");
}

static void index_tests_have_baselines(void **st)
{
	(void)st;
	int n = 0;
	for (int i = 0; bench_registry[i]; i++) {
		const struct bench *b = bench_registry[i];
		int idx = bench_is_index(b);
		if (idx && !(b->baseline > 0))
			fail_msg("%s: index test without its UnixBench baseline", b->name);
		if (!idx && b->baseline != 0)
			fail_msg("%s: a baseline outside the index", b->name);
		if (idx && strcmp(bench_better(b), REC_BETTER_HIGHER))
			fail_msg("%s: an index test must be higher-is-better", b->name);
		n += idx;
	}
	assert_int_equal(n, UB_INDEX_TESTS);
	/* two baselines from UnixBench 5.1.3's table, as a spot check */
	assert_float_equal(bench_find("dhry2reg")->baseline, 116700.0, 0);
	assert_float_equal(bench_find("shell8")->baseline, 6.0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_unique_and_known),
		cmocka_unit_test(every_test_has_a_direction),
		cmocka_unit_test(index_tests_have_baselines),
	};
	return cmocka_run_group_tests_name("registry", tests, NULL, NULL);
}
