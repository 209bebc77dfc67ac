/* selftest-* — tests that misbehave on purpose, so the harness's failure paths can be proven
 * in the tests and in the image: a crash (SIGSEGV in run), a stall (run never returns), a
 * skip (setup says not supported), an error (run returns -EIO), and a slow loop (each loop
 * sleeps SELFTEST_SLOW_LOOP_S: calibration, a warm-up and one sample, the windows two loops
 * each, outlast the 60 s a one-sample test is first given, so it completes only when the
 * harness moves its deadline, harness.h), and a linger (a RESULT, then a teardown that never
 * returns: the runner's deadline finds the test's outcome given, runner.c). Group "selftest": only run
 * when named; `all` does not include them. One loop of the well-behaved part is one volatile
 * increment (unit lps). */
#include "../benchapi.h"

#include <errno.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

static int run_crash(struct bench_ctx *ctx, uint64_t iters)
{
	(void)iters;
	ctx->sink++;
	raise(SIGSEGV);
	return 0;
}

static int run_stall(struct bench_ctx *ctx, uint64_t iters)
{
	(void)iters;
	for (;;) {
		ctx->sink++;
		pause();
	}
	return 0;
}

#define SELFTEST_SLOW_LOOP_S 13

static int run_slow(struct bench_ctx *ctx, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		struct timespec t = {SELFTEST_SLOW_LOOP_S, 0};
		while (nanosleep(&t, &t) && errno == EINTR)
			;
		ctx->sink++;
	}
	return 0;
}

static int setup_skip(struct bench_ctx *ctx)
{
	bench_note(ctx, "selftest: skipping on purpose");
	return BENCH_SKIP;
}

static int run_error(struct bench_ctx *ctx, uint64_t iters)
{
	(void)iters;
	bench_note(ctx, "selftest: failing on purpose");
	return -EIO;
}

/* A teardown that never returns: the copy outlives its test's RESULT. */
static void linger(struct bench_ctx *ctx)
{
	(void)ctx;
	for (;;)
		pause();
}

static int run_ok(struct bench_ctx *ctx, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++)
		ctx->sink++;
	return 0;
}

#define SELFTEST(sym, ttl, ...) \
	BENCH(sym, .title = ttl, .group = REC_GROUP_SELFTEST, .nodefault = 1, \
		.unit = REC_UNIT_LPS, .kind = BENCH_RATE, .per_loop = 1, __VA_ARGS__)

SELFTEST(selftest_crash, "Selftest: crashes", .run = run_crash);
SELFTEST(selftest_stall, "Selftest: stalls", .run = run_stall);
SELFTEST(selftest_skip, "Selftest: skips", .setup = setup_skip,
	 .run = run_ok);
SELFTEST(selftest_error, "Selftest: run() fails", .run = run_error);
SELFTEST(selftest_slow, "Selftest: loops of seconds", .run = run_slow);
SELFTEST(selftest_linger, "Selftest: lingers after its result", .run = run_ok,
	 .teardown = linger);
