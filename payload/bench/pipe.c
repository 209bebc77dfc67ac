/* pipe — UnixBench "Pipe Throughput" (pipe.c): one process writes 512 bytes into a pipe and
 * reads them back; one loop is one write + one read. Unit lps; baseline 12440 lps. */
#include "../benchapi.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

struct state {
	int fd[2];
	char buf[512];
};

static int setup(struct bench_ctx *ctx)
{
	struct state *s = calloc(1, sizeof *s);
	if (!s || pipe(s->fd))
		return -ENOMEM;
	ctx->state = s;
	return 0;
}

static int run(struct bench_ctx *ctx, uint64_t iters)
{
	struct state *s = ctx->state;

	for (uint64_t i = 0; i < iters; i++) {
		s->buf[0] = (char)i;
		if (write(s->fd[1], s->buf, sizeof s->buf) != sizeof s->buf)
			return -EIO;
		if (read(s->fd[0], s->buf, sizeof s->buf) != sizeof s->buf)
			return -EIO;
	}
	ctx->sink += (unsigned char)s->buf[0];
	return 0;
}

static void teardown(struct bench_ctx *ctx)
{
	struct state *s = ctx->state;
	close(s->fd[0]);
	close(s->fd[1]);
	free(s);
}

BENCH(pipe, .title = "Pipe Throughput", .group = REC_GROUP_INDEX,
	.unit = REC_UNIT_LPS, .kind = BENCH_RATE, .per_loop = 1, .baseline = 12440,
	.setup = setup, .run = run, .teardown = teardown);
