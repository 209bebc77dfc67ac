/* insn_probe.h — for payload/arch/<arch>/insn.c: the frame every one-instruction probe
 * shares, so each architecture writes only its instructions. A probe's loop runs its
 * expression `iters` times between two arch_cycles() reads (the clock is never read inside),
 * sums the expression's values into ctx->sink (so the compiler keeps every execution), and
 * reports the counter ticks per loop as the extra cycles_x100 (probe_util.h).
 *   INSN_RUN(fn, expr)   defines `static int fn(ctx, iters)`, the loop of expr (a uint64_t)
 *   INSN(id, max_copies, setup, run)
 *                        the `const struct bench bench_<id>` of row id of the one list
 *                        (generic/probes.h: its title; its name is the registry's; group
 *                        probes, ns per loop),
 *                        its state freed by insn_teardown; setup is insn_setup or one that
 *                        SKIPs first. It replaces generic/probes.c's weak SKIP. */
#ifndef ISOBENCH_INSN_PROBE_H
#define ISOBENCH_INSN_PROBE_H

#include "../core/probe_util.h"
#include "probes.h"

#include <errno.h>
#include <stdlib.h>

struct insn_state {
	struct probe_cycles cycles;	/* per sample */
};

static inline int insn_setup(struct bench_ctx *ctx)
{
	struct insn_state *s = calloc(1, sizeof *s);
	if (!s)
		return -ENOMEM;
	ctx->state = s;
	return 0;
}

static inline void insn_teardown(struct bench_ctx *ctx)
{
	free(ctx->state);
}

static inline void insn_cycles(struct bench_ctx *ctx, uint64_t cyc, uint64_t iters)
{
	struct insn_state *s = ctx->state;
	probe_cycles_extra(ctx, &s->cycles, cyc, iters);
}

#define INSN_RUN(fn, expr) \
	static int fn(struct bench_ctx *ctx, uint64_t iters) \
	{ \
		uint64_t acc = 0, t0 = arch_cycles(); \
		for (uint64_t i = 0; i < iters; i++) \
			acc += (expr); \
		uint64_t t1 = arch_cycles(); \
		ctx->sink += acc; \
		insn_cycles(ctx, t1 - t0, iters); \
		return 0; \
	}

/* max_copies: the clock-* family runs with any number of copies, the others alone (1). */
#define INSN(id, maxc, su, ru) \
	BENCH(id, .title = ARCH_PROBE_TITLE(id), .group = REC_GROUP_PROBES, .unit = REC_UNIT_NS, \
		.kind = BENCH_TIME, .per_loop = 1, .max_copies = maxc, .setup = su, .run = ru, \
		.teardown = insn_teardown)

#endif
