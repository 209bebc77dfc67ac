/* test_vocab.c — lib/vocab.h's table (docs/records.md "Key types"): the derived names and
 * kind list, the lookup vocab_key() a validator uses, the value check and the filling of
 * names with '*'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "record.h"
#include "vocab.h"

static void names_are_derived(void **st)
{
	(void)st;
	assert_string_equal(RK_BEGIN, "BEGIN");
	assert_string_equal(RK_WARN, "WARN");
	assert_string_equal(RK_TESTNAME, "test");
	assert_string_equal(RK_DROPPED, "dropped_fields");
	assert_string_equal(RK_CONSOLE_USED, "console.used");
	assert_string_equal(vocab_key_names[VKEY_CI95], "ci95_pct");
	assert_string_equal(vocab_kind_names[VK_ANY], "*");
}

/* The reader's kind list is the table's: the eleven kinds of docs/records.md, nothing else. */
static void kinds(void **st)
{
	static const char *const doc[] = {"BEGIN", "INFO", "ERROR", "TEST", "SAMPLE",
					  "WARN", "RESULT", "SKIP", "FAIL", "DIGEST", "END"};
	(void)st;
	assert_int_equal(VK_COUNT, 11);
	for (int i = 0; i < 11; i++) {
		assert_int_equal(vocab_kind(doc[i]), i);
		assert_true(rec_kind_known(doc[i]));
	}
	assert_int_equal(vocab_kind("begin"), -1);
	assert_int_equal(vocab_kind("*"), -1);
	assert_int_equal(vocab_kind("BEGINS"), -1);
	assert_false(rec_kind_known("NOTE"));
}

static int name_ok(const char *k)
{
	if (!strcmp(k, "*"))
		return 1;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') || *k == '_' ||
		      *k == '.' || *k == '*'))
			return 0;
	return 1;
}

/* Every key has a row, every row's (kind, key) is unique, every name is a grammar key. */
static void table_is_consistent(void **st)
{
	(void)st;
	for (int k = 0; k < VKEY_COUNT; k++) {
		int rows = 0;
		for (size_t i = 0; i < vocab_nfields; i++)
			rows += vocab_fields[i].key == (enum vocab_key_id)k;
		assert_true(rows > 0);
		assert_true(name_ok(vocab_key_names[k]));
	}
	for (size_t i = 0; i < vocab_nfields; i++) {
		const struct vocab_field *f = &vocab_fields[i];
		for (size_t j = i + 1; j < vocab_nfields; j++)
			assert_false(vocab_fields[j].kind == f->kind && vocab_fields[j].key == f->key);
		assert_true(f->type != VT_ENUM || (f->values && *f->values));
		assert_true(f->type != VT_HEX || (f->lo > 0 && f->lo <= f->hi));
	}
}

static void lookup(void **st)
{
	const struct vocab_field *f;
	(void)st;
	f = vocab_key("BEGIN", "run");
	assert_non_null(f);
	assert_int_equal(f->type, VT_HEX);
	assert_int_equal(f->lo, 16);
	assert_int_equal(f->presence, VP_REQ);
	/* value is a decimal in RESULT and SAMPLE, the rejected text in ERROR. */
	assert_int_equal(vocab_key("RESULT", "value")->type, VT_POS);
	assert_int_equal(vocab_key("SAMPLE", "value")->type, VT_NONNEG);
	assert_int_equal(vocab_key("ERROR", "value")->type, VT_STR);
	assert_int_equal(vocab_key("ERROR", "value")->presence, VP_OPT);
	assert_int_equal(vocab_key("END", "status")->type, VT_ENUM);
	assert_int_equal(vocab_key("FAIL", "status")->type, VT_INT);
	assert_int_equal(vocab_key("SAMPLE", "warmup")->presence, VP_ONE);
	/* Names with '*': a SAMPLE's extras, vuln.<file>, exec.<test>.<what>. */
	assert_int_equal(vocab_key("SAMPLE", "p50_late_ns")->key, VKEY_EXTRA);
	assert_int_equal(vocab_key("SAMPLE", "p50_late_ns")->type, VT_INT);
	assert_int_equal(vocab_key("SAMPLE", "loops")->key, VKEY_LOOPS);	/* exact first */
	assert_null(vocab_key("SAMPLE", "p50.late"));
	assert_null(vocab_key("RESULT", "p50_late_ns"));
	assert_int_equal(vocab_key("INFO", "vuln.spectre_v2")->key, VKEY_VULN_NAME);
	assert_int_equal(vocab_key("INFO", "vuln")->key, VKEY_VULN);
	assert_null(vocab_key("INFO", "vuln."));
	assert_int_equal(vocab_key("INFO", "exec.spawn.bytes")->key, VKEY_EXEC_BYTES);
	assert_int_equal(vocab_key("INFO", "exec.shell.tools")->key, VKEY_EXEC_SHELL_TOOLS);
	assert_null(vocab_key("INFO", "exec.a.b.path"));
	/* dropped_fields: any kind. */
	assert_int_equal(vocab_key("TEST", "dropped_fields")->kind, VK_ANY);
	assert_int_equal(vocab_key("SAMPLE", "dropped_fields")->key, VKEY_DROPPED);
	assert_null(vocab_key("BEGIN", "nonsense"));
	assert_null(vocab_key("NOPE", "run"));
	assert_null(vocab_key("INFO", "fs.tmp"));
	assert_null(vocab_key("BEGIN", "test"));
}

