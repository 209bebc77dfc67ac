/* execl — UnixBench "Execl Throughput" (execl.c): a program re-executes itself, carrying the
 * remaining count in argv, until it reaches zero; one loop is one execve().  As in UnixBench
 * the program is dynamically linked and position-independent: isobench-proc (payload/proc/,
 * glibc), so each loop pays for the loader and the shared C library as a distribution's
 * program does.  run(iters) forks once; the child execs "isobench-proc execl iters-1", which
 * makes iters execve()s in all.  info() records what is executed (INFO exec.execl.*).
 * Unit lps; baseline 43.0 lps. */
#include "../benchapi.h"
#include "../core/isoproc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void info(const struct bench *t, const char *self, struct rec_body *b)
{
	proc_info_helper(self, b, t->name);
}

static int setup(struct bench_ctx *ctx)
{
	char *path;

	if (!(path = malloc(256)))
		return -ENOMEM;
	if (proc_helper(ctx->self, path, 256)) {
		free(path);
		proc_missing_note(ctx);
		return BENCH_SKIP;
	}
	ctx->state = path;
	return 0;
}

static int run(struct bench_ctx *ctx, uint64_t iters)
{
	const char *path = ctx->state;
	char n[24];
	int st;
	pid_t pid;

	snprintf(n, sizeof n, "%llu", (unsigned long long)iters - 1);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execl(path, path, "execl", n, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		bench_note(ctx, "%s execl %s: status %#x", path, n, st);
		return -ENOEXEC;
	}
	ctx->sink += (uint64_t)pid;
	return 0;
}

static void teardown(struct bench_ctx *ctx)
{
	free(ctx->state);
	ctx->state = NULL;
}

BENCH(execl, .title = "Execl Throughput", .group = REC_GROUP_INDEX,
	.unit = REC_UNIT_LPS, .kind = BENCH_RATE, .per_loop = 1, .baseline = 43.0,
	.info = info, .setup = setup, .run = run, .teardown = teardown);
