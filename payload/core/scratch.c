/* scratch.c — the scratch signature and the checks before a write (scratch.h). */
#define _GNU_SOURCE
#include "scratch.h"
#include "crc32.h"
#include "num.h"
#include "../pid1/resultsfile.h"
#include "../sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define BLKGETSIZE64_ _IOR(0x12, 114, size_t)	/* include/uapi/linux/fs.h BLKGETSIZE64 */
#define BLKROGET_ _IO(0x12, 94)			/* include/uapi/linux/fs.h BLKROGET */
#define HDR_CRC_OFF 40
#define SCRATCH_HDR_LEN 44	/* the header's bytes: zeros follow to data_off */

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

void scratch_encode(const struct scratch_hdr *h, unsigned char *blk)
{
	memset(blk, 0, SCRATCH_BLOCK);
	memcpy(blk, SCRATCH_MAGIC, 16);
	put32(blk + 16, h->version);
	put32(blk + 20, h->data_off);
	put64(blk + 24, h->size);
	put64(blk + 32, h->id);
	put32(blk + HDR_CRC_OFF, crc32_ieee(blk, HDR_CRC_OFF));
}

int scratch_decode(const unsigned char *blk, struct scratch_hdr *h, char *err, size_t errlen)
{
	if (memcmp(blk, SCRATCH_MAGIC, 16)) {
		snprintf(err, errlen, "no scratch signature (isobench --make-scratch writes one)");
		return -EINVAL;
	}
	if (get_le(blk + HDR_CRC_OFF, 4) != crc32_ieee(blk, HDR_CRC_OFF)) {
		snprintf(err, errlen, "scratch signature damaged (CRC mismatch)");
		return -EINVAL;
	}
	h->version = (uint32_t)get_le(blk + 16, 4);
	h->data_off = (uint32_t)get_le(blk + 20, 4);
	h->size = get_le(blk + 24, 8);
	h->id = get_le(blk + 32, 8);
	if (h->version != SCRATCH_VERSION || h->data_off != SCRATCH_DATA_OFF ||
	    h->size < SCRATCH_MIN_SIZE) {
		snprintf(err, errlen, "scratch signature of version %u, data at %u, size %llu: not "
			 "one this build writes to", h->version, h->data_off,
			 (unsigned long long)h->size);
		return -EINVAL;
	}
	return 0;
}

/* Labels other tools write inside the header MiB, past our 44 bytes, to name in a refusal.
 * Sources: LVM2 lib/label/label.h (LABEL_ID "LABELONE", sector 1); Linux
 * include/linux/swap.h (union swap_header: the magic in the last 10 bytes of the first
 * 4 KiB page); e2fsprogs lib/ext2fs/ext2_fs.h (s_magic 0xEF53 at superblock + 56, the
 * superblock at 1024); Linux include/uapi/linux/raid/md_p.h (MD_SB_MAGIC, v1.2 at 4 KiB);
 * xfsprogs libxfs/xfs_format.h (XFS_AGF_MAGIC "XAGF" in sector 1; the superblock's "XFSB"
 * is at byte 0, where it already replaces ours); btrfs ctree.h (BTRFS_MAGIC "_BHRfS_M" at
 * superblock + 64, the superblock at 64 KiB);
 * OpenZFS include/sys/uberblock_impl.h (UBERBLOCK_MAGIC 0x00bab10c, first uberblock 128 KiB
 * into each 256 KiB label; L0 at 0, L1 at 256 KiB). */
static const struct {
	size_t off, len;
	const char *bytes, *what;
} foreign_labels[] = {
	{512, 8, "LABELONE", "an LVM2 physical volume label (LABELONE, sector 1)"},
	{512, 4, "XAGF", "an XFS allocation group header (XAGF at sector 1)"},
	{1080, 2, "\x53\xef", "an ext2/3/4 superblock (0xEF53 at byte 1080)"},
	{4086, 10, "SWAPSPACE2", "a swap signature (SWAPSPACE2 at byte 4086)"},
	{4086, 10, "SWAP-SPACE", "a swap signature (SWAP-SPACE at byte 4086)"},
	{4096, 4, "\xfc\x4e\x2b\xa9", "an MD RAID 1.2 superblock (0xa92b4efc at byte 4096)"},
	{65600, 8, "_BHRfS_M", "a btrfs superblock (_BHRfS_M at 64 KiB + 64)"},
	{131072, 8, "\x0c\xb1\xba\0\0\0\0\0", "a ZFS label (uberblock 0x00bab10c at 128 KiB)"},
	{393216, 8, "\x0c\xb1\xba\0\0\0\0\0", "a ZFS label (uberblock 0x00bab10c at 384 KiB)"},
};

