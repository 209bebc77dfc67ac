/* html.c — see html.h. */
#define _GNU_SOURCE
#include "html.h"
#include "svg.h"
#include "util.h"
#include "signif.h"
#include "unixbench.h"
#include "vocab.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* s as HTML text: markup characters escaped, the rest as util.h's xml_esc() writes it. */
static void esc(FILE *out, const char *s)
{
	xml_esc(out, s, SIZE_MAX);
}

const char html_style[] =
	"body{font:14px/1.4 sans-serif;margin:2em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0 1.5em}"
	"th,td{border:1px solid #ccc;padding:3px 8px}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums}th{background:#f2f2f2}"
	".warn{background:#fff3cd;border:1px solid #e0c060;padding:.5em 1em}"
	".note{background:#eef4ff;border:1px solid #9ab;padding:.5em 1em}"
	".flag{background:#fde2e2;font-weight:bold}.tcg{color:#a50}"
	".unconv::after{content:\"!\";color:#a00;font-weight:bold}";

/* head, then the n strings of item as a list, then the div's end; nothing when n is 0. */
static void items(FILE *out, const char *head, char *const *item, size_t n)
{
	if (!n)
		return;
	fprintf(out, "%s<ul>\n", head);
	for (size_t i = 0; i < n; i++) {
		fputs("<li>", out);
		esc(out, item[i]);
		fputs("</li>\n", out);
	}
	fputs("</ul></div>\n", out);
}

static void page_head(FILE *out, const struct cmp *c)
{
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		     "<title>isobench report: ");
	for (size_t j = 0; j < c->nruns; j++) {
		esc(out, c->label[j]);
		fputs(j + 1 < c->nruns ? " vs " : "", out);
	}
	fprintf(out, "</title><style>%s</style></head><body>\n<h1>isobench report</h1>\n", html_style);
	items(out, "<div class=\"warn\"><h2>Warnings</h2>", c->warn, c->nwarn);
	items(out, "<div class=\"note\">", c->note, c->nnote);
}

/* What writes run r's fact for a row of the machine table to f (key: an INFO key or NULL;
 * several: r is one of a side's several runs). */
typedef void fact_fn(FILE *f, const struct report_in *r, const char *key, int several);

/* The cell of side j in a row of the machine table: with one run its fact as before; with
 * several each run's own ("run K: ...", K its place on the side), said plainly when judge is
 * set: the one value and "the same in all K runs", or each run's and "differs between the
 * runs". "" for a side without runs. */
static void side_cell(FILE *out, const struct report_in *in, size_t n, size_t j, const char *key,
		      fact_fn *fact, int judge)
{
	const struct report_in *one = NULL;
	char *first = NULL;
	size_t k = 0;
	int same = 1;

	for (size_t i = 0; i < n; i++)
		if (in[i].side == j && !k++)
			one = &in[i];
	fputs("<td>", out);
	if (k < 2) {
		if (one)
			fact(out, one, key, 0);
		fputs("</td>", out);
		return;
	}
	for (size_t i = 0; judge && same && i < n; i++) {	/* each run's text against the first's */
		char *t = NULL;
		size_t len = 0;
		if (in[i].side != j)
			continue;
		FILE *m = open_memstream(&t, &len);	/* none: listed run by run, as differing */
		if (!m) {
			same = 0;
			break;
		}
		fact(m, &in[i], key, 1);
		if (fclose(m) || !t)
			same = 0;
		else if (!first)
			first = t, t = NULL;
		else
			same = !strcmp(first, t);
		free(t);
	}
	if (judge && same && first) {
		fprintf(out, "%s<br><small>the same in all %zu runs</small>", first, k);
	} else {
		for (size_t i = 0, r = 0; i < n; i++) {
			if (in[i].side != j)
				continue;
			fprintf(out, "%srun %zu: ", r ? "<br>" : "", r + 1);
			fact(out, &in[i], key, 1);
			r++;
		}
		if (judge)
			fputs("<br><small>differs between the runs</small>", out);
	}
	free(first);
	fputs("</td>", out);
}

/* fact_fn: run r's INFO key, escaped. */
static void fact_info(FILE *f, const struct report_in *r, const char *key, int several)
{
	(void)several;
	esc(f, model_info(r->m, key));
}

