/* json.c — see json.h. */
#define _GNU_SOURCE
#include "json.h"
#include "cpuclk.h"
#include "fleet.h"
#include "noisefloor.h"
#include "signif.h"
#include "pct.h"
#include "util.h"
#include "vocab.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *jnum(double d)
{
	return isfinite(d) ? json_real(d) : json_null();
}

static json_t *jstr(const char *s)
{
	json_t *j;

	if (!s)
		return json_null();
	if ((j = json_string(s)))
		return j;
	char *c = utf8_hex(s);	/* not UTF-8: its stray bytes as \xNN */
	if (!c)
		return NULL;
	j = json_string(c);
	free(c);
	return j;
}

/* set() that tolerates a NULL value (out of memory) by reporting it. */
static int put(json_t *o, const char *k, json_t *v)
{
	return v ? json_object_set_new(o, k, v) : -1;
}

/* {"p50_ns": v, ..., "from": how} of t (ns), or null when it has none (pct.h). */
static json_t *pct_obj(const struct mtest *t)
{
	json_t *o;

	if (!t->has_lat || !(o = json_object()))
		return json_null();
	for (int q = 0; q < LAT_NQ; q++)
		json_object_set_new(o, lat_keys[q], jnum(t->lat[q]));
	/* "whole_run": of every sample's histogram merged (the RESULT's); "sample_median": the
	 * median of the samples' own percentiles (a log written before whole-run figures). */
	json_object_set_new(o, "from", json_string(t->lat_whole ? "whole_run" : "sample_median"));
	return o;
}

/* {"p50_ns": ratio, ...} of cell j of r to cell 0 (lower is better), or null. */
static json_t *pct_ratio_obj(const struct cmp_row *r, size_t j)
{
	json_t *o;

	if (!j || !pct_has(r, 0) || !pct_has(r, j) || !(o = json_object()))
		return json_null();
	for (int q = 0; q < LAT_NQ; q++) {
		double x = pct_ratio(r, j, q);
		json_object_set_new(o, lat_keys[q], jnum(x));
	}
	return o;
}

static json_t *test_obj(const struct model *m, const struct mtest *t)
{
	json_t *o = json_object(), *smp = json_array();
	int e = !o || !smp;

	if (e) {
		json_decref(o);
		json_decref(smp);
		return NULL;
	}
	e |= put(o, "test", jstr(t->test));
	e |= put(o, "title", jstr(t->title));
	e |= put(o, "group", jstr(t->group));
	e |= put(o, "unit", jstr(t->unit));
	e |= put(o, "better", jstr(model_better(t)));
	e |= put(o, "direction", jstr(cmp_direction(t->higher)));
	e |= put(o, "copies", json_integer(t->copies));
	e |= put(o, "status", jstr(t->status));
	e |= put(o, "reason", jstr(t->reason));
	e |= put(o, "line", json_integer((json_int_t)t->line));
	e |= put(o, "baseline", t->has_baseline ? jnum(t->baseline) : json_null());
	e |= put(o, "value", t->has_result ? jnum(t->value) : json_null());
	e |= put(o, "whole", t->has_result ? jnum(t->whole) : json_null());
	e |= put(o, "whole_from", t->has_result ? json_string(t->whole_from) : json_null());
	e |= put(o, "steal_pct", t->has_result ? jnum(t->steal_pct) : json_null());
	e |= put(o, "median", jnum(t->median));
	e |= put(o, "min", jnum(t->min));
	e |= put(o, "max", jnum(t->max));
	e |= put(o, "ci95_pct", jnum(t->ci95_pct));
	e |= put(o, "index", jnum(t->index));
	e |= put(o, "samples", json_integer(t->samples));
	e |= put(o, "converged", t->converged < 0 ? json_null() : json_boolean(t->converged));
	e |= put(o, "stop", jstr(t->stop));
	e |= put(o, "samples_needed",
		 t->samples_needed < 0 ? json_null() : json_integer(t->samples_needed));
	e |= put(o, "median_ci95_lo", jnum(t->ci_lo));
	e |= put(o, "median_ci95_hi", jnum(t->ci_hi));
	e |= put(o, "median_ci95_from", jstr(t->ci_from));
	e |= put(o, "latency_ns", pct_obj(t));	/* percentiles, lower is better (pct.h) */
	e |= put(o, MODEL_KEY_CLOCK_READ_NS, jnum(t->clock_ns_x100 / 100));	/* NAN: null */
	e |= put(o, MODEL_KEY_CLOCK_SHARE, jnum(model_clock_share_pct(t)));
	struct clk_test ck;	/* the clock its SAMPLEs ran at (cpuclk.h) */
	clk_test_of(m, t, &ck);
	e |= put(o, CLK_KEY_MHZ, jnum(ck.mhz));
	e |= put(o, RK_MHZ_METHOD, jstr(ck.method));
	e |= put(o, "cpu_pct", jnum(ck.cpu_pct));
	e |= put(o, "cpu_bound", json_boolean(ck.cpu_bound));
	for (size_t i = 0; i < t->nsmp; i++) {
		json_t *s = json_pack("{s:I, s:b, s:o, s:I}", "i", (json_int_t)t->smp[i].i, "warmup",
				      t->smp[i].warmup, "value", jnum(t->smp[i].value), "line",
				      (json_int_t)t->smp[i].line);
		e |= !s || json_array_append_new(smp, s);
	}
	e |= put(o, "sample_list", smp);
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A verdict's answer (signif.h's three, issue 46) as an object: answer (different, equivalent,
 * undecided), the ratio (> 1: B better) with its 95% interval, the TOST 90% interval, the
 * Benjamini-Hochberg q, the min-effect it was judged against, the runs that would decide an
 * undecided one (null: more than SIG_RUNS_MAX), and the whole in words; null for none. */
