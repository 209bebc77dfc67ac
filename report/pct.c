/* pct.c — see pct.h. */
#include "pct.h"
#include "svg.h"
#include "text.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Labels of lib/latency.h's quantiles, in its order (p50_ns -> "p50"). */
static const char *const label[LAT_NQ] = {"p50", "p99", "p99.9", "max"};

const char *pct_key(int q)
{
	return lat_keys[q];
}

void pct_sample(struct msample *s, const struct record *r)
{
	for (int q = 0; q < LAT_NQ; q++) {
		const char *v = rec_get(r, lat_keys[q]);
		char *end;
		double d = v ? strtod(v, &end) : NAN;
		s->lat[q] = v && !*end && d >= 0 ? d : NAN;
	}
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void pct_derive(struct mtest *t)
{
	double *v = malloc((t->nsmp + 1) * sizeof *v);

	t->has_lat = 0;
	for (int q = 0; q < LAT_NQ; q++) {
		size_t n = 0;
		for (size_t i = 0; v && i < t->nsmp; i++)
			if (!t->smp[i].warmup && isfinite(t->smp[i].lat[q]))
				v[n++] = t->smp[i].lat[q];
		qsort(v, n, sizeof *v, cmpd);
		t->lat[q] = !n ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		t->has_lat |= n > 0;
	}
	free(v);
}

static int row_has(const struct cmp_row *r, size_t j)
{
	return r->cell[j].t && r->cell[j].t->has_lat;
}

double pct_ratio(const struct cmp_row *r, size_t j, int q)
{
	if (!row_has(r, 0) || !row_has(r, j))
		return NAN;
	return perf_ratio(r->cell[0].t->lat[q], r->cell[j].t->lat[q], 0);
}

/* Microseconds with a precision that fits 9 columns. */
static void us(FILE *out, double ns, int w)
{
	if (!isfinite(ns))
		fprintf(out, " %*s", w, "---");
	else
		fprintf(out, " %*.*f", w, ns < 1e7 ? 1 : 0, ns / 1000);
}

void pct_text_run(FILE *out, const struct model *m, int copies)
{
	int any = 0;

	for (size_t i = 0; i < m->ntests; i++) {
		const struct mtest *t = &m->tests[i];
		if (t->copies != copies || !t->has_lat)
			continue;
		if (!any++) {
			fprintf(out, "\n%-40s", "Latency percentiles (us, lower better)");
			for (int q = 0; q < LAT_NQ; q++)
				fprintf(out, " %10s", label[q]);
			fputc('\n', out);
		}
		char b[128];
		fprintf(out, "%-40.40s", text_safe(t->title, b, sizeof b));
		for (int q = 0; q < LAT_NQ; q++)
			us(out, t->lat[q], 10);
		fputc('\n', out);
	}
	if (any)
		fprintf(out, "(medians over the samples of each sample's percentile)\n");
}

int pct_comparable(const struct cmp *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		int n = 0;
		for (size_t j = 0; j < c->nruns; j++)
			n += row_has(&c->rows[i], j);
		if (n >= 2)
			return 1;
	}
	return 0;
}

void pct_text_compare(FILE *out, const struct cmp *c)
{
	char b[128];

	if (!pct_comparable(c))
		return;
	/* Each run's column as wide as its longest label (12..40): cut to 12, "KVM, 2 CPUs" and
	 * "KVM, 2 CPUs #2" headed two columns alike. */
	int w = 12;
	for (size_t j = 0; j < c->nruns; j++) {
		int l = (int)strlen(text_safe(c->label[j], b, sizeof b));
		w = l > w ? (l < 40 ? l : 40) : w;
	}
	fprintf(out, "\nLatency percentiles (us; lower is better; ratio = run 1 / this run, < 1 "
		     "slower)\n%-36s %-6s", "TEST", "");
	for (size_t j = 0; j < c->nruns; j++)
		fprintf(out, " %*.*s%s", w, w, text_safe(c->label[j], b, sizeof b),
			j ? "   ratio" : "");
	fputc('\n', out);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		int n = 0;
		for (size_t j = 0; j < c->nruns; j++)
			n += row_has(r, j);
		for (int q = 0; n >= 2 && q < LAT_NQ; q++) {
			fprintf(out, "%-36.36s %-6s", text_safe(r->title, b, sizeof b), label[q]);
			for (size_t j = 0; j < c->nruns; j++) {
				us(out, row_has(r, j) ? r->cell[j].t->lat[q] : NAN, w);
				double x = pct_ratio(r, j, q);
				if (j && isfinite(x))
					fprintf(out, " %7.2f", x);
				else if (j)
					fprintf(out, " %7s", "---");
			}
			fputc('\n', out);
		}
	}
}

json_t *pct_json(const struct mtest *t)
{
	json_t *o;

	if (!t->has_lat || !(o = json_object()))
		return json_null();
	for (int q = 0; q < LAT_NQ; q++)
		json_object_set_new(o, lat_keys[q], isfinite(t->lat[q]) ? json_real(t->lat[q])
									  : json_null());
	return o;
}

json_t *pct_json_ratio(const struct cmp_row *r, size_t j)
{
	json_t *o;

	if (!j || !row_has(r, 0) || !row_has(r, j) || !(o = json_object()))
		return json_null();
	for (int q = 0; q < LAT_NQ; q++) {
		double x = pct_ratio(r, j, q);
		json_object_set_new(o, lat_keys[q], isfinite(x) ? json_real(x) : json_null());
	}
	return o;
}

