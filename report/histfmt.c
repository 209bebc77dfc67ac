/* histfmt.c — see histfmt.h. */
#include "histfmt.h"
#include "csv.h"
#include "html.h"
#include "svg.h"
#include "signif.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int done(FILE *out)
{
	return fflush(out) || ferror(out) ? -1 : 0;
}

static void esc(FILE *out, const char *s)
{
	xml_esc(out, s, SIZE_MAX);
}

static void page_head(FILE *out, const char *title)
{
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		     "<title>isobench history: %s</title><style>%s</style></head><body>\n"
		     "<h1>isobench history: %s</h1>\n", title, html_style, title);
}

/* ---- runs ---- */

int hist_runs_text(FILE *out, const struct store_run *r, size_t n)
{
	char a[6][400];

	fprintf(out, "%-16s  %-20s  %-10s  %-20s  %-18s  %s\n", "run", "date", "hypervisor",
		"image", "kernel", "machine");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%-16s  %-20s  %-10s  %-20s  %-18s  %s\n",
			text_safe(r[i].run_id, a[0], sizeof a[0]), text_safe(r[i].date, a[1], 21),
			text_safe(r[i].hv, a[2], sizeof a[2]), text_safe(r[i].image, a[3], sizeof a[3]),
			text_safe(r[i].kernel, a[4], sizeof a[4]),
			text_safe(r[i].machine, a[5], sizeof a[5]));
	fprintf(out, "%zu run%s\n", n, n == 1 ? "" : "s");
	return done(out);
}

static void csv_row(FILE *out, const char *const *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		csv_field(out, f[i]);
	}
	fputs("\r\n", out);
}

int hist_runs_csv(FILE *out, const struct store_run *r, size_t n)
{
	static const char *const head[] = {"run_id", "date", "machine", "hv", "image", "kernel",
					   "arch", "version", "source", "results", "fails",
					   "skips", "errors"};
	csv_row(out, head, 13);
	for (size_t i = 0; i < n; i++) {
		char c[4][24];
		snprintf(c[0], sizeof c[0], "%lld", r[i].results);
		snprintf(c[1], sizeof c[1], "%lld", r[i].fails);
		snprintf(c[2], sizeof c[2], "%lld", r[i].skips);
		snprintf(c[3], sizeof c[3], "%lld", r[i].errors);
		const char *f[] = {r[i].run_id, r[i].date, r[i].machine, r[i].hv, r[i].image,
				   r[i].kernel, r[i].arch, r[i].version, r[i].source, c[0], c[1],
				   c[2], c[3]};
		csv_row(out, f, 13);
	}
	return done(out);
}

int hist_runs_html(FILE *out, const struct store_run *r, size_t n)
{
	page_head(out, "runs");
	fprintf(out, "<p>%zu run%s, oldest first.</p>\n<table><tr><th>run</th><th>date</th>"
		     "<th>hypervisor</th><th>image</th><th>kernel</th><th>machine</th>"
		     "<th>results</th><th>fails</th></tr>\n", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		const char *f[] = {r[i].run_id, r[i].date, r[i].hv, r[i].image, r[i].kernel,
				   r[i].machine};
		fputs("<tr>", out);
		for (size_t k = 0; k < 6; k++) {
			fputs("<td>", out);
			esc(out, f[k]);
			fputs("</td>", out);
		}
		fprintf(out, "<td class=\"n\">%lld</td><td class=\"n\">%lld</td></tr>\n",
			r[i].results, r[i].fails);
	}
	fputs("</table></body></html>\n", out);
	return done(out);
}

/* ---- trend ---- */

static const char *better_word(int higher)
{
	return higher == 1 ? "higher is better" : higher == 0 ? "lower is better"
			   : "direction unknown";
}

