/* histmain.c — see histmain.h. */
#define _GNU_SOURCE
#include "histmain.h"
#include "num.h"
#include "csv.h"
#include "histfmt.h"
#include "html.h"
#include "json.h"
#include "noisefloor.h"
#include "signif.h"
#include "status.h"
#include "text.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 4096	/* runs a side of compare, baseline runs of check */

struct hopts {
	const char *db, *format, *machine, *test, *baseline, *svg;
	int verbose;
	unsigned allow;		/* check --allow: CMP_FIELD_BIT()s it may judge across */
	const char *allow_arg;	/* as given; NULL: none */
	char **args;	/* the command and its words */
	int nargs;
};

int hist_wanted(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--db") || !strncmp(argv[i], "--db=", 5))
			return 1;
	return 0;
}

static void usage(FILE *f)
{
	char words[100], fields[200];
	size_t len = 0;

	cmp_allow_words(words, sizeof words);
	fields[0] = 0;
	for (int k = 0; k < CMP_NFIELDS; k++)
		len += (size_t)snprintf(fields + len, sizeof fields - len, "%s%s", k ? ", " : "",
					cmp_field_word[k]);
	fprintf(f,
		"usage: isobench-report --db FILE COMMAND [ARGS]   (docs/history.md)\n"
		"  add [--machine NAME] LOG...   store the complete runs of each checked LOG (a\n"
		"                                log with none is refused with the reader's reason;\n"
		"                                a run already stored is not stored again)\n"
		"  runs [SELECTOR]               one line per run: run id, date, hypervisor, image,\n"
		"                                kernel, machine\n"
		"  compare SELECTOR_A SELECTOR_B the runs of A against those of B, as comparing\n"
		"                                their logs (>= 3 runs a side: replicate verdicts)\n"
		"  trend [--test T] [--machine M] [--svg FILE] [SELECTOR]\n"
		"                                each test's value over time per machine, change\n"
		"                                points marked (Pettitt's test)\n"
		"  check --baseline SELECTOR [--allow FIELDS] LOG...\n"
		"                                CI: status " EXIT_STR(EXIT_REGRESSED) " when a test of the LOGs is worse than\n"
		"                                the baseline's runs: \"different\" by compare's rule\n"
		"                                (Benjamini-Hochberg q < " EXIT_STR(SIG_FDR) ", the 95%% CI beyond the\n"
		"                                min-effect) and slower; a WARN per field the runs\n"
		"                                differ in (compare's comparability rule:\n"
		"                                %s),\n"
		"                                and status " EXIT_STR(EXIT_USAGE) ", no verdict, across a change of\n"
		"                                %s (hv: the hypervisor or accelerator, KVM,\n"
		"                                QEMU/TCG, bare-metal, ...) unless --allow names it\n"
		"                                (a baseline of fewer than " EXIT_STR(SIG_REP_MIN) " runs besides the\n"
		"                                LOGs' says \"baseline building: k of " EXIT_STR(SIG_REP_MIN) "\",\n"
		"                                no verdict, status 0)\n"
		"  verify                        the store consistent (integrity, every run whole,\n"
		"                                every record as stored)\n"
		"SELECTOR: all, or KEY=VALUE terms (several words, or joined by ','): machine=S,\n"
		"  hv=S, kernel=S (contains S), image=S (equals), run=S (run id starts with S),\n"
		"  since=DATE (ISO 8601 UTC), last=N (the N latest of those)\n"
		"options: --format text|json|csv|html (check: text|json), --verbose (check: every\n"
		"  test's verdict, not only the regressions), --noise-floor PCT, --min-effect PCT\n"
		"  (as without --db)\n", fields, words);
}

/* ---- helpers ---- */

static int flushed(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "isobench-report: output failed\n");
		return 0;
	}
	return 1;
}

/* The words of a selector split at ",KEY=" (a key of store.h's selector) into out (at most
 * max); the words are cut in place. Returns how many. */
static size_t split_sel(char **words, size_t n, char **out, size_t max)
{
	static const char *const keys[] = {"machine=", "hv=", "kernel=", "image=", "run=",
					   "since=", "last="};
	size_t k = 0;

	for (size_t i = 0; i < n && k < max; i++) {
		char *w = words[i];
		out[k++] = w;
		for (char *c = strchr(w, ','); c && k < max; c = strchr(c + 1, ','))
			for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++)
				if (!strncmp(c + 1, keys[j], strlen(keys[j]))) {
					*c = '\0';
					out[k++] = c + 1;
					break;
				}
	}
	return k;
}

