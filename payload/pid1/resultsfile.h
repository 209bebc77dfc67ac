/* resultsfile.h — the run's log as a file on the image's own FAT partition (issue 11 item 3).
 *
 * Booted from the hybrid image as a disk (USB stick, SATA, NVMe, virtio), the image's EFI
 * system partition is writable. It is found by what identifies it uniquely: a FAT boot
 * sector whose volume label is ISOBENCHEFI and whose volume serial is the CRC-32 of this
 * image's identity (isobench.image=; image/build-iso.sh writes the same serial). Only that
 * partition is mounted read-write; other disks are read (one boot sector each), never
 * mounted, never written. Two partitions that both match (two sticks of one image) are
 * ambiguous: nothing is written.
 *
 * In:  image, the identity; the console stream (out.c) holds the log.
 * Out: ISOBENCH/RESULTS/<utc>-<run>.LOG on that partition, synced and unmounted; msg gets
 *      one line for the console ("written to sdb2:/ISOBENCH/RESULTS/...", or why not).
 *      Returns 0 when written, 1 when there is no such partition (booted as a CD, by
 *      network, directly), -1 on an error.
 */
#ifndef ISOBENCH_RESULTSFILE_H
#define ISOBENCH_RESULTSFILE_H

#include <stddef.h>
#include <stdint.h>

int resultsfile_write(const char *image, char *msg, size_t msglen);
/* The FAT volume serial for an identity: CRC-32 (IEEE) of its bytes. */
uint32_t resultsfile_serial(const char *image);

/* 1 when dev's first sector is a FAT boot sector labelled as the results partition's, of any
 * image (the scratch disk's refusal: scratch.c); 0 otherwise. Read-only. */
int resultsfile_labelled(const char *dev);

#endif
