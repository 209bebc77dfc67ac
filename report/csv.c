/* csv.c — see csv.h. */
#include "csv.h"
#include "cpuclk.h"
#include "pct.h"
#include "util.h"
#include "vocab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void csv_field(FILE *out, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

struct rowctx {
	FILE *out;
	const char *source, *label, *run_id;
};

static void row(const struct rowctx *x, const char *section, size_t line, long long seq,
		const char *kind, const char *test, int copies, const char *key, const char *val,
		const char *unit)
{
	char ln[32] = "", sq[32] = "", cp[16] = "";

	if (line)
		snprintf(ln, sizeof ln, "%zu", line);
	if (seq >= 0)
		snprintf(sq, sizeof sq, "%lld", seq);
	if (copies > 0)
		snprintf(cp, sizeof cp, "%d", copies);
	const char *f[CSV_COLUMNS] = {x->source, x->label, x->run_id, section, ln, sq,
				      kind, test, cp, key, val, unit};
	for (int i = 0; i < CSV_COLUMNS; i++) {
		if (i)
			fputc(',', x->out);
		csv_field(x->out, f[i]);
	}
	fputs("\r\n", x->out);
}

static void drow(const struct rowctx *x, size_t line, const char *test, int copies,
		 const char *key, double v, const char *unit)
{
	char buf[64] = "";
	if (isfinite(v))
		num_exact(buf, sizeof buf, v);
	row(x, "derived", line, -1, "", test, copies, key, buf, unit);
}

/* The unit a record field is in, where the grammar says. */
static const char *field_unit(const char *kind, const char *key, const char *rec_unit)
{
	static const char *const in_unit[] = {RK_VALUE, RK_MEDIAN, RK_MIN, RK_MAX, RK_BASELINE, NULL};
	if (!strcmp(key, RK_CI95))
		return "%";
	if (!strcmp(key, RK_NS) && !strcmp(kind, RK_SAMPLE))
		return REC_UNIT_NS;
	if (!strcmp(key, RK_INDEX))
		return "index";
	for (int i = 0; in_unit[i]; i++)
		if (!strcmp(key, in_unit[i]))
			return rec_unit ? rec_unit : "";
	return "";
}

/* One run's damaged lines, one row each. */
static void damage_rows(const struct rowctx *x, const struct log *log)
{
	for (size_t d = 0; d < log->ndamage; d++)
		row(x, "damage", log->damage[d].line, -1, "", "", 0, "damaged",
		    log_damage_why(log->damage[d].status), "");
}

/* Every record of m, a row per field (a record without fields: one row). */
static void record_rows(const struct rowctx *x, const struct model *m)
{
	for (size_t i = 0; i < m->nrecs; i++) {
		const struct rec_kept *r = m->recs[i].r;
		size_t line = m->recs[i].line;
		const char *test = rec_get(r, RK_TESTNAME), *unit = rec_get(r, RK_UNIT);
		long long copies;
		/* copies= is one count (a UINT1, checked when read, vocab.h) or a DIGEST's list
		 * (copies=1,2): 0, the empty column, for a record without one count. */
		if (rec_get_ll(r, RK_COPIES, 1, 1000000, &copies))
			copies = 0;
		if (!r->nfields)
			row(x, "record", line, (long long)r->seq, r->kind, test ? test : "",
			    (int)copies, "", "", "");
		for (int k = 0; k < r->nfields; k++)
			row(x, "record", line, (long long)r->seq, r->kind, test ? test : "",
			    (int)copies, r->key[k], r->val[k], field_unit(r->kind, r->key[k], unit));
	}
}

/* A latency percentile of the current test (pct_each()): one derived row in ns. */
struct pct_arg {
	const struct rowctx *x;
	const struct mtest *t;
};
static void pct_row(void *arg, const char *key, double v)
{
	const struct pct_arg *a = arg;
	drow(a->x, a->t->line, a->t->test, a->t->copies, key, v, REC_UNIT_NS);
}

