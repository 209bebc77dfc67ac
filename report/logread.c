/* logread.c — see logread.h. */
#define _GNU_SOURCE
#include "logread.h"
#include "../payload/keys.h"

#include <stdlib.h>
#include <string.h>

static void strip_escapes(char *s)
{
	/* Remove ANSI CSI sequences (ESC [ ... final byte) and other ESC x pairs. */
	char *w = s;
	for (char *p = s; *p; p++) {
		if (*p == 0x1b) {
			if (p[1] == '[') {
				p += 2;
				while (*p && !(*p >= 0x40 && *p <= 0x7e))
					p++;
				if (!*p)
					break;
			} else if (p[1]) {
				p++;
			}
			continue;
		}
		*w++ = *p;
	}
	*w = 0;
}

static struct run *new_run(struct log *log, size_t line)
{
	struct run *r;

	r = realloc(log->runs, (log->nruns + 1) * sizeof *log->runs);
	if (!r)
		return NULL;
	log->runs = r;
	r = &log->runs[log->nruns++];
	memset(r, 0, sizeof *r);
	r->first_line = r->last_line = line;
	return r;
}

static int add_rec(struct run *run, size_t line, const struct record *pr, const char *text,
		   size_t len)
{
	if (run->nrecs == run->cap) {
		size_t cap = run->cap ? run->cap * 2 : 64;
		struct logrec *n = realloc(run->recs, cap * sizeof *n);
		if (!n)
			return -1;
		run->recs = n;
		run->cap = cap;
	}
	struct logrec *lr = &run->recs[run->nrecs++];
	lr->line = line;
	lr->seq = pr->seq;
	snprintf(lr->kind, sizeof lr->kind, "%s", pr->kind);
	lr->text = strndup(text, len);
	run->last_line = line;
	return lr->text ? 0 : -1;
}

static void judge(struct run *run)
{
	uint64_t expect = 1, counts[4] = {0};
	struct record *r = malloc(sizeof *r);
	const struct logrec *end = NULL;

	run->complete = 0;
	if (!r) {
		snprintf(run->why, sizeof run->why, "out of memory");
		return;
	}
	for (size_t i = 0; i < run->nrecs; i++) {
		const struct logrec *lr = &run->recs[i];
		if (lr->seq != expect) {
			if (!run->why[0])
				snprintf(run->why, sizeof run->why,
					 "records lost: expected seq %llu, got %llu (line %zu)",
					 (unsigned long long)expect, (unsigned long long)lr->seq,
					 lr->line);
			expect = lr->seq;
		}
		expect++;
		if (!strcmp(lr->kind, RK_RESULT))
			counts[0]++;
		else if (!strcmp(lr->kind, RK_FAIL))
			counts[1]++;
		else if (!strcmp(lr->kind, RK_SKIP))
			counts[2]++;
		else if (!strcmp(lr->kind, RK_ERROR))
			counts[3]++;
		else if (!strcmp(lr->kind, RK_END))
			end = lr;
	}
	run->results = counts[0];
	run->fails = counts[1];
	run->skips = counts[2];
	run->errors = counts[3];
	run->has_end = end != NULL;
	if (run->why[0])
		goto out;
	if (!end) {
		snprintf(run->why, sizeof run->why,
			 "no END record: the run was cut off after line %zu", run->last_line);
		goto out;
	}
	if (end != &run->recs[run->nrecs - 1]) {
		snprintf(run->why, sizeof run->why, "records after END (line %zu)", end->line);
		goto out;
	}
	if (logrec_parse(end, r) != REC_OK) {
		snprintf(run->why, sizeof run->why, "END record unreadable");
		goto out;
	}
	static const char *const keys[] = {"results", "fails", "skips", "errors"};
	const char *v = rec_get(r, RK_RECORDS);
	if (!v || strtoull(v, NULL, 10) != end->seq - 1) {
		snprintf(run->why, sizeof run->why, "END says records=%s, %llu were sent",
			 v ? v : "?", (unsigned long long)end->seq - 1);
		goto out;
	}
	for (int k = 0; k < 4; k++) {
		v = rec_get(r, keys[k]);
		if (!v || strtoull(v, NULL, 10) != counts[k]) {
			snprintf(run->why, sizeof run->why, "END says %s=%s, the log holds %llu",
				 keys[k], v ? v : "?", (unsigned long long)counts[k]);
			goto out;
		}
	}
	run->complete = 1;
out:
	free(r);
}

