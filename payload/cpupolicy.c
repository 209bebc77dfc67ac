/* cpupolicy.c — see cpupolicy.h. */
#include "cpupolicy.h"
#include "sysfs.h"
#include "num.h"
#include "vocab.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char set_freq[256] = "not asked", set_idle[256] = "not asked";
static char refused[640];	/* cpupolicy_refused() */

/* Append "; " (when not the first) and the formatted words to refused. */
__attribute__((format(printf, 1, 2))) static void refuse(const char *fmt, ...)
{
	size_t l = strlen(refused);
	va_list ap;

	if (l && l + 2 < sizeof refused)
		l += (size_t)snprintf(refused + l, sizeof refused - l, "; ");
	va_start(ap, fmt);
	vsnprintf(refused + l, sizeof refused - l, fmt, ap);
	va_end(ap);
}

/* What a host's run changed, to put back (cpupolicy_restore()): each file and its old value. */
struct saved {
	char *path;
	char old[64];
};
static struct saved *saved;
static size_t nsaved, capsaved;
static int keep;	/* 1: a host's run: remember what put() changes */

/* Write val to PATH; 0 or -errno. */
static int write_file(const char *path, const char *val)
{
	int fd, r = 0;
	size_t n = strlen(val);

	if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0)
		return -errno;
	if (write(fd, val, n) != (ssize_t)n)
		r = -errno;
	if (close(fd) && !r)
		r = -errno;
	return r;
}

/* Write val to DIR/REL; 0 or -errno. On a host (keep) the old value is remembered first when
 * it differs (no memory to remember it: not written, -ENOMEM: a host's policy is never
 * changed without the way back). */
static int put(const char *dir, const char *rel, const char *val)
{
	char path[512], old[64];
	int r;

	snprintf(path, sizeof path, "%s%s", dir, rel);
	if (!keep)
		return write_file(path, val);
	if (!strcmp(sysfs_line(dir, rel, old, sizeof old), "-") || !strcmp(old, val))
		return write_file(path, val);	/* nothing to put back: unreadable, or the same */
	if (nsaved == capsaved) {
		size_t c = capsaved ? 2 * capsaved : 64;
		struct saved *m = realloc(saved, c * sizeof *m);
		if (!m)
			return -ENOMEM;
		saved = m;
		capsaved = c;
	}
	if (!(saved[nsaved].path = strdup(path)))
		return -ENOMEM;
	if ((r = write_file(path, val))) {
		free(saved[nsaved].path);
		return r;
	}
	snprintf(saved[nsaved++].old, sizeof saved[0].old, "%s", old);
	return 0;
}

void cpupolicy_restore(void)
{
	while (nsaved) {	/* the last change first */
		struct saved *v = &saved[--nsaved];
		(void)write_file(v->path, v->old);
		free(v->path);
	}
}

/* 1 when sysfs_line() found something. */
static int got(const char *dir, const char *rel, char *buf, size_t n)
{
	return strcmp(sysfs_line(dir, rel, buf, n), "-") != 0;
}

/* The numbers N of DIR's entries named prefix then N in decimal ("policy": policy0, policy1,
 * ...; nothing after N), sorted; how many (at most max). */
static int numbered(const char *dir, const char *prefix, int *num, int max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		size_t pl = strlen(prefix);
		long long v;
		if (!strncmp(e->d_name, prefix, pl) && !num_ll(e->d_name + pl, 0, 0, INT_MAX, &v))
			num[n++] = (int)v;
	}
	closedir(d);
	for (int i = 1; i < n; i++)	/* insertion sort: a few hundred at most */
		for (int j = i; j > 0 && num[j - 1] > num[j]; j--) {
			int t = num[j];
			num[j] = num[j - 1];
			num[j - 1] = t;
		}
	return n;
}

#define MAXN 4096

/* asked: the user gave the governor (not the image's default): its absence is a refusal too. */
static void apply_governor(const char *root, const char *gov, int asked)
{
	char dir[256], rel[64];
	static int pol[MAXN];
	int n, ok = 0, bad = 0, e = 0, first_bad = -1;

	snprintf(dir, sizeof dir, "%scpufreq/", root);
	n = numbered(dir, "policy", pol, MAXN);
	if (!n) {
		snprintf(set_freq, sizeof set_freq, "%s: not applied (none: no cpufreq driver)", gov);
		if (asked)
			refuse("cpufreq %s", set_freq);
		return;
	}
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof rel, "policy%d/scaling_governor", pol[i]);
		int r = put(dir, rel, gov);
		if (r) {
			bad++;
			if (first_bad < 0) {
				first_bad = pol[i];
				e = -r;
			}
		} else {
			ok++;
		}
	}
	if (!bad)
		snprintf(set_freq, sizeof set_freq, "%s: set on %d policies", gov, ok);
	else {
		snprintf(set_freq, sizeof set_freq, "%s: set on %d of %d policies, refused on "
			 "policy%d (%s)", gov, ok, n, first_bad, strerror(e));
		refuse("cpufreq %s", set_freq);
	}
}

