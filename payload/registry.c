/* registry.c — the one list of tests, in run order: UnixBench's index in UnixBench's order
 * (its `Run` script), then the tests outside the index; and the one list of their groups
 * and units.
 * Adding a test: write payload/bench/<name>.c exporting `const struct bench bench_<name>`,
 * declare it below and put it in the list. Nothing else names tests. */
#include "bench.h"
#include "bench/ring0.h"
#include "vocab.h"

#include <string.h>

extern const struct bench
	/* index */
	bench_dhry2reg, bench_whetstone_double, bench_execl, bench_fstime, bench_fsbuffer,
	bench_fsdisk, bench_pipe, bench_context1, bench_spawn, bench_shell1, bench_shell8,
	bench_syscall,
	/* extra */
	bench_getpid, bench_dupclose, bench_exec, bench_fsread_1024, bench_fsread_256,
	bench_fsread_4096, bench_fswrite_1024, bench_fswrite_256, bench_fswrite_4096;
extern const struct bench
	/* probes: where virtualization costs (payload/bench/clock.c) */
	bench_clock_monotonic, bench_clock_monotonic_raw, bench_clock_monotonic_coarse,
	bench_clock_realtime, bench_clock_realtime_coarse, bench_clock_boottime,
	bench_clock_gettimeofday, bench_clock_time, bench_clock_syscall, bench_clock_rdtsc,
	bench_clock_rdtscp,
	/* payload/bench/vmexit.c */
	bench_vmexit_cpuid, bench_vmexit_rdtsc, bench_vmexit_rdtscp, bench_vmexit_pause,
	bench_vmexit_pagefault, bench_vmexit_shootdown, bench_vmexit_wake_samecpu,
	bench_vmexit_wake_crosscpu, bench_vmexit_nanosleep_50us, bench_vmexit_nanosleep_1ms,
	/* payload/bench/sockwrite.c */
	bench_sockwrite_64, bench_sockwrite_512, bench_sockwrite_4096, bench_sockwrite_paced,
	bench_sockwrite_paced_samecpu, bench_sockwrite_paced_crosscpu,
	/* payload/bench/tbench.c */
	bench_tbench_1, bench_tbench_n;
/* ring0: one per probe of the driver's list (payload/arch/<arch>/ring0.c, bench/ring0.h) */
#define RING0_EXTERN(id, nm, ttl) extern const struct bench bench_ring0_##nm;
ISOBENCH_PROBES(RING0_EXTERN)
extern const struct bench
	/* selftest: misbehave on purpose; only when named (runner.c keeps them out of "all") */
	bench_selftest_crash, bench_selftest_stall, bench_selftest_skip, bench_selftest_error;

const struct bench *const bench_registry[] = {
	&bench_dhry2reg,
	&bench_whetstone_double,
	&bench_execl,
	&bench_fstime,
	&bench_fsbuffer,
	&bench_fsdisk,
	&bench_pipe,
	&bench_context1,
	&bench_spawn,
	&bench_shell1,
	&bench_shell8,
	&bench_syscall,

	&bench_getpid,
	&bench_dupclose,
	&bench_exec,
	&bench_fsread_1024,
	&bench_fsread_256,
	&bench_fsread_4096,
	&bench_fswrite_1024,
	&bench_fswrite_256,
	&bench_fswrite_4096,

	&bench_clock_monotonic,
	&bench_clock_monotonic_raw,
	&bench_clock_monotonic_coarse,
	&bench_clock_realtime,
	&bench_clock_realtime_coarse,
	&bench_clock_boottime,
	&bench_clock_gettimeofday,
	&bench_clock_time,
	&bench_clock_syscall,
	&bench_clock_rdtsc,
	&bench_clock_rdtscp,
	&bench_vmexit_cpuid,
	&bench_vmexit_rdtsc,
	&bench_vmexit_rdtscp,
	&bench_vmexit_pause,
	&bench_vmexit_pagefault,
	&bench_vmexit_shootdown,
	&bench_vmexit_wake_samecpu,
	&bench_vmexit_wake_crosscpu,
	&bench_vmexit_nanosleep_50us,
	&bench_vmexit_nanosleep_1ms,
	&bench_sockwrite_64,
	&bench_sockwrite_512,
	&bench_sockwrite_4096,
	&bench_sockwrite_paced,
	&bench_sockwrite_paced_samecpu,
	&bench_sockwrite_paced_crosscpu,
	&bench_tbench_1,
	&bench_tbench_n,

#define RING0_ENTRY(id, nm, ttl) &bench_ring0_##nm,
	ISOBENCH_PROBES(RING0_ENTRY)

	&bench_selftest_crash,
	&bench_selftest_stall,
	&bench_selftest_skip,
	&bench_selftest_error,
	NULL,
};

const char *const bench_groups[] = {
	BENCH_GROUP_INDEX, "extra", "probes", RING0_GROUP, BENCH_GROUP_SELFTEST, NULL,
};

const char *const bench_units[] = {
	"lps", "lpm", "KBps", "MWIPS", "MB/s", "ns", "%cpu", NULL,
};

const struct bench *bench_find(const char *name)
{
	for (int i = 0; bench_registry[i]; i++)
		if (!strcmp(bench_registry[i]->name, name))
			return bench_registry[i];
	return NULL;
}

/* payload/bench/tbench_load.c: the dbench load file the tbench tests replay, NULL for the
 * built-in synthetic mix. */
const char *tbench_load_path(void);

static const char *tbench_load_fact(void)
{
	return tbench_load_path() ? tbench_load_path() : "synthetic";
}

const struct bench_fact bench_facts[] = {
	{RK_RUN_TBENCH_LOAD, tbench_load_fact},
	{NULL, NULL},
};
