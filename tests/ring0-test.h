/* ring0-test.h — what tests/ring0-abi.c and tests/ring0-break.c (each the /init of a
 * throw-away initramfs: tests/lib.sh, ring0_init_boot) share: the device's descriptor, the
 * count of failed checks, a console line writer and a request builder. Static functions,
 * included once by each program; x86-64's probe list comes by include path
 * (-I kernel-config/driver/arch/x86_64). */
#ifndef ISOBENCH_RING0_TEST_H
#define ISOBENCH_RING0_TEST_H

#include "../kernel-config/driver/isobench_probe.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fd = -1, failed;

/* printf to the console (fd 1) in one write; a failed write counts as a failed check. */
__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
	char buf[300];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > 0 && write(1, buf, strlen(buf)) < 0)
		failed++;
}

/* A request of this driver's version for probe on cpu (target, iters as given), zeroed else. */
static struct isobench_probe_req req(unsigned probe, int cpu, int target, uint64_t iters)
{
	struct isobench_probe_req q;
	memset(&q, 0, sizeof q);
	q.version = ISOBENCH_PROBE_VERSION;
	q.probe = probe;
	q.cpu = cpu;
	q.target = target;
	q.iters = iters;
	return q;
}

#endif
