/* sockwrite.c — the `sockwrite-*` probes: small writes to a loopback TCP socket.
 *
 * Source of the case: a virtualized server spent ~30% of its time (vs ~8% on bare metal) in
 * small socket writes at ~50k writes/s: each write to a socket whose reader sleeps must wake
 * that reader, and a wake-up costs far more in a guest (IPI + halt exit when the reader is on
 * another vCPU). Setup connects a TCP socket over 127.0.0.1 (TCP_NODELAY on, as such servers
 * set it: every write becomes a segment), and forks a reader process that holds the accepted
 * end. Single-copy tests (.max_copies = 1). The reader ends on EOF when the test closes the
 * socket, on a 30 s receive timeout, or when its parent dies (PR_SET_PDEATHSIG); the writer
 * has a 10 s send timeout, so nothing can hang.
 *
 *   sockwrite-64 / -512 / -4096   back to back: one loop = one write() of 64 / 512 / 4096
 *       bytes (unit ns per write, BENCH_TIME); the reader drains with read() of up to 64 KiB.
 *       Extra mbps_x100: payload MB/s (10^6 bytes) x 100 over the sample so far (the clock is
 *       read once per batch for it).
 *   sockwrite-paced[-samecpu|-crosscpu]   paced: one loop = one write() of
 *       SOCKWRITE_PACED_SIZE (512) bytes at SOCKWRITE_PACED_RATE (50,000) writes/s, both
 *       compile-time defaults (-DSOCKWRITE_PACED_RATE=...). The writer sleeps until each
 *       write's slot (paced.h, shared with net-paced-write: clock_nanosleep TIMER_ABSTIME,
 *       timer slack 1 ns), as a server blocked in epoll between requests does; slots are
 *       absolute, so a late write is followed by the next ones without sleeping until the
 *       schedule is caught up, unless it is over PACED_CATCHUP_NS (1 ms) behind: then the
 *       missed slots are dropped (the achieved rate, loops / ns of each SAMPLE, shows it). (A
 *       busy-waiting writer was tried first: on the same CPU the woken reader then waited
 *       for the writer's time slice to end, p99 ~3.5 ms, which measured the scheduler, not
 *       the wake-up.) The reader sleeps in recv(MSG_WAITALL) per message.
 *       Value: the share of one CPU spent inside write(), in % (busy_pct_x100 / 100; lower
 *       is better) — the figure of the "30% virtualized vs 8% bare metal" report.
 *       The clock IS read around every write() here: that is the measurement. Extras per
 *       sample: busy_pct_x100 (time inside write() / wall time x 10000: the share of one CPU
 *       spent writing), write_ns (mean time inside one write()), p50_ns / p99_ns / max_ns
 *       (reader wake-up delay: the writer stamps CLOCK_MONOTONIC into the message right
 *       before write(), the reader subtracts it from the clock after recv() returns; both
 *       processes share the clock, so no offset), target_hz; the sample's delays also go to
 *       bench_lat() (lh_to_lat()): the RESULT's p50/p99/p99.9/max are the whole run's.
 *       Placement: plain = the scheduler's choice; -samecpu = writer and reader pinned to the
 *       same CPU; -crosscpu = pinned to two CPUs (BENCH_SKIP on a 1-CPU machine).
 */
#define _GNU_SOURCE
#include "io.h"
#include "../core/paced.h"
#include "../core/probe_util.h"
#include "../sys.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SOCKWRITE_PACED_RATE
#define SOCKWRITE_PACED_RATE PACED_RATE_HZ	/* writes per second (paced.h) */
#endif
#ifndef SOCKWRITE_PACED_SIZE
#define SOCKWRITE_PACED_SIZE PACED_SIZE	/* bytes per write (paced.h) */
#endif

enum place { PLACE_ANY, PLACE_SAME, PLACE_CROSS };

