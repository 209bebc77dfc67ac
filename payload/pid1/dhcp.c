/* dhcp.c — see dhcp.h. A UDP socket bound to port 68 on the interface (SO_BINDTODEVICE)
 * sends from 0.0.0.0 to the broadcast address, and the replies are asked to be broadcast
 * (the BROADCAST flag): no packet socket is needed while the interface has no address. */
#define _GNU_SOURCE
#include "dhcp.h"
#include "../sys.h"
#include "io.h"
#include "num.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#define DHCP_MAX_IFS 4		/* interfaces tried, in name order */
#define DHCP_RESEND_MS 1000	/* a DISCOVER or REQUEST unanswered this long is sent again */
enum { DISCOVER = 1, OFFER = 2, REQUEST = 3, ACK = 5, NAK = 6 };

/* A BOOTP message (RFC 951/2131), options after the magic cookie. */
struct bootp {
	uint8_t op, htype, hlen, hops;
	uint32_t xid;
	uint16_t secs, flags;
	uint32_t ciaddr, yiaddr, siaddr, giaddr;
	uint8_t chaddr[16], sname[64], file[128];
	uint8_t opt[312];
};

/* What a reply says (network byte order addresses; 0: not given). */
struct lease {
	int type;
	uint32_t addr, mask, router, server, lease_s;
	int mtu;
};

int dhcp_configured(char *ifname, size_t cap)
{
	struct ifaddrs *ifa, *i;
	int found = 0;

	if (getifaddrs(&ifa))
		return 0;
	for (i = ifa; i && !found; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
		    !(i->ifa_flags & IFF_LOOPBACK)) {
			snprintf(ifname, cap, "%s", i->ifa_name);
			found = 1;
		}
	freeifaddrs(ifa);
	return found;
}

/* The Ethernet interfaces (sysfs type 1), sorted by name, at most DHCP_MAX_IFS: how many. */
static int ether_ifs(char names[][IF_NAMESIZE])
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < DHCP_MAX_IFS) {
		char path[300], t[16];
		long long type;
		if (e->d_name[0] == '.' || strlen(e->d_name) >= IF_NAMESIZE)
			continue;
		snprintf(path, sizeof path, "/sys/class/net/%s/type", e->d_name);
		if (read_line(path, t, sizeof t) > 0 && !num_ll(t, 0, 0, LLONG_MAX, &type) &&
		    type == 1)	/* ARPHRD_ETHER; unreadable or not a number: not Ethernet */
			snprintf(names[n++], IF_NAMESIZE, "%.15s", e->d_name);	/* length checked */
	}
	closedir(d);
	qsort(names, (size_t)n, IF_NAMESIZE, (int (*)(const void *, const void *))strcmp);
	return n;
}

/* Start a message of type from mac with xid; the options' end is at *o. */
static size_t msg_start(struct bootp *m, int type, const uint8_t mac[6], uint32_t xid)
{
	memset(m, 0, sizeof *m);
	m->op = 1;
	m->htype = 1;
	m->hlen = 6;
	m->xid = xid;
	m->flags = htons(0x8000);	/* BROADCAST: we cannot take a unicast reply yet */
	memcpy(m->chaddr, mac, 6);
	static const uint8_t head[] = {99, 130, 83, 99, 53, 1};
	memcpy(m->opt, head, sizeof head);
	m->opt[sizeof head] = (uint8_t)type;
	return sizeof head + 1;
}

static size_t opt_addr(struct bootp *m, size_t o, int code, uint32_t a)
{
	m->opt[o++] = (uint8_t)code;
	m->opt[o++] = 4;
	memcpy(m->opt + o, &a, 4);
	return o + 4;
}

/* The options that end every message: the parameters asked for (mask, router, MTU,
 * lease, server), then END. The message's length. */
static size_t msg_end(struct bootp *m, size_t o)
{
	static const uint8_t tail[] = {55, 5, 1, 3, 26, 51, 54, 255};
	memcpy(m->opt + o, tail, sizeof tail);
	return offsetof(struct bootp, opt) + o + sizeof tail;
}

