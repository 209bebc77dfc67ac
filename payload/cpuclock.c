/* cpuclock.c — see cpuclock.h. */
#define _GNU_SOURCE
#include "cpuclock.h"
#include "arch.h"
#include "io.h"
#include "num.h"
#include "sys.h"
#include "sysfs.h"
#include "vocab.h"

#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

double cpuclock_aperf_mhz(const struct cpuclock_read *a, const struct cpuclock_read *b)
{
	uint64_t da = b->aperf - a->aperf, dm = b->mperf - a->mperf;
	uint64_t dt = b->tsc - a->tsc, dn = b->ns - a->ns;

	if (!dm || !dt || !dn)
		return 0;
	return (double)dt / (double)dn * 1000.0 * ((double)da / (double)dm);
}

double cpuclock_chain_mhz(uint64_t adds, uint64_t ns_short, uint64_t ns_long)
{
	/* short = c + adds/f, long = c + 2 adds/f with a fixed cost c >= 0: long <= 2 short. */
	if (ns_long <= ns_short ||
	    (double)ns_long > 2.0 * (double)ns_short * (1 + CPUCLOCK_CHAIN_SLACK))
		return 0;
	return (double)adds / (double)(ns_long - ns_short) * 1000.0;
}

/* Kept so the chains' results are used (arch_add_chain() cannot be removed either). */
static volatile uint64_t chain_sink;

double cpuclock_chain_now(void)
{
	uint64_t best_s = UINT64_MAX, best_l = UINT64_MAX, v = chain_sink;

	if (!ARCH_CHAIN_ADDS)
		return 0;
	for (int t = 0; t < CPUCLOCK_TRIES; t++) {
		uint64_t t0 = now_ns();
		v = arch_add_chain(CPUCLOCK_REPS, v, 1);
		uint64_t t1 = now_ns();
		v = arch_add_chain(2 * CPUCLOCK_REPS, v, 1);
		uint64_t t2 = now_ns();
		if (t1 - t0 < best_s)
			best_s = t1 - t0;
		if (t2 - t1 < best_l)
			best_l = t2 - t1;
	}
	chain_sink = v;
	return cpuclock_chain_mhz((uint64_t)ARCH_CHAIN_ADDS * CPUCLOCK_REPS, best_s, best_l);
}

const char *cpuclock_method_name(enum cpuclock_method m)
{
	return m == CPUCLOCK_APERF ? REC_MHZ_APERF : m == CPUCLOCK_CPPC ? REC_MHZ_CPPC
		: m == CPUCLOCK_CHAIN ? REC_MHZ_CHAIN : REC_MHZ_NONE;
}

static int take(int cpu, struct cpuclock_read *r);

/* A whole decimal u64 in sysfs file dir/rel (lib/num.h's strict rule): 0, or -1 (missing,
 * "-", not a number, past 64 bits). */
static int sysfs_u64(const char *dir, const char *rel, uint64_t *v)
{
	char b[64];
	unsigned long long x;

	if (num_ull(sysfs_line(dir, rel, b, sizeof b), 0, 0, UINT64_MAX, &x))
		return -1;
	*v = x;
	return 0;
}

int cpuclock_cppc_read(const char *root, int cpu, struct cpuclock_cppc *r, char *why, size_t n)
{
	char dir[256], b[128], *fd[3];
	unsigned long long ref, del;

	snprintf(dir, sizeof dir, "%scpu%d/acpi_cppc/", root, cpu);
	sysfs_line(dir, "feedback_ctrs", b, sizeof b);
	char t[sizeof b];	/* b stays whole for the message below */
	snprintf(t, sizeof t, "%s", b);
	if (split_fields(t, fd, 3) != 2 || strncmp(fd[0], "ref:", 4) || strncmp(fd[1], "del:", 4) ||
	    num_ull(fd[0] + 4, 0, 0, UINT64_MAX, &ref) || num_ull(fd[1] + 4, 0, 0, UINT64_MAX, &del)) {
		snprintf(why, n, "no CPPC feedback counters (%sfeedback_ctrs: %s)", dir,
			 !strcmp(b, "-") ? "absent or unreadable" : "not 'ref:R del:D'");
		return -1;
	}
	r->ref = ref;
	r->del = del;
	if (sysfs_u64(dir, "nominal_perf", &r->nom_perf) || !r->nom_perf ||
	    sysfs_u64(dir, "nominal_freq", &r->nom_mhz) || !r->nom_mhz) {
		snprintf(why, n, "CPPC feedback counters without a MHz scale (%s: nominal_perf "
			 "and nominal_freq both wanted, above 0)", dir);
		return -1;
	}
	if (sysfs_u64(dir, "reference_perf", &r->ref_perf) || !r->ref_perf)
		r->ref_perf = r->nom_perf;
	return 0;
}

double cpuclock_cppc_mhz(const struct cpuclock_cppc *a, const struct cpuclock_cppc *b)
{
	uint64_t dr = b->ref - a->ref, dd = b->del - a->del;

	if (!dr || !b->nom_perf || !b->ref_perf || !b->nom_mhz)
		return 0;
	return (double)b->ref_perf * ((double)dd / (double)dr) * (double)b->nom_mhz /
	       (double)b->nom_perf;
}

