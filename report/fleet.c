/* fleet.c — a directory of logs grouped by hypervisor and/or machine (see fleet.h). */
#define _GNU_SOURCE
#include "fleet.h"
#include "num.h"
#include "compare.h"
#include "latency.h"
#include "signif.h"
#include "stats.h"
#include "status.h"
#include "unixbench.h"
#include "util.h"
#include "vocab.h"

#include <limits.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int fleet_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The group key of a run for by = "hypervisor", "machine" or "hypervisor,machine". */
static char *group_key(const struct model *m, int by_hv, int by_machine)
{
	char hv[200] = "", mach[600] = "", *key;

	if (by_hv)
		model_hv(m, hv, sizeof hv);
	if (by_machine)
		model_machine(m, mach, sizeof mach);
	if (asprintf(&key, "%s%s%s", hv, by_hv && by_machine ? " | " : "", mach) < 0)
		return NULL;
	return key;
}

/* Row pass label: "1" for one copy, "N" for copies == online CPUs, else the number. */
static void pass_label(const struct model *m, int copies, char *buf, size_t cap)
{
	if (copies == 1)
		snprintf(buf, cap, "1");
	else if (model_info_count(m, RK_CPU_ONLINE) == copies)
		snprintf(buf, cap, "N");
	else
		snprintf(buf, cap, "%d", copies);
}

static struct frow *find_row(struct fleet *f, const char *test, const char *pass, const char *unit,
			     int higher)
{
	for (size_t i = 0; i < f->nrows; i++)
		if (!strcmp(f->rows[i].test, test) && !strcmp(f->rows[i].pass, pass) &&
		    !strcmp(f->rows[i].unit, unit)) {
			if (f->rows[i].higher < 0)
				f->rows[i].higher = higher;
			return &f->rows[i];
		}
	struct frow *r = realloc(f->rows, (f->nrows + 1) * sizeof *r);
	if (!r)
		return NULL;
	f->rows = r;
	r = &f->rows[f->nrows];
	memset(r, 0, sizeof *r);
	r->test = strdup(test);
	r->unit = strdup(unit);
	snprintf(r->pass, sizeof r->pass, "%s", pass);
	r->higher = higher;
	if (!r->test || !r->unit)
		return NULL;
	f->nrows++;
	return r;
}

static int add_warn(struct fleet *f, char *msg)
{
	char **w = msg ? realloc(f->warn, (f->nwarn + 1) * sizeof *w) : NULL;
	if (!w) {
		free(msg);
		return -1;
	}
	f->warn = w;
	f->warn[f->nwarn++] = msg;
	return 0;
}

/* Runs that should match but do not, by the comparability rule between sides (compare.h's
 * cmp_unlike_across(): image, build, suite, tests, copies, mode, samples, sample_ms,
 * architecture; the groups differ in hypervisor and machine by design). */
static int check_comparable(struct fleet *f)
{
	const struct model **m = calloc(f->nruns + 1, sizeof *m);
	const char *name[32];
	size_t distinct[32], k;

	if (!m)
		return -1;
	for (size_t i = 0; i < f->nruns; i++)
		m[i] = &f->runs[i].m;
	k = cmp_unlike_across(m, f->nruns, name, distinct, 32);
	free(m);
	for (size_t i = 0; i < k; i++) {
		char *msg;
		if (asprintf(&msg, "runs differ in %s (%zu values): not like for like", name[i],
			     distinct[i]) < 0 || add_warn(f, msg))
			return -1;
	}
	return 0;
}

/* The rows: every test with a result in some run (per pass label), and the index score of
 * each pass that holds all the index tests. Returns 0, or -1 when out of memory. */
static int add_rows(struct fleet *f)
{
	char pass[16];
	for (size_t i = 0; i < f->nruns; i++) {
		const struct model *m = &f->runs[i].m;
		for (size_t t = 0; t < m->ntests; t++) {
			const struct mtest *mt = &m->tests[t];
			if (!mt->has_result || strcmp(mt->status, "ok") || !(mt->whole > 0))
				continue;
			pass_label(m, mt->copies, pass, sizeof pass);
			if (!find_row(f, mt->test, pass, mt->unit, mt->higher))
				return -1;
		}
		for (int p = 0; p < m->npass; p++)
			if (ub_score_complete(&m->pass[p].ub) && m->pass[p].score > 0) {
				pass_label(m, m->pass[p].copies, pass, sizeof pass);
				if (!find_row(f, "index", pass, "score", 1))
					return -1;
			}
	}
	return 0;
}

