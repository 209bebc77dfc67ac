/* harness.c — see harness.h. */
#define _GNU_SOURCE
#include "harness.h"
#include "cpuclock.h"
#include "io.h"
#include "latency.h"
#include "sys.h"
#include "vocab.h"
#include "out.h"
#include "record.h"
#include "stats.h"
#include "sysfs.h"
#include "unixbench.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CAL_MAX_STEPS 40
#define READY_TIMEOUT_MS 60000

/* One copy's report of its last command, in shared memory. */
struct slot {
	uint64_t loops;		/* loops run, every batch */
	uint64_t last_batch;	/* loops of the final batch (0 when run() failed) */
	uint64_t t0, t_last0, t_end;	/* first batch start, final batch start, end (ns) */
	uint64_t cpus;		/* bit per CPU seen after a batch (CPU >= 63 sets bit 63) */
	int64_t migrations;	/* CPU changes seen between batches (a lower bound) */
	int64_t nivcsw;		/* involuntary context switches of the copy's process */
	int64_t cpu_ns;		/* CPU time (user + system) of the copy's work: usage_now() */
	int err;
	int nextra;
	const char *extra_key[BENCH_MAX_EXTRA];
	int64_t extra_val[BENCH_MAX_EXTRA];
	char note[160];
	int has_lat;		/* the test handed over a latency histogram (bench_lat()) */
	struct lat_hist lat;	/* a copy of it, as it was at the command's end */
	double mhz;		/* 'S': the clock the copy's CPU ran at around it (cpuclock.h), 0 none */
};

struct shared {
	atomic_int stop;	/* raised by the controller at the window's end */
	atomic_int go;		/* the sample generation the copies may start */
	atomic_int armed;	/* copies waiting at the start line */
	int clk;		/* the run's enum cpuclock_method, set before the copies fork */
	struct slot slot[];
};

struct cmd {
	char op;		/* 'C' calibrate (one run), 'S' sample (until stop), 'Q' quit */
	int gen;		/* 'S': the value of shared.go that starts it */
	uint64_t iters;
};

/* The controller's state for one test: what the phases below share. */
struct hrun {
	const struct bench *b;
	const struct params *p;
	const struct harness_env *env;
	int fd, copies;
	int ncpu;		/* CPUs this process may run on */
	int cpu_list[CPU_SETSIZE];
	struct shared *sh;
	int res, res_w;		/* copies write their number to res_w when they report */
	int *cmd;		/* write end of each copy's command pipe */
	pid_t *pids;
	char *pending;
	double *values;
	int n;			/* samples kept */
	double *rx;		/* the kept samples' b->result_extra, when they had it */
	int nrx;
	char dir[256];
	uint64_t batch, target_ns, t_start, t_go, t_stop;
	uint64_t window_ns;	/* a sample's window: sample_ms, or longer (phase_calibrate) */
	int budget_s;		/* the deadline (env->budget_s, or extend_deadline()'s) */
	int stall_ms, gen, failed;
	const char *stop;	/* why sampling ended: REC_STOP_* */
	/* Copy 0's latency histograms of the kept samples, merged (lat_merge()): the RESULT's
	 * whole-run percentiles. NULL until a kept sample carries one. */
	struct lat_hist *whole;
	/* The kept samples' totals, for RESULT whole= and steal_pct= (issue 46): per copy the
	 * loops inside the windows, the windows' ns, and the steal ticks of /proc/stat's "cpu"
	 * line (every CPU's, USER_HZ) during them. */
	double *sum_wl;
	uint64_t sum_window_ns, sum_steal;
};

static void send_body(int fd, struct rec_body *b)
{
	rec_close(b);	/* the runner relays the body as it is: what was left out is said here */
	b->buf[b->len] = '\n';
	write_all(fd, b->buf, b->len + 1);
	b->buf[b->len] = 0;
}

/* ---- the copies ---- */

/* Involuntary context switches of process pid, from /proc/PID/status; 0 when unreadable or
 * not a decimal count. */
static int64_t nivcsw_of(int pid)
{
	char path[48];
	long long v;

	snprintf(path, sizeof path, "/proc/%d/status", pid);
	return read_kv_ll(path, "nonvoluntary_ctxt_switches", ':', NULL, &v) ? 0 : v;
}

/* The calling process's involuntary context switches and CPU time (ns, user + system), its
 * CPU time including the children it has waited for (a shell test's scripts and tools, an
 * exec chain), and with those of the copy's helper process (bench_ctx.helper) when it has
 * one: the helper's CPU clock (clock_getcpuclockid) counts while it lives, which the copy's
 * rusage cannot.  So a SAMPLE's cpu_ns is the CPU its copy's work used (spawn's excepted:
 * its forks are reaped by isobench-proc, whose children's time is not read). */
