/* syscall — UnixBench "System Call Overhead" (syscall.c, "mix" mode): one loop is
 * close(dup(fd)), getpid(), getuid(), umask(022). getpid goes through syscall(2) so no libc
 * can answer it from a cache. Unit lps; baseline 15000 lps (UnixBench index, SPARCstation
 * 20-61). */
#define _GNU_SOURCE
#include "../benchapi.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int run(struct bench_ctx *ctx, uint64_t iters)
{
	uint64_t acc = 0;

	for (uint64_t i = 0; i < iters; i++) {
		int fd = dup(0);
		if (fd < 0)
			return -errno;
		close(fd);
		acc += (uint64_t)syscall(SYS_getpid);
		acc += getuid();
		acc += umask(022);
	}
	ctx->sink += acc;
	return 0;
}

BENCH(syscall, .title = "System Call Overhead", .group = REC_GROUP_INDEX,
	.unit = REC_UNIT_LPS, .kind = BENCH_RATE, .per_loop = 1, .baseline = 15000,
	.run = run);
