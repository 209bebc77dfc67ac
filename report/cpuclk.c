/* cpuclk.c — see cpuclk.h. */
#include "cpuclk.h"
#include "num.h"
#include "noisefloor.h"
#include "util.h"
#include "vocab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The comma list v of numbers (lib/num.h's num_dbl() each) into out (at most max); how many
 * were read, up to the first entry that is not one. */
static size_t list_of(const char *v, double *out, size_t max)
{
	size_t n = 0;
	while (v && *v && n < max) {
		char e[64];
		size_t l = strcspn(v, ",");
		snprintf(e, sizeof e, "%.*s", (int)l, v);
		if (l >= sizeof e || num_dbl(e, &out[n]))
			break;
		n++;
		if (v[l] != ',')
			break;
		v += l + 1;
	}
	return n;
}

#define MAXC 4096

/* The SAMPLE's figure: the median of its copies' mhz= in (0, CLK_MHZ_MAX] (0: the runner had
 * none; above: no clock); NAN when none. */
static double sample_mhz(const struct model *m, const struct msample *s)
{
	static double v[MAXC];
	size_t n = list_of(model_sample_get(m, s, RK_MHZ), v, MAXC), k = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] > 0 && v[i] <= CLK_MHZ_MAX)
			v[k++] = v[i];
	return k ? median_of(v, k) : NAN;
}

/* The SAMPLE's copies' sum cpu_ns / sum ran_ns x 100; NAN when it does not say. */
static double sample_cpu_pct(const struct model *m, const struct msample *s)
{
	static double c[MAXC], r[MAXC];
	size_t nc = list_of(model_sample_get(m, s, RK_CPU_NS), c, MAXC);
	size_t nr = list_of(model_sample_get(m, s, RK_RAN_NS), r, MAXC);
	double sc = 0, sr = 0;
	for (size_t i = 0; i < nc && i < nr; i++) {
		sc += c[i];
		sr += r[i];
	}
	return nc && nc == nr && sr > 0 ? sc / sr * 100 : NAN;
}

void clk_test_of(const struct model *m, const struct mtest *t, struct clk_test *out)
{
	double *mh = calloc(t->nsmp + 1, sizeof *mh), *cp = calloc(t->nsmp + 1, sizeof *cp);
	size_t nm = 0, nc = 0;

	out->method = "-";
	/* A test of another run (a side's cell over its later runs: compare.h) is not read
	 * through m: its SAMPLEs index that run's records. */
	int own = t >= m->tests && t < m->tests + m->ntests;
	for (size_t i = 0; own && mh && cp && i < t->nsmp; i++) {
		const struct msample *s = &t->smp[i];
		if (s->warmup)
			continue;
		const char *me = model_sample_get(m, s, RK_MHZ_METHOD);
		if (me && strcmp(out->method, "-") == 0)
			out->method = !strcmp(me, REC_MHZ_APERF) ? REC_MHZ_APERF
				      : !strcmp(me, REC_MHZ_CPPC) ? REC_MHZ_CPPC
				      : !strcmp(me, REC_MHZ_CHAIN) ? REC_MHZ_CHAIN : REC_MHZ_NONE;
		double f = sample_mhz(m, s), p = sample_cpu_pct(m, s);
		if (isfinite(f))
			mh[nm++] = f;
		if (isfinite(p))
			cp[nc++] = p;
	}
	out->mhz = nm ? median_of(mh, nm) : NAN;
	out->cpu_pct = nc ? median_of(cp, nc) : NAN;
	out->cpu_bound = isfinite(out->cpu_pct) && out->cpu_pct >= CLK_CPU_BOUND_PCT;
	free(mh);
	free(cp);
}

void clk_run_of(const struct model *m, struct clk_run *out)
{
	size_t cap = 0, n = 0;
	double *v;

	out->mhz = NAN;
	out->method = "-";
	out->ntests = 0;
	for (size_t i = 0; i < m->ntests; i++)
		cap += m->tests[i].nsmp;
	if (!(v = calloc(cap + 1, sizeof *v)))
		return;
	for (size_t i = 0; i < m->ntests; i++) {
		const struct mtest *t = &m->tests[i];
		struct clk_test ct;
		clk_test_of(m, t, &ct);
		if (!isfinite(ct.mhz))
			continue;
		out->ntests++;
		out->method = ct.method;
		for (size_t k = 0; k < t->nsmp; k++) {
			double f = t->smp[k].warmup ? NAN : sample_mhz(m, &t->smp[k]);
			if (isfinite(f))
				v[n++] = f;
		}
	}
	if (n)
		out->mhz = median_of(v, n);
	free(v);
}

/* The side's method so far (cur, "-" before any) with a run's (m): m first, the same kept,
 * a different one CLK_METHOD_MIXED. */
static const char *side_method(const char *cur, const char *m)
{
	return !strcmp(cur, "-") ? m : strcmp(cur, m) ? CLK_METHOD_MIXED : cur;
}

void clk_side_of(const struct model *const *runs, size_t n, const char *test, int copies,
		 struct clk_test *out)
{
	double *mh = calloc(n + 1, sizeof *mh), *cp = calloc(n + 1, sizeof *cp);
	size_t nm = 0, nc = 0;

