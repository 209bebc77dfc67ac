/* netserve.c — `isobench --serve [--port P] [--bind ADDR] [--max-seconds S]`: the peer that
 * answers the `net` tests (protocol: netproto.h). Runs on any Linux host; prints its own
 * BEGIN, INFO (machine, kernel, NIC: sysinfo.c's header, plus serve.port — the port it got,
 * so a test can ask for port 0 — serve.bind, serve.max_seconds) and END records on stdout,
 * one line per session and refusal on stderr.
 *
 * Shape: one process polls the listening TCP socket, the UDP socket of the same port number,
 * a signalfd, new connections (until their request line or crr byte has come; a line is
 * gathered without blocking, so a client that stalls mid-line delays nobody) and the control
 * connections of crr and udp sessions; it answers crr transactions and UDP echoes itself
 * (one byte or one datagram each: cheap, and it is the one place that knows which address
 * has which session). An rr, sink or source session gets a forked child of its own: its data
 * loop blocks in plain reads and writes, sessions of several clients run on several CPUs at
 * once, and a client that vanishes — or a bug in one loop — ends that child only (its socket
 * timeouts, NET_IDLE_MS, and an alarm at the session's length bound it); a crr or udp session
 * with no transaction or datagram for NET_IDLE_MS ends too. Caps (netproto.h):
 * message size, bytes, connections, seconds per session, NET_CAP_SESSIONS open at once; a
 * request over one is refused with a line naming it.
 * Stops on SIGINT/SIGTERM or after --max-seconds: children get SIGTERM, END is written.
 * Exit: EXIT_OK, or EXIT_USAGE (bad option, address in use, standard output closed or not
 * writable at the start, or a record that could not be written: the log is incomplete). */
#define _GNU_SOURCE
#include "netproto.h"
#include "netserve.h"
#include "../clocksrc.h"
#include "io.h"
#include "../out.h"
#include "../params.h"
#include "status.h"
#include "../sys.h"
#include "../sysinfo.h"
#include "../version.h"
#include "vocab.h"

#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define NET_IDLE_MS 30000	/* a session child's socket timeout, a crr/udp session's longest
				 * pause: a vanished or stalled client frees its slot */
#define PEND_MAX 64		/* connections whose first byte has not come yet */
#define PEND_MS 3000		/* ... and how long they may take to send it */

struct sess {
	int used;
	pid_t pid;		/* rr/sink/source: the child; else 0 */
	int ctl;		/* crr/udp: the control connection; else -1 */
	enum net_mode mode;
	struct in_addr addr;	/* the client's address */
	uint64_t conns_left, deadline;
	uint64_t last;		/* crr/udp: its last transaction or datagram (or its start) */
};

struct pend {
	int fd;
	struct in_addr addr;
	uint64_t t0;
	size_t n;		/* bytes of its request line read so far, into line */
	char line[NET_LINE_MAX];
};

struct srv {
	int lst, udp, sigfd, stop;
	uint64_t t0, max_ns;
	struct sess s[NET_CAP_SESSIONS];
	struct pend p[PEND_MAX];
	int npend;
	char ident[256];
	unsigned long nsessions, nrefused;
};

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;
	char line[512];

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fprintf(stderr, "isobench --serve: %s\n", line);
}

/* The data loop of an rr, sink or source session, in its own child. Never returns. */
static void session_child(int fd, const struct net_req *r)
{
	static char buf[NET_CAP_SIZE];
	uint64_t total = 0;

	net_set_timeouts(fd, NET_IDLE_MS);
	alarm((unsigned)r->seconds + 1);	/* SIGALRM's default action ends the child */
	if (r->mode == NET_RR)
		while (read_all(fd, buf, r->size) == 0 && write_all(fd, buf, r->size) == 0)
			;
	else if (r->mode == NET_SINK)
		for (ssize_t k; total < r->bytes && (k = read(fd, buf, sizeof buf)) > 0;)
			total += (uint64_t)k;
	else
		for (; total < r->bytes && write_all(fd, buf, r->size) == 0; total += r->size)
			;
	_exit(0);
}

static struct sess *free_sess(struct srv *v)
{
	for (int i = 0; i < NET_CAP_SESSIONS; i++)
		if (!v->s[i].used)
			return &v->s[i];
	return NULL;
}

