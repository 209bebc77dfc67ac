/* netproto.c — see netproto.h. */
#define _GNU_SOURCE
#include "netproto.h"
#include "io.h"
#include "num.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

const char *const net_mode_names[NET_NMODES] = {
	[NET_RR] = "rr", [NET_SINK] = "sink", [NET_SOURCE] = "source",
	[NET_CRR] = "crr", [NET_UDP] = "udp", [NET_HELLO] = "hello", [NET_STORE] = "store",
};

size_t net_req_format(const struct net_req *r, char *out, size_t cap)
{
	int n = snprintf(out, cap, NET_MAGIC " %d mode=%s size=%" PRIu64 " bytes=%" PRIu64
			 " conns=%" PRIu64 " seconds=%" PRIu64 "%s%s\n", NET_VERSION,
			 net_mode_names[r->mode], r->size, r->bytes, r->conns, r->seconds,
			 r->run[0] ? " run=" : "", r->run);
	return n < 0 ? 0 : (size_t)n >= cap ? cap - 1 : (size_t)n;
}

/* One "key=value" word of a request into r. 0 or -EINVAL (why in err). */
static int req_word(const char *w, struct net_req *r, char *err, size_t errlen)
{
	static const struct { const char *key; uint64_t cap; size_t off; } nums[] = {
		{"size", NET_CAP_SIZE, offsetof(struct net_req, size)},
		{"bytes", NET_CAP_BYTES, offsetof(struct net_req, bytes)},
		{"conns", NET_CAP_CONNS, offsetof(struct net_req, conns)},
		{"seconds", NET_CAP_SECONDS, offsetof(struct net_req, seconds)},
	};
	const char *eq = strchr(w, '=');

	if (!eq) {
		snprintf(err, errlen, "'%.40s' is not key=value", w);
		return -EINVAL;
	}
	if (!strncmp(w, "mode=", 5)) {
		for (int m = 0; m < NET_NMODES; m++)
			if (!strcmp(eq + 1, net_mode_names[m])) {
				r->mode = (enum net_mode)m;
				return 0;
			}
		snprintf(err, errlen, "unknown mode '%.40s'", eq + 1);
		return -EINVAL;
	}
	if (!strncmp(w, "run=", 4)) {
		size_t n = strlen(eq + 1);
		if (n != NET_RUN_ID_LEN || strspn(eq + 1, "0123456789abcdef") != n) {
			snprintf(err, errlen, "run: '%.40s' is not %d lower-case hex digits", eq + 1,
				 NET_RUN_ID_LEN);
			return -EINVAL;
		}
		memcpy(r->run, eq + 1, n + 1);
		return 0;
	}
	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
		size_t kl = strlen(nums[i].key);
		if ((size_t)(eq - w) != kl || strncmp(w, nums[i].key, kl))
			continue;
		unsigned long long v;
		if (num_ull(eq + 1, NUM_SPACE | NUM_PLUS, 0, ULLONG_MAX, &v)) {
			snprintf(err, errlen, "%s: '%.40s' is not a number", nums[i].key, eq + 1);
			return -EINVAL;
		}
		if (v > nums[i].cap || (v == 0 && i == 0)) {
			snprintf(err, errlen, "request too large: %s=%llu, this peer allows 1..%" PRIu64,
				 nums[i].key, v, nums[i].cap);
			return -EINVAL;
		}
		*(uint64_t *)(void *)((char *)r + nums[i].off) = v;
		return 0;
	}
	snprintf(err, errlen, "unknown field '%.40s'", w);
	return -EINVAL;
}

int net_req_parse(const char *line, struct net_req *r, char *err, size_t errlen)
{
	char buf[NET_LINE_MAX], *save = NULL, *w;
	long long ver;
	int have_mode = 0;

	*r = (struct net_req){.mode = NET_HELLO, .size = 1, .bytes = 0,
			      .conns = NET_CAP_CONNS, .seconds = 60};
	snprintf(buf, sizeof buf, "%s", line);
	w = strtok_r(buf, " ", &save);
	if (!w || strcmp(w, NET_MAGIC)) {
		snprintf(err, errlen, "not an " NET_MAGIC " request");
		return -EINVAL;
	}
	w = strtok_r(NULL, " ", &save);
	if (!w || num_ll(w, 0, NET_VERSION, NET_VERSION, &ver)) {
		snprintf(err, errlen, "protocol version %.20s, this peer speaks %d", w ? w : "none",
			 NET_VERSION);
		return -EINVAL;
	}
	while ((w = strtok_r(NULL, " ", &save))) {
		int rc = req_word(w, r, err, errlen);
		if (rc)
			return rc;
		have_mode |= !strncmp(w, "mode=", 5);
	}
	if (!have_mode) {
		snprintf(err, errlen, "no mode= in the request");
		return -EINVAL;
	}
	if (r->mode == NET_STORE && (!r->run[0] || !r->bytes || r->bytes > NET_CAP_STORE_BYTES)) {
		snprintf(err, errlen, "a store request names its run= and bytes=, 1..%u: run=%s "
			 "bytes=%" PRIu64, NET_CAP_STORE_BYTES, r->run[0] ? r->run : "-", r->bytes);
		return -EINVAL;
	}
	return 0;
}

