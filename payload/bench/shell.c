/* shell.c — "Shell Scripts (1 concurrent)" and "(8 concurrent)", UnixBench's shell1/shell8.
 *
 * Our own scripts doing UnixBench's multi.sh + tst.sh work, process for process:
 *   tst.sh i:  sort sort.src > sort.i;  od sort.i | sort -n -k 1 > od.i;
 *              grep the sort.i | tee grep.i | wc > wc.i;  rm the four files
 *              (one shell + 7 programs per instance)
 *   multi.sh n: start n "sh tst.sh i" in the background, then wait.
 * One loop = fork + execve of multi.sh (a "#!.../bin/sh" script, so the kernel starts the
 * shell, as UnixBench's looper does), waited for; unit lpm, so per_loop = 60.
 *
 * The tools are a distribution's, dynamically linked: dash, coreutils' sort od tee wc rm and
 * GNU grep, from /usr/lib/isobench/bin (the image: initramfs/build.sh copies Debian's) or
 * else /usr/bin, /bin (a host).  Only when one is missing does the workload fall back to
 * /bin/busybox for all seven; INFO exec.shell.tools says which ran (the info hook).
 * docs/benchmarks/fidelity-unixbench.md measures both against byte-unixbench.
 *
 * sort.src is our own text with the size and shape of UnixBench's input (362 lines, ~8.5 KB,
 * ~1,270 words, 35 lines containing "the"), generated identically every time (shell_text):
 * line i has 1 + (5i mod 6) words, a tab first when i mod 3 = 2, "the" as first word when
 * i mod 10 = 7 and i < 350, other words from the fixed 64-word list at index
 * (37i + 11j + (ij mod 13)) mod 64.  PATH is a private bin/ of links to the tools, LC_ALL=C.
 * Each copy works in <workdir>/shell.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../benchapi.h"
#include "record.h"
#include "io.h"
#include "num.h"
#include "vocab.h"
#include "../core/isoproc.h"
#include "shell.h"

/* No word contains "the": only the lines that start with it match tst.sh's grep. */
static const char *const words[64] = {
	"quickly", "benchmark", "kernel", "pages", "process", "pipeline", "rainfall", "cached",
	"signal", "threads", "looping", "north", "copying", "shell", "sorted", "octal",
	"dumping", "words", "counter", "filename", "blocks", "writes", "reader", "clocks",
	"ticking", "virtual", "machine", "guests", "host", "timer", "index", "baseline",
	"scores", "system", "call", "fork", "execute", "wait", "exit", "memory",
	"buffer", "disk", "stone", "dhrystone", "whet", "float", "integer", "string",
	"records", "array", "umask", "mortal", "export", "return", "while", "done",
	"case", "esac", "elif", "shift", "trap", "local", "unset", "tail",
};

