/* tbench.c — the `tbench-1` and `tbench-n` probes: a clean-room tbench (dbench's network
 * half): loopback TCP plus process load, the case where a guest did 55 MB/s vs 95 with
 * paravirtual support.
 *
 * Setup forks a server process listening on 127.0.0.1, port 0 (the kernel picks a free port,
 * shared through the socket address before the fork), which forks one handler per
 * connection, and C client processes (tbench-1: C = 1; tbench-n: C = online CPUs), each with
 * its own connection, TCP_NODELAY on both ends. Per operation a client sends an 8-byte header
 * (bytes that follow, bytes wanted back; big-endian) and the body, in one write(); the handler
 * reads it all and replies with that many bytes (the first 4 say how many, as a check); the
 * client reads the 4 and discards the rest with recv(MSG_WAITALL|MSG_TRUNC) — as tbench does,
 * so neither side copies reply data into user space. Sizes per operation: tbench_load.h.
 *
 * Load: a dbench load file if the environment variable ISOBENCH_TBENCH_LOAD names one
 * (e.g. client.txt of the Debian package dbench), else TBENCH_LOAD_BUILTIN when the image
 * carries it (`TBENCH_LOAD=FILE ./build.sh` puts FILE there), else the synthetic
 * mix of tbench_load.h (a block of 100,000 operations from seed 1, replayed in a loop); the
 * INFO record says which (run.tbench_load). Every client replays the load from its start in a
 * loop, as tbench does. A malformed file FAILs the test with the line number.
 *
 * One loop = 10^6 bytes of payload (ReadX + WriteX data, what tbench's MB/s counts), so the
 * value is MB/s (BENCH_RATE, per_loop 1) whatever the load: run(iters) adds iters x 10^6
 * bytes to a shared budget and bumps a generation counter the clients watch; each client
 * claims an operation's payload from the budget before doing it and stops when the budget
 * is spent; run() returns when all clients have stopped (one byte each on a pipe). The last
 * operations overshoot the budget by at most one op per client; the overshoot is carried (as
 * a negative budget) into the next loop, so nothing is counted twice or lost. Clients never
 * work outside a measured batch. Between batches they spin on the counter for up to 50 ms,
 * then sleep on it (futex): a client woken by the coordinator at every batch is pulled to
 * the coordinator's CPU (wake-affine), away from its server handler, so placement would
 * follow the harness rather than the load.
 *
 * Extras per sample (all clients): ops_per_s, p50_ns / p99_ns / max_ns (latency of one
 * exchange; each client reads the clock around every exchange — that is a latency
 * measurement, ~50 ns against the tens of microseconds an exchange takes), read_pct
 * (share of the payload read), clients. The sample's latencies also go to bench_lat()
 * (lh_to_lat()): the RESULT's p50/p99/p99.9/max are the whole run's (harness).
 */
#define _GNU_SOURCE
#include "../core/probe_util.h"
#include "../core/tbench_load.h"
#include "arch.h"
#include "io.h"
#include "../sys.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TB_SYNTH_OPS 100000
#define TB_SYNTH_SEED 1
#define TB_MAX_CLIENTS 256
#define TB_IO_TIMEOUT_S 30
#define TB_SPIN_NS 50000000u	/* clients spin this long between batches before sleeping */

struct tb_client_shm {
	struct lathist h;
	_Atomic uint64_t ops, rbytes, wbytes;
	_Atomic int err;
};

struct tb_shared {
	_Atomic int64_t budget;		/* payload bytes still to do in this run() */
	_Atomic uint32_t gen;		/* +1 per run(): clients start on a change (futex word) */
	_Atomic int waiters;		/* clients asleep on gen */
	_Atomic int quit;		/* teardown: clients exit on the next gen */
	struct tb_client_shm c[];
};

struct tb_state {
	struct tb_load ld;
	struct tb_shared *sh;
	size_t shsize;
	int nclients;
	pid_t server, client[TB_MAX_CLIENTS];
	int done;			/* clients -> coordinator: one byte each when spent */
	/* per-sample */
	struct lathist merged, snap;
	struct lat_hist lat;		/* the sample's, for bench_lat() (whole-run tails) */
	uint64_t ops0, r0, w0, t_s0;
};

