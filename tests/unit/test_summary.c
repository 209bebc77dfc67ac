/* test_summary.c — the screen's last page (payload/pid1/summary.c) from records: an index run
 * gets UnixBench's table and its score; a run of no index test (the disk group alone) gets
 * one line saying so, never an empty table with a "---" score; a run without END says it is
 * incomplete. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../../payload/pid1/summary.h"
#include "record.h"
#include "vocab.h"

static char text[8192];
static size_t tlen;
static uint64_t seq;

static void add(struct rec_body *b)
{
	rec_close(b);
	tlen += rec_seal(text + tlen, sizeof text - tlen, ++seq, b->buf, b->len);
}

/* TEST (with the baseline when index) and RESULT of test at 1 copy, value v. */
static void one_test(const char *test, const char *title, const char *baseline, const char *v)
{
	struct rec_body b;
	rec_begin(&b, RK_TEST);
	rec_str(&b, RK_TESTNAME, test);
	rec_str(&b, RK_COPIES, "1");
	rec_str(&b, RK_TITLE, title);
	if (baseline)
		rec_str(&b, RK_BASELINE, baseline);
	add(&b);
	rec_begin(&b, RK_RESULT);
	rec_str(&b, RK_TESTNAME, test);
	rec_str(&b, RK_COPIES, "1");
	rec_str(&b, RK_VALUE, v);
	if (baseline)
		rec_str(&b, RK_INDEX, "100.0");
	add(&b);
}

static void end(void)
{
	struct rec_body b;
	rec_begin(&b, RK_END);
	rec_str(&b, RK_RECORDS, "4");
	rec_str(&b, RK_RESULTS, "1");
	rec_str(&b, RK_FAILS, "0");
	rec_str(&b, RK_SKIPS, "0");
	rec_str(&b, RK_ERRORS, "0");
	add(&b);
}

static int fresh(void **st)
{
	(void)st;
	tlen = 0;
	seq = 0;
	return 0;
}

static void index_run_has_table(void **st)
{
	(void)st;
	char page[4096];
	one_test("syscall", "System Call Overhead", "15000.0", "1500000.0");
	end();
	summary_of(text, tlen, page, sizeof page, "t");
	assert_non_null(strstr(page, "System Benchmarks Index Values"));
	assert_non_null(strstr(page, "System Call Overhead"));
	assert_non_null(strstr(page, "System Benchmarks Index Score"));
	assert_null(strstr(page, "No UnixBench index test ran"));
	assert_non_null(strstr(page, "Run: 1 results, 0 fails, 0 skips, 0 errors"));
}

static void no_index_run_has_no_table(void **st)
{
	(void)st;
	char page[4096];
	one_test("disk-randread-4k-qd1", "Disk 4 KiB random read latency, qd1", NULL, "39166.2");
	end();
	summary_of(text, tlen, page, sizeof page, "t");
	assert_null(strstr(page, "System Benchmarks Index"));
	assert_non_null(strstr(page, "No UnixBench index test ran"));
	assert_non_null(strstr(page, "Run: 1 results"));
}

static void no_end_is_incomplete(void **st)
{
	(void)st;
	char page[4096];
	one_test("syscall", "System Call Overhead", "15000.0", "1500000.0");
	summary_of(text, tlen, page, sizeof page, "t");
	assert_non_null(strstr(page, "Run: incomplete (no END record)"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test_setup(index_run_has_table, fresh),
		cmocka_unit_test_setup(no_index_run_has_no_table, fresh),
		cmocka_unit_test_setup(no_end_is_incomplete, fresh),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
