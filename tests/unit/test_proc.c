/* test_proc.c — payload/core/isoproc.c: describing what a process test executes, and the
 * execl/spawn info hook's record fields.
 *
 * Build and run (host gcc):  make -C tests/unit check
 * Uses programs every Debian host has: /bin/busybox (busybox-static: static), dash (a glibc
 * PIE), /lib64/ld-linux-x86-64.so.2; it writes a #! script and a non-ELF file in /tmp.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../payload/core/isoproc.h"
#include "record.h"

static void test_dynamic_glibc_pie(void **st)
{
	const char *dash = access("/usr/bin/dash", R_OK) == 0 ? "/usr/bin/dash" : "/bin/dash";
	struct proc_desc d;

	(void)st;
	assert_int_equal(proc_describe(dash, &d), 0);
	assert_string_equal(d.linkage, "dynamic-pie");
	assert_string_equal(d.interp, "/lib64/ld-linux-x86-64.so.2");
	assert_true(!strncmp(d.libc, "glibc 2.", 8));	/* version read from libc.so.6 */
	assert_string_equal(d.libc_path, "/lib/x86_64-linux-gnu/libc.so.6");
	assert_true(d.bytes > 10000 && d.libc_bytes > 1000000);
}

static void test_static(void **st)
{
	struct proc_desc d;

	(void)st;
	assert_int_equal(proc_describe("/bin/busybox", &d), 0);
	assert_string_equal(d.linkage, "static");
	assert_string_equal(d.interp, "-");
	assert_string_equal(d.libc, "static");
	assert_int_equal(d.libc_bytes, -1);
}

static void test_script_missing_and_garbage(void **st)
{
	char path[] = "/tmp/isobench-proc-test-XXXXXX";
	struct proc_desc d;
	int fd = mkstemp(path);

	(void)st;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\n", 10), 10);
	assert_int_equal(proc_describe(path, &d), 0);
	assert_string_equal(d.linkage, "script");
	assert_int_equal(d.bytes, 10);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(pwrite(fd, "not an ELF file", 15, 0), 15);
	assert_int_not_equal(proc_describe(path, &d), 0);
	assert_string_equal(d.linkage, "-");
	close(fd);
	unlink(path);
	assert_int_equal(proc_describe("/nonexistent/isobench-proc", &d), -2 /* -ENOENT */);
	assert_int_equal(d.bytes, -1);
	assert_string_equal(d.libc, "-");
}

/* The hook's fields, parsed back with the record reader: key names and values. */
static void test_info_fields(void **st)
{
	struct rec_body b;
	struct record r;
	struct proc_desc d;

	(void)st;
	proc_describe("/bin/busybox", &d);
	rec_begin(&b, "INFO");
	proc_info(&b, "spawn", &d);
	assert_int_equal(rec_parse_body(b.buf, b.len, &r), REC_OK);
	assert_string_equal(rec_get(&r, "exec.spawn.path"), "/bin/busybox");
	assert_string_equal(rec_get(&r, "exec.spawn.linkage"), "static");
	assert_string_equal(rec_get(&r, "exec.spawn.libc"), "static");
	assert_non_null(rec_get(&r, "exec.spawn.bytes"));
	/* No isobench-proc next to a runner that is not there, nor (on a host) in the image's
	 * directory: the hook says "-", so the log shows what is missing. */
	rec_begin(&b, "INFO");
	if (access(PROC_LIBEXEC "/isobench-proc", X_OK) == 0)
		skip();
	proc_info_helper("/nonexistent/isobench", &b, "execl");
	assert_int_equal(rec_parse_body(b.buf, b.len, &r), REC_OK);
	assert_string_equal(rec_get(&r, "exec.execl.path"), "-");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dynamic_glibc_pie),
		cmocka_unit_test(test_static),
		cmocka_unit_test(test_script_missing_and_garbage),
		cmocka_unit_test(test_info_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