static void io_timeouts(int fd)
{
	struct timeval tv = {TB_IO_TIMEOUT_S, 0};
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

/* One connection: read header + body, reply with the wanted bytes. */
static void handler(int fd, uint32_t bufsize)
{
	char *buf = malloc(bufsize);

	if (!buf)
		_exit(2);
	io_timeouts(fd);
	for (;;) {
		uint32_t hdr[2];
		if (read_all(fd, hdr, sizeof hdr))
			_exit(0);
		uint32_t follow = ntohl(hdr[0]), want = ntohl(hdr[1]);
		if (follow > bufsize || want > bufsize || want < 4)
			_exit(3);	/* out of sync: the client sees EOF and fails */
		if (read_all(fd, buf, follow))
			_exit(0);
		uint32_t echo = htonl(want);
		memcpy(buf, &echo, 4);
		if (write_all(fd, buf, want))
			_exit(0);
	}
}

static void server(int lst, uint32_t bufsize)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGCHLD, SIG_IGN);	/* handlers are reaped by the kernel */
	for (;;) {
		int fd = accept(lst, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		pid_t p = fork();
		if (p == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(lst);
			handler(fd, bufsize);
		}
		close(fd);
	}
}

static int exchange(int fd, char *buf, const struct tb_op *o)
{
	uint32_t hdr[2] = {htonl(o->req - TB_HDR), htonl(o->rep)}, echo;

	memcpy(buf, hdr, sizeof hdr);
	if (write_all(fd, buf, o->req))
		return -EPIPE;
	if (read_all(fd, &echo, 4) || ntohl(echo) != o->rep)
		return -EPROTO;
	size_t rest = o->rep - 4;
	while (rest) {
		ssize_t k = recv(fd, buf, rest, MSG_WAITALL | MSG_TRUNC);
		if (k <= 0) {
			if (k < 0 && errno == EINTR)
				continue;
			return -EPIPE;
		}
		rest -= (size_t)k < rest ? (size_t)k : rest;
	}
	return 0;
}

/* Wait until the coordinator bumps gen past *seen: spin first (TB_SPIN_NS), then sleep on
 * the futex. Spinning keeps clients off the wake-up path between batches: a client woken by
 * the coordinator is pulled to the coordinator's CPU (wake-affine), away from its server
 * handler, and the batch then runs with client and handler placed by the coordinator rather
 * than by the load. Returns 1 when told to quit (teardown). */
static int wait_gen(struct tb_shared *sh, uint32_t *seen)
{
	uint64_t t0 = now_ns();

	for (unsigned i = 1;; i++) {
		uint32_t g = atomic_load_explicit(&sh->gen, memory_order_acquire);
		if (g != *seen) {
			*seen = g;
			return atomic_load(&sh->quit);
		}
		if (i % 1024)
			arch_cpu_relax();
		else if (now_ns() - t0 > TB_SPIN_NS) {
			atomic_fetch_add(&sh->waiters, 1);
			struct timespec ts = {1, 0};
			futex_wait(&sh->gen, g, &ts);
			atomic_fetch_sub(&sh->waiters, 1);
		}
	}
}

