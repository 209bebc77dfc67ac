/* memsvg.c — see memsvg.h. */
#include "memsvg.h"
#include "num.h"
#include "svg.h"
#include "util.h"
#include "vocab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MS_MAXPT 32
#define MS_MAXRUN SVG_NCOLOUR
#define MS_W 900.0
#define MS_L 90.0	/* plot area: left edge, width, top, height */
#define MS_PW 620.0
#define MS_T 60.0
#define MS_PH 340.0
#define MS_ROWH 18.0

static const char *const ms_page[2] = {"4 KiB", "2 MiB"};

/* The points of all runs: working sets (KiB, ascending) and ns per run and page (NAN: none). */
struct ms_data {
	size_t nrun, npt;
	double kib[MS_MAXPT];
	double ns[MS_MAXRUN][MS_MAXPT][2];
	double lo, hi;		/* log10 of the y axis ends (whole decades) */
	char dropped[400];	/* "run N TEST, ...": 2m RESULTs not drawn (ms_not_huge()) */
};

double memsvg_point(const char *name, int *page)
{
	static const char pre[] = REC_PREFIX_MEM_LATENCY;
	char num[32];
	double v;
	if (strncmp(name, pre, sizeof pre - 1))
		return 0;
	const char *at = name + sizeof pre - 1, *end = at + strspn(at, "0123456789.");
	snprintf(num, sizeof num, "%.*s", (int)(end - at), at);
	if (num_dbl(num, &v))
		return 0;
	double mul = *end == 'k' ? 1 : *end == 'm' ? 1024 : *end == 'g' ? 1024 * 1024 : 0;
	if (!(v > 0) || !isfinite(v * mul) || !mul || end[1] != '-')	/* "infk": not a point */
		return 0;
	if (!strcmp(end + 2, "4k"))
		*page = 0;
	else if (!strcmp(end + 2, "2m"))
		*page = 1;
	else
		return 0;
	return v * mul;
}

/* Index of kib among the points, adding it in order; -1 when full. */
static int ms_slot(struct ms_data *d, double kib)
{
	size_t i = 0;
	while (i < d->npt && d->kib[i] < kib)
		i++;
	if (i < d->npt && d->kib[i] == kib)
		return (int)i;
	if (d->npt == MS_MAXPT)
		return -1;
	memmove(&d->kib[i + 1], &d->kib[i], (d->npt - i) * sizeof d->kib[0]);
	for (size_t r = 0; r < MS_MAXRUN; r++)
		memmove(&d->ns[r][i + 1], &d->ns[r][i], (d->npt - i) * sizeof d->ns[r][0]);
	d->kib[i] = kib;
	for (size_t r = 0; r < MS_MAXRUN; r++)
		d->ns[r][i][0] = d->ns[r][i][1] = NAN;
	d->npt++;
	return (int)i;
}

/* 1 when one of t's measured SAMPLEs (t: a 1-copy test of m) says thp_kib=0 (or no
 * number): a 2m point measured on base pages. The runner SKIPs such a set (mem_map_verify()), so a log that
 * says it is damaged or from a faulty build; its figure is not drawn as a 2 MiB one. A log
 * whose samples carry no thp_kib (older) is taken as it says. */
static int ms_not_huge(const struct model *m, const struct mtest *t)
{
	for (size_t i = 0; i < t->nsmp; i++) {
		const char *thp = model_sample_get(m, &t->smp[i], REC_EXTRA_THP_KIB);	/* mem_latency.c's extra */
		double kib;
		if (!t->smp[i].warmup && thp && (num_dbl(thp, &kib) || !(kib > 0)))
			return 1;
	}
	return 0;
}

/* Phase 1: the 1-copy latency RESULTs of every run; 0 when there is none. A 2m RESULT
 * whose samples say they had no huge pages (ms_not_huge()) counts as absent. */