/* fact_fn: run r's log file, and with several which run of it when the log holds more. */
static void fact_file(FILE *f, const struct report_in *r, const char *key, int several)
{
	(void)key;
	esc(f, r->source);
	if (several && r->log && r->log->nruns > 1)
		fprintf(f, " (its run %d of %zu)", r->run + 1, r->log->nruns);
}

/* fact_fn: run r's "run id / build / mode". */
static void fact_id(FILE *f, const struct report_in *r, const char *key, int several)
{
	(void)key;
	(void)several;
	esc(f, r->m->run_id);
	fputs(" / ", f);
	esc(f, r->m->version);
	fputs(" / ", f);
	esc(f, model_mode(r->m));
}

/* One row of the machine table: a heading and each side's fact (side_cell(): a fact of the
 * machine, key, judged the same or differing; the file and run id rows, no key, listed). */
static void ident_row(FILE *out, const struct report_in *in, size_t n, const struct cmp *c,
		      const char *head, const char *key, fact_fn *fact)
{
	fprintf(out, "<tr><th>%s</th>", head);
	for (size_t j = 0; j < c->nruns; j++)
		side_cell(out, in, n, j, key, fact, key != NULL);
	fputs("</tr>\n", out);
}

/* The machine table: a column per run (one run a side) or per side (replicates: "side N:
 * LABEL, K runs", each of its runs' facts, said the same or differing). */
static void identities(FILE *out, const struct report_in *in, size_t n, const struct cmp *c)
{
	fputs("<h2>Machines</h2>\n<table><tr><th></th>", out);
	for (size_t j = 0; j < c->nruns; j++) {
		if (c->replicated)
			fprintf(out, "<th>side %zu: ", j + 1);
		else
			fprintf(out, "<th>run %zu: ", j + 1);
		esc(out, c->label[j]);
		if (c->replicated)
			fprintf(out, ", %zu run%s", c->side_runs[j], c->side_runs[j] == 1 ? "" : "s");
		fprintf(out, "%s</th>", c->tcg[j] ? " <span class=\"tcg\">(TCG: emulation)</span>" : "");
	}
	fputs("</tr>\n", out);
	ident_row(out, in, n, c, "file", NULL, fact_file);
	ident_row(out, in, n, c, "run id / build / mode", NULL, fact_id);
	ident_row(out, in, n, c, "CPU", RK_CPU_MODEL, fact_info);
	ident_row(out, in, n, c, "hypervisor (CPUID)", RK_HV_CPUID, fact_info);
	ident_row(out, in, n, c, "DMI vendor", RK_DMI_SYS_VENDOR, fact_info);
	ident_row(out, in, n, c, "DMI product", RK_DMI_PRODUCT_NAME, fact_info);
	ident_row(out, in, n, c, "kernel", RK_KERNEL_RELEASE, fact_info);
	ident_row(out, in, n, c, "kernel command line", RK_KERNEL_CMDLINE, fact_info);
	ident_row(out, in, n, c, "clocksource", RK_CLOCKSOURCE_CURRENT, fact_info);
	ident_row(out, in, n, c, "image", RK_IMAGE_IDENTITY, fact_info);
	ident_row(out, in, n, c, "suite", RK_RUN_SUITE, fact_info);
	fputs("</table>\n", out);
}

/* A number cell naming its JSON field; "---" when v is not finite. flag: the cell is marked
 * (a ratio beyond noise); unconv: its sampling did not converge, shown as a "!" after the
 * figure by the style sheet (class unconv), so the cell's text stays the JSON's figure. */
static void num(FILE *out, size_t row, size_t run, const char *key, const char *fmt, double v,
		int flag, int unconv)
{
	fprintf(out, "<td class=\"n%s%s\"%s data-row=\"%zu\" data-run=\"%zu\" data-key=\"%s\">",
		flag ? " flag" : "", unconv ? " unconv" : "",
		unconv ? " title=\"sampling did not converge\"" : "", row, run, key);
	if (isfinite(v))
		fprintf(out, fmt, v);
	else
		fputs("---", out);
	fputs("</td>", out);
}

