/* netserve.c — `isobench --serve [--port P] [--bind ADDR] [--max-seconds S] [--max-egress B]
 * [--store DIR]`:
 * the peer that answers the `net` tests (protocol: netproto.h). Listens on one address:
 * 127.0.0.1 unless --bind names another, IPv4 or IPv6 (0.0.0.0 or ::, every address, only when named); lives
 * NET_SERVE_LIFE_S (3600 s) unless --max-seconds says otherwise (0: forever); sends one client
 * address at most --max-egress bytes (default NET_CAP_EGRESS, 1 TiB; 0: no cap) over its life. Runs on any Linux host; prints its own
 * BEGIN, INFO (machine, kernel, NIC: sysinfo.c's header, plus serve.port — the port it got,
 * so a test can ask for port 0 — serve.bind, serve.max_seconds) and END records on stdout,
 * one line per session and refusal on stderr.
 *
 * Shape: one process polls the listening TCP socket, the UDP socket of the same port number,
 * a signalfd, new connections (until their request line or crr byte has come; a line is
 * gathered without blocking, so a client that stalls mid-line delays nobody) and the control
 * connections of crr and udp sessions. Every session's data moves in a forked worker of its
 * own, never in that poll loop (as netperf's netserver forks one per test), so a measured
 * transaction pays no poll over the peer's other descriptors: an rr, sink or source session's
 * worker blocks in plain reads and writes on its connection; a udp session's, from the
 * session's first datagram (answered by the loop), blocks in recv() on a UDP socket of its own
 * bound to the same port (SO_REUSEPORT) and connected to the client's, which the kernel
 * prefers for that client's datagrams; a crr session's becomes the one acceptor of the
 * listening socket while it lives (the loop stops polling it) and answers its client's crr
 * connections itself — accept, read the byte, write it, close — handing any other connection
 * (another client's request line, or its crr byte) to the loop over a socket pair, with the
 * byte it read. A second crr session while one worker accepts is answered by the loop until
 * that worker ends, then gets the next. Sessions of several clients run on several CPUs at
 * once, and a client that vanishes — or a bug in one loop — ends that worker only (its socket
 * timeouts, NET_IDLE_MS, and an alarm at the session's length bound it); a crr or udp session
 * with no transaction or datagram for NET_IDLE_MS ends too. Caps (netproto.h):
 * message size, bytes, connections, seconds per session, NET_CAP_SESSIONS open at once,
 * NET_CAP_SESSIONS_PER_CLIENT from one address, its egress; a request over one is refused
 * with a line naming it. When every slot is taken, a new client gets the slot of the session
 * that moved no data for the longest, NET_EVICT_IDLE_MS or more (netproto.h): a session child
 * counts its reads and writes in memory shared with the peer (live), the peer looks at the
 * counts, so a client trickling a byte every few seconds holds no slot against one that
 * measures. A sink or source session with bytes=0 is bounded by its seconds, not by a byte
 * count a fast link reaches.
 * --store DIR: store sessions (a run's whole log, netproto.h) are kept as DIR/<run id>.log,
 * each written by its session child to a .part file and linked to its name (never over
 * another); without --store they are refused.
 * Stops on SIGINT/SIGTERM or after --max-seconds: children get SIGTERM, END is written.
 * Exit: EXIT_OK, or EXIT_USAGE (bad option, address in use, standard output closed or not
 * writable at the start, or a record that could not be written: the log is incomplete). */
#define _GNU_SOURCE
#include "nethello.h"
#include "netproto.h"
#include "netserve.h"
#include "../clocksrc.h"
#include "io.h"
#include "num.h"
#include "../out.h"
#include "../params.h"
#include "status.h"
#include "../sys.h"
#include "../sysinfo.h"
#include "vocab.h"

#include <arpa/inet.h>
#include <dirent.h>
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
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <limits.h>
#include <unistd.h>

#define NET_IDLE_MS 30000	/* a session child's socket timeout, a crr/udp session's longest
				 * pause: a vanished or stalled client frees its slot */
#define PEND_MAX 64		/* connections whose first byte has not come yet */
#define PEND_MS 3000		/* ... and how long they may take to send it */

#define CLIENTS_MAX 256	/* client addresses whose egress is remembered */
#define CRR_FIRST_MS 50	/* a crr worker waits this long for an accepted connection's first
			 * byte before handing it to the loop */

/* A session child's counters, in memory it shares with the peer (one writer: the child;
 * relaxed atomics): data operations done (a read, a write, an echo) and bytes sent. */
struct live {
	uint64_t ops, out;
};

struct sess {
	int used;
	pid_t pid;		/* its worker (crr/udp: once started); else 0 */
	int ctl;		/* crr/udp: the control connection (the loop's); else -1 */
	enum net_mode mode;
	struct in6_addr addr;	/* the client's address */
	uint64_t conns_left, deadline;
	uint64_t last;		/* its last data moved as the peer saw it (crr/udp: transaction or
				 * datagram; a child: a change of its live.ops), or its start */
	uint64_t seen_ops;	/* a child's live.ops when last looked at */
	uint64_t out, budget;	/* crr/udp: bytes sent by the loop (its worker counts its own
				 * in live.out), and what it may send (the client's egress left
				 * at its start) */
};

/* A client address and the bytes sent to it by its ended sessions. */
struct client {
	int used;
	struct in6_addr addr;
	uint64_t egress;
};

struct pend {
	int fd;
	struct in6_addr addr;
	uint64_t t0;
	size_t n;		/* bytes of its request line read so far, into line */
	char line[NET_LINE_MAX];
};

