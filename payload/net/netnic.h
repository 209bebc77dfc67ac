/* netnic.h — the NIC facts (nic.* INFO keys) and the interface the route to a peer leaves
 * by: netnic.c, from sysfs, the routing table and ethtool (netnic.c says which files). */
#ifndef ISOBENCH_NETNIC_H
#define ISOBENCH_NETNIC_H

#include <stddef.h>
#include <sys/socket.h>

/* The interface the route to peer (IPv4 or IPv6) leaves by, into ifname (cap >= IF_NAMESIZE + 1),
 * with its flags in *flags (IFF_RUNNING: its sysfs carrier is 1, where readable; the operstate's
 * IFF_RUNNING lags behind it): the kernel's route lookup (a UDP
 * socket connected to peer: nothing is sent), its source address matched to an interface
 * (getifaddrs). 0, or -errno (-ENETUNREACH: no route, e.g. the interface down or not
 * configured; -ENODEV: no interface holds the source address) with why in err. */
int net_route_if(const struct sockaddr_storage *peer, char *ifname, size_t cap, unsigned *flags,
		 char *err, size_t errlen);
/* The NIC facts below describe the interface the route to peer (HOST[:PORT], "" none) leaves
 * by; without one, or without a route to it, the default route's interface. Call before the
 * first net_nic_*() (the runner does, with the run's peer). */
void net_nic_use_peer(const char *peer);

/* The NIC the machine's traffic leaves by (net_nic_use_peer(); else the default route's;
 * else the first interface that is up and not the loopback, else the first one), for the
 * nic.* INFO keys: each returns "-" when there is no such interface or the fact cannot be
 * read. Static buffers. */
const char *net_nic_name(void);
const char *net_nic_driver(void);
const char *net_nic_pci_id(void);	/* "vendor:device" in hex, from sysfs */
const char *net_nic_speed(void);	/* Mb/s from sysfs speed (-1: unknown/no carrier) */
const char *net_nic_mtu(void);
const char *net_nic_queues(void);	/* "rx=N,tx=M": the queues/ directories */
const char *net_nic_offloads(void);	/* "tso=1,gso=1,gro=1,rxcsum=1,txcsum=1": ethtool */
const char *net_nic_irq(void);		/* msix, msi, intx, or "-" (not PCI) */
const char *net_nic_addr(void);		/* its IPv4 address */

#endif
