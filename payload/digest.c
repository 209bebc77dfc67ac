/* digest.c — see digest.h. The record bodies it notes are already encoded ("KIND k=v k=v",
 * values without spaces: docs/records.md), so fields are kept and restated as the encoded
 * " k=v" tokens they arrived as, never decoded and encoded again. */
#define _GNU_SOURCE
#include "digest.h"
#include "crc32.h"
#include "num.h"
#include "params.h"
#include "vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The RESULT figures a part=test line lists, one entry per pass (vocab.h). */
#define FIGURE(id) RK_##id,
static const char *const figures[] = {VOCAB_DIGEST_FIGURES(FIGURE)};
#undef FIGURE
#define NLIST (sizeof figures / sizeof figures[0])
#define VAL_MAX 32		/* bytes of one kept figure, NUL included */

/* The INFO facts the digest keeps (the first value of each): what identifies the run and the
 * machine, and what isobench-report's header prints. */
static int info_kept(const char *key, size_t len)
{
	static const char *const keys[] = {
		RK_BUILD_VERSION, RK_BUILD_CC, RK_IMAGE_IDENTITY, RK_RUN_MODE, RK_RUN_SUITE,
		RK_RUN_TESTS, RK_RUN_COPIES, RK_RUN_SAMPLE_MS, RK_RUN_SAMPLES, RK_RUN_CI_TARGET,
		RK_RUN_ROUND, RK_RUN_AB_SIDE, RK_RUN_REPEAT, RK_RUN_REPLICATE, RK_RUN_UTC,
		RK_RUN_WORKDIR, RK_KERNEL_RELEASE,
		RK_KERNEL_VERSION, RK_KERNEL_MACHINE, RK_KERNEL_CMDLINE, RK_KERNEL_CONFIG_CRC,
		RK_KERNEL_HYPERVISOR, RK_CPU_MODEL, RK_CPU_VENDOR, RK_CPU_FAMILY, RK_CPU_MODEL_ID,
		RK_CPU_ONLINE, RK_MEM_TOTAL_KIB, RK_FS_WORKDIR, RK_HV_CPUID, RK_HV_SYS_TYPE,
		RK_DMI_SYS_VENDOR, RK_DMI_PRODUCT_NAME, RK_CLOCKSOURCE_CURRENT,
		RK_CLOCKSOURCE_AVAILABLE, RK_RUN_PEER, RK_PEER_HOST, RK_PEER_KERNEL,
		RK_PEER_MACHINE, RK_PEER_NIC, RK_NIC_NAME, RK_NIC_DRIVER, RK_NIC_PCI_ID, RK_NIC_MTU,
		RK_NIC_OFFLOADS, RK_NIC_IRQ, RK_NIC_ADDR, RK_DISK_DEVICE, RK_DISK_MODEL,
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strlen(keys[i]) == len && !memcmp(keys[i], key, len))
			return 1;
	return 0;
}

struct dpass {
	char copies[VAL_MAX];
	char val[NLIST][VAL_MAX];	/* the RESULT's figure, "" when absent (no RESULT) */
	double cyc_sum;			/* measured SAMPLEs' cycles_x100 */
	long cyc_n;
};

struct dtest {
	char *name, *desc;		/* desc: " title=.. unit=.. better=.. group=.. baseline=.." */
	int npass;
	struct dpass pass[PARAM_MAX_COPIES];
};

struct devent {
	char *body;			/* " part=skip test=.. ...": fields to append */
	int test, pass;			/* the test and pass it belongs to, -1 none */
	int after;			/* noted after the first TEST */
};

static char *begin_fields, *info;
static size_t info_len;
static struct dtest *tests;
static size_t ntests;
static struct devent *ev;
static size_t nev;
static int broken, cur_test = -1, cur_pass = -1;

void digest_reset(void)
{
	for (size_t i = 0; i < ntests; i++) {
		free(tests[i].name);
		free(tests[i].desc);
	}
	for (size_t i = 0; i < nev; i++)
		free(ev[i].body);
	free(tests);
	free(ev);
	free(begin_fields);
	free(info);
	tests = NULL;
	ev = NULL;
	begin_fields = info = NULL;
	ntests = nev = info_len = 0;
	broken = 0;
	cur_test = cur_pass = -1;
}

