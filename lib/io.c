/* io.c — see io.h. */
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
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
