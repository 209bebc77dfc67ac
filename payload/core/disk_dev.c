/* disk_dev.c — which disk the disk group uses, and the device truth of the machine header
 * (disk.h). Everything here reads: sysfs, and the first MiB (the scratch header MiB) of the
 * disks it looks at.
 *
 * Device truth, from sysfs (Documentation/ABI/stable/sysfs-block): the medium's queue
 * (logical/physical block size, rotational, nr_requests as the queue depth, the number of
 * hardware queues under mq/, the scheduler, write_cache, fua), the device's model, firmware and
 * serial (SCSI/ATA: model, rev, vpd_pg80; NVMe: model, firmware_rev, serial; virtio-blk:
 * serial), the first driver bound above the disk (virtio_blk, sd, nvme) and the PCI function
 * above it: the storage controller as the guest sees it (vendor:device IDs, its driver:
 * virtio-pci, ahci, nvme, vmw_pvscsi, mpt3sas, ...). For a file: the device its filesystem
 * is on. From the same facts, what the disk is (disk.h enum disk_media, disk_media_of()): the
 * read floor of the disk tests' judge. */
#define _GNU_SOURCE
#include "disk_dev.h"
#include "../benchapi.h"
#include "../params.h"
#include "../sys.h"
#include "../sysfs.h"
#include "record.h"
#include "vocab.h"
#include "io.h"
#include "num.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static struct disk_sel current;

const struct disk_sel *disk_current(void)
{
	return current.resolved ? &current : NULL;
}

/* Read the header MiB of path (scratch_read()): 1 signed and as --make-scratch left it,
 * 0 not signed, -ESTALE signed but written over since (why says where and by what, when why
 * is not NULL), other -errno. */
static int read_signature(const char *path, struct scratch_hdr *h, char *why, size_t len)
{
	char err[240];
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int r = scratch_read(fd, h, err, sizeof err);
	close(fd);
	if (r == -ESTALE && why)
		snprintf(why, len, "%s", err);
	return r == 0 ? 1 : r == -ESTALE ? r : 0;
}

/* The serial number the kernel shows for disk dir (virtio, NVMe, SCSI/ATA VPD page 0x80). */
static const char *serial_of(const char *dir, char *buf, size_t len)
{
	if (strcmp(sysfs_line(dir, "serial", buf, len), "-") ||
	    strcmp(sysfs_line(dir, "device/serial", buf, len), "-"))
		return buf;
	char p[PATH_MAX + 32];
	unsigned char v[256];
	snprintf(p, sizeof p, "%s/device/vpd_pg80", dir);
	ssize_t n = read_file(p, v, sizeof v - 1);
	snprintf(buf, len, "-");
	if (n > 4) {	/* SPC: 4-byte header, then the serial, space padded */
		v[n] = 0;
		snprintf(buf, len, "%s", (char *)v + 4 + strspn((char *)v + 4, " "));
		for (size_t k = strlen(buf); k && buf[k - 1] == ' '; k--)
			buf[k - 1] = 0;
	}
	return buf;
}

/* Scan /sys/class/block: auto (want NULL) keeps the signed ones, serial:XYZ the disk whose
 * serial is want. Returns how many matched, the first in path. */
static int scan(const char *want, char *path, size_t len, char *names, size_t nlen)
{
	DIR *d = opendir("/sys/class/block");
	struct dirent *e;
	int n = 0;

	names[0] = 0;
	while (d && (e = readdir(d))) {
		char dev[300], dir[PATH_MAX + 300], ser[128];
		struct scratch_hdr h;
		if (e->d_name[0] == '.')
			continue;
		snprintf(dev, sizeof dev, "/dev/%s", e->d_name);
		snprintf(dir, sizeof dir, "/sys/class/block/%s", e->d_name);
		if (want ? strcmp(serial_of(dir, ser, sizeof ser), want) != 0
			 : read_signature(dev, &h, NULL, 0) != 1)
			continue;
		if (n++ == 0)
			snprintf(path, len, "%.250s", dev);
		size_t l = strlen(names);
		snprintf(names + l, nlen - l, "%s%s", l ? ", " : "", e->d_name);
	}
	if (d)
		closedir(d);
	return n;
}

