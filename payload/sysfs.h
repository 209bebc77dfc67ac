/* sysfs.h — reading sysfs the one way the runner does (the NIC facts of netnic.c, the disk
 * facts of core/disk_dev.c, the device checks of scratch.c): a file's first line, a
 * directory's entries, a link's target, a block device's directory; and the procfs files
 * that several parts read (the kernel command line, meminfo, vmstat), each read here once.
 * Read-only; nothing here writes. Paths are "DIR/REL" (REL may be NULL or "": DIR itself); a path longer than
 * PATH_MAX is as unreadable as a missing one. Source of the layout:
 * Documentation/ABI/stable/sysfs-block, sysfs-class-net, sysfs-bus-pci. */
#ifndef ISOBENCH_SYSFS_H
#define ISOBENCH_SYSFS_H

#include <stddef.h>
#include <sys/types.h>

/* The directories several readers name (Documentation/ABI: sysfs-devices-system-cpu,
 * sysfs-kernel-mm-transparent-hugepage). */
#define SYSFS_CPU "/sys/devices/system/cpu/"
#define SYSFS_THP "/sys/kernel/mm/transparent_hugepage/"

/* The first line of DIR/REL into buf (len bytes), blanks and the newline trimmed at both
 * ends; "-" (the grammar's "none") when the file is missing, unreadable or that line is
 * empty. Returns buf. */
const char *sysfs_line(const char *dir, const char *rel, char *buf, size_t len);

/* 1 when DIR/REL exists (stat(2) succeeds), else 0. */
int sysfs_has(const char *dir, const char *rel);

/* The entries of directory DIR/REL whose names start with prefix (NULL: every name that does
 * not start with '.'); -errno when the directory cannot be opened. */
int sysfs_count(const char *dir, const char *rel, const char *prefix);

/* The last component of the target of the link DIR/REL (a driver/ link: "virtio_net") into
 * buf, or NULL when DIR/REL is no readable link. */
const char *sysfs_link_base(const char *dir, const char *rel, char *buf, size_t len);

/* The sysfs directory of block device dev (the realpath of /sys/dev/block/MAJ:MIN, e.g.
 * /sys/devices/.../block/sda/sda1) into dir (len bytes); whole != 0: the whole disk's when
 * dev is a partition. 0, or -errno (-ENOENT: no such block device). */
int sysfs_block_dir(dev_t dev, int whole, char *dir, size_t len);

/* The kernel command line: sysfs_line() of /proc/cmdline (the words, blanks trimmed at the
 * ends; "-" when unreadable). For PID 1's parameters, the clocksource check and the log's
 * kernel.cmdline. Returns buf. */
const char *proc_cmdline(char *buf, size_t len);

/* The "Field:   N kB" line of /proc/meminfo (field without the colon: "MemTotal"), in KiB;
 * -1 when the field is absent, the file unreadable or the value not "N kB" (lib/io.h's
 * read_kv_ll(): trailing text, a negative or oversized figure, a field without "kB"). */
long long proc_meminfo_kib(const char *field);

/* The "name N" line of a vmstat file (path NULL: /proc/vmstat; the tests give another), N;
 * -1 when the counter is absent, the file unreadable or N no decimal count (read_kv_ll()). */
long long proc_vmstat(const char *path, const char *name);

/* The value of the first "key<blanks>: value" line of path (/proc/cpuinfo: the first CPU's)
 * into out (cap bytes), blanks at both ends and the newline dropped (read_kv()); "" when the file
 * is unreadable or has no such line. */
void proc_field(const char *path, const char *key, char *out, size_t cap);

/* The aggregate "cpu" line of /proc/stat (proc(5): user nice system idle iowait irq softirq
 * steal, in USER_HZ ticks) into v, the figures it holds first, the others 0. Returns how many
 * it read (0: unreadable; a kernel before 2.6.11 has no steal: 7). */
#define PROC_STAT_CPU 8
int proc_stat_cpu(unsigned long long v[PROC_STAT_CPU]);

#endif
