/* netproto.h — the network peer's control protocol, version 1: the one owner of its words,
 * caps and timeouts, shared by the peer (netserve.c, `isobench --serve`) and the `net` tests
 * (bench/net.c). Also the socket helpers with a timeout on every operation. The NIC facts
 * both ends print are netnic.h's; the identities a hello session trades, nethello.h's.
 *
 * A session: the client connects TCP to the peer's port and sends one line (at most
 * NET_LINE_MAX bytes)
 *   "ISOBENCH-NET 1 mode=M size=S bytes=B conns=C seconds=D\n"
 * and the peer answers one line, either
 *   "ISOBENCH-NET 1 ok host=H kernel=K machine=A nic=N\n"      (no spaces inside values)
 * or
 *   "ISOBENCH-NET 1 refused <reason>\n" and closes the connection.
 * After "ok", by mode:
 *   rr      the connection carries S-byte requests, each answered with S bytes (an echo);
 *   sink    the client sends, the peer reads and discards (stream, paced-write), <= B bytes
 *           (B = 0: no byte bound, the session's seconds bound it);
 *   source  the peer sends S-byte writes until B bytes (0: none), the client closes or the
 *           client's egress budget (--max-egress) is spent (maerts);
 *   crr     the control connection stays open and idle; each transaction is a new TCP
 *           connection to the same port carrying the one byte NET_CRR_BYTE, answered with
 *           one byte, then closed; at most C of them, from the session's address only;
 *   udp     the control connection stays open; the client sends S-byte datagrams to the same
 *           port number over UDP, the peer echoes each one to its sender (session's address
 *           only);
 *   hello   no data: the "ok" line's identity is all the client wants (the header's peer.*).
 *   store   a run's whole log (issue 33): the request names the run (run=R, 16 lower-case hex
 *           digits, BEGIN's run=) and its length (bytes=B, 1..NET_CAP_STORE_BYTES); after
 *           "ok" the client sends exactly B bytes and the peer answers one more line,
 *           "ISOBENCH-NET 1 stored <file>\n" once the log is in its store, or
 *           "ISOBENCH-NET 1 refused <reason>\n". Only a peer started with --store DIR keeps
 *           logs (any other refuses the request): one file per run, DIR/<R>.log, never
 *           overwritten (a run stored already is refused; the bytes go to DIR/.<R>.part, then
 *           a hard link names them), at most NET_CAP_STORE_BYTES each and NET_CAP_STORE_FILES
 *           files in DIR; a cut upload leaves nothing. The peer keeps only what the upload
 *           claims to be (netserve.c store_check()): every line holding the record tag
 *           checks, the first record is BEGIN seq 1 naming run=R, seq adds 1 to the last,
 *           which is END with its count; else "refused <what is wrong, with its line>".
 * A session ends when the client closes the control connection, after D seconds, or at a cap
 * (the peer closes). Every number has a cap (NET_CAP_*); a request over one is refused with a
 * line naming the field, the value and the cap. The peer as a whole is bounded too: it listens
 * on one address (127.0.0.1 unless --bind names another; 0.0.0.0, every address, only when
 * named), lives NET_SERVE_LIFE_S unless --max-seconds says otherwise (0: forever, only when
 * said), gives one client address at most NET_CAP_SESSIONS_PER_CLIENT sessions at once and
 * NET_CAP_EGRESS bytes over its life (--max-egress), and when all NET_CAP_SESSIONS slots are
 * taken a new client takes the slot of the session that has moved no data for the longest,
 * if that is NET_EVICT_IDLE_MS or more (a trickling client cannot hold a slot against one
 * that measures). The peer parses these fields and nothing
 * else: it never runs anything a client sends. IPv4 and IPv6 ("[ADDR]:PORT").
 */
#ifndef ISOBENCH_NETPROTO_H
#define ISOBENCH_NETPROTO_H

#include <netinet/in.h>
#include <sys/socket.h>
#include <stddef.h>
#include <stdint.h>

#define NET_MAGIC "ISOBENCH-NET"
#define NET_VERSION 1
#define NET_LINE_MAX 512
#define NET_DEFAULT_PORT 7117	/* --serve's port and a peer address's, when none is given */
#define NET_CRR_BYTE 'c'	/* a crr transaction's request; never NET_MAGIC's first byte */

/* What one client may ask for: per session. */
#define NET_CAP_SIZE 131072			/* bytes per message (and per stream read) */
#define NET_CAP_BYTES (64ull << 30)		/* bytes= of a stream/maerts session, when one
						 * is asked (0, the default: time bounds it) */
#define NET_CAP_CONNS 10000000u			/* crr connections per session */
#define NET_CAP_SECONDS 3600u			/* session length */
#define NET_CAP_SESSIONS 16			/* sessions open at once (all clients) */

/* What a peer started with --store DIR keeps (mode store). */
#define NET_CAP_STORE_BYTES (64u << 20)		/* bytes of one log (a standard run of every
						 * group natively: 0.45 MB) */
#define NET_CAP_STORE_FILES 1000		/* logs in DIR */
#define NET_RUN_ID_LEN 16			/* hex digits of a run id (BEGIN run=) */