	out->method = "-";
	for (size_t i = 0; mh && cp && i < n; i++) {
		const struct mtest *t = model_find(runs[i], test, copies);
		struct clk_test ct;
		if (!t)
			continue;
		clk_test_of(runs[i], t, &ct);
		if (isfinite(ct.mhz)) {
			mh[nm++] = ct.mhz;
			out->method = side_method(out->method, ct.method);
		}
		if (isfinite(ct.cpu_pct))
			cp[nc++] = ct.cpu_pct;
	}
	out->mhz = nm ? median_of(mh, nm) : NAN;
	out->cpu_pct = nc ? median_of(cp, nc) : NAN;
	out->cpu_bound = isfinite(out->cpu_pct) && out->cpu_pct >= CLK_CPU_BOUND_PCT;
	free(mh);
	free(cp);
}

void clk_side_run_of(const struct model *const *runs, size_t n, struct clk_run *out)
{
	double *v = calloc(n + 1, sizeof *v);
	size_t k = 0;

	out->mhz = NAN;
	out->method = "-";
	out->ntests = 0;
	for (size_t i = 0; v && i < n; i++) {
		struct clk_run r;
		clk_run_of(runs[i], &r);
		if (!isfinite(r.mhz))
			continue;
		v[k++] = r.mhz;
		out->method = side_method(out->method, r.method);
		out->ntests = r.ntests > out->ntests ? r.ntests : out->ntests;
	}
	if (k)
		out->mhz = median_of(v, k);
	free(v);
}

/* The first word of a policy value ("off (intel_pstate no_turbo=1)" -> "off"); "" when the
 * value says there is none ("none: ...", "-"). */
static void word_of(const char *v, char *out, size_t cap)
{
	size_t l = strcspn(v, " :(");
	snprintf(out, cap, "%.*s", (int)l, v);
	if (!strcmp(out, "none") || !strcmp(out, "-"))
		out[0] = 0;
}

/* " methods" after CLK_METHOD_MIXED in a sentence ("by mixed methods"), else "". */
static const char *mixed_word(const char *method)
{
	return strcmp(method, CLK_METHOD_MIXED) ? "" : " methods";
}

int clk_compare(const struct model *const *a, size_t na, const char *la,
		const struct model *const *b, size_t nb, const char *lb, char (*w)[400], int max)
{
	static const char *const keys[] = {RK_CPU_GOVERNOR, RK_CPUFREQ_BOOST, NULL};
	int n = 0;

	for (int k = 0; keys[k] && n < max; k++) {
		int said = 0;
		for (size_t i = 0; i < na && !said; i++)
			for (size_t j = 0; j < nb && !said; j++) {
				char wa[64], wb[64];
				word_of(model_info(a[i], keys[k]), wa, sizeof wa);
				word_of(model_info(b[j], keys[k]), wb, sizeof wb);
				if (!wa[0] || !wb[0] || !strcmp(wa, wb))
					continue;
				said = 1;
				snprintf(w[n++], sizeof w[0], CLK_WARN_PREFIX " clock policy differs "
					 "(%s %s in %s, %s in %s): CPU-bound tests measure the policy "
					 "too; give both the same isobench.cpufreq/isobench.boost",
					 keys[k], model_info(a[i], keys[k]), la,
					 model_info(b[j], keys[k]), lb);
			}
	}
	struct clk_run ra, rb;
	clk_side_run_of(a, na, &ra);
	clk_side_run_of(b, nb, &rb);
	if (n >= max || !isfinite(ra.mhz) || !isfinite(rb.mhz) || !na || !nb)
		return n;
	/* The smallest noise floor among the CPU-bound tests both sides hold (CPU-bound in
	 * either: a loaded host starves a test that is CPU-bound on a quiet one), else among all
	 * they both hold with a clock figure. The tests: side a's first run's. */
	double floor = INFINITY;
	const char *which = NULL;
	int wc = 0, bound = 0;
	for (size_t i = 0; i < a[0]->ntests; i++) {
		const struct mtest *t = &a[0]->tests[i];
		struct clk_test ca, cb;
		clk_side_of(a, na, t->test, t->copies, &ca);
		clk_side_of(b, nb, t->test, t->copies, &cb);
		int tb = ca.cpu_bound || cb.cpu_bound;
		if (!isfinite(ca.mhz) || !isfinite(cb.mhz) || (bound && !tb))
			continue;
		const char *from;
		double f = noise_floor_pct(t->test, t->copies, &from);
		if (tb && !bound) {
			bound = 1;
			floor = INFINITY;
		}
		if (f < floor) {
			floor = f;
			which = t->test;
			wc = t->copies;
		}
	}
	if (which && noise_floor_beyond(rb.mhz / ra.mhz, floor))
		snprintf(w[n++], sizeof w[0], CLK_WARN_PREFIX "s' effective clocks differ "
			 "(median %.0f MHz by %s%s in %s, %.0f MHz by %s%s in %s: %+.1f%%), beyond the "
			 "noise floor of %s%s copies=%d (%.1f%%): its ratio measures the clock too",
			 ra.mhz, ra.method, mixed_word(ra.method), la, rb.mhz, rb.method,
			 mixed_word(rb.method), lb, (rb.mhz / ra.mhz - 1) * 100,
			 bound ? "CPU-bound " : "", which, wc, floor);
	return n;
}
