/* test_summary.c — the screen's last page (payload/pid1/summary.c) from the run's facts as the
 * runner tells them (runner.h struct runner_fact) and the END's counts: each page asserted
 * whole, byte for byte. The expected pages are those the page had when it was rebuilt by
 * parsing the console stream back (before the runner stopped reading its own records), for
 * the same runs written as records: one pass with SKIP and FAIL rows and a test outside the
 * index, two passes, three, a run of no index test (one line, never an empty table with a
 * "---" score), a run without END ("incomplete"), isobench.repeat=2 (the latest outcome; a
 * FAIL or SKIP after an earlier run's RESULT shows and counts no value),
 * a title past UnixBench's 40 columns.
 * And out.c's side of "never read back": the first BEGIN's run id (the results file's name)
 * and the latest END's counts are known as written; isobench.replay=1 replays the record
 * lines from the stream's first BEGIN on, whatever text and records came before it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../payload/out.h"
#include "../../payload/pid1/summary.h"
#include "record.h"
#include "vocab.h"

#define HEAD "\033[2J\033[Hisobench v1.2: summary (details on serial and in the results file)\n"

static char page[8192];

static void announce(const char *test, const char *title, double baseline, int copies)
{
	struct runner_fact f = {.test = test, .title = title, .baseline = baseline,
				.copies = copies, .state = RUNNER_NONE, .index = NAN};
	summary_note(&f);
}

/* A RESULT: value, index (NAN: none). */
static void result(const char *test, int copies, double value, double index)
{
	struct runner_fact f = {.test = test, .copies = copies, .state = RUNNER_RESULT,
				.value = value, .index = index};
	summary_note(&f);
}

static void outcome(const char *test, int copies, enum runner_state st)
{
	struct runner_fact f = {.test = test, .copies = copies, .state = st, .index = NAN};
	summary_note(&f);
}

/* The page with END's counts (results < 0: no END), compared whole with want. */
static void page_is(long results, long fails, long skips, long errors, const char *want)
{
	struct out_counts c = {9, (uint64_t)results, (uint64_t)fails, (uint64_t)skips,
			       (uint64_t)errors};
	int n = summary_page(results < 0 ? NULL : &c, page, sizeof page, "v1.2");
	assert_string_equal(page, want);
	assert_int_equal(n, strlen(want));
}

static int fresh(void **st)
{
	(void)st;
	summary_clear();
	return 0;
}

static void one_pass(void **st)
{
	(void)st;
	announce("syscall", "System Call Overhead", 15000, 1);
	result("syscall", 1, 1500000.2, 1000.0);
	announce("pipe", "Pipe Throughput", 12440, 1);
	outcome("pipe", 1, RUNNER_FAIL);
	announce("disk-read-4k", "Disk read", 0, 1);	/* outside the index: no row */
	result("disk-read-4k", 1, 39166.2, NAN);
	announce("execl", "Execl Throughput", 43, 1);
	outcome("execl", 1, RUNNER_SKIP);
	page_is(2, 1, 1, 0, HEAD
		"System Benchmarks Index Values            BASELINE       RESULT    INDEX\n"
		"System Call Overhead                       15000.0    1500000.2   1000.0\n"
		"Pipe Throughput                            12440.0         FAIL        -\n"
		"Execl Throughput                              43.0         SKIP        -\n"
		"System Benchmarks Index Score                                     1000.0\n"
		"Run: 2 results, 1 fails, 1 skips, 0 errors\n");
}

static void two_passes(void **st)
{
	(void)st;
	announce("syscall", "System Call Overhead", 15000, 1);
	result("syscall", 1, 1500000, 1000.0);
	announce("pipe", "Pipe Throughput", 12440, 1);
	result("pipe", 1, 1244000, 1000.0);
	announce("syscall", "System Call Overhead", 15000, 2);
	result("syscall", 2, 2900000, 1933.3);
	announce("pipe", "Pipe Throughput", 12440, 2);
	outcome("pipe", 2, RUNNER_SKIP);
	page_is(3, 0, 1, 0, HEAD
		"System Benchmarks Index Values                  BASELINE    1x INDEX    2x INDEX\n"
		"System Call Overhead                             15000.0      1000.0      1933.3\n"
		"Pipe Throughput                                  12440.0      1000.0        SKIP\n"
		"System Benchmarks Index Score                                 1000.0      1933.3\n"
		"Run: 3 results, 0 fails, 1 skips, 0 errors\n");
}