static void client(struct tb_state *s, int id, const struct sockaddr_in *sa)
{
	struct tb_client_shm *me = &s->sh->c[id];
	char *buf = calloc(1, s->ld.max_req > s->ld.max_rep ? s->ld.max_req : s->ld.max_rep);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	size_t next = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!buf || fd < 0 || connect(fd, (const struct sockaddr *)sa, sizeof *sa)) {
		atomic_store(&me->err, errno ? errno : ENOMEM);
		_exit(1);
	}
	io_timeouts(fd);
	for (uint32_t seen = 0;;) {
		if (wait_gen(s->sh, &seen))
			_exit(0);
		for (;;) {
			const struct tb_op *o = &s->ld.ops[next];
			if (atomic_load_explicit(&s->sh->budget, memory_order_relaxed) <= 0)
				break;
			atomic_fetch_sub(&s->sh->budget, (int64_t)o->payload);
			uint64_t t0 = now_ns();
			int r = exchange(fd, buf, o);
			uint64_t t1 = now_ns();
			if (r) {
				atomic_store(&me->err, -r);
				_exit(1);	/* the coordinator sees done-pipe EOF or the error */
			}
			lh_add(&me->h, t1 - t0);
			atomic_fetch_add_explicit(&me->ops, 1, memory_order_relaxed);
			if (o->kind == TB_READX)
				atomic_fetch_add_explicit(&me->rbytes, o->payload,
							  memory_order_relaxed);
			else if (o->kind == TB_WRITEX)
				atomic_fetch_add_explicit(&me->wbytes, o->payload,
							  memory_order_relaxed);
			if (++next == s->ld.n)
				next = 0;
		}
		if (write(s->done, "d", 1) != 1)
			_exit(1);
	}
	_exit(0);
}

static int tb_setup(struct bench_ctx *ctx, int nclients)
{
	struct tb_state *s = calloc(1, sizeof *s);
	struct sockaddr_in sa;
	char err[200];
	int donep[2], lst;

	if (!s)
		return -ENOMEM;
	ctx->state = s;
	s->done = -1;
	if (nclients > TB_MAX_CLIENTS)
		nclients = TB_MAX_CLIENTS;
	s->nclients = nclients;
	const char *path = tbench_load_path();
	if (path) {
		if (tb_load_file(path, &s->ld, err, sizeof err)) {
			bench_note(ctx, "load file: %s", err);
			return -EINVAL;
		}
	} else if (tb_synth(TB_SYNTH_SEED, TB_SYNTH_OPS, &s->ld)) {
		return -ENOMEM;
	}
	s->shsize = sizeof *s->sh + (size_t)nclients * sizeof s->sh->c[0];
	s->sh = mmap(NULL, s->shsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		     0);
	if (s->sh == MAP_FAILED) {
		s->sh = NULL;
		return -ENOMEM;
	}

	lst = probe_listen_loopback(64, &sa);
	if (lst < 0) {
		bench_note(ctx, "loopback listen: %s (is lo up?)", strerror(-lst));
		return lst;
	}
	uint32_t bufsize = (s->ld.max_req > s->ld.max_rep ? s->ld.max_req : s->ld.max_rep) + 64;
	s->server = fork();
	if (s->server < 0)
		return -errno;
	if (s->server == 0)
		server(lst, bufsize);
	close(lst);

	if (pipe(donep))
		return -errno;
	s->done = donep[1];
	for (int i = 0; i < nclients; i++) {
		s->client[i] = fork();
		if (s->client[i] < 0)
			return -errno;
		if (s->client[i] == 0) {
			close(donep[0]);
			client(s, i, &sa);
		}
	}
	close(donep[1]);
	s->done = donep[0];
	return 0;
}

static int tb1_setup(struct bench_ctx *ctx) { return tb_setup(ctx, 1); }

static int tbn_setup(struct bench_ctx *ctx)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return tb_setup(ctx, n < 1 ? 1 : (int)n);
}