/* The encoded value of key in fields (" k=v k=v"), its length in *len; NULL when absent. */
static const char *tok(const char *fields, const char *key, size_t *len)
{
	size_t kl = strlen(key);
	for (const char *p = fields; (p = strchr(p, ' ')); p++)
		if (!strncmp(p + 1, key, kl) && p[1 + kl] == '=') {
			const char *v = p + 2 + kl;
			*len = strcspn(v, " ");
			return v;
		}
	return NULL;
}

/* Append " key=value" of fields (when present) to *s (malloc'd, grown). */
static void keep(char **s, size_t *len, const char *fields, const char *key)
{
	size_t n, kl = strlen(key);
	const char *v = tok(fields, key, &n);
	char *g;

	if (!v)
		return;
	if (!(g = realloc(*s, *len + kl + n + 3))) {
		broken = 1;
		return;
	}
	*s = g;
	*len += (size_t)sprintf(g + *len, " %s=%.*s", key, (int)n, v);
}

/* The test named in fields, added when add and new; -1 when absent or it cannot be kept. */
static int find_test(const char *fields, int add)
{
	size_t n;
	const char *name = tok(fields, RK_TESTNAME, &n);
	struct dtest *g;

	if (!name)
		return -1;
	for (size_t t = 0; t < ntests; t++)
		if (strlen(tests[t].name) == n && !memcmp(tests[t].name, name, n))
			return (int)t;
	if (!add)
		return -1;
	if (!(g = realloc(tests, (ntests + 1) * sizeof *g))) {
		broken = 1;
		return -1;
	}
	tests = g;
	memset(&g[ntests], 0, sizeof *g);
	if (!(g[ntests].name = strndup(name, n))) {
		broken = 1;
		return -1;
	}
	return (int)ntests++;
}

/* The pass (copies=) of test t named in fields, added when add and new; -1 when none. */
static int find_pass(int t, const char *fields, int add)
{
	size_t cn;
	const char *cp = tok(fields, RK_COPIES, &cn);
	struct dtest *d = &tests[t];

	if (!cp || cn >= VAL_MAX)
		return -1;
	for (int p = 0; p < d->npass; p++)
		if (strlen(d->pass[p].copies) == cn && !memcmp(d->pass[p].copies, cp, cn))
			return p;
	if (!add)
		return -1;
	if (d->npass == PARAM_MAX_COPIES) {
		broken = 1;
		return -1;
	}
	memset(&d->pass[d->npass], 0, sizeof d->pass[0]);
	memcpy(d->pass[d->npass].copies, cp, cn);
	return d->npass++;
}

/* A TEST: its test and pass, and the first time, the facts a report shows beside its figures. */
static void note_test(const char *fields)
{
	int t = find_test(fields, 1);

	cur_test = t;
	cur_pass = t < 0 ? -1 : find_pass(t, fields, 1);
	if (t < 0 || tests[t].desc)
		return;
	size_t len = 0;
	char *d = strdup("");
	if (!d) {
		broken = 1;
		return;
	}
	keep(&d, &len, fields, RK_TITLE);
	keep(&d, &len, fields, RK_UNIT);
	keep(&d, &len, fields, RK_BETTER);
	keep(&d, &len, fields, RK_GROUP);
	keep(&d, &len, fields, RK_BASELINE);
	tests[t].desc = d;
}

/* A RESULT: its figures into its pass. */
static void note_result(const char *fields)
{
	int t = find_test(fields, 0), p = t < 0 ? -1 : find_pass(t, fields, 0);
	size_t n;

	if (p < 0) {
		broken = 1;	/* a RESULT without its TEST: the digest could not restate it */
		return;
	}
	for (size_t k = 0; k < NLIST; k++) {
		const char *v = tok(fields, figures[k], &n);
		if (v && n >= VAL_MAX)
			broken = 1;
		else if (v)
			sprintf(tests[t].pass[p].val[k], "%.*s", (int)n, v);
	}
}