/* isobench.disk= into s->path, or s->reason. */
static void resolve_path(const struct params *p, struct disk_sel *s)
{
	char names[160];
	int n;

	if (strcmp(p->disk, "auto") && strncmp(p->disk, "serial:", 7)) {
		snprintf(s->path, sizeof s->path, "%s", p->disk);
		return;
	}
	int byserial = p->disk[0] == 's';
	n = scan(byserial ? p->disk + 7 : NULL, s->path, sizeof s->path, names, sizeof names);
	if (n == 1)
		return;
	s->path[0] = 0;
	if (!n && byserial)
		snprintf(s->reason, sizeof s->reason, "no disk with serial %s", p->disk + 7);
	else if (!n)
		snprintf(s->reason, sizeof s->reason, "no disk named (isobench.disk= or --disk) and "
			 "no disk signed by isobench --make-scratch found");
	else
		snprintf(s->reason, sizeof s->reason, "%d disks match (%s): name one with "
			 "isobench.disk=", n, names);
}

/* Whether a write phase would be allowed on the signed s->path: its own check,
 * scratch_check() (mounted, boot medium, signature, a size the medium still holds), then
 * whether it can be written at all (scratch_read_only(): a read-only device or mount), so the
 * header's disk.writes never says "allowed" where the write tests then refuse. */
static void writes_verdict(struct disk_sel *s)
{
	struct scratch_hdr h;
	int fd = open(s->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(s->no_write, sizeof s->no_write, "%.120s: %s", s->path, strerror(errno));
		return;
	}
	char why[200];
	if (scratch_check(fd, s->path, &h, s->no_write, sizeof s->no_write) == 0)
		s->no_write[0] = 0;
	close(fd);
	if (!s->no_write[0] && scratch_read_only(s->path, why, sizeof why))
		snprintf(s->no_write, sizeof s->no_write, "refused: %s; read tests only", why);
}

static void span_of(const struct params *p, struct disk_sel *s);

/* Size, signature, span and whether writes are allowed, for s->path: an unsigned device
 * that may never be written (the boot medium, mounted, partitioned, held: scratch.c's
 * scratch_may_write()) is refused for that reason, not for lacking a signature. */
static void probe(const struct params *p, struct disk_sel *s)
{
	struct stat st;
	char dir[PATH_MAX], why[240];

	int fd = open(s->path, O_RDONLY | O_CLOEXEC);
	int64_t sz = fd >= 0 ? scratch_fd_size(fd) : -errno;
	if (fd >= 0)
		close(fd);
	if (sz < 0 || stat(s->path, &st)) {
		snprintf(s->reason, sizeof s->reason, "%.120s: %s", s->path, strerror((int)-sz));
		s->path[0] = 0;
		return;
	}
	s->size = (uint64_t)sz;
	s->is_file = S_ISREG(st.st_mode);
	int sig = read_signature(s->path, &s->hdr, why, sizeof why);
	s->signed_ok = sig == 1;
	dev_t dev = s->is_file ? st.st_dev : st.st_rdev;
	disk_media_of(sysfs_block_dir(dev, 1, dir, sizeof dir) == 0 ? dir : NULL, s);
	char held[200];
	if (s->signed_ok)
		writes_verdict(s);
	else if (scratch_may_write(s->path, held, sizeof held))	/* boot medium, mounted... */
		snprintf(s->no_write, sizeof s->no_write, "refused: %.200s; read tests only", held);
	else if (sig == -ESTALE)	/* signed once, somebody's since: never to be signed over */
		snprintf(s->no_write, sizeof s->no_write, "refused: %s", why);
	else	/* ...is never to be signed: only a disk signing could make writable is told so */
		snprintf(s->no_write, sizeof s->no_write, "refused: %.120s carries no scratch signature "
			 "(isobench --make-scratch PATH SIZE writes one); read tests only", s->path);
	span_of(p, s);
}

/* Where the random offsets fall: the scratch area (the whole device or file when unsigned),
 * or isobench.disk.span= of it, in whole MiBs; a span asked that could not be taken as it
 * is (larger than the area, not whole MiBs) is said in s->span_note. */