/* Row's values in the runs of group g into v; returns how many. */
static size_t group_values(const struct fleet *f, const struct frow *row, size_t g, double *v)
{
	char pass[16];
	size_t n = 0;
	for (size_t i = 0; i < f->nruns; i++) {
		const struct model *m = &f->runs[i].m;
		if (strcmp(f->runs[i].group, f->groups[g]))
			continue;
		if (!strcmp(row->test, "index")) {
			for (int p = 0; p < m->npass; p++) {
				pass_label(m, m->pass[p].copies, pass, sizeof pass);
				if (!strcmp(pass, row->pass) && m->pass[p].score > 0 &&
				    ub_score_complete(&m->pass[p].ub))
					v[n++] = m->pass[p].score;
			}
			continue;
		}
		for (size_t t = 0; t < m->ntests; t++) {
			const struct mtest *mt = &m->tests[t];
			if (!mt->has_result || strcmp(mt->status, "ok") || !(mt->whole > 0) ||
			    strcmp(mt->test, row->test) || strcmp(mt->unit, row->unit))
				continue;
			pass_label(m, mt->copies, pass, sizeof pass);
			if (!strcmp(pass, row->pass))	/* every sample counts (model.h's whole) */
				v[n++] = mt->whole;
		}
	}
	return n;
}

/* Group g's verdict against the reference's (see struct fcell): its runs' values b (nb)
 * against the reference's a (na), one per machine, decided as compare.c decides replicates
 * (sig_replicates() without rounds: Welch's t); the answer comes later, over every cell of
 * the fleet at once (answer_fleet()). pa, pb: scratch of min(na, nb) doubles. */
static void fleet_mark(const struct frow *row, const double *a, size_t na, const double *b,
		       size_t nb, double *pa, double *pb, struct fcell *c)
{
	if (sig_replicates(a, NULL, na, b, NULL, nb, row->higher, pa, pb, &c->rep)) {
		c->rep.answer = SIG_ANS_NONE;
		c->method = "too-few-runs";
		c->mark = '?';
		return;
	}
	c->method = "welch-t";
	c->p = c->rep.p;
	c->gm_ratio = c->rep.ratio;
	c->gm_lo = c->rep.lo;
	c->gm_hi = c->rep.hi;
	c->mark = '~';
}

/* The fleet's answers (signif.h's rule, as compare's): the Benjamini-Hochberg q over every
 * group cell with a verdict (the family a reader of the table scans), each against its
 * test's min-effect (compare.h's cmp_min_effect(): --min-effect, else the noise floor of the
 * test at the pass's copies; an Index Score row the default). 0, or -1 out of memory. */
static int answer_fleet(struct fleet *f)
{
	size_t n = f->nrows * f->ngroups, k = 0;
	struct sig_rep **r = malloc((n + 1) * sizeof *r);
	double *me = malloc((n + 1) * sizeof *me);

	if (!r || !me) {
		free(r);
		free(me);
		return -1;
	}
	for (size_t i = 0; i < f->nrows; i++)
		for (size_t g = 1; g < f->ngroups; g++) {
			struct fcell *c = &f->rows[i].cell[g];
			const char *from;
			const char *test = strcmp(f->rows[i].test, "index") ? f->rows[i].test : "";
			/* pass_label()'s: a count, or "N" (all CPUs), read as 0 (no
			 * per-copies floor) as it always was */
			long long copies = 0;
			num_ll(f->rows[i].pass, 0, 0, INT_MAX, &copies);
			r[k] = !strcmp(c->method, "welch-t") ? &c->rep : NULL;
			me[k++] = cmp_min_effect(test, (int)copies, &from);
		}
	int rc = sig_answer_family(r, me, k);
	free(r);
	free(me);
	if (rc)
		return -1;
	for (size_t i = 0; i < f->nrows; i++)
		for (size_t g = 1; g < f->ngroups; g++) {
			struct fcell *c = &f->rows[i].cell[g];
			if (!strcmp(c->method, "welch-t"))
				c->mark = sig_answer_mark(c->rep.answer);
		}
	return 0;
}

/* Group g's whole-group latency tails for row into c (see struct fcell): every run's RESULT
 * histogram of the row merged, the quantiles of the merge. -1: out of memory. */