struct srv {
	int lst, udp, sigfd, stop;
	struct sockaddr_storage addr;	/* the address and port both sockets are bound to */
	int hand[2];		/* a crr worker's connections for the loop: [0] the loop reads,
				 * [1] the worker sends (AF_UNIX datagrams carrying the fd) */
	int acceptor;		/* the session whose crr worker accepts, or -1: the loop does */
	uint64_t t0, max_ns;
	struct sess s[NET_CAP_SESSIONS];
	struct pend p[PEND_MAX];
	int npend;
	char ident[256];
	unsigned long nsessions, nrefused, nevicted;
	struct live *live;	/* [NET_CAP_SESSIONS], shared with the session children */
	uint64_t max_egress;	/* per client address over the peer's life; 0: none */
	struct client c[CLIENTS_MAX];
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

/* --store DIR: the directory, open, where store sessions put logs (-1: no --store, uploads
 * are refused); the .part file a store child is writing, removed when its alarm ends it. */
static int store_dir = -1;
static char store_part[NET_RUN_ID_LEN + 8];

static void store_alarm(int sig)
{
	(void)sig;
	unlinkat(store_dir, store_part, 0);	/* async-signal-safe: a cut upload leaves nothing */
	_exit(1);
}

/* Why a store request r gets no session (into err), or NULL (netproto.h, mode store): no
 * --store, the run stored already, the store full. */
static const char *store_refusal(const struct net_req *r, char *err, size_t len)
{
	char name[NET_RUN_ID_LEN + 8];
	size_t n = 0;
	DIR *d;

	if (store_dir < 0) {
		snprintf(err, len, "this peer keeps no logs (start it with --store DIR)");
		return err;
	}
	snprintf(name, sizeof name, "%s.log", r->run);
	if (faccessat(store_dir, name, F_OK, 0) == 0) {
		snprintf(err, len, "run %s is stored already (a log is never overwritten)", r->run);
		return err;
	}
	int dfd = openat(store_dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);	/* from its start */
	if (dfd < 0 || !(d = fdopendir(dfd))) {
		if (dfd >= 0)
			close(dfd);
		snprintf(err, len, "the store cannot be read: %s", strerror(errno));
		return err;
	}
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	if (n < NET_CAP_STORE_FILES)
		return NULL;
	snprintf(err, len, "the store is full: %zu files, this peer keeps at most %d", n,
		 NET_CAP_STORE_FILES);
	return err;
}

/* Why the log len bytes at p may not be kept as run's (into why), or NULL: it is one whole
 * run sent as the run it names (netproto.h, mode store). Every line holding the record tag
 * parses with its checksum (lib/record.c; other lines are the runner's text, kept as they
 * came); the first record is BEGIN, seq 1, run=<run>; each later one adds 1 to seq (a gap is
 * records lost, a seq again or backwards records repeated or reordered); no second BEGIN; the
 * last is END, and its records= is the count before it. */
static const char *store_check(const char *p, size_t len, const char *run, char *why, size_t cap)
{
	static struct record r;
	uint64_t want = 1;
	size_t line = 0;
	int ended = 0;

	for (size_t off = 0; off < len; line++) {
		const char *nl = memchr(p + off, '\n', len - off);
		size_t l = nl ? (size_t)(nl - (p + off)) : len - off;
		enum rec_status st = l < REC_MAX ? rec_parse(p + off, l, &r) :
				     memmem(p + off, l, REC_TAG, strlen(REC_TAG)) ? REC_BAD_SYNTAX
										 : REC_NONE;
		off += l + (nl != NULL);
		if (st == REC_NONE)
			continue;
		if (st != REC_OK) {
			snprintf(why, cap, "line %zu: a damaged record (%s)", line + 1,
				 st == REC_BAD_CRC ? "checksum mismatch" : "malformed");
			return why;
		}
		if (ended) {
			snprintf(why, cap, "line %zu: %s seq %llu after END (an upload is one run)",
				 line + 1, r.kind, (unsigned long long)r.seq);
			return why;
		}
		if (want == 1 && (r.seq != 1 || strcmp(r.kind, RK_BEGIN))) {
			snprintf(why, cap, "line %zu: the first record is %s seq %llu, not BEGIN seq 1 (the "
				 "log's head is missing)", line + 1, r.kind, (unsigned long long)r.seq);
			return why;
		}
		if (r.seq > want) {
			snprintf(why, cap, "line %zu: seq %llu follows seq %llu: records lost", line + 1,
				 (unsigned long long)r.seq, (unsigned long long)want - 1);
			return why;
		}
		if (r.seq < want) {
			snprintf(why, cap, "line %zu: seq %llu again after seq %llu: records repeated "
				 "or reordered", line + 1, (unsigned long long)r.seq,
				 (unsigned long long)want - 1);
			return why;
		}
		const char *id = rec_get(&r, RK_RUN);
		if (want == 1 && (!id || strcmp(id, run))) {
			snprintf(why, cap, "its BEGIN names run %.40s, not run %s it was sent as",
				 id ? id : "(none)", run);
			return why;
		}
		if (want > 1 && !strcmp(r.kind, RK_BEGIN)) {
			snprintf(why, cap, "line %zu: a second BEGIN (an upload is one run)", line + 1);
			return why;
		}
		if (!strcmp(r.kind, RK_END)) {
			const char *n = rec_get(&r, RK_RECORDS);
			unsigned long long said;
			if (!n || num_ull(n, 0, 0, ULLONG_MAX, &said) || said != want - 1) {
				snprintf(why, cap, "line %zu: END says records=%.20s, the log holds %llu "
					 "before it", line + 1, n ? n : "(none)", (unsigned long long)want - 1);
				return why;
			}
			ended = 1;
		}
		want++;
	}
	if (want == 1)
		snprintf(why, cap, "it holds no record");
	else if (!ended)
		snprintf(why, cap, "no END: the log is cut after seq %llu", (unsigned long long)want - 1);
	return ended ? NULL : why;
}

/* A store session's child: exactly r->bytes from fd into DIR/.<run>.part (created, never
 * opened if it exists), synced, then named DIR/<run>.log by a hard link (which fails rather
 * than replace a file: never overwritten) and the .part removed; the last line tells the
 * client which. Bounded by the session's seconds (an alarm that removes the .part). Never
 * returns. */
static void store_child(int fd, const struct net_req *r, struct live *lv)
{
	static char buf[NET_CAP_SIZE];
	char name[NET_RUN_ID_LEN + 8], line[NET_LINE_MAX], why[200] = "";
	uint64_t got = 0, ops = 0;

	snprintf(store_part, sizeof store_part, ".%s.part", r->run);
	snprintf(name, sizeof name, "%s.log", r->run);
	signal(SIGALRM, store_alarm);
	int out = openat(store_dir, store_part, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0)
		snprintf(why, sizeof why, "%s", errno == EEXIST ? "an upload of this run is under way"
			 : strerror(errno));
	while (!why[0] && got < r->bytes) {
		size_t want = r->bytes - got < sizeof buf ? (size_t)(r->bytes - got) : sizeof buf;
		ssize_t k = read(fd, buf, want);
		if (k <= 0)
			snprintf(why, sizeof why, "the upload ended after %llu of %llu bytes",
				 (unsigned long long)got, (unsigned long long)r->bytes);
		else if (write_all(out, buf, (size_t)k))
			snprintf(why, sizeof why, "writing the log: %s", strerror(errno));
		else
			got += (uint64_t)k;
		__atomic_store_n(&lv->ops, ++ops, __ATOMIC_RELAXED);
	}
	if (!why[0] && fsync(out))
		snprintf(why, sizeof why, "writing the log: %s", strerror(errno));
	if (!why[0]) {	/* what it claims to be: read back from the file */
		void *m = mmap(NULL, (size_t)r->bytes, PROT_READ, MAP_PRIVATE, out, 0);
		if (m == MAP_FAILED)
			snprintf(why, sizeof why, "reading the log back: %s", strerror(errno));
		else
			store_check(m, (size_t)r->bytes, r->run, why, sizeof why);
		if (m != MAP_FAILED)
			munmap(m, (size_t)r->bytes);
	}
	if (!why[0] && linkat(store_dir, store_part, store_dir, name, 0))
		snprintf(why, sizeof why, "%s", errno == EEXIST ? "the run is stored already (a log "
			 "is never overwritten)" : strerror(errno));
	if (out >= 0)
		unlinkat(store_dir, store_part, 0);
	int n = why[0] ? snprintf(line, sizeof line, NET_MAGIC " %d refused %s\n", NET_VERSION, why)
		       : snprintf(line, sizeof line, NET_MAGIC " %d stored %s\n", NET_VERSION, name);
	if (write_all(fd, line, (size_t)n)) {
		/* the client is gone: the log is stored (or not) all the same */
	}
	say("store run %s: %s", r->run, why[0] ? why : name);
	_exit(why[0] ? 1 : 0);
}

/* The data loop of an rr, sink or source session, in its own child: bounded by the session's
 * seconds (an alarm), its bytes= when one was asked, and budget, the bytes it may send (the
 * client's egress left). Each operation done is counted in lv (the peer reads it). Never
 * returns. */
static void session_child(int fd, const struct net_req *r, struct live *lv, uint64_t budget)
{
	static char buf[NET_CAP_SIZE];
	uint64_t total = 0, ops = 0, lim = r->bytes ? r->bytes : UINT64_MAX;

	net_set_timeouts(fd, NET_IDLE_MS);
	if (r->mode == NET_SINK || r->mode == NET_SOURCE) {
		/* A stream is sent as bulk senders send (iperf3's and netperf's defaults): Nagle on.
		 * TCP_NODELAY here (set at accept for the rr replies) sent each write's tail as a
		 * segment of its own, which on the loopback ran maerts 1.13-1.20x above iperf3 -R
		 * and netperf TCP_MAERTS; netperf with -D (no delay) matched it
		 * (docs/benchmarks/network.md, "Streams with Nagle"). */
		net_set_nodelay(fd, 0);
	}
	alarm((unsigned)r->seconds + 1);	/* SIGALRM's default action ends the child */
	if (r->mode == NET_STORE)
		store_child(fd, r, lv);
	if (r->mode == NET_RR)
		while (total + r->size <= budget && read_all(fd, buf, r->size) == 0 &&
		       write_all(fd, buf, r->size) == 0) {
			total += r->size;
			__atomic_store_n(&lv->ops, ++ops, __ATOMIC_RELAXED);
			__atomic_store_n(&lv->out, total, __ATOMIC_RELAXED);
		}
	else if (r->mode == NET_SINK)
		for (ssize_t k; total < lim && (k = read(fd, buf, sizeof buf)) > 0;) {
			total += (uint64_t)k;
			__atomic_store_n(&lv->ops, ++ops, __ATOMIC_RELAXED);
		}
	else
		for (lim = lim < budget ? lim : budget;
		     total + r->size <= lim && write_all(fd, buf, r->size) == 0;) {
			total += r->size;
			__atomic_store_n(&lv->ops, ++ops, __ATOMIC_RELAXED);
			__atomic_store_n(&lv->out, total, __ATOMIC_RELAXED);
		}
	_exit(0);
}

/* The same client address (IPv4 as mapped IPv6: net_sa_key()). */
static int same(const struct in6_addr *a, const struct in6_addr *b)
{
	return !memcmp(a, b, sizeof *a);
}

/* A client address as text, for say(): one of 4 rotating buffers (a line may hold two). */
static const char *ip(const struct in6_addr *a)
{
	static char buf[4][INET6_ADDRSTRLEN];
	static int k;
	struct sockaddr_in6 s = {.sin6_family = AF_INET6, .sin6_addr = *a};

	k = (k + 1) % 4;
	return net_sa_str((struct sockaddr_storage *)(void *)&s, buf[k], sizeof buf[k]);
}

/* The port of sa (either family), host order; set it with set_port(). */
static unsigned port_of(const struct sockaddr_storage *sa)
{
	return ntohs(sa->ss_family == AF_INET6 ? ((const struct sockaddr_in6 *)(const void *)sa)->sin6_port
					       : ((const struct sockaddr_in *)(const void *)sa)->sin_port);
}

static void set_port(struct sockaddr_storage *sa, unsigned port)
{
	if (sa->ss_family == AF_INET6)
		((struct sockaddr_in6 *)(void *)sa)->sin6_port = htons((uint16_t)port);
	else
		((struct sockaddr_in *)(void *)sa)->sin_port = htons((uint16_t)port);
}

/* The client record of a, made when make (the entry that drew least is reused when the
 * table is full); NULL when absent and not made. */
static struct client *client_of(struct srv *v, struct in6_addr a, int make)
{
	struct client *least = NULL, *empty = NULL;

