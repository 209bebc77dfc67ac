/* shell.c — "Shell Scripts (1 concurrent)" and "(8 concurrent)", UnixBench's shell1/shell8.
 *
 * Our own scripts in the spirit of UnixBench's multi.sh + tst.sh:
 *   tst.sh i:  sort sort.src > sort.i;  od sort.i | sort -n -k 1 > od.i;
 *              grep the sort.i | tee grep.i | wc > wc.i;  rm the four files
 *   multi.sh n: start n "sh tst.sh i" in the background, then wait.
 * One loop = one fork+exec of "busybox sh multi.sh n", waited for; unit lpm, so per_loop = 60.
 *
 * sort.src is our own text, generated identically every time (shell_text below): 400 lines,
 * line i has 4 + (7i mod 9) words, word j taken from the fixed 64-word list at index
 * (37i + 11j + (ij mod 13)) mod 64.  The scripts run with PATH set to a private bin/ of links to
 * /bin/busybox, so the same busybox applets run on a host as in the image (where /bin/sh is
 * busybox); without /bin/busybox the tests skip.  Each copy works in <workdir>/shell.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../bench.h"
#include "shell.h"

static const char *const words[64] = {
	"the", "quick", "benchmark", "other", "kernel", "then", "page", "theory",
	"process", "pipe", "weather", "cache", "signal", "thread", "bathe", "loop",
	"north", "copy", "shell", "mother", "sort", "octal", "dump", "there",
	"word", "count", "these", "file", "block", "write", "read", "athlete",
	"clock", "tick", "virtual", "machine", "guest", "host", "them", "timer",
	"index", "baseline", "score", "theme", "system", "call", "fork", "exec",
	"wait", "exit", "together", "memory", "buffer", "disk", "lathe", "stone",
	"dhry", "whet", "float", "integer", "breathe", "string", "record", "array",
};

static size_t shell_text(char *buf, size_t cap)
{
	size_t n = 0;

	for (int i = 0; i < SHELL_SRC_LINES; i++) {
		int nw = 4 + (7 * i) % 9;

		for (int j = 0; j < nw; j++) {
			const char *w = words[(37 * i + 11 * j + (i * j) % 13) % 64];
			size_t l = strlen(w);

			if (n + l + 2 > cap)
				return 0;
			if (j)
				buf[n++] = ' ';
			memcpy(buf + n, w, l);
			n += l;
		}
		buf[n++] = '\n';
	}
	return n;
}

static const char tst_sh[] =
	"# isobench shell workload, one instance: tst.sh <instance>\n"
	"sort >sort.$1 <sort.src\n"
	"od sort.$1 | sort -n -k 1 >od.$1\n"
	"grep the sort.$1 | tee grep.$1 | wc >wc.$1\n"
	"[ -n \"$KEEP\" ] || rm sort.$1 od.$1 grep.$1 wc.$1\n";

static const char multi_sh[] =
	"# isobench shell workload: multi.sh <n> runs n tst.sh at once and waits\n"
	"i=1\n"
	"while [ $i -le $1 ]; do\n"
	"\tsh tst.sh $i &\n"
	"\ti=$((i + 1))\n"
	"done\n"
	"wait\n";

static int put_file(const char *dir, const char *name, const char *data, size_t len)
{
	char path[512];
	int fd, err = 0;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, data, len) != (ssize_t)len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int shell_prepare(const char *dir)
{
	static const char *const applets[] = { "sh", "sort", "od", "grep", "tee", "wc", "rm" };
	char path[512], text[65536];
	size_t len;
	int err;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof path, "%s/bin", dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	for (size_t i = 0; i < sizeof applets / sizeof *applets; i++) {
		snprintf(path, sizeof path, "%s/bin/%s", dir, applets[i]);
		unlink(path);
		if (symlink(SHELL_BUSYBOX, path))
			return -errno;
	}
	if (!(len = shell_text(text, sizeof text)))
		return -ENOBUFS;
	if ((err = put_file(dir, "sort.src", text, len)) ||
	    (err = put_file(dir, "tst.sh", tst_sh, sizeof tst_sh - 1)) ||
	    (err = put_file(dir, "multi.sh", multi_sh, sizeof multi_sh - 1)))
		return err;
	return 0;
}

int shell_run_once(const char *dir, int n, int keep)
{
	char num[16], pathenv[560];
	char *argv[] = { "sh", "multi.sh", num, NULL };
	char *envp[] = { pathenv, "LC_ALL=C", keep ? "KEEP=1" : NULL, NULL };
	int status;
	pid_t pid;

	snprintf(num, sizeof num, "%d", n);
	snprintf(pathenv, sizeof pathenv, "PATH=%s/bin", dir);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (chdir(dir) == 0)
			execve(SHELL_BUSYBOX, argv, envp);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

struct shell_state {
	int n;
	char dir[512];
};

static int shell_setup(struct bench_ctx *ctx, int n)
{
	struct shell_state *s;
	int err;

	if (access(SHELL_BUSYBOX, X_OK)) {
		bench_note(ctx, "no %s: the shell workload needs busybox", SHELL_BUSYBOX);
		return BENCH_SKIP;
	}
	if (!(s = calloc(1, sizeof *s)))
		return -ENOMEM;
	s->n = n;
	snprintf(s->dir, sizeof s->dir, "%s/shell", ctx->workdir);
	ctx->state = s;
	if ((err = shell_prepare(s->dir))) {
		bench_note(ctx, "cannot prepare %s: %s", s->dir, strerror(-err));
		return err;
	}
	return 0;
}

static int shell_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct shell_state *s = ctx->state;

	for (uint64_t i = 0; i < iters; i++) {
		int err = shell_run_once(s->dir, s->n, 0);

		if (err) {
			bench_note(ctx, "busybox sh multi.sh %d failed", s->n);
			return err;
		}
	}
	ctx->sink += iters;
	return 0;
}

static void shell_teardown(struct bench_ctx *ctx)
{
	struct shell_state *s = ctx->state;
	static const char *const files[] = {
		"bin/sh", "bin/sort", "bin/od", "bin/grep", "bin/tee", "bin/wc", "bin/rm",
		"bin", "sort.src", "tst.sh", "multi.sh", "",
	};
	char path[560];

	if (!s)
		return;
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(path, sizeof path, "%s/%s", s->dir, files[i]);
		if (unlink(path))
			rmdir(path);
	}
	free(s);
	ctx->state = NULL;
}

static int setup_shell1(struct bench_ctx *ctx) { return shell_setup(ctx, 1); }
static int setup_shell8(struct bench_ctx *ctx) { return shell_setup(ctx, 8); }

const struct bench bench_shell1 = {
	.name = "shell1",
	.title = "Shell Scripts (1 concurrent)",
	.group = "index",
	.unit = "lpm",
	.kind = BENCH_RATE,
	.per_loop = 60,		/* loops per minute from loops per second */
	.baseline = 42.4,
	.setup = setup_shell1,
	.run = shell_run,
	.teardown = shell_teardown,
};

const struct bench bench_shell8 = {
	.name = "shell8",
	.title = "Shell Scripts (8 concurrent)",
	.group = "index",
	.unit = "lpm",
	.kind = BENCH_RATE,
	.per_loop = 60,
	.baseline = 6.0,
	.setup = setup_shell8,
	.run = shell_run,
	.teardown = shell_teardown,
};
