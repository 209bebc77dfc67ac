/* dupclose.c — close(dup(fd)) per loop: two system calls and a file-table update
 * (UnixBench syscall's "close" mode). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "../benchapi.h"

static int dupclose_setup(struct bench_ctx *ctx)
{
	int *fd = malloc(sizeof *fd);

	if (!fd)
		return -ENOMEM;
	ctx->state = fd;
	*fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		*fd = open(ctx->workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return *fd < 0 ? -errno : 0;
}

static int dupclose_run(struct bench_ctx *ctx, uint64_t iters)
{
	int fd = *(int *)ctx->state;
	uint64_t acc = 0;

	for (uint64_t i = 0; i < iters; i++) {
		int d = dup(fd);

		if (d < 0)
			return -errno;
		acc += (uint64_t)d;
		close(d);
	}
	ctx->sink += acc;
	return 0;
}

static void dupclose_teardown(struct bench_ctx *ctx)
{
	int *fd = ctx->state;

	if (fd && *fd >= 0)
		close(*fd);
	free(fd);
	ctx->state = NULL;
}

BENCH(dupclose, .title = "System Call Overhead (close(dup()))",
	.group = REC_GROUP_EXTRA,
	.unit = REC_UNIT_LPS,
	.kind = BENCH_RATE,
	.per_loop = 1,
	.setup = dupclose_setup,
	.run = dupclose_run,
	.teardown = dupclose_teardown);
