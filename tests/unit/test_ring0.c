/* test_ring0.c — payload/bench/ring0.c's setup: how each answer of the device becomes a SKIP
 * (with its reason) or an error. open() and ioctl() are wrapped (-Wl,--wrap: Makefile.probes),
 * so the device's answers are planted here without the driver:
 *   open ENOENT            SKIP "needs the image's kernel"
 *   open EACCES            SKIP "needs root"
 *   ioctl EPERM            SKIP "needs CAP_SYS_RAWIO" (a root-less caller the driver refuses)
 *   ioctl EOPNOTSUPP       SKIP with the driver's reason
 *   ioctl EIO              the error, not a SKIP
 *   ioctl done=1           setup succeeds
 * and how ring0_run() turns the driver's per-call medians into the sample's extras: the value
 * op_ns_x100 is the calls' (batch - null) medians weighted by their iterations, cycles_x100
 * likewise, null_ns_x100 the null batch's; an operation no dearer than the empty loop
 * (a median <= 0) gets 1, the resolution, and never a zero or negative figure.
 * The other architectures' probes (RING0_OTHERS): each is registered once in the ring0 group,
 * none is also this architecture's, and its setup SKIPs with "<name> is an <owners> ring-0
 * probe" without opening the device (the driver there or not). */
#include "../../payload/bench/ring0.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

static int open_errno, ioctl_errno, opens;
static const char *ioctl_reason = "";
/* The medians each successful call returns, in turn (the last one repeats), and how many
 * iterations it says it did (at most what was asked). */
struct planted { uint64_t done; int64_t net_ns, net_cyc; uint64_t null_ns; };
static const struct planted *plant;
static int nplant, calls;

int __wrap_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...)
{
	(void)path;
	(void)flags;
	opens++;
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
	if (plant) {
		const struct planted *p = &plant[calls < nplant ? calls : nplant - 1];
		r->done = p->done < r->iters ? p->done : r->iters;
		r->net_ns_x1000 = p->net_ns;
		r->net_cycles_x1000 = p->net_cyc;
		r->null_ns_x1000 = p->null_ns;
		calls++;
	}
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

static int64_t extra_of(const struct bench_ctx *c, const char *key)
{
	for (int i = 0; i < c->nextra; i++)
		if (!strcmp(c->extra_key[i], key))
			return c->extra_val[i];
	fail_msg("no extra %s", key);
	return -1;
}

/* One sample of `iters` iterations with the planted answers; the extras in *c. */
static void run_with(const struct planted *p, int n, uint64_t iters, struct bench_ctx *c)
{
	open_errno = ioctl_errno = 0;
	plant = NULL;
	memset(c, 0, sizeof *c);
	assert_int_equal(ring0_setup(c, ISOBENCH_PROBE_CPUID), 0);
	plant = p;
	nplant = n;
	calls = 0;
	assert_int_equal(ring0_run(c, iters), 0);
	plant = NULL;
	ring0_teardown(c);
}

static void test_value_is_net_of_null(void **st)
{
	static const struct planted p[] = {{100, 12345, 40000, 678}};
	struct bench_ctx c;
	(void)st;
	run_with(p, 1, 300, &c);
	assert_int_equal(calls, 3);
	assert_int_equal(extra_of(&c, REC_EXTRA_OP_NS_X100), 1235);	/* 12.345 ns */
	assert_int_equal(extra_of(&c, REC_EXTRA_CYCLES_X100), 4000);
	assert_int_equal(extra_of(&c, REC_EXTRA_NULL_NS_X100), 68);
}

static void test_calls_weighted_by_iterations(void **st)
{
	static const struct planted p[] = {{1, 1000, 1000, 100}, {3, 5000, 9000, 500}};
	struct bench_ctx c;
	(void)st;
	run_with(p, 2, 4, &c);
	assert_int_equal(extra_of(&c, REC_EXTRA_OP_NS_X100), 400);	/* (1 + 15) / 4 ns */
	assert_int_equal(extra_of(&c, REC_EXTRA_CYCLES_X100), 700);
	assert_int_equal(extra_of(&c, REC_EXTRA_NULL_NS_X100), 40);
}

static void test_no_dearer_than_null_is_resolution(void **st)
{
	static const struct planted p[] = {{50, -2000, -5000, 0}};
	struct bench_ctx c;
	(void)st;
	run_with(p, 1, 50, &c);
	assert_int_equal(extra_of(&c, REC_EXTRA_OP_NS_X100), 1);
	assert_int_equal(extra_of(&c, REC_EXTRA_CYCLES_X100), 1);
	assert_int_equal(extra_of(&c, REC_EXTRA_NULL_NS_X100), 0);
}

/* Every row of RING0_OTHERS: a registered ring0 test that SKIPs naming its architectures
 * before touching the device; no name of it is this architecture's; the ring0 group holds
 * exactly this architecture's list and them. */
static void test_other_architectures_probes_skip(void **st)
{
	static const char *const own[] = {
#define OWN_NAME(id, nm, ttl) #nm,
		ISOBENCH_PROBES(OWN_NAME) NULL
	};
	static const struct { const char *test, *name, *owners; } other[] = {
#define OTHER_ROW(id, nm, ttl, owners) { RING0_PREFIX #nm, #nm, owners },
		RING0_OTHERS(OTHER_ROW) { NULL, NULL, NULL }
	};
	int nother = 0, nring0 = 0;
	(void)st;
	for (int i = 0; other[i].test; i++, nother++) {
		const struct bench *b = bench_find(other[i].test);
		struct bench_ctx c;
		char want[160];

		if (!b)
			fail_msg("%s: another architecture's probe is not registered", other[i].test);
		assert_string_equal(b->group, REC_GROUP_RING0);
		for (int j = 0; own[j]; j++)
			if (!strcmp(own[j], other[i].name))
				fail_msg("%s is this architecture's probe and another's row", own[j]);
		memset(&c, 0, sizeof c);
		open_errno = 0;
		opens = 0;
		assert_int_equal(b->setup(&c), BENCH_SKIP);
		assert_int_equal(opens, 0);
		snprintf(want, sizeof want, "%s is an %s ring-0 probe", other[i].name, other[i].owners);
		assert_string_equal(c.note, want);
	}
	for (int i = 0; bench_registry[i]; i++)
		nring0 += !strcmp(bench_registry[i]->group, REC_GROUP_RING0);
	assert_int_equal(nring0, ISOBENCH_PROBE_COUNT + nother);
	/* Two architectures have drivers: a build of either has the other's probes. */
	assert_true(nother > 0);
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
		cmocka_unit_test(test_value_is_net_of_null),
		cmocka_unit_test(test_calls_weighted_by_iterations),
		cmocka_unit_test(test_no_dearer_than_null_is_resolution),
		cmocka_unit_test(test_other_architectures_probes_skip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