struct sw_state {
	int fd;
	pid_t reader;
	size_t size;
	char *buf;
	struct lathist *h;	/* shared with the reader (paced) */
	struct lathist snap;
	struct lat_hist lat;	/* the sample's, for bench_lat() (whole-run tails; paced) */
	uint64_t t_s0, bytes;	/* back to back */
	struct paced pc;	/* paced (paced.h) */
};

static void reader_drain(int fd)
{
	static char buf[65536];

	while (read(fd, buf, sizeof buf) > 0)
		;
	_exit(0);
}

static void reader_paced(int fd, size_t size, struct lathist *h)
{
	char *msg = malloc(size);

	if (!msg)
		_exit(2);
	for (;;) {
		ssize_t k = recv(fd, msg, size, MSG_WAITALL);
		if (k != (ssize_t)size)
			_exit(0);
		uint64_t now = now_ns(), stamp;
		memcpy(&stamp, msg, sizeof stamp);
		lh_add(h, now > stamp ? now - stamp : 0);
	}
}

static int sw_setup(struct bench_ctx *ctx, size_t size, int paced, enum place place)
{
	struct sw_state *s = calloc(1, sizeof *s);
	struct sockaddr_in sa;
	struct timeval snd = {10, 0}, rcv = {30, 0};
	int one = 1, cpu[2] = {0, 0}, ncpu, lst, acc;

	if (!s)
		return -ENOMEM;
	ctx->state = s;
	s->fd = -1;
	s->size = size;
	ncpu = probe_two_cpus(cpu);
	if (place == PLACE_CROSS && ncpu < 2) {
		bench_note(ctx, "one CPU: writer and reader cannot be on different CPUs");
		return BENCH_SKIP;
	}
	if (!(s->buf = calloc(1, size)))
		return -ENOMEM;
	if (paced) {
		s->h = mmap(NULL, sizeof *s->h, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (s->h == MAP_FAILED)
			return -ENOMEM;
		int r = probe_timer_slack_1ns(ctx);
		if (r)
			return r;
	}
	lst = probe_listen_loopback(1, &sa);
	if (lst < 0) {
		bench_note(ctx, "loopback listen: %s", strerror(-lst));
		return lst;
	}
	s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0 || connect(s->fd, (struct sockaddr *)&sa, sizeof sa)) {
		bench_note(ctx, "connect 127.0.0.1: %s (is lo up?)", strerror(errno));
		return -errno;
	}
	acc = accept(lst, NULL, NULL);
	close(lst);
	if (acc < 0)
		return -errno;
	setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(s->fd, SOL_SOCKET, SO_SNDTIMEO, &snd, sizeof snd);
	setsockopt(acc, SOL_SOCKET, SO_RCVTIMEO, &rcv, sizeof rcv);
	if (place != PLACE_ANY) {
		int r = probe_pin(0, cpu[0]);
		if (r)
			return r;
	}
	s->reader = fork();
	if (s->reader < 0)
		return -errno;
	if (s->reader == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (place != PLACE_ANY && probe_pin(0, cpu[place == PLACE_CROSS ? 1 : 0]))
			_exit(4);
		close(s->fd);
		if (paced)
			reader_paced(acc, size, s->h);
		reader_drain(acc);
	}
	close(acc);
	return 0;
}

static int b2b_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct sw_state *s = ctx->state;
	int r;

	if (probe_new_sample(ctx)) {
		s->t_s0 = now_ns();
		s->bytes = 0;
	}
	for (uint64_t i = 0; i < iters; i++) {
		s->buf[0] = (char)i;
		if ((r = sock_write_all(s->fd, s->buf, s->size)))
			return r;
	}
	s->bytes += iters * s->size;
	uint64_t dt = now_ns() - s->t_s0;
	bench_extra(ctx, REC_EXTRA_MBPS_X100, (int64_t)(dt ? s->bytes * 100000 / dt : 0));
	return 0;
}

