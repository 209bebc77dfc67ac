/* follow.c — see follow.h. */
#define _GNU_SOURCE
#include "follow.h"
#include "logread.h"
#include "vocab.h"
#include "status.h"
#include "record.h"

#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The run being followed: judged as it streams by, like logread.c judges a whole log. */
struct fstate {
	int begun, ended, broken;
	uint64_t expect, bad;	/* next sequence number; FAIL + ERROR records */
	/* A damaged record that ended its line, kept for log_join() with the record bytes after
	 * up to four kernel lines (plen 0: none), as log_read() does. */
	char pend[REC_MAX];
	size_t plen, pline, pkernel;
	int pst;		/* its rec_parse() status */
};

static const char *get(const struct record *r, const char *k)
{
	const char *v = rec_get(r, k);
	return v ? v : "?";
}

static void track(struct fstate *s, const struct record *r)
{
	if (!strcmp(r->kind, RK_BEGIN)) {
		memset(s, 0, sizeof *s);
		s->begun = 1;
		s->expect = 1;
	}
	if (!s->begun || s->ended)
		return;
	if (r->seq != s->expect)
		s->broken = 1;
	s->expect = r->seq + 1;
	if (!strcmp(r->kind, RK_FAIL) || !strcmp(r->kind, RK_ERROR))
		s->bad++;
	if (!strcmp(r->kind, RK_END)) {
		unsigned long long n;
		s->ended = 1;
		if (rec_get_ull(r, RK_RECORDS, 0, ULLONG_MAX, &n) || n != r->seq - 1)
			s->broken = 1;
	}
}

/* A verified record: the run's state, and one line of progress. 1 when it was END. */
static int shown(const struct record *r, struct fstate *s, FILE *out)
{
	track(s, r);
	if (!strcmp(r->kind, RK_BEGIN))
		fprintf(out, "BEGIN run=%s version=%s\n", get(r, RK_RUN), get(r, RK_VERSION));
	else if (!strcmp(r->kind, RK_TEST))
		fprintf(out, "[%s/%s] %s (%s), copies=%s\n", get(r, RK_K), get(r, RK_N),
			rec_get(r, RK_TITLE) ? rec_get(r, RK_TITLE) : get(r, RK_TESTNAME),
			get(r, RK_TESTNAME), get(r, RK_COPIES));
	else if (!strcmp(r->kind, RK_RESULT))
		fprintf(out, "      %s: %s %s%s%s\n", get(r, RK_TESTNAME), get(r, RK_VALUE),
			get(r, RK_UNIT), rec_get(r, RK_INDEX) ? ", index " : "",
			rec_get(r, RK_INDEX) ? rec_get(r, RK_INDEX) : "");
	else if (!strcmp(r->kind, RK_SKIP) || !strcmp(r->kind, RK_FAIL) ||
		 !strcmp(r->kind, RK_ERROR))
		fprintf(out, "guest %s: %s: %s%s%s%s\n", r->kind,
			rec_get(r, RK_TESTNAME) ? get(r, RK_TESTNAME) : get(r, RK_PARAM),
			get(r, RK_REASON), rec_get(r, RK_NOTE) ? " (" : "",
			rec_get(r, RK_NOTE) ? get(r, RK_NOTE) : "", rec_get(r, RK_NOTE) ? ")" : "");
	else if (!strcmp(r->kind, RK_END))
		fprintf(out, "END results=%s fails=%s skips=%s errors=%s\n", get(r, RK_RESULTS),
			get(r, RK_FAILS), get(r, RK_SKIPS), get(r, RK_ERRORS));
	fflush(out);
	return !strcmp(r->kind, RK_END);
}

/* A damaged line: said, and the run marked broken. */
static void damaged(struct fstate *s, size_t lineno, int st, FILE *out)
{
	fprintf(out, "isobench-report: line %zu: damaged record (%s), not used\n", lineno,
		log_damage_why(st));
	s->broken |= s->begun && !s->ended;
}

/* The kept damaged start, if any, joined with line (log_join()): 1 joined (and shown; *end
 * set when it was END), 0 not (it is said to be damaged now), 2 line is the kernel's and holds
 * no record tag (log_kernel_between(): the start stays kept). */
