/* benchapi.h — the benchmark descriptor and the context the harness hands to a test.
 *
 * A test is one `const struct bench` in payload/bench/<family>.c, defined with BENCH(id, ...)
 * (below) and listed once, as its id, in registry.c.
 * The harness (harness.c) owns timing: it calls setup() once per copy, then run() repeatedly
 * with an iteration count it chooses, reading the clock only around whole calls to run().
 * run() owns its loop and must do exactly `iters` units of work, folding a result into
 * ctx->sink (or another volatile sink) so the compiler cannot delete the work.
 *
 * Errors: setup() and run() return 0 or a negative errno (-ENOSYS, ...); setup() may return
 * BENCH_SKIP after bench_note(ctx, "why") to say the test cannot run here.
 */
#ifndef ISOBENCH_BENCHAPI_H
#define ISOBENCH_BENCHAPI_H

#include "vocab.h"

#include <stddef.h>
#include <stdint.h>

struct rec_body;
struct lat_hist;
struct params;

#define BENCH_SKIP 1
/* A sample's extras (bench_extra()): net-udp-rr has 9 (four tails, mtu, rtt0, sys_cpu, lost,
 * msg_bytes); one past the cap is a programming error, said on stderr (bench_extra()). */
#define BENCH_MAX_EXTRA 16

/* A test's kind is also which way its value is better: bench_better() says it on the wire. */
enum bench_kind {
	BENCH_RATE,	/* value = loops * per_loop / seconds  (lps, lpm, KBps, MWIPS); higher */
	BENCH_TIME,	/* value = ns / loops / per_loop        (ns per operation); lower      */
};

struct bench_ctx {
	int copy;		/* 0 .. copies-1 */
	int copies;
	const char *workdir;	/* private, writable directory of this copy */
	const char *self;	/* path of the running isobench binary (for exec tests) */
	void *state;		/* the test's own, set by setup(), freed by teardown() */
	volatile uint64_t sink;	/* fold results here so measured work is not deleted */
	/* Optional per-sample extras a test reports (integers), e.g. cpu share. */
	int nextra;
	const char *extra_key[BENCH_MAX_EXTRA];
	int64_t extra_val[BENCH_MAX_EXTRA];
	char note[160];		/* reason for a skip or an error, set with bench_note() */
	/* The sample's latency histogram (lib/latency.h), set with bench_lat(); NULL when the
	 * test keeps none. The harness resets it before every sample. */
	const struct lat_hist *lat;
	/* The process doing this copy's measured work when it is not the copy's own (a server
	 * the test started in setup(), e.g. isobench-proc dhry-serve), 0 when none: the harness
	 * adds its CPU time and involuntary context switches to the copy's (SAMPLE cpu_ns). */
	int helper;
};

/* What a test's judge sees (struct bench, judge): the RESULT's value, and for each SAMPLE
 * extra the test names in judge_extras the median over the samples the RESULT kept (copy 0's
 * extras; -1 when no kept sample carried it; the first BENCH_JUDGE_SAMPLES samples). */
#define BENCH_JUDGE_EXTRAS 2
#define BENCH_JUDGE_SAMPLES 1000
struct bench_judged {
	double value;
	double extra[BENCH_JUDGE_EXTRAS];
};
enum { BENCH_JUDGE_NONE, BENCH_JUDGE_WARN, BENCH_JUDGE_NOTE };

struct bench {
	const char *name;	/* the registry's (BENCH_NAME): UnixBench's "dhry2reg", "fsread-1024" */
	const char *title;	/* UnixBench's label: "Pipe Throughput" */
	const char *group;	/* a REC_GROUP_* of lib/vocab.h (selectable as a name) */
	const char *unit;	/* a REC_UNIT_* of lib/vocab.h */
	enum bench_kind kind;
	double per_loop;	/* units per loop (RATE) or loops per operation (TIME) */
	double baseline;	/* UnixBench index baseline (SPARCstation 20-61), 0 if none */
	int max_copies;		/* 0: any; 1: a single-copy test */
	int pin;		/* 1: pinned unless isobench.pin=0 (bench_pinned()) */
	/* 1: the test runs only when named, by its name or its group, never by tests=all
	 * (kvm-unit-tests' "nodefault" group in unittests.cfg): the selftests, which fail on
	 * purpose. bench_in_all() reads it; --list's help line is derived from it. */
	int nodefault;
	/* If set, a sample's value is this extra of copy 0 (e.g. "p50_late_ns") times
	 * value_scale (0 means 1) instead of the rate or time derived from loops and ns; then
	 * kind only says which way is better (RATE: higher, TIME: lower). */
	const char *value_extra;
	double value_scale;
	/* If set, the RESULT carries this extra too (it must be a RESULT key of lib/vocab.h):
	 * the median over the kept samples of copy 0's value of it, rounded; samples without
	 * it are left out, and the RESULT has none when no kept sample had it. */
	const char *result_extra;
	/* If set, called by the runner (not in the test's process) before each pass's TEST
	 * record with the test (t) and the runner's own path; fields it adds to b go out as one
	 * INFO record (e.g. what a process test executes: core/isoproc.h, keyed by t->name). */
	void (*info)(const struct bench *t, const char *self, struct rec_body *b);
	/* If set, called by the runner after the test's RESULT (struct bench_judged: its value
	 * and the medians of the SAMPLE extras named in judge_extras): BENCH_JUDGE_WARN and a
	 * reason when the result is one the machine cannot give as it claims (a flush that
	 * reaches no stable storage), which becomes a WARN what=result; BENCH_JUDGE_NOTE and a
	 * reason for a verdict that is no warning (an INFO verdict.test= verdict.reason=, right
	 * after the RESULT); else BENCH_JUDGE_NONE. */
	int (*judge)(const struct bench *b, const struct bench_judged *j, char *reason, size_t len);
	const char *judge_extras[BENCH_JUDGE_EXTRAS];	/* SAMPLE extras the judge sees; NULL: none */
	int (*setup)(struct bench_ctx *);
	int (*run)(struct bench_ctx *, uint64_t iters);
	void (*teardown)(struct bench_ctx *);
};

