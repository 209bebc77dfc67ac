/* mem_fault.c — `mem-fault-*`: the first touch of fresh memory, in ns per KiB (BENCH_TIME):
 * what a process pays the first time it uses memory it was given (the kernel's fault, the
 * page's zeroing, and in a guest the hypervisor's fault when it backs guest memory lazily).
 *
 *   mem-fault-4k     one loop = one 4 KiB page of private anonymous memory (MADV_NOHUGEPAGE),
 *                    mapped in chunks of up to 1024 pages, one byte written per page,
 *                    unmapped; mmap/munmap amortized over the chunk; per_loop 4 (KiB).
 *   mem-fault-2m     one loop = one 2 MiB transparent huge page (MADV_HUGEPAGE on a 2 MiB
 *                    aligned mapping, chunks of up to 8), one byte written per 4 KiB so a
 *                    huge page the kernel did not grant costs its 512 small faults instead
 *                    of looking cheap; per_loop 2048. Setup SKIPs when THP is absent, never,
 *                    or not granted to a trial mapping (smaps). Extra thp_fallback: the
 *                    kernel's thp_fault_fallback count (/proc/vmstat, machine-wide) during
 *                    the sample, read once per run() call (a ~30 us read per 10-50 ms batch).
 *   mem-fault-tmpfs  one loop = one 4 KiB page of a file in the work directory, which must
 *                    be a tmpfs with room for every copy's chunk (else SKIP: past its size
 *                    limit a touch is a SIGBUS): the file is grown to the chunk (up to 1024
 *                    pages), mapped shared, one byte written per page, unmapped and
 *                    truncated to 0 (its pages freed); per_loop 4.
 * Each copy maps its own memory. */
#define _GNU_SOURCE
#include "mem.h"
#include "../sys.h"
#include "../sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#define FAULT_CHUNK_4K 1024
#define FAULT_CHUNK_2M 8
#define SMALL 4096u

struct flt_state {
	int fd;			/* tmpfs file, -1 otherwise */
	int64_t fb0, fb;	/* thp_fault_fallback at the sample's start, in the sample */
};

/* The machine's thp_fault_fallback count (/proc/vmstat), -1 when unreadable. */
static int64_t thp_fallbacks(void)
{
	return proc_vmstat(NULL, "thp_fault_fallback");
}

/* Write one byte every 4 KiB of [p, p + len); returns a value for the sink. */
static uint64_t touch(volatile char *p, size_t len)
{
	for (size_t o = 0; o < len; o += SMALL)
		p[o] = 1;
	return (uint64_t)p[len - SMALL];
}

static int flt_alloc(struct bench_ctx *ctx)
{
	struct flt_state *s = calloc(1, sizeof *s);
	if (!s)
		return -ENOMEM;
	s->fd = -1;
	ctx->state = s;
	return 0;
}

static int setup_4k(struct bench_ctx *ctx)
{
	int r = mem_spare(ctx, FAULT_CHUNK_4K * SMALL);
	return r ? r : flt_alloc(ctx);
}

static int setup_2m(struct bench_ctx *ctx)
{
	struct mem_map m;
	int r;
	if ((r = mem_thp_usable(ctx)) || (r = mem_spare(ctx, FAULT_CHUNK_2M * MEM_HUGE_BYTES)) ||
	    (r = flt_alloc(ctx)))
		return r;
	if ((r = mem_map(&m, MEM_HUGE_BYTES, MEM_PAGE_2M)))
		return r;
	touch(m.base, m.len);
	r = mem_map_verify(ctx, &m);
	mem_unmap(&m);
	return r;
}

