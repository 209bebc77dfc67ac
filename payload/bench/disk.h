/* disk.h — what the `disk` group's tests share beyond the disk's choice (../core/disk_dev.h):
 * the verdicts their judge gives (disk.c), also checked by tests/unit/test_disk.c. */
#ifndef ISOBENCH_BENCH_DISK_H
#define ISOBENCH_BENCH_DISK_H

#include "../core/disk_dev.h"

#include <stddef.h>

/* The disk tests' verdicts (disk.c, the judge's; benchapi.h BENCH_JUDGE_*, reason in why):
 * disk-flush's from f, the median flush alone, and w, the median 4 KiB write before it (ns),
 * and sel's write_cache and media; a 4 KiB random read's median v (ns) against what sel is. */
int disk_flush_verdict(const struct disk_sel *sel, double f, double w, char *why, size_t len);
int disk_read_verdict(const struct disk_sel *sel, double v, char *why, size_t len);
/* The re-read probe's verdict (disk.c, disk-randread-4k-qd1's setup: DISK_REREAD_BLOCKS blocks
 * read once, then the same blocks again, outside the samples): cold, warm the two rounds'
 * median latencies (ns; < 0: no probe). WARN when the second round is DISK_REREAD_FAST times
 * faster or more: a cache below the reader (a host's page cache behind a virtual disk, a loop
 * device's) answered what had just been read; else NONE. */
#define DISK_REREAD_BLOCKS 32
#define DISK_REREAD_FAST 1.5
int disk_reread_verdict(double cold, double warm, char *why, size_t len);

#endif
