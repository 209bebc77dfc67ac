/* stats.c — see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double geomean(const double *v, size_t n)
{
	double s = 0;

	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return 0;
		s += log(v[i]);
	}
	return exp(s / (double)n);
}

void median_ci_ranks(size_t n, size_t *lo, size_t *hi)
{
	/* lo = floor(n/2 - 1.96*sqrt(n)/2), hi = ceil(1 + n/2 + 1.96*sqrt(n)/2), clamped. */
	double half = 1.959964 * sqrt((double)n) / 2;
	double l = floor((double)n / 2 - half), h = ceil(1 + (double)n / 2 + half);

	*lo = l < 1 ? 1 : (size_t)l;
	*hi = h > (double)n ? n : (size_t)h;
}

int summarize(const double *samples, size_t n, int higher_is_better, struct summary *out)
{
	double *v;
	size_t drop, lo, hi;

	memset(out, 0, sizeof *out);
	if (!n)
		return -1;
	v = malloc(n * sizeof *v);
	if (!v)
		return -1;
	memcpy(v, samples, n * sizeof *v);
	qsort(v, n, sizeof *v, cmp_dbl);
	if (!(v[0] > 0)) {
		free(v);
		return -1;
	}
	out->n = n;
	out->min = v[0];
	out->max = v[n - 1];
	out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	drop = n / 3;
	out->unixbench = higher_is_better ? geomean(v + drop, n - drop) : geomean(v, n - drop);
	median_ci_ranks(n, &lo, &hi);
	out->ci_lo = v[lo - 1];
	out->ci_hi = v[hi - 1];
	out->ci_half_pct = (out->ci_hi - out->ci_lo) / 2 / out->median * 100;
	free(v);
	return 0;
}
