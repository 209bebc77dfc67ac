/* signif.c — see signif.h. */
#include "signif.h"
#include "noisefloor.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
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
		resample(a, na, ra, &s);
		resample(b, nb, rb, &s);
		r[k] = perf_ratio(whole_of_values(ra, na, higher), whole_of_values(rb, nb, higher),
				  higher);
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

/* ---- Student's t: replicates (runs) as the unit ---- */

/* The continued fraction of the incomplete beta function, evaluated with the modified Lentz
 * method (the method of Numerical Recipes, 3rd ed., sec. 6.4, "betacf"; written anew here):
 * converges fast for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2));	/* even step */
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));	/* odd step */
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double sig_betai(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	/* The fraction converges for x below (a+1)/(a+b+2); above, the symmetry
	 * I_x(a, b) = 1 - I_{1-x}(b, a). */
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * beta_cf(a, b, x) / a;
	return 1 - exp(lbt) * beta_cf(b, a, 1 - x) / b;
}

double sig_t_p2(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	/* P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
	return sig_betai(df / 2, 0.5, df / (df + t * t));
}

double sig_t_crit(double p2, double df)
{
	if (!(df > 0) || !(p2 > 0) || !(p2 < 1))
		return NAN;
	double lo = 0, hi = 1;
	while (sig_t_p2(hi, df) > p2 && hi < 1e12)	/* p falls as t grows */
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (sig_t_p2(mid, df) > p2)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Mean and sample variance of log(v[0..n-1]); -1 when a value is not > 0 and finite. */
static int log_moments(const double *v, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(v[i]))
			return -1;
		s += log(v[i]);
	}
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = log(v[i]) - *mean;
		ss += d * d;
	}
	*var = n > 1 ? ss / (double)(n - 1) : NAN;
	return 0;
}

/* From the mean difference d of log(B) - log(A), its standard error se and df: p, the ratio
 * (by direction) and its 95% interval into *r. */
static void t_verdict(double d, double se, double df, int higher, struct sig_rep *r)
{
	r->df = df;
	r->d = d;
	r->se = se;
	r->higher = higher;
	r->q = r->eq_lo = r->eq_hi = r->min_effect_pct = NAN;
	r->answer = SIG_ANS_NONE;
	r->runs_needed = 0;
	if (se > 0) {
		r->t = d / se;
		r->p = sig_t_p2(r->t, df);
		double q = sig_t_crit(0.05, df);
		double lo = d - q * se, hi = d + q * se;
		/* > 1: B better. higher is better: B/A = exp(d); lower: A/B = exp(-d). */
		r->lo = higher ? exp(lo) : exp(-hi);
		r->hi = higher ? exp(hi) : exp(-lo);
	} else {	/* no spread at all: any difference is certain, none is none */
		r->t = d == 0 ? 0 : d > 0 ? INFINITY : -INFINITY;
		r->p = d == 0 ? 1 : 0;
		r->lo = r->hi = higher ? exp(d) : exp(-d);
	}
	r->ratio = higher ? exp(d) : exp(-d);
}

int sig_welch(const double *a, size_t na, const double *b, size_t nb, int higher,
	      struct sig_rep *r)
{
	double ma, va, mb, vb;

	r->p = r->t = r->df = r->ratio = r->lo = r->hi = NAN;
	r->na = na;
	r->nb = nb;
	r->paired = 0;
	r->design = SIG_WELCH;
	r->answer = SIG_ANS_NONE;
	if (na < SIG_REP_MIN || nb < SIG_REP_MIN || higher < 0 || log_moments(a, na, &ma, &va) ||
	    log_moments(b, nb, &mb, &vb))
		return -1;
	r->sd_a = sqrt(va);
	r->sd_b = sqrt(vb);
	double sa = va / (double)na, sb = vb / (double)nb, se2 = sa + sb;
	/* Welch-Satterthwaite degrees of freedom (Welch, Biometrika 34, 1947) */
	double df = se2 > 0 ? se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1))
			    : (double)(na + nb - 2);
	t_verdict(mb - ma, sqrt(se2), df, higher, r);
	return 0;
}

