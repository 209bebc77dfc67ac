/* test_logread.c — judging logs: complete runs, lost and damaged records, END counts,
 * several boots in one file, and the noise real captures carry (CRLF, ANSI, kernel text, NUL,
 * 0xFF, lone CR, backspace, XON/XOFF, long garbage), replayed runs (isobench.replay=1). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../report/logread.h"
#include "crc32.h"

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
	put(buf, 1, "BEGIN run=0000000000000000 version=t mode=host", "", eol);
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
	put(buf, 1, "BEGIN run=0000000000000000 version=t mode=host", "\x1b[2J\x1b[0;37m", "\r\n");
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
	put(buf, 1, "BEGIN run=0000000000000000 version=t mode=host", "", "\n");
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
	put(buf, 1, "BEGIN run=0000000000000001 version=t mode=init", "", "\n");
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

static void read_mem(const char *s, size_t len, struct log *log)
{
	FILE *f = fmemopen((void *)s, len, "r");
	assert_non_null(f);
	assert_int_equal(log_read(f, log), 0);
	fclose(f);
}

/* The capture from issue 11: lines 2-4 begin with one NUL byte, the records intact. */
static void nul_bytes(void **st)
{
	(void)st;
	static char buf[65536];
	struct log log;
	size_t len = 0;
	const char *body[] = {"BEGIN run=0000000000000000 version=t mode=host",
			      "TEST test=pipe k=1 n=1 copies=1 unit=lps title=Pipe",
			      "RESULT test=pipe copies=1 unit=lps value=5 samples=1",
			      "END records=3 results=1 fails=0 skips=0 errors=0 status=ok"};
	for (int i = 0; i < 4; i++) {
		char line[REC_MAX];
		size_t n = rec_seal(line, sizeof line, (uint64_t)i + 1, body[i], strlen(body[i]));
		if (i > 0)
			buf[len++] = 0;
		memcpy(buf + len, line, n);
		len += n;
	}
	read_mem(buf, len, &log);
	assert_int_equal(log.ndamage, 0);
	assert_int_equal(log.nruns, 1);
	assert_true(log.runs[0].complete);
	assert_int_equal(log.runs[0].nrecs, 4);
	log_free(&log);
}

/* Every kind of noise before and after every record (on the same line) hides nothing. */
static void noise_never_hides(void **st)
{
	(void)st;
	static char buf[1 << 20], garbage[2048];
	static const char *const noise[] = {
		"\x00", "\xff\xff", "\r", "junk\b\b\b\b", "\x11", "\x13", "\x1b[", "\x1b[0;37m",
		"\x1b[2J\x1b[H", "\x1b]0;title\x07", "\x1b", "\xfe\xfd\x80", "garbage", "\t",
		"@isobench/1 ", "@isobench/1 9 RESULT x *0", garbage,
	};
	unsigned x = 12345;
	for (size_t i = 0; i < sizeof garbage - 1; i++) {
		x = x * 1103515245u + 12345u;
		garbage[i] = (char)((x >> 16) % 255 + 1);	/* any byte but NUL */
		if (garbage[i] == '\n' || garbage[i] == '@')
			garbage[i] = '.';
	}
	for (size_t k = 0; k < sizeof noise / sizeof noise[0]; k++) {
		const char *nz = noise[k];
		size_t nl = k == 0 ? 1 : strlen(nz);
		const char *body[] = {"BEGIN run=0000000000000000 version=t mode=host",
				      "TEST test=pipe k=1 n=1 copies=1 unit=lps title=Pipe",
				      "RESULT test=pipe copies=1 unit=lps value=5 samples=1",
				      "END records=3 results=1 fails=0 skips=0 errors=0 status=ok"};
		size_t len = 0;
		struct log log;
		for (int i = 0; i < 4; i++) {
			char line[REC_MAX];
			size_t n = rec_seal(line, sizeof line, (uint64_t)i + 1, body[i],
					    strlen(body[i]));
			memcpy(buf + len, nz, nl), len += nl;	/* before, same line */
			memcpy(buf + len, line, n - 1), len += n - 1;
			if (nz[0] != '@')	/* after the checksum, same line */
				memcpy(buf + len, nz, nl), len += nl;
			buf[len++] = '\r';
			buf[len++] = '\n';
			memcpy(buf + len, nz, nl), len += nl;	/* a line of its own */
			buf[len++] = '\n';
		}
		read_mem(buf, len, &log);
		if (log.nruns != 1)
			fail_msg("noise %zu: %zu runs", k, log.nruns);
		/* A tag in the noise is a damaged record: reported, and it makes the run
		 * doubtful, but it hides none of the good records around it. */
		if (!log.runs[0].complete && nz[0] != '@')
			fail_msg("noise %zu hid a record: %s", k, log.runs[0].why);
		assert_int_equal(log.runs[0].nrecs, 4);
		log_free(&log);
	}
}