/* on: 1 boost on, 0 off. Appends to set_freq. */
static void apply_boost(const char *root, int on)
{
	char dir[256];
	size_t l = strlen(set_freq);
	const char *how;
	int r;

	snprintf(dir, sizeof dir, "%sintel_pstate/", root);
	if (sysfs_has(dir, "no_turbo")) {
		how = "intel_pstate no_turbo";
		r = put(dir, "no_turbo", on ? "0" : "1");
	} else {
		snprintf(dir, sizeof dir, "%scpufreq/", root);
		if (!sysfs_has(dir, "boost")) {
			snprintf(set_freq + l, sizeof set_freq - l, "; boost %s: not applied (none: "
				 "the platform gives the OS no boost switch)", on ? "on" : "off");
			refuse("%s", set_freq + l + 2);
			return;
		}
		how = "cpufreq boost";
		r = put(dir, "boost", on ? "1" : "0");
	}
	snprintf(set_freq + l, sizeof set_freq - l, "; boost %s: %s (%s)", on ? "on" : "off",
		 r ? strerror(-r) : "set", how);
	if (r)
		refuse("%s", set_freq + l + 2);
}

/* Disable every idle state of every CPU whose exit latency is above max_us. */
static void apply_idle(const char *root, int max_us)
{
	static int cpu[MAXN];
	int ncpu = numbered(root, "cpu", cpu, MAXN), states = 0, off = 0, bad = 0, r;
	char names[160] = "", why[120] = "";

	for (int c = 0; c < ncpu; c++) {
		char dir[256];
		int st[64], ns;
		snprintf(dir, sizeof dir, "%scpu%d/cpuidle", root, cpu[c]);
		ns = numbered(dir, "state", st, 64);
		for (int k = 0; k < ns; k++) {
			char sd[300], lat[32], name[64];
			long long us;
			snprintf(sd, sizeof sd, "%s/state%d/", dir, st[k]);
			states++;
			/* a latency that is no number: the state is left as it is */
			if (!got(sd, "latency", lat, sizeof lat) ||
			    num_ll(lat, 0, LLONG_MIN, LLONG_MAX, &us) || us <= max_us)
				continue;
			if ((r = put(sd, "disable", "1"))) {
				if (!bad++)	/* the first refusal names the state and the reason */
					snprintf(why, sizeof why, "cpu%d state%d: %s", cpu[c], st[k],
						 strerror(-r));
				continue;
			}
			off++;
			if (c == 0 && got(sd, "name", name, sizeof name))
				snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
					 names[0] ? "," : "", name);
		}
	}
	if (!states) {
		snprintf(set_idle, sizeof set_idle, "max %d us: not applied (none: no cpuidle "
			 "driver)", max_us);
		refuse("idle %s", set_idle);
		return;
	}
	snprintf(set_idle, sizeof set_idle, "max %d us: %d of %d states disabled (cpu%d: %s)",
		 max_us, off, states, ncpu ? cpu[0] : 0, names[0] ? names : "none");
	if (bad) {
		size_t l = strlen(set_idle);
		snprintf(set_idle + l, sizeof set_idle - l, "; %d refused (%s)", bad, why);
		refuse("idle max %d us: %d refused (%s)", max_us, bad, why);
	}
}

void cpupolicy_apply(const struct params *p, int image, const char *root)
{
	const char *gov = p->cpufreq[0] ? p->cpufreq : image ? CPUPOLICY_DEFAULT_IMAGE : NULL;

	refused[0] = 0;
	cpupolicy_restore();	/* a run before this one (--repeat) */
	keep = !image;
	if (!gov)
		snprintf(set_freq, sizeof set_freq, "not asked (a host's policy is only read: "
			 "--cpufreq sets it)");
	else if (!strcmp(gov, CPUPOLICY_FIRMWARE))
		snprintf(set_freq, sizeof set_freq, "%s: left as the firmware and kernel set it",
			 gov);
	else
		apply_governor(root, gov, p->cpufreq[0] != 0);
	if (p->boost)
		apply_boost(root, p->boost == 1);
	if (p->idle_max_us >= 0)
		apply_idle(root, p->idle_max_us);
	else
		snprintf(set_idle, sizeof set_idle, "not asked (every state the driver offers)");
}

const char *cpupolicy_root(void)
{
	const char *e = getenv(CPUPOLICY_ROOT_ENV);

	return e && *e ? e : SYSFS_CPU;
}

const char *cpupolicy_refused(void)
{
	return refused;
}

