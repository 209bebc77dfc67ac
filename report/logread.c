/* logread.c — see logread.h. */
#define _GNU_SOURCE
#include "logread.h"
#include "digest.h"
#include "validate.h"
#include "vocab.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Record bytes are printable ASCII (docs/records.md); anything else (NUL, 0xFF, CR, backspace,
 * XON/XOFF, ESC of a terminal escape) is noise between records. A line is read as the
 * maximal runs of such bytes it holds, so noise never glues itself to a record or hides
 * one, and a record with noise inside it fails its checksum and is never used. */
static int rec_byte(unsigned char c)
{
	return (c >= 0x20 && c <= 0x7e) || c == '\t';
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

static void judge(struct run *run)
{
	uint64_t expect = 1, counts[4] = {0};
	const struct logrec *end = NULL;

	run->complete = 0;
	for (size_t i = 0; i < run->nrecs; i++) {
		const struct logrec *lr = &run->recs[i];
		/* Said as what it is: a seq ahead of the next is records lost (which ones); one
		 * at or below the last is a record repeated or reordered, nothing lost. */
		if (lr->r->seq > expect && !run->why[0]) {
			char gone[48];
			snprintf(gone, sizeof gone, lr->r->seq - expect > 1 ? "seq %llu-%llu" : "seq %llu",
				 (unsigned long long)expect, (unsigned long long)lr->r->seq - 1);
			snprintf(run->why, sizeof run->why, "records lost: %s missing (line %zu has seq "
				 "%llu after seq %llu)", gone, lr->line, (unsigned long long)lr->r->seq,
				 (unsigned long long)expect - 1);
		} else if (lr->r->seq < expect && !run->why[0])
			snprintf(run->why, sizeof run->why, "a record repeated or out of order: line %zu "
				 "has seq %llu again after seq %llu", lr->line,
				 (unsigned long long)lr->r->seq, (unsigned long long)expect - 1);
		expect = lr->r->seq;
		expect++;
		if (!strcmp(lr->r->kind, RK_RESULT))
			counts[0]++;
		else if (!strcmp(lr->r->kind, RK_FAIL))
			counts[1]++;
		else if (!strcmp(lr->r->kind, RK_SKIP))
			counts[2]++;
		else if (!strcmp(lr->r->kind, RK_ERROR))
			counts[3]++;
		else if (!strcmp(lr->r->kind, RK_END))
			end = lr;
	}
	run->results = counts[0];
	run->fails = counts[1];
	run->skips = counts[2];
	run->errors = counts[3];
	run->has_end = end != NULL;
	if (run->why[0])
		return;
	/* Sealed is not sound: what the records say must be possible (validate.h). */
	if (validate_run(run, run->why, sizeof run->why))
		return;
	if (!end) {
		snprintf(run->why, sizeof run->why,
			 "no END record: the run was cut off after line %zu", run->last_line);
		return;
	}
	if (end != &run->recs[run->nrecs - 1]) {
		snprintf(run->why, sizeof run->why, "records after END (line %zu)", end->line);
		return;
	}
	/* END's counts are VT_NONNEG (validate_run() checked them): a value that is not one
	 * reads as a mismatch, never as 0. */
	static const char *const keys[] = {RK_RESULTS, RK_FAILS, RK_SKIPS, RK_ERRORS};
	const char *v = rec_get(end->r, RK_RECORDS);
	unsigned long long n;
	if (rec_get_ull(end->r, RK_RECORDS, 0, ULLONG_MAX, &n) || n != end->r->seq - 1) {
		snprintf(run->why, sizeof run->why, "END says records=%s, %llu were sent",
			 v ? v : "?", (unsigned long long)end->r->seq - 1);
		return;
	}
	for (int k = 0; k < 4; k++) {
		v = rec_get(end->r, keys[k]);
		if (rec_get_ull(end->r, keys[k], 0, ULLONG_MAX, &n) || n != counts[k]) {
			snprintf(run->why, sizeof run->why, "END says %s=%s, the log holds %llu",
				 keys[k], v ? v : "?", (unsigned long long)counts[k]);
			return;
		}
	}
	run->complete = 1;
}

static int lowhex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* Find a record in seg: the last tag up to the segment's end (rec_parse's rule); or else,
 * as noise may follow a record on the same line ("...*1a2b3c4djunk"), each tag (last first)
 * up to the first " *" and eight hex digits after it — a record's own checksum, since values
 * hold no space and keys no '*' — if that checksum holds. Linear in the segment.
 * Out: start and rlen, the record's text. */