static void table_head(FILE *out, const struct cmp *c, int index)
{
	fputs("<table><tr><th>test</th><th>copies</th><th>unit</th>", out);
	for (size_t j = 0; j < c->nruns; j++) {
		fputs("<th>", out);
		esc(out, c->label[j]);
		fputs(index ? " value</th><th>index</th>" : "</th>", out);
		if (j)
			fputs("<th>ratio</th><th>95% CI</th><th>p</th><th>mark</th>", out);
	}
	fputs("</tr>\n", out);
}

/* A compared cell's mark and, under it, what the mark rests on (compare.h cmp_basis()); the
 * cell is found by its row attribute (data-row=ROW, or data-copies=COPIES for an Index
 * Score) and data-run=RUN. */
static void mark_cell(FILE *out, const struct cmp_cell *cl, const char *row_attr, size_t row,
		      size_t run)
{
	char bs[CMP_BASIS_MAX];
	int v = cmp_is_verdict(cl);

	fprintf(out, "<td>%s<br><small %s=\"%zu\" data-run=\"%zu\" data-key=\"basis\">",
		v && cl->rep.answer != SIG_ANS_NONE ? sig_answer_word(cl->rep.answer)
		: cl->mark == '*' ? "beyond noise" : cl->mark == '~' ? "within noise"
		: cl->mark == '?' ? "no estimate" : "", row_attr, row, run);
	esc(out, cmp_basis(cl, bs, sizeof bs));
	fputs("</small></td>", out);
}

static void table_row(FILE *out, const struct cmp *c, size_t i, int index)
{
	const struct cmp_row *r = &c->rows[i];
	fputs("<tr><td>", out);
	esc(out, r->title);
	fprintf(out, "%s</td><td class=\"n\">%d</td><td>", r->higher == 0 ? " (lower is better)" : "",
		r->copies);
	esc(out, r->unit);
	fputs("</td>", out);
	for (size_t j = 0; j < c->nruns; j++) {
		const struct cmp_cell *cl = &r->cell[j];
		/* the run's value, or with replicates the side's geometric mean over its runs
		 * (compare.h), its index scaled alike */
		num(out, i, j, "value", "%.1f", cl->t ? cl->value : NAN, 0,
		    cl->t && cl->converged == 0);
		if (index)
			num(out, i, j, "index", "%.1f",
			    cl->t ? cl->t->index * cl->value / cl->t->value : NAN, 0, 0);
		if (!j)
			continue;
		num(out, i, j, "ratio", "%.3f", cl->ratio, cl->mark == '*', 0);
		fprintf(out, "<td class=\"n\">");
		if (isfinite(cl->ratio_lo))
			fprintf(out, "<span data-row=\"%zu\" data-run=\"%zu\" data-key=\"ratio_ci95_lo\">"
				     "%.3f</span>..<span data-row=\"%zu\" data-run=\"%zu\" "
				     "data-key=\"ratio_ci95_hi\">%.3f</span>", i, j, cl->ratio_lo, i, j,
				cl->ratio_hi);
		fputs("</td>", out);
		num(out, i, j, "p_value", "%.2g", cl->p, 0, 0);
		mark_cell(out, cl, "data-row", i, j);
	}
	fputs("</tr>\n", out);
}

