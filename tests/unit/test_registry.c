/* test_registry.c — every test in payload/registry.c against what is stated about it elsewhere:
 *   - docs/records.md ("How RESULT derives from SAMPLE"), read at run time (RECORDS_MD): which
 *     units are rates (higher is better) and times (lower), which tests take their value from
 *     an extra (lower; which extra, which scale), and per_loop for each rate unit. A registry
 *     entry with the wrong kind, unit, extra or per_loop fails here, and so does a page that
 *     stops saying what the code does;
 *   - UnixBench 5.1.3's index, pinned as published (its `Run` script's order and labels,
 *     pgms/index.base's baselines, the units it prints);
 *   - names unique and findable, a known group, a positive per_loop, a run function;
 *   - names as the registry's name table makes them from the rows' ids (payload/registry.c):
 *     lower case, digits and '-' (the ids' '_' made '-' before main()), the ring0 group's
 *     RING0_PREFIX + the driver's probe name (its '_' kept); lib/vocab.h's name prefixes
 *     (REC_PREFIX_MEM_*, which the report reads the memory families by) begin their tests'. */
#include <fnmatch.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../payload/benchapi.h"
#include "../../payload/bench/ring0.h"
#include "vocab.h"
#include "unixbench.h"

#ifndef RECORDS_MD
#define RECORDS_MD "../../docs/records.md"
#endif

/* ---- what docs/records.md says --------------------------------------------------------------- */
#define DOC_MAX 8

struct doc_extra {
	char pattern[64];	/* test names, a glob: "sockwrite-paced*" */
	char extra[64];		/* the extra they use: "busy_pct_x100" */
	double scale;		/* times this: "busy_pct_x100 / 100" is 0.01 */
};

static struct doc {
	char rate[DOC_MAX][64];	/* units of rate tests (higher is better) */
	double per_loop[DOC_MAX];	/* per rate unit; NAN: "the buffer size in KiB" */
	int nrate;
	char time[DOC_MAX][64];	/* units of time tests (lower is better) */
	int ntime;
	struct doc_extra x[DOC_MAX];	/* tests whose value is an extra (lower is better) */
	int nx;
	char xunit[DOC_MAX][64];	/* units those tests name besides the time units */
	int nxunit;
} doc;

/* The text between the next pair of backticks at or after p, before end, into out; returns
 * the position after the closing backtick, NULL when there is none. */
static const char *tick(const char *p, const char *end, char *out, size_t cap)
{
	const char *a = memchr(p, '`', (size_t)(end - p)), *b;

	if (!a || !(b = memchr(a + 1, '`', (size_t)(end - a - 1))) || (size_t)(b - a) > cap)
		return NULL;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = 0;
	return b + 1;
}

/* The bullet of the page that starts with head, up to the next bullet or blank line. */
static const char *bullet(const char *text, const char *head, const char **end)
{
	const char *p = strstr(text, head), *e1, *e2;

	if (!p)
		fail_msg("%s: no line starts \"%s\"", RECORDS_MD, head + 1);
	e1 = strstr(p + 1, "\n- ");
	e2 = strstr(p + 1, "\n\n");
	*end = !e1 ? e2 : !e2 ? e1 : e1 < e2 ? e1 : e2;
	if (!*end)
		*end = p + strlen(p);
	return p;
}

/* Units in backticks from p up to the first ';' of the bullet, which must then say dir. */
static int units(const char *p, const char *end, const char *dir, char (*out)[64])
{
	const char *semi = memchr(p, ';', (size_t)(end - p));
	int n = 0;

	if (!semi || strncmp(semi, dir, strlen(dir)))
		fail_msg("%s: \"%.40s\" does not go on \"%s\"", RECORDS_MD, p + 1, dir);
	while (n < DOC_MAX && (p = tick(p, semi, out[n], sizeof out[n])))
		n++;
	return n;
}