static size_t ms_collect(const struct cmp *c, struct ms_data *d)
{
	size_t found = 0;
	double ymin = INFINITY, ymax = 0;
	memset(d, 0, sizeof *d);
	d->nrun = c->nruns < MS_MAXRUN ? c->nruns : MS_MAXRUN;
	for (size_t r = 0; r < d->nrun; r++)
		for (size_t t = 0; t < c->m[r]->ntests; t++) {
			const struct mtest *mt = &c->m[r]->tests[t];
			int page, k;
			double kib = memsvg_point(mt->test, &page);
			if (!kib || mt->copies != 1 || !mt->has_result || !(mt->value > 0))
				continue;
			if (page == 1 && ms_not_huge(c->m[r], mt)) {
				size_t l = strlen(d->dropped);
				snprintf(d->dropped + l, sizeof d->dropped - l, "%srun %zu %s",
					 l ? ", " : "", r + 1, mt->test);
				continue;
			}
			if ((k = ms_slot(d, kib)) < 0)
				continue;
			d->ns[r][k][page] = mt->value;
			ymin = fmin(ymin, mt->value);
			ymax = fmax(ymax, mt->value);
			found++;
		}
	d->lo = found ? floor(log10(ymin)) : 0;
	d->hi = found ? fmax(ceil(log10(ymax)), d->lo + 1) : 1;
	return found;
}

static double ms_x(const struct ms_data *d, size_t i)
{
	if (d->npt < 2)
		return MS_L + MS_PW / 2;
	double a = log2(d->kib[0]), b = log2(d->kib[d->npt - 1]);
	return MS_L + 20 + (log2(d->kib[i]) - a) / (b - a) * (MS_PW - 40);
}

static double ms_y(const struct ms_data *d, double ns)
{
	return MS_T + MS_PH - (log10(ns) - d->lo) / (d->hi - d->lo) * MS_PH;
}

/* "16 KiB", "512 KiB", "16 MiB", "1 GiB". */
static void ms_size(char *buf, size_t cap, double kib)
{
	if (kib >= 1024 * 1024)
		snprintf(buf, cap, "%g GiB", kib / (1024 * 1024));
	else if (kib >= 1024)
		snprintf(buf, cap, "%g MiB", kib / 1024);
	else
		snprintf(buf, cap, "%g KiB", kib);
}

/* Phase 2: axes, grid and their labels. */
static void ms_axes(FILE *out, const struct ms_data *d)
{
	char s[32];
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		     "stroke=\"#999\"/>\n", MS_L, MS_T, MS_PW, MS_PH);
	static const int step[] = {1, 2, 5};
	for (double e = d->lo; e <= d->hi + 1e-9; e++)
		for (int k = 0, m; k < 3 && e + log10(m = step[k]) <= d->hi + 1e-9; k++) {
			double y = ms_y(d, pow(10, e) * m);
			fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
				     "stroke=\"#%s\"/>\n", MS_L, MS_L + MS_PW, y, y,
				m == 1 ? "ccc" : "eee");
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\">"
				     "%g</text>\n", MS_L - 6, y + 4, pow(10, e) * m);
		}
	for (size_t i = 0; i < d->npt; i++) {
		double x = ms_x(d, i);
		ms_size(s, sizeof s, d->kib[i]);
		fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n"
			     "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%s"
			     "</text>\n", x, x, MS_T, MS_T + MS_PH, x, MS_T + MS_PH + 16, s);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">working "
		     "set (log scale)</text>\n", MS_L + MS_PW / 2, MS_T + MS_PH + 36);
	fprintf(out, "<text x=\"20\" y=\"%.1f\" font-size=\"12\" transform=\"rotate(-90 20 %.1f)\" "
		     "text-anchor=\"middle\">ns per load (log scale; lower is better)</text>\n",
		MS_T + MS_PH / 2, MS_T + MS_PH / 2);
}

