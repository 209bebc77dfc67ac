/* out.h — where records and human text go: every console the run writes to.
 * Each record is sealed with the next sequence number (a counter in shared memory, so the
 * watchdog process continues the same sequence) and written with one write(2) per fd. */
#ifndef ISOBENCH_OUT_H
#define ISOBENCH_OUT_H

#include "record.h"

struct out_counts {
	uint64_t records, results, fails, skips, errors;
};

int out_init(void);		/* 0, or -errno if the shared counter cannot be mapped */
void out_add_fd(int fd);
/* An fd that receives human text (progress, tables, warnings) but no records. */
void out_add_text_fd(int fd);
uint64_t out_record(struct rec_body *b);	/* returns the sequence number used */
void out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const struct out_counts *out_counts(void);
int write_all(int fd, const void *buf, size_t len);

#endif
