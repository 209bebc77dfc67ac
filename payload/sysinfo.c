/* sysinfo.c — see sysinfo.h. */
#define _GNU_SOURCE
#include "sysinfo.h"
#include "bench/tbench_load.h"
#include "version.h"
#include "crc32.h"
#include "out.h"

#include <cpuid.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>


/* Read a small file's first line (without newline) into out; "" if unreadable. */
static void read_line(const char *path, char *out, size_t cap)
{
	FILE *f = fopen(path, "r");

	out[0] = 0;
	if (!f)
		return;
	if (fgets(out, (int)cap, f))
		out[strcspn(out, "\n")] = 0;
	fclose(f);
	/* sysfs lists often end in a blank ("tsc hpet "): trim. */
	for (size_t n = strlen(out); n && (out[n - 1] == ' ' || out[n - 1] == '\t');)
		out[--n] = 0;
}

/* Value of "key<ws>: value" in /proc/cpuinfo (first CPU) or "Key: value" in meminfo. */
static void proc_field(const char *path, const char *key, char *out, size_t cap)
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

void cpuid_hypervisor(char *out)
{
	unsigned a, b, c, d;

	out[0] = 0;
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(out, &b, 4);
	memcpy(out + 4, &c, 4);
	memcpy(out + 8, &d, 4);
	out[12] = 0;
}

static void cpu_brand(char *out)
{
	unsigned r[12], max;

	out[0] = 0;
	max = __get_cpuid_max(0x80000000, NULL);
	if (max < 0x80000004)
		return;
	for (unsigned i = 0; i < 3; i++)
		__cpuid(0x80000002 + i, r[i * 4], r[i * 4 + 1], r[i * 4 + 2], r[i * 4 + 3]);
	memcpy(out, r, 48);
	out[48] = 0;
	/* Trim leading and repeated blanks. */
	char *s = out, *w = out;
	while (*s == ' ')
		s++;
	for (; *s; s++)
		if (*s != ' ' || (w > out && w[-1] != ' '))
			*w++ = *s;
	while (w > out && w[-1] == ' ')
		w--;
	*w = 0;
}

/* The kernel's "Hypervisor detected: X" boot message, if the log still holds it. */
static void kernel_hypervisor(char *out, size_t cap)
{
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *p;

	snprintf(out, cap, "-");
	if (n <= 0 || !(buf = malloc((size_t)n + 1)))
		return;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, n);
	if (n > 0) {
		buf[n] = 0;
		p = strstr(buf, "Hypervisor detected: ");
		if (p) {
			p += strlen("Hypervisor detected: ");
			snprintf(out, cap, "%.*s", (int)strcspn(p, "\n"), p);
		} else {
			snprintf(out, cap, "none");
		}
	}
	free(buf);
}

static const char *fs_name(const char *path)
{
	struct statfs s;

	if (statfs(path, &s))
		return "-";
	switch ((unsigned long)s.f_type) {
	case 0x01021994: return "tmpfs";
	case 0x858458f6: return "ramfs";
	case 0xEF53: return "ext4";
	case 0x58465342: return "xfs";
	case 0x9123683E: return "btrfs";
	case 0x794c7630: return "overlayfs";
	default: return "other";
	}
}

static uint32_t file_crc(const char *path, int *ok)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "rb");
	size_t n;

	*ok = 0;
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	*ok = n > 0;
	return crc32_ieee(buf, n);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

