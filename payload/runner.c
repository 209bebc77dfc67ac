/* runner.c — see runner.h. */
#define _GNU_SOURCE
#include "runner.h"
#include "benchapi.h"
#include "clocksrc.h"
#include "cpupolicy.h"
#include "sysfs.h"
#include "harness.h"
#include "net/nethello.h"
#include "net/netnic.h"
#include "net/netproto.h"
#include "vocab.h"
#include "out.h"
#include "record.h"
#include "sys.h"
#include "sysfs.h"
#include "stats.h"
#include "sysinfo.h"
#include "unixbench.h"
#include "version.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>


#define MAX_SEL 128

struct outcome {
	const struct bench *b;
	int copies;
	enum runner_state state;
	double value, ci, median;	/* ci: the 95% CI half-width of median, in % */
	double index;		/* the RESULT's index= (UnixBench's), NAN without one */
	int samples, converged;
	char why[96];
	int timeout_s;		/* its deadline, s from its start (may move: INFO deadline.s) */
	int timeout_cap;	/* how far INFO deadline.s may move it; 0: timeout= was given */
};

static struct outcome results[MAX_SEL * PARAM_MAX_COPIES];	/* the current run's */
static int nresults;

/* The running test's kept SAMPLE values of its judge_extras (benchapi.h judge), for their
 * medians after its RESULT; reset as each test starts. */
static double judge_vals[BENCH_JUDGE_EXTRAS][BENCH_JUDGE_SAMPLES];
static size_t judge_n[BENCH_JUDGE_EXTRAS];

void runner_pending_error(void *arg, const char *param, const char *value, const char *reason)
{
	struct runner_cfg *cfg = arg;
	if (cfg->npending >= RUNNER_MAX_PENDING) {
		cfg->ndropped++;
		return;
	}
	snprintf(cfg->pending_param[cfg->npending], 64, "%s", param);
	snprintf(cfg->pending_value[cfg->npending], 128, "%s", value);
	snprintf(cfg->pending_reason[cfg->npending], 160, "%s", reason);
	cfg->npending++;
}

void runner_pending_fact(struct runner_cfg *cfg, const char *key, const char *value)
{
	if (cfg->nfacts >= RUNNER_MAX_FACTS)
		return;
	cfg->fact_key[cfg->nfacts] = key;
	snprintf(cfg->fact_value[cfg->nfacts], sizeof cfg->fact_value[0], "%s", value);
	cfg->nfacts++;
}

void runner_pending_warn(struct runner_cfg *cfg, const char *what, const char *fmt, ...)
{
	va_list ap;
	int i = cfg->nwarns < RUNNER_MAX_WARNS ? cfg->nwarns++ : RUNNER_MAX_WARNS - 1;

	cfg->warn_what[i] = what;
	va_start(ap, fmt);
	vsnprintf(cfg->warn_reason[i], sizeof cfg->warn_reason[0], fmt, ap);
	va_end(ap);
}

void runner_say_pending(const struct runner_cfg *cfg)
{
	for (int i = 0; i < cfg->npending; i++)
		out_text("isobench: ERROR: parameter %s=%s: %s%s\n", cfg->pending_param[i],
			 cfg->pending_value[i], cfg->pending_reason[i],
			 rec_reason_says_kept(cfg->pending_reason[i]) ? "" : " (default kept)");
	for (int i = 0; i < cfg->nfacts; i++)
		out_text("isobench: %s=%s\n", cfg->fact_key[i], cfg->fact_value[i]);
	for (int i = 0; i < cfg->nwarns; i++)
		out_text("isobench: WARNING: %s\n", cfg->warn_reason[i]);
}

/* The facts and warnings of runner_pending_fact() and runner_pending_warn(): INFO and WARN
 * records (each warning also a text line). */
static void pending_facts(const struct runner_cfg *cfg)
{
	struct rec_body b;

	for (int i = 0; i < cfg->nfacts; i++) {
		rec_begin(&b, RK_INFO);
		rec_str(&b, cfg->fact_key[i], cfg->fact_value[i]);
		out_record(&b);
	}
	for (int i = 0; i < cfg->nwarns; i++) {
		rec_begin(&b, RK_WARN);
		rec_str(&b, RK_WHAT, cfg->warn_what[i]);
		rec_str(&b, RK_REASON, cfg->warn_reason[i]);
		out_record(&b);
		out_text("isobench: WARNING: %s\n", cfg->warn_reason[i]);
	}
}

int runner_test_timeout(const struct params *p)
{
	if (p->test_timeout_s)
		return p->test_timeout_s;
	return harness_deadline_s(p, (uint64_t)p->sample_ms * 1000000u);
}

static int selected(const struct params *p, const struct bench **sel, int cap, int report)
{
	char list[sizeof p->tests], *tok, *save = NULL;
	int n = 0;

	snprintf(list, sizeof list, "%s", p->tests);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int hit = 0;
		for (int i = 0; bench_registry[i]; i++) {
			const struct bench *b = bench_registry[i];
			int all = !strcmp(tok, "all") && bench_in_all(b);
			if (!all && strcmp(tok, b->name) && strcmp(tok, b->group))
				continue;
			hit = 1;
			int dup = 0;
			for (int j = 0; j < n; j++)
				dup |= sel[j] == b;
			if (!dup && n < cap)
				sel[n++] = b;
		}
		if (!hit && report) {
			struct rec_body rb;
			rec_begin(&rb, RK_ERROR);
			rec_str(&rb, RK_WHAT, REC_WHAT_TEST);
			rec_str(&rb, RK_TESTNAME, tok);
			rec_str(&rb, RK_REASON, "unknown test or group (isobench --list shows them)");
			out_record(&rb);
			out_text("isobench: unknown test '%s' (skipped; the rest runs)\n", tok);
		}
	}
	/* Registry order, whatever order the user named them in. */
	int k = 0;
	for (int i = 0; bench_registry[i]; i++)
		for (int j = 0; j < n; j++)
			if (sel[j] == bench_registry[i]) {
				const struct bench *t = sel[k];
				sel[k] = sel[j];
				sel[j] = t;
				k++;
				break;
			}
	return n;
}