static size_t shell_text(char *buf, size_t cap)
{
	size_t n = 0;

	for (int i = 0; i < SHELL_SRC_LINES; i++) {
		int nw = 1 + (5 * i) % 6, the = i % 10 == 7 && i < 350;

		if (n + 2 > cap)
			return 0;
		if (i % 3 == 2)
			buf[n++] = '\t';
		for (int j = 0; j < nw; j++) {
			const char *w = the && j == 0 ? "the" : words[(37 * i + 11 * (j - the) +
								 (i * (j - the)) % 13) % 64];
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

/* After "#!<dir>/bin/sh\n", written by shell_prepare(). */
static const char multi_sh[] =
	"# isobench shell workload: multi.sh <n> runs n tst.sh at once and waits\n"
	"i=1\n"
	"while [ $i -le $1 ]; do\n"
	"\tsh tst.sh $i &\n"
	"\ti=$((i + 1))\n"
	"done\n"
	"wait\n";

/* The tools, by the name the scripts call them; the program looked for (sh is dash). */
static const char *const tool_name[SHELL_NTOOLS] = { "sh", "sort", "od", "grep", "tee", "wc", "rm" };
static const char *const tool_prog[SHELL_NTOOLS] = { "dash", "sort", "od", "grep", "tee", "wc", "rm" };

int shell_find_tools(char path[SHELL_NTOOLS][256])
{
	static const char *const dirs[] = { PROC_LIBEXEC "/bin", "/usr/bin", "/bin" };
	int found = 0;

	for (int t = 0; t < SHELL_NTOOLS; t++) {
		path[t][0] = 0;
		for (size_t d = 0; d < sizeof dirs / sizeof *dirs && !path[t][0]; d++) {
			struct proc_desc pd;
			char p[256];

			snprintf(p, sizeof p, "%s/%s", dirs[d], tool_prog[t]);
			/* A distribution's tool: an ELF program with a loader (not a busybox link). */
			if (access(p, X_OK) == 0 && proc_describe(p, &pd) == 0 &&
			    !strncmp(pd.linkage, "dynamic", 7)) {
				char real[256];
				ssize_t n = readlink(p, real, sizeof real - 1);

				if (n > 0 && (real[n] = 0, strstr(real, "busybox")))
					continue;
				snprintf(path[t], 256, "%s", p);
			}
		}
		found += path[t][0] != 0;
	}
	if (found == SHELL_NTOOLS)
		return SHELL_TOOLS_DIST;
	for (int t = 0; t < SHELL_NTOOLS; t++)
		snprintf(path[t], 256, "%s", SHELL_BUSYBOX);
	return access(SHELL_BUSYBOX, X_OK) == 0 ? SHELL_TOOLS_BUSYBOX : -ENOENT;
}

static int put_file(const char *dir, const char *name, const char *head, const char *data,
		    size_t len)
{
	char path[512];
	int fd, err = 0;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0)
		return -errno;
	if ((head && write(fd, head, strlen(head)) != (ssize_t)strlen(head)) ||
	    write(fd, data, len) != (ssize_t)len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int shell_prepare(const char *dir)
{
	char path[512], text[65536], tools[SHELL_NTOOLS][256], shebang[600];
	size_t len;
	int err, set;

	if ((set = shell_find_tools(tools)) < 0)
		return set;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof path, "%s/bin", dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	for (int t = 0; t < SHELL_NTOOLS; t++) {
		snprintf(path, sizeof path, "%s/bin/%s", dir, tool_name[t]);
		unlink(path);
		if (symlink(tools[t], path))
			return -errno;
	}
	if (!(len = shell_text(text, sizeof text)))
		return -ENOBUFS;
	snprintf(shebang, sizeof shebang, "#!%s/bin/sh\n", dir);
	if ((err = put_file(dir, "sort.src", NULL, text, len)) ||
	    (err = put_file(dir, "tst.sh", NULL, tst_sh, sizeof tst_sh - 1)) ||
	    (err = put_file(dir, "multi.sh", shebang, multi_sh, sizeof multi_sh - 1)))
		return err;
	return set;
}

int shell_run_once(const char *dir, int n, int keep)
{
	char num[16], pathenv[560], script[560];
	char *argv[] = { script, num, NULL };
	char *envp[] = { pathenv, "LC_ALL=C", keep ? "KEEP=1" : NULL, NULL };
	int status;
	pid_t pid;

	snprintf(num, sizeof num, "%d", n);
	snprintf(pathenv, sizeof pathenv, "PATH=%s/bin", dir);
	snprintf(script, sizeof script, "%s/multi.sh", dir);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (chdir(dir) == 0)
			execve(script, argv, envp);	/* #!<dir>/bin/sh, as UnixBench's looper */
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

/* multi.sh's `wait` exits 0 even when every tst.sh failed (a tool it cannot find, a PATH
 * that splits): the loop would be counted with none of its work done, a figure many times
 * too high. So before timing, one kept run must leave each instance's wc.<i> holding the
 * counts of the lines with "the" (more than none). 0, or -EIO; the files are removed. */
int shell_verify(const char *dir, int n)
{
	static const char *const out[] = {"sort", "od", "grep", "wc"};
	char path[600];
	int err = shell_run_once(dir, n, 1);

	for (int i = 1; i <= n; i++) {
		char wc[256], *fd[4];	/* wc(1) of its input: "lines words bytes" */
		long long c[3];
		snprintf(path, sizeof path, "%s/wc.%d", dir, i);
		int ok = read_file_str(path, wc, sizeof wc) > 0 && split_fields(wc, fd, 4) == 3;
		for (int k = 0; ok && k < 3; k++)
			ok = !num_ll(fd[k], 0, 0, LLONG_MAX, &c[k]);
		if (!ok || c[0] <= 0)
			err = err ? err : -EIO;
		for (size_t k = 0; k < sizeof out / sizeof *out; k++) {
			snprintf(path, sizeof path, "%s/%s.%d", dir, out[k], i);
			unlink(path);
		}
	}
	return err;
}

struct shell_state {
	int n;
	char dir[512];
};

/* The info hook: which tools the workload runs and what the shell is. */
static void shell_info(const struct bench *t, const char *self, struct rec_body *b)
{
	char tools[SHELL_NTOOLS][256], list[SHELL_NTOOLS * 260] = "";
	struct proc_desc d;
	int set = shell_find_tools(tools);

	(void)t;
	(void)self;
	rec_str(b, RK_EXEC_SHELL_TOOLS, set == SHELL_TOOLS_DIST ? "distribution" :
				       set == SHELL_TOOLS_BUSYBOX ? "busybox" : "-");
	if (set < 0)
		return;
	for (int t = 0; t < SHELL_NTOOLS; t++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", t ? "," : "",
			 tools[t]);
	rec_str(b, RK_EXEC_SHELL_PROGRAMS, list);
	proc_describe(tools[0], &d);
	proc_info(b, "shell", &d);	/* the shell (dash); the others share its loader and libc */
}

static int shell_setup(struct bench_ctx *ctx, int n)
{
	struct shell_state *s;
	int err;

	if (!(s = calloc(1, sizeof *s)))
		return -ENOMEM;
	s->n = n;
	snprintf(s->dir, sizeof s->dir, "%s/shell", ctx->workdir);
	ctx->state = s;
	if ((err = shell_prepare(s->dir)) == -ENOENT) {
		bench_note(ctx, "neither dash+coreutils+grep nor %s found", SHELL_BUSYBOX);
		return BENCH_SKIP;
	}
	if (err < 0) {
		bench_note(ctx, "cannot prepare %s: %s", s->dir, strerror(-err));
		return err;
	}
	if ((err = shell_verify(s->dir, n))) {
		bench_note(ctx, "multi.sh %d in %s did not do tst.sh's work (no wc.<i>)", n, s->dir);
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
			bench_note(ctx, "multi.sh %d failed", s->n);
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

BENCH(shell1, .title = "Shell Scripts (1 concurrent)",
	.group = REC_GROUP_INDEX,
	.unit = REC_UNIT_LPM,
	.kind = BENCH_RATE,
	.per_loop = REC_PER_LOOP_LPM,	/* loops per minute from loops per second (lib/vocab.h) */
	.baseline = 42.4,
	.info = shell_info,
	.setup = setup_shell1,
	.run = shell_run,
	.teardown = shell_teardown);

BENCH(shell8, .title = "Shell Scripts (8 concurrent)",
	.group = REC_GROUP_INDEX,
	.unit = REC_UNIT_LPM,
	.kind = BENCH_RATE,
	.per_loop = REC_PER_LOOP_LPM,
	.baseline = 6.0,
	.info = shell_info,
	.setup = setup_shell8,
	.run = shell_run,
	.teardown = shell_teardown);
