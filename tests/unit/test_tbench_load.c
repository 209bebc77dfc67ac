/* test_tbench_load.c — the tbench probe's load: dbench load-file parser (good lines, Debian's
 * real client.txt, malformed lines) and the synthetic generator's mix and determinism. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../payload/core/tbench_load.h"

#define CLIENT_TXT "/usr/share/dbench/client.txt"

static int parse(const char *line, struct tb_op *op, char *err)
{
	memset(op, 0xee, sizeof *op);
	err[0] = 0;
	return tb_parse_line(line, 7, op, err, 200);
}

static void good_lines(void **st)
{
	struct tb_op o;
	char err[200];

	(void)st;
	/* ReadX handle offset size ret: reply carries ret bytes, payload = ret. */
	assert_int_equal(parse("ReadX 10005 4096 4096 4096 NT_STATUS_OK", &o, err), 1);
	assert_int_equal(o.kind, TB_READX);
	assert_int_equal(o.req, 59);
	assert_int_equal(o.rep, 39 + 20 + 4096);
	assert_int_equal(o.payload, 4096);
	/* A short read: what comes back (and counts) is ret, not the size asked for. */
	assert_int_equal(parse("ReadX 10005 8192 4096 1000 NT_STATUS_OK", &o, err), 1);
	assert_int_equal(o.rep, 39 + 20 + 1000);
	assert_int_equal(o.payload, 1000);
	/* WriteX: request carries size bytes; hex numbers accepted. */
	assert_int_equal(parse("WriteX 9938 0x10 65536 65536 NT_STATUS_OK\n", &o, err), 1);
	assert_int_equal(o.kind, TB_WRITEX);
	assert_int_equal(o.req, 59 + 65536);
	assert_int_equal(o.rep, 55);
	assert_int_equal(o.payload, 65536);
	/* Paths: L = strlen + 1 (dbench's "." prefix). "\a\bc" has 5 characters. */
	assert_int_equal(parse("NTCreateX \"\\a\\bc\" 0x1 0x2 16385 NT_STATUS_OK", &o, err), 1);
	assert_int_equal(o.kind, TB_NTCREATEX);
	assert_int_equal(o.req, 70 + 2 + 2 * 6 + 2);
	assert_int_equal(o.rep, 87);
	assert_int_equal(o.payload, 0);
	assert_int_equal(parse("FIND_FIRST \"\\x\" 260 1366 11 NT_STATUS_OK", &o, err), 1);
	assert_int_equal(o.req, 39 + 20 + 2 * 3);
	assert_int_equal(o.rep, 39 + 90 * 11);
	assert_int_equal(parse("Rename \"\\ab\" \"\\cde\" NT_STATUS_OK", &o, err), 1);
	assert_int_equal(o.req, 39 + 8 + 2 * 4 + 2 * 5);
	assert_int_equal(parse("Close 16385 NT_STATUS_OK", &o, err), 1);
	assert_int_equal(o.kind, TB_CLOSE);
	assert_int_equal(o.req, 47);
	assert_int_equal(o.rep, 39);
	assert_int_equal(parse("QUERY_FILE_INFORMATION 9938 258 NT_STATUS_OK", &o, err), 1);
	assert_int_equal(o.kind, TB_QFILEINFO);
	assert_int_equal(parse("LockX 10430 2147483538 1 NT_STATUS_OK", &o, err), 1);
	assert_int_equal(o.kind, TB_LOCKX);
	assert_int_equal(o.req, 51);
	/* Other statuses and a 0x status are fine; a leading timestamp is skipped. */
	assert_int_equal(parse("Unlink \"\\f\" 0x6 NT_STATUS_OBJECT_NAME_NOT_FOUND", &o, err), 1);
	assert_int_equal(o.kind, TB_UNLINK);
	assert_int_equal(parse("0.125 Flush 10012 0x0", &o, err), 1);
	assert_int_equal(o.kind, TB_FLUSH);
	assert_int_equal(o.req, 41);
	/* Lines that make no exchange. */
	assert_int_equal(parse("", &o, err), 0);
	assert_int_equal(parse("   \t\r\n", &o, err), 0);
	assert_int_equal(parse("# a comment", &o, err), 0);
	assert_int_equal(parse("Deltree \"\\clients\\client1\" NT_STATUS_OK", &o, err), 0);
	assert_string_equal(err, "");
}

static void expect_error(const char *line, const char *want)
{
	struct tb_op o;
	char err[200];

	if (parse(line, &o, err) != -1 || !strstr(err, want)) {
		print_error("line '%s': got '%s', want it to contain '%s'\n", line, err, want);
		fail();
	}
	assert_true(strncmp(err, "line 7: ", 8) == 0);
}

