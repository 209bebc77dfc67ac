/* test_history.c — the trend's change points (report/history.h: Pettitt's test with binary
 * segmentation, each change placed again between its neighbours, beyond the noise floor)
 * against values computed apart: a Python brute force of Pettitt's own definition,
 * U_t = sum over i < t <= j of sgn(x_i - x_j), K = max |U_t|, p = 2 exp(-6 K^2 / (n^3 + n^2)),
 * run once on the series below; its results are the constants. The series: x_i = L_i (1 +
 * 0.002 sin(1.7 i)), L_i the level the test plants. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../report/history.h"

#include <string.h>

#define P_10_10 0.0015809806462399323	/* 10 + 10 runs, separated: K = 100, n = 20 */

/* n values: level a before run at, b from it (and c from at2 when at2 > 0). */
static void series(double *v, size_t n, double a, size_t at, double b, size_t at2, double c)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (at2 && i >= at2 ? c : i >= at ? b : a) * (1 + 0.002 * sin(1.7 * (double)i));
}

static size_t changes_at(const unsigned char *ch, size_t n, size_t *at, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (ch[i] && k < max)
			at[k++] = i;
	return k;
}

static void one_step(void **st)
{
	(void)st;
	double v[20], level[20], p[20];
	unsigned char ch[20];
	size_t at[4];

	series(v, 20, 100, 10, 130, 0, 0);
	assert_int_equal(hist_changes(v, 20, 5, ch, level, p), 1);
	assert_int_equal(changes_at(ch, 20, at, 4), 1);
	assert_int_equal(at[0], 10);
	assert_float_equal(p[10], P_10_10, 1e-12);
	assert_true(isnan(p[9]) && isnan(p[11]));
	assert_float_equal(level[0], 100.03967405731306, 1e-9);	/* the segments' medians */
	assert_float_equal(level[19], 129.96650736923903, 1e-9);
}

/* Two steps: the first split of the whole (t = 12, where |U_t| = 208 peaks) is two runs off;
 * placed again between its neighbours it is at 10, each change's p that of a 10 + 10 split. */
static void two_steps(void **st)
{
	(void)st;
	double v[30], level[30], p[30];
	unsigned char ch[30];
	size_t at[4];

	series(v, 30, 100, 10, 130, 20, 170);
	assert_int_equal(hist_changes(v, 30, 5, ch, level, p), 2);
	assert_int_equal(changes_at(ch, 30, at, 4), 2);
	assert_int_equal(at[0], 10);
	assert_int_equal(at[1], 20);
	assert_float_equal(p[10], P_10_10, 1e-12);
	assert_float_equal(p[20], P_10_10, 1e-12);
	assert_float_equal(level[29], 169.95682368149443, 1e-9);
}

/* A 3 % step is as significant (the same ranks) but inside a 5 % noise floor: no change;
 * with a 2 % floor it is one. A flat series has none whatever the floor. */
static void floor_and_flat(void **st)
{
	(void)st;
	double v[20], level[20], p[20];
	unsigned char ch[20];

	series(v, 20, 100, 10, 103, 0, 0);
	assert_int_equal(hist_changes(v, 20, 5, ch, level, p), 0);
	assert_float_equal(level[0], level[19], 0);	/* one segment: one level */
	assert_int_equal(hist_changes(v, 20, 2, ch, level, p), 1);
	assert_true(ch[10]);
	series(v, 20, 100, 20, 100, 0, 0);
	assert_int_equal(hist_changes(v, 20, 0, ch, level, p), 0);
}

/* Noise without a change (40 values 1 % apart from a fixed LCG, seed 2): Pettitt's p of the
 * best split is 0.134 (brute force: K = 172 at t = 12), so with no noise floor to hide behind
 * it is no change at p < 0.01 — and would be one at a looser threshold. */
static void noise_is_no_change(void **st)
{
	(void)st;
	double v[40], level[40], p[40];
	unsigned char ch[40];
	unsigned long s = 2;

	for (size_t i = 0; i < 40; i++) {
		s = (s * 1103515245 + 12345) % 2147483648ul;
		v[i] = 100 * (1 + 0.01 * ((double)s / 2147483648.0 - 0.5));
	}
	assert_int_equal(hist_changes(v, 40, 0, ch, level, p), 0);
}

/* Too few runs for two segments of HIST_MIN_SEG: nothing, and nothing read beyond n. */
static void short_series(void **st)
{
	(void)st;
	double v[5] = {1, 1, 1, 9, 9}, level[5], p[5];
	unsigned char ch[5];

	assert_int_equal(hist_changes(v, 5, 0, ch, level, p), 0);
	assert_int_equal(hist_changes(v, 0, 0, ch, level, p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_step),
		cmocka_unit_test(two_steps),
		cmocka_unit_test(floor_and_flat),
		cmocka_unit_test(noise_is_no_change),
		cmocka_unit_test(short_series),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
