/* follow.c — see follow.h. */
#define _GNU_SOURCE
#include "follow.h"
#include "../payload/record.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *get(const struct record *r, const char *k)
{
	const char *v = rec_get(r, k);
	return v ? v : "?";
}

/* One line of the log; returns 1 when it was the END record. */
static int show(char *line, size_t len, size_t lineno, struct record *r, FILE *out)
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
		return 0;
	}
	if (!strcmp(r->kind, "BEGIN"))
		fprintf(out, "BEGIN run=%s version=%s\n", get(r, "run"), get(r, "version"));
	else if (!strcmp(r->kind, "TEST"))
		fprintf(out, "[%s/%s] %s (%s), copies=%s\n", get(r, "k"), get(r, "n"),
			rec_get(r, "title") ? rec_get(r, "title") : get(r, "test"), get(r, "test"),
			get(r, "copies"));
	else if (!strcmp(r->kind, "RESULT"))
		fprintf(out, "      %s: %s %s%s%s\n", get(r, "test"), get(r, "value"), get(r, "unit"),
			rec_get(r, "index") ? ", index " : "",
			rec_get(r, "index") ? rec_get(r, "index") : "");
	else if (!strcmp(r->kind, "SKIP") || !strcmp(r->kind, "FAIL") || !strcmp(r->kind, "ERROR"))
		fprintf(out, "guest %s: %s: %s\n", r->kind,
			rec_get(r, "test") ? get(r, "test") : get(r, "param"), get(r, "reason"));
	else if (!strcmp(r->kind, "END"))
		fprintf(out, "END results=%s fails=%s skips=%s errors=%s\n", get(r, "results"),
			get(r, "fails"), get(r, "skips"), get(r, "errors"));
	fflush(out);
	return !strcmp(r->kind, "END");
}

int follow_log(const char *path, pid_t pid, FILE *out)
{
	struct record *r = malloc(sizeof *r);
	size_t cap = REC_MAX * 2, used = 0, lineno = 0;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC), done = 0;

	if (fd < 0 || !r || !buf) {
		free(r);
		free(buf);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (!done) {
		ssize_t k = read(fd, buf + used, cap - used);
		if (k < 0 && errno == EINTR)
			continue;
		if (k > 0) {
			char *nl;
			used += (size_t)k;
			while (!done && (nl = memchr(buf, '\n', used))) {
				size_t len = (size_t)(nl - buf);
				buf[len] = 0;
				done = show(buf, len, ++lineno, r, out);
				used -= len + 1;
				memmove(buf, nl + 1, used);
			}
			if (used == cap) {	/* a line longer than any record: drop it */
				used = 0;
				lineno++;
			}
			continue;
		}
		/* Nothing new: stop if the writer is gone, else wait a little. */
		if (pid > 0 && kill(pid, 0) && errno == ESRCH) {
			if (used) {
				buf[used] = 0;
				show(buf, used, ++lineno, r, out);
			}
			break;
		}
		struct timespec t = {0, 100 * 1000 * 1000};
		nanosleep(&t, NULL);
	}
	close(fd);
	free(r);
	free(buf);
	return 0;
}
