/* runner.h — run a whole suite: BEGIN, machine header, every selected test in its own
 * child process (with a timeout; a crash or stall becomes a FAIL record), the human tables,
 * END. Used by PID 1 (init.c) and by the host CLI (main.c) alike. */
#ifndef ISOBENCH_RUNNER_H
#define ISOBENCH_RUNNER_H

#include "params.h"
#include <sys/types.h>

#define RUNNER_MAX_PENDING 32

struct runner_cfg {
	const char *mode;	/* "init" or "host" */
	const char *self;	/* path of this binary */
	const char *tmpdir;
	/* Input errors found before BEGIN (parameters), reported right after it. */
	int npending;
	char pending_param[RUNNER_MAX_PENDING][64];
	char pending_value[RUNNER_MAX_PENDING][128];
	char pending_reason[RUNNER_MAX_PENDING][160];
	int ndropped;		/* errors past RUNNER_MAX_PENDING: counted in one more ERROR */
};

/* Remember an input error for the run's ERROR records (a param_error_fn). Past
 * RUNNER_MAX_PENDING of them the rest are counted, and one more ERROR says how many. */
void runner_pending_error(void *cfg, const char *param, const char *value, const char *reason);

/* Names in p->tests that match no test or group, comma-separated into out (cap bytes, at
 * least 32): whole names, then " and N more" for those that do not fit; returns how many. */
int runner_unknown_tests(const struct params *p, char *out, size_t cap);

/* Per-test timeout in seconds for these parameters. */
int runner_test_timeout(const struct params *p);
/* Upper bound of the whole run in seconds (for the PID 1 watchdog). */
int runner_budget(const struct params *p);

/* Runs everything; returns 0 when no FAIL or ERROR record was written, else 1.
 * on_child_exit, if set, is told about every reaped pid that is not the runner's own. */
int runner_run(struct params *p, struct runner_cfg *cfg, void (*on_child_exit)(pid_t));

#endif
