/* memory-walk-order.c — a diagnostic for docs/benchmarks/memory.md, not part of the runner:
 * ns per dependent load over one working set, with the walk order and the page size chosen,
 * so that the two programs compared there (isobench's mem-latency and lmbench's lat_mem_rd -t)
 * can be told apart by their one design difference, the order of the loads.
 *
 * In:  SET_KIB 4k|2m random|pages LOADS
 *      random: one cycle over all 64-byte lines in a random order (a shuffled sequence taken
 *              as a cycle: the kind of walk isobench's mem-latency had before 53ab755);
 *      pages:  lat_mem_rd -t's walk (lmbench src/lib_mem.c thrash_initialize): the pages in a
 *              random order, one line per page visit, the same page cycle once per line with
 *              the line shifted by one each round — isobench's since 53ab755 (mem.h
 *              mem_walk_link()), which orders a page's lines as lmbench does (bit-reversed)
 *              where this loop shuffles them;
 *      4k: MADV_NOHUGEPAGE; 2m: a 2 MiB-aligned mapping with MADV_HUGEPAGE (not verified:
 *      the caller reads AnonHugePages if it matters);
 *      LOADS: loads timed (after four warm-up laps), one clock read before and one after
 *      (tests/test-codegen.sh checks that the timed loop is one dependent load).
 * Out: one line "SET_KIB PAGE ORDER NS_PER_LOAD THP_KIB" (THP_KIB: AnonHugePages of this
 *      mapping from /proc/self/smaps, -1 when unreadable). Exit 2 on bad arguments, 1 when
 *      the memory cannot be had.
 * Build: cc -O2 (docs/benchmarks/memory-vs-lmbench.sh builds it with the runner's flags). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64
#define PAGE 4096
#define HUGE (2ul << 20)

static uint64_t rng = 88172645463325252ull;	/* xorshift64, Marsaglia 2003; fixed seed */

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* shuffle: a[0..n) in place, Fisher-Yates. */
static void shuffle(size_t *a, size_t n)
{
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = next_rand() % (i + 1), t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* link: make buffer b a pointer chain visiting line order[0], order[1], ... and back. */
static void link(char *b, const size_t *order, size_t lines)
{
	for (size_t i = 0; i < lines; i++)
		*(char **)(b + order[i] * LINE) = b + order[(i + 1) % lines] * LINE;
}

/* walk_order: the visiting order of the lines (random: Sattolo over all; pages: lat_mem_rd -t). */
static size_t *walk_order(size_t lines, int pages)
{
	size_t per = PAGE / LINE, np = lines / per, k = 0;
	size_t *order = malloc(lines * sizeof *order), *pg = malloc(np * sizeof *pg);
	size_t *w = malloc(per * sizeof *w);

	if (!order || !pg || !w)
		return NULL;
	if (!pages) {
		for (size_t i = 0; i < lines; i++)
			order[i] = i;
		shuffle(order, lines);	/* a random sequence of all lines: one cycle */
	} else {
		for (size_t i = 0; i < np; i++)
			pg[i] = i;
		for (size_t i = 0; i < per; i++)
			w[i] = i;
		shuffle(pg, np);
		shuffle(w, per);
		for (size_t j = 0; j < per; j++)
			for (size_t i = 0; i < np; i++)
				order[k++] = pg[i] * per + w[(i + j) % per];
	}
	free(pg);
	free(w);
	return order;
}

/* walk: n dependent loads from p (each address is the load before); returns the last.
 * Its own function so that tests/test-codegen.sh can read its loop, as it reads mem_chase. */
__attribute__((noinline)) static char **walk(char **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p = (char **)*p;
	return p;
}

/* thp_kib: AnonHugePages of the mapping that starts at or contains addr, from smaps. */
static long thp_kib(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	int in = 0;
	long kib = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
		else if (in && sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			break;
	}
	fclose(f);
	return kib;
}

int main(int argc, char **argv)
{
	if (argc != 5)
		return fprintf(stderr, "usage: %s SET_KIB 4k|2m random|pages LOADS\n", argv[0]), 2;
	size_t len = strtoull(argv[1], NULL, 10) << 10, n = strtoull(argv[4], NULL, 10);
	int huge = !strcmp(argv[2], "2m"), pages = !strcmp(argv[3], "pages");

	if (len < PAGE || len % PAGE || !n)
		return fprintf(stderr, "walk-order: SET_KIB a multiple of 4, LOADS > 0\n"), 2;
	size_t span = (len + HUGE - 1) / HUGE * HUGE;	/* whole huge pages, or THP cannot serve */
	char *raw = mmap(NULL, span + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return perror("walk-order: mmap"), 1;
	char *b = (char *)(((uintptr_t)raw + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	size_t lines = len / LINE, *order;

	madvise(b, span, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	memset(b, 1, len);
	if (!(order = walk_order(lines, pages)))
		return fprintf(stderr, "walk-order: out of memory\n"), 1;
	link(b, order, lines);
	char **p = walk((char **)(b + order[0] * LINE), 4 * lines);	/* warm-up laps */
	double t0 = now_s();
	p = walk(p, n);
	double t1 = now_s();
	/* p is printed (as its line's parity), so the chain is kept. */
	printf("%s %s %s %.3f %ld%s\n", argv[1], argv[2], argv[3], (t1 - t0) / (double)n * 1e9,
	       thp_kib(b), ((uintptr_t)p & 1) ? " odd" : "");
	return 0;
}
