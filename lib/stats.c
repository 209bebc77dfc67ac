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

static double median_of_sorted(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stats_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof *v, cmp_dbl);
	return median_of_sorted(v, n);
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
	out->median = median_of_sorted(v, n);
	drop = n / 3;
	out->unixbench = higher_is_better ? geomean(v + drop, n - drop) : geomean(v, n - drop);
	median_ci_ranks(n, &lo, &hi);
	out->ci_lo = v[lo - 1];
	out->ci_hi = v[hi - 1];
	out->ci_half_pct = (out->ci_hi - out->ci_lo) / 2 / out->median * 100;
	free(v);
	return 0;
}

double sample_mad(const double *samples, size_t n, double *median)
{
	double *v, med, mad;

	*median = 0;
	if (!n || !(v = malloc(n * sizeof *v)))
		return -1;
	memcpy(v, samples, n * sizeof *v);
	qsort(v, n, sizeof *v, cmp_dbl);
	med = median_of_sorted(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(v[i] - med);
	qsort(v, n, sizeof *v, cmp_dbl);
	mad = median_of_sorted(v, n);
	free(v);
	*median = med;
	return mad;
}

size_t samples_needed_of(double mad, double med, size_t n, double target_pct)
{
	double need;

	if (!(target_pct > 0) || n < 2 || !(med > 0) || !(mad >= 0))
		return n;
	need = 1.96 * 1.2533141373155003 /* sqrt(pi/2) */ * 1.4826 * mad / med * 100 / target_pct;
	need = ceil(need * need);
	if (!(need < STATS_SAMPLES_NEEDED_MAX))
		return STATS_SAMPLES_NEEDED_MAX;
	return need > (double)n ? (size_t)need : n;
}

size_t samples_needed(const double *samples, size_t n, double target_pct)
{
	double med, mad;

	if (!(target_pct > 0) || n < 2)
		return n;
	mad = sample_mad(samples, n, &med);
	return samples_needed_of(mad, med, n, target_pct);
}

double window_loops(const struct copy_span *s, uint64_t t_stop)
{
	double before = (double)(s->loops - s->last_batch);

	if (t_stop >= s->t_end || s->t_end <= s->t_last0)
		return (double)s->loops;
	if (t_stop <= s->t_last0)
		return before;
	return before + (double)s->last_batch * (double)(t_stop - s->t_last0) /
				(double)(s->t_end - s->t_last0);
}

double common_window_value(const double *wl, int copies, uint64_t window_ns, int rate,
			   double per_loop)
{
	double v = 0, sec = (double)window_ns / 1e9;

	if (!window_ns || copies < 1)
		return 0;
	for (int c = 0; c < copies; c++) {
		if (rate)
			v += wl[c] * per_loop / sec;
		else if (wl[c] > 0)
			v += (double)window_ns / wl[c] / per_loop / copies;
		else
			return 0;
	}
	return v;
}

double whole_of_values(const double *v, size_t n, int higher_is_better)
{
	double s = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return 0;
		s += higher_is_better ? v[i] : 1 / v[i];
	}
	return !n ? 0 : higher_is_better ? s / (double)n : (double)n / s;
}
