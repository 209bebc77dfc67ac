/* sys.c — see sys.h. */
#define _GNU_SOURCE
#include "sys.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Linux ABI values (include/uapi/linux/futex.h); musl-gcc has no kernel headers. */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t now_ns_cost_x100(void)
{
	uint64_t span[SYS_CLOCK_COST_BATCHES], t;

	for (int b = 0; b < SYS_CLOCK_COST_BATCHES; b++) {
		uint64_t t0 = now_ns();
		for (int i = 0; i < SYS_CLOCK_COST_READS; i++)
			t = now_ns();	/* a call into the C library: never deleted */
		span[b] = t - t0;
	}
	for (int i = 1; i < SYS_CLOCK_COST_BATCHES; i++)	/* insertion sort: 9 values */
		for (int j = i; j > 0 && span[j - 1] > span[j]; j--) {
			t = span[j];
			span[j] = span[j - 1];
			span[j - 1] = t;
		}
	/* t0 .. the last read: SYS_CLOCK_COST_READS reads' time, t0's own excluded. */
	return span[SYS_CLOCK_COST_BATCHES / 2] * 100 / SYS_CLOCK_COST_READS;
}

int futex_wait(void *word, uint32_t val, const struct timespec *rel)
{
	return syscall(SYS_futex, word, FUTEX_WAIT, val, rel, NULL, 0) ? -errno : 0;
}

int futex_wake(void *word, int n)
{
	long r = syscall(SYS_futex, word, FUTEX_WAKE, n, NULL, NULL, 0);

	return r < 0 ? -errno : (int)r;
}

static int rm_first_err;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) && !rm_first_err)
		rm_first_err = errno;
	return 0;	/* go on: remove what can be removed */
}

int rm_tree(const char *path)
{
	rm_first_err = 0;
	if (nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS))
		return -errno;
	return -rm_first_err;
}
