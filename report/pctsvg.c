/* pctsvg.c — see pctsvg.h. */
#include "pctsvg.h"
#include "pct.h"
#include "svg.h"

#include <math.h>

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
			for (int q = 0; pct_has(&c->rows[i], j) && q < LAT_NQ; q++) {
				double v = pct_value(&c->rows[i], j, q);
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
			P_LEFT - 8, y + P_BAR * (double)nr / 2 + 4, pct_label(q));
		for (size_t j = 0; j < nr; j++, y += P_BAR) {
			double v = pct_value(r, j, q);
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

	for (size_t i = 0; i < c->nrows; i++)
		nblocks += pct_runs_with(&c->rows[i], nr) >= 2;
	range(c, nr, &lo, &hi);
	double block = 18 + LAT_NQ * ((double)nr * P_BAR + 6) + 8;
	double height = top + (double)nblocks * block + 50;
	svg_begin(out, P_WIDTH, height);
	fprintf(out, "<text x='10' y='22' font-size='16' font-weight='bold'>Latency percentiles "
		"(lower is better; log scale; xN: run 1 / this run, &lt; 1 slower)</text>\n");
	if (*pct_what(c))
		fprintf(out, "<text x='10' y='62' font-size='11'>%s</text>\n", pct_what(c));
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
	for (size_t i = 0; i < c->nrows; i++)
		if (pct_runs_with(&c->rows[i], nr) >= 2)
			y += svg_block(out, &c->rows[i], nr, y, lo, hi);
	svg_axis(out, lo, hi, top, y);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}
