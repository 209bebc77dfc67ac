/* io.h — whole-buffer reads and writes on a file descriptor: the one loop of each that the
 * runner, isobench-proc (glibc) and the tests use. Both restart after EINTR and short counts,
 * and return 0 when all len bytes moved, else -errno: the error of read(2)/write(2) (EAGAIN
 * on a non-blocking fd or after SO_RCVTIMEO/SO_SNDTIMEO), or -EPIPE when read_all meets end
 * of file (or write returns 0) before len bytes. errno is left as the failing call set it.
 * Callers turn the -errno into a message or a status where they report it. */
#ifndef ISOBENCH_IO_H
#define ISOBENCH_IO_H

#include <stddef.h>

int write_all(int fd, const void *buf, size_t len);
/* write_all(), but a write that would block (EAGAIN on an fd whose open file description is
 * O_NONBLOCK, perhaps set by another holder of it) waits in poll(2) for room and goes on,
 * never returning -EAGAIN: for a console, where "not now" is not an error. */
int write_all_wait(int fd, const void *buf, size_t len);
int read_all(int fd, void *buf, size_t len);

#endif
