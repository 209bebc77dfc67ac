/* test_params.c — the parameter table: kernel command line and CLI values. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../payload/params.h"

struct errs {
	int n;
	char param[8][64], reason[8][160];
};

static void collect(void *arg, const char *param, const char *value, const char *reason)
{
	struct errs *e = arg;
	(void)value;
	if (e->n < 8) {
		snprintf(e->param[e->n], 64, "%s", param);
		snprintf(e->reason[e->n], 160, "%s", reason);
		e->n++;
	}
}

static void defaults(void **st)
{
	(void)st;
	struct params p;
	params_init(&p);
	params_finish(&p, 4);
	assert_int_equal(p.suite, SUITE_STANDARD);
	assert_string_equal(p.tests, "index");
	assert_int_equal(p.ncopies, 2);
	assert_int_equal(p.copies[0], 1);
	assert_int_equal(p.copies[1], 4);
	assert_int_equal(p.sample_ms, 500);
	assert_int_equal(p.halt, HALT_POWEROFF);
	/* 1,N on one CPU is a single pass. */
	params_init(&p);
	params_finish(&p, 1);
	assert_int_equal(p.ncopies, 1);
	assert_int_equal(p.copies[0], 1);
}

static void cmdline_order_independent(void **st)
{
	(void)st;
	struct params p;
	struct errs e = {0};
	params_init(&p);
	/* sample_ms given before the suite still wins over the suite's preset. */
	params_from_cmdline(&p, "console=ttyS0 isobench.sample_ms=250 ro "
			    "isobench.suite=quick isobench.tests=pipe,syscall "
			    "isobench.copies=2,N -- isobench.halt=wait", collect, &e);
	params_finish(&p, 8);
	assert_int_equal(e.n, 0);
	assert_int_equal(p.suite, SUITE_QUICK);
	assert_int_equal(p.sample_ms, 250);
	assert_int_equal(p.min_samples, 3);
	assert_string_equal(p.tests, "pipe,syscall");
	assert_int_equal(p.ncopies, 2);
	assert_int_equal(p.copies[0], 2);
	assert_int_equal(p.copies[1], 8);
	assert_int_equal(p.halt, HALT_WAIT);
}

static void bad_input_reported(void **st)
{
	(void)st;
	struct params p;
	struct errs e = {0};
	params_init(&p);
	params_from_cmdline(&p, "isobench.suite=fast isobench.bogus=1 isobench.copies=0 "
			    "isobench.samples=9-3 isobench.sample_ms=12x isobench.halt",
			    collect, &e);
	params_finish(&p, 2);
	assert_int_equal(e.n, 6);
	assert_string_equal(e.param[0], "isobench.suite");
	assert_non_null(strstr(e.reason[0], "quick, standard or thorough"));
	assert_string_equal(e.param[1], "isobench.bogus");
	assert_string_equal(e.reason[1], "unknown parameter");
	assert_string_equal(e.param[5], "isobench.halt");
	/* Defaults survive every bad value. */
	assert_int_equal(p.suite, SUITE_STANDARD);
	assert_int_equal(p.copies[0], 1);
	assert_int_equal(p.sample_ms, 500);
}

static void quoted_words(void **st)
{
	(void)st;
	struct params p;
	struct errs e = {0};
	params_init(&p);
	params_from_cmdline(&p, "foo=\"a b\" isobench.image=\"abc def\"", collect, &e);
	assert_int_equal(e.n, 0);
	assert_string_equal(p.image, "abc def");
}

static void samples_range(void **st)
{
	(void)st;
	struct params p;
	char err[160];
	params_init(&p);
	assert_int_equal(params_set(&p, "samples", "4-12", err, sizeof err), 0);
	params_finish(&p, 1);
	assert_int_equal(p.min_samples, 4);
	assert_int_equal(p.max_samples, 12);
	assert_int_not_equal(params_set(&p, "samples", "0", err, sizeof err), 0);
	assert_int_not_equal(params_set(&p, "ci", "-1", err, sizeof err), 0);
	assert_int_equal(params_set(&p, "ci", "2.5", err, sizeof err), 0);
	assert_int_not_equal(params_set(&p, "copies", "1,2,3,4,5,6,7,8,9", err, sizeof err), 0);
}

static void pin_key(void **st)
{
	(void)st;
	struct params p;
	struct errs e = {0};
	char err[160];
	params_init(&p);
	assert_int_equal(p.pin, 0);
	params_from_cmdline(&p, "quiet isobench.pin=1", collect, &e);
	assert_int_equal(e.n, 0);
	assert_int_equal(p.pin, 1);
	assert_int_equal(params_set(&p, "pin", "0", err, sizeof err), 0);
	assert_int_equal(p.pin, 0);
	assert_int_equal(params_set(&p, "pin", "yes", err, sizeof err), -EINVAL);
	assert_string_equal(err, "expected 0 or 1");
	assert_int_equal(p.pin, 0);
}

/* isobench.console=, delay=, replay= (issue 11): defaults, good values, bad ones refused. */
static void console_delay_replay(void **st)
{
	(void)st;
	struct params p;
	char err[160];
	params_init(&p);
	assert_string_equal(p.console, "auto");
	assert_int_equal(p.delay_s, 0);
	assert_int_equal(p.replay, 0);
	assert_int_equal(params_set(&p, "console", "ttyS1,hvc0,tty0", err, sizeof err), 0);
	assert_string_equal(p.console, "ttyS1,hvc0,tty0");
	assert_int_not_equal(params_set(&p, "console", "../sda", err, sizeof err), 0);
	assert_int_not_equal(params_set(&p, "console", "", err, sizeof err), 0);
	assert_string_equal(p.console, "ttyS1,hvc0,tty0");	/* a bad value keeps the last */
	assert_int_equal(params_set(&p, "delay", "30", err, sizeof err), 0);
	assert_int_equal(p.delay_s, 30);
	assert_int_not_equal(params_set(&p, "delay", "3601", err, sizeof err), 0);
	assert_int_not_equal(params_set(&p, "delay", "-1", err, sizeof err), 0);
	assert_int_equal(params_set(&p, "replay", "1", err, sizeof err), 0);
	assert_int_equal(p.replay, 1);
	assert_int_not_equal(params_set(&p, "replay", "yes", err, sizeof err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(cmdline_order_independent),
		cmocka_unit_test(bad_input_reported),
		cmocka_unit_test(quoted_words),
		cmocka_unit_test(samples_range),
		cmocka_unit_test(pin_key),
		cmocka_unit_test(console_delay_replay),
	};
	return cmocka_run_group_tests_name("params", tests, NULL, NULL);
}