/* The options of a reply of n bytes for xid into *l: 0, or -1 when it is not one. */
static int parse_reply(const struct bootp *m, size_t n, uint32_t xid, struct lease *l)
{
	static const uint8_t cookie[] = {99, 130, 83, 99};
	size_t end = n - offsetof(struct bootp, opt);

	memset(l, 0, sizeof *l);
	if (n < offsetof(struct bootp, opt) + 4 || m->op != 2 || m->xid != xid ||
	    memcmp(m->opt, cookie, 4))
		return -1;
	l->addr = m->yiaddr;
	for (size_t o = 4; o < end && m->opt[o] != 255;) {
		int code = m->opt[o];
		if (code == 0) {
			o++;
			continue;
		}
		if (o + 2 > end || o + 2 + m->opt[o + 1] > end)
			break;
		const uint8_t *v = m->opt + o + 2;
		int len = m->opt[o + 1];
		if (code == 53 && len == 1)
			l->type = v[0];
		else if (len >= 4 && (code == 1 || code == 3 || code == 54 || code == 51)) {
			uint32_t a;
			memcpy(&a, v, 4);
			if (code == 1)
				l->mask = a;
			else if (code == 3)
				l->router = a;
			else if (code == 54)
				l->server = a;
			else
				l->lease_s = ntohl(a);
		} else if (code == 26 && len == 2)
			l->mtu = v[0] << 8 | v[1];
		o += 2 + (size_t)len;
	}
	return l->type ? 0 : -1;
}

/* The monotonic clock in milliseconds (sys.h's now_ns()). */
static long long mono_ms(void)
{
	return (long long)(now_ns() / 1000000);
}

/* Send m (n bytes) and wait for a reply for it of a type in want (a bit per type), sending
 * again every DHCP_RESEND_MS, until the deadline: 0 with *l, or -ETIMEDOUT. */
static int exchange(int fd, const struct bootp *m, size_t n, unsigned want, struct lease *l,
		    long long deadline)
{
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(67),
				 .sin_addr.s_addr = INADDR_BROADCAST};
	long long resend = 0;

	for (;;) {
		long long now = mono_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		if (now >= resend) {
			sendto(fd, m, n, 0, (struct sockaddr *)&to, sizeof to);
			resend = now + DHCP_RESEND_MS;
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		long long until = resend < deadline ? resend : deadline;
		if (poll(&p, 1, (int)(until - now)) <= 0)
			continue;
		static struct bootp r;
		ssize_t k = recv(fd, &r, sizeof r, 0);
		if (k > 0 && !parse_reply(&r, (size_t)k, m->xid, l) && (want >> l->type & 1))
			return 0;
	}
}

/* An IPv4 route on ifname: to dst/mask, through gw (0: on-link). 0 or -errno. */
static int add_route(int s, const char *ifname, uint32_t dst, uint32_t mask, uint32_t gw)
{
	struct rtentry rt;
	struct sockaddr_in *a;

	memset(&rt, 0, sizeof rt);
	a = (struct sockaddr_in *)&rt.rt_dst;
	*a = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = dst};
	a = (struct sockaddr_in *)&rt.rt_genmask;
	*a = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = mask};
	a = (struct sockaddr_in *)&rt.rt_gateway;
	*a = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = gw};
	rt.rt_flags = RTF_UP | (gw ? RTF_GATEWAY : 0) | (mask == 0xffffffffu ? RTF_HOST : 0);
	rt.rt_dev = (char *)ifname;
	return ioctl(s, SIOCADDRT, &rt) && errno != EEXIST ? -errno : 0;
}

