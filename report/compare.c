/* compare.c — see compare.h. */
#define _GNU_SOURCE
#include "compare.h"
#include "num.h"
#include "cpuclk.h"
#include "noisefloor.h"
#include "signif.h"
#include "util.h"
#include "vocab.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kernel command-line words that legitimately differ between boots of one image: the boot
 * loader's own, the console device of the machine, isobench's per-run knobs that do not
 * change what is measured (isobench.repeat: how many runs one boot makes, each run alike;
 * isobench.ab_pos: the place in its A/B round, which the balanced order varies on purpose),
 * and the capture words of the bare-metal menu entries (image/isolinux.cfg): isobench.replay
 * (the records sent again after END), isobench.halt (what happens after the run),
 * isobench.delay (a countdown before BEGIN) and isobench.console (which ports get the
 * records: consoles never decide a measurement, README "Consoles and late capture"). */
static int volatile_word(const char *w, size_t n)
{
	static const char *const keys[] = {
		"BOOT_IMAGE", "initrd", "console", "earlycon", "earlyprintk", "isobench.label",
		"isobench.seed", "isobench.round", "isobench.ab_side", "isobench.ab_pos",
		"isobench.repeat", "isobench.replay", "isobench.halt", "isobench.delay",
		"isobench.console", "root",
		"rootwait", NULL,
	};
	for (int i = 0; keys[i]; i++) {
		size_t k = strlen(keys[i]);
		if (n >= k && !memcmp(w, keys[i], k) && (n == k || w[k] == '='))
			return 1;
	}
	return 0;
}

/* The command line without volatile words, words sorted: a canonical form to compare. */
static char *canon_cmdline(const char *s)
{
	size_t len = strlen(s), nw = 0, out = 0;
	char **w = calloc(len / 2 + 2, sizeof *w);
	char *res = malloc(len + 2);

	if (!w || !res) {
		free(w);
		free(res);
		return NULL;
	}
	for (const char *p = s; *p;) {
		while (*p == ' ')
			p++;
		const char *q = p;
		while (*q && *q != ' ')
			q++;
		if (q > p && !volatile_word(p, (size_t)(q - p)))
			w[nw++] = strndup(p, (size_t)(q - p));
		p = q;
	}
	qsort(w, nw, sizeof *w, qsort_cmp_str);
	res[0] = 0;
	for (size_t i = 0; i < nw; i++) {
		if (w[i]) {
			size_t k = strlen(w[i]);
			if (out)
				res[out++] = ' ';
			memcpy(res + out, w[i], k);
			out += k;
			res[out] = 0;
		}
		free(w[i]);
	}
	free(w);
	return res;
}

/* Words of a (space separated) that b does not hold, space separated; "-" when none. */
static char *only_in(const char *a, const char *b)
{
	size_t la = strlen(a), n = 0;
	char *res = malloc(la + 2);

	if (!res)
		return NULL;
	for (const char *p = a; *p;) {
		while (*p == ' ')
			p++;
		const char *q = p;
		while (*q && *q != ' ')
			q++;
		size_t k = (size_t)(q - p);
		int found = 0;
		for (const char *r = b; *r && !found;) {
			while (*r == ' ')
				r++;
			const char *t = r;
			while (*t && *t != ' ')
				t++;
			found = k && (size_t)(t - r) == k && !memcmp(p, r, k);
			r = t;
		}
		if (k && !found) {
			if (n)
				res[n++] = ' ';
			memcpy(res + n, p, k);
			n += k;
		}
		p = q;
	}
	if (!n)
		res[n++] = '-';
	res[n] = 0;
	return res;
}