int runner_selected(const struct params *p, const struct bench **sel, int cap)
{
	return selected(p, sel, cap, 0);
}

int runner_unknown_tests(const struct params *p, char *out, size_t cap)
{
	char list[sizeof p->tests], *tok, *save = NULL;
	int n = 0, shown = 0;
	const size_t more = 24;	/* room kept for " and 1000 more" */

	out[0] = 0;
	snprintf(list, sizeof list, "%s", p->tests);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int hit = !strcmp(tok, "all");
		for (int i = 0; !hit && bench_registry[i]; i++)
			hit = !strcmp(tok, bench_registry[i]->name) ||
			      !strcmp(tok, bench_registry[i]->group);
		if (hit)
			continue;
		size_t l = strlen(out);
		/* Whole names (a name cut in the middle would name another test), but for a
		 * first one too long for the line: its start, marked "...". */
		if (shown == n && l + strlen(tok) + 1 + more < cap) {
			snprintf(out + l, cap - l, "%s%s", n ? "," : "", tok);
			shown++;
		} else if (!n) {
			snprintf(out, cap, "%.*s...", (int)(cap - more - 4), tok);
			shown++;
		}
		n++;
	}
	if (shown < n)
		snprintf(out + strlen(out), cap - strlen(out), " and %d more", n - shown);
	return n;
}

static int runs_in_pass(const struct bench *b, int copies)
{
	return !(b->max_copies && copies > b->max_copies);
}

/* 1 when b runs in no pass of this run (a single-copy test and every pass has more copies):
 * it is still announced, in the first pass, and SKIPs with the reason (skip_no_pass), so a
 * test the user asked for never vanishes from the log without a word. */
static int runs_in_no_pass(const struct bench *b, const struct params *p)
{
	for (int c = 0; c < p->ncopies; c++)
		if (runs_in_pass(b, p->copies[c]))
			return 0;
	return 1;
}

/* Does b take a slot (run or SKIP) in pass c? */
static int in_pass(const struct bench *b, const struct params *p, int c)
{
	return runs_in_pass(b, p->copies[c]) || (c == 0 && runs_in_no_pass(b, p));
}

int runner_budget(const struct params *p)
{
	const struct bench *sel[MAX_SEL];
	int n = selected(p, sel, MAX_SEL, 0), total = 0;

	for (int c = 0; c < p->ncopies; c++)
		for (int i = 0; i < n; i++)
			if (in_pass(sel[i], p, c))
				total += runner_test_timeout(p) + 5;
	/* Room for one test whose deadline the harness extends to its cap (harness.h). */
	if (!p->test_timeout_s && total)
		total += (HARNESS_DEADLINE_CAP - 1) * runner_test_timeout(p);
	return (total + 120) * (p->repeat > 1 ? p->repeat : 1);
}

/* Reap every child that has exited (WNOHANG): the status of `want` goes to *status and
 * *have; any other pid (re-parented orphans, the watchdog) goes to on_other. */
static void reap_children(pid_t want, int *status, int *have, void (*on_other)(pid_t))
{
	pid_t got;
	int st;

	while ((got = waitpid(-1, &st, WNOHANG)) > 0) {
		if (got == want) {
			*status = st;
			*have = 1;
		} else if (on_other) {
			on_other(got);
		}
	}
}

/* Remove the work directory of the test child pid (harness.c names it TMPDIR/isobench.PID):
 * after a crash, a stall, a timeout or an interrupt the harness could not clean up itself, and
 * files left on a tmpfs fill the next file test's RAM. */
static void remove_workdir(const struct runner_cfg *cfg, pid_t pid)
{
	char dir[4200];

	snprintf(dir, sizeof dir, "%s/isobench.%d", cfg->tmpdir, (int)pid);
	rm_tree(dir);
}

/* The kernel's count of OOM kills so far (/proc/vmstat oom_kill, Linux 4.13+; the path can be
 * set with ISOBENCH_VMSTAT for the tests); -1 when unknown. */
static long long oom_kills(void)
{
	return proc_vmstat(getenv("ISOBENCH_VMSTAT"), "oom_kill");
}

static long long oom_at_start;	/* oom_kills() when the current test started */
static sigset_t stops;		/* host CLI: SIGINT, SIGTERM, SIGHUP, SIGPIPE (see runner_run) */

/* The OOM kills since the current test started; 0 when none or unknown. */
static long long oom_during_test(void)
{
	long long now = oom_kills();

	return oom_at_start < 0 || now <= oom_at_start ? 0 : now - oom_at_start;
}

#define OOM_REASON "out of memory: the kernel's OOM killer ran during this test"

