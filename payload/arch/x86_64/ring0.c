/* ring0.c (x86-64) — the `ring0` tests: one per probe of the driver's list
 * (kernel-config/driver/isobench_probe.h, ISOBENCH_PROBES), whose instructions are x86's and
 * run in the kernel (kernel-config/driver/isobench_probe.c); the calls are
 * payload/bench/ring0.c's. Another architecture lists the same names as unsupported. */
#include "../../bench/ring0.h"

ISOBENCH_PROBES(RING0_BENCH)