static int add_warnv(struct cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int add_warnv(struct cmp *c, const char *fmt, ...)
{
	va_list ap;
	int rc;
	char **n = realloc(c->warn, (c->nwarn + 1) * sizeof *n);
	if (!n)
		return -1;
	c->warn = n;
	va_start(ap, fmt);
	rc = vasprintf(&c->warn[c->nwarn], fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -1;
	c->nwarn++;
	return 0;
}

/* "not comparable: WHAT differs (LABEL_A: A; LABEL_B: B)" */
static int add_warn(struct cmp *c, const char *what, const char *a, const char *la,
		    const char *b, const char *lb)
{
	return add_warnv(c, "not comparable: %s differs (%s: %s; %s: %s)", what, la, a, lb, b);
}

static int add_note(struct cmp *c, const char *text)
{
	for (size_t i = 0; i < c->nnote; i++)
		if (!strcmp(c->note[i], text))
			return 0;
	char **n = realloc(c->note, (c->nnote + 1) * sizeof *n);
	if (!n)
		return -1;
	c->note = n;
	if (!(c->note[c->nnote] = strdup(text)))
		return -1;
	c->nnote++;
	return 0;
}

/* The net tests' peer, as the run's header names it: "host H kernel K nic N" into out, or
 * "" when the run had none (run.peer "-" or absent). */
static void peer_identity(const struct model *m, char *out, size_t cap)
{
	const char *addr = model_info(m, RK_RUN_PEER);

	out[0] = 0;
	if (strcmp(addr, "-"))
		snprintf(out, cap, "host %s kernel %s nic %s", model_info(m, RK_PEER_HOST),
			 model_info(m, RK_PEER_KERNEL), model_info(m, RK_PEER_NIC));
}

/* Two runs (m0 labelled l0, mj labelled lj) whose net tests talked to different peers: their
 * ratios compare the peers too. */
static int check_peers(struct cmp *c, const struct model *m0, const char *l0,
		       const struct model *mj, const char *lj)
{
	char a[400], b[400];

	peer_identity(m0, a, sizeof a);
	peer_identity(mj, b, sizeof b);
	if (!a[0] || !b[0] || !strcmp(a, b))
		return 0;
	return add_warnv(c, "different peers: the net tests of %s talked to %s (%s), those of %s "
			    "to %s (%s): their ratios compare the peers too, not only this end",
			 l0, model_info(m0, RK_RUN_PEER), a, lj, model_info(mj, RK_RUN_PEER), b);
}

/* STREAM's working set of test t in m, in KiB: one array of all copies together, the first
 * measured sample's array_total_kib; in logs written before it existed (each copy had
 * arrays of its own), array_kib x copies. -1 when no sample says. */
static long long stream_set_kib(const struct model *m, const struct mtest *t)
{
	for (size_t i = 0; i < t->nsmp; i++) {
		if (t->smp[i].warmup)
			continue;
		/* whole KiB >= 1, as the reader checked them (validate.c check_stream_set()) */
		const char *v = model_sample_get(m, &t->smp[i], REC_EXTRA_ARRAY_TOTAL_KIB);
		long long kib;
		if (v)
			return num_ll(v, 0, 1, LLONG_MAX, &kib) ? -1 : kib;
		if ((v = model_sample_get(m, &t->smp[i], REC_EXTRA_ARRAY_KIB)))
			return num_ll(v, 0, 1, LLONG_MAX, &kib) ? -1 : kib * t->copies;
	}
	return -1;
}

/* Two runs whose STREAM tests (mem-bandwidth-*) ran different working sets (issue 36: a
 * hypervisor's smaller cache, another MemTotal, another isobench.mem.array): a bandwidth
 * ratio then compares the sets too. One warning per pair of runs, on the first such test. */
static int check_stream_sets(struct cmp *c, const struct model *m0, const char *l0,
			     const struct model *mj, const char *lj)
{
	static const char pre[] = REC_PREFIX_MEM_BANDWIDTH;
	for (size_t i = 0; i < m0->ntests; i++) {
		const struct mtest *a = &m0->tests[i], *b;
		if (strncmp(a->test, pre, sizeof pre - 1) || !(b = model_find(mj, a->test, a->copies)))
			continue;
		long long ka = stream_set_kib(m0, a), kb = stream_set_kib(mj, b);
		if (ka > 0 && kb > 0 && ka != kb)
			return add_warnv(c, "not comparable: STREAM working sets differ (%s copies=%d: "
					 "one array of all copies %lld KiB in %s, %lld KiB in %s): give "
					 "both runs the same isobench.mem.array", a->test, a->copies, ka,
					 l0, kb, lj);
	}
	return 0;
}

/* ---- the comparability rule (compare.h's enum cmp_field; one owner) ---- */

const char *const cmp_field_word[CMP_NFIELDS] = {
	[CMP_F_HV] = "hv", [CMP_F_ARCH] = "arch", [CMP_F_MODE] = "mode",
	[CMP_F_KERNEL] = "kernel", [CMP_F_IMAGE] = "image", [CMP_F_MACHINE] = "machine",
	[CMP_F_TESTS] = "tests",
};

/* What two runs must share, one row a value: name (the warning's word: the INFO key, or the
 * field's word for a value derived from several keys), the field it belongs to (CMP_NFIELDS:
 * a parameter of no field, warned only), and whether it is warned between the sides of a
 * comparison (0: the sides differ in it by design, since it is what is compared; warned
 * within a side and by check). Warnings keep this order. */
static const struct unlike_row {
	const char *name;
	enum cmp_field field;
	int across;
} unlike_rows[] = {
	{RK_IMAGE_IDENTITY, CMP_F_IMAGE, 1},	{RK_BUILD_VERSION, CMP_F_IMAGE, 1},
	{RK_RUN_SUITE, CMP_F_TESTS, 1},		{RK_RUN_COPIES, CMP_F_TESTS, 1},
	{RK_RUN_TESTS, CMP_F_TESTS, 1},		{RK_RUN_MODE, CMP_F_MODE, 1},
	{RK_RUN_SAMPLES, CMP_NFIELDS, 1},	{RK_RUN_SAMPLE_MS, CMP_NFIELDS, 1},
	{RK_KERNEL_MACHINE, CMP_F_ARCH, 1},	{"hv", CMP_F_HV, 0},
	{RK_KERNEL_RELEASE, CMP_F_KERNEL, 0},	{"machine", CMP_F_MACHINE, 0},
};
#define NUNLIKE (sizeof unlike_rows / sizeof unlike_rows[0])

/* Row r's value of run m into buf (cap bytes); returns buf. */
static const char *row_value(const struct model *m, const struct unlike_row *r, char *buf,
			     size_t cap)
{
	if (r->field == CMP_F_HV)
		model_hv(m, buf, cap);
	else if (r->field == CMP_F_MACHINE)
		model_machine(m, buf, cap);
	else
		snprintf(buf, cap, "%s", r->field == CMP_F_MODE ? model_mode(m)
							 : model_info(m, r->name));
	return buf;
}

/* 1 when values a and b of row r differ: as strings, but an architecture a log does not say
 * ("-") differs from none (nothing is guessed). */
static int row_differs(const struct unlike_row *r, const char *a, const char *b)
{
	if (r->field == CMP_F_ARCH && (!strcmp(a, "-") || !strcmp(b, "-")))
		return 0;
	return strcmp(a, b) != 0;
}

size_t cmp_unlike_across(const struct model *const *m, size_t n, const char **name,
			 size_t *distinct, size_t max)
{
	size_t k = 0;

	for (size_t r = 0; r < NUNLIKE && k < max; r++) {
		const struct unlike_row *row = &unlike_rows[r];
		size_t d = 0;
		if (!row->across)
			continue;
		for (size_t i = 0; i < n; i++) {
			char vi[600], vj[600];
			size_t j = 0;
			row_value(m[i], row, vi, sizeof vi);
			if (row->field == CMP_F_ARCH && !strcmp(vi, "-"))
				continue;	/* a log that does not say */
			while (j < i && strcmp(row_value(m[j], row, vj, sizeof vj), vi))
				j++;
			d += j == i;
		}
		if (d > 1) {
			name[k] = row->name;
			distinct[k++] = d;
		}
	}
	return k;
}

/* Two architectures (INFO kernel.machine, both known and different): a note that the
 * comparison is of the two machines, not a refusal — "which instance type is faster for me"
 * (docs/journeys/two-instance-types.md) is a fair question across x86-64 and arm64, but each
 * ratio then holds the CPU, its instruction set and the kernel build together. 0; -1 out of
 * memory. */
static int check_arch(struct cmp *c, const struct model *m0, const char *l0,
		      const struct model *mj, const char *lj)
{
	const char *a = model_info(m0, RK_KERNEL_MACHINE), *b = model_info(mj, RK_KERNEL_MACHINE);
	char *t;

	if (!strcmp(a, "-") || !strcmp(b, "-") || !strcmp(a, b))
		return 0;
	if (asprintf(&t, "a machine comparison: %s is %s and %s is %s, so each ratio compares "
		     "the two machines whole (CPU, instruction set and kernel build together; the "
		     "clock, VM-exit and ring0 probes are other tests), not a hypervisor or a "
		     "setting", l0, a, lj, b) < 0)
		return -1;
	int rc = add_note(c, t);
	free(t);
	return rc;
}

/* How check_pair() applies the rows: between the sides of a comparison (ROWS_ACROSS: the rows
 * marked across; a native run beside an image run differs in identity and mode by design),
 * between runs that must be runs of one thing (ROWS_ALIKE: every row), or not at all
 * (ROWS_NONE: cmp_unlike_groups() has warned of them over every run). */
enum rows_scope { ROWS_ACROSS, ROWS_ALIKE, ROWS_NONE };

/* Warnings (and the native-beside-image note) for what makes run mj (labelled lj) not
 * comparable with m0 (l0): two sides' first runs (ROWS_ACROSS), two runs of one side of
 * replicates (ROWS_ALIKE), or check's baseline and candidate (ROWS_NONE). 0, or -1 out of
 * memory. */
static int check_pair(struct cmp *c, const struct model *m0, const char *l0,
		      const struct model *mj, const char *lj, enum rows_scope scope)
{
	/* docs/comparing.md's bare-metal column: the payload run natively (host) beside the image
	 * booted (init). Identity, mode and command line differ by design. */
	const char *ma = model_mode(m0), *mb = model_mode(mj);
	int native_vs_image = (!strcmp(ma, REC_MODE_HOST) && !strcmp(mb, REC_MODE_INIT)) ||
			      (!strcmp(ma, REC_MODE_INIT) && !strcmp(mb, REC_MODE_HOST));
	if (native_vs_image && scope == ROWS_ACROSS &&
	    add_note(c, "native run beside image runs: identity, mode and kernel command line "
			"differ by design"))
		return -1;
	if (check_peers(c, m0, l0, mj, lj) || check_stream_sets(c, m0, l0, mj, lj) ||
	    (scope == ROWS_ACROSS && check_arch(c, m0, l0, mj, lj)))
		return -1;
	for (size_t k = 0; k < NUNLIKE && scope != ROWS_NONE; k++) {
		const struct unlike_row *r = &unlike_rows[k];
		char a[600], b[600];
		/* two sides' architectures: check_arch()'s note, not a warning (issue 48) */
		if (scope == ROWS_ACROSS &&
		    (!r->across || r->field == CMP_F_ARCH ||
		     (native_vs_image && (r->field == CMP_F_IMAGE || r->field == CMP_F_MODE) &&
		      strcmp(r->name, RK_BUILD_VERSION))))
			continue;
		if (row_differs(r, row_value(m0, r, a, sizeof a), row_value(mj, r, b, sizeof b)) &&
		    add_warn(c, r->name, a, l0, b, lj))
			return -1;
	}
	char cw[2][400];	/* the CPU clock policy and effective clock (cpuclk.h) */
	for (int k = 0, n = clk_compare(&m0, 1, l0, &mj, 1, lj, cw, 2); k < n; k++)
		if (add_warnv(c, "%s", cw[k]))
			return -1;
	const char *fa = model_workdir_fs(m0), *fb = model_workdir_fs(mj);
	if (strcmp(fa, "-") && strcmp(fb, "-") && strcmp(fa, fb) &&
	    add_warnv(c, "not comparable: file tests ran on %s in one run and %s in another: "
			 "fstime/fsbuffer/fsdisk are not comparable (fs.workdir %s: %s; %s: %s)",
		      fa, fb, l0, fa, lj, fb))
		return -1;
	if (native_vs_image && scope == ROWS_ACROSS)
		return 0;
	char *a = canon_cmdline(model_info(m0, RK_KERNEL_CMDLINE));
	char *b = canon_cmdline(model_info(mj, RK_KERNEL_CMDLINE));
	int rc = 0;
	if (!a || !b)
		rc = -1;
	else if (strcmp(a, b)) {
		char *da = only_in(a, b), *db = only_in(b, a);
		rc = !da || !db ? -1
		     : add_warnv(c, "not comparable: kernel.cmdline (apart from volatile words) "
				    "differs (only in %s: %s; only in %s: %s)", l0, da, lj, db);
		free(da);
		free(db);
	}
	free(a);
	free(b);
	return rc;
}

/* The distinct values of row r over the n runs m into *v (each with its count in cnt),
 * returns how many (at most max). */
static size_t row_values(const struct unlike_row *r, const struct model *const *m, size_t n,
			 char (*v)[600], size_t *cnt, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		char x[600];
		size_t j = 0;
		row_value(m[i], r, x, sizeof x);
		while (j < k && strcmp(v[j], x))
			j++;
		if (j == k && k < max) {
			snprintf(v[k], sizeof v[k], "%s", x);
			cnt[k++] = 0;
		}
		if (j < k)
			cnt[j]++;
	}
	return k;
}

/* "V" (one value: every run), else "V1 in N1 runs, V2 in N2, ..." into buf. */
static void values_text(char (*v)[600], const size_t *cnt, size_t k, char *buf, size_t cap)
{
	size_t len = 0;

	buf[0] = 0;
	for (size_t j = 0; j < k && len < cap; j++) {
		int w = k == 1 ? snprintf(buf + len, cap - len, "%s", v[j])
			: snprintf(buf + len, cap - len, "%s%s in %zu%s", j ? ", " : "", v[j], cnt[j],
				   j ? "" : cnt[j] == 1 ? " run" : " runs");
		len += w > 0 ? (size_t)w : 0;
	}
}

#define UNLIKE_MAXV 8	/* distinct values of a row named a side; more: "..." */

int cmp_unlike_groups(const struct model *const *a, size_t na, const char *la,
		      const struct model *const *b, size_t nb, const char *lb,
		      struct cmp_unlike *u)
{
	struct cmp c;
	char (*v)[600] = malloc(2 * (UNLIKE_MAXV + 1) * sizeof *v);
	size_t cnt[2][UNLIKE_MAXV + 1];
	int rc = 0;

	memset(u, 0, sizeof *u);
	memset(&c, 0, sizeof c);
	if (!v)
		return -1;
	for (size_t k = 0; k < NUNLIKE && !rc; k++) {
		const struct unlike_row *r = &unlike_rows[k];
		size_t ka = row_values(r, a, na, v, cnt[0], UNLIKE_MAXV + 1);
		size_t kb = row_values(r, b, nb, v + UNLIKE_MAXV + 1, cnt[1], UNLIKE_MAXV + 1);
		int differ = 0;	/* some run of either group unlike another */
		for (size_t i = 0; i < ka + kb && !differ; i++)
			for (size_t j = i + 1; j < ka + kb && !differ; j++)
				differ = row_differs(r, v[i < ka ? i : UNLIKE_MAXV + 1 + i - ka],
						     v[j < ka ? j : UNLIKE_MAXV + 1 + j - ka]);
		if (!differ)
			continue;
		char ta[2000], tb[2000];
		values_text(v, cnt[0], ka > UNLIKE_MAXV ? UNLIKE_MAXV : ka, ta, sizeof ta);
		values_text(v + UNLIKE_MAXV + 1, cnt[1], kb > UNLIKE_MAXV ? UNLIKE_MAXV : kb, tb,
			    sizeof tb);
		rc = add_warnv(&c, "not comparable: %s differs (%s: %s%s; %s: %s%s)", r->name, la,
			       ta, ka > UNLIKE_MAXV ? ", ..." : "", lb, tb,
			       kb > UNLIKE_MAXV ? ", ..." : "");
		if (r->field < CMP_NFIELDS)
			u->fields |= CMP_FIELD_BIT(r->field);
	}
	free(v);
	if (!rc && na && nb)	/* the rest of the rule: the groups' first runs */
		rc = check_pair(&c, a[0], la, b[0], lb, ROWS_NONE);
	u->warn = c.warn;
	u->nwarn = c.nwarn;
	c.warn = NULL;
	c.nwarn = 0;
	cmp_free(&c);
	if (rc)
		cmp_unlike_free(u);
	return rc;
}

void cmp_unlike_free(struct cmp_unlike *u)
{
	for (size_t i = 0; i < u->nwarn; i++)
		free(u->warn[i]);
	free(u->warn);
	memset(u, 0, sizeof *u);
}

const char *cmp_allow_words(char *buf, size_t cap)
{
	size_t len = 0;

	buf[0] = 0;
	for (int k = 0; k < CMP_NFIELDS; k++)
		if (CMP_JUDGE & CMP_FIELD_BIT(k)) {
			int w = snprintf(buf + len, cap - len, "%s%s", len ? "," : "",
					 cmp_field_word[k]);
			if (w < 0 || (size_t)w >= cap - len)
				break;
			len += (size_t)w;
		}
	return buf;
}

int cmp_allow_parse(const char *arg, unsigned *allow)
{
	char *s = strdup(arg), *rest = s, *w, words[100];
	int rc = 0, got = 0, empty = 0;

	if (!s)
		return -1;
	cmp_allow_words(words, sizeof words);
	while (!rc && (w = strsep(&rest, ","))) {
		int k = 0;
		if (!*w) {	/* "hv,", ",hv", "hv,,mode": said below, as --label a,,b is */
			empty = 1;
			continue;
		}
		while (k < CMP_NFIELDS && strcmp(w, cmp_field_word[k]))
			k++;
		if (k < CMP_NFIELDS && (CMP_JUDGE & CMP_FIELD_BIT(k))) {
			*allow |= CMP_FIELD_BIT(k);
			got = 1;
		} else {
			if (k < CMP_NFIELDS)
				fprintf(stderr, "isobench-report: --allow %s: a difference in %s is "
						"never refused, only warned; --allow takes %s\n", w, w,
					words);
			else
				fprintf(stderr, "isobench-report: --allow %s: no such field; --allow "
						"takes %s (comma-separated)\n", w, words);
			rc = -1;
		}
	}
	if (!rc && !got) {
		fprintf(stderr, "isobench-report: --allow wants %s (comma-separated), not '%s'\n",
			words, arg);
		rc = -1;
	} else if (!rc && empty) {
		fprintf(stderr, "isobench-report: --allow '%s': an empty field (a comma at an end "
				"or two together); --allow takes %s (comma-separated)\n", arg, words);
		rc = -1;
	}
	free(s);
	return rc;
}

static int steal_warns(struct cmp *c, const struct model *const *const *side,
		       const size_t *nside);

static int check_comparable(struct cmp *c)
{
	for (size_t j = 0; j < c->nruns; j++)	/* the runner's WARN records (clocksource) */
		for (size_t i = 0; i < c->m[j]->nev; i++)
			if (!strcmp(c->m[j]->ev[i].kind, RK_WARN) &&
			    add_warnv(c, "%s: %s", c->label[j], c->m[j]->ev[i].reason))
				return -1;
	if (steal_warns(c, NULL, NULL))	/* the runs' own condition, as the runner's WARNs */
		return -1;
	c->nwarn_runner = c->nwarn;
	for (size_t j = 0; j < c->nruns; j++)	/* the clock's own cost (model.h) */
		for (size_t i = 0; i < c->m[j]->ntests; i++) {
			char line[512];
			if (model_clock_warning(c->m[j], &c->m[j]->tests[i], line, sizeof line) &&
			    add_warnv(c, "%s: %s", c->label[j], line))
				return -1;
		}
	for (size_t j = 0; j < c->nruns; j++)
		if (c->tcg[j] && add_note(c, "QEMU/TCG (columns marked (TCG)): emulation, not a "
					  "hypervisor cost: its ratios measure QEMU's CPU emulator"))
			return -1;
	for (size_t j = 1; j < c->nruns; j++)	/* a run beside itself shows only its own noise */
		if (!strcmp(c->m[0]->run_id, c->m[j]->run_id) &&
		    add_warnv(c, "%s and %s are the same run (run id %s): a comparison with itself "
				 "shows no difference by construction", c->label[0], c->label[j],
			      c->m[j]->run_id))
			return -1;
	for (size_t j = 1; j < c->nruns; j++)
		if (check_pair(c, c->m[0], c->label[0], c->m[j], c->label[j], ROWS_ACROSS))
			return -1;
	return 0;
}

/* Replicates: each run of side j beside the side's first, by check_pair(): runs pooled into
 * one side must be runs of one thing (suite, tests, sample_ms, build, ...), else the side's
 * value and spread mix them. Labels "LABEL run 1", "LABEL run K" (K: its place on the side).
 * 0, or -1 out of memory. */
static int check_sides(struct cmp *c, const struct model *const *const *side, const size_t *nside)
{
	for (size_t j = 0; j < c->nruns; j++)
		for (size_t i = 1; i < nside[j]; i++) {
			char l0[200], li[200];
			snprintf(l0, sizeof l0, "%s run 1", c->label[j]);
			snprintf(li, sizeof li, "%s run %zu", c->label[j], i + 1);
			if (check_pair(c, side[j][0], l0, side[j][i], li, ROWS_ALIKE))
				return -1;
		}
	return 0;
}

/* Replicates: the CPU clock policy and effective clock of side 0 beside each side j, over
 * every run of both (cpuclk.h's clk_compare()). 0, or -1 out of memory. */
static int clock_sides(struct cmp *c, const struct model *const *const *side,
		       const size_t *nside)
{
	for (size_t j = 1; j < c->nruns; j++) {
		char cw[2][400];
		for (int k = 0, n = clk_compare(side[0], nside[0], c->label[0], side[j], nside[j],
						c->label[j], cw, 2); k < n; k++)
			if (add_warnv(c, "%s", cw[k]))
				return -1;
	}
	return 0;
}

void cmp_side_clock(const struct cmp *c, size_t j, const char *test, int copies,
		    struct clk_test *out)
{
	if (c->side)
		clk_side_of(c->side[j], c->side_runs[j], test, copies, out);
	else
		clk_side_of(&c->m[j], 1, test, copies, out);
}

/* 1 when run m holds a WARN record saying reason. */
static int has_warn(const struct model *m, const char *reason)
{
	for (size_t i = 0; i < m->nev; i++)
		if (!strcmp(m->ev[i].kind, RK_WARN) && !strcmp(m->ev[i].reason, reason))
			return 1;
	return 0;
}

/* The WARNs of side j's n runs (n > 1), each reason once, naming the runs that carry it by
 * their place on the side: "LABEL run 2: reason", "LABEL runs 1, 3: reason". 0; -1 out of
 * memory. */
static int side_warns(struct cmp *c, size_t j, const struct model *const *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t e = 0; e < m[i]->nev; e++) {
			const char *why = m[i]->ev[e].reason;
			int seen = 0;
			if (strcmp(m[i]->ev[e].kind, RK_WARN))
				continue;
			for (size_t k = 0; k < i && !seen; k++)
				seen = has_warn(m[k], why);
			for (size_t f = 0; f < e && !seen; f++)
				seen = !strcmp(m[i]->ev[f].kind, RK_WARN) &&
				       !strcmp(m[i]->ev[f].reason, why);
			if (seen)
				continue;
			char runs[400];
			size_t len = 0, cnt = 0;
			for (size_t k = i; k < n && len < sizeof runs; k++) {
				if (!has_warn(m[k], why))
					continue;
				len += (size_t)snprintf(runs + len, sizeof runs - len, "%s%zu",
							cnt++ ? ", " : "", k + 1);
			}
			if (add_warnv(c, "%s run%s %s: %s", c->label[j], cnt > 1 ? "s" : "", runs,
				      why))
				return -1;
		}
	return 0;
}