static enum rec_status find_record(const char *seg, size_t len, struct record *r,
				   const char **start, size_t *rlen)
{
	const size_t tl = strlen(REC_TAG);
	enum rec_status st = rec_parse(seg, len, r);
	const char *end = seg + len;

	if (st == REC_NONE)
		return st;
	for (const char *p = end; p > seg;) {
		const char *tag = NULL;
		for (const char *q = p - 1; q >= seg && !tag; q--)	/* the last tag before p */
			if (*q == '@' && q + tl < end && !memcmp(q, REC_TAG, tl) && q[tl] == ' ' &&
			    (q + tl < p || p == end))
				tag = q;
		if (!tag)
			break;
		if (p == end) {
			*start = tag;
			*rlen = len - (size_t)(tag - seg);
			if (st == REC_OK)
				return st;
		}
		/* Its checksum lies before the next tag (p), if the record is whole. */
		for (const char *c = tag + tl; c + 10 <= end && c < p; c++) {
			if (c[0] != ' ' || c[1] != '*')
				continue;
			int hex = 1;
			for (int k = 2; k < 10; k++)
				hex &= lowhex(c[k]);
			if (hex && rec_parse(tag, (size_t)(c + 10 - tag), r) == REC_OK) {
				*start = tag;
				*rlen = (size_t)(c + 10 - tag);
				return REC_OK;
			}
			break;
		}
		p = tag;
	}
	return st;
}

/* One run of record bytes from line lineno: a record (added to the current run, or a new
 * one at BEGIN), a damaged record (noted), or nothing. -1: no memory. */
static int segment(struct log *log, struct run **curp, struct record *r, const char *seg,
		   size_t len, size_t lineno)
{
	struct run *cur = *curp;
	const char *t = NULL;
	size_t n = 0;
	enum rec_status st = find_record(seg, len, r, &t, &n);

	if (st == REC_NONE)
		return 0;
	if (st != REC_OK) {
		struct damage *d = realloc(log->damage, (log->ndamage + 1) * sizeof *d);
		if (!d)
			return -1;
		log->damage = d;
		d[log->ndamage].line = lineno;
		d[log->ndamage].status = st;
		d[log->ndamage].run = cur ? (int)(cur - log->runs) : -1;
		log->ndamage++;
		return 0;
	}
	if (!strcmp(r->kind, RK_BEGIN)) {
		if (!(cur = new_run(log, lineno)))
			return -1;
	} else if (!cur) {
		/* Records before any BEGIN: the start of the run was lost. */
		if (!(cur = new_run(log, lineno)))
			return -1;
		snprintf(cur->why, sizeof cur->why,
			 "no BEGIN record: the log starts mid-run (line %zu)", lineno);
	}
	*curp = cur;
	if (!strcmp(r->kind, RK_FAIL) && rec_get(r, RK_TESTNAME) &&
	    !strcmp(rec_get(r, RK_TESTNAME), REC_WATCHDOG))
		log->watchdog = cur->watchdog = 1;
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
		n--;
	return log_add(cur, lineno, r, t, n);	/* the line's one decode, kept */
}

/* 1 if run b holds a's first record, byte for byte (same sequence number, same checksum):
 * b is a copy of the run a belongs to (isobench.replay=1 sends every record again). */
static int same_run(const struct run *a, const struct run *b)
{
	if (!a->nrecs)
		return 0;
	for (size_t k = 0; k < b->nrecs; k++)
		if (b->recs[k].r->seq == a->recs[0].r->seq)
			return !strcmp(b->recs[k].r->line, a->recs[0].r->line);
	return 0;
}

/* 1 if every record of a is in b, byte for byte (b's sequence numbers ascend in a valid
 * run, but the lookup does not rely on it). */
static int subset(const struct run *a, const struct run *b)
{
	for (size_t i = 0; i < a->nrecs; i++) {
		size_t k;
		for (k = 0; k < b->nrecs; k++)
			if (b->recs[k].r->seq == a->recs[i].r->seq &&
			    !strcmp(b->recs[k].r->line, a->recs[i].r->line))
				break;
		if (k == b->nrecs)
			return 0;
	}
	return 1;
}

/* A replayed run is one run: keep the better copy (complete before incomplete, then the
 * one with more records) in the first copy's place, and drop the other — only when every
 * record of the dropped copy is in the kept one, so that folding never hides a record. */
