/* runner.h — run a whole suite: BEGIN, machine header, every selected test in its own
 * child process (with a timeout; a crash or stall becomes a FAIL record), the human tables,
 * END. Used by PID 1 (init.c) and by the host CLI (main.c) alike. */
#ifndef ISOBENCH_RUNNER_H
#define ISOBENCH_RUNNER_H

#include "params.h"
#include <sys/types.h>

#define RUNNER_MAX_PENDING 32
#define RUNNER_MAX_FACTS 12
#define RUNNER_MAX_WARNS 4

struct bench;

/* A test's outcome in a run: none yet, its RESULT, its SKIP or its FAIL (the record kinds). */
enum runner_state { RUNNER_NONE, RUNNER_RESULT, RUNNER_SKIP, RUNNER_FAIL };

/* What the runner tells a watcher of the run (runner_cfg.watch) about each test, as it goes,
 * so that nobody in this process reads back a record the runner wrote (PID 1's screen
 * summary, pid1/summary.h): once when the test is announced (its TEST record; state
 * RUNNER_NONE) and once with its outcome (after its RESULT, SKIP or FAIL). The strings are
 * the test descriptor's (benchapi.h), valid for the whole run. */
struct runner_fact {
	const char *test, *title;	/* the test's name and title */
	double baseline;		/* UnixBench's baseline (ub_is_index()); 0 outside it */
	int copies;			/* the pass's copies */
	enum runner_state state;
	double value;		/* RUNNER_RESULT: the RESULT's value, in the test's unit */
	double index;		/* RUNNER_RESULT: the RESULT's index=; NAN without one */
};

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
	/* PID 1's facts and warnings found before BEGIN (payload/pid1/cloud.h: where the
	 * parameters came from, the metadata service), as INFO and WARN records after it. */
	int nfacts, nwarns;
	const char *fact_key[RUNNER_MAX_FACTS];	/* an RK_ INFO key */
	char fact_value[RUNNER_MAX_FACTS][264];
	const char *warn_what[RUNNER_MAX_WARNS];	/* a REC_WHAT_ word */
	char warn_reason[RUNNER_MAX_WARNS][400];
	/* Told each test's facts as the run goes (struct runner_fact); NULL: nobody. */
	void (*watch)(const struct runner_fact *f);
};

/* Remember an input error for the run's ERROR records (a param_error_fn). Past
 * RUNNER_MAX_PENDING of them the rest are counted, and one more ERROR says how many. */
void runner_pending_error(void *cfg, const char *param, const char *value, const char *reason);
/* Remember an INFO fact (key: an RK_ INFO key; value cut to fit) or a WARN (what: a
 * REC_WHAT_ word; reason formatted, cut to fit) for right after BEGIN, in the order given;
 * past RUNNER_MAX_FACTS or RUNNER_MAX_WARNS a fact is dropped, a warning replaces the last
 * (the latest says most). runner_say_pending() prints them as text lines instead (PID 1's
 * peer: no run). */
void runner_pending_fact(struct runner_cfg *cfg, const char *key, const char *value);
void runner_pending_warn(struct runner_cfg *cfg, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void runner_say_pending(const struct runner_cfg *cfg);

/* Names in p->tests that match no test or group, comma-separated into out (cap bytes, at
 * least 32): whole names, then " and N more" for those that do not fit; returns how many. */
int runner_unknown_tests(const struct params *p, char *out, size_t cap);

/* The tests p->tests selects into sel (at most cap), in the registry's order, each once: a
 * test by its name, a group's tests by the group's name, "all": every test but those marked
 * .nodefault (benchapi.h). Returns how many; unknown names select nothing (runner_run()
 * reports them). */
int runner_selected(const struct params *p, const struct bench **sel, int cap);

/* Per-test timeout in seconds for these parameters. */
int runner_test_timeout(const struct params *p);
/* Upper bound of the whole run in seconds (for the PID 1 watchdog): every one of
 * p->repeat runs (1 when 0). */
int runner_budget(const struct params *p);

/* Runs everything; returns 0 when no FAIL or ERROR record was written, else 1.
 * on_child_exit, if set, is told about every reaped pid that is not the runner's own. */
int runner_run(struct params *p, struct runner_cfg *cfg, void (*on_child_exit)(pid_t));
/* p->repeat runs (one when 0) with runner_run(), one after the other in one stream, each with
 * its own BEGIN..END, run id, records counted from 1 and disk seed (params_next_run()), and
 * p->replicate = 1..repeat when repeat was asked for (INFO run.replicate). Returns 0 when no run wrote a FAIL or ERROR. */
int runner_runs(const struct params *p, struct runner_cfg *cfg, void (*on_child_exit)(pid_t));

#endif