/* Replicates: the runner's WARNs of every run of every side in place of cmp_build()'s (the
 * sides' first runs' alone), still first among the warnings: a side of one run as before
 * ("LABEL: reason"), a side of several by side_warns(). 0; -1 out of memory. */
static int replicate_warns(struct cmp *c, const struct model *const *const *side,
			   const size_t *nside)
{
	char **had = c->warn;
	size_t nhad = c->nwarn, first = c->nwarn_runner;

	for (size_t i = 0; i < first; i++)
		free(had[i]);
	c->warn = NULL;
	c->nwarn = 0;
	int rc = 0;
	for (size_t j = 0; j < c->nruns && !rc; j++)
		if (nside[j] > 1)
			rc = side_warns(c, j, side[j], nside[j]);
		else
			for (size_t e = 0; e < side[j][0]->nev && !rc; e++)
				if (!strcmp(side[j][0]->ev[e].kind, RK_WARN))
					rc = add_warnv(c, "%s: %s", c->label[j],
						       side[j][0]->ev[e].reason);
	if (!rc)
		rc = steal_warns(c, side, nside);
	c->nwarn_runner = c->nwarn;
	char **n = rc ? NULL : realloc(c->warn, (c->nwarn + nhad - first + 1) * sizeof *n);
	if (n) {
		c->warn = n;
		/* The CPU clock's warnings were the sides' first runs' (check_pair()): asked again
		 * over every run of each side below (clock_sides()). */
		for (size_t i = first; i < nhad; i++)
			if (!strncmp(had[i], CLK_WARN_PREFIX, strlen(CLK_WARN_PREFIX)))
				free(had[i]);
			else
				n[c->nwarn++] = had[i];
	} else {
		for (size_t i = first; i < nhad; i++)
			free(had[i]);
		rc = -1;
	}
	free(had);
	return rc;
}

