/* follow.h — live progress from a growing console log (isobench-report --follow).
 *
 * Follows the newest run: lines before the last BEGIN already in LOG are skipped, and a later
 * BEGIN starts over (a new boot). Prints one line per verified BEGIN, TEST, RESULT, SKIP, FAIL,
 * ERROR and END record (checksums checked by the shared parser), damaged lines and a kernel
 * panic. A file that shrinks (truncated, rewritten) is followed again from its start, and says
 * so. Ends: with pid > 0, when that process has exited (an END does not end it: the writer may
 * boot again); without, at the newest run's END, or after idle_s seconds without new data
 * (idle_s 0: no limit).
 * Returns an exit status (lib/status.h): EXIT_OK the followed run ended complete without
 * FAIL/ERROR, EXIT_FAILS complete with FAIL/ERROR, EXIT_INCOMPLETE no complete run (cut off,
 * writer gone, idle limit, LOG unreadable or a directory); a message on stderr says why. */
#ifndef ISOBENCH_FOLLOW_H
#define ISOBENCH_FOLLOW_H

#include <stdio.h>
#include <sys/types.h>

int follow_log(const char *path, pid_t pid, int idle_s, FILE *out);

#endif
