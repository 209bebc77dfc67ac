/* net.c — the `net` group: request/response, connection rate, throughput and small-write CPU
 * against a peer (`isobench --serve` on another machine, the VM's host, or this one), over a
 * real NIC. Run only when a peer is given (isobench.peer=HOST[:PORT], natively --peer); else
 * SKIP at once; with a peer but no network interface (only the loopback), no route to it or
 * no carrier on the route's interface (netnic.h net_route_if()) as well.
 * Protocol and caps: payload/net/netproto.h. Single-copy tests.
 *
 * Setup opens a session (the request line; its "ok" answer's round trip is rtt0_ns, the
 * first exchange), reads the path MTU (IP_MTU) and, for TCP, the MSS (TCP_MAXSEG). Every
 * socket operation has a timeout (netproto.h: connect 3 s, each send/recv 5 s, a UDP answer
 * 1 s), so a peer killed mid-test is a FAIL naming it, never a hang. SIGPIPE is ignored: a
 * write to a dead peer is -EPIPE.
 *
 *   net-tcp-rr      one loop = one NET_RR_SIZE-byte (1; $ISOBENCH_NET_RR_SIZE) request and its
 *                   response on one connection (TCP_NODELAY): transactions/s. The clock IS read around each
 *                   transaction: its latency is the measurement (lib/latency.h percentiles).
 *   net-tcp-crr     one loop = connect, 1-byte request, 1-byte response, close: transactions/s
 *                   (latency percentiles per transaction, as for rr). The peer closes first, so
 *                   TIME_WAIT stays on its side, not on the client's ports. Six client calls
 *                   per connection: socket, connect, write, read, read (the peer's close),
 *                   close — netperf TCP_CRR's transaction (crr_one())
 *                   (timeouts from one watchdog timer per run call: crr_tick()).
 *   net-tcp-stream  one loop = NET_CHUNK (10^6) bytes to the peer in write()s of NET_WRITE
 *                   (128 KiB, iperf3's size; the last one shorter); the peer discards them:
 *                   MB/s (10^6 bytes); extra cpu_pct_x100: the sender's (this process's) CPU
 *                   time / wall time x 10000.
 *   net-tcp-maerts  one loop = NET_CHUNK bytes received from the peer, which sends them in
 *                   NET_WRITE (128 KiB) writes, in read()s of at most NET_WRITE (as iperf3 -R's
 *                   receiver reads): MB/s; the
 *                   sender is the peer, whose CPU is not on this wire: the extra is the
 *                   receiver's share (rcv_cpu_pct_x100).
 *   Beside the process's own share, every test but paced-write records sys_cpu_pct_x100: the
 *   busy share of all CPUs over the sample (/proc/stat, softirq and steal included, read at
 *   the sample's start and after its loop, never inside it), as netperf's -c/-C account.
 *   net-udp-rr      as tcp-rr over UDP: a datagram with no answer within 1 s is lost: counted
 *                   (extra lost), its 1 s wait recorded in the latency histogram (max shows
 *                   it), never retried or hidden; an answer to an earlier datagram (its
 *                   sequence number differs) is dropped and waited past. The number is
 *                   32 bits in the first 4 bytes (little-endian) of a datagram of 4 bytes
 *                   or more, and the datagram's bytes when shorter: 8 bits at the 1-byte
 *                   size of netperf's UDP_RR, whose datagrams carry none (there a stale
 *                   answer passes for the current one when it comes 256 datagrams late).
 *   net-paced-write PACED_RATE_HZ (50,000) writes/s of PACED_SIZE (512) bytes to the peer
 *                   (paced.h, the loop of sockwrite-paced): value = % of one CPU inside write()
 *                   (busy_pct_x100 / 100, lower is better); extras rate_hz (achieved),
 *                   target_hz, behind = 1 when the achieved rate is under 95% of the target
 *                   (this machine cannot keep the pace: the value is then for a lower rate).
 */
