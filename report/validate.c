/* validate.c — see validate.h. */
#define _GNU_SOURCE
#include "validate.h"
#include "latency.h"
#include "log.h"
#include "num.h"
#include "stats.h"
#include "unixbench.h"
#include "vocab.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The non-warm-up SAMPLE values of one (test, copies) since its TEST record. */
struct agg {
	char *test;
	unsigned long copies;
	double *v;
	size_t n, cap;
	double half;		/* the largest half-unit of the samples' printed precision */
	int unknown;		/* a SAMPLE without value= (an older writer): no recomputation */
	long long set_kib;	/* STREAM's working set its SAMPLEs say (array_total_kib), 0: none yet */
	char unit[16], better[8], baseline[32];	/* its TEST's ("" when the TEST has none) */
	double ratio;		/* value / loops' rate of its first measured SAMPLE (a unit whose
				 * per_loop is the test's own), 0: none yet */
	double ratio_rel;	/* that ratio's uncertainty from its SAMPLE's rounding, relative */
};

struct vstate {
	struct agg *aggs;
	size_t naggs;
	double target;		/* INFO run.ci_target_pct, or -1 when the run does not say */
	char *why;
	size_t cap;
};

static int bad(struct vstate *st, const struct logrec *lr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct vstate *st, const struct logrec *lr, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(st->why, st->cap, "line %zu: %s ", lr->line, lr->r->kind);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < st->cap)
		vsnprintf(st->why + n, st->cap - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A field's value, "" when absent (an older writer's record). */
static const char *field(const struct rec_kept *r, const char *key)
{
	const char *v = rec_get(r, key);
	return v ? v : "";
}

/* Numbers read from a record (num_dbl_or_nan()): every field its kind has was checked first
 * (check_fields(): vocab_value_ok(), lib/num.h's grammar for VT_UINT, VT_DEC, VT_POS,
 * VT_NONNEG and each entry of a list), so they read what was checked; a value that is not a
 * number (a field of another build, which check_fields() leaves alone) reads as NAN, never as
 * the number it begins with. */

/* Field key of r as a count (copies=, k=, n=, samples=): 0 when absent or none. */
static unsigned long count_of(const struct rec_kept *r, const char *key)
{
	unsigned long long u;
	return rec_get_ull(r, key, 0, ULONG_MAX, &u) ? 0 : (unsigned long)u;
}

/* Half a unit in the last printed digit of a decimal ("12.345" -> 0.0005; "12" -> 0.5). */
static double half_unit(const char *s)
{
	const char *dot = strchr(s, '.');
	int d = dot ? (int)strspn(dot + 1, "0123456789") : 0;
	return 0.5 * pow(10, -d);
}

/* |printed - computed| within the printed precision plus the samples' own (tol). */
static int agree(const char *printed, double computed, double tol)
{
	return fabs(num_dbl_or_nan(printed) - computed) <=
	       half_unit(printed) + tol + 1e-9 * fabs(computed);
}

/* Entries of a comma list. */
static unsigned long entries(const char *v)
{
	unsigned long n = 1;
	for (; *v; v++)
		n += *v == ',';
	return n;
}

/* Each field the kind has of its type; lists one entry per copy. (A key given twice is
 * malformed: rec_parse() refuses the line.) */
static int check_fields(struct vstate *st, const struct logrec *lr, const struct rec_kept *r)
{
	unsigned long copies = count_of(r, RK_COPIES);	/* 0 (no entry count) until checked */

	for (int i = 0; i < r->nfields; i++) {
		const struct vocab_field *f = vocab_key(r->kind, r->key[i]);
		char want[160];
		if (!f && !strcmp(r->kind, RK_DIGEST))	/* the fields of the kind it restates */
			f = vocab_digest_key(rec_get(r, RK_PART), r->key[i]);
		if (!f)
			continue;	/* another build's field: a reader ignores it (records.md) */
		if (!vocab_value_ok(f, r->val[i])) {
			vocab_type_text(f, want, sizeof want);
			return bad(st, lr, "%s=%.40s: expected %s", r->key[i], r->val[i], want);
		}
		if ((f->type == VT_LIST || f->type == VT_CPUS) && f->kind != VK_INFO && copies &&
		    entries(r->val[i]) != copies)
			return bad(st, lr, "%s=%.40s: %lu entries, expected one per copy (copies=%lu)",
				   r->key[i], r->val[i], entries(r->val[i]), copies);
	}
	return 0;
}

