/* test_logread.c — judging logs: complete runs, lost and damaged records, END counts,
 * several boots in one file, and the noise real captures carry (CRLF, ANSI, kernel text). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../report/logread.h"

/* Append a sealed record with body to buf (at most 64 KiB). */
static void put(char *buf, uint64_t seq, const char *body, const char *prefix,
		const char *eol)
{
	char line[REC_MAX];
	size_t n = rec_seal(line, sizeof line, seq, body, strlen(body));
	line[n - 1] = 0;
	strcat(buf, prefix);
	strcat(buf, line);
	strcat(buf, eol);
}

static void good_run(char *buf, const char *eol)
{
	put(buf, 1, "BEGIN run=00 version=t mode=host", "", eol);
	put(buf, 2, "TEST test=pipe k=1 n=1 copies=1 unit=lps title=Pipe", "", eol);
	put(buf, 3, "RESULT test=pipe copies=1 unit=lps value=5 samples=1", "", eol);
	put(buf, 4, "END records=3 results=1 fails=0 skips=0 errors=0 status=ok", "", eol);
}

static void read_str(const char *s, struct log *log)
{
	FILE *f = fmemopen((void *)s, strlen(s), "r");
	assert_non_null(f);
	assert_int_equal(log_read(f, log), 0);
	fclose(f);
}

static void complete(void **st)
{
	(void)st;
	static char buf[65536];
	struct log log;
	buf[0] = 0;
	strcat(buf, "SeaBIOS (version 1.16)\n");
	good_run(buf, "\n");
	strcat(buf, "[    9.1] reboot: Power down\n");
	read_str(buf, &log);
	assert_int_equal(log.nruns, 1);
	assert_true(log.runs[0].complete);
	assert_true(log.runs[0].powered_off);
	assert_int_equal(log.runs[0].results, 1);
	assert_int_equal(log_last_complete(&log), 0);
	log_free(&log);
}

static void noisy_capture(void **st)
{
	(void)st;
	static char buf[65536];
	struct log log;
	buf[0] = 0;
	put(buf, 1, "BEGIN run=00 version=t mode=host", "\x1b[2J\x1b[0;37m", "\r\n");
	put(buf, 2, "TEST test=pipe k=1 n=1 copies=1 unit=lps title=Pipe", "[ 1.2] rcu: x", "\r\n");
	put(buf, 3, "RESULT test=pipe copies=1 unit=lps value=5 samples=1", "", "\x1b[0m\r\n");
	put(buf, 4, "END records=3 results=1 fails=0 skips=0 errors=0 status=ok", "", "\r\n");
	read_str(buf, &log);
	assert_int_equal(log.ndamage, 0);
	assert_int_equal(log.nruns, 1);
	assert_true(log.runs[0].complete);
	log_free(&log);
}

static void lost_and_damaged(void **st)
{
	(void)st;
	static char buf[65536];
	struct log log;
	char *p;
	/* A flipped byte: the record is damaged, reported by line, the run incomplete. */
	buf[0] = 0;
	good_run(buf, "\n");
	p = strstr(buf, "value=5");
	p[6] = '6';
	read_str(buf, &log);
	assert_int_equal(log.ndamage, 1);
	assert_int_equal(log.damage[0].line, 3);
	assert_int_equal(log.damage[0].status, REC_BAD_CRC);
	assert_false(log.runs[0].complete);
	assert_non_null(strstr(log.runs[0].why, "damaged record at line 3 (checksum mismatch)"));
	assert_int_equal(log_last_complete(&log), -1);
	log_free(&log);
	/* A cut last line: no END. */
	buf[0] = 0;
	good_run(buf, "\n");
	p = strstr(buf, "@isobench/1 4 END");
	p[20] = 0;
	read_str(buf, &log);
	assert_false(log.runs[0].complete);
	assert_non_null(strstr(log.runs[0].why, "no END"));
	log_free(&log);
}

static void end_counts_must_match(void **st)
{
	(void)st;
	static char buf[65536];
	struct log log;
	buf[0] = 0;
	put(buf, 1, "BEGIN run=00 version=t mode=host", "", "\n");
	put(buf, 2, "RESULT test=pipe copies=1 unit=lps value=5 samples=1", "", "\n");
	put(buf, 3, "END records=2 results=2 fails=0 skips=0 errors=0 status=ok", "", "\n");
	read_str(buf, &log);
	assert_false(log.runs[0].complete);
	assert_non_null(strstr(log.runs[0].why, "results=2"));
	log_free(&log);
}

static void two_boots(void **st)
{
	(void)st;
	static char buf[65536];
	struct log log;
	buf[0] = 0;
	good_run(buf, "\n");
	put(buf, 1, "BEGIN run=01 version=t mode=init", "", "\n");
	put(buf, 2, "TEST test=pipe k=1 n=1 copies=1 unit=lps title=Pipe", "", "\n");
	strcat(buf, "[   3.0] Kernel panic - not syncing: Attempted to kill init!\n");
	read_str(buf, &log);
	assert_int_equal(log.nruns, 2);
	assert_true(log.runs[0].complete);
	assert_false(log.runs[1].complete);
	assert_true(log.panic);
	assert_int_equal(log_last_complete(&log), 0);
	log_free(&log);
	/* Records before any BEGIN: a run whose start was lost. */
	buf[0] = 0;
	put(buf, 7, "RESULT test=pipe copies=1 unit=lps value=5 samples=1", "", "\n");
	read_str(buf, &log);
	assert_int_equal(log.nruns, 1);
	assert_false(log.runs[0].complete);
	assert_non_null(strstr(log.runs[0].why, "no BEGIN"));
	log_free(&log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(complete),
		cmocka_unit_test(noisy_capture),
		cmocka_unit_test(lost_and_damaged),
		cmocka_unit_test(end_counts_must_match),
		cmocka_unit_test(two_boots),
	};
	return cmocka_run_group_tests_name("logread", tests, NULL, NULL);
}
