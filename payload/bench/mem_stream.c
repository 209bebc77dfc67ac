/* mem_stream.c — `mem-bandwidth-{copy,scale,add,triad}`: STREAM's four kernels (McCalpin,
 * https://www.cs.virginia.edu/stream/, stream.c 5.10) in our own code, in MB/s (10^6 bytes
 * per second, BENCH_RATE, one loop = 10^6 bytes as STREAM counts them), 1 and N copies:
 *
 *   copy   c[j] = a[j]              16 bytes per element (8 read, 8 written)
 *   scale  b[j] = q * c[j]          16
 *   add    c[j] = a[j] + b[j]       24
 *   triad  a[j] = b[j] + q * c[j]   24     (q = 3.0, doubles)
 *
 * STREAM's rules: each array is at least 4x the total last-level cache (mem_llc_bytes(),
 * sysfs) and at least STREAM's default 10,000,000 elements; bytes are counted as STREAM
 * counts them (no write-allocate traffic); STREAM reports the best of N trials, which is
 * the RESULT's `max` here (its `value` is the harness's aggregate of the samples). A sample
 * is many passes, not one. Each copy has its own three arrays (N copies: the machine's
 * bandwidth shared by N streams). Arrays are plain anonymous mmap, no page-size advice: the
 * pages STREAM's static arrays get under the machine's THP mode.
 *
 * run(iters) processes exactly the elements that make iters x 10^6 bytes since setup (an
 * element count kept as a running total, so a loop is never rounded to a whole element per
 * call), walking the arrays cyclically; each kernel is its own out-of-line function
 * (tests/test-codegen.sh checks each loop's loads and stores). Extra: array_kib, one
 * array's size. A set larger than the memory the machine can spare SKIPs (mem_spare()). */
#include "mem.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

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
	size_t bytes;		/* mapping length, all three arrays */
	uint64_t loops, done;	/* loops asked since setup; elements processed */
};

/* Scale, add and triad do one block of ST_BLOCK elements, a constant, so the compiler sees a
 * fixed trip count as in STREAM's fixed-size loops and generates the same code for them (gcc
 * 12 -O2: SSE2 pairs in both). 2048 doubles = 16 KiB per array and call. */
#define ST_BLOCK 2048

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

static int st_setup(struct bench_ctx *ctx, enum kern k)
{
	int level, r;
	uint64_t want = 4 * mem_llc_bytes(&level) / sizeof(double);
	size_t n = (size_t)(want > STREAM_MIN_ELEMS ? want : STREAM_MIN_ELEMS);
	n = (n + ST_BLOCK - 1) / ST_BLOCK * ST_BLOCK;
	struct st_state *s;

	if ((r = mem_spare(ctx, 3 * (uint64_t)n * sizeof(double))))
		return r;
	if (!(s = calloc(1, sizeof *s)))
		return -ENOMEM;
	ctx->state = s;
	s->k = k;
	s->n = n;
	s->bytes = 3 * n * sizeof(double);
	s->a = mmap(NULL, s->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->a == MAP_FAILED) {
		s->a = NULL;
		return -errno;
	}
	s->b = s->a + n;
	s->c = s->b + n;
	for (size_t j = 0; j < n; j++) {	/* STREAM's initial values; the first touch */
		s->a[j] = 1.0;
		s->b[j] = 2.0;
		s->c[j] = 0.0;
	}
	return 0;
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

#define STREAM_BENCH(nm, K, label) \
	static int setup_##nm(struct bench_ctx *ctx) \
	{ \
		return st_setup(ctx, K); \
	} \
	const struct bench bench_mem_bandwidth_##nm = { \
		.name = "mem-bandwidth-" #nm, .title = "Memory bandwidth, STREAM " label, \
		.group = REC_GROUP_MEMORY, .unit = REC_UNIT_MBPS, .kind = BENCH_RATE, .per_loop = 1, \
		.setup = setup_##nm, .run = st_run, .teardown = st_teardown}

STREAM_BENCH(copy, K_COPY, "Copy");
STREAM_BENCH(scale, K_SCALE, "Scale");
STREAM_BENCH(add, K_ADD, "Add");
STREAM_BENCH(triad, K_TRIAD, "Triad");