/* A FAIL while the OOM killer ran is an out-of-memory failure, whatever the test saw (an I/O
 * error, a signal): end body b of such a FAIL with reason=OOM_REASON, the test's own reason
 * (NULL: "-") and note (NULL: none) kept as note="REASON[; NOTE]", and oom_kills=kills.
 * Returns the reason written. */
static const char *oom_fail(struct rec_body *b, const char *reason, const char *note,
			    long long kills)
{
	char both[600];

	snprintf(both, sizeof both, "%s%s%s", reason ? reason : "-", note ? "; " : "",
		 note ? note : "");
	rec_str(b, RK_REASON, OOM_REASON);
	rec_str(b, RK_NOTE, both);
	rec_i64(b, RK_OOM, kills);
	return OOM_REASON;
}

/* An INFO deadline.* of the running test (harness.c extend_deadline()): its deadline moves
 * later, never past timeout_cap, and never when timeout= was given. */
static void deadline_moved(const struct record *r, struct outcome *o)
{
	const char *t = rec_get(r, RK_DEADLINE_TEST);
	long long v;

	if (strcmp(r->kind, RK_INFO) || !t || strcmp(t, o->b->name) || !o->timeout_cap ||
	    rec_get_ll(r, RK_DEADLINE_S, 0, INT_MAX, &v))
		return;
	if (v > o->timeout_s)
		o->timeout_s = v < o->timeout_cap ? (int)v : o->timeout_cap;
}

/* What a test's RESULT, SKIP or FAIL (r, decoded once) says of it, into o; why: the reason
 * the runner relayed (a FAIL's may be OOM_REASON). A figure the harness wrote is read
 * strictly (lib/num.h); one that is missing keeps its default (value 0, median = value). */
static void outcome_of(const struct record *r, const char *why, struct outcome *o)
{
	long long n;

	if (!strcmp(r->kind, RK_RESULT)) {
		o->state = RUNNER_RESULT;
		o->value = o->ci = 0;
		o->index = NAN;
		rec_get_dbl(r, RK_INDEX, &o->index);
		rec_get_dbl(r, RK_VALUE, &o->value);
		rec_get_dbl(r, RK_CI95, &o->ci);
		o->median = o->value;
		rec_get_dbl(r, RK_MEDIAN, &o->median);
		o->samples = rec_get_ll(r, RK_SAMPLES, 0, INT_MAX, &n) ? 0 : (int)n;
		o->converged = rec_get_ll(r, RK_CONVERGED, 0, 1, &n) ? 1 : (int)n;
	} else if (!strcmp(r->kind, RK_SKIP) || !strcmp(r->kind, RK_FAIL)) {
		o->state = !strcmp(r->kind, RK_SKIP) ? RUNNER_SKIP : RUNNER_FAIL;
		snprintf(o->why, sizeof o->why, "%s", why ? why : "-");
	}
}

/* One line the test child wrote (a record body, harness.c send_body()): decoded once, relayed
 * as it came (a FAIL while the OOM killer ran rewritten: oom_fail()), and read for the
 * outcome, the deadline and the judge's SAMPLE values; a line that is no body (or is longer than one) is an ERROR. */
static void relay_line(const char *line, size_t len, struct outcome *o)
{
	struct record r;
	struct rec_body b;
	const char *why;
	long long kills;

	if (len >= sizeof b.buf || rec_parse_body(line, len, &r) != REC_OK) {
		rec_begin(&b, RK_ERROR);
		rec_str(&b, RK_WHAT, REC_WHAT_TEST);
		rec_str(&b, RK_TESTNAME, o->b->name);
		rec_str(&b, RK_REASON, "malformed record from the test process");
		out_record(&b);
		return;
	}
	why = rec_get(&r, RK_REASON);
	if (!strcmp(r.kind, RK_FAIL) && (kills = oom_during_test())) {
		rec_begin(&b, RK_FAIL);
		for (int i = 0; i < r.nfields; i++)
			if (strcmp(r.key[i], RK_REASON) && strcmp(r.key[i], RK_NOTE))
				rec_str(&b, r.key[i], r.val[i]);
		why = oom_fail(&b, why, rec_get(&r, RK_NOTE), kills);
	} else {
		b.dropped = 0;
		b.len = len;
		memcpy(b.buf, line, len);
		b.buf[len] = 0;
	}
	out_record(&b);
	deadline_moved(&r, o);
	if (!strcmp(r.kind, RK_SAMPLE) && !rec_get(&r, RK_WARMUP))
		for (int k = 0; k < BENCH_JUDGE_EXTRAS; k++) {
			const char *key = o->b->judge_extras[k];
			double v;
			if (key && judge_n[k] < BENCH_JUDGE_SAMPLES && !rec_get_dbl(&r, key, &v))
				judge_vals[k][judge_n[k]++] = v;
		}
	outcome_of(&r, why, o);
}

/* The runner's own FAIL of the test (it crashed, stalled, ended without a result): written,
 * and its reason (or OOM_REASON) kept as the outcome's, never read back from the record. */
static void fail_record(struct outcome *o, const char *reason, int sig, int status)
{
	struct rec_body b;
	long long kills = oom_during_test();

	rec_begin(&b, RK_FAIL);
	rec_str(&b, RK_TESTNAME, o->b->name);
	rec_u64(&b, RK_COPIES, (uint64_t)o->copies);
	if (!kills)
		rec_str(&b, RK_REASON, reason);
	if (sig)
		rec_i64(&b, RK_SIGNAL, sig);
	if (status >= 0)
		rec_i64(&b, RK_STATUS, status);
	if (kills)
		reason = oom_fail(&b, reason, NULL, kills);
	out_record(&b);
	o->state = RUNNER_FAIL;
	snprintf(o->why, sizeof o->why, "%s", reason);
}

