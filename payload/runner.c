/* runner.c — see runner.h. */
#define _GNU_SOURCE
#include "runner.h"
#include "bench.h"
#include "harness.h"
#include "out.h"
#include "record.h"
#include "sysinfo.h"
#include "version.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>


/* UnixBench's System Benchmarks Index has 12 tests; fewer results make a Partial Index. */
#define UNIXBENCH_INDEX_TESTS 12
#define MAX_SEL 128

struct outcome {
	const struct bench *b;
	int copies;
	int state;		/* 0 none, 1 result, 2 skip, 3 fail */
	double value, index, ci;
	int samples, converged;
	char why[96];
};

static struct outcome results[MAX_SEL * PARAM_MAX_COPIES];
static int nresults;

void runner_pending_error(void *arg, const char *param, const char *value, const char *reason)
{
	struct runner_cfg *cfg = arg;
	if (cfg->npending >= RUNNER_MAX_PENDING)
		return;
	snprintf(cfg->pending_param[cfg->npending], 64, "%s", param);
	snprintf(cfg->pending_value[cfg->npending], 128, "%s", value);
	snprintf(cfg->pending_reason[cfg->npending], 160, "%s", reason);
	cfg->npending++;
}

int runner_test_timeout(const struct params *p)
{
	if (p->test_timeout_s)
		return p->test_timeout_s;
	/* Calibration, setup and up to max_samples samples, three times over for slow guests. */
	return 60 + 3 * p->max_samples * p->sample_ms / 1000;
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
			int all = !strcmp(tok, "all") && strcmp(b->group, "selftest");
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
			rec_begin(&rb, "ERROR");
			rec_str(&rb, "what", "test");
			rec_str(&rb, "test", tok);
			rec_str(&rb, "reason", "unknown test or group (isobench --list shows them)");
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

int runner_unknown_tests(const struct params *p, char *out, size_t cap)
{
	char list[sizeof p->tests], *tok, *save = NULL;
	int n = 0;

	out[0] = 0;
	snprintf(list, sizeof list, "%s", p->tests);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int hit = !strcmp(tok, "all");
		for (int i = 0; !hit && bench_registry[i]; i++)
			hit = !strcmp(tok, bench_registry[i]->name) ||
			      !strcmp(tok, bench_registry[i]->group);
		if (!hit) {
			size_t l = strlen(out);
			snprintf(out + l, cap - l, "%s%s", n ? "," : "", tok);
			n++;
		}
	}
	return n;
}

static int runs_in_pass(const struct bench *b, int copies)
{
	return !(b->max_copies && copies > b->max_copies);
}