/* Exactly one of the kind's ONE fields. A REQ field may be absent: version 1's writers
 * added fields over time (better=, SAMPLE value=, TEST clocksource=, ...) and older logs
 * stay readable; what is present is checked, and a RESULT is recomputed when its inputs are. */
static int check_presence(struct vstate *st, const struct logrec *lr, const struct rec_kept *r)
{
	int k = vocab_kind(r->kind), ones = 0, has_one = 0;
	char names[120] = "";

	for (size_t i = 0; i < vocab_nfields; i++) {
		const struct vocab_field *f = &vocab_fields[i];
		const char *name = vocab_key_names[f->key];
		if ((int)f->kind != k || strchr(name, '*'))
			continue;
		if (f->presence == VP_ONE) {
			has_one = 1;
			ones += rec_get(r, name) != NULL;
			size_t l = strlen(names);
			snprintf(names + l, sizeof names - l, "%s%s", l ? ", " : "", name);
		}
	}
	if (has_one && ones != 1)
		return bad(st, lr, "has %d of %s: expected exactly one", ones, names);
	return 0;
}

static struct agg *find_agg(struct vstate *st, const char *test, unsigned long copies, int add)
{
	for (size_t i = 0; i < st->naggs; i++)
		if (st->aggs[i].copies == copies && !strcmp(st->aggs[i].test, test))
			return &st->aggs[i];
	if (!add)
		return NULL;
	struct agg *a = realloc(st->aggs, (st->naggs + 1) * sizeof *a);
	if (!a)
		return NULL;
	st->aggs = a;
	a = &st->aggs[st->naggs];
	memset(a, 0, sizeof *a);
	if (!(a->test = strdup(test)))
		return NULL;
	a->copies = copies;
	st->naggs++;
	return a;
}

/* STREAM's working set in a SAMPLE (mem_stream.c's extras, issue 36): array_kib (this
 * copy's array) and array_total_kib (one array of all copies) at least 1 KiB, the copy's
 * array x copies = the total (each copy's slice is whole 16 KiB blocks), and one set for every
 * SAMPLE of a test, warm-up included: isobench-report compare takes the set from the first
 * measured SAMPLE, so a forged or damaged one would make two different sets look the same. */
static int check_stream_set(struct vstate *st, const struct logrec *lr, const struct rec_kept *r,
			    struct agg *a)
{
	const char *arr = rec_get(r, REC_EXTRA_ARRAY_KIB), *tot = rec_get(r, REC_EXTRA_ARRAY_TOTAL_KIB);
	const char *v[] = {arr, tot}, *k[] = {REC_EXTRA_ARRAY_KIB, REC_EXTRA_ARRAY_TOTAL_KIB};
	long long kib[2] = {0, 0};	/* array_kib, array_total_kib: whole KiB >= 1 */

	for (int i = 0; i < 2; i++)
		if (v[i] && rec_get_ll(r, k[i], 1, LLONG_MAX, &kib[i]))
			return bad(st, lr, "test=%s %s=%s: expected a figure >= 1 KiB", a->test, k[i], v[i]);
	if (arr && tot && (unsigned long long)kib[0] * a->copies != (unsigned long long)kib[1])
		return bad(st, lr, "test=%s array_kib=%s x copies=%lu is not array_total_kib=%s", a->test,
			   arr, a->copies, tot);
	if (!tot)
		return 0;
	if (a->set_kib && a->set_kib != kib[1])
		return bad(st, lr, "test=%s array_total_kib=%s: the test's earlier SAMPLE said %lld (one "
			   "working set a test)", a->test, tot, a->set_kib);
	a->set_kib = kib[1];
	return 0;
}

