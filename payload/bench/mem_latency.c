/* mem_latency.c — `mem-latency-<size>-<page>`: the latency of a dependent load, in ns per
 * load (BENCH_TIME, one loop = one load), for working sets from L1 to DRAM, with 4 KiB pages
 * and with 2 MiB pages (transparent huge pages).
 *
 * The working set is `size` bytes of cache lines (64 bytes) linked into ONE random cycle:
 * each line's first word holds the address of the next line, the order a random cyclic
 * permutation of all lines (Sattolo's algorithm, a fixed splitmix64 seed, so every run walks
 * the same cycle). Random over lines defeats the stride prefetchers, and with 4 KiB pages
 * almost every load lands on another page than the one before, so beyond the TLB's reach a
 * load also pays a page walk — two-dimensional under EPT/NPT, which 2 MiB pages mostly
 * remove: the ratio 4k/2m at the largest point is the page-walk cost. Each load's address is
 * the previous load's value (mem_chase(), tests/test-codegen.sh checks the compiler kept that
 * chain), so the loads cannot overlap; the clock is read only around run() (the harness).
 * The walk continues where the last run() stopped; the harness's warm-up sample walks it
 * into the caches first.
 *
 * Setup: a point larger than the memory the machine can spare SKIPs (mem_spare()); the 2m
 * variant SKIPs when THP is absent, in mode never, or not granted for the whole set, the 4k
 * variant when MADV_NOHUGEPAGE was ignored (AnonHugePages in /proc/self/smaps, mem.h).
 * Extra: thp_kib, the set's AnonHugePages when it was built (KiB). Single copy: with N
 * copies the shared caches and the memory bus would be split, which is the bandwidth tests'
 * subject. Method as lmbench's lat_mem_rd in its random mode (-t), compared in
 * docs/benchmarks/memory.md. */
#include "mem.h"

#include <errno.h>
#include <stdlib.h>

#define LINE 64

struct lat_state {
	struct mem_map m;
	void **p;	/* where the walk is */
	int64_t thp_kib;
};

/* n dependent loads from p; returns where the walk stopped. Kept out of line so its loop is
 * the measured one, and tests/test-codegen.sh can find it: one load whose address is the
 * register it writes. */
__attribute__((noinline)) static void **mem_chase(void **p, uint64_t n)
{
	while (n--)
		p = (void **)*p;
	return p;
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Link the n lines at base into one random cycle: start from "each line points to itself"
 * and apply Sattolo's shuffle to the pointers (j < i, never j == i), which yields a cyclic
 * permutation. The first pass writes every line in order, which is also the first touch. */
static void build_cycle(char *base, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		*(void **)(base + i * LINE) = base + i * LINE;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(((unsigned __int128)splitmix64(&seed) * i) >> 64);
		void **a = (void **)(base + i * LINE), **b = (void **)(base + j * LINE);
		void *t = *a;
		*a = *b;
		*b = t;
	}
}

static int lat_setup(struct bench_ctx *ctx, size_t size, enum mem_page page)
{
	struct lat_state *s;
	int r;

	if (page == MEM_PAGE_2M && (r = mem_thp_usable(ctx)))
		return r;
	if ((r = mem_spare(ctx, size < MEM_HUGE_BYTES ? MEM_HUGE_BYTES : size)))
		return r;
	if (!(s = calloc(1, sizeof *s)))
		return -ENOMEM;
	ctx->state = s;
	if ((r = mem_map(&s->m, size, page))) {
		bench_note(ctx, "mmap of %zu bytes failed", size);
		return r;
	}
	build_cycle(s->m.base, size / LINE, 0x15be3ac4ull ^ size);
	if ((r = mem_map_verify(ctx, &s->m)))
		return r;
	s->thp_kib = mem_anon_huge_kib(s->m.base);
	s->p = s->m.base;
	return 0;
}

static int lat_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct lat_state *s = ctx->state;
	s->p = mem_chase(s->p, iters);
	ctx->sink += (uintptr_t)s->p;
	bench_extra(ctx, "thp_kib", s->thp_kib);
	return 0;
}

static void lat_teardown(struct bench_ctx *ctx)
{
	struct lat_state *s = ctx->state;
	if (s)
		mem_unmap(&s->m);
	free(s);
	ctx->state = NULL;
}

/* One descriptor per point: LAT(16k, 16 << 10) gives mem-latency-16k-4k and -16k-2m. */
#define LAT_PAGE(sz, bytes, pg, PG, pgname) \
	static int setup_##sz##_##pg(struct bench_ctx *ctx) \
	{ \
		return lat_setup(ctx, (size_t)(bytes), PG); \
	} \
	const struct bench bench_mem_latency_##sz##_##pg = { \
		.name = "mem-latency-" #sz "-" #pg, \
		.title = "Memory load latency, " #sz " working set, " pgname " pages", \
		.group = "memory", .unit = "ns", .kind = BENCH_TIME, .per_loop = 1, \
		.max_copies = 1, .setup = setup_##sz##_##pg, .run = lat_run, \
		.teardown = lat_teardown}
#define LAT(sz, bytes) \
	LAT_PAGE(sz, bytes, 4k, MEM_PAGE_4K, "4 KiB"); \
	LAT_PAGE(sz, bytes, 2m, MEM_PAGE_2M, "2 MiB")

/* L1 (32-48 KiB on current x86), L2 (0.5-2 MiB), inside a typical LLC but beyond a 4 KiB
 * STLB's reach (1.5-3K entries = 6-12 MiB), DRAM, DRAM far beyond 4 KiB TLB reach. */
LAT(16k, 16ull << 10);
LAT(512k, 512ull << 10);
LAT(16m, 16ull << 20);
LAT(256m, 256ull << 20);
LAT(1g, 1ull << 30);