static void values(void **st)
{
	(void)st;
	const struct vocab_field *run = vocab_key("BEGIN", "run"), *k = vocab_key("TEST", "k"),
				 *better = vocab_key("TEST", "better"),
				 *cpus = vocab_key("SAMPLE", "cpus"),
				 *loops = vocab_key("SAMPLE", "loops"),
				 *median = vocab_key("RESULT", "median"),
				 *sig = vocab_key("FAIL", "signal"),
				 *crc = vocab_key("INFO", "kernel.config_crc32"),
				 *copies = vocab_key("INFO", "run.copies");
	assert_true(vocab_value_ok(run, "0123456789abcdef"));
	assert_false(vocab_value_ok(run, "0123456789ABCDEF"));
	assert_false(vocab_value_ok(run, "0123456789abcde"));
	assert_false(vocab_value_ok(run, "-"));
	assert_true(vocab_value_ok(k, "1"));
	assert_true(vocab_value_ok(k, "18446744073709551615"));
	assert_false(vocab_value_ok(k, "18446744073709551616"));
	assert_false(vocab_value_ok(k, "0"));
	assert_false(vocab_value_ok(k, "-1"));
	assert_false(vocab_value_ok(k, "1x"));
	assert_false(vocab_value_ok(k, ""));
	assert_true(vocab_value_ok(better, REC_BETTER_HIGHER));
	assert_true(vocab_value_ok(better, REC_BETTER_LOWER));
	assert_false(vocab_value_ok(better, "high"));
	assert_false(vocab_value_ok(better, "higherx"));
	assert_true(vocab_value_ok(cpus, "0+1,3"));
	assert_true(vocab_value_ok(cpus, "-,0"));
	assert_false(vocab_value_ok(cpus, "0++1"));
	assert_false(vocab_value_ok(cpus, "0,"));
	assert_false(vocab_value_ok(cpus, "a"));
	assert_true(vocab_value_ok(loops, "62725,0,7"));
	assert_false(vocab_value_ok(loops, "1,,2"));
	assert_false(vocab_value_ok(loops, "-"));
	assert_false(vocab_value_ok(loops, "1,-2"));
	assert_true(vocab_value_ok(median, "501939.603"));
	assert_false(vocab_value_ok(median, "-2"));	/* POS: a statistic of positive samples */
	assert_false(vocab_value_ok(median, "0"));
	assert_false(vocab_value_ok(median, "-0.000"));
	assert_true(vocab_value_ok(median, "0.001"));
	assert_true(vocab_value_ok(vocab_key("SAMPLE", "value"), "0.000"));	/* NONNEG */
	assert_false(vocab_value_ok(vocab_key("SAMPLE", "value"), "-0.001"));
	assert_true(vocab_value_ok(vocab_key("TEST", "baseline"), "-2") == 0);
	assert_true(vocab_value_ok(vocab_key("FAIL", "signal"), "-2"));
	assert_false(vocab_value_ok(median, "nan"));
	assert_false(vocab_value_ok(median, "inf"));
	assert_false(vocab_value_ok(median, "1e999"));
	assert_false(vocab_value_ok(median, "1.5x"));
	assert_true(vocab_value_ok(sig, "-9"));
	assert_false(vocab_value_ok(sig, "-"));
	assert_true(vocab_value_ok(crc, "-"));
	assert_true(vocab_value_ok(crc, "deadbeef"));
	assert_false(vocab_value_ok(crc, "deadbee"));
	assert_true(vocab_value_ok(copies, "1,2"));
	assert_false(vocab_value_ok(copies, "0,2"));
	assert_true(vocab_value_ok(vocab_key("INFO", "cpu.model"), "any text at all"));
}

