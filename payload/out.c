/* out.c — see out.h. */
#include "out.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_FDS 8

static int fds[MAX_FDS], nfds;
static int text_fds[MAX_FDS], ntext;
static atomic_ullong *seq;
static struct out_counts counts;

int out_init(void)
{
	seq = mmap(NULL, sizeof *seq, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (seq == MAP_FAILED) {
		seq = NULL;
		return -errno;
	}
	atomic_store(seq, 0);
	return 0;
}

void out_add_fd(int fd)
{
	for (int i = 0; i < nfds; i++)
		if (fds[i] == fd)
			return;
	if (nfds < MAX_FDS)
		fds[nfds++] = fd;
}

void out_add_text_fd(int fd)
{
	if (ntext < MAX_FDS)
		text_fds[ntext++] = fd;
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void broadcast(const char *s, size_t n)
{
	for (int i = 0; i < nfds; i++)
		write_all(fds[i], s, n);
}

uint64_t out_record(struct rec_body *b)
{
	static char line[REC_MAX];
	uint64_t n = seq ? atomic_fetch_add(seq, 1) + 1 : ++counts.records;
	size_t len;

	if (b->dropped)
		rec_u64(b, "dropped_fields", (uint64_t)b->dropped);
	len = rec_seal(line, sizeof line, n, b->buf, b->len);
	if (!len)
		return 0;
	broadcast(line, len);
	counts.records = n;
	if (!strncmp(b->buf, "RESULT", 6))
		counts.results++;
	else if (!strncmp(b->buf, "FAIL", 4))
		counts.fails++;
	else if (!strncmp(b->buf, "SKIP", 4))
		counts.skips++;
	else if (!strncmp(b->buf, "ERROR", 5))
		counts.errors++;
	return n;
}

void out_text(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof buf - 1)
		n = (int)sizeof buf - 1;
	if (n > 0) {
		broadcast(buf, (size_t)n);
		for (int i = 0; i < ntext; i++)
			write_all(text_fds[i], buf, (size_t)n);
	}
}

const struct out_counts *out_counts(void)
{
	return &counts;
}
