/* execl — UnixBench "Execl Throughput" (execl.c): the binary re-executes itself, carrying
 * the remaining count in argv, until it reaches zero; one loop is one execve(). run(iters)
 * forks once and the child performs iters exec()s (main.c handles "--execl-child N" first
 * thing, before any other work). Unit lps; baseline 43.0 lps. */
#include "../bench.h"

#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int run(struct bench_ctx *ctx, uint64_t iters)
{
	char n[24];
	int st;
	pid_t pid;

	snprintf(n, sizeof n, "%llu", (unsigned long long)iters - 1);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execl(ctx->self, ctx->self, "--execl-child", n, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -ENOEXEC;
	ctx->sink += (uint64_t)pid;
	return 0;
}

const struct bench bench_execl = {
	.name = "execl", .title = "Execl Throughput", .group = "index",
	.unit = "lps", .kind = BENCH_RATE, .per_loop = 1, .baseline = 43.0,
	.run = run,
};
