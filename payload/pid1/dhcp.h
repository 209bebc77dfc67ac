/* dhcp.h — PID 1 brings a NIC up by DHCP (RFC 2131) when a cloud or a peer needs the network
 * and the kernel's ip= configured none: the smallest client that gets an IPv4 lease
 * (DISCOVER, OFFER, REQUEST, ACK, broadcast replies asked for) and applies it: the address
 * and netmask, the MTU (option 26: 9001 on AWS, 1460 on Google), a route to the router
 * (on-link even outside the netmask: Google leases a /32) and the default route. The lease
 * is never renewed: a run or a peer's bounded life is shorter than the clouds' leases, and
 * their networks route by the address the instance was given, lease or not. */
#ifndef ISOBENCH_PID1_DHCP_H
#define ISOBENCH_PID1_DHCP_H

#include <stddef.h>

/* 1 when an interface other than the loopback holds an IPv4 address (the kernel's ip=, or
 * an earlier dhcp_up()), its name into ifname (cap bytes); else 0. */
int dhcp_configured(char *ifname, size_t cap);

/* Bring up the Ethernet interfaces in name order and ask each for a lease until one is
 * given, within timeout_ms for each; the one configured and its lease are said in msg.
 * 0, or -errno (-ENODEV: no Ethernet interface; -ETIMEDOUT: no lease) with why in msg. */
int dhcp_up(int timeout_ms, char *msg, size_t len);

#endif