/* The n-th entry of a comma list of integers (its type is checked already); 0 when the list
 * has fewer. */
static double nth(const char *list, unsigned long n)
{
	char e[32];
	for (; n && list; n--)
		if ((list = strchr(list, ',')))
			list++;
	if (!list)
		return 0;
	snprintf(e, sizeof e, "%.*s", (int)strcspn(list, ","), list);
	return num_dbl_or_nan(e);
}

/* A copy seen on k distinct CPUs (cpus=, '+'-joined) changed CPU at least k - 1 times, which
 * migrations= counts as a lower bound of what it saw (docs/records.md "Where each copy ran"). */
static int check_migrations(struct vstate *st, const struct logrec *lr, const struct rec_kept *r,
			    const struct agg *a)
{
	const char *cpus = rec_get(r, RK_CPUS), *mig = rec_get(r, RK_MIGRATIONS);

	for (unsigned long c = 0; cpus && mig && c < a->copies; c++) {
		const char *e = cpus;
		for (unsigned long k = 0; k < c && e; k++)
			if ((e = strchr(e, ',')))
				e++;
		if (!e || *e == '-')
			continue;
		/* distinct CPUs of this entry: numbers 0..63 (the runner writes 63 for any above) */
		uint64_t set = 0;
		for (const char *q = e; *q && *q != ',';) {
			char num[24];
			unsigned long long cpu = 63;	/* (VT_CPUS checked: always a number) */
			snprintf(num, sizeof num, "%.*s", (int)strcspn(q, "+,"), q);
			num_ull(num, 0, 0, ULLONG_MAX, &cpu);
			set |= 1ULL << (cpu < 63 ? cpu : 63);
			q += strcspn(q, "+,");
			q += *q == '+';
		}
		unsigned long seen = (unsigned long)__builtin_popcountll(set);
		if (nth(mig, c) + 1 < (double)seen)
			return bad(st, lr, "test=%s migrations=%.40s: copy %lu was seen on %lu CPUs "
				   "(cpus=%.40s), so it moved at least %lu times", a->test, mig, c, seen,
				   cpus, seen - 1);
	}
	return 0;
}

/* check_sample_value()'s value: raw is the loops' rate (loops/s summed over copies) or time
 * (ns/loop, the copies' mean), tol what the loops' rounding allows of it; open: some copy of
 * a time test printed loops=0 (under half a loop in its window, or none), so raw is the least
 * time it allows and the value is at least that, or 0 (a copy did no loop: the runner's
 * lib/stats.c common_window_value() gives 0). */
static int sample_value_ok(struct vstate *st, const struct logrec *lr, const struct rec_kept *r,
			   struct agg *a, double raw, double tol, int open)
{
	const char *loops = rec_get(r, RK_LOOPS), *ns = rec_get(r, RK_NS), *v = rec_get(r, RK_VALUE);
	int higher = !strcmp(a->better, REC_BETTER_HIGHER);
	double pl = vocab_unit_per_loop(a->unit), got = num_dbl_or_nan(v);
	int xi = -1;	/* a value extra the SAMPLE carries: then the value is one of them */