static void fold_replays(struct log *log)
{
	for (size_t j = 1; j < log->nruns; j++) {
		size_t a;
		for (a = 0; a < j && !same_run(&log->runs[a], &log->runs[j]) &&
			    !same_run(&log->runs[j], &log->runs[a]);
		     a++)
			;
		if (a == j)
			continue;
		struct run *A = &log->runs[a], *B = &log->runs[j];
		int take_b = (B->complete && !A->complete) ||
			     (B->complete == A->complete && B->nrecs > A->nrecs);
		if (!(take_b ? subset(A, B) : subset(B, A)))
			continue;	/* the copies disagree: two runs, as read */
		int copies = (A->copies ? A->copies : 1) + 1;
		if (take_b) {
			size_t first = A->first_line;
			log_run_free(A);
			*A = *B;
			A->first_line = first;
		} else {
			A->last_line = B->last_line > A->last_line ? B->last_line : A->last_line;
			A->powered_off |= B->powered_off;
			A->halted |= B->halted;
			log_run_free(B);
		}
		A->copies = copies;
		for (size_t d = 0; d < log->ndamage; d++) {
			int *r = &log->damage[d].run;
			if (*r == (int)j)
				*r = A->complete ? -1 : (int)a;
			else if (*r > (int)j)
				(*r)--;
		}
		memmove(&log->runs[j], &log->runs[j + 1], (log->nruns - j - 1) * sizeof *log->runs);
		log->nruns--;
		j--;
	}
}

/* 1 when line[from, len) holds a record byte (a segment follows on the line). */
static int more_bytes(const char *line, ssize_t from, ssize_t len)
{
	for (ssize_t i = from; i < len; i++)
		if (rec_byte((unsigned char)line[i]))
			return 1;
	return 0;
}

int log_kernel_line(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && s[i] == ' ')
		i++;
	if (i >= len || s[i++] != '[')
		return 0;
	while (i < len && s[i] == ' ')
		i++;
	size_t d = i;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == d || i >= len || s[i++] != '.')
		return 0;
	d = i;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	return i > d && i < len && s[i] == ']';
}

int log_kernel_between(const char *s, size_t len)
{
	return log_kernel_line(s, len) && !memmem(s, len, REC_TAG, strlen(REC_TAG));
}

size_t log_join(const char *start, size_t slen, const char *rest, size_t rlen, char *j,
		struct record *r, size_t *cut_at)
{
	for (size_t cut = slen + 1; cut-- > 0;) {
		if (cut < slen && (start[cut] != '[' || !log_kernel_line(start + cut, slen - cut)))
			continue;
		memcpy(j, start, cut);
		memcpy(j + cut, rest, rlen);
		j[cut + rlen] = 0;
		const char *t = NULL;
		size_t n = 0;
		if (find_record(j, cut + rlen, r, &t, &n) != REC_OK || t != j || n <= cut)
			continue;
		j[n] = 0;
		*cut_at = cut;
		return n;
	}
	return 0;
}

/* A record the kernel's console cut in two (log_join()): its start ended line pend_line
 * (damaged, the last entry of log->damage) and seg, the first record bytes of line, joins
 * it: the damage note is dropped, the record added, and what follows it in seg is read as
 * usual. 1 when joined, 0 when not, -1: no memory. */
static int rejoin(struct log *log, struct run **cur, struct record *r, const char *pend,
		  size_t plen, const char *seg, size_t len, size_t pend_line, size_t line)
{
	char *j = malloc(plen + len + 1);
	size_t cut = 0, n = j ? log_join(pend, plen, seg, len, j, r, &cut) : 0;
	int done = 0;

	if (!j)
		return -1;
	if (n) {
		log->ndamage--;	/* not damaged after all */
		done = segment(log, cur, r, j, n, pend_line) ||
		       (n < cut + len && segment(log, cur, r, seg + (n - cut), cut + len - n,
						 line)) ? -1 : 1;
	}
	free(j);
	return done;
}

/* A damaged record that ended its line (its start: text, len bytes, on line), and how many
 * kernel lines came since: rejoin() may mend it with the next record bytes. */
struct pending {
	char *text;
	size_t len, line, kernel;
};

/* The record bytes of line (len bytes, number lineno) as segments, each read by segment()
 * or, the first one after a pending start, by rejoin(). -1: no memory. */
