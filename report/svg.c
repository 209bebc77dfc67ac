/* svg.c — see svg.h. */
#include "svg.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const svg_colour[SVG_NCOLOUR] = {"#4c72b0", "#dd8452", "#55a868", "#c44e52",
					     "#8172b3", "#937860", "#da8bc3", "#8c8c8c"};

void svg_esc(FILE *out, const char *s)
{
	xml_esc(out, s, 60);
}

struct bar_row {
	const char *title;
	int copies;
	int score;		/* an index-score row */
	const struct cmp_row *r;
	double ratio[8];
	char mark[8];
	const struct cmp_cell *cell[8];	/* what each bar's mark rests on; NULL: no cell */
	int basis[8];		/* index into the chart's bases, -1 none */
};

#define SVG_NBASIS 8	/* distinct bases a legend lists */
#define LEFT 360.0
#define PLOT 520.0
#define WIDTH 980.0

static double xpos(double r, double lo, double hi)
{
	double l = log2(r);
	if (l < lo)
		l = lo;
	if (l > hi)
		l = hi;
	return LEFT + (l - lo) / (hi - lo) * PLOT;
}

/* A chart being drawn: its rows and layout. */
struct chart {
	const struct cmp *c;
	struct bar_row *rows;
	size_t nr, nrows;	/* runs drawn (at most 8), rows */
	double lo, hi;		/* log2 of the axis ends */
	double rowh, top, height;
	int unconverged;	/* some run's sampling did not converge */
	/* The distinct bases of the marks drawn (compare.h cmp_basis()), in order of first
	 * appearance; with more than one, each mark says which ([k]) */
	char basis[SVG_NBASIS][CMP_BASIS_MAX];
	int nbasis;
};

/* The index of basis text s among ch's, added when new; the last one when they are full. */
static int basis_of(struct chart *ch, const char *s)
{
	for (int k = 0; k < ch->nbasis; k++)
		if (!strcmp(ch->basis[k], s))
			return k;
	if (ch->nbasis == SVG_NBASIS)
		return SVG_NBASIS - 1;
	snprintf(ch->basis[ch->nbasis], sizeof ch->basis[0], "%s", s);
	return ch->nbasis++;
}

/* Bar j of b: its cell's basis recorded (a mark there: a verdict or a within-run mark). */
static void note_basis(struct chart *ch, struct bar_row *b, size_t j)
{
	char bs[CMP_BASIS_MAX];

	b->basis[j] = -1;
	if (j && b->cell[j] && b->mark[j] != ' ' && isfinite(b->ratio[j]) && b->ratio[j] > 0 &&
	    *cmp_design(b->cell[j], bs, sizeof bs))
		b->basis[j] = basis_of(ch, bs);
}

/* Phase 1: one row per compared test, then one per pass's index score. */
static void collect_rows(struct chart *ch)
{
	const struct cmp *c = ch->c;
	size_t nr = ch->nr;
	int npass = c->m[0]->npass;

	for (size_t i = 0; i < c->nrows; i++) {
		struct bar_row *b = &ch->rows[ch->nrows++];
		b->title = c->rows[i].title;
		b->copies = c->rows[i].copies;
		b->r = &c->rows[i];
		for (size_t j = 0; j < nr; j++) {
			b->ratio[j] = c->rows[i].cell[j].ratio;
			b->mark[j] = c->rows[i].cell[j].mark;
			b->cell[j] = &c->rows[i].cell[j];
			note_basis(ch, b, j);
		}
	}
	for (int p = 0; p < npass; p++) {
		struct bar_row *b = &ch->rows[ch->nrows++];
		int copies = c->m[0]->pass[p].copies;
		b->title = "System Benchmarks Index Score";
		b->copies = copies;
		b->score = 1;
		for (size_t j = 0; j < nr; j++) {
			double s;
			/* with replicates the score is decided over the runs as a test's row */
			const struct cmp_cell *sc = cmp_score_cell(c, j, copies);
			b->ratio[j] = cmp_score_ratio(c, j, copies, &s);
			b->mark[j] = sc ? sc->mark : ' ';
			b->cell[j] = sc;
			note_basis(ch, b, j);
		}
	}
}