static void three_passes(void **st)
{
	(void)st;
	for (int c = 1; c <= 4; c *= 2) {
		announce("fsbuffer-256", "File Copy 256 bufsize 500 maxblocks with a very long title",
			 1655, c);
		result("fsbuffer-256", c, 100000.0 * c, 604.2 * c);
	}
	page_is(3, 0, 0, 0, HEAD
		"System Benchmarks Index Values      BASELINE    1x INDEX    2x INDEX    4x INDEX\n"
		"File Copy 256 bufsize 500 maxblock    1655.0       604.2      1208.4      2416.8\n"
		"System Benchmarks Index Score                      604.2      1208.5      2416.9\n"
		"Run: 3 results, 0 fails, 0 skips, 0 errors\n");
}

static void no_index_run_has_no_table(void **st)
{
	(void)st;
	announce("disk-read-4k", "Disk read", 0, 1);
	result("disk-read-4k", 1, 39166.2, NAN);
	page_is(1, 0, 0, 0, HEAD
		"No UnixBench index test ran: the results are on serial and in the results file.\n"
		"Run: 1 results, 0 fails, 0 skips, 0 errors\n");
}

static void no_end_is_incomplete(void **st)
{
	(void)st;
	announce("syscall", "System Call Overhead", 15000, 1);
	result("syscall", 1, 1500000, 1000.0);
	page_is(-1, 0, 0, 0, HEAD
		"System Benchmarks Index Values            BASELINE       RESULT    INDEX\n"
		"System Call Overhead                       15000.0    1500000.0   1000.0\n"
		"System Benchmarks Index Score                                     1000.0\n"
		"Run: incomplete (no END record)\n");
}

static void repeat_shows_the_latest(void **st)
{
	(void)st;
	for (int run = 1; run <= 2; run++) {	/* isobench.repeat=2: one test, twice */
		announce("syscall", "System Call Overhead", 15000, 1);
		result("syscall", 1, run == 1 ? 1500000 : 1800000, run == 1 ? 1000.0 : 1200.0);
	}
	page_is(1, 0, 0, 0, HEAD
		"System Benchmarks Index Values            BASELINE       RESULT    INDEX\n"
		"System Call Overhead                       15000.0    1800000.0   1200.0\n"
		"System Benchmarks Index Score                                     1200.0\n"
		"Run: 1 results, 0 fails, 0 skips, 0 errors\n");
}

/* isobench.repeat=2 where a test's RESULT of the first run is followed by its FAIL (or SKIP)
 * in the second: the latest outcome is the FAIL alone; the first run's value is neither shown
 * beside it nor counted in the score (it was: 1244000.0 beside FAIL, a score of 1062.7). */
static void repeat_forgets_an_earlier_result(void **st)
{
	(void)st;
	for (int run = 1; run <= 2; run++) {
		announce("syscall", "System Call Overhead", 15000, 1);
		result("syscall", 1, run == 1 ? 1500000 : 1800000, run == 1 ? 1000.0 : 1200.0);
		announce("pipe", "Pipe Throughput", 12440, 1);
		if (run == 1)
			result("pipe", 1, 1244000, 1000.0);
		else
			outcome("pipe", 1, RUNNER_FAIL);
		announce("execl", "Execl Throughput", 43, 1);
		if (run == 1)
			result("execl", 1, 4300, 1000.0);
		else
			outcome("execl", 1, RUNNER_SKIP);
	}
	page_is(1, 1, 1, 0, HEAD
		"System Benchmarks Index Values            BASELINE       RESULT    INDEX\n"
		"System Call Overhead                       15000.0    1800000.0   1200.0\n"
		"Pipe Throughput                            12440.0         FAIL        -\n"
		"Execl Throughput                              43.0         SKIP        -\n"
		"System Benchmarks Index Score                                     1200.0\n"
		"Run: 1 results, 1 fails, 1 skips, 0 errors\n");
}

