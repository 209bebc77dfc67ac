/* http.c — see http.h. */
#define _GNU_SOURCE
#include "http.h"
#include "../sys.h"
#include "io.h"
#include "num.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

/* The status line and header lines together: at most this many bytes. */
#define HTTP_HEAD_MAX 4096

#define FAIL(code, ...) do { snprintf(err, errlen, __VA_ARGS__); return -(code); } while (0)

/* The monotonic clock in milliseconds (sys.h's now_ns()). */
static long long mono_ms(void)
{
	return (long long)(now_ns() / 1000000);
}

/* Wait until fd is ready for events or the deadline (mono_ms()) passes: 0, -ETIMEDOUT, or
 * -errno. */
static int wait_fd(int fd, short events, long long deadline)
{
	for (;;) {
		long long left = deadline - mono_ms();
		struct pollfd p = {.fd = fd, .events = events};
		if (left <= 0)
			return -ETIMEDOUT;
		int r = poll(&p, 1, (int)left);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

/* A non-blocking TCP socket connected to ip:port before the deadline: fd, or -errno. */
static int connect_to(const char *ip, int port, long long deadline)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	int e = 0;
	socklen_t el = sizeof e;

	if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1)
		return -EINVAL;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) && errno != EINPROGRESS) {
		e = errno;
		close(fd);
		return -e;
	}
	int r = wait_fd(fd, POLLOUT, deadline);
	if (r || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) || e) {
		close(fd);
		return r ? r : -(e ? e : EIO);
	}
	return fd;
}

