/* io.c — see io.h. */
#include "io.h"

#include <errno.h>
#include <poll.h>
#include <unistd.h>

/* The one write loop: write_all(), and with wait set write_all_wait() (EAGAIN waits for
 * POLLOUT and writes on). */
static int write_loop(int fd, const char *p, size_t len, int wait)
{
	while (len) {
		ssize_t n = write(fd, p, len);

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
	return write_loop(fd, buf, len, 0);
}

int write_all_wait(int fd, const void *buf, size_t len)
{
	return write_loop(fd, buf, len, 1);
}

int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