/* The selector of words (n of them) into sel; -1 after a line on stderr naming what (the
 * option or command whose selector it is). The words are left whole: the messages, side
 * names and counts lines quote them ("machine=lab1,last=3", not its first term), so the
 * terms are cut from copies, which sel points into and which live as long as the program
 * (as argv does; a few selectors a command). */
static int parse_sel(char *const *words, size_t n, struct store_sel *sel, const char *what)
{
	char *w[STORE_MAX_TERMS + 2], *copy[STORE_MAX_TERMS + 2], err[300];
	char *all = "all";

	if (n > STORE_MAX_TERMS + 1)
		n = STORE_MAX_TERMS + 1;	/* too many terms either way: refused below */
	for (size_t i = 0; i < n; i++)
		if (!(copy[i] = strdup(words[i]))) {
			fprintf(stderr, "isobench-report: out of memory\n");
			return -1;
		}
	size_t k = split_sel(copy, n, w, STORE_MAX_TERMS + 1);

	if (!n) {
		w[0] = all;
		k = 1;
	}
	if (k > STORE_MAX_TERMS || store_sel_parse(w, k, sel, err, sizeof err)) {
		fprintf(stderr, "isobench-report: %s: %s\n", what,
			k > STORE_MAX_TERMS ? "too many selector terms" : err);
		return -1;
	}
	return 0;
}

/* The models of the runs sel selects into *m (*n of them; runs and logs kept in *lg for the
 * formats). 0; -1 after a line on stderr. */
struct side {
	struct store_run *runs;
	size_t n;
	struct log *log;	/* one per run: the run as the reader built it */
	struct model *m;
	const struct model **mp;
	size_t built;
};

static void side_free(struct side *s)
{
	for (size_t i = 0; i < s->built; i++)
		model_free(&s->m[i]);
	for (size_t i = 0; s->log && i < s->n; i++)
		log_free(&s->log[i]);
	free(s->log);
	free(s->m);
	free(s->mp);
	store_runs_free(s->runs, s->n);
	memset(s, 0, sizeof *s);
}

