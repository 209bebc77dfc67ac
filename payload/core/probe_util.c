/* probe_util.c — see probe_util.h. */
#define _GNU_SOURCE
#include "probe_util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/prctl.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static unsigned lh_index(uint64_t v)
{
	if (v < LH_SUB)
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v);	/* >= 4 */
	if (e > 40)
		return LH_BUCKETS - 1;
	unsigned sub = (unsigned)(v >> (e - 4)) & (LH_SUB - 1);
	return (e - 3) * LH_SUB + sub;
}

/* [lo, hi) of bucket i */
static void lh_bounds(unsigned i, uint64_t *lo, uint64_t *hi)
{
	if (i < LH_SUB) {
		*lo = i;
		*hi = i + 1;
		return;
	}
	unsigned e = i / LH_SUB + 3, sub = i % LH_SUB;
	*lo = ((uint64_t)LH_SUB + sub) << (e - 4);
	*hi = *lo + (1ull << (e - 4));
}

void lh_add(struct lathist *h, uint64_t ns)
{
	__atomic_fetch_add(&h->n[lh_index(ns)], 1, __ATOMIC_RELAXED);
	uint64_t m = __atomic_load_n(&h->max, __ATOMIC_RELAXED);
	if (ns > m)
		__atomic_store_n(&h->max, ns, __ATOMIC_RELAXED);
}

void lh_snapshot(const struct lathist *h, struct lathist *snap)
{
	for (unsigned i = 0; i < LH_BUCKETS; i++)
		snap->n[i] = __atomic_load_n(&h->n[i], __ATOMIC_RELAXED);
	snap->max = __atomic_load_n(&h->max, __ATOMIC_RELAXED);
}

static uint64_t count_of(const struct lathist *h, const struct lathist *snap, unsigned i)
{
	uint64_t c = __atomic_load_n(&h->n[i], __ATOMIC_RELAXED);
	uint64_t s = snap ? snap->n[i] : 0;
	return c > s ? c - s : 0;
}

uint64_t lh_pct(const struct lathist *h, const struct lathist *snap, double p, uint64_t *count)
{
	uint64_t total = 0, acc = 0, lo, hi;

	for (unsigned i = 0; i < LH_BUCKETS; i++)
		total += count_of(h, snap, i);
	if (count)
		*count = total;
	if (!total)
		return 0;
	uint64_t rank = (uint64_t)(p / 100.0 * (double)total);
	if (rank >= total)
		rank = total - 1;
	for (unsigned i = 0; i < LH_BUCKETS; i++) {
		acc += count_of(h, snap, i);
		if (acc > rank) {
			/* The bucket's midpoint, but never above the interval's largest value. */
			uint64_t mid, max = lh_max(h, snap);
			lh_bounds(i, &lo, &hi);
			mid = lo + (hi - lo) / 2;
			return mid < max ? mid : max;
		}
	}
	return 0;
}

void lh_to_lat(const struct lathist *h, const struct lathist *snap, struct lat_hist *out)
{
	uint64_t max = lh_max(h, snap), lo, hi;
	unsigned top = LH_BUCKETS;

	lat_reset(out);
	for (unsigned i = 0; i < LH_BUCKETS; i++)
		if (count_of(h, snap, i))
			top = i;
	for (unsigned i = 0; i < LH_BUCKETS; i++) {
		uint64_t c = count_of(h, snap, i);
		if (!c)
			continue;
		lh_bounds(i, &lo, &hi);
		uint64_t mid = lo + (hi - lo) / 2;
		mid = mid < max ? mid : max;
		if (i == top) {
			lat_record_n(out, mid, c - 1);
			lat_record(out, max);
		} else {
			lat_record_n(out, mid, c);
		}
	}
}

uint64_t lh_max(const struct lathist *h, const struct lathist *snap)
{
	uint64_t lo, hi, m = __atomic_load_n(&h->max, __ATOMIC_RELAXED);

	for (unsigned i = LH_BUCKETS; i-- > 0;)
		if (count_of(h, snap, i)) {
			lh_bounds(i, &lo, &hi);
			return hi - 1 < m ? hi - 1 : m;
		}
	return 0;
}

int probe_two_cpus(int cpu[2])
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof set, &set))
		return 0;
	for (int i = 0; i < CPU_SETSIZE && n < 2; i++)
		if (CPU_ISSET(i, &set))
			cpu[n++] = i;
	return n;
}

int probe_pin(int pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof set, &set) ? -errno : 0;
}

void probe_cycles_extra(struct bench_ctx *ctx, struct probe_cycles *pc, uint64_t cyc,
			uint64_t iters)
{
	if (probe_new_sample(ctx))
		pc->cyc = pc->loops = 0;
	pc->cyc += cyc;
	pc->loops += iters;
	bench_extra(ctx, REC_EXTRA_CYCLES_X100, (int64_t)(pc->cyc * 100 / (pc->loops ? pc->loops : 1)));
}

int probe_listen_loopback(int backlog, struct sockaddr_in *sa)
{
	socklen_t len = sizeof *sa;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), e;

	memset(sa, 0, sizeof *sa);
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)sa, sizeof *sa) || listen(fd, backlog) ||
	    getsockname(fd, (struct sockaddr *)sa, &len)) {
		e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

int probe_timer_slack_1ns(struct bench_ctx *ctx)
{
	if (!prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL))
		return 0;
	if (errno != EINVAL)
		return -errno;
	bench_note(ctx, "the kernel refuses timer slack (PR_SET_TIMERSLACK: EINVAL, as gVisor's): "
		   "no 1 ns slack for the lateness");
	return BENCH_SKIP;
}
