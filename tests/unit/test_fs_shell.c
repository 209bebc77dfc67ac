/* test_fs_shell.c — file copy/read/write mechanics and the shell workload's output.
 *
 * Build and run (host gcc, not musl):  make -C tests/unit check
 * or by hand from the repository root:
 *   gcc -O2 -std=gnu11 -Wall -Wextra -Werror -o tests/build/test_fs_shell \
 *       tests/unit/test_fs_shell.c payload/benchapi.c payload/bench/fs.c \
 *       payload/bench/shell.c payload/core/isoproc.c lib/record.c lib/crc32.c -lcmocka
 * The shell tests need dash+coreutils+grep or /bin/busybox and are skipped without both.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../payload/benchapi.h"
#include "../../payload/bench/fs.h"
#include "../../payload/core/isoproc.h"
#include "../../payload/bench/shell.h"

extern const struct bench bench_fstime, bench_fsbuffer, bench_fsdisk;
extern const struct bench bench_fsread_1024, bench_fswrite_256, bench_shell1, bench_shell8;

static char workdir[64];

static int mk_workdir(void **st)
{
	(void)st;
	strcpy(workdir, "/tmp/isobench-test-XXXXXX");
	return mkdtemp(workdir) ? 0 : -1;
}

static int rm_workdir(void **st)
{
	char cmd[128];

	(void)st;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", workdir);
	return system(cmd) == 0 ? 0 : -1;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	*len = (size_t)n;
	fclose(f);
	return buf;
}

/* The file holds exactly `size` bytes and byte o equals want(o). */
static void assert_file(const char *path, size_t size, int fill)
{
	size_t len = 0;
	char *buf = slurp(path, &len);

	assert_non_null(buf);
	assert_int_equal(len, size);
	for (size_t o = 0; o < len; o++) {
		uint8_t want = fill >= 0 ? (uint8_t)fill : fs_pattern_byte(o);

		if ((uint8_t)buf[o] != want)
			fail_msg("%s: byte %zu is %#x, want %#x", path, o, (uint8_t)buf[o], want);
	}
	free(buf);
}

static void copy_case(const struct bench *b, const char *tag, int bs, int maxblocks)
{
	struct bench_ctx ctx = { .workdir = workdir };
	char src[128], dst[128];
	uint64_t nbuf = (uint64_t)maxblocks * 1024 / (uint64_t)bs, part = nbuf * 7 / 20;

	snprintf(src, sizeof src, "%s/fs%s-%d.src", workdir, tag, bs);
	snprintf(dst, sizeof dst, "%s/fs%s-%d.dst", workdir, tag, bs);
	assert_true(b->per_loop == bs / 1024.0);
	assert_int_equal(b->setup(&ctx), 0);
	assert_non_null(strstr(ctx.note, "page cache"));
	assert_file(src, (size_t)maxblocks * 1024, -1);
	/* Part of a pass: the destination holds exactly the buffers copied so far. */
	assert_int_equal(b->run(&ctx, part), 0);
	assert_file(dst, (size_t)(part * (uint64_t)bs), -1);
	/* Past the end of a pass, split across calls: rewound, so never longer than the source. */
	assert_int_equal(b->run(&ctx, nbuf - part + 3), 0);
	assert_int_equal(b->run(&ctx, nbuf), 0);
	assert_file(dst, (size_t)maxblocks * 1024, -1);
	assert_true(ctx.nextra >= 1 && !strcmp(ctx.extra_key[0], "fs_magic"));
	b->teardown(&ctx);
	assert_int_not_equal(access(src, F_OK), 0);
	assert_int_not_equal(access(dst, F_OK), 0);
}

static void test_fstime(void **st) { (void)st; copy_case(&bench_fstime, "copy", 1024, 2000); }
static void test_fsbuffer(void **st) { (void)st; copy_case(&bench_fsbuffer, "copy", 256, 500); }
static void test_fsdisk(void **st) { (void)st; copy_case(&bench_fsdisk, "copy", 4096, 8000); }

static void test_fswrite(void **st)
{
	struct bench_ctx ctx = { .workdir = workdir };
	char dst[128];

	(void)st;
	snprintf(dst, sizeof dst, "%s/fswrite-256.dst", workdir);
	assert_int_equal(bench_fswrite_256.setup(&ctx), 0);
	assert_int_equal(bench_fswrite_256.run(&ctx, 123), 0);
	assert_file(dst, 123 * 256, 0x5a);
	assert_int_equal(bench_fswrite_256.run(&ctx, 2000), 0);	/* 2123 buffers > one pass of 2000 */
	assert_file(dst, 500 * 1024, 0x5a);
	bench_fswrite_256.teardown(&ctx);
}

