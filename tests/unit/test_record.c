/* test_record.c — the record grammar (docs/records.md): writer, parser, checksum.
 * The CRC-32 is checked against zlib's crc32(), the reference the grammar names. */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "crc32.h"
#include "record.h"

static void crc_matches_zlib(void **st)
{
	(void)st;
	const char *v[] = {"", "a", "123456789", "@isobench/1 1 BEGIN run=0 version=x mode=host"};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		assert_int_equal(crc32_ieee(v[i], strlen(v[i])),
				 (uint32_t)crc32(0, (const Bytef *)v[i], (uInt)strlen(v[i])));
	/* The standard check value of CRC-32/ISO-HDLC. */
	assert_int_equal(crc32_ieee("123456789", 9), 0xCBF43926u);
	unsigned char buf[4096];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 131 + 7);
	assert_int_equal(crc32_ieee(buf, sizeof buf), (uint32_t)crc32(0, buf, sizeof buf));
}

static void seal_exact_bytes(void **st)
{
	(void)st;
	struct rec_body b;
	char line[REC_MAX], want[256];
	rec_begin(&b, "TEST");
	rec_str(&b, "test", "pipe");
	rec_u64(&b, "k", 3);
	size_t n = rec_seal(line, sizeof line, 7, b.buf, b.len);
	const char *body = "@isobench/1 7 TEST test=pipe k=3";
	snprintf(want, sizeof want, "%s *%08x\n", body,
		 (unsigned)crc32(0, (const Bytef *)body, (uInt)strlen(body)));
	assert_string_equal(line, want);
	assert_int_equal(n, strlen(want));
}

static void encoding_round_trip(void **st)
{
	(void)st;
	struct rec_body b;
	struct record r;
	char line[REC_MAX];
	const char *nasty = "Intel(R) Xeon(R) 100% \"fast\"\tCPU @ 2.1GHz \xc3\xa9";
	rec_begin(&b, "INFO");
	rec_str(&b, "cpu.model", nasty);
	rec_str(&b, "empty", "");
	size_t n = rec_seal(line, sizeof line, 2, b.buf, b.len);
	assert_non_null(strstr(line, "cpu.model=Intel(R)%20Xeon(R)%20100%25%20"));
	assert_int_equal(rec_parse(line, n, &r), REC_OK);
	assert_int_equal(r.seq, 2);
	assert_string_equal(r.kind, "INFO");
	assert_string_equal(rec_get(&r, "cpu.model"), nasty);
	assert_string_equal(rec_get(&r, "empty"), "-");
	assert_null(rec_get(&r, "absent"));
}

static void noise_and_line_ends(void **st)
{
	(void)st;
	struct rec_body b;
	struct record r;
	char line[REC_MAX], noisy[REC_MAX + 64];
	rec_begin(&b, "END");
	rec_u64(&b, "records", 41);
	rec_seal(line, sizeof line, 42, b.buf, b.len);
	line[strlen(line) - 1] = 0;
	snprintf(noisy, sizeof noisy, "[    2.0] random: crng init done%s\r\n", line);
	assert_int_equal(rec_parse(noisy, strlen(noisy), &r), REC_OK);
	assert_int_equal(r.seq, 42);
	assert_string_equal(rec_get(&r, "records"), "41");
	assert_int_equal(rec_parse("plain kernel text\n", 18, &r), REC_NONE);
}

static void damage_is_detected(void **st)
{
	(void)st;
	struct rec_body b;
	struct record r;
	char line[REC_MAX];
	rec_begin(&b, "SAMPLE");
	rec_str(&b, "test", "pipe");
	rec_u64(&b, "loops", 8585);
	size_t n = rec_seal(line, sizeof line, 12, b.buf, b.len);
	assert_int_equal(rec_parse(line, n, &r), REC_OK);
	/* Every single-byte change inside the record is caught. */
	for (size_t i = 0; i < n - 1; i++) {
		char copy[REC_MAX];
		memcpy(copy, line, n);
		copy[i] ^= 0x01;
		enum rec_status s = rec_parse(copy, n, &r);
		assert_true(s == REC_BAD_CRC || s == REC_BAD_SYNTAX || s == REC_NONE);
	}
	/* A cut line is damaged, not misread. */
	assert_int_equal(rec_parse(line, n / 2, &r), REC_BAD_SYNTAX);
}

static void syntax_rules(void **st)
{
	(void)st;
	struct record r;
	char line[256];
	const char *bad[] = {
		"@isobench/1 3 BOGUS a=1",	/* unknown kind */
		"@isobench/1 3 INFO a",		/* no = */
		"@isobench/1 3 INFO A=1",	/* key charset */
		"@isobench/1 3 INFO a=1 a=2",	/* duplicate key */
		"@isobench/1 3 INFO a=%zz",	/* bad escape */
		"@isobench/1 x INFO a=1",	/* seq not a number */
		"@isobench/1 18446744073709551616 INFO a=1",	/* seq past 64 bits */
		"@isobench/1 -3 INFO a=1",	/* seq negative */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(line, sizeof line, "%s *%08x", bad[i],
			 (unsigned)crc32(0, (const Bytef *)bad[i], (uInt)strlen(bad[i])));
		assert_int_equal(rec_parse(line, strlen(line), &r), REC_BAD_SYNTAX);
	}
	assert_int_equal(rec_parse_body("RESULT test=pipe value=1.5", 26, &r), REC_OK);
	assert_string_equal(rec_get(&r, "value"), "1.5");
	assert_int_equal(rec_parse_body("RESULT test=pipe\nX", 18, &r), REC_BAD_SYNTAX);
}