static int group_tails(const struct fleet *f, const struct frow *row, size_t g, struct fcell *c)
{
	struct lat_hist *pool = malloc(sizeof *pool), *one = malloc(sizeof *one);
	char pass[16];

	for (int q = 0; q < LAT_NQ; q++)
		c->lat[q] = NAN;
	c->lat_runs = c->lat_hists = 0;
	if (!pool || !one) {
		free(pool);
		free(one);
		return -1;
	}
	lat_reset(pool);
	for (size_t i = 0; i < f->nruns; i++) {
		const struct model *m = &f->runs[i].m;
		if (strcmp(f->runs[i].group, f->groups[g]))
			continue;
		for (size_t t = 0; t < m->ntests; t++) {
			const struct mtest *mt = &m->tests[t];
			pass_label(m, mt->copies, pass, sizeof pass);
			if (!mt->has_result || !mt->has_lat || strcmp(mt->status, "ok") ||
			    strcmp(mt->test, row->test) || strcmp(mt->unit, row->unit) ||
			    strcmp(pass, row->pass))
				continue;
			c->lat_runs++;
			if (!mt->lat_hist || lat_hist_parse(mt->lat_hist, one))
				continue;
			/* the bucket's top edge is all the list says of the largest value */
			if (isfinite(mt->lat_result[LAT_NQ - 1]))
				one->max = (uint64_t)mt->lat_result[LAT_NQ - 1];
			lat_merge(pool, one);
			c->lat_hists++;
		}
	}
	if (c->lat_runs && c->lat_hists == c->lat_runs) {
		uint64_t q[LAT_NQ];
		lat_quantiles(pool, q);
		for (int k = 0; k < LAT_NQ; k++)
			c->lat[k] = (double)q[k];
	}
	free(pool);
	free(one);
	return 0;
}

/* Row's cells: each group's summary, then each group's ratio to the reference (group 0)
 * and mark. v: room for 4 x nruns values. Returns 0, or -1 when out of memory. */
static int fill_cells(const struct fleet *f, struct frow *row, double *v)
{
	double *a = v, *b = a + f->nruns, *pa = b + f->nruns, *pb = pa + f->nruns;
	size_t na = 0;

	row->cell = calloc(f->ngroups, sizeof *row->cell);
	if (!row->cell)
		return -1;
	for (size_t g = 0; g < f->ngroups; g++) {
		size_t n = group_values(f, row, g, g ? b : a);
		struct fcell *c = &row->cell[g];
		c->n = n;
		c->ratio = c->p = c->gm_ratio = c->gm_lo = c->gm_hi = NAN;
		c->mark = ' ';
		c->method = "none";
		c->rep.answer = SIG_ANS_NONE;
		if (n && summarize(g ? b : a, n, row->higher != 0, &c->s))
			c->n = 0;
		if (group_tails(f, row, g, c))
			return -1;
		if (!g) {
			na = c->n;
			continue;
		}
		if (!na || !c->n || row->higher < 0)
			continue;
		c->ratio = perf_ratio(row->cell[0].s.median, c->s.median, row->higher);
		fleet_mark(row, a, na, b, n, pa, pb, c);
	}
	return 0;
}

static int build_rows(struct fleet *f)
{
	if (add_rows(f))
		return -1;
	double *v = malloc(4 * (f->nruns ? f->nruns : 1) * sizeof *v);
	if (!v)
		return -1;
	for (size_t r = 0; r < f->nrows; r++) {
		if (fill_cells(f, &f->rows[r], v)) {
			free(v);
			return -1;
		}
	}
	free(v);
	return answer_fleet(f);
}

/* Phase 1: the regular files of dir, sorted by name, into *names_out (*n of them).
 * Returns 0, or 2 after a line on stderr (dir unreadable or without files). */
static int list_logs(const char *dir, char ***names_out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t nnames = 0;

	if (!d) {
		fprintf(stderr, "isobench-report: %s: cannot be read: %m\n", dir);
		return EXIT_USAGE;
	}
	while ((e = readdir(d))) {
		char *p;
		if (e->d_name[0] == '.' || asprintf(&p, "%s/%s", dir, e->d_name) < 0)
			continue;
		struct stat st;
		char **nn = NULL;
		if (stat(p, &st) || !S_ISREG(st.st_mode) ||
		    !(nn = realloc(names, (nnames + 1) * sizeof *names))) {
			free(p);
			continue;
		}
		names = nn;
		names[nnames++] = p;
	}
	closedir(d);
	if (!nnames) {
		fprintf(stderr, "isobench-report: %s holds no log files\n", dir);
		free(names);
		return EXIT_USAGE;
	}
	qsort(names, nnames, sizeof *names, qsort_cmp_str);
	*names_out = names;
	*n = nnames;
	return 0;
}

