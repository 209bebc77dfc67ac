/* digest.c — see digest.h. */
#define _GNU_SOURCE
#include "digest.h"
#include "crc32.h"
#include "vocab.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parts, in vocab.h's words; an index into this table is a line's part. */
static const char *const parts[] = {REC_PART_BEGIN, REC_PART_INFO,  REC_PART_TEST,
				    REC_PART_SKIP,  REC_PART_FAIL,  REC_PART_WARN,
				    REC_PART_ERROR, REC_PART_END};
enum { P_BEGIN, P_INFO, P_TEST, P_SKIP, P_FAIL, P_WARN, P_ERROR, P_END, P_NONE };
/* The kind each part restates (vocab.h; P_TEST: TEST, and RESULT from its lists). */
static const char *part_kind(int p)
{
	return p < P_NONE ? vocab_part_kind(parts[p]) : NULL;
}

/* One digest line, as the expansion needs it. */
struct dl {
	const struct logrec *lr;
	int part;
	char *test, *copies;	/* test= and copies= (decoded), NULL when absent */
	int after;		/* an event line after the first part=test line */
};

struct xp {
	const struct run *run;
	struct dl *dl;
	size_t d0, n;		/* the digest's first record in run, and its lines (part=end too) */
	struct record *r;	/* add()'s room: each record restated is decoded once, when sealed */
	struct run *out;
	char *why;
	size_t cap;
};

static int fail(struct xp *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct xp *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->why, x->cap, fmt, ap);
	va_end(ap);
	return -1;
}

/* The n-th entry (0-based) of a comma list into o (cap bytes); 0, or -1 when it has fewer. */
static int entry(const char *list, int n, char *o, size_t cap)
{
	for (; n > 0; n--) {
		list = strchr(list, ',');
		if (!list)
			return -1;
		list++;
	}
	snprintf(o, cap, "%.*s", (int)strcspn(list, ","), list);
	return 0;
}

static int entries(const char *list)
{
	int n = 1;
	for (; *list; list++)
		n += *list == ',';
	return n;
}

/* Seal body b as the out run's next record (sequence 1, 2, ...), from digest line line. */
static int add(struct xp *x, struct rec_body *b, size_t line)
{
	char sealed[REC_MAX];
	struct run *o = x->out;
	rec_close(b);
	size_t n = rec_seal(sealed, sizeof sealed, o->nrecs + 1, b->buf, b->len);

	if (!n)
		return fail(x, "the digest is damaged: line %zu restates no valid record", line);
	if (rec_parse(sealed, n - 1, x->r) != REC_OK)	/* without the newline */
		return fail(x, "the digest is damaged: line %zu restates no valid record", line);
	return log_add(o, line, x->r, sealed, n - 1) ? -2 : 0;
}

/* Digest line d restated as one record of its part's kind: its fields but part=. */
static int restate(struct xp *x, const struct dl *d)
{
	const struct rec_kept *r = d->lr->r;
	struct rec_body b;

	rec_begin(&b, part_kind(d->part));
	for (int k = 0; k < r->nfields; k++)
		if (strcmp(r->key[k], RK_PART))
			rec_str(&b, r->key[k], r->val[k]);
	return add(x, &b, d->lr->line);
}

/* The index of pass c in a comma list of passes, -1 when absent. */
static int pass_index(const char *list, const char *c)
{
	char e[64];
	for (int j = 0; entry(list, j, e, sizeof e) == 0; j++)
		if (!strcmp(e, c))
			return j;
	return -1;
}

/* The lists a part=test line may hold, one entry per pass: the RESULT figures (vocab.h), then
 * the mean cycles_x100. */
#define FIGURE(id) RK_##id,
static const char *const figures[] = {VOCAB_DIGEST_FIGURES(FIGURE) RK_CYCLES};
#undef FIGURE
#define NFIG (sizeof figures / sizeof figures[0])