static void refuse(struct srv *v, int fd, const struct in_addr *a, const char *why)
{
	char line[NET_LINE_MAX];
	int n = snprintf(line, sizeof line, NET_MAGIC " %d refused %s\n", NET_VERSION, why);

	if (write_all(fd, line, (size_t)n)) {
		/* the client is gone already: nothing more to tell it */
	}
	v->nrefused++;
	say("refused %s: %s", inet_ntoa(*a), why);
}

/* Start the session r asks for on fd (its "ok" line is sent); fd is owned by it. */
static void start_session(struct srv *v, int fd, const struct in_addr *a, const struct net_req *r,
			  struct sess *s)
{
	*s = (struct sess){.used = 1, .ctl = -1, .mode = r->mode, .addr = *a,
			   .conns_left = r->conns, .deadline = now_ns() + r->seconds * 1000000000ull,
			   .last = now_ns()};
	v->nsessions++;
	say("session %lu: %s from %s, size %llu, %llu s", v->nsessions, net_mode_names[r->mode],
	    inet_ntoa(*a), (unsigned long long)r->size, (unsigned long long)r->seconds);
	if (r->mode == NET_HELLO) {
		close(fd);
		s->used = 0;
	} else if (r->mode == NET_CRR || r->mode == NET_UDP) {
		s->ctl = fd;
	} else {
		pid_t pid = fork();
		if (pid == 0) {
			sigset_t none;
			prctl(PR_SET_PDEATHSIG, SIGKILL);	/* the peer killed: its sessions too */
			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
			close(v->lst);
			close(v->udp);
			close(v->sigfd);
			for (int i = 0; i < v->npend; i++)	/* other clients' sockets */
				close(v->p[i].fd);
			for (int i = 0; i < NET_CAP_SESSIONS; i++)
				if (v->s[i].used && v->s[i].ctl >= 0)
					close(v->s[i].ctl);
			session_child(fd, r);
		}
		close(fd);
		if (pid < 0)
			s->used = 0;
		s->pid = pid > 0 ? pid : 0;
	}
}

/* A connection whose request line (without '\n') has come: refuse it or start its session. */
static void control(struct srv *v, int fd, const struct in_addr *a, const char *line)
{
	char err[200], ok[NET_LINE_MAX];
	struct net_req r;
	struct sess *s;

	net_set_timeouts(fd, NET_IO_MS);
	if (net_req_parse(line, &r, err, sizeof err)) {
		refuse(v, fd, a, err);
	} else if (!(s = free_sess(v))) {
		snprintf(err, sizeof err, "busy: %d sessions open, this peer allows %d at once",
			 NET_CAP_SESSIONS, NET_CAP_SESSIONS);
		refuse(v, fd, a, err);
	} else {
		int n = snprintf(ok, sizeof ok, NET_MAGIC " %d ok %s\n", NET_VERSION, v->ident);
		if (write_all(fd, ok, (size_t)n) == 0) {
			start_session(v, fd, a, &r, s);
			return;
		}
	}
	close(fd);
}

/* One crr transaction (the request byte is waiting on fd), when a.. has a crr session. */
static void crr(struct srv *v, int fd, const struct in_addr *a)
{
	char c;

	for (int i = 0; i < NET_CAP_SESSIONS; i++) {
		struct sess *s = &v->s[i];
		if (!s->used || s->mode != NET_CRR || s->addr.s_addr != a->s_addr)
			continue;
		if (!s->conns_left)
			break;
		s->conns_left--;
		s->last = now_ns();
		if (read(fd, &c, 1) == 1 && write(fd, &c, 1) == 1) {
			/* answered; the client closes */
		}
		close(fd);
		return;
	}
	close(fd);	/* no crr session of that address (or its conns= are used up) */
}

static void refuse_long(struct srv *v, const struct pend *c)
{
	char why[64];

	snprintf(why, sizeof why, "request line over %d bytes", NET_LINE_MAX - 1);
	refuse(v, c->fd, &c->addr, why);
}

