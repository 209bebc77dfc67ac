/* disk.c — the `disk` group: a raw block device (or, natively, a file) with O_DIRECT, in
 * fio's terms (bs, iodepth, randread, randwrite, read, write):
 *   disk-randread-4k-qd1   latency of one 4 KiB random read at a time (value: median ns)
 *   disk-randread-4k-qd32  IOPS with 32 random 4 KiB reads in flight (io_uring, uring.h)
 *   disk-read-1m           sequential 1 MiB reads, MiB/s
 *   disk-write-1m          sequential 1 MiB writes, MiB/s, no flush
 *   disk-randwrite-4k-qd1  latency of one 4 KiB random write at a time, no flush
 *   disk-flush             latency of a 4 KiB random write followed by fdatasync(2), and of
 *                          each alone: whether a flush reaches stable storage (disk_flush_verdict())
 * Which disk: disk.h (isobench.disk=, --disk). Writes only ever go to a disk carrying our
 * scratch signature (scratch.h), inside its scratch area (the header MiB excluded), and the
 * signature is re-read from the medium (scratch_check()) in setup and again before every
 * sample of a write test; a disk that fails the check SKIPs (setup) or FAILs (later). A
 * read-only disk (BLKROGET, a read-only mount, no write permission) SKIPs the write tests
 * with that reason (disk.h's no_write, or the open for writing refused).
 * Offsets: uniform over the span (default the whole scratch area), aligned to bs, from a
 * xorshift64* generator seeded per test with the run's isobench.disk.seed + the test's index
 * (INFO disk.seed: the run's seed; by default a fresh one each run, params.h, so no run
 * re-reads the blocks the last one read and a cache below kept); sequential tests walk the
 * span and wrap.
 * The re-read probe (disk-randread-4k-qd1, in setup, before the warm-up: outside every
 * sample): 8 untimed reads of other blocks (the read path's first use: under TCG its code is
 * translated then, which made a first round slow with no cache at all), then
 * DISK_REREAD_BLOCKS blocks of their own generator read once each, then the same blocks
 * again in the same order, each read timed; the rounds' medians go out as the extras
 * reread_cold_ns and reread_warm_ns of every sample, and the judge WARNs when the second round
 * is DISK_REREAD_FAST times faster (disk_reread_verdict()): a cache below the guest (a
 * host's page cache behind the virtual disk: ~57 us a hit against 120-160 us a miss through
 * virtio here, docs/benchmarks/disk.md) answered re-reads, so it may answer the samples' reads
 * too. 72 reads of 4 KiB: a few ms on a disk; the blocks are 32 of the span's, which the
 * samples' reads meet only by chance.
 * The latency tests read the clock around every I/O: per-I/O latency is what they measure
 * (~25 ns against tens of microseconds). Extras per sample (copy 0): p50_ns, p99_ns, p999_ns,
 * max_ns (lib/latency.h, every test), bytes_read, bytes_written (what the sample touched),
 * and disk-flush's flush_p50_ns (the fdatasync alone) and write_p50_ns (the pwrite before it
 * alone). INFO before each test: device, span, seed, bs, iodepth, method. An I/O error FAILs
 * the test with the errno and the offset.
 * What is written: random bytes (splitmix64, lib/rng.h, from the test's seed) filled once in
 * setup, then before each write (and before its clock read) scrambled as fio's default
 * scramble_buffers=1 does (scramble()), so no two blocks written are alike: compressing or
 * deduplicating storage (ZFS lz4, VDO, thin pools, some SSDs) does the work it does for data,
 * and the random prefill of --make-scratch is replaced by random bytes, never by a pattern.
 * The judge (djudge(), in the runner after the RESULT): the flush verdict (disk_flush_verdict())
 * and the read floor by what the disk is (disk.h enum disk_media). */