static void span_of(const struct params *p, struct disk_sel *s)
{
	s->span_off = s->signed_ok ? s->hdr.data_off : 0;
	uint64_t end = s->signed_ok && s->hdr.size < s->size ? s->hdr.size : s->size;
	uint64_t area = end > s->span_off ? end - s->span_off : 0, asked = 0;
	s->span_len = area;
	if (p->disk_span > 0)
		s->span_len = (asked = (uint64_t)p->disk_span) < area ? asked : area;
	s->span_len &= ~(uint64_t)(SCRATCH_DATA_OFF - 1);	/* whole MiBs: 1 MiB I/O fits */
	if (asked > area)
		snprintf(s->span_note, sizeof s->span_note, "isobench.disk.span=%llu bytes is larger "
			 "than %s (%llu bytes): clamped to it", (unsigned long long)asked,
			 s->signed_ok ? "the scratch area" : s->is_file ? "the file" : "the disk",
			 (unsigned long long)area);
	else if (asked && s->span_len != asked)
		snprintf(s->span_note, sizeof s->span_note, "isobench.disk.span=%llu bytes rounded "
			 "down to whole MiB (1 MiB I/O fits): %llu", (unsigned long long)asked,
			 (unsigned long long)s->span_len);
}

void disk_select(const struct params *p, struct disk_sel *s)
{
	memset(s, 0, sizeof *s);
	s->resolved = 1;
	s->seed = (uint64_t)p->disk_seed;
	snprintf(s->asked, sizeof s->asked, "%s", p->disk);
	resolve_path(p, s);
	if (s->path[0])
		probe(p, s);
}

/* 1 when name is a PCI address (DDDD:BB:DD.F: domain, bus, device, function in hex). */
static int pci_name(const char *name)
{
	char s[64], *part[4];
	unsigned long long v;
	int n = 0;
	if (strlen(name) >= sizeof s)
		return 0;
	snprintf(s, sizeof s, "%s", name);
	for (char *p = s, *q; n < 4; p = q + 1) {	/* cut at ':', ':', '.' */
		part[n++] = p;
		q = n < 4 ? strchr(p, n < 3 ? ':' : '.') : NULL;
		if (!q)
			break;
		*q = 0;
	}
	if (n != 4)
		return 0;
	for (int i = 0; i < 4; i++)
		if (num_ull(part[i], NUM_XDIGITS, 0, UINT_MAX, &v))
			return 0;
	return 1;
}

/* What stands above a disk in sysfs: the first driver bound from its device upwards (the
 * disk's: virtio_blk, sd, nvme) and the PCI function above it (the controller): its
 * vendor:device IDs, slot and driver; "-" where there is none. */
struct ctrl_facts {
	char drv[64], ctrl_drv[64], pci[48], slot[64];
};

static void find_ctrl(const char *disk, struct ctrl_facts *f)
{
	char dir[PATH_MAX], p[PATH_MAX + 16], v[32], d[32];
	int have_drv = 0;

	snprintf(f->drv, sizeof f->drv, "-");
	snprintf(f->ctrl_drv, sizeof f->ctrl_drv, "-");
	f->pci[0] = f->slot[0] = 0;
	snprintf(p, sizeof p, "%s/device", disk);
	if (!realpath(p, dir))
		snprintf(dir, sizeof dir, "%s", disk);
	for (char *slash; dir[0] && strcmp(dir, "/sys/devices"); *slash = 0) {
		if (!have_drv && sysfs_link_base(dir, "driver", f->drv, sizeof f->drv))
			have_drv = 1;
		const char *base = strrchr(dir, '/') + 1;
		if (pci_name(base) && strcmp(sysfs_line(dir, "vendor", v, sizeof v), "-")) {
			sysfs_line(dir, "device", d, sizeof d);
			snprintf(f->pci, sizeof f->pci, "%s:%s", v + (v[1] == 'x' ? 2 : 0),
				 d + (d[1] == 'x' ? 2 : 0));
			snprintf(f->slot, sizeof f->slot, "%s", base);
			if (!sysfs_link_base(dir, "driver", f->ctrl_drv, sizeof f->ctrl_drv))
				snprintf(f->ctrl_drv, sizeof f->ctrl_drv, "-");
			break;
		}
		if (!(slash = strrchr(dir, '/')) || slash == dir)
			break;
	}
	if (!have_drv)
		snprintf(f->drv, sizeof f->drv, "-");
}