/* Phase 2: the axis (powers of two covering every ratio, at least 1/2 .. 2, at most
 * 2^-12 .. 2^12) and the rows' geometry. */
static void layout(struct chart *ch)
{
	const struct cmp *c = ch->c;
	const struct bar_row *rows = ch->rows;
	size_t nr = ch->nr, nrows = ch->nrows;
	double lo = -1, hi = 1;	/* log2 of the axis ends: at least 1/2 .. 2 */

	for (size_t i = 0; i < nrows; i++)
		for (size_t j = 1; j < nr; j++)
			if (isfinite(rows[i].ratio[j]) && rows[i].ratio[j] > 0) {
				double l = log2(rows[i].ratio[j]);
				/* half a step of room so a bar's label clears the titles */
				if (l - 0.5 < lo)
					lo = floor(l - 0.5);
				if (l + 0.5 > hi)
					hi = ceil(l + 0.5);
			}
	if (lo < -12)
		lo = -12;
	if (hi > 12)
		hi = 12;

	int unconverged = 0;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t j = 0; j < nr; j++)
			unconverged |= c->rows[i].cell[j].t && c->rows[i].cell[j].converged == 0;
	/* legend lines under the runs: index scores always; ! when a run did not converge */
	/* ... and with several bases, one line for each */
	double extra = 18.0 * (1 + unconverged + (ch->nbasis > 1 ? ch->nbasis : 0));
	double rowh = nr > 1 ? 18.0 * (double)(nr - 1) + 12 : 24,
	       top = 92 + 18.0 * (double)nr + extra;
	double height = top + rowh * (double)nrows + 70;
	ch->lo = lo;
	ch->hi = hi;
	ch->unconverged = unconverged;
	ch->rowh = rowh;
	ch->top = top;
	ch->height = height;
}

void svg_begin(FILE *out, double width, double height)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		     "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, "
		     "Helvetica, Arial, sans-serif\" font-size=\"13\">\n",
		width, height, width, height);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
		width, height);
}

/* Phase 3: the SVG element, title and legend (one line per run, then the notes). */
static void draw_legend(FILE *out, const struct chart *ch)
{
	const struct cmp *c = ch->c;
	size_t nr = ch->nr;
	double height = ch->height;

	svg_begin(out, WIDTH, height);
	fprintf(out, "<text x=\"20\" y=\"30\" font-size=\"18\" font-weight=\"bold\">"
		     "isobench: performance relative to ");
	svg_esc(out, c->label[0]);
	fprintf(out, "</text>\n<text x=\"20\" y=\"52\" fill=\"#555555\">log scale; right of 1 = "
		     "better, left = worse; solid bar and * = %s, faded = %s; "
		     "whisker = the ratio's 95%% CI (docs/report.md, noise rule)</text>\n",
		c->replicated ? "different" : "beyond noise",
		c->replicated ? "not" : "within noise");
	/* what the marks rest on: one basis for every mark, else each mark's [k] (listed below) */
	fprintf(out, "<text x=\"20\" y=\"66\" fill=\"#555555\" font-size=\"11\">marks rest on: ");
	if (ch->nbasis > 1)
		fprintf(out, "%d bases, the [k] after each mark (listed below the runs)", ch->nbasis);
	else
		svg_esc(out, c->replicated && ch->nbasis ? ch->basis[0]
			: "one run a side, within-run only: not a verdict (machine drift cannot "
			  "be told from a difference)");
	fputs("</text>\n", out);
	for (size_t j = 0; j < nr; j++) {
		double y = 76 + 18.0 * (double)j;
		fprintf(out, "<rect x=\"20\" y=\"%.0f\" width=\"14\" height=\"12\" fill=\"%s\"%s/>\n",
			y - 10, j ? svg_colour[j % SVG_NCOLOUR] : "#333333", "");
		fprintf(out, "<text x=\"42\" y=\"%.0f\">run %zu: ", y, j + 1);
		svg_esc(out, c->label[j]);
		fprintf(out, "%s%s</text>\n", j ? "" : " (reference, = 1)",
			c->tcg[j] ? " \xe2\x80\x94 TCG: emulation, not a hypervisor cost" : "");
	}
	{
		double y = 76 + 18.0 * (double)nr;
		fprintf(out, "<text x=\"20\" y=\"%.0f\" fill=\"#555555\" font-size=\"12\">%s"
			     "</text>\n", y,
			c->replicated
				? "Index Score rows: each run's score is its value, decided over the "
				  "runs as a test's row; compared only when both sides hold the same "
				  "index tests"
				: "Index Score rows: no noise mark (a geometric mean has no confidence "
				  "interval of its own); compared only when both runs hold the same "
				  "index tests");
		if (ch->unconverged)
			fprintf(out, "<text x=\"20\" y=\"%.0f\" fill=\"#555555\" font-size=\"12\">! "
				     "= %s did not converge (95%% CI wider than its target): treat the "
				     "bar with care</text>\n", y + 18,
				c->replicated ? "the sampling of some run of that side"
					      : "that run's sampling");
		for (int k = 0; ch->nbasis > 1 && k < ch->nbasis; k++) {
			fprintf(out, "<text x=\"20\" y=\"%.0f\" fill=\"#555555\" font-size=\"11\">"
				     "[%d] ", y + 18.0 * (1 + ch->unconverged + k), k + 1);
			xml_esc(out, ch->basis[k], sizeof ch->basis[k]);
			fputs("</text>\n", out);
		}
	}
}