static json_t *json_answer(const struct sig_rep *r)
{
	char t[256];

	if (r->answer == SIG_ANS_NONE)
		return json_null();
	return json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:s}",
			 "answer", sig_answer_word(r->answer), "ratio", jnum(r->ratio),
			 "ratio_ci95_lo", jnum(r->lo), "ratio_ci95_hi", jnum(r->hi),
			 "ratio_ci90_lo", jnum(r->eq_lo), "ratio_ci90_hi", jnum(r->eq_hi),
			 "q_value", jnum(r->q), "min_effect_pct", jnum(r->min_effect_pct),
			 "runs_needed", r->answer == SIG_ANS_UNDECIDED && r->runs_needed
			 ? json_integer((json_int_t)r->runs_needed) : json_null(),
			 "p_value", jnum(r->p), "text", sig_answer_text(r, t, sizeof t));
}

/* A compared cell's significance (compare.h): how its mark was decided, the p-value, the
 * ratio's 95% bootstrap interval and the noise floor it had to pass. 0, or 1 on error. */
static int significance(json_t *cell, const struct cmp_cell *cl)
{
	int e = !cell;
	e |= put(cell, "method", json_string(cl->method));
	e |= put(cell, "p_value", jnum(cl->p));
	e |= put(cell, "ratio_ci95_lo", jnum(cl->ratio_lo));
	e |= put(cell, "ratio_ci95_hi", jnum(cl->ratio_hi));
	e |= put(cell, "noise_floor_pct", jnum(cl->floor_pct));
	e |= put(cell, "noise_floor_from", json_string(cl->floor_from));
	/* what the mark rests on (compare.h cmp_basis): runs a side, paired, the test */
	char b[CMP_BASIS_MAX];
	e |= put(cell, "runs_a", json_integer((json_int_t)cl->runs_a));
	e |= put(cell, "runs_b", json_integer((json_int_t)cl->runs_b));
	e |= put(cell, "paired", json_boolean(cl->paired));
	e |= put(cell, "verdict", json_boolean(cmp_is_verdict(cl)));
	e |= put(cell, "basis", json_string(cmp_basis(cl, b, sizeof b)));
	e |= put(cell, "answer", json_answer(&cl->rep));
	e |= put(cell, "steal_pct", jnum(cl->steal_pct));
	return e;
}

/* The parts of a run's object, each into its array (or object) a; nonzero on error. */
static int fill_info(json_t *info, const struct model *m)
{
	int e = 0;
	for (size_t i = 0; !e && i < m->ninfo; i++)
		e |= put(info, m->info[i].key, jstr(m->info[i].val));
	return e;
}

static int fill_passes(json_t *passes, const struct model *m)
{
	int e = 0;
	for (int p = 0; !e && p < m->npass; p++)
		e |= json_array_append_new(
			passes, json_pack("{s:i,s:i,s:o,s:b,s:s}", "copies", m->pass[p].copies,
					  "index_tests", m->pass[p].nindex, "score",
					  jnum(m->pass[p].score), "partial",
					  ub_score_partial(&m->pass[p].ub), "unit", "index"));
	return e;
}