	for (int i = 0; i < CLIENTS_MAX; i++) {
		struct client *c = &v->c[i];
		if (c->used && same(&c->addr, &a))
			return c;
		if (!c->used && !empty)
			empty = c;
		if (c->used && (!least || c->egress < least->egress))
			least = c;
	}
	if (!make)
		return NULL;
	struct client *c = empty ? empty : least;
	*c = (struct client){.used = 1, .addr = a};
	return c;
}

/* Bytes session i has sent: by its worker and by the loop. */
static uint64_t sess_out(const struct srv *v, int i)
{
	return __atomic_load_n(&v->live[i].out, __ATOMIC_RELAXED) + v->s[i].out;
}

/* Bytes sent to address a over the peer's life: its ended sessions and its open ones. */
static uint64_t egress_of(struct srv *v, struct in6_addr a)
{
	struct client *c = client_of(v, a, 0);
	uint64_t e = c ? c->egress : 0;

	for (int i = 0; i < NET_CAP_SESSIONS; i++)
		if (v->s[i].used && same(&v->s[i].addr, &a))
			e += sess_out(v, i);
	return e;
}

/* Slot i is free again (its control connection closed): what it sent goes to its client's
 * egress. */
static void release(struct srv *v, int i)
{
	client_of(v, v->s[i].addr, 1)->egress += sess_out(v, i);
	if (v->s[i].ctl >= 0)
		close(v->s[i].ctl);
	v->s[i].ctl = -1;
	v->s[i].used = 0;
	v->s[i].pid = 0;
	if (v->acceptor == i)
		v->acceptor = -1;	/* the loop accepts again */
}

static struct sess *free_sess(struct srv *v)
{
	for (int i = 0; i < NET_CAP_SESSIONS; i++)
		if (!v->s[i].used)
			return &v->s[i];
	return NULL;
}

static void refuse(struct srv *v, int fd, const struct in6_addr *a, const char *why)
{
	char line[NET_LINE_MAX];
	int n = snprintf(line, sizeof line, NET_MAGIC " %d refused %s\n", NET_VERSION, why);

	if (write_all(fd, line, (size_t)n)) {
		/* the client is gone already: nothing more to tell it */
	}
	v->nrefused++;
	say("refused %s: %s", ip(a), why);
}

/* Fork a worker for session idx. In the child (0 returned): the default signal mask, killed
 * with the peer, and none of the peer's descriptors but those a worker of its mode uses (a
 * crr worker keeps the listening socket and the hand-off socket's sending end). In the peer:
 * the child's pid, or -1. */
static pid_t spawn(struct srv *v, int idx)
{
	int crr_worker = v->s[idx].mode == NET_CRR;
	pid_t pid = fork();
	sigset_t none;

	if (pid != 0)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);	/* the peer killed: its sessions too */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (!crr_worker) {
		close(v->lst);
		close(v->hand[1]);
	}
	close(v->udp);
	close(v->sigfd);
	close(v->hand[0]);
	for (int i = 0; i < v->npend; i++)	/* other clients' sockets */
		close(v->p[i].fd);
	for (int i = 0; i < NET_CAP_SESSIONS; i++)	/* the control connections: the loop's */
		if (v->s[i].used && v->s[i].ctl >= 0)
			close(v->s[i].ctl);
	return 0;
}

