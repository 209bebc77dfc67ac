/* clocksrc.h — the kernel's clocksource, as the runner checks it around every test.
 *
 * Why: a clock read costs ~20 ns with tsc (vDSO) and 10-200x more with hpet, acpi_pm or xen
 * (no vDSO), and the kernel may switch source mid-run (the clocksource watchdog marking the
 * TSC unstable) or ignore a `clocksource=` it was given (under QEMU TCG `clocksource=tsc`
 * runs on hpet). Sources: Documentation/admin-guide/kernel-parameters.txt ("clocksource=")
 * and kernel/time/clocksource.c (the last `clocksource=` word wins). */
#ifndef ISOBENCH_CLOCKSRC_H
#define ISOBENCH_CLOCKSRC_H

#include <stddef.h>

/* The current clocksource (sysfs current_clocksource, or the file named by
 * $ISOBENCH_CLOCKSOURCE_FILE, which the tests use) into out, without the newline; "-" when
 * it cannot be read. */
void clocksource_current(char *out, size_t cap);

/* The clocksource a kernel command line asks for (the last `clocksource=` word) into out;
 * returns 1, or 0 (out = "") when the line asks for none. */
int clocksource_requested(const char *cmdline, char *out, size_t cap);

#endif