/* cpu0's idle states: "NAME latency=Nus disabled=0|1" joined by "; ". */
static void idle_states(const char *root, char *out, size_t cap)
{
	char dir[256];
	int st[64], ns;
	size_t l = 0;

	snprintf(dir, sizeof dir, "%scpu0/cpuidle", root);
	ns = numbered(dir, "state", st, 64);
	out[0] = 0;
	for (int k = 0; k < ns && l + 1 < cap; k++) {
		char sd[300], name[64], lat[32], dis[8];
		snprintf(sd, sizeof sd, "%s/state%d/", dir, st[k]);
		got(sd, "name", name, sizeof name);
		got(sd, "latency", lat, sizeof lat);
		got(sd, "disable", dis, sizeof dis);
		l += (size_t)snprintf(out + l, cap - l, "%s%s latency=%sus disabled=%s",
				      l ? "; " : "", name, lat, dis);
	}
	if (!ns)
		snprintf(out, cap, "none: no cpuidle driver");
}

/* The governors of every policy, each once, comma-joined; "" when there is no policy. */
static void governors(const char *root, char *out, size_t cap)
{
	char dir[256], rel[64], g[64];
	static int pol[MAXN];
	int n;

	snprintf(dir, sizeof dir, "%scpufreq/", root);
	n = numbered(dir, "policy", pol, MAXN);
	out[0] = 0;
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof rel, "policy%d/scaling_governor", pol[i]);
		if (!got(dir, rel, g, sizeof g))
			continue;
		char pad[300], w[70];
		snprintf(pad, sizeof pad, ",%s,", out);
		snprintf(w, sizeof w, ",%s,", g);
		if (!strstr(pad, w))
			snprintf(out + strlen(out), cap - strlen(out), "%s%s", out[0] ? "," : "", g);
	}
}

void cpupolicy_fact(const char *root, const char *key, char *out, size_t cap)
{
	char c0[256], v[64];
	int drv;

	snprintf(c0, sizeof c0, "%scpu0/cpufreq/", root);
	drv = got(c0, "scaling_driver", v, sizeof v);
	if (key == RK_CPUFREQ_DRIVER) {
		snprintf(out, cap, "%s", drv ? v : "none: no cpufreq driver");
	} else if (key == RK_CPU_GOVERNOR) {
		governors(root, out, cap);
		if (!out[0])
			snprintf(out, cap, "none: no cpufreq driver");
	} else if (key == RK_CPU_NO_TURBO) {
		char d[256];
		snprintf(d, sizeof d, "%sintel_pstate/", root);
		if (!got(d, "no_turbo", out, cap))
			snprintf(out, cap, "none: not intel_pstate");
	} else if (key == RK_CPUFREQ_BOOST) {
		char d[256];
		snprintf(d, sizeof d, "%sintel_pstate/", root);
		if (got(d, "no_turbo", v, sizeof v))
			snprintf(out, cap, "%s (intel_pstate no_turbo=%s)", strcmp(v, "0") ? "off" : "on",
				 v);
		else if (snprintf(d, sizeof d, "%scpufreq/", root), got(d, "boost", v, sizeof v))
			snprintf(out, cap, "%s (cpufreq boost=%s)", strcmp(v, "0") ? "on" : "off", v);
		else
			snprintf(out, cap, "none: %s", drv ? "the platform gives the OS no boost switch"
							   : "no cpufreq driver");
	} else if (key == RK_CPUFREQ_EPP) {
		if (!got(c0, "energy_performance_preference", out, cap))
			snprintf(out, cap, "none: %s", drv ? "no EPP (no HWP/CPPC preference)"
							   : "no cpufreq driver");
	} else if (key == RK_CPUFREQ_MIN_KHZ || key == RK_CPUFREQ_MAX_KHZ ||
		   key == RK_CPUFREQ_BASE_KHZ) {
		const char *f = key == RK_CPUFREQ_MIN_KHZ ? "cpuinfo_min_freq"
				: key == RK_CPUFREQ_MAX_KHZ ? "cpuinfo_max_freq" : "base_frequency";
		if (!got(c0, f, out, cap))
			snprintf(out, cap, "none: %s", drv ? "the driver does not say" : "no cpufreq driver");
	} else if (key == RK_CPUFREQ_SET) {
		snprintf(out, cap, "%s", set_freq);
	} else if (key == RK_CPUIDLE_DRIVER || key == RK_CPUIDLE_GOVERNOR) {
		char d[256];
		snprintf(d, sizeof d, "%scpuidle/", root);
		if (!got(d, key == RK_CPUIDLE_DRIVER ? "current_driver" : "current_governor_ro", out, cap)
		    && !got(d, key == RK_CPUIDLE_DRIVER ? "current_driver" : "current_governor", out, cap))
			snprintf(out, cap, "none: no cpuidle driver");
		else if (!strcmp(out, "none"))	/* the kernel's own word when CPU_IDLE has none */
			snprintf(out, cap, "none: no cpuidle driver");
	} else if (key == RK_CPUIDLE_STATES) {
		idle_states(root, out, cap);
	} else if (key == RK_CPUIDLE_SET) {
		snprintf(out, cap, "%s", set_idle);
	} else {
		snprintf(out, cap, "-");
	}
}