static int add_row(struct cmp *c, const struct mtest *t, size_t *cap)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].copies == t->copies && !strcmp(c->rows[i].test, t->test))
			return 0;
	if (c->nrows == *cap) {
		size_t nc = *cap ? *cap * 2 : 32;
		struct cmp_row *n = realloc(c->rows, nc * sizeof *n);
		if (!n)
			return -1;
		c->rows = n;
		*cap = nc;
	}
	struct cmp_row *r = &c->rows[c->nrows];
	r->test = t->test;
	r->title = t->title;
	r->unit = t->unit;
	r->higher = t->higher;
	r->copies = t->copies;
	r->is_index = ub_is_index(t->baseline);
	r->cell = calloc(c->nruns, sizeof *r->cell);
	if (!r->cell)
		return -1;
	c->nrows++;
	return 0;
}

/* Each run's column label: labels[j], else the machine's (model_label), numbered when two
 * runs would look alike. Returns 0, or -1 when out of memory. */
static int label_runs(struct cmp *c, char *const *labels)
{
	const struct model *const *m = c->m;
	size_t nruns = c->nruns;

	for (size_t j = 0; j < nruns; j++) {
		char own[200];	/* the machine's name; a --label is taken whole, never cut */
		const char *buf = own;
		if (labels)
			buf = labels[j];
		else
			model_label(m[j], own, sizeof own);
		/* Two runs of one machine kind: number them so the columns stay apart, with the
		 * run's number, or the next one free when a label already says it ("X #2" given
		 * beside two runs of X): every side's name is one of its own. */
		char *name = strdup(buf);
		for (size_t n = j + 1; name; n++) {
			int dup = 0;
			for (size_t k = 0; k < j; k++)
				dup |= !strcmp(c->label[k], name);
			if (!dup)
				break;
			free(name);
			if (asprintf(&name, "%s #%zu", buf, n) < 0)
				name = NULL;
		}
		if (!(c->label[j] = name))
			return -1;
	}
	return 0;
}

/* The non-warm-up SAMPLE values of t into a fresh array (*n of them); NULL when out of
 * memory, or *n = 0 when the log's SAMPLEs do not carry value= (older logs). */
static double *sample_values(const struct mtest *t, size_t *n)
{
	double *v = malloc((t->nsmp + 1) * sizeof *v);

	*n = 0;
	for (size_t i = 0; v && i < t->nsmp; i++)
		if (!t->smp[i].warmup && isfinite(t->smp[i].value))
			v[(*n)++] = t->smp[i].value;
	return v;
}

/* Cell's mark against t0's (compare.h's noise rule). -1: out of memory. */
static int decide(const struct mtest *t0, struct cmp_cell *cell, int higher)
{
	size_t na, nb;
	double *a = sample_values(t0, &na), *b = sample_values(cell->t, &nb);

	cell->method = "none";
	if (!a || !b) {
		free(a);
		free(b);
		return -1;
	}
	if (na >= SIG_MIN_N && nb >= SIG_MIN_N && higher >= 0) {
		cell->method = "mann-whitney";
		cell->p = sig_mwu_p(a, na, b, nb);
		sig_ratio_ci(a, na, b, nb, higher, &cell->ratio_lo, &cell->ratio_hi);
		cell->floor_pct = noise_floor_pct(cell->t->test, cell->t->copies, &cell->floor_from);
		cell->mark = sig_different(cell->p, cell->ratio, cell->floor_pct) ? '*' : '~';
	} else if (!isfinite(t0->ci_lo) || !isfinite(cell->t->ci_lo)) {
		cell->mark = '?';
	} else {
		cell->method = "ci-overlap";
		cell->mark = cell->t->ci_hi < t0->ci_lo || cell->t->ci_lo > t0->ci_hi ? '*' : '~';
	}
	free(a);
	free(b);
	return 0;
}

/* Row r's cells: each run's result, its ratio to run 1's by the row's direction (which
 * every run holding the row must agree on) and its noise mark. -1: out of memory. */
static int fill_row(struct cmp *c, struct cmp_row *r)
{
	const struct model *const *m = c->m;
	size_t nruns = c->nruns;
	const struct mtest *t0 = NULL;

	/* The direction every run holding the row agrees on, else unknown (-1). */
	for (size_t j = 0, seen = 0; j < nruns; j++) {
		const struct mtest *t = model_find(m[j], r->test, r->copies);
		if (t && !seen++)
			r->higher = t->higher;
		else if (t && t->higher != r->higher)
			r->higher = -1;
	}
	c->no_direction += r->higher < 0;
	for (size_t j = 0; j < nruns; j++) {
		struct cmp_cell *cell = &r->cell[j];
		const struct mtest *t = model_find(m[j], r->test, r->copies);
		cell->t = t && t->has_result ? t : NULL;
		cell->ratio = NAN;
		cell->mark = ' ';
		cell->method = "none";
		cell->p = cell->ratio_lo = cell->ratio_hi = cell->floor_pct = NAN;
		cell->floor_from = "-";
		cell->value = cell->t ? cell->t->whole : NAN;
		cell->steal_pct = cell->t ? cell->t->steal_pct : NAN;
		cell->rep = (struct sig_rep){.p = NAN, .answer = SIG_ANS_NONE};
		cell->runs_a = cell->runs_b = 1;
		cell->paired = 0;
		cell->has_lat = cell->t && cell->t->has_lat;
		cell->converged = cell->t ? cell->t->converged : -1;
		for (int q = 0; q < LAT_NQ; q++)
			cell->lat[q] = cell->has_lat ? cell->t->lat[q] : NAN;
		if (j == 0) {
			t0 = cell->t;
			if (t0)
				cell->ratio = 1;
			continue;
		}
		if (!t0 || !cell->t)
			continue;
		/* Runs that disagree on the direction (or do not say it) get no ratio. */
		cell->ratio = perf_ratio(t0->whole, cell->t->whole, r->higher);
		if (decide(t0, cell, r->higher) < 0)
			return -1;
		c->flagged += cell->mark == '*';
		c->within += cell->mark == '~';
		c->unknown += cell->mark == '?';
	}
	return 0;
}