static int fill_tests(json_t *tests, const struct model *m)
{
	int e = 0;
	for (size_t i = 0; !e && i < m->ntests; i++) {
		json_t *t = test_obj(m, &m->tests[i]);
		e |= !t || json_array_append_new(tests, t);
	}
	return e;
}

static int fill_events(json_t *ev, const struct model *m)
{
	int e = 0;
	for (size_t i = 0; !e && i < m->nev; i++)
		e |= json_array_append_new(
			ev, json_pack("{s:s,s:o,s:o,s:o,s:o,s:i,s:I}", "kind", m->ev[i].kind, "test",
				      jstr(m->ev[i].test), "reason", jstr(m->ev[i].reason), "what",
				      jstr(m->ev[i].what), "value", jstr(m->ev[i].value), "copies",
				      m->ev[i].copies, "line", (json_int_t)m->ev[i].line));
	return e;
}

static int fill_records(json_t *recs, const struct model *m)
{
	int e = 0;
	for (size_t i = 0; !e && i < m->nrecs; i++) {
		const struct rec_kept *r = m->recs[i].r;
		json_t *f = json_object();
		for (int k = 0; f && !e && k < r->nfields; k++)
			e |= put(f, r->key[k], jstr(r->val[k]));
		e |= !f || json_array_append_new(
				   recs, json_pack("{s:I,s:I,s:s,s:o}", "line",
						   (json_int_t)m->recs[i].line, "seq",
						   (json_int_t)r->seq, "kind", r->kind, "fields", f));
	}
	return e;
}

static int fill_damage(json_t *dmg, const struct log *log)
{
	int e = 0;
	for (size_t d = 0; !e && d < log->ndamage; d++)
		e |= json_array_append_new(
			dmg, json_pack("{s:I,s:s}", "line", (json_int_t)log->damage[d].line, "why",
				       log_damage_why(log->damage[d].status)));
	return e;
}

static json_t *model_obj(const struct report_in *in, const char *label)
{
	const struct model *m = in->m;
	const struct log *log = in->log;
	json_t *o = json_object(), *info = json_object(), *passes = json_array(),
	       *tests = json_array(), *ev = json_array(), *recs = json_array(),
	       *dmg = json_array();
	int e = !o || !info || !passes || !tests || !ev || !recs || !dmg;

	e |= put(o, "source", jstr(in->source));
	e |= put(o, "label", jstr(label));
	e |= put(o, "run_index", json_integer(in->run + 1));
	e |= put(o, "runs_in_log", json_integer((json_int_t)log->nruns));
	e |= put(o, "run_id", jstr(m->run_id));
	e |= put(o, "version", jstr(m->version));
	e |= put(o, "mode", jstr(m->mode));
	e |= put(o, "first_line", json_integer((json_int_t)m->first_line));
	e |= put(o, "last_line", json_integer((json_int_t)m->last_line));
	e |= put(o, "complete", json_boolean(log->runs[in->run].complete));
	e |= put(o, "powered_off", json_boolean(m->powered_off));
	e |= put(o, "counts", json_pack("{s:I,s:I,s:I,s:I}", "results", (json_int_t)m->results,
					"fails", (json_int_t)m->fails, "skips",
					(json_int_t)m->skips, "errors", (json_int_t)m->errors));
	e = e || fill_info(info, m);
	e |= put(o, "info", info);
	if (strcmp(model_info(m, RK_RUN_PEER), "-"))	/* the net tests' two ends */
		e |= put(o, "network", json_pack(
			"{s:{s:s,s:s,s:s,s:s,s:s},s:{s:s,s:s,s:s,s:s,s:s}}",
			"this_end", "nic", model_info(m, RK_NIC_NAME), "driver",
			model_info(m, RK_NIC_DRIVER), "pci_id", model_info(m, RK_NIC_PCI_ID),
			"addr", model_info(m, RK_NIC_ADDR), "mtu", model_info(m, RK_NIC_MTU),
			"peer", "addr", model_info(m, RK_RUN_PEER), "host",
			model_info(m, RK_PEER_HOST), "kernel", model_info(m, RK_PEER_KERNEL),
			"machine", model_info(m, RK_PEER_MACHINE), "nic",
			model_info(m, RK_PEER_NIC)));
	info = NULL;
	e = e || fill_passes(passes, m);
	e |= put(o, "passes", passes);
	passes = NULL;
	e = e || fill_tests(tests, m);
	e |= put(o, "tests", tests);
	tests = NULL;
	e |= put(o, "ci_target_pct", jnum(m->ci_target_pct));
	e |= put(o, "tcg", json_boolean(model_is_tcg(m)));
	e = e || fill_events(ev, m);
	e |= put(o, "events", ev);
	ev = NULL;
	e = e || fill_records(recs, m);
	e |= put(o, "records", recs);
	recs = NULL;
	e = e || fill_damage(dmg, log);
	e |= put(o, "damaged_lines", dmg);
	dmg = NULL;
	if (e) {
		json_decref(o);
		json_decref(info);
		json_decref(passes);
		json_decref(tests);
		json_decref(ev);
		json_decref(recs);
		json_decref(dmg);
		return NULL;
	}
	return o;
}