int sig_paired(const double *a, const double *b, size_t n, int higher, struct sig_rep *r)
{
	r->p = r->t = r->df = r->ratio = r->lo = r->hi = NAN;
	r->na = r->nb = n;
	r->paired = 1;
	r->design = SIG_PAIRED;
	r->answer = SIG_ANS_NONE;
	if (n < SIG_REP_MIN || higher < 0)
		return -1;
	double *d = malloc(n * sizeof *d);
	if (!d)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) || !isfinite(b[i])) {
			free(d);
			return -1;
		}
		d[i] = b[i] / a[i];	/* the round's ratio; log_moments takes its log */
	}
	double md, vd;
	int bad = log_moments(d, n, &md, &vd);
	free(d);
	if (bad)
		return -1;
	r->sd_a = sqrt(vd);
	r->sd_b = NAN;
	t_verdict(md, sqrt(vd / (double)n), (double)(n - 1), higher, r);
	return 0;
}

/* The pairs of a and b with one round each side (rounds unique per side) into pa, pb;
 * returns their count, 0 when some run lacks a round or a round repeats on a side. */
static size_t pair_rounds(const double *a, const long *ra, size_t na, const double *b,
			  const long *rb, size_t nb, double *pa, double *pb)
{
	size_t k = 0;

	if (!ra || !rb)
		return 0;
	for (size_t i = 0; i < na; i++)
		for (size_t x = 0; x < i; x++)
			if (ra[i] < 0 || ra[i] == ra[x])
				return 0;
	for (size_t i = 0; i < nb; i++)
		for (size_t x = 0; x < i; x++)
			if (rb[i] < 0 || rb[i] == rb[x])
				return 0;
	if ((na && ra[0] < 0) || (nb && rb[0] < 0))
		return 0;
	for (size_t i = 0; i < na; i++)
		for (size_t x = 0; x < nb; x++)
			if (ra[i] == rb[x]) {
				pa[k] = a[i];
				pb[k++] = b[x];
			}
	return k;
}

int sig_replicates(const double *a, const long *ra, size_t na, const double *b, const long *rb,
		   size_t nb, int higher, double *pa, double *pb, struct sig_rep *r)
{
	size_t np = pair_rounds(a, ra, na, b, rb, nb, pa, pb);

	return np >= SIG_REP_MIN ? sig_paired(pa, pb, np, higher, r)
				 : sig_welch(a, na, b, nb, higher, r);
}

int sig_different(double p, double ratio, double floor_pct)
{
	return p < SIG_ALPHA && noise_floor_beyond(ratio, floor_pct);
}

int sig_prediction(const double *a, size_t na, const double *b, size_t nb, int higher,
		   struct sig_rep *r)
{
	double ma, va, mb, vb;

	r->p = r->t = r->df = r->ratio = r->lo = r->hi = NAN;
	r->na = na;
	r->nb = nb;
	r->paired = 0;
	r->design = SIG_PREDICTION;
	r->answer = SIG_ANS_NONE;
	if (na < SIG_REP_MIN || !nb || higher < 0 || log_moments(a, na, &ma, &va) ||
	    log_moments(b, nb, &mb, &vb))
		return -1;
	r->sd_a = sqrt(va);
	r->sd_b = NAN;
	t_verdict(mb - ma, r->sd_a * sqrt(1 / (double)na + 1 / (double)nb), (double)(na - 1),
		  higher, r);
	return 0;
}

struct tagged_p {
	double p;
	size_t i;
};

static int cmp_p(const void *x, const void *y)
{
	double a = ((const struct tagged_p *)x)->p, b = ((const struct tagged_p *)y)->p;
	return (a > b) - (a < b);
}

int sig_bh(const double *p, size_t n, double *q)
{
	struct tagged_p *s = malloc((n + 1) * sizeof *s);
	size_t m = 0;

	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (isfinite(p[i]))
			s[m++] = (struct tagged_p){p[i], i};
	}
	qsort(s, m, sizeof *s, cmp_p);
	double run = 1;	/* the running minimum from the largest p down */
	for (size_t k = m; k-- > 0;) {
		double v = s[k].p * (double)m / (double)(k + 1);
		run = v < run ? v : run;
		q[s[k].i] = run;
	}
	free(s);
	return 0;
}

/* The standard error and df of r's design at n runs a side (paired: rounds; prediction: n
 * candidate runs beside the same baseline). */