static void doc_read(void)
{
	static char text[1 << 17];
	const char *p, *end, *q;
	char t[64], f80[80];
	FILE *f = fopen(RECORDS_MD, "r");
	size_t n;

	if (!f)
		fail_msg("cannot read %s", RECORDS_MD);
	n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;

	p = bullet(text, "\n- rate tests (units ", &end);
	doc.nrate = units(p, end, "; higher is better)", doc.rate);
	/* "`per_loop` is the test's constant: 1 for `lps`, 60 for `lpm` (...), the buffer size
	 * in KiB for `KBps`, ...": the word before each "for `UNIT`" is the number. */
	for (int i = 0; i < doc.nrate; i++) {
		snprintf(f80, sizeof f80, " for `%s`", doc.rate[i]);
		q = strstr(p, f80);
		if (!q || q > end)
			fail_msg("%s: no per_loop stated for `%s`", RECORDS_MD, doc.rate[i]);
		while (q > p && q[-1] != ' ')
			q--;
		doc.per_loop[i] = strncmp(q, "KiB ", 4) ? strtod(q, NULL) : NAN;
	}
	p = bullet(text, "\n- time tests (unit ", &end);
	doc.ntime = units(p, end, "; lower is better)", doc.time);
	/* "`vmexit-nanosleep-*` use `p50_late_ns` (...); `sockwrite-paced*` use `busy_pct_x100 /
	 * 100` (unit `%cpu`: ...)" */
	p = bullet(text, "\n- tests that name an extra as their value (lower is better):", &end);
	for (q = p; doc.nx < DOC_MAX && (q = tick(q, end, t, sizeof t));) {
		struct doc_extra *x = &doc.x[doc.nx];
		char e[64];
		double div = 1;

		if (q - strlen(t) - 8 >= p && !strncmp(q - strlen(t) - 8, "(unit `", 7)) {
			snprintf(doc.xunit[doc.nxunit++], sizeof doc.xunit[0], "%s", t);
			continue;
		}
		while (*q == ' ' || *q == '\n')	/* "`pattern` use `extra`", maybe across lines */
			q++;
		if (!strchr(t, '*') || (strncmp(q, "use ", 4) && strncmp(q, "use\n", 4)))
			continue;
		q = tick(q, end, e, sizeof e);
		assert_non_null(q);
		snprintf(x->pattern, sizeof x->pattern, "%s", t);
		if (sscanf(e, "%63s / %lf", x->extra, &div) < 1 || !(div > 0))
			fail_msg("%s: cannot read the value `%s` of `%s`", RECORDS_MD, e, t);
		x->scale = 1 / div;
		doc.nx++;
	}
	if (!doc.nrate || !doc.ntime || !doc.nx || !doc.nxunit)
		fail_msg("%s: read %d rate, %d time units, %d extra-valued patterns, %d of their units",
			 RECORDS_MD, doc.nrate, doc.ntime, doc.nx, doc.nxunit);
}

static int in(const char *s, const char (*list)[64], int n)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(s, list[i]))
			return i;
	return -1;
}