/* A cell's noise mark as JSON's word; the first column is the reference. */
static const char *mark_word(size_t j, char mark)
{
	return j == 0 ? "reference" : mark == '~' ? "within-noise" : mark == '*' ? "beyond-noise"
	       : mark == '=' ? "equivalent" : mark == '?' ? "unknown" : "missing";
}

/* With replicates, each pass's Index Score over the runs (compare.h struct cmp score), as
 * an array; *e is set on an allocation failure. */
static json_t *scores_arr(const struct cmp *c, int *e)
{
	json_t *scores = json_array();

	*e |= !scores;
	for (int p = 0; !*e && p < c->nscore; p++) {
		json_t *cells = json_array();
		for (size_t j = 0; cells && !*e && j < c->nruns; j++) {
			const struct cmp_cell *cl = &c->score[p][j];
			*e |= json_array_append_new(
				cells, json_pack("{s:o,s:o,s:o,s:s}", "label", jstr(c->label[j]),
						 "value", jnum(cl->value), "ratio", jnum(cl->ratio),
						 "mark", mark_word(j, cl->mark)));
			*e |= j > 0 && significance(json_array_get(cells, j), cl);
		}
		*e |= !cells || json_array_append_new(
					scores, json_pack("{s:i,s:o}", "copies",
							  c->m[0]->pass[p].copies, "cells", cells));
	}
	return scores;
}

/* The comparison's rows, one per test and copy count, each with its cells (one per run):
 * a new array, NULL with *e set when it could not be built. */
static json_t *rows_arr(const struct cmp *c, int *e)
{
	json_t *rows = json_array();

	*e |= !rows;
	for (size_t i = 0; !*e && i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		json_t *cells = json_array();
		for (size_t j = 0; cells && !*e && j < c->nruns; j++) {
			const struct cmp_cell *cl = &r->cell[j];
			/* A run's median CI belongs to a one-run cell only: beside a side's
			 * geometric mean over its runs it is null (the ratio's CI is the
			 * between-run one, in significance()). */
			const struct mtest *own = c->side_runs && c->side_runs[j] > 1 ? NULL : cl->t;
			*e |= json_array_append_new(
				cells, json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:s,s:o}", "label",
						 jstr(c->label[j]), "value",
						 /* the run's, or the side's geometric mean */
						 cl->t ? jnum(cl->value) : json_null(), "ratio",
						 jnum(cl->ratio), "median_ci95_lo",
						 own ? jnum(own->ci_lo) : json_null(),
						 "median_ci95_hi",
						 own ? jnum(own->ci_hi) : json_null(),
						 "converged",
						 !cl->t || cl->converged < 0
							 ? json_null()
							 : json_boolean(cl->converged),
						 "mark", mark_word(j, cl->mark),
						 "latency_ratio", pct_ratio_obj(r, j)));
			*e |= j > 0 && significance(json_array_get(cells, j), cl);
			struct clk_test ck;	/* the side's clock: median over its runs */
			cmp_side_clock(c, j, r->test, r->copies, &ck);
			*e |= put(json_array_get(cells, j), CLK_KEY_MHZ, jnum(ck.mhz));
			*e |= put(json_array_get(cells, j), RK_MHZ_METHOD, jstr(ck.method));
		}
		*e |= !cells || json_array_append_new(
				       rows, json_pack("{s:o,s:o,s:o,s:s,s:s,s:i,s:b,s:o}", "test",
						       jstr(r->test), "title", jstr(r->title), "unit",
						       jstr(r->unit), "better",
						       r->higher == 1 ? REC_BETTER_HIGHER
						       : r->higher == 0 ? REC_BETTER_LOWER : "unknown",
						       "direction", cmp_direction(r->higher), "copies",
						       r->copies, "index", r->is_index, "cells", cells));
	}
	return rows;
}

