/* whetstone.c — "whetstone-double", Double-Precision Whetstone, in MWIPS.
 *
 * Written from the Whetstone definition (Curnow & Wichmann, "A synthetic benchmark", Computer
 * Journal 19(1), 1976) in the module layout of the widely used C version (netlib
 * benchmark/whetstone.c, Painter 1998), whose rating is KIPS = 100 * LOOP * II / seconds: one
 * pass over the modules with LOOP = 1 is 100 thousand Whetstone instructions.  One bench loop is
 * exactly such a pass, so per_loop = 100000 / 1e6 = 0.1 MWIPS.
 *
 * UnixBench's own whetstone-double runs Longbottom's whets.c, which times its eight sections
 * separately and scales them to the same 1976 weighting; our figure follows the same definition
 * of a Whetstone instruction but is not bit-for-bit UnixBench's program.
 *
 * Built with -O2 and without -ffast-math: the reference results assume IEEE double arithmetic.
 * PA, P0, P3 are kept out of line: module 8 measures procedure calls.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "../benchapi.h"
#include "whetstone.h"

#define NOINLINE __attribute__((noinline, noclone))

/* Module state shared with the procedures, as in the original (globals T, T1, T2, E1, J, K, L). */
static double T, T1, T2, E1[5];
static long J, K, L;
/* Read at each pass so the compiler cannot fold whole modules at build time. */
static volatile double vT = 0.499975, vT1 = 0.50025, vT2 = 2.0;

NOINLINE static void PA(double E[])
{
	J = 0;
	do {
		E[1] = (E[1] + E[2] + E[3] - E[4]) * T;
		E[2] = (E[1] + E[2] - E[3] + E[4]) * T;
		E[3] = (E[1] - E[2] + E[3] + E[4]) * T;
		E[4] = (-E[1] + E[2] + E[3] + E[4]) / T2;
		J += 1;
	} while (J < 6);
}

NOINLINE static void P0(void)
{
	E1[J] = E1[K];
	E1[K] = E1[L];
	E1[L] = E1[J];
}

NOINLINE static void P3(double X, double Y, double *Z)
{
	double X1, Y1;

	X1 = X;
	Y1 = Y;
	X1 = T * (X1 + Y1);
	Y1 = T * (X1 + Y1);
	*Z = (X1 + Y1) / T2;
}

static inline void row(struct whet_row *r, long n, long j, long k, double a, double b, double c, double d)
{
	if (r) {
		r->n = n, r->j = j, r->k = k;
		r->x[0] = a, r->x[1] = b, r->x[2] = c, r->x[3] = d;
	}
}

double whet_pass(long loop, struct whet_row *rows)
{
	long N1 = 0, N2 = 12 * loop, N3 = 14 * loop, N4 = 345 * loop, N6 = 210 * loop,
	     N7 = 32 * loop, N8 = 899 * loop, N9 = 616 * loop, N10 = 0, N11 = 93 * loop;
	double X1, X2, X3, X4, X, Y, Z;
	long I;
	struct whet_row dummy[WHET_ROWS], *r = rows ? rows : dummy;

	T = vT;
	T1 = vT1;
	T2 = vT2;

	/* Module 1: simple identifiers (weight 0 in this version, kept for its printed line) */
	X1 = 1.0;
	X2 = -1.0;
	X3 = -1.0;
	X4 = -1.0;
	for (I = 1; I <= N1; I++) {
		X1 = (X1 + X2 + X3 - X4) * T;
		X2 = (X1 + X2 - X3 + X4) * T;
		X3 = (X1 - X2 + X3 + X4) * T;
		X4 = (-X1 + X2 + X3 + X4) * T;
	}
	row(&r[0], N1, N1, N1, X1, X2, X3, X4);

	/* Module 2: array elements */
	E1[1] = 1.0;
	E1[2] = -1.0;
	E1[3] = -1.0;
	E1[4] = -1.0;
	for (I = 1; I <= N2; I++) {
		E1[1] = (E1[1] + E1[2] + E1[3] - E1[4]) * T;
		E1[2] = (E1[1] + E1[2] - E1[3] + E1[4]) * T;
		E1[3] = (E1[1] - E1[2] + E1[3] + E1[4]) * T;
		E1[4] = (-E1[1] + E1[2] + E1[3] + E1[4]) * T;
	}
	row(&r[1], N2, N3, N2, E1[1], E1[2], E1[3], E1[4]);

	/* Module 3: array as parameter */
	for (I = 1; I <= N3; I++)
		PA(E1);
	row(&r[2], N3, N2, N2, E1[1], E1[2], E1[3], E1[4]);

	/* Module 4: conditional jumps */
	J = 1;
	for (I = 1; I <= N4; I++) {
		J = J == 1 ? 2 : 3;
		J = J > 2 ? 0 : 1;
		J = J < 1 ? 1 : 0;
	}
	row(&r[3], N4, J, J, X1, X2, X3, X4);

	/* Module 5 is omitted.  Module 6: integer arithmetic */
	J = 1;
	K = 2;
	L = 3;
	for (I = 1; I <= N6; I++) {
		J = J * (K - J) * (L - K);
		K = L * K - (L - J) * K;
		L = (L - K) * (K + J);
		E1[L - 1] = J + K + L;
		E1[K - 1] = J * K * L;
	}
	row(&r[4], N6, J, K, E1[1], E1[2], E1[3], E1[4]);

	/* Module 7: trigonometric functions */
	X = 0.5;
	Y = 0.5;
	for (I = 1; I <= N7; I++) {
		X = T * atan(T2 * sin(X) * cos(X) / (cos(X + Y) + cos(X - Y) - 1.0));
		Y = T * atan(T2 * sin(Y) * cos(Y) / (cos(X + Y) + cos(X - Y) - 1.0));
	}
	row(&r[5], N7, J, K, X, X, Y, Y);

	/* Module 8: procedure calls */
	X = 1.0;
	Y = 1.0;
	Z = 1.0;
	for (I = 1; I <= N8; I++)
		P3(X, Y, &Z);
	row(&r[6], N8, J, K, X, Y, Z, Z);

	/* Module 9: array references */
	J = 1;
	K = 2;
	L = 3;
	E1[1] = 1.0;
	E1[2] = 2.0;
	E1[3] = 3.0;
	for (I = 1; I <= N9; I++)
		P0();
	row(&r[7], N9, J, K, E1[1], E1[2], E1[3], E1[4]);

	/* Module 10: integer arithmetic (weight 0 in this version) */
	J = 2;
	K = 3;
	for (I = 1; I <= N10; I++) {
		J = J + K;
		K = J + K;
		J = K - J;
		K = K - J - J;
	}
	row(&r[8], N10, J, K, X1, X2, X3, X4);

	/* Module 11: standard functions */
	X = 0.75;
	for (I = 1; I <= N11; I++)
		X = sqrt(exp(log(X) / T1));
	row(&r[9], N11, J, K, X, X, X, X);

	return X + Z + Y + E1[1] + E1[4] + (double)(J + K + L);
}