static void malformed_lines(void **st)
{
	(void)st;
	expect_error("Bogus 1 2 NT_STATUS_OK", "unknown operation 'Bogus'");
	expect_error("\"quoted\" 1 NT_STATUS_OK", "unknown operation");
	expect_error("ReadX 1 2 NT_STATUS_OK", "ReadX: expected 0 paths and 4 numbers, got 2");
	expect_error("ReadX 1 2 3 4 5 NT_STATUS_OK", "got 5 fields");
	expect_error("NTCreateX \"\\a\" 0x1 NT_STATUS_OK", "NTCreateX: expected 1 path and 3");
	expect_error("ReadX 1 2 3 4", "ReadX: missing or bad status");
	expect_error("ReadX", "ReadX: missing or bad status");
	expect_error("Close 1 NT_OK", "missing or bad status");
	expect_error("ReadX 1 2 3 99999999999999999999999 NT_STATUS_OK", "too large");
	expect_error("Close 4294967296 NT_STATUS_OK", "too large");
	expect_error("Close 1234567890123456789012345678901234567890 NT_STATUS_OK", "too large");
	expect_error("ReadX 1 2 3 2000000 NT_STATUS_OK", "ReadX: size 2000000 exceeds");
	expect_error("WriteX 1 2 4000000000 1 NT_STATUS_OK", "WriteX: size 4000000000 exceeds");
	expect_error("FIND_FIRST \"\\a\" 260 1366 4000000 NT_STATUS_OK", "count 4000000 exceeds");
	expect_error("Close abc NT_STATUS_OK", "'abc' is not a number");
	expect_error("Close -5 NT_STATUS_OK", "'-5' is not a number");
	expect_error("Close 12x NT_STATUS_OK", "'12x' is not a number");
	expect_error("Unlink \\a 0x6 NT_STATUS_OK", "field 1 must be a quoted path");
	expect_error("Unlink \"\\a 0x6 NT_STATUS_OK", "unterminated quoted path");
	expect_error("1.5x Close 1 NT_STATUS_OK", "bad timestamp");
	expect_error("0.5", "timestamp without an operation");
	char line[TB_MAX_PATH + 64];
	strcpy(line, "Unlink \"");
	memset(line + 8, 'a', TB_MAX_PATH + 1);
	strcpy(line + 8 + TB_MAX_PATH + 1, "\" 0x6 NT_STATUS_OK");
	expect_error(line, "Unlink: path longer than 1000 characters");
	line[8 + TB_MAX_PATH] = '"';	/* exactly TB_MAX_PATH characters: fine */
	line[8 + TB_MAX_PATH + 1] = ' ';
	struct tb_op o;
	char err[200];
	assert_int_equal(parse(line, &o, err), 1);
	expect_error("Close 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 NT_STATUS_OK",
		     "more than 24 fields");
}

/* A stream: the error names the right line; an over-long line is an error, not a crash. */
static void stream_errors(void **st)
{
	struct tb_load ld = {0};
	char err[200];
	const char *text = "# header\nClose 1 NT_STATUS_OK\n\nReadX 1 0 4096 NT_STATUS_OK\n";
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	(void)st;
	assert_non_null(f);
	assert_int_equal(tb_load_stream(f, &ld, err, sizeof err), -1);
	assert_string_equal(err, "line 4: ReadX: expected 0 paths and 4 numbers, got 3 fields");
	fclose(f);
	tb_load_free(&ld);

	size_t big = TB_LINE_MAX + 100;
	char *longline = malloc(big + 64);
	assert_non_null(longline);
	strcpy(longline, "Close 1 NT_STATUS_OK\nClose ");
	memset(longline + strlen(longline), '1', big);
	strcpy(longline + 27 + big, " NT_STATUS_OK\n");
	f = fmemopen(longline, strlen(longline), "r");
	assert_int_equal(tb_load_stream(f, &ld, err, sizeof err), -1);
	assert_non_null(strstr(err, "line 2: longer than"));
	fclose(f);
	tb_load_free(&ld);
	free(longline);

	/* Only metadata: no payload to measure MB/s by. */
	text = "Close 1 NT_STATUS_OK\n";
	f = fmemopen((void *)text, strlen(text), "r");
	assert_int_equal(tb_load_stream(f, &ld, err, sizeof err), -1);
	assert_non_null(strstr(err, "no ReadX/WriteX payload"));
	fclose(f);
	tb_load_free(&ld);
	text = "# nothing\n";
	f = fmemopen((void *)text, strlen(text), "r");
	assert_int_equal(tb_load_stream(f, &ld, err, sizeof err), -1);
	assert_non_null(strstr(err, "no operations"));
	fclose(f);
	tb_load_free(&ld);

	assert_int_equal(tb_load_file("/nonexistent/client.txt", &ld, err, sizeof err), -1);
	assert_non_null(strstr(err, "/nonexistent/client.txt: "));
}