static void controller(const char *disk, struct rec_body *b)
{
	struct ctrl_facts f;

	find_ctrl(disk, &f);
	if (f.pci[0]) {
		rec_str(b, RK_DISK_PCI, f.pci);
		rec_str(b, RK_DISK_PCI_SLOT, f.slot);
		rec_str(b, RK_DISK_CTRL_DRIVER, f.ctrl_drv);
	}
	rec_str(b, RK_DISK_DRIVER, f.drv);
}

/* Why the disk at sysfs dir (named name, its drivers in f, model and vendor) is virtual or
 * stacked, so that its rotational flag is not a medium's; NULL when nothing says so. The
 * hypervisors' own disk names: QEMU's ("QEMU HARDDISK", "QEMU NVMe Ctrl"), VMware's, VirtualBox's
 * ("VBOX HARDDISK"), Hyper-V's ("Msft Virtual Disk"), Xen's, bhyve's, the clouds' (Google
 * PersistentDisk, Amazon Elastic Block Store). */
static const char *virtual_by(const char *dir, const char *name, const struct ctrl_facts *f,
			      const char *model, const char *vendor)
{
	static const char *const hv[] = {"QEMU", "VMware", "VBOX", "Virtual", "Msft", "Xen",
					 "BHYVE", "Google", "Amazon Elastic"};
	if (sysfs_has(dir, "loop"))
		return "a loop device: a file, which the page cache or the disk under it answers";
	if (sysfs_has(dir, "dm"))
		return "a device-mapper target: the devices below it answer";
	if (sysfs_has(dir, "md"))
		return "an md array: its member disks answer";
	if (!strncmp(name, "nbd", 3) || !strncmp(name, "rbd", 3))
		return "a network block device";
	if (!strcmp(f->drv, "virtio_blk") || !strcmp(f->drv, "vbd") ||
	    !strcmp(f->ctrl_drv, "virtio-pci") || !strcmp(f->ctrl_drv, "vmw_pvscsi"))
		return "a virtual disk (its driver): the host's storage or cache answers";
	for (size_t i = 0; i < sizeof hv / sizeof hv[0]; i++)
		if (strstr(model, hv[i]) || strstr(vendor, hv[i]))
			return "a virtual disk (its model): the host's storage or cache answers";
	return NULL;
}

void disk_media_of(const char *dir, struct disk_sel *s)
{
	char model[96], vendor[64];
	struct ctrl_facts f;
	struct statfs sf;

	snprintf(s->write_cache, sizeof s->write_cache, "-");
	snprintf(s->fua, sizeof s->fua, "-");
	s->media = -1;
	s->rotational = 0;
	if (!dir) {
		long magic = statfs(s->path, &sf) == 0 ? (long)sf.f_type : 0;
		s->media = DISK_MEDIA_MEMORY;
		snprintf(s->media_why, sizeof s->media_why, "no block device below the file (its file "
			 "system's magic is 0x%lx%s): memory holds it", (unsigned long)magic,
			 magic == SYS_TMPFS_MAGIC ? ", tmpfs" : "");
		return;
	}
	const char *name = strrchr(dir, '/') + 1;
	char backing[PATH_MAX], rot[16];
	s->rotational = !strcmp(sysfs_line(dir, "queue/rotational", rot, sizeof rot), "1");
	s->loop_file[0] = 0;
	if (strcmp(sysfs_line(dir, "loop/backing_file", backing, sizeof backing), "-"))
		snprintf(s->loop_file, sizeof s->loop_file, "%.159s", backing);
	if (s->loop_file[0] && statfs(backing, &sf) == 0 && (long)sf.f_type == SYS_TMPFS_MAGIC) {
		s->media = DISK_MEDIA_MEMORY;
		snprintf(s->media_why, sizeof s->media_why, "%.32s is a loop device over %.160s, on "
			 "tmpfs: memory holds it", name, backing);
	}
	sysfs_line(dir, "queue/write_cache", s->write_cache, sizeof s->write_cache);
	sysfs_line(dir, "queue/fua", s->fua, sizeof s->fua);
	sysfs_line(dir, "device/model", model, sizeof model);
	sysfs_line(dir, "device/vendor", vendor, sizeof vendor);
	if (s->media == DISK_MEDIA_MEMORY)
		return;
	find_ctrl(dir, &f);
	const char *virt = virtual_by(dir, name, &f, model, vendor);
	int ram = !strncmp(name, "zram", 4) || !strncmp(name, "ram", 3);
	s->media = ram ? DISK_MEDIA_MEMORY : virt ? DISK_MEDIA_VIRTUAL :
		   s->rotational ? DISK_MEDIA_ROTATING : DISK_MEDIA_SOLID;
	snprintf(s->media_why, sizeof s->media_why, "%.32s is %s (driver %.32s, controller %.32s, "
		 "model %.48s, vendor %.24s, rotational=%d)", name, ram ? "a RAM disk" : virt ? virt :
		 s->rotational ? "a physical rotating disk" : "a physical solid-state disk",
		 f.drv, f.ctrl_drv, model, vendor, s->rotational);
}