/* The host CLI got SIGINT, SIGTERM, SIGHUP or SIGPIPE while test pid ran: stop the test, remove its
 * files, say so, and die of the signal (the run is cut short: no END). */
static void interrupted(const struct outcome *o, const struct runner_cfg *cfg, pid_t pid,
			int sig, const sigset_t *orig)
{
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
	remove_workdir(cfg, pid);
	cpupolicy_restore();	/* a host's policy as it was */
	out_text("isobench: %s during %s (%d cop%s): test stopped, its files removed; no END\n",
		 strsignal(sig), o->b->name, o->copies, o->copies == 1 ? "y" : "ies");
	signal(sig, SIG_DFL);
	sigprocmask(SIG_SETMASK, orig, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void run_test(struct outcome *o, const struct params *p, const struct runner_cfg *cfg,
		     int sigfd, const sigset_t *orig, void (*on_child_exit)(pid_t));

/* On a host the stop signals stay blocked for the whole run (runner_run): one that came
 * outside a test (the header, between tests) ends the run here, at a test's edge, once the
 * host's CPU policy is put back; as the default action it would have left it changed. */
static void stop_if_pending(void)
{
	sigset_t pend;

	if (sigpending(&pend))
		return;
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&stops, sig) && sigismember(&pend, sig)) {
			cpupolicy_restore();
			sigprocmask(SIG_UNBLOCK, &stops, NULL);	/* dies of it here */
		}
}

/* Run one test in a child with its own process group; relay its records. */
static void run_one(struct outcome *o, const struct params *p, const struct runner_cfg *cfg,
		    int sigfd, const sigset_t *orig, void (*on_child_exit)(pid_t))
{
	stop_if_pending();
	oom_at_start = oom_kills();
	memset(judge_n, 0, sizeof judge_n);
	run_test(o, p, cfg, sigfd, orig, on_child_exit);
	stop_if_pending();
}

/* The test child: its own process group, the signal mask the runner started with, stdio
 * on /dev/null, records into pfd[1]; never returns. */
static void test_child(const struct outcome *o, const struct params *p,
		       const struct runner_cfg *cfg, int sigfd, const sigset_t *orig, int pfd[2],
		       int timeout_s)
{
	struct harness_env env = {cfg->self, cfg->tmpdir, timeout_s};
	setpgid(0, 0);
	sigprocmask(SIG_SETMASK, orig, NULL);
	close(pfd[0]);
	close(sigfd);
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	_exit(harness_test(o->b, o->copies, p, &env, pfd[1]));
}

/* A stop signal or SIGCHLD arrived on sigfd: reap, and on a stop end the run (interrupted). */
static void take_signals(const struct outcome *o, const struct runner_cfg *cfg, pid_t pid,
			 int sigfd, const sigset_t *orig, void (*on_child_exit)(pid_t),
			 int *status, int *have_status)
{
	struct signalfd_siginfo si;
	int stop = 0;
	while (read(sigfd, &si, sizeof si) == (ssize_t)sizeof si)
		if (si.ssi_signo != SIGCHLD)
			stop = (int)si.ssi_signo;
	reap_children(pid, status, have_status, on_child_exit);
	if (stop)
		interrupted(o, cfg, pid, stop, orig);
}

/* The deadline passed: a FAIL when the test had given no outcome; when it had (its RESULT,
 * SKIP or FAIL relayed, the process then not gone in time), a WARN instead, so that the log
 * never holds two outcomes for one test and copy count (a digest restates each once). */
static void lingered_or_timed_out(struct outcome *o)
{
	static const char *const said[] = {"", "RESULT", "SKIP", "FAIL"};
	struct rec_body b;

	if (o->state == RUNNER_NONE) {
		char why[64];
		snprintf(why, sizeof why, "timeout after %d s", o->timeout_s);
		fail_record(o, why, 0, -1);
		return;
	}
	rec_begin(&b, RK_WARN);
	rec_str(&b, RK_WHAT, REC_WHAT_TEST);
	rec_str(&b, RK_TESTNAME, o->b->name);
	rec_u64(&b, RK_COPIES, (uint64_t)o->copies);
	rec_fmt(&b, RK_REASON, "the test process was still running at its %d s deadline, after "
		"its %s; killed", o->timeout_s, said[o->state]);
	out_record(&b);
}

/* Relay the records the test child writes to fd until it closes the pipe or the deadline
 * passes (then a FAIL); reaps on the way. */
static void relay_test(struct outcome *o, const struct runner_cfg *cfg, pid_t pid, int fd,
		       int sigfd, const sigset_t *orig, void (*on_child_exit)(pid_t),
		       int *status, int *have_status)
{
	char buf[REC_MAX * 2];
	size_t used = 0;
	uint64_t start = now_ns();

	for (;;) {
		struct pollfd fds[2] = {{.fd = fd, .events = POLLIN},
					{.fd = sigfd, .events = POLLIN}};
		uint64_t t = now_ns(), deadline = start + (uint64_t)o->timeout_s * 1000000000u;
		if (t >= deadline) {
			kill(-pid, SIGKILL);
			lingered_or_timed_out(o);
			break;
		}
		int pr = poll(fds, 2, (int)((deadline - t) / 1000000u) + 1);
		if (pr < 0 && errno != EINTR)
			break;
		if (fds[1].revents & POLLIN)
			take_signals(o, cfg, pid, sigfd, orig, on_child_exit, status, have_status);
		if (fds[0].revents & (POLLIN | POLLHUP)) {
			ssize_t k = read(fd, buf + used, sizeof buf - used - 1);
			if (k <= 0)
				break;	/* EOF: the test child has finished (or died) */
			used += (size_t)k;
			char *nl;
			while ((nl = memchr(buf, '\n', used))) {
				relay_line(buf, (size_t)(nl - buf), o);
				used -= (size_t)(nl - buf) + 1;
				memmove(buf, nl + 1, used);
			}
			if (used == sizeof buf - 1)
				used = 0;	/* a runaway line: drop it */
		}
	}
}

