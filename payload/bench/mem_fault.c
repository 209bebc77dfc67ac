/* mem_fault.c — `mem-fault-*`: the first touch of memory a process was given, in ns per KiB
 * (BENCH_TIME). Which costs each figure holds:
 *   - mem-fault-4k, -2m, -tmpfs map, touch and unmap chunks over and over: after the first
 *     chunks the guest kernel hands the process pages it freed itself a moment ago, which
 *     the host already backs. Their figures are the guest kernel's fault and zeroing only —
 *     no hypervisor (EPT/NPT) fault, whatever the host does; the same on bare metal.
 *   - mem-fault-fresh-4k touches one region as large as the machine can spare, front to
 *     back, never unmapped while it lasts: no page of it is one the test had before, and a
 *     page the guest has not touched since boot costs there, in a guest whose host backs
 *     RAM lazily, the host's fault too. The guest's free lists hand out recently freed pages
 *     first, so the region's start (taken by the calibration and the warm-up sample) holds
 *     what earlier tests used; the rest was never touched since boot when the run's other
 *     tests used less memory than the region (it runs first in the memory group). Samples
 *     after the region is used up touch a new region, the guest's own freed pages again:
 *     extras fresh_kib and reused_kib say how many KiB of the sample were of each kind (the
 *     sample that replaces the region also pays the old one's munmap: reused_kib > 0 marks
 *     it).
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
 *   mem-fault-fresh-4k  one loop = one 4 KiB page of a private anonymous region (MADV_NOHUGEPAGE,
 *                    MAP_NORESERVE) of 3/4 of MemAvailable less mem_spare()'s margin, split among
 *                    the copies, one byte written per page, in order; per_loop 4.
 * Each copy maps its own memory. The 2m test's samples carry host_page_kib (core/mem_util.h
 * mem_host_page_kib(): 0 = the host's backing unknown, 2m is the guest's page size only). */
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
	char *region;		/* mem-fault-fresh-4k: the region, its length, where next */
	size_t len, at;
	int wrapped;		/* the region was used up once: what follows is reused */
	int64_t fresh_kib, reused_kib;	/* in the sample */
	int64_t host_kib;	/* mem-fault-2m: mem_host_page_kib(), read at setup */
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
	((struct flt_state *)ctx->state)->host_kib = mem_host_page_kib(MEM_HUGE_BYTES >> 10);
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
	bench_extra(ctx, REC_EXTRA_HOST_PAGE_KIB, s->host_kib);
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

/* The fresh region: 3/4 of MemAvailable less mem_spare()'s margin (64 MiB + MemTotal/32;
 * the quarter left is slack for what the host's other work takes meanwhile), split among
 * the copies, whole 2 MiB; at least 64 MiB or SKIP. */
static int setup_fresh(struct bench_ctx *ctx)
{
	long long avail = proc_meminfo_kib("MemAvailable"), total = proc_meminfo_kib("MemTotal");
	long long kib = avail - (64 << 10) - total / 32 - 1024;
	uint64_t len = kib > 0 ? (uint64_t)kib / 4 * 3 / (uint64_t)ctx->copies << 10 : 0;
	int r;
	len &= ~(uint64_t)(MEM_HUGE_BYTES - 1);
	if (len < (64u << 20)) {
		bench_note(ctx, "MemAvailable %lld MiB leaves less than 64 MiB a copy (%d) for a fresh "
			   "region", avail >> 10, ctx->copies);
		return BENCH_SKIP;
	}
	if ((r = mem_spare(ctx, len)) || (r = flt_alloc(ctx)))
		return r;
	struct flt_state *s = ctx->state;
	s->len = (size_t)len;
	return 0;
}

/* A new region of s->len bytes (the first, or after the last was used up). */
static int fresh_map(struct flt_state *s)
{
	if (s->region)
		munmap(s->region, s->len);
	s->region = mmap(NULL, s->len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->region == MAP_FAILED) {
		s->region = NULL;
		return -errno;
	}
	s->at = 0;
	return mem_advise_4k(s->region, s->len);
}

static int run_fresh(struct bench_ctx *ctx, uint64_t iters)
{
	struct flt_state *s = ctx->state;
	uint64_t acc = 0;
	int r;
	if (ctx->nextra == 0)	/* the harness resets the extras as a sample begins */
		s->fresh_kib = s->reused_kib = 0;
	while (iters) {
		s->wrapped |= s->region && s->at == s->len;
		if ((!s->region || s->at == s->len) && (r = fresh_map(s)))
			return r;
		size_t n = (s->len - s->at) / SMALL;
		n = iters < n ? (size_t)iters : n;
		acc += touch(s->region + s->at, n * SMALL);
		s->at += n * SMALL;
		*(s->wrapped ? &s->reused_kib : &s->fresh_kib) += (int64_t)(n * (SMALL >> 10));
		iters -= n;
	}
	ctx->sink += acc;
	bench_extra(ctx, REC_EXTRA_FRESH_KIB, s->fresh_kib);
	bench_extra(ctx, REC_EXTRA_REUSED_KIB, s->reused_kib);
	return 0;
}

static void flt_teardown(struct bench_ctx *ctx)
{
	struct flt_state *s = ctx->state;
	if (s && s->region)
		munmap(s->region, s->len);
	if (s && s->fd >= 0)
		close(s->fd);
	free(s);
	ctx->state = NULL;
}

#define FAULT_BENCH(sym, ttl, kib, su, ru) \
	BENCH(mem_fault_##sym, \
		.title = ttl, .group = REC_GROUP_MEMORY, .unit = REC_UNIT_NS, .kind = BENCH_TIME, \
		.per_loop = kib, .pin = 1, .setup = su, .run = ru, .teardown = flt_teardown)

FAULT_BENCH(4k, "First touch, anonymous 4 KiB pages (ns/KiB)", 4, setup_4k,
	    run_4k);
FAULT_BENCH(2m, "First touch, anonymous 2 MiB pages (ns/KiB)", 2048,
	    setup_2m, run_2m);
FAULT_BENCH(tmpfs, "First touch, tmpfs file 4 KiB pages (ns/KiB)", 4,
	    setup_tmpfs, run_tmpfs);
FAULT_BENCH(fresh_4k, "First touch, fresh region, 4 KiB pages (ns/KiB)", 4,
	    setup_fresh, run_fresh);
