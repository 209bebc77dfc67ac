/* logread.h — read a console log (serial capture, terminal copy, ...) into runs.
 *
 * In: any text; lines may end in \n or \r\n, carry ANSI escapes, kernel messages before a
 * record on the same line, or be cut. Out: the runs it holds (a BEGIN starts one) with their
 * valid records in order, every damaged line with its line number, and per run a verdict:
 * complete (BEGIN, no sequence gap, records that say the possible (validate.h), END whose
 * counts match) or why not. Bytes outside
 * 0x20-0x7e (NUL, 0xFF, CR, XON/XOFF, ESC...) are noise: they separate records, never
 * hide one. A run received twice (isobench.replay=1) is one run: the better copy is kept.
 * Errors: log_read() returns -1 only when the input cannot be read; bad content is data. */
#ifndef ISOBENCH_LOGREAD_H
#define ISOBENCH_LOGREAD_H

#include "record.h"
#include <stdio.h>

struct logrec {
	size_t line;		/* 1-based line number in the log */
	uint64_t seq;
	char kind[16];
	char *text;		/* the record, from the tag up to the checksum, NUL-terminated */
};

struct damage {
	size_t line;
	int status;		/* enum rec_status */
	int run;		/* index of the run it falls in, -1 if none */
};

struct run {
	struct logrec *recs;
	size_t nrecs, cap;
	size_t first_line, last_line;
	int complete;
	int has_end;
	int powered_off;	/* the kernel's "reboot: Power down" follows the run */
	int rebooted;		/* the kernel's "reboot: Restarting system" follows it */
	int watchdog;		/* a verified FAIL test=watchdog in the run */
	int copies;		/* >1: the run was received that many times (isobench.replay=1);
				 * the best copy is the one kept */
	char why[200];		/* why not complete ("" when complete) */
	uint64_t fails, errors, results, skips;
};

struct log {
	struct run *runs;
	size_t nruns;
	struct damage *damage;
	size_t ndamage;
	size_t lines;
	int panic;		/* the kernel's "Kernel panic - not syncing" seen (outside records) */
	size_t panic_line;	/* line of the last one, 0 if none */
	size_t unpack_line;	/* line of the kernel's "Initramfs unpacking failed", 0 if none:
				 * most often a machine with too little memory for the image */
	int watchdog;		/* a verified FAIL test=watchdog record seen */
};

int log_read(FILE *f, struct log *log);
/* Why a line is damaged, in words: "checksum mismatch" (REC_BAD_CRC) or "malformed" (any other
 * status of rec_parse()): the one wording of stderr, the verdict, JSON, CSV and --follow. */
const char *log_damage_why(int status);
/* 1 when s (len bytes) starts, after blanks, as a kernel console line: "[ seconds.micro]". */
int log_kernel_line(const char *s, size_t len);
/* A record the kernel's console cut in two: printk writes to the UART between any two bytes
 * of the runner's output, so its lines can land inside a record. start (slen bytes, from a
 * record's tag, damaged) is tried whole and cut where kernel text begins in it, joined with
 * rest (rlen bytes, the record bytes after the kernel's lines) in j (slen + rlen + 1 bytes);
 * a join whose checksum holds and reaches into rest is the record (CRC-32: a wrong join
 * passes 1 time in 2^32). Returns its length in j (NUL-terminated there; *r parsed, *cut_at
 * the bytes of start used), 0 when no join holds. Used by log_read() and --follow. */
size_t log_join(const char *start, size_t slen, const char *rest, size_t rlen, char *j,
		struct record *r, size_t *cut_at);
void log_free(struct log *log);
/* Parse rec->text into r; REC_OK expected (it was checked when read). */
enum rec_status logrec_parse(const struct logrec *rec, struct record *r);
/* Index of the last complete run, or -1. */
int log_last_complete(const struct log *log);

#endif