static void test_fsread(void **st)
{
	struct bench_ctx ctx = { .workdir = workdir };

	(void)st;
	assert_int_equal(bench_fsread_1024.setup(&ctx), 0);
	/* 2000 buffers per pass: 4500 loops need two rewinds, a short read would fail the run. */
	assert_int_equal(bench_fsread_1024.run(&ctx, 4500), 0);
	/* Last buffer read was number 499 of a pass: its last byte is the pattern's. */
	assert_int_equal(ctx.sink, fs_pattern_byte(500 * 1024 - 1) + 500);
	bench_fsread_1024.teardown(&ctx);
}

/* ---- shell ---- */

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t split_lines(char *text, char ***out)
{
	size_t n = 0, cap = 1024;
	char **v = malloc(cap * sizeof *v);

	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');

		if (n == cap)
			v = realloc(v, (cap *= 2) * sizeof *v);
		v[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	*out = v;
	return n;
}

static size_t count_words(const char *s)
{
	size_t n = 0;
	int in = 0;

	for (; *s; s++) {
		int sp = *s == ' ' || *s == '\t';

		n += !sp && !in;
		in = !sp;
	}
	return n;
}

/* What instance i of tst.sh must have left, derived from sort.src with C alone. */
static void check_instance(const char *dir, int i)
{
	char path[256], *src, *srt, *od, *wc, *grep, **lines, **slines;
	size_t srclen, srtlen, odlen, wclen, greplen, n, ns;
	size_t gl = 0, gw = 0, gc = 0, odlines = 0;
	long wl, ww, wcc;

	snprintf(path, sizeof path, "%s/sort.src", dir);
	assert_non_null(src = slurp(path, &srclen));
	snprintf(path, sizeof path, "%s/sort.%d", dir, i);
	assert_non_null(srt = slurp(path, &srtlen));
	assert_int_equal(srtlen, srclen);

	/* sort: byte order (LC_ALL=C) of the same lines. */
	n = split_lines(src, &lines);
	assert_int_equal(n, SHELL_SRC_LINES);
	qsort(lines, n, sizeof *lines, cmp_line);
	ns = split_lines(srt, &slines);
	assert_int_equal(ns, n);
	for (size_t k = 0; k < n; k++)
		assert_string_equal(slines[k], lines[k]);

	/* grep the | tee | wc: the lines containing "the". */
	for (size_t k = 0; k < n; k++)
		if (strstr(lines[k], "the")) {
			gl++;
			gw += count_words(lines[k]);
			gc += strlen(lines[k]) + 1;
		}
	assert_true(gl > 0 && gl < n);
	snprintf(path, sizeof path, "%s/wc.%d", dir, i);
	assert_non_null(wc = slurp(path, &wclen));
	assert_int_equal(sscanf(wc, "%ld %ld %ld", &wl, &ww, &wcc), 3);
	assert_int_equal(wl, gl);
	assert_int_equal(ww, gw);
	assert_int_equal(wcc, gc);
	snprintf(path, sizeof path, "%s/grep.%d", dir, i);
	assert_non_null(grep = slurp(path, &greplen));
	assert_int_equal(greplen, gc);

	/* od | sort -n: 16 bytes a line plus the final offset; no '*' since the sorted text has
	 * no two equal consecutive 16-byte rows (checked), and offsets in ascending order. */
	snprintf(path, sizeof path, "%s/sort.%d", dir, i);
	free(srt);
	assert_non_null(srt = slurp(path, &srtlen));
	for (size_t o = 16; o + 16 <= srtlen; o += 16)
		assert_true(memcmp(srt + o - 16, srt + o, 16) != 0);
	snprintf(path, sizeof path, "%s/od.%d", dir, i);
	assert_non_null(od = slurp(path, &odlen));
	{
		long prev = -1;

		for (char *p = od; *p; p = strchr(p, '\n') + 1) {
			long off = strtol(p, NULL, 10);

			assert_true(off > prev);
			prev = off;
			odlines++;
			if (!strchr(p, '\n'))
				break;
		}
	}
	assert_int_equal(odlines, (srtlen + 15) / 16 + 1);

	free(src), free(srt), free(od), free(wc), free(grep), free(lines), free(slines);
}

static int have_tools(void)
{
	char t[SHELL_NTOOLS][256];

	return shell_find_tools(t) > 0;
}

/* sort.src has the size and shape of UnixBench's input: 362 lines, 8,546 bytes (+-2%),
 * 35 lines containing "the". */
static void test_shell_input_shape(void **st)
{
	char dir[128], path[160], *src, **lines;
	size_t len, n, the = 0;

	(void)st;
	if (!have_tools())
		skip();
	snprintf(dir, sizeof dir, "%s/sh-shape", workdir);
	assert_true(shell_prepare(dir) > 0);
	snprintf(path, sizeof path, "%s/sort.src", dir);
	assert_non_null(src = slurp(path, &len));
	assert_in_range(len, 8375, 8717);
	n = split_lines(src, &lines);
	assert_int_equal(n, 362);
	for (size_t k = 0; k < n; k++)
		the += strstr(lines[k], "the") != NULL;
	assert_int_equal(the, 35);
	free(src), free(lines);
}

/* On a Debian host (the build's own) the workload runs the distribution's dynamically
 * linked tools, never busybox: a fallback here would hide a broken lookup. */
static void test_shell_tools_are_dynamic(void **st)
{
	char t[SHELL_NTOOLS][256];
	struct proc_desc d;

	(void)st;
	if (access("/usr/bin/dash", X_OK) && access("/bin/dash", X_OK))
		skip();
	assert_int_equal(shell_find_tools(t), SHELL_TOOLS_DIST);
	for (int i = 0; i < SHELL_NTOOLS; i++) {
		assert_null(strstr(t[i], "busybox"));
		assert_int_equal(proc_describe(t[i], &d), 0);
		assert_string_equal(d.linkage, "dynamic-pie");
		assert_true(!strncmp(d.libc, "glibc", 5));
	}
	assert_non_null(strstr(t[0], "dash"));
}

static void test_shell_output(void **st)
{
	char dir[128], path[160];

	(void)st;
	if (!have_tools())
		skip();
	snprintf(dir, sizeof dir, "%s/sh-out", workdir);
	assert_true(shell_prepare(dir) > 0);
	assert_int_equal(shell_run_once(dir, 1, 1), 0);
	check_instance(dir, 1);
	assert_int_equal(shell_run_once(dir, 8, 1), 0);
	for (int i = 1; i <= 8; i++)
		check_instance(dir, i);
	/* Without keep the script cleans up after itself. */
	assert_int_equal(shell_run_once(dir, 8, 0), 0);
	for (int i = 1; i <= 8; i++) {
		snprintf(path, sizeof path, "%s/wc.%d", dir, i);
		assert_int_not_equal(access(path, F_OK), 0);
	}
}

static void test_shell_failure_reported(void **st)
{
	(void)st;
	if (!have_tools())
		skip();
	assert_int_not_equal(shell_run_once("/nonexistent/isobench", 1, 0), 0);
}

/* A workload that does nothing must not be timed: with a tool gone from the private bin/
 * multi.sh still exits 0 (its `wait` ignores the jobs), shell_verify() does not. */
static void test_shell_verify(void **st)
{
	char dir[128], path[160];

	(void)st;
	if (!have_tools())
		skip();
	snprintf(dir, sizeof dir, "%s/sh-verify", workdir);
	assert_true(shell_prepare(dir) > 0);
	assert_int_equal(shell_verify(dir, 8), 0);
	snprintf(path, sizeof path, "%s/wc.8", dir);
	assert_int_not_equal(access(path, F_OK), 0);	/* removed again */
	snprintf(path, sizeof path, "%s/bin/grep", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(shell_run_once(dir, 1, 0), 0);	/* the blindness shell_verify covers */
	assert_int_equal(shell_verify(dir, 1), -EIO);
}

static void test_shell_descriptors(void **st)
{
	struct bench_ctx ctx = { .workdir = workdir };

	(void)st;
	assert_true(bench_shell1.per_loop == 60 && bench_shell1.baseline == 42.4);
	assert_true(bench_shell8.per_loop == 60 && bench_shell8.baseline == 6.0);
	if (!have_tools())
		skip();
	assert_int_equal(bench_shell8.setup(&ctx), 0);
	assert_int_equal(bench_shell8.run(&ctx, 2), 0);
	assert_int_equal(ctx.sink, 2);
	bench_shell8.teardown(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fstime),
		cmocka_unit_test(test_fsbuffer),
		cmocka_unit_test(test_fsdisk),
		cmocka_unit_test(test_fswrite),
		cmocka_unit_test(test_fsread),
		cmocka_unit_test(test_shell_input_shape),
		cmocka_unit_test(test_shell_tools_are_dynamic),
		cmocka_unit_test(test_shell_output),
		cmocka_unit_test(test_shell_failure_reported),
		cmocka_unit_test(test_shell_verify),
		cmocka_unit_test(test_shell_descriptors),
	};

	return cmocka_run_group_tests(tests, mk_workdir, rm_workdir);
}