static int join_pending(char *line, size_t len, struct record *r, struct fstate *s, FILE *out,
			int *end)
{
	static char j[2 * REC_MAX + 1];
	size_t cut = 0, n;

	if (log_kernel_between(line, len) && s->pkernel++ < 4)
		return 2;
	n = s->plen + len < REC_MAX * 2 ? log_join(s->pend, s->plen, line, len, j, r, &cut) : 0;
	if (!n)
		damaged(s, s->pline, s->pst, out);
	s->plen = 0;
	if (n)
		*end = shown(r, s, out);
	return n ? 1 : 0;
}

/* One line of the log (NUL-terminated, len bytes); returns 1 when it was a verified END. */
static int show(char *line, size_t len, size_t lineno, struct record *r, struct fstate *s,
		FILE *out)
{
	int end = 0;

	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		line[--len] = 0;
	if (s->plen) {
		int k = join_pending(line, len, r, s, out, &end);
		if (k == 2 || (k == 1 && end))
			return end;
		if (k == 1)
			return 0;
	}
	enum rec_status st = rec_parse(line, len, r);
	if (st == REC_NONE) {
		const char *p = strstr(line, "Kernel panic");
		if (p)
			fprintf(out, "guest: %s\n", p);
		return 0;
	}
	if (st != REC_OK) {
		const char *tag = strstr(line, REC_TAG), *q;
		while (tag && (q = strstr(tag + 1, REC_TAG)))
			tag = q;
		s->plen = tag ? len - (size_t)(tag - line) : 0;	/* the kernel may have cut it */
		if (s->plen && s->plen < sizeof s->pend) {
			memcpy(s->pend, tag, s->plen);
			s->pline = lineno;
			s->pkernel = 0;
			s->pst = st;
		} else {
			s->plen = 0;
			damaged(s, lineno, st, out);
		}
		return 0;
	}
	return shown(r, s, out);
}

/* Byte offset and line number of the line holding the last verified BEGIN in fd's first
 * size bytes (0, 0 when none): the newest run starts there. */
static void newest_run(int fd, off_t size, struct record *r, off_t *at, size_t *lineno)
{
	FILE *f = fdopen(dup(fd), "r");
	char *line = NULL;
	size_t cap = 0, n = 0;
	ssize_t len;
	off_t pos = 0;

	*at = 0;
	*lineno = 0;
	if (!f)
		return;
	while (pos < size && (len = getline(&line, &cap, f)) > 0) {
		if (rec_parse(line, strnlen(line, (size_t)len), r) == REC_OK &&
		    !strcmp(r->kind, RK_BEGIN)) {
			*at = pos;
			*lineno = n;
		}
		pos += len;
		n++;
	}
	free(line);
	fclose(f);
	lseek(fd, *at, SEEK_SET);
}

/* A log being followed: where in it, what is left of a line, the run's state. */
struct follower {
	const char *path;
	FILE *out;
	pid_t pid;
	int fd;
	struct stat st;
	struct record *r;
	char *buf;
	size_t cap, used, lineno;
	off_t pos;
	time_t last;		/* when data last came */
	struct fstate s;
};

/* Phase 1: path opened into f->fd, a file, pipe or character device. Returns 0, or
 * EXIT_INCOMPLETE after a line on stderr. */
static int open_log(struct follower *f)
{
	const char *path = f->path;

	if (f->fd < 0 || !f->r || !f->buf || fstat(f->fd, &f->st)) {
		fprintf(stderr, "isobench-report: %s: cannot be read: %s\n", path, strerror(errno));
		return EXIT_INCOMPLETE;
	}
	if (!S_ISREG(f->st.st_mode) && !S_ISFIFO(f->st.st_mode) && !S_ISCHR(f->st.st_mode)) {
		fprintf(stderr, "isobench-report: %s: not a log file (%s)\n", path,
			S_ISDIR(f->st.st_mode) ? "a directory" : "not a regular file");
		return EXIT_INCOMPLETE;
	}
	return 0;
}

/* k new bytes are in f->buf: show each whole line. Returns 1 when a verified END ends the
 * following (no writer to wait for), else 0. */
