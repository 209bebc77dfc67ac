/* io.c — see io.h. */
#include "io.h"
#include "num.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <unistd.h>

/* The one whole-buffer loop: read (wr 0) or write (wr 1) len bytes at p; with wait, a write
 * that would block (EAGAIN) waits in poll(2) for POLLOUT and goes on. */
static int all(int fd, char *p, size_t len, int wr, int wait)
{
	while (len) {
		ssize_t n = wr ? write(fd, p, len) : read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && wait && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd pf = {.fd = fd, .events = POLLOUT};
			if (poll(&pf, 1, -1) < 0 && errno != EINTR)
				return -errno;
			continue;
		}
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_all(int fd, const void *buf, size_t len)
{
	return all(fd, (char *)buf, len, 1, 0);	/* written from, never into */
}

int write_all_wait(int fd, const void *buf, size_t len)
{
	return all(fd, (char *)buf, len, 1, 1);
}

int read_all(int fd, void *buf, size_t len)
{
	return all(fd, buf, len, 0, 0);
}

ssize_t read_file(const char *path, void *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	int e = 0;

	if (fd < 0)
		return -errno;
	while (got < cap) {
		ssize_t n = read(fd, (char *)buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			e = errno;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return got || !e ? (ssize_t)got : -e;
}

ssize_t read_file_str(const char *path, char *buf, size_t cap)
{
	ssize_t n = read_file(path, buf, cap - 1);

	buf[n > 0 ? n : 0] = 0;
	return n;
}

/* The blanks read_line() and kv_get() trim. */
static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* s[0..n) without its blanks at both ends into out (cap >= 1 bytes, cut to cap - 1). Returns
 * the trimmed length before the cut (as snprintf(3): >= cap when it was cut). */
static size_t trimmed(const char *s, size_t n, char *out, size_t cap)
{
	size_t whole;

	while (n && blank(*s))
		s++, n--;
	while (n && blank(s[n - 1]))
		n--;
	whole = n;
	if (n >= cap)
		n = cap - 1;
	memmove(out, s, n);
	out[n] = 0;
	return whole;
}

ssize_t read_line(const char *path, char *buf, size_t cap)
{
	ssize_t n = read_file_str(path, buf, cap);

	if (n < 0)
		return n;
	trimmed(buf, strcspn(buf, "\n"), buf, cap);
	return (ssize_t)strlen(buf);
}

/* The value of text's first line matching key and sep (io.h), untrimmed: its start, its length
 * up to the line's end in *len; NULL when no line matches. */
static const char *kv_find(const char *text, const char *key, char sep, size_t *len)
{
	size_t kl = strlen(key);

	for (const char *l = text; *l; l += strcspn(l, "\n"), l += *l == '\n') {
		const char *p = l + kl;
		if (strncmp(l, key, kl))
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (sep == ' ' ? p == l + kl : *p++ != sep)
			continue;
		*len = strcspn(p, "\n");
		return p;
	}
	return NULL;
}

int kv_get(const char *text, const char *key, char sep, char *out, size_t cap)
{
	size_t n;
	const char *p = kv_find(text, key, sep, &n);

	out[0] = 0;
	if (!p)
		return -ENOENT;
	trimmed(p, n, out, cap);
	return 0;
}

/* The first KV_FILE_MAX bytes of the file at path as a string, into *text (malloc'd; the
 * caller frees it), without a last line that goes on past them (cut, it could read as another
 * value: "pgfault 12345" as "pgfault 12"). Returns 0, or -errno of read_file() / -ENOMEM
 * (*text NULL). */
static int kv_file(const char *path, char **text)
{
	ssize_t n;

	*text = malloc(KV_FILE_MAX + 2);
	if (!*text)
		return -ENOMEM;
	n = read_file_str(path, *text, KV_FILE_MAX + 2);	/* one byte more: is there more? */
	if (n < 0) {
		free(*text);
		*text = NULL;
		return (int)n;
	}
	if (n > KV_FILE_MAX) {		/* the line at the end is whole only when that byte ends it */
		size_t end = KV_FILE_MAX + 1;
		while (end && (*text)[end - 1] != '\n')
			end--;
		(*text)[end] = 0;
	}
	return 0;
}

int read_kv(const char *path, const char *key, char sep, char *out, size_t cap)
{
	char *text;
	int r = kv_file(path, &text);

	out[0] = 0;
	if (r)
		return r;
	r = kv_get(text, key, sep, out, cap);
	free(text);
	return r;
}

int kv_ll(const char *text, const char *key, char sep, const char *unit, long long *out)
{
	char v[64];
	size_t n, ul = unit ? strlen(unit) : 0;
	const char *p = kv_find(text, key, sep, &n);

	if (!p)
		return -ENOENT;
	if (trimmed(p, n, v, sizeof v) >= sizeof v)
		return -EINVAL;		/* longer than any long long and its unit: no cut figure */
	n = strlen(v);
	if (unit) {
		if (n < ul + 2 || v[n - ul - 1] != ' ' || strcmp(v + n - ul, unit))
			return -EINVAL;
		v[n - ul - 1] = 0;
	}
	return num_ll(v, 0, LLONG_MIN, LLONG_MAX, out);
}

int read_kv_ll(const char *path, const char *key, char sep, const char *unit, long long *out)
{
	char *text;
	int r = kv_file(path, &text);

	if (r)
		return r;
	r = kv_ll(text, key, sep, unit, out);
	free(text);
	return r;
}

char *io_quote(char *out, size_t cap, const void *in, size_t len)
{
	const unsigned char *b = in;
	size_t o = 0;

	if (!cap)
		return out;
	for (size_t i = 0; i < len; i++) {
		char one[5];
		int n = b[i] == '\\' || b[i] == '\'' ? snprintf(one, sizeof one, "\\%c", b[i])
			: b[i] >= 0x20 && b[i] < 0x7f ? snprintf(one, sizeof one, "%c", b[i])
			: snprintf(one, sizeof one, "\\x%02x", b[i]);
		if (o + (size_t)n + (i + 1 < len ? 3 : 0) >= cap) {
			snprintf(out + o, cap - o, "%s", cap - o > 3 ? "..." : "");
			return out;
		}
		memcpy(out + o, one, (size_t)n);
		o += (size_t)n;
	}
	out[o] = 0;
	return out;
}

int split_fields(char *s, char **f, int max)
{
	int n = 0;

	while (n < max) {
		s += strspn(s, " \t\n\r");
		if (!*s)
			break;
		f[n++] = s;
		s += strcspn(s, " \t\n\r");
		if (*s)
			*s++ = 0;
	}
	return n;
}