int net_send_log(const char *peer, const char *run, const char *log, size_t len, char *msg,
		 size_t cap)
{
	struct sockaddr_storage sa;
	struct net_req r = {.mode = NET_STORE, .size = 1, .bytes = len, .conns = 1, .seconds = 60};
	char line[NET_LINE_MAX], ans[NET_LINE_MAX], ok[32], stored[32];
	int fd, rc;

	snprintf(ok, sizeof ok, NET_MAGIC " %d ok ", NET_VERSION);
	snprintf(stored, sizeof stored, NET_MAGIC " %d stored ", NET_VERSION);
	snprintf(r.run, sizeof r.run, "%s", run);
	if ((rc = net_parse_addr(peer, &sa, msg, cap)))
		return rc;
	if ((fd = net_connect(&sa, 0)) < 0) {
		snprintf(msg, cap, "connect: %s", strerror(-fd));
		return fd;
	}
	size_t n = net_req_format(&r, line, sizeof line), alen = 0;
	char said[340];
	/* An answer that is no line of the protocol is quoted (net_answer_said()), never
	 * replaced by an errno it did not cause. */
	if ((rc = write_all(fd, line, n) ? -errno : 0) ||
	    (rc = net_read_line_len(fd, ans, sizeof ans, &alen))) {
		if (alen)
			net_answer_said(ans, alen, said, sizeof said);
		snprintf(msg, cap, "the request: %s", alen ? said : strerror(-rc));
		rc = rc ? rc : -EPROTO;
	} else if (strncmp(ans, ok, strlen(ok)) && (rc = -EPERM)) {
		int refusal = net_answer_said(ans, alen, said, sizeof said);
		snprintf(msg, cap, "%s%.300s", refusal ? "refused " : "", said);
	} else if ((rc = write_all(fd, log, len) ? -errno : 0) ||
		   (rc = net_read_line_len(fd, ans, sizeof ans, &alen))) {
		if (alen)
			net_answer_said(ans, alen, said, sizeof said);
		snprintf(msg, cap, "sending %zu bytes: %s", len, alen ? said : strerror(-rc));
	} else if (strncmp(ans, stored, strlen(stored)) && (rc = -EPERM)) {
		int refusal = net_answer_said(ans, alen, said, sizeof said);
		snprintf(msg, cap, "%s%.300s", refusal ? "refused " : "", said);
	} else
		snprintf(msg, cap, "%.300s", ans + strlen(stored));
	close(fd);
	return rc;
}

/* s with every character outside [A-Za-z0-9._:-] made '_' (a value of the "ok" line). */
int net_parse_addr(const char *spec, struct sockaddr_storage *sa, char *err, size_t errlen)
{
	char host[256];
	const char *colon = strrchr(spec, ':'), *end = spec + strlen(spec);
	long port = NET_DEFAULT_PORT;
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *r;
	int v6 = spec[0] == '[';

	if (v6) {	/* "[ADDR]:PORT": ADDR numeric IPv6, PORT required */
		const char *rb = strchr(spec, ']');
		if (!rb || rb[1] != ':' || !rb[2]) {
			snprintf(err, errlen, "peer %s: an IPv6 peer is [ADDR]:PORT (%s)", spec,
				 !rb ? "no closing ']'" : "no :PORT after ']'");
			return -EINVAL;
		}
		snprintf(host, sizeof host, "%.*s", (int)(rb - spec - 1), spec + 1);
		colon = rb + 1;
		hints.ai_family = AF_INET6;
		hints.ai_flags = AI_NUMERICHOST;
	} else if (colon && strchr(spec, ':') != colon) {
		snprintf(err, errlen, "peer %s: more than one ':' — an IPv6 peer is [ADDR]:PORT",
			 spec);
		return -EINVAL;
	} else {
		snprintf(host, sizeof host, "%.*s", (int)((colon ? colon : end) - spec), spec);
	}
	if (colon) {
		long long v;
		if (num_ll(colon + 1, NUM_SPACE | NUM_PLUS, 1, 65535, &v)) {
			snprintf(err, errlen, "peer %s: port must be 1..65535", spec);
			return -EINVAL;
		}
		port = (long)v;
	}
	if (!host[0] || getaddrinfo(host, NULL, &hints, &res) || !res) {
		snprintf(err, errlen, "peer %s: '%s' is not %s", spec, host,
			 v6 ? "an IPv6 address" : "an IPv4 address or a name this machine resolves");
		return -EINVAL;
	}
	for (r = res; r->ai_next && r->ai_family != AF_INET; r = r->ai_next)
		;	/* a name: its IPv4 address when it has one, else its first */
	if (r->ai_family != AF_INET)
		r = res;
	memset(sa, 0, sizeof *sa);
	memcpy(sa, r->ai_addr, r->ai_addrlen);
	if (sa->ss_family == AF_INET6)
		((struct sockaddr_in6 *)(void *)sa)->sin6_port = htons((uint16_t)port);
	else
		((struct sockaddr_in *)(void *)sa)->sin_port = htons((uint16_t)port);
	freeaddrinfo(res);
	return 0;
}