static int side_load(struct store *st, const struct store_sel *sel, struct side *s,
		     const char *what)
{
	char err[1000];

	memset(s, 0, sizeof *s);
	if (store_select(st, sel, &s->runs, &s->n, err, sizeof err)) {
		fprintf(stderr, "isobench-report: %s\n", err);
		return -1;
	}
	if (s->n > MAX_SIDE) {
		fprintf(stderr, "isobench-report: %s selects %zu runs; at most %d (narrow it, "
				"e.g. last=N)\n", what, s->n, MAX_SIDE);
		return -1;
	}
	s->log = calloc(s->n + 1, sizeof *s->log);
	s->m = calloc(s->n + 1, sizeof *s->m);
	s->mp = calloc(s->n + 1, sizeof *s->mp);
	if (!s->log || !s->m || !s->mp) {
		fprintf(stderr, "isobench-report: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < s->n; i++) {
		struct log *l = &s->log[i];
		if (!(l->runs = calloc(1, sizeof *l->runs))) {
			fprintf(stderr, "isobench-report: out of memory\n");
			return -1;
		}
		l->nruns = 1;
		if (store_load(st, s->runs[i].id, &l->runs[0], err, sizeof err)) {
			fprintf(stderr, "isobench-report: %s\n", err);
			return -1;
		}
		l->lines = l->runs[0].last_line;
		if (model_build(&l->runs[0], &s->m[i])) {
			fprintf(stderr, "isobench-report: out of memory\n");
			return -1;
		}
		s->built++;
		s->mp[i] = &s->m[i];
	}
	return 0;
}

/* ---- commands ---- */

static int cmd_add(struct store *st, const struct hopts *o)
{
	int rc = EXIT_OK;

	if (o->nargs < 2) {
		fprintf(stderr, "isobench-report: add: no LOG (see --help)\n");
		return EXIT_USAGE;
	}
	for (int i = 1; i < o->nargs; i++) {
		struct store_added a;
		char err[1000];
		int r = store_add(st, o->args[i], o->machine, stderr, &a, err, sizeof err);
		if (r == -2) {	/* the store's failure: the next LOGs would meet it too */
			fprintf(stderr, "isobench-report: %s: nothing stored, the store cannot be "
					"written: %s\n", o->args[i], err);
			return EXIT_USAGE;
		}
		if (r) {
			fprintf(stderr, "isobench-report: %s: refused, nothing stored: %s\n",
				o->args[i], err);
			rc = EXIT_INCOMPLETE;
			continue;
		}
		printf("isobench-report: %s: %zu run%s stored, %zu already there, %zu incomplete "
		       "left out\n", o->args[i], a.stored, a.stored == 1 ? "" : "s", a.present,
		       a.skipped);
	}
	return rc;
}

static int cmd_runs(struct store *st, const struct hopts *o)
{
	struct store_sel sel;
	struct store_run *r;
	size_t n;
	char err[1000];
	int werr;

	if (parse_sel(o->args + 1, (size_t)o->nargs - 1, &sel, "runs"))
		return EXIT_USAGE;
	if (store_select(st, &sel, &r, &n, err, sizeof err)) {
		fprintf(stderr, "isobench-report: %s\n", err);
		return EXIT_USAGE;
	}
	if (!strcmp(o->format, "json"))
		werr = json_hist_runs(stdout, r, n);
	else if (!strcmp(o->format, "csv"))
		werr = hist_runs_csv(stdout, r, n);
	else if (!strcmp(o->format, "html"))
		werr = hist_runs_html(stdout, r, n);
	else
		werr = hist_runs_text(stdout, r, n);
	store_runs_free(r, n);
	return werr ? EXIT_USAGE : EXIT_OK;
}

static int cmd_trend(struct store *st, const struct hopts *o)
{
	struct store_sel sel;
	struct store_point *p;
	struct hist_trend t;
	size_t n;
	char err[1000];
	int werr;

	if (parse_sel(o->args + 1, (size_t)o->nargs - 1, &sel, "trend"))
		return EXIT_USAGE;
	if (store_trend(st, &sel, o->test, o->machine, &p, &n, err, sizeof err)) {
		fprintf(stderr, "isobench-report: %s\n", err);
		return EXIT_USAGE;
	}
	if (hist_trend_build(p, n, &t)) {
		fprintf(stderr, "isobench-report: out of memory\n");
		hist_trend_free(&t);
		return EXIT_USAGE;
	}
	if (!strcmp(o->format, "json"))
		werr = json_hist_trend(stdout, &t);
	else if (!strcmp(o->format, "csv"))
		werr = hist_trend_csv(stdout, &t);
	else if (!strcmp(o->format, "html"))
		werr = hist_trend_html(stdout, &t);
	else
		werr = hist_trend_text(stdout, &t);
	if (o->svg) {
		FILE *f = fopen(o->svg, "w");
		int bad = !f || hist_trend_svg(f, &t);
		if (f && fclose(f))
			bad = 1;
		if (bad) {
			fprintf(stderr, "isobench-report: %s: cannot write the chart\n", o->svg);
			werr = -1;
		}
	}
	hist_trend_free(&t);
	return werr ? EXIT_USAGE : EXIT_OK;
}

/* compare's output in o->format: every run of both sides as report_in (their stored source;
 * side 0's runs, then side 1's, each naming its side), as main.c gives the writers every run
 * behind a comparison. 0; -1 out of memory or an output not written. */
static int render_cmp(const struct hopts *o, struct side *sd, const struct cmp *c)
{
	struct report_in *ri = calloc(sd[0].n + sd[1].n, sizeof *ri);
	char *src[2] = {sd[0].runs[0].source, sd[1].runs[0].source};
	size_t n = 0;
	int rc;

	if (!ri)
		return -1;
	for (size_t j = 0; j < 2; j++)
		for (size_t i = 0; i < sd[j].n; i++)
			ri[n++] = (struct report_in){sd[j].runs[i].source, &sd[j].log[i], 0,
						     &sd[j].m[i], j};
	if (!strcmp(o->format, "text")) {
		text_compare(stdout, c, src);
		fputc('\n', stdout);
		free(ri);
		return 0;
	}
	cmp_tell(stderr, c);
	if (!strcmp(o->format, "json"))
		rc = json_report(stdout, ri, n, c);
	else if (!strcmp(o->format, "csv"))
		rc = csv_report(stdout, ri, n, c);
	else
		rc = html_report(stdout, ri, n, c);
	free(ri);
	return rc;
}

/* 1 (after a line on stderr naming the run and both selectors) when the sides of several
 * runs share one (cmp_shared_run(): `compare all last=3`): refused, as isobench-report's
 * --label sides are, since a verdict would rest on that run compared with itself. */
static int shared_refused(const struct side *sd, const struct hopts *o)
{
	const struct model *const *side[2] = {sd[0].mp, sd[1].mp};
	size_t nside[2] = {sd[0].n, sd[1].n};
	struct cmp_where w[2];

	if (!cmp_shared_run(side, nside, 2, w))
		return 0;
	fprintf(stderr, "isobench-report: run %s is selected by both %s and %s: a run is one "
			"replicate of one side, and on both a verdict would rest on it compared "
			"with itself; narrow the selectors so that no run is on both\n",
		side[w[0].side][w[0].run]->run_id, o->args[1], o->args[2]);
	return 1;
}

static int cmd_compare(struct store *st, const struct hopts *o)
{
	struct store_sel sel[2];
	struct side sd[2];
	struct cmp c;
	int rc = EXIT_OK;

	memset(sd, 0, sizeof sd);
	if (o->nargs != 3) {
		fprintf(stderr, "isobench-report: compare takes two selectors (terms of one "
				"joined by ',': machine=a,hv=KVM)\n");
		return EXIT_USAGE;
	}
	if (parse_sel(o->args + 1, 1, &sel[0], "compare") ||
	    parse_sel(o->args + 2, 1, &sel[1], "compare"))
		return EXIT_USAGE;
	for (int j = 0; j < 2 && rc == EXIT_OK; j++)
		if (side_load(st, &sel[j], &sd[j], o->args[1 + j]))
			rc = EXIT_USAGE;
		else if (!sd[j].n) {
			fprintf(stderr, "isobench-report: %s selects no run\n", o->args[1 + j]);
			rc = EXIT_INCOMPLETE;
		}
	if (rc == EXIT_OK && (sd[0].n > 1 || sd[1].n > 1) && shared_refused(sd, o))
		rc = EXIT_USAGE;
	if (rc == EXIT_OK) {
		/* as main.c: several runs a side are replicates, one a side the one-run view */
		const struct model *rep[2] = {sd[0].mp[0], sd[1].mp[0]};
		const struct model *const *side[2] = {sd[0].mp, sd[1].mp};
		size_t nside[2] = {sd[0].n, sd[1].n};
		char *labels[2] = {o->args[1], o->args[2]};
		int replicated = sd[0].n > 1 || sd[1].n > 1;
		if (cmp_build(rep, 2, labels, &c) ||
		    (replicated && cmp_replicates(&c, (const struct model *const *const *)side,
						  nside))) {
			fprintf(stderr, "isobench-report: out of memory\n");
			rc = EXIT_USAGE;
		} else {
			FILE *vout = strcmp(o->format, "text") ? stderr : stdout;
			if (render_cmp(o, sd, &c))
				rc = EXIT_USAGE;
			fprintf(vout, "isobench-report: compared %zu run%s (%s) with %zu (%s): %zu "
				"different (%s)%s, %zu comparability "
				"warning(s)\n", sd[0].n, sd[0].n == 1 ? "" : "s", o->args[1], sd[1].n,
				o->args[2], c.verdicts, sig_rule(), replicated ? "" :
				"; one run a side is never a verdict", c.nwarn);
			int fails = 0;
			for (int j = 0; j < 2; j++)
				for (size_t i = 0; i < sd[j].n; i++)
					fails |= sd[j].runs[i].fails || sd[j].runs[i].errors;
			if (rc == EXIT_OK)
				rc = fails ? EXIT_FAILS : c.verdicts ? EXIT_DIFFERS : EXIT_OK;
		}
		cmp_free(&c);
	}
	side_free(&sd[0]);
	side_free(&sd[1]);
	return rc;
}

/* 1 (after a line on stderr naming path) when m[0..n) holds m[n]'s run (its run id): a LOG
 * given twice is one run, not two replicates whose zero spread would decide a test (as
 * comparing logs counts a run once a side, main.c's side_holds()). */
static int cand_held(const struct model *m, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m[i].run_id, m[n].run_id)) {
			fprintf(stderr, "isobench-report: %s: run %s is already among the LOGs: "
					"counted once\n", path, m[n].run_id);
			return 1;
		}
	return 0;
}