static int setup_tmpfs(struct bench_ctx *ctx)
{
	struct statfs fs;
	char path[400];
	int r;
	if (statfs(ctx->workdir, &fs) || fs.f_type != SYS_TMPFS_MAGIC) {
		bench_note(ctx, "work directory %s is not a tmpfs", ctx->workdir);
		return BENCH_SKIP;
	}
	/* A tmpfs with less room than every copy's chunk would SIGBUS the copy at its first
	 * touch past the limit (a crash, not a figure): SKIP with the figures instead. f_blocks
	 * 0 is a tmpfs without a size limit (size=0). */
	uint64_t room = (uint64_t)fs.f_bavail * (uint64_t)fs.f_bsize,
		 want = (uint64_t)FAULT_CHUNK_4K * SMALL * (uint64_t)ctx->copies;
	if (fs.f_blocks && room < want) {
		bench_note(ctx, "work directory's tmpfs has %" PRIu64 " KiB free, needs %" PRIu64
			   " KiB (%d cop%s)", room >> 10, want >> 10, ctx->copies,
			   ctx->copies == 1 ? "y" : "ies");
		return BENCH_SKIP;
	}
	if ((r = mem_spare(ctx, FAULT_CHUNK_4K * SMALL)) || (r = flt_alloc(ctx)))
		return r;
	struct flt_state *s = ctx->state;
	snprintf(path, sizeof path, "%s/mem-fault", ctx->workdir);
	s->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (s->fd < 0)
		return -errno;
	unlink(path);
	return 0;
}

/* iters pages of `page` bytes, in chunks of up to `chunk` pages: map, touch, unmap. */
static int fault_anon(struct bench_ctx *ctx, uint64_t iters, enum mem_page pg, size_t page,
		      size_t chunk)
{
	uint64_t acc = 0;
	while (iters) {
		size_t n = iters < chunk ? (size_t)iters : chunk;
		struct mem_map m;
		int r = mem_map(&m, n * page, pg);
		if (r)
			return r;
		acc += touch(m.base, m.len);
		mem_unmap(&m);
		iters -= n;
	}
	ctx->sink += acc;
	return 0;
}

static int run_4k(struct bench_ctx *ctx, uint64_t iters)
{
	return fault_anon(ctx, iters, MEM_PAGE_4K, SMALL, FAULT_CHUNK_4K);
}

static int run_2m(struct bench_ctx *ctx, uint64_t iters)
{
	struct flt_state *s = ctx->state;
	if (ctx->nextra == 0)	/* the harness resets the extras as a sample begins */
		s->fb0 = thp_fallbacks();
	int r = fault_anon(ctx, iters, MEM_PAGE_2M, MEM_HUGE_BYTES, FAULT_CHUNK_2M);
	int64_t now = thp_fallbacks();
	if (now >= 0 && s->fb0 >= 0)
		bench_extra(ctx, REC_EXTRA_THP_FALLBACK, now - s->fb0);
	return r;
}

static int run_tmpfs(struct bench_ctx *ctx, uint64_t iters)
{
	struct flt_state *s = ctx->state;
	uint64_t acc = 0;
	while (iters) {
		size_t n = iters < FAULT_CHUNK_4K ? (size_t)iters : FAULT_CHUNK_4K, len = n * SMALL;
		if (ftruncate(s->fd, (off_t)len))
			return -errno;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
		if (p == MAP_FAILED)
			return -errno;
		acc += touch(p, len);
		munmap(p, len);
		if (ftruncate(s->fd, 0))
			return -errno;
		iters -= n;
	}
	ctx->sink += acc;
	return 0;
}

static void flt_teardown(struct bench_ctx *ctx)
{
	struct flt_state *s = ctx->state;
	if (s && s->fd >= 0)
		close(s->fd);
	free(s);
	ctx->state = NULL;
}

#define FAULT_BENCH(sym, nm, ttl, kib, su, ru) \
	const struct bench bench_mem_fault_##sym = { \
		.name = nm, .title = ttl, .group = REC_GROUP_MEMORY, .unit = REC_UNIT_NS, .kind = BENCH_TIME, \
		.per_loop = kib, .setup = su, .run = ru, .teardown = flt_teardown}

FAULT_BENCH(4k, "mem-fault-4k", "First touch, anonymous 4 KiB pages (ns/KiB)", 4, setup_4k,
	    run_4k);
FAULT_BENCH(2m, "mem-fault-2m", "First touch, anonymous 2 MiB pages (ns/KiB)", 2048,
	    setup_2m, run_2m);
FAULT_BENCH(tmpfs, "mem-fault-tmpfs", "First touch, tmpfs file 4 KiB pages (ns/KiB)", 4,
	    setup_tmpfs, run_tmpfs);