void pct_each(const struct mtest *t, void (*fn)(void *arg, const char *key, double v), void *arg)
{
	for (int q = 0; t->has_lat && q < LAT_NQ; q++)
		if (isfinite(t->lat[q]))
			fn(arg, lat_keys[q], t->lat[q]);
}

/* ---- the chart ---- */

#define P_LEFT 300.0
#define P_PLOT 560.0
#define P_WIDTH 980.0
#define P_BAR 12.0

/* The axis: decades of ns covering every value drawn. */
static void range(const struct cmp *c, size_t nr, double *lo, double *hi)
{
	double mn = INFINITY, mx = 0;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t j = 0; j < nr; j++)
			for (int q = 0; row_has(&c->rows[i], j) && q < LAT_NQ; q++) {
				double v = c->rows[i].cell[j].t->lat[q];
				if (isfinite(v) && v > 0) {
					mn = v < mn ? v : mn;
					mx = v > mx ? v : mx;
				}
			}
	*lo = isfinite(mn) ? floor(log10(mn)) : 2;
	*hi = mx > 0 ? ceil(log10(mx)) : 3;
	if (*hi <= *lo)
		*hi = *lo + 1;
}

static double px(double ns, double lo, double hi)
{
	double l = ns > 0 ? log10(ns) : lo;
	return P_LEFT + (l < lo ? 0 : (l - lo) / (hi - lo)) * P_PLOT;
}

static void svg_axis(FILE *out, double lo, double hi, double top, double bottom)
{
	static const char *const unit[] = {"ns", "ns", "ns", "us", "us", "us", "ms", "ms", "ms", "s"};
	for (double d = lo; d <= hi; d++) {
		double x = px(pow(10, d), lo, hi);
		int k = (int)d < 0 ? 0 : (int)d > 9 ? 9 : (int)d;
		fprintf(out, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ccc'/>\n", x, top,
			x, bottom);
		fprintf(out, "<text x='%.1f' y='%.1f' font-size='11' text-anchor='middle'>%g %s</text>\n",
			x, bottom + 14, pow(10, k % 3), unit[k]);
	}
}

/* One test's block: its title, then per quantile one bar per run. Returns the block height. */
static double svg_block(FILE *out, const struct cmp_row *r, size_t nr, double y, double lo,
			double hi)
{
	double y0 = y;

	fprintf(out, "<text x='10' y='%.1f' font-size='13' font-weight='bold'>", y + 12);
	svg_esc(out, r->title);
	fprintf(out, " (%d cop%s)</text>\n", r->copies, r->copies == 1 ? "y" : "ies");
	y += 18;
	for (int q = 0; q < LAT_NQ; q++) {
		fprintf(out, "<text x='%.1f' y='%.1f' font-size='12' text-anchor='end'>%s</text>\n",
			P_LEFT - 8, y + P_BAR * (double)nr / 2 + 4, label[q]);
		for (size_t j = 0; j < nr; j++, y += P_BAR) {
			double v = row_has(r, j) ? r->cell[j].t->lat[q] : NAN;
			if (!isfinite(v))
				continue;
			double x = px(v, lo, hi);
			fprintf(out, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'/>\n",
				P_LEFT, y + 1, x - P_LEFT > 1 ? x - P_LEFT : 1, P_BAR - 2,
				svg_colour[j % SVG_NCOLOUR]);
			fprintf(out, "<text x='%.1f' y='%.1f' font-size='10'>%.1f us", x + 4,
				y + P_BAR - 3, v / 1000);
			if (j) {
				double ratio = pct_ratio(r, j, q);
				if (isfinite(ratio))
					fprintf(out, " (x%.2f)", ratio);
			}
			fputs("</text>\n", out);
		}
		y += 6;
	}
	return y - y0 + 8;
}

int pct_svg(FILE *out, const struct cmp *c)
{
	size_t nr = c->nruns < SVG_NCOLOUR ? c->nruns : SVG_NCOLOUR, nblocks = 0;
	double lo, hi, top = 70;

	for (size_t i = 0; i < c->nrows; i++) {
		int n = 0;
		for (size_t j = 0; j < nr; j++)
			n += row_has(&c->rows[i], j);
		nblocks += n >= 2;
	}
	range(c, nr, &lo, &hi);
	double block = 18 + LAT_NQ * ((double)nr * P_BAR + 6) + 8;
	double height = top + (double)nblocks * block + 50;
	svg_begin(out, P_WIDTH, height);
	fprintf(out, "<text x='10' y='22' font-size='16' font-weight='bold'>Latency percentiles "
		"(lower is better; log scale; xN: run 1 / this run, &lt; 1 slower)</text>\n");
	for (size_t j = 0; j < nr; j++) {
		fprintf(out, "<rect x='%.1f' y='34' width='12' height='12' fill='%s'/>"
			"<text x='%.1f' y='45' font-size='12'>", 10 + 240.0 * (double)(j % 4),
			svg_colour[j], 26 + 240.0 * (double)(j % 4));
		svg_esc(out, c->label[j]);
		fputs(c->tcg[j] ? " (TCG: emulation)</text>\n" : "</text>\n", out);
	}
	if (!nblocks)
		fprintf(out, "<text x='10' y='%.1f' font-size='13'>no test carries latency "
			"percentiles in two of these runs</text>\n", top + 20);
	double y = top;
	for (size_t i = 0; i < c->nrows; i++) {
		int n = 0;
		for (size_t j = 0; j < nr; j++)
			n += row_has(&c->rows[i], j);
		if (n >= 2)
			y += svg_block(out, &c->rows[i], nr, y, lo, hi);
	}
	svg_axis(out, lo, hi, top, y);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