/* A measured SAMPLE of the current test: its cycles_x100 (the probes' cycle count); one whose
 * cycles_x100 is no decimal is left out of the mean. */
static void note_sample(const char *fields)
{
	size_t n, w;
	const char *c = tok(fields, RK_CYCLES, &n);
	char v[48];
	double d;

	if (!c || n >= sizeof v || cur_pass < 0 || tok(fields, RK_WARMUP, &w) ||
	    find_test(fields, 0) != cur_test)
		return;
	memcpy(v, c, n);
	v[n] = 0;
	if (num_dbl(v, &d))
		return;
	tests[cur_test].pass[cur_pass].cyc_sum += d;
	tests[cur_test].pass[cur_pass].cyc_n++;
}

/* SKIP, FAIL, WARN, ERROR: restated whole, as part=<kind in lower case>. */
static void note_event(const char *part, const char *fields)
{
	struct devent *g = realloc(ev, (nev + 1) * sizeof *g);
	int t = find_test(fields, 0);

	if (!g || asprintf(&g[nev].body, " %s=%s%s", RK_PART, part, fields) < 0) {
		if (g)
			ev = g;
		broken = 1;
		return;
	}
	ev = g;
	g[nev].test = t;
	g[nev].pass = t < 0 ? -1 : find_pass(t, fields, 0);
	if (g[nev].pass < 0)
		g[nev].test = -1;
	g[nev].after = ntests > 0;
	nev++;
}

/* INFO: the kept facts, the first value of each. */
static void note_info(const char *fields)
{
	for (const char *p = fields; *p == ' ';) {
		const char *k = p + 1, *eq = strchr(k, '='), *e = k + strcspn(k, " ");
		p = e;
		if (!eq || eq > e || !info_kept(k, (size_t)(eq - k)))
			continue;
		char key[64];
		snprintf(key, sizeof key, "%.*s", (int)(eq - k), k);
		size_t n;
		if (info && tok(info, key, &n))
			continue;
		if (!info && !(info = strdup(""))) {
			broken = 1;
			return;
		}
		char *g = realloc(info, info_len + (size_t)(e - k) + 2);
		if (!g) {
			broken = 1;
			return;
		}
		info = g;
		info_len += (size_t)sprintf(info + info_len, " %.*s", (int)(e - k), k);
	}
}

void digest_note(const struct rec_body *b)
{
	static const struct {
		const char *kind, *part;
	} events[] = {{RK_SKIP, REC_PART_SKIP}, {RK_FAIL, REC_PART_FAIL},
		      {RK_WARN, REC_PART_WARN}, {RK_ERROR, REC_PART_ERROR}};
	const char *fields = b->buf + strcspn(b->buf, " ");

	if (rec_body_is(b, RK_BEGIN)) {
		digest_reset();
		if (!(begin_fields = strdup(fields)))
			broken = 1;
	} else if (rec_body_is(b, RK_INFO)) {
		note_info(fields);
	} else if (rec_body_is(b, RK_TEST)) {
		note_test(fields);
	} else if (rec_body_is(b, RK_SAMPLE)) {
		note_sample(fields);
	} else if (rec_body_is(b, RK_RESULT)) {
		note_result(fields);
	}
	for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
		if (rec_body_is(b, events[i].kind))
			note_event(events[i].part, fields);
}

/* The digest's lines as sealed, for part=end's CRC-32. */
static char *acc;
static size_t acc_len, acc_lines;

/* The sealer digest_write() was given (out_record()). */
static digest_seal_fn *sealer;

/* Seal one DIGEST body through the sealer and keep its line as sealed (out_record() closes
 * the body, so sealing it again with its sequence number gives the same bytes). */
static void emit(struct rec_body *b)
{
	static char line[REC_MAX];
	uint64_t seq = sealer(b);
	size_t n = seq ? rec_seal(line, sizeof line, seq, b->buf, b->len) : 0;
	char *g = n ? realloc(acc, acc_len + n) : NULL;

	if (!g) {
		broken = 1;
		return;
	}
	acc = g;
	memcpy(acc + acc_len, line, n);
	acc_len += n;
	acc_lines++;
}

static void part(struct rec_body *b, const char *p)
{
	rec_begin(b, RK_DIGEST);
	rec_str(b, RK_PART, p);
}

