/* mem_stream.c — `mem-bandwidth-{copy,scale,add,triad}`: STREAM's four kernels (McCalpin,
 * https://www.cs.virginia.edu/stream/, stream.c 5.10) in our own code, in MB/s (10^6 bytes
 * per second, BENCH_RATE, one loop = 10^6 bytes as STREAM counts them), 1 and N copies:
 *
 *   copy   c[j] = a[j]              16 bytes per element (8 read, 8 written)
 *   scale  b[j] = q * c[j]          16
 *   add    c[j] = a[j] + b[j]       24
 *   triad  a[j] = b[j] + q * c[j]   24     (q = 3.0, doubles)
 *
 * STREAM's sizing rule (stream.c's comment on STREAM_ARRAY_SIZE: "each array must be at least
 * 4 times the size of the available cache memory", the sum of all caches), as OpenMP STREAM
 * applies it: the copies SHARE one set of arrays, each copy its slice. isobench.mem.array
 * is one array's size for all copies together (mem_array_asked; README "Parameters"); by
 * default MEM_ARRAY_DEFAULT = 4 GiB, which is 4x a 1 GiB last-level cache: every two-socket
 * server listed by its vendor up to 2025 but the cache-stacked ones (2 x 384 MiB AMD EPYC
 * 9654/9965, 2 x 504 MiB Intel Xeon 6980P, 2 x 320 MiB Xeon 8592+; not 2 x 1152 MiB EPYC
 * 9684X, which wants mem.array=10G). The default does not follow the caches the machine
 * reports (a hypervisor may hide or shrink them: issue 36), so a VM and bare metal run one
 * working set; it is bounded by memory only (mem_array_default(): the three arrays at most
 * half of MemTotal, a power of two so that near-equal machines still agree), and every
 * sample says the set it ran (array_total_kib), which isobench-report compares across runs.
 * Each copy's slice is at least 4x its own share of its own last-level cache (the LLC of its
 * CPU, divided among the copies taken as spread evenly over the online CPUs) and the total
 * at least STREAM's default 10,000,000 elements; bytes are counted as STREAM counts them (no
 * write-allocate traffic); STREAM reports the best of N trials, which is the RESULT's `max`
 * here (its `value` is the harness's aggregate of the samples). A sample is many passes,
 * not one. Arrays are plain anonymous mmap, no page-size advice: the pages STREAM's static
 * arrays get under the machine's THP mode. The three arrays of a copy are ST_OFFSET
 * elements apart beyond their length (STREAM's OFFSET), so a[j], b[j] and c[j] do not sit
 * at one 4 KiB offset (n is a multiple of ST_BLOCK, 16 KiB): no 4K aliasing between the
 * loads and the store of one j.
 *
 * NUMA (core/mem_numa.h "NUMA placement"): the memory group runs pinned by default; each copy's
 * arrays are bound to the node of its CPU before the first touch (mem-bandwidth-*), or to
 * the nearest other node (mem-bandwidth-*-remote, which SKIPs with one node), and checked
 * there after it.
 *
 * run(iters) processes exactly the elements that make iters x 10^6 bytes since setup (an
 * element count kept as a running total, so a loop is never rounded to a whole element per
 * call), walking the arrays cyclically; each kernel is its own out-of-line function
 * (tests/test-codegen.sh checks each loop's loads and stores). Extras: array_kib, one array
 * of this copy; array_total_kib, one array of all copies together (the set compared across
 * runs); mem_node and numa_distance (mem_place_extras()). A set larger than the memory the
 * machine can spare SKIPs (mem_spare()). */
#define _GNU_SOURCE
#include "mem.h"

#include "../params.h"
#include "../sysfs.h"
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define STREAM_MIN_ELEMS 10000000ull
#define STREAM_Q 3.0
#define MB 1000000ull

enum kern { K_COPY, K_SCALE, K_ADD, K_TRIAD };

/* STREAM's bytes per element of each kernel: words touched x sizeof(double). */
static const unsigned kern_bytes[] = {
	[K_COPY] = 2 * sizeof(double), [K_SCALE] = 2 * sizeof(double),
	[K_ADD] = 3 * sizeof(double), [K_TRIAD] = 3 * sizeof(double),
};