static void long_title_cut_at_40(void **st)
{
	(void)st;
	for (int c = 1; c <= 2; c++) {
		announce("shell8", "Shell Scripts (8 concurrent) and a longer title", 6, c);
		result("shell8", c, 600.0 * c, 1000.0 * c);
	}
	page_is(2, 0, 0, 0, HEAD
		"System Benchmarks Index Values                  BASELINE    1x INDEX    2x INDEX\n"
		"Shell Scripts (8 concurrent) and a longe             6.0      1000.0      2000.0\n"
		"System Benchmarks Index Score                                 1000.0      2000.0\n"
		"Run: 2 results, 0 fails, 0 skips, 0 errors\n");
}

/* out.c: a stream with text and a record before the first BEGIN, two runs (repeat=2) and a
 * replay: the first run id, the latest END's counts, and the replay's lines (the stream's
 * record lines from the first BEGIN on, each once). */
static void stream_facts_known_as_written(void **st)
{
	(void)st;
	static char buf[65536];
	struct rec_body b;

	assert_int_equal(out_stream_init(), 0);
	assert_string_equal(out_first_run(), "");
	assert_null(out_last_end());
	out_text("isobench: the run starts in 1 s (isobench.delay=1)\n");
	rec_begin(&b, RK_INFO);	/* a record before any BEGIN: never replayed */
	rec_str(&b, RK_CONSOLE_USED, "ttyS0");
	out_record(&b);
	out_text("no newline yet: ");	/* the BEGIN still starts the replay */
	for (int run = 0; run < 2; run++) {
		out_new_run();
		out_begin(run ? "bbbbbbbbbbbbbbbb" : "0123456789abcdef", REC_MODE_HOST);
		out_text("a line of text\n");
		rec_begin(&b, run ? RK_FAIL : RK_SKIP);
		rec_str(&b, RK_TESTNAME, "pipe");
		rec_str(&b, RK_REASON, "x");
		out_record(&b);
		out_end(REC_STATUS_OK, NULL);
	}
	assert_string_equal(out_first_run(), "0123456789abcdef");
	const struct out_counts *e = out_last_end();
	assert_non_null(e);
	assert_int_equal(e->fails, 1);
	assert_int_equal(e->skips, 0);
	long before = out_stream_read(NULL, 0, 0);
	out_replay();
	long len = out_stream_read(buf, sizeof buf - 1, 0);
	assert_true(len > before && len < (long)sizeof buf);
	buf[len] = 0;
	char *rp = strstr(buf, "isobench: replay of the run's records follows");
	assert_non_null(rp);
	/* The replay: BEGIN, SKIP, DIGEST(s), END; BEGIN, FAIL, DIGEST(s), END; nothing else. */
	int n = 0, begins = 0, info = 0, text = 0;
	for (char *l = strchr(rp, '\n') + 1, *nl; *l && (nl = strchr(l, '\n')); l = nl + 1) {
		if (!strncmp(l, "isobench: end of replay", 23))
			break;
		struct record r;
		if (rec_parse(l, (size_t)(nl - l), &r) != REC_OK) {
			text++;
			continue;
		}
		n++;
		begins += !strcmp(r.kind, RK_BEGIN);
		info += !strcmp(r.kind, RK_INFO);
		if (n == 1) {	/* the first replayed: the first BEGIN */
			assert_string_equal(r.kind, RK_BEGIN);
			assert_string_equal(rec_get(&r, RK_RUN) ?: "", "0123456789abcdef");
		}
	}
	assert_int_equal(begins, 2);
	assert_int_equal(info, 0);
	assert_int_equal(text, 0);
	assert_true(n >= 8);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test_setup(one_pass, fresh),
		cmocka_unit_test_setup(two_passes, fresh),
		cmocka_unit_test_setup(three_passes, fresh),
		cmocka_unit_test_setup(no_index_run_has_no_table, fresh),
		cmocka_unit_test_setup(no_end_is_incomplete, fresh),
		cmocka_unit_test_setup(repeat_shows_the_latest, fresh),
		cmocka_unit_test_setup(repeat_forgets_an_earlier_result, fresh),
		cmocka_unit_test_setup(long_title_cut_at_40, fresh),
		cmocka_unit_test(stream_facts_known_as_written),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
