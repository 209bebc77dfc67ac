/* scratch.h — the scratch signature: the one mark that makes a disk (or a file) ours to
 * write, the host command that writes it (`isobench --make-scratch PATH SIZE`), and the
 * checks every write phase of the disk tests passes first.
 *
 * Layout (little-endian, at byte 0 of the device or file, inside one 4096-byte block so it
 * can be read and written with O_DIRECT on any logical block size up to 4 KiB):
 *   0  magic[16]  "ISOBENCH-SCRATCH"
 *  16  u32 version (SCRATCH_VERSION)
 *  20  u32 data_off: where the area the tests may write starts (SCRATCH_DATA_OFF, 1 MiB:
 *      keeps 1 MiB I/O aligned; the header block and the rest of that MiB are never
 *      written by a test)
 *  24  u64 size: bytes signed, from 0 (the tests write [data_off, size) only)
 *  32  u64 id: random (getrandom), to tell two scratch disks apart in a log
 *  40  u32 crc: CRC-32 (lib/crc32.h) of bytes 0..39
 * and zeros from byte 44 to data_off: every --make-scratch so far has written exactly that
 * header MiB, and a disk is ours only while all of it still reads so (scratch_read()). Other
 * tools' labels live in that MiB, some leaving bytes 0-43 alone: an LVM2 PV label at sector 1
 * (byte 512), ext2/3/4's superblock at 1024, swap's signature at 4086, MD RAID 1.2's at 4096,
 * btrfs's superblock at 64 KiB, ZFS's labels L0/L1 (256 KiB each, uberblocks from 128 KiB).
 * Errors are -errno with a one-line reason in err. */
#ifndef ISOBENCH_SCRATCH_H
#define ISOBENCH_SCRATCH_H

#include <stddef.h>
#include <stdint.h>

#define SCRATCH_MAGIC "ISOBENCH-SCRATCH"
#define SCRATCH_VERSION 1u
#define SCRATCH_BLOCK 4096u
#define SCRATCH_DATA_OFF (1u << 20)
/* The smallest area worth signing: the header MiB plus 1 MiB a 1 MiB test can use. */
#define SCRATCH_MIN_SIZE (2u * SCRATCH_DATA_OFF)

struct scratch_hdr {
	uint32_t version, data_off;
	uint64_t size, id;
};

/* Encode h into the first 44 bytes of blk (SCRATCH_BLOCK bytes, the rest zeroed). */
void scratch_encode(const struct scratch_hdr *h, unsigned char *blk);
/* Decode blk: 0 and *h, or -EINVAL with why in err (no magic, version, CRC, layout). */
int scratch_decode(const unsigned char *blk, struct scratch_hdr *h, char *err, size_t errlen);

/* Is mib (the first len bytes of a medium, len >= SCRATCH_DATA_OFF for a verdict) the header
 * MiB --make-scratch left? 0 and *h when it is; -EINVAL when there is no valid signature at
 * byte 0 (err as scratch_decode()); -ESTALE when the signature is valid but a byte after it
 * is not zero (something wrote there since: err names the first such byte and, when one of
 * the labels above is there, which). */
int scratch_decode_mib(const unsigned char *mib, size_t len, struct scratch_hdr *h, char *err,
		       size_t errlen);
/* Read the header MiB at byte 0 of fd (with O_DIRECT when fd has it) and judge it as
 * scratch_decode_mib() does: 0, -EINVAL, -ESTALE, or -errno of the read (-ENODATA: the medium
 * holds less than the MiB), the reason in err. */
int scratch_read(int fd, struct scratch_hdr *h, char *err, size_t errlen);

/* Size of an open block device or regular file in bytes; -errno on failure. */
int64_t scratch_fd_size(int fd);

/* May path be written at all? Refuses (-EBUSY, reason in err): a block device that is
 * mounted (/proc/self/mounts; its partitions or, for a partition, its disk, too), held by
 * another device (holders/), has partitions, or is the boot medium or the results partition
 * (a FAT boot sector labelled as resultsfile.c's, or an ISO 9660 volume, on it or on its
 * disk or the disk's partitions). Regular files pass. Read-only: reads sectors, writes
 * nothing. */
int scratch_may_write(const char *path, char *err, size_t errlen);

/* Can path be written at all? NULL when it can, else why not, in why: a block device the
 * kernel marks read-only (BLKROGET: blockdev --setro, losetup -r, a write-protected medium),
 * or an open for writing refused (EROFS: a read-only mount; EACCES/EPERM: no permission).
 * Opens, writes nothing. */
const char *scratch_read_only(const char *path, char *why, size_t len);

/* The full check before a write phase, on an fd open for writing (O_DIRECT or not):
 * scratch_may_write(path), then the header MiB re-read from the medium with O_DIRECT (falls
 * back to a plain read where O_DIRECT is refused) just as --make-scratch left it
 * (scratch_read()), and its size within the device. 0 and *h, else -errno (-EPERM: unsigned,
 * or signed and written over since) with the reason in err. */
int scratch_check(int fd, const char *path, struct scratch_hdr *h, char *err, size_t errlen);

/* Sign path (created if missing; a regular file grows to size): zero the header MiB, fill
 * [data_off, size) with pseudo-random bytes (so reads touch real blocks, never holes),
 * write the header, fsync. Refuses what scratch_may_write() refuses, and anything that is
 * not ours to overwrite: an existing target that holds data and no scratch signature
 * (-EEXIST: a regular file with any non-zero byte, a block device with one in its first MiB,
 * a signed one whose header MiB was written over since: scratch_read()'s -ESTALE),
 * a regular file without write permission bits (-EACCES), a size its file system has no
 * room for (-ENOSPC, checked before writing). A file it created is removed again on any
 * failure; size 0 ("all") needs an existing target. 0 or -errno, the reason in err. */
int scratch_make(const char *path, uint64_t size, struct scratch_hdr *out, char *err,
		 size_t errlen);

#endif
