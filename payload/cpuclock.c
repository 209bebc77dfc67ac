/* cpuclock.c — see cpuclock.h. */
#define _GNU_SOURCE
#include "cpuclock.h"
#include "arch.h"
#include "sys.h"
#include "vocab.h"

#include <sched.h>
#include <stdio.h>

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
	return m == CPUCLOCK_APERF ? REC_MHZ_APERF : m == CPUCLOCK_CHAIN ? REC_MHZ_CHAIN
								  : REC_MHZ_NONE;
}

static int take(int cpu, struct cpuclock_read *r);

int cpuclock_aperf_counts(const struct cpuclock_read *a, const struct cpuclock_read *b)
{
	return b->aperf != a->aperf && b->mperf != a->mperf && cpuclock_aperf_mhz(a, b) > 0;
}

enum cpuclock_method cpuclock_probe(char *why, size_t n)
{
	char r[200];
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
	if (!ARCH_CHAIN_ADDS) {
		snprintf(why, n, "%s: %s; no add chain on this architecture", REC_MHZ_NONE, r);
		return CPUCLOCK_NONE;
	}
	snprintf(why, n, "%s: %s; a timed chain of dependent adds before and after each sample",
		 REC_MHZ_CHAIN, r);
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
	c->method = m;
	c->ok = 0;
	c->chain0 = 0;
	c->cpu = sched_getcpu();
	if (m == CPUCLOCK_APERF)
		c->ok = c->cpu >= 0 && take(c->cpu, &c->r0) == 0;
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
	if (c->method == CPUCLOCK_CHAIN) {
		double c1 = cpuclock_chain_now();
		if (c->chain0 > 0 && c1 > 0)
			return (c->chain0 + c1) / 2;
		return c->chain0 > 0 ? c->chain0 : c1;
	}
	return 0;
}