#define _GNU_SOURCE
#include "disk.h"
#include "../core/probe_util.h"
#include "../core/uring.h"
#include "latency.h"
#include "record.h"
#include "rng.h"
#include "vocab.h"
#include "../sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DISK_QD_MAX 32
/* The flush verdict's thresholds, against W, the median of the 4 KiB write right before each
 * flush (the same size, without a flush). A flush the device receives costs at least one
 * command's round trip, and a 4 KiB write is a round trip plus a 4 KiB transfer (under 1 us on
 * PCIe or virtio): so a flush that costs under W / FLUSH_NOOP_DIV was completed above any
 * device (the kernel for a queue without a write cache, a file system mounted nobarrier).
 * Measured on this project's host (docs/benchmarks/disk.md, "Flush truth"): such flushes
 * cost 0.001-0.07 W, flushes that reach a device 0.7-30 W; 1/3 lies between with room on both
 * sides. (A file in memory is told by what it is, not by timing: there both are syscalls,
 * 0.16-0.27 W.) A flush that costs at least FLUSH_SLOW_MUL W waited for something slower
 * than the write into the cache: a medium. Between the two the device answers the flush in
 * about a write's time: storage that commits at once (power-loss protection, a host writing
 * O_DIRECT to such storage) or a host that ignores flushes (QEMU cache=unsafe), which timing
 * from inside cannot tell apart: the verdict says so. */
#define FLUSH_NOOP_DIV 3
#define FLUSH_SLOW_MUL 2
/* A 4 KiB random read below these is no medium's: rotating disks need part of a rotation
 * (15k rpm: 2 ms for half of one), the fastest solid-state media (3D XPoint) ~5-10 us. A
 * virtual disk's medium is the host's, unknown: only the solid-state floor holds for it. */
#define READ_MIN_ROT_NS 1000000
#define READ_MIN_SSD_NS 5000

enum op { RANDREAD, SEQREAD, SEQWRITE, RANDWRITE, FLUSH };

struct dtest {
	enum op op;
	unsigned bs, qd;
	const char *method;
};

/* The tests: X(id, op, bs, iodepth, title, unit, kind, per_loop, value extra, method); the
 * descriptor is bench_disk_<id>, named by the registry (disk-<id>, '_' made '-'). MiB/s: one
 * loop is one 1 MiB I/O (fio's unit); the latency tests' value is the sample's median
 * (lib/latency.h's first key, p50_ns). */
#define DISK_TESTS(X) \
	X(randread_4k_qd1, RANDREAD, 4096, 1, \
	  "Disk 4 KiB random read latency, qd1", REC_UNIT_NS, BENCH_TIME, 1, REC_EXTRA_P50_NS, \
	  "pread(2) O_DIRECT, one at a time, clock read around each I/O") \
	X(randread_4k_qd32, RANDREAD, 4096, 32, \
	  "Disk 4 KiB random read IOPS, qd32", REC_UNIT_IOPS, BENCH_RATE, 1, NULL, \
	  "io_uring (raw syscalls, IORING_OP_READ) O_DIRECT, 32 in flight, each completion " \
	  "replaced at once") \
	X(read_1m, SEQREAD, 1 << 20, 1, \
	  "Disk 1 MiB sequential read", REC_UNIT_MIBPS, BENCH_RATE, 1, NULL, \
	  "pread(2) O_DIRECT, sequential, one at a time") \
	X(write_1m, SEQWRITE, 1 << 20, 1, \
	  "Disk 1 MiB sequential write", REC_UNIT_MIBPS, BENCH_RATE, 1, NULL, \
	  "pwrite(2) O_DIRECT, sequential, one at a time, no flush") \
	X(randwrite_4k_qd1, RANDWRITE, 4096, 1, \
	  "Disk 4 KiB random write latency, qd1", REC_UNIT_NS, BENCH_TIME, 1, REC_EXTRA_P50_NS, \
	  "pwrite(2) O_DIRECT, one at a time, no flush") \
	X(flush, FLUSH, 4096, 1, \
	  "Disk 4 KiB write + flush latency", REC_UNIT_NS, BENCH_TIME, 1, REC_EXTRA_P50_NS, \
	  "pwrite(2) O_DIRECT 4 KiB then fdatasync(2), one pair at a time")

#define ROW(id, op, bs, qd, title, unit, kind, per_loop, vextra, method) \
	{op, bs, qd, method},
static const struct dtest dtests[] = {DISK_TESTS(ROW)};
#undef ROW
#define IDX(id, ...) DI_##id,
enum { DISK_TESTS(IDX) DI_COUNT };
#undef IDX

struct dstate {
	const struct dtest *t;
	const struct disk_sel *sel;
	int fd;
	unsigned char *buf;
	uint64_t rng, nblocks, pos;
	uint64_t bytes_r, bytes_w;
	struct lat_hist h, hf, hw;
	uint64_t nwrites;		/* writes so far: scramble()'s sequence number */
	struct uring u;
	uint64_t t_sub[DISK_QD_MAX];
	int64_t reread_cold, reread_warm;	/* the re-read probe's medians (ns), -1: none */
};