/* Phase 4: the row stripes, the grid and the axis' labels. */
static void draw_grid(FILE *out, const struct chart *ch)
{
	size_t nrows = ch->nrows;
	double lo = ch->lo, hi = ch->hi, rowh = ch->rowh, top = ch->top;

	for (size_t i = 0; i < nrows; i += 2)
		fprintf(out, "<rect x=\"10\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
			     "fill=\"#f4f4f4\"/>\n", top + rowh * (double)i - 6, WIDTH - 20, rowh);
	/* Grid: one line per power of two, labelled 1/4, 1/2, 1, 2, 4 ... */
	double gy0 = top - 8, gy1 = top + rowh * (double)nrows;
	int step = hi - lo > 12 ? 2 : 1;
	for (int e = (int)lo; e <= (int)hi; e += step) {
		double x = xpos(ldexp(1, e), lo, hi);
		char lab[32];
		if (e >= 0)
			snprintf(lab, sizeof lab, "%g", ldexp(1, e));
		else
			snprintf(lab, sizeof lab, "1/%g", ldexp(1, -e));
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			     "stroke-width=\"%s\"/>\n", x, gy0, x, gy1, e ? "#dddddd" : "#333333",
			e ? "1" : "2");
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#333333\">%s"
			     "</text>\n", x, gy1 + 18, lab);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#555555\">ratio to "
		     "run 1 (by each test's direction: lower-is-better rows are inverted, so &gt; 1 is "
		     "always better)"
		     "</text>\n", LEFT + PLOT / 2, gy1 + 40);
}

