/* fs.c — File Copy / File Read / File Write, UnixBench fstime's mechanics.
 *
 * One loop moves one buffer of bufsize bytes: copy = read() it from the source file, then
 * write() it to the destination (as fstime's c_test); read = read() only; write = write() only.
 * After maxblocks KiB (maxblocks * 1024 / bufsize buffers) both files are rewound with lseek()
 * and the next pass overwrites the same bytes, as fstime does.  setup() writes the source file
 * (maxblocks KiB of fs_pattern_byte()) once; each copy uses its own files in its own workdir.
 * per_loop = bufsize / 1024 KiB, so the rate is KBps as UnixBench reports it.
 *
 * Honesty note: in the image the root and every workdir are RAM-backed (tmpfs), and on a host
 * the files are small enough to stay cached, and nothing is fsync()ed; these tests measure the
 * page cache and the read/write system-call path, not a disk.  setup() says so in the note,
 * and each sample carries the workdir's statfs f_type as the extra "fs_magic" (tmpfs:
 * SYS_TMPFS_MAGIC, sys.h), so a reader can tell what was measured.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "../benchapi.h"
#include "fs.h"
#include "../sys.h"
#include "io.h"

enum fs_mode { FS_COPY, FS_READ, FS_WRITE };

struct fs_state {
	int src, dst;
	enum fs_mode mode;
	int bufsize;
	uint64_t nbuf, pos;	/* buffers per pass; buffers done in the current pass */
	int64_t fs_magic;
	char *buf;
	char srcpath[512], dstpath[512];
};

static void fs_teardown(struct bench_ctx *ctx)
{
	struct fs_state *s = ctx->state;

	if (!s)
		return;
	if (s->src >= 0)
		close(s->src);
	if (s->dst >= 0)
		close(s->dst);
	if (s->srcpath[0])
		unlink(s->srcpath);
	if (s->dstpath[0])
		unlink(s->dstpath);
	free(s->buf);
	free(s);
	ctx->state = NULL;
}

static int fs_setup(struct bench_ctx *ctx, enum fs_mode mode, int bufsize, int maxblocks)
{
	static const char *const tag[] = { "copy", "read", "write" };
	struct fs_state *s = calloc(1, sizeof *s);
	uint64_t size = (uint64_t)maxblocks * 1024, off = 0;
	char chunk[65536];
	struct statfs sf;
	int err = 0;

	if (!s)
		return -ENOMEM;
	ctx->state = s;
	s->src = s->dst = -1;
	s->mode = mode;
	s->bufsize = bufsize;
	s->nbuf = size / (uint64_t)bufsize;
	if (!(s->buf = malloc((size_t)bufsize)))
		return fs_teardown(ctx), -ENOMEM;
	snprintf(s->srcpath, sizeof s->srcpath, "%s/fs%s-%d.src", ctx->workdir, tag[mode], bufsize);
	snprintf(s->dstpath, sizeof s->dstpath, "%s/fs%s-%d.dst", ctx->workdir, tag[mode], bufsize);

	if (mode != FS_WRITE) {
		int fd = open(s->srcpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		if (fd < 0)
			return err = -errno, fs_teardown(ctx), err;
		while (!err && off < size) {
			size_t n = size - off < sizeof chunk ? (size_t)(size - off) : sizeof chunk;

			for (size_t i = 0; i < n; i++)
				chunk[i] = (char)fs_pattern_byte(off + i);
			err = write_all(fd, chunk, n);
			off += n;
		}
		close(fd);
		if (err)
			return fs_teardown(ctx), err;
		if ((s->src = open(s->srcpath, O_RDONLY | O_CLOEXEC)) < 0)
			return err = -errno, fs_teardown(ctx), err;
	} else {
		s->srcpath[0] = '\0';
		memset(s->buf, 0x5a, (size_t)bufsize);
	}
	if (mode != FS_READ) {
		s->dst = open(s->dstpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (s->dst < 0)
			return err = -errno, fs_teardown(ctx), err;
	} else {
		s->dstpath[0] = '\0';
	}
	s->fs_magic = statfs(ctx->workdir, &sf) == 0 ? (int64_t)sf.f_type : -1;
	bench_note(ctx, "measures the page cache (%s), not a disk",
		   s->fs_magic == SYS_TMPFS_MAGIC ? "tmpfs" : "workdir");
	return 0;
}

static int fs_run(struct bench_ctx *ctx, uint64_t iters)
{
	struct fs_state *s = ctx->state;
	const size_t bs = (size_t)s->bufsize;
	uint64_t pos = s->pos;

	for (uint64_t i = 0; i < iters; i++) {
		ssize_t r;

		if (s->mode != FS_WRITE && (r = read(s->src, s->buf, bs)) != (ssize_t)bs)
			return r < 0 ? -errno : -EIO;
		if (s->mode != FS_READ && (r = write(s->dst, s->buf, bs)) != (ssize_t)bs)
			return r < 0 ? -errno : -EIO;
		if (++pos == s->nbuf) {
			pos = 0;
			if ((s->src >= 0 && lseek(s->src, 0, SEEK_SET) < 0) ||
			    (s->dst >= 0 && lseek(s->dst, 0, SEEK_SET) < 0))
				return -errno;
		}
	}
	s->pos = pos;
	ctx->sink += (uint8_t)s->buf[bs - 1] + pos;
	bench_extra(ctx, REC_EXTRA_FS_MAGIC, s->fs_magic);
	return 0;
}

#define FS_TEST(sym, ttl, grp, mode, bs, mb, base)					\
	static int setup_##sym(struct bench_ctx *ctx) { return fs_setup(ctx, mode, bs, mb); } \
	BENCH(sym, .title = ttl, .group = grp, .unit = REC_UNIT_KBPS,			\
		.kind = BENCH_RATE, .per_loop = (bs) / 1024.0, .baseline = base,		\
		.setup = setup_##sym, .run = fs_run, .teardown = fs_teardown)

/* The index tests, with UnixBench's names, labels and baselines. */
FS_TEST(fstime, "File Copy 1024 bufsize 2000 maxblocks",
	REC_GROUP_INDEX, FS_COPY, 1024, 2000, 3960);
FS_TEST(fsbuffer, "File Copy 256 bufsize 500 maxblocks",
	REC_GROUP_INDEX, FS_COPY, 256, 500, 1655);
FS_TEST(fsdisk, "File Copy 4096 bufsize 8000 maxblocks",
	REC_GROUP_INDEX, FS_COPY, 4096, 8000, 5800);

/* Read and write halves, outside the index (UnixBench has no baselines for them). */
FS_TEST(fsread_1024, "File Read 1024 bufsize 2000 maxblocks",
	REC_GROUP_EXTRA, FS_READ, 1024, 2000, 0);
FS_TEST(fsread_256, "File Read 256 bufsize 500 maxblocks",
	REC_GROUP_EXTRA, FS_READ, 256, 500, 0);
FS_TEST(fsread_4096, "File Read 4096 bufsize 8000 maxblocks",
	REC_GROUP_EXTRA, FS_READ, 4096, 8000, 0);
FS_TEST(fswrite_1024, "File Write 1024 bufsize 2000 maxblocks",
	REC_GROUP_EXTRA, FS_WRITE, 1024, 2000, 0);
FS_TEST(fswrite_256, "File Write 256 bufsize 500 maxblocks",
	REC_GROUP_EXTRA, FS_WRITE, 256, 500, 0);
FS_TEST(fswrite_4096, "File Write 4096 bufsize 8000 maxblocks",
	REC_GROUP_EXTRA, FS_WRITE, 4096, 8000, 0);