/* The typed reads: lib/num.h's strict rules, and what each error says. */
static void typed_values(void **st)
{
	(void)st;
	struct record r;
	const char *body = "RESULT test=pipe value=1.5 samples=12 neg=-3 bad=1.5x big=1e999 "
			   "hex=0x10 wide=18446744073709551616";
	double d = 9;
	unsigned long long u = 9;
	long long l = 9;
	assert_int_equal(rec_parse_body(body, strlen(body), &r), REC_OK);
	assert_int_equal(rec_get_dbl(&r, "value", &d), 0);
	assert_true(d == 1.5);
	assert_int_equal(rec_get_ull(&r, "samples", 1, 100, &u), 0);
	assert_int_equal(u, 12);
	assert_int_equal(rec_get_ll(&r, "neg", -10, 10, &l), 0);
	assert_int_equal(l, -3);
	assert_int_equal(rec_get_dbl(&r, "absent", &d), -ENOENT);
	assert_int_equal(rec_get_dbl(&r, "bad", &d), -EINVAL);
	assert_int_equal(rec_get_dbl(&r, "hex", &d), -EINVAL);
	assert_int_equal(rec_get_dbl(&r, "big", &d), -ERANGE);
	assert_true(d == 1.5);
	assert_int_equal(rec_get_ull(&r, "samples", 13, 100, &u), -ERANGE);
	assert_int_equal(rec_get_ull(&r, "neg", 0, 100, &u), -EINVAL);
	assert_int_equal(rec_get_ull(&r, "wide", 0, ULLONG_MAX, &u), -EINVAL);
	assert_int_equal(rec_get_ull(&r, "value", 0, 100, &u), -EINVAL);
	assert_int_equal(u, 12);
	assert_int_equal(rec_get_ll(&r, "absent", 0, 1, &l), -ENOENT);
	assert_int_equal(l, -3);
}

/* A record kept (rec_keep()): the same kind, seq and fields as the line decoded, its sealed
 * bytes as given, read by the same rec_get*(), at about its own size. */
static void kept_record(void **st)
{
	(void)st;
	static struct record r;
	char line[REC_MAX];
	const char *body = "SAMPLE test=pipe copies=1 i=3 note=a%20b%25 value=1.5";
	size_t n = rec_seal(line, sizeof line, 42, body, strlen(body));
	double d = 0;
	unsigned long long u = 0;
	long long l = 0;

	assert_int_equal(rec_parse(line, n, &r), REC_OK);
	struct rec_kept *k = rec_keep(&r, line, n - 1);	/* without the newline */
	assert_non_null(k);
	/* Its size: the fields and the line, not a struct record's REC_MAX room. */
	assert_true(malloc_usable_size(k) < sizeof(struct rec_kept) + 8 * 16 + 2 * n + 32);
	memset(&r, 0xa5, sizeof r);	/* the line's room reused: k is its own */
	assert_int_equal(k->seq, 42);
	assert_string_equal(k->kind, "SAMPLE");
	assert_int_equal(k->nfields, 5);
	assert_string_equal(k->key[3], "note");
	assert_string_equal(k->val[3], "a b%");	/* decoded */
	assert_string_equal(rec_get(k, "test"), "pipe");
	assert_null(rec_get(k, "absent"));
	assert_int_equal(k->line_len, n - 1);
	assert_memory_equal(k->line, line, n - 1);
	assert_int_equal(k->line[n - 1], 0);
	assert_int_equal(rec_get_dbl(k, "value", &d), 0);
	assert_true(d == 1.5);
	assert_int_equal(rec_get_ull(k, "copies", 1, 1000, &u), 0);
	assert_int_equal(u, 1);
	assert_int_equal(rec_get_ll(k, "i", 0, 2, &l), -ERANGE);
	assert_int_equal(rec_get_dbl(k, "note", &d), -EINVAL);
	assert_int_equal(rec_get_dbl(k, "absent", &d), -ENOENT);
	free(k);
	/* Without its line. */
	assert_int_equal(rec_parse_body(body, strlen(body), &r), REC_OK);
	assert_non_null(k = rec_keep(&r, NULL, 0));
	assert_null(k->line);
	assert_string_equal(rec_get(k, "i"), "3");
	free(k);
}

static void overflow_drops_fields(void **st)
{
	(void)st;
	struct rec_body b;
	static char big[REC_MAX];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = 0;
	rec_begin(&b, "INFO");
	rec_str(&b, "small", "1");
	rec_str(&b, "huge", big);
	assert_int_equal(b.dropped, 1);
	assert_true(b.len < sizeof b.buf);
	assert_non_null(strstr(b.buf, "small=1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crc_matches_zlib),
		cmocka_unit_test(seal_exact_bytes),
		cmocka_unit_test(encoding_round_trip),
		cmocka_unit_test(noise_and_line_ends),
		cmocka_unit_test(damage_is_detected),
		cmocka_unit_test(syntax_rules),
		cmocka_unit_test(typed_values),
		cmocka_unit_test(kept_record),
		cmocka_unit_test(overflow_drops_fields),
	};
	return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
