/* spawn — UnixBench "Process Creation" (spawn.c): one loop is fork(), the child exits, the
 * parent waits for it.  As in UnixBench the process that forks is a dynamically linked,
 * position-independent program (isobench-proc, glibc), so fork() copies the page tables and
 * mappings of such a process, not of our small static runner.  setup() starts one
 * "isobench-proc spawn-serve" per copy; run(iters) sends it iters and reads back 0 or an
 * errno, so a batch costs one pipe round trip on top of its loops.  info() records what is
 * executed (INFO exec.spawn.*).  Unit lps; baseline 126 lps. */
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
	int r;

	if (!s)
		return -ENOMEM;
	if ((r = proc_server_start(ctx, "spawn-serve", s))) {
		free(s);
		return r == -ENOENT ? BENCH_SKIP : r;
	}
	ctx->state = s;
	return 0;
}

static int run(struct bench_ctx *ctx, uint64_t iters)
{
	struct proc_server *s = ctx->state;
	uint64_t err;
	int r;

	if ((r = write_all(s->to, &iters, sizeof iters)) ||
	    (r = read_all(s->from, &err, sizeof err))) {
		bench_note(ctx, "isobench-proc spawn-serve stopped answering");
		return r;
	}
	if (err) {
		bench_note(ctx, "isobench-proc spawn-serve: fork/wait failed");
		return -(int)err;
	}
	ctx->sink += iters;
	return 0;
}

static void teardown(struct bench_ctx *ctx)
{
	proc_server_release(ctx);
}

BENCH(spawn, .title = "Process Creation", .group = REC_GROUP_INDEX,
	.unit = REC_UNIT_LPS, .kind = BENCH_RATE, .per_loop = 1, .baseline = 126,
	.info = info, .setup = setup, .run = run, .teardown = teardown);
