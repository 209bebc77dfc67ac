/* harness.c — see harness.h. */
#define _GNU_SOURCE
#include "harness.h"
#include "out.h"
#include "record.h"
#include "stats.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CAL_MAX_STEPS 40
#define READY_TIMEOUT_MS 60000

struct slot {
	uint64_t loops, ns;
	int err;
	int nextra;
	const char *extra_key[BENCH_MAX_EXTRA];
	int64_t extra_val[BENCH_MAX_EXTRA];
	char note[160];
};

struct shared {
	atomic_int stop;
	struct slot slot[];
};

struct cmd {
	char op;		/* 'C' calibrate (one run), 'S' sample (until stop), 'Q' quit */
	uint64_t iters;
};

uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void send_body(int fd, struct rec_body *b)
{
	b->buf[b->len] = '\n';
	write_all(fd, b->buf, b->len + 1);
	b->buf[b->len] = 0;
}

static void worker(const struct bench *b, struct bench_ctx *ctx, int cmd_fd, int res_fd,
		   struct shared *sh)
{
	struct slot *s = &sh->slot[ctx->copy];
	int me = ctx->copy;
	struct cmd c;
	int r = b->setup ? b->setup(ctx) : 0;

	s->err = r;
	memcpy(s->note, ctx->note, sizeof s->note);
	write_all(res_fd, &me, sizeof me);
	if (r)
		_exit(0);
	while (read(cmd_fd, &c, sizeof c) == (ssize_t)sizeof c && c.op != 'Q') {
		uint64_t loops = 0, t0, t1;
		ctx->nextra = 0;
		ctx->note[0] = 0;
		t0 = now_ns();
		do {
			r = b->run(ctx, c.iters);
			if (r)
				break;
			loops += c.iters;
		} while (c.op == 'S' &&
			 !atomic_load_explicit(&sh->stop, memory_order_relaxed));
		t1 = now_ns();
		s->loops = loops;
		s->ns = t1 - t0;
		s->err = r;
		s->nextra = ctx->nextra;
		memcpy(s->extra_key, ctx->extra_key, sizeof s->extra_key);
		memcpy(s->extra_val, ctx->extra_val, sizeof s->extra_val);
		memcpy(s->note, ctx->note, sizeof s->note);
		write_all(res_fd, &me, sizeof me);
	}
	if (b->teardown)
		b->teardown(ctx);
	_exit(0);
}

/* Wait for a report from each worker marked in pending[] (cleared as they report).
 * Returns 0; -ETIMEDOUT on a stall; -ECHILD when a pending worker died without reporting
 * (its signal, if any, in *sig). Workers are checked every 100 ms, so a crash is seen at
 * once and not at the timeout. */
static int collect(int res_fd, char *pending, int copies, const pid_t *pids, int timeout_ms,
		   int *sig)
{
	uint64_t deadline = now_ns() + (uint64_t)timeout_ms * 1000000u;
	int left = 0;

	for (int c = 0; c < copies; c++)
		left += pending[c];
	while (left > 0) {
		struct pollfd pfd = {.fd = res_fd, .events = POLLIN};
		int who;
		if (now_ns() >= deadline)
			return -ETIMEDOUT;
		int pr = poll(&pfd, 1, 100);
		if (pr > 0) {
			ssize_t k = read(res_fd, &who, sizeof who);
			if (k == (ssize_t)sizeof who && who >= 0 && who < copies && pending[who]) {
				pending[who] = 0;
				left--;
			} else if (k == 0) {
				/* Every worker is gone: take the first pending one's status. */
				for (int c = 0; c < copies; c++) {
					int st;
					if (pending[c] && waitpid(pids[c], &st, 0) == pids[c]) {
						*sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
						break;
					}
				}
				return -ECHILD;
			}
			continue;
		}
		for (int c = 0; c < copies; c++) {
			int st;
			if (!pending[c] || waitpid(pids[c], &st, WNOHANG) != pids[c])
				continue;
			/* It may have reported just before exiting: drain first. */
			while (poll(&pfd, 1, 0) > 0 && read(res_fd, &who, sizeof who) ==
			       (ssize_t)sizeof who)
				if (who >= 0 && who < copies && pending[who]) {
					pending[who] = 0;
					left--;
				}
			if (pending[c]) {
				*sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
				return -ECHILD;
			}
		}
	}
	return 0;
}