static void usage_now(int helper, int64_t *nivcsw, int64_t *cpu_ns)
{
	struct rusage ru;
	struct timespec ts;
	clockid_t clk;

	if (getrusage(RUSAGE_SELF, &ru)) {
		*nivcsw = *cpu_ns = 0;
		return;
	}
	*nivcsw = ru.ru_nivcsw;
	*cpu_ns = ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
		  ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
	if (getrusage(RUSAGE_CHILDREN, &ru) == 0)
		*cpu_ns += ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000 +
			   ((int64_t)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000;
	if (helper > 0 && clock_getcpuclockid(helper, &clk) == 0 && clock_gettime(clk, &ts) == 0) {
		*cpu_ns += (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		*nivcsw += nivcsw_of(helper);
	}
}

/* Wait at the start line until the controller opens sample `gen`. */
static void await_go(struct shared *sh, int gen, int copies)
{
	if (atomic_fetch_add(&sh->armed, 1) + 1 == copies)
		futex_wake(&sh->armed, 1);
	for (int v; (v = atomic_load(&sh->go)) != gen;)
		futex_wait(&sh->go, (uint32_t)v, NULL);
}

/* Run one command: batches of c->iters until the stop flag ('S') or once ('C'). The clock
 * and the CPU number are read between batches only, never inside run(). */
static int run_batches(const struct bench *b, struct bench_ctx *ctx, const struct cmd *c,
		       struct shared *sh, struct slot *s)
{
	uint64_t loops = 0, t, t_prev, cpus = 0;
	int64_t changes = 0, sw0, cpu0, sw1, cpu1;
	int r, last_cpu = sched_getcpu();

	usage_now(ctx->helper, &sw0, &cpu0);

	ctx->nextra = 0;
	ctx->lat = NULL;
	ctx->note[0] = 0;
	t = now_ns();
	s->t0 = t;
	do {
		t_prev = t;
		r = b->run(ctx, c->iters);
		t = now_ns();
		int cpu = sched_getcpu();
		cpus |= cpu < 0 ? 0 : 1ull << (cpu < 63 ? cpu : 63);
		changes += cpu != last_cpu;
		last_cpu = cpu;
		if (r)
			break;
		loops += c->iters;
	} while (c->op == 'S' && !atomic_load_explicit(&sh->stop, memory_order_acquire));
	s->loops = loops;
	s->last_batch = r ? 0 : c->iters;
	s->t_last0 = t_prev;
	s->t_end = t;
	s->cpus = cpus;
	s->migrations = changes;
	usage_now(ctx->helper, &sw1, &cpu1);
	s->nivcsw = sw1 - sw0;
	s->cpu_ns = cpu1 - cpu0;
	return r;
}

static void worker(const struct bench *b, struct bench_ctx *ctx, int cpu, int cmd_fd,
		   int res_fd, struct shared *sh)
{
	struct slot *s = &sh->slot[ctx->copy];
	int me = ctx->copy, r = 0;
	struct cmd c;

	if (cpu >= 0) {
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof one, &one)) {
			r = -errno;
			bench_note(ctx, "cannot pin copy %d to CPU %d", me, cpu);
		}
	}
	if (!r && b->setup)
		r = b->setup(ctx);
	s->err = r;
	memcpy(s->note, ctx->note, sizeof s->note);
	write_all(res_fd, &me, sizeof me);
	if (r)
		_exit(0);
	while (read(cmd_fd, &c, sizeof c) == (ssize_t)sizeof c && c.op != 'Q') {
		/* The clock is measured around the sample, outside its window and batches. */
		struct cpuclock_copy clk;
		if (c.op == 'S') {
			cpuclock_before(&clk, (enum cpuclock_method)sh->clk);
			await_go(sh, c.gen, ctx->copies);
		}
		s->err = run_batches(b, ctx, &c, sh, s);
		if (c.op == 'S')
			s->mhz = cpuclock_after(&clk);
		s->nextra = ctx->nextra;
		memcpy(s->extra_key, ctx->extra_key, sizeof s->extra_key);
		memcpy(s->extra_val, ctx->extra_val, sizeof s->extra_val);
		memcpy(s->note, ctx->note, sizeof s->note);
		s->has_lat = ctx->lat != NULL;
		if (ctx->lat)
			s->lat = *ctx->lat;
		write_all(res_fd, &me, sizeof me);
	}
	if (b->teardown)
		b->teardown(ctx);
	_exit(0);
}

/* ---- the controller: helpers ---- */

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

/* Wait until every copy waits at the start line; the same errors as collect(). */
static int await_armed(struct hrun *h, int *sig)
{
	uint64_t deadline = now_ns() + (uint64_t)h->stall_ms * 1000000u;
	struct timespec tick = {0, 100000000};

	for (int v; (v = atomic_load(&h->sh->armed)) < h->copies;) {
		if (now_ns() >= deadline)
			return -ETIMEDOUT;
		futex_wait(&h->sh->armed, (uint32_t)v, &tick);
		for (int c = 0; c < h->copies; c++) {
			int st;
			if (waitpid(h->pids[c], &st, WNOHANG) == h->pids[c]) {
				h->pids[c] = -1;
				*sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
				return -ECHILD;
			}
		}
	}
	return 0;
}