#define _GNU_SOURCE
#include "io.h"
#include "latency.h"
#include "num.h"
#include "../core/paced.h"
#include "../core/probe_util.h"
#include "record.h"
#include "vocab.h"
#include "../net/netnic.h"
#include "../net/netproto.h"
#include "../sys.h"
#include "../sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef NET_RR_SIZE
#define NET_RR_SIZE 1		/* bytes per request and per response (netperf's TCP_RR) */
#endif
/* Another rr/udp-rr message size, for a side by side with a tool whose minimum is larger
 * (sockperf: 14 bytes): 1..NET_CAP_SIZE bytes, in the SAMPLE extra msg_bytes. */
#define NET_RR_SIZE_ENV "ISOBENCH_NET_RR_SIZE"
#define NET_CHUNK 1000000	/* bytes per loop of stream (sent) and maerts (received), 1 MB */
#define NET_WRITE 131072	/* bytes per write() and per read() of a stream, either way, on
				 * both ends (the peer reads NET_CAP_SIZE): iperf3's 128 KiB */
#define NET_SESSION_S 3600	/* the session length asked for: NET_CAP_SECONDS */
#define IP_MTU_OPT 14		/* IP_MTU, include/uapi/linux/in.h (musl may lack it) */
#define IPV6_MTU_OPT 24		/* IPV6_MTU, include/uapi/linux/in6.h: the same for IPv6 */

struct net_state {
	uint64_t sys_busy0, sys_all0;	/* /proc/stat at the sample's start (sys_cpu()) */
	int fd, udp;
	struct sockaddr_storage peer;
	enum net_mode mode;
	size_t size;
	char *buf;
	struct lat_hist *h;
	struct paced pc;
	uint64_t rtt0, lost, t0, cpu0;
	int mtu, mss;
	uint32_t seq;		/* net-udp-rr's last datagram's number (udp_one()) */
};

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ctx->note for an error rc met while doing what; returns rc. */
static int net_err(struct bench_ctx *ctx, int rc, const char *what)
{
	const char *why = rc == -EPIPE ? "the peer closed the connection (killed, or one of its "
					 "caps reached)"
			: rc == -ECONNRESET ? "connection reset by the peer (killed?)"
			: rc == -EAGAIN || rc == -ETIMEDOUT ? "no answer from the peer in time"
			: rc == -ECONNREFUSED ? "connection refused (no isobench --serve there?)"
			: strerror(-rc);

	bench_note(ctx, "peer %s: %s: %s", bench_peer, what, why);
	return rc == -EAGAIN ? -ETIMEDOUT : rc;
}

static int getint(int fd, int level, int opt)
{
	int v = 0;
	socklen_t l = sizeof v;

	return getsockopt(fd, level, opt, &v, &l) ? -1 : v;
}

/* The request line for mode, its answer; rtt0 = that exchange. 0 or -errno (note set). */
static int net_hello(struct bench_ctx *ctx, struct net_state *s)
{
	struct net_req r = {.mode = s->mode, .size = s->size, .bytes = 0,	/* time bounds it */
			    .conns = NET_CAP_CONNS, .seconds = NET_SESSION_S};
	char line[NET_LINE_MAX], ans[NET_LINE_MAX], said[300];
	size_t n = net_req_format(&r, line, sizeof line), alen = 0;
	uint64_t t0 = now_ns();
	int rc = sock_write_all(s->fd, line, n);

	if (!rc)
		rc = net_read_line_len(s->fd, ans, sizeof ans, &alen);
	/* bytes came that are no line (closed after them, or too long): what they are */
	if (rc && !(alen && (rc == -EPIPE || rc == -EMSGSIZE)))
		return net_err(ctx, rc, "session request");
	s->rtt0 = now_ns() - t0;
	if (!rc && !strncmp(ans, NET_MAGIC " 1 ok", strlen(NET_MAGIC " 1 ok")))
		return 0;
	/* A refusal is the peer's (ECONNREFUSED); anything else is no peer's answer at all
	 * (EPROTO), quoted byte for byte, never taken for a refusal it did not send. */
	int refusal = !rc && net_answer_said(ans, alen, said, sizeof said);
	bench_note(ctx, "peer %s %s%.200s", bench_peer, refusal ? "refused the session: " : "", said);
	return refusal ? -ECONNREFUSED : -EPROTO;
}

