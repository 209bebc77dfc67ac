/* test_disk.c — what the disk tests judge (payload/bench/disk.h), on a sysfs tree made here:
 * disk_media_of() classes a physical rotating disk (sd under an AHCI function), virtio-blk
 * and QEMU's AHCI disk (both rotational=1: virtual), an NVMe SSD, loop devices (over a file;
 * over a tmpfs file: memory) and zram, with the evidence; disk_read_verdict() warns by the
 * class's floor, naming that evidence; disk_flush_verdict() tells write-through, a flush that
 * reaches no stable storage and an honoured one apart by write_cache, the class and the
 * flush's cost beside the write's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "../../payload/bench/disk.h"
#include "../../payload/benchapi.h"
#include "../../payload/sys.h"

static char root[] = "/tmp/test_disk.XXXXXX";

/* mkdir -p root/rel */
static void dir_of(const char *rel)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); *s++ = '/') {
		*s = 0;
		mkdir(p, 0755);
	}
	mkdir(p, 0755);
}

/* root/rel holding text (its directory made). */
static void put(const char *rel, const char *text)
{
	char p[512], d[512];
	snprintf(d, sizeof d, "%s", rel);
	*strrchr(d, '/') = 0;
	dir_of(d);
	snprintf(p, sizeof p, "%s/%s", root, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* root/rel, a link to target (absolute under root when it starts with '/'). */
static void link_to(const char *rel, const char *target)
{
	char p[512], t[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	snprintf(t, sizeof t, "%s%s", target[0] == '/' ? root : "", target);
	assert_int_equal(symlink(t, p), 0);
}

/* A block device root/block/NAME: its queue, and its device/ link to DEV (under root). */
static void disk(const char *name, const char *rot, const char *wc, const char *dev)
{
	char p[256];
	snprintf(p, sizeof p, "block/%s/queue/rotational", name);
	put(p, rot);
	snprintf(p, sizeof p, "block/%s/queue/write_cache", name);
	put(p, wc);
	snprintf(p, sizeof p, "block/%s/queue/fua", name);
	put(p, "0\n");
	if (dev) {
		snprintf(p, sizeof p, "block/%s/device", name);
		link_to(p, dev);
	}
}

/* A PCI function at root/devices/pci0000:00/SLOT with IDs and a driver. */
static void pci(const char *slot, const char *vendor, const char *device, const char *drv)
{
	char p[256], t[256];
	snprintf(p, sizeof p, "devices/pci0000:00/%s/vendor", slot);
	put(p, vendor);
	snprintf(p, sizeof p, "devices/pci0000:00/%s/device", slot);
	put(p, device);
	snprintf(p, sizeof p, "devices/pci0000:00/%s/driver", slot);
	snprintf(t, sizeof t, "/bus/pci/drivers/%s", drv);
	link_to(p, t);
}

static int setup(void **st)
{
	(void)st;
	if (!mkdtemp(root))
		return -1;
	const char *ata = "devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0";
	pci("0000:00:1f.2", "0x8086\n", "0x2922\n", "ahci");
	put("devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/model", "ST4000DM004-2CV1\n");
	put("devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/vendor", "ATA     \n");
	link_to("devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/driver",
		"/bus/scsi/drivers/sd");
	disk("sda", "1\n", "write back\n", "/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0");
	(void)ata;
	pci("0000:00:1f.3", "0x8086\n", "0x2922\n", "ahci");
	put("devices/pci0000:00/0000:00:1f.3/ata2/host1/target1:0:0/1:0:0:0/model", "QEMU HARDDISK\n");
	put("devices/pci0000:00/0000:00:1f.3/ata2/host1/target1:0:0/1:0:0:0/vendor", "ATA\n");
	link_to("devices/pci0000:00/0000:00:1f.3/ata2/host1/target1:0:0/1:0:0:0/driver",
		"/bus/scsi/drivers/sd");
	disk("sdb", "1\n", "write back\n", "/devices/pci0000:00/0000:00:1f.3/ata2/host1/target1:0:0/1:0:0:0");
	pci("0000:00:02.0", "0x1af4\n", "0x1001\n", "virtio-pci");
	dir_of("devices/pci0000:00/0000:00:02.0/virtio0");
	link_to("devices/pci0000:00/0000:00:02.0/virtio0/driver", "/bus/virtio/drivers/virtio_blk");
	disk("vda", "1\n", "write back\n", "/devices/pci0000:00/0000:00:02.0/virtio0");
	pci("0000:01:00.0", "0x144d\n", "0xa80a\n", "nvme");
	put("devices/pci0000:00/0000:01:00.0/nvme/nvme0/model", "Samsung SSD 980 PRO 1TB\n");
	disk("nvme0n1", "0\n", "write back\n", "/devices/pci0000:00/0000:01:00.0/nvme/nvme0");
	disk("loop0", "1\n", "write back\n", NULL);
	put("block/loop0/loop/backing_file", "/nonexistent/disk.img\n");
	disk("loop1", "1\n", "write back\n", NULL);
	put("block/loop1/loop/backing_file", "/dev/shm\n");
	disk("zram0", "0\n", "write through\n", NULL);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	return system(cmd) == 0 ? 0 : -1;
}

/* disk_media_of() on root/block/NAME into *s. */
static void media(const char *name, struct disk_sel *s)
{
	char d[256];
	memset(s, 0, sizeof *s);
	snprintf(d, sizeof d, "%s/block/%s", root, name);
	disk_media_of(d, s);
}

static void test_classes(void **st)
{
	(void)st;
	struct disk_sel s;

	media("sda", &s);
	assert_int_equal(s.media, DISK_MEDIA_ROTATING);
	assert_string_equal(s.media_why, "sda is a physical rotating disk (driver sd, controller "
			    "ahci, model ST4000DM004-2CV1, vendor ATA, rotational=1)");
	assert_string_equal(s.write_cache, "write back");
	assert_string_equal(s.fua, "0");
	media("sdb", &s);
	assert_int_equal(s.media, DISK_MEDIA_VIRTUAL);
	assert_non_null(strstr(s.media_why, "sdb is a virtual disk (its model)"));
	media("vda", &s);
	assert_int_equal(s.media, DISK_MEDIA_VIRTUAL);
	assert_string_equal(s.media_why, "vda is a virtual disk (its driver): the host's storage "
			    "or cache answers (driver virtio_blk, controller virtio-pci, model -, "
			    "vendor -, rotational=1)");
	media("nvme0n1", &s);
	assert_int_equal(s.media, DISK_MEDIA_SOLID);
	assert_non_null(strstr(s.media_why, "(driver nvme, controller nvme, model Samsung SSD 980 "
				"PRO 1TB, vendor -, rotational=0)"));
	media("loop0", &s);
	assert_int_equal(s.media, DISK_MEDIA_VIRTUAL);
	assert_non_null(strstr(s.media_why, "loop0 is a loop device: a file"));
	media("zram0", &s);
	assert_int_equal(s.media, DISK_MEDIA_MEMORY);
	struct statfs sf;
	if (statfs("/dev/shm", &sf) == 0 && (long)sf.f_type == SYS_TMPFS_MAGIC) {
		media("loop1", &s);
		assert_int_equal(s.media, DISK_MEDIA_MEMORY);
		assert_string_equal(s.media_why, "loop1 is a loop device over /dev/shm, on tmpfs: "
				    "memory holds it");
	}
}

static void test_read_floor(void **st)
{
	(void)st;
	struct disk_sel s;
	char why[600];

	media("sda", &s);
	assert_int_equal(disk_read_verdict(&s, 40000, why, sizeof why), BENCH_JUDGE_WARN);
	assert_string_equal(why, "a cache answers the reads: a 4 KiB random read takes 40.0 us "
			    "(median), faster than a rotating medium allows (1000 us); sda is a "
			    "physical rotating disk (driver sd, controller ahci, model "
			    "ST4000DM004-2CV1, vendor ATA, rotational=1)");
	assert_int_equal(disk_read_verdict(&s, 4000000, why, sizeof why), BENCH_JUDGE_NONE);
	/* rotational=1 on a virtual disk: the flag says nothing, only any medium's floor */
	media("vda", &s);
	assert_int_equal(disk_read_verdict(&s, 40000, why, sizeof why), BENCH_JUDGE_NONE);
	assert_int_equal(disk_read_verdict(&s, 2000, why, sizeof why), BENCH_JUDGE_WARN);
	assert_non_null(strstr(why, "2.0 us (median), faster than any medium answers (5 us); vda is "
				"a virtual disk"));
	media("sdb", &s);
	assert_int_equal(disk_read_verdict(&s, 80000, why, sizeof why), BENCH_JUDGE_NONE);
	media("nvme0n1", &s);
	assert_int_equal(disk_read_verdict(&s, 40000, why, sizeof why), BENCH_JUDGE_NONE);
	assert_int_equal(disk_read_verdict(&s, 3000, why, sizeof why), BENCH_JUDGE_WARN);
	media("zram0", &s);
	assert_int_equal(disk_read_verdict(&s, 50000, why, sizeof why), BENCH_JUDGE_WARN);
	assert_non_null(strstr(why, "zram0 is a RAM disk"));
}

static void test_flush(void **st)
{
	(void)st;
	struct disk_sel s;
	char why[600];

	media("sda", &s);
	assert_int_equal(disk_flush_verdict(&s, -1, 60000, why, sizeof why), BENCH_JUDGE_NONE);
	/* under 1/3 of the write: completed above the device */
	assert_int_equal(disk_flush_verdict(&s, 1000, 60000, why, sizeof why), BENCH_JUDGE_WARN);
	assert_string_equal(why, "flush is not reaching stable storage: the disk says it has a "
			    "volatile write cache, but the flush costs under 1/3 of a 4 KiB write, "
			    "less than any device's round trip: it is completed above the device (a "
			    "file system mounted nobarrier, a host that drops it): fdatasync 1.0 us, "
			    "the 4 KiB write before it 60.0 us (medians; flush/write 0.017); "
			    "queue/write_cache=write back, queue/fua=0");
	/* about a write: reaches the device, which answers at once (said so) */
	assert_int_equal(disk_flush_verdict(&s, 50000, 60000, why, sizeof why), BENCH_JUDGE_NOTE);
	assert_non_null(strstr(why, "volatile cache, flush honoured: the flush reaches the device "
				"(0.8x a write), which answers it in about a write's time"));
	/* a fast device answering in 15 us beside its 12 us write: it reaches the device (a fixed
	 * 20 us floor called this a cache the guest cannot see) */
	assert_int_equal(disk_flush_verdict(&s, 15000, 12000, why, sizeof why), BENCH_JUDGE_NOTE);
	assert_non_null(strstr(why, "volatile cache, flush honoured: the flush reaches the device "
				"(1.2x a write)"));
	/* 2x the write or more: waits for something slower than the cache */
	assert_int_equal(disk_flush_verdict(&s, 4000000, 100000, why, sizeof why), BENCH_JUDGE_NOTE);
	assert_non_null(strstr(why, "(40.0x a write) and waits for something slower"));
	/* write-through: no flush sent, whatever it costs (a 10 us power-loss protected write) */
	snprintf(s.write_cache, sizeof s.write_cache, "write through");
	assert_int_equal(disk_flush_verdict(&s, 800, 10000, why, sizeof why), BENCH_JUDGE_NOTE);
	assert_non_null(strstr(why, "write-through: the disk says it keeps no volatile write cache"));
	/* a loop device told write through: its file is stable only by the flush it now never
	 * gets (a tester's buffered loop device was called write-through) */
	snprintf(s.loop_file, sizeof s.loop_file, "/srv/disk.img");
	assert_int_equal(disk_flush_verdict(&s, 800, 10000, why, sizeof why), BENCH_JUDGE_WARN);
	assert_non_null(strstr(why, "flush is not reaching stable storage: the loop device says "
				"write-through, so the kernel sends it no flush, but it is the file "
				"/srv/disk.img"));
	s.loop_file[0] = 0;
	/* memory below: never stable, even at a write's cost */
	media("zram0", &s);
	assert_int_equal(disk_flush_verdict(&s, 12000, 11000, why, sizeof why), BENCH_JUDGE_WARN);
	assert_non_null(strstr(why, "flush is not reaching stable storage: there is none below, "
				"zram0 is a RAM disk"));
}

/* The re-read probe's verdict: the second round 1.5x faster or more is a cache below; a
 * disk without one reads both rounds alike; no probe, no verdict. Figures as measured
 * (docs/benchmarks/disk.md): 174 us cold, 57.7 us warm natively on this project's host. */
static void test_reread(void **st)
{
	(void)st;
	char why[600];

	assert_int_equal(disk_reread_verdict(174021, 57734, why, sizeof why), BENCH_JUDGE_WARN);
	assert_string_equal(why, "a cache below answers re-reads: 32 blocks read twice outside the "
			    "samples took 57.7 us the second time against 174.0 us the first "
			    "(medians, 3.0x faster): a host's page cache behind a virtual disk (QEMU "
			    "cache=writeback) or a loop device's holds what was read, and the "
			    "samples' reads may be its too");
	assert_int_equal(disk_reread_verdict(120000, 110000, why, sizeof why), BENCH_JUDGE_NONE);
	assert_int_equal(disk_reread_verdict(90000, 60001, why, sizeof why), BENCH_JUDGE_NONE);
	assert_int_equal(disk_reread_verdict(90000, 60000, why, sizeof why), BENCH_JUDGE_WARN);
	assert_int_equal(disk_reread_verdict(-1, -1, why, sizeof why), BENCH_JUDGE_NONE);
	assert_int_equal(disk_reread_verdict(174021, -1, why, sizeof why), BENCH_JUDGE_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_read_floor),
		cmocka_unit_test(test_flush),
		cmocka_unit_test(test_reread),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