/* Phase 3: one polyline (with its points) per run and page size, and the legend. */
static void ms_series(FILE *out, const struct cmp *c, const struct ms_data *d)
{
	for (size_t r = 0; r < d->nrun; r++)
		for (int p = 0; p < 2; p++) {
			int n = 0;
			for (size_t i = 0; i < d->npt; i++)
				if (!isnan(d->ns[r][i][p]))
					fprintf(out, "%s%.1f,%.1f", n++ ? " " : "<polyline fill=\"none\" "
						"stroke-width=\"2\" points=\"", ms_x(d, i), ms_y(d, d->ns[r][i][p]));
			if (n)
				fprintf(out, "\" stroke=\"%s\"%s/>\n", svg_colour[r],
					p ? " stroke-dasharray=\"6 4\"" : "");
			for (size_t i = 0; i < d->npt; i++)
				if (!isnan(d->ns[r][i][p]))
					fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">"
						     "<title>%.3g ns</title></circle>\n", ms_x(d, i),
						ms_y(d, d->ns[r][i][p]), svg_colour[r], d->ns[r][i][p]);
			if (!n)	/* no point (every 2m SKIPped): no legend line for a curve */
				continue;	/* that is not drawn */
			double ly = MS_T + 14 + (double)(r * 2 + (size_t)p) * 16;
			fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				     "stroke-width=\"2\"%s/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">",
				MS_L + MS_PW + 10, MS_L + MS_PW + 34, ly - 4, ly - 4, svg_colour[r],
				p ? " stroke-dasharray=\"6 4\"" : "", MS_L + MS_PW + 40, ly);
			svg_esc(out, c->label[r]);
			fprintf(out, ", %s%s</text>\n", ms_page[p], c->tcg[r] ? " (TCG)" : "");
		}
}

/* a/b as "1.23x", or "-" when either is missing. */
static void ms_ratio(char *buf, size_t cap, double a, double b)
{
	if (isnan(a) || isnan(b) || !(b > 0))
		snprintf(buf, cap, "-");
	else
		snprintf(buf, cap, "%.2fx", a / b);
}

/* One cell of the table at column x. */
static void ms_cell(FILE *out, double x, double y, const char *s, int bold)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\"%s>%s</text>\n",
		x, y, bold ? " font-weight=\"bold\"" : "", s);
}

/* Left edge of run r's columns: run 1 has 3 (4k, 2m, 4k/2m), later runs cols. */
static double ms_col(size_t r, int cols, double colw)
{
	return 80 + (r ? 3 + (double)((r - 1) * (size_t)cols) : 0) * colw + (double)r * 24;
}

/* The largest point at which run r has both page sizes (its page-walk cost), or npt. */
static size_t ms_last(const struct ms_data *d, size_t r)
{
	for (size_t i = d->npt; i-- > 0;)
		if (!isnan(d->ns[r][i][0]) && !isnan(d->ns[r][i][1]))
			return i;
	return d->npt;
}

/* Phase 4: per point each run's 4k, 2m, 4k/2m, and (run > 0) 4k and 2m ratio to run 1. */
static double ms_table(FILE *out, const struct ms_data *d, double y)
{
	char s[32];
	double colw = 64.0;
	int cols = d->nrun > 1 ? 5 : 3;
	fprintf(out, "<text x=\"10\" y=\"%.1f\" font-size=\"11\" font-weight=\"bold\">point</text>\n", y);
	for (size_t r = 0; r < d->nrun; r++) {
		static const char *const head[] = {"4k ns", "2m ns", "4k/2m", "4k/run1", "2m/run1"};
		for (int k = 0; k < (r ? cols : 3); k++) {
			snprintf(s, sizeof s, "%s%zu %s", k ? "" : "run ", r + 1, head[k]);
			ms_cell(out, ms_col(r, cols, colw) + (k + 1) * colw, y, k ? head[k] : s, 1);
		}
	}
	for (size_t i = 0; i < d->npt; i++) {
		y += MS_ROWH;
		ms_size(s, sizeof s, d->kib[i]);
		fprintf(out, "<text x=\"10\" y=\"%.1f\" font-size=\"11\">%s</text>\n", y, s);
		for (size_t r = 0; r < d->nrun; r++) {
			const double *v = d->ns[r][i];
			double x0 = ms_col(r, cols, colw);
			for (int k = 0; k < (r ? cols : 3); k++) {
				if (k < 2)
					snprintf(s, sizeof s, isnan(v[k]) ? "-" : "%.3g", v[k]);
				else if (k == 2)
					ms_ratio(s, sizeof s, v[0], v[1]);
				else
					ms_ratio(s, sizeof s, v[k - 3], d->ns[0][i][k - 3]);
				ms_cell(out, x0 + (k + 1) * colw, y, s, k == 2 && i == ms_last(d, r));
			}
		}
	}
	return y;
}

