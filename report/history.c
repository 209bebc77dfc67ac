/* history.c — trends' change points and CI's regression verdicts (see history.h). */
#include "history.h"
#include "noisefloor.h"
#include "signif.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;
	return x < y ? -1 : x > y;
}

/* Pettitt's split of v[0..n-1]: the t (1..n-1, the first index of the second part) with the
 * largest |U_t| into *at, its p-value returned (1 when n < 2). rank, r: scratch of n. */
static double pettitt(const double *v, size_t n, struct ranked *r, double *rank, size_t *at)
{
	*at = 0;
	if (n < 2)
		return 1;
	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked){v[i], i};
	qsort(r, n, sizeof *r, cmp_ranked);
	for (size_t i = 0; i < n;) {	/* mid-ranks for ties */
		size_t j = i;
		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		for (size_t k = i; k <= j; k++)
			rank[r[k].i] = (double)(i + j) / 2 + 1;
		i = j + 1;
	}
	double sum = 0, best = -1, nn = (double)n;
	for (size_t t = 1; t < n; t++) {
		sum += rank[t - 1];
		double u = fabs(2 * sum - (double)t * (nn + 1));
		if (u > best) {
			best = u;
			*at = t;
		}
	}
	double p = 2 * exp(-6 * best * best / (nn * nn * nn + nn * nn));
	return p > 1 ? 1 : p;
}

struct seg_ctx {
	const double *v;
	double floor_pct;
	unsigned char *change;
	double *p;
	struct ranked *r;
	double *rank;
	long found;
};

/* Binary segmentation of v[lo..hi-1]. */
static void segment(struct seg_ctx *x, size_t lo, size_t hi)
{
	size_t n = hi - lo, at;

	if (n < 2 * HIST_MIN_SEG)
		return;
	double p = pettitt(x->v + lo, n, x->r, x->rank, &at);
	if (!(p < SIG_ALPHA) || at < HIST_MIN_SEG || n - at < HIST_MIN_SEG)
		return;
	double a = median_of(x->v + lo, at), b = median_of(x->v + lo + at, n - at);
	if (!noise_floor_beyond(b / a, x->floor_pct))
		return;
	x->change[lo + at] = 1;
	x->p[lo + at] = p;
	x->found++;
	segment(x, lo, lo + at);
	segment(x, lo + at, hi);
}

/* Binary segmentation places a change where the whole segment's |U_t| peaks, and with two
 * steps in it that can be a few runs off the true one (Pettitt's statistic favours the middle
 * of what it sees). So each change point is placed again between its neighbours (the runs
 * from the change before it to the one after), as often as one moves (at most a few passes),
 * and its p is that split's. */
static void refine(struct seg_ctx *x, size_t n)
{
	for (int pass = 0; pass < 8; pass++) {
		int moved = 0;
		for (size_t c = 1; c < n; c++) {
			if (!x->change[c])
				continue;
			size_t lo = c - 1, hi = c + 1, at;
			while (lo > 0 && !x->change[lo])
				lo--;
			while (hi < n && !x->change[hi])
				hi++;
			double p = pettitt(x->v + lo, hi - lo, x->r, x->rank, &at);
			if (at < HIST_MIN_SEG || hi - lo - at < HIST_MIN_SEG)
				continue;
			x->p[c] = p;
			if (lo + at != c && !x->change[lo + at]) {
				x->change[c] = 0;
				x->p[c] = NAN;
				x->change[lo + at] = 1;
				x->p[lo + at] = p;
				moved = 1;
			}
		}
		if (!moved)
			break;
	}
}

