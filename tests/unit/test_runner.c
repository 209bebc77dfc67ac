/* test_runner.c — the runner's input errors: every one reported after BEGIN, none lost to
 * the RUNNER_MAX_PENDING slots (past them, one more ERROR counts the rest). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../payload/out.h"
#include "../../payload/params.h"
#include "../../payload/runner.h"

/* Run a suite that selects no test, with n input errors pending; the records into buf. */
static void run_with_errors(int n, char *buf, size_t cap)
{
	static struct runner_cfg cfg;
	struct params p;
	int fd = memfd_create("records", 0);
	char param[32];

	assert_true(fd >= 0);
	memset(&cfg, 0, sizeof cfg);
	cfg.mode = "host";
	cfg.self = "/proc/self/exe";
	cfg.tmpdir = "/tmp";
	params_init(&p);
	strcpy(p.tests, "no-such-test");
	params_finish(&p, 1);
	for (int i = 0; i < n; i++) {
		snprintf(param, sizeof param, "isobench.bad%d", i);
		runner_pending_error(&cfg, param, "x", "unknown parameter");
	}
	assert_int_equal(out_init(), 0);
	out_add_fd(fd);
	runner_run(&p, &cfg, NULL);
	ssize_t k = pread(fd, buf, cap - 1, 0);
	assert_true(k > 0);
	buf[k] = 0;
	close(fd);
}

static int count(const char *buf, const char *needle)
{
	int n = 0;
	for (const char *s = buf; (s = strstr(s, needle)); s++)
		n++;
	return n;
}

static void few_errors_each_reported(void **st)
{
	(void)st;
	static char buf[1 << 20];
	run_with_errors(3, buf, sizeof buf);
	assert_int_equal(count(buf, " ERROR what=param "), 3);
	assert_non_null(strstr(buf, "param=isobench.bad2 "));
	assert_null(strstr(buf, "more input errors"));
}

static void errors_past_the_slots_counted(void **st)
{
	(void)st;
	static char buf[1 << 20];
	run_with_errors(RUNNER_MAX_PENDING + 8, buf, sizeof buf);
	/* The first RUNNER_MAX_PENDING one by one, then one ERROR for the other 8. */
	assert_int_equal(count(buf, " ERROR what=param "), RUNNER_MAX_PENDING + 1);
	assert_non_null(strstr(buf, "param=isobench.bad31 "));
	assert_null(strstr(buf, "param=isobench.bad32 "));
	assert_non_null(strstr(buf, " param=isobench.* value=- reason=8%20more%20input%20errors"
				    "%20not%20shown%20(the%20first%2032%20are) "));
	assert_non_null(strstr(buf, " END "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(few_errors_each_reported),
		cmocka_unit_test(errors_past_the_slots_counted),
	};
	return cmocka_run_group_tests_name("runner", tests, NULL, NULL);
}
