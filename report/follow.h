/* follow.h — live progress from a growing console log (isobench-report --follow).
 * Reads LOG as it grows and prints one line per verified BEGIN, TEST, RESULT, SKIP, FAIL,
 * ERROR and END record (checksums checked by the shared parser), plus damaged lines and a
 * kernel panic. Returns when END is seen, or when process pid (if > 0) has exited and the
 * log holds nothing more. Returns 0, or -1 if the log cannot be opened. */
#ifndef ISOBENCH_FOLLOW_H
#define ISOBENCH_FOLLOW_H

#include <stdio.h>
#include <sys/types.h>

int follow_log(const char *path, pid_t pid, FILE *out);

#endif
