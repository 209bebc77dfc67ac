/* context1 — UnixBench "Pipe-based Context Switching" (context1.c): two processes pass an
 * incrementing counter back and forth over two pipes; one loop is one round trip (the
 * partner checks and echoes the value, this side checks the echo). Unit lps; baseline 4000.
 * The partner process is forked in setup() and ends on EOF in teardown(). */
#include "../benchapi.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

struct state {
	int to[2], from[2];
	pid_t partner;
	uint64_t next;
};

static void partner(int in, int out)
{
	uint64_t v, expect = 0;

	while (read(in, &v, sizeof v) == sizeof v) {
		if (v != expect)
			_exit(2);	/* out of step: the bench sees EOF and fails */
		expect = v + 1;
		if (write(out, &v, sizeof v) != sizeof v)
			_exit(3);
	}
	_exit(0);
}

static int setup(struct bench_ctx *ctx)
{
	struct state *s = calloc(1, sizeof *s);

	if (!s || pipe(s->to) || pipe(s->from))
		return -ENOMEM;
	s->partner = fork();
	if (s->partner < 0)
		return -errno;
	if (s->partner == 0) {
		close(s->to[1]);
		close(s->from[0]);
		partner(s->to[0], s->from[1]);
	}
	close(s->to[0]);
	close(s->from[1]);
	ctx->state = s;
	return 0;
}

static int run(struct bench_ctx *ctx, uint64_t iters)
{
	struct state *s = ctx->state;
	uint64_t v = 0;

	for (uint64_t i = 0; i < iters; i++) {
		uint64_t sent = s->next++;
		if (write(s->to[1], &sent, sizeof sent) != sizeof sent)
			return -EPIPE;
		if (read(s->from[0], &v, sizeof v) != sizeof v || v != sent)
			return -EPIPE;
	}
	ctx->sink += v;
	return 0;
}

static void teardown(struct bench_ctx *ctx)
{
	struct state *s = ctx->state;

	close(s->to[1]);
	close(s->from[0]);
	waitpid(s->partner, NULL, 0);
	free(s);
}

BENCH(context1, .title = "Pipe-based Context Switching", .group = REC_GROUP_INDEX,
	.unit = REC_UNIT_LPS, .kind = BENCH_RATE, .per_loop = 1, .baseline = 4000,
	.setup = setup, .run = run, .teardown = teardown);
