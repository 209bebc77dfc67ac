/* ring0-abi.c — /init of a throw-away initramfs (tests/test-ring0.sh): checks the contract of
 * the probe driver's ioctl (kernel-config/driver/isobench_probe.h) from inside the image's
 * kernel, then powers off. Static musl; needs a guest with 2 CPUs and CONFIG_HOTPLUG_CPU.
 *
 * Out (console): one line per check, "ring0-abi: ok <what>" or "ring0-abi: FAIL <what>: ...",
 * then "ring0-abi: done <N> failed". Checks: bad probe numbers, iteration counts, CPUs,
 * version and flags are rejected with the documented errno; a good call does what it asked;
 * a good call's medians come with their batch count (at least 2, at most the cap) and a null
 * figure > 0;
 * with CPU 1 offlined through sysfs a probe on it fails with ENODEV, an IPI to it with
 * ENODEV and an IPI to "any other CPU" with EOPNOTSUPP and a reason; CPU 1 back online runs
 * again; a call asking for far more than the time cap returns in time with done < iters. */
#include "ring0-test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <time.h>
#include <unistd.h>

/* One call; returns 0 or errno. */
static int call(struct isobench_probe_req *q, unsigned long cmd)
{
	return ioctl(fd, cmd, q) < 0 ? errno : 0;
}

static void want(const char *what, struct isobench_probe_req q, int err)
{
	int got = call(&q, ISOBENCH_PROBE_IOC_RUN);
	if (got == err)
		say("ring0-abi: ok %s (%s)\n", what, err ? strerror(err) : "0");
	else {
		say("ring0-abi: FAIL %s: got %s, want %s\n", what, got ? strerror(got) : "0",
		    err ? strerror(err) : "0");
		failed++;
	}
}

static int set_online(int cpu, int on)
{
	char path[64];
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/online", cpu);
	int f = open(path, O_WRONLY);
	int ok = f >= 0 && write(f, on ? "1" : "0", 1) == 1;
	if (f >= 0)
		close(f);
	say("ring0-abi: %s CPU %d %s\n", ok ? "ok" : "FAIL", cpu, on ? "online" : "offline");
	failed += !ok;
	return ok;
}

static void good_call(void)
{
	struct isobench_probe_req q = req(ISOBENCH_PROBE_CPUID, 0, ISOBENCH_PROBE_ANY_CPU, 1000);
	int err = call(&q, ISOBENCH_PROBE_IOC_RUN);
	/* As the runner (payload/bench/ring0.c): a clock check fooled by a preempted vCPU on a
	 * loaded host is asked again, twice at most, and said. */
	for (int t = 1; t < 3 && err == EOPNOTSUPP; t++) {
		say("ring0-abi: note: cpuid x1000 refused (%s), asked again\n", q.reason);
		q = req(ISOBENCH_PROBE_CPUID, 0, ISOBENCH_PROBE_ANY_CPU, 1000);
		err = call(&q, ISOBENCH_PROBE_IOC_RUN);
	}
	int ok = !err && q.done == 1000 && q.cycles > 0 && q.ns > 0;
	say("ring0-abi: %s cpuid x1000 on CPU 0: err=%d done=%llu cycles=%llu ns=%llu%s%s\n",
	    ok ? "ok" : "FAIL", err, (unsigned long long)q.done, (unsigned long long)q.cycles,
	    (unsigned long long)q.ns, q.reason[0] ? " reason: " : "", q.reason);
	failed += !ok;
	/* The first batch is one iteration (the driver sizes the next ones from it), so 1000
	 * take at least two batches; each null batch reads the counter and the clock, so it
	 * took ticks and ns. */
	ok = !err && q.batches >= 2 && q.batches <= ISOBENCH_PROBE_MAX_BATCHES &&
	     q.null_ns_x1000 > 0 && q.null_cycles_x1000 > 0 && !q.pad2;
	say("ring0-abi: %s its medians: batches=%u net_ns_x1000=%lld null_ns_x1000=%llu "
	    "net_cycles_x1000=%lld null_cycles_x1000=%llu\n", ok ? "ok" : "FAIL", q.batches,
	    (long long)q.net_ns_x1000, (unsigned long long)q.null_ns_x1000,
	    (long long)q.net_cycles_x1000, (unsigned long long)q.null_cycles_x1000);
	failed += !ok;
}

