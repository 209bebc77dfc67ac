/* keys.h — the names of record kinds and keys (docs/records.md), named once: the payload
 * writes records with them and the report reads records with them. A key that is in a record
 * is spelled here; INFO keys are named in sysinfo.c's table (and docs/records.md). */
#ifndef ISOBENCH_KEYS_H
#define ISOBENCH_KEYS_H

/* Kinds. */
#define RK_BEGIN "BEGIN"
#define RK_INFO "INFO"
#define RK_ERROR "ERROR"
#define RK_TEST "TEST"
#define RK_SAMPLE "SAMPLE"
#define RK_RESULT "RESULT"
#define RK_SKIP "SKIP"
#define RK_FAIL "FAIL"
#define RK_END "END"
#define RK_WARN "WARN"

/* Keys. */
#define RK_RUN "run"		/* BEGIN */
#define RK_VERSION "version"
#define RK_MODE "mode"
#define RK_WHAT "what"		/* ERROR */
#define RK_PARAM "param"
#define RK_REASON "reason"
#define RK_TESTNAME "test"	/* TEST, SAMPLE, RESULT, SKIP, FAIL, ERROR */
#define RK_K "k"		/* TEST */
#define RK_N "n"
#define RK_COPIES "copies"
#define RK_UNIT "unit"
#define RK_GROUP "group"
#define RK_TITLE "title"
#define RK_BASELINE "baseline"
#define RK_BETTER "better"	/* TEST, RESULT: REC_BETTER_HIGHER or REC_BETTER_LOWER */
#define RK_CLOCKSOURCE "clocksource" /* TEST (as it starts), END (at the end) */
#define RK_PIN "pin"		/* TEST: copies pinned */
#define RK_I "i"		/* SAMPLE */
#define RK_WARMUP "warmup"
#define RK_LOOPS "loops"
#define RK_NS "ns"
#define RK_STEAL "steal_ticks"
#define RK_BATCH "batch"
#define RK_RAN_LOOPS "ran_loops"	/* SAMPLE: placement and CPU (harness.c) */
#define RK_RAN_NS "ran_ns"
#define RK_CPUS "cpus"
#define RK_MIGRATIONS "migrations"
#define RK_NIVCSW "nivcsw"
#define RK_CPU_NS "cpu_ns"
#define RK_BEFORE "before"	/* WARN: a clocksource change */
#define RK_AFTER "after"
#define RK_REQUESTED "requested"	/* WARN: a clocksource= not taken */
#define RK_CURRENT "current"
#define RK_VALUE "value"	/* SAMPLE: what this sample contributes; RESULT: the aggregate */
#define RK_SAMPLES "samples"	/* RESULT */
#define RK_MEDIAN "median"
#define RK_MIN "min"
#define RK_MAX "max"
#define RK_CI95 "ci95_pct"
#define RK_CONVERGED "converged"
#define RK_INDEX "index"
#define RK_NOTE "note"		/* FAIL */
#define RK_SIGNAL "signal"
#define RK_STATUS "status"	/* FAIL, END */
#define RK_OOM "oom_kills"	/* FAIL */
#define RK_RECORDS "records"	/* END */
#define RK_RESULTS "results"
#define RK_FAILS "fails"
#define RK_SKIPS "skips"
#define RK_ERRORS "errors"

/* Values of better=. */
#define REC_BETTER_HIGHER "higher"
#define REC_BETTER_LOWER "lower"

/* FAIL test= of the run's watchdog (init.c). */
#define REC_WATCHDOG "watchdog"

#endif
