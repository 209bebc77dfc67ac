/* counters.c (x86_64) — arch_core_counters() (payload/arch/arch.h): IA32_APERF (0xE8) and
 * IA32_MPERF (0xE7) of one CPU through the kernel's msr driver (/dev/cpu/N/msr, CONFIG_X86_MSR;
 * pread at the MSR's number reads its 8 bytes, arch/x86/kernel/msr.c). Root (CAP_SYS_RAWIO)
 * only. A CPU without the counters (no "aperfmperf" in /proc/cpuinfo's flags: most
 * hypervisors hide them) makes the read fail with EIO; QEMU's TCG answers it with 0 instead,
 * so readable is not enough: cpuclock_probe() also wants them to count. */
#include "arch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MSR_IA32_MPERF 0xE7
#define MSR_IA32_APERF 0xE8

int arch_core_counters(int cpu, uint64_t *actual, uint64_t *ref, char *why, size_t n)
{
	char path[40];
	int fd, e;

	snprintf(path, sizeof path, "/dev/cpu/%d/msr", cpu);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		e = errno;
		snprintf(why, n, "APERF not exposed (%s: %s%s)", path, strerror(e),
			 e == ENOENT ? "; CONFIG_X86_MSR or the msr module" : "");
		return -e;
	}
	if (pread(fd, actual, 8, MSR_IA32_APERF) != 8 || pread(fd, ref, 8, MSR_IA32_MPERF) != 8) {
		e = errno ? errno : EIO;
		close(fd);
		snprintf(why, n, "APERF not exposed (%s: reading MSR 0xE8/0xE7: %s)", path,
			 strerror(e));
		return -e;
	}
	close(fd);
	return 0;
}