int runner_budget(const struct params *p)
{
	const struct bench *sel[MAX_SEL];
	int n = selected(p, sel, MAX_SEL, 0), total = 0;

	for (int c = 0; c < p->ncopies; c++)
		for (int i = 0; i < n; i++)
			if (runs_in_pass(sel[i], p->copies[c]))
				total += runner_test_timeout(p) + 5;
	return total + 120;
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

static void relay_line(const char *line, size_t len, struct outcome *o)
{
	struct record r;
	struct rec_body b;

	if (rec_parse_body(line, len, &r) != REC_OK) {
		rec_begin(&b, "ERROR");
		rec_str(&b, "what", "test");
		rec_str(&b, "test", o->b->name);
		rec_str(&b, "reason", "malformed record from the test process");
		out_record(&b);
		return;
	}
	b.dropped = 0;
	b.len = len < sizeof b.buf ? len : sizeof b.buf - 1;
	memcpy(b.buf, line, b.len);
	b.buf[b.len] = 0;
	out_record(&b);
	if (!strcmp(r.kind, "RESULT")) {
		const char *v;
		o->state = 1;
		o->value = atof(rec_get(&r, "value") ? rec_get(&r, "value") : "0");
		o->index = (v = rec_get(&r, "index")) ? atof(v) : 0;
		o->ci = (v = rec_get(&r, "ci95_pct")) ? atof(v) : 0;
		o->samples = (v = rec_get(&r, "samples")) ? atoi(v) : 0;
		o->converged = (v = rec_get(&r, "converged")) ? atoi(v) : 1;
	} else if (!strcmp(r.kind, "SKIP") || !strcmp(r.kind, "FAIL")) {
		const char *why = rec_get(&r, "reason");
		o->state = r.kind[0] == 'S' ? 2 : 3;
		snprintf(o->why, sizeof o->why, "%s", why ? why : "-");
	}
}

static void fail_record(struct outcome *o, const char *reason, int sig, int status)
{
	struct rec_body b;

	rec_begin(&b, "FAIL");
	rec_str(&b, "test", o->b->name);
	rec_u64(&b, "copies", (uint64_t)o->copies);
	rec_str(&b, "reason", reason);
	if (sig)
		rec_i64(&b, "signal", sig);
	if (status >= 0)
		rec_i64(&b, "status", status);
	out_record(&b);
	o->state = 3;
	snprintf(o->why, sizeof o->why, "%s", reason);
}

/* Run one test in a child with its own process group; relay its records. */
static void run_one(struct outcome *o, const struct params *p, const struct runner_cfg *cfg,
		    int sigfd, const sigset_t *orig, void (*on_child_exit)(pid_t))
{
	int pfd[2], status = 0, have_status = 0, timeout_s = runner_test_timeout(p);
	char buf[REC_MAX * 2];
	size_t used = 0;
	uint64_t deadline;
	pid_t pid;

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
	if (pid == 0) {
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
	setpgid(pid, pid);
	close(pfd[1]);
	deadline = now_ns() + (uint64_t)timeout_s * 1000000000u;
	for (;;) {
		struct pollfd fds[2] = {{.fd = pfd[0], .events = POLLIN},
					{.fd = sigfd, .events = POLLIN}};
		uint64_t t = now_ns();
		if (t >= deadline) {
			kill(-pid, SIGKILL);
			char why[64];
			snprintf(why, sizeof why, "timeout after %d s", timeout_s);
			fail_record(o, why, 0, -1);
			break;
		}
		int pr = poll(fds, 2, (int)((deadline - t) / 1000000u) + 1);
		if (pr < 0 && errno != EINTR)
			break;
		if (fds[1].revents & POLLIN) {
			struct signalfd_siginfo si;
			while (read(sigfd, &si, sizeof si) > 0)
				;
			reap_children(pid, &status, &have_status, on_child_exit);
		}
		if (fds[0].revents & (POLLIN | POLLHUP)) {
			ssize_t k = read(pfd[0], buf + used, sizeof buf - used - 1);
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
	close(pfd[0]);
	/* Collect the child's status (bounded: it has closed its pipe or been killed). */
	for (int i = 0; !have_status && i < 500; i++) {
		reap_children(pid, &status, &have_status, on_child_exit);
		if (!have_status)
			usleep(10000);
	}
	kill(-pid, SIGKILL);	/* leftovers of the test (partners, grandchildren) */
	if (o->state == 0) {
		if (have_status && WIFSIGNALED(status))
			fail_record(o, "crashed", WTERMSIG(status), -1);
		else if (have_status)
			fail_record(o, "ended without a result", 0, WEXITSTATUS(status));
		else
			fail_record(o, "lost (no exit status)", 0, -1);
	}
}

static void print_tables(const struct params *p, int pass)
{
	int copies = p->copies[pass], nidx = 0, partial = 0;
	double ratios[MAX_SEL];

	out_text("\n========================================================================\n");
	out_text("   isobench %s: %d cop%s, suite %s\n\n", isobench_version, copies,
		 copies == 1 ? "y" : "ies", suite_name(p->suite));
	for (int i = 0; i < nresults; i++) {
		struct outcome *o = &results[i];
		if (o->copies != copies)
			continue;
		if (o->state == 1)
			out_text("%-44.44s %14.1f %-5s (%d samples, ci95 +/-%.2f%%%s)\n", o->b->title,
				 o->value, o->b->unit, o->samples, o->ci,
				 o->converged ? "" : ", NOT converged");
		else
			out_text("%-44.44s %14s       (%s)\n", o->b->title,
				 o->state == 2 ? "SKIP" : "FAIL", o->why);
	}
	int any_index = 0;
	for (int i = 0; i < nresults; i++)
		any_index |= results[i].copies == copies && results[i].b->baseline > 0;
	if (!any_index)
		return;
	/* UnixBench's layout: "%-40s%13.1f%13.1f%9.1f", 75 columns. */
	out_text("\nSystem Benchmarks Index Values               BASELINE       RESULT    INDEX\n");
	for (int i = 0; i < nresults; i++) {
		struct outcome *o = &results[i];
		if (o->copies != copies || !(o->b->baseline > 0))
			continue;
		if (o->state == 1) {
			out_text("%-40.40s%13.1f%13.1f%9.1f\n", o->b->title, o->b->baseline, o->value,
				 o->index);
			ratios[nidx++] = o->value / o->b->baseline;
		} else {
			out_text("%-40.40s%13.1f%13s%9s\n", o->b->title, o->b->baseline,
				 o->state == 2 ? "SKIP" : "FAIL", "-");
		}
	}
	partial = nidx < UNIXBENCH_INDEX_TESTS;
	out_text("%75s\n", "========");
	if (nidx) {
		double s = 0;
		for (int i = 0; i < nidx; i++)
			s += __builtin_log(ratios[i]);
		out_text("%-66s%9.1f\n",
			 partial ? "System Benchmarks Index Score (Partial Only)"
				 : "System Benchmarks Index Score",
			 10 * __builtin_exp(s / nidx));
	}
	out_text("\n");
}

int runner_run(struct params *p, struct runner_cfg *cfg, void (*on_child_exit)(pid_t))
{
	const struct bench *sel[MAX_SEL];
	struct rec_body b;
	sigset_t chld, orig;
	int sigfd, n, total = 0, k = 0;
	const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &orig);
	sigfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);

	rec_begin(&b, "BEGIN");
	if (rnd)
		rec_fmt(&b, "run", "%02x%02x%02x%02x%02x%02x%02x%02x", rnd[0], rnd[1], rnd[2],
			rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
	else
		rec_fmt(&b, "run", "%016llx", (unsigned long long)now_ns());
	rec_str(&b, "version", isobench_version);
	rec_str(&b, "mode", cfg->mode);
	out_record(&b);
	for (int i = 0; i < cfg->npending; i++) {
		rec_begin(&b, "ERROR");
		rec_str(&b, "what", "param");
		rec_str(&b, "param", cfg->pending_param[i]);
		rec_str(&b, "value", cfg->pending_value[i]);
		rec_str(&b, "reason", cfg->pending_reason[i]);
		out_record(&b);
		out_text("isobench: parameter %s=%s: %s (default kept)\n", cfg->pending_param[i],
			 cfg->pending_value[i], cfg->pending_reason[i]);
	}
	sysinfo_emit(p, cfg->mode, cfg->tmpdir);

	n = selected(p, sel, MAX_SEL, 1);
	for (int c = 0; c < p->ncopies; c++)
		for (int i = 0; i < n; i++)
			total += runs_in_pass(sel[i], p->copies[c]);

	for (int c = 0; c < p->ncopies; c++) {
		for (int i = 0; i < n; i++) {
			struct outcome *o;
			if (!runs_in_pass(sel[i], p->copies[c]))
				continue;
			o = &results[nresults++];
			memset(o, 0, sizeof *o);
			o->b = sel[i];
			o->copies = p->copies[c];
			k++;
			rec_begin(&b, "TEST");
			rec_str(&b, "test", o->b->name);
			rec_u64(&b, "k", (uint64_t)k);
			rec_u64(&b, "n", (uint64_t)total);
			rec_u64(&b, "copies", (uint64_t)o->copies);
			rec_str(&b, "unit", o->b->unit);
			rec_str(&b, "group", o->b->group);
			rec_str(&b, "title", o->b->title);
			if (o->b->baseline > 0)
				rec_dbl(&b, "baseline", o->b->baseline, 1);
			out_record(&b);
			out_text("isobench: [%d/%d] %s (%s), %d cop%s ...\n", k, total, o->b->title,
				 o->b->name, o->copies, o->copies == 1 ? "y" : "ies");
			run_one(o, p, cfg, sigfd, &orig, on_child_exit);
			if (o->state == 1)
				out_text("isobench: [%d/%d] %s: %.1f %s (%d samples, ci95 +/-%.2f%%)\n",
					 k, total, o->b->name, o->value, o->b->unit, o->samples, o->ci);
			else
				out_text("isobench: [%d/%d] %s: %s (%s)\n", k, total, o->b->name,
					 o->state == 2 ? "SKIP" : "FAIL", o->why);
		}
		print_tables(p, c);
	}

	out_console_info();	/* time spent per console (image only; a no-op on a host) */
	const struct out_counts *ct = out_counts();
	rec_begin(&b, "END");
	rec_u64(&b, "records", ct->records);
	rec_u64(&b, "results", ct->results);
	rec_u64(&b, "fails", ct->fails);
	rec_u64(&b, "skips", ct->skips);
	rec_u64(&b, "errors", ct->errors);
	rec_str(&b, "status", "ok");
	int bad = ct->fails || ct->errors;
	out_record(&b);
	if (sigfd >= 0)
		close(sigfd);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return bad;
}