/* check's candidate runs: every complete run of each LOG, each run once (cand_held()),
 * models into *m. The status so far (EXIT_INCOMPLETE when a LOG has none, EXIT_FAILS when a
 * run holds FAIL/ERROR). */
static int load_candidates(const struct hopts *o, struct log *logs, struct model *m,
			   size_t *nm, size_t max)
{
	int rc = EXIT_OK;

	for (int i = 1; i < o->nargs; i++) {
		struct log *l = &logs[i - 1];
		char err[400];
		if (store_read_log(o->args[i], l, err, sizeof err)) {
			fprintf(stderr, "isobench-report: %s: %s\n", o->args[i], err);
			rc = EXIT_INCOMPLETE;
			continue;
		}
		for (size_t r = 0; r < l->nruns && *nm < max; r++) {
			if (!l->runs[r].complete)
				continue;
			if (model_build(&l->runs[r], &m[*nm])) {
				fprintf(stderr, "isobench-report: out of memory\n");
				return EXIT_USAGE;
			}
			if (cand_held(m, *nm, o->args[i])) {
				model_free(&m[*nm]);
				continue;
			}
			if (rc == EXIT_OK && (l->runs[r].fails || l->runs[r].errors))
				rc = EXIT_FAILS;
			(*nm)++;
		}
	}
	return rc;
}