/* compare.h's all-rows: one object per test of run 1's all-CPUs pass, a cell per run (its
 * copies, total, per_copy, ratio of the per-copy figures); [] when the counts agree. */
static json_t *all_cpus_arr(const struct cmp *c, int *e)
{
	json_t *rows = json_array();

	*e |= !rows;
	for (size_t i = 0; !*e && i < c->nallrows; i++) {
		const struct cmp_allrow *r = &c->allrows[i];
		json_t *cells = json_array();
		*e |= !cells;
		for (size_t j = 0; !*e && j < c->nruns; j++) {
			const struct cmp_allcell *cl = &r->cell[j];
			*e |= json_array_append_new(
				cells, json_pack("{s:i,s:o,s:o,s:o}", "copies", cl->copies, "total",
						 cl->t ? jnum(cl->total) : json_null(), "per_copy",
						 cl->t ? jnum(cl->per_copy) : json_null(), "ratio",
						 jnum(cl->ratio)));
		}
		*e |= !cells || json_array_append_new(
				       rows, json_pack("{s:o,s:o,s:o,s:o}", "test", jstr(r->test),
						       "title", jstr(r->title), "unit", jstr(r->unit),
						       "cells", cells));
	}
	return rows;
}

static json_t *cmp_obj(const struct cmp *c)
{
	json_t *o = json_object(), *labels = json_array(), *warn = json_array(),
	       *notes = json_array(), *tcg = json_array();
	int e = !o || !labels || !warn || !notes || !tcg;

	for (size_t j = 0; !e && j < c->nruns; j++)
		e |= json_array_append_new(labels, jstr(c->label[j]));
	for (size_t i = 0; !e && i < c->nwarn; i++)
		e |= json_array_append_new(warn, jstr(c->warn[i]));
	for (size_t i = 0; !e && i < c->nnote; i++)
		e |= json_array_append_new(notes, jstr(c->note[i]));
	for (size_t j = 0; !e && j < c->nruns; j++)
		e |= json_array_append_new(tcg, json_boolean(c->tcg[j]));
	json_t *rows = rows_arr(c, &e);
	json_t *scores = scores_arr(c, &e);

	e |= put(o, "index_scores", scores);
	e |= put(o, "labels", labels);
	e |= put(o, "warnings", warn);
	e |= put(o, "notes", notes);
	e |= put(o, "tcg", tcg);
	e |= put(o, "rows", rows);
	e |= put(o, "all_cpus", all_cpus_arr(c, &e));
	e |= put(o, "flagged", json_integer((json_int_t)c->flagged));
	/* cells flagged on replicates (>= 3 runs a side): what exit status 4 rests on */
	e |= put(o, "verdicts", json_integer((json_int_t)c->verdicts));
	e |= put(o, "replicated", json_boolean(c->replicated));
	e |= put(o, "ratio", json_string("performance relative to the first run by each row's "
					 "direction (better); > 1 is better"));
	char rule[900];
	snprintf(rule, sizeof rule, "method mann-whitney (>= %d samples a side): beyond-noise when "
		 "p_value < %g and " NOISE_FLOOR_RULE ", else within-noise; method "
		 "ci-overlap (fewer samples): beyond-noise when the medians' 95%% CIs do not "
		 "overlap; methods welch-t and paired-t (replicates, >= %d runs a side, on "
		 "the runs' whole-run values): a verdict, its answer in answer (min-effect: "
		 "min_effect_pct, q: q_value over every verdict cell, runs: runs_needed): %s",
		 SIG_MIN_N, SIG_ALPHA, SIG_REP_MIN, sig_rule());
	e |= put(o, "noise_rule", json_string(rule));
	e |= put(o, "index_score_rows",
		 json_string(c->replicated
			     ? "index_scores: each run's score is that run's value, the side's "
			       "score and verdict over its runs as a test's are (not counted in "
			       "verdicts); compared only when every run of both sides holds the "
			       "same index tests"
			     : "no noise mark: a score is a geometric mean without its own "
			       "confidence interval; compared only when both runs hold the same "
			       "index tests"));
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The one writer of every JSON document: root (taken, NULL: out of memory) indented by one,
 * numbers to 17 significant digits (a double read back exactly), a newline after it; ascii:
 * any character beyond ASCII as \uXXXX (the report's documents; the fleet's writes UTF-8 as
 * is). Returns 0, or -1 when root is NULL or the write fails. */
static int dump(FILE *out, json_t *root, int ascii)
{
	int rc = root ? json_dumpf(root, out, JSON_INDENT(1) | (ascii ? JSON_ENSURE_ASCII : 0) |
					      JSON_REAL_PRECISION(17))
		      : -1;
	if (!rc)
		fputc('\n', out);
	json_decref(root);
	return rc ? -1 : 0;
}

int json_report(FILE *out, const struct report_in *in, size_t n, const struct cmp *c)
{
	json_t *root = json_object(), *runs = json_array();
	int e = !root || !runs;

	e |= put(root, "format", json_string("isobench-report/2"));
	for (size_t j = 0; !e && j < n; j++) {	/* every run, several a side with replicates */
		json_t *m = model_obj(&in[j], c ? c->label[in[j].side] : NULL);
		e |= !m || json_array_append_new(runs, m);
	}
	e |= put(root, "runs", runs);
	if (!e && c && c->nruns > 1)
		e |= put(root, "comparison", cmp_obj(c));
	if (e) {
		json_decref(root);
		return -1;
	}
	return dump(out, root, 1);
}

int json_bench(FILE *out, const struct report_in *in, size_t n, const struct cmp *c, int smaller)
{
	json_t *list = json_array();
	int e = !list;

	for (size_t j = 0; !e && j < n; j++) {
		const struct model *m = in[j].m;
		const char *pre = n > 1 && c ? c->label[j] : NULL;
		for (size_t i = 0; !e && i < m->ntests; i++) {
			const struct mtest *t = &m->tests[i];
			char *name, *extra;
			if (!t->has_result || !isfinite(t->value) || t->higher < 0 ||
			    t->higher == smaller)
				continue;
			if (asprintf(&name, "%s%s%s (%d cop%s)", pre ? pre : "", pre ? ": " : "",
				     t->title, t->copies, t->copies == 1 ? "y" : "ies") < 0)
				return json_decref(list), -1;
			char med[40], ci[40];
			if (asprintf(&extra, "test=%s median=%s ci95_pct=%s samples=%ld%s; %s",
				     t->test, num_exact(med, sizeof med, t->median),
				     num_exact(ci, sizeof ci, t->ci95_pct), t->samples,
				     t->converged == 0 ? " converged=0" : "",
				     cmp_direction(t->higher)) < 0) {
				free(name);
				return json_decref(list), -1;
			}
			e |= json_array_append_new(list, json_pack("{s:o,s:o,s:f,s:o}", "name",
								 jstr(name), "unit", jstr(t->unit),
								 "value", t->value, "extra",
								 jstr(extra)));
			free(name);
			free(extra);
		}
		for (int p = 0; !e && !smaller && p < m->npass; p++) {
			char *name;
			if (!m->pass[p].nindex)
				continue;
			if (asprintf(&name, "%s%sSystem Benchmarks Index Score%s (%d cop%s)",
				     pre ? pre : "", pre ? ": " : "",
				     ub_score_partial(&m->pass[p].ub) ? " (Partial Only)" : "",
				     m->pass[p].copies, m->pass[p].copies == 1 ? "y" : "ies") < 0)
				return json_decref(list), -1;
			e |= json_array_append_new(list, json_pack("{s:o,s:s,s:f}", "name", jstr(name),
								 "unit", "index", "value",
								 m->pass[p].score));
			free(name);
		}
	}
	if (e) {
		json_decref(list);
		return -1;
	}
	return dump(out, list, 1);
}

int json_fleet(FILE *out, const struct fleet *f, const char *by)
{
	json_t *root = json_object(), *groups = json_array(), *rows = json_array(),
	       *warn = json_array();
	if (!root || !groups || !rows || !warn)
		goto oom;
	json_object_set_new(root, "format", json_string("isobench-fleet/3"));
	json_object_set_new(root, "group_by", json_string(by));
	json_object_set_new(root, "reference", f->ngroups ? json_string(f->groups[0]) : json_null());
	for (size_t g = 0; g < f->ngroups; g++) {
		json_t *o = json_object(), *srcs = json_array();
		for (size_t i = 0; i < f->nruns; i++)
			if (!strcmp(f->runs[i].group, f->groups[g]))
				json_array_append_new(srcs, json_string(f->runs[i].path));	/* as read */
		json_object_set_new(o, "name", json_string(f->groups[g]));
		json_object_set_new(o, "tcg", json_boolean(strstr(f->groups[g], "QEMU/TCG") != NULL));
		json_object_set_new(o, "sources", srcs);
		json_array_append_new(groups, o);
	}
	for (size_t r = 0; r < f->nrows; r++) {
		const struct frow *row = &f->rows[r];
		json_t *o = json_object(), *cells = json_array();
		json_object_set_new(o, "test", json_string(row->test));
		json_object_set_new(o, "pass", json_string(row->pass));
		json_object_set_new(o, "unit", json_string(row->unit));
		for (size_t g = 0; g < f->ngroups; g++) {
			const struct fcell *cl = &row->cell[g];
			json_t *c = json_object();
			char mk[2] = {cl->mark, 0};
			json_object_set_new(c, "group", json_string(f->groups[g]));
			json_object_set_new(c, "n", json_integer((json_int_t)cl->n));
			json_object_set_new(c, "median", cl->n ? jnum(cl->s.median) : json_null());
			json_object_set_new(c, "min", cl->n ? jnum(cl->s.min) : json_null());
			json_object_set_new(c, "max", cl->n ? jnum(cl->s.max) : json_null());
			json_object_set_new(c, "median_ci95_lo", cl->n ? jnum(cl->s.ci_lo) : json_null());
			json_object_set_new(c, "median_ci95_hi", cl->n ? jnum(cl->s.ci_hi) : json_null());
			json_object_set_new(c, "ratio", g == 0 && cl->n ? json_real(1) : jnum(cl->ratio));
			json_object_set_new(c, "mark", cl->mark == ' ' ? json_null() : json_string(mk));
			json_object_set_new(c, "p_value", jnum(cl->p));
			json_object_set_new(c, "method", json_string(cl->method));
			json_object_set_new(c, "ratio_gm", jnum(cl->gm_ratio));
			json_object_set_new(c, "ratio_gm_ci95_lo", jnum(cl->gm_lo));
			json_object_set_new(c, "ratio_gm_ci95_hi", jnum(cl->gm_hi));
			json_object_set_new(c, "answer", json_answer(&cl->rep));
			if (cl->rep.answer != SIG_ANS_NONE) {	/* what it rests on, in words */
				char b[512];
				json_object_set_new(c, "basis", json_string(sig_basis_text(
					&cl->rep, b, sizeof b)));
			}
			if (cl->lat_runs) {	/* the group's pooled tails (fleet.h) */
				json_t *lat = json_object();
				for (int q = 0; lat && q < LAT_NQ; q++)
					json_object_set_new(lat, lat_keys[q], jnum(cl->lat[q]));
				json_object_set_new(lat, "runs", json_integer((json_int_t)cl->lat_runs));
				json_object_set_new(lat, "from", json_string(cl->lat_hists == cl->lat_runs
										? "pooled"
										: "not-pooled"));
				json_object_set_new(c, "latency_ns", lat);
			}
			json_array_append_new(cells, c);
		}
		json_object_set_new(o, "groups", cells);
		json_array_append_new(rows, o);
	}
	for (size_t w = 0; w < f->nwarn; w++)
		json_array_append_new(warn, json_string(f->warn[w]));
	json_object_set_new(root, "groups", groups);
	json_object_set_new(root, "rows", rows);
	json_object_set_new(root, "warnings", warn);
	return dump(out, root, 0);
oom:
	json_decref(root);
	json_decref(groups);
	json_decref(rows);
	json_decref(warn);
	return -1;
}

/* ---- the results store's answers (json.h) ---- */

static json_t *hist_root(const char *what, json_t *list)
{
	json_t *root = json_object();
	if (!root || !list || put(root, "format", json_string("isobench-history/1")) ||
	    put(root, what, list)) {
		json_decref(root);
		json_decref(list);
		return NULL;
	}
	return root;
}

int json_hist_runs(FILE *out, const struct store_run *r, size_t n)
{
	json_t *a = json_array();
	int e = !a;

	for (size_t i = 0; !e && i < n; i++)
		e |= json_array_append_new(a, json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:I,"
							"s:I,s:I,s:I}",
			"run_id", jstr(r[i].run_id), "date", jstr(r[i].date),
			"machine", jstr(r[i].machine), "hv", jstr(r[i].hv), "image", jstr(r[i].image),
			"kernel", jstr(r[i].kernel), "arch", jstr(r[i].arch),
			"version", jstr(r[i].version), "source", jstr(r[i].source),
			"results", (json_int_t)r[i].results, "fails", (json_int_t)r[i].fails,
			"skips", (json_int_t)r[i].skips, "errors", (json_int_t)r[i].errors));
	if (e) {
		json_decref(a);
		return -1;
	}
	return dump(out, hist_root("runs", a), 1);
}

