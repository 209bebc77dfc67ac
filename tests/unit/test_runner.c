/* test_runner.c — the runner's input errors: every one reported after BEGIN, none lost to
 * the RUNNER_MAX_PENDING slots (past them, one more ERROR counts the rest); and its watcher
 * (runner_cfg.watch: PID 1's screen summary) told each test's facts as its records say them;
 * isobench.repeat=N's tables, each of its own run; and which tests a tests= list selects:
 * "all" is every test but the .nodefault ones (the selftests). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../payload/benchapi.h"
#include "../../payload/out.h"
#include "../../payload/params.h"
#include "../../payload/runner.h"
#include "record.h"
#include "vocab.h"

/* Run a suite that selects no test, with n input errors pending; the records into buf. */
static void run_with_errors(int n, char *buf, size_t cap)
{
	static struct runner_cfg cfg;
	struct params p;
	int fd = memfd_create("records", 0);
	char param[32];

	assert_true(fd >= 0);
	memset(&cfg, 0, sizeof cfg);
	cfg.mode = "host";
	cfg.self = "/proc/self/exe";
	cfg.tmpdir = "/tmp";
	params_init(&p);
	strcpy(p.tests, "no-such-test");
	params_finish(&p, 1);
	for (int i = 0; i < n; i++) {
		snprintf(param, sizeof param, "isobench.bad%d", i);
		runner_pending_error(&cfg, param, "x", "unknown parameter");
	}
	assert_int_equal(out_init(), 0);
	out_add_fd(fd);
	runner_run(&p, &cfg, NULL);
	ssize_t k = pread(fd, buf, cap - 1, 0);
	assert_true(k > 0);
	buf[k] = 0;
	close(fd);
}

static int count(const char *buf, const char *needle)
{
	int n = 0;
	for (const char *s = buf; (s = strstr(s, needle)); s++)
		n++;
	return n;
}

static void few_errors_each_reported(void **st)
{
	(void)st;
	static char buf[1 << 20];
	run_with_errors(3, buf, sizeof buf);
	assert_int_equal(count(buf, " ERROR what=param "), 3);
	assert_non_null(strstr(buf, "param=isobench.bad2 "));
	assert_null(strstr(buf, "more input errors"));
}

static void errors_past_the_slots_counted(void **st)
{
	(void)st;
	static char buf[1 << 20];
	run_with_errors(RUNNER_MAX_PENDING + 8, buf, sizeof buf);
	/* The first RUNNER_MAX_PENDING one by one, then one ERROR for the other 8. */
	assert_int_equal(count(buf, " ERROR what=param "), RUNNER_MAX_PENDING + 1);
	assert_non_null(strstr(buf, "param=isobench.bad31 "));
	assert_null(strstr(buf, "param=isobench.bad32 "));
	assert_non_null(strstr(buf, " param=isobench.* value=- reason=8%20more%20input%20errors"
				    "%20not%20shown%20(the%20first%2032%20are) "));
	assert_non_null(strstr(buf, " END "));
}

static struct runner_fact facts[8];
static char names[8][32];
static int nfacts;

static void watcher(const struct runner_fact *f)
{
	if (nfacts == 8)
		return;
	facts[nfacts] = *f;
	snprintf(names[nfacts], sizeof names[0], "%s", f->test);
	nfacts++;
}

/* The record of kind for test in buf (the log), decoded into r; fails without one. */
static void record_of(const char *buf, const char *kind, const char *test, struct record *r)
{
	for (const char *l = buf, *nl; (nl = strchr(l, '\n')); l = nl + 1)
		if (rec_parse(l, (size_t)(nl - l), r) == REC_OK && !strcmp(r->kind, kind) &&
		    !strcmp(rec_get(r, RK_TESTNAME) ?: "", test))
			return;
	fail_msg("no %s of %s in the log", kind, test);
}

/* An index test's RESULT, a crash's FAIL and a SKIP: each test announced (title, baseline)
 * before its outcome, and the outcome's kind, value and index those of its record. */