struct st_state {
	enum kern k;
	double *a, *b, *c;
	size_t n, pos;		/* elements per array; next element */
	size_t bytes;		/* mapping length, all three arrays and the offsets */
	int64_t total_kib;	/* one array of all copies together */
	struct mem_place pl;
	uint64_t loops, done;	/* loops asked since setup; elements processed */
};

/* Scale, add and triad do one block of ST_BLOCK elements, a constant, so the compiler sees a
 * fixed trip count as in STREAM's fixed-size loops and generates the same code for them (gcc
 * 12 -O2: SSE2 pairs in both). 2048 doubles = 16 KiB per array and call. */
#define ST_BLOCK 2048
/* STREAM's OFFSET, in elements: 136 doubles = 1088 bytes, 17 cache lines, so a, b and c
 * start 0, 1088 and 2176 bytes into a 4 KiB page. */
#define ST_OFFSET 136

/* Copy takes the whole span due (a multiple of ST_BLOCK): gcc makes it one memcpy of n x 8
 * bytes, as it makes STREAM's whole-array copy loop one memcpy. */
__attribute__((noinline)) static void stream_copy(double *restrict c, const double *restrict a,
						  size_t n)
{
	for (size_t j = 0; j < n; j++)
		c[j] = a[j];
}

__attribute__((noinline)) static void stream_scale(double *restrict b,
						   const double *restrict c)
{
	for (size_t j = 0; j < ST_BLOCK; j++)
		b[j] = STREAM_Q * c[j];
}

__attribute__((noinline)) static void stream_add(double *restrict c, const double *restrict a,
						 const double *restrict b)
{
	for (size_t j = 0; j < ST_BLOCK; j++)
		c[j] = a[j] + b[j];
}

__attribute__((noinline)) static void stream_triad(double *restrict a,
						   const double *restrict b,
						   const double *restrict c)
{
	for (size_t j = 0; j < ST_BLOCK; j++)
		a[j] = b[j] + STREAM_Q * c[j];
}

/* n elements (a multiple of ST_BLOCK) from element at: copy in one call, the others block
 * by block. */
static void kernel(struct st_state *s, size_t at, size_t n)
{
	if (s->k == K_COPY) {
		stream_copy(s->c + at, s->a + at, n);
		return;
	}
	for (size_t e = at + n; at < e; at += ST_BLOCK)
		switch (s->k) {
		case K_COPY: break;
		case K_SCALE: stream_scale(s->b + at, s->c + at); break;
		case K_ADD: stream_add(s->c + at, s->a + at, s->b + at); break;
		case K_TRIAD: stream_triad(s->a + at, s->b + at, s->c + at); break;
		}
}

uint64_t mem_array_asked;

/* One array's bytes for all copies: isobench.mem.array, else the default rule. */
static uint64_t st_total_bytes(void)
{
	long long kib = proc_meminfo_kib("MemTotal");
	return mem_array_asked ? mem_array_asked
			       : mem_array_default(kib > 0 ? (uint64_t)kib << 10 : 0);
}

void mem_header(const struct params *p, struct rec_body *b)
{
	char v[32];
	mem_array_asked = p->mem_array > 0 ? (uint64_t)p->mem_array : 0;
	snprintf(v, sizeof v, "%" PRIu64, st_total_bytes() >> 10);
	rec_str(b, RK_MEM_STREAM_ARRAY_KIB, v);
	mem_numa_header(b);
}

/* This copy's elements per array: its even slice of the total, at least 4x its share of its
 * own LLC and its slice of STREAM's 10^7, in whole blocks. */
static size_t st_elems(const struct bench_ctx *ctx)
{
	uint64_t slice = st_total_bytes() / sizeof(double) / (uint64_t)ctx->copies;
	uint64_t least = STREAM_MIN_ELEMS / (uint64_t)ctx->copies;
	int cpu = sched_getcpu(), sharing = 1;
	long online = mem_online_cpus();
	uint64_t llc = cpu >= 0 ? mem_cpu_llc_bytes(cpu, &sharing) : 0;
	if (llc && online > 0) {	/* copies on this LLC, spread evenly: ceil(copies x share) */
		uint64_t on = ((uint64_t)ctx->copies * (uint64_t)sharing + (uint64_t)online - 1) /
			      (uint64_t)online;
		uint64_t own = 4 * llc / (on ? on : 1) / sizeof(double);
		least = own > least ? own : least;
	}
	slice = slice > least ? slice : least;
	return (size_t)((slice + ST_BLOCK - 1) / ST_BLOCK * ST_BLOCK);
}