/* The path MTU of connected socket fd (IP_MTU, or IPV6_MTU for an IPv6 peer). */
static int path_mtu(const struct net_state *s, int fd)
{
	return s->peer.ss_family == AF_INET6 ? getint(fd, IPPROTO_IPV6, IPV6_MTU_OPT)
					     : getint(fd, IPPROTO_IP, IP_MTU_OPT);
}

/* The session's UDP socket, connected to the peer's port, and the first datagram answered
 * (three tries). 0 or -errno (note set). */
static int net_udp_open(struct bench_ctx *ctx, struct net_state *s)
{
	char c = 0;

	s->udp = socket(s->peer.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s->udp < 0 || connect(s->udp, (struct sockaddr *)&s->peer, net_sa_len(&s->peer)))
		return net_err(ctx, -errno, "UDP socket");
	net_set_timeouts(s->udp, NET_UDP_WAIT_MS);
	for (int i = 0; i < 3; i++)
		if (send(s->udp, &c, 1, 0) == 1 && recv(s->udp, &c, 1, 0) == 1) {
			s->mtu = path_mtu(s, s->udp);
			return 0;
		}
	bench_note(ctx, "peer %s: no UDP answer in 3 s: UDP does not reach it (QEMU user "
		   "networking carries TCP only: use a tap)", bench_peer);
	return -EHOSTUNREACH;
}

/* Common setup: the peer, the session, MTU/MSS; buf of size bytes. */
static int net_setup(struct bench_ctx *ctx, enum net_mode mode, size_t size)
{
	struct net_state *s = calloc(1, sizeof *s);
	char err[200];
	int rc;

	if (!s)
		return -ENOMEM;
	ctx->state = s;
	s->fd = s->udp = -1;
	s->mode = mode;
	s->size = size;
	if (!bench_peer[0] && bench_peer_rejected[0]) {
		bench_note(ctx, "isobench.peer=%.140s: no peer", bench_peer_rejected);
		return BENCH_SKIP;
	}
	if (!bench_peer[0]) {
		bench_note(ctx, "no peer: give isobench.peer=HOST[:PORT] (natively --peer "
			   "HOST:PORT) of a machine running isobench --serve");
		return BENCH_SKIP;
	}
	signal(SIGPIPE, SIG_IGN);
	if (net_parse_addr(bench_peer, &s->peer, err, sizeof err)) {
		bench_note(ctx, "%s", err);
		return -EINVAL;
	}
	/* No network at all (no interface but the loopback) is a fact of the machine, not a
	 * failure of the path: SKIP. A peer on the loopback needs none. */
	if (!strcmp(net_nic_name(), "-") && !net_sa_loopback(&s->peer)) {
		bench_note(ctx, "no network: no interface but the loopback (no NIC, or no driver "
			   "for it in this kernel), so peer %s cannot be reached", bench_peer);
		return BENCH_SKIP;
	}
	/* No route to the peer (its interface down, unconfigured: no ip=) or no carrier on the
	 * interface the route leaves by: a fact of the machine, SKIP at once (not a FAIL after
	 * connect's timeout). */
	char ifn[IF_NAMESIZE + 1];
	unsigned fl = 0;
	rc = net_route_if(&s->peer, ifn, sizeof ifn, &fl, err, sizeof err);
	if (rc == -ENETUNREACH || rc == -EHOSTUNREACH || rc == -ENETDOWN) {
		bench_note(ctx, "no network: %.120s (peer %s)", err, bench_peer);
		return BENCH_SKIP;
	}
	if (!rc && !(fl & IFF_RUNNING)) {
		bench_note(ctx, "no network: the route to peer %s leaves by %s, which has no "
			   "carrier (link down)", bench_peer, ifn);
		return BENCH_SKIP;
	}
	if (!(s->buf = calloc(1, size < NET_CHUNK ? NET_CHUNK : size)) ||
	    !(s->h = malloc(sizeof *s->h)))
		return -ENOMEM;
	if ((s->fd = net_connect(&s->peer, 1)) < 0)
		return net_err(ctx, s->fd, "connect");
	if ((rc = net_hello(ctx, s)))
		return rc;
	if (mode == NET_SINK || mode == NET_SOURCE)	/* bulk: Nagle on, as the peer does */
		net_set_nodelay(s->fd, 0);
	s->mtu = path_mtu(s, s->fd);
	s->mss = getint(s->fd, IPPROTO_TCP, TCP_MAXSEG);
	if (mode == NET_UDP)
		return net_udp_open(ctx, s);
	return 0;
}