/* Phase 5, per bar: run j's ratio in row b, at height by; "no result" when it has none. */
static void draw_bar(FILE *out, const struct chart *ch, const struct bar_row *b, size_t j,
		     double by)
{
	const struct cmp *c = ch->c;
	double lo = ch->lo, hi = ch->hi, r = b->ratio[j];

	if (!isfinite(r) || !(r > 0)) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#999999\" font-size=\"12\">"
			     "no result</text>\n", xpos(1, lo, hi) + 6, by + 11);
		return;
	}
	double x1 = xpos(1, lo, hi), x2 = xpos(r, lo, hi);
	double xa = x1 < x2 ? x1 : x2, w = fabs(x2 - x1);
	int faded = b->mark[j] == '~';
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" "
		     "fill=\"%s\" fill-opacity=\"%s\"><title>", xa, by, w < 1 ? 1 : w,
		svg_colour[j % SVG_NCOLOUR], faded ? "0.35" : "1");
	svg_esc(out, c->label[j]);
	fprintf(out, ": %.3f", r);
	if (b->basis[j] >= 0) {	/* what its mark rests on */
		fputs(" \xe2\x80\x94 ", out);
		xml_esc(out, ch->basis[b->basis[j]], sizeof ch->basis[0]);
	}
	fputs("</title></rect>\n", out);
	/* The ratio's 95% interval as a whisker (compare.h: mann-whitney and replicate cells). */
	const struct cmp_cell *cl = b->cell[j];
	if (cl && isfinite(cl->ratio_lo) && isfinite(cl->ratio_hi) && cl->ratio_lo > 0) {
		double wl = xpos(cl->ratio_lo, lo, hi), wh = xpos(cl->ratio_hi, lo, hi);
		fprintf(out, "<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
			     "stroke=\"#222222\" fill=\"none\"><title>95%% CI %.3f..%.3f, p=%.2g"
			     "</title></path>\n", wl, by + 7, wh, wl, by + 3, by + 11, wh, by + 3,
			by + 11, cl->ratio_lo, cl->ratio_hi, cl->p);
	}
	int right = r >= 1;
	double tx = right ? x2 + 5 : x2 - 5;
	char tag[16] = "";	/* [k]: the basis of this mark, when the chart has several */
	if (ch->nbasis > 1 && b->basis[j] >= 0)
		snprintf(tag, sizeof tag, " [%d]", b->basis[j] + 1);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"12\">"
		     "%.2f%s%s%s</text>\n", tx, by + 11, right ? "start" : "end", r,
		b->mark[j] == '*' ? " *" : b->mark[j] == '?' ? " ?" : "", tag,
		b->r && ((b->r->cell[j].t && b->r->cell[j].converged == 0) ||
			 (b->r->cell[0].t && b->r->cell[0].converged == 0))
			? " !" : "");
}

/* Phase 5: row i's title and its bars (one per run after the first). */
static void draw_row(FILE *out, const struct chart *ch, size_t i)
{
	const struct bar_row *b = &ch->rows[i];
	size_t nr = ch->nr;
	double rowh = ch->rowh, y = ch->top + rowh * (double)i;

	fprintf(out, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\"%s>", LEFT - 10,
		y + rowh / 2, b->score ? " font-weight=\"bold\"" : "");
	svg_esc(out, b->title);
	fprintf(out, " (%d cop%s%s%s)</text>\n", b->copies, b->copies == 1 ? "y" : "ies",
		b->r && b->r->higher != 1 ? "; " : "",
		b->r && b->r->higher != 1 ? cmp_direction(b->r->higher) : "");
	if (nr < 2)
		return;
	int any = 0;
	for (size_t j = 1; j < nr; j++)
		any |= isfinite(b->ratio[j]) && b->ratio[j] > 0;
	if (!any) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#999999\">%s</text>\n",
			LEFT + 6, y + rowh / 2,
			b->score ? "not compared: the runs hold different index tests"
				 : "not compared: not in every run");
		return;
	}
	for (size_t j = 1; j < nr; j++)
		draw_bar(out, ch, b, j, y + 18.0 * (double)(j - 1));
}

int svg_chart(FILE *out, const struct cmp *c)
{
	struct chart ch = {.c = c, .nr = c->nruns > SVG_NCOLOUR ? SVG_NCOLOUR : c->nruns};

	ch.rows = calloc(c->nrows + (size_t)c->m[0]->npass + 1, sizeof *ch.rows);
	if (!ch.rows)
		return -1;
	collect_rows(&ch);
	layout(&ch);
	draw_legend(out, &ch);
	draw_grid(out, &ch);
	for (size_t i = 0; i < ch.nrows; i++)
		draw_row(out, &ch, i);
	fprintf(out, "</svg>\n");
	free(ch.rows);
	return ferror(out) ? -1 : 0;
}
