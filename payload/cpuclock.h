/* cpuclock.h — the clock a CPU ran at over a sample, measured around the sample (never inside
 * its measured loop), for the SAMPLE's mhz= and mhz_method= (docs/records.md).
 *
 * Three methods, the run's one chosen once (cpuclock_probe()), in this order:
 *   aperf  where the core's counters are readable (arch_core_counters(): x86 IA32_APERF and
 *          IA32_MPERF through /dev/cpu/N/msr): effective MHz = TSC rate x delta APERF / delta
 *          MPERF between a read just before the copy waits at the start line and one just
 *          after its last batch, on the CPU it ran on (both counters count in C0 only, so
 *          the wait costs nothing; Intel SDM vol. 3B 15.2, AMD APM vol. 2 17.3). The TSC rate
 *          is delta TSC / delta CLOCK_MONOTONIC over the same two reads;
 *   cppc   where the kernel exposes ACPI CPPC's feedback counters (arm64 ACPI servers, whose
 *          AMU counters the kernel reads for us, EL0 cannot; AMD Zen 2+): the reference and
 *          delivered performance counters of SYSFS_CPU cpuN/acpi_cppc/feedback_ctrs
 *          ("ref:R del:D"), read at the same two moments on the copy's CPU: effective MHz =
 *          reference_perf x delta del / delta ref (the delivered performance, abstract scale;
 *          ACPI 6.5 8.4.6.1.2.5) x nominal_freq (MHz) / nominal_perf, the kernel's linear
 *          scale (Documentation/admin-guide/acpi/cppc_sysfs.rst; cppc_cpufreq's perf-to-kHz
 *          at nominal). reference_perf absent or 0 is nominal_perf (ACPI: optional, then the
 *          reference counter counts at nominal);
 *   chain  elsewhere (most guests, TCG, arm64): as lmbench's mhz (src/mhz.c) estimates it, a
 *          chain of dependent adds of one cycle's latency each (arch_add_chain()) timed
 *          against CLOCK_MONOTONIC: ARCH_CHAIN_ADDS x CPUCLOCK_REPS adds, then twice as many,
 *          the best (shortest) of CPUCLOCK_TRIES of each, and MHz = the extra adds / the
 *          extra time, so the clock read's own cost and the call's cancel. Run just before
 *          the copy waits at the start line and just after its last batch (about 50 us each
 *          at 3 GHz); the figure is the mean of the two.
 *   none   an architecture with neither (ARCH_CHAIN_ADDS 0): the figures are 0.
 * Per copy: each copy measures the CPU it runs on, in its own process. A copy that changed
 * CPU between an aperf method's two reads has no figure (0): the counters are per CPU. */
#ifndef ISOBENCH_CPUCLOCK_H
#define ISOBENCH_CPUCLOCK_H

#include <stddef.h>
#include <stdint.h>

#define CPUCLOCK_REPS 128	/* x ARCH_CHAIN_ADDS (128): 16,384 adds, ~5.5 us at 3 GHz */
#define CPUCLOCK_TRIES 3
/* The long chain may take at most 2 x (1 + this) the short one's time: twice the adds and the
 * same fixed cost take at most twice as long, and 2% is the clock's own jitter against the
 * ~11 us of the long chain at 3 GHz (tens of ns); beyond it each try was stretched. */
#define CPUCLOCK_CHAIN_SLACK 0.02

enum cpuclock_method { CPUCLOCK_NONE, CPUCLOCK_APERF, CPUCLOCK_CHAIN, CPUCLOCK_CPPC };

/* One read of the core's counters and the clocks, all on one CPU. */
struct cpuclock_read {
	uint64_t aperf, mperf;	/* actual and reference cycles (arch_core_counters()) */
	uint64_t tsc;		/* arch_cycles(): the TSC on x86 */
	uint64_t ns;		/* CLOCK_MONOTONIC */
};

/* Effective MHz between reads a and b: (delta tsc / delta ns) x 1000 x delta aperf /
 * delta mperf, each delta taken modulo 2^64 (a counter that wrapped once between the reads
 * is still right). 0 (no figure) when delta mperf, delta tsc or delta ns is 0. */
double cpuclock_aperf_mhz(const struct cpuclock_read *a, const struct cpuclock_read *b);
/* 1 when reads a then b (one CPU, some work between) show counters that count: APERF and
 * MPERF both moved and give a clock; 0 otherwise (TCG's MSRs read 0: readable, not counting). */
int cpuclock_aperf_counts(const struct cpuclock_read *a, const struct cpuclock_read *b);

/* MHz from a chain of adds ARCH cycles each: the short run did `adds` adds, the long run
 * twice as many, ns_long - ns_short more nanoseconds: adds / (ns_long - ns_short) x 1000.
 * 0 (no figure) when ns_long <= ns_short, or when ns_long > 2 x ns_short x (1 +
 * CPUCLOCK_CHAIN_SLACK): the long run was stretched (preempted, interrupted in every try;
 * a copy among more copies than CPUs), and its figure would be too low. */
double cpuclock_chain_mhz(uint64_t adds, uint64_t ns_short, uint64_t ns_long);

/* One read of a CPU's CPPC feedback counters, with the scale beside them. */
struct cpuclock_cppc {
	uint64_t ref, del;	/* feedback_ctrs: reference and delivered counters */
	uint64_t ref_perf, nom_perf, nom_mhz;	/* reference_perf, nominal_perf, nominal_freq */
};
/* Read CPU cpu's acpi_cppc/ under root (SYSFS_CPU; tests plant a tree): 0, or -1 with why (n
 * bytes) naming what is missing or unparsable (nominal_freq 0 or absent: no MHz scale). */
int cpuclock_cppc_read(const char *root, int cpu, struct cpuclock_cppc *r, char *why, size_t n);
/* Effective MHz between reads a and b of one CPU (the formula above; deltas modulo 2^64); 0
 * (no figure) when delta ref is 0 or b's scale has a 0. */
double cpuclock_cppc_mhz(const struct cpuclock_cppc *a, const struct cpuclock_cppc *b);
/* 1 when CPU cpu's counters under root both advance across a short busy chain and give a
 * clock (readable is not counting: a firmware may leave them still); else 0, why said. */
int cpuclock_cppc_probe(const char *root, int cpu, char *why, size_t n);

/* The chain estimate, measured now on the calling thread's CPU (MHz, 0 when the architecture
 * has no chain). */
double cpuclock_chain_now(void);

/* The run's method, found by reading the counters of the CPU the caller runs on; why (n
 * bytes) says the method in words for the header's cpu.clock_method ("aperf: /dev/cpu/N/msr",
 * "chain: APERF not exposed (...); no CPPC feedback counters (...)"). */
enum cpuclock_method cpuclock_probe(char *why, size_t n);

const char *cpuclock_method_name(enum cpuclock_method m);	/* REC_MHZ_* */

/* One copy's measurement of one sample: cpuclock_before() just before it waits at the start
 * line, cpuclock_after() just after its last batch, which returns the MHz (0: no figure). */
struct cpuclock_copy {
	enum cpuclock_method method;
	int cpu, ok;
	struct cpuclock_read r0;
	struct cpuclock_cppc c0;
	double chain0;
};
void cpuclock_before(struct cpuclock_copy *c, enum cpuclock_method m);
double cpuclock_after(struct cpuclock_copy *c);

#endif