static void sample_extras(struct bench_ctx *ctx, struct tb_state *s, int fresh)
{
	uint64_t ops = 0, rb = 0, wb = 0;

	memset(&s->merged, 0, sizeof s->merged);
	for (int i = 0; i < s->nclients; i++) {
		struct tb_client_shm *c = &s->sh->c[i];
		for (unsigned b = 0; b < LH_BUCKETS; b++)
			s->merged.n[b] += __atomic_load_n(&c->h.n[b], __ATOMIC_RELAXED);
		uint64_t m = __atomic_load_n(&c->h.max, __ATOMIC_RELAXED);
		if (m > s->merged.max)
			s->merged.max = m;
		ops += atomic_load(&c->ops);
		rb += atomic_load(&c->rbytes);
		wb += atomic_load(&c->wbytes);
	}
	if (fresh) {
		s->snap = s->merged;
		s->ops0 = ops;
		s->r0 = rb;
		s->w0 = wb;
		return;
	}
	uint64_t wall = now_ns() - s->t_s0, dr = rb - s->r0, dw = wb - s->w0;
	bench_extra(ctx, REC_EXTRA_OPS_PER_S, (int64_t)(wall ? (ops - s->ops0) * 1000000000u / wall : 0));
	bench_extra(ctx, REC_EXTRA_P50_NS, (int64_t)lh_pct(&s->merged, &s->snap, 50, NULL));
	bench_extra(ctx, REC_EXTRA_P99_NS, (int64_t)lh_pct(&s->merged, &s->snap, 99, NULL));
	bench_extra(ctx, REC_EXTRA_MAX_NS, (int64_t)lh_max(&s->merged, &s->snap));
	lh_to_lat(&s->merged, &s->snap, &s->lat);
	bench_lat(ctx, &s->lat);	/* the RESULT's whole-run percentiles */
	bench_extra(ctx, REC_EXTRA_READ_PCT, (int64_t)(dr + dw ? dr * 100 / (dr + dw) : 0));
	bench_extra(ctx, REC_EXTRA_CLIENTS, s->nclients);
}

static int tb_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct tb_state *s = ctx->state;

	if (probe_new_sample(ctx)) {
		sample_extras(ctx, s, 1);
		s->t_s0 = now_ns();
	}
	atomic_fetch_add(&s->sh->budget, (int64_t)(iters * 1000000u));
	atomic_fetch_add_explicit(&s->sh->gen, 1, memory_order_release);
	if (atomic_load(&s->sh->waiters))
		futex_wake(&s->sh->gen, INT32_MAX);
	for (int left = s->nclients; left > 0;) {
		struct pollfd p = {.fd = s->done, .events = POLLIN};
		char buf[TB_MAX_CLIENTS];
		int pr = poll(&p, 1, TB_IO_TIMEOUT_S * 1000);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr == 0) {
			bench_note(ctx, "clients stalled for %d s", TB_IO_TIMEOUT_S);
			return -ETIMEDOUT;
		}
		ssize_t k = read(s->done, buf, (size_t)left);
		if (k <= 0) {
			for (int i = 0; i < s->nclients; i++) {
				int e = atomic_load(&s->sh->c[i].err);
				if (e) {
					bench_note(ctx, "client %d: %s", i, strerror(e));
					return -e;
				}
			}
			return -EPIPE;
		}
		left -= (int)k;
	}
	sample_extras(ctx, s, 0);
	ctx->sink += iters;
	return 0;
}

static void tb_teardown(struct bench_ctx *ctx)
{
	struct tb_state *s = ctx->state;

	if (s->sh) {
		atomic_store(&s->sh->quit, 1);
		atomic_fetch_add(&s->sh->gen, 1);
		futex_wake(&s->sh->gen, INT32_MAX);
	}
	for (int i = 0; i < s->nclients; i++)
		if (s->client[i] > 0)
			waitpid(s->client[i], NULL, 0);
	if (s->server > 0) {
		kill(s->server, SIGTERM);
		waitpid(s->server, NULL, 0);
	}
	if (s->done >= 0)
		close(s->done);
	if (s->sh)
		munmap(s->sh, s->shsize);
	tb_load_free(&s->ld);
	free(s);
}

BENCH(tbench_1, .title = "tbench, 1 client (loopback TCP)", .group = REC_GROUP_PROBES,
	.unit = REC_UNIT_MBPS, .kind = BENCH_RATE, .per_loop = 1, .max_copies = 1,
	.setup = tb1_setup, .run = tb_run, .teardown = tb_teardown);

BENCH(tbench_n, .title = "tbench, one client per CPU (loopback TCP)",
	.group = REC_GROUP_PROBES, .unit = REC_UNIT_MBPS, .kind = BENCH_RATE, .per_loop = 1,
	.max_copies = 1, .setup = tbn_setup, .run = tb_run, .teardown = tb_teardown);
