/* registry.c — the one list of tests, in run order: UnixBench's index in UnixBench's order
 * (its `Run` script), then the tests outside the index (their groups and units are
 * lib/vocab.h's).
 * Adding a test: write payload/bench/<family>.c defining it with BENCH(<id>, ...)
 * (benchapi.h) and add X(<id>) to BENCH_TESTS below. Nothing else names tests: a test's name
 * is its row's id, written here once (the name table below derives the string). */
#include "benchapi.h"
#include "bench/ring0.h"
#include "probes.h"

#include <string.h>

/* BENCH_TESTS(X, A, R): every test, in run order, named once. X(id) is the test whose
 * descriptor `const struct bench bench_<id>` a file of payload/bench/ defines with BENCH(id,
 * ...), named id with '_' -> '-' (fsread_1024: "fsread-1024"); A is applied to each row
 * X(id, title, owner, insn, hint) of the architectures' instruction probes
 * (payload/arch/generic/probes.h), named the same way from id; R is applied to each probe of
 * the ring-0 driver's list, X(ID, name, title) of ISOBENCH_PROBES, then to each probe only
 * other architectures' lists have, X(ID, name, title, owners) of RING0_OTHERS (bench/ring0.h):
 * every architecture's probes on every build, each name once; the descriptor is
 * bench_ring0_<name>, named RING0_PREFIX + name as the driver spells it.
 * The order is the records' order: UnixBench's index in UnixBench's order, then the rest;
 * change it and every log changes.
 * Adding a test: one file defining bench_<id>, one X(id) line here (docs/architecture.md,
 * "Adding a test"). */
#define BENCH_TESTS(X, A, R) \
	/* index */ \
	X(dhry2reg) X(whetstone_double) X(execl) X(fstime) X(fsbuffer) X(fsdisk) X(pipe) \
	X(context1) X(spawn) X(shell1) X(shell8) X(syscall) \
	/* extra */ \
	X(getpid) X(dupclose) X(exec) X(fsread_1024) X(fsread_256) X(fsread_4096) \
	X(fswrite_1024) X(fswrite_256) X(fswrite_4096) \
	/* probes: where virtualization costs (payload/bench/clock.c) */ \
	X(clock_monotonic) X(clock_monotonic_raw) X(clock_monotonic_coarse) X(clock_realtime) \
	X(clock_realtime_coarse) X(clock_boottime) X(clock_gettimeofday) X(clock_time) \
	X(clock_syscall) \
	/* every architecture's instructions: the one list payload/arch/generic/probes.h */ \
	ARCH_PROBES(A) \
	/* payload/bench/vmexit.c */ \
	X(vmexit_pagefault) X(vmexit_shootdown) X(vmexit_wake_samecpu) X(vmexit_wake_crosscpu) \
	X(vmexit_nanosleep_50us) X(vmexit_nanosleep_1ms) \
	/* payload/bench/sockwrite.c, tbench.c */ \
	X(sockwrite_64) X(sockwrite_512) X(sockwrite_4096) X(sockwrite_paced) \
	X(sockwrite_paced_samecpu) X(sockwrite_paced_crosscpu) X(tbench_1) X(tbench_n) \
	/* disk: payload/bench/disk.c */ \
	X(disk_randread_4k_qd1) X(disk_randread_4k_qd32) X(disk_read_1m) X(disk_write_1m) \
	X(disk_randwrite_4k_qd1) X(disk_flush) \
	/* net: against a peer (payload/bench/net.c) */ \
	X(net_tcp_rr) X(net_tcp_crr) X(net_tcp_stream) X(net_tcp_maerts) X(net_udp_rr) \
	X(net_paced_write) \
	/* memory: payload/bench/mem_latency.c, mem_stream.c, mem_fault.c; mem-fault-fresh-4k \
	 * first, before the group's other tests have used (and freed) guest memory */ \
	X(mem_fault_fresh_4k) X(mem_latency_16k_4k) X(mem_latency_16k_2m) X(mem_latency_512k_4k) \
	X(mem_latency_512k_2m) X(mem_latency_16m_4k) X(mem_latency_16m_2m) \
	X(mem_latency_256m_4k) X(mem_latency_256m_2m) X(mem_latency_1g_4k) X(mem_latency_1g_2m) \
	X(mem_bandwidth_copy) X(mem_bandwidth_scale) X(mem_bandwidth_add) \
	X(mem_bandwidth_triad) X(mem_fault_4k) X(mem_fault_2m) X(mem_fault_tmpfs) \
	X(mem_latency_256m_4k_remote) X(mem_latency_256m_2m_remote) \
	X(mem_latency_1g_4k_remote) X(mem_latency_1g_2m_remote) X(mem_bandwidth_copy_remote) \
	X(mem_bandwidth_scale_remote) X(mem_bandwidth_add_remote) X(mem_bandwidth_triad_remote) \
	/* ring0: one per probe of the driver's list, then the other architectures' it lacks \
	 * (bench/ring0.h) */ \
	ISOBENCH_PROBES(R) RING0_OTHERS(R) \
	/* selftest: misbehave on purpose; only when named (.nodefault: never by "all") */ \
	X(selftest_crash) X(selftest_stall) X(selftest_skip) X(selftest_error) X(selftest_slow) \
	X(selftest_linger)

