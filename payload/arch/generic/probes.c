/* probes.c (generic) — every instruction probe of generic/probes.h as a test that SKIPs with
 * "<insn> is an <owner> instruction<hint>" (max_copies 0, group probes, unit ns, BENCH_TIME),
 * weak: the architecture that owns a probe defines it (payload/arch/<arch>/insn.c) and its
 * definition replaces this one at link time. Also the probes' titles (their names are the
 * registry's, BENCH_NAME). */
#include "../../bench.h"
#include "probes.h"

#include <errno.h>

#define TITLES(id, ttl, owner, insn, hint) const char arch_probe_title_##id[] = ttl;
ARCH_PROBES(TITLES)

static int unsupported_run(struct bench_ctx *ctx, uint64_t iters)
{
	(void)ctx;
	(void)iters;
	return -ENOSYS;
}

#define UNSUPPORTED(id, ttl, owner, insn, hint) \
	static int id##_skip(struct bench_ctx *ctx) \
	{ \
		bench_note(ctx, "%s", insn " is an " owner " instruction" hint); \
		return BENCH_SKIP; \
	} \
	BENCH_DEFINE(__attribute__((weak)), id, .title = arch_probe_title_##id, \
		.group = REC_GROUP_PROBES, .unit = REC_UNIT_NS, .kind = BENCH_TIME, .per_loop = 1, \
		.setup = id##_skip, .run = unsupported_run);
ARCH_PROBES(UNSUPPORTED)