socklen_t net_sa_len(const struct sockaddr_storage *sa)
{
	return sa->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
}

struct in6_addr net_sa_key(const struct sockaddr_storage *sa)
{
	struct in6_addr k = {0};

	if (sa->ss_family == AF_INET6)
		return ((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
	k.s6_addr[10] = k.s6_addr[11] = 0xff;
	memcpy(&k.s6_addr[12], &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
	return k;
}

const char *net_sa_str(const struct sockaddr_storage *sa, char *out, size_t cap)
{
	struct in6_addr k = net_sa_key(sa);

	if (IN6_IS_ADDR_V4MAPPED(&k))
		inet_ntop(AF_INET, &k.s6_addr[12], out, (socklen_t)cap);
	else
		inet_ntop(AF_INET6, &k, out, (socklen_t)cap);
	return out;
}

int net_sa_loopback(const struct sockaddr_storage *sa)
{
	struct in6_addr k = net_sa_key(sa);

	return IN6_IS_ADDR_LOOPBACK(&k) || (IN6_IS_ADDR_V4MAPPED(&k) && k.s6_addr[12] == 127);
}

void net_set_nodelay(int fd, int on)
{
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

void net_set_timeouts(int fd, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

int net_connect(const struct sockaddr_storage *sa, int nodelay)
{
	int fd = socket(sa->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), e = 0;
	socklen_t el = sizeof e;
	struct pollfd p = {.fd = fd, .events = POLLOUT};

	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)sa, net_sa_len(sa)) && errno != EINPROGRESS) {
		e = errno;
		close(fd);
		return -e;
	}
	int r = poll(&p, 1, NET_CONNECT_MS);
	if (r <= 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) || e) {
		e = r == 0 ? ETIMEDOUT : e ? e : errno;
		close(fd);
		return -e;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	net_set_timeouts(fd, NET_IO_MS);
	if (nodelay)
		net_set_nodelay(fd, 1);
	return fd;
}

int net_read_line_len(int fd, char *out, size_t cap, size_t *len)
{
	size_t n = 0;
	int rc = 0;

	for (;;) {
		char c;
		ssize_t k = read(fd, &c, 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0 || n + 1 >= cap) {
			rc = k < 0 ? -errno : k == 0 ? -EPIPE : -EMSGSIZE;
			break;
		}
		if (c == '\n')
			break;
		out[n++] = c;
	}
	out[n] = 0;
	if (!rc && n && out[n - 1] == '\r')
		out[--n] = 0;
	*len = n;
	return rc;
}

int net_read_line(int fd, char *out, size_t cap)
{
	size_t len;
	return net_read_line_len(fd, out, cap, &len);
}

int net_answer_said(const char *ans, size_t len, char *out, size_t cap)
{
	char refused[40], q[220];

	snprintf(refused, sizeof refused, NET_MAGIC " %d refused ", NET_VERSION);
	if (len == strlen(ans) && !strncmp(ans, refused, strlen(refused))) {
		snprintf(out, cap, "%s", io_quote(q, sizeof q, ans + strlen(refused),
						   len - strlen(refused)));
		return 1;
	}
	snprintf(out, cap, "not an " NET_MAGIC " answer: it sent '%s'", io_quote(q, sizeof q, ans, len));
	return 0;
}
