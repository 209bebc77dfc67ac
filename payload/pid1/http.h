/* http.h — the smallest HTTP/1.1 client the instance metadata services need (cloud.c): one
 * request per TCP connection to an IPv4 address, port 80, over plain sockets. Bounded: the
 * whole exchange (connect, send, the answer to its last byte) within a deadline, the body
 * within a size cap; a body sent by Content-Length, chunked, or up to the connection's end. */
#ifndef ISOBENCH_PID1_HTTP_H
#define ISOBENCH_PID1_HTTP_H

#include <stddef.h>

/* What a request gives back. */
struct http_answer {
	int status;		/* the status line's code (200, 404, ...) */
	char *body;		/* NUL-terminated; the caller's buffer */
	size_t len;		/* the body's bytes (without the NUL) */
	char flavor[32];	/* the Metadata-Flavor header's value ("" absent): Google's mark */
};

/* method (GET, PUT) path (starting with '/') on ip (dotted IPv4) port (80 for the metadata
 * services), with Host: host
 * and the extra header lines in headers ("Name: value\r\n" each, "" none); the body into
 * body (cap bytes, the last for the NUL) and the answer's facts into *a, within timeout_ms
 * in all. Returns 0 (an answer of any status), or -errno with why in err: -ETIMEDOUT (the
 * deadline passed), -EFBIG (a body of cap bytes or more: never cut), -EPROTO (no HTTP
 * answer: garbage, a cut header or chunk), or the socket's error (-ECONNREFUSED, ...). */
int http_request(const char *method, const char *ip, int port, const char *host, const char *path,
		 const char *headers, char *body, size_t cap, struct http_answer *a,
		 int timeout_ms, char *err, size_t errlen);

/* Decode base64 (RFC 4648; white space skipped, '=' padding optional) in place in s (len
 * bytes); returns the decoded length, or -EPROTO when s holds another character. */
long http_base64_decode(char *s, size_t len);

#endif