/* The whole machine's CPU time from /proc/stat's "cpu" line, in USER_HZ ticks: *busy (user
 * nice system irq softirq steal; guest time is inside user/nice) and *all (those + idle
 * iowait), as netperf's -c/-C read it, so softirq and vhost work done for this test on
 * other CPUs is seen. 0 each when unreadable. Read only at a sample's edges. */
static void sys_cpu(uint64_t *busy, uint64_t *all)
{
	unsigned long long v[PROC_STAT_CPU];

	*busy = *all = 0;
	if (proc_stat_cpu(v) < 4)
		return;
	*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	*all = *busy + v[3] + v[4];
}

/* Extra sys_cpu_pct_x100: the busy share of all CPUs since the sample started, x100 (10000 =
 * every CPU busy); -1 when /proc/stat is unreadable or no tick passed. */
static void sys_cpu_extra(struct bench_ctx *ctx, const struct net_state *s)
{
	uint64_t busy, all;

	sys_cpu(&busy, &all);
	bench_extra(ctx, REC_EXTRA_SYS_CPU_PCT_X100, all > s->sys_all0 && busy >= s->sys_busy0
		    ? (int64_t)((busy - s->sys_busy0) * 10000 / (all - s->sys_all0)) : -1);
}

/* At a sample's first batch: restart the per-sample counters. */
static void net_sample(struct bench_ctx *ctx, struct net_state *s)
{
	if (!probe_new_sample(ctx))
		return;
	lat_reset(s->h);
	s->lost = 0;
	s->t0 = now_ns();
	s->cpu0 = cpu_ns();
	sys_cpu(&s->sys_busy0, &s->sys_all0);
}

/* The sample's latency percentiles and the path facts, as extras. */
static void net_lat_extras(struct bench_ctx *ctx, const struct net_state *s)
{
	uint64_t q[LAT_NQ];

	lat_quantiles(s->h, q);
	for (int i = 0; i < LAT_NQ; i++)
		bench_extra(ctx, lat_keys[i], (int64_t)q[i]);
	bench_lat(ctx, s->h);	/* the RESULT's whole-run percentiles */
	bench_extra(ctx, REC_EXTRA_MTU, s->mtu);
	bench_extra(ctx, REC_EXTRA_RTT0_NS, (int64_t)s->rtt0);
	sys_cpu_extra(ctx, s);
}

static int tcp_rr_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct net_state *s = ctx->state;
	int rc;

	net_sample(ctx, s);
	for (uint64_t i = 0; i < iters; i++) {
		uint64_t t = now_ns();
		s->buf[0] = (char)i;
		if ((rc = sock_write_all(s->fd, s->buf, s->size)) ||
		    (rc = read_all(s->fd, s->buf, s->size)))
			return net_err(ctx, rc, "request/response");
		lat_record(s->h, now_ns() - t);
	}
	net_lat_extras(ctx, s);
	bench_extra(ctx, REC_EXTRA_MSS, s->mss);
	bench_extra(ctx, REC_EXTRA_MSG_BYTES, (int64_t)s->size);
	ctx->sink += (uint8_t)s->buf[0];
	return 0;
}

/* CRR's watchdog: a timer (CRR_TICK_MS, armed once per run call, not per connection) whose
 * handler shuts down the transaction's socket when no transaction ended over a whole tick, so a
 * peer or path gone silent wakes the blocked connect()/read() instead of hanging the run.
 * The handler is installed with SA_RESTART: a tick in a healthy run restarts the call it
 * interrupted at no cost to the transaction path. */
