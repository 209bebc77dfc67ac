/* test_netproto.c — the peer's request line (payload/net/netproto.h): what is accepted, what is
 * refused and how the refusal reads, and peer addresses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "../../payload/net/netproto.h"

static char err[200];

/* What the client formats, the peer parses back unchanged. */
static void round_trip(void **st)
{
	struct net_req a = {.mode = NET_UDP, .size = 1, .bytes = 5, .conns = 7, .seconds = 9}, b;
	char line[NET_LINE_MAX];

	(void)st;
	size_t n = net_req_format(&a, line, sizeof line);
	assert_true(n > 0 && line[n - 1] == '\n');
	line[n - 1] = 0;
	assert_string_equal(line, "ISOBENCH-NET 1 mode=udp size=1 bytes=5 conns=7 seconds=9");
	assert_int_equal(net_req_parse(line, &b, err, sizeof err), 0);
	assert_int_equal(b.mode, a.mode);
	assert_true(b.size == a.size && b.bytes == a.bytes && b.conns == a.conns &&
		    b.seconds == a.seconds);
}

/* Missing numbers take the defaults. */
static void defaults(void **st)
{
	struct net_req r;

	(void)st;
	assert_int_equal(net_req_parse("ISOBENCH-NET 1 mode=rr", &r, err, sizeof err), 0);
	assert_int_equal(r.mode, NET_RR);
	assert_int_equal(r.size, 1);
	assert_int_equal(r.seconds, 60);
	assert_true(r.bytes == 0 && r.conns == NET_CAP_CONNS);	/* no byte bound: time bounds it */
}

/* line -> refused, err containing want. */
static void refused(const char *line, const char *want)
{
	struct net_req r;

	err[0] = 0;
	assert_int_equal(net_req_parse(line, &r, err, sizeof err), -22);
	if (!strstr(err, want))
		fail_msg("'%s': reason '%s' lacks '%s'", line, err, want);
}

static void refusals(void **st)
{
	(void)st;
	refused("ISOBENCH-NET 1 mode=rr size=131073", "request too large: size=131073, this peer allows 1..131072");
	refused("ISOBENCH-NET 1 mode=rr size=0", "size=0");
	refused("ISOBENCH-NET 1 mode=source seconds=3601", "request too large: seconds=3601");
	refused("ISOBENCH-NET 1 mode=crr conns=10000001", "request too large: conns=10000001");
	refused("ISOBENCH-NET 1 mode=sink bytes=68719476737", "request too large: bytes=");
	refused("ISOBENCH-NET 1 mode=rr size=-1", "not a number");
	refused("ISOBENCH-NET 1 mode=rr size=12x", "not a number");
	refused("ISOBENCH-NET 1 mode=rr size=0x10", "not a number");
	refused("ISOBENCH-NET 1 mode=rr size=18446744073709551616", "not a number");
	refused("ISOBENCH-NET 1 mode=rr size=18446744073709551615", "request too large: size=18446744073709551615");
	refused("ISOBENCH-NET 1 mode=sh", "unknown mode 'sh'");
	refused("ISOBENCH-NET 1 mode=rr exec=/bin/sh", "unknown field 'exec=/bin/sh'");
	refused("ISOBENCH-NET 1 mode=rr junk", "not key=value");
	refused("ISOBENCH-NET 2 mode=rr", "protocol version 2, this peer speaks 1");
	/* the version is a strict number too (lib/num.h), not atoi's prefix */
	refused("ISOBENCH-NET 1x mode=rr", "protocol version 1x, this peer speaks 1");
	refused("ISOBENCH-NET +1 mode=rr", "protocol version +1, this peer speaks 1");
	refused("ISOBENCH-NET 1.5 mode=rr", "protocol version 1.5, this peer speaks 1");
	refused("ISOBENCH-NET 1 size=1", "no mode=");
	refused("GET / HTTP/1.0", "not an ISOBENCH-NET request");
	refused("", "not an ISOBENCH-NET request");
}

/* A store request (issue 33): run= and bytes= both, the run id 16 lower-case hex digits (a
 * file name on the peer: never a path), bytes within NET_CAP_STORE_BYTES; it round-trips. */
