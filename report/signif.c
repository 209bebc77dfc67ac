/* signif.c — see signif.h. */
#include "signif.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct tagged {
	double v;
	int from_a;
};

static int cmp_tagged(const void *a, const void *b)
{
	return qsort_cmp_dbl(&((const struct tagged *)a)->v, &((const struct tagged *)b)->v);
}

/* Exact two-sided p of the rank sum: the share of all C(n, na) ways to pick na of the n
 * doubled mid-ranks r2 whose sum is at least as far from its mean as the observed s2. The
 * counts by (picked, sum) come from a knapsack-style recursion over the ranks, in doubles
 * (C(100, 50) ~ 1e29 fits; the ratio keeps full relative precision). NAN: no memory. */
static double exact_p(const unsigned *r2, size_t n, size_t na, unsigned long s2)
{
	unsigned long total = 0;
	for (size_t i = 0; i < n; i++)
		total += r2[i];
	size_t width = total + 1;
	double *cnt = calloc((na + 1) * width, sizeof *cnt);
	if (!cnt)
		return NAN;
	cnt[0] = 1;
	unsigned long reach = 0;
	for (size_t i = 0; i < n; i++) {
		reach += r2[i];
		for (size_t k = (i + 1 < na ? i + 1 : na); k >= 1; k--)
			for (unsigned long s = reach; s >= r2[i]; s--)
				cnt[k * width + s] += cnt[(k - 1) * width + s - r2[i]];
	}
	double mean2 = (double)na * (double)(n + 1), dev = fabs((double)s2 - mean2);
	double far = 0, all = 0;
	for (unsigned long s = 0; s <= total; s++) {
		all += cnt[na * width + s];
		if (fabs((double)s - mean2) >= dev - 1e-9)
			far += cnt[na * width + s];
	}
	free(cnt);
	return far / all;
}

double sig_mwu_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	struct tagged *t;
	unsigned *r2;

	if (na < SIG_MIN_N || nb < SIG_MIN_N)
		return NAN;
	t = malloc(n * sizeof *t);
	r2 = malloc(n * sizeof *r2);
	if (!t || !r2) {
		free(t);
		free(r2);
		return NAN;
	}
	for (size_t i = 0; i < na; i++)
		t[i] = (struct tagged){a[i], 1};
	for (size_t i = 0; i < nb; i++)
		t[na + i] = (struct tagged){b[i], 0};
	qsort(t, n, sizeof *t, cmp_tagged);
	/* Doubled mid-ranks (integers); a's rank sum; the tie term sum(g^3 - g). */
	unsigned long s2 = 0;
	double ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && t[j].v == t[i].v)
			j++;
		double g = (double)(j - i);
		for (size_t k = i; k < j; k++) {
			r2[k] = (unsigned)(i + 1 + j);	/* 2 x (i+1 + j) / 2 */
			s2 += t[k].from_a ? r2[k] : 0;
		}
		ties += g * g * g - g;
		i = j;
	}
	free(t);
	double p;
	if (n <= SIG_EXACT_MAX_N) {
		p = exact_p(r2, n, na, s2);
	} else {
		/* U's normal approximation with tie and continuity corrections. */
		double ua = (double)s2 / 2 - (double)na * (double)(na + 1) / 2;
		double mean = (double)na * (double)nb / 2;
		double var = (double)na * (double)nb / 12 *
			     ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
		double z = var > 0 ? (fabs(ua - mean) - 0.5) / sqrt(var) : 0;
		p = erfc((z > 0 ? z : 0) / sqrt(2));
	}
	free(r2);
	return p > 1 ? 1 : p;
}

/* xorshift64*: the bootstrap's fixed-seed generator (Vigna, "An experimental exploration of
 * Marsaglia's xorshift generators", 2016). */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static void resample(const double *v, size_t n, double *out, uint64_t *s)
{
	for (size_t i = 0; i < n; i++)
		out[i] = v[next(s) % n];
}

int sig_ratio_ci(const double *a, size_t na, const double *b, size_t nb, int higher,
		 double *lo, double *hi)
{
	double *ra = malloc(na * sizeof *ra), *rb = malloc(nb * sizeof *rb);
	double *r = malloc(SIG_BOOT * sizeof *r);
	uint64_t s = SIG_SEED;
	int rc = -1;

	*lo = *hi = NAN;
	if (!ra || !rb || !r || na < SIG_MIN_N || nb < SIG_MIN_N || higher < 0)
		goto out;
	for (size_t i = 0; i < na; i++)
		if (!(a[i] > 0))
			goto out;
	for (size_t i = 0; i < nb; i++)
		if (!(b[i] > 0))
			goto out;
	for (int k = 0; k < SIG_BOOT; k++) {
		struct summary sa, sb;
		resample(a, na, ra, &s);
		resample(b, nb, rb, &s);
		if (summarize(ra, na, higher, &sa) || summarize(rb, nb, higher, &sb))
			goto out;
		r[k] = perf_ratio(sa.unixbench, sb.unixbench, higher);
	}
	qsort(r, SIG_BOOT, sizeof *r, qsort_cmp_dbl);
	*lo = r[(size_t)(0.025 * SIG_BOOT)];
	*hi = r[(size_t)(0.975 * SIG_BOOT) - 1];
	rc = 0;
out:
	free(ra);
	free(rb);
	free(r);
	return rc;
}