/* The name table: each test's name, the one string of it in the tree, from its row's id
 * (stress-ng names its stressors by `#name` in STRESSOR_ELEM the same way, and prints them with
 * '_' made '-', stress_munge_underscore()). The preprocessor cannot turn '_' into '-', so
 * BENCH_NAME(id) holds `#id` and bench_names_hyphenate() rewrites it once, as a constructor:
 * before main() and before any unit test's first look, so no reader sees the raw id.
 * The ring-0 names keep the driver's underscores (ring0-inl_from_pmtimer): they are
 * kvm-unit-tests' vmexit test names (x86/vmexit.c: inl_from_pmtimer, inl_from_kernel,
 * mov_from_cr8, mov_to_cr8, ...) behind the group's prefix, so a figure reads against that
 * suite's by grep, and the logs, stores and fixtures already key on them; the field's names
 * win over the house's hyphens here (docs/architecture.md, "Test names"). */
#define NAME_ROW(id) char BENCH_NAME(id)[] = #id;
#define NAME_ARCH(id, ttl, owner, insn, hint) NAME_ROW(id)
#define NAME_RING0(ID, nm, ...) char BENCH_NAME(ring0_##nm)[] = RING0_PREFIX #nm;
BENCH_TESTS(NAME_ROW, NAME_ARCH, NAME_RING0)

#define HYPHEN_ROW(id) BENCH_NAME(id),
#define HYPHEN_ARCH(id, ttl, owner, insn, hint) HYPHEN_ROW(id)
#define HYPHEN_NONE(ID, nm, ...)
static char *const bench_names_hyphenated[] = {
	BENCH_TESTS(HYPHEN_ROW, HYPHEN_ARCH, HYPHEN_NONE) NULL
};

__attribute__((constructor)) static void bench_names_hyphenate(void)
{
	for (int i = 0; bench_names_hyphenated[i]; i++)
		for (char *c = bench_names_hyphenated[i]; *c; c++)
			if (*c == '_')
				*c = '-';
}

#define BENCH_EXTERN(nm) extern const struct bench bench_##nm;
#define ARCH_EXTERN(id, ttl, owner, insn, hint) BENCH_EXTERN(id)
#define RING0_EXTERN(id, nm, ...) BENCH_EXTERN(ring0_##nm)
BENCH_TESTS(BENCH_EXTERN, ARCH_EXTERN, RING0_EXTERN)

#define BENCH_ENTRY(nm) &bench_##nm,
#define ARCH_ENTRY(id, ttl, owner, insn, hint) BENCH_ENTRY(id)
#define RING0_ENTRY(id, nm, ...) BENCH_ENTRY(ring0_##nm)
const struct bench *const bench_registry[] = {
	BENCH_TESTS(BENCH_ENTRY, ARCH_ENTRY, RING0_ENTRY) NULL
};

const struct bench *bench_find(const char *name)
{
	for (int i = 0; bench_registry[i]; i++)
		if (!strcmp(bench_registry[i]->name, name))
			return bench_registry[i];
	return NULL;
}