/* Test line d's pass j: its TEST, then its RESULT when the pass has one (value= not "-"). */
static int expand_pass(struct xp *x, const struct dl *d, int j)
{
	static const char *const facts[] = {RK_TITLE, RK_UNIT, RK_BETTER, RK_GROUP, RK_BASELINE};
	const struct rec_kept *r = d->lr->r;
	struct rec_body b;
	char c[64], v[64];
	int rc;

	entry(d->copies, j, c, sizeof c);
	rec_begin(&b, RK_TEST);
	rec_str(&b, RK_TESTNAME, d->test);
	rec_str(&b, RK_COPIES, c);
	for (size_t k = 0; k < sizeof facts / sizeof facts[0]; k++)
		if (rec_get(r, facts[k]))
			rec_str(&b, facts[k], rec_get(r, facts[k]));
	if ((rc = add(x, &b, d->lr->line)))
		return rc;
	const char *val = rec_get(r, RK_VALUE);
	if (!val || entry(val, j, v, sizeof v) || !strcmp(v, "-"))
		return 0;
	rec_begin(&b, RK_RESULT);
	rec_str(&b, RK_TESTNAME, d->test);
	rec_str(&b, RK_COPIES, c);
	for (size_t k = 1; k < sizeof facts / sizeof facts[0]; k++)
		if (facts[k] != RK_GROUP && rec_get(r, facts[k]))
			rec_str(&b, facts[k], rec_get(r, facts[k]));
	for (size_t k = 0; k < NFIG; k++)
		if (rec_get(r, figures[k]) && !entry(rec_get(r, figures[k]), j, v, sizeof v) &&
		    strcmp(v, "-"))
			rec_str(&b, figures[k], v);
	return add(x, &b, d->lr->line);
}

/* 1 when event line e belongs to a pass of some test line (its test= and copies=). */
static int tied(const struct xp *x, const struct dl *e)
{
	if (e->part < P_SKIP || e->part > P_ERROR || !e->test || !e->copies)
		return 0;
	for (size_t k = 0; k < x->n; k++)
		if (x->dl[k].part == P_TEST && x->dl[k].test && !strcmp(x->dl[k].test, e->test) &&
		    pass_index(x->dl[k].copies, e->copies) >= 0)
			return 1;
	return 0;
}

/* Pass c: each test line that has it (TEST, RESULT), each followed by its events of c. */
static int expand_passes(struct xp *x, const char *c)
{
	int rc;

	for (size_t t = 0; t < x->n; t++) {
		const struct dl *d = &x->dl[t];
		int j = d->part == P_TEST ? pass_index(d->copies, c) : -1;
		if (j < 0)
			continue;
		if ((rc = expand_pass(x, d, j)))
			return rc;
		for (size_t e = 0; e < x->n; e++)
			if (tied(x, &x->dl[e]) && !strcmp(x->dl[e].test, d->test) &&
			    !strcmp(x->dl[e].copies, c) && (rc = restate(x, &x->dl[e])))
				return rc;
	}
	return 0;
}

/* The events that belong to no pass, before (after = 0) or after the first test line. */
static int expand_untied(struct xp *x, int after)
{
	int rc;
	for (size_t e = 0; e < x->n; e++)
		if (x->dl[e].part >= P_SKIP && x->dl[e].part <= P_ERROR &&
		    x->dl[e].after == after && !tied(x, &x->dl[e]) && (rc = restate(x, &x->dl[e])))
			return rc;
	return 0;
}

/* The digest line by line (x->dl): its part, test= and copies=; every list of a part=test
 * line one entry per pass. */