/* Test t's seed: the run's (isobench.disk.seed) + t's index in dtests. */
static uint64_t seed_of(const struct disk_sel *sel, const struct dtest *t)
{
	return sel->seed + (uint64_t)(t - dtests);
}

/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift generators"). */
static uint64_t next_block(struct dstate *s)
{
	s->rng ^= s->rng >> 12, s->rng ^= s->rng << 25, s->rng ^= s->rng >> 27;
	return (s->rng * 0x2545F4914F6CDD1Dull) % s->nblocks;
}

/* Byte offset of the next I/O: random, or the next one of the sequential walk. */
static uint64_t next_off(struct dstate *s)
{
	uint64_t blk = s->t->op == SEQREAD || s->t->op == SEQWRITE ? s->pos++ % s->nblocks
								  : next_block(s);
	return s->sel->span_off + blk * s->t->bs;
}

static int writes(const struct dtest *t)
{
	return t->op == SEQWRITE || t->op == RANDWRITE || t->op == FLUSH;
}

/* Why the test cannot run on this disk (a SKIP), or NULL. */
static const char *cannot_run(const struct dtest *t, const struct disk_sel *sel)
{
	if (!sel)
		return "no disk chosen (the runner's header did not run)";
	if (!sel->path[0])
		return sel->reason;
	if (writes(t) && sel->no_write[0])
		return sel->no_write;
	if (sel->span_len < t->bs)
		return "span smaller than one block";
	return NULL;
}

static int io_error(struct bench_ctx *ctx, const struct dstate *s, const char *call,
		    uint64_t off, long got);

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

#define DISK_REREAD_WARM 8

/* The re-read probe (top of file): DISK_REREAD_WARM reads of other blocks to warm the path,
 * then DISK_REREAD_BLOCKS blocks, each read once, then each again; the rounds' median latencies into s->reread_cold and s->reread_warm. Blocks from
 * splitmix64 of the test's seed, apart from the samples' xorshift64* sequence. 0, or -errno of
 * a failed read (the test's FAIL, as a sample's would be). */
static int reread_probe(struct bench_ctx *ctx, struct dstate *s)
{
	uint64_t off[DISK_REREAD_BLOCKS], ns[2][DISK_REREAD_BLOCKS], st = s->rng ^ 0x72657265616dull;

	for (int i = 0; i < DISK_REREAD_BLOCKS; i++)
		off[i] = s->sel->span_off + splitmix64(&st) % s->nblocks * s->t->bs;
	/* First DISK_REREAD_WARM reads of other blocks, untimed: the read path's first use
	 * (an emulator translating it, a driver's first request) is paid before either round. */
	for (int i = 0; i < DISK_REREAD_WARM; i++) {
		uint64_t o = s->sel->span_off + splitmix64(&st) % s->nblocks * s->t->bs;
		ssize_t n = pread(s->fd, s->buf, s->t->bs, (off_t)o);
		if (n != (ssize_t)s->t->bs)
			return io_error(ctx, s, "pread (re-read probe)", o, n < 0 ? -errno : n);
	}
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < DISK_REREAD_BLOCKS; i++) {
			uint64_t t0 = now_ns();
			ssize_t n = pread(s->fd, s->buf, s->t->bs, (off_t)off[i]);
			uint64_t t1 = now_ns();
			if (n != (ssize_t)s->t->bs)
				return io_error(ctx, s, "pread (re-read probe)", off[i],
						n < 0 ? -errno : n);
			ns[round][i] = t1 - t0;
		}
	for (int round = 0; round < 2; round++)
		qsort(ns[round], DISK_REREAD_BLOCKS, sizeof ns[round][0], cmp_u64);
	s->reread_cold = (int64_t)ns[0][DISK_REREAD_BLOCKS / 2];
	s->reread_warm = (int64_t)ns[1][DISK_REREAD_BLOCKS / 2];
	return 0;
}