static void rm_tree(const char *path)
{
	pid_t pid = fork();
	if (pid == 0) {
		execl("/bin/rm", "rm", "-rf", path, (char *)NULL);
		execl("/bin/busybox", "rm", "-rf", path, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static double sample_value(const struct bench *b, const struct slot *s, int copies)
{
	double v = 0;

	if (b->value_extra) {
		for (int e = 0; e < s[0].nextra; e++)
			if (!strcmp(s[0].extra_key[e], b->value_extra))
				return (double)s[0].extra_val[e] *
				       (b->value_scale > 0 ? b->value_scale : 1);
		return 0;	/* missing: summarize() rejects it, the test FAILs */
	}
	for (int c = 0; c < copies; c++) {
		double sec = (double)s[c].ns / 1e9;
		if (b->kind == BENCH_RATE)
			v += (double)s[c].loops * b->per_loop / sec;	/* copies' rates add */
		else
			v += (double)s[c].ns / (double)s[c].loops / b->per_loop / copies;
	}
	return v;
}

static uint64_t read_steal(void)
{
	char buf[512];
	unsigned long long v[8] = {0};
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return 0;
	if (!fgets(buf, sizeof buf, f))
		buf[0] = 0;
	fclose(f);
	if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) < 8)
		return 0;
	return v[7];
}

/* "stalled", "crashed (signal 11)" or "exited" for a collect() error. */
static const char *collect_reason(int r, int sig, char *buf, size_t len)
{
	if (r == -ETIMEDOUT)
		return "stalled";
	if (sig)
		snprintf(buf, len, "crashed (signal %d, %s)", sig, strsignal(sig));
	else
		snprintf(buf, len, "worker exited unexpectedly");
	return buf;
}

static int failed;	/* a FAIL was sent: workers may be stuck, kill rather than wait */

static void fail(int fd, const struct bench *b, int copies, const char *reason,
		 const char *note)
{
	struct rec_body r;
	failed = 1;
	rec_begin(&r, "FAIL");
	rec_str(&r, "test", b->name);
	rec_u64(&r, "copies", (uint64_t)copies);
	rec_str(&r, "reason", reason);
	if (note && *note)
		rec_str(&r, "note", note);
	send_body(fd, &r);
}

int harness_test(const struct bench *b, int copies_in, const struct params *p,
		 const struct harness_env *env, int fd)
{
	const int copies = copies_in < 1 ? 1 : copies_in > 4096 ? 4096 : copies_in;
	const size_t ncop = (size_t)copies;
	size_t shsize = sizeof(struct shared) + (size_t)copies * sizeof(struct slot);
	struct shared *sh = mmap(NULL, shsize, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int res[2], *cmd = calloc((size_t)copies, sizeof *cmd);
	pid_t *pids = calloc((size_t)copies, sizeof *pids);
	double *values = calloc((size_t)p->max_samples, sizeof *values);
	char *pending = calloc((size_t)copies, 1);
	char dir[256], reason[200];
	int n = 0, status = 0, r, sig = 0;
	uint64_t t_start = now_ns(), batch, iters = 1, ns = 0;
	int stall_ms;

	if (sh == MAP_FAILED || !cmd || !pids || !values || !pending || pipe(res)) {
		fail(fd, b, copies, "harness: out of memory", NULL);
		return 1;
	}
	snprintf(dir, sizeof dir, "%s/isobench.%d", env->tmpdir, (int)getpid());
	if (mkdir(dir, 0700) && errno != EEXIST) {
		fail(fd, b, copies, "cannot create work directory", strerror(errno));
		return 1;
	}
	for (int c = 0; c < copies; c++) {
		int cp[2];
		char wd[300];
		if (pipe(cp)) {
			fail(fd, b, copies, "harness: pipe", strerror(errno));
			return 1;
		}
		snprintf(wd, sizeof wd, "%s/copy%d", dir, c);
		mkdir(wd, 0700);
		pids[c] = fork();
		if (pids[c] == 0) {
			struct bench_ctx ctx;
			memset(&ctx, 0, sizeof ctx);
			ctx.copy = c;
			ctx.copies = copies;
			ctx.workdir = wd;
			ctx.self = env->self;
			close(cp[1]);
			close(res[0]);
			close(fd);
			worker(b, &ctx, cp[0], res[1], sh);
		}
		close(cp[0]);
		cmd[c] = cp[1];
		if (pids[c] < 0) {
			fail(fd, b, copies, "harness: fork", strerror(errno));
			status = 1;
			goto out;
		}
	}
	close(res[1]);

	/* Setup: every copy reports ready, skip or error. */
	memset(pending, 1, ncop);
	if ((r = collect(res[0], pending, copies, pids, READY_TIMEOUT_MS, &sig))) {
		fail(fd, b, copies, collect_reason(r, sig, reason, sizeof reason), "during setup");
		goto out;
	}
	for (int c = 0; c < copies; c++) {
		struct slot *s = &sh->slot[c];
		if (s->err == BENCH_SKIP) {
			struct rec_body rb;
			rec_begin(&rb, "SKIP");
			rec_str(&rb, "test", b->name);
			rec_u64(&rb, "copies", (uint64_t)copies);
			rec_str(&rb, "reason", s->note[0] ? s->note : "not supported here");
			send_body(fd, &rb);
			goto out;
		}
		if (s->err) {
			snprintf(reason, sizeof reason, "setup: %s", strerror(-s->err));
			fail(fd, b, copies, reason, s->note);
			goto out;
		}
	}

	/* Calibrate on copy 0 (this is also the warm-up): find a batch of ~sample/10. */
	uint64_t target = (uint64_t)p->sample_ms * 1000000u / 10;
	stall_ms = 10000 + 20 * p->sample_ms;
	for (int step = 0; step < CAL_MAX_STEPS; step++) {
		struct cmd c = {'C', iters};
		write_all(cmd[0], &c, sizeof c);
		pending[0] = 1;
		if ((r = collect(res[0], pending, 1, pids, stall_ms, &sig))) {
			fail(fd, b, copies, collect_reason(r, sig, reason, sizeof reason),
			     "during calibration");
			goto out;
		}
		if (sh->slot[0].err) {
			snprintf(reason, sizeof reason, "run: %s", strerror(-sh->slot[0].err));
			fail(fd, b, copies, reason, sh->slot[0].note);
			goto out;
		}
		ns = sh->slot[0].ns;
		if (ns >= target / 2 || iters >= (1ull << 40))
			break;
		uint64_t f = ns ? target / ns : 1000;
		iters *= f < 2 ? 2 : f > 1000 ? 1000 : f;
	}
	batch = ns ? iters * target / ns : iters;
	if (batch < 1)
		batch = 1;
	stall_ms = 10000 + 20 * p->sample_ms + (int)(ns / 1000000u * 20);

	/* Samples: all copies start together and run batches until the stop flag. Sample -1
	 * is a warm-up of every copy (caches, page tables, frequency): sent as SAMPLE with
	 * warmup=1 for transparency, never used in the statistics. */
	for (int i = -1; i < p->max_samples; i++) {
		struct timespec d = {p->sample_ms / 1000, (long)(p->sample_ms % 1000) * 1000000L};
		uint64_t steal0 = read_steal(), steal1;
		struct cmd c = {'S', batch};
		struct rec_body rb;

		atomic_store(&sh->stop, 0);
		out_quiet(1);	/* no console write while the sample is measured (out.h) */
		for (int k = 0; k < copies; k++)
			write_all(cmd[k], &c, sizeof c);
		while (nanosleep(&d, &d) && errno == EINTR)
			;
		atomic_store(&sh->stop, 1);
		memset(pending, 1, ncop);
		r = collect(res[0], pending, copies, pids, stall_ms, &sig);
		out_quiet(0);
		if (r) {
			fail(fd, b, copies, collect_reason(r, sig, reason, sizeof reason), NULL);
			goto out;
		}
		steal1 = read_steal();
		for (int k = 0; k < copies; k++)
			if (sh->slot[k].err) {
				snprintf(reason, sizeof reason, "run: %s",
					 strerror(-sh->slot[k].err));
				fail(fd, b, copies, reason, sh->slot[k].note);
				goto out;
			}
		rec_begin(&rb, "SAMPLE");
		rec_str(&rb, "test", b->name);
		rec_u64(&rb, "copies", (uint64_t)copies);
		if (i < 0)
			rec_str(&rb, "warmup", "1");
		else
			rec_u64(&rb, "i", (uint64_t)i);
		char list[REC_MAX / 2];
		size_t off = 0;
		for (int k = 0; k < copies && off < sizeof list - 24; k++)
			off += (size_t)snprintf(list + off, sizeof list - off, "%s%llu",
						k ? "," : "",
						(unsigned long long)sh->slot[k].loops);
		rec_str(&rb, "loops", list);
		off = 0;
		for (int k = 0; k < copies && off < sizeof list - 24; k++)
			off += (size_t)snprintf(list + off, sizeof list - off, "%s%llu",
						k ? "," : "", (unsigned long long)sh->slot[k].ns);
		rec_str(&rb, "ns", list);
		rec_u64(&rb, "steal_ticks", steal1 - steal0);
		rec_u64(&rb, "batch", batch);
		for (int e = 0; e < sh->slot[0].nextra; e++)
			rec_i64(&rb, sh->slot[0].extra_key[e], sh->slot[0].extra_val[e]);
		send_body(fd, &rb);

		/* Keep a batch near a tenth of a sample when the machine's speed drifts (load,
		 * frequency): a batch is the granularity at which the copies notice the stop. */
		if (sh->slot[0].loops) {
			uint64_t per_batch = sh->slot[0].ns / (sh->slot[0].loops / batch);
			if (per_batch > 2 * target || per_batch < target / 2) {
				uint64_t nb = per_batch ? batch * target / per_batch : batch * 2;
				batch = nb ? nb : 1;
			}
		}
		if (i < 0)
			continue;
		values[n++] = sample_value(b, sh->slot, copies);
		if (n >= p->min_samples) {
			struct summary sm;
			if (summarize(values, (size_t)n, b->kind == BENCH_RATE, &sm) == 0 &&
			    sm.ci_half_pct <= p->target_ci_pct)
				break;
			if (env->budget_s &&
			    now_ns() - t_start > (uint64_t)env->budget_s * 800000000u)
				break;	/* keep what we have; the RESULT says how steady */
		}
	}

	struct summary sm;
	if (summarize(values, (size_t)n, b->kind == BENCH_RATE, &sm)) {
		fail(fd, b, copies, "no valid sample", NULL);
		goto out;
	}
	struct rec_body rb;
	rec_begin(&rb, "RESULT");
	rec_str(&rb, "test", b->name);
	rec_u64(&rb, "copies", (uint64_t)copies);
	rec_str(&rb, "unit", b->unit);
	rec_dbl(&rb, "value", sm.unixbench, 3);
	rec_u64(&rb, "samples", (uint64_t)n);
	rec_dbl(&rb, "median", sm.median, 3);
	rec_dbl(&rb, "min", sm.min, 3);
	rec_dbl(&rb, "max", sm.max, 3);
	rec_dbl(&rb, "ci95_pct", sm.ci_half_pct, 2);
	rec_str(&rb, "converged", sm.ci_half_pct <= p->target_ci_pct ? "1" : "0");
	if (b->baseline > 0) {
		rec_dbl(&rb, "baseline", b->baseline, 1);
		rec_dbl(&rb, "index", sm.unixbench / b->baseline * 10, 1);
	}
	send_body(fd, &rb);
out:
	for (int c = 0; c < copies; c++) {
		struct cmd q = {'Q', 0};
		if (cmd[c] > 0) {
			write_all(cmd[c], &q, sizeof q);
			close(cmd[c]);
		}
	}
	for (int c = 0; c < copies; c++)
		if (pids[c] > 0) {
			if (failed)
				kill(pids[c], SIGKILL);
			waitpid(pids[c], NULL, 0);
		}
	rm_tree(dir);
	return status;
}