/* Run m's all-CPUs pass (compare.h): INFO run.all_cpus, else (logs before it) the pass of
 * cpu.online copies when the run has one; 0 when neither. */
static int all_cpus_of(const struct model *m)
{
	int n = (int)model_info_count(m, RK_RUN_ALL_CPUS);

	if (n > 0)
		return n;
	n = (int)model_info_count(m, RK_CPU_ONLINE);
	for (int p = 0; p < m->npass && n > 0; p++)
		if (m->pass[p].copies == n)
			return n;
	return 0;
}

/* The all-CPUs pairing (compare.h): each run's pass, and when a run's count differs from run
 * 0's, a warning naming both and an all-row per test of run 0's all-CPUs pass. 0; -1 out
 * of memory. */
static int pair_all_cpus(struct cmp *c)
{
	size_t differ = 0;

	if (!(c->all_cpus = calloc(c->nruns + 1, sizeof *c->all_cpus)))
		return -1;
	for (size_t j = 0; j < c->nruns; j++)
		c->all_cpus[j] = all_cpus_of(c->m[j]);
	for (size_t j = 1; j < c->nruns; j++) {
		if (!c->all_cpus[0] || !c->all_cpus[j] || c->all_cpus[j] == c->all_cpus[0])
			continue;
		differ++;
		if (add_warnv(c, "CPU counts differ: the all-CPUs pass ran %d cop%s in %s (%s online "
				 "CPUs) and %d in %s (%s): its rows pair as \"all CPUs\" with a "
				 "per-copy figure beside the totals; a ratio of totals compares the "
				 "machines' sizes too (size the VM as the host: qemu/run --cpus host "
				 "--mem host, docs/clouds.md)", c->all_cpus[0],
			      c->all_cpus[0] == 1 ? "y" : "ies", c->label[0],
			      model_info(c->m[0], RK_CPU_ONLINE), c->all_cpus[j], c->label[j],
			      model_info(c->m[j], RK_CPU_ONLINE)))
			return -1;
	}
	if (!differ)
		return 0;
	const struct model *m0 = c->m[0];
	for (size_t i = 0; i < m0->ntests; i++) {
		const struct mtest *t0 = &m0->tests[i];
		if (t0->copies != c->all_cpus[0])
			continue;
		struct cmp_allrow *n = realloc(c->allrows, (c->nallrows + 1) * sizeof *n);
		if (!n)
			return -1;
		c->allrows = n;
		struct cmp_allrow *r = &c->allrows[c->nallrows];
		if (!(r->cell = calloc(c->nruns, sizeof *r->cell)))
			return -1;
		c->nallrows++;
		r->test = t0->test;
		r->title = t0->title;
		r->unit = t0->unit;
		r->higher = t0->higher;
		for (size_t j = 0; j < c->nruns; j++) {
			struct cmp_allcell *cl = &r->cell[j];
			const struct mtest *t = model_find(c->m[j], t0->test, c->all_cpus[j]);
			cl->t = t && t->has_result ? t : NULL;
			cl->copies = c->all_cpus[j];
			cl->total = cl->t ? cl->t->value : NAN;
			cl->per_copy = cl->t && r->higher == 1 && cl->copies > 0
					       ? cl->total / cl->copies : cl->total;
			cl->ratio = j && isfinite(r->cell[0].per_copy) && isfinite(cl->per_copy)
					    ? perf_ratio(r->cell[0].per_copy, cl->per_copy, r->higher)
					    : j ? NAN : 1;
		}
	}
	return 0;
}

/* A run whose scratch disk qemu/run attached with the host's page cache between guest and
 * disk (model.h host_cache: its "# qemu/run: scratchN ... cache=" line): its disk figures are
 * that cache's. One warning per such run. 0; -1 out of memory. */
static int check_host_cache(struct cmp *c)
{
	for (size_t j = 0; j < c->nruns; j++)
		if (c->m[j]->host_cache[0] &&
		    add_warnv(c, "%s: %s: qemu/run attached its disk with the host's page cache "
				 "between guest and disk, so the disk tests measured that cache, not "
				 "the disk (qemu/run's default is cache=none: --scratch-cache none)",
			      c->label[j], c->m[j]->host_cache))
			return -1;
	return 0;
}

int cmp_build(const struct model *const *m, size_t nruns, char *const *labels, struct cmp *c)
{
	size_t cap = 0;

	memset(c, 0, sizeof *c);
	c->nruns = nruns;
	c->m = m;
	c->label = calloc(nruns + 1, sizeof *c->label);
	c->tcg = calloc(nruns + 1, sizeof *c->tcg);
	if (!c->label || !c->tcg) {
		free(c->label);
		free(c->tcg);
		memset(c, 0, sizeof *c);
		return -1;
	}
	for (size_t j = 0; j < nruns; j++)
		c->tcg[j] = model_is_tcg(m[j]);
	if (label_runs(c, labels))
		goto fail;
	for (size_t j = 0; j < nruns; j++)
		for (size_t i = 0; i < m[j]->ntests; i++)
			if (add_row(c, &m[j]->tests[i], &cap))
				goto fail;
	for (size_t i = 0; i < c->nrows; i++)
		if (fill_row(c, &c->rows[i]))
			goto fail;
	if (check_comparable(c) || check_host_cache(c) || pair_all_cpus(c))
		goto fail;
	return 0;
fail:
	cmp_free(c);
	return -1;
}

void cmp_free(struct cmp *c)
{
	for (size_t j = 0; c->label && j < c->nruns; j++)
		free(c->label[j]);
	for (size_t i = 0; i < c->nrows; i++)
		free(c->rows[i].cell);
	for (size_t i = 0; i < c->nallrows; i++)
		free(c->allrows[i].cell);
	free(c->allrows);
	free(c->all_cpus);
	for (size_t i = 0; i < c->nwarn; i++)
		free(c->warn[i]);
	for (size_t i = 0; i < c->nnote; i++)
		free(c->note[i]);
	free(c->note);
	for (int p = 0; p < c->nscore; p++)
		free(c->score[p]);
	free(c->score);
	free(c->side_runs);
	free(c->tcg);
	free(c->label);
	free(c->rows);
	free(c->warn);
	memset(c, 0, sizeof *c);
}

/* cmp_score_ratio() of the sides' first runs alone. */
static double cmp_first_score_ratio(const struct cmp *c, size_t j, int copies, double *score)
{
	const struct model *m0 = c->m[0], *mj = c->m[j];
	double s0 = NAN, sj = NAN;

	for (int p = 0; p < m0->npass; p++)
		if (m0->pass[p].copies == copies)
			s0 = m0->pass[p].score;
	for (int p = 0; p < mj->npass; p++)
		if (mj->pass[p].copies == copies)
			sj = mj->pass[p].score;
	*score = sj;
	/* Same index tests on both sides, else a partial score compares different things. */
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		if (r->copies == copies && r->is_index && !r->cell[0].t != !r->cell[j].t)
			return NAN;
	}
	return perf_ratio(s0, sj, 1);	/* a score: higher is better (UnixBench) */
}

const struct cmp_cell *cmp_score_cell(const struct cmp *c, size_t j, int copies)
{
	for (int p = 0; p < c->nscore; p++)
		if (c->m[0]->pass[p].copies == copies)
			return &c->score[p][j];
	return NULL;
}

double cmp_score_ratio(const struct cmp *c, size_t j, int copies, double *score)
{
	const struct cmp_cell *cl = cmp_score_cell(c, j, copies);

	if (!cl)
		return cmp_first_score_ratio(c, j, copies, score);
	*score = cl->value;
	return j ? cl->ratio : NAN;
}

const char *cmp_direction(int higher)
{
	return higher == 1 ? "higher is better" : higher == 0 ? "lower is better"
						     : "direction unknown (log predates better=)";
}

static long run_round(const struct model *m);

/* The whole-run values (model.h's whole: every sample counts) of test/copies in the n models
 * (those that hold a valid one) into v, with
 * each one's round (INFO run.round, -1 when absent) into rd; returns how many. */
static size_t run_values(const struct model *const *m, size_t n, const char *test, int copies,
			 double *v, long *rd)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct mtest *t = model_find(m[i], test, copies);
		if (!t || !t->has_result || !(t->whole > 0) || !isfinite(t->whole))
			continue;
		rd[k] = run_round(m[i]);
		v[k++] = t->whole;
	}
	return k;
}