int scratch_decode_mib(const unsigned char *mib, size_t len, struct scratch_hdr *h, char *err,
		       size_t errlen)
{
	int r = scratch_decode(mib, h, err, errlen);

	if (r)
		return r;
	if (len < h->data_off) {
		snprintf(err, errlen, "only %zu bytes of the %u-byte header MiB could be read", len,
			 h->data_off);
		return -ENODATA;
	}
	size_t at = SCRATCH_HDR_LEN;
	while (at < h->data_off && !mib[at])
		at++;
	if (at == h->data_off)
		return 0;
	const char *what = "data of a kind this build cannot name";
	for (size_t i = 0; i < sizeof foreign_labels / sizeof foreign_labels[0]; i++)
		if (!memcmp(mib + foreign_labels[i].off, foreign_labels[i].bytes,
			    foreign_labels[i].len)) {
			what = foreign_labels[i].what;
			break;
		}
	snprintf(err, errlen, "byte %zu of the header MiB is 0x%02x, not 0 as --make-scratch left "
		 "it: %s", at, mib[at], what);
	return -ESTALE;
}

int scratch_read(int fd, struct scratch_hdr *h, char *err, size_t errlen)
{
	static unsigned char mib[SCRATCH_DATA_OFF] __attribute__((aligned(SCRATCH_BLOCK)));
	size_t got = 0;

	while (got < sizeof mib) {
		ssize_t n = pread(fd, mib + got, sizeof mib - got, (off_t)got);
		if (n < 0) {
			snprintf(err, errlen, "reading the header MiB: %s", strerror(errno));
			return -errno;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got < SCRATCH_BLOCK) {
		snprintf(err, errlen, "no scratch signature (the medium holds %zu bytes)", got);
		return -EINVAL;
	}
	return scratch_decode_mib(mib, got, h, err, errlen);
}

int64_t scratch_fd_size(int fd)
{
	struct stat st;
	uint64_t sz;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISREG(st.st_mode))
		return st.st_size;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	if (ioctl(fd, BLKGETSIZE64_, &sz))
		return -errno;
	return (int64_t)sz;
}

/* ---- may this device be written at all ---- */

/* The whole disk's sysfs dir and its partitions' names: names[0] is the disk. */
struct disk_family {
	char disk[PATH_MAX];
	char names[64][64];
	dev_t devs[64];
	int n;
};

/* The device number in dir/name/dev ("MAJ:MIN") into *out: 1, or 0 when unreadable. */
static unsigned dev_file(const char *dir, const char *name, dev_t *out)
{
	char rel[300], v[32], *colon;
	unsigned long long ma, mi;
	snprintf(rel, sizeof rel, "%.255s/dev", name);
	colon = strchr(sysfs_line(dir, rel, v, sizeof v), ':');
	if (colon)
		*colon = 0;
	int ok = colon && !num_ull(v, 0, 0, UINT_MAX, &ma) && !num_ull(colon + 1, 0, 0, UINT_MAX, &mi);
	if (ok)
		*out = makedev(ma, mi);
	return (unsigned)ok;
}

static int family_of(const char *dir, struct disk_family *fam)
{
	snprintf(fam->disk, sizeof fam->disk, "%s", dir);
	if (sysfs_has(dir, "partition"))
		*strrchr(fam->disk, '/') = 0;
	const char *base = strrchr(fam->disk, '/') + 1;
	char up[PATH_MAX];
	snprintf(up, sizeof up, "%.*s", (int)(base - 1 - fam->disk), fam->disk);
	fam->n = 0;
	if (!dev_file(up, base, &fam->devs[0]))
		return -ENODEV;
	snprintf(fam->names[fam->n++], sizeof fam->names[0], "%.63s", base);
	DIR *d = opendir(fam->disk);
	struct dirent *e;
	while (d && (e = readdir(d)) && fam->n < 64) {
		char sub[PATH_MAX + 64];
		snprintf(sub, sizeof sub, "%.2000s/%.255s", fam->disk, e->d_name);
		if (e->d_name[0] != '.' && sysfs_has(sub, "partition") &&
		    dev_file(fam->disk, e->d_name, &fam->devs[fam->n]))
			snprintf(fam->names[fam->n++], sizeof fam->names[0], "%.63s", e->d_name);
	}
	if (d)
		closedir(d);
	return 0;
}