int log_read(FILE *f, struct log *log)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	struct record *r = malloc(sizeof *r);
	struct run *cur = NULL;

	memset(log, 0, sizeof *log);
	if (!r)
		return -1;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		/* A NUL inside a line (a garbled UART) ends it for our purposes. */
		len = (ssize_t)strnlen(line, (size_t)len);
		line[len] = 0;
		strip_escapes(line);
		len = (ssize_t)strlen(line);
		if (cur && strstr(line, "reboot: Power down"))
			cur->powered_off = 1;
		if (cur && strstr(line, "reboot: Restarting system"))
			cur->rebooted = 1;
		enum rec_status st = rec_parse(line, (size_t)len, r);
		if (st == REC_NONE) {
			/* The kernel's own words (kernel/panic.c), not any text naming a panic. */
			if (strstr(line, "Kernel panic - not syncing")) {
				log->panic = 1;
				log->panic_line = lineno;
			}
			continue;
		}
		if (st != REC_OK) {
			struct damage *d = realloc(log->damage, (log->ndamage + 1) * sizeof *d);
			if (!d)
				break;
			log->damage = d;
			d[log->ndamage].line = lineno;
			d[log->ndamage].status = st;
			d[log->ndamage].run = cur ? (int)(cur - log->runs) : -1;
			log->ndamage++;
			continue;
		}
		if (!strcmp(r->kind, RK_BEGIN)) {
			if (!(cur = new_run(log, lineno)))
				break;
		} else if (!cur) {
			/* Records before any BEGIN: the start of the run was lost. */
			if (!(cur = new_run(log, lineno)))
				break;
			snprintf(cur->why, sizeof cur->why,
				 "no BEGIN record: the log starts mid-run (line %zu)", lineno);
		}
		if (!strcmp(r->kind, RK_FAIL) && rec_get(r, RK_TESTNAME) &&
		    !strcmp(rec_get(r, RK_TESTNAME), "watchdog"))
			log->watchdog = cur->watchdog = 1;
		const char *tag = strstr(line, REC_TAG " ");
		const char *t = tag, *next;
		while ((next = strstr(t + 1, REC_TAG " ")))
			t = next;	/* the last tag, as rec_parse chose */
		size_t n = strlen(t);
		while (n && (t[n - 1] == '\r' || t[n - 1] == '\n' || t[n - 1] == ' '))
			n--;
		if (add_rec(cur, lineno, r, t, n))
			break;
	}
	log->lines = lineno;
	free(line);
	free(r);
	for (size_t i = 0; i < log->nruns; i++) {
		struct run *run = &log->runs[i];
		char keep[sizeof run->why];
		snprintf(keep, sizeof keep, "%s", run->why);
		run->why[0] = 0;
		judge(run);
		if (keep[0]) {
			run->complete = 0;
			snprintf(run->why, sizeof run->why, "%s", keep);
		}
		/* A damaged line inside a run is a lost record even if the sequence hides it; it
		 * is also the better explanation of a sequence gap, so name its line. */
		int gap = !strncmp(run->why, "records lost", 12);
		for (size_t d = 0; d < log->ndamage; d++)
			if (log->damage[d].run == (int)i && (run->complete || gap)) {
				run->complete = 0;
				snprintf(run->why, sizeof run->why, "damaged record at line %zu (%s)",
					 log->damage[d].line,
					 log->damage[d].status == REC_BAD_CRC ? "checksum mismatch"
									      : "malformed");
				break;
			}
	}
	return ferror(f) ? -1 : 0;
}

enum rec_status logrec_parse(const struct logrec *rec, struct record *r)
{
	return rec_parse(rec->text, strlen(rec->text), r);
}

int log_last_complete(const struct log *log)
{
	for (size_t i = log->nruns; i-- > 0;)
		if (log->runs[i].complete)
			return (int)i;
	return -1;
}

void log_free(struct log *log)
{
	for (size_t i = 0; i < log->nruns; i++) {
		for (size_t k = 0; k < log->runs[i].nrecs; k++)
			free(log->runs[i].recs[k].text);
		free(log->runs[i].recs);
	}
	free(log->runs);
	free(log->damage);
	memset(log, 0, sizeof *log);
}