int json_hist_trend(FILE *out, const struct hist_trend *t)
{
	json_t *a = json_array();
	int e = !a;

	for (size_t k = 0; !e && k < t->ns; k++) {
		const struct hist_series *s = &t->s[k];
		json_t *pts = json_array();
		e |= !pts;
		for (size_t i = s->first; !e && i < s->first + s->n; i++) {
			const struct store_point *q = &t->pts[i];
			e |= json_array_append_new(pts, json_pack("{s:o,s:o,s:o,s:o,s:b,s:o}",
				"run_id", jstr(q->run_id), "date", jstr(q->date),
				"value", jnum(q->value), "level", jnum(t->level[i]),
				"change", t->change[i], "p", jnum(t->p[i])));
		}
		json_t *o = e ? NULL : json_pack("{s:o,s:i,s:o,s:o,s:s,s:o,s:I,s:o}",
			"test", jstr(s->test), "copies", s->copies, "machine", jstr(s->machine),
			"unit", jstr(s->unit), "better", s->higher == 1 ? "higher"
				: s->higher == 0 ? "lower" : "unknown",
			"noise_floor_pct", jnum(s->floor_pct), "change_points", (json_int_t)s->changes,
			"points", pts);
		if (!o)
			json_decref(pts);
		e |= !o || json_array_append_new(a, o);
	}
	if (e) {
		json_decref(a);
		return -1;
	}
	json_t *root = hist_root("series", a);
	e = !root || put(root, "change_points", json_integer((json_int_t)t->changes)) ||
	    put(root, "method", json_pack("{s:s,s:f,s:i}", "test", "pettitt-binary-segmentation",
					  "alpha", SIG_ALPHA, "min_segment", HIST_MIN_SEG));
	return e ? (json_decref(root), -1) : dump(out, root, 1);
}

