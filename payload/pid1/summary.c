/* summary.c — see summary.h. */
#define _GNU_SOURCE
#include "summary.h"
#include "../out.h"
#include "record.h"
#include "unixbench.h"
#include "vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 32
#define MAX_PASS 4

struct row {
	char test[32], title[41], baseline[16];
	char cell[MAX_PASS][12];	/* index, or SKIP/FAIL */
	char value[MAX_PASS][16];	/* the RESULT's value */
	double result[MAX_PASS];	/* the RESULT's value, 0 without one (FAIL, SKIP) */
};

struct sum {
	struct row rows[MAX_ROWS];
	int nrows, copies[MAX_PASS], npass;
	char end[128];
};

static struct row *row_of(struct sum *s, const char *test)
{
	for (int i = 0; i < s->nrows; i++)
		if (!strcmp(s->rows[i].test, test))
			return &s->rows[i];
	if (s->nrows == MAX_ROWS)
		return NULL;
	struct row *r = &s->rows[s->nrows++];
	memset(r, 0, sizeof *r);
	snprintf(r->test, sizeof r->test, "%s", test);
	snprintf(r->title, sizeof r->title, "%s", test);
	return r;
}

static int pass_of(struct sum *s, int copies)
{
	for (int i = 0; i < s->npass; i++)
		if (s->copies[i] == copies)
			return i;
	if (s->npass == MAX_PASS)
		return -1;
	s->copies[s->npass] = copies;
	return s->npass++;
}

/* The pass's System Benchmarks Index Score from its index tests' RESULT records (lib/
 * unixbench.c, as the runner's table computes it): "%.1f", or "---" without a result. */
static void pass_score(const struct sum *s, int p, char *out, size_t cap)
{
	struct ub_score sc;

	ub_score_init(&sc);
	for (int i = 0; i < s->nrows; i++)
		ub_score_add(&sc, s->rows[i].result[p], atof(s->rows[i].baseline));
	if (sc.n > 0)
		snprintf(out, cap, "%.1f", ub_score_value(&sc));
	else
		snprintf(out, cap, "---");
}

/* One line of the stream: a record (TEST with a baseline, RESULT/SKIP/FAIL of an index test,
 * END); anything else is ignored. */
static void take(struct sum *s, const char *line, size_t len, struct record *r)
{
	if (rec_parse(line, len, r) != REC_OK)
		return;
	const char *test = rec_get(r, RK_TESTNAME), *c = rec_get(r, RK_COPIES);
	if (!strcmp(r->kind, RK_END)) {
		snprintf(s->end, sizeof s->end, "%s results, %s fails, %s skips, %s errors",
			 rec_get(r, RK_RESULTS) ?: "?", rec_get(r, RK_FAILS) ?: "?",
			 rec_get(r, RK_SKIPS) ?: "?", rec_get(r, RK_ERRORS) ?: "?");
		return;
	}
	if (!test || !c)
		return;
	if (!strcmp(r->kind, RK_TEST)) {
		struct row *w;
		if (!rec_get(r, RK_BASELINE) || !(w = row_of(s, test)))
			return;
		snprintf(w->title, sizeof w->title, "%s", rec_get(r, RK_TITLE) ?: test);
		snprintf(w->baseline, sizeof w->baseline, "%s", rec_get(r, RK_BASELINE));
		pass_of(s, atoi(c));
		return;
	}
	int p;
	struct row *w;
	for (int i = 0; i < s->nrows; i++)
		if (!strcmp(s->rows[i].test, test))
			goto known;
	return;	/* not an index test */
known:
	p = pass_of(s, atoi(c));
	w = row_of(s, test);
	if (p < 0 || !w)
		return;
	if (!strcmp(r->kind, RK_RESULT)) {
		w->result[p] = atof(rec_get(r, RK_VALUE) ?: "0");
		snprintf(w->cell[p], sizeof w->cell[0], "%s", rec_get(r, RK_INDEX) ?: "-");
		snprintf(w->value[p], sizeof w->value[0], "%.1f", w->result[p]);
	}
	else if (!strcmp(r->kind, RK_SKIP) || !strcmp(r->kind, RK_FAIL))
		snprintf(w->cell[p], sizeof w->cell[0], "%.4s", r->kind);
}