long hist_changes(const double *v, size_t n, double floor_pct, unsigned char *change,
		  double *level, double *p)
{
	struct seg_ctx x = {v, floor_pct, change, p, malloc((n + 1) * sizeof *x.r),
			    malloc((n + 1) * sizeof *x.rank), 0};

	if (!x.r || !x.rank) {
		free(x.r);
		free(x.rank);
		return -1;
	}
	memset(change, 0, n);
	for (size_t i = 0; i < n; i++)
		p[i] = NAN;
	segment(&x, 0, n);
	refine(&x, n);
	for (size_t i = 0; i < n;) {	/* each segment's median as its points' level */
		size_t j = i + 1;
		while (j < n && !change[j])
			j++;
		double m = median_of(v + i, j - i);
		for (size_t k = i; k < j; k++)
			level[k] = m;
		i = j;
	}
	free(x.r);
	free(x.rank);
	return x.found;
}

/* The series of t->pts (contiguous runs of one test, copies and machine). */
static int split_series(struct hist_trend *t)
{
	for (size_t i = 0; i < t->npts;) {
		const struct store_point *q = &t->pts[i];
		size_t j = i + 1;
		while (j < t->npts && t->pts[j].copies == q->copies && !strcmp(t->pts[j].test, q->test)
		       && !strcmp(t->pts[j].machine, q->machine))
			j++;
		struct hist_series *ns = realloc(t->s, (t->ns + 1) * sizeof *ns);
		if (!ns)
			return -1;
		t->s = ns;
		const char *from;
		t->s[t->ns++] = (struct hist_series){q->test, q->machine, q->unit, q->copies,
						     q->higher, i, j - i, 0,
						     noise_floor_pct(q->test, q->copies, &from)};
		i = j;
	}
	return 0;
}

int hist_trend_build(struct store_point *pts, size_t n, struct hist_trend *t)
{
	memset(t, 0, sizeof *t);
	t->pts = pts;
	t->npts = n;
	t->change = calloc(n + 1, 1);
	t->level = calloc(n + 1, sizeof *t->level);
	t->p = calloc(n + 1, sizeof *t->p);
	double *v = calloc(n + 1, sizeof *v);
	if (!t->change || !t->level || !t->p || !v || split_series(t)) {
		free(v);
		return -1;
	}
	for (size_t k = 0; k < t->ns; k++) {
		struct hist_series *s = &t->s[k];
		for (size_t i = 0; i < s->n; i++)
			v[i] = t->pts[s->first + i].value;
		long c = hist_changes(v, s->n, s->floor_pct, t->change + s->first,
				      t->level + s->first, t->p + s->first);
		if (c < 0) {
			free(v);
			return -1;
		}
		s->changes = (size_t)c;
		t->changes += (size_t)c;
	}
	free(v);
	return 0;
}

void hist_trend_free(struct hist_trend *t)
{
	store_points_free(t->pts, t->npts);
	free(t->change);
	free(t->level);
	free(t->p);
	free(t->s);
	memset(t, 0, sizeof *t);
}

/* The whole-run values (model.h's whole, > 0, finite) of test/copies over the n models into v;
 * returns how many. */
static size_t values_of(const struct model *const *m, size_t n, const char *test, int copies,
			double *v)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct mtest *t = model_find(m[i], test, copies);
		if (t && t->has_result && t->whole > 0 && isfinite(t->whole))
			v[k++] = t->whole;
	}
	return k;
}

static double log_mean(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += log(v[i]) / (double)n;
	return s;
}

/* Verdict of row r of h->c (column 1 against column 0) into d. a, b: scratch. */
static void verdict_row(struct hist_check *h, const struct cmp_row *r,
			const struct model *const *base, size_t nbase,
			const struct model *const *cand, size_t ncand, double *a, double *b,
			struct hist_verdict *d)
{
	const struct cmp_cell *cl = &r->cell[1];
	const char *from;
	size_t na = values_of(base, nbase, r->test, r->copies, a);
	size_t nb = values_of(cand, ncand, r->test, r->copies, b);

