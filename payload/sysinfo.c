/* sysinfo.c — see sysinfo.h. */
#define _GNU_SOURCE
#include "sysinfo.h"
#include "sysfs.h"
#include "cpuclock.h"
#include "cpupolicy.h"
#include "benchapi.h"
#include "facts.h"
#include "vocab.h"
#include "version.h"
#include "crc32.h"
#include "io.h"
#include "out.h"
#include "arch.h"
#include "sys.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>


/* The CPU's brand string (arch_cpu_brand) into out (>= 49 bytes), blanks squeezed. */
static void cpu_brand(char *out)
{
	arch_cpu_brand(out);
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

/* 1 when p begins "X.Y support found" (X and Y decimal digits, their values not wanted). */
static int xen_found(const char *p)
{
	size_t a = strspn(p, "0123456789");
	if (!a || p[a] != '.')
		return 0;
	p += a + 1;
	a = strspn(p, "0123456789");
	return a && !strncmp(p + a, " support found", 14);
}

/* The kernel's boot messages that name a hypervisor: x86's "Hypervisor detected: NAME"
 * (arch/x86/kernel/cpu/hypervisor.c; the name follows), and arm64's, which has no such line:
 * KVM's "smccc: KVM: hypervisor services detected" (drivers/firmware/smccc/kvm_guest.c, the
 * SMCCC vendor UID KVM answers) and Xen's "Xen X.Y support found" (arch/arm/xen/enlighten.c).
 * In: log, the kernel's log as text. Out: the name, or "none". Exposed for the unit tests. */
void kernel_hypervisor_in(const char *log, char *out, size_t cap)
{
	static const char x86[] = "Hypervisor detected: ";
	const char *p = strstr(log, x86);

	if (p) {
		p += strlen(x86);
		snprintf(out, cap, "%.*s", (int)strcspn(p, "\n"), p);
		return;
	}
	if (strstr(log, "KVM: hypervisor services detected")) {
		snprintf(out, cap, "KVM");
		return;
	}
	for (p = strstr(log, "Xen "); p; p = strstr(p + 1, "Xen "))
		if (xen_found(p + 4)) {
			snprintf(out, cap, "Xen");
			return;
		}
	snprintf(out, cap, "none");
}

static void kernel_hypervisor(char *out, size_t cap)
{
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;

	snprintf(out, cap, "-");
	if (n <= 0 || !(buf = malloc((size_t)n + 1)))
		return;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, n);
	if (n > 0) {
		buf[n] = 0;
		kernel_hypervisor_in(buf, out, cap);
	}
	free(buf);
}