/* A test's name is spelled once, as the id of its row in registry.c's BENCH_TESTS: the
 * descriptor is `bench_<id>` and its name BENCH_NAME(id), a string registry.c builds from the
 * row (`#id` with each '_' made '-' at start-up, before main(): fsread_1024 is "fsread-1024";
 * the ring-0 probes' "ring0-<probe>" keeps the driver's spelling, registry.c says why).
 *   BENCH(id, .title = ..., ...)   defines `const struct bench bench_<id>` with that name and
 *                                  the given fields (designated initializers, no .name);
 *   BENCH_DEFINE(attr, id, ...)    the same, with an attribute before it (weak: generic/probes.c).
 * A descriptor whose id is not a row does not link (no BENCH_NAME(id)). */
#define BENCH_NAME(id) bench_name_##id
#define BENCH_DEFINE(attr, id, ...) \
	extern char BENCH_NAME(id)[]; \
	attr const struct bench bench_##id = { .name = BENCH_NAME(id), __VA_ARGS__ }
#define BENCH(id, ...) BENCH_DEFINE(, id, __VA_ARGS__)

/* Format a reason into ctx->note (printf-style). */
void bench_note(struct bench_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Report an integer extra for the current sample (key must be a static string). */
void bench_extra(struct bench_ctx *ctx, const char *key, int64_t val);

/* Hand the harness the sample's latency histogram h (ns; it must stay valid until run()
 * returns, and hold the whole sample so far): after the sample the harness copies copy 0's,
 * and merges those of the kept samples into the RESULT's whole-run percentiles (lib/latency.h
 * LAT_QUANTILES keys), so a stall confined to one sample stays in the RESULT's p99.9 and max.
 * The test still reports the sample's own percentiles as extras (bench_extra()). */
void bench_lat(struct bench_ctx *ctx, const struct lat_hist *h);

/* Which way is better for b's value: REC_BETTER_HIGHER ("higher") for BENCH_RATE,
 * REC_BETTER_LOWER ("lower") for BENCH_TIME (times, and extras such as lateness or a CPU
 * share). The one definition of a test's direction: the runner aggregates with it and writes
 * it into TEST and RESULT records (better=); readers take it from there. */
const char *bench_better(const struct bench *b);
/* 1 when b's copies run pinned (copy c on the c-th allowed CPU): isobench.pin when given,
 * else b's own default (.pin). */
int bench_pinned(const struct bench *b, const struct params *p);
int bench_higher_is_better(const struct bench *b);
/* 1 when tests=all selects b: every test but those marked .nodefault. */
int bench_in_all(const struct bench *b);

/* The net tests' peer, HOST[:PORT] (isobench.peer), "" when none: set by the runner before
 * the header and the tests (benchapi.c). */
extern char bench_peer[128];
/* The isobench.peer= value refused, "VALUE was rejected (reason)" (params.h), "" when none
 * was: the net tests' SKIP says it rather than "no peer". Set with bench_peer. */
extern char bench_peer_rejected[200];

/* registry.c: every test, in run order; NULL-terminated. */
extern const struct bench *const bench_registry[];
const struct bench *bench_find(const char *name);

/* 1 when b is an index test (lib/unixbench.h ub_is_index(): it has a baseline; the index
 * group, REC_GROUP_INDEX, holds exactly these), else 0. */
int bench_is_index(const struct bench *b);

#endif