static int dsetup(struct bench_ctx *ctx, const struct dtest *t)
{
	const struct disk_sel *sel = disk_current();
	const char *why = cannot_run(t, sel);
	char err[240];
	struct scratch_hdr h;

	if (!why && writes(t) && scratch_read_only(sel->path, err, sizeof err))
		why = err;	/* read-only since the header looked */
	if (why) {
		bench_note(ctx, "%s", why);
		return BENCH_SKIP;
	}
	struct dstate *s = calloc(1, sizeof *s);
	if (!s || posix_memalign((void **)&s->buf, 4096, (size_t)t->bs * t->qd)) {
		free(s);
		return -ENOMEM;
	}
	ctx->state = s;
	s->t = t;
	s->sel = sel;
	s->rng = seed_of(sel, t);
	s->nblocks = sel->span_len / t->bs;
	s->reread_cold = s->reread_warm = -1;
	uint64_t fill = seed_of(sel, t);
	for (size_t i = 0; i < (size_t)t->bs * t->qd; i += 8) {
		uint64_t r = splitmix64(&fill);
		memcpy(s->buf + i, &r, 8);
	}
	s->fd = open(sel->path, (writes(t) ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
	if (s->fd < 0) {	/* read-only since the header looked (scratch_read_only()): SKIP */
		int e = errno, ro = e == EROFS || e == EACCES || e == EPERM;
		bench_note(ctx, "%s: O_DIRECT open%s: %s", sel->path, ro ? " for writing" : "",
			   strerror(e));
		return e == EINVAL || (ro && writes(t)) ? BENCH_SKIP : -e;
	}
	if (writes(t) && scratch_check(s->fd, sel->path, &h, err, sizeof err)) {
		bench_note(ctx, "%s", err);
		return BENCH_SKIP;
	}
	if (t->op == RANDREAD && t->qd == 1) {
		int r = reread_probe(ctx, s);
		if (r)
			return r;
	}
	if (t->qd > 1) {
		int r = uring_init(&s->u, t->qd);
		if (r) {
			bench_note(ctx, "io_uring_setup: %s", strerror(-r));
			return r == -ENOSYS ? BENCH_SKIP : r;
		}
	}
	return 0;
}

static void dteardown(struct bench_ctx *ctx)
{
	struct dstate *s = ctx->state;
	if (!s)
		return;
	if (s->u.fd > 0)
		uring_exit(&s->u);
	if (s->fd > 0)
		close(s->fd);
	free(s->buf);
	free(s);
}

/* The note and return value of a failed I/O: -errno (-EIO for a short transfer). */
static int io_error(struct bench_ctx *ctx, const struct dstate *s, const char *call,
		    uint64_t off, long got)
{
	int e = got < 0 ? (int)-got : EIO;
	bench_note(ctx, "%s of %u B at byte %llu of %s: %s (errno %d)%s", call, s->t->bs,
		   (unsigned long long)off, s->sel->path, strerror(e), e,
		   got >= 0 ? ", short transfer" : "");
	return -e;
}

/* Make the next write's bs bytes at byte off unlike any block written before, as fio's
 * scramble_buffers=1 (its default) does to its random buffer before each write (fio's
 * io_u.c, small_content_scramble(): in every 512-byte block, the block's byte offset into one
 * of its eight 64-byte lines, picked from the I/O's start time and offset, and that time at
 * the end of its first line). Ours, our own code: the same, with the write's sequence number
 * where fio puts a time (no clock read), at the end of each 512-byte block. Two 8-byte stores
 * per 512 bytes; called before the write's clock read (one_io()). */
static void scramble(struct dstate *s, uint64_t off)
{
	uint64_t seq = ++s->nwrites;

	for (unsigned b = 0; b < s->t->bs / 512; b++) {
		unsigned char *p = s->buf + (size_t)b * 512;
		uint64_t boff = off + (uint64_t)b * 512;
		memcpy(p + (((seq ^ b) & 7) << 6), &boff, sizeof boff);
		memcpy(p + 512 - sizeof seq, &seq, sizeof seq);
	}
}

/* One synchronous I/O (and, for disk-flush, the fdatasync after it), timed: the pair and,
 * for disk-flush, the write and the flush each alone. */
static int one_io(struct bench_ctx *ctx, struct dstate *s)
{
	uint64_t off = next_off(s);
	int wr = writes(s->t);
	if (wr)
		scramble(s, off);
	uint64_t t0 = now_ns();
	ssize_t n = wr ? pwrite(s->fd, s->buf, s->t->bs, (off_t)off)
		       : pread(s->fd, s->buf, s->t->bs, (off_t)off);

	if (n != (ssize_t)s->t->bs)
		return io_error(ctx, s, wr ? "pwrite" : "pread", off, n < 0 ? -errno : n);
	uint64_t t1 = now_ns();
	if (s->t->op == FLUSH) {
		if (fdatasync(s->fd))
			return io_error(ctx, s, "fdatasync", off, -errno);
		uint64_t t2 = now_ns();
		lat_record(&s->hw, t1 - t0);
		lat_record(&s->hf, t2 - t1);
		t1 = t2;
	}
	lat_record(&s->h, t1 - t0);
	*(wr ? &s->bytes_w : &s->bytes_r) += s->t->bs;
	ctx->sink += s->buf[0];
	return 0;
}

/* iters reads with up to qd in flight: each completion is replaced at once; returns when
 * all have completed. Latency: submission to the reap that saw the completion. */
static int ring_ios(struct bench_ctx *ctx, struct dstate *s, uint64_t iters)
{
	uint64_t issued = 0, done = 0, offs[DISK_QD_MAX];
	int r = 0;

	while (done < iters) {
		for (unsigned slot = 0; issued < iters && issued - done < s->t->qd && !r; issued++) {
			while (slot < s->t->qd && s->t_sub[slot])
				slot++;	/* a slot (buffer) not in flight: t_sub 0 */
			offs[slot] = next_off(s);
			r = uring_read(&s->u, s->fd, s->buf + (size_t)slot * s->t->bs, s->t->bs,
				       offs[slot], slot);
			s->t_sub[slot] = now_ns();
		}
		if (r || (r = uring_submit_wait(&s->u, 1)))
			break;
		struct uring_cqe c;
		while (uring_reap(&s->u, &c)) {
			unsigned slot = (unsigned)c.user_data;
			if (c.res != (int32_t)s->t->bs && !r)
				r = io_error(ctx, s, "io_uring read", offs[slot], c.res);
			lat_record(&s->h, now_ns() - s->t_sub[slot]);
			s->t_sub[slot] = 0;
			s->bytes_r += s->t->bs;
			done++;
		}
	}
	if (r)	/* drain what is still in flight before the buffers go */
		for (struct uring_cqe c; done < issued && !uring_submit_wait(&s->u, 1);)
			while (uring_reap(&s->u, &c))
				done++, s->t_sub[c.user_data] = 0;
	ctx->sink += s->buf[0];
	return r;
}

static void put_extras(struct bench_ctx *ctx, const struct dstate *s)
{
	uint64_t q[LAT_NQ];

	lat_quantiles(&s->h, q);
	for (int i = 0; i < LAT_NQ; i++)
		bench_extra(ctx, lat_keys[i], (int64_t)q[i]);
	bench_lat(ctx, &s->h);	/* the RESULT's whole-run percentiles */
	bench_extra(ctx, REC_EXTRA_BYTES_READ, (int64_t)s->bytes_r);
	bench_extra(ctx, REC_EXTRA_BYTES_WRITTEN, (int64_t)s->bytes_w);
	if (s->reread_cold >= 0) {	/* the probe's, from setup: the same in every sample */
		bench_extra(ctx, REC_EXTRA_REREAD_COLD_NS, s->reread_cold);
		bench_extra(ctx, REC_EXTRA_REREAD_WARM_NS, s->reread_warm);
	}
	if (s->t->op == FLUSH) {
		bench_extra(ctx, REC_EXTRA_FLUSH_P50_NS, (int64_t)lat_quantile(&s->hf, 50000));
		bench_extra(ctx, REC_EXTRA_WRITE_P50_NS, (int64_t)lat_quantile(&s->hw, 50000));
	}
}

static int drun(struct bench_ctx *ctx, uint64_t iters)
{
	struct dstate *s = ctx->state;
	int r = 0;

	if (probe_new_sample(ctx)) {
		lat_reset(&s->h);
		lat_reset(&s->hf);
		lat_reset(&s->hw);
		s->bytes_r = s->bytes_w = 0;
		struct scratch_hdr h;
		char err[240];
		/* Before every write phase: the signature as the medium holds it now. */
		if (writes(s->t) && scratch_check(s->fd, s->sel->path, &h, err, sizeof err)) {
			bench_note(ctx, "scratch check before writing: %s", err);
			return -EPERM;
		}
	}
	if (s->t->qd > 1)
		r = ring_ios(ctx, s, iters);
	else
		for (uint64_t i = 0; i < iters && !r; i++)
			r = one_io(ctx, s);
	put_extras(ctx, s);
	return r;
}

/* INFO before the test's TEST: what it touches and how (benchapi.h info). */
static void dinfo(const struct bench *bt, const struct dtest *t, struct rec_body *b)
{
	const struct disk_sel *sel = disk_current();

	rec_str(b, RK_DISK_TEST, bt->name);
	rec_str(b, RK_DISK_DEVICE, sel && sel->path[0] ? sel->path : "-");
	if (sel && sel->path[0]) {
		rec_str(b, RK_DISK_KIND, sel->is_file ? REC_DISK_FILE : REC_DISK_BLOCK);
		rec_u64(b, RK_DISK_SPAN_OFFSET, sel->span_off);
		rec_u64(b, RK_DISK_SPAN_BYTES, sel->span_len);
	}
	rec_u64(b, RK_DISK_SEED, sel ? sel->seed : 0);	/* the run's; the test's is + its index */
	rec_u64(b, RK_DISK_BS, t->bs);
	rec_u64(b, RK_DISK_IODEPTH, t->qd);
	rec_str(b, RK_DISK_METHOD, t->method);
}

/* disk.h: disk-flush's verdict from f, the median flush alone, and w, the median 4 KiB write before
 * it (ns; the medians over the samples of flush_p50_ns and write_p50_ns), and the disk's
 * queue/write_cache and queue/fua (sel): no stable storage when memory holds the data (disk.h
 * DISK_MEDIA_MEMORY: a tmpfs file, a RAM disk, which says write through) or when a loop
 * device says write through (its file is made stable only by the flush it then never gets),
 * write-through as the disk says, no stable storage either when the flush costs under w / FLUSH_NOOP_DIV; else honoured, and FLUSH_SLOW_MUL tells whether it
 * waited for something slower than the cache. */
int disk_flush_verdict(const struct disk_sel *sel, double f, double w, char *why, size_t len)
{
	const char *wc = sel ? sel->write_cache : "-";
	char figs[200];

	if (f < 0 || w <= 0)
		return BENCH_JUDGE_NONE;
	snprintf(figs, sizeof figs, "fdatasync %.1f us, the 4 KiB write before it %.1f us (medians; "
		 "flush/write %.3f); queue/write_cache=%s, queue/fua=%s", f / 1000, w / 1000, f / w,
		 wc, sel ? sel->fua : "-");
	if (sel && sel->media == DISK_MEDIA_MEMORY) {
		snprintf(why, len, "flush is not reaching stable storage: there is none below, %s: %s",
			 sel->media_why, figs);
		return BENCH_JUDGE_WARN;
	}
	if (!strcmp(wc, "write through") && sel && sel->loop_file[0]) {
		snprintf(why, len, "flush is not reaching stable storage: the loop device says "
			 "write-through, so the kernel sends it no flush, but it is the file %s, whose "
			 "writes nothing makes stable without one (that file's fsync): %s",
			 sel->loop_file, figs);
		return BENCH_JUDGE_WARN;
	}
	if (!strcmp(wc, "write through")) {
		snprintf(why, len, "write-through: the disk says it keeps no volatile write cache, so "
			 "the kernel sends it no flush and a write is stable when it completes, as far "
			 "as that holds (a power-loss protected device, a stack that writes through): "
			 "%s", figs);
		return BENCH_JUDGE_NOTE;
	}
	if (f * FLUSH_NOOP_DIV < w) {
		snprintf(why, len, "flush is not reaching stable storage: %s, but the flush costs "
			 "under 1/%d of a 4 KiB write, less than any device's round trip: it is "
			 "completed above the device (a file system mounted nobarrier, a host that "
			 "drops it): %s", strcmp(wc, "write back") ? "the disk's cache mode is unknown" :
			 "the disk says it has a volatile write cache", FLUSH_NOOP_DIV, figs);
		return BENCH_JUDGE_WARN;
	}
	snprintf(why, len, "volatile cache, flush honoured: the flush reaches the device (%.1fx a "
		 "write)%s: %s", f / w, f >= FLUSH_SLOW_MUL * w ? " and waits for something slower "
		 "than the write into its cache" : ", which answers it in about a write's time: "
		 "storage that commits at once (power-loss protection) and a host that ignores "
		 "flushes (QEMU cache=unsafe) look alike from here", figs);
	return BENCH_JUDGE_NOTE;
}

/* A 4 KiB random read's median v faster than what the disk is can answer (disk.h enum
 * disk_media: a rotating disk's floor only for a physical one; any medium's for a virtual
 * one; memory always): a WARN naming the evidence. */
int disk_read_verdict(const struct disk_sel *sel, double v, char *why, size_t len)
{
	double floor = sel->media == DISK_MEDIA_ROTATING ? READ_MIN_ROT_NS : READ_MIN_SSD_NS;

	if (sel->media == DISK_MEDIA_MEMORY) {
		snprintf(why, len, "a cache answers the reads: a 4 KiB random read takes %.1f us "
			 "(median); %s", v / 1000, sel->media_why);
		return BENCH_JUDGE_WARN;
	}
	if (v >= floor)
		return BENCH_JUDGE_NONE;
	snprintf(why, len, "a cache answers the reads: a 4 KiB random read takes %.1f us (median), "
		 "faster than %s (%.0f us); %s", v / 1000, sel->media == DISK_MEDIA_ROTATING ?
		 "a rotating medium allows" : "any medium answers", floor / 1000, sel->media_why);
	return BENCH_JUDGE_WARN;
}

int disk_reread_verdict(double cold, double warm, char *why, size_t len)
{
	if (!(cold > 0) || !(warm > 0) || warm * DISK_REREAD_FAST > cold)
		return BENCH_JUDGE_NONE;
	snprintf(why, len, "a cache below answers re-reads: %d blocks read twice outside the "
		 "samples took %.1f us the second time against %.1f us the first (medians, %.1fx "
		 "faster): a host's page cache behind a virtual disk (QEMU cache=writeback) or a "
		 "loop device's holds what was read, and the samples' reads may be its too",
		 DISK_REREAD_BLOCKS, warm / 1000, cold / 1000, cold / warm);
	return BENCH_JUDGE_WARN;
}

/* The judge (benchapi.h): disk-flush's verdict; the qd1 random read's floor and its re-read
 * probe (extras reread_cold_ns, reread_warm_ns), one WARN saying whichever fired, both
 * (the probe's first) when both did. */
static int djudge(const struct dtest *t, const struct bench_judged *j, char *why, size_t len)
{
	const struct disk_sel *sel = disk_current();

	if (t->op == FLUSH)
		return disk_flush_verdict(sel, j->extra[0], j->extra[1], why, len);
	if (t->op != RANDREAD || t->qd != 1 || !sel)
		return BENCH_JUDGE_NONE;
	if (sel->media == DISK_MEDIA_MEMORY)	/* memory answers both rounds: the floor says it */
		return disk_read_verdict(sel, j->value, why, len);
	int r = disk_reread_verdict(j->extra[0], j->extra[1], why, len);
	size_t used = r == BENCH_JUDGE_NONE ? 0 : strlen(why), gap = used ? 2 : 0;
	/* Both: one WARN, the probe's reason then the floor's. */
	if (used + gap + 1 >= len)
		return r;
	int v = disk_read_verdict(sel, j->value, why + used + gap, len - used - gap);
	if (used && v != BENCH_JUDGE_NONE)
		memcpy(why + used, "; ", 2);
	else if (used)
		why[used] = 0;
	return used ? BENCH_JUDGE_WARN : v;
}

/* One descriptor per row of DISK_TESTS: its setup, info and judge pick the row. */
#define DISK_BENCH(id, op, bs, qd, title_, unit_, kind_, per_loop_, vextra, method)		\
	static int setup_##id(struct bench_ctx *c) { return dsetup(c, &dtests[DI_##id]); }	\
	static void info_##id(const struct bench *t, const char *self, struct rec_body *b) \
	{ (void)self; dinfo(t, &dtests[DI_##id], b); }					\
	static int judge_##id(const struct bench *b, const struct bench_judged *j,	\
			      char *w, size_t l)						\
	{ (void)b; return djudge(&dtests[DI_##id], j, w, l); }				\
	BENCH(disk_##id,								\
		.title = title_, .group = REC_GROUP_DISK, .unit = unit_,			\
		.kind = kind_, .per_loop = per_loop_, .max_copies = 1,			\
		.value_extra = vextra, .info = info_##id, .judge = judge_##id,		\
		.judge_extras = {op == FLUSH ? REC_EXTRA_FLUSH_P50_NS : REC_EXTRA_REREAD_COLD_NS, \
				 op == FLUSH ? REC_EXTRA_WRITE_P50_NS : REC_EXTRA_REREAD_WARM_NS}, \
		.setup = setup_##id, .run = drun, .teardown = dteardown);
DISK_TESTS(DISK_BENCH)
#undef DISK_BENCH