int hist_trend_text(FILE *out, const struct hist_trend *t)
{
	char a[3][400], num[3][40];

	for (size_t k = 0; k < t->ns; k++) {
		const struct hist_series *s = &t->s[k];
		fprintf(out, "%s%s (copies %d) on %s: %zu run%s, %s, %s; %zu change point%s\n",
			k ? "\n" : "", text_safe(s->test, a[0], sizeof a[0]), s->copies,
			text_safe(s->machine, a[1], sizeof a[1]), s->n, s->n == 1 ? "" : "s",
			text_safe(s->unit, a[2], sizeof a[2]), better_word(s->higher), s->changes,
			s->changes == 1 ? "" : "s");
		for (size_t i = s->first; i < s->first + s->n; i++) {
			const struct store_point *q = &t->pts[i];
			fprintf(out, "  %-20s  %-16s  %14s  level %14s", text_safe(q->date, a[0], 21),
				text_safe(q->run_id, a[1], 17),
				num_exact(num[0], sizeof num[0], q->value),
				num_exact(num[1], sizeof num[1], t->level[i]));
			if (t->change[i])
				fprintf(out, "  <- change: level %s -> %s (x%.3f), Pettitt p %.2g",
					num_exact(num[2], sizeof num[2], t->level[i - 1]), num[1],
					t->level[i] / t->level[i - 1], t->p[i]);
			fputc('\n', out);
		}
	}
	fprintf(out, "%s%zu series, %zu change point%s (Pettitt's test with binary segmentation: "
		     "p < %g, >= %d runs a side, beyond the test's noise floor)\n", t->ns ? "\n" : "",
		t->ns, t->changes, t->changes == 1 ? "" : "s", SIG_ALPHA, HIST_MIN_SEG);
	return done(out);
}

int hist_trend_csv(FILE *out, const struct hist_trend *t)
{
	static const char *const head[] = {"test", "copies", "machine", "date", "run_id",
					   "value", "unit", "better", "level", "change", "p"};
	csv_row(out, head, 11);
	for (size_t k = 0; k < t->ns; k++) {
		const struct hist_series *s = &t->s[k];
		for (size_t i = s->first; i < s->first + s->n; i++) {
			const struct store_point *q = &t->pts[i];
			char c[5][40];
			snprintf(c[0], sizeof c[0], "%d", q->copies);
			num_exact(c[1], sizeof c[1], q->value);
			num_exact(c[2], sizeof c[2], t->level[i]);
			snprintf(c[3], sizeof c[3], "%d", t->change[i]);
			if (t->change[i])
				num_exact(c[4], sizeof c[4], t->p[i]);
			else
				c[4][0] = '\0';
			const char *f[] = {q->test, c[0], q->machine, q->date, q->run_id, c[1],
					   q->unit, better_word(q->higher), c[2], c[3], c[4]};
			csv_row(out, f, 11);
		}
	}
	return done(out);
}

#define CW 900.0	/* chart: width, plot's left, right, height of a panel (px) */
#define CL 90.0
#define CR 20.0
#define CH 260.0

/* The series of t sharing s's test and copies: [k0, k1). */
static size_t same_test_end(const struct hist_trend *t, size_t k0)
{
	size_t k1 = k0 + 1;
	while (k1 < t->ns && t->s[k1].copies == t->s[k0].copies &&
	       !strcmp(t->s[k1].test, t->s[k0].test))
		k1++;
	return k1;
}

/* The x of each point of series k0..k1-1 (one test; its points contiguous from
 * t->s[k0].first) by its place among them in date order (then the order added), into xs. */
static const struct hist_trend *order_t;

static int by_date(const void *a, const void *b)
{
	const struct store_point *p = &order_t->pts[*(const size_t *)a];
	const struct store_point *q = &order_t->pts[*(const size_t *)b];
	int c = strcmp(p->date, q->date);
	return c ? c : (p->id > q->id) - (p->id < q->id);
}

static int xpos_all(const struct hist_trend *t, size_t k0, size_t k1, double *xs)
{
	size_t base = t->s[k0].first, n = t->s[k1 - 1].first + t->s[k1 - 1].n - base;
	size_t *idx = malloc((n + 1) * sizeof *idx);

	if (!idx)
		return -1;
	for (size_t i = 0; i < n; i++)
		idx[i] = base + i;
	order_t = t;
	qsort(idx, n, sizeof *idx, by_date);
	for (size_t r = 0; r < n; r++)
		xs[idx[r] - base] = CL + (n > 1 ? (double)r / (double)(n - 1) : 0.5) *
					 (CW - CL - CR);
	free(idx);
	return 0;
}