	for (int i = 0; !higher && i < r->nfields; i++) {
		double sc;
		if (vocab_value_extra(r->key[i], &sc)) {
			if (agree(v, num_dbl_or_nan(r->val[i]) * sc, 0))
				return 0;
			xi = i;
		}
	}
	if (xi >= 0)
		return bad(st, lr, "test=%s value=%s: it is none of its value extras (%s=%.20s; unit "
			   "%s)", a->test, v, r->key[xi], r->val[xi], a->unit);
	if (open && got == 0)
		return 0;
	if (pl > 0) {	/* the unit's own per_loop */
		double want = higher ? raw * pl : raw / pl, wtol = higher ? tol * pl : tol / pl;
		if (isfinite(raw) && (open ? got >= want - wtol - half_unit(v) : agree(v, want, wtol)))
			return 0;
		return bad(st, lr, "test=%s value=%s: its loops=%.40s in ns=%.40s give %.6g %s (%s: "
			   "%g a loop)", a->test, v, loops, ns, want, a->unit,
			   higher ? "a rate" : "a time", pl);
	}
	/* a per_loop of the test's own (KBps: the buffer's KiB; ns: what one loop does, e.g. a
	 * fault test's KiB): one ratio of value to raw in every SAMPLE of the test */
	if (!isfinite(raw) || !(raw > 0))
		return bad(st, lr, "test=%s value=%s: its loops=%.40s in ns=%.40s give no %s",
			   a->test, v, loops, ns, higher ? "rate" : "time");
	if (open) {	/* a least time: never the test's ratio, and checked only from below */
		if (a->ratio && got < raw * a->ratio - tol * a->ratio - got * a->ratio_rel -
					  half_unit(v))
			return bad(st, lr, "test=%s value=%s: its loops=%.40s in ns=%.40s give at least "
				   "%.6g %s at the per_loop of the test's earlier SAMPLE (%.4g; a copy's "
				   "loops=0 is under half a loop)", a->test, v, loops, ns, raw * a->ratio,
				   a->unit, 1 / a->ratio);
		return 0;
	}
	if (!a->ratio) {
		a->ratio = got / raw;
		a->ratio_rel = tol / raw + half_unit(v) / got;	/* its own rounding, relative */
		return 0;
	}
	if (!agree(v, raw * a->ratio, tol * a->ratio + got * a->ratio_rel))
		return bad(st, lr, "test=%s value=%s: its loops=%.40s in ns=%.40s give %.6g %s at the "
			   "per_loop of the test's earlier SAMPLE (%.4g)", a->test, v, loops, ns,
			   raw * a->ratio, a->unit, higher ? a->ratio : 1 / a->ratio);
	return 0;
}

/* A measured SAMPLE against its own integers (docs/records.md "How RESULT derives from
 * SAMPLE"; lib/stats.c common_window_value()): every ns entry (the window) > 0, no copy counts
 * more loops in the window than it ran at all (ran_loops), and value is the loops' rate
 * (better=higher: sum of loops x per_loop / seconds) or time (lower: mean of ns / loops /
 * per_loop) with the unit's per_loop (lib/vocab.h), within the loops' rounding to integers
 * (half a loop a copy) and value's printed precision; or, for a lower-is-better test, one of
 * its value extras (vocab_value_extra()). A unit whose per_loop is the test's own (KBps: the
 * buffer's KiB) has one ratio of value to the loops' rate in every SAMPLE of the test. */
static int check_sample_value(struct vstate *st, const struct logrec *lr, const struct rec_kept *r,
			      struct agg *a)
{
	const char *loops = rec_get(r, RK_LOOPS), *ns = rec_get(r, RK_NS), *v = rec_get(r, RK_VALUE);
	const char *ran = rec_get(r, RK_RAN_LOOPS);
	int higher = !strcmp(a->better, REC_BETTER_HIGHER);
	double raw = 0, tol = 0;
	int open = 0;

	if (!loops || !ns || !v || !a->better[0])
		return 0;	/* an older writer's SAMPLE, or a list left out (dropped_fields) */
	for (unsigned long c = 0; c < a->copies; c++) {
		double l = nth(loops, c), t = nth(ns, c);
		if (!(t > 0))
			return bad(st, lr, "test=%s ns=%.40s: copy %lu's window is 0 ns (a measured "
				   "sample's window is > 0)", a->test, ns, c);
		if (higher) {
			raw += l * 1e9 / t;
			tol += 0.5 * 1e9 / t;
		} else if (l >= 1) {
			raw += t / l / (double)a->copies;
			tol += (t / (l - 0.5) - t / l) / (double)a->copies;
		} else {	/* printed 0: under half a loop, so over 2t a loop (or none: 0) */
			raw += 2 * t / (double)a->copies;
			open = 1;
		}
	}
	if (sample_value_ok(st, lr, r, a, raw, tol, open))
		return -1;
	for (unsigned long c = 0; ran && c < a->copies; c++)
		if (nth(loops, c) > nth(ran, c))
			return bad(st, lr, "test=%s loops=%.40s: copy %lu counts more loops in the window "
				   "than it ran (ran_loops=%.40s)", a->test, loops, c, ran);
	return check_migrations(st, lr, r, a);
}