#define CRR_TICK_MS NET_CONNECT_MS
static volatile sig_atomic_t crr_fd = -1, crr_done, crr_seen, crr_stalled;

static void crr_tick(int sig)
{
	(void)sig;
	if (crr_done == crr_seen && crr_fd >= 0) {
		crr_stalled = 1;
		shutdown(crr_fd, SHUT_RDWR);
	}
	crr_seen = crr_done;
}

/* One CRR connection with the calls of netperf TCP_CRR's transaction: socket, connect, write,
 * read (the response), read (the peer's close: 0 bytes), close. (netperf 2.7's omni client
 * also sets SO_REUSEADDR and binds a port of its own per connection, src/nettest_bsd.c
 * create_data_socket(), to cycle client ports past TIME_WAIT; here the peer closes first,
 * so TIME_WAIT stays on its side and neither is needed.) A blocking socket, no
 * per-connection options: the 1-byte request is the connection's first data, which Nagle's
 * algorithm sends at once, so TCP_NODELAY changes nothing; the timeouts are crr_tick()'s.
 * 0 or -errno (-ETIMEDOUT when the watchdog fired). */
static int crr_one(const struct sockaddr_storage *sa, char *c)
{
	int fd = socket(sa->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0), rc = 0;

	if (fd < 0)
		return -errno;
	crr_fd = fd;
	if (connect(fd, (const struct sockaddr *)sa, net_sa_len(sa)))
		rc = -errno;
	if (!rc)
		rc = sock_write_all(fd, c, 1);
	if (!rc)
		rc = read_all(fd, c, 1);
	if (!rc) {	/* the peer's close, as netperf's disconnect_data_socket() waits for */
		char eof;
		ssize_t k = read(fd, &eof, 1);
		rc = k < 0 ? -errno : k > 0 ? -EPROTO : 0;
	}
	crr_fd = -1;
	close(fd);
	return crr_stalled ? -ETIMEDOUT : rc;
}

static int tcp_crr_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct net_state *s = ctx->state;
	char c = NET_CRR_BYTE;
	int rc = 0;
	struct sigaction sa = {.sa_handler = crr_tick, .sa_flags = SA_RESTART};
	struct sigevent ev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGRTMIN};
	struct itimerspec its = {{CRR_TICK_MS / 1000, (CRR_TICK_MS % 1000) * 1000000L},
				 {CRR_TICK_MS / 1000, (CRR_TICK_MS % 1000) * 1000000L}};
	timer_t tm;

	net_sample(ctx, s);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGRTMIN, &sa, NULL);
	crr_stalled = 0;
	crr_seen = crr_done = 0;
	int armed = !timer_create(CLOCK_MONOTONIC, &ev, &tm) && !timer_settime(tm, 0, &its, NULL);
	for (uint64_t i = 0; i < iters && !rc; i++) {
		uint64_t t = now_ns();
		rc = crr_one(&s->peer, &c);
		if (!rc)
			lat_record(s->h, now_ns() - t);
		crr_done = (sig_atomic_t)(crr_done + 1);
	}
	if (armed)
		timer_delete(tm);
	if (rc)
		return net_err(ctx, rc, "crr transaction");
	net_lat_extras(ctx, s);
	ctx->sink += (uint8_t)c;
	return 0;
}

static void cpu_extra(struct bench_ctx *ctx, const struct net_state *s, const char *key)
{
	uint64_t wall = now_ns() - s->t0;

	bench_extra(ctx, key, (int64_t)(wall ? (cpu_ns() - s->cpu0) * 10000 / wall : 0));
	bench_extra(ctx, REC_EXTRA_MTU, s->mtu);
	bench_extra(ctx, REC_EXTRA_MSS, s->mss);
	bench_extra(ctx, REC_EXTRA_RTT0_NS, (int64_t)s->rtt0);
	sys_cpu_extra(ctx, s);
}