/* Debian's client.txt: every line parses; totals match what awk counts in it. */
static void real_client_txt(void **st)
{
	struct tb_load ld = {0};
	char err[200] = "";
	size_t count[TB_NKINDS] = {0};

	(void)st;
	if (access(CLIENT_TXT, R_OK)) {
		print_message("SKIP: %s absent (Debian package dbench)\n", CLIENT_TXT);
		skip();
	}
	if (tb_load_file(CLIENT_TXT, &ld, err, sizeof err)) {
		print_error("%s\n", err);
		fail();
	}
	for (size_t i = 0; i < ld.n; i++) {
		count[ld.ops[i].kind]++;
		assert_true(ld.ops[i].req >= TB_HDR);
		assert_true(ld.ops[i].rep >= 4);
	}
	/* dbench 4.0-2.1: 458,344 lines; the 2 Deltree make no exchange, the 1 Mkdir does. */
	assert_int_equal(ld.n, 458342);
	assert_int_equal(count[TB_READX], 124199);
	assert_int_equal(count[TB_WRITEX], 39502);
	assert_int_equal(count[TB_NTCREATEX], 79230);
	assert_int_equal(count[TB_DELTREE], 0);
	assert_int_equal(count[TB_MKDIR], 1);
	assert_true(ld.read_bytes == 1472088767ull);
	assert_true(ld.write_bytes == 1015974170ull);
	tb_load_free(&ld);
}

struct want {
	int kind;
	double pct;
};

static void synthetic_mix(void **st)
{
	struct tb_load ld = {0};
	size_t count[TB_NKINDS] = {0}, n = 100000, w1 = 0, r4k = 0, r60k = 0, w64k = 0;
	static const struct want want[] = {
		{TB_READX, 27.1}, {TB_NTCREATEX, 17.3}, {TB_QPATHINFO, 15.7}, {TB_CLOSE, 12.7},
		{TB_WRITEX, 8.6}, {TB_FINDFIRST, 6.1}, {TB_UNLINK, 3.5}, {TB_QFSINFO, 2.9},
		{TB_QFILEINFO, 2.7}, {TB_SFILEINFO, 1.4}, {TB_FLUSH, 1.2}, {TB_RENAME, 0.7},
	};

	(void)st;
	assert_int_equal(tb_synth(42, n, &ld), 0);
	assert_int_equal(ld.n, n);
	for (size_t i = 0; i < n; i++) {
		const struct tb_op *o = &ld.ops[i];
		count[o->kind]++;
		if (o->kind == TB_WRITEX) {
			w1 += o->payload == 1;
			w64k += o->payload == 65536;
			assert_int_equal(o->req, 59 + o->payload);
		}
		if (o->kind == TB_READX) {
			r4k += o->payload == 4096;
			r60k += o->payload == 61440;
			assert_int_equal(o->rep, 59 + o->payload);
		}
		assert_true(o->req >= TB_HDR);
		assert_true(o->rep >= 4);
	}
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		double got = 100.0 * (double)count[want[i].kind] / (double)n;
		if (got < want[i].pct - 0.5 || got > want[i].pct + 0.5) {
			print_error("%s: %.2f%%, documented %.1f%%\n", tb_kind_name(want[i].kind),
				    got, want[i].pct);
			fail();
		}
	}
	/* Writes: a fifth 1 byte, mostly 64 KiB and 4 KiB; reads mostly 4 KiB and 60 KiB. */
	double wn = (double)count[TB_WRITEX], rn = (double)count[TB_READX];
	assert_true(w1 / wn > 0.17 && w1 / wn < 0.21);
	assert_true(w64k / wn > 0.30 && w64k / wn < 0.345);
	assert_true(r4k / rn > 0.65 && r4k / rn < 0.69);
	assert_true(r60k / rn > 0.12 && r60k / rn < 0.15);
	/* By bytes ~59% read, ~41% written. */
	double rshare = (double)ld.read_bytes / (double)(ld.read_bytes + ld.write_bytes);
	if (rshare < 0.56 || rshare > 0.62) {
		print_error("read share of payload %.3f, documented ~0.59\n", rshare);
		fail();
	}
	tb_load_free(&ld);
}

static void synthetic_deterministic(void **st)
{
	struct tb_load a = {0}, b = {0}, c = {0};

	(void)st;
	assert_int_equal(tb_synth(7, 5000, &a), 0);
	assert_int_equal(tb_synth(7, 5000, &b), 0);
	assert_int_equal(tb_synth(8, 5000, &c), 0);
	assert_memory_equal(a.ops, b.ops, 5000 * sizeof *a.ops);
	assert_true(a.read_bytes == b.read_bytes && a.write_bytes == b.write_bytes);
	assert_memory_not_equal(a.ops, c.ops, 5000 * sizeof *a.ops);
	/* tb_synth_op from the same state continues the same sequence. */
	uint64_t rng = 7;
	for (int i = 0; i < 100; i++) {
		struct tb_op o = tb_synth_op(&rng);
		assert_memory_equal(&o, &a.ops[i], sizeof o);
	}
	tb_load_free(&a);
	tb_load_free(&b);
	tb_load_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_lines),
		cmocka_unit_test(malformed_lines),
		cmocka_unit_test(stream_errors),
		cmocka_unit_test(real_client_txt),
		cmocka_unit_test(synthetic_mix),
		cmocka_unit_test(synthetic_deterministic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