int json_hist_check(FILE *out, const struct hist_check *h)
{
	json_t *a = json_array();
	int e = !a;

	for (size_t i = 0; !e && i < h->nv; i++) {
		const struct hist_verdict *d = &h->v[i];
		e |= json_array_append_new(a, json_pack("{s:o,s:i,s:o,s:s,s:o,s:o,s:o,s:o,s:o,s:I,"
							"s:I,s:s,s:b,s:b}",
			"test", jstr(d->test), "copies", d->copies, "unit", jstr(d->unit),
			"better", d->higher == 1 ? "higher" : d->higher == 0 ? "lower" : "unknown",
			"baseline", jnum(d->base), "value", jnum(d->value), "ratio", jnum(d->ratio),
			"p", jnum(d->p), "noise_floor_pct", jnum(d->floor_pct),
			"baseline_runs", (json_int_t)d->na, "runs", (json_int_t)d->nb,
			"method", d->method, "regressed", d->regressed, "improved", d->improved));
		if (!e)
			e |= put(json_array_get(a, i), "answer", json_answer(&d->rep));
	}
	if (e) {
		json_decref(a);
		return -1;
	}
	json_t *root = hist_root("verdicts", a), *w = json_array();
	for (size_t i = 0; w && h->unlike && i < h->unlike->nwarn; i++)
		e |= json_array_append_new(w, jstr(h->unlike->warn[i]));
	if (e || !root || !w) {
		json_decref(root);
		json_decref(w);
		return -1;
	}
	e = put(root, "warnings", w) ||
	    put(root, "regressed", json_integer((json_int_t)h->regressed)) ||
	    put(root, "improved", json_integer((json_int_t)h->improved)) ||
	    put(root, "equivalent", json_integer((json_int_t)h->equivalent)) ||
	    put(root, "undecided", json_integer((json_int_t)h->undecided)) ||
	    put(root, "no_verdict", json_integer((json_int_t)h->none));
	return e ? (json_decref(root), -1) : dump(out, root, 1);
}