/* Give ifname the lease: address, netmask, MTU, routes. 0 or -errno. */
static int apply(int s, const char *ifname, const struct lease *l)
{
	struct ifreq ifr;
	uint32_t mask = l->mask ? l->mask : htonl(0xffffff00u);

	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%.15s", ifname);
	*(struct sockaddr_in *)&ifr.ifr_addr = (struct sockaddr_in){.sin_family = AF_INET,
								     .sin_addr.s_addr = l->addr};
	if (ioctl(s, SIOCSIFADDR, &ifr))
		return -errno;
	*(struct sockaddr_in *)&ifr.ifr_netmask = (struct sockaddr_in){.sin_family = AF_INET,
									.sin_addr.s_addr = mask};
	if (ioctl(s, SIOCSIFNETMASK, &ifr))
		return -errno;
	if (l->mtu >= 576 && l->mtu <= 65535) {
		ifr.ifr_mtu = l->mtu;
		ioctl(s, SIOCSIFMTU, &ifr);	/* a driver's smaller maximum keeps its own */
	}
	if (!l->router)
		return 0;
	int r = 0;
	if ((l->router & mask) != (l->addr & mask))	/* outside the subnet: on-link first */
		r = add_route(s, ifname, l->router, 0xffffffffu, 0);
	return r ? r : add_route(s, ifname, 0, 0, l->router);
}

/* Bring ifname up and get its MAC: 0 or -errno. */
static int if_up(int s, const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%.15s", ifname);
	if (ioctl(s, SIOCGIFFLAGS, &ifr))
		return -errno;
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) || ioctl(s, SIOCGIFHWADDR, &ifr))
		return -errno;
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return 0;
}

/* One interface's lease within timeout_ms, applied: 0 with *l, or -errno. */
static int lease_on(const char *ifname, int timeout_ms, struct lease *l)
{
	static struct bootp m;
	uint8_t mac[6];
	uint32_t xid;
	int one = 1, r;
	struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons(68)};
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return -errno;
	if ((r = if_up(s, ifname, mac)) ||
	    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
	    setsockopt(s, SOL_SOCKET, SO_BROADCAST, &one, sizeof one) ||
	    setsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, ifname, (socklen_t)strlen(ifname) + 1) ||
	    bind(s, (struct sockaddr *)&me, sizeof me)) {
		r = r ? r : -errno;
		close(s);
		return r;
	}
	if (getrandom(&xid, sizeof xid, GRND_NONBLOCK) != sizeof xid)
		xid = (uint32_t)mono_ms() ^ (uint32_t)mac[5] << 24;
	long long deadline = mono_ms() + timeout_ms;
	for (int tries = 0; tries < 3; tries++) {	/* a NAK starts again */
		size_t n = msg_end(&m, msg_start(&m, DISCOVER, mac, xid));
		if ((r = exchange(s, &m, n, 1u << OFFER, l, deadline)))
			break;
		uint32_t offered = l->addr, server = l->server;
		size_t o = msg_start(&m, REQUEST, mac, xid);
		o = opt_addr(&m, o, 50, offered);
		if (server)
			o = opt_addr(&m, o, 54, server);
		if ((r = exchange(s, &m, msg_end(&m, o), 1u << ACK | 1u << NAK, l, deadline)))
			break;
		if (l->type == ACK) {
			if (!l->addr)
				l->addr = offered;
			r = apply(s, ifname, l);
			break;
		}
		r = -ECONNREFUSED;
	}
	close(s);
	return r;
}

int dhcp_up(int timeout_ms, char *msg, size_t len)
{
	char names[DHCP_MAX_IFS][IF_NAMESIZE];
	int n = ether_ifs(names), r = -ENODEV;
	struct lease l;

	snprintf(msg, len, "no Ethernet interface");
	for (int i = 0; i < n; i++) {
		r = lease_on(names[i], timeout_ms, &l);
		if (r == 0) {
			char a[INET_ADDRSTRLEN], g[INET_ADDRSTRLEN], mk[INET_ADDRSTRLEN];
			inet_ntop(AF_INET, &l.addr, a, sizeof a);
			inet_ntop(AF_INET, &l.router, g, sizeof g);
			inet_ntop(AF_INET, &l.mask, mk, sizeof mk);
			snprintf(msg, len, "%s: %s netmask %s router %s mtu %d, lease %u s (not "
				 "renewed)", names[i], a, mk, l.router ? g : "-", l.mtu,
				 (unsigned)l.lease_s);
			return 0;
		}
		snprintf(msg, len, "%s: %s", names[i], r == -ETIMEDOUT ? "no DHCP lease within "
			 "the time allowed" : r == -ECONNREFUSED ? "the DHCP server refused (NAK)"
			 : strerror(-r));
	}
	return r;
}
