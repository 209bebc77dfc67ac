/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/* isobench_probe_arch.h (none) — the empty probe list: what user space includes (through
 * ../../isobench_probe.h, payload/arch/arch.mk's RING0_DIR) for an architecture that has no
 * folder under kernel-config/driver/arch/, whose kernel therefore has no ring-0 driver. The
 * runner then lists no ring0 test; nothing else changes. */
#ifndef ISOBENCH_PROBE_ARCH_H
#define ISOBENCH_PROBE_ARCH_H

#define ISOBENCH_PROBES(X)

#endif
