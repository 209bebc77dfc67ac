/* nethello.c — see nethello.h. */
#define _GNU_SOURCE
#include "nethello.h"
#include "netnic.h"
#include "netproto.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static void word(char *s)
{
	for (; *s; s++)
		if (!strchr("._:-", *s) && !(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9'))
			*s = '_';
}

void net_identity(char *out, size_t cap)
{
	struct utsname u;
	char host[65] = "-", rel[65] = "-", mach[65] = "-", nic[64];

	if (uname(&u) == 0) {
		snprintf(host, sizeof host, "%s", u.nodename);
		snprintf(rel, sizeof rel, "%s", u.release);
		snprintf(mach, sizeof mach, "%s", u.machine);
	}
	snprintf(nic, sizeof nic, "%s", net_nic_driver());
	word(host);
	word(rel);
	word(mach);
	word(nic);
	snprintf(out, cap, "host=%s kernel=%s machine=%s nic=%s", host, rel, mach, nic);
}

/* 1 when ans (len bytes) is no "ok" line. */
static int len_ok_prefix(const char *ans, size_t len)
{
	size_t ok = strlen(NET_MAGIC " 1 ok ");
	return len < ok || strncmp(ans, NET_MAGIC " 1 ok ", ok) != 0;
}

static int hello_answered;	/* net_peer_field()'s session got bytes back (net_peer_answered()) */

int net_peer_answered(void)
{
	return hello_answered;
}

const char *net_peer_field(const char *peer, const char *field)
{
	static char ans[NET_LINE_MAX], out[128];
	static int done;
	struct net_req r = {.mode = NET_HELLO, .size = 1, .seconds = 1};
	struct sockaddr_storage sa;
	char line[NET_LINE_MAX], err[200];

	if (!peer[0])
		return "-";
	if (!done) {
		done = 1;
		char ifn[IF_NAMESIZE + 1];
		unsigned fl = 0;
		int fd = net_parse_addr(peer, &sa, err, sizeof err) ? -EINVAL : 0;
		/* no route, or the route's interface without carrier: at once, not after
		 * NET_CONNECT_MS of SYNs into a dead link */
		if (!fd && (fd = net_route_if(&sa, ifn, sizeof ifn, &fl, err, sizeof err)) == 0 &&
		    !(fl & IFF_RUNNING))
			fd = -ENETDOWN;
		if (!fd || fd == -ENODEV)
			fd = net_connect(&sa, 1);
		size_t n = net_req_format(&r, line, sizeof line), alen = 0;
		int rc = fd < 0 ? fd : write(fd, line, n) != (ssize_t)n ? -errno
			 : net_read_line_len(fd, ans, sizeof ans, &alen);
		if (fd >= 0)
			close(fd);
		hello_answered = alen > 0;
		/* what came, when something did (garbage without a newline, or too long): the
		 * bytes, never an errno they did not cause */
		if (rc && !(alen && (rc == -EPIPE || rc == -EMSGSIZE)))
			snprintf(ans, sizeof ans, "unreachable: %s", strerror(-rc));
		else if (rc || len_ok_prefix(ans, alen)) {
			/* a refusal, or not a peer at all (another service; socat's error line
			 * through QEMU's guestfwd when nothing listens): say so, never "-" */
			char got[300];
			int refusal = net_answer_said(ans, alen, got, sizeof got);
			snprintf(ans, sizeof ans, "unreachable: %s%.290s", refusal ? "refused: " : "", got);
		}
	}
	if (!strncmp(ans, "unreachable", 11))
		return ans;
	char key[32];
	snprintf(key, sizeof key, " %s=", field);
	const char *v = strstr(ans, key);
	if (!v)
		return "-";
	v += strlen(key);
	snprintf(out, sizeof out, "%.*s", (int)strcspn(v, " "), v);
	return out;
}