static int stream_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct net_state *s = ctx->state;
	int rc;

	net_sample(ctx, s);
	for (uint64_t i = 0; i < iters; i++)
		for (size_t off = 0; off < NET_CHUNK; off += NET_WRITE)
			if ((rc = sock_write_all(s->fd, s->buf, NET_CHUNK - off < NET_WRITE
							 ? NET_CHUNK - off : NET_WRITE)))
				return net_err(ctx, rc, "stream write");
	cpu_extra(ctx, s, REC_EXTRA_CPU_PCT_X100);
	return 0;
}

static int maerts_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct net_state *s = ctx->state;
	int rc;

	net_sample(ctx, s);
	for (uint64_t i = 0; i < iters; i++)
		for (size_t off = 0; off < NET_CHUNK; off += NET_WRITE)
			if ((rc = read_all(s->fd, s->buf, NET_CHUNK - off < NET_WRITE
							  ? NET_CHUNK - off : NET_WRITE)))
				return net_err(ctx, rc, "maerts read");
	cpu_extra(ctx, s, REC_EXTRA_RCV_CPU_PCT_X100);
	ctx->sink += (uint8_t)s->buf[0];
	return 0;
}

/* Whether datagram c (k bytes) is the answer to number seq: its first n bytes hold seq
 * little-endian (n = min(size, 4): the sequence's bytes, see net-udp-rr above). */
static int udp_seq_is(const char *c, ssize_t k, size_t n, uint32_t seq)
{
	if (k < (ssize_t)n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((uint8_t)c[i] != (uint8_t)(seq >> (8 * i)))
			return 0;
	return 1;
}

/* One UDP exchange; its answer, or lost after NET_UDP_WAIT_MS. 0 or -errno. */
static int udp_one(struct net_state *s)
{
	uint64_t t = now_ns(), deadline = t + NET_UDP_WAIT_MS * 1000000ull;
	size_t n = s->size < 4 ? s->size : 4;

	s->seq++;
	for (size_t i = 0; i < n; i++)
		s->buf[i] = (char)(s->seq >> (8 * i));
	if (send(s->udp, s->buf, s->size, 0) != (ssize_t)s->size)
		return -errno;
	for (;;) {
		static char c[NET_CAP_SIZE];
		ssize_t k = recv(s->udp, c, sizeof c, 0);
		uint64_t now = now_ns();
		if (udp_seq_is(c, k, n, s->seq)) {
			lat_record(s->h, now - t);
			return 0;
		}
		if (k < 0 && errno != EAGAIN && errno != EINTR)
			return errno == ECONNREFUSED ? -ECONNREFUSED : -errno;
		if (now >= deadline || k < 0) {
			s->lost++;
			lat_record(s->h, now - t);
			return 0;
		}
	}
}

static int udp_rr_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct net_state *s = ctx->state;
	int rc;

	net_sample(ctx, s);
	for (uint64_t i = 0; i < iters; i++)
		if ((rc = udp_one(s)))
			return net_err(ctx, rc, "UDP request/response");
	net_lat_extras(ctx, s);
	bench_extra(ctx, REC_EXTRA_LOST, (int64_t)s->lost);
	bench_extra(ctx, REC_EXTRA_MSG_BYTES, (int64_t)s->size);
	ctx->sink += s->seq;
	return 0;
}

static int paced_setup(struct bench_ctx *ctx)
{
	int rc = net_setup(ctx, NET_SINK, PACED_SIZE);

	if (rc)
		return rc;
	return probe_timer_slack_1ns(ctx);
}

