/* summary.c — see summary.h. */
#define _GNU_SOURCE
#include "summary.h"
#include "unixbench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_ROWS 32
#define MAX_PASS 4
#define TITLE_MAX 40	/* a title's characters shown at most: UnixBench's column (%-40s) */

struct row {
	const char *test, *title;	/* the descriptor's (runner.h struct runner_fact) */
	double baseline;
	char cell[MAX_PASS][12];	/* index, or SKIP/FAIL */
	char value[MAX_PASS][16];	/* the RESULT's value */
	double result[MAX_PASS];	/* the RESULT's value, 0 without one (FAIL, SKIP) */
};

static struct sum {
	struct row rows[MAX_ROWS];
	int nrows, copies[MAX_PASS], npass;
} s;

void summary_clear(void)
{
	memset(&s, 0, sizeof s);
}

/* The row of test, NULL when it is no index test (never announced with a baseline). */
static struct row *row_of(const char *test)
{
	for (int i = 0; i < s.nrows; i++)
		if (!strcmp(s.rows[i].test, test))
			return &s.rows[i];
	return NULL;
}

static int pass_of(int copies)
{
	for (int i = 0; i < s.npass; i++)
		if (s.copies[i] == copies)
			return i;
	if (s.npass == MAX_PASS)
		return -1;
	s.copies[s.npass] = copies;
	return s.npass++;
}

void summary_note(const struct runner_fact *f)
{
	struct row *w = row_of(f->test);
	int p;

	if (f->state == RUNNER_NONE) {	/* announced: an index test gets its row */
		if (!ub_is_index(f->baseline))
			return;
		if (!w && s.nrows < MAX_ROWS) {
			w = &s.rows[s.nrows++];
			memset(w, 0, sizeof *w);
			w->test = f->test;
		}
		if (!w)
			return;
		w->title = f->title;
		w->baseline = f->baseline;
		pass_of(f->copies);
		return;
	}
	if (!w || (p = pass_of(f->copies)) < 0)
		return;	/* not an index test, or past the passes kept */
	if (f->state == RUNNER_RESULT) {
		w->result[p] = f->value;
		if (isnan(f->index))
			snprintf(w->cell[p], sizeof w->cell[0], "-");
		else
			snprintf(w->cell[p], sizeof w->cell[0], "%.1f", f->index);
		snprintf(w->value[p], sizeof w->value[0], "%.1f", w->result[p]);
	} else {	/* the latest outcome alone: an earlier run's RESULT neither shown nor scored */
		w->result[p] = 0;
		w->value[p][0] = 0;
		snprintf(w->cell[p], sizeof w->cell[0], "%s",
			 f->state == RUNNER_SKIP ? "SKIP" : "FAIL");
	}
}

/* The pass's System Benchmarks Index Score from its index tests' results (lib/unixbench.c,
 * as the runner's table computes it): "%.1f", or "---" without a result. */
static void pass_score(int p, char *out, size_t cap)
{
	struct ub_score sc;

	ub_score_init(&sc);
	for (int i = 0; i < s.nrows; i++)
		ub_score_add(&sc, s.rows[i].result[p], s.rows[i].baseline);
	if (sc.n > 0)
		snprintf(out, cap, "%.1f", ub_score_value(&sc));
	else
		snprintf(out, cap, "---");
}

#define PUT(...) (o += (size_t)snprintf(out + o, o < cap ? cap - o : 0, __VA_ARGS__))

/* The passes' index table and score into out; returns its length (as snprintf). */
static size_t index_table(char *out, size_t cap)
{
	size_t o = 0;
	/* One pass: UnixBench's own columns (BASELINE RESULT INDEX, 75 wide). More passes:
	 * BASELINE and each pass's INDEX side by side, the title narrowed to stay within 80. */
	int np = s.npass > 5 ? 5 : s.npass, tw = np <= 1 ? 40 : 80 - 10 - 12 * np;
	PUT("%-*s%10s", tw, "System Benchmarks Index Values", "BASELINE");
	if (np <= 1) {
		PUT("%13s%9s\n", "RESULT", "INDEX");
	} else {
		for (int p = 0; p < np; p++) {
			char h[16];
			snprintf(h, sizeof h, "%dx INDEX", s.copies[p]);
			PUT("%12s", h);
		}
		PUT("\n");
	}
	for (int i = 0; i < s.nrows; i++) {
		const struct row *w = &s.rows[i];
		PUT("%-*.*s%10.1f", tw, tw < TITLE_MAX ? tw : TITLE_MAX, w->title, w->baseline);
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
		if (p < s.npass)
			pass_score(p, sc, sizeof sc);
		PUT(np <= 1 ? "%22s" : "%12s", sc);
	}
	PUT("\n");
	return o;
}

int summary_page(const struct out_counts *end, char *out, size_t cap, const char *version)
{
	size_t o = 0;

	/* Clear the screen and home the cursor: the summary is all a photograph needs. */
	PUT("\033[2J\033[H");
	PUT("isobench %.30s: summary (details on serial and in the results file)\n", version);
	if (s.nrows)
		o += index_table(out + (o < cap ? o : cap), o < cap ? cap - o : 0);
	else
		PUT("No UnixBench index test ran: the results are on serial and in the results file.\n");
	if (end)
		PUT("Run: %llu results, %llu fails, %llu skips, %llu errors\n",
		    (unsigned long long)end->results, (unsigned long long)end->fails,
		    (unsigned long long)end->skips, (unsigned long long)end->errors);
	else
		PUT("Run: incomplete (no END record)\n");
	return o < cap ? (int)o : cap ? (int)cap - 1 : 0;
}
#undef PUT

int summary_build(char *out, size_t cap, const char *version)
{
	return summary_page(out_last_end(), out, cap, version);
}