/* A crr worker hands fd (and the byte it read from it, when got) to the loop, which treats it
 * as a connection it accepted; fd is closed here either way (a full hand-off socket: the
 * connection is dropped, and its client sees it closed). */
static void hand_off(struct srv *v, int fd, const char *got)
{
	char data[2] = {got != NULL, got ? *got : 0};
	char ctl[CMSG_SPACE(sizeof(int))] = {0};
	struct iovec io = {data, sizeof data};
	struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl,
			   .msg_controllen = sizeof ctl};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	if (sendmsg(v->hand[1], &m, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		/* the loop is that far behind: this connection is dropped */
	}
	close(fd);
}

/* Session idx's crr worker: the one acceptor of the listening socket while it lives. A
 * connection from the session's address whose first byte (within CRR_FIRST_MS) is
 * NET_CRR_BYTE is a transaction: the byte written back, the connection closed (nothing
 * answered once its conns= or budget are used up); any other goes to the loop (hand_off()).
 * Bounded by the session's deadline (an alarm) and NET_IDLE_MS without a connection. Each
 * transaction counted in live (ops, out). Never returns. */
static void crr_worker(struct srv *v, int idx)
{
	const struct sess *s = &v->s[idx];
	struct live *lv = &v->live[idx];
	struct in6_addr me = s->addr;
	uint64_t conns = s->conns_left, budget = s->budget - s->out, out = 0, ops = 0, now = now_ns();

	alarm(s->deadline > now ? (unsigned)((s->deadline - now) / 1000000000ull) + 1 : 1);
	for (;;) {
		struct pollfd p = {.fd = v->lst, .events = POLLIN};
		struct sockaddr_storage a;
		socklen_t al = sizeof a;
		char c;

		if (poll(&p, 1, NET_IDLE_MS) == 0)
			_exit(0);	/* idle: the session ends */
		int fd = accept4(v->lst, (struct sockaddr *)&a, &al, SOCK_CLOEXEC);
		if (fd < 0)
			continue;	/* EAGAIN (a reset connection), EINTR, EMFILE: try again */
		ssize_t k = recv(fd, &c, 1, MSG_DONTWAIT);
		if (k < 0 && errno == EAGAIN) {	/* the byte has not come yet */
			struct pollfd q = {.fd = fd, .events = POLLIN};
			k = poll(&q, 1, CRR_FIRST_MS) > 0 ? recv(fd, &c, 1, MSG_DONTWAIT) : -1;
		}
		struct in6_addr key = net_sa_key(&a);
		if (k != 1 || c != NET_CRR_BYTE || !same(&key, &me)) {
			hand_off(v, fd, k == 1 ? &c : NULL);
			continue;
		}
		if (conns && out < budget && write(fd, &c, 1) == 1)
			out++;	/* answered; the client closes */
		conns -= conns > 0;
		close(fd);
		__atomic_store_n(&lv->ops, ++ops, __ATOMIC_RELAXED);
		__atomic_store_n(&lv->out, out, __ATOMIC_RELAXED);
	}
}

