/* harness.h — measure one test with C copies, in the calling (child) process.
 *
 * Protocol: the harness writes record bodies ("KIND key=value ...\n", docs/records.md) to fd:
 * SAMPLE lines, then one RESULT, SKIP or FAIL. It forks one worker per copy; each worker
 * calls setup() once and then, per sample, run(batch) repeatedly until the controller raises
 * a shared stop flag after sample_ms; it reads the clock only before the first and after the
 * last batch. Workers report (loops, ns) through shared memory. The caller (runner.c) adds
 * sequence numbers and checksums, enforces the timeout and reports crashes. */
#ifndef ISOBENCH_HARNESS_H
#define ISOBENCH_HARNESS_H

#include "bench.h"
#include "params.h"

struct harness_env {
	const char *self;	/* path of this binary (exec tests) */
	const char *tmpdir;	/* parent of the copies' private work directories */
	int budget_s;		/* stop adding samples past ~80% of this */
};

/* Returns the exit status for the test child: 0 when a RESULT/SKIP/FAIL was written. */
int harness_test(const struct bench *b, int copies, const struct params *p,
		 const struct harness_env *env, int fd);

/* Monotonic time in ns (CLOCK_MONOTONIC). */
uint64_t now_ns(void);

#endif