/* Noise inside a record damages it: it is reported and never used. */
static void noise_inside_damages(void **st)
{
	(void)st;
	static const char ins[] = {0, '\r', '\b', 0x11, (char)0xff, 0x1b};
	for (size_t k = 0; k < sizeof ins; k++) {
		char buf[4096], line[REC_MAX];
		const char *body = "RESULT test=pipe copies=1 unit=lps value=5 samples=1";
		size_t n = rec_seal(line, sizeof line, 1, body, strlen(body)), len = 0;
		struct log log;
		memcpy(buf, line, 30);
		len = 30;
		buf[len++] = ins[k];
		memcpy(buf + len, line + 30, n - 30);
		len += n - 30;
		read_mem(buf, len, &log);
		assert_int_equal(log.nruns, 0);	/* the value=5 record is not in any run */
		assert_true(log.ndamage >= 1);
		log_free(&log);
	}
}

/* isobench.replay=1: the run sent twice is one run; a cut first copy yields to the replay. */
static void replay(void **st)
{
	(void)st;
	static char buf[65536], cut[65536];
	struct log log;
	buf[0] = 0;
	good_run(buf, "\r\n");
	strcat(buf, "isobench: replay of the run's records follows\r\n");
	good_run(buf, "\r\n");
	read_str(buf, &log);
	assert_int_equal(log.nruns, 1);
	assert_true(log.runs[0].complete);
	assert_int_equal(log.runs[0].copies, 2);
	assert_int_equal(log.ndamage, 0);
	log_free(&log);
	/* The capture started late: only records 3-4 of the first copy, then the replay. */
	cut[0] = 0;
	put(cut, 3, "RESULT test=pipe copies=1 unit=lps value=5 samples=1", "", "\n");
	put(cut, 4, "END records=3 results=1 fails=0 skips=0 errors=0 status=ok", "", "\n");
	good_run(cut, "\n");
	read_str(cut, &log);
	assert_int_equal(log.nruns, 1);
	assert_true(log.runs[0].complete);
	assert_int_equal(log.runs[0].nrecs, 4);
	log_free(&log);
	/* The first copy was cut at its end (power-off on a slow line) and the replay too:
	 * one incomplete run, never a "second boot". */
	cut[0] = 0;
	put(cut, 1, "BEGIN run=0000000000000000 version=t mode=host", "", "\n");
	put(cut, 2, "TEST test=pipe k=1 n=1 copies=1 unit=lps title=Pipe", "", "\n");
	put(cut, 1, "BEGIN run=0000000000000000 version=t mode=host", "", "\n");
	read_str(cut, &log);
	assert_int_equal(log.nruns, 1);
	assert_false(log.runs[0].complete);
	log_free(&log);
}

/* A head-cut log of a digest (docs/records.md "The digest"): DIGEST bodies from seq, sealed,
 * then part=end with their count and CRC-32 (crc_ok 0: a wrong one), then END (results=, one skip). */
