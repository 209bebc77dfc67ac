/* test_clocksrc.c — which clocksource the command line asks for, and reading the current one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../payload/clocksrc.h"

static void requested_last_word_wins(void **st)
{
	(void)st;
	char v[32];
	assert_int_equal(clocksource_requested("ro clocksource=hpet quiet clocksource=tsc", v,
					       sizeof v), 1);
	assert_string_equal(v, "tsc");	/* the kernel keeps the last one */
	assert_int_equal(clocksource_requested("clocksource=acpi_pm\n", v, sizeof v), 1);
	assert_string_equal(v, "acpi_pm");
}

static void requested_none(void **st)
{
	(void)st;
	char v[32] = "x";
	assert_int_equal(clocksource_requested("ro quiet", v, sizeof v), 0);
	assert_string_equal(v, "");
	assert_int_equal(clocksource_requested("clocksource= xclocksource=tsc", v, sizeof v), 0);
	assert_string_equal(v, "");
	assert_int_equal(clocksource_requested("", v, sizeof v), 0);
}

static void current_from_file(void **st)
{
	(void)st;
	char path[] = "/tmp/test_clocksrc.XXXXXX", v[32];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "hpet\n", 5), 5);
	close(fd);
	setenv("ISOBENCH_CLOCKSOURCE_FILE", path, 1);
	clocksource_current(v, sizeof v);
	assert_string_equal(v, "hpet");
	unlink(path);
	clocksource_current(v, sizeof v);
	assert_string_equal(v, "-");	/* unreadable: "-", never a guess */
	unsetenv("ISOBENCH_CLOCKSOURCE_FILE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(requested_last_word_wins),
		cmocka_unit_test(requested_none),
		cmocka_unit_test(current_from_file),
	};
	return cmocka_run_group_tests_name("clocksrc", tests, NULL, NULL);
}