static int paced_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct sw_state *s = ctx->state;
	int r;

	if (probe_new_sample(ctx)) {
		lh_snapshot(s->h, &s->snap);
		paced_start(&s->pc, 1000000000u / SOCKWRITE_PACED_RATE);
	}
	if ((r = paced_writes(&s->pc, s->fd, s->buf, s->size, iters)))
		return r;
	bench_extra(ctx, REC_EXTRA_BUSY_PCT_X100, paced_busy_x10000(&s->pc));
	bench_extra(ctx, REC_EXTRA_WRITE_NS, (int64_t)(s->pc.busy / s->pc.writes));
	bench_extra(ctx, REC_EXTRA_P50_NS, (int64_t)lh_pct(s->h, &s->snap, 50, NULL));
	bench_extra(ctx, REC_EXTRA_P99_NS, (int64_t)lh_pct(s->h, &s->snap, 99, NULL));
	bench_extra(ctx, REC_EXTRA_MAX_NS, (int64_t)lh_max(s->h, &s->snap));
	lh_to_lat(s->h, &s->snap, &s->lat);
	bench_lat(ctx, &s->lat);	/* the RESULT's whole-run percentiles */
	bench_extra(ctx, REC_EXTRA_TARGET_HZ, SOCKWRITE_PACED_RATE);
	ctx->sink += s->pc.writes;
	return 0;
}

static void sw_teardown(struct bench_ctx *ctx)
{
	struct sw_state *s = ctx->state;

	if (s->fd >= 0)
		close(s->fd);
	if (s->reader > 0)
		waitpid(s->reader, NULL, 0);
	if (s->h && s->h != MAP_FAILED)
		munmap(s->h, sizeof *s->h);
	free(s->buf);
	free(s);
}

static int s64(struct bench_ctx *c) { return sw_setup(c, 64, 0, PLACE_ANY); }
static int s512(struct bench_ctx *c) { return sw_setup(c, 512, 0, PLACE_ANY); }
static int s4096(struct bench_ctx *c) { return sw_setup(c, 4096, 0, PLACE_ANY); }
static int sp(struct bench_ctx *c) { return sw_setup(c, SOCKWRITE_PACED_SIZE, 1, PLACE_ANY); }
static int sps(struct bench_ctx *c) { return sw_setup(c, SOCKWRITE_PACED_SIZE, 1, PLACE_SAME); }
static int spx(struct bench_ctx *c) { return sw_setup(c, SOCKWRITE_PACED_SIZE, 1, PLACE_CROSS); }

#define SW(id, ttl, unt, knd, su, ru) \
	BENCH(id, .title = ttl, .group = REC_GROUP_PROBES, .unit = unt, \
		.kind = knd, .per_loop = 1, .max_copies = 1, .setup = su, .run = ru, \
		.teardown = sw_teardown)

SW(sockwrite_64, "Loopback TCP write(), 64 B back to back", REC_UNIT_NS,
   BENCH_TIME, s64, b2b_run);
SW(sockwrite_512, "Loopback TCP write(), 512 B back to back", REC_UNIT_NS,
   BENCH_TIME, s512, b2b_run);
SW(sockwrite_4096, "Loopback TCP write(), 4096 B back to back", REC_UNIT_NS,
   BENCH_TIME, s4096, b2b_run);
/* Paced: the value is the % of one CPU inside write() (lower is better). */
#define SWP(id, ttl, su) \
	BENCH(id, .title = ttl, .group = REC_GROUP_PROBES, \
		.unit = REC_UNIT_CPU_PCT, .kind = BENCH_TIME, .per_loop = 1, .max_copies = 1, .setup = su, \
		.run = paced_run, .teardown = sw_teardown, .value_extra = REC_EXTRA_BUSY_PCT_X100, \
		.value_scale = 0.01)

SWP(sockwrite_paced, "TCP write() 512 B at 50k/s, any CPU", sp);
SWP(sockwrite_paced_samecpu,
    "TCP write() 512 B at 50k/s, same CPU", sps);
SWP(sockwrite_paced_crosscpu,
    "TCP write() 512 B at 50k/s, two CPUs", spx);
