/* netnic.c — the NIC facts of netproto.h (nic.* INFO keys): what the kernel says about the
 * interface the traffic leaves by: the one the route to the peer uses (a UDP socket connected
 * to it, nothing sent: the kernel's route lookup; getsockname's source address matched to an
 * interface by getifaddrs), without a peer the default route's (/proc/net/route), else the
 * first interface up that is not the loopback. Sources: /sys/class/net/<if>/ (driver link, PCI vendor and
 * device, speed, mtu, queues/, the PCI function's msi_irqs/ — for virtio-net the parent of
 * the virtio device), SIOCETHTOOL's legacy get
 * commands for the offloads (include/uapi/linux/ethtool.h: ETHTOOL_GTSO 0x1e, ETHTOOL_GGSO
 * 0x23, ETHTOOL_GGRO 0x2b, ETHTOOL_GRXCSUM 0x14, ETHTOOL_GTXCSUM 0x16, each answering a
 * struct ethtool_value {cmd, data}), SIOCGIFADDR for the address. */
#define _GNU_SOURCE
#include "netnic.h"
#include "netproto.h"
#include "../sysfs.h"
#include "io.h"
#include "num.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define SYS_NET "/sys/class/net/"
#define NIC_SIOCETHTOOL 0x8946	/* include/uapi/linux/sockios.h */

struct nic_ethtool_value {
	uint32_t cmd, data;
};

static char nic_peer[128];	/* net_nic_use_peer()'s HOST[:PORT], "" for none */
static char name[IF_NAMESIZE + 1];
static int done;

void net_nic_use_peer(const char *peer)
{
	snprintf(nic_peer, sizeof nic_peer, "%s", peer ? peer : "");
	done = 0;
}