/* 1 if s is in the NULL-terminated list (the registry's groups and units). */
static int in_list(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

static const struct doc_extra *doc_extra_of(const char *name)
{
	for (int i = 0; i < doc.nx; i++)
		if (!fnmatch(doc.x[i].pattern, name, 0))
			return &doc.x[i];
	return NULL;
}

/* The page, read once, by the first check that needs it (a failure is that check's). */
static void doc_need(void)
{
	static int done;

	if (!done)
		doc_read();
	done = 1;
}

/* ---- the checks ------------------------------------------------------------------------------ */
static void names_unique_and_known(void **st)
{
	(void)st;
	int n = 0;

	for (int i = 0; bench_registry[i]; i++, n++) {
		const struct bench *b = bench_registry[i];

		assert_non_null(b->name);
		assert_non_null(b->title);
		if (!in_list(b->group, vocab_groups))
			fail_msg("%s: unknown group '%s'", b->name, b->group);
		if (!in_list(b->unit, vocab_units))
			fail_msg("%s: unknown unit '%s'", b->name, b->unit);
		/* a name must not shadow a group name or "all" (selection by name) */
		if (in_list(b->name, vocab_groups) || !strcmp(b->name, "all"))
			fail_msg("%s: a test named like a group", b->name);
		for (int j = 0; j < i; j++)
			if (!strcmp(bench_registry[j]->name, b->name))
				fail_msg("%s: listed twice (entries %d and %d)", b->name, j, i);
		assert_ptr_equal(bench_find(b->name), b);
		if (!(b->per_loop > 0))
			fail_msg("%s: per_loop %g", b->name, b->per_loop);
		assert_non_null(b->run);
	}
	assert_true(n > UB_INDEX_TESTS);
}

/* 1 when s holds only the characters of set (and is not empty). */
static int only(const char *s, const char *set)
{
	return *s && strspn(s, set) == strlen(s);
}

/* Each name is its row's id hyphenated (registry.c's name table): a name with '_' outside the
 * ring0 group means the table was not rewritten (its constructor did not run) or a
 * descriptor named itself. */
static void names_from_rows(void **st)
{
	(void)st;
	static const char lower_digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	char hyphen[64], under[64];
	int nlat = 0, nbw = 0;

	snprintf(hyphen, sizeof hyphen, "%s-", lower_digits);
	snprintf(under, sizeof under, "%s_", lower_digits);
	for (int i = 0; bench_registry[i]; i++) {
		const struct bench *b = bench_registry[i];
		const char *n = b->name;

		if (!strcmp(b->group, REC_GROUP_RING0)) {
			if (strncmp(n, RING0_PREFIX, strlen(RING0_PREFIX)) ||
			    !only(n + strlen(RING0_PREFIX), under))
				fail_msg("%s: a ring0 test not named " RING0_PREFIX "<driver's name>", n);
		} else if (!only(n, hyphen) || n[0] == '-' || n[strlen(n) - 1] == '-') {
			fail_msg("%s: not a hyphenated row id (lower case, digits, '-')", n);
		}
		if (!strncmp(n, REC_PREFIX_MEM_LATENCY, strlen(REC_PREFIX_MEM_LATENCY))) {
			assert_string_equal(b->group, REC_GROUP_MEMORY);
			assert_string_equal(b->unit, REC_UNIT_NS);
			nlat++;
		}
		if (!strncmp(n, REC_PREFIX_MEM_BANDWIDTH, strlen(REC_PREFIX_MEM_BANDWIDTH))) {
			assert_string_equal(b->group, REC_GROUP_MEMORY);
			assert_string_equal(b->unit, REC_UNIT_MBPS);
			nbw++;
		}
	}
	if (!nlat || !nbw)
		fail_msg("%d tests named " REC_PREFIX_MEM_LATENCY "*, %d " REC_PREFIX_MEM_BANDWIDTH "*",
			 nlat, nbw);
}

/* Each test's direction is what docs/records.md states for its unit, or for a test whose
 * value is an extra; the extra and its scale are the page's too. */
static void direction_as_records_md_states(void **st)
{
	(void)st;
	for (int i = 0; bench_registry[i]; i++) {
		const struct bench *b = bench_registry[i];
		const struct doc_extra *x;
		const char *want = "";

		doc_need();
		x = doc_extra_of(b->name);

		if (x) {
			if (!b->value_extra || strcmp(b->value_extra, x->extra))
				fail_msg("%s: value is extra '%s'; %s says `%s` (for `%s`)", b->name,
					 b->value_extra ? b->value_extra : "(none)", RECORDS_MD,
					 x->extra, x->pattern);
			if (fabs((b->value_scale ? b->value_scale : 1) - x->scale) > 1e-12)
				fail_msg("%s: value_scale %g; %s says %g", b->name, b->value_scale,
					 RECORDS_MD, x->scale);
			if (in(b->unit, doc.time, doc.ntime) < 0 && in(b->unit, doc.xunit, doc.nxunit) < 0)
				fail_msg("%s: unit '%s' of an extra-valued test is not in %s", b->name,
					 b->unit, RECORDS_MD);
			want = REC_BETTER_LOWER;
		} else if (b->value_extra) {
			fail_msg("%s: takes its value from extra '%s'; %s names no such test", b->name,
				 b->value_extra, RECORDS_MD);
		} else if (in(b->unit, doc.rate, doc.nrate) >= 0) {
			want = REC_BETTER_HIGHER;
		} else if (in(b->unit, doc.time, doc.ntime) >= 0) {
			want = REC_BETTER_LOWER;
		} else {
			fail_msg("%s: unit '%s' is neither a rate nor a time unit in %s", b->name,
				 b->unit, RECORDS_MD);
		}
		if (strcmp(bench_better(b), want))
			fail_msg("%s (%s%s%s): better=%s, %s says %s", b->name, b->unit,
				 x ? ", extra " : "", x ? x->extra : "", bench_better(b), RECORDS_MD, want);
		assert_int_equal(bench_higher_is_better(b), !strcmp(want, REC_BETTER_HIGHER));
	}
}

/* A rate test's per_loop is the constant records.md gives its unit; for KBps the buffer size
 * in KiB, which UnixBench's label names ("File Copy 1024 bufsize 2000 maxblocks"). */
static void per_loop_as_records_md_states(void **st)
{
	(void)st;
	for (int i = 0; bench_registry[i]; i++) {
		const struct bench *b = bench_registry[i];
		int u, bufsize = 0;
		double want;

		doc_need();
		u = in(b->unit, doc.rate, doc.nrate);
		if (u < 0 || b->value_extra)
			continue;
		want = doc.per_loop[u];
		if (isnan(want)) {
			const char *t = strstr(b->title, " bufsize");
			while (t && t > b->title && t[-1] >= '0' && t[-1] <= '9')
				t--;
			if (!t || sscanf(t, "%d bufsize", &bufsize) != 1)
				fail_msg("%s (%s): no buffer size in its title '%s'", b->name, b->unit,
					 b->title);
			want = bufsize / 1024.0;
		}
		if (fabs(b->per_loop - want) > 1e-12)
			fail_msg("%s (%s): per_loop %g, %s says %g", b->name, b->unit, b->per_loop,
				 RECORDS_MD, want);
	}
}

/* UnixBench 5.1.3's index as published: `Run`'s index list (order, labels), pgms/index.base
 * (baselines, SPARCstation 20-61 = 10.0), the units its report prints. Pinned on purpose:
 * these are facts of UnixBench, not of this code. */
static const struct {
	const char *name, *title, *unit;
	double baseline;
} unixbench[] = {
	{"dhry2reg", "Dhrystone 2 using register variables", "lps", 116700.0},
	{"whetstone-double", "Double-Precision Whetstone", "MWIPS", 55.0},
	{"execl", "Execl Throughput", "lps", 43.0},
	{"fstime", "File Copy 1024 bufsize 2000 maxblocks", "KBps", 3960.0},
	{"fsbuffer", "File Copy 256 bufsize 500 maxblocks", "KBps", 1655.0},
	{"fsdisk", "File Copy 4096 bufsize 8000 maxblocks", "KBps", 5800.0},
	{"pipe", "Pipe Throughput", "lps", 12440.0},
	{"context1", "Pipe-based Context Switching", "lps", 4000.0},
	{"spawn", "Process Creation", "lps", 126.0},
	{"shell1", "Shell Scripts (1 concurrent)", "lpm", 42.4},
	{"shell8", "Shell Scripts (8 concurrent)", "lpm", 6.0},
	{"syscall", "System Call Overhead", "lps", 15000.0},
};

static void index_is_unixbench(void **st)
{
	(void)st;
	int n = 0;

	assert_int_equal(sizeof unixbench / sizeof unixbench[0], UB_INDEX_TESTS);
	for (int i = 0; bench_registry[i]; i++) {
		const struct bench *b = bench_registry[i];

		/* the index group is exactly the tests with a baseline (ub_is_index()) */
		if ((strcmp(REC_GROUP_INDEX, b->group) == 0) != bench_is_index(b))
			fail_msg("%s: group %s but baseline %g", b->name, b->group, b->baseline);
		if (!bench_is_index(b))
			continue;
		if (n >= UB_INDEX_TESTS)
			fail_msg("%s: a 13th index test", b->name);
		/* registry order is run order: UnixBench's */
		assert_string_equal(b->name, unixbench[n].name);
		assert_string_equal(b->title, unixbench[n].title);
		assert_string_equal(b->unit, unixbench[n].unit);
		if (b->baseline != unixbench[n].baseline)
			fail_msg("%s: baseline %g, UnixBench's is %g", b->name, b->baseline,
				 unixbench[n].baseline);
		/* UnixBench's index is of rates: its score would be meaningless otherwise */
		assert_string_equal(bench_better(b), REC_BETTER_HIGHER);
		n++;
	}
	assert_int_equal(n, UB_INDEX_TESTS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_unique_and_known),
		cmocka_unit_test(names_from_rows),
		cmocka_unit_test(direction_as_records_md_states),
		cmocka_unit_test(per_loop_as_records_md_states),
		cmocka_unit_test(index_is_unixbench),
	};
	return cmocka_run_group_tests_name("registry", tests, NULL, NULL);
}