/* The index tests of pass copies, then its Index Score row. */
static void index_table(FILE *out, const struct cmp *c, int copies)
{
	fprintf(out, "<h2>UnixBench index, %d cop%s</h2>\n", copies, copies == 1 ? "y" : "ies");
	table_head(out, c, 1);
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].is_index && c->rows[i].copies == copies)
			table_row(out, c, i, 1);
	fputs("<tr><th colspan=\"3\">System Benchmarks Index Score</th>", out);
	for (size_t j = 0; j < c->nruns; j++) {
		double s, r = cmp_score_ratio(c, j, copies, &s);
		fprintf(out, "<td></td><td class=\"n\" data-copies=\"%d\" data-run=\"%zu\" "
			     "data-key=\"score\">", copies, j);
		if (isfinite(s))
			fprintf(out, "%.1f", s);
		fputs("</td>", out);
		/* with replicates the score's verdict over the runs, as a test's row */
		const struct cmp_cell *sc = cmp_score_cell(c, j, copies);
		if (j && sc) {
			fprintf(out, "<td class=\"n%s\" data-copies=\"%d\" data-run=\"%zu\" "
				     "data-key=\"score_ratio\">", sc->mark == '*' ? " flag" : "",
				copies, j);
			if (isfinite(r))
				fprintf(out, "%.3f", r);
			fputs("</td><td class=\"n\">", out);
			if (isfinite(sc->ratio_lo))
				fprintf(out, "%.3f..%.3f", sc->ratio_lo, sc->ratio_hi);
			fputs("</td><td class=\"n\">", out);
			if (isfinite(sc->p))
				fprintf(out, "%.2g", sc->p);
			fputs("</td>", out);
			mark_cell(out, sc, "data-copies", (size_t)copies, j);
		} else if (j) {
			fputs("<td class=\"n\">", out);
			if (isfinite(r))
				fprintf(out, "%.3f", r);
			fputs("</td><td></td><td></td><td></td>", out);
		}
	}
	fputs("</tr></table>\n", out);
}

/* The ratio chart (svg.c), inline: its XML declaration left out. -1: no memory. */
static int chart(FILE *out, const struct cmp *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return -1;
	int bad = svg_chart(m, c);
	if (fclose(m) || bad) {
		free(buf);
		return -1;
	}
	const char *svg = strstr(buf, "<svg");
	fputs("<h2>Ratios to run 1</h2>\n", out);
	fputs(svg ? svg : "", out);
	free(buf);
	return 0;
}

int html_report(FILE *out, const struct report_in *in, size_t n, const struct cmp *c)
{
	int passes[64], np = 0, others = 0;

	page_head(out, c);
	identities(out, in, n, c);
	if (c->nruns > 1 && c->replicated) {
		fprintf(out, "<p>ratio = performance relative to side 1 by each test's direction "
			     "(&gt; 1 is better), of the sides' geometric means over their runs. With "
			     "&ge; %d runs a side, one whole-run value per run and test (every sample "
			     "counted), Welch's t on the log run values, or, when the runs are "
			     "interleaved rounds, the paired t on each round's log ratio; 95%% CI: "
			     "the ratio's t interval. The verdict is one of three answers: ", SIG_REP_MIN);
		esc(out, sig_rule());	/* the rule's words (signif.h), escaped */
		fputs(". With fewer runs, no verdict. Under each mark: what it rests on.</p>\n", out);
	} else if (c->nruns > 1)
		fprintf(out, "<p>ratio = performance relative to run 1 by each test's direction "
			     "(&gt; 1 is better). <b>beyond noise</b>: with &ge; %d samples a side, "
			     "Mann-Whitney U p &lt; %g on the two runs' samples and a ratio beyond "
			     "the test's noise floor; with fewer, disjoint 95%% intervals of the "
			     "medians. 95%% CI: bootstrap of the ratio (%d resamples). One run a side: "
			     "machine drift cannot be told from a difference, so no mark is a "
			     "verdict.</p>\n",
			SIG_MIN_N, SIG_ALPHA, SIG_BOOT);
	if (cmp_any_unconverged(c)) {
		fputs("<p><b>!</b> after a value: ", out);
		esc(out, cmp_unconverged_note(c));
		fputs(".</p>\n", out);
	}
	for (size_t i = 0; i < c->nrows; i++) {
		int seen = 0;
		for (int k = 0; k < np; k++)
			seen |= passes[k] == c->rows[i].copies;
		if (c->rows[i].is_index && !seen && np < 64)
			passes[np++] = c->rows[i].copies;
		others += !c->rows[i].is_index;
	}
	for (int k = 0; k < np; k++)
		index_table(out, c, passes[k]);
	if (others) {
		fputs("<h2>Other tests</h2>\n", out);
		table_head(out, c, 0);
		for (size_t i = 0; i < c->nrows; i++)
			if (!c->rows[i].is_index)
				table_row(out, c, i, 0);
		fputs("</table>\n", out);
	}
	if (c->nruns > 1 && chart(out, c))
		return -1;
	fputs("</body></html>\n", out);
	return ferror(out) ? -1 : 0;
}