/* A line being gathered across the stream's windows. */
struct gather {
	char line[REC_MAX];
	size_t ll;
	struct record r;
};

/* text (len bytes) into s: each line, once complete, a record or ignored. */
static void take_text(struct sum *s, struct gather *g, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (g->ll < sizeof g->line - 1)
			g->line[g->ll++] = text[i];
		if (text[i] == '\n') {
			g->line[g->ll] = 0;
			take(s, g->line, g->ll, &g->r);
			g->ll = 0;
		}
	}
}

#define PUT(...) (o += (size_t)snprintf(out + o, o < cap ? cap - o : 0, __VA_ARGS__))

/* The passes' index table and score into out; returns its length (as snprintf). */
static size_t index_table(const struct sum *s, char *out, size_t cap)
{
	size_t o = 0;
	/* One pass: UnixBench's own columns (BASELINE RESULT INDEX, 75 wide). More passes:
	 * BASELINE and each pass's INDEX side by side, the title narrowed to stay within 80. */
	int np = s->npass > 5 ? 5 : s->npass, tw = np <= 1 ? 40 : 80 - 10 - 12 * np;
	PUT("%-*s%10s", tw, "System Benchmarks Index Values", "BASELINE");
	if (np <= 1) {
		PUT("%13s%9s\n", "RESULT", "INDEX");
	} else {
		for (int p = 0; p < np; p++) {
			char h[16];
			snprintf(h, sizeof h, "%dx INDEX", s->copies[p]);
			PUT("%12s", h);
		}
		PUT("\n");
	}
	for (int i = 0; i < s->nrows; i++) {
		const struct row *w = &s->rows[i];
		PUT("%-*.*s%10s", tw, tw, w->title, w->baseline);
		if (np <= 1)
			PUT("%13s%9s\n", w->value[0][0] ? w->value[0] : w->cell[0][0] ? w->cell[0] : "-",
			    w->value[0][0] ? w->cell[0] : "-");
		else {
			for (int p = 0; p < np; p++)
				PUT("%12s", w->cell[p][0] ? w->cell[p] : "-");
			PUT("\n");
		}
	}
	PUT("%-*s%10s", tw, "System Benchmarks Index Score", "");
	for (int p = 0; p < (np ? np : 1); p++) {
		char sc[16] = "-";
		if (p < s->npass)
			pass_score(s, p, sc, sizeof sc);
		PUT(np <= 1 ? "%22s" : "%12s", sc);
	}
	PUT("\n");
	return o;
}

/* The page for s. A run of no index test (the disk, net or memory group alone) gets one line
 * instead of an empty table with a "---" score. */
static int render(const struct sum *s, char *out, size_t cap, const char *version)
{
	size_t o = 0;

	/* Clear the screen and home the cursor: the summary is all a photograph needs. */
	PUT("\033[2J\033[H");
	PUT("isobench %.30s: summary (details on serial and in the results file)\n", version);
	if (s->nrows)
		o += index_table(s, out + (o < cap ? o : cap), o < cap ? cap - o : 0);
	else
		PUT("No UnixBench index test ran: the results are on serial and in the results file.\n");
	PUT("Run: %s\n", s->end[0] ? s->end : "incomplete (no END record)");
	return o < cap ? (int)o : cap ? (int)cap - 1 : 0;
}
#undef PUT

int summary_of(const char *text, size_t len, char *out, size_t cap, const char *version)
{
	static struct sum s;
	static struct gather g;

	memset(&s, 0, sizeof s);
	g.ll = 0;
	take_text(&s, &g, text, len);
	return render(&s, out, cap, version);
}

int summary_build(char *out, size_t cap, const char *version)
{
	static char buf[65536];
	static struct sum s;
	static struct gather g;
	size_t off = 0;
	long len;

	memset(&s, 0, sizeof s);
	g.ll = 0;
	while ((len = out_stream_read(buf, sizeof buf, off)) > (long)off) {
		size_t n = (size_t)len - off < sizeof buf ? (size_t)len - off : sizeof buf;
		take_text(&s, &g, buf, n);
		off += n;
	}
	return render(&s, out, cap, version);
}
