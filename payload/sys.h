/* sys.h — the Linux interfaces the runner uses in several places, each wrapped once: the
 * monotonic clock, futexes, removing a work directory, the tmpfs magic. Errors are -errno;
 * callers turn them into records or messages. */
#ifndef ISOBENCH_SYS_H
#define ISOBENCH_SYS_H

#include <stdint.h>
#include <time.h>

/* statfs(2) f_type of tmpfs (TMPFS_MAGIC, include/uapi/linux/magic.h; musl ships no kernel
 * headers). The runner's default host work directory must be one, and the file tests and
 * the log's fs.workdir name it. */
#define SYS_TMPFS_MAGIC 0x01021994

/* CLOCK_MONOTONIC in ns: the harness's, the consoles' and the probes' one clock. */
uint64_t now_ns(void);
/* What one now_ns() read costs here, ns x 100: the median of SYS_CLOCK_COST_BATCHES
 * batches of SYS_CLOCK_COST_READS reads back to back (a batch's span over its reads), so a
 * test that reads the clock around every operation can say how much of each operation's
 * figure is the clock's own (RESULT clock_ns_x100, docs/records.md). ~2,500 reads: ~60 us
 * with a vDSO clocksource, ~7 ms where each read is a syscall to an emulated HPET (TCG). */
#define SYS_CLOCK_COST_READS 256
#define SYS_CLOCK_COST_BATCHES 9
uint64_t now_ns_cost_x100(void);

/* FUTEX_WAIT on a 32-bit word (atomic_int or _Atomic uint32_t), shared between processes
 * (not FUTEX_PRIVATE): sleep while *word == val, at most rel (NULL: no limit). 0 when woken,
 * else -errno: -EAGAIN (*word != val already), -ETIMEDOUT, -EINTR. */
int futex_wait(void *word, uint32_t val, const struct timespec *rel);
/* FUTEX_WAKE: wake at most n waiters on word; the number woken, or -errno. */
int futex_wake(void *word, int n);

/* Remove the tree at path (files, links — never followed — and directories, deepest first),
 * as much of it as can be removed. 0 when path is gone, else -errno of the first failure. */
int rm_tree(const char *path);

#endif
