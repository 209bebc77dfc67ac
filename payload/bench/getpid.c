/* getpid.c — raw getpid system call per loop (UnixBench syscall's "getpid" mode).
 * syscall(SYS_getpid) always enters the kernel: no libc pid cache can short-circuit it. */
#include <sys/syscall.h>
#include <unistd.h>

#include "../benchapi.h"

static int getpid_run(struct bench_ctx *ctx, uint64_t iters)
{
	uint64_t acc = 0;

	for (uint64_t i = 0; i < iters; i++)
		acc += (uint64_t)syscall(SYS_getpid);
	ctx->sink += acc;
	return 0;
}

BENCH(getpid, .title = "System Call Overhead (getpid)",
	.group = REC_GROUP_EXTRA,
	.unit = REC_UNIT_LPS,
	.kind = BENCH_RATE,
	.per_loop = 1,
	.run = getpid_run);