/* After the pipe closed: the child's status, its leftovers killed, its files removed, and a
 * FAIL when it ended without a RESULT, SKIP or FAIL of its own. */
static void end_test(struct outcome *o, const struct runner_cfg *cfg, pid_t pid,
		     void (*on_child_exit)(pid_t), int status, int have_status)
{
	/* Collect the child's status (bounded: it has closed its pipe or been killed). */
	for (int i = 0; !have_status && i < 500; i++) {
		reap_children(pid, &status, &have_status, on_child_exit);
		if (!have_status)
			usleep(10000);
	}
	kill(-pid, SIGKILL);	/* leftovers of the test (partners, grandchildren) */
	remove_workdir(cfg, pid);
	if (o->state == RUNNER_NONE) {
		if (have_status && WIFSIGNALED(status))
			fail_record(o, "crashed", WTERMSIG(status), -1);
		else if (have_status)
			fail_record(o, "ended without a result", 0, WEXITSTATUS(status));
		else
			fail_record(o, "lost (no exit status)", 0, -1);
	}
}

static void run_test(struct outcome *o, const struct params *p, const struct runner_cfg *cfg,
		     int sigfd, const sigset_t *orig, void (*on_child_exit)(pid_t))
{
	int pfd[2], status = 0, have_status = 0, timeout_s = runner_test_timeout(p);
	pid_t pid;

	o->timeout_s = timeout_s;
	o->timeout_cap = p->test_timeout_s ? 0 : harness_deadline_cap(timeout_s);

	if (pipe(pfd)) {
		fail_record(o, "runner: pipe failed", 0, -1);
		return;
	}
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		fail_record(o, "runner: fork failed", 0, -1);
		return;
	}
	if (pid == 0)
		test_child(o, p, cfg, sigfd, orig, pfd, timeout_s);
	setpgid(pid, pid);
	close(pfd[1]);
	relay_test(o, cfg, pid, pfd[0], sigfd, orig, on_child_exit, &status, &have_status);
	close(pfd[0]);
	end_test(o, cfg, pid, on_child_exit, status, have_status);
}

/* A WARN record (and a line of text) when the command line asks for a clocksource the
 * kernel is not using: every clock read of the run then costs what the other source costs. */
/* A WARN right after the header when a CPU clock or idle policy asked for was not applied
 * (cpupolicy_refused()): the header's cpufreq.set/cpuidle.set say it too, but a user who
 * asked must not have to look there. */
static void warn_cpupolicy_refused(void)
{
	const char *r = cpupolicy_refused();
	struct rec_body b;

	if (!r[0])
		return;
	rec_begin(&b, RK_WARN);
	rec_str(&b, RK_WHAT, REC_WHAT_CPUPOLICY);
	rec_fmt(&b, RK_REASON, "asked for and not applied: %s", r);
	out_record(&b);
	out_text("isobench: warning: CPU policy asked for and not applied: %s\n", r);
}

static void warn_clocksource_not_taken(void)
{
	char cmdline[4096], want[64], cur[64];
	struct rec_body b;

	proc_cmdline(cmdline, sizeof cmdline);
	clocksource_current(cur, sizeof cur);
	if (!clocksource_requested(cmdline, want, sizeof want) || !strcmp(want, cur) ||
	    !strcmp(cur, "-"))
		return;
	rec_begin(&b, RK_WARN);
	rec_str(&b, RK_WHAT, REC_WHAT_CLOCKSOURCE);
	rec_str(&b, RK_REQUESTED, want);
	rec_str(&b, RK_CURRENT, cur);
	rec_fmt(&b, RK_REASON, "the kernel command line asks for clocksource=%s but the kernel "
		"runs on %s", want, cur);
	out_record(&b);
	out_text("isobench: warning: clocksource=%s was asked for; the kernel runs on %s\n", want,
		 cur);
}

/* A WARN record when the clocksource changed while a test ran (before: the TEST record's). */
static void warn_clocksource_changed(const struct outcome *o, const char *before)
{
	char after[64];
	struct rec_body b;

	clocksource_current(after, sizeof after);
	if (!strcmp(before, after))
		return;
	rec_begin(&b, RK_WARN);
	rec_str(&b, RK_WHAT, REC_WHAT_CLOCKSOURCE);
	rec_str(&b, RK_TESTNAME, o->b->name);
	rec_u64(&b, RK_COPIES, (uint64_t)o->copies);
	rec_str(&b, RK_BEFORE, before);
	rec_str(&b, RK_AFTER, after);
	rec_fmt(&b, RK_REASON, "the clocksource changed from %s to %s during this test", before,
		after);
	out_record(&b);
	out_text("isobench: warning: clocksource changed from %s to %s during %s\n", before,
		 after, o->b->name);
}