/* Session idx's udp worker: echoes every datagram on fd (bound to the peer's port, connected
 * to the client's address and port) while the client's budget lasts. Bounded by the
 * session's deadline (an alarm) and NET_IDLE_MS without a datagram (its receive timeout).
 * Each echo counted in live. Never returns. */
static void udp_worker(struct srv *v, int idx, int fd)
{
	static char buf[NET_CAP_SIZE];
	const struct sess *s = &v->s[idx];
	struct live *lv = &v->live[idx];
	uint64_t budget = s->budget - s->out, out = 0, ops = 0, now = now_ns();

	alarm(s->deadline > now ? (unsigned)((s->deadline - now) / 1000000000ull) + 1 : 1);
	net_set_timeouts(fd, NET_IDLE_MS);
	for (ssize_t k; (k = recv(fd, buf, sizeof buf, 0)) >= 0 || errno == EINTR;) {
		if (k < 0 || out + (uint64_t)k > budget)
			continue;	/* its client's egress is spent: not answered */
		if (send(fd, buf, (size_t)k, 0) == k)
			out += (uint64_t)k;
		__atomic_store_n(&lv->ops, ++ops, __ATOMIC_RELAXED);
		__atomic_store_n(&lv->out, out, __ATOMIC_RELAXED);
	}
	_exit(0);	/* idle (or the socket failed): the session ends */
}

/* Session idx (crr) gets its worker, the acceptor, when no other worker accepts; a failed
 * fork leaves it to the loop. */
static void start_crr_worker(struct srv *v, int idx)
{
	if (v->acceptor >= 0)
		return;
	pid_t pid = spawn(v, idx);
	if (pid == 0)
		crr_worker(v, idx);
	if (pid > 0) {
		v->s[idx].pid = pid;
		v->acceptor = idx;
	}
}

/* Session idx (udp) gets its worker, for datagrams from its client's address and port from:
 * a UDP socket bound to the peer's port (SO_REUSEPORT) and connected to from. Nothing when
 * that socket or the fork fails: the loop keeps answering. */
static void start_udp_worker(struct srv *v, int idx, const struct sockaddr_storage *from,
			     socklen_t fl)
{
	int one = 1, fd = socket(v->addr.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) == 0 &&
	    bind(fd, (const struct sockaddr *)&v->addr, net_sa_len(&v->addr)) == 0 &&
	    connect(fd, (const struct sockaddr *)from, fl) == 0) {
		pid_t pid = spawn(v, idx);
		if (pid == 0)
			udp_worker(v, idx, fd);
		v->s[idx].pid = pid > 0 ? pid : 0;
	}
	close(fd);
}

/* Start the session r asks for on fd (its "ok" line is sent); fd is owned by it. budget: the
 * bytes it may send (the client's egress left). */
static void start_session(struct srv *v, int fd, const struct in6_addr *a, const struct net_req *r,
			  struct sess *s, uint64_t budget)
{
	int idx = (int)(s - v->s);
	*s = (struct sess){.used = 1, .ctl = -1, .mode = r->mode, .addr = *a,
			   .conns_left = r->conns, .deadline = now_ns() + r->seconds * 1000000000ull,
			   .last = now_ns(), .budget = budget};
	v->live[idx] = (struct live){0, 0};
	v->nsessions++;
	say("session %lu: %s from %s, size %llu, %llu s", v->nsessions, net_mode_names[r->mode],
	    ip(a), (unsigned long long)r->size, (unsigned long long)r->seconds);
	if (r->mode == NET_HELLO) {
		close(fd);
		release(v, idx);
	} else if (r->mode == NET_CRR || r->mode == NET_UDP) {
		s->ctl = fd;	/* udp: its worker starts at its first datagram */
		if (r->mode == NET_CRR)
			start_crr_worker(v, idx);
	} else {
		pid_t pid = spawn(v, idx);
		if (pid == 0)
			session_child(fd, r, &v->live[idx], budget);
		close(fd);
		s->pid = pid > 0 ? pid : 0;
		if (pid < 0)
			release(v, idx);
	}
}

/* Sessions open from address a. */
static int sessions_of(const struct srv *v, struct in6_addr a)
{
	int n = 0;
	for (int i = 0; i < NET_CAP_SESSIONS; i++)
		n += v->s[i].used && same(&v->s[i].addr, &a);
	return n;
}

/* Note which sessions moved data since the last look (a child's live.ops changed). */
static void refresh_activity(struct srv *v, uint64_t now)
{
	for (int i = 0; i < NET_CAP_SESSIONS; i++) {
		struct sess *s = &v->s[i];
		uint64_t ops;
		if (!s->used || s->pid <= 0)
			continue;
		if ((ops = __atomic_load_n(&v->live[i].ops, __ATOMIC_RELAXED)) != s->seen_ops)
			s->seen_ops = ops, s->last = now;
	}
}

/* All slots taken: free the one whose session has moved no data for the longest, if that is
 * NET_EVICT_IDLE_MS or more (its child killed and reaped, or its control connection
 * closed), for a new client at a. NULL when every session is busy. */
static struct sess *evict(struct srv *v, const struct in6_addr *a)
{
	uint64_t now = now_ns();
	int old = -1;