/* Phase 2: each file's last complete run into f->runs, with its group key; a file without
 * one is left out, said on stderr and in *incomplete. Takes names (and frees it). Returns 0,
 * or 3 when out of memory. */
static int read_runs(struct fleet *f, char **names, size_t nnames, int by_hv, int by_machine,
		     int *incomplete)
{
	f->runs = calloc(nnames, sizeof *f->runs);
	if (!f->runs)
		return EXIT_INCOMPLETE;
	for (size_t i = 0; i < nnames; i++) {
		struct frun *r = &f->runs[f->nruns];
		FILE *fp = fopen(names[i], "rb");
		int rc = fp ? log_read(fp, &r->log) : -1;
		if (fp)
			fclose(fp);
		int idx = rc ? -1 : log_last_complete(&r->log);
		if (idx < 0) {
			const struct run *last = rc || !r->log.nruns ? NULL : &r->log.runs[r->log.nruns - 1];
			fprintf(stderr, "isobench-report: %s: no complete run%s%s; left out\n", names[i],
				last ? ": " : "", last ? last->why : "");
			*incomplete = 1;
			if (!rc)
				log_free(&r->log);
			free(names[i]);
			continue;
		}
		if (model_build(&r->log.runs[idx], &r->m) ||
		    !(r->group = group_key(&r->m, by_hv, by_machine))) {
			free(names[i]);
			free(names);
			return EXIT_INCOMPLETE;
		}
		f->fails |= r->log.runs[idx].fails || r->log.runs[idx].errors;
		r->path = names[i];
		f->nruns++;
	}
	free(names);
	return 0;
}

/* Phase 3: groups are the distinct keys in name order, bare-metal (the usual reference)
 * first. Returns 0, or 3 when out of memory. */
static int group_runs(struct fleet *f)
{
	f->groups = calloc(f->nruns ? f->nruns : 1, sizeof *f->groups);
	if (!f->groups)
		return EXIT_INCOMPLETE;
	for (size_t i = 0; i < f->nruns; i++) {
		size_t g = 0;
		while (g < f->ngroups && strcmp(f->groups[g], f->runs[i].group))
			g++;
		if (g == f->ngroups)
			f->groups[f->ngroups++] = f->runs[i].group;
	}
	qsort(f->groups, f->ngroups, sizeof *f->groups, qsort_cmp_str);
	for (size_t g = 1; g < f->ngroups; g++)
		if (!strncmp(f->groups[g], "bare-metal", 10)) {
			char *b = f->groups[g];
			memmove(&f->groups[1], &f->groups[0], g * sizeof *f->groups);
			f->groups[0] = b;
			break;
		}
	return 0;
}

int fleet_load(struct fleet *f, const char *dir, int by_hv, int by_machine, int *incomplete)
{
	char **names;
	size_t nnames;
	int rc;

	if ((rc = list_logs(dir, &names, &nnames)) ||
	    (rc = read_runs(f, names, nnames, by_hv, by_machine, incomplete)))
		return rc;
	return group_runs(f);
}

void fleet_free(struct fleet *f)
{
	for (size_t i = 0; i < f->nruns; i++) {
		model_free(&f->runs[i].m);
		log_free(&f->runs[i].log);
		free(f->runs[i].path);
		free(f->runs[i].group);
	}
	for (size_t r = 0; r < f->nrows; r++) {
		free(f->rows[r].test);
		free(f->rows[r].unit);
		free(f->rows[r].cell);
	}
	for (size_t w = 0; w < f->nwarn; w++)
		free(f->warn[w]);
	free(f->runs);
	free(f->groups);
	free(f->rows);
	free(f->warn);
}

int fleet_analyse(struct fleet *f)
{
	return check_comparable(f) || build_rows(f) ? -1 : 0;
}

size_t fleet_group_size(const struct fleet *f, size_t g)
{
	size_t n = 0;
	for (size_t i = 0; i < f->nruns; i++)
		n += !strcmp(f->runs[i].group, f->groups[g]);
	return n;
}