static int take_lines(struct follower *f, ssize_t k)
{
	char *buf = f->buf, *nl;
	int done = 0;

	f->pos += k;
	f->used += (size_t)k;
	f->last = time(NULL);
	while ((nl = memchr(buf, '\n', f->used))) {
		size_t len = (size_t)(nl - buf);
		buf[len] = 0;
		/* With a writer to wait for, END does not end it: it may boot again. */
		if (show(buf, len, ++f->lineno, f->r, &f->s, f->out) && f->pid <= 0)
			done = 1;
		f->used -= len + 1;
		memmove(buf, nl + 1, f->used);
	}
	if (f->used == f->cap) {	/* a line longer than any record: drop it */
		f->used = 0;
		f->lineno++;
	}
	return done;
}

/* A regular file shorter than what was read: follow it again from its start. Returns 1
 * when it did. */
static int restart_if_shrunk(struct follower *f)
{
	if (S_ISREG(f->st.st_mode) && fstat(f->fd, &f->st) == 0 && f->st.st_size < f->pos) {
		fprintf(f->out, "isobench-report: %s shrank (truncated or rewritten): following it "
				"again from its start\n", f->path);
		lseek(f->fd, 0, SEEK_SET);
		f->pos = 0;
		f->used = 0;
		f->lineno = 0;
		memset(&f->s, 0, sizeof f->s);
		return 1;
	}
	return 0;
}

/* Nothing new (the last read gave k): why to stop following, or NULL to wait on. */
static const char *why_stop(struct follower *f, ssize_t k, int idle_s)
{
	if (f->pid > 0 && kill(f->pid, 0) && errno == ESRCH) {
		if (f->used) {
			f->buf[f->used] = 0;
			show(f->buf, f->used, ++f->lineno, f->r, &f->s, f->out);
		}
		return "the writer exited before END";
	}
	if (k == 0 && !S_ISREG(f->st.st_mode) && f->pid <= 0)
		return "end of input before END";
	if (idle_s > 0 && time(NULL) - f->last >= idle_s) {
		fprintf(stderr, "isobench-report: %s: nothing new for %d s (--idle): giving up\n",
			f->path, idle_s);
		return "idle limit";
	}
	return NULL;
}

/* Phase 3: the exit status of the run followed (why: why following stopped, or NULL). */
static int verdict(const char *path, const struct fstate *s, const char *why)
{
	if (!s->begun) {
		fprintf(stderr, "isobench-report: %s: no BEGIN record%s%s\n", path, why ? ": " : "",
			why ? why : "");
		return EXIT_INCOMPLETE;
	} else if (!s->ended || s->broken) {
		fprintf(stderr, "isobench-report: %s: the newest run is not complete (%s)\n", path,
			!s->ended ? (why ? why : "no END") : "records lost or damaged");
		return EXIT_INCOMPLETE;
	}
	return s->bad ? EXIT_FAILS : EXIT_OK;
}

int follow_log(const char *path, pid_t pid, int idle_s, FILE *out)
{
	struct follower f = {.path = path, .out = out, .pid = pid, .cap = REC_MAX * 2};
	int done = 0, rc;
	const char *why = NULL;

	f.r = malloc(sizeof *f.r);
	f.buf = malloc(f.cap + 1);
	f.fd = open(path, O_RDONLY | O_CLOEXEC);
	f.last = time(NULL);
	if ((rc = open_log(&f)))
		goto out;
	if (S_ISREG(f.st.st_mode)) {
		newest_run(f.fd, f.st.st_size, f.r, &f.pos, &f.lineno);
	}
	/* Phase 2: show what comes until END, the writer's exit, the input's end or --idle. */
	while (!done) {
		ssize_t k = read(f.fd, f.buf + f.used, f.cap - f.used);
		if (k < 0 && errno == EINTR)
			continue;
		if (k > 0) {
			done = take_lines(&f, k);
			continue;
		}
		if (restart_if_shrunk(&f))
			continue;
		/* Nothing new: stop if the writer is gone, else wait a little. */
		if ((why = why_stop(&f, k, idle_s)))
			break;
		struct timespec t = {0, 100 * 1000 * 1000};
		nanosleep(&t, NULL);
	}
	if (f.s.plen)	/* a damaged start nothing mended */
		damaged(&f.s, f.s.pline, f.s.pst, out);
	rc = verdict(path, &f.s, why);
out:
	if (f.fd >= 0)
		close(f.fd);
	free(f.r);
	free(f.buf);
	return rc;
}
