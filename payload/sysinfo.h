/* sysinfo.h — the machine header: INFO records describing what the run measured on.
 * Every fact comes from the kernel's interfaces (/proc, /sys, uname, syslog) or from the CPU
 * (payload/arch/arch.h: CPUID on x86-64); a fact that cannot be read is written "-",
 * never guessed. */
#ifndef ISOBENCH_SYSINFO_H
#define ISOBENCH_SYSINFO_H

#include "params.h"

/* Emits INFO records through out_record(). workdir: where the tests make their files (its
 * file system type is recorded as fs.workdir). */
void sysinfo_emit(const struct params *p, const char *mode, const char *workdir);

/* INFO kernel.hypervisor from the kernel's log text: x86's "Hypervisor detected: NAME",
 * arm64 KVM's "KVM: hypervisor services detected" (KVM), Xen's "Xen X.Y support found"
 * (Xen), else "none" (sysinfo.c names the kernel sources). */
void kernel_hypervisor_in(const char *log, char *out, size_t cap);

#endif
