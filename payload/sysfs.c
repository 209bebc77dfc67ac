/* sysfs.c — see sysfs.h. */
#define _GNU_SOURCE
#include "sysfs.h"
#include "io.h"
#include "num.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* DIR/REL into p (PATH_MAX bytes); 0, or -ENAMETOOLONG. */
static int join(char *p, const char *dir, const char *rel)
{
	int n = rel && *rel ? snprintf(p, PATH_MAX, "%s/%s", dir, rel)
			    : snprintf(p, PATH_MAX, "%s", dir);
	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

const char *sysfs_line(const char *dir, const char *rel, char *buf, size_t len)
{
	char p[PATH_MAX];

	if (join(p, dir, rel) || read_line(p, buf, len) <= 0)
		snprintf(buf, len, "-");
	return buf;
}

int sysfs_has(const char *dir, const char *rel)
{
	char p[PATH_MAX];
	struct stat st;

	return !join(p, dir, rel) && stat(p, &st) == 0;
}

int sysfs_count(const char *dir, const char *rel, const char *prefix)
{
	char p[PATH_MAX];
	int n = 0, r = join(p, dir, rel);
	DIR *d = r ? NULL : opendir(p);
	struct dirent *e;

	if (!d)
		return r ? r : -errno;
	while ((e = readdir(d)))
		n += prefix ? !strncmp(e->d_name, prefix, strlen(prefix)) : e->d_name[0] != '.';
	closedir(d);
	return n;
}

const char *sysfs_link_base(const char *dir, const char *rel, char *buf, size_t len)
{
	char p[PATH_MAX], t[PATH_MAX];
	ssize_t n = join(p, dir, rel) ? -1 : readlink(p, t, sizeof t - 1);

	if (n <= 0)
		return NULL;
	t[n] = 0;
	snprintf(buf, len, "%s", strrchr(t, '/') ? strrchr(t, '/') + 1 : t);
	return buf;
}

int sysfs_block_dir(dev_t dev, int whole, char *dir, size_t len)
{
	char link[64], real[PATH_MAX];

	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, real))
		return -errno;
	if (whole && sysfs_has(real, "partition"))
		*strrchr(real, '/') = 0;
	if ((size_t)snprintf(dir, len, "%s", real) >= len)
		return -ENAMETOOLONG;
	return 0;
}

const char *proc_cmdline(char *buf, size_t len)
{
	return sysfs_line("/proc/cmdline", NULL, buf, len);
}

long long proc_meminfo_kib(const char *field)
{
	long long v;

	return read_kv_ll("/proc/meminfo", field, ':', "kB", &v) || v < 0 ? -1 : v;
}

long long proc_vmstat(const char *path, const char *name)
{
	long long v;

	return read_kv_ll(path && *path ? path : "/proc/vmstat", name, ' ', NULL, &v) || v < 0
		? -1 : v;
}

void proc_field(const char *path, const char *key, char *out, size_t cap)
{
	read_kv(path, key, ':', out, cap);
}

int proc_stat_cpu(unsigned long long v[PROC_STAT_CPU])
{
	char line[512], *fd[PROC_STAT_CPU + 1];
	int n = 0;

	for (int i = 0; i < PROC_STAT_CPU; i++)
		v[i] = 0;
	if (read_line("/proc/stat", line, sizeof line) <= 0)
		return 0;
	int nf = split_fields(line, fd, PROC_STAT_CPU + 1);
	if (nf < 1 || strcmp(fd[0], "cpu"))
		return 0;
	while (n + 1 < nf && !num_ull(fd[n + 1], 0, 0, ULLONG_MAX, &v[n]))
		n++;	/* the figures up to the first that is none */
	return n;
}