static void store(void **st)
{
	struct net_req a = {.mode = NET_STORE, .size = 1, .bytes = 12838, .conns = 1, .seconds = 60,
			    .run = "462cf1689b5d0b6a"}, b;
	char line[NET_LINE_MAX];

	(void)st;
	size_t n = net_req_format(&a, line, sizeof line);
	line[n - 1] = 0;
	assert_string_equal(line, "ISOBENCH-NET 1 mode=store size=1 bytes=12838 conns=1 seconds=60 "
				  "run=462cf1689b5d0b6a");
	assert_int_equal(net_req_parse(line, &b, err, sizeof err), 0);
	assert_int_equal(b.mode, NET_STORE);
	assert_string_equal(b.run, a.run);
	assert_true(b.bytes == a.bytes);
	refused("ISOBENCH-NET 1 mode=store bytes=10 run=../../etc/passw", "is not 16 lower-case hex");
	refused("ISOBENCH-NET 1 mode=store bytes=10 run=462CF1689B5D0B6A", "is not 16 lower-case hex");
	refused("ISOBENCH-NET 1 mode=store bytes=10 run=462cf1689b5d0b6", "is not 16 lower-case hex");
	refused("ISOBENCH-NET 1 mode=store bytes=10", "a store request names its run= and bytes=");
	refused("ISOBENCH-NET 1 mode=store run=462cf1689b5d0b6a", "bytes=0");
	refused("ISOBENCH-NET 1 mode=store bytes=67108865 run=462cf1689b5d0b6a", "1..67108864");
	/* other modes carry no run= on the line */
	a.mode = NET_RR;
	a.run[0] = 0;
	n = net_req_format(&a, line, sizeof line);
	assert_null(strstr(line, "run="));
}

static void addresses(void **st)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)(void *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)(void *)&ss;
	char txt[INET6_ADDRSTRLEN];

	(void)st;
	assert_int_equal(net_parse_addr("127.0.0.1", &ss, err, sizeof err), 0);
	assert_int_equal(ntohs(s4->sin_port), NET_DEFAULT_PORT);
	assert_int_equal(ntohl(s4->sin_addr.s_addr), 0x7f000001);
	assert_int_equal(net_parse_addr("10.0.2.100:4000", &ss, err, sizeof err), 0);
	assert_int_equal(ntohs(s4->sin_port), 4000);
	assert_int_equal(net_parse_addr("10.0.2.100:0", &ss, err, sizeof err), -22);
	assert_int_equal(net_parse_addr("10.0.2.100:65536", &ss, err, sizeof err), -22);
	assert_int_equal(net_parse_addr("10.0.2.100:", &ss, err, sizeof err), -22);
	assert_int_equal(net_parse_addr(":80", &ss, err, sizeof err), -22);
	/* The port's number as strtol(3) read it before lib/num.h: a '+' or a leading blank is
	 * taken, hex and a sign alone are not. */
	assert_int_equal(net_parse_addr("10.0.2.100:+80", &ss, err, sizeof err), 0);
	assert_int_equal(ntohs(s4->sin_port), 80);
	assert_int_equal(net_parse_addr("10.0.2.100: 81", &ss, err, sizeof err), 0);
	assert_int_equal(ntohs(s4->sin_port), 81);
	assert_int_equal(net_parse_addr("10.0.2.100:0x50", &ss, err, sizeof err), -22);
	assert_int_equal(net_parse_addr("10.0.2.100:-", &ss, err, sizeof err), -22);
	assert_string_equal(err, "peer 10.0.2.100:-: port must be 1..65535");
	/* IPv6: only "[ADDR]:PORT"; the forms a reader could take two ways are refused */
	assert_int_equal(net_parse_addr("[::1]:4000", &ss, err, sizeof err), 0);
	assert_int_equal(ss.ss_family, AF_INET6);
	assert_int_equal(ntohs(s6->sin6_port), 4000);
	assert_true(IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr));
	assert_int_equal(net_sa_len(&ss), sizeof(struct sockaddr_in6));
	assert_string_equal(net_sa_str(&ss, txt, sizeof txt), "::1");
	assert_true(net_sa_loopback(&ss));
	assert_int_equal(net_parse_addr("[fd00::2]:7117", &ss, err, sizeof err), 0);
	assert_false(net_sa_loopback(&ss));
	assert_int_equal(net_parse_addr("[::1", &ss, err, sizeof err), -22);
	assert_string_equal(err, "peer [::1: an IPv6 peer is [ADDR]:PORT (no closing ']')");
	assert_int_equal(net_parse_addr("[::1]", &ss, err, sizeof err), -22);
	assert_string_equal(err, "peer [::1]: an IPv6 peer is [ADDR]:PORT (no :PORT after ']')");
	assert_int_equal(net_parse_addr("::1:5", &ss, err, sizeof err), -22);
	assert_int_equal(net_parse_addr("[::1]:0", &ss, err, sizeof err), -22);
	assert_int_equal(net_parse_addr("[127.0.0.1]:80", &ss, err, sizeof err), -22);
	assert_int_equal(net_parse_addr("[host]:80", &ss, err, sizeof err), -22);
	/* one client key for either family: IPv4 as mapped IPv6, printed as IPv4 */
	assert_int_equal(net_parse_addr("127.0.0.1:5", &ss, err, sizeof err), 0);
	struct in6_addr k = net_sa_key(&ss);
	assert_true(IN6_IS_ADDR_V4MAPPED(&k));
	assert_string_equal(net_sa_str(&ss, txt, sizeof txt), "127.0.0.1");
	assert_true(net_sa_loopback(&ss));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(defaults),
		cmocka_unit_test(refusals),
		cmocka_unit_test(store),
		cmocka_unit_test(addresses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