void sysinfo_emit(const struct params *p, const char *mode, const char *workdir)
{
	struct rec_body b;
	struct utsname u;
	char s1[4096], s2[512], hv[16];
	int ok;

	rec_begin(&b, "INFO");
	rec_str(&b, "build.version", isobench_version);
	rec_str(&b, "build.cc", "gcc " __VERSION__);
	rec_str(&b, "build.cflags", isobench_cflags);
	rec_str(&b, "image.identity", p->image[0] ? p->image : "-");
	rec_str(&b, "run.mode", mode);
	rec_str(&b, "run.suite", suite_name(p->suite));
	rec_str(&b, "run.tests", p->tests);
	s1[0] = 0;
	for (int i = 0; i < p->ncopies; i++)
		snprintf(s1 + strlen(s1), sizeof s1 - strlen(s1), "%s%d", i ? "," : "",
			 p->copies[i]);
	rec_str(&b, "run.copies", s1);
	rec_u64(&b, "run.sample_ms", (uint64_t)p->sample_ms);
	rec_fmt(&b, "run.samples", "%d-%d", p->min_samples, p->max_samples);
	rec_dbl(&b, "run.ci_target_pct", p->target_ci_pct, 2);
	{
		struct timespec ts;
		struct tm tm;
		char when[32];
		clock_gettime(CLOCK_REALTIME, &ts);
		gmtime_r(&ts.tv_sec, &tm);
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
		rec_str(&b, "run.utc", when);	/* the machine's clock: an RTC may be wrong */
	}
	read_line("/proc/loadavg", s1, sizeof s1);
	rec_str(&b, "run.loadavg", s1);
	rec_str(&b, "run.workdir", workdir);
	rec_str(&b, "run.tbench_load", tbench_load_path() ? tbench_load_path() : "synthetic");
	out_record(&b);

	rec_begin(&b, "INFO");
	if (uname(&u) == 0) {
		rec_str(&b, "kernel.release", u.release);
		rec_str(&b, "kernel.version", u.version);
		rec_str(&b, "kernel.machine", u.machine);
	}
	read_line("/proc/cmdline", s1, sizeof s1);
	rec_str(&b, "kernel.cmdline", s1);
	uint32_t crc = file_crc("/proc/config.gz", &ok);
	if (ok)
		rec_fmt(&b, "kernel.config_crc32", "%08x", crc);
	else
		rec_str(&b, "kernel.config_crc32", "-");
	kernel_hypervisor(s2, sizeof s2);
	rec_str(&b, "kernel.hypervisor", s2);
	out_record(&b);

	rec_begin(&b, "INFO");
	cpu_brand(s2);
	rec_str(&b, "cpu.model", s2);
	proc_field("/proc/cpuinfo", "vendor_id", s2, sizeof s2);
	rec_str(&b, "cpu.vendor", s2);
	proc_field("/proc/cpuinfo", "cpu family", s2, sizeof s2);
	rec_str(&b, "cpu.family", s2);
	proc_field("/proc/cpuinfo", "model", s2, sizeof s2);
	rec_str(&b, "cpu.model_id", s2);
	proc_field("/proc/cpuinfo", "stepping", s2, sizeof s2);
	rec_str(&b, "cpu.stepping", s2);
	proc_field("/proc/cpuinfo", "cpu MHz", s2, sizeof s2);
	rec_str(&b, "cpu.mhz", s2);
	rec_i64(&b, "cpu.online", sysconf(_SC_NPROCESSORS_ONLN));
	read_line("/sys/devices/system/cpu/possible", s2, sizeof s2);
	rec_str(&b, "cpu.possible", s2);
	proc_field("/proc/meminfo", "MemTotal", s2, sizeof s2);
	rec_i64(&b, "mem.total_kib", atoll(s2));
	rec_str(&b, "fs.root", fs_name("/"));
	rec_str(&b, "fs.workdir", fs_name(workdir));
	read_line("/sys/devices/system/cpu/smt/active", s2, sizeof s2);
	rec_str(&b, "cpu.smt", s2);
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", s2, sizeof s2);
	rec_str(&b, "cpu.governor", s2);
	read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", s2, sizeof s2);
	rec_str(&b, "cpu.no_turbo", s2);
	proc_field("/proc/cpuinfo", "microcode", s2, sizeof s2);
	rec_str(&b, "cpu.microcode", s2);
	read_line("/sys/kernel/mm/transparent_hugepage/enabled", s2, sizeof s2);
	rec_str(&b, "mm.thp", s2);
	out_record(&b);

	rec_begin(&b, "INFO");
	cpuid_hypervisor(hv);
	rec_str(&b, "hv.cpuid", hv[0] ? hv : "none");
	read_line("/sys/hypervisor/type", s2, sizeof s2);
	rec_str(&b, "hv.sys_type", s2);
	read_line("/sys/class/dmi/id/sys_vendor", s2, sizeof s2);
	rec_str(&b, "dmi.sys_vendor", s2);
	read_line("/sys/class/dmi/id/product_name", s2, sizeof s2);
	rec_str(&b, "dmi.product_name", s2);
	read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", s2,
		  sizeof s2);
	rec_str(&b, "clocksource.current", s2);
	read_line("/sys/devices/system/clocksource/clocksource0/available_clocksource", s2,
		  sizeof s2);
	rec_str(&b, "clocksource.available", s2);
	proc_field("/proc/cpuinfo", "flags", s1, sizeof s1);
	{
		static const char *const tscf[] = {"tsc", "rdtscp", "constant_tsc",
			"nonstop_tsc", "tsc_known_freq", "tsc_reliable", "tsc_deadline_timer",
			"tsc_adjust", NULL};
		char have[256] = "";
		char padded[sizeof s1 + 2];
		snprintf(padded, sizeof padded, " %s ", s1);
		for (int i = 0; tscf[i]; i++) {
			char w[40];
			snprintf(w, sizeof w, " %s ", tscf[i]);
			if (strstr(padded, w))
				snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s",
					 have[0] ? "," : "", tscf[i]);
		}
		rec_str(&b, "tsc.flags", have);
	}
	out_record(&b);

	rec_begin(&b, "INFO");
	rec_str(&b, "cpu.flags", s1);
	out_record(&b);

	/* CPU vulnerabilities: one key per file, as the kernel reports them. */
	DIR *d = opendir("/sys/devices/system/cpu/vulnerabilities");
	rec_begin(&b, "INFO");
	if (d) {
		struct dirent *e;
		char names[64][64];
		int n = 0;
		while ((e = readdir(d)) && n < 64)
			if (e->d_name[0] != '.')
				snprintf(names[n++], sizeof names[0], "%.63s", e->d_name);
		closedir(d);
		qsort(names, (size_t)n, sizeof names[0], cmp_name);
		for (int i = 0; i < n; i++) {
			char path[160], key[80];
			snprintf(path, sizeof path, "/sys/devices/system/cpu/vulnerabilities/%.63s",
				 names[i]);
			read_line(path, s2, sizeof s2);
			snprintf(key, sizeof key, "vuln.%.63s", names[i]);
			rec_str(&b, key, s2);
		}
	} else {
		rec_str(&b, "vuln", "-");
	}
	out_record(&b);
}