static void watcher_told_what_the_records_say(void **st)
{
	(void)st;
	static struct runner_cfg cfg;
	static char buf[1 << 20];
	static const char *const kinds[] = {"", RK_RESULT, RK_SKIP, RK_FAIL};
	struct params p;
	struct record r;
	int fd = memfd_create("records", 0);

	assert_true(fd >= 0);
	memset(&cfg, 0, sizeof cfg);
	cfg.mode = "host";
	cfg.self = "/proc/self/exe";
	cfg.tmpdir = "/tmp";
	cfg.watch = watcher;
	params_init(&p);
	strcpy(p.tests, "syscall,selftest-crash,selftest-skip");
	p.suite = SUITE_QUICK;
	params_finish(&p, 1);
	assert_int_equal(out_init(), 0);
	out_add_fd(fd);
	runner_run(&p, &cfg, NULL);
	ssize_t k = pread(fd, buf, sizeof buf - 1, 0);
	assert_true(k > 0);
	buf[k] = 0;
	close(fd);
	assert_int_equal(nfacts, 6);
	for (int i = 0; i < 6; i += 2) {
		const struct runner_fact *a = &facts[i], *o = &facts[i + 1];
		assert_string_equal(names[i], names[i + 1]);
		assert_int_equal(a->state, RUNNER_NONE);
		assert_int_not_equal(o->state, RUNNER_NONE);
		assert_int_equal(a->copies, 1);
		assert_int_equal(o->copies, 1);
		record_of(buf, RK_TEST, names[i], &r);
		assert_string_equal(a->title, rec_get(&r, RK_TITLE));
		double base = 0;
		rec_get_dbl(&r, RK_BASELINE, &base);
		assert_true(a->baseline == base);
		record_of(buf, kinds[o->state], names[i], &r);
		if (o->state == RUNNER_RESULT) {
			double v, x;
			assert_int_equal(rec_get_dbl(&r, RK_VALUE, &v), 0);
			assert_int_equal(rec_get_dbl(&r, RK_INDEX, &x), 0);
			assert_true(o->value == v);
			assert_true(o->index == x);
		} else {
			assert_true(isnan(o->index));
		}
	}
	assert_string_equal(names[0], "syscall");
	assert_int_equal(facts[1].state, RUNNER_RESULT);
	assert_true(facts[0].baseline == 15000);
	assert_string_equal(names[2], "selftest-crash");
	assert_int_equal(facts[3].state, RUNNER_FAIL);
	assert_string_equal(names[4], "selftest-skip");
	assert_int_equal(facts[5].state, RUNNER_SKIP);
}

/* isobench.repeat=3 (runner_runs()): each run's table holds its own outcomes, never an earlier
 * run's (the outcomes were kept across runs: run k listed each test k times, and enough runs
 * of a large selection wrote past the outcome table). */
static void repeat_tables_hold_their_own_run(void **st)
{
	(void)st;
	static struct runner_cfg cfg;
	static char buf[1 << 20];
	struct params p;
	int fd = memfd_create("records", 0);

	assert_true(fd >= 0);
	memset(&cfg, 0, sizeof cfg);
	cfg.mode = "host";
	cfg.self = "/proc/self/exe";
	cfg.tmpdir = "/tmp";
	params_init(&p);
	strcpy(p.tests, "selftest-skip");
	p.suite = SUITE_QUICK;
	p.repeat = 3;
	params_finish(&p, 1);
	assert_int_equal(out_init(), 0);
	out_add_fd(fd);
	runner_runs(&p, &cfg, NULL);
	ssize_t k = pread(fd, buf, sizeof buf - 1, 0);
	assert_true(k > 0);
	buf[k] = 0;
	close(fd);
	assert_int_equal(count(buf, " END "), 3);
	assert_int_equal(count(buf, "\nSelftest: skips   "), 3);	/* a table row per run */
}

/* runner_selected() of the list into sel; returns how many. */
static int select_tests(const char *list, const struct bench **sel, int cap)
{
	struct params p;
	params_init(&p);
	snprintf(p.tests, sizeof p.tests, "%s", list);
	return runner_selected(&p, sel, cap);
}

static int has(const struct bench **sel, int n, const struct bench *b)
{
	for (int i = 0; i < n; i++)
		if (sel[i] == b)
			return 1;
	return 0;
}

/* "all" takes every test without .nodefault, in the registry's order; the selftests are the
 * .nodefault ones, and come when named, by group or name; naming twice selects once. */
static void all_leaves_out_nodefault(void **st)
{
	static const struct bench *sel[512], *sel2[512];
	int total = 0, nodefault = 0, k = 0;
	(void)st;
	for (; bench_registry[total]; total++) {
		const struct bench *b = bench_registry[total];
		nodefault += b->nodefault;
		assert_int_equal(b->nodefault, !strcmp(b->group, REC_GROUP_SELFTEST));
		assert_int_equal(bench_in_all(b), !b->nodefault);
	}
	assert_true(total > 20 && total < 512);
	assert_true(nodefault > 0);	/* the selftests: the flag is their group's (checked above), no count kept */
	int n = select_tests("all", sel, 512);
	assert_int_equal(n, total - nodefault);
	for (int i = 0; i < total; i++)	/* and in the registry's order */
		if (!bench_registry[i]->nodefault)
			assert_ptr_equal(sel[k++], bench_registry[i]);
	assert_int_equal(select_tests(REC_GROUP_SELFTEST, sel2, 512), nodefault);
	for (int i = 0; i < nodefault; i++)
		assert_true(sel2[i]->nodefault && !has(sel, n, sel2[i]));
	assert_int_equal(select_tests("selftest-crash,all", sel2, 512), total - nodefault + 1);
	assert_int_equal(select_tests("all,selftest,pipe", sel2, 512), total);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(few_errors_each_reported),
		cmocka_unit_test(errors_past_the_slots_counted),
		cmocka_unit_test(watcher_told_what_the_records_say),
		cmocka_unit_test(repeat_tables_hold_their_own_run),
		cmocka_unit_test(all_leaves_out_nodefault),
	};
	return cmocka_run_group_tests_name("runner", tests, NULL, NULL);
}