	*d = (struct hist_verdict){r->test, r->unit, r->copies, r->higher, NAN, NAN, NAN, NAN,
				   cmp_min_effect(r->test, r->copies, &from), na, nb,
				   "too-few-runs", 0, 0, {.p = NAN, .answer = SIG_ANS_NONE}};
	if (!nb)
		return;
	if (!na) {
		d->method = "no-baseline";
		return;
	}
	if (h->c.replicated && cmp_is_verdict(cl)) {	/* compare.h's own verdict */
		d->method = cl->method;
		d->base = r->cell[0].value;
		d->value = cl->value;
		d->rep = cl->rep;
		d->na = cl->runs_a;
		d->nb = cl->runs_b;
	} else if (na >= SIG_REP_MIN && nb < SIG_REP_MIN && r->higher >= 0 &&
		   sig_prediction(a, na, b, nb, r->higher, &d->rep) == 0) {
		d->method = "prediction-t";
		d->base = exp(log_mean(a, na));
		d->value = exp(log_mean(b, nb));
	} else
		return;
	d->ratio = d->rep.ratio;
	d->p = d->rep.p;
}

/* The answers of h's verdicts (compare's rule, signif.h's sig_answer()): the Benjamini-Hochberg
 * q over every test check judged, each against its min-effect (cmp_min_effect()), and the
 * counts. 0, or -1 out of memory. */
static int answer_verdicts(struct hist_check *h)
{
	struct sig_rep **r = malloc((h->nv + 1) * sizeof *r);
	double *me = malloc((h->nv + 1) * sizeof *me);

	for (size_t i = 0; r && me && i < h->nv; i++) {
		r[i] = isfinite(h->v[i].p) ? &h->v[i].rep : NULL;
		me[i] = h->v[i].floor_pct;
	}
	if (!r || !me || sig_answer_family(r, me, h->nv)) {
		free(r);
		free(me);
		return -1;
	}
	free(r);
	free(me);
	for (size_t i = 0; i < h->nv; i++) {
		struct hist_verdict *d = &h->v[i];
		d->regressed = d->rep.answer == SIG_ANS_DIFFERENT && d->ratio < 1;
		d->improved = d->rep.answer == SIG_ANS_DIFFERENT && d->ratio > 1;
		h->regressed += (size_t)d->regressed;
		h->improved += (size_t)d->improved;
		h->equivalent += d->rep.answer == SIG_ANS_EQUIVALENT;
		h->undecided += d->rep.answer == SIG_ANS_UNDECIDED;
		h->none += d->rep.answer == SIG_ANS_NONE;
	}
	return 0;
}

int hist_check_build(const struct model *const *base, size_t nbase,
		     const struct model *const *cand, size_t ncand, struct hist_check *h)
{
	static char *labels[] = {"baseline", "candidate"};
	const struct model *const *side[2] = {base, cand};
	size_t nside[2] = {nbase, ncand};

	memset(h, 0, sizeof *h);
	h->pair[0] = base[0];
	h->pair[1] = cand[0];
	if (cmp_build(h->pair, 2, labels, &h->c))
		return -1;
	if (nbase >= SIG_REP_MIN && ncand >= SIG_REP_MIN &&
	    cmp_replicates(&h->c, (const struct model *const *const *)side, nside))
		return -1;
	double *a = calloc(nbase + ncand + 2, sizeof *a), *b = a ? a + nbase + 1 : NULL;
	if (!a || !(h->v = calloc(h->c.nrows + 1, sizeof *h->v))) {
		free(a);
		return -1;
	}
	for (size_t i = 0; i < h->c.nrows; i++) {
		if (!h->c.rows[i].cell[1].t)	/* the candidates lack the test */
			continue;
		struct hist_verdict *d = &h->v[h->nv++];
		verdict_row(h, &h->c.rows[i], base, nbase, cand, ncand, a, b, d);
	}
	free(a);
	return answer_verdicts(h);
}

void hist_check_free(struct hist_check *h)
{
	cmp_free(&h->c);
	free(h->v);
	memset(h, 0, sizeof *h);
}