static double geo_mean(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += log(v[i]);
	return n ? exp(s / (double)n) : NAN;
}

/* The round of run m (INFO run.round), -1 when absent or not a count. */
static long run_round(const struct model *m)
{
	return model_info_count(m, RK_RUN_ROUND);
}

/* The Index Scores of pass copies in the n models (those with a finite positive one) into v,
 * with each one's round into rd (as run_values()); returns how many. */
static size_t score_values(const struct model *const *m, size_t n, int copies, double *v,
			   long *rd)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < m[i]->npass; p++)
			if (m[i]->pass[p].copies == copies && m[i]->pass[p].score > 0 &&
			    isfinite(m[i]->pass[p].score)) {
				rd[k] = run_round(m[i]);
				v[k++] = m[i]->pass[p].score;
				break;
			}
	return k;
}

/* Cell from the run values a (na, rounds ra) of side 0 and b (nb, rb) of this side: the
 * shown value (geometric mean), and with present (both sides hold the row) the paired or
 * Welch verdict (cmp_replicates(), signif.h's sig_replicates(); no noise floor: docs/report.md
 * "Replicates" says why). cell0 gets side 0's value and runs when set_ref. pa, pb: scratch of
 * max(na, nb) doubles each. */
static void decide_values(struct cmp_cell *cell, struct cmp_cell *cell0, int set_ref,
			  int present, int higher, const double *a, const long *ra, size_t na,
			  const double *b, const long *rb, size_t nb, double *pa, double *pb)
{
	struct sig_rep rep;

	if (set_ref) {
		cell0->value = na ? geo_mean(a, na) : NAN;
		cell0->runs_a = cell0->runs_b = na;
	}
	cell->value = nb ? geo_mean(b, nb) : NAN;
	cell->runs_a = na;
	cell->runs_b = nb;
	cell->paired = 0;
	cell->p = cell->ratio_lo = cell->ratio_hi = cell->floor_pct = NAN;
	cell->floor_from = "-";
	if (!present) {
		if (na || nb) {	/* a test one side lacks: no verdict, said so (basis()) */
			cell->method = "too-few-runs";
			cell->mark = '?';
		}
		return;
	}
	cell->ratio = perf_ratio(cell0->value, cell->value, higher);
	if (sig_replicates(a, ra, na, b, rb, nb, higher, pa, pb, &rep)) {
		cell->method = "too-few-runs";
		cell->mark = '?';
		return;
	}
	cell->method = rep.paired ? "paired-t" : "welch-t";
	cell->paired = rep.paired;
	if (rep.paired)
		cell->runs_a = cell->runs_b = rep.na;
	cell->p = rep.p;
	cell->ratio = rep.ratio;
	cell->ratio_lo = rep.lo;
	cell->ratio_hi = rep.hi;
	cell->rep = rep;
	cell->mark = '~';	/* answer_cells() decides, over every verdict cell at once */
}

static double min_effect_forced = -1;

void cmp_min_effect_force(double pct)
{
	min_effect_forced = pct;
}

int min_effect_arg(const char *arg)
{
	double v;

	if (num_dbl(arg, &v) || !(v > 0 && v <= NOISE_FLOOR_MAX_PCT)) {
		fprintf(stderr, "isobench-report: --min-effect wants a percentage above 0, at most "
				"%g (a number, no %% sign), not '%s'\n", NOISE_FLOOR_MAX_PCT, arg);
		return -1;
	}
	cmp_min_effect_force(v);
	return 0;
}

double cmp_min_effect(const char *test, int copies, const char **from)
{
	if (min_effect_forced >= 0) {
		*from = "option";
		return min_effect_forced;
	}
	return noise_floor_pct(test, copies, from);
}

/* The three answers (signif.h) of every verdict cell of c: the Benjamini-Hochberg q over all
 * of them (the rows x sides compared: the family a reader scans), then each cell's answer
 * against its test's min-effect; the Index Score cells are decided on their own p (a score is
 * one figure per pass, not a row of the table) against the default min-effect. Recounts
 * flagged and verdicts ("different" cells). 0, or -1 out of memory. */
static int answer_cells(struct cmp *c)
{
	size_t n = c->nrows * c->nruns, k = 0;
	struct sig_rep **r = malloc((n + 1) * sizeof *r);
	double *me = malloc((n + 1) * sizeof *me);

	if (!r || !me) {
		free(r);
		free(me);
		return -1;
	}
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t j = 1; j < c->nruns; j++) {
			struct cmp_cell *cl = &c->rows[i].cell[j];
			const char *from;
			r[k] = cmp_is_verdict(cl) ? &cl->rep : NULL;
			me[k++] = cmp_min_effect(c->rows[i].test, c->rows[i].copies, &from);
			if (r[k - 1]) {
				cl->floor_pct = me[k - 1];
				cl->floor_from = from;
			}
		}
	int rc = sig_answer_family(r, me, k);
	free(r);
	free(me);
	if (rc)
		return -1;
	c->flagged = c->verdicts = 0;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t j = 1; j < c->nruns; j++) {
			struct cmp_cell *cl = &c->rows[i].cell[j];
			if (!cmp_is_verdict(cl))
				continue;
			cl->mark = sig_answer_mark(cl->rep.answer);
			c->flagged += cl->mark == '*';
			c->verdicts += cl->mark == '*';
		}
	return 0;
}

/* The Index Score cells' answers (answer_cells() says why on their own p). */
static void answer_scores(struct cmp *c)
{
	for (int s = 0; s < c->nscore; s++)
		for (size_t j = 1; j < c->nruns; j++) {
			struct cmp_cell *cl = &c->score[s][j];
			if (!cmp_is_verdict(cl))
				continue;
			int forced = min_effect_forced >= 0;
			struct sig_rep *one = &cl->rep;
			cl->floor_pct = forced ? min_effect_forced : NOISE_FLOOR_DEFAULT_PCT;
			cl->floor_from = forced ? "option" : "default";
			if (sig_answer_family(&one, &cl->floor_pct, 1))	/* a family of one */
				sig_answer(one, one->p, cl->floor_pct);
			cl->mark = sig_answer_mark(cl->rep.answer);
		}
}

/* The mean steal share over a side's n runs that say it for test/copies (NAN: none). */
static double side_steal(const struct model *const *m, size_t n, const char *test, int copies)
{
	double s = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct mtest *t = model_find(m[i], test, copies);
		if (t && t->has_result && isfinite(t->steal_pct)) {
			s += t->steal_pct;
			k++;
		}
	}
	return k ? s / (double)k : NAN;
}

/* A warning for each column j of c (a run, or a side of replicates: side, nside; NULL: the
 * runs themselves) some of whose runs' tests had more steal than CMP_STEAL_WARN_PCT, naming
 * the largest. 0, or -1 out of memory. */
static int steal_warns(struct cmp *c, const struct model *const *const *side,
		       const size_t *nside)
{
	for (size_t j = 0; j < c->nruns; j++) {
		const struct model *const *m = side ? side[j] : &c->m[j];
		size_t n = side ? nside[j] : 1, over = 0;
		const char *worst = NULL;
		double most = 0;
		for (size_t i = 0; i < n; i++)
			for (size_t t = 0; t < m[i]->ntests; t++) {
				const struct mtest *x = &m[i]->tests[t];
				if (!x->has_result || !(x->steal_pct > CMP_STEAL_WARN_PCT))
					continue;
				over++;
				if (x->steal_pct > most) {
					most = x->steal_pct;
					worst = x->test;
				}
			}
		if (over && add_warnv(c, "%s: steal above %g%% of the CPUs' time in %zu result%s "
				      "(most %.1f%%, %s): the hypervisor took CPU time from the "
				      "measured windows", c->label[j], CMP_STEAL_WARN_PCT, over,
				      over == 1 ? "" : "s", most, worst))
			return -1;
	}
	return 0;
}

/* The first of the n runs m holding a valid RESULT of test/copies, NULL when none does. */
static const struct mtest *side_test(const struct model *const *m, size_t n, const char *test,
				     int copies)
{
	for (size_t i = 0; i < n; i++) {
		const struct mtest *t = model_find(m[i], test, copies);
		if (t && t->has_result && t->value > 0 && isfinite(t->value))
			return t;
	}
	return NULL;
}

/* The latency percentiles of test/copies over a side's n runs into cell (compare.h: p50, p99,
 * p99.9 the geometric mean of the runs that carry each, the max the largest; the last of
 * lib/latency.h's quantiles is the max). */