/* A pending connection is readable: its first byte says crr or control line. The line is
 * gathered without blocking across wake-ups (a client that sends half a line and stalls
 * delays nobody; PEND_MS ends it), read up to its '\n' only; over NET_LINE_MAX-1 bytes or
 * holding a NUL it is refused with a line saying so. Once it is done with, p[i] leaves the
 * table (the last entry moves to i) before its session starts: a session child closes the
 * table's sockets, and must not close its own. */
static void pending_ready(struct srv *v, int i)
{
	struct pend *p = &v->p[i];
	char peek[NET_LINE_MAX];
	ssize_t k = recv(p->fd, peek, sizeof p->line - p->n, MSG_PEEK | MSG_DONTWAIT);
	const char *nl = k > 0 ? memchr(peek, '\n', (size_t)k) : NULL;
	size_t take = nl ? (size_t)(nl - peek) + 1 : k > 0 ? (size_t)k : 0;	/* never past '\n' */
	int crr_conn = k > 0 && p->n == 0 && peek[0] == NET_CRR_BYTE, bad = 0;

	if (k < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (k > 0 && !crr_conn) {
		bad = read(p->fd, p->line + p->n, take) != (ssize_t)take;
		p->n += bad ? 0 : take;
		if (!bad && !nl && p->n < sizeof p->line && !memchr(p->line, 0, p->n))
			return;	/* the rest of the line has not come yet */
	}
	struct pend c = *p;
	v->p[i] = v->p[--v->npend];
	if (crr_conn)
		crr(v, c.fd, &c.addr);
	else if (k <= 0 || bad)
		say("%s: no request line (closed after %zu bytes)", inet_ntoa(c.addr), c.n);
	else if (memchr(c.line, 0, c.n))
		refuse(v, c.fd, &c.addr, "the request line holds a NUL byte");
	else if (!nl)
		refuse_long(v, &c);
	else {
		c.line[c.n - 1] = 0;
		if (c.n >= 2 && c.line[c.n - 2] == '\r')
			c.line[c.n - 2] = 0;
		control(v, c.fd, &c.addr, c.line);	/* fd is its session's, or closed */
		return;
	}
	if (!crr_conn)
		close(c.fd);
}

/* One datagram: echo it to its sender when that address has a udp session. */
static void udp_echo(struct srv *v)
{
	static char buf[NET_CAP_SIZE];
	struct sockaddr_in from;
	socklen_t fl = sizeof from;
	ssize_t k = recvfrom(v->udp, buf, sizeof buf, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);

	if (k < 0)
		return;
	for (int i = 0; i < NET_CAP_SESSIONS; i++)
		if (v->s[i].used && v->s[i].mode == NET_UDP &&
		    v->s[i].addr.s_addr == from.sin_addr.s_addr) {
			sendto(v->udp, buf, (size_t)k, MSG_DONTWAIT, (struct sockaddr *)&from, fl);
			v->s[i].last = now_ns();
			return;
		}
}

static void end_sess(struct sess *s)
{
	if (s->ctl >= 0)
		close(s->ctl);
	if (s->pid > 0)
		kill(s->pid, SIGTERM);	/* reaped on its SIGCHLD */
	else
		s->used = 0;
	s->ctl = -1;
}

/* Signals, expired pending connections and sessions, --max-seconds. */
static void housekeeping(struct srv *v, int sig_ready)
{
	struct signalfd_siginfo si;
	uint64_t now = now_ns();

	while (sig_ready && read(v->sigfd, &si, sizeof si) == sizeof si)
		if (si.ssi_signo == SIGINT || si.ssi_signo == SIGTERM) {
			say("signal %u: stopping", si.ssi_signo);
			v->stop = 1;
		}
	for (pid_t pid; (pid = waitpid(-1, NULL, WNOHANG)) > 0;)
		for (int i = 0; i < NET_CAP_SESSIONS; i++)
			if (v->s[i].used && v->s[i].pid == pid)
				v->s[i].used = 0;
	for (int i = 0; i < v->npend; i++)
		if (now - v->p[i].t0 > PEND_MS * 1000000ull) {
			close(v->p[i].fd);
			v->p[i--] = v->p[--v->npend];
		}
	for (int i = 0; i < NET_CAP_SESSIONS; i++)
		if (v->s[i].used && v->s[i].ctl >= 0 &&
		    (now > v->s[i].deadline || now - v->s[i].last > NET_IDLE_MS * 1000000ull)) {
			if (now <= v->s[i].deadline)	/* as an rr child's socket timeout does */
				say("%s session of %s idle for %d s: ended", net_mode_names[v->s[i].mode],
				    inet_ntoa(v->s[i].addr), NET_IDLE_MS / 1000);
			end_sess(&v->s[i]);
		}
	if (v->max_ns && now - v->t0 > v->max_ns && !v->stop) {
		say("--max-seconds reached: stopping");
		v->stop = 1;
	}
}

static void accept_one(struct srv *v)
{
	struct sockaddr_in a;
	socklen_t al = sizeof a;
	int fd = accept4(v->lst, (struct sockaddr *)&a, &al, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (v->npend == PEND_MAX) {	/* full: the oldest goes, so idle sockets cannot lock
					 * everyone out (a live client sends its line at once) */
		int old = 0;
		for (int i = 1; i < v->npend; i++)
			if (v->p[i].t0 < v->p[old].t0)
				old = i;
		say("%s: dropped, %d connections without a request line",
		    inet_ntoa(v->p[old].addr), PEND_MAX);
		close(v->p[old].fd);
		v->p[old] = v->p[--v->npend];
	}
	int one = 1;	/* every reply is a segment at once, as the client's requests are */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	v->p[v->npend++] = (struct pend){.fd = fd, .addr = a.sin_addr, .t0 = now_ns()};
}

/* The poll loop until stop. */
static void serve_loop(struct srv *v)
{
	struct pollfd pf[3 + PEND_MAX + NET_CAP_SESSIONS];
	int sidx[NET_CAP_SESSIONS];

	while (!v->stop) {
		int n = 0, np, ns = 0;
		pf[n++] = (struct pollfd){.fd = v->sigfd, .events = POLLIN};
		pf[n++] = (struct pollfd){.fd = v->lst, .events = POLLIN};
		pf[n++] = (struct pollfd){.fd = v->udp, .events = POLLIN};
		np = v->npend;
		for (int i = 0; i < np; i++)
			pf[n++] = (struct pollfd){.fd = v->p[i].fd, .events = POLLIN};
		for (int i = 0; i < NET_CAP_SESSIONS; i++)
			if (v->s[i].used && v->s[i].ctl >= 0) {
				sidx[ns++] = i;
				pf[n++] = (struct pollfd){.fd = v->s[i].ctl, .events = POLLIN};
			}
		if (poll(pf, (nfds_t)n, 200) < 0 && errno != EINTR)
			break;
		if (pf[2].revents)
			udp_echo(v);
		for (int j = 0; j < ns; j++) {
			char buf[256];
			if (pf[3 + np + j].revents && read(v->s[sidx[j]].ctl, buf, sizeof buf) <= 0)
				end_sess(&v->s[sidx[j]]);	/* the client closed its session */
		}
		for (int i = np - 1; i >= 0; i--)	/* from the end: a removal moves the last */
			if (pf[3 + i].revents)
				pending_ready(v, i);
		if (pf[1].revents)
			accept_one(v);
		housekeeping(v, pf[0].revents != 0);
	}
}

/* The listening TCP socket and the UDP socket of the same port on addr (port 0: one the
 * kernel picks that is free for both). 0, or -errno. */
static int open_sockets(struct srv *v, struct sockaddr_in *addr)
{
	int one = 1, e = EADDRINUSE;

	for (int tries = 0; tries < 20; tries++) {
		struct sockaddr_in a = *addr;
		socklen_t al = sizeof a;
		v->lst = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		v->udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (v->lst < 0 || v->udp < 0)
			return -errno;
		setsockopt(v->lst, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (bind(v->lst, (struct sockaddr *)&a, sizeof a) == 0 && listen(v->lst, 128) == 0 &&
		    getsockname(v->lst, (struct sockaddr *)&a, &al) == 0 &&
		    bind(v->udp, (struct sockaddr *)&a, sizeof a) == 0) {
			*addr = a;
			return 0;
		}
		e = errno;
		close(v->lst);
		close(v->udp);
		if (addr->sin_port)
			break;	/* a fixed port: no other to try */
	}
	return -e;
}

/* --port, --bind, --max-seconds into addr and *max_s. 0, or EXIT_USAGE after a line. */
static int serve_args(int argc, char **argv, struct sockaddr_in *addr, long *max_s)
{
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		char *end = NULL;
		long n = val ? strtol(val, &end, 10) : -1;
		int num_ok = val && *val >= '0' && *val <= '9' && end && !*end;	/* no sign, space */
		if (!strcmp(o, "--port") && num_ok && n >= 0 && n <= 65535)
			addr->sin_port = htons((uint16_t)n);
		else if (!strcmp(o, "--max-seconds") && num_ok && n >= 1 && n <= 30L * 86400)
			*max_s = n;
		else if (!strcmp(o, "--bind") && val && inet_pton(AF_INET, val, &addr->sin_addr) == 1)
			;
		else {
			fprintf(stderr, "isobench --serve: bad option or value '%s%s%s' (usage: "
				"isobench --serve [--port 0..65535] [--bind IPv4] [--max-seconds "
				"1..2592000])\n", o, val ? " " : "", val ? val : "");
			return EXIT_USAGE;
		}
		i++;
	}
	return 0;
}

/* BEGIN, the machine header, the serve.* INFO: the peer's side of a log. */
static void serve_begin(const struct sockaddr_in *addr, long max_s)
{
	static struct params p;
	struct rec_body b;
	const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);
	char bind_s[INET_ADDRSTRLEN];

	rec_begin(&b, RK_BEGIN);
	rec_fmt(&b, RK_RUN, "%016llx", rnd ? *(const unsigned long long *)(const void *)rnd
					  : (unsigned long long)now_ns());
	rec_str(&b, RK_VERSION, isobench_version);
	rec_str(&b, RK_MODE, REC_MODE_HOST);
	out_record(&b);
	params_init(&p);
	snprintf(p.tests, sizeof p.tests, "-");
	params_finish(&p, (int)sysconf(_SC_NPROCESSORS_ONLN));
	sysinfo_emit(&p, REC_MODE_HOST, "-");
	inet_ntop(AF_INET, &addr->sin_addr, bind_s, sizeof bind_s);
	rec_begin(&b, RK_INFO);
	rec_u64(&b, RK_SERVE_PORT, ntohs(addr->sin_port));
	rec_str(&b, RK_SERVE_BIND, bind_s);
	rec_u64(&b, RK_SERVE_MAX_SECONDS, (uint64_t)max_s);
	out_record(&b);
}

int netserve_main(int argc, char **argv)
{
	static struct srv v;
	struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(NET_DEFAULT_PORT)};
	long max_s = 0;
	sigset_t set;
	char clk[64];

	addr.sin_addr.s_addr = htonl(INADDR_ANY);
	if (serve_args(argc, argv, &addr, &max_s))
		return EXIT_USAGE;
	int fl = fcntl(1, F_GETFL);	/* as a run's CLI: the records need somewhere to go */
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
		fprintf(stderr, "isobench --serve: standard output is %s: nowhere to write the "
			"records\n", fl < 0 ? "closed" : "not writable");
		return EXIT_USAGE;
	}
	int rc = open_sockets(&v, &addr);
	if (rc) {
		fprintf(stderr, "isobench --serve: cannot listen on port %u: %s\n",
			ntohs(addr.sin_port), strerror(-rc));
		return EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	v.sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	v.t0 = now_ns();
	v.max_ns = (uint64_t)max_s * 1000000000ull;
	net_identity(v.ident, sizeof v.ident);
	out_init();
	out_add_fd(1);
	serve_begin(&addr, max_s);
	say("listening on port %u (TCP and UDP), %s", ntohs(addr.sin_port), v.ident);
	serve_loop(&v);
	for (int i = 0; i < NET_CAP_SESSIONS; i++)
		if (v.s[i].used)
			end_sess(&v.s[i]);
	while (wait(NULL) > 0)
		;
	say("%lu sessions, %lu refused", v.nsessions, v.nrefused);
	clocksource_current(clk, sizeof clk);
	out_end(REC_STATUS_OK, clk);
	if (write(1, "\n", 1) != 1) {	/* records lost to a closed pipe or a full disk */
		fprintf(stderr, "isobench --serve: standard output could not be written (%s): the "
			"log is incomplete\n", strerror(errno));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
