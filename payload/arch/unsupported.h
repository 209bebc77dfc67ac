/* unsupported.h — for payload/arch/<arch>/: a test payload/registry.c lists on every
 * architecture but whose instruction this one lacks (e.g. RDTSC off x86) stays listed and
 * SKIPs with the reason, as stress-ng keeps its unsupported stressors; the run's records keep
 * one shape on every architecture. Fields other than name, title, group and unit are those
 * of a BENCH_TIME probe; setup notes `why` and returns BENCH_SKIP, so run is never called.
 *   ARCH_UNSUPPORTED(bench_vmexit_cpuid, "vmexit-cpuid", "CPUID leaf 0", "probes", "ns",
 *                    "CPUID is an x86 instruction");                                       */
#ifndef ISOBENCH_ARCH_UNSUPPORTED_H
#define ISOBENCH_ARCH_UNSUPPORTED_H

#include "../bench.h"

#include <errno.h>

#define ARCH_UNSUPPORTED(var, nm, ttl, grp, unt, why) \
	static int var##_skip(struct bench_ctx *ctx) \
	{ \
		bench_note(ctx, "%s", why); \
		return BENCH_SKIP; \
	} \
	static int var##_none(struct bench_ctx *ctx, uint64_t iters) \
	{ \
		(void)ctx; \
		(void)iters; \
		return -ENOSYS; \
	} \
	const struct bench var = { .name = nm, .title = ttl, .group = grp, .unit = unt, \
		.kind = BENCH_TIME, .per_loop = 1, .setup = var##_skip, .run = var##_none }

#endif