	refresh_activity(v, now);
	for (int i = 0; i < NET_CAP_SESSIONS; i++)
		if (v->s[i].used && (old < 0 || v->s[i].last < v->s[old].last))
			old = i;
	if (old < 0 || now - v->s[old].last < NET_EVICT_IDLE_MS * 1000000ull)
		return NULL;
	struct sess *s = &v->s[old];
	const char *who = ip(&s->addr);
	say("%s session of %s moved no data for %.1f s: its slot goes to %s", net_mode_names[s->mode],
	    who, (double)(now - s->last) / 1e9, ip(a));
	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);	/* gone before its slot and counters are reused */
	}
	release(v, old);	/* its control connection closed */
	v->nevicted++;
	return s;
}

/* Why a (asking r) gets no session now, in err, or NULL: over its share of sessions or of
 * egress. *budget: the egress it has left. */
static const char *client_refusal(struct srv *v, const struct in6_addr *a, char *err,
				  size_t len, uint64_t *budget)
{
	uint64_t e = egress_of(v, *a);
	int n = sessions_of(v, *a);

	*budget = !v->max_egress ? UINT64_MAX : e < v->max_egress ? v->max_egress - e : 0;
	if (n >= NET_CAP_SESSIONS_PER_CLIENT)
		snprintf(err, len, "busy: %d sessions from %s open, this peer allows %d per client",
			 n, ip(a), NET_CAP_SESSIONS_PER_CLIENT);
	else if (v->max_egress && e >= v->max_egress)
		snprintf(err, len, "egress cap: %llu bytes sent to %s, this peer allows %llu per "
			 "client (--max-egress)", (unsigned long long)e, ip(a),
			 (unsigned long long)v->max_egress);
	else
		return NULL;
	return err;
}

/* A connection whose request line (without '\n') has come: refuse it or start its session. */
static void control(struct srv *v, int fd, const struct in6_addr *a, const char *line)
{
	char err[200], ok[NET_LINE_MAX];
	struct net_req r;
	struct sess *s;
	uint64_t budget;

	net_set_timeouts(fd, NET_IO_MS);
	if (net_req_parse(line, &r, err, sizeof err) ||
	    client_refusal(v, a, err, sizeof err, &budget) ||
	    (r.mode == NET_STORE && store_refusal(&r, err, sizeof err))) {
		refuse(v, fd, a, err);
	} else if (!(s = free_sess(v)) && !(s = evict(v, a))) {
		snprintf(err, sizeof err, "busy: %d sessions open, none idle for %d ms, this peer "
			 "allows %d at once", NET_CAP_SESSIONS, NET_EVICT_IDLE_MS, NET_CAP_SESSIONS);
		refuse(v, fd, a, err);
	} else {
		int n = snprintf(ok, sizeof ok, NET_MAGIC " %d ok %s\n", NET_VERSION, v->ident);
		if (write_all(fd, ok, (size_t)n) == 0) {
			start_session(v, fd, a, &r, s, budget);
			return;
		}
	}
	close(fd);
}

/* One crr transaction answered by the loop (the request byte is waiting on fd, or was read
 * by a crr worker: got), when a has a crr session; fd closed. */
static void crr(struct srv *v, int fd, const struct in6_addr *a, int got)
{
	char c = NET_CRR_BYTE;

	for (int i = 0; i < NET_CAP_SESSIONS; i++) {
		struct sess *s = &v->s[i];
		if (!s->used || s->mode != NET_CRR || !same(&s->addr, a))
			continue;
		if (!s->conns_left || s->out >= s->budget)
			break;
		s->conns_left--;
		s->last = now_ns();
		if ((got || read(fd, &c, 1) == 1) && write(fd, &c, 1) == 1)
			s->out++;	/* answered; the client closes */
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
		crr(v, c.fd, &c.addr, 0);
	else if (k <= 0 || bad)
		say("%s: no request line (closed after %zu bytes)", ip(&c.addr), c.n);
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
	struct sockaddr_storage from;
	socklen_t fl = sizeof from;
	ssize_t k = recvfrom(v->udp, buf, sizeof buf, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);

	if (k < 0)
		return;
	struct in6_addr key = net_sa_key(&from);
	for (int i = 0; i < NET_CAP_SESSIONS; i++)
		if (v->s[i].used && v->s[i].mode == NET_UDP && same(&v->s[i].addr, &key)) {
			if (v->s[i].out + (uint64_t)k > v->s[i].budget)
				return;	/* its client's egress is spent */
			if (!v->s[i].pid)	/* before the answer: the next datagram finds it */
				start_udp_worker(v, i, &from, fl);
			sendto(v->udp, buf, (size_t)k, MSG_DONTWAIT, (struct sockaddr *)&from, fl);
			v->s[i].out += (uint64_t)k;
			v->s[i].last = now_ns();
			return;
		}
}

static void end_sess(struct srv *v, struct sess *s)
{
	if (s->ctl >= 0)
		close(s->ctl);
	s->ctl = -1;
	if (s->pid > 0)
		kill(s->pid, SIGTERM);	/* released when reaped (its SIGCHLD) */
	else
		release(v, (int)(s - v->s));
}

/* Sessions of a client past its egress cap (several at once, each with the budget left at
 * its start, can pass it together): ended. */
static void egress_police(struct srv *v)
{
	for (int i = 0; v->max_egress && i < NET_CAP_SESSIONS; i++)
		if (v->s[i].used && v->s[i].pid > 0 &&
		    egress_of(v, v->s[i].addr) > v->max_egress) {
			say("%s: egress cap of %llu bytes reached: session ended",
			    ip(&v->s[i].addr), (unsigned long long)v->max_egress);
			end_sess(v, &v->s[i]);
		}
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
				release(v, i);
	for (int i = 0; i < NET_CAP_SESSIONS && v->acceptor < 0 && !v->stop; i++)
		if (v->s[i].used && v->s[i].mode == NET_CRR && !v->s[i].pid && v->s[i].ctl >= 0)
			start_crr_worker(v, i);	/* the acceptor ended: the next crr session's */
	refresh_activity(v, now);
	egress_police(v);
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
				    ip(&v->s[i].addr), NET_IDLE_MS / 1000);
			end_sess(v, &v->s[i]);
		}
	if (v->max_ns && now - v->t0 > v->max_ns && !v->stop) {
		say("--max-seconds reached: stopping");
		v->stop = 1;
	}
}

