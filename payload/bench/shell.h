/* shell.h — the Shell Scripts workload, exposed for the unit test. */
#ifndef ISOBENCH_SHELL_H
#define ISOBENCH_SHELL_H

#include <stddef.h>

#define SHELL_BUSYBOX "/bin/busybox"
#define SHELL_SRC_LINES 362
#define SHELL_NTOOLS 7		/* sh sort od grep tee wc rm */
#define SHELL_TOOLS_DIST 1	/* dash, coreutils, grep: dynamically linked */
#define SHELL_TOOLS_BUSYBOX 2	/* /bin/busybox for all seven */

/* Find the tools (sh sort od grep tee wc rm, in that order) into path[]: a distribution's
 * dynamically linked dash/coreutils/grep if all are found, else /bin/busybox for all.
 * SHELL_TOOLS_DIST, SHELL_TOOLS_BUSYBOX, or -ENOENT (neither). */
int shell_find_tools(char path[SHELL_NTOOLS][256]);

/* Write sort.src, tst.sh, multi.sh and bin/ (links to the tools) into dir (created if
 * missing).  SHELL_TOOLS_DIST or SHELL_TOOLS_BUSYBOX (which tools), or -errno. */
int shell_prepare(const char *dir);

/* One loop: the shell runs "multi.sh n" in dir, i.e. n concurrent tst.sh, and is waited for.
 * keep != 0 leaves each instance's sort.<i>, od.<i>, grep.<i>, wc.<i> in place (tests only).
 * 0, -errno, or -EIO when the script exits non-zero. */
int shell_run_once(const char *dir, int n, int keep);
/* One kept run of "multi.sh n" in dir that must leave every instance's wc.<i> with a line
 * count > 0 (the shell's `wait` says 0 whatever its jobs did); removes their files. 0 or
 * -errno / -EIO. */
int shell_verify(const char *dir, int n);

#endif