/* The queue and identity facts of the disk at sysfs dir. */
static void truth(const char *disk, struct rec_body *b)
{
	static const struct {
		const char *key, *rel;
	} q[] = {
		{RK_DISK_LBS, "queue/logical_block_size"}, {RK_DISK_PBS, "queue/physical_block_size"},
		{RK_DISK_ROTATIONAL, "queue/rotational"}, {RK_DISK_QDEPTH, "queue/nr_requests"},
		{RK_DISK_SCHEDULER, "queue/scheduler"}, {RK_DISK_WRITE_CACHE, "queue/write_cache"},
		{RK_DISK_FUA, "queue/fua"}, {RK_DISK_MODEL, "device/model"},
	};
	char v[256];

	rec_str(b, RK_DISK_NAME, strrchr(disk, '/') + 1);
	controller(disk, b);
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
		rec_str(b, q[i].key, sysfs_line(disk, q[i].rel, v, sizeof v));
	if (!strcmp(sysfs_line(disk, "device/firmware_rev", v, sizeof v), "-"))
		sysfs_line(disk, "device/rev", v, sizeof v);
	rec_str(b, RK_DISK_FIRMWARE, v);
	rec_str(b, RK_DISK_SERIAL, serial_of(disk, v, sizeof v));
	int n = sysfs_count(disk, "mq", NULL);
	rec_fmt(b, RK_DISK_QUEUES, n >= 0 ? "%d" : "-", n);
}

void disk_header(const struct params *p, struct rec_body *b)
{
	struct disk_sel *s = &current;
	char dir[PATH_MAX];
	struct stat st;
	struct statfs sf;

	disk_select(p, s);
	rec_str(b, RK_DISK_SELECT, s->asked);
	rec_str(b, RK_DISK_DEVICE, s->path[0] ? s->path : "-");
	if (!s->path[0]) {
		rec_str(b, RK_DISK_REASON, s->reason);
		return;
	}
	rec_str(b, RK_DISK_KIND, s->is_file ? REC_DISK_FILE : REC_DISK_BLOCK);
	rec_str(b, RK_DISK_SIGNED, s->signed_ok ? "1" : "0");
	rec_fmt(b, RK_DISK_SCRATCH_ID, s->signed_ok ? "%016llx" : "-",
		(unsigned long long)s->hdr.id);
	rec_str(b, RK_DISK_WRITES, s->no_write[0] ? s->no_write : "allowed");
	rec_u64(b, RK_DISK_SPAN_OFFSET, s->span_off);
	rec_u64(b, RK_DISK_SPAN_BYTES, s->span_len);
	if (s->span_note[0])
		rec_str(b, RK_DISK_SPAN_NOTE, s->span_note);
	rec_u64(b, RK_DISK_SIZE, s->size);
	if (s->is_file && statfs(s->path, &sf) == 0)
		rec_fmt(b, RK_DISK_FS_MAGIC, "%lx", (unsigned long)sf.f_type);
	if (stat(s->path, &st) == 0 &&
	    sysfs_block_dir(s->is_file ? st.st_dev : st.st_rdev, 1, dir, sizeof dir) == 0)
		truth(dir, b);
}