static int prepare(struct xp *x)
{
	int seen_test = 0;

	for (size_t k = 0; k < x->n; k++) {
		struct dl *d = &x->dl[k];
		d->lr = &x->run->recs[x->d0 + k];
		const struct rec_kept *r = d->lr->r;
		const char *p = rec_get(r, RK_PART), *t = rec_get(r, RK_TESTNAME);
		const char *c = rec_get(r, RK_COPIES);
		for (d->part = 0; d->part < P_NONE && (!p || strcmp(p, parts[d->part])); d->part++)
			;
		if ((t && !(d->test = strdup(t))) || (c && !(d->copies = strdup(c))))
			return -2;
		d->after = seen_test;
		seen_test |= d->part == P_TEST;
		if (d->part == P_NONE || (d->part == P_TEST && (!t || !c)))
			return fail(x, "the digest is damaged: line %zu: part=%s", d->lr->line,
				    p ? p : "(none)");
		for (size_t f = 0; d->part == P_TEST && f < NFIG; f++) {
			const char *v = rec_get(r, figures[f]);
			if (v && entries(v) != entries(c))
				return fail(x, "the digest is damaged: line %zu: %s= has %d entries "
					    "for %d passes", d->lr->line, figures[f], entries(v),
					    entries(c));
		}
	}
	return 0;
}

/* The digest's frame in run i: DIGEST lines from part=begin to part=end in sequence, none
 * damaged, part=end's count and CRC-32 of the lines before it, END right after. */
static int frame(struct xp *x, const struct log *log, size_t i)
{
	const struct run *run = x->run;
	size_t d0 = x->d0, dn = d0, prev = d0 ? run->recs[d0 - 1].line
					   : i ? log->runs[i - 1].last_line : 0;

	while (dn + 1 < run->nrecs && !strcmp(run->recs[dn + 1].r->kind, RK_DIGEST))
		dn++;
	for (size_t d = 0; d < log->ndamage; d++)
		if (log->damage[d].line > prev && log->damage[d].line <= run->last_line)
			return fail(x, "the digest is damaged: line %zu (%s)", log->damage[d].line,
				    log_damage_why(log->damage[d].status));
	for (size_t k = d0 + 1; k <= dn; k++)
		if (run->recs[k].r->seq != run->recs[k - 1].r->seq + 1)
			return fail(x, "the digest is damaged: a line is missing before line %zu",
				    run->recs[k].line);
	const struct rec_kept *first = run->recs[d0].r, *last = run->recs[dn].r;
	if (!rec_get(first, RK_PART) || strcmp(rec_get(first, RK_PART), REC_PART_BEGIN))
		return fail(x, "the digest is cut: the log starts inside it (line %zu), its "
			    "first line (part=%s) is missing", run->recs[d0].line, REC_PART_BEGIN);
	if (!rec_get(last, RK_PART) || strcmp(rec_get(last, RK_PART), REC_PART_END))
		return fail(x, "the digest is cut: no part=%s line after line %zu", REC_PART_END,
			    run->recs[dn].line);
	x->n = dn - d0;
	size_t len = 0;
	for (size_t k = d0; k < dn; k++)
		len += strlen(run->recs[k].r->line) + 1;
	char *all = malloc(len + 1);
	if (!all)
		return -2;
	len = 0;
	for (size_t k = d0; k < dn; k++)
		len += (size_t)sprintf(all + len, "%s\n", run->recs[k].r->line);
	char crc[16];
	snprintf(crc, sizeof crc, "%08x", crc32_ieee(all, len));
	free(all);
	/* lines= is VT_NONNEG (validated): one that is not reads as a mismatch. */
	const char *lines = rec_get(last, RK_LINES), *want = rec_get(last, RK_CRC);
	unsigned long long nl;
	if (rec_get_ull(last, RK_LINES, 0, ULLONG_MAX, &nl) || nl != x->n || !want ||
	    strcmp(want, crc))
		return fail(x, "the digest is damaged: part=%s says lines=%s crc=%s, the log holds "
			    "%zu lines with CRC-32 %s (line %zu)", REC_PART_END, lines ? lines : "?",
			    want ? want : "?", x->n, crc, run->recs[dn].line);
	if (dn + 2 != run->nrecs || strcmp(run->recs[dn + 1].r->kind, RK_END) ||
	    run->recs[dn + 1].r->seq != run->recs[dn].r->seq + 1)
		return fail(x, "the digest is not followed by the run's END (line %zu)",
			    run->recs[dn].line);
	return 0;
}

