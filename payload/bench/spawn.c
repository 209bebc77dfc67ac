/* spawn — UnixBench "Process Creation" (spawn.c): one loop is fork(), the child exits, the
 * parent waits for it.  As in UnixBench the process that forks is a dynamically linked,
 * position-independent program (isobench-proc, glibc), so fork() copies the page tables and
 * mappings of such a process, not of our small static runner.  setup() starts one
 * "isobench-proc spawn-serve" per copy; run(iters) sends it iters and reads back 0 or an
 * errno, so a batch costs one pipe round trip on top of its loops.  info() records what is
 * executed (INFO exec.spawn.*).  Unit lps; baseline 126 lps. */
#define _GNU_SOURCE	/* pipe2 */
#include "../bench.h"
#include "io.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

struct spawn_state {
	pid_t pid;
	int to, from;	/* pipes to the server's fd 0 and from its fd 1 */
};

static void info(const char *self, struct rec_body *b)
{
	proc_info_helper(self, b, "spawn");
}

static int setup(struct bench_ctx *ctx)
{
	struct spawn_state *s;
	char path[256];
	int in[2], out[2];

	if (proc_helper(ctx->self, path, sizeof path)) {
		bench_note(ctx, "no isobench-proc next to %s or in %s", ctx->self ? ctx->self : "-",
			   PROC_LIBEXEC);
		return BENCH_SKIP;
	}
	if (!(s = calloc(1, sizeof *s)))
		return -ENOMEM;
	if (pipe2(in, O_CLOEXEC)) {
		free(s);
		return -errno;
	}
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]), close(in[1]), free(s);
		return -errno;
	}
	s->pid = fork();
	if (s->pid == 0) {
		if (dup2(in[0], 0) == 0 && dup2(out[1], 1) == 1)
			execl(path, path, "spawn-serve", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	if (s->pid < 0) {
		close(in[1]), close(out[0]), free(s);
		return -errno;
	}
	s->to = in[1];
	s->from = out[0];
	ctx->state = s;
	return 0;
}

static int run(struct bench_ctx *ctx, uint64_t iters)
{
	struct spawn_state *s = ctx->state;
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
	struct spawn_state *s = ctx->state;
	int st;

	if (!s)
		return;
	close(s->to);	/* end of input: the server exits */
	close(s->from);
	while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
		;
	free(s);
	ctx->state = NULL;
}

const struct bench bench_spawn = {
	.name = "spawn", .title = "Process Creation", .group = REC_GROUP_INDEX,
	.unit = REC_UNIT_LPS, .kind = BENCH_RATE, .per_loop = 1, .baseline = 126,
	.info = info, .setup = setup, .run = run, .teardown = teardown,
};