/* One panel: the test of series k0..k1-1, at y offset top. 0, or -1 out of memory. */
static int panel(FILE *out, const struct hist_trend *t, size_t k0, size_t k1, double top)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t base = t->s[k0].first, n = t->s[k1 - 1].first + t->s[k1 - 1].n - base;
	double *xs = malloc((n + 1) * sizeof *xs);
	char a[40], b[40];

	if (!xs || xpos_all(t, k0, k1, xs)) {
		free(xs);
		return -1;
	}

	for (size_t k = k0; k < k1; k++)
		for (size_t i = t->s[k].first; i < t->s[k].first + t->s[k].n; i++) {
			double f = t->s[k].floor_pct / 100;
			lo = fmin(lo, fmin(t->pts[i].value, t->level[i] * (1 - f)));
			hi = fmax(hi, fmax(t->pts[i].value, t->level[i] * (1 + f)));
		}
	if (!(hi > lo))
		hi = lo + 1, lo -= 1;
	double pad = (hi - lo) * 0.05, y0 = top + 30, ph = CH - 60;
	lo -= pad;
	hi += pad;
#define YPOS(v) (y0 + ph - ((v) - lo) / (hi - lo) * ph)
	fprintf(out, "<text x=\"%g\" y=\"%g\" font-weight=\"bold\">", CL, top + 18);
	svg_esc(out, t->s[k0].test);
	fprintf(out, " (copies %d, ", t->s[k0].copies);
	svg_esc(out, t->s[k0].unit);
	fprintf(out, ", %s)</text>\n<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" "
		     "stroke=\"#999\"/>\n<text x=\"%g\" y=\"%g\" text-anchor=\"end\">%s</text>\n"
		     "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">%s</text>\n",
		better_word(t->s[k0].higher), CL, y0, CW - CL - CR, ph, CL - 4, y0 + 10,
		num_exact(a, sizeof a, hi), CL - 4, y0 + ph, num_exact(b, sizeof b, lo));
	for (size_t k = k0; k < k1; k++) {
		const struct hist_series *s = &t->s[k];
		const char *col = svg_colour[(k - k0) % SVG_NCOLOUR];
		double f = s->floor_pct / 100;
		/* each segment's band: level +- noise floor */
		for (size_t i = s->first; i < s->first + s->n;) {
			size_t j = i + 1;
			while (j < s->first + s->n && !t->change[j])
				j++;
			double xa = xs[i - base], xb = xs[j - 1 - base];
			fprintf(out, "<rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				     "height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.15\"/>\n", xa,
				YPOS(t->level[i] * (1 + f)), fmax(xb - xa, 2),
				YPOS(t->level[i] * (1 - f)) - YPOS(t->level[i] * (1 + f)), col);
			i = j;
		}
		fprintf(out, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" points=\"", col);
		for (size_t i = s->first; i < s->first + s->n; i++)
			fprintf(out, "%.1f,%.1f ", xs[i - base], YPOS(t->pts[i].value));
		fputs("\"/>\n", out);
		for (size_t i = s->first; i < s->first + s->n; i++)
			if (t->change[i])
				fprintf(out, "<circle class=\"change\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\" "
					     "fill=\"none\" stroke=\"#d00\" stroke-width=\"2\"/>\n",
					xs[i - base], YPOS(t->pts[i].value));
		fprintf(out, "<text x=\"%g\" y=\"%g\" fill=\"%s\">", CL + 8,
			y0 + ph + 16 + 14 * (double)(k - k0), col);
		svg_esc(out, s->machine);
		fprintf(out, ": %zu runs, %zu change point%s</text>\n", s->n, s->changes,
			s->changes == 1 ? "" : "s");
	}
#undef YPOS
	free(xs);
	return 0;
}

