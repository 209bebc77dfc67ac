/* exec.c — fork + execve of the isobench binary itself + wait, per loop.
 *
 * Runs ctx->self with argv { self, "--exit-now" }.  Contract with the main program: when
 * argv[1] is "--exit-now" it must call _exit(0) before anything else (no setup, no output),
 * so the loop measures process creation + exec + exit + reap, not our start-up.
 * Unlike the index's execl (which execs itself repeatedly in one process), every loop here
 * is a fresh fork, so it sits beside spawn and execl rather than replacing either.
 */
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../benchapi.h"

static int exec_setup(struct bench_ctx *ctx)
{
	if (!ctx->self || access(ctx->self, X_OK)) {
		bench_note(ctx, "no executable self path to exec");
		return BENCH_SKIP;
	}
	return 0;
}

static int exec_run(struct bench_ctx *ctx, uint64_t iters)
{
	char *const envp[] = { NULL };

	for (uint64_t i = 0; i < iters; i++) {
		char *argv[] = { (char *)ctx->self, "--exit-now", NULL };
		int status;
		pid_t pid = fork();

		if (pid < 0)
			return -errno;
		if (pid == 0) {
			execve(ctx->self, argv, envp);
			_exit(127);
		}
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				return -errno;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			bench_note(ctx, "%s --exit-now did not exit 0 (status %#x)", ctx->self, status);
			return -EIO;
		}
		ctx->sink += (uint64_t)pid;
	}
	return 0;
}

BENCH(exec, .title = "Fork + Exec + Wait",
	.group = REC_GROUP_EXTRA,
	.unit = REC_UNIT_LPS,
	.kind = BENCH_RATE,
	.per_loop = 1,
	.setup = exec_setup,
	.run = exec_run);
