/* cpupolicy.h — the CPU's clock and idle policy: set from isobench.cpufreq=, isobench.boost=
 * and isobench.idle= (params.h), and read for the header (INFO cpufreq.*, cpuidle.*,
 * cpu.governor, cpu.no_turbo; docs/records.md). Through the kernel's sysfs only
 * (Documentation/admin-guide/pm/cpufreq.rst, intel_pstate.rst, cpuidle.rst):
 *   /sys/devices/system/cpu/cpufreq/policyN/scaling_governor   every policy's governor
 *   /sys/devices/system/cpu/intel_pstate/no_turbo               boost on intel_pstate
 *   /sys/devices/system/cpu/cpufreq/boost                       boost elsewhere (acpi-cpufreq)
 *   /sys/devices/system/cpu/cpuN/cpuidle/stateK/{name,latency,disable}
 * Where a file is missing the reading says why in words ("none: no cpufreq driver"), never
 * a bare "-".
 *
 * In the image (init) the default isobench.cpufreq is performance (params.h says why); on a
 * host the runner changes nothing unless --cpufreq, --boost or --idle is given, and puts back
 * what it changed when the run ends (cpupolicy_restore()). */
#ifndef ISOBENCH_CPUPOLICY_H
#define ISOBENCH_CPUPOLICY_H

#include <stddef.h>
#include "params.h"

/* The governor the image asks for when isobench.cpufreq is not given. */
#define CPUPOLICY_DEFAULT_IMAGE "performance"

/* Apply p's cpufreq, boost and idle (image: cpufreq defaults to CPUPOLICY_DEFAULT_IMAGE;
 * host: only what was given) and keep what happened in words for cpupolicy_fact(). Errors
 * are said there, never fatal. root: sysfs's SYSFS_CPU (tests pass a planted tree). */
void cpupolicy_apply(const struct params *p, int image, const char *root);

/* What the last cpupolicy_apply() was asked and did not do, in words with the kernel's reason
 * ("cpufreq schedutil: set on 1 of 2 policies, refused on policy1 (Invalid argument); idle
 * max 0 us: 4 refused (cpu0 state1: Permission denied)"), "; "-joined; "" when all was done
 * or nothing asked. Asked: a --cpufreq/isobench.cpufreq given (the image's own default counts
 * only where the kernel refused it, not where there is no cpufreq driver: most guests), any
 * boost or idle. The runner writes it as a WARN what=cpupolicy. */
const char *cpupolicy_refused(void);

/* On a host, put back every sysfs value the last cpupolicy_apply() changed, as it read it
 * before (the run's end, or a signal that cuts it short); the image's are left. A value the
 * kernel refuses back is left as the run set it (nothing to do about it then). Idempotent. */
void cpupolicy_restore(void);

/* The tree cpupolicy_apply() and cpupolicy_fact() work on: SYSFS_CPU, or the folder (ending
 * in '/') that the environment variable CPUPOLICY_ROOT_ENV names — a test's planted tree, so
 * that a host's change and its putting back are checked without touching this machine's. */
#define CPUPOLICY_ROOT_ENV "ISOBENCH_SYSFS_CPU"
const char *cpupolicy_root(void);

/* The header's value of INFO key (an RK_ of cpu.governor, cpu.no_turbo, cpufreq.*, cpuidle.*)
 * as read now under root, into out (cap bytes). */
void cpupolicy_fact(const char *root, const char *key, char *out, size_t cap);

#endif