/* What the peer allows one client address (all its sessions), and its own life. */
#define NET_CAP_SESSIONS_PER_CLIENT 4		/* sessions open at once */
#define NET_CAP_EGRESS (1ull << 40)		/* bytes sent to it over the peer's life, 1 TiB
						 * (--max-egress; a thorough maerts at 10 GbE
						 * draws ~140 GB) */
#define NET_SERVE_LIFE_S 3600			/* --max-seconds by default */
/* The option PID 1 adds when it runs the peer (payload/pid1/peer.c, isobench.serve=1): the
 * peer's log then says mode=init, the image's, not a host's. */
#define NET_SERVE_FROM_INIT "--from-init"
#define NET_EVICT_IDLE_MS 1000			/* no data moved for this long: the session's
						 * slot goes to a new client when all are taken */

/* Timeouts (ms): every socket operation of both ends has one, so a vanished end is an
 * error, never a hang. */
#define NET_CONNECT_MS 3000	/* connect() */
#define NET_IO_MS 5000		/* each send/recv (SO_SNDTIMEO / SO_RCVTIMEO) */
#define NET_UDP_WAIT_MS 1000	/* one datagram's answer; past it the datagram is lost */

enum net_mode { NET_RR, NET_SINK, NET_SOURCE, NET_CRR, NET_UDP, NET_HELLO, NET_STORE, NET_NMODES };
extern const char *const net_mode_names[NET_NMODES];	/* "rr", "sink", ... */

struct net_req {
	enum net_mode mode;
	uint64_t size, bytes, conns, seconds;
	char run[NET_RUN_ID_LEN + 1];	/* store: the run's id; "" otherwise */
};

/* Format req as the request line (with '\n') into out; returns its length. */
size_t net_req_format(const struct net_req *req, char *out, size_t cap);
/* Parse a request line (without '\n'). 0, or -EINVAL with why (which field, value and cap)
 * in err. Missing numbers take the defaults: size 1, bytes 0 (no byte bound), conns
 * NET_CAP_CONNS, seconds 60. */
int net_req_parse(const char *line, struct net_req *req, char *err, size_t errlen);

/* Send a run's whole log (len bytes at log) to peer (HOST[:PORT]) as run (its id), in a
 * store session. 0 with the peer's file name in msg; -errno with why in msg (the peer's
 * refusal in its words, or what failed). Every step has its timeout (NET_CONNECT_MS, NET_IO_MS). */
int net_send_log(const char *peer, const char *run, const char *log, size_t len, char *msg,
		 size_t cap);

/* "HOST[:PORT]" or "[IPV6]:PORT" (PORT default NET_DEFAULT_PORT; HOST an IPv4 address or a
 * name getaddrinfo resolves, IPv4 first; an IPv6 address only in brackets with its port, as
 * in URLs: "::1:5" and "[::1]" are ambiguous and refused) into sa (AF_INET or AF_INET6).
 * 0 or -EINVAL (why in err). */
int net_parse_addr(const char *spec, struct sockaddr_storage *sa, char *err, size_t errlen);
/* The length of sa for connect()/bind(): its family's sockaddr. */
socklen_t net_sa_len(const struct sockaddr_storage *sa);
/* sa's address as text ("127.0.0.1", "::1"; an IPv4-mapped IPv6 address as its IPv4) into
 * out (cap >= INET6_ADDRSTRLEN); returns out. */
const char *net_sa_str(const struct sockaddr_storage *sa, char *out, size_t cap);
/* sa's address as an IPv6 address (IPv4 mapped, ::ffff:a.b.c.d): one key for a client of
 * either family (the peer's per-client caps). */
struct in6_addr net_sa_key(const struct sockaddr_storage *sa);
/* 1 when sa is a loopback address (127.0.0.0/8, ::1, IPv4-mapped 127/8). */
int net_sa_loopback(const struct sockaddr_storage *sa);

/* Set SO_RCVTIMEO and SO_SNDTIMEO to ms. */
void net_set_timeouts(int fd, int ms);

/* TCP_NODELAY on (on != 0: every write a segment at once, for request-response) or off
 * (Nagle on, as bulk senders and iperf3/netperf streams run). Errors are ignored. */
void net_set_nodelay(int fd, int on);
/* A TCP socket connected to sa within NET_CONNECT_MS, blocking, with NET_IO_MS timeouts;
 * TCP_NODELAY when nodelay. fd, or -errno (-ETIMEDOUT when the connect took too long). */
int net_connect(const struct sockaddr_storage *sa, int nodelay);
/* Read one line ending in '\n' (stripped) of at most cap-1 bytes, byte by byte (the data
 * after it stays in the socket). 0, -EPIPE at end of file, -EMSGSIZE, or -errno. */
int net_read_line(int fd, char *out, size_t cap);
/* net_read_line(), and *len the bytes of the line in out (NULs included: quote it with
 * io_quote()), also when it fails after some came (-EPIPE, -EMSGSIZE: out holds them). */
int net_read_line_len(int fd, char *out, size_t cap, size_t *len);
/* The peer's answer line ans (len bytes), when it is no "ok" line, in words into out (cap
 * bytes): its reason after "refused" when it is a refusal, else "not an ISOBENCH-NET answer:
 * it sent '<the bytes, io_quote()d>'". Returns 1 for a refusal, 0 for anything else. */
int net_answer_said(const char *ans, size_t len, char *out, size_t cap);

#endif