static int paced_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct net_state *s = ctx->state;
	int rc;

	if (probe_new_sample(ctx))
		paced_start(&s->pc, 1000000000u / PACED_RATE_HZ);
	if ((rc = paced_writes(&s->pc, s->fd, s->buf, s->size, iters)))
		return net_err(ctx, rc, "paced write");
	int64_t rate = paced_rate(&s->pc);
	bench_extra(ctx, REC_EXTRA_BUSY_PCT_X100, paced_busy_x10000(&s->pc));
	bench_extra(ctx, REC_EXTRA_WRITE_NS, (int64_t)(s->pc.busy / s->pc.writes));
	bench_extra(ctx, REC_EXTRA_RATE_HZ, rate);
	bench_extra(ctx, REC_EXTRA_TARGET_HZ, PACED_RATE_HZ);
	bench_extra(ctx, REC_EXTRA_BEHIND, rate * 100 < PACED_RATE_HZ * 95);
	bench_extra(ctx, REC_EXTRA_MTU, s->mtu);
	bench_extra(ctx, REC_EXTRA_RTT0_NS, (int64_t)s->rtt0);
	ctx->sink += s->pc.writes;
	return 0;
}

static void net_teardown(struct bench_ctx *ctx)
{
	struct net_state *s = ctx->state;

	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	if (s->udp >= 0)
		close(s->udp);
	free(s->buf);
	free(s->h);
	free(s);
}

/* INFO net.peer: the address the test talks to (the runner calls it before TEST). */
static void net_info(const struct bench *t, const char *self, struct rec_body *b)
{
	(void)t;
	(void)self;
	rec_str(b, RK_NET_PEER, bench_peer[0] ? bench_peer : "-");
}

/* mode's session with the rr message size: $ISOBENCH_NET_RR_SIZE (digits, 1..NET_CAP_SIZE),
 * unset or empty NET_RR_SIZE; any other value fails the test with a note saying so (a
 * comparison at the wrong size is worse than none). */
static int rr_size_setup(struct bench_ctx *ctx, enum net_mode mode)
{
	const char *e = getenv(NET_RR_SIZE_ENV);
	long long v = NET_RR_SIZE;

	if (e && *e && num_ll(e, 0, 1, NET_CAP_SIZE, &v)) {
		bench_note(ctx, "%s=%.40s: not a size in bytes 1..%d", NET_RR_SIZE_ENV, e,
			   NET_CAP_SIZE);
		return -EINVAL;
	}
	return net_setup(ctx, mode, (size_t)v);
}

static int rr_setup(struct bench_ctx *c) { return rr_size_setup(c, NET_RR); }
static int crr_setup(struct bench_ctx *c) { return net_setup(c, NET_CRR, 1); }
static int stream_setup(struct bench_ctx *c) { return net_setup(c, NET_SINK, NET_WRITE); }
static int maerts_setup(struct bench_ctx *c) { return net_setup(c, NET_SOURCE, NET_WRITE); }
static int udp_setup(struct bench_ctx *c) { return rr_size_setup(c, NET_UDP); }

#define NET(id, ttl, unt, knd, pl, su, ru, ...) \
	BENCH(id, .title = ttl, .group = REC_GROUP_NET, .unit = unt, \
		.kind = knd, .per_loop = pl, .max_copies = 1, .info = net_info, .setup = su, \
		.run = ru, .teardown = net_teardown, __VA_ARGS__)

NET(net_tcp_rr, "TCP 1-byte request/response with a peer", REC_UNIT_TPS,
    BENCH_RATE, 1, rr_setup, tcp_rr_run);
NET(net_tcp_crr, "TCP connect/request/response/close with a peer",
    REC_UNIT_TPS, BENCH_RATE, 1, crr_setup, tcp_crr_run);
NET(net_tcp_stream, "TCP bulk send to a peer", REC_UNIT_MBPS, BENCH_RATE,
    1, stream_setup, stream_run);
NET(net_tcp_maerts, "TCP bulk receive from a peer", REC_UNIT_MBPS,
    BENCH_RATE, 1, maerts_setup, maerts_run);
NET(net_udp_rr, "UDP 1-byte request/response with a peer", REC_UNIT_TPS,
    BENCH_RATE, 1, udp_setup, udp_rr_run);
NET(net_paced_write, "TCP write() 512 B at 50k/s to a peer",
    REC_UNIT_CPU_PCT, BENCH_TIME, 1, paced_setup, paced_run, .value_extra = REC_EXTRA_BUSY_PCT_X100,
    .value_scale = 0.01);