/* The mount point of a device of fam, or NULL. */
static const char *mounted(const struct disk_family *fam, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char line[1024];
	const char *hit = NULL;

	while (f && !hit && fgets(line, sizeof line, f)) {
		char src[512], dst[512];
		struct stat st;
		if (sscanf(line, "%511s %511s", src, dst) != 2 || stat(src, &st) ||
		    !S_ISBLK(st.st_mode))
			continue;
		for (int i = 0; i < fam->n; i++)
			if (st.st_rdev == fam->devs[i]) {
				snprintf(where, len, "/dev/%s is mounted on %s", fam->names[i], dst);
				hit = where;
			}
	}
	if (f)
		fclose(f);
	return hit;
}

/* 1 when /dev/name holds an ISO 9660 volume ("CD001" at byte 0x8001). */
static int iso9660(const char *name)
{
	char p[96], b[6] = {0};
	snprintf(p, sizeof p, "/dev/%s", name);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? pread(fd, b, 5, 0x8001) : -1;
	if (fd >= 0)
		close(fd);
	return n == 5 && !memcmp(b, "CD001", 5);
}

/* Why fam may not be written (mounted, held, the boot medium, the results partition), or
 * NULL. self is the index of the device named (0: the disk itself). */
static const char *family_refusal(const struct disk_family *fam, int self, char *why,
				  size_t len)
{
	char p[PATH_MAX + 64];

	if (mounted(fam, why, len))
		return why;
	if (self == 0 && fam->n > 1) {
		snprintf(why, len, "/dev/%s has partitions (a scratch disk has none)", fam->names[0]);
		return why;
	}
	for (int i = 0; i < fam->n; i++) {
		snprintf(p, sizeof p, "%.2000s/%.255s", fam->disk, i ? fam->names[i] : "");
		if (sysfs_count(p, "holders", NULL) > 0) {
			snprintf(why, len, "/dev/%s is held by another device (holders/)",
				 fam->names[i]);
			return why;
		}
		snprintf(p, sizeof p, "/dev/%s", fam->names[i]);
		if (resultsfile_labelled(p) || iso9660(fam->names[i])) {
			snprintf(why, len, "/dev/%s is the boot medium or the results partition "
				 "(isobench image)", fam->names[i]);
			return why;
		}
	}
	return NULL;
}

int scratch_may_write(const char *path, char *err, size_t errlen)
{
	static struct disk_family fam;
	char dir[PATH_MAX];
	struct stat st;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISREG(st.st_mode))
		return 0;
	if (!S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s is neither a block device nor a regular file", path);
		return -ENOTBLK;
	}
	if (sysfs_block_dir(st.st_rdev, 0, dir, sizeof dir) || family_of(dir, &fam)) {
		snprintf(err, errlen, "%s: not found in /sys/dev/block", path);
		return -ENODEV;
	}
	int self = 0;
	for (int i = 0; i < fam.n; i++)
		if (fam.devs[i] == st.st_rdev)
			self = i;
	if (family_refusal(&fam, self, err, errlen))
		return -EBUSY;
	return 0;
}

const char *scratch_read_only(const char *path, char *why, size_t len)
{
	int ro = 0, fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && ioctl(fd, BLKROGET_, &ro) == 0 && ro) {
		close(fd);
		snprintf(why, len, "%.120s is read-only (BLKROGET: the kernel marks the device so)",
			 path);
		return why;
	}
	if (fd >= 0)
		close(fd);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return NULL;
	}
	int e = errno;
	if (e != EROFS && e != EACCES && e != EPERM)
		return NULL;	/* not a read-only medium: the write phase reports what it is */
	snprintf(why, len, "%.120s cannot be opened for writing: %s (%s)", path, strerror(e),
		 e == EROFS ? "EROFS" : e == EACCES ? "EACCES" : "EPERM");
	return why;
}

/* ---- the signature on the medium ---- */

int scratch_check(int fd, const char *path, struct scratch_hdr *h, char *err, size_t errlen)
{
	int r = scratch_may_write(path, err, errlen);
	char why[240];

	if (r)
		return r;
	/* The header MiB as the medium holds it now: a direct read, not a cached copy. */
	int dfd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	r = scratch_read(dfd >= 0 ? dfd : fd, h, why, sizeof why);
	if (dfd >= 0)
		close(dfd);
	if (r == -EINVAL || r == -ESTALE) {
		snprintf(err, errlen, "%.200s", why);
		return -EPERM;
	}
	if (r) {
		snprintf(err, errlen, "%s: %s", path, why);
		return r;
	}
	int64_t sz = scratch_fd_size(fd);
	if (sz < 0 || (uint64_t)sz < h->size) {
		snprintf(err, errlen, "%s: signed for %llu bytes but holds %lld", path,
			 (unsigned long long)h->size, (long long)sz);
		return -EPERM;
	}
	return 0;
}

