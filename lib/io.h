/* io.h — whole-buffer reads and writes on a file descriptor: the one loop of each that the
 * runner, isobench-proc (glibc) and the tests use (and, below, the one reader of a small
 * file). Both loops restart after EINTR and short counts, and return 0 when all len bytes
 * moved, else -errno: the error of read(2)/write(2) (EAGAIN on a non-blocking fd or after
 * SO_RCVTIMEO/SO_SNDTIMEO), or -EPIPE when read_all meets end of file (or write returns 0)
 * before len bytes. errno is left as the failing call set it. Callers turn the -errno into a
 * message or a status where they report it. */
#ifndef ISOBENCH_IO_H
#define ISOBENCH_IO_H

#include <stddef.h>
#include <sys/types.h>

int write_all(int fd, const void *buf, size_t len);
/* write_all(), but a write that would block (EAGAIN on an fd whose open file description is
 * O_NONBLOCK, perhaps set by another holder of it) waits in poll(2) for room and goes on,
 * never returning -EAGAIN: for a console, where "not now" is not an error. */
int write_all_wait(int fd, const void *buf, size_t len);
int read_all(int fd, void *buf, size_t len);

/* The one small-file reader (procfs, sysfs, a firmware table's head): the start of the file at
 * path into buf, at most cap bytes, read until cap bytes or end of file (EINTR restarted),
 * the file closed again. Returns the number of bytes read (0: an empty file), or -errno of
 * open(2) or of a read(2) that failed before any byte came (later: the bytes so far). */
ssize_t read_file(const char *path, void *buf, size_t cap);
/* read_file() of at most cap - 1 bytes as a string (cap >= 1): buf is always NUL-terminated,
 * "" when the file is missing, unreadable or empty. Returns what read_file() returns. */
ssize_t read_file_str(const char *path, char *buf, size_t cap);

/* Bytes another machine sent (a peer's answer, a metadata service's), quoted for a message:
 * in[0..len) into out (cap bytes, NUL-terminated), printable ASCII as it is but '\\' and '\'',
 * every other byte as \xHH (a NUL is \x00, never the end of what is shown); when it does not
 * fit, what fits and "...". Returns out. */
char *io_quote(char *out, size_t cap, const void *in, size_t len);

#endif