/* The run's END as read, its records= counting the records restated before it. */
static int expand_end(struct xp *x, const struct logrec *end)
{
	const struct rec_kept *r = end->r;
	struct rec_body b;

	rec_begin(&b, RK_END);
	rec_u64(&b, RK_RECORDS, x->out->nrecs);
	for (int k = 0; k < r->nfields; k++)
		if (strcmp(r->key[k], RK_RECORDS))
			rec_str(&b, r->key[k], r->val[k]);
	return add(x, &b, end->line);
}

/* The whole expansion: BEGIN, INFO, the events before the tests, pass by pass (in the order
 * the test lines first name them) the tests and their events, the events after, END. */
static int expand(struct xp *x)
{
	char passes[64][64];
	size_t np = 0;
	int rc = 0;

	if (x->dl[0].part != P_BEGIN)
		return fail(x, "the digest is damaged: line %zu is no part=%s line",
			    x->dl[0].lr->line, REC_PART_BEGIN);
	for (size_t k = 0; k < x->n && !rc; k++)
		if (x->dl[k].part == P_BEGIN || x->dl[k].part == P_INFO)
			rc = restate(x, &x->dl[k]);
	rc = rc ? rc : expand_untied(x, 0);
	for (size_t t = 0; t < x->n && !rc; t++) {
		char c[64];
		for (int j = 0; x->dl[t].part == P_TEST &&
				entry(x->dl[t].copies, j, c, sizeof c) == 0; j++) {
			size_t p;
			for (p = 0; p < np && strcmp(passes[p], c); p++)
				;
			if (p == np && np == sizeof passes / sizeof passes[0])
				return fail(x, "the digest is damaged: over %zu passes", np);
			if (p == np)
				snprintf(passes[np++], sizeof passes[0], "%s", c);
		}
	}
	for (size_t p = 0; p < np && !rc; p++)
		rc = expand_passes(x, passes[p]);
	rc = rc ? rc : expand_untied(x, 1);
	return rc ? rc : expand_end(x, &x->run->recs[x->d0 + x->n + 1]);
}

int digest_expand(const struct log *log, size_t i, struct run *out, char *why, size_t cap)
{
	const struct run *run = &log->runs[i];
	struct xp x = {run, NULL, 0, 0, NULL, out, why, cap};
	size_t d0;
	int rc;

	for (d0 = 0; d0 < run->nrecs && strcmp(run->recs[d0].r->kind, RK_DIGEST); d0++)
		;
	if (d0 == run->nrecs)
		return 0;
	memset(out, 0, sizeof *out);
	x.d0 = d0;
	if (!(x.r = malloc(sizeof *x.r)))
		return -2;
	rc = frame(&x, log, i);
	if (!rc && !(x.dl = calloc(x.n, sizeof *x.dl)))
		rc = -2;
	rc = rc ? rc : prepare(&x);
	rc = rc ? rc : expand(&x);
	for (size_t k = 0; x.dl && k < x.n; k++) {
		free(x.dl[k].test);
		free(x.dl[k].copies);
	}
	free(x.dl);
	free(x.r);
	if (rc) {
		log_run_free(out);
		return rc;
	}
	out->first_line = run->recs[d0].line;
	out->powered_off = run->powered_off;
	out->rebooted = run->rebooted;
	out->halted = run->halted;
	return 1;
}

/* The next record of whole, from index *k on, of kind and test (and copies, when r has them)
 * that r may restate, into *wp; *k then just past it. 0 when found, -1 when no more. */
static int original(const struct run *whole, const struct rec_kept *r,
		    const struct rec_kept **wp, size_t *k)
{
	const char *t = rec_get(r, RK_TESTNAME), *c = rec_get(r, RK_COPIES);

	for (; *k < whole->nrecs; ++*k) {
		const struct rec_kept *w = *wp = whole->recs[*k].r;
		if (strcmp(w->kind, r->kind))
			continue;
		const char *wt = rec_get(w, RK_TESTNAME), *wc = rec_get(w, RK_COPIES);
		if (t && wt && !strcmp(t, wt) && (!c || (wc && !strcmp(c, wc)))) {
			++*k;
			return 0;
		}
	}
	return -1;
}