static void bad_input(void)
{
	struct isobench_probe_req q = req(ISOBENCH_PROBE_COUNT, 0, ISOBENCH_PROBE_ANY_CPU, 1);
	want("probe = COUNT rejected", q, EINVAL);
	q.probe = 0xffffffffu;
	want("probe = 2^32-1 rejected", q, EINVAL);
	want("iters = 0 rejected", req(0, 0, ISOBENCH_PROBE_ANY_CPU, 0), EINVAL);
	want("iters = MAX+1 rejected", req(0, 0, ISOBENCH_PROBE_ANY_CPU,
					     (uint64_t)ISOBENCH_PROBE_MAX_ITERS + 1), EINVAL);
	want("cpu = -1 rejected", req(0, -1, ISOBENCH_PROBE_ANY_CPU, 1), EINVAL);
	want("cpu = 100000 rejected", req(0, 100000, ISOBENCH_PROBE_ANY_CPU, 1), EINVAL);
	want("ipi target = cpu rejected", req(ISOBENCH_PROBE_IPI, 0, 0, 1), EINVAL);
	want("ipi target = -5 rejected", req(ISOBENCH_PROBE_IPI, 0, -5, 1), EINVAL);
	q = req(0, 0, ISOBENCH_PROBE_ANY_CPU, 1);
	q.flags = 1;
	want("flags != 0 rejected", q, EINVAL);
	q = req(0, 0, ISOBENCH_PROBE_ANY_CPU, 1);
	q.version = ISOBENCH_PROBE_VERSION + 1;
	int err = call(&q, ISOBENCH_PROBE_IOC_RUN);
	int ok = err == EPROTO && q.version == ISOBENCH_PROBE_VERSION;
	say("ring0-abi: %s wrong version: err=%s, driver's version %u\n", ok ? "ok" : "FAIL",
	    strerror(err), q.version);
	failed += !ok;
	q = req(0, 0, ISOBENCH_PROBE_ANY_CPU, 1);
	err = call(&q, _IOWR('I', 0xB1, struct isobench_probe_req));
	say("ring0-abi: %s unknown ioctl: %s\n", err == ENOTTY ? "ok" : "FAIL", strerror(err));
	failed += err != ENOTTY;
}

static void offline_cpu(void)
{
	if (!set_online(1, 0))
		return;
	want("cpuid on offline CPU 1", req(ISOBENCH_PROBE_CPUID, 1, ISOBENCH_PROBE_ANY_CPU, 1),
	     ENODEV);
	want("ipi to offline CPU 1", req(ISOBENCH_PROBE_IPI, 0, 1, 1), ENODEV);
	struct isobench_probe_req q = req(ISOBENCH_PROBE_IPI, 0, ISOBENCH_PROBE_ANY_CPU, 1);
	int err = call(&q, ISOBENCH_PROBE_IOC_RUN);
	int ok = err == EOPNOTSUPP && strstr(q.reason, "second online CPU");
	say("ring0-abi: %s ipi to any CPU with one online: %s, reason \"%s\"\n",
	    ok ? "ok" : "FAIL", strerror(err), q.reason);
	failed += !ok;
	if (set_online(1, 1))
		want("cpuid on CPU 1 back online", req(ISOBENCH_PROBE_CPUID, 1,
							ISOBENCH_PROBE_ANY_CPU, 100), 0);
}

/* 2^24 HLT wake-ups of 20 us would take minutes: the call must stop near its cap. */
static void time_cap(void)
{
	struct isobench_probe_req q = req(ISOBENCH_PROBE_HLT, 0, ISOBENCH_PROBE_ANY_CPU,
					  ISOBENCH_PROBE_MAX_ITERS);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	int err = call(&q, ISOBENCH_PROBE_IOC_RUN);
	clock_gettime(CLOCK_MONOTONIC, &b);
	long ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	int ok = !err && q.done > 0 && q.done < q.iters && ms < 2000 &&
		 q.batches <= ISOBENCH_PROBE_MAX_BATCHES;
	say("ring0-abi: %s time cap: hlt x%u returned after %ld ms with done=%llu (err %d)\n",
	    ok ? "ok" : "FAIL", ISOBENCH_PROBE_MAX_ITERS, ms, (unsigned long long)q.done, err);
	failed += !ok;
}

int main(void)
{
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	int con = open("/dev/console", O_WRONLY);
	if (con >= 0)
		dup2(con, 1);
	fd = open(ISOBENCH_PROBE_DEVICE, O_RDWR);
	if (fd < 0) {
		say("ring0-abi: FAIL open %s: %s\n", ISOBENCH_PROBE_DEVICE, strerror(errno));
		failed++;
	} else {
		good_call();
		bad_input();
		offline_cpu();
		time_cap();
	}
	say("ring0-abi: done %d failed\n", failed);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