#define MS_MAXWARN 4	/* comparability warnings written under the table; more are counted */

/* Phase 5, under the table from y: the 2m points left out (ms_not_huge()) and the
 * comparison's warnings (compare.c: build.version, image, command line, ... differ), so the
 * chart read alone still says when its curves are not comparable. */
static void ms_notes(FILE *out, const struct cmp *c, const struct ms_data *d, double y)
{
	if (d->dropped[0]) {
		fprintf(out, "<text x=\"10\" y=\"%.1f\" font-size=\"11\" fill=\"#c44e52\">Not drawn "
			     "(their samples say thp_kib=0, no huge pages): ", y += 18);
		xml_esc(out, d->dropped, sizeof d->dropped);
		fputs("</text>\n", out);
	}
	for (size_t i = 0; i < c->nwarn && i <= MS_MAXWARN; i++) {
		fprintf(out, "<text x=\"10\" y=\"%.1f\" font-size=\"11\" fill=\"#c44e52\">",
			y += 18);
		if (i == MS_MAXWARN)
			fprintf(out, "and %zu more warning(s): isobench-report's text output", c->nwarn - i);
		else {
			fputs("warning: ", out);
			xml_esc(out, c->warn[i], 200);	/* svg_esc()'s 60 bytes cut "b: ..." off */
		}
		fputs("</text>\n", out);
	}
}

int memsvg_chart(FILE *out, const struct cmp *c)
{
	struct ms_data *d = malloc(sizeof *d);
	if (!d || !ms_collect(c, d)) {
		free(d);
		return -1;
	}
	size_t notes = (d->dropped[0] != 0) + (c->nwarn > MS_MAXWARN ? MS_MAXWARN + 1 : c->nwarn);
	double height = MS_T + MS_PH + 70 + (double)(d->npt + 1 + notes) * MS_ROWH + 40;
	double width = fmax(MS_W, 140 + (double)(d->nrun * 5) * 88);
	svg_begin(out, width, height);
	fputs("<text x=\"10\" y=\"24\" font-size=\"15\" font-weight=\"bold\">Memory load latency "
	      "by working set: 4 KiB pages (solid) and 2 MiB pages (dashed)</text>\n", out);
	for (size_t r = 0; r < d->nrun; r++)
		if (c->tcg[r]) {
			fputs("<text x=\"10\" y=\"42\" font-size=\"12\" fill=\"#c44e52\">TCG runs are "
			      "emulation: plumbing, not a hypervisor cost</text>\n", out);
			break;
		}
	ms_axes(out, d);
	ms_series(out, c, d);
	double y = ms_table(out, d, MS_T + MS_PH + 66);
	fprintf(out, "<text x=\"10\" y=\"%.1f\" font-size=\"11\">4k/2m at the largest point (bold) "
		     "is the page-walk cost; runN/run1 &gt; 1: slower than run 1.</text>\n", y + 24);
	ms_notes(out, c, d, y + 24);
	fputs("</svg>\n", out);
	free(d);
	return ferror(out) ? -1 : 0;
}
