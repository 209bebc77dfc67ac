/* test_io.c — lib/io.h's small-file reader: what read_file() and read_file_str() return for a
 * file, a file longer than the buffer, an empty one, a missing one and a directory. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "io.h"

static char dir[64];

static void put(const char *name, const char *text, char *path, size_t cap)
{
	snprintf(path, cap, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **st)
{
	(void)st;
	snprintf(dir, sizeof dir, "/tmp/test_io.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	char cmd[128];
	(void)st;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd);
}

static void whole_and_head(void **st)
{
	char p[128], b[16];
	(void)st;
	put("a", "hvc\n", p, sizeof p);
	memset(b, 'x', sizeof b);
	assert_int_equal(read_file(p, b, sizeof b), 4);
	assert_memory_equal(b, "hvc\nx", 5);	/* no terminator written by read_file */
	assert_int_equal(read_file_str(p, b, sizeof b), 4);
	assert_string_equal(b, "hvc\n");
	/* Longer than the buffer: its head, cap bytes (cap - 1 and a NUL for the string). */
	put("long", "0123456789abcdefghij", p, sizeof p);
	assert_int_equal(read_file(p, b, 8), 8);
	assert_memory_equal(b, "01234567", 8);
	assert_int_equal(read_file_str(p, b, sizeof b), 15);
	assert_string_equal(b, "0123456789abcde");
	assert_int_equal(read_file_str(p, b, 1), 0);
	assert_string_equal(b, "");
}

static void empty_missing_dir(void **st)
{
	char p[128], b[16];
	(void)st;
	put("empty", "", p, sizeof p);
	strcpy(b, "old");
	assert_int_equal(read_file_str(p, b, sizeof b), 0);
	assert_string_equal(b, "");
	snprintf(p, sizeof p, "%s/nosuch", dir);
	strcpy(b, "old");
	assert_int_equal(read_file(p, b, sizeof b), -ENOENT);
	assert_string_equal(b, "old");	/* untouched */
	assert_int_equal(read_file_str(p, b, sizeof b), -ENOENT);
	assert_string_equal(b, "");
	assert_int_equal(read_file_str(dir, b, sizeof b), -EISDIR);
	assert_string_equal(b, "");
}

/* A procfs file (its size says 0), read as the runner reads /proc/PID/stat. */
static void procfs(void **st)
{
	char b[512], want[64];
	(void)st;
	assert_true(read_file_str("/proc/self/stat", b, sizeof b) > 0);
	snprintf(want, sizeof want, "%ld (", (long)getpid());
	assert_int_equal(strncmp(b, want, strlen(want)), 0);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(whole_and_head),
		cmocka_unit_test(empty_missing_dir),
		cmocka_unit_test(procfs),
	};
	return cmocka_run_group_tests(t, setup, teardown);
}