/* " key=e1,e2,..": one entry per pass of t, "-" where the pass has none; nothing when no
 * pass has one. k < NLIST: a RESULT figure; k == NLIST: the mean cycles_x100. */
static void list(struct rec_body *b, const struct dtest *t, size_t k, const char *key)
{
	char v[PARAM_MAX_COPIES * (VAL_MAX + 1) + 80];
	size_t o = (size_t)snprintf(v, sizeof v, " %s=", key);
	int any = 0;

	for (int p = 0; p < t->npass; p++) {
		const struct dpass *d = &t->pass[p];
		char c[VAL_MAX] = "";
		/* 17 significant digits: the very double the report computes from the SAMPLEs
		 * (report/text.c), so the figure it prints is the same from either */
		if (k == NLIST && d->cyc_n)
			snprintf(c, sizeof c, "%.17g", d->cyc_sum / (double)d->cyc_n);
		const char *e = k < NLIST ? d->val[k] : c;
		any |= e[0] != 0;
		o += (size_t)snprintf(v + o, sizeof v - o, "%s%s", p ? "," : "", e[0] ? e : "-");
	}
	if (any)
		rec_raw(b, v);
}

/* One part=test line, then the SKIP/FAIL/WARN lines of its passes. */
static void write_test(size_t i)
{
	const struct dtest *t = &tests[i];
	struct rec_body b;
	char cp[PARAM_MAX_COPIES * VAL_MAX] = "";

	part(&b, REC_PART_TEST);
	rec_str(&b, RK_TESTNAME, t->name);	/* as written: a test name needs no encoding */
	if (t->desc)
		rec_raw(&b, t->desc);
	for (int p = 0; p < t->npass; p++)
		snprintf(cp + strlen(cp), sizeof cp - strlen(cp), "%s%s", p ? "," : "",
			 t->pass[p].copies);
	rec_str(&b, RK_COPIES, cp);
	for (size_t k = 0; k < NLIST; k++)
		list(&b, t, k, figures[k]);
	list(&b, t, NLIST, RK_CYCLES);
	emit(&b);
	for (size_t e = 0; e < nev; e++)
		if (ev[e].test == (int)i) {
			rec_begin(&b, RK_DIGEST);
			rec_raw(&b, ev[e].body);
			emit(&b);
		}
}

/* The events that belong to no test's pass, noted before (after = 0) or after the first TEST. */
static void write_untied(int after)
{
	struct rec_body b;

	for (size_t e = 0; e < nev; e++)
		if (ev[e].test < 0 && ev[e].after == after) {
			rec_begin(&b, RK_DIGEST);
			rec_raw(&b, ev[e].body);
			emit(&b);
		}
}

/* The kept INFO facts, in records of at most about 2 KiB. */
static void write_info(void)
{
	struct rec_body b;
	const char *p = info;

	while (p && *p) {
		size_t n = 0;
		while (p[n] && n < 2048)
			n += 1 + strcspn(p + n + 1, " ");
		char *chunk = strndup(p, n);
		if (!chunk) {
			broken = 1;
			return;
		}
		part(&b, REC_PART_INFO);
		rec_raw(&b, chunk);
		free(chunk);
		emit(&b);
		p += n;
	}
}

void digest_write(digest_seal_fn *seal)
{
	struct rec_body b;

	if (broken || !begin_fields)
		return;
	sealer = seal;
	acc_len = acc_lines = 0;
	part(&b, REC_PART_BEGIN);
	rec_raw(&b, begin_fields);
	emit(&b);
	write_info();
	write_untied(0);
	for (size_t i = 0; i < ntests; i++)
		write_test(i);
	write_untied(1);
	/* Written even when a line above failed (broken): its count and CRC then disagree with
	 * what a reader holds, and the reader refuses the digest, as it must. */
	part(&b, REC_PART_END);
	rec_u64(&b, RK_LINES, acc_lines);
	rec_fmt(&b, RK_CRC, "%08x", acc ? crc32_ieee(acc, acc_len) : 0u);
	seal(&b);
	free(acc);
	acc = NULL;
}
