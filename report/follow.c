/* follow.c — see follow.h. */
#define _GNU_SOURCE
#include "follow.h"
#include "vocab.h"
#include "record.h"
#include "status.h"

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
		const char *n = rec_get(r, RK_RECORDS);
		s->ended = 1;
		if (!n || strtoull(n, NULL, 10) != r->seq - 1)
			s->broken = 1;
	}
}

/* One line of the log (NUL-terminated, len bytes); returns 1 when it was a verified END. */
static int show(char *line, size_t len, size_t lineno, struct record *r, struct fstate *s,
		FILE *out)
{
	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		line[--len] = 0;
	enum rec_status st = rec_parse(line, len, r);
	if (st == REC_NONE) {
		const char *p = strstr(line, "Kernel panic");
		if (p)
			fprintf(out, "guest: %s\n", p);
		return 0;
	}
	if (st != REC_OK) {
		fprintf(out, "isobench-report: line %zu: damaged record (%s), not used\n", lineno,
			st == REC_BAD_CRC ? "checksum mismatch" : "malformed");
		s->broken |= s->begun && !s->ended;
		return 0;
	}
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
		fprintf(out, "guest %s: %s: %s\n", r->kind,
			rec_get(r, RK_TESTNAME) ? get(r, RK_TESTNAME) : get(r, RK_PARAM),
			get(r, RK_REASON));
	else if (!strcmp(r->kind, RK_END))
		fprintf(out, "END results=%s fails=%s skips=%s errors=%s\n", get(r, RK_RESULTS),
			get(r, RK_FAILS), get(r, RK_SKIPS), get(r, RK_ERRORS));
	fflush(out);
	return !strcmp(r->kind, RK_END);
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

int follow_log(const char *path, pid_t pid, int idle_s, FILE *out)
{
	struct record *r = malloc(sizeof *r);
	size_t cap = REC_MAX * 2, used = 0, lineno = 0;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC), done = 0, rc;
	struct fstate s = {0};
	struct stat st;
	off_t pos = 0;
	time_t last = time(NULL);
	const char *why = NULL;

	if (fd < 0 || !r || !buf || fstat(fd, &st)) {
		fprintf(stderr, "isobench-report: %s: cannot be read: %s\n", path, strerror(errno));
		rc = EXIT_INCOMPLETE;
		goto out;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode)) {
		fprintf(stderr, "isobench-report: %s: not a log file (%s)\n", path,
			S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		rc = EXIT_INCOMPLETE;
		goto out;
	}
	if (S_ISREG(st.st_mode)) {
		newest_run(fd, st.st_size, r, &pos, &lineno);
	}
	while (!done) {
		ssize_t k = read(fd, buf + used, cap - used);
		if (k < 0 && errno == EINTR)
			continue;
		if (k > 0) {
			char *nl;
			pos += k;
			used += (size_t)k;
			last = time(NULL);
			while ((nl = memchr(buf, '\n', used))) {
				size_t len = (size_t)(nl - buf);
				buf[len] = 0;
				/* With a writer to wait for, END does not end it: it may boot again. */
				if (show(buf, len, ++lineno, r, &s, out) && pid <= 0)
					done = 1;
				used -= len + 1;
				memmove(buf, nl + 1, used);
			}
			if (used == cap) {	/* a line longer than any record: drop it */
				used = 0;
				lineno++;
			}
			continue;
		}
		if (S_ISREG(st.st_mode) && fstat(fd, &st) == 0 && st.st_size < pos) {
			fprintf(out, "isobench-report: %s shrank (truncated or rewritten): following it "
				     "again from its start\n", path);
			lseek(fd, 0, SEEK_SET);
			pos = 0;
			used = 0;
			lineno = 0;
			memset(&s, 0, sizeof s);
			continue;
		}
		/* Nothing new: stop if the writer is gone, else wait a little. */
		if (pid > 0 && kill(pid, 0) && errno == ESRCH) {
			if (used) {
				buf[used] = 0;
				show(buf, used, ++lineno, r, &s, out);
			}
			why = "the writer exited before END";
			break;
		}
		if (k == 0 && !S_ISREG(st.st_mode) && pid <= 0) {
			why = "end of input before END";
			break;
		}
		if (idle_s > 0 && time(NULL) - last >= idle_s) {
			fprintf(stderr, "isobench-report: %s: nothing new for %d s (--idle): giving up\n",
				path, idle_s);
			why = "idle limit";
			break;
		}
		struct timespec t = {0, 100 * 1000 * 1000};
		nanosleep(&t, NULL);
	}
	if (!s.begun) {
		fprintf(stderr, "isobench-report: %s: no BEGIN record%s%s\n", path, why ? ": " : "",
			why ? why : "");
		rc = EXIT_INCOMPLETE;
	} else if (!s.ended || s.broken) {
		fprintf(stderr, "isobench-report: %s: the newest run is not complete (%s)\n", path,
			!s.ended ? (why ? why : "no END") : "records lost or damaged");
		rc = EXIT_INCOMPLETE;
	} else {
		rc = s.bad ? EXIT_FAILS : EXIT_OK;
	}
out:
	if (fd >= 0)
		close(fd);
	free(r);
	free(buf);
	return rc;
}
