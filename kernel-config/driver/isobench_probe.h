/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/* isobench_probe.h — the user-space interface of isobench's ring-0 probe driver
 * (/dev/isobench-probe, kernel-config/driver/isobench_probe.c), the one definition of its
 * ioctl, request layout and limits (the probe list is the architecture's, below). Included by the driver (the kernel build
 * copies this folder into the tree as drivers/misc/isobench/) and by the runner
 * (payload/bench/ring0.h names it by its path from there) and tests/ring0-abi.c: one header,
 * so the two sides cannot disagree. It needs no
 * kernel header in user space (musl ships none): fixed-width types from <stdint.h> and the
 * _IOWR() macro from <sys/ioctl.h>.
 *
 * One call, ISOBENCH_PROBE_IOC_RUN: run probe `probe` for `iters` iterations on CPU `cpu`
 * (in a kernel worker bound to it, preemption off, interrupts off unless the probe needs
 * them), return the cycle-counter ticks (x86-64: the TSC; arm64: CNTVCT_EL0, the generic
 * timer's virtual count) and nanoseconds the iterations took (`done` of them: a call
 * stops after about ISOBENCH_PROBE_CALL_NS or ISOBENCH_PROBE_MAX_BATCHES batches and says
 * how many it did; call again for the rest). The iterations run in batches (about 500 us
 * each); beside each batch, in the same interrupts-off stretch, the driver times a null
 * batch: the same number of turns of the same loop with no operation (alternately before
 * and after it). Per call it also returns the median over its batches of (batch - null
 * batch) per iteration and the median null batch per iteration: a host preemption inside
 * one batch moves neither. Errors (ioctl() returns -1, errno):
 *   EINVAL      unknown probe, iters 0 or above ISOBENCH_PROBE_MAX_ITERS, cpu/target out of
 *               range or target == cpu, flags not 0
 *   EPROTO      version is not ISOBENCH_PROBE_VERSION (the driver writes its own back)
 *   ENODEV      cpu (or target) is offline
 *   EOPNOTSUPP  this machine lacks what the probe needs (no second CPU, no PM timer, a
 *               hypercall that faults with #UD, an MSR write that faults, an SMCCC
 *               conduit that is SMC (firmware, not a hypervisor), a kernel clock that
 *               moves only once a tick, ...): `reason` says what
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
typedef __s64 ibp_s64;
#else
#include <stdint.h>
#include <sys/ioctl.h>
typedef uint32_t ibp_u32;
typedef int32_t ibp_s32;
typedef uint64_t ibp_u64;
typedef int64_t ibp_s64;
#endif

#define ISOBENCH_PROBE_DEVICE "/dev/isobench-probe"
/* Bumped whenever the request's meaning changes (its size is also in the ioctl number).
 * 2: the medians (batches, net_*, null_*) and the null batch beside every batch. */
#define ISOBENCH_PROBE_VERSION 2
#define ISOBENCH_PROBE_MAX_ITERS (1u << 24)	/* per call */
#define ISOBENCH_PROBE_CALL_NS 50000000u	/* a call returns after about 50 ms */
#define ISOBENCH_PROBE_MAX_BATCHES 256u		/* ... or after this many batches */
#define ISOBENCH_PROBE_ANY_CPU (-1)		/* target: the next online CPU after cpu */
#define ISOBENCH_PROBE_REASON 96

/* The probes: ISOBENCH_PROBES(X), one X(ID, name, title) per probe, is the architecture's own
 * list, in isobench_probe_arch.h of kernel-config/driver/arch/<arch>/ (x86_64, aarch64; none:
 * the empty list of an architecture whose kernel has no driver). The kernel build copies that
 * folder beside this file (drivers/misc/isobench/); user space finds it by include path
 * (payload/arch/arch.mk: RING0_DIR). The probe NUMBERS are per architecture: probe 0 is
 * cpuid on x86-64 and hvc on arm64; a name found on both (ipi, self_ipi, ...) is the same
 * generic probe under two numbers. */
#include "isobench_probe_arch.h"

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
	ibp_u64 cycles;		/* out: counter ticks (TSC, CNTVCT_EL0) they took (the batches' sum) */
	ibp_u64 ns;		/* out: nanoseconds (the kernel's monotonic clock), likewise */
	ibp_u32 batches;	/* out: batches timed, each beside its null batch */
	ibp_u32 pad2;		/* out: 0 */
	/* out: median over the batches of (batch - its null batch) per iteration, x 1000 (may
	 * be <= 0: an operation no dearer than the empty loop) */
	ibp_s64 net_ns_x1000;
	ibp_s64 net_cycles_x1000;
	/* out: median over the null batches of their time per iteration, x 1000: the loop, and
	 * the counter and clock reads around a batch shared among its iterations */
	ibp_u64 null_ns_x1000;
	ibp_u64 null_cycles_x1000;
	char reason[ISOBENCH_PROBE_REASON];	/* out: why EOPNOTSUPP, NUL-terminated */
};

/* 'I' 0xB0: no other user in Documentation/userspace-api/ioctl/ioctl-number.rst (6.1). */
#define ISOBENCH_PROBE_IOC_RUN _IOWR('I', 0xB0, struct isobench_probe_req)

#endif
