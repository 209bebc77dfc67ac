/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/* isobench_probe.h — the user-space interface of isobench's ring-0 probe driver
 * (/dev/isobench-probe, kernel-config/driver/isobench_probe.c), the one definition of its
 * ioctl, request layout, limits and probe list. Included by the driver (the kernel build
 * copies this folder into the tree as drivers/misc/isobench/) and by the runner
 * (payload/bench/ring0.h names it by its path from there) and tests/ring0-abi.c: one header,
 * so the two sides cannot disagree. It needs no
 * kernel header in user space (musl ships none): fixed-width types from <stdint.h> and the
 * _IOWR() macro from <sys/ioctl.h>.
 *
 * One call, ISOBENCH_PROBE_IOC_RUN: run probe `probe` for `iters` iterations on CPU `cpu`
 * (in a kernel worker bound to it, preemption off, interrupts off unless the probe needs
 * them), return the TSC cycles and nanoseconds the iterations took (`done` of them: a call
 * stops after about ISOBENCH_PROBE_CALL_NS and says how many it did; call again for the
 * rest). Errors (ioctl() returns -1, errno):
 *   EINVAL      unknown probe, iters 0 or above ISOBENCH_PROBE_MAX_ITERS, cpu/target out of
 *               range or target == cpu, flags not 0
 *   EPROTO      version is not ISOBENCH_PROBE_VERSION (the driver writes its own back)
 *   ENODEV      cpu (or target) is offline
 *   EOPNOTSUPP  this machine lacks what the probe needs (no second CPU, no PM timer, a
 *               hypercall that faults with #UD, an MSR write that faults, a kernel clock
 *               that moves only once a tick, ...): `reason` says what
 *   ETIMEDOUT   an interrupt the probe waits for did not come within 20 ms
 *   EBUSY       the ipi probe's spinner did not start on the target within 200 ms
 *   EPERM       the caller lacks CAP_SYS_RAWIO
 *   EINTR       interrupted while waiting for another caller (the driver runs one at a time)
 * The request is copied back on every outcome, so `reason` and `version` are readable. */
#ifndef ISOBENCH_PROBE_H
#define ISOBENCH_PROBE_H

#ifdef __KERNEL__
#include <linux/ioctl.h>
#include <linux/types.h>
typedef __u32 ibp_u32;
typedef __s32 ibp_s32;
typedef __u64 ibp_u64;
#else
#include <stdint.h>
#include <sys/ioctl.h>
typedef uint32_t ibp_u32;
typedef int32_t ibp_s32;
typedef uint64_t ibp_u64;
#endif

#define ISOBENCH_PROBE_DEVICE "/dev/isobench-probe"
/* Bumped whenever the request's meaning changes (its size is also in the ioctl number). */
#define ISOBENCH_PROBE_VERSION 1
#define ISOBENCH_PROBE_MAX_ITERS (1u << 24)	/* per call */
#define ISOBENCH_PROBE_CALL_NS 50000000u	/* a call returns after about 50 ms */
#define ISOBENCH_PROBE_ANY_CPU (-1)		/* target: the next online CPU after cpu */
#define ISOBENCH_PROBE_REASON 96

/* The probes: X(ID, name, title); a title fits the report's 40 columns. Names follow kvm-unit-tests' x86/vmexit.c where one
 * matches (cpuid, vmcall, mov_from_cr8, mov_to_cr8, rd/wr_tsc_adjust_msr, inl_from_pmtimer,
 * ipi, ipi+halt spelled ipi_halt); the others are ours. What each does, and what it
 * exercises on each hypervisor: the driver's comment and docs/benchmarks/probes.md. The
 * order is the ABI (the probe number): append only. */
#define ISOBENCH_PROBES(X) \
	X(CPUID, cpuid, "CPUID leaf 0") \
	X(VMCALL, vmcall, "hypercall (KVM, Xen, Hyper-V, VMware)") \
	X(MOV_FROM_CR8, mov_from_cr8, "MOV from CR8 (task priority)") \
	X(MOV_TO_CR8, mov_to_cr8, "MOV to CR8 (the value just read)") \
	X(RD_TSC_ADJUST, rd_tsc_adjust_msr, "RDMSR IA32_TSC_ADJUST") \
	X(WR_TSC_ADJUST, wr_tsc_adjust_msr, "WRMSR IA32_TSC_ADJUST (value just read)") \
	X(INL_PMTIMER, inl_from_pmtimer, "INL from the ACPI PM timer") \
	X(OUTB_0X80, outb_0x80, "OUTB to port 0x80") \
	X(MMIO_LAPIC, mmio_lapic, "MMIO read of the LAPIC version register") \
	X(MMIO_HPET, mmio_hpet, "MMIO read of the HPET counter") \
	X(EOI, eoi, "local APIC end-of-interrupt write") \
	X(SELF_IPI, self_ipi, "self-IPI, sent and handled") \
	X(IPI, ipi, "IPI round trip to a spinning CPU") \
	X(IPI_HALT, ipi_halt, "IPI round trip to a halted CPU") \
	X(HLT, hlt, "HLT wake-up lateness, 20 us timer")

#define ISOBENCH_PROBE_ENUM_(id, name, title) ISOBENCH_PROBE_##id,
enum isobench_probe { ISOBENCH_PROBES(ISOBENCH_PROBE_ENUM_) ISOBENCH_PROBE_COUNT };

struct isobench_probe_req {
	ibp_u32 version;	/* in: ISOBENCH_PROBE_VERSION; out: the driver's */
	ibp_u32 probe;		/* in: enum isobench_probe */
	ibp_s32 cpu;		/* in: the CPU the probe runs on */
	ibp_s32 target;		/* in: IPI target CPU or ISOBENCH_PROBE_ANY_CPU; out: used */
	ibp_u64 iters;		/* in: 1 .. ISOBENCH_PROBE_MAX_ITERS */
	ibp_u32 flags;		/* in: 0 (reserved) */
	ibp_u32 pad;
	ibp_u64 done;		/* out: iterations done, <= iters */
	ibp_u64 cycles;		/* out: TSC ticks the done iterations took */
	ibp_u64 ns;		/* out: nanoseconds (the kernel's monotonic clock) */
	char reason[ISOBENCH_PROBE_REASON];	/* out: why EOPNOTSUPP, NUL-terminated */
};

/* 'I' 0xB0: no other user in Documentation/userspace-api/ioctl/ioctl-number.rst (6.1). */
#define ISOBENCH_PROBE_IOC_RUN _IOWR('I', 0xB0, struct isobench_probe_req)

#endif
