/* ring0.c (aarch64) — the `ring0` tests on arm64: the driver's probes
 * (kernel-config/driver/isobench_probe.h, ISOBENCH_PROBES) are x86 instructions and the
 * arm64 kernel is built without the driver, so every name stays listed and SKIPs with the
 * reason (payload/arch/unsupported.h); the records keep one shape on both architectures. */
#include "../unsupported.h"
#include "../../bench/ring0.h"

#define RING0_ARM64(id, nm, ttl) \
	ARCH_UNSUPPORTED(bench_ring0_##nm, RING0_PREFIX #nm, ttl, RING0_GROUP, "ns", \
			 "ring0 probes are x86 instructions; the arm64 kernel has no probe driver");
ISOBENCH_PROBES(RING0_ARM64)
