/* disk_dev.h — the disk the `disk` group uses (disk_dev.c): its choice, its media and the
 * machine header's disk block. The tests' verdicts are bench/disk.h's.
 *
 * The disk is chosen once per run, in the runner, from isobench.disk= / --disk
 * (disk_select(), called by the machine header's block: bench_headers[]); the test processes
 * are forked from the runner afterwards and see the same choice (disk_current()). */
#ifndef ISOBENCH_CORE_DISK_DEV_H
#define ISOBENCH_CORE_DISK_DEV_H

#include "scratch.h"

#include <stddef.h>
#include <stdint.h>

struct params;
struct rec_body;

struct disk_sel {
	int resolved;		/* disk_select() ran */
	char asked[128];	/* isobench.disk= as given */
	char path[256];		/* "" when there is no disk: reason says why */
	char reason[240];
	int is_file;		/* a regular file (natively), else a block device */
	uint64_t size;		/* bytes of the device or file */
	int signed_ok;		/* carries a valid scratch signature */
	struct scratch_hdr hdr;
	char no_write[320];	/* "" when writes are allowed, else why not */
	uint64_t span_off, span_len;	/* where random offsets fall: the scratch area
					 * (signed) or the whole device (reads of an unsigned one) */
	char span_note[160];	/* "" when isobench.disk.span= was taken as asked (or not given),
				 * else what was done with it: clamped to the area, rounded down */
	int rotational;		/* the medium's queue/rotational (a file: its filesystem's) */
	char write_cache[24];	/* queue/write_cache: "write back", "write through"; "-" unknown */
	char fua[8];		/* queue/fua: "1" the device takes FUA writes, "0"; "-" unknown */
	int media;		/* enum disk_media: what answers the reads (disk_media_of()) */
	char media_why[320];	/* the sysfs evidence media was judged on */
	char loop_file[160];	/* a loop device's backing file (loop/backing_file); "" none */
	uint64_t seed;		/* isobench.disk.seed (params.h): test k's offsets from seed + k */
};

/* What the disk is, for the read floor of disk.c's judge: a block device's own rotational
 * flag is the medium's only on a physical disk. From sysfs (disk_media_of()): the disk's
 * driver, its controller's, its model and vendor, loop/, dm/, md/. */
enum disk_media {
	DISK_MEDIA_MEMORY,	/* no block device below (tmpfs, ramfs), a RAM disk (zram, brd), a
				 * loop device over a tmpfs file */
	DISK_MEDIA_VIRTUAL,	/* virtual or stacked: virtio, Xen, Hyper-V, VMware, a QEMU or
				 * cloud model, loop, nbd, device-mapper, md: the flag says nothing */
	DISK_MEDIA_ROTATING,	/* a physical disk that says rotational=1 */
	DISK_MEDIA_SOLID,	/* a physical disk that says rotational=0 */
};

/* s->write_cache, s->fua, s->media, s->media_why from the disk's sysfs directory dir (its
 * queue/, device/ and the links above it, read where dir is: tests give a tree of their own),
 * and s->rotational from its queue; NULL dir: no block device below the file s->path (tmpfs).
 * A loop device over a file on tmpfs is memory. Reads only. */
void disk_media_of(const char *dir, struct disk_sel *s);
/* Choose the disk for p (auto: the one signed scratch disk among /sys/class/block). */
void disk_select(const struct params *p, struct disk_sel *s);
/* The run's choice (made by the header block); NULL before it. */
const struct disk_sel *disk_current(void);
/* The machine header's disk block (bench_headers[]): the choice and the device truth. */
void disk_header(const struct params *p, struct rec_body *b);

#endif
