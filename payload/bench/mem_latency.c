/* mem_latency.c — `mem-latency-<size>-<page>`: the latency of a dependent load, in ns per
 * load (BENCH_TIME, one loop = one load), for working sets from L1 to DRAM, with 4 KiB pages
 * and with 2 MiB pages (transparent huge pages).
 *
 * The walk is lmbench's lat_mem_rd -t ("thrash"; mem_walk_link() in core/mem_util.h): the set's 4 KiB
 * pages in one random order, gone round 64 times, one line per page visit, the line shifted
 * each lap (bit-reversed line order), so that every line is loaded once per cycle and every
 * load is on another page than the one before. No stride for the prefetchers to follow;
 * with 4 KiB pages, once the set's pages outnumber the TLB's entries the page cycle misses it
 * at every load and the load also pays a page walk — two-dimensional under EPT/NPT — which
 * 2 MiB pages mostly remove (the walk is the same, only the mapping's page size differs).
 * The ratio 4k/2m at the largest point is the page-walk cost only where the 2 MiB pages
 * are the hardware's too: under a hypervisor that backs guest RAM with 4 KiB pages the TLB
 * still holds 4 KiB entries, and no hypervisor interface says which it does, so the 2m
 * points' samples carry host_page_kib (mem_host_page_kib(): 2048 on bare metal, 0 = the
 * host's backing unknown, the figure is for the guest's page size only). Each load's address is the
 * previous load's value (mem_chase(), tests/test-codegen.sh checks the compiler kept that
 * chain), so the loads cannot overlap; the clock is read only around run() (the harness).
 * The walk continues where the last run() stopped; the harness's warm-up sample walks it
 * into the caches first. Why this walk and not one random cycle over all lines (the first
 * version's): docs/benchmarks/memory.md, "The walk is lat_mem_rd -t's" — at a set half an
 * L2 the two orders differ by 20-30% on AMD EPYC, and lat_mem_rd is the field's reference.
 *
 * Setup: a point larger than the memory the machine can spare SKIPs (mem_spare()); the 2m
 * variant SKIPs when THP is absent, in mode never, or not granted for the whole set, the 4k
 * variant when MADV_NOHUGEPAGE was ignored (AnonHugePages in /proc/self/smaps, core/mem_util.h).
 * NUMA: pinned by default, the set bound to the CPU's node (mem-latency-<size>-<page>) or,
 * for the DRAM points, to the nearest other node (-remote; SKIP with one node): core/mem_numa.h.
 * Extras: thp_kib, the set's AnonHugePages when it was built (KiB); mem_node and
 * numa_distance (mem_place_extras()); host_page_kib (2m points). Single copy: with N
 * copies the shared caches and the memory bus would be split, which is the bandwidth tests'
 * subject. Compared with lat_mem_rd -t in docs/benchmarks/memory.md. */
#include "mem.h"

#include <errno.h>
#include <stdlib.h>

struct lat_state {
	struct mem_map m;
	void **p;	/* where the walk is */
	int64_t thp_kib, host_kib;
	struct mem_place pl;
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

static int lat_setup(struct bench_ctx *ctx, size_t size, enum mem_page page, int remote)
{
	struct lat_state *s;
	struct mem_place pl;
	int r;

	if ((page == MEM_PAGE_2M && (r = mem_thp_usable(ctx))) || (r = mem_place(ctx, remote, &pl)))
		return r;
	if ((r = mem_spare(ctx, size < MEM_HUGE_BYTES ? MEM_HUGE_BYTES : size)))
		return r;
	if (!(s = calloc(1, sizeof *s)))
		return -ENOMEM;
	ctx->state = s;
	s->pl = pl;
	if ((r = mem_map(&s->m, size, page))) {
		bench_note(ctx, "mmap of %zu bytes failed", size);
		return r;
	}
	if ((r = mem_bind(ctx, s->m.base, s->m.len, &s->pl)))
		return r;
	if (!(s->p = mem_walk_link(s->m.base, size, 0x15be3ac4ull ^ size)))
		return -ENOMEM;
	if ((r = mem_map_verify(ctx, &s->m)) || (r = mem_bind_verify(ctx, s->m.base, s->m.len, &s->pl)))
		return r;
	s->thp_kib = mem_anon_huge_kib(s->m.base);
	s->host_kib = page == MEM_PAGE_2M ? mem_host_page_kib(MEM_HUGE_BYTES >> 10) : -1;
	return 0;
}

static int lat_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct lat_state *s = ctx->state;
	s->p = mem_chase(s->p, iters);
	ctx->sink += (uintptr_t)s->p;
	bench_extra(ctx, REC_EXTRA_THP_KIB, s->thp_kib);
	mem_place_extras(ctx, &s->pl);
	if (s->host_kib >= 0)
		bench_extra(ctx, REC_EXTRA_HOST_PAGE_KIB, s->host_kib);
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

/* One descriptor per point: LAT(16k, 16 << 10) gives mem-latency-16k-4k and -16k-2m, the
 * memory on the CPU's node; LAT_REMOTE(256m, ...) -256m-4k-remote and -256m-2m-remote. */
#define LAT_PAGE(sz, bytes, pg, PG, pgname, sfx, remote, wtitle) \
	static int setup_##sz##_##pg##sfx(struct bench_ctx *ctx) \
	{ \
		return lat_setup(ctx, (size_t)(bytes), PG, remote); \
	} \
	BENCH(mem_latency_##sz##_##pg##sfx, \
		.title = "Memory load latency, " #sz " working set, " pgname " pages" wtitle, \
		.group = REC_GROUP_MEMORY, .unit = REC_UNIT_NS, .kind = BENCH_TIME, .per_loop = 1, \
		.max_copies = 1, .pin = 1, .setup = setup_##sz##_##pg##sfx, .run = lat_run, \
		.teardown = lat_teardown)
#define LAT(sz, bytes) \
	LAT_PAGE(sz, bytes, 4k, MEM_PAGE_4K, "4 KiB", , 0, ""); \
	LAT_PAGE(sz, bytes, 2m, MEM_PAGE_2M, "2 MiB", , 0, "")
#define LAT_REMOTE(sz, bytes) \
	LAT_PAGE(sz, bytes, 4k, MEM_PAGE_4K, "4 KiB", _remote, 1, ", remote NUMA node"); \
	LAT_PAGE(sz, bytes, 2m, MEM_PAGE_2M, "2 MiB", _remote, 1, ", remote NUMA node")

/* L1 (32-48 KiB on current x86), L2 (0.5-2 MiB), inside a typical LLC but beyond a 4 KiB
 * STLB's reach (1.5-3K entries = 6-12 MiB), DRAM, DRAM far beyond 4 KiB TLB reach. */
LAT(16k, 16ull << 10);
LAT(512k, 512ull << 10);
LAT(16m, 16ull << 20);
LAT(256m, 256ull << 20);
LAT(1g, 1ull << 30);
/* The DRAM points again with the memory on the nearest other node (the cache points would
 * measure the cache either way). */
LAT_REMOTE(256m, 256ull << 20);
LAT_REMOTE(1g, 1ull << 30);