static void se_at(const struct sig_rep *r, double n, double *se, double *df)
{
	if (r->design == SIG_PAIRED) {
		*se = r->sd_a / sqrt(n);
		*df = n - 1;
	} else if (r->design == SIG_PREDICTION) {
		*se = r->sd_a * sqrt(1 / (double)r->na + 1 / n);
		*df = (double)r->na - 1;
	} else {	/* Welch with n a side: the Welch-Satterthwaite df */
		double va = r->sd_a * r->sd_a / n, vb = r->sd_b * r->sd_b / n;
		*se = sqrt(va + vb);
		*df = va + vb > 0 ? (va + vb) * (va + vb) / ((va * va + vb * vb) / (n - 1))
				  : 2 * n - 2;
	}
}

/* Runs a side at which the interval (95% two-sided for "different", 90% for "equivalent")
 * would clear margin (log units, > 0) at r's observed spread: the smallest n above r's own
 * with t_crit(df(n)) se(n) < margin; 0 beyond SIG_RUNS_MAX. The same sizing Kalibera & Jones
 * (2013, sec. 4) use: the interval's half-width as a function of the repetitions. */
static size_t runs_to_clear(const struct sig_rep *r, double margin, double p2)
{
	size_t n0 = r->nb > r->na || r->design == SIG_PREDICTION ? r->nb : r->na;

	if (!(margin > 0))
		return 0;
	for (size_t n = n0 + 1; n <= SIG_RUNS_MAX; n++) {
		double se, df;
		se_at(r, (double)n, &se, &df);
		if (!(se > 0) || sig_t_crit(p2, df) * se < margin)
			return n;
	}
	return 0;
}

void sig_answer(struct sig_rep *r, double q, double min_effect_pct)
{
	r->q = q;
	r->min_effect_pct = min_effect_pct;
	r->runs_needed = 0;
	r->eq_lo = r->eq_hi = NAN;
	if (!isfinite(r->p) || !isfinite(r->d)) {
		r->answer = SIG_ANS_NONE;
		return;
	}
	int higher = r->higher;
	double thr = log1p(min_effect_pct / 100);
	double t95 = r->se > 0 ? sig_t_crit(0.05, r->df) : 0;
	double t90 = r->se > 0 ? sig_t_crit(0.10, r->df) : 0;
	double lo95 = r->d - t95 * r->se, hi95 = r->d + t95 * r->se;
	double lo90 = r->d - t90 * r->se, hi90 = r->d + t90 * r->se;

	r->eq_lo = higher ? exp(lo90) : exp(-hi90);
	r->eq_hi = higher ? exp(hi90) : exp(-lo90);
	if (q < SIG_FDR && (lo95 > thr || hi95 < -thr))
		r->answer = SIG_ANS_DIFFERENT;
	else if (lo90 > -thr && hi90 < thr)
		r->answer = SIG_ANS_EQUIVALENT;
	else {
		r->answer = SIG_ANS_UNDECIDED;
		double ad = fabs(r->d);
		r->runs_needed = ad > thr ? runs_to_clear(r, ad - thr, 0.05)
					  : runs_to_clear(r, thr - ad, 0.10);
	}
}

const char *sig_answer_word(enum sig_answer a)
{
	return a == SIG_ANS_DIFFERENT ? "different" : a == SIG_ANS_EQUIVALENT ? "equivalent"
		: a == SIG_ANS_UNDECIDED ? "undecided" : "none";
}

char sig_answer_mark(enum sig_answer a)
{
	return a == SIG_ANS_DIFFERENT ? '*' : a == SIG_ANS_EQUIVALENT ? '=' :
		a == SIG_ANS_UNDECIDED ? '~' : '?';
}

/* How far a ratio is from 1 as a factor >= 1 (NaN for none). */
static double factor(double ratio)
{
	return ratio < 1 ? 1 / ratio : ratio;
}

/* A performance ratio in words into buf: "no change" at 1; else "x.x% slower" (B does 1/ratio
 * the time: (1/ratio - 1) x 100% slower) or "x.x% faster", or with as_factor the factor,
 * "30.3x slower" / "2.50x faster" ("2894.8% slower" says the same less readably). */
