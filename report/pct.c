/* pct.c — see pct.h. */
#include "pct.h"
#include "util.h"

#include <math.h>

/* Labels of lib/latency.h's quantiles, in its order (p50_ns -> "p50"). */
static const char *const label[LAT_NQ] = {"p50", "p99", "p99.9", "max"};

const char *pct_label(int q)
{
	return label[q];
}

int pct_has(const struct cmp_row *r, size_t j)
{
	return r->cell[j].has_lat;
}

double pct_value(const struct cmp_row *r, size_t j, int q)
{
	return pct_has(r, j) ? r->cell[j].lat[q] : NAN;
}

double pct_ratio(const struct cmp_row *r, size_t j, int q)
{
	if (!pct_has(r, 0) || !pct_has(r, j))
		return NAN;
	return perf_ratio(pct_value(r, 0, q), pct_value(r, j, q), 0);
}

const char *pct_what(const struct cmp *c)
{
	for (size_t j = 0; c->side_runs && j < c->nruns; j++)
		if (c->side_runs[j] > 1)
			return "a side of several runs: p50, p99, p99.9 the geometric mean of its "
			       "runs', max the largest";
	return "";
}

int pct_runs_with(const struct cmp_row *r, size_t nruns)
{
	int n = 0;
	for (size_t j = 0; j < nruns; j++)
		n += pct_has(r, j);
	return n;
}

void pct_each(const struct mtest *t, void (*fn)(void *arg, const char *key, double v), void *arg)
{
	for (int q = 0; t->has_lat && q < LAT_NQ; q++)
		if (isfinite(t->lat[q]))
			fn(arg, lat_keys[q], t->lat[q]);
}

int pct_comparable(const struct cmp *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (pct_runs_with(&c->rows[i], c->nruns) >= 2)
			return 1;
	return 0;
}