/* Send all of buf before the deadline: 0 or -errno. */
static int send_all(int fd, const char *buf, size_t len, long long deadline)
{
	while (len) {
		int r = wait_fd(fd, POLLOUT, deadline);
		if (r)
			return r;
		ssize_t k = send(fd, buf, len, MSG_NOSIGNAL);
		if (k < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (k > 0) {
			buf += k;
			len -= (size_t)k;
		}
	}
	return 0;
}

/* The value of header name (with its ':') among the header lines head..end, into out (cap
 * bytes, blanks trimmed); "" when absent. */
static void header(const char *head, const char *name, char *out, size_t cap)
{
	size_t n = strlen(name);

	out[0] = 0;
	for (const char *l = strchr(head, '\n'); l; l = strchr(l, '\n')) {
		l++;
		if (strncasecmp(l, name, n))
			continue;
		l += n;
		l += strspn(l, " \t");
		size_t k = strcspn(l, "\r\n");
		while (k && (l[k - 1] == ' ' || l[k - 1] == '\t'))
			k--;
		snprintf(out, cap, "%.*s", (int)k, l);
		return;
	}
}

/* Chunked transfer coding (RFC 9112 7.1) of b (n bytes) decoded in place: the body's length,
 * or -1 when a chunk is cut or malformed. Chunk extensions and trailers are skipped. */
static long unchunk(char *b, size_t n)
{
	size_t in = 0, out = 0;

	for (;;) {
		char hex[24] = "0x";	/* chunk-size: 1*HEXDIG, read by num.h as "0x..." */
		size_t h = strspn(b + in, "0123456789abcdefABCDEF");
		unsigned long long sz;
		if (!h || h > sizeof hex - 3)
			return -1;
		memcpy(hex + 2, b + in, h);
		hex[2 + h] = 0;
		if (num_ull(hex, NUM_HEX, 0, SIZE_MAX, &sz))
			return -1;
		char *end = b + in + h;
		char *eol = memchr(end, '\n', n - (size_t)(end - b));
		if (!eol)
			return -1;
		in = (size_t)(eol - b) + 1;
		if (sz == 0)
			return (long)out;
		if (sz > n - in || n - in - sz < 2)
			return -1;
		memmove(b + out, b + in, sz);
		out += sz;
		in += sz;
		in += b[in] == '\r' ? 2 : 1;
	}
}

/* Read the answer (at most cap bytes into buf, NUL-terminated) until the connection's end,
 * or until a Content-Length's body is complete. Its length, or -errno. */
static long read_answer(int fd, char *buf, size_t cap, long long deadline)
{
	size_t n = 0;

	for (;;) {
		int r = wait_fd(fd, POLLIN, deadline);
		if (r)
			return r;
		if (n + 1 >= cap)
			return -EFBIG;
		ssize_t k = recv(fd, buf + n, cap - 1 - n, 0);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		n += (size_t)k;
		buf[n] = 0;
		char *eoh = strstr(buf, "\r\n\r\n"), cl[24];
		if (!eoh)
			continue;
		header(buf, "Content-Length:", cl, sizeof cl);
		unsigned long long want;	/* no byte count: read no more (the answer is refused) */
		if (cl[0] && (num_ull(cl, 0, 0, ULLONG_MAX, &want) ||
			      n >= (size_t)(eoh + 4 - buf) + want))
			break;
	}
	buf[n] = 0;
	return (long)n;
}

/* The status code of the status line at buf (n bytes): "HTTP/1.0" or "HTTP/1.1", one space,
 * three digits 100-599, then a space or the line's end (RFC 9112 section 4). Returns it, or
 * -1 when buf begins no such line. */
static int status_code(const char *buf, size_t n)
{
	char code[4];
	long long st;
	if (n < 13 || strncmp(buf, "HTTP/1.", 7) || (buf[7] != '0' && buf[7] != '1') ||
	    buf[8] != ' ' || (buf[12] != ' ' && buf[12] != '\r'))
		return -1;
	memcpy(code, buf + 9, 3);
	code[3] = 0;
	return num_ll(code, 0, 100, 599, &st) ? -1 : (int)st;
}

/* The answer in buf (n bytes) into a and body (cap bytes): 0 or -errno with err. */
static int parse_answer(char *buf, size_t n, char *body, size_t cap, struct http_answer *a,
			char *err, size_t errlen)
{
	char *eoh = strstr(buf, "\r\n\r\n"), v[48];
	int st = status_code(buf, n);

	char q[100];

	if (st < 0)	/* its first bytes as they came (a NUL is \x00: io.h) */
		FAIL(EPROTO, "not an HTTP answer (it begins '%s')", io_quote(q, sizeof q, buf,
									   n < 20 ? n : 20));
	if (!eoh)
		FAIL(EPROTO, "the HTTP answer's header is cut");
	*eoh = 0;
	a->status = st;
	header(buf, "Metadata-Flavor:", a->flavor, sizeof a->flavor);
	char *b = eoh + 4;
	size_t len = n - (size_t)(b - buf);
	header(buf, "Transfer-Encoding:", v, sizeof v);
	if (strcasestr(v, "chunked")) {
		long l = unchunk(b, len);
		if (l < 0)
			FAIL(EPROTO, "a chunk of the body is cut or malformed");
		len = (size_t)l;
	} else {
		unsigned long long want;
		header(buf, "Content-Length:", v, sizeof v);
		if (v[0] && num_ull(v, 0, 0, ULLONG_MAX, &want))
			FAIL(EPROTO, "the Content-Length '%s' is no byte count", v);
		if (v[0] && want != len)
			FAIL(EPROTO, "the body is cut: %zu of %s bytes", len, v);
	}
	if (len >= cap)
		FAIL(EFBIG, "the body is %zu bytes, more than %zu", len, cap - 1);
	memcpy(body, b, len);
	body[len] = 0;
	a->body = body;
	a->len = len;
	return 0;
}

int http_request(const char *method, const char *ip, int port, const char *host, const char *path,
		 const char *headers, char *body, size_t cap, struct http_answer *a,
		 int timeout_ms, char *err, size_t errlen)
{
	long long deadline = mono_ms() + timeout_ms;
	size_t bufcap = cap + HTTP_HEAD_MAX;
	char req[1024];
	int r;

	memset(a, 0, sizeof *a);
	int len = snprintf(req, sizeof req, "%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: isobench\r\n"
			   "Accept: */*\r\n%sContent-Length: 0\r\nConnection: close\r\n\r\n",
			   method, path, host, headers);
	if (len < 0 || (size_t)len >= sizeof req)
		FAIL(EINVAL, "request too long");
	int fd = connect_to(ip, port, deadline);
	if (fd < 0)
		FAIL(-fd, "connect to %s:%d: %s", ip, port, fd == -ETIMEDOUT ?
		     "no answer within the time allowed" : strerror(-fd));
	char *buf = malloc(bufcap);
	if (!buf) {
		close(fd);
		FAIL(ENOMEM, "out of memory");
	}
	r = send_all(fd, req, (size_t)len, deadline);
	long n = r ? r : read_answer(fd, buf, bufcap, deadline);
	close(fd);
	if (n < 0) {
		free(buf);
		if (n == -EFBIG)
			FAIL(EFBIG, "the answer is larger than %zu bytes", bufcap - 1);
		FAIL(-n, "%s %s: %s", method, path, n == -ETIMEDOUT ?
		     "no complete answer within the time allowed" : strerror((int)-n));
	}
	r = parse_answer(buf, (size_t)n, body, cap, a, err, errlen);
	free(buf);
	return r;
}

long http_base64_decode(char *s, size_t len)
{
	static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned acc = 0;
	int bits = 0;
	size_t out = 0;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		if (c == '=')
			break;
		const char *p = c ? strchr(al, c) : NULL;
		if (!p)
			return -EPROTO;
		acc = acc << 6 | (unsigned)(p - al);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			s[out++] = (char)(acc >> bits & 0xff);
		}
	}
	s[out] = 0;
	return (long)out;
}