/* A connection the loop takes on: accepted by it (fd < 0: accept one) or handed to it by the
 * crr worker (fd, its peer address a, and the first byte the worker read, when got). It joins
 * the pending table (a crr byte already read is answered at once). */
static void accept_one(struct srv *v, int fd, struct sockaddr_storage *a, const char *got)
{
	struct sockaddr_storage acc;
	socklen_t al = sizeof acc;

	if (fd < 0) {
		a = &acc;
		if ((fd = accept4(v->lst, (struct sockaddr *)a, &al, SOCK_CLOEXEC)) < 0)
			return;
	}
	if (got && *got == NET_CRR_BYTE) {
		struct in6_addr key = net_sa_key(a);
		crr(v, fd, &key, 1);
		return;
	}
	if (v->npend == PEND_MAX) {	/* full: the oldest goes, so idle sockets cannot lock
					 * everyone out (a live client sends its line at once) */
		int old = 0;
		for (int i = 1; i < v->npend; i++)
			if (v->p[i].t0 < v->p[old].t0)
				old = i;
		say("%s: dropped, %d connections without a request line",
		    ip(&v->p[old].addr), PEND_MAX);
		close(v->p[old].fd);
		v->p[old] = v->p[--v->npend];
	}
	net_set_nodelay(fd, 1);	/* every reply a segment at once, as the client's requests are */
	struct pend *p = &v->p[v->npend++];
	*p = (struct pend){.fd = fd, .addr = net_sa_key(a), .t0 = now_ns(), .n = got != NULL};
	p->line[0] = got ? *got : 0;
}

/* A connection the crr worker handed over (hand_off()): taken on by accept_one(). */
static void take_hand_off(struct srv *v)
{
	char data[2], ctl[CMSG_SPACE(sizeof(int))];
	struct iovec io = {data, sizeof data};
	struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl,
			   .msg_controllen = sizeof ctl};
	struct sockaddr_storage a;
	socklen_t al = sizeof a;
	int fd = -1;

	if (recvmsg(v->hand[0], &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != (ssize_t)sizeof data)
		return;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(&fd, CMSG_DATA(c), sizeof fd);
	if (fd < 0)
		return;
	if (getpeername(fd, (struct sockaddr *)&a, &al)) {
		close(fd);	/* already reset by its client */
		return;
	}
	accept_one(v, fd, &a, data[0] ? &data[1] : NULL);
}

/* The poll loop until stop. */
static void serve_loop(struct srv *v)
{
	struct pollfd pf[3 + PEND_MAX + NET_CAP_SESSIONS];
	int sidx[NET_CAP_SESSIONS];

	while (!v->stop) {
		int n = 0, np, ns = 0;
		pf[n++] = (struct pollfd){.fd = v->sigfd, .events = POLLIN};
		/* the listening socket, or while a crr worker accepts, what it hands over */
		pf[n++] = (struct pollfd){.fd = v->acceptor < 0 ? v->lst : v->hand[0], .events = POLLIN};
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
				end_sess(v, &v->s[sidx[j]]);	/* the client closed its session */
		}
		for (int i = np - 1; i >= 0; i--)	/* from the end: a removal moves the last */
			if (pf[3 + i].revents)
				pending_ready(v, i);
		if (pf[1].revents && pf[1].fd == v->lst)
			accept_one(v, -1, NULL, NULL);
		else if (pf[1].revents)
			take_hand_off(v);
		housekeeping(v, pf[0].revents != 0);
	}
}

/* The listening TCP socket and the UDP socket of the same port on addr (port 0: one the
 * kernel picks that is free for both). 0, or -errno. */
