/* dhry2reg — UnixBench "Dhrystone 2 using register variables": Dhrystone 2.1 (dhry_1.c,
 * dhry_2.c: Weicker's procedures, inlined within dhry_1.c as gcc inlines them in byte-unixbench's
 * build, dhry_2.c's never: see dhry_1.c) run in isobench-proc,
 * the glibc-linked program execl and spawn execute, because UnixBench's dhry2reg on a
 * distribution calls glibc's strcmp and string routines; the same code against the runner's
 * musl ran at 0.65-0.75 of it (docs/benchmarks/fidelity-unixbench.md, sections 7b and 8).
 * setup() starts one "isobench-proc dhry-serve" per copy (it inherits the copy's CPU
 * affinity), which runs Dhrystone's self-check and answers 0; run(iters) sends iters and reads
 * back {0, a fold of the locals} after exactly iters loops, so a batch costs one pipe round
 * trip on top of its loops and no clock is read inside it; the harness counts the server's
 * CPU time as the copy's (bench_ctx.helper).  info() records what ran (INFO exec.dhry2reg.*).
 * One loop is one run of the specification's main loop; unit lps; baseline 116700 lps. */
#include "../benchapi.h"
#include "io.h"
#include "../core/isoproc.h"

#include <errno.h>
#include <stdlib.h>

static void info(const struct bench *t, const char *self, struct rec_body *b)
{
	proc_info_helper(self, b, t->name);
}

static int setup(struct bench_ctx *ctx)
{
	struct proc_server *s = calloc(1, sizeof *s);
	uint64_t ready = 1;
	int r;

	if (!s)
		return -ENOMEM;
	if ((r = proc_server_start(ctx, "dhry-serve", s))) {
		free(s);
		return r == -ENOENT ? BENCH_SKIP : r;
	}
	ctx->state = s;
	ctx->helper = s->pid;
	if (read_all(s->from, &ready, sizeof ready) || ready) {
		bench_note(ctx, "isobench-proc dhry-serve: Dhrystone's self-check failed (its stderr says which value)");
		return -EPROTO;
	}
	return 0;
}

static int run(struct bench_ctx *ctx, uint64_t iters)
{
	struct proc_server *s = ctx->state;
	uint64_t ans[2];
	int r;

	if ((r = write_all(s->to, &iters, sizeof iters)) ||
	    (r = read_all(s->from, ans, sizeof ans))) {
		bench_note(ctx, "isobench-proc dhry-serve stopped answering");
		return r;
	}
	if (ans[0]) {
		bench_note(ctx, "isobench-proc dhry-serve: error %llu", (unsigned long long)ans[0]);
		return -EPROTO;
	}
	ctx->sink += ans[1];
	return 0;
}

static void teardown(struct bench_ctx *ctx)
{
	proc_server_release(ctx);
}

BENCH(dhry2reg, .title = "Dhrystone 2 using register variables",
	.group = REC_GROUP_INDEX,
	.unit = REC_UNIT_LPS,
	.kind = BENCH_RATE,
	.per_loop = 1,		/* one loop = one Dhrystone run */
	.baseline = 116700,
	.info = info,
	.setup = setup,
	.run = run,
	.teardown = teardown);
