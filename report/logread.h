/* logread.h — read a console log (serial capture, terminal copy, ...) into runs.
 *
 * In: any text; lines may end in \n or \r\n, carry ANSI escapes, kernel messages before a
 * record on the same line, or be cut. Out (log.h's struct log): the runs it holds (a BEGIN
 * starts one) with their valid records in order, every damaged line with its line number,
 * and per run a verdict: complete (BEGIN, no sequence gap, records that say the possible
 * (validate.h), END whose counts match) or why not. Bytes outside 0x20-0x7e (NUL, 0xFF, CR,
 * XON/XOFF, ESC...) are noise: they separate records, never hide one. A run received twice
 * (isobench.replay=1) is one run: the better copy is kept.
 * Errors: log_read() returns -1 only when the input cannot be read; bad content is data. */
#ifndef ISOBENCH_LOGREAD_H
#define ISOBENCH_LOGREAD_H

#include "log.h"
#include "record.h"
#include <stdio.h>

int log_read(FILE *f, struct log *log);
/* 1 when s (len bytes) starts, after blanks, as a kernel console line: "[ seconds.micro]". */
int log_kernel_line(const char *s, size_t len);
/* 1 when s (len bytes) is a kernel console line that holds no record tag: a line that may
 * sit between the two halves of a record the console cut (log_join()), and is passed over
 * while the first half waits. A kernel line that holds a tag is read for its record (a
 * record written after the kernel's text on one line is never skipped with it). */
int log_kernel_between(const char *s, size_t len);
/* A record the kernel's console cut in two: printk writes to the UART between any two bytes
 * of the runner's output, so its lines can land inside a record. start (slen bytes, from a
 * record's tag, damaged) is tried whole and cut where kernel text begins in it, joined with
 * rest (rlen bytes, the record bytes after the kernel's lines) in j (slen + rlen + 1 bytes);
 * a join whose checksum holds and reaches into rest is the record (CRC-32: a wrong join
 * passes 1 time in 2^32). Returns its length in j (NUL-terminated there; *r parsed, *cut_at
 * the bytes of start used), 0 when no join holds. Used by log_read() and --follow. */
size_t log_join(const char *start, size_t slen, const char *rest, size_t rlen, char *j,
		struct record *r, size_t *cut_at);

#endif
