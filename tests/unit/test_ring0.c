/* test_ring0.c — payload/bench/ring0.c's setup: how each answer of the device becomes a SKIP
 * (with its reason) or an error. open() and ioctl() are wrapped (-Wl,--wrap: Makefile.probes),
 * so the device's answers are planted here without the driver:
 *   open ENOENT            SKIP "needs the image's kernel"
 *   open EACCES            SKIP "needs root"
 *   ioctl EPERM            SKIP "needs CAP_SYS_RAWIO" (a root-less caller the driver refuses)
 *   ioctl EOPNOTSUPP       SKIP with the driver's reason
 *   ioctl EIO              the error, not a SKIP
 *   ioctl done=1           setup succeeds */
#include "../../payload/bench/ring0.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

static int open_errno, ioctl_errno;
static const char *ioctl_reason = "";

int __wrap_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...)
{
	(void)path;
	(void)flags;
	if (open_errno) {
		errno = open_errno;
		return -1;
	}
	return 99;	/* a descriptor number nothing else uses */
}

int __wrap_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	struct isobench_probe_req *r = va_arg(ap, struct isobench_probe_req *);
	va_end(ap);
	assert_int_equal(fd, 99);
	if (ioctl_errno) {
		snprintf(r->reason, sizeof r->reason, "%s", ioctl_reason);
		errno = ioctl_errno;
		return -1;
	}
	r->done = 1;
	r->cycles = r->ns = 10;
	return 0;
}

/* setup with the planted answers; its status, the note in *note. */
static int setup_with(int oe, int ie, const char *reason, struct bench_ctx *ctx)
{
	open_errno = oe;
	ioctl_errno = ie;
	ioctl_reason = reason;
	memset(ctx, 0, sizeof *ctx);
	int r = ring0_setup(ctx, ISOBENCH_PROBE_CPUID);
	ctx->state = NULL;	/* teardown would close fd 99; nothing to free but the state */
	return r;
}

static void test_no_device_skips(void **st)
{
	struct bench_ctx c;
	(void)st;
	assert_int_equal(setup_with(ENOENT, 0, "", &c), BENCH_SKIP);
	assert_non_null(strstr(c.note, "needs the image's kernel"));
}

static void test_not_root_skips(void **st)
{
	struct bench_ctx c;
	(void)st;
	assert_int_equal(setup_with(EACCES, 0, "", &c), BENCH_SKIP);
	assert_non_null(strstr(c.note, "needs root"));
}

static void test_no_cap_sys_rawio_skips(void **st)
{
	struct bench_ctx c;
	(void)st;
	assert_int_equal(setup_with(0, EPERM, "", &c), BENCH_SKIP);
	assert_non_null(strstr(c.note, "needs CAP_SYS_RAWIO"));
}

static void test_unsupported_probe_skips_with_reason(void **st)
{
	struct bench_ctx c;
	(void)st;
	assert_int_equal(setup_with(0, EOPNOTSUPP, "no HPET", &c), BENCH_SKIP);
	assert_string_equal(c.note, "no HPET");
}

static void test_other_error_is_an_error(void **st)
{
	struct bench_ctx c;
	(void)st;
	assert_int_equal(setup_with(0, EIO, "", &c), -EIO);
}

static void test_working_probe(void **st)
{
	struct bench_ctx c;
	(void)st;
	assert_int_equal(setup_with(0, 0, "", &c), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_device_skips),
		cmocka_unit_test(test_not_root_skips),
		cmocka_unit_test(test_no_cap_sys_rawio_skips),
		cmocka_unit_test(test_unsupported_probe_skips_with_reason),
		cmocka_unit_test(test_other_error_is_an_error),
		cmocka_unit_test(test_working_probe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