static int add_sample(struct vstate *st, const struct logrec *lr, const struct rec_kept *r)
{
	const char *v = rec_get(r, RK_VALUE);
	struct agg *a = find_agg(st, field(r, RK_TESTNAME), count_of(r, RK_COPIES), 0);

	if (!a)
		return bad(st, lr, "test=%s: a SAMPLE before the test's TEST record",
			   field(r, RK_TESTNAME));
	if (check_stream_set(st, lr, r, a))
		return -1;
	if (rec_get(r, RK_WARMUP))
		return 0;	/* never in the statistics (docs/records.md) */
	if (check_sample_value(st, lr, r, a))
		return -1;
	if (!v) {
		a->unknown = 1;
		return 0;
	}
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		double *nv = realloc(a->v, cap * sizeof *nv);
		if (!nv)
			return bad(st, lr, "out of memory");
		a->v = nv;
		a->cap = cap;
	}
	a->v[a->n++] = num_dbl_or_nan(v);
	if (half_unit(v) > a->half)
		a->half = half_unit(v);
	return 0;
}

/* stop= and samples_needed= (both absent from an older writer's RESULT): stop=target exactly
 * when converged; samples_needed only when not, and what samples_needed() gives for the
 * SAMPLEs' printed values and the run's target, within one sample or 1% of the range their
 * rounding allows. */
static int check_stop(struct vstate *st, const struct logrec *lr, const struct rec_kept *r,
		      int conv, const struct agg *a)
{
	const char *test = field(r, RK_TESTNAME), *stop = rec_get(r, RK_STOP);
	const char *need = rec_get(r, RK_SAMPLES_NEEDED);

	if (stop && conv != !strcmp(stop, REC_STOP_TARGET))
		return bad(st, lr, "test=%s converged=%d: stop=%s says otherwise", test, conv, stop);
	if (need && conv)
		return bad(st, lr, "test=%s: samples_needed with converged=1", test);
	if (!need || !(st->target > 0))
		return 0;
	/* Values rounded by h move their median by up to h and their MAD by up to 2h, and the
	 * need goes with (MAD / median)^2: at 3 samples of ~1 ns printed to 0.001 that alone
	 * is ~10% (CI saw 47 against 50), so the bounds come from the spread's extremes. */
	double med, mad = sample_mad(a->v, a->n, &med), h = a->half, got = num_dbl_or_nan(need);
	if (mad < 0)
		return bad(st, lr, "out of memory");
	double want = (double)samples_needed_of(mad, med, a->n, st->target);
	double lo = (double)samples_needed_of(fmax(mad - 2 * h, 0), med + h, a->n, st->target);
	double hi = (double)samples_needed_of(mad + 2 * h, fmax(med - h, h), a->n, st->target);
	if (got < lo - 1 - 0.01 * lo || got > hi + 1 + 0.01 * hi)
		return bad(st, lr, "test=%s samples_needed=%s: its SAMPLEs' spread and the target "
			   "%g%% give %.0f (%.0f-%.0f with their rounding)", test, need, st->target,
			   want, lo, hi);
	return 0;
}

/* A RESULT's whole-run percentiles against its own histogram (docs/records.md: p50_ns,
 * p99_ns, p999_ns are lat_hist's quantiles, max_ns its largest value): lat_hist parsed as a
 * reader merges it (lib/latency.c), its largest value set to max_ns, which must lie in the
 * top bucket; each percentile within a bucket (1/LAT_SUB, lib/latency.h) and 1 ns of what the
 * histogram gives (tbench's and the paced sockwrites' carry their own histogram over: the two
 * bucket widths). Absent fields (a histogram left out, an older writer): not checked. */