/* The arrays mapped, bound to pl's node, first touched with STREAM's values, checked. */
static int st_arrays(struct bench_ctx *ctx, struct st_state *s)
{
	size_t n = s->n, span = n + ST_OFFSET;
	int r;
	s->bytes = (3 * span) * sizeof(double);
	s->a = mmap(NULL, s->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->a == MAP_FAILED) {
		s->a = NULL;
		return -errno;
	}
	if ((r = mem_bind(ctx, s->a, s->bytes, &s->pl)))
		return r;
	s->b = s->a + span;
	s->c = s->b + span;
	for (size_t j = 0; j < n; j++) {	/* STREAM's initial values; the first touch */
		s->a[j] = 1.0;
		s->b[j] = 2.0;
		s->c[j] = 0.0;
	}
	if ((r = mem_bind_verify(ctx, s->a, n * sizeof(double), &s->pl)) ||
	    (r = mem_bind_verify(ctx, s->c, n * sizeof(double), &s->pl)))
		return r;
	return 0;
}

static int st_setup(struct bench_ctx *ctx, enum kern k, int remote)
{
	struct mem_place pl;
	int r;

	if ((r = mem_place(ctx, remote, &pl)))
		return r;
	size_t n = st_elems(ctx);
	if ((r = mem_spare(ctx, 3 * ((uint64_t)n + ST_OFFSET) * sizeof(double))))
		return r;
	struct st_state *s = calloc(1, sizeof *s);
	if (!s)
		return -ENOMEM;
	ctx->state = s;
	s->k = k;
	s->n = n;
	s->pl = pl;
	s->total_kib = (int64_t)((uint64_t)n * sizeof(double) * (uint64_t)ctx->copies >> 10);
	return st_arrays(ctx, s);
}

static int st_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct st_state *s = ctx->state;
	s->loops += iters;
	/* whole blocks: what a call leaves (< ST_BLOCK elements) the next one does */
	uint64_t target = s->loops * MB / kern_bytes[s->k] / ST_BLOCK * ST_BLOCK;
	while (s->done < target) {
		size_t left = s->n - s->pos;
		size_t now = target - s->done < left ? (size_t)(target - s->done) : left;
		kernel(s, s->pos, now);
		s->done += now;
		s->pos = (s->pos + now) % s->n;
	}
	ctx->sink += (uint64_t)(s->a[s->pos] + s->b[s->pos] + s->c[s->pos]);
	bench_extra(ctx, REC_EXTRA_ARRAY_KIB, (int64_t)(s->n * sizeof(double) >> 10));
	bench_extra(ctx, REC_EXTRA_ARRAY_TOTAL_KIB, s->total_kib);
	mem_place_extras(ctx, &s->pl);
	return 0;
}

static void st_teardown(struct bench_ctx *ctx)
{
	struct st_state *s = ctx->state;
	if (s && s->a)
		munmap(s->a, s->bytes);
	free(s);
	ctx->state = NULL;
}

/* mem-bandwidth-<kernel> (memory on the copy's node) and -<kernel>-remote (on the nearest
 * other node). */
#define STREAM_ONE(nm, sfx, K, remote, label) \
	static int setup_##nm##sfx(struct bench_ctx *ctx) \
	{ \
		return st_setup(ctx, K, remote); \
	} \
	BENCH(mem_bandwidth_##nm##sfx, .title = "Memory bandwidth, STREAM " label, \
		.group = REC_GROUP_MEMORY, .unit = REC_UNIT_MBPS, .kind = BENCH_RATE, .per_loop = 1, \
		.pin = 1, .setup = setup_##nm##sfx, .run = st_run, .teardown = st_teardown)
#define STREAM_BENCH(nm, K, label) \
	STREAM_ONE(nm, , K, 0, label); \
	STREAM_ONE(nm, _remote, K, 1, label ", remote NUMA node")

STREAM_BENCH(copy, K_COPY, "Copy");
STREAM_BENCH(scale, K_SCALE, "Scale");
STREAM_BENCH(add, K_ADD, "Add");
STREAM_BENCH(triad, K_TRIAD, "Triad");