static int charts(FILE *out, const struct hist_trend *t)
{
	size_t panels = 0, lines = 0;
	for (size_t k = 0; k < t->ns; k = same_test_end(t, k), panels++)
		lines += same_test_end(t, k) - k;
	double h = (double)panels * CH + 14 * (double)lines + 10;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
		     "viewBox=\"0 0 %g %g\" font-family=\"sans-serif\" font-size=\"12\">\n"
		     "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n", CW, h, CW, h);
	double top = 0;
	for (size_t k = 0; k < t->ns;) {
		size_t k1 = same_test_end(t, k);
		if (panel(out, t, k, k1, top))
			return -1;
		top += CH + 14 * (double)(k1 - k);
		k = k1;
	}
	fputs("</svg>\n", out);
	return 0;
}

int hist_trend_svg(FILE *out, const struct hist_trend *t)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	return charts(out, t) ? -1 : done(out);
}

int hist_trend_html(FILE *out, const struct hist_trend *t)
{
	char a[40], b[40];

	page_head(out, "trend");
	fprintf(out, "<p>%zu series, %zu change point%s: Pettitt's test with binary segmentation "
		     "(p &lt; %g, &gt;= %d runs a side, beyond the test's noise floor). The bands "
		     "are each level +- the noise floor; ringed points start a new level.</p>\n",
		t->ns, t->changes, t->changes == 1 ? "" : "s", SIG_ALPHA, HIST_MIN_SEG);
	if (t->ns && charts(out, t))
		return -1;
	fputs("<table><tr><th>test</th><th>copies</th><th>machine</th><th>date</th><th>run</th>"
	      "<th>value</th><th>unit</th><th>level</th><th>change</th></tr>\n", out);
	for (size_t k = 0; k < t->ns; k++)
		for (size_t i = t->s[k].first; i < t->s[k].first + t->s[k].n; i++) {
			const struct store_point *q = &t->pts[i];
			fprintf(out, "<tr%s><td>", t->change[i] ? " class=\"flag\"" : "");
			esc(out, q->test);
			fprintf(out, "</td><td class=\"n\">%d</td><td>", q->copies);
			esc(out, q->machine);
			fputs("</td><td>", out);
			esc(out, q->date);
			fputs("</td><td>", out);
			esc(out, q->run_id);
			fprintf(out, "</td><td class=\"n\">%s</td><td>", num_exact(a, sizeof a, q->value));
			esc(out, q->unit);
			fprintf(out, "</td><td class=\"n\">%s</td><td>", num_exact(b, sizeof b, t->level[i]));
			if (t->change[i])
				fprintf(out, "x%.3f, p %.2g", t->level[i] / t->level[i - 1], t->p[i]);
			fputs("</td></tr>\n", out);
		}
	fputs("</table></body></html>\n", out);
	return done(out);
}

/* ---- check ---- */

int hist_check_text(FILE *out, const struct hist_check *h, int verbose)
{
	char a[400];

	for (size_t i = 0; i < h->nv; i++) {
		const struct hist_verdict *d = &h->v[i];
		if (!d->regressed && !verbose)
			continue;
		char ans[256];
		if (d->rep.answer != SIG_ANS_NONE)
			sig_answer_text(&d->rep, ans, sizeof ans);
		else
			snprintf(ans, sizeof ans, "none: %s", !strcmp(d->method, "no-baseline")
				 ? "the baseline has no such test" : "too few runs");
		fprintf(out, "%s: %s (copies %d): ratio %.4f (%.6g %s -> %.6g %s), p %.3g, %zu+%zu "
			     "runs, %s, %s\n",
			d->regressed ? "REGRESSION" : d->improved ? "improved"
			: d->rep.answer == SIG_ANS_EQUIVALENT ? "equivalent"
			: d->rep.answer == SIG_ANS_UNDECIDED ? "undecided" : "no verdict",
			text_safe(d->test, a, sizeof a), d->copies, d->ratio,
			d->base, d->unit, d->value, d->unit, d->p, d->na, d->nb, d->method, ans);
	}
	return done(out);
}
