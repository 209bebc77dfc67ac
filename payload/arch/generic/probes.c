/* probes.c (generic) — every instruction probe of generic/probes.h as a test that SKIPs with
 * "<insn> is an <owner> instruction<hint>" (max_copies 0, group probes, unit ns, BENCH_TIME),
 * weak: the architecture that owns a probe defines it (payload/arch/<arch>/insn.c) and its
 * definition replaces this one at link time. Also the probes' titles (their names are the
 * registry's, BENCH_NAME). */
#include "../../benchapi.h"
#include "probes.h"

#include <errno.h>

#define TITLES(id, ttl, owner, insn, hint) const char arch_probe_title_##id[] = ttl;
ARCH_PROBES(TITLES)

/* A row's hint names another test by its id: first the names declared (the registry's,
 * BENCH_NAME: a hint naming no test does not link), then each hint as the format and argument
 * of its reason's tail. */
#define HINT(arch, id) extern char BENCH_NAME(id)[];
#define NO_HINT
#define HINTED(id, ttl, owner, insn, hint) hint
ARCH_PROBES(HINTED)
#undef HINT
#undef NO_HINT
#define HINT(arch, id) " (" arch ": %s)", BENCH_NAME(id)
#define NO_HINT "%s", ""

static int unsupported_run(struct bench_ctx *ctx, uint64_t iters)
{
	(void)ctx;
	(void)iters;
	return -ENOSYS;
}

#define UNSUPPORTED(id, ttl, owner, insn, hint) \
	static int id##_skip(struct bench_ctx *ctx) \
	{ \
		bench_note(ctx, insn " is an " owner " instruction" hint); \
		return BENCH_SKIP; \
	} \
	BENCH_DEFINE(__attribute__((weak)), id, .title = arch_probe_title_##id, \
		.group = REC_GROUP_PROBES, .unit = REC_UNIT_NS, .kind = BENCH_TIME, .per_loop = 1, \
		.setup = id##_skip, .run = unsupported_run);
ARCH_PROBES(UNSUPPORTED)
