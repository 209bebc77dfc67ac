/* resultsfile.c — see resultsfile.h. */
#define _GNU_SOURCE
#include "resultsfile.h"
#include "crc32.h"
#include "io.h"
#include "../out.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MNT "/mnt/isobench-results"
#define LABEL "ISOBENCHEFI"

uint32_t resultsfile_serial(const char *image)
{
	return crc32_ieee(image, strlen(image));
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* 1 if dev's first sector is a FAT boot sector with our label and serial (any serial when
 * any_serial). Read-only. */
static int fat_label(const char *dev, uint32_t serial, int any_serial)
{
	unsigned char bs[512];
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? pread(fd, bs, sizeof bs, 0) : -1;

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof bs || bs[510] != 0x55 || bs[511] != 0xaa)
		return 0;
	/* FAT12/16: extended boot signature 0x29 at 0x26, serial 0x27, label 0x2b.
	 * FAT32 (16-bit sectors-per-FAT 0): signature at 0x42, serial 0x43, label 0x47. */
	const unsigned char *e = (bs[0x16] | bs[0x17]) ? bs + 0x26 : bs + 0x42;
	return e[0] == 0x29 && (any_serial || le32(e + 1) == serial) &&
	       !memcmp(e + 5, LABEL, strlen(LABEL));
}

static int fat_matches(const char *dev, uint32_t serial)
{
	return fat_label(dev, serial, 0);
}

int resultsfile_labelled(const char *dev)
{
	return fat_label(dev, 0, 1);
}

/* Every partition the kernel knows, matched; returns the number of matches, the first in
 * dev. */
static int find(uint32_t serial, char *dev, size_t len)
{
	DIR *d = opendir("/sys/class/block");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		char path[300];
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/sys/class/block/%s/partition", de->d_name);
		if (stat(path, &st))
			continue;	/* a whole disk, not a partition */
		snprintf(path, sizeof path, "/dev/%s", de->d_name);
		if (fat_matches(path, serial) && n++ == 0)
			snprintf(dev, len, "%s", path);
	}
	if (d)
		closedir(d);
	return n;
}

/* A USB mass-storage interface is bound: its disk may still be on the way (usb-storage
 * waits delay_use seconds before scanning). */
static int usb_storage_pending(void)
{
	DIR *d = opendir("/sys/bus/usb/drivers/usb-storage");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += strchr(de->d_name, ':') != NULL;
	if (d)
		closedir(d);
	return n;
}

/* The first 8 hex digits of the run id of the stream's first BEGIN (out_begin() noted it as
 * it wrote it, in this process or the one that forked the watchdog), "norun" without one. */
static void run_id(char *id, size_t len)
{
	const char *run = out_first_run();

	snprintf(id, len, "%.8s", *run ? run : "norun");
}

int resultsfile_write(const char *image, char *msg, size_t msglen)
{
	char dev[300], path[200], id[16], stamp[32];
	static char buf[65536];
	uint32_t serial;
	int n, fd, err = 0;

	if (!image || !*image) {
		snprintf(msg, msglen, "no results file: no image identity (isobench.image=)");
		return 1;
	}
	serial = resultsfile_serial(image);
	n = find(serial, dev, sizeof dev);
	for (int i = 0; !n && usb_storage_pending() && i < 50; i++) {
		struct timespec t = {0, 100000000};
		nanosleep(&t, NULL);
		n = find(serial, dev, sizeof dev);
	}
	if (n == 0) {
		snprintf(msg, msglen, "no results file: this image's FAT partition (%s, serial "
			 "%04X-%04X) is not on any disk", LABEL, serial >> 16, serial & 0xffff);
		return 1;
	}
	if (n > 1) {
		snprintf(msg, msglen, "no results file: %d partitions carry this image's FAT "
			 "serial; writing to none", n);
		return 1;
	}
	mkdir("/mnt", 0755);
	mkdir(MNT, 0755);
	if (mount(dev, MNT, "vfat", MS_NOSUID | MS_NODEV | MS_NOEXEC, "iocharset=iso8859-1")) {
		snprintf(msg, msglen, "no results file: mount %s: %s", dev, strerror(errno));
		return -1;
	}
	mkdir(MNT "/ISOBENCH", 0755);
	mkdir(MNT "/ISOBENCH/RESULTS", 0755);
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	run_id(id, sizeof id);
	snprintf(path, sizeof path, MNT "/ISOBENCH/RESULTS/%s-%s.LOG", stamp, id);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		err = errno;
	for (size_t off = 0; fd >= 0 && !err;) {
		long len = out_stream_read(buf, sizeof buf, off);
		if (len < 0 || (size_t)len <= off)
			break;
		size_t k = (size_t)len - off < sizeof buf ? (size_t)len - off : sizeof buf;
		err = -write_all(fd, buf, k);
		off += k;
	}
	if (fd >= 0 && fsync(fd) && !err)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (umount(MNT) && !err)
		err = errno;
	sync();
	if (err) {
		snprintf(msg, msglen, "results file %s on %s: %s", path + sizeof MNT, dev,
			 strerror(err));
		return -1;
	}
	snprintf(msg, msglen, "results file written: %s:/%s", dev + 5, path + sizeof MNT);
	return 0;
}