/* The test's verdict on its own result (benchapi.h judge), right after its RESULT: a WARN
 * what=result (a result the machine cannot give as it claims: a flush that reaches no
 * stable storage) or an INFO verdict.* (a verdict that is no warning). */
static void verdict_judged(const struct outcome *o)
{
	struct bench_judged j = {o->value, {0}};
	struct summary sm;
	char why[600];
	struct rec_body b;

	if (o->state != RUNNER_RESULT || !o->b->judge)
		return;
	for (int k = 0; k < BENCH_JUDGE_EXTRAS; k++)
		j.extra[k] = summarize(judge_vals[k], judge_n[k], 0, &sm) ? -1 : sm.median;
	int v = o->b->judge(o->b, &j, why, sizeof why);
	if (v == BENCH_JUDGE_NOTE) {
		rec_begin(&b, RK_INFO);
		rec_str(&b, RK_VERDICT_TEST, o->b->name);
		rec_str(&b, RK_VERDICT_REASON, why);
		out_record(&b);
		out_text("isobench: %s: %s\n", o->b->name, why);
	}
	if (v != BENCH_JUDGE_WARN)
		return;
	rec_begin(&b, RK_WARN);
	rec_str(&b, RK_WHAT, REC_WHAT_RESULT);
	rec_str(&b, RK_TESTNAME, o->b->name);
	rec_u64(&b, RK_COPIES, (uint64_t)o->copies);
	rec_str(&b, RK_REASON, why);
	out_record(&b);
	out_text("isobench: warning: %s: %s\n", o->b->name, why);
}

static void print_tables(const struct params *p, int pass)
{
	int copies = p->copies[pass], any_index = 0;
	struct ub_score score;
	char line[256];

	out_text("\n========================================================================\n");
	out_text("   isobench %s: %d cop%s, suite %s%s\n\n", isobench_version, copies,
		 copies == 1 ? "y" : "ies", suite_name(p->suite),
		 p->suite == SUITE_QUICK && p->target_ci_pct >= 100
			 ? " (no confidence target: a smoke test, not a measurement)" : "");
	for (int i = 0; i < nresults; i++) {
		struct outcome *o = &results[i];
		if (o->copies != copies)
			continue;
		any_index |= bench_is_index(o->b);
		if (o->state == RUNNER_RESULT)
			out_text("%-44.44s %14.1f %-5s (%d samples, ci95 +/-%.2f%% of their median "
				 "%.1f%s)\n", o->b->title, o->value, o->b->unit, o->samples, o->ci,
				 o->median, o->converged ? "" : ", NOT converged");
		else
			out_text("%-44.44s %14s       (%s)\n", o->b->title,
				 o->state == RUNNER_SKIP ? "SKIP" : "FAIL", o->why);
	}
	if (!any_index)
		return;
	/* UnixBench's table and score: lib/unixbench.c, shared with isobench-report. */
	out_text("\n%s\n%s\n", UB_TABLE_NOTE, UB_TABLE_HEAD);
	ub_score_init(&score);
	for (int i = 0; i < nresults; i++) {
		struct outcome *o = &results[i];
		if (o->copies != copies || !bench_is_index(o->b))
			continue;
		double v = o->state == RUNNER_RESULT ? o->value : 0;
		ub_score_add(&score, v, o->b->baseline);
		out_text("%s\n", ub_row(line, sizeof line, o->b->title, o->b->baseline, v,
					 o->state == RUNNER_RESULT ? "" :
					 o->state == RUNNER_SKIP ? "SKIP" : "FAIL"));
	}
	out_text("%s\n\n", ub_footer(line, sizeof line, &score));
}

/* SIGCHLD (and on a host the stop signals, see stops) blocked and taken from the signalfd
 * returned (-1 on failure); *orig gets the mask before. */
static int take_signal_fd(const struct runner_cfg *cfg, sigset_t *orig)
{
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, orig);
	sigemptyset(&stops);
	if (!strcmp(cfg->mode, REC_MODE_HOST)) {
		/* A user's ^C or kill: runner_run() blocks these for the whole run; while a test
		 * runs they come from the signalfd, so the test's files go too; outside a test
		 * stop_if_pending() takes them at the next test's edge, after the host's CPU
		 * policy is put back. PID 1 keeps its own signal handling (init.c). */
		sigaddset(&stops, SIGINT);
		sigaddset(&stops, SIGTERM);
		sigaddset(&stops, SIGHUP);
		/* Its output's reader gone (isobench ... | head): writes fail (out.c ignores it)
		 * and the run ends as for ^C, the host's CPU policy put back first. */
		sigaddset(&stops, SIGPIPE);
	}
	sigset_t both = chld;
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&stops, sig))
			sigaddset(&both, sig);
	return signalfd(-1, &both, SFD_NONBLOCK | SFD_CLOEXEC);
}

/* BEGIN (with a random run id), then the input errors found before it. The id is the
 * kernel's AT_RANDOM bytes; a process's later runs (out/isobench --repeat, --ab) mix in the
 * clock, so every run of a log has its own id (isobench-report warns about a run compared
 * with itself by its id). */
static char run_id[NET_RUN_ID_LEN + 1];	/* BEGIN run= of the current run */

