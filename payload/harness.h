/* harness.h — measure one test with C copies, in the calling (child) process.
 *
 * Protocol: the harness writes record bodies ("KIND key=value ...\n", docs/records.md) to fd:
 * SAMPLE lines, then one RESULT, SKIP or FAIL. It forks one worker per copy (with pin=1,
 * copy c is bound to the c-th CPU this process may use); each worker calls setup() once and
 * then, per sample, run(batch) repeatedly until the controller raises a shared stop flag.
 *
 * N copies share one window: every copy gets its command and waits at a start line (a
 * futex); the window opens when all wait there, one wake releases them, and it closes
 * sample_ms later when the stop flag goes up. A copy reads the clock and its CPU number
 * between batches only (never inside run()); the batch running when the window closes
 * counts in proportion to its time inside the window (stats.h, window_loops()). So a copy
 * that started late or got little CPU counts what it did in the window, and the copies'
 * loops add up to what the machine did in it.
 *
 * Per copy and sample the SAMPLE also says where it ran: the CPUs seen between batches, its
 * migrations (the CPU changes seen between batches, a lower bound: a perf event counting
 * them exactly made context1 ~15% slower, so none is attached to a measured process), its
 * involuntary context switches and its CPU time, and the clock its CPU ran at, measured just
 * before the copy waits at the start line and just after its last batch (cpuclock.h).
 * Workers report through shared memory. The caller (runner.c) adds sequence numbers and
 * checksums, enforces the timeout and reports crashes. */
#ifndef ISOBENCH_HARNESS_H
#define ISOBENCH_HARNESS_H

#include "benchapi.h"
#include "params.h"

/* The longest parent of the work directories (harness_env.tmpdir) whose derived paths work:
 * TMPDIR/isobench.PID/copyC/shell/bin/sh (+ 42 characters) must fit the harness's 255 and
 * the kernel's #! line (it reads 255 bytes: shell.c's multi.sh names its shell there). */
#define HARNESS_TMPDIR_MAX 200

struct harness_env {
	const char *self;	/* path of this binary (exec tests) */
	const char *tmpdir;	/* parent of the copies' private work directories */
	int budget_s;		/* the test's deadline (s): stop adding samples past ~80% of it */
};

/* A test's deadline in seconds when no timeout= is given: calibration and setup (60 s), then
 * max_samples windows of window_ns, three times over for slow guests. The runner starts a
 * test with the window sample_ms; when one loop is longer than that and the harness widens
 * the window (harness.c sample_window()), the harness extends the deadline to the time spent
 * so far plus this for the wider window, at most HARNESS_DEADLINE_CAP times the first, and
 * says so in an INFO deadline.* that the runner reads to move its kill (runner.c). */
#define HARNESS_DEADLINE_CAP 4
int harness_deadline_s(const struct params *p, uint64_t window_ns);
/* The latest a deadline that started at first_s may move to (HARNESS_DEADLINE_CAP x). */
int harness_deadline_cap(int first_s);

/* Returns the exit status for the test child: 0 when a RESULT/SKIP/FAIL was written. */
int harness_test(const struct bench *b, int copies, const struct params *p,
		 const struct harness_env *env, int fd);

#endif