/* 1 when key of a restated record of kind came from the record it restates: every field of
 * a SKIP or FAIL; a RESULT's figures (its unit, better and baseline come from its TEST). */
static int is_figure(const char *kind, const char *key)
{
	for (size_t f = 0; f < NFIG; f++)
		if (!strcmp(key, figures[f]))
			return 1;
	return strcmp(kind, RK_RESULT) != 0;
}

/* The first key of restated record r (of kind) whose value its original w does not hold;
 * -1 when w holds every one. */
static int disagrees(const char *kind, const struct rec_kept *r, const struct rec_kept *w)
{
	for (int k = 0; k < r->nfields; k++) {
		const char *v = rec_get(w, r->key[k]);
		if (strcmp(r->key[k], RK_CYCLES) && is_figure(kind, r->key[k]) &&
		    (!v || strcmp(v, r->val[k])))
			return k;
	}
	return -1;
}

/* One restated record lr against whole: 0 when a record of whole of its kind, test and
 * copies holds all it says (a test may hold two of a kind, e.g. a FAIL of each run in a log
 * written before the runner kept one outcome per test); -1 with why when none does. */
static int restated(const struct run *whole, const struct logrec *lr, char *why, size_t cap)
{
	const struct rec_kept *r = lr->r, *w;
	size_t k = 0;
	int bad = -1;	/* the first candidate's disagreeing key; -1: no candidate yet */
	char first[512] = "";

	while (!original(whole, r, &w, &k)) {
		int d = disagrees(lr->r->kind, r, w);
		if (d < 0)
			return 0;
		if (bad < 0) {
			const char *v = rec_get(w, r->key[d]);
			snprintf(first, sizeof first, "%s=%s, the log's %s says %s", r->key[d],
				 r->val[d], lr->r->kind, v ? v : "nothing");
			bad = d;
		}
	}
	if (bad < 0)
		snprintf(why, cap, "the digest is damaged: its %s of %s (line %zu) is not in the log",
			 lr->r->kind, rec_get(r, RK_TESTNAME) ? rec_get(r, RK_TESTNAME) : "-", lr->line);
	else
		snprintf(why, cap, "the digest is damaged: line %zu says %s %s", lr->line,
			 rec_get(r, RK_TESTNAME), first);
	return -1;
}

int digest_agrees(const struct run *whole, const struct run *x, char *why, size_t cap)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < x->nrecs; i++) {
		const struct logrec *lr = &x->recs[i];
		if (strcmp(lr->r->kind, RK_RESULT) && strcmp(lr->r->kind, RK_SKIP) &&
		    strcmp(lr->r->kind, RK_FAIL))
			continue;
		rc = restated(whole, lr, why, cap);
	}
	return rc;
}

int digest_restates(const struct run *part, const struct run *x, char *why, size_t cap)
{
	int rc = 0;

	for (size_t i = 0; !rc && i < part->nrecs; i++) {
		const struct logrec *lr = &part->recs[i];
		const struct rec_kept *w = lr->r, *r;
		if (strcmp(w->kind, RK_RESULT) && strcmp(w->kind, RK_SKIP) && strcmp(w->kind, RK_FAIL))
			continue;
		size_t k = 0;
		int found = 0;
		while (!found && !original(x, w, &r, &k))
			found = disagrees(w->kind, r, w) < 0;
		if (!found) {
			snprintf(why, cap, "the digest is not this log's: it does not restate the "
				 "log's %s of %s at line %zu", lr->r->kind,
				 rec_get(w, RK_TESTNAME) ? rec_get(w, RK_TESTNAME) : "-", lr->line);
			rc = -1;
		}
	}
	return rc;
}