static void side_tails(struct cmp_cell *cell, const struct model *const *m, size_t n,
		       const char *test, int copies)
{
	cell->has_lat = 0;
	for (int q = 0; q < LAT_NQ; q++) {
		double s = 0, mx = NAN;
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			const struct mtest *t = model_find(m[i], test, copies);
			if (!t || !t->has_result || !t->has_lat || !(t->lat[q] > 0))
				continue;
			s += log(t->lat[q]);
			mx = fmax(mx, t->lat[q]);	/* fmax: NAN (none yet) loses */
			k++;
		}
		cell->lat[q] = !k ? NAN : q == LAT_NQ - 1 ? mx : exp(s / (double)k);
		cell->has_lat |= k > 0;
	}
}

/* Whether the sampling of test/copies converged over a side's n runs that hold its result
 * (compare.h struct cmp_cell's converged): 0 when any did not, 1 when all did, else -1 (some
 * log does not say, or no run holds it). */
static int side_converged(const struct model *const *m, size_t n, const char *test, int copies)
{
	int all = 1, some = 0;

	for (size_t i = 0; i < n; i++) {
		const struct mtest *t = model_find(m[i], test, copies);
		if (!t || !t->has_result)
			continue;
		if (!t->converged)
			return 0;
		all &= t->converged == 1;
		some = 1;
	}
	return some && all ? 1 : -1;
}

/* Cell j of row r from the runs of side 0 and side j (cmp_replicates()). A side whose first
 * run lacks the test (a SKIP there, a FAIL) still has its other runs: the cell stands for
 * the first run that holds it. */
static void decide_replicates(struct cmp_row *r, size_t j, const struct model *const *const *side,
			      const size_t *nside, double *buf)
{
	if (!r->cell[0].t && (r->cell[0].t = side_test(side[0], nside[0], r->test, r->copies)))
		r->cell[0].ratio = 1;
	if (!r->cell[j].t)
		r->cell[j].t = side_test(side[j], nside[j], r->test, r->copies);
	size_t nmax = nside[0] > nside[j] ? nside[0] : nside[j];
	double *a = buf, *b = a + nside[0], *pa = b + nside[j], *pb = pa + nmax;
	long *ra = (long *)(pb + nmax), *rb = ra + nside[0];
	size_t na = run_values(side[0], nside[0], r->test, r->copies, a, ra);
	size_t nb = run_values(side[j], nside[j], r->test, r->copies, b, rb);

	decide_values(&r->cell[j], &r->cell[0], j == 1 || !r->cell[0].runs_a,
		      r->cell[j].t && r->cell[0].t, r->higher, a, ra, na, b, rb, nb, pa, pb);
	if (j == 1) {	/* side 0's tails are the same beside every other side */
		side_tails(&r->cell[0], side[0], nside[0], r->test, r->copies);
		r->cell[0].converged = side_converged(side[0], nside[0], r->test, r->copies);
	}
	side_tails(&r->cell[j], side[j], nside[j], r->test, r->copies);
	r->cell[j].converged = side_converged(side[j], nside[j], r->test, r->copies);
	r->cell[j].steal_pct = side_steal(side[j], nside[j], r->test, r->copies);
	if (j == 1)
		r->cell[0].steal_pct = side_steal(side[0], nside[0], r->test, r->copies);
}

/* 1 when t is an index test of pass copies with a result (what the pass's score is over). */
static int scored(const struct mtest *t, int copies)
{
	return t->copies == copies && ub_is_index(t->baseline) && t->has_result;
}

/* The first index test of pass copies that one of runs a and b holds and the other does not
 * (scored()), NULL when they hold the same ones. */
static const char *index_differs(const struct model *a, const struct model *b, int copies)
{
	const struct model *m[2] = {a, b};

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < m[k]->ntests; i++) {
			const struct mtest *t = &m[k]->tests[i], *o;
			if (scored(t, copies) &&
			    (!(o = model_find(m[1 - k], t->test, copies)) || !scored(o, copies)))
				return t->test;
		}
	return NULL;
}

/* 1 when some run of side 0 or side j that holds an index test of pass copies holds other
 * ones than side 0's first run: their scores are over different tests, so no verdict. A note
 * names the first such run and a test only one of the two holds. -1 out of memory. */
static int scores_differ(struct cmp *c, size_t j, int copies,
			 const struct model *const *const *side, const size_t *nside)
{
	const size_t s[2] = {0, j};
	const struct model *ref = side[0][0];

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < nside[s[k]]; i++) {
			const struct model *m = side[s[k]][i];
			const char *test = index_differs(ref, m, copies);
			int any = 0;
			for (size_t t = 0; t < m->ntests && !any; t++)
				any = scored(&m->tests[t], copies);
			if (!any || !test)
				continue;
			char *note;
			if (asprintf(&note, "no Index Score verdict at copies %d for %s against %s: "
					    "%s run %zu holds other index tests than %s run 1 (%s is "
					    "in one of them only), and a score over other tests is "
					    "another figure", copies, c->label[j], c->label[0],
				     c->label[s[k]], i + 1, c->label[0], test) < 0)
				return -1;
			int rc = add_note(c, note);
			free(note);
			return rc ? -1 : 1;
		}
	return 0;
}

/* The Index Score cells of pass p (copies) over the runs of every side: each run's score is
 * its value, decided as a test's row (higher is better); a side whose first run lacks the
 * score, or whose runs' index tests differ from side 0's first run's (scores_differ(): a
 * note says which), gets no verdict ("none"). 0, or -1 out of memory. */
static int decide_scores(struct cmp *c, struct cmp_cell *cells, int copies,
			 const struct model *const *const *side, const size_t *nside, double *buf)
{
	for (size_t j = 0; j < c->nruns; j++) {
		cells[j].method = "none";
		cells[j].mark = ' ';
		cells[j].ratio = NAN;
	}
	for (size_t j = 1; j < c->nruns; j++) {
		size_t nmax = nside[0] > nside[j] ? nside[0] : nside[j];
		double *a = buf, *b = a + nside[0], *pa = b + nside[j], *pb = pa + nmax;
		long *ra = (long *)(pb + nmax), *rb = ra + nside[0];
		size_t na = score_values(side[0], nside[0], copies, a, ra);
		size_t nb = score_values(side[j], nside[j], copies, b, rb);
		double s;
		/* cmp_score_ratio() on the first runs: NAN when the index tests differ */
		int same = isfinite(cmp_first_score_ratio(c, j, copies, &s));
		int differ = scores_differ(c, j, copies, side, nside);

		if (differ < 0)
			return -1;
		decide_values(&cells[j], &cells[0], j == 1, same && !differ && na && nb, 1, a, ra,
			      na, b, rb, nb, pa, pb);
	}
	return 0;
}

/* A row for every test/copies some run of some side holds, not only the sides' first runs
 * (cmp_build()'s): a test that only a later run holds (an earlier run of other tests, a SKIP
 * there) is still the side's, its cells '---' where a side lacks it. 0, or -1 out of memory. */
static int side_rows(struct cmp *c, const struct model *const *const *side, const size_t *nside)
{
	size_t cap = c->nrows, had = c->nrows;

	for (size_t j = 0; j < c->nruns; j++)
		for (size_t i = 1; i < nside[j]; i++)
			for (size_t t = 0; t < side[j][i]->ntests; t++)
				if (add_row(c, &side[j][i]->tests[t], &cap))
					return -1;
	for (size_t i = had; i < c->nrows; i++)
		if (fill_row(c, &c->rows[i]))
			return -1;
	return 0;
}

/* Why side j's runs do not pair with side 0's by round although some run of the two carries
 * INFO run.round (signif.h sig_replicates()'s rule, on the runs themselves): a run without a
 * round, a round carried by several runs of one side (`--round 3 --repeat 3`), fewer than
 * SIG_REP_MIN rounds on both sides; into why (cap bytes), "" when they pair, when no run
 * carries a round (Welch by design) or a side has too few runs for any verdict. */
static void unpaired_why(const struct cmp *c, const struct model *const *const *side,
			 const size_t *nside, size_t j, char *why, size_t cap)
{
	const size_t s[2] = {0, j};
	int any = 0;

	why[0] = 0;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < nside[s[k]]; i++)
			any |= run_round(side[s[k]][i]) >= 0;
	if (!any || nside[0] < SIG_REP_MIN || nside[j] < SIG_REP_MIN)
		return;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < nside[s[k]]; i++) {
			const struct model *const *m = side[s[k]];
			long r = run_round(m[i]);
			size_t same = 0;
			if (r < 0) {
				snprintf(why, cap, "%s run %zu carries no run.round", c->label[s[k]],
					 i + 1);
				return;
			}
			for (size_t x = 0; x < nside[s[k]]; x++)
				same += run_round(m[x]) == r;
			if (same > 1) {
				snprintf(why, cap, "round %ld is carried by %zu runs of side %s", r, same,
					 c->label[s[k]]);
				return;
			}
		}
	size_t pairs = 0;
	for (size_t i = 0; i < nside[0]; i++)
		for (size_t x = 0; x < nside[j]; x++)
			pairs += run_round(side[0][i]) == run_round(side[j][x]);
	if (pairs < SIG_REP_MIN)
		snprintf(why, cap, "only %zu round%s on both sides (fewer than %d)", pairs,
			 pairs == 1 ? "" : "s", SIG_REP_MIN);
}

