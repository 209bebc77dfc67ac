/* test_io.c — lib/io.h's small-file readers: what read_file() and read_file_str() return for a
 * file, a file longer than the buffer, an empty one, a missing one and a directory; read_line's
 * trimmed first line; the "key: value" lookups on procfs-shaped text (exact keys, both
 * separators, units, values that are no number) and on the machine's own /proc files. */
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

static void first_line(void **st)
{
	char p[128], b[16];
	(void)st;
	put("l", " \t tsc hpet \r\nsecond\n", p, sizeof p);
	assert_int_equal(read_line(p, b, sizeof b), 8);
	assert_string_equal(b, "tsc hpet");
	put("blank", "  \n", p, sizeof p);
	assert_int_equal(read_line(p, b, sizeof b), 0);
	assert_string_equal(b, "");
	put("long", "0123456789abcdefghij\n", p, sizeof p);
	assert_int_equal(read_line(p, b, 6), 5);	/* cut at cap - 1 */
	assert_string_equal(b, "01234");
	snprintf(p, sizeof p, "%s/nosuch", dir);
	assert_int_equal(read_line(p, b, sizeof b), -ENOENT);
	assert_string_equal(b, "");
}

static const char meminfo[] =
	"MemTotalX:  1 kB\nMemTotal:       16318412 kB\nHugePages_Total:       0\n"
	"Node 0 MemFree:  1012 kB\nBad:  12x kB\nmodel\t\t: 85\nmodel name\t: Intel(R) Xeon(R)  \n"
	"pgfault 123\npgfault_x 9\nNeg: -5 kB\nBig: 99999999999999999999 kB\nBlank:\n";

static void key_value(void **st)
{
	char v[32];
	long long n = 7;
	(void)st;
	assert_int_equal(kv_get(meminfo, "MemTotal", ':', v, sizeof v), 0);
	assert_string_equal(v, "16318412 kB");
	assert_int_equal(kv_get(meminfo, "model", ':', v, sizeof v), 0);
	assert_string_equal(v, "85");			/* not model name's */
	assert_int_equal(kv_get(meminfo, "model name", ':', v, sizeof v), 0);
	assert_string_equal(v, "Intel(R) Xeon(R)");	/* trailing blanks dropped */
	assert_int_equal(kv_get(meminfo, "model name", ':', v, 6), 0);
	assert_string_equal(v, "Intel");		/* cut at cap - 1 */
	assert_int_equal(kv_get(meminfo, "Blank", ':', v, sizeof v), 0);
	assert_string_equal(v, "");
	assert_int_equal(kv_get(meminfo, "MemTot", ':', v, sizeof v), -ENOENT);	/* a prefix */
	assert_string_equal(v, "");
	assert_int_equal(kv_get(meminfo, "pgfault", ':', v, sizeof v), -ENOENT);	/* sep ' ' */
	assert_int_equal(kv_ll(meminfo, "pgfault", ' ', NULL, &n), 0);
	assert_int_equal(n, 123);
	assert_int_equal(kv_ll(meminfo, "MemTotal", ':', "kB", &n), 0);
	assert_int_equal(n, 16318412);
	assert_int_equal(kv_ll(meminfo, "Node 0 MemFree", ':', "kB", &n), 0);
	assert_int_equal(n, 1012);
	assert_int_equal(kv_ll(meminfo, "Neg", ':', "kB", &n), 0);
	assert_int_equal(n, -5);
	n = 7;
	assert_int_equal(kv_ll(meminfo, "HugePages_Total", ':', "kB", &n), -EINVAL);	/* no kB */
	assert_int_equal(kv_ll(meminfo, "MemTotal", ':', NULL, &n), -EINVAL);	/* "kB" left */
	assert_int_equal(kv_ll(meminfo, "Bad", ':', "kB", &n), -EINVAL);
	assert_int_equal(kv_ll(meminfo, "Big", ':', "kB", &n), -EINVAL);	/* past 2^63 */
	assert_int_equal(kv_ll(meminfo, "Blank", ':', NULL, &n), -EINVAL);
	assert_int_equal(kv_ll(meminfo, "Nothing", ':', NULL, &n), -ENOENT);
	assert_int_equal(n, 7);
}

/* The same over files: a written one, a missing one, and the machine's own procfs. */
static void key_value_files(void **st)
{
	char p[128], v[64];
	long long n = 7, total;
	(void)st;
	put("meminfo", meminfo, p, sizeof p);
	assert_int_equal(read_kv(p, "model name", ':', v, sizeof v), 0);
	assert_string_equal(v, "Intel(R) Xeon(R)");
	assert_int_equal(read_kv_ll(p, "MemTotal", ':', "kB", &n), 0);
	assert_int_equal(n, 16318412);
	snprintf(p, sizeof p, "%s/nosuch", dir);
	assert_int_equal(read_kv(p, "MemTotal", ':', v, sizeof v), -ENOENT);
	assert_int_equal(read_kv_ll(p, "MemTotal", ':', "kB", &n), -ENOENT);
	assert_int_equal(read_kv_ll(dir, "MemTotal", ':', "kB", &n), -EISDIR);
	assert_int_equal(read_kv_ll("/proc/meminfo", "MemTotal", ':', "kB", &total), 0);
	assert_true(total > 1024);
	assert_int_equal(read_kv_ll("/proc/self/status", "Pid", ':', NULL, &n), 0);
	assert_int_equal(n, getpid());
	assert_int_equal(read_kv_ll("/proc/vmstat", "pgfault", ' ', NULL, &n), 0);
	assert_true(n > 0);
}