/* Fill [off, end) of fd with xorshift64 bytes (a zeroed header MiB before). */
static int fill(int fd, uint64_t end, uint64_t seed)
{
	static unsigned char buf[SCRATCH_DATA_OFF] __attribute__((aligned(SCRATCH_BLOCK)));

	memset(buf, 0, sizeof buf);
	for (uint64_t off = 0; off < end; off += sizeof buf) {
		size_t len = end - off < sizeof buf ? (size_t)(end - off) : sizeof buf;
		if (off) {
			uint64_t *w = (uint64_t *)(void *)buf;
			for (size_t i = 0; i < sizeof buf / 8; i++) {
				seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
				w[i] = seed;
			}
		}
		if (pwrite(fd, buf, len, (off_t)off) != (ssize_t)len)
			return errno ? -errno : -EIO;
	}
	return 0;
}

/* Open path for signing: O_DIRECT where the filesystem allows it, created if missing. */
static int open_for_make(const char *path, uint64_t *size, char *err, size_t errlen)
{
	int fd = open(path, O_RDWR | O_CREAT | O_DIRECT | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	int64_t have = scratch_fd_size(fd);
	struct stat st;
	fstat(fd, &st);
	if (!*size)
		*size = have > 0 ? (uint64_t)have : 0;
	if (S_ISBLK(st.st_mode) && (have < 0 || (uint64_t)have < *size)) {
		snprintf(err, errlen, "%s holds %lld bytes, fewer than %llu", path, (long long)have,
			 (unsigned long long)*size);
		close(fd);
		return -ENOSPC;
	}
	*size &= ~(uint64_t)(SCRATCH_BLOCK - 1);
	if (*size < SCRATCH_MIN_SIZE) {
		snprintf(err, errlen, "%s: %llu bytes is less than the %u a scratch area needs",
			 path, (unsigned long long)*size, SCRATCH_MIN_SIZE);
		close(fd);
		return -EINVAL;
	}
	return fd;
}

/* ---- is an existing target ours to overwrite ---- */

/* 1 when [from, to) of fd holds a byte that is not zero; holes of a regular file are skipped
 * (SEEK_DATA), so a file made by truncate(1) is scanned in no time. -errno on a read error. */
static int nonzero_in(int fd, int64_t from, int64_t to, int sparse)
{
	static unsigned char buf[1 << 16] __attribute__((aligned(SCRATCH_BLOCK)));

	for (int64_t off = from; off < to;) {
		if (sparse) {
			off_t d = lseek(fd, (off_t)off, SEEK_DATA);
			if (d < 0)
				return errno == ENXIO ? 0 : nonzero_in(fd, off, to, 0);
			off = d;
			if (off >= to)
				return 0;
		}
		size_t len = to - off < (int64_t)sizeof buf ? (size_t)(to - off) : sizeof buf;
		ssize_t n = pread(fd, buf, len, (off_t)off);
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		for (ssize_t i = 0; i < n; i++)
			if (buf[i])
				return 1;
		off += n;
	}
	return 0;
}

/* 0 when fd (buffered) is signed, its header MiB as --make-scratch left it, or holds only
 * zeros where it looks: a regular file all of it (empty, truncate(1), qemu-img create), a
 * block device its first MiB (where partition tables and file-system, LVM, RAID and swap
 * headers live). 1 when it holds data, 2 when it is signed but its header MiB was written
 * since (why says what is there), -errno on a read error. */
static int ours_or_zero(int fd, int reg, char *why, size_t len)
{
	struct scratch_hdr h;
	int64_t size = scratch_fd_size(fd);

	if (size < 0)
		return (int)size;
	int r = scratch_read(fd, &h, why, len);
	if (r == 0)
		return 0;	/* ours already: signed again */
	if (r == -ESTALE)
		return 2;
	return nonzero_in(fd, 0, reg || size < SCRATCH_DATA_OFF ? size : SCRATCH_DATA_OFF, reg);
}

/* May --make-scratch overwrite the existing path (stat st)? Only what ours_or_zero() allows;
 * anything else is somebody's data: -EEXIST with the way out in err. A regular file without
 * any write permission bit is refused too (root would write it anyway). */
static int ours_to_overwrite(const char *path, const struct stat *st, char *err,
			     size_t errlen)
{
	int reg = S_ISREG(st->st_mode);

	if (reg && !(st->st_mode & 0222)) {
		snprintf(err, errlen, "%s is read-only (mode %04o): not overwritten", path,
			 (unsigned)(st->st_mode & 07777));
		return -EACCES;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);	/* buffered: any length, any offset */
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	char why[240];
	int r = ours_or_zero(fd, reg, why, sizeof why);
	close(fd);
	if (r == 2) {
		snprintf(err, errlen, "%s: %s: not overwritten (if it is yours to lose, %s)", path,
			 why, reg ? "remove the file first" : "zero its first MiB first: dd "
			 "if=/dev/zero of=DEVICE bs=1M count=1");
		return -EEXIST;
	}
	if (r == 1) {
		snprintf(err, errlen, "%s holds data and no scratch signature: not overwritten (%s)",
			 path, reg ? "remove the file first if it is yours to lose" :
			 "if it is yours to lose, zero its first MiB first: dd if=/dev/zero "
			 "of=DEVICE bs=1M count=1");
		return -EEXIST;
	}
	if (r < 0)
		snprintf(err, errlen, "%s: reading what it holds: %s", path, strerror(-r));
	return r;
}

/* Is there room for a regular file fd to grow to size? -ENOSPC with err when not, before
 * anything is written (a full file system under a half-signed file helps nobody). */
static int room_for(int fd, const char *path, uint64_t size, char *err, size_t errlen)
{
	struct statvfs vf;
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || fstatvfs(fd, &vf))
		return 0;
	uint64_t have = (uint64_t)st.st_blocks * 512, free_b = (uint64_t)vf.f_bavail * vf.f_frsize;
	if (size > have && size - have > free_b) {
		snprintf(err, errlen, "%s: %llu bytes do not fit: its file system has %llu free",
			 path, (unsigned long long)size, (unsigned long long)free_b);
		return -ENOSPC;
	}
	return 0;
}