static int line_segments(struct log *log, struct run **cur, struct record *r, char *line,
			 ssize_t len, size_t lineno, struct pending *pd)
{
	const size_t tl = strlen(REC_TAG);
	int first = 1;

	for (ssize_t i = 0; i < len; first = 0) {
		while (i < len && !rec_byte((unsigned char)line[i]))
			i++;
		ssize_t s0 = i;
		while (i < len && rec_byte((unsigned char)line[i]))
			i++;
		if (i == s0)
			continue;
		line[i] = 0;	/* a noise byte (or getline's NUL): the segment ends here */
		const char *sg = line + s0;
		size_t sl = (size_t)(i - s0), nd = log->ndamage;
		if (pd->text && first && log_kernel_between(sg, sl) && pd->kernel++ < 4)
			continue;	/* the kernel's line between the two halves */
		int joined = pd->text && first ? rejoin(log, cur, r, pd->text, pd->len, sg, sl,
							pd->line, lineno) : 0;
		free(pd->text);
		pd->text = NULL;
		if (joined < 0 || (!joined && segment(log, cur, r, sg, sl, lineno)))
			return -1;
		const char *tag = joined ? NULL : memmem(sg, sl, REC_TAG, tl);
		if (!tag || log->ndamage == nd || more_bytes(line, i + 1, len))
			continue;	/* a start is kept only when damaged at the line's end */
		for (const char *q; (q = memmem(tag + 1, sl - (size_t)(tag + 1 - sg), REC_TAG, tl));)
			tag = q;
		pd->len = sl - (size_t)(tag - sg);
		if (!(pd->text = malloc(pd->len)))
			return -1;
		memcpy(pd->text, tag, pd->len);
		pd->line = lineno;
		pd->kernel = 0;
	}
	return 0;
}

/* Run i and its digest (digest.h), after judge(): in a whole run the digest must hold too
 * and restate what the run holds;
 * a run whose head was cut (no BEGIN) is replaced by the run its digest restates when that
 * digest is whole and the run it restates complete, and says why not when it is not: results
 * never come from a damaged digest. Runs without a digest are left as they are. -1: no
 * memory. */
static int use_digest(struct log *log, size_t i)
{
	struct run *run = &log->runs[i], x;
	char why[sizeof run->why];
	int cut = !strncmp(run->why, "no BEGIN record", 15);

	if (!cut && !run->complete)
		return 0;
	int rc = digest_expand(log, i, &x, why, sizeof why);
	if (rc == -2)
		return -1;
	if (rc == 1) {
		judge(&x);
		if (!x.complete)
			snprintf(why, sizeof why, "the digest is damaged: what it restates is not a "
				 "complete run: %.120s", x.why);
		rc = x.complete ? 1 : -1;
		if (rc == 1 && !cut)	/* a whole log: what it restates must be what it holds */
			rc = digest_agrees(run, &x, why, sizeof why);
		else if (rc == 1 && (rc = digest_restates(run, &x, why, sizeof why)) == 0)
			rc = 1;	/* a cut one: what it holds is restated */
		if (rc == -2) {
			log_run_free(&x);
			return -1;
		}
		if (rc != 1 || !cut)
			log_run_free(&x);
	}
	if (rc < 0) {
		run->complete = 0;
		snprintf(run->why, sizeof run->why, "%s", why);
	} else if (rc == 1 && cut) {
		/* What the log itself holds of the run, for the verdict to say what was lost: its
		 * first record's seq and line, and its SAMPLEs (all there when only BEGIN is). */
		uint64_t first = run->nrecs ? run->recs[0].r->seq : 0;
		size_t first_line = run->nrecs ? run->recs[0].line : 0, samples = 0;
		for (size_t k = 0; k < run->nrecs; k++)
			samples += !strcmp(run->recs[k].r->kind, RK_SAMPLE);
		log_run_free(run);
		*run = x;
		run->from_digest = 1;
		run->head_seq = first;
		run->head_line = first_line;
		run->head_samples = samples;
	}
	return 0;
}

/* qemu/run's header lines (log.h struct run host_cache): a boot's first line, and its
 * scratch lines with a cache mode other than none or a file on tmpfs/ramfs, by line. */
struct hostline {
	size_t line;
	int boot;		/* 1: "# qemu/run: QEMU emulator ..." (a boot's header starts) */
	char text[160];		/* scratch lines: "scratchN cache=MODE", "scratchN fs=tmpfs (...)" */
};