static void begin_run(const struct runner_cfg *cfg)
{
	static unsigned runs;	/* runs this process began */
	struct rec_body b;
	const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);
	unsigned long long id = 0;

	for (int i = 0; rnd && i < 8; i++)
		id = id << 8 | rnd[i];
	if (!rnd || runs++)
		id ^= (unsigned long long)now_ns() * 0x9e3779b97f4a7c15ull;
	snprintf(run_id, sizeof run_id, "%016llx", id);
	out_begin(run_id, cfg->mode);
	for (int i = 0; i < cfg->npending; i++) {
		rec_begin(&b, RK_ERROR);
		rec_str(&b, RK_WHAT, REC_WHAT_PARAM);
		rec_str(&b, RK_PARAM, cfg->pending_param[i]);
		rec_str(&b, RK_VALUE, cfg->pending_value[i]);
		rec_str(&b, RK_REASON, cfg->pending_reason[i]);
		out_record(&b);
		out_text("isobench: parameter %s=%s: %s%s\n", cfg->pending_param[i],
			 cfg->pending_value[i], cfg->pending_reason[i],
			 rec_reason_says_kept(cfg->pending_reason[i]) ? "" : " (default kept)");
	}
	if (cfg->ndropped) {	/* never a silent cap: say how many more there were */
		rec_begin(&b, RK_ERROR);
		rec_str(&b, RK_WHAT, REC_WHAT_PARAM);
		rec_str(&b, RK_PARAM, "isobench.*");
		rec_str(&b, RK_VALUE, "-");
		rec_fmt(&b, RK_REASON, "%d more input errors not shown (the first %d are)",
			cfg->ndropped, RUNNER_MAX_PENDING);
		out_record(&b);
		out_text("isobench: %d more input errors not shown (defaults kept)\n",
			 cfg->ndropped);
	}
	pending_facts(cfg);
}

/* Tell the run's watcher (runner_cfg.watch) what o is now: announced, or its outcome. */
static void tell_watch(const struct runner_cfg *cfg, const struct outcome *o)
{
	if (!cfg->watch)
		return;
	struct runner_fact f = {
		.test = o->b->name, .title = o->b->title, .copies = o->copies, .state = o->state,
		.baseline = bench_is_index(o->b) ? o->b->baseline : 0, .value = o->value,
		.index = o->state == RUNNER_RESULT ? o->index : NAN,
	};
	cfg->watch(&f);
}

/* The test's INFO (what it executes) and TEST records and the progress line; clk gets the
 * clocksource at its start. k of total. */
static void announce_test(const struct outcome *o, const struct params *p,
			  const struct runner_cfg *cfg, int k, int total, char *clk, size_t clklen)
{
	struct rec_body b;

	if (o->b->info) {	/* what the test executes (benchapi.h) */
		rec_begin(&b, RK_INFO);
		o->b->info(o->b, cfg->self, &b);
		if (b.len > 4)
			out_record(&b);
	}
	rec_begin(&b, RK_TEST);
	rec_str(&b, RK_TESTNAME, o->b->name);
	rec_u64(&b, RK_K, (uint64_t)k);
	rec_u64(&b, RK_N, (uint64_t)total);
	rec_u64(&b, RK_COPIES, (uint64_t)o->copies);
	rec_str(&b, RK_UNIT, o->b->unit);
	rec_str(&b, RK_BETTER, bench_better(o->b));
	rec_str(&b, RK_GROUP, o->b->group);
	rec_str(&b, RK_TITLE, o->b->title);
	if (bench_is_index(o->b))
		rec_dbl(&b, RK_BASELINE, o->b->baseline, 1);
	clocksource_current(clk, clklen);
	rec_str(&b, RK_CLOCKSOURCE, clk);
	int pinned = bench_pinned(o->b, p);
	if (pinned)
		rec_str(&b, RK_PIN, "1");
	out_record(&b);
	tell_watch(cfg, o);
	out_text("isobench: [%d/%d] %s (%s), %d cop%s%s ...\n", k, total,
		 o->b->title, o->b->name, o->copies, o->copies == 1 ? "y" : "ies",
		 pinned ? ", pinned" : "");
}

/* The SKIP of a single-copy test in a run with no pass of that few copies (runs_in_no_pass). */
static void skip_no_pass(struct outcome *o)
{
	struct rec_body b;

	snprintf(o->why, sizeof o->why, "runs with at most %d cop%s; no pass of this run has "
		 "so few (add one: copies=1,N)", o->b->max_copies,
		 o->b->max_copies == 1 ? "y" : "ies");
	rec_begin(&b, RK_SKIP);
	rec_str(&b, RK_TESTNAME, o->b->name);
	rec_u64(&b, RK_COPIES, (uint64_t)o->copies);
	rec_str(&b, RK_REASON, o->why);
	out_record(&b);
	o->state = RUNNER_SKIP;
}

/* One pass (copies c): every selected test that runs with that many copies, then the
 * tables. *k counts the tests run so far, of total. */
static void run_pass(const struct params *p, const struct runner_cfg *cfg, int c,
		     const struct bench **sel, int n, int *k, int total, int sigfd,
		     const sigset_t *orig, void (*on_child_exit)(pid_t))
{
	for (int i = 0; i < n; i++) {
		struct outcome *o;
		char clk[64];
		if (!in_pass(sel[i], p, c))
			continue;
		o = &results[nresults++];
		memset(o, 0, sizeof *o);
		o->b = sel[i];
		o->copies = p->copies[c];
		++*k;
		announce_test(o, p, cfg, *k, total, clk, sizeof clk);
		if (runs_in_pass(sel[i], p->copies[c]))
			run_one(o, p, cfg, sigfd, orig, on_child_exit);
		else
			skip_no_pass(o);
		tell_watch(cfg, o);
		warn_clocksource_changed(o, clk);
		verdict_judged(o);
		if (o->state == RUNNER_RESULT)
			out_text("isobench: [%d/%d] %s: %.1f %s (%d samples, ci95 +/-%.2f%% of their "
				 "median %.1f)\n", *k, total, o->b->name, o->value, o->b->unit,
				 o->samples, o->ci, o->median);
		else
			out_text("isobench: [%d/%d] %s: %s (%s)\n", *k, total, o->b->name,
				 o->state == RUNNER_SKIP ? "SKIP" : "FAIL", o->why);
	}
	print_tables(p, c);
}