static int open_sockets(struct srv *v, struct sockaddr_storage *addr)
{
	int one = 1, e = EADDRINUSE;

	for (int tries = 0; tries < 20; tries++) {
		struct sockaddr_storage a = *addr;
		socklen_t al = sizeof a;
		v->lst = socket(a.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		v->udp = socket(a.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (v->lst < 0 || v->udp < 0)
			return -errno;
		setsockopt(v->lst, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		/* a udp worker's connected socket joins this port (only this user's may) */
		setsockopt(v->udp, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
		if (bind(v->lst, (struct sockaddr *)&a, net_sa_len(&a)) == 0 && listen(v->lst, 128) == 0 &&
		    getsockname(v->lst, (struct sockaddr *)&a, &al) == 0 &&
		    bind(v->udp, (struct sockaddr *)&a, net_sa_len(&a)) == 0) {
			*addr = v->addr = a;
			return 0;
		}
		e = errno;
		close(v->lst);
		close(v->udp);
		if (port_of(addr))
			break;	/* a fixed port: no other to try */
	}
	return -e;
}

/* --bind's address (IPv4 or IPv6, numeric) into addr, its port kept: 1, or 0 when it is
 * neither. */
static int bind_addr(struct sockaddr_storage *addr, const char *val)
{
	unsigned port = port_of(addr);
	struct sockaddr_storage a = {0};
	struct sockaddr_in *a4 = (struct sockaddr_in *)(void *)&a;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)(void *)&a;

	if (inet_pton(AF_INET, val, &a4->sin_addr) == 1)
		a.ss_family = AF_INET;
	else if (inet_pton(AF_INET6, val, &a6->sin6_addr) == 1)
		a.ss_family = AF_INET6;
	else
		return 0;
	set_port(&a, port);
	*addr = a;
	return 1;
}

/* --store DIR: open DIR, a directory this process may write, as the store. 1, or 0 after a
 * line saying why not. */
static int store_open(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || faccessat(fd, ".", W_OK, 0)) {
		fprintf(stderr, "isobench --serve: --store %s: %s\n", dir,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (store_dir >= 0)
		close(store_dir);
	store_dir = fd;
	return 1;
}

/* --port, --bind, --max-seconds, --max-egress, --store into addr, *max_s, *max_egress and
 * store_dir. 0, or EXIT_USAGE after a line. */
/* BEGIN mode= and run.mode of the peer's log: the host's, or the image's when PID 1 started
 * it (isobench.serve=1: NET_SERVE_FROM_INIT). */
static const char *serve_mode = REC_MODE_HOST;

static int serve_args(int argc, char **argv, struct sockaddr_storage *addr, long *max_s,
		      uint64_t *max_egress)
{
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		long long n;
		if (!strcmp(o, NET_SERVE_FROM_INIT)) {	/* no value: the image's peer (peer.c) */
			serve_mode = REC_MODE_INIT;
			continue;
		}
		if (!strcmp(o, "--port") && val && !num_ll(val, 0, 0, 65535, &n))
			set_port(addr, (unsigned)n);
		else if (!strcmp(o, "--max-seconds") && val && !num_ll(val, 0, 0, 30L * 86400, &n))
			*max_s = (long)n;
		else if (!strcmp(o, "--bind") && val && bind_addr(addr, val))
			;
		else if (!strcmp(o, "--store") && val && store_open(val))
			;
		else if (!strcmp(o, "--max-egress") && val && !strcmp(val, "0"))
			*max_egress = 0;
		else if (!strcmp(o, "--max-egress") && val && params_parse_size(val) > 0)
			*max_egress = (uint64_t)params_parse_size(val);
		else {
			fprintf(stderr, "isobench --serve: bad option or value '%s%s%s' (usage: "
				"isobench --serve [--port 0..65535] [--bind IPv4 or IPv6, default 127.0.0.1; "
				"0.0.0.0 or ::, every address] [--max-seconds 0..2592000, default %d; 0: "
				"forever] [--max-egress BYTES per client, default 1T; 0: none] [--store "
				"DIR: keep the runs' logs sent to it])\n", o,
				val ? " " : "", val ? val : "", NET_SERVE_LIFE_S);
			return EXIT_USAGE;
		}
		i++;
	}
	return 0;
}

/* BEGIN, the machine header, the serve.* INFO: the peer's side of a log. */
static void serve_begin(const struct sockaddr_storage *addr, long max_s, uint64_t max_egress)
{
	static struct params p;
	struct rec_body b;
	const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);
	char bind_s[INET6_ADDRSTRLEN], run[24];

	snprintf(run, sizeof run, "%016llx", rnd ? *(const unsigned long long *)(const void *)rnd
						: (unsigned long long)now_ns());
	out_begin(run, serve_mode);
	params_init(&p);
	snprintf(p.tests, sizeof p.tests, "-");
	params_finish(&p, (int)sysconf(_SC_NPROCESSORS_ONLN));
	sysinfo_emit(&p, serve_mode, "-");
	net_sa_str(addr, bind_s, sizeof bind_s);
	rec_begin(&b, RK_INFO);
	rec_u64(&b, RK_SERVE_PORT, port_of(addr));
	rec_str(&b, RK_SERVE_BIND, bind_s);
	rec_u64(&b, RK_SERVE_MAX_SECONDS, (uint64_t)max_s);
	rec_u64(&b, RK_SERVE_MAX_EGRESS, max_egress);
	out_record(&b);
}

int netserve_main(int argc, char **argv)
{
	static struct srv v;
	struct sockaddr_storage addr = {.ss_family = AF_INET};
	long max_s = NET_SERVE_LIFE_S;
	uint64_t max_egress = NET_CAP_EGRESS;
	sigset_t set;
	char clk[64], where[INET6_ADDRSTRLEN];

	bind_addr(&addr, "127.0.0.1");	/* one address, this host's, unless named */
	set_port(&addr, NET_DEFAULT_PORT);
	if (serve_args(argc, argv, &addr, &max_s, &max_egress))
		return EXIT_USAGE;
	int fl = fcntl(1, F_GETFL);	/* as a run's CLI: the records need somewhere to go */
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
		fprintf(stderr, "isobench --serve: standard output is %s: nowhere to write the "
			"records\n", fl < 0 ? "closed" : "not writable");
		return EXIT_USAGE;
	}
	v.live = mmap(NULL, sizeof *v.live * NET_CAP_SESSIONS, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (v.live == MAP_FAILED) {
		fprintf(stderr, "isobench --serve: mmap: %s\n", strerror(errno));
		return EXIT_USAGE;
	}
	v.max_egress = max_egress;
	v.acceptor = -1;
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, v.hand)) {
		fprintf(stderr, "isobench --serve: socketpair: %s\n", strerror(errno));
		return EXIT_USAGE;
	}
	int rc = open_sockets(&v, &addr);
	if (rc) {
		fprintf(stderr, "isobench --serve: cannot listen on port %u: %s\n",
			port_of(&addr), strerror(-rc));
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
	serve_begin(&addr, max_s, max_egress);
	net_sa_str(&addr, where, sizeof where);
	char life[48];
	snprintf(life, sizeof life, max_s ? "for %ld s (--max-seconds)" : "forever (--max-seconds 0)",
		 max_s);
	say("listening on %s port %u (TCP and UDP)%s, %s, %s", where, port_of(&addr),
	    net_sa_loopback(&addr) ? " (this host only: --bind ADDR for "
	    "another address)" : "", life, v.ident);
	serve_loop(&v);
	for (int i = 0; i < NET_CAP_SESSIONS; i++)
		if (v.s[i].used)
			end_sess(&v, &v.s[i]);
	while (wait(NULL) > 0)
		;
	say("%lu sessions, %lu refused, %lu slots taken from idle sessions", v.nsessions,
	    v.nrefused, v.nevicted);
	clocksource_current(clk, sizeof clk);
	out_end(REC_STATUS_OK, clk);
	if (write(1, "\n", 1) != 1) {	/* records lost to a closed pipe or a full disk */
		fprintf(stderr, "isobench --serve: standard output could not be written (%s): the "
			"log is incomplete\n", strerror(errno));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