static void digest_log(char *buf, uint64_t seq, const char *const *bodies, int n, int crc_ok,
		       int results)
{
	static char lines[65536];
	char line[REC_MAX], end[200];

	lines[0] = 0;
	for (int i = 0; i < n; i++) {
		size_t k = rec_seal(line, sizeof line, seq + (uint64_t)i, bodies[i], strlen(bodies[i]));
		strncat(lines, line, k);
	}
	strcat(buf, "...the last bytes of a SAMPLE line, its start cut\n");
	strcat(buf, lines);
	snprintf(end, sizeof end, "DIGEST part=end lines=%d crc=%08x", n,
		 crc32_ieee(lines, strlen(lines)) ^ (crc_ok ? 0u : 1u));
	put(buf, seq + (uint64_t)n, end, "", "\n");
	snprintf(end, sizeof end, "END records=%llu results=%d fails=0 skips=1 errors=0 status=ok",
		 (unsigned long long)(seq + (uint64_t)n), results);
	put(buf, seq + (uint64_t)n + 1, end, "", "\n");
}

/* A log whose head is cut is read from its digest when the digest is whole and consistent,
 * and is incomplete, saying why, when it is not (report/digest.c). */
static void digest(void **st)
{
	static char buf[65536];
	static const char *const ok[] = {
		"DIGEST part=begin run=0123456789abcdef version=t mode=host",
		"DIGEST part=info run.suite=quick cpu.online=2",
		"DIGEST part=test test=pipe title=Pipe unit=lps better=higher group=index "
		"baseline=12440.0 copies=1,2 value=5.000,- samples=3,- median=5.000,- "
		"ci95_pct=1.00,- converged=1,- stop=target,- index=0.004,-",
		"DIGEST part=skip test=pipe copies=2 reason=no%20reason",
	};
	const char *bad[4] = {ok[0], ok[1], "DIGEST part=test test=pipe title=Pipe unit=lps "
			      "better=higher group=index copies=1,2 value=5.000", ok[3]};
	struct log log;
	(void)st;

	buf[0] = 0;
	digest_log(buf, 900, ok, 4, 1, 1);
	read_str(buf, &log);
	assert_int_equal(log.nruns, 1);
	if (!log.runs[0].complete)
		fail_msg("not read from its digest: %s", log.runs[0].why);
	assert_true(log.runs[0].from_digest);
	assert_int_equal(log.runs[0].results, 1);
	assert_int_equal(log.runs[0].skips, 1);
	assert_int_equal(log.runs[0].recs[0].r->seq, 1);	/* BEGIN, restated */
	log_free(&log);

	buf[0] = 0;	/* the same with a wrong CRC in part=end */
	digest_log(buf, 900, ok, 4, 0, 1);
	read_str(buf, &log);
	assert_false(log.runs[0].complete);
	assert_non_null(strstr(log.runs[0].why, "the digest is damaged: part=end says lines=4"));
	log_free(&log);

	buf[0] = 0;	/* END counts a RESULT the digest does not restate */
	digest_log(buf, 900, ok, 4, 1, 2);
	read_str(buf, &log);
	assert_false(log.runs[0].complete);
	assert_non_null(strstr(log.runs[0].why, "END says results=2, the log holds 1"));
	log_free(&log);

	buf[0] = 0;	/* a list with one entry for two passes */
	digest_log(buf, 900, bad, 4, 1, 1);
	read_str(buf, &log);
	assert_false(log.runs[0].complete);
	assert_non_null(strstr(log.runs[0].why, "value= has 1 entries for 2 passes"));
	log_free(&log);

	buf[0] = 0;	/* the log starts at its second digest line */
	digest_log(buf, 900, ok + 1, 3, 1, 1);
	read_str(buf, &log);
	assert_false(log.runs[0].complete);
	assert_non_null(strstr(log.runs[0].why, "the digest is cut: the log starts inside it"));
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
		cmocka_unit_test(nul_bytes),
		cmocka_unit_test(noise_never_hides),
		cmocka_unit_test(noise_inside_damages),
		cmocka_unit_test(replay),
		cmocka_unit_test(digest),
	};
	return cmocka_run_group_tests_name("logread", tests, NULL, NULL);
}