static uint64_t read_steal(void)
{
	unsigned long long v[PROC_STAT_CPU];

	return proc_stat_cpu(v) < PROC_STAT_CPU ? 0 : v[7];
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

static void fail(struct hrun *h, const char *reason, const char *note)
{
	struct rec_body r;
	h->failed = 1;	/* workers may be stuck: kill rather than wait */
	rec_begin(&r, RK_FAIL);
	rec_str(&r, RK_TESTNAME, h->b->name);
	rec_u64(&r, RK_COPIES, (uint64_t)h->copies);
	rec_str(&r, RK_REASON, reason);
	if (note && *note)
		rec_str(&r, RK_NOTE, note);
	send_body(h->fd, &r);
}

/* A FAIL for a collect()/await_armed() error; returns -1. */
static int fail_collect(struct hrun *h, int r, int sig, const char *when)
{
	char reason[200];
	fail(h, collect_reason(r, sig, reason, sizeof reason), when);
	return -1;
}

/* A FAIL when a copy's run() returned an error; returns -1, or 0 when none did. */
static int fail_run_error(struct hrun *h, int copies)
{
	for (int k = 0; k < copies; k++)
		if (h->sh->slot[k].err) {
			char reason[200];
			snprintf(reason, sizeof reason, "run: %s", strerror(-h->sh->slot[k].err));
			fail(h, reason, h->sh->slot[k].note);
			return -1;
		}
	return 0;
}

/* ---- the controller: phases ---- */

/* Allocate the shared area and the work directory; learn the CPUs we may use. */
static int phase_init(struct hrun *h)
{
	size_t ncop = (size_t)h->copies;
	cpu_set_t set;
	int res[2];

	h->sh = mmap(NULL, sizeof(struct shared) + ncop * sizeof(struct slot),
		     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	h->cmd = calloc(ncop, sizeof *h->cmd);
	h->pids = calloc(ncop, sizeof *h->pids);
	h->values = calloc((size_t)h->p->max_samples, sizeof *h->values);
	h->rx = calloc((size_t)h->p->max_samples, sizeof *h->rx);
	h->pending = calloc(ncop, 1);
	h->res = h->res_w = -1;
	if (h->sh == MAP_FAILED || !h->cmd || !h->pids || !h->values || !h->rx || !h->pending ||
	    pipe(res)) {
		fail(h, "harness: out of memory", NULL);
		return -1;
	}
	h->res = res[0];
	h->res_w = res[1];
	char why[512];
	h->sh->clk = (int)cpuclock_probe(why, sizeof why);
	h->ncpu = 0;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				h->cpu_list[h->ncpu++] = c;
	/* A cut path would name another directory, which rm_tree() removes at the end. */
	if ((size_t)snprintf(h->dir, sizeof h->dir, "%s/isobench.%d", h->env->tmpdir,
			     (int)getpid()) >= sizeof h->dir) {
		h->dir[0] = 0;
		fail(h, "work directory path too long", h->env->tmpdir);
		return -1;
	}
	if (mkdir(h->dir, 0700) && errno != EEXIST) {
		fail(h, "cannot create work directory", strerror(errno));
		h->dir[0] = 0;
		return -1;
	}
	return 0;
}

/* Fork one worker per copy, each with its command pipe and work directory; with pin=1
 * copy c runs on the c-th allowed CPU (round robin). */
static int phase_spawn(struct hrun *h)
{
	for (int c = 0; c < h->copies; c++) {
		int cp[2];
		char wd[300];
		if (pipe(cp)) {
			fail(h, "harness: pipe", strerror(errno));
			return -1;
		}
		snprintf(wd, sizeof wd, "%s/copy%d", h->dir, c);
		mkdir(wd, 0700);
		h->pids[c] = fork();
		if (h->pids[c] == 0) {
			struct bench_ctx ctx;
			memset(&ctx, 0, sizeof ctx);
			ctx.copy = c;
			ctx.copies = h->copies;
			ctx.workdir = wd;
			ctx.self = h->env->self;
			close(cp[1]);
			close(h->res);
			close(h->fd);
			worker(h->b, &ctx,
			       bench_pinned(h->b, h->p) && h->ncpu ? h->cpu_list[c % h->ncpu] : -1, cp[0],
			       h->res_w, h->sh);
		}
		close(cp[0]);
		h->cmd[c] = cp[1];
		if (h->pids[c] < 0) {
			fail(h, "harness: fork", strerror(errno));
			return -1;
		}
	}
	close(h->res_w);	/* EOF on res once every copy is gone */
	h->res_w = -1;
	return 0;
}

/* Every copy reports ready, skip or error. Returns 0 when all are ready, 1 after a SKIP,
 * -1 after a FAIL. */
static int phase_setup(struct hrun *h)
{
	int r, sig = 0;

	memset(h->pending, 1, (size_t)h->copies);
	if ((r = collect(h->res, h->pending, h->copies, h->pids, READY_TIMEOUT_MS, &sig)))
		return fail_collect(h, r, sig, "during setup");
	for (int c = 0; c < h->copies; c++) {
		struct slot *s = &h->sh->slot[c];
		/* A setup that cannot have its memory (-ENOMEM: an mmap or allocation the kernel
		 * refused, an address-space limit) is a machine too small for the test, not a
		 * broken test: a SKIP saying so, as mem_spare()'s checks say it before trying. */
		if (s->err == BENCH_SKIP || s->err == -ENOMEM) {
			char reason[220];
			snprintf(reason, sizeof reason, "%s%s", s->err == BENCH_SKIP ? "" :
				 "its memory cannot be had here (ENOMEM): ", s->note[0] ? s->note
				 : s->err == BENCH_SKIP ? "not supported here" : "setup refused");
			struct rec_body rb;
			rec_begin(&rb, RK_SKIP);
			rec_str(&rb, RK_TESTNAME, h->b->name);
			rec_u64(&rb, RK_COPIES, (uint64_t)h->copies);
			rec_str(&rb, RK_REASON, reason);
			send_body(h->fd, &rb);
			return 1;
		}
		if (s->err) {
			/* What happened is the test's note when it wrote one (a peer's answer
			 * quoted, say), the errno's text only when it did not: an errno names a kind
			 * of failure, and may not be what this one was ("Connection refused" for a
			 * peer that answered garbage). The note stays the FAIL's note as well. */
			char reason[200];
			snprintf(reason, sizeof reason, "setup: %s", s->note[0] ? s->note
				 : strerror(-s->err));
			fail(h, reason, s->note);
			return -1;
		}
	}
	return 0;
}

/* The window of a sample: sample_ms, widened to twice the wall time in which every copy
 * can run one batch (loop_ns per loop, copy 0 alone; copies/CPUs rounded up in turn) when
 * that is longer. With more copies than CPUs and one loop longer than the window (2 MiB
 * first touches under TCG, 4 copies on 2 CPUs, sample_ms 10), a copy scheduled only after
 * the close did no loop in it: a time test's value, the mean of ns per loop over the copies,
 * was then undefined in every sample, and the test FAILed "no valid sample". */
static uint64_t sample_window(const struct hrun *h, uint64_t loop_ns)
{
	uint64_t window = (uint64_t)h->p->sample_ms * 1000000u;
	uint64_t cpus = h->ncpu > 0 ? (uint64_t)h->ncpu : 1;
	uint64_t turns = ((uint64_t)h->copies + cpus - 1) / cpus;
	uint64_t need = 2 * turns * h->batch * loop_ns;
	return need > window ? need : window;
}

int harness_deadline_s(const struct params *p, uint64_t window_ns)
{
	uint64_t s = 60 + 3 * (uint64_t)p->max_samples * window_ns / 1000000000u;
	return s > INT_MAX ? INT_MAX : (int)s;
}

int harness_deadline_cap(int first_s)
{
	return first_s > INT_MAX / HARNESS_DEADLINE_CAP ? INT_MAX : first_s * HARNESS_DEADLINE_CAP;
}

/* After calibration, when the window was widened past sample_ms and no timeout= was given:
 * the deadline the wider windows need (harness_deadline_s() from here), at most
 * HARNESS_DEADLINE_CAP times the one the test started with, kept as the sampling budget and
 * sent to the runner as INFO deadline.* (it kills the test at the later time). Without it a
 * loop of seconds (shell8 under TCG: 6-10 s, windows of twice that) outlasted the 60 s its
 * quick-suite test was given, and the test FAILed "timeout" on every slow host. */
static void extend_deadline(struct hrun *h, uint64_t loop_ns)
{
	uint64_t spent = (now_ns() - h->t_start) / 1000000000u;
	int first = h->env->budget_s, want, cap, to;
	struct rec_body rb;

	if (h->p->test_timeout_s || first <= 0 || h->window_ns <= (uint64_t)h->p->sample_ms * 1000000u)
		return;
	want = harness_deadline_s(h->p, h->window_ns);
	want = want > INT_MAX - (int)spent ? INT_MAX : want + (int)spent;
	cap = harness_deadline_cap(first);
	if (want <= first)
		return;
	to = want < cap ? want : cap;
	h->budget_s = to;
	rec_begin(&rb, RK_INFO);
	rec_str(&rb, RK_DEADLINE_TEST, h->b->name);
	rec_u64(&rb, RK_DEADLINE_COPIES, (uint64_t)h->copies);
	rec_u64(&rb, RK_DEADLINE_S, (uint64_t)to);
	rec_fmt(&rb, RK_DEADLINE_REASON, "one loop takes %.1f s: windows of %.1f s instead of a "
		"sample's %d ms, so the deadline is %d s instead of %d s%s", (double)loop_ns / 1e9,
		(double)h->window_ns / 1e9, h->p->sample_ms, to, first,
		to < want ? " (capped: timeout= sets a longer one)" : "");
	send_body(h->fd, &rb);
}

/* Calibrate on copy 0 alone (this is also its warm-up): a batch of ~sample/10 of its time.
 * With more copies than CPUs a batch takes copies/CPUs times longer in wall time, so it is
 * cut by that factor: a copy looks at the stop flag about as often as a single copy does. */
static int phase_calibrate(struct hrun *h)
{
	uint64_t iters = 1, ns = 0;
	int r, sig = 0;

	h->target_ns = (uint64_t)h->p->sample_ms * 1000000u / 10;
	h->stall_ms = 10000 + 20 * h->p->sample_ms;
	/* One calibration run may take until shortly before the deadline (a loop of seconds
	 * under emulation, on a loaded host); a stall is still reported before the kill. */
	uint64_t spent_ms = (now_ns() - h->t_start) / 1000000u, end_ms = (uint64_t)h->budget_s * 1000u;
	if (end_ms > spent_ms + 2000 && end_ms - spent_ms - 2000 > (uint64_t)h->stall_ms &&
	    end_ms - spent_ms - 2000 < INT_MAX)
		h->stall_ms = (int)(end_ms - spent_ms - 2000);
	for (int step = 0; step < CAL_MAX_STEPS; step++) {
		struct cmd c = {'C', 0, iters};
		write_all(h->cmd[0], &c, sizeof c);
		h->pending[0] = 1;
		if ((r = collect(h->res, h->pending, 1, h->pids, h->stall_ms, &sig)))
			return fail_collect(h, r, sig, "during calibration");
		if (fail_run_error(h, 1))
			return -1;
		ns = h->sh->slot[0].t_end - h->sh->slot[0].t0;
		if (ns >= h->target_ns / 2 || iters >= (1ull << 40))
			break;
		uint64_t f = ns ? h->target_ns / ns : 1000;
		iters *= f < 2 ? 2 : f > 1000 ? 1000 : f;
	}
	h->batch = ns ? iters * h->target_ns / ns : iters;
	if (h->ncpu > 0 && h->copies > h->ncpu)
		h->batch = h->batch * (uint64_t)h->ncpu / (uint64_t)h->copies;
	if (h->batch < 1)
		h->batch = 1;
	h->window_ns = sample_window(h, ns / iters);
	h->stall_ms = 10000 + 20 * h->p->sample_ms + (int)(ns / 1000000u * 20);
	extend_deadline(h, ns / iters);
	return 0;
}

/* One sample over a common window: every copy gets its command and waits at the start
 * line; the window opens when all are there (one futex wake releases them) and closes
 * window_ns later (sample_ms, or longer: sample_window()), when the stop flag goes up.
 * Copies finish the batch they are in. */
static int phase_sample(struct hrun *h)
{
	struct cmd c = {'S', ++h->gen, h->batch};
	struct timespec end;
	int r, sig = 0;

	atomic_store(&h->sh->stop, 0);
	atomic_store(&h->sh->armed, 0);
	out_quiet(1);	/* no console write while the sample is measured (out.h) */
	for (int k = 0; k < h->copies; k++)
		write_all(h->cmd[k], &c, sizeof c);
	if ((r = await_armed(h, &sig))) {
		out_quiet(0);
		return fail_collect(h, r, sig, "at the start line");
	}
	h->t_go = now_ns();
	atomic_store(&h->sh->go, h->gen);
	futex_wake(&h->sh->go, INT_MAX);
	uint64_t t_end = h->t_go + h->window_ns;
	end.tv_sec = (time_t)(t_end / 1000000000u);
	end.tv_nsec = (long)(t_end % 1000000000u);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR)
		;
	atomic_store(&h->sh->stop, 1);
	h->t_stop = now_ns();
	memset(h->pending, 1, (size_t)h->copies);
	r = collect(h->res, h->pending, h->copies, h->pids, h->stall_ms, &sig);
	out_quiet(0);
	if (r)
		return fail_collect(h, r, sig, NULL);
	return fail_run_error(h, h->copies);
}

/* Each copy's loops inside the common window [t_go, t_stop] (stats.h, window_loops()). */
static void window_loops_all(const struct hrun *h, double *wl)
{
	for (int k = 0; k < h->copies; k++) {
		const struct slot *s = &h->sh->slot[k];
		struct copy_span sp = {s->loops, s->last_batch, s->t_last0, s->t_end};
		wl[k] = window_loops(&sp, h->t_stop);
	}
}

/* The sample's value (docs/records.md "How RESULT derives from SAMPLE"). */
static double sample_value(const struct hrun *h, const double *wl)
{
	const struct bench *b = h->b;
	const struct slot *s0 = &h->sh->slot[0];

	if (b->value_extra) {
		for (int e = 0; e < s0->nextra; e++)
			if (!strcmp(s0->extra_key[e], b->value_extra))
				return (double)s0->extra_val[e] *
				       (b->value_scale > 0 ? b->value_scale : 1);
		return 0;	/* missing: summarize() rejects it, the test FAILs */
	}
	return common_window_value(wl, h->copies, h->t_stop - h->t_go,
				   b->kind == BENCH_RATE, b->per_loop);
}

/* key=v0,v1,... with one entry per copy, cut short (never split) if it would not fit. */
static void put_list(struct rec_body *rb, const char *key, const struct hrun *h,
		     int (*fmt)(char *, size_t, const struct hrun *, int, const void *),
		     const void *arg)
{
	char list[REC_MAX / 4];
	size_t off = 0;

	for (int k = 0; k < h->copies; k++) {
		char one[80];
		int len = fmt(one, sizeof one, h, k, arg);
		/* A list with fewer entries than copies would pair values with the wrong copy:
		 * left out whole, and counted in dropped_fields (docs/records.md). */
		if (len < 0 || off + (size_t)len + 2 > sizeof list) {
			rb->dropped++;
			return;
		}
		off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", k ? "," : "", one);
	}
	rec_str(rb, key, off ? list : "-");
}

static int fmt_wloops(char *o, size_t n, const struct hrun *h, int k, const void *a)
{
	(void)h;
	return snprintf(o, n, "%.0f", ((const double *)a)[k]);
}

static int fmt_window(char *o, size_t n, const struct hrun *h, int k, const void *a)
{
	(void)k, (void)a;
	return snprintf(o, n, "%llu", (unsigned long long)(h->t_stop - h->t_go));
}

static int fmt_ran_loops(char *o, size_t n, const struct hrun *h, int k, const void *a)
{
	(void)a;
	return snprintf(o, n, "%llu", (unsigned long long)h->sh->slot[k].loops);
}

static int fmt_ran_ns(char *o, size_t n, const struct hrun *h, int k, const void *a)
{
	(void)a;
	const struct slot *s = &h->sh->slot[k];
	return snprintf(o, n, "%llu", (unsigned long long)(s->t_end - s->t0));
}

/* CPUs as "0+1"; "-" when none was seen. */
static int fmt_cpus(char *o, size_t n, const struct hrun *h, int k, const void *a)
{
	uint64_t m = h->sh->slot[k].cpus;
	size_t off = 0;
	(void)a;
	for (int c = 0; c < 64 && off + 4 < n; c++)
		if (m & 1ull << c)
			off += (size_t)snprintf(o + off, n - off, "%s%d", off ? "+" : "", c);
	if (!off)
		off = (size_t)snprintf(o, n, "-");
	return (int)off;
}

static int fmt_migrations(char *o, size_t n, const struct hrun *h, int k, const void *a)
{
	(void)a;
	return snprintf(o, n, "%lld", (long long)h->sh->slot[k].migrations);
}

static int fmt_cpu_ns(char *o, size_t n, const struct hrun *h, int k, const void *a)
{
	(void)a;
	return snprintf(o, n, "%lld", (long long)h->sh->slot[k].cpu_ns);
}

static int fmt_nivcsw(char *o, size_t n, const struct hrun *h, int k, const void *a)
{
	(void)a;
	return snprintf(o, n, "%lld", (long long)h->sh->slot[k].nivcsw);
}

static int fmt_mhz(char *o, size_t n, const struct hrun *h, int k, const void *a)
{
	(void)a;
	return snprintf(o, n, "%.0f", h->sh->slot[k].mhz);
}

static void emit_sample(struct hrun *h, int i, const double *wl, double value, uint64_t steal)
{
	struct rec_body rb;

	rec_begin(&rb, RK_SAMPLE);
	rec_str(&rb, RK_TESTNAME, h->b->name);
	rec_u64(&rb, RK_COPIES, (uint64_t)h->copies);
	if (i < 0)
		rec_str(&rb, RK_WARMUP, "1");
	else
		rec_u64(&rb, RK_I, (uint64_t)i);
	put_list(&rb, RK_LOOPS, h, fmt_wloops, wl);
	put_list(&rb, RK_NS, h, fmt_window, NULL);
	rec_u64(&rb, RK_STEAL, steal);
	rec_u64(&rb, RK_BATCH, h->batch);
	put_list(&rb, RK_RAN_LOOPS, h, fmt_ran_loops, NULL);
	put_list(&rb, RK_RAN_NS, h, fmt_ran_ns, NULL);
	put_list(&rb, RK_CPUS, h, fmt_cpus, NULL);
	put_list(&rb, RK_MIGRATIONS, h, fmt_migrations, NULL);
	put_list(&rb, RK_NIVCSW, h, fmt_nivcsw, NULL);
	put_list(&rb, RK_CPU_NS, h, fmt_cpu_ns, NULL);
	put_list(&rb, RK_MHZ, h, fmt_mhz, NULL);
	rec_str(&rb, RK_MHZ_METHOD, cpuclock_method_name((enum cpuclock_method)h->sh->clk));
	for (int e = 0; e < h->sh->slot[0].nextra; e++)
		rec_i64(&rb, h->sh->slot[0].extra_key[e], h->sh->slot[0].extra_val[e]);
	/* What this sample contributes to RESULT, so readers never re-derive it. */
	rec_dbl(&rb, RK_VALUE, value, 3);
	send_body(h->fd, &rb);
}

/* Keep a batch near a tenth of a sample of wall time when the machine's speed drifts
 * (load, frequency): a batch is the granularity at which the copies notice the stop. */
static void rebatch(struct hrun *h)
{
	const struct slot *s = &h->sh->slot[0];

	if (s->loops < h->batch)
		return;
	uint64_t per_batch = (s->t_end - s->t0) / (s->loops / h->batch);
	if (per_batch > 2 * h->target_ns || per_batch < h->target_ns / 2) {
		uint64_t nb = per_batch ? h->batch * h->target_ns / per_batch : h->batch * 2;
		h->batch = nb ? nb : 1;
	}
}

/* Samples until the CI target, the cap or ~80% of the time budget. Sample -1 is a warm-up
 * of every copy (caches, page tables, frequency): sent as SAMPLE with warmup=1 for
 * transparency, never used in the statistics.
 * Futility: from half the cap on, a test whose spread would need more than twice the cap
 * to reach the target (samples_needed(), lib/stats.h) stops there: the cap would not make
 * it converge, and its RESULT says so (stop=futile, samples_needed=). On a host whose CPU
 * is taken away in bursts most tests are such, and the suite stays within its time. */
#define HARNESS_REDO 4
#define HARNESS_FUTILE_FACTOR 2

/* Why to stop after the samples kept so far, or NULL to take another (REC_STOP_*). */
static const char *stop_reason(const struct hrun *h)
{
	const struct params *p = h->p;
	struct summary sm;

	if (h->n < p->min_samples)
		return NULL;
	if (summarize(h->values, (size_t)h->n, bench_higher_is_better(h->b), &sm))
		return NULL;
	if (sm.ci_half_pct <= p->target_ci_pct)
		return REC_STOP_TARGET;
	if (h->n >= p->max_samples)
		return REC_STOP_CAP;
	if (2 * h->n >= p->max_samples &&
	    samples_needed(h->values, (size_t)h->n, p->target_ci_pct) >
		    (size_t)(HARNESS_FUTILE_FACTOR * p->max_samples))
		return REC_STOP_FUTILE;
	if (h->budget_s && now_ns() - h->t_start > (uint64_t)h->budget_s * 800000000u)
		return REC_STOP_BUDGET;	/* keep what we have; the RESULT says how steady */
	return NULL;
}

/* Keep copy 0's b->result_extra of the sample just kept, if the test names one and the
 * sample has it (phase_result() reports their median). */
static void keep_rx(struct hrun *h)
{
	const struct slot *s = &h->sh->slot[0];

	for (int e = 0; h->b->result_extra && e < s->nextra; e++)
		if (!strcmp(s->extra_key[e], h->b->result_extra)) {
			h->rx[h->nrx++] = (double)s->extra_val[e];
			return;
		}
}

/* Merge copy 0's latency histogram of the sample just kept into h->whole (the samples'
 * union: the RESULT's percentiles are those of every operation the SAMPLEs describe).
 * 0, or -1 (a FAIL sent) when out of memory. */
static int keep_lat(struct hrun *h)
{
	const struct slot *s = &h->sh->slot[0];

	if (!s->has_lat)
		return 0;
	if (!h->whole) {
		if (!(h->whole = malloc(sizeof *h->whole))) {
			fail(h, "harness: out of memory", NULL);
			return -1;
		}
		lat_reset(h->whole);
	}
	lat_merge(h->whole, &s->lat);
	return 0;
}

static int phase_samples(struct hrun *h)
{
	double *wl = calloc((size_t)h->copies, sizeof *wl);
	int redo = 0;

	h->sum_wl = calloc((size_t)h->copies, sizeof *h->sum_wl);
	if (!wl || !h->sum_wl) {
		free(wl);
		fail(h, "harness: out of memory", NULL);
		return -1;
	}
	/* The controller wakes once per sample, to close the window: ahead of busy copies
	 * (they were forked at nice 0 and stay there), so the window ends when it should.
	 * Without the privilege this fails and nothing changes. */
	(void)setpriority(PRIO_PROCESS, 0, -10);
	for (int i = -1; i < h->p->max_samples; i++) {
		uint64_t steal0 = read_steal();
		if (phase_sample(h)) {
			free(wl);
			return -1;
		}
		window_loops_all(h, wl);
		double v = sample_value(h, wl);
		uint64_t steal = read_steal() - steal0;
		/* A window in which some copy did no loop (starved: more copies than CPUs) has
		 * no time value; kept, it made the whole test FAIL "no valid sample". It goes
		 * out as warmup=1 (never in the statistics), the window doubles, and the
		 * sample is taken again, at most HARNESS_REDO times per test. */
		int starved = i >= 0 && !h->b->value_extra && !(v > 0) && redo < HARNESS_REDO;
		emit_sample(h, starved ? -1 : i, wl, v, steal);
		rebatch(h);
		if (starved) {
			redo++;
			h->window_ns *= 2;
			i--;
			continue;
		}
		if (i < 0)
			continue;
		h->values[h->n++] = v;
		for (int c = 0; c < h->copies; c++)
			h->sum_wl[c] += wl[c];
		h->sum_window_ns += h->t_stop - h->t_go;
		h->sum_steal += steal;
		keep_rx(h);
		if (keep_lat(h)) {
			free(wl);
			return -1;
		}
		if ((h->stop = stop_reason(h)))
			break;
	}
	if (!h->stop)
		h->stop = REC_STOP_CAP;
	free(wl);
	return 0;
}

static int phase_result(struct hrun *h)
{
	const struct bench *b = h->b;
	struct summary sm;
	struct rec_body rb;

	if (summarize(h->values, (size_t)h->n, bench_higher_is_better(b), &sm)) {
		fail(h, "no valid sample", NULL);
		return -1;
	}
	rec_begin(&rb, RK_RESULT);
	rec_str(&rb, RK_TESTNAME, b->name);
	rec_u64(&rb, RK_COPIES, (uint64_t)h->copies);
	rec_str(&rb, RK_UNIT, b->unit);
	rec_str(&rb, RK_BETTER, bench_better(b));
	rec_dbl(&rb, RK_VALUE, sm.unixbench, 3);
	/* Every sample counts in a comparison (issue 46): the run's work over its time, the
	 * same formula as a sample's over the sum of the kept windows; a per-sample figure
	 * (value_extra) takes lib/stats.c's whole_of_values(). */
	double whole = b->value_extra
		? whole_of_values(h->values, (size_t)h->n, bench_higher_is_better(b))
		: common_window_value(h->sum_wl, h->copies, h->sum_window_ns,
				      b->kind == BENCH_RATE, b->per_loop);
	if (whole > 0)
		rec_dbl(&rb, RK_WHOLE, whole, 3);
	/* The share of every CPU's time stolen (by the hypervisor) during the kept windows. */
	long hz = sysconf(_SC_CLK_TCK), ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (hz > 0 && ncpu > 0 && h->sum_window_ns)
		rec_dbl(&rb, RK_STEAL_PCT, 100.0 * (double)h->sum_steal * (1e9 / (double)hz) /
						   ((double)h->sum_window_ns * (double)ncpu), 2);
	rec_u64(&rb, RK_SAMPLES, (uint64_t)h->n);
	rec_dbl(&rb, RK_MEDIAN, sm.median, 3);
	rec_dbl(&rb, RK_MIN, sm.min, 3);
	rec_dbl(&rb, RK_MAX, sm.max, 3);
	rec_dbl(&rb, RK_CI95, sm.ci_half_pct, 2);
	int conv = sm.ci_half_pct <= h->p->target_ci_pct;
	rec_str(&rb, RK_CONVERGED, conv ? "1" : "0");
	/* Why sampling ended; unconverged, how many samples this spread would have needed. */
	rec_str(&rb, RK_STOP, conv ? REC_STOP_TARGET : h->stop ? h->stop : REC_STOP_CAP);
	if (!conv)
		rec_u64(&rb, RK_SAMPLES_NEEDED,
			samples_needed(h->values, (size_t)h->n, h->p->target_ci_pct));
	/* Latency percentiles of the whole run, from the merged histograms (not a median of
	 * the samples' percentiles, which hides a stall confined to a few samples). */
	if (h->whole && h->whole->count) {
		uint64_t q[LAT_NQ];
		lat_quantiles(h->whole, q);
		for (int i = 0; i < LAT_NQ; i++)
			rec_u64(&rb, lat_keys[i], q[i]);
		/* ... and the histogram itself, so a reader can pool runs the same way (the
		 * fleet's groups); left out (dropped_fields) when the record has no room */
		/* A test with percentiles timed each operation with now_ns(): what one read of
		 * that clock costs here and now, beside them (after the samples, outside them;
		 * before the histogram, which is what a full record drops) */
		rec_u64(&rb, RK_CLOCK_NS, now_ns_cost_x100());
		static char hist[REC_MAX - 1024];
		if (lat_hist_format(h->whole, hist, sizeof hist))
			rec_str(&rb, RK_LAT_HIST, hist);
	}
	if (b->result_extra && h->nrx)
		rec_i64(&rb, b->result_extra, llround(stats_median(h->rx, (size_t)h->nrx)));
	if (bench_is_index(b)) {
		rec_dbl(&rb, RK_BASELINE, b->baseline, 1);
		rec_dbl(&rb, RK_INDEX, ub_index(sm.unixbench, b->baseline), 1);
	}
	send_body(h->fd, &rb);
	return 0;
}

/* Tell every copy to quit (kill them after a FAIL: they may be stuck), reap them, remove
 * the work directory. A copy that skipped or crashed has closed its command pipe: writing
 * its 'Q' must fail with EPIPE, not kill the controller before it removes the directory. */
static void phase_cleanup(struct hrun *h)
{
	signal(SIGPIPE, SIG_IGN);
	for (int c = 0; h->cmd && c < h->copies; c++) {
		struct cmd q = {'Q', 0, 0};
		if (h->cmd[c] > 0) {
			write_all(h->cmd[c], &q, sizeof q);
			close(h->cmd[c]);
		}
	}
	for (int c = 0; h->pids && c < h->copies; c++)
		if (h->pids[c] > 0) {
			if (h->failed)
				kill(h->pids[c], SIGKILL);
			waitpid(h->pids[c], NULL, 0);
		}
	if (h->dir[0])
		rm_tree(h->dir);
}

int harness_test(const struct bench *b, int copies, const struct params *p,
		 const struct harness_env *env, int fd)
{
	struct hrun h = {
		.b = b, .p = p, .env = env, .fd = fd, .t_start = now_ns(), .budget_s = env->budget_s,
		.copies = copies < 1 ? 1 : copies > 4096 ? 4096 : copies,
	};
	int status = 0;

	if (phase_init(&h) || phase_spawn(&h))
		status = 1;
	else if (phase_setup(&h) == 0 && phase_calibrate(&h) == 0 && phase_samples(&h) == 0)
		phase_result(&h);
	phase_cleanup(&h);
	if (h.res_w >= 0)
		close(h.res_w);
	free(h.whole);
	free(h.sum_wl);
	free(h.rx);
	return status;
}
