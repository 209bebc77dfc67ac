/* facts.h — what the test families add to the machine header (sysinfo.c sends it): single
 * facts (INFO key=value()) and whole blocks built from the run's parameters, each family's
 * listed in facts.c. In: nothing but the run's parameters; out: INFO fields. */
#ifndef ISOBENCH_FACTS_H
#define ISOBENCH_FACTS_H

struct rec_body;

/* A fact a test contributes to the machine header (INFO key=value()), e.g. which load file
 * tbench replays; listed in facts.c, so sysinfo.c names no test's header. */
struct bench_fact {
	const char *key;
	const char *(*value)(void);
};
extern const struct bench_fact bench_facts[];	/* {NULL, NULL}-terminated */

/* A block of the machine header a test family contributes from the run's parameters (the
 * disk the disk tests use): adds fields to b, an INFO record already begun; sysinfo.c sends
 * it when fields were added. Called once per run, in the runner, before any test.
 * NULL-terminated, listed in facts.c. */
struct params;
typedef void bench_header_fn(const struct params *p, struct rec_body *b);
extern bench_header_fn *const bench_headers[];

#endif