/* What the report derives per test (figures, CI, direction, index) and per pass (score). */
static void derived_rows(const struct rowctx *x, const struct model *m)
{
	for (size_t i = 0; i < m->ntests; i++) {
		const struct mtest *t = &m->tests[i];
		if (!t->has_result) {
			row(x, "derived", t->line, -1, "", t->test, t->copies, "status",
			    t->status, "");
			continue;
		}
		drow(x, t->line, t->test, t->copies, "value", t->value, t->unit);
		drow(x, t->line, t->test, t->copies, "median", t->median, t->unit);
		drow(x, t->line, t->test, t->copies, "min", t->min, t->unit);
		drow(x, t->line, t->test, t->copies, "max", t->max, t->unit);
		drow(x, t->line, t->test, t->copies, "ci95_pct", t->ci95_pct, "%");
		drow(x, t->line, t->test, t->copies, "median_ci95_lo", t->ci_lo, t->unit);
		drow(x, t->line, t->test, t->copies, "median_ci95_hi", t->ci_hi, t->unit);
		if (t->converged >= 0)
			row(x, "derived", t->line, -1, "", t->test, t->copies, "converged",
			    t->converged ? "1" : "0", "");
		row(x, "derived", t->line, -1, "", t->test, t->copies, "better",
		    model_better(t), "");
		row(x, "derived", t->line, -1, "", t->test, t->copies, "direction",
		    cmp_direction(t->higher), "");
		struct pct_arg pa = {x, t};
		pct_each(t, pct_row, &pa);	/* latency percentiles (pct.h) */
		if (isfinite(t->clock_ns_x100))	/* one clock read's cost, and its share */
			drow(x, t->line, t->test, t->copies, MODEL_KEY_CLOCK_READ_NS,
			     t->clock_ns_x100 / 100, REC_UNIT_NS);
		if (isfinite(model_clock_share_pct(t)))
			drow(x, t->line, t->test, t->copies, MODEL_KEY_CLOCK_SHARE,
			     model_clock_share_pct(t), "%");
		struct clk_test ck;	/* the clock its SAMPLEs ran at (cpuclk.h) */
		clk_test_of(m, t, &ck);
		drow(x, t->line, t->test, t->copies, CLK_KEY_MHZ, ck.mhz, "MHz");
		row(x, "derived", t->line, -1, "", t->test, t->copies, RK_MHZ_METHOD, ck.method,
		    "");
		if (ub_is_index(t->baseline) && t->baseline > 0) {
			drow(x, t->line, t->test, t->copies, "baseline", t->baseline, t->unit);
			drow(x, t->line, t->test, t->copies, "index", t->index, "index");
		}
	}
	for (int p = 0; p < m->npass; p++)
		drow(x, 0, ub_score_partial(&m->pass[p].ub) ? "(index score, partial)"
							     : "(index score)",
		     m->pass[p].copies, "score", m->pass[p].score, "index");
}

/* A compared cell's p, the ratio's CI, the noise floor and what its mark rests on (compare.h
 * cmp_basis(): runs a side, paired, a verdict or not, in words), as rows of test/copies
 * read from log line line. */
static void sig_rows(const struct rowctx *x, size_t line, const char *test, int copies,
		     const struct cmp_cell *cl)
{
	char b[CMP_BASIS_MAX];

	drow(x, line, test, copies, "p_value", cl->p, "");
	drow(x, line, test, copies, "ratio_ci95_lo", cl->ratio_lo, "ratio");
	drow(x, line, test, copies, "ratio_ci95_hi", cl->ratio_hi, "ratio");
	drow(x, line, test, copies, "noise_floor_pct", cl->floor_pct, "%");
	drow(x, line, test, copies, "runs_a", (double)cl->runs_a, "runs");
	drow(x, line, test, copies, "runs_b", (double)cl->runs_b, "runs");
	row(x, "derived", line, -1, "", test, copies, "paired", cl->paired ? "1" : "0", "");
	row(x, "derived", line, -1, "", test, copies, "verdict", cmp_is_verdict(cl) ? "1" : "0",
	    "");
	row(x, "derived", line, -1, "", test, copies, "basis", cmp_basis(cl, b, sizeof b), "");
	if (cl->rep.answer != SIG_ANS_NONE) {	/* a verdict's answer (signif.h) */
		row(x, "derived", line, -1, "", test, copies, "answer",
		    sig_answer_word(cl->rep.answer), "");
		drow(x, line, test, copies, "q_value", cl->rep.q, "");
		drow(x, line, test, copies, "min_effect_pct", cl->rep.min_effect_pct, "%");
		drow(x, line, test, copies, "ratio_ci90_lo", cl->rep.eq_lo, "ratio");
		drow(x, line, test, copies, "ratio_ci90_hi", cl->rep.eq_hi, "ratio");
		if (cl->rep.answer == SIG_ANS_UNDECIDED && cl->rep.runs_needed)
			drow(x, line, test, copies, "runs_needed", (double)cl->rep.runs_needed,
			     "runs");
	}
	if (isfinite(cl->steal_pct))
		drow(x, line, test, copies, "steal_pct", cl->steal_pct, "%");
}

/* With replicates, side j's pooled figures of row r, the terms of its ratios (compare.h:
 * side_value the geometric mean of its runs' values, <pct>_side its latency percentiles). */
static void side_rows(const struct rowctx *x, const struct cmp *c, const struct cmp_row *r,
		      size_t j)
{
	const struct cmp_cell *cl = &r->cell[j];

	if (!c->replicated)
		return;
	drow(x, cl->t->line, r->test, r->copies, "side_value", cl->value, r->unit);
	for (int q = 0; q < LAT_NQ; q++) {
		char key[40];
		snprintf(key, sizeof key, "%s_side", lat_keys[q]);
		if (isfinite(cl->lat[q]))
			drow(x, cl->t->line, r->test, r->copies, key, cl->lat[q], REC_UNIT_NS);
	}
}

