/* shell.h — the Shell Scripts workload, exposed for the unit test. */
#ifndef ISOBENCH_SHELL_H
#define ISOBENCH_SHELL_H

#include <stddef.h>

#define SHELL_BUSYBOX "/bin/busybox"
#define SHELL_SRC_LINES 400

/* Write sort.src, tst.sh, multi.sh and bin/ (applet links to busybox) into dir (created if
 * missing).  0 or -errno. */
int shell_prepare(const char *dir);

/* One loop: busybox sh runs "multi.sh n" in dir, i.e. n concurrent tst.sh, and is waited for.
 * keep != 0 leaves each instance's sort.<i>, od.<i>, grep.<i>, wc.<i> in place (tests only).
 * 0, -errno, or -EIO when the script exits non-zero. */
int shell_run_once(const char *dir, int n, int keep);

#endif