static const char *fs_name(const char *path)
{
	struct statfs s;

	if (statfs(path, &s))
		return "-";
	switch ((unsigned long)s.f_type) {
	case SYS_TMPFS_MAGIC: return "tmpfs";
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
	ssize_t n = read_file(path, buf, sizeof buf);

	*ok = n > 0;
	return n > 0 ? crc32_ieee(buf, (size_t)n) : 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* What a computed fact sees. */
struct ctx {
	const struct params *p;
	const char *mode, *workdir;
	char flags[4096];	/* /proc/cpuinfo flags of the first CPU */
};

/* Where a fact comes from: the first line of a file, a /proc/cpuinfo field of the first CPU,
 * a /proc/meminfo field (leading number), a constant string, or a function of the run. */
enum src { FILE_LINE, CPUINFO, MEMINFO_NUM, CONST, FN };

struct fact {
	const char *key;	/* INFO key (docs/records.md, "INFO keys") */
	enum src src;
	const char *arg;	/* path, field name, the constant, or what fn should give */
	void (*fn)(const struct ctx *, const char *arg, char *out, size_t cap);
};

/* The run's parameters and place (run.*): arg names which. */
static void f_run(const struct ctx *c, const char *arg, char *o, size_t n)
{
	const struct params *p = c->p;

	o[0] = 0;
	if (!strcmp(arg, "image"))
		snprintf(o, n, "%s", p->image[0] ? p->image : "-");
	else if (!strcmp(arg, "mode"))
		snprintf(o, n, "%s", c->mode);
	else if (!strcmp(arg, "suite"))
		snprintf(o, n, "%s", suite_name(p->suite));
	else if (!strcmp(arg, "tests"))
		snprintf(o, n, "%s", p->tests);
	else if (!strcmp(arg, "copies"))
		for (int i = 0; i < p->ncopies; i++)
			snprintf(o + strlen(o), n - strlen(o), "%s%d", i ? "," : "", p->copies[i]);
	else if (!strcmp(arg, "all_cpus") && p->all_cpus > 0)	/* "" (left out): no such pass */
		snprintf(o, n, "%d", p->all_cpus);
	else if (!strcmp(arg, "sample_ms"))
		snprintf(o, n, "%d", p->sample_ms);
	else if (!strcmp(arg, "samples"))
		snprintf(o, n, "%d-%d", p->min_samples, p->max_samples);
	else if (!strcmp(arg, "ci"))
		snprintf(o, n, "%g", p->target_ci_pct);
	else if (!strcmp(arg, "workdir"))
		snprintf(o, n, "%s", c->workdir);
	else if (!strcmp(arg, "round") && p->round > 0)	/* "" (left out) when not A/B */
		snprintf(o, n, "%d", p->round);
	else if (!strcmp(arg, "repeat") && p->repeat > 0)	/* left out unless asked for */
		snprintf(o, n, "%d", p->repeat);
	else if (!strcmp(arg, "replicate") && p->replicate > 0)
		snprintf(o, n, "%d", p->replicate);
	else if (!strcmp(arg, "ab_side") && p->ab_side > 0)
		snprintf(o, n, "%s", params_ab_sides[p->ab_side]);
	else if (!strcmp(arg, "ab_pos") && p->ab_pos > 0)
		snprintf(o, n, "%d", p->ab_pos);
	else if (!strcmp(arg, "utc")) {
		struct timespec ts;
		struct tm tm;
		clock_gettime(CLOCK_REALTIME, &ts);	/* the machine's clock: an RTC may be wrong */
		gmtime_r(&ts.tv_sec, &tm);
		strftime(o, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
}

/* Facts from the kernel and the CPU: arg names which. */
static void f_sys(const struct ctx *c, const char *arg, char *o, size_t n)
{
	struct utsname u;
	char b[64];
	int ok;

	o[0] = 0;
	if (!strncmp(arg, "uname.", 6)) {
		if (uname(&u))
			snprintf(o, n, "-");
		else
			snprintf(o, n, "%s", !strcmp(arg, "uname.release") ? u.release
					     : !strcmp(arg, "uname.version") ? u.version : u.machine);
	} else if (!strcmp(arg, "config_crc")) {
		uint32_t crc = file_crc("/proc/config.gz", &ok);
		if (ok)
			snprintf(o, n, "%08x", crc);
		else
			snprintf(o, n, "-");
	} else if (!strcmp(arg, "cmdline")) {
		proc_cmdline(o, n);
	} else if (!strcmp(arg, "klog_hv")) {
		kernel_hypervisor(o, n);
	} else if (!strcmp(arg, "brand")) {
		cpu_brand(b);
		snprintf(o, n, "%s", b);
	} else if (!strcmp(arg, "online")) {
		snprintf(o, n, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	} else if (!strcmp(arg, "fs./")) {
		snprintf(o, n, "%s", fs_name("/"));
	} else if (!strcmp(arg, "fs.workdir")) {
		snprintf(o, n, "%s", fs_name(c->workdir));
	} else if (!strcmp(arg, "cpuid_hv")) {
		arch_hypervisor_id(b);
		snprintf(o, n, "%s", b[0] ? b : "none");
	} else if (!strcmp(arg, "flags")) {
		snprintf(o, n, "%s", c->flags);
	} else if (!strcmp(arg, "tsc")) {
		/* Which of the TSC's flags the CPU has, in this order. */
		static const char *const tscf[] = {"tsc", "rdtscp", "constant_tsc", "nonstop_tsc",
			"tsc_known_freq", "tsc_reliable", "tsc_deadline_timer", "tsc_adjust", NULL};
		char padded[sizeof c->flags + 2];
		snprintf(padded, sizeof padded, " %s ", c->flags);
		for (int i = 0; tscf[i]; i++) {
			char w[40];
			snprintf(w, sizeof w, " %s ", tscf[i]);
			if (strstr(padded, w))
				snprintf(o + strlen(o), n - strlen(o), "%s%s", o[0] ? "," : "",
					 tscf[i]);
		}
	}
}

/* The CPU's clock and idle policy (cpupolicy.c): arg is the key. */
static void f_policy(const struct ctx *c, const char *arg, char *o, size_t n)
{
	(void)c;
	cpupolicy_fact(cpupolicy_root(), arg, o, n);
}

/* How each SAMPLE's mhz= is measured here, and why (cpuclock.c). */
static void f_clock(const struct ctx *c, const char *arg, char *o, size_t n)
{
	(void)c, (void)arg;
	cpuclock_probe(o, n);
}

#define SYS_CS "/sys/devices/system/clocksource/clocksource0/"
#define BREAK {NULL, CONST, NULL, NULL}	/* ends one INFO record, starts the next */

/* The machine header, in the order of the log; the table of docs/records.md ("INFO keys"). */
static const struct fact facts[] = {
	{RK_BUILD_VERSION, CONST, isobench_version, NULL},
	{RK_BUILD_CC, CONST, "gcc " __VERSION__, NULL},
	{RK_BUILD_CFLAGS, CONST, isobench_cflags, NULL},
	{RK_IMAGE_IDENTITY, FN, "image", f_run},
	{RK_RUN_MODE, FN, "mode", f_run},
	{RK_RUN_SUITE, FN, "suite", f_run},
	{RK_RUN_TESTS, FN, "tests", f_run},
	{RK_RUN_COPIES, FN, "copies", f_run},
	{RK_RUN_ALL_CPUS, FN, "all_cpus", f_run},	/* only when a pass is one per CPU */
	{RK_RUN_SAMPLE_MS, FN, "sample_ms", f_run},
	{RK_RUN_SAMPLES, FN, "samples", f_run},
	{RK_RUN_CI_TARGET, FN, "ci", f_run},
	{RK_RUN_UTC, FN, "utc", f_run},
	{RK_RUN_LOADAVG, FILE_LINE, "/proc/loadavg", NULL},
	{RK_RUN_WORKDIR, FN, "workdir", f_run},
	{RK_RUN_ROUND, FN, "round", f_run},	/* only in A/B runs: left out when empty */
	{RK_RUN_AB_SIDE, FN, "ab_side", f_run},
	{RK_RUN_AB_POS, FN, "ab_pos", f_run},
	{RK_RUN_REPEAT, FN, "repeat", f_run},	/* only with replicates: left out when empty */
	{RK_RUN_REPLICATE, FN, "replicate", f_run},
	BREAK,	/* (then the tests' own facts: bench_facts, facts.c) */
	{RK_KERNEL_RELEASE, FN, "uname.release", f_sys},
	{RK_KERNEL_VERSION, FN, "uname.version", f_sys},
	{RK_KERNEL_MACHINE, FN, "uname.machine", f_sys},
	{RK_KERNEL_CMDLINE, FN, "cmdline", f_sys},
	{RK_KERNEL_CONFIG_CRC, FN, "config_crc", f_sys},
	{RK_KERNEL_HYPERVISOR, FN, "klog_hv", f_sys},
	BREAK,
	{RK_CPU_MODEL, FN, "brand", f_sys},
	{RK_CPU_VENDOR, CPUINFO, "vendor_id", NULL},
	{RK_CPU_FAMILY, CPUINFO, "cpu family", NULL},
	{RK_CPU_MODEL_ID, CPUINFO, "model", NULL},
	{RK_CPU_STEPPING, CPUINFO, "stepping", NULL},
	{RK_CPU_MHZ, CPUINFO, "cpu MHz", NULL},
	{RK_CPU_ONLINE, FN, "online", f_sys},
	{RK_CPU_POSSIBLE, FILE_LINE, SYSFS_CPU "possible", NULL},
	{RK_MEM_TOTAL_KIB, MEMINFO_NUM, "MemTotal", NULL},
	{RK_FS_ROOT, FN, "fs./", f_sys},
	{RK_FS_WORKDIR, FN, "fs.workdir", f_sys},
	{RK_CPU_SMT, FILE_LINE, SYSFS_CPU "smt/active", NULL},
	{RK_CPU_GOVERNOR, FN, RK_CPU_GOVERNOR, f_policy},
	{RK_CPU_NO_TURBO, FN, RK_CPU_NO_TURBO, f_policy},
	{RK_CPU_MICROCODE, CPUINFO, "microcode", NULL},
	{RK_MM_THP, FILE_LINE, SYSFS_THP "enabled", NULL},
	BREAK,
	{RK_CPUFREQ_DRIVER, FN, RK_CPUFREQ_DRIVER, f_policy},
	{RK_CPUFREQ_BOOST, FN, RK_CPUFREQ_BOOST, f_policy},
	{RK_CPUFREQ_EPP, FN, RK_CPUFREQ_EPP, f_policy},
	{RK_CPUFREQ_MIN_KHZ, FN, RK_CPUFREQ_MIN_KHZ, f_policy},
	{RK_CPUFREQ_MAX_KHZ, FN, RK_CPUFREQ_MAX_KHZ, f_policy},
	{RK_CPUFREQ_BASE_KHZ, FN, RK_CPUFREQ_BASE_KHZ, f_policy},
	{RK_CPUFREQ_SET, FN, RK_CPUFREQ_SET, f_policy},
	{RK_CPUIDLE_DRIVER, FN, RK_CPUIDLE_DRIVER, f_policy},
	{RK_CPUIDLE_GOVERNOR, FN, RK_CPUIDLE_GOVERNOR, f_policy},
	{RK_CPUIDLE_STATES, FN, RK_CPUIDLE_STATES, f_policy},
	{RK_CPUIDLE_SET, FN, RK_CPUIDLE_SET, f_policy},
	{RK_CPU_CLOCK_METHOD, FN, RK_CPU_CLOCK_METHOD, f_clock},
	BREAK,
	{RK_HV_CPUID, FN, "cpuid_hv", f_sys},
	{RK_HV_SYS_TYPE, FILE_LINE, "/sys/hypervisor/type", NULL},
	{RK_DMI_SYS_VENDOR, FILE_LINE, "/sys/class/dmi/id/sys_vendor", NULL},
	{RK_DMI_PRODUCT_NAME, FILE_LINE, "/sys/class/dmi/id/product_name", NULL},
	{RK_CLOCKSOURCE_CURRENT, FILE_LINE, SYS_CS "current_clocksource", NULL},
	{RK_CLOCKSOURCE_AVAILABLE, FILE_LINE, SYS_CS "available_clocksource", NULL},
	{RK_TSC_FLAGS, FN, "tsc", f_sys},
	BREAK,
	{RK_CPU_FLAGS, FN, "flags", f_sys},
	BREAK,
};

/* One fact's value into out; "" or "-" when it cannot be read (both are written "-"). */
static void fact_value(const struct fact *f, const struct ctx *c, char *out, size_t cap)
{
	out[0] = 0;
	switch (f->src) {
	case FILE_LINE:
		sysfs_line(f->arg, NULL, out, cap);
		break;
	case CPUINFO:
		proc_field("/proc/cpuinfo", f->arg, out, cap);
		break;
	case MEMINFO_NUM: {
		long long kib = proc_meminfo_kib(f->arg);
		snprintf(out, cap, "%lld", kib < 0 ? 0 : kib);	/* absent: 0, as it always was */
		break;
	}
	case CONST:
		snprintf(out, cap, "%s", f->arg);
		break;
	case FN:
		f->fn(c, f->arg, out, cap);
		break;
	}
}

void sysinfo_emit(const struct params *p, const char *mode, const char *workdir)
{
	static struct ctx c;
	struct rec_body b;
	char v[4096];
	int open = 0, first = 1;

	c.p = p;
	c.mode = mode;
	c.workdir = workdir;
	proc_field("/proc/cpuinfo", "flags", c.flags, sizeof c.flags);
	for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
		const struct fact *f = &facts[i];
		if (!f->key) {
			if (first)	/* facts the tests contribute (facts.c) */
				for (int k = 0; bench_facts[k].key; k++)
					rec_str(&b, bench_facts[k].key, bench_facts[k].value());
			first = 0;
			if (open)
				out_record(&b);
			open = 0;
			continue;
		}
		if (!open)
			rec_begin(&b, RK_INFO);
		open = 1;
		fact_value(f, &c, v, sizeof v);
		if (!v[0] && (f->key == RK_RUN_ROUND || f->key == RK_RUN_AB_SIDE ||
			      f->key == RK_RUN_ALL_CPUS || f->key == RK_RUN_AB_POS ||
			      f->key == RK_RUN_REPEAT || f->key == RK_RUN_REPLICATE))
			continue;
		rec_str(&b, f->key, v);
	}

	/* Blocks the test families contribute (facts.h bench_headers[]: the disk in use). */
	for (int k = 0; bench_headers[k]; k++) {
		rec_begin(&b, RK_INFO);
		bench_headers[k](p, &b);
		if (b.len > strlen(RK_INFO))
			out_record(&b);
	}

	/* CPU vulnerabilities: one key per file, as the kernel reports them. */
	DIR *d = opendir(SYSFS_CPU "vulnerabilities");
	rec_begin(&b, RK_INFO);
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
			snprintf(path, sizeof path, SYSFS_CPU "vulnerabilities/%.63s", names[i]);
			sysfs_line(path, NULL, v, sizeof v);
			rec_str(&b, vocab_fill(key, sizeof key, RK_VULN_NAME, names[i]), v);
		}
	} else {
		rec_str(&b, RK_VULN, "-");
	}
	out_record(&b);
}