/* Run j's ratios to run 1 and their noise marks; with replicates, the side's pooled values
 * (side_rows()) and each pass's Index Score over the runs too (compare.h cmp_score_cell()). */
static void ratio_rows(const struct rowctx *x, const struct cmp *c, size_t j)
{
	for (size_t i = 0; c && i < c->nrows; i++) {
		const struct cmp_cell *cl = &c->rows[i].cell[j];
		char mk[2] = {cl->mark, 0};
		if (!cl->t)
			continue;
		side_rows(x, c, &c->rows[i], j);
		struct clk_test ck;	/* the side's clock: the median over its runs */
		char km[64];
		cmp_side_clock(c, j, c->rows[i].test, c->rows[i].copies, &ck);
		snprintf(km, sizeof km, "%s%s", RK_MHZ_METHOD, CLK_SIDE_SUFFIX);
		drow(x, cl->t->line, c->rows[i].test, c->rows[i].copies,
		     CLK_KEY_MHZ CLK_SIDE_SUFFIX, ck.mhz, "MHz");
		row(x, "derived", cl->t->line, -1, "", c->rows[i].test, c->rows[i].copies, km,
		    ck.method, "");
		if (!j)
			continue;
		drow(x, cl->t->line, c->rows[i].test, c->rows[i].copies, "ratio_to_run1",
		     cl->ratio, "ratio");
		row(x, "derived", cl->t->line, -1, "", c->rows[i].test, c->rows[i].copies,
		    "noise_mark", mk, "");
		row(x, "derived", cl->t->line, -1, "", c->rows[i].test, c->rows[i].copies,
		    "noise_method", cl->method, "");
		sig_rows(x, cl->t->line, c->rows[i].test, c->rows[i].copies, cl);
		for (int q = 0; q < LAT_NQ; q++) {	/* latency: lower is better (pct.h) */
			char key[40];
			snprintf(key, sizeof key, "%s_ratio_to_run1", lat_keys[q]);
			if (isfinite(pct_ratio(&c->rows[i], j, q)))
				drow(x, cl->t->line, c->rows[i].test, c->rows[i].copies, key,
				     pct_ratio(&c->rows[i], j, q), "ratio");
		}
	}
	for (int p = 0; c && p < c->nscore; p++) {	/* replicates: the scores */
		const struct cmp_cell *cl = &c->score[p][j];
		int copies = c->m[0]->pass[p].copies;
		char mk[2] = {cl->mark, 0};
		drow(x, 0, "(index score)", copies, "side_value", cl->value, "index");
		if (!j)
			continue;
		drow(x, 0, "(index score)", copies, "ratio_to_run1", cl->ratio, "ratio");
		row(x, "derived", 0, -1, "", "(index score)", copies, "noise_mark", mk, "");
		row(x, "derived", 0, -1, "", "(index score)", copies, "noise_method", cl->method, "");
		sig_rows(x, 0, "(index score)", copies, cl);
	}
}

int csv_report(FILE *out, const struct report_in *in, size_t n, const struct cmp *c)
{
	static const char *const head[CSV_COLUMNS] = {"source", "label", "run_id", "section",
						     "line", "seq", "kind", "test", "copies",
						     "key", "value", "unit"};
	for (int i = 0; i < CSV_COLUMNS; i++) {
		if (i)
			fputc(',', out);
		csv_field(out, head[i]);
	}
	fputs("\r\n", out);
	/* Every run (with replicates several a side, in[].side its column); a side's comparison
	 * rows once, on its first run. */
	for (size_t j = 0; j < n; j++) {
		const struct model *m = in[j].m;
		char own[200];	/* a run's own name (model_label()); a side's label is used whole */
		const char *label = own;
		if (c)
			label = c->label[in[j].side];
		else
			model_label(m, own, sizeof own);
		struct rowctx x = {out, in[j].source, label, m->run_id};
		damage_rows(&x, in[j].log);
		record_rows(&x, m);
		derived_rows(&x, m);
		if (!j || in[j - 1].side != in[j].side)
			ratio_rows(&x, c, in[j].side);
	}
	/* Comparison notes (a native run beside image runs, QEMU/TCG), one row each, and the
	 * TCG flag per side: the label alone does not say "emulation" to a spreadsheet. */
	for (size_t i = 0, j; c && c->nruns > 1 && i < n; i++) {
		if (i && in[i - 1].side == in[i].side)
			continue;
		j = in[i].side;
		struct rowctx x = {out, in[i].source, c->label[j], in[i].m->run_id};
		if (c->tcg[j])
			row(&x, "note", 0, -1, "", "", 0, "tcg",
			    "TCG: emulation, not a hypervisor cost", "");
		for (size_t i = 0; j == 0 && i < c->nnote; i++)
			row(&x, "note", 0, -1, "", "", 0, "note", c->note[i], "");
		for (size_t i = 0; j == 0 && i < c->nwarn; i++)
			row(&x, "note", 0, -1, "", "", 0, "warning", c->warn[i], "");
	}
	return ferror(out) ? -1 : 0;
}