int net_route_if(const struct sockaddr_storage *peer, char *ifname, size_t cap, unsigned *flags,
		 char *err, size_t errlen)
{
	struct sockaddr_storage me = {0};
	socklen_t ml = sizeof me;
	struct ifaddrs *all, *a;
	char ps[INET6_ADDRSTRLEN], ms[INET6_ADDRSTRLEN];
	int fd = socket(peer->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0), r = 0;

	net_sa_str(peer, ps, sizeof ps);
	if (fd < 0 || connect(fd, (const struct sockaddr *)peer, net_sa_len(peer)) ||
	    getsockname(fd, (struct sockaddr *)&me, &ml)) {
		r = -errno;
		snprintf(err, errlen, "no route to %s: %s", ps, strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	close(fd);
	if (getifaddrs(&all)) {
		snprintf(err, errlen, "getifaddrs: %s", strerror(errno));
		return -errno;
	}
	/* the source address matched by its family's address bytes (an IPv6 one's scope id
	 * aside: a link-local address is held by one interface of this host at a time) */
	struct in6_addr mk = net_sa_key(&me);
	r = -ENODEV;
	for (a = all; a && r; a = a->ifa_next) {
		if (!a->ifa_addr || a->ifa_addr->sa_family != me.ss_family)
			continue;
		struct sockaddr_storage x = {0};
		memcpy(&x, a->ifa_addr, net_sa_len(&me));
		struct in6_addr xk = net_sa_key(&x);
		if (!memcmp(&xk, &mk, sizeof mk)) {
			snprintf(ifname, cap, "%.*s", IF_NAMESIZE, a->ifa_name);
			*flags = a->ifa_flags;
			r = 0;
		}
	}
	freeifaddrs(all);
	/* The carrier as the driver set it (sysfs carrier: netif_carrier_ok()), not IFF_RUNNING:
	 * that follows the operstate, which linkwatch updates later (a virtio-net guest's eth0
	 * was seen without it while carrying traffic). Unreadable: left as the flags say. */
	char dir[300], c[8];
	snprintf(dir, sizeof dir, SYS_NET "%s", ifname);
	if (!r && !strcmp(sysfs_line(dir, "carrier", c, sizeof c), "1"))
		*flags |= IFF_RUNNING;
	else if (!r && !strcmp(c, "0"))
		*flags &= ~(unsigned)IFF_RUNNING;
	if (r)
		snprintf(err, errlen, "the route to %s leaves from %s, which no interface holds",
			 ps, net_sa_str(&me, ms, sizeof ms));
	return r;
}

/* The default route's interface (the first "00000000" destination that is up in
 * /proc/net/route) into name: 1, or 0 when there is none. */
static int default_route_if(void)
{
	FILE *f = fopen("/proc/net/route", "r");
	char line[256], *fd[4];	/* Iface Destination Gateway Flags ..., the numbers in hex */
	unsigned long long dst, fl;
	int hit = 0;

	while (f && !hit && fgets(line, sizeof line, f))	/* the header line is no number */
		if (split_fields(line, fd, 4) == 4 && strlen(fd[0]) <= IF_NAMESIZE &&
		    !num_ull(fd[1], NUM_XDIGITS, 0, ULLONG_MAX, &dst) &&
		    !num_ull(fd[3], NUM_XDIGITS, 0, ULLONG_MAX, &fl) && dst == 0 && (fl & 1)) {
			snprintf(name, sizeof name, "%s", fd[0]);
			hit = 1;
		}
	if (f)
		fclose(f);
	return hit;
}

/* The interface (see the file's head); "" if none. */
static const char *nic(void)
{
	struct sockaddr_storage sa;
	char err[200];
	unsigned fl;

	if (done)
		return name;
	done = 1;
	name[0] = 0;
	if (nic_peer[0] && net_parse_addr(nic_peer, &sa, err, sizeof err) == 0 &&
	    net_route_if(&sa, name, sizeof name, &fl, err, sizeof err) == 0)
		return name;
	name[0] = 0;
	if (default_route_if())
		return name;
	DIR *d = opendir(SYS_NET);
	struct dirent *e;
	char first[IF_NAMESIZE + 1] = "";
	while (d && (e = readdir(d))) {
		char dir[300], flags[32];
		unsigned long long fl;	/* "0x1003" (net/core/net-sysfs.c); no number: not up */
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lo") || strlen(e->d_name) > IF_NAMESIZE)
			continue;
		if (!first[0])
			snprintf(first, sizeof first, "%.16s", e->d_name);
		snprintf(dir, sizeof dir, SYS_NET "%s", e->d_name);
		if (!num_ull(sysfs_line(dir, "flags", flags, sizeof flags), NUM_HEX, 0, ULLONG_MAX,
			     &fl) && (fl & IFF_UP)) {
			snprintf(name, sizeof name, "%.16s", e->d_name);
			break;
		}
	}
	if (d)
		closedir(d);
	if (!name[0])
		snprintf(name, sizeof name, "%s", first);
	return name;
}

/* The interface's sysfs directory (SYS_NET<if>) into dir; 0, or -ENODEV when no NIC. */
static int nic_dir(char *dir, size_t cap)
{
	if (!*nic())
		return -ENODEV;
	snprintf(dir, cap, SYS_NET "%s", nic());
	return 0;
}

/* The first line of SYS_NET<if>/<rel> into out (cap), "-" when unreadable or no NIC. */
static const char *sysline(const char *rel, char *out, size_t cap)
{
	char dir[300];

	if (nic_dir(dir, sizeof dir))
		return strcpy(out, "-");
	return sysfs_line(dir, rel, out, cap);
}

/* The NIC's PCI function in sysfs (device/, or its parent when device/ is a virtio device on
 * a virtio-pci function) into out; "" when it has none. */
static void pci_dir(char *out, size_t cap)
{
	char path[300], real[4096];

	out[0] = 0;
	snprintf(path, sizeof path, SYS_NET "%s/device", nic());
	if (!*nic() || !realpath(path, real))
		return;
	char *base = strrchr(real, '/');
	if (base && !strncmp(base + 1, "virtio", 6))
		*base = 0;
	if (sysfs_has(real, "vendor"))
		snprintf(out, cap, "%.280s", real);
}

/* The first line of the PCI function's file name into out, "-" when there is none. */
static const char *pciline(const char *name, char *out, size_t cap)
{
	char dir[300];

	pci_dir(dir, sizeof dir);
	if (!dir[0])
		return strcpy(out, "-");
	return sysfs_line(dir, name, out, cap);
}

const char *net_nic_name(void)
{
	return *nic() ? nic() : "-";
}

const char *net_nic_driver(void)
{
	static char out[64];
	char dir[300];

	if (nic_dir(dir, sizeof dir) || !sysfs_link_base(dir, "device/driver", out, sizeof out))
		strcpy(out, "-");
	return out;
}

const char *net_nic_pci_id(void)
{
	static char out[32];
	char v[16], d[16];

	pciline("vendor", v, sizeof v);
	pciline("device", d, sizeof d);
	if (!strcmp(v, "-") || !strcmp(d, "-"))
		return strcpy(out, "-");
	snprintf(out, sizeof out, "%s:%s", v + (v[1] == 'x' ? 2 : 0), d + (d[1] == 'x' ? 2 : 0));
	return out;
}

const char *net_nic_speed(void)
{
	static char out[24];

	return sysline("speed", out, sizeof out);
}

const char *net_nic_mtu(void)
{
	static char out[24];

	return sysline("mtu", out, sizeof out);
}

const char *net_nic_queues(void)
{
	static char out[48];
	char dir[300];

	if (nic_dir(dir, sizeof dir))
		return strcpy(out, "-");
	int rx = sysfs_count(dir, "queues", "rx-"), tx = sysfs_count(dir, "queues", "tx-");
	snprintf(out, sizeof out, "rx=%d,tx=%d", rx > 0 ? rx : 0, tx > 0 ? tx : 0);
	return out;
}

/* One legacy ethtool get: 0/1, or -1 when the driver does not answer it. */
static int ethtool_get(int fd, uint32_t cmd)
{
	struct nic_ethtool_value ev = {.cmd = cmd};
	struct ifreq ifr;

	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%.15s", nic());
	ifr.ifr_data = (char *)&ev;
	return ioctl(fd, NIC_SIOCETHTOOL, &ifr) ? -1 : ev.data != 0;
}

const char *net_nic_offloads(void)
{
	static const struct { const char *name; uint32_t cmd; } feats[] = {
		{"tso", 0x1e}, {"gso", 0x23}, {"gro", 0x2b}, {"rxcsum", 0x14}, {"txcsum", 0x16},
	};
	static char out[96];
	int fd = *nic() ? socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0) : -1;
	size_t len = 0;

	if (fd < 0)
		return strcpy(out, "-");
	for (size_t i = 0; i < sizeof feats / sizeof feats[0]; i++) {
		int v = ethtool_get(fd, feats[i].cmd);
		len += (size_t)snprintf(out + len, sizeof out - len, "%s%s=%s", i ? "," : "",
					feats[i].name, v < 0 ? "-" : v ? "1" : "0");
	}
	close(fd);
	return out;
}

const char *net_nic_irq(void)
{
	static char out[16];
	char dir[300], path[340], mode[16] = "";

	snprintf(out, sizeof out, "-");
	pci_dir(dir, sizeof dir);
	if (!dir[0])
		return out;	/* not a PCI function */
	snprintf(path, sizeof path, "%.300s/msi_irqs", dir);
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d)) && !mode[0]) {
		if (e->d_name[0] == '.')
			continue;
		char irq[80];
		/* msi_irqs/<irq> is a file holding "msi" or "msix" (older kernels: <irq>/mode) */
		snprintf(irq, sizeof irq, "%.60s/mode", e->d_name);
		if (!strcmp(sysfs_line(path, e->d_name, mode, sizeof mode), "-") &&
		    !strcmp(sysfs_line(path, irq, mode, sizeof mode), "-"))
			snprintf(mode, sizeof mode, "msi");
	}
	if (d)
		closedir(d);
	snprintf(out, sizeof out, "%s", mode[0] ? mode : "intx");
	return out;
}

const char *net_nic_addr(void)
{
	static char out[INET_ADDRSTRLEN];
	struct ifreq ifr;
	int fd = *nic() ? socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0) : -1;

	snprintf(out, sizeof out, "-");
	if (fd < 0)
		return out;
	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%.15s", nic());
	if (ioctl(fd, SIOCGIFADDR, &ifr) == 0)
		inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)&ifr.ifr_addr)->sin_addr, out,
			  sizeof out);
	close(fd);
	return out;
}
