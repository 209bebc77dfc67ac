/* spawn — UnixBench "Process Creation" (spawn.c): one loop is fork(), the child _exit(0)s,
 * the parent waits for it. Unit lps; baseline 126 lps. */
#include "../bench.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

static int run(struct bench_ctx *ctx, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		int st;
		pid_t pid = fork();
		if (pid < 0)
			return -errno;
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
			return -ECHILD;
		ctx->sink += (uint64_t)pid;
	}
	return 0;
}

const struct bench bench_spawn = {
	.name = "spawn", .title = "Process Creation", .group = "index",
	.unit = "lps", .kind = BENCH_RATE, .per_loop = 1, .baseline = 126,
	.run = run,
};