/* The comparability rule's refusal (compare.h: CMP_JUDGE): 1 after a line on stderr naming
 * every field of u the runs differ in that --allow does not admit, with the --allow words
 * that would, else 0. */
static int unlike_refused(const struct hopts *o, const struct cmp_unlike *u)
{
	unsigned bad = u->fields & CMP_JUDGE & ~o->allow;
	char names[200] = "", words[200] = "";
	size_t ln = 0, lw = 0;

	if (!bad)
		return 0;
	for (int k = 0; k < CMP_NFIELDS; k++) {
		if (!(bad & CMP_FIELD_BIT(k)))
			continue;
		ln += (size_t)snprintf(names + ln, sizeof names - ln, "%s%s", ln ? ", " : "",
				       cmp_field_word[k]);
		lw += (size_t)snprintf(words + lw, sizeof words - lw, "%s%s", lw ? "," : "",
				       cmp_field_word[k]);
	}
	fprintf(stderr, "isobench-report: check: no verdict: the LOGs' runs and the baseline's "
			"(%s) differ in %s (the WARNs name the values): a ratio across them "
			"measures that change, not a regression; --allow %s judges them anyway, or "
			"narrow --baseline to runs like the LOGs'\n", o->baseline, names, words);
	return 1;
}

/* check's verdicts of the candidates (cand, ncand) against the baseline's runs (base, nbase),
 * after the comparability rule's WARNs: text on stdout (JSON: the document, the WARNs also on
 * stderr), the counts line. rc: the status so far; returns the status. */
static int judge(const struct hopts *o, const struct model *const *base, size_t nbase,
		 const struct model *const *cand, size_t ncand, int rc)
{
	struct cmp_unlike u;
	struct hist_check h;
	int json = !strcmp(o->format, "json");

	if (cmp_unlike_groups(base, nbase, "baseline", cand, ncand, "candidate", &u)) {
		fprintf(stderr, "isobench-report: out of memory\n");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < u.nwarn; i++)
		fprintf(json ? stderr : stdout, json ? "isobench-report: warning: %s\n"
						     : "WARN: %s\n", u.warn[i]);
	if (unlike_refused(o, &u)) {
		cmp_unlike_free(&u);
		return EXIT_USAGE;
	}
	if (hist_check_build(base, nbase, cand, ncand, &h)) {
		fprintf(stderr, "isobench-report: out of memory\n");
		cmp_unlike_free(&u);
		return EXIT_USAGE;
	}
	h.unlike = &u;
	int werr = json ? json_hist_check(stdout, &h) : hist_check_text(stdout, &h, o->verbose);
	fprintf(json ? stderr : stdout,
		"isobench-report: checked %zu run%s against %zu baseline runs (%s): %zu regressed, "
		"%zu improved, %zu equivalent, %zu undecided, %zu without a verdict, of %zu "
		"tests, %zu comparability warning%s\n", ncand, ncand == 1 ? "" : "s", nbase,
		o->baseline, h.regressed, h.improved, h.equivalent, h.undecided, h.none, h.nv,
		u.nwarn, u.nwarn == 1 ? "" : "s");
	if (werr)
		rc = EXIT_USAGE;
	else if (rc == EXIT_OK && h.regressed)
		rc = EXIT_REGRESSED;
	hist_check_free(&h);
	cmp_unlike_free(&u);
	return rc;
}