/* split_fields: the blank-separated fields, in place; at most max; the rest left unsplit. */
static void fields(void **st)
{
	char row[] = "eth0\t00000000\t0102A8C0\t0003\t0\t0\t100\r\n", *f[4];
	(void)st;
	assert_int_equal(split_fields(row, f, 4), 4);
	assert_string_equal(f[0], "eth0");
	assert_string_equal(f[1], "00000000");
	assert_string_equal(f[2], "0102A8C0");
	assert_string_equal(f[3], "0003");
	assert_string_equal(f[3] + 5, "0\t0\t100\r\n");	/* past the 4th: unsplit */
	/* after /proc/PID/stat's ')': state ppid pgrp session tty_nr tpgid flags ... */
	char stat[] = " S 1 1 1 0 -1 4194560 12 0", *g[7];
	assert_int_equal(split_fields(stat, g, 7), 7);
	assert_string_equal(g[0], "S");
	assert_string_equal(g[5], "-1");
	assert_string_equal(g[6], "4194560");
	assert_string_equal(g[6] + 8, "12 0");
	char wc[] = "      3      12      80\n", *h[4];
	assert_int_equal(split_fields(wc, h, 4), 3);
	assert_string_equal(h[0], "3");
	assert_string_equal(h[2], "80");
	char blank[] = " \t\r\n", none[] = "", *z[2];
	assert_int_equal(split_fields(blank, z, 2), 0);
	assert_int_equal(split_fields(none, z, 2), 0);
	char one[] = "cpu", *o[1];
	assert_int_equal(split_fields(one, o, 1), 1);
	assert_string_equal(o[0], "cpu");
	assert_int_equal(split_fields(one, o, 0), 0);
}

/* A number never read from a cut text: a value longer than kv_ll's room (leading zeros: cut,
 * "000...0012" would read as 1), and a line that straddles the end of the KV_FILE_MAX bytes
 * read_kv reads ("pgfault 12345" cut to "pgfault 12"): the first is no number, the second is
 * absent, as io.h says of a line past them; a file exactly KV_FILE_MAX long keeps its last. */
static void cut_values(void **st)
{
	static char text[KV_FILE_MAX + 64];
	char p[128], v[16];
	long long n = 7;
	(void)st;
	snprintf(text, sizeof text, "pgfault %0*d\nMemFree: %0*d kB\n", 70, 12, 70, 12);
	assert_int_equal(kv_ll(text, "pgfault", ' ', NULL, &n), -EINVAL);
	assert_int_equal(kv_ll(text, "MemFree", ':', "kB", &n), -EINVAL);
	assert_int_equal(n, 7);
	put("vmstat", text, p, sizeof p);
	assert_int_equal(read_kv_ll(p, "pgfault", ' ', NULL, &n), -EINVAL);
	assert_int_equal(kv_get(text, "pgfault", ' ', v, sizeof v), 0);	/* a string: cut */
	assert_int_equal(strlen(v), sizeof v - 1);
	/* "pgfault 12345\n" with its '3' at byte KV_FILE_MAX: read_kv saw "pgfault 12" */
	memset(text, 'x', KV_FILE_MAX - 11);
	snprintf(text + KV_FILE_MAX - 11, sizeof text - (KV_FILE_MAX - 11), "\npgfault 12345\n");
	put("straddle", text, p, sizeof p);
	assert_int_equal(read_kv_ll(p, "pgfault", ' ', NULL, &n), -ENOENT);
	assert_int_equal(read_kv(p, "pgfault", ' ', v, sizeof v), -ENOENT);
	assert_int_equal(n, 7);
	/* the same line ending at byte KV_FILE_MAX, with or without its '\n': read whole */
	memset(text, 'x', KV_FILE_MAX - 14);
	snprintf(text + KV_FILE_MAX - 14, sizeof text - (KV_FILE_MAX - 14), "\npgfault 12345");
	assert_int_equal(strlen(text), KV_FILE_MAX);
	put("fits", text, p, sizeof p);
	assert_int_equal(read_kv_ll(p, "pgfault", ' ', NULL, &n), 0);
	assert_int_equal(n, 12345);
	strcat(text, "\n");
	put("fits-nl", text, p, sizeof p);
	n = 7;
	assert_int_equal(read_kv_ll(p, "pgfault", ' ', NULL, &n), 0);
	assert_int_equal(n, 12345);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(whole_and_head),
		cmocka_unit_test(empty_missing_dir),
		cmocka_unit_test(procfs),
		cmocka_unit_test(first_line),
		cmocka_unit_test(key_value),
		cmocka_unit_test(key_value_files),
		cmocka_unit_test(fields),
		cmocka_unit_test(cut_values),
	};
	return cmocka_run_group_tests(t, setup, teardown);
}