static int check_lat(struct vstate *st, const struct logrec *lr, const struct rec_kept *r)
{
	static struct lat_hist h;
	const char *hist = rec_get(r, RK_LAT_HIST), *mx = rec_get(r, RK_LAT_MAX);

	if (!hist || !mx)
		return 0;
	if (lat_hist_parse(hist, &h))
		return bad(st, lr, "test=%s lat_hist=%.40s: no histogram (GAP,COUNT pairs)",
			   field(r, RK_TESTNAME), hist);
	unsigned long long m = 0;	/* max_ns: a VT_UINT, checked */
	rec_get_ull(r, RK_LAT_MAX, 0, ULLONG_MAX, &m);
	uint64_t top = h.max, q[LAT_NQ];
	uint64_t low = top > top / LAT_SUB + 1 ? top - top / LAT_SUB - 1 : 0;	/* the bucket's */
	if (m > top || m < low)
		return bad(st, lr, "test=%s max_ns=%s: its lat_hist's largest value lies in "
			   "%llu..%llu", field(r, RK_TESTNAME), mx, (unsigned long long)low,
			   (unsigned long long)top);
	h.max = m;
	lat_quantiles(&h, q);
	for (int k = 0; k < LAT_NQ - 1; k++) {
		const char *v = rec_get(r, lat_keys[k]);
		double got = num_dbl_or_nan(v), want = (double)q[k];
		if (v && fabs(got - want) > 2 * want / LAT_SUB + 1)
			return bad(st, lr, "test=%s %s=%s: its lat_hist gives %llu",
				   field(r, RK_TESTNAME), lat_keys[k], v, (unsigned long long)q[k]);
	}
	return 0;
}

/* A RESULT against the SAMPLEs since its TEST: what the runner's summarize() gives. */
static int check_result(struct vstate *st, const struct logrec *lr, const struct rec_kept *r)
{
	const char *test = field(r, RK_TESTNAME);
	struct agg *a = find_agg(st, test, count_of(r, RK_COPIES), 0);
	struct summary sm;

	if (check_lat(st, lr, r))
		return -1;
	if (!rec_get(r, RK_BETTER) || !rec_get(r, RK_SAMPLES) || !rec_get(r, RK_VALUE) ||
	    !rec_get(r, RK_MEDIAN) || !rec_get(r, RK_MIN) || !rec_get(r, RK_MAX) ||
	    !rec_get(r, RK_CI95) || !rec_get(r, RK_CONVERGED))
		return 0;	/* an older writer's RESULT: not recomputable */
	if (!a || (!a->n && !a->unknown))
		return bad(st, lr, "test=%s: no SAMPLE of the test precedes it", test);
	/* What its TEST announced: the RESULT restates it (unit, better, baseline). */
	const char *same[][2] = {{RK_UNIT, a->unit}, {RK_BETTER, a->better}, {RK_BASELINE, a->baseline}};
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		const char *mine = rec_get(r, same[i][0]);
		if (same[i][1][0] && mine && strcmp(mine, same[i][1]))
			return bad(st, lr, "test=%s %s=%.40s: its TEST said %s=%s", test, same[i][0],
				   mine, same[i][0], same[i][1]);
	}
	if (a->unknown)
		return 0;	/* its SAMPLEs carry no value= (an older writer) */
	unsigned long n = count_of(r, RK_SAMPLES);
	if (n != a->n)
		return bad(st, lr, "test=%s samples=%lu: the log holds %zu SAMPLEs", test, n, a->n);
	int higher = !strcmp(rec_get(r, RK_BETTER), REC_BETTER_HIGHER);
	if (summarize(a->v, a->n, higher, &sm))
		return bad(st, lr, "test=%s: a SAMPLE value <= 0 cannot give a RESULT", test);
	/* Samples rounded by h move the median, min and max by h and a geometric mean by up to
	 * its relative share h/min; the CI's half-width in % follows its ends and the median. */
	double h = a->half, rel = h / sm.min;
	struct {
		const char *key;
		double got, tol;
	} chk[] = {
		{RK_VALUE, sm.unixbench, sm.unixbench * rel},
		{RK_MEDIAN, sm.median, h},
		{RK_MIN, sm.min, h},
		{RK_MAX, sm.max, h},
		{RK_CI95, sm.ci_half_pct, 100 * h / sm.median + sm.ci_half_pct * h / sm.median},
	};
	for (size_t i = 0; i < sizeof chk / sizeof chk[0]; i++)
		if (!agree(rec_get(r, chk[i].key), chk[i].got, chk[i].tol))
			return bad(st, lr, "test=%s %s=%s: its SAMPLEs give %.6g", test, chk[i].key,
				   rec_get(r, chk[i].key), chk[i].got);
	const char *base = rec_get(r, RK_BASELINE), *idx = rec_get(r, RK_INDEX);
	if ((base != NULL) != (idx != NULL))
		return bad(st, lr, "test=%s: baseline and index come together", test);
	double v = num_dbl_or_nan(rec_get(r, RK_VALUE)), b = num_dbl_or_nan(base);
	if (base && !agree(idx, ub_index(v, b), ub_index(half_unit(rec_get(r, RK_VALUE)), b)))
		return bad(st, lr, "test=%s index=%s: value/baseline x 10 is %.6g", test, idx,
			   ub_index(v, b));
	/* The runner writes converged=1 exactly when its unrounded CI is within the target. */
	double ci = num_dbl_or_nan(rec_get(r, RK_CI95)), hu = half_unit(rec_get(r, RK_CI95));
	int conv = !strcmp(rec_get(r, RK_CONVERGED), "1");
	if (st->target > 0 && ((conv && ci > st->target + hu) || (!conv && ci < st->target - hu)))
		return bad(st, lr, "test=%s converged=%d: ci95_pct=%s against the run's target %g%%",
			   test, conv, rec_get(r, RK_CI95), st->target);
	if (check_stop(st, lr, r, conv, a))
		return -1;
	a->n = 0;
	return 0;
}

