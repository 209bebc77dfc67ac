/* sysfs.c — see sysfs.h. */
#define _GNU_SOURCE
#include "sysfs.h"

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
	FILE *f = join(p, dir, rel) ? NULL : fopen(p, "re");

	if (!f || !fgets(buf, (int)len, f))
		buf[0] = 0;
	if (f)
		fclose(f);
	size_t n = strcspn(buf, "\n");
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = 0;
	size_t lead = strspn(buf, " \t");
	memmove(buf, buf + lead, n - lead + 1);
	if (!buf[0])
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

/* The number after "name" and then sep in the first line of path that has them, or -1; sep
 * ':' (meminfo) or ' ' (vmstat). */
static long long proc_number(const char *path, const char *name, char sep)
{
	FILE *f = fopen(path, "re");
	char line[128];
	size_t n = strlen(name);
	long long v = -1;

	if (!f)
		return -1;
	while (v < 0 && fgets(line, sizeof line, f))
		if (!strncmp(line, name, n) && line[n] == sep && sscanf(line + n + 1, "%lld", &v) != 1)
			v = -1;
	fclose(f);
	return v;
}

long long proc_meminfo_kib(const char *field)
{
	return proc_number("/proc/meminfo", field, ':');
}

long long proc_vmstat(const char *path, const char *name)
{
	return proc_number(path && *path ? path : "/proc/vmstat", name, ' ');
}

/* See sysfs.h. */
void proc_field(const char *path, const char *key, char *out, size_t cap)
{
	char line[4096];
	size_t kl = strlen(key);
	FILE *f = fopen(path, "r");

	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, key, kl) || (line[kl] != ' ' && line[kl] != '\t' &&
					       line[kl] != ':'))
			continue;
		char *c = strchr(line, ':');
		if (!c)
			continue;
		c++;
		while (*c == ' ' || *c == '\t')
			c++;
		c[strcspn(c, "\n")] = 0;
		snprintf(out, cap, "%s", c);
		break;
	}
	fclose(f);
}