static void fill(void **st)
{
	char buf[64], small[8];
	(void)st;
	assert_string_equal(vocab_fill(buf, sizeof buf, RK_VULN_NAME, "mds"), "vuln.mds");
	assert_string_equal(vocab_fill(buf, sizeof buf, RK_EXEC_PATH, "spawn"), "exec.spawn.path");
	assert_string_equal(vocab_fill(buf, sizeof buf, RK_RUN, "x"), "run");
	assert_string_equal(vocab_fill(small, sizeof small, RK_EXEC_PATH, "spawn"), "exec.sp");
	assert_true(vocab_match(RK_EXEC_PATH, "exec.spawn.path"));
	assert_false(vocab_match(RK_EXEC_PATH, "exec..path"));
	assert_false(vocab_match(RK_EXEC_PATH, "exec.spawn.paths"));
}

/* A body's kind is its first word, never a prefix of it. */
static void body_kind(void **st)
{
	struct rec_body b;
	(void)st;
	rec_begin(&b, RK_SAMPLE);
	rec_str(&b, RK_TESTNAME, "pipe");
	assert_true(rec_body_is(&b, RK_SAMPLE));
	assert_false(rec_body_is(&b, RK_SKIP));
	assert_false(rec_body_is(&b, "SAMP"));
	rec_begin(&b, RK_SKIP);
	assert_true(rec_body_is(&b, RK_SKIP));
	memcpy(b.buf, "SKIPX a=1", 10);
	b.len = 9;
	assert_false(rec_body_is(&b, RK_SKIP));
}

/* A DIGEST line's fields: its own (part, the per-pass lists), else those of the kind its part
 * restates, typed as there (docs/records.md "The digest"). */
static void digest_parts(void **st)
{
	(void)st;
	assert_string_equal(vocab_part_kind(REC_PART_SKIP), RK_SKIP);
	assert_string_equal(vocab_part_kind(REC_PART_TEST), RK_TEST);
	assert_null(vocab_part_kind(REC_PART_END));
	assert_null(vocab_part_kind("sample"));
	assert_null(vocab_part_kind(NULL));
	const struct vocab_field *f = vocab_digest_key(REC_PART_INFO, RK_MEM_TOTAL_KIB);
	assert_non_null(f);
	assert_int_equal(f->kind, VK_INFO);
	assert_false(vocab_value_ok(f, "lots"));
	f = vocab_digest_key(REC_PART_WARN, RK_WHAT);	/* WARN's what=, not ERROR's */
	assert_non_null(f);
	assert_true(vocab_value_ok(f, REC_WHAT_CLOCKSOURCE));
	f = vocab_digest_key(REC_PART_TEST, RK_VALUE);	/* its own: a list, one entry a pass */
	assert_int_equal(f->kind, VK_DIGEST);
	assert_true(vocab_value_ok(f, "1.5,-"));
	f = vocab_digest_key(REC_PART_END, RK_CRC);
	assert_true(vocab_value_ok(f, "0a1b2c3d"));
	assert_false(vocab_value_ok(f, "0A1B2C3D"));
	assert_null(vocab_digest_key(REC_PART_END, RK_TITLE));
	assert_null(vocab_digest_key(REC_PART_BEGIN, "no_such_key"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(names_are_derived), cmocka_unit_test(kinds),
		cmocka_unit_test(table_is_consistent), cmocka_unit_test(lookup),
		cmocka_unit_test(values), cmocka_unit_test(fill), cmocka_unit_test(body_kind),
		cmocka_unit_test(digest_parts),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