/* The run's whole log (the stream from its BEGIN, END included) to its peer, which keeps it
 * when started with --store DIR (netproto.h, mode store); a line of text (after END: never a
 * record) says where it went or why not. Nothing without a peer or a stream; not tried when
 * the peer did not answer the header's hello (a peer out of reach would cost the connect's
 * timeout at the end of every run). */
static void send_log(void)
{
	char msg[400];
	long len = out_stream_read(NULL, 0, 0);
	size_t off = out_run_offset();

	if (!bench_peer[0] || len < 0 || (size_t)len <= off)
		return;
	const char *hello = net_peer_field(bench_peer, "host");	/* the header's, cached */
	if (!strncmp(hello, "unreachable", 11)) {
		/* what happened: out of reach, or it answered with no peer's words */
		if (net_peer_answered())
			out_text("isobench: the log was not sent to the peer %s: it answered the run's "
				 "hello, but not as a peer: %s\n", bench_peer,
				 hello + strcspn(hello, " ") + 1);
		else
			out_text("isobench: the log was not sent to the peer %s: it was %s\n",
				 bench_peer, hello);
		return;
	}
	size_t n = (size_t)len - off;
	char *log = n <= NET_CAP_STORE_BYTES ? malloc(n) : NULL;
	if (!log || out_stream_read(log, n, off) < 0)
		out_text("isobench: the log (%zu bytes) was not sent to the peer %s: %s\n", n,
			 bench_peer, n > NET_CAP_STORE_BYTES ? "over what a peer keeps" :
			 "it could not be read");
	else if (net_send_log(bench_peer, run_id, log, n, msg, sizeof msg))
		out_text("isobench: the log was not sent to the peer %s: %s\n", bench_peer, msg);
	else
		out_text("isobench: the log (%zu bytes) went to the peer %s, which keeps it as %s\n",
			 n, bench_peer, msg);
	free(log);
}

/* END with the run's counts; returns 1 when a FAIL or ERROR record was written, else 0. */
static int end_run(void)
{
	out_console_info();	/* time spent per console (image only; a no-op on a host) */
	const struct out_counts *ct = out_counts();
	char clk[64];
	clocksource_current(clk, sizeof clk);
	int bad = ct->fails || ct->errors;
	out_end(REC_STATUS_OK, clk);
	send_log();
	return bad;
}

int runner_run(struct params *p, struct runner_cfg *cfg, void (*on_child_exit)(pid_t))
{
	const struct bench *sel[MAX_SEL];
	sigset_t orig;
	int sigfd, n, total = 0, k = 0;

	nresults = 0;	/* this run's outcomes only (runner_runs(): the tables, and the bound) */
	sigfd = take_signal_fd(cfg, &orig);
	sigprocmask(SIG_BLOCK, &stops, NULL);	/* until the end: stop_if_pending() */
	begin_run(cfg);
	snprintf(bench_peer, sizeof bench_peer, "%s", p->peer);	/* the net tests' (benchapi.h) */
	net_nic_use_peer(bench_peer);	/* the nic.* facts: the route to it leaves by */
	snprintf(bench_peer_rejected, sizeof bench_peer_rejected, "%s", p->peer_rejected);
	/* The CPU's clock policy, set (image; host: only when asked) before the header reads it. */
	cpupolicy_apply(p, !strcmp(cfg->mode, REC_MODE_INIT), cpupolicy_root());
	sysinfo_emit(p, cfg->mode, cfg->tmpdir);
	warn_clocksource_not_taken();
	warn_cpupolicy_refused();

	n = selected(p, sel, MAX_SEL, 1);
	for (int c = 0; c < p->ncopies; c++)
		for (int i = 0; i < n; i++)
			total += in_pass(sel[i], p, c);

	for (int c = 0; c < p->ncopies; c++)
		run_pass(p, cfg, c, sel, n, &k, total, sigfd, &orig, on_child_exit);

	int bad = end_run();
	cpupolicy_restore();	/* a host's policy as it was (the image's is left) */
	if (sigfd >= 0)
		close(sigfd);
	sigprocmask(SIG_SETMASK, &orig, NULL);	/* a stop signal pending now ends us here */
	return bad;
}

int runner_runs(const struct params *p, struct runner_cfg *cfg, void (*on_child_exit)(pid_t))
{
	static struct params q;
	int n = p->repeat > 0 ? p->repeat : 1, bad = 0;

	for (int k = 0; k < n; k++) {
		q = *p;
		q.replicate = p->repeat > 0 ? k + 1 : 0;
		if (k) {
			out_new_run();	/* each run's records count from 1 (its own BEGIN..END) */
			params_next_run(&q);	/* and draws its own disk seed (unless given) */
		}
		bad |= runner_run(&q, cfg, on_child_exit) != 0;
	}
	return bad;
}