static int cmd_check(struct store *st, const struct hopts *o)
{
	struct store_sel sel;
	struct side base;
	int rc = EXIT_OK;

	if (!o->baseline || o->nargs < 2) {
		fprintf(stderr, "isobench-report: check needs --baseline SELECTOR and LOGs\n");
		return EXIT_USAGE;
	}
	memset(&base, 0, sizeof base);
	/* (parse_sel() leaves the word whole: the messages quote the selector as given) */
	char *bw = (char *)o->baseline;
	if (parse_sel(&bw, 1, &sel, "--baseline") ||
	    side_load(st, &sel, &base, o->baseline)) {
		side_free(&base);
		return EXIT_USAGE;
	}
	size_t nlogs = (size_t)o->nargs - 1, nm = 0;
	struct log *logs = calloc(nlogs + 1, sizeof *logs);
	struct model *m = calloc(MAX_SIDE, sizeof *m);
	const struct model **mp = calloc(MAX_SIDE, sizeof *mp);
	if (!logs || !m || !mp)
		rc = EXIT_USAGE;
	else
		rc = load_candidates(o, logs, m, &nm, MAX_SIDE);
	for (size_t i = 0; i < nm; i++)
		mp[i] = &m[i];
	/* A candidate already stored (added before the check) is not its own baseline. */
	size_t nb = 0;
	for (size_t i = 0; i < base.n; i++) {
		size_t k = 0;
		while (k < nm && strcmp(base.mp[i]->run_id, mp[k]->run_id))
			k++;
		if (k == nm)
			base.mp[nb++] = base.mp[i];
	}
	/* Fewer baseline runs than a verdict needs: the first nights of a CI gate, not an error
	 * (issue 48): say how far the baseline is built, and give the LOGs' own status. */
	if (rc != EXIT_USAGE && nm && nb < SIG_REP_MIN)
		fprintf(strcmp(o->format, "json") ? stdout : stderr,
			"isobench-report: baseline building: %zu of %d runs (%s, besides the LOGs'): "
			"no verdict yet; add this run and check the next%s\n", nb, SIG_REP_MIN,
			o->baseline, base.n ? "" : " (the selector selects no stored run: if this is "
			"not the first run, check its spelling)");
	else if (rc != EXIT_USAGE && nm)
		rc = judge(o, base.mp, nb, mp, nm, rc);
	for (size_t i = 0; i < nm; i++)
		model_free(&m[i]);
	for (size_t i = 0; logs && i < nlogs; i++)
		log_free(&logs[i]);
	free(logs);
	free(m);
	free(mp);
	side_free(&base);
	return rc;
}

static int cmd_verify(struct store *st)
{
	char err[1000];
	long bad = store_verify(st, stdout, err, sizeof err);

	if (bad < 0) {
		fprintf(stderr, "isobench-report: %s\n", err);
		return EXIT_USAGE;
	}
	printf("isobench-report: %s: %s\n", st->path, bad ? "NOT consistent" : "consistent");
	return bad ? EXIT_INCOMPLETE : EXIT_OK;
}

/* ---- the command line ---- */

/* 1 after a line on stderr naming each option of o that goes with another command than
 * o's (and check's --format other than text or json), else 0. */
static int options_fit(const struct hopts *o)
{
	const char *c = o->args[0];
	const struct {
		const char *opt;
		int given;
		const char *cmd, *or;	/* the commands it goes with (or: NULL, one) */
	} only[] = {
		{"--baseline", o->baseline != NULL, "check", NULL},
		{"--allow", o->allow_arg != NULL, "check", NULL},
		{"--verbose", o->verbose, "check", NULL},
		{"--test", o->test != NULL, "trend", NULL},
		{"--svg", o->svg != NULL, "trend", NULL},
		{"--machine", o->machine != NULL, "add", "trend"},
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof only / sizeof only[0]; i++)
		if (only[i].given && strcmp(c, only[i].cmd) && (!only[i].or || strcmp(c, only[i].or))) {
			fprintf(stderr, "isobench-report: %s goes with %s%s%s, not %s (see --db FILE "
					"--help)\n", only[i].opt, only[i].cmd, only[i].or ? " or " : "",
				only[i].or ? only[i].or : "", c);
			bad = 1;
		}
	if (!strcmp(c, "check") && strcmp(o->format, "text") && strcmp(o->format, "json")) {
		fprintf(stderr, "isobench-report: --format %s: check writes text or json\n",
			o->format);
		bad = 1;
	}
	return bad;
}