static const char *pct_words(double ratio, int as_factor, char *buf, size_t cap)
{
	double f = factor(ratio);
	const char *way = ratio < 1 ? "slower" : "faster";

	if (ratio == 1)
		snprintf(buf, cap, "no change");
	else if (!as_factor)
		snprintf(buf, cap, "%.1f%% %s", (f - 1) * 100, way);
	else
		snprintf(buf, cap, f < 10 ? "%.2fx %s" : f < 100 ? "%.1fx %s" : "%.0fx %s", f, way);
	return buf;
}

const char *sig_answer_text(const struct sig_rep *r, char *buf, size_t cap)
{
	char e[32], l[32], h[32];
	int eq = r->answer == SIG_ANS_EQUIVALENT;
	double lo = eq ? r->eq_lo : r->lo, hi = eq ? r->eq_hi : r->hi;

	if (r->answer == SIG_ANS_NONE) {
		snprintf(buf, cap, "none: no estimate");
		return buf;
	}
	char tail[64];
	if (r->answer == SIG_ANS_EQUIVALENT)
		snprintf(tail, sizeof tail, "inside +-%g%%, the min-effect", r->min_effect_pct);
	else
		snprintf(tail, sizeof tail, "q %.2g, %s %g%%", r->q, r->answer == SIG_ANS_DIFFERENT
			 ? "beyond the min-effect" : "min-effect", r->min_effect_pct);
	/* One form for the sentence: factors when the estimate or a bound is 2x or more away. */
	int fx = factor(r->ratio) >= 2 || factor(lo) >= 2 || factor(hi) >= 2;
	int n = snprintf(buf, cap, "%s: %s (%d%% CI %s to %s), %s", sig_answer_word(r->answer),
			 pct_words(r->ratio, fx, e, sizeof e), eq ? 90 : 95,
			 pct_words(lo, fx, l, sizeof l), pct_words(hi, fx, h, sizeof h), tail);
	if (r->answer == SIG_ANS_UNDECIDED && n > 0 && (size_t)n < cap) {
		if (r->runs_needed)
			snprintf(buf + n, cap - (size_t)n, "; ~%zu %s would decide", r->runs_needed,
				 r->design == SIG_PAIRED ? "rounds" : r->design == SIG_PREDICTION
				 ? "candidate runs" : "runs a side");
		else
			snprintf(buf + n, cap - (size_t)n, "; more than %d runs a side would be "
				 "needed", SIG_RUNS_MAX);
	}
	return buf;
}

const char *sig_rule(void)
{
	static char rule[320];

	if (!rule[0])
		snprintf(rule, sizeof rule, "different: Benjamini-Hochberg q < %g over the verdicts "
			 "compared and the ratio's 95%% CI beyond the min-effect; equivalent: its 90%% "
			 "CI inside +-the min-effect (two one-sided tests); else undecided, with the "
			 "runs that would decide", SIG_FDR);
	return rule;
}

const char *sig_basis_text(const struct sig_rep *r, char *buf, size_t cap)
{
	char ans[256];
	int n;

	sig_answer_text(r, ans, sizeof ans);
	if (r->design == SIG_PAIRED)
		n = snprintf(buf, cap, "%zu rounds paired, paired t on log ratios of the runs: ",
			     r->na);
	else if (r->design == SIG_PREDICTION)
		n = snprintf(buf, cap, "%zu baseline run%s, %zu candidate%s, prediction t on log "
			     "run values: ", r->na, r->na == 1 ? "" : "s", r->nb, r->nb == 1 ? "" : "s");
	else
		n = snprintf(buf, cap, "%zu+%zu runs, unpaired, Welch's t on log run values: ",
			     r->na, r->nb);
	if (n > 0 && (size_t)n < cap)
		snprintf(buf + n, cap - (size_t)n, "%s", ans);
	return buf;
}

int sig_answer_family(struct sig_rep *const *r, const double *me, size_t n)
{
	double *p = calloc(n + 1, sizeof *p), *q = calloc(n + 1, sizeof *q);
	int rc = -1;

	if (p && q) {
		for (size_t i = 0; i < n; i++)
			p[i] = r[i] ? r[i]->p : NAN;
		if (sig_bh(p, n, q) == 0) {
			for (size_t i = 0; i < n; i++)
				if (r[i])
					sig_answer(r[i], q[i], me[i]);
			rc = 0;
		}
	}
	free(p);
	free(q);
	return rc;
}