/* Undo a failed signing of a regular file: remove it when we created it, else cut it back
 * to the size it had (its first MiB was zeros or an old signature: now zeros). */
static void undo_make(int fd, const char *path, int created, off_t old_size)
{
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return;
	if (created)
		unlink(path);
	else if (ftruncate(fd, old_size))
		return;
}

int scratch_make(const char *path, uint64_t size, struct scratch_hdr *out, char *err,
		 size_t errlen)
{
	static unsigned char blk[SCRATCH_BLOCK] __attribute__((aligned(SCRATCH_BLOCK)));
	struct stat st;
	int r, created = stat(path, &st) != 0;

	if (!created && (r = scratch_may_write(path, err, errlen)))
		return r;
	if (created && size && (size & ~(uint64_t)(SCRATCH_BLOCK - 1)) < SCRATCH_MIN_SIZE) {
		snprintf(err, errlen, "%s: %llu bytes is less than the %u a scratch area needs",
			 path, (unsigned long long)size, SCRATCH_MIN_SIZE);
		return -EINVAL;
	}
	if (created && !size) {
		snprintf(err, errlen, "%s does not exist: \"all\" needs an existing file or device",
			 path);
		return -ENOENT;
	}
	int fd = open_for_make(path, &size, err, errlen);
	if (fd < 0) {
		if (created)
			unlink(path);
		return fd;
	}
	if ((!created && (r = ours_to_overwrite(path, &st, err, errlen))) ||
	    (r = room_for(fd, path, size, err, errlen))) {
		if (created)
			unlink(path);
		close(fd);
		return r;
	}
	struct scratch_hdr h = {SCRATCH_VERSION, SCRATCH_DATA_OFF, size, 0};
	if (getrandom(&h.id, sizeof h.id, 0) != (ssize_t)sizeof h.id)
		h.id = (uint64_t)getpid() << 32 ^ (uint64_t)time(NULL);
	r = fill(fd, size, h.id | 1);
	scratch_encode(&h, blk);
	if (!r && pwrite(fd, blk, SCRATCH_BLOCK, 0) != (ssize_t)SCRATCH_BLOCK)
		r = errno ? -errno : -EIO;
	if (!r && fsync(fd))
		r = -errno;
	if (r)
		undo_make(fd, path, created, created ? 0 : st.st_size);
	close(fd);
	if (r) {
		snprintf(err, errlen, "%s: writing: %s", path, strerror(-r));
		return r;
	}
	*out = h;
	return 0;
}
