/* sysinfo.h — the machine header: INFO records describing what the run measured on.
 * Every fact comes from the kernel's interfaces (/proc, /sys, uname, syslog) or from the CPU
 * (CPUID); a fact that cannot be read is written "-", never guessed. */
#ifndef ISOBENCH_SYSINFO_H
#define ISOBENCH_SYSINFO_H

#include "params.h"

/* Emits INFO records through out_record(). workdir: where the tests make their files (its
 * file system type is recorded as fs.workdir). */
void sysinfo_emit(const struct params *p, const char *mode, const char *workdir);

/* Hypervisor vendor signature from CPUID leaf 0x40000000 ("KVMKVMKVM", "VMwareVMware",
 * "Microsoft Hv", "XenVMMXenVMM", "TCGTCGTCGTCG", ...) into out (>= 13 bytes); "" on bare
 * metal (CPUID.1:ECX bit 31 clear). */
void cpuid_hypervisor(char *out);

#endif