static int parse(int argc, char **argv, struct hopts *o)
{
	static const struct option opts[] = {
		{"db", required_argument, NULL, 'D'},
		{"format", required_argument, NULL, 'f'},
		{"machine", required_argument, NULL, 'm'},
		{"test", required_argument, NULL, 't'},
		{"baseline", required_argument, NULL, 'B'},
		{"allow", required_argument, NULL, 'A'},
		{"svg", required_argument, NULL, 's'},
		{"verbose", no_argument, NULL, 'v'},
		{"noise-floor", required_argument, NULL, 'n'},
		{"min-effect", required_argument, NULL, 'E'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int opt;

	memset(o, 0, sizeof *o);
	o->format = "text";
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'D': o->db = optarg; break;
		case 'f': o->format = optarg; break;
		case 'm': o->machine = optarg; break;
		case 't': o->test = optarg; break;
		case 'B': o->baseline = optarg; break;
		case 'A':
			if (cmp_allow_parse(optarg, &o->allow))
				return EXIT_USAGE;
			o->allow_arg = optarg;
			break;
		case 's': o->svg = optarg; break;
		case 'v': o->verbose = 1; break;
		case 'n': {
			double v;
			if (num_dbl(optarg, &v) || !(v >= 0 && v <= NOISE_FLOOR_MAX_PCT)) {
				fprintf(stderr, "isobench-report: --noise-floor wants a percentage, "
						"0 to %g\n", NOISE_FLOOR_MAX_PCT);
				return EXIT_USAGE;
			}
			noise_floor_force(v);
			break;
		}
		case 'E':
			if (min_effect_arg(optarg))
				return EXIT_USAGE;
			break;
		case 'h':
			usage(stdout);
			return flushed() ? EXIT_OK : EXIT_USAGE;
		default:
			fprintf(stderr, opt == ':' ? "isobench-report: option '%s' needs a value\n"
						   : "isobench-report: --db: unknown option '%s' (see "
						     "--db X --help)\n", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	if (strcmp(o->format, "text") && strcmp(o->format, "json") && strcmp(o->format, "csv") &&
	    strcmp(o->format, "html")) {
		fprintf(stderr, "isobench-report: --format %s: text, json, csv or html\n", o->format);
		return EXIT_USAGE;
	}
	if (!o->nargs) {
		fprintf(stderr, "isobench-report: --db FILE wants a command: add, runs, compare, "
				"trend, check, verify (see --db FILE --help)\n");
		return EXIT_USAGE;
	}
	return -1;
	return -1;
}

int hist_main(int argc, char **argv)
{
	struct hopts o;
	struct store st;
	char err[1000];
	int rc = parse(argc, argv, &o);

	if (rc >= 0)
		return rc;
	static const char *const cmds[] = {"add", "runs", "compare", "trend", "check", "verify"};
	size_t k = 0;
	while (k < 6 && strcmp(o.args[0], cmds[k]))
		k++;
	if (k == 6) {
		fprintf(stderr, "isobench-report: --db: unknown command '%s': add, runs, compare, "
				"trend, check, verify\n", o.args[0]);
		return EXIT_USAGE;
	}
	if (options_fit(&o))
		return EXIT_USAGE;
	if (store_open(&st, o.db, k == 0, err, sizeof err)) {	/* add writes */
		fprintf(stderr, "isobench-report: %s\n", err);
		return EXIT_USAGE;
	}
	switch (k) {
	case 0: rc = cmd_add(&st, &o); break;
	case 1: rc = cmd_runs(&st, &o); break;
	case 2: rc = cmd_compare(&st, &o); break;
	case 3: rc = cmd_trend(&st, &o); break;
	case 4: rc = cmd_check(&st, &o); break;
	default: rc = cmd_verify(&st); break;
	}
	store_close(&st);
	if (!flushed())
		rc = EXIT_USAGE;
	return rc;
}
