/* test_decode.c — the host decodes each record line once (docs/architecture.md "A record
 * decoded once"): rec_parse() and rec_parse_body() are wrapped at link time (Makefile.decode:
 * ld --wrap) and every call from the report's code counted.
 *   * Reading a clean log decodes exactly its record lines, once each (a line without the
 *     tag is looked at, never decoded); checking, modelling and restating what was read
 *     decodes nothing again.
 *   * Every fixture log (FIXTURE_LOGS): for every run, validate_run(), model_build() and
 *     digest_agrees() decode nothing; digest_expand() decodes each record it restates once,
 *     as it seals it (as many decodes as records out). */
#define _GNU_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../report/digest.h"
#include "../../report/logread.h"
#include "../../report/model.h"
#include "../../report/validate.h"

static unsigned long calls, decoded;	/* every call; those that gave a record (REC_OK) */
static int expanded;	/* runs whose digest was expanded (the fixtures hold some) */

enum rec_status __real_rec_parse(const char *line, size_t len, struct record *r);
enum rec_status __real_rec_parse_body(const char *body, size_t len, struct record *r);

enum rec_status __wrap_rec_parse(const char *line, size_t len, struct record *r)
{
	enum rec_status st = __real_rec_parse(line, len, r);
	calls++;
	decoded += st == REC_OK;
	return st;
}

enum rec_status __wrap_rec_parse_body(const char *body, size_t len, struct record *r)
{
	enum rec_status st = __real_rec_parse_body(body, len, r);
	calls++;
	decoded += st == REC_OK;
	return st;
}

/* Append to buf the sealed record body at seq, on a line of its own. */
static void put(char *buf, uint64_t seq, const char *body)
{
	char line[REC_MAX];
	size_t n = rec_seal(line, sizeof line, seq, body, strlen(body));
	strncat(buf, line, n);
}

static void clean_log_decoded_once(void **st)
{
	(void)st;
	static char buf[1 << 16];
	static const char *const body[] = {
		"BEGIN run=0000000000000001 version=t mode=host",
		"TEST test=pipe k=1 n=1 copies=1 unit=lps better=higher title=Pipe",
		"SAMPLE test=pipe copies=1 i=0 loops=1000 ns=1000000000 value=1000.000",
		"SAMPLE test=pipe copies=1 i=1 loops=2000 ns=1000000000 value=2000.000",
		"RESULT test=pipe copies=1 unit=lps better=higher value=1500.000 samples=2",
		"END records=5 results=1 fails=0 skips=0 errors=0 status=ok",
	};
	const size_t n = sizeof body / sizeof body[0];
	struct log log;
	struct model m;

	buf[0] = 0;
	strcat(buf, "[    0.5] the kernel, no record here\n");
	for (size_t i = 0; i < n; i++) {
		put(buf, i + 1, body[i]);
		strcat(buf, "isobench: progress text between records\n");
	}
	FILE *f = fmemopen(buf, strlen(buf), "r");
	assert_non_null(f);
	calls = decoded = 0;
	assert_int_equal(log_read(f, &log), 0);
	fclose(f);
	assert_int_equal(log.nruns, 1);
	assert_true(log.runs[0].complete);	/* validated and judged: read, not parsed again */
	assert_int_equal(log.runs[0].nrecs, n);
	assert_int_equal(decoded, n);		/* each record line decoded once */
	calls = decoded = 0;
	char why[200];
	assert_int_equal(validate_run(&log.runs[0], why, sizeof why), 0);
	assert_int_equal(model_build(&log.runs[0], &m), 0);
	assert_int_equal(m.nrecs, n);
	assert_string_equal(rec_get(m.recs[2].r, RK_VALUE), "1000.000");
	model_free(&m);
	assert_int_equal(calls, 0);		/* nothing parsed again */
	log_free(&log);
}

/* One fixture log: what is done with its runs after reading decodes only what it restates. */
static void fixture(const char *path)
{
	FILE *f = fopen(path, "r");
	struct log log;
	char why[300];

	assert_non_null(f);
	assert_int_equal(log_read(f, &log), 0);
	fclose(f);
	for (size_t i = 0; i < log.nruns; i++) {
		struct model m;
		struct run x;
		calls = 0;
		validate_run(&log.runs[i], why, sizeof why);
		assert_int_equal(model_build(&log.runs[i], &m), 0);
		model_free(&m);
		if (calls)
			fail_msg("%s run %zu: %lu parses after reading", path, i + 1, calls);
		calls = decoded = 0;
		if (digest_expand(&log, i, &x, why, sizeof why) != 1)
			continue;
		if (calls != x.nrecs || decoded != x.nrecs)
			fail_msg("%s run %zu: its digest restates %zu records in %lu parses", path,
				 i + 1, x.nrecs, calls);
		expanded++;
		calls = 0;
		digest_agrees(&log.runs[i], &x, why, sizeof why);
		if (calls)
			fail_msg("%s run %zu: %lu parses comparing its digest", path, i + 1, calls);
		log_run_free(&x);
	}
	log_free(&log);
}

static void fixtures_decoded_once(void **st)
{
	(void)st;
	DIR *d = opendir(FIXTURE_LOGS);
	struct dirent *e;
	int logs = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char path[4096];
		if (l < 5 || strcmp(e->d_name + l - 4, ".log"))
			continue;
		snprintf(path, sizeof path, "%s/%s", FIXTURE_LOGS, e->d_name);
		fixture(path);
		logs++;
	}
	closedir(d);
	assert_true(logs >= 30);	/* the fixtures were found */
	assert_true(expanded >= 2);	/* and digests among them */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_log_decoded_once),
		cmocka_unit_test(fixtures_decoded_once),
	};
	return cmocka_run_group_tests_name("decode", tests, NULL, NULL);
}