/* The reference program's output with LOOP = 10, II = 1, as printed (%.4e) in the results
 * section distributed with netlib benchmark/whetstone.c (Painter's C version, "RESULTS ARE
 * ALLOWED TO VARY SOMEWHAT DUE TO DIFFERENCES IN FLOAT PRECISION"). */
const struct whet_row whet_reference[WHET_ROWS] = {
	{    0,   0,   0, { 1.0000e+00, -1.0000e+00, -1.0000e+00, -1.0000e+00 } },
	{  120, 140, 120, { -6.8342e-02, -4.6264e-01, -7.2972e-01, -1.1240e+00 } },
	{  140, 120, 120, { -5.5336e-02, -4.4744e-01, -7.1097e-01, -1.1031e+00 } },
	{ 3450,   1,   1, { 1.0000e+00, -1.0000e+00, -1.0000e+00, -1.0000e+00 } },
	{ 2100,   1,   2, { 6.0000e+00, 6.0000e+00, -7.1097e-01, -1.1031e+00 } },
	{  320,   1,   2, { 4.9041e-01, 4.9041e-01, 4.9039e-01, 4.9039e-01 } },
	{ 8990,   1,   2, { 1.0000e+00, 1.0000e+00, 9.9994e-01, 9.9994e-01 } },
	{ 6160,   1,   2, { 3.0000e+00, 2.0000e+00, 3.0000e+00, -1.1031e+00 } },
	{    0,   2,   3, { 1.0000e+00, -1.0000e+00, -1.0000e+00, -1.0000e+00 } },
	{  930,   2,   3, { 8.3467e-01, 8.3467e-01, 8.3467e-01, 8.3467e-01 } },
};

/* A value printed as %.4e is within half a unit of its 5th significant digit. */
static int same_printed(double got, double want)
{
	double unit = want != 0 ? pow(10.0, floor(log10(fabs(want))) - 4) : 1e-4;

	return fabs(got - want) <= 0.5 * unit * 1.0001;
}

int whet_compare(const struct whet_row *rows, char *why, size_t len)
{
	static const int module[WHET_ROWS] = { 1, 2, 3, 4, 6, 7, 8, 9, 10, 11 };

	for (int i = 0; i < WHET_ROWS; i++) {
		const struct whet_row *g = &rows[i], *w = &whet_reference[i];

		if (g->n != w->n || g->j != w->j || g->k != w->k) {
			snprintf(why, len, "module %d: N,J,K = %ld,%ld,%ld, want %ld,%ld,%ld",
				 module[i], g->n, g->j, g->k, w->n, w->j, w->k);
			return -1;
		}
		for (int c = 0; c < 4; c++)
			if (!same_printed(g->x[c], w->x[c])) {
				snprintf(why, len, "module %d value %d: %.6e, want %.4e",
					 module[i], c + 1, g->x[c], w->x[c]);
				return -1;
			}
	}
	return 0;
}

int whet_selfcheck(char *why, size_t len)
{
	struct whet_row rows[WHET_ROWS];

	whet_pass(10, rows);
	return whet_compare(rows, why, len);
}

static volatile long loop_mult = 1;

static int whet_setup(struct bench_ctx *ctx)
{
	char why[96];

	if (whet_selfcheck(why, sizeof why)) {
		bench_note(ctx, "whetstone self-check failed: %s", why);
		return -EPROTO;
	}
	return 0;
}

static int whet_run(struct bench_ctx *ctx, uint64_t iters)
{
	double acc = 0;

	for (uint64_t i = 0; i < iters; i++)
		acc += whet_pass(loop_mult, NULL);
	ctx->sink += (uint64_t)acc;
	return 0;
}

BENCH(whetstone_double, .title = "Double-Precision Whetstone",
	.group = REC_GROUP_INDEX,
	.unit = REC_UNIT_MWIPS,
	.kind = BENCH_RATE,
	.per_loop = REC_PER_LOOP_MWIPS,	/* one pass at LOOP=1 = 100,000 Whetstone instructions */
	.baseline = 55.0,
	.setup = whet_setup,
	.run = whet_run);