#define QR_PREFIX "# qemu/run: "

/* Line (len bytes) as a hostline into *h: 1 when it is one of the two kinds, else 0. */
static int host_line(const char *line, size_t len, size_t lineno, struct hostline *h)
{
	size_t pl = sizeof QR_PREFIX - 1;

	if (len < pl || memcmp(line, QR_PREFIX, pl))
		return 0;
	h->line = lineno;
	h->boot = len >= pl + 13 && !memcmp(line + pl, "QEMU emulator", 13);
	h->text[0] = 0;
	if (h->boot)
		return 1;
	if (len < pl + 7 || memcmp(line + pl, "scratch", 7))
		return 0;
	const char *c = memmem(line, len, " cache=", 7);
	if (!c)
		return 0;
	c += 7;
	size_t n = 0;
	while (c + n < line + len && c[n] != ' ' && c[n] != '\n' && c[n] != '\r')
		n++;
	size_t w = 0;
	while (line[pl + w] != ' ' && pl + w < len)
		w++;
	/* A file on tmpfs or ramfs is the host's memory (shmem's pages are page cache) whatever
	 * the cache mode: a host kernel whose tmpfs takes O_DIRECT (Linux 6.6 on) let qemu/run
	 * keep cache=none there. */
	const char *fs = memmem(line, len, " fs=", 4);
	if (fs && (!strncmp(fs + 4, "tmpfs ", 6) || !strncmp(fs + 4, "ramfs ", 6))) {
		snprintf(h->text, sizeof h->text, "%.*s fs=%.5s (a file in the host's memory, "
			 "whatever the cache mode: put it on a disk)", (int)w, line + pl, fs + 4);
		return 1;
	}
	if (n == 4 && !memcmp(c, "none", 4))
		return 0;
	snprintf(h->text, sizeof h->text, "%.*s cache=%.*s", (int)w, line + pl, (int)n, c);
	return 1;
}

/* Each run's host_cache from the header lines hl (n, in line order) before it. */
static void host_caches(struct log *log, const struct hostline *hl, size_t n)
{
	for (size_t i = 0; i < log->nruns; i++) {
		struct run *run = &log->runs[i];
		size_t start = 0;
		run->host_cache[0] = 0;
		for (size_t k = 0; k < n && hl[k].line < run->first_line; k++)
			if (hl[k].boot)
				start = hl[k].line;
		for (size_t k = 0; k < n && hl[k].line < run->first_line; k++)
			if (!hl[k].boot && hl[k].line > start && !run->host_cache[0])
				snprintf(run->host_cache, sizeof run->host_cache, "%s", hl[k].text);
	}
}

int log_read(FILE *f, struct log *log)
{
	struct hostline *hl = NULL, h;
	size_t nhl = 0;
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	struct record *r = malloc(sizeof *r);
	struct run *cur = NULL;

	memset(log, 0, sizeof *log);
	if (!r)
		return -1;
	struct pending pd = {0};
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		/* The kernel's own words (kernel/panic.c), not any text naming a panic. */
		if (memmem(line, (size_t)len, "Kernel panic - not syncing", 26)) {
			log->panic = 1;
			log->panic_line = lineno;
		}
		/* init/initramfs.c's words when the archive cannot be unpacked (no room). */
		if (memmem(line, (size_t)len, "Initramfs unpacking failed", 26))
			log->unpack_line = lineno;
		if (cur && memmem(line, (size_t)len, "reboot: Power down", 18))
			cur->powered_off = 1;
		if (cur && memmem(line, (size_t)len, "reboot: Restarting system", 25))
			cur->rebooted = 1;
		if (host_line(line, (size_t)len, lineno, &h)) {
			struct hostline *n = realloc(hl, (nhl + 1) * sizeof *n);
			if (!n)
				goto oom;
			hl = n;
			hl[nhl++] = h;
		}
		if (cur && memmem(line, (size_t)len, "reboot: System halted", 21))
			cur->halted = 1;
		if (line_segments(log, &cur, r, line, len, lineno, &pd))
			goto oom;
	}
oom:
	free(pd.text);
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
					 log_damage_why(log->damage[d].status));
				break;
			}
		if (use_digest(log, i)) {
			log->lines = lineno;
			free(hl);
			return -1;
		}
	}
	fold_replays(log);
	host_caches(log, hl, nhl);
	free(hl);
	return ferror(f) ? -1 : 0;
}