int cpuclock_cppc_probe(const char *root, int cpu, char *why, size_t n)
{
	struct cpuclock_cppc a, b;

	if (cpuclock_cppc_read(root, cpu, &a, why, n))
		return 0;
	chain_sink = cpuclock_chain_now() > 0;
	if (sched_getcpu() == cpu && cpuclock_cppc_read(root, cpu, &b, why, n) == 0 &&
	    b.ref != a.ref && b.del != a.del && cpuclock_cppc_mhz(&a, &b) > 0) {
		snprintf(why, n, "%s: CPPC feedback counters of each copy's CPU, "
			 "%scpuN/acpi_cppc/feedback_ctrs", REC_MHZ_CPPC, root);
		return 1;
	}
	snprintf(why, n, "CPPC not counting (%scpu%d/acpi_cppc/feedback_ctrs read, but did not "
		 "both advance over a busy chain)", root, cpu);
	return 0;
}

int cpuclock_aperf_counts(const struct cpuclock_read *a, const struct cpuclock_read *b)
{
	return b->aperf != a->aperf && b->mperf != a->mperf && cpuclock_aperf_mhz(a, b) > 0;
}

enum cpuclock_method cpuclock_probe(char *why, size_t n)
{
	char r[200], c[300];
	uint64_t a, m;
	int cpu = sched_getcpu();

	if (arch_core_counters(cpu < 0 ? 0 : cpu, &a, &m, r, sizeof r) == 0) {
		/* Readable is not counting: QEMU's TCG answers the MSRs with 0 (and a hypervisor
		 * may pass reads through to counters it never advances), so every SAMPLE would
		 * say mhz=0. The counters must advance across a short busy chain on one CPU. */
		struct cpuclock_read r0, r1;
		cpu = cpu < 0 ? 0 : cpu;
		if (take(cpu, &r0) == 0) {
			chain_sink = cpuclock_chain_now() > 0;
			if (sched_getcpu() == cpu && take(cpu, &r1) == 0 &&
			    cpuclock_aperf_counts(&r0, &r1)) {
				snprintf(why, n, "%s: APERF/MPERF of each copy's CPU, /dev/cpu/N/msr",
					 REC_MHZ_APERF);
				return CPUCLOCK_APERF;
			}
		}
		snprintf(r, sizeof r, "APERF not counting (MSRs 0xE8/0xE7 read, but did not both "
			 "advance over a busy chain: an emulator or hypervisor answering them)");
	}
	if (cpuclock_cppc_probe(SYSFS_CPU, cpu < 0 ? 0 : cpu, c, sizeof c)) {
		snprintf(why, n, "%s", c);
		return CPUCLOCK_CPPC;
	}
	if (!ARCH_CHAIN_ADDS) {
		snprintf(why, n, "%s: %s; %s; no add chain on this architecture", REC_MHZ_NONE, r,
			 c);
		return CPUCLOCK_NONE;
	}
	snprintf(why, n, "%s: %s; %s; a timed chain of dependent adds before and after each "
		 "sample", REC_MHZ_CHAIN, r, c);
	return CPUCLOCK_CHAIN;
}

/* Read the counters and clocks on CPU cpu; 0, or -1. */
static int take(int cpu, struct cpuclock_read *r)
{
	char why[160];

	if (arch_core_counters(cpu, &r->aperf, &r->mperf, why, sizeof why))
		return -1;
	r->tsc = arch_cycles();
	r->ns = now_ns();
	return 0;
}

void cpuclock_before(struct cpuclock_copy *c, enum cpuclock_method m)
{
	char why[300];

	c->method = m;
	c->ok = 0;
	c->chain0 = 0;
	c->cpu = sched_getcpu();
	if (m == CPUCLOCK_APERF)
		c->ok = c->cpu >= 0 && take(c->cpu, &c->r0) == 0;
	else if (m == CPUCLOCK_CPPC)
		c->ok = c->cpu >= 0 && cpuclock_cppc_read(SYSFS_CPU, c->cpu, &c->c0, why,
							  sizeof why) == 0;
	else if (m == CPUCLOCK_CHAIN)
		c->chain0 = cpuclock_chain_now();
}

double cpuclock_after(struct cpuclock_copy *c)
{
	struct cpuclock_read r1;

	if (c->method == CPUCLOCK_APERF) {
		/* The counters are the CPU's: a copy that moved has no figure. */
		if (!c->ok || sched_getcpu() != c->cpu || take(c->cpu, &r1))
			return 0;
		return cpuclock_aperf_mhz(&c->r0, &r1);
	}
	if (c->method == CPUCLOCK_CPPC) {
		struct cpuclock_cppc b;
		char why[300];
		/* The counters are the CPU's (the kernel reads them there): as aperf's. */
		if (!c->ok || sched_getcpu() != c->cpu ||
		    cpuclock_cppc_read(SYSFS_CPU, c->cpu, &b, why, sizeof why))
			return 0;
		return cpuclock_cppc_mhz(&c->c0, &b);
	}
	if (c->method == CPUCLOCK_CHAIN) {
		double c1 = cpuclock_chain_now();
		if (c->chain0 > 0 && c1 > 0)
			return (c->chain0 + c1) / 2;
		return c->chain0 > 0 ? c->chain0 : c1;
	}
	return 0;
}