static int check_record(struct vstate *st, const struct logrec *lr, const struct rec_kept *r)
{
	if (vocab_kind(r->kind) < 0)
		return bad(st, lr, "is no kind of the grammar");
	if (check_fields(st, lr, r) || check_presence(st, lr, r))
		return -1;
	if (!strcmp(r->kind, RK_INFO) && rec_get(r, RK_RUN_CI_TARGET))
		st->target = num_dbl_or_nan(rec_get(r, RK_RUN_CI_TARGET));	/* NAN: as unset (> 0 only) */
	if (!strcmp(r->kind, RK_TEST)) {
		struct agg *a = find_agg(st, field(r, RK_TESTNAME), count_of(r, RK_COPIES), 1);
		if (!a)
			return bad(st, lr, "out of memory");
		a->n = 0;
		a->half = 0;
		a->unknown = 0;
		a->set_kib = 0;
		a->ratio = 0;
		snprintf(a->unit, sizeof a->unit, "%s", field(r, RK_UNIT));
		snprintf(a->better, sizeof a->better, "%s", field(r, RK_BETTER));
		snprintf(a->baseline, sizeof a->baseline, "%s", field(r, RK_BASELINE));
		unsigned long k = count_of(r, RK_K), n = count_of(r, RK_N);
		if (k && n && k > n)
			return bad(st, lr, "test=%s k=%lu: more than n=%lu (k of n)", a->test, k, n);
	} else if (!strcmp(r->kind, RK_SAMPLE)) {
		return add_sample(st, lr, r);
	} else if (!strcmp(r->kind, RK_RESULT)) {
		return check_result(st, lr, r);
	}
	return 0;
}

int validate_run(const struct run *run, char *why, size_t cap)
{
	struct vstate st = {NULL, 0, -1, why, cap};
	int rc = 0;

	for (size_t i = 0; i < run->nrecs && !rc; i++)
		rc = check_record(&st, &run->recs[i], run->recs[i].r);
	for (size_t i = 0; i < st.naggs; i++) {
		free(st.aggs[i].test);
		free(st.aggs[i].v);
	}
	free(st.aggs);
	return rc;
}