/* When side j's runs pair with side 0's by round (unpaired_why() says nothing) but some run
 * of either side has no partner round on the other (an --ab log cut short, a round lost):
 * into why (cap bytes) the first such run's round and side and how many rounds paired, so a
 * run left out of the paired t is said, not dropped silently; "" when every run pairs. */
static void partnerless_why(const struct cmp *c, const struct model *const *const *side,
			    const size_t *nside, size_t j, char *why, size_t cap)
{
	const size_t s[2] = {0, j};
	size_t pairs = 0, lone = 0;
	long first = -1;
	size_t first_side = 0;

	why[0] = 0;
	for (size_t i = 0; i < nside[0]; i++)
		for (size_t x = 0; x < nside[j]; x++)
			pairs += run_round(side[0][i]) == run_round(side[j][x]);
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < nside[s[k]]; i++) {
			long r = run_round(side[s[k]][i]);
			size_t o = s[1 - k], x = 0;
			while (x < nside[o] && run_round(side[o][x]) != r)
				x++;
			if (x < nside[o])
				continue;
			if (!lone++) {
				first = r;
				first_side = s[k];
			}
		}
	if (lone)
		snprintf(why, cap, "round %ld of side %s has no partner on side %s%s: %zu run%s "
			 "left out of the paired t, %zu rounds paired", first, c->label[first_side],
			 c->label[first_side ? 0 : j], lone > 1 ? " (and others)" : "", lone,
			 lone == 1 ? "" : "s", pairs);
}

/* A note per side whose runs carry rounds that do not pair (unpaired_why()): the fall back
 * from the paired t to Welch's, said with its reason. 0; -1 out of memory. */
static int unpaired_notes(struct cmp *c, const struct model *const *const *side,
			  const size_t *nside)
{
	for (size_t j = 1; j < c->nruns; j++) {
		char why[300], *note;
		unpaired_why(c, side, nside, j, why, sizeof why);
		if (!why[0]) {
			int any = 0;
			for (size_t i = 0; i < nside[0]; i++)
				any |= run_round(side[0][i]) >= 0;
			if (!any || nside[0] < SIG_REP_MIN || nside[j] < SIG_REP_MIN)
				continue;
			partnerless_why(c, side, nside, j, why, sizeof why);
			if (!why[0])
				continue;
			if (asprintf(&note, "%s against %s: %s", c->label[j], c->label[0], why) < 0)
				return -1;
			int rc = add_note(c, note);
			free(note);
			if (rc)
				return -1;
			continue;
		}
		if (asprintf(&note, "runs not paired by round: %s, so %s against %s is Welch's t on "
				    "the runs' values (interleaved A/B gives each run its own round: "
				    "out/isobench --ab, qemu/run --ab-params)", why, c->label[j],
			     c->label[0]) < 0)
			return -1;
		int rc = add_note(c, note);
		free(note);
		if (rc)
			return -1;
	}
	return 0;
}

int cmp_replicates(struct cmp *c, const struct model *const *const *side, const size_t *nside)
{
	size_t most = 0;

	for (size_t j = 0; j < c->nruns; j++)
		most = nside[j] > most ? nside[j] : most;
	/* a, b, pa, pb (doubles) and ra, rb (longs) of the largest sides */
	double *buf = malloc(4 * (most + 1) * sizeof(double) + 2 * (most + 1) * sizeof(long));
	if (!(c->side_runs = calloc(c->nruns + 1, sizeof *c->side_runs)) || !buf) {
		free(buf);
		return -1;
	}
	for (size_t j = 0; j < c->nruns; j++)
		c->side_runs[j] = nside[j];
	c->side = side;
	if (replicate_warns(c, side, nside) || clock_sides(c, side, nside) ||
	    check_sides(c, side, nside) ||
	    side_rows(c, side, nside) || unpaired_notes(c, side, nside)) {
		free(buf);
		return -1;
	}
	c->replicated = 1;
	c->flagged = c->verdicts = c->within = c->unknown = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		c->rows[i].cell[0].runs_a = 0;
		for (size_t j = 1; j < c->nruns; j++)
			decide_replicates(&c->rows[i], j, side, nside, buf);
	}
	if (answer_cells(c)) {
		free(buf);
		return -1;
	}
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t j = 1; j < c->nruns; j++) {
			c->within += c->rows[i].cell[j].mark == '~';
			c->unknown += c->rows[i].cell[j].mark == '?';
		}
	int np = c->m[0]->npass;
	if (np && !(c->score = calloc((size_t)np, sizeof *c->score))) {
		free(buf);
		return -1;
	}
	for (int p = 0; p < np; p++) {
		if (!(c->score[p] = calloc(c->nruns, sizeof **c->score))) {
			free(buf);
			return -1;
		}
		c->nscore = p + 1;
		if (decide_scores(c, c->score[p], c->m[0]->pass[p].copies, side, nside, buf)) {
			free(buf);
			return -1;
		}
	}
	answer_scores(c);
	free(buf);
	return 0;
}

int cmp_note(struct cmp *c, const char *text)
{
	return add_note(c, text);
}

int cmp_shared_run(const struct model *const *const *side, const size_t *nside, size_t n,
		   struct cmp_where w[2])
{
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < nside[k]; i++)
			for (size_t x = k + 1; x < n; x++)
				for (size_t y = 0; y < nside[x]; y++)
					if (!strcmp(side[k][i]->run_id, side[x][y]->run_id)) {
						w[0] = (struct cmp_where){k, i};
						w[1] = (struct cmp_where){x, y};
						return 1;
					}
	return 0;
}

int cmp_is_verdict(const struct cmp_cell *cl)
{
	return !strcmp(cl->method, "welch-t") || !strcmp(cl->method, "paired-t");
}

void cmp_tell(FILE *err, const struct cmp *c)
{
	for (size_t i = 0; i < c->nwarn; i++)
		fprintf(err, "isobench-report: warning: %s\n", c->warn[i]);
	for (size_t i = 0; i < c->nnote; i++)
		fprintf(err, "isobench-report: note: %s\n", c->note[i]);
}

int cmp_any_unconverged(const struct cmp *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t j = 0; j < c->nruns; j++)
			if (c->rows[i].cell[j].t && c->rows[i].cell[j].converged == 0)
				return 1;
	return 0;
}

const char *cmp_unconverged_note(const struct cmp *c)
{
	return c->replicated ? "the sampling of some run of that side did not converge (95% CI "
			       "wider than its run.ci_target_pct); treat the row with care"
			     : "that run's sampling did not converge (95% CI wider than its "
			       "run.ci_target_pct); treat the row with care";
}

/* cmp_basis() with the verdict's answer (with_answer) or the words "a verdict". */
static const char *basis(const struct cmp_cell *cl, char *buf, size_t cap, int with_answer)
{
	char ans[256];

	if (with_answer && cmp_is_verdict(cl) && cl->rep.answer != SIG_ANS_NONE)
		return sig_basis_text(&cl->rep, buf, cap);	/* signif.h: one wording */
	snprintf(ans, sizeof ans, "a verdict");
	if (!strcmp(cl->method, "paired-t"))
		snprintf(buf, cap, "%zu rounds paired, paired t on log ratios of the runs: %s",
			 cl->runs_a, ans);
	else if (!strcmp(cl->method, "welch-t"))
		snprintf(buf, cap, "%zu+%zu runs, unpaired, Welch's t on log run values: %s",
			 cl->runs_a, cl->runs_b, ans);
	else if (!strcmp(cl->method, "too-few-runs") && (!cl->runs_a || !cl->runs_b))
		snprintf(buf, cap, "%zu+%zu runs: the test is on one side only, no verdict",
			 cl->runs_a, cl->runs_b);
	else if (!strcmp(cl->method, "too-few-runs"))
		snprintf(buf, cap, "%zu+%zu runs: fewer than %d a side, no verdict", cl->runs_a,
			 cl->runs_b, SIG_REP_MIN);
	else if (!strcmp(cl->method, "mann-whitney"))
		snprintf(buf, cap, "%zu+%zu runs, within-run only (Mann-Whitney U on samples): "
			 "not a verdict", cl->runs_a, cl->runs_b);
	else if (!strcmp(cl->method, "ci-overlap"))
		snprintf(buf, cap, "%zu+%zu runs, within-run only (medians' 95%% CIs): not a "
			 "verdict", cl->runs_a, cl->runs_b);
	else
		snprintf(buf, cap, "%s", cl->mark == ' ' ? "" : "no estimate");
	return buf;
}

const char *cmp_basis(const struct cmp_cell *cl, char *buf, size_t cap)
{
	return basis(cl, buf, cap, 1);
}

const char *cmp_design(const struct cmp_cell *cl, char *buf, size_t cap)
{
	return basis(cl, buf, cap, 0);
}
