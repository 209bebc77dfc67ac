/* io.h — whole-buffer reads and writes on a file descriptor: the one loop of each that the
 * runner, isobench-proc (glibc) and the tests use (and, below, the one reader of a small
 * file, of its first line and of its "key: value" lines). Both loops restart after EINTR and short counts, and return 0 when all len bytes
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
/* The first line of the file at path (a sysfs attribute: "1500", "tsc", "0-3") into buf (cap
 * >= 1 bytes): read_file_str() of at most cap - 1 bytes, cut at the first '\n', blanks
 * (space, tab, '\r') trimmed at both ends. Returns its length (0: an empty or blank line),
 * or -errno of read_file() with buf "". A line longer than cap - 1 bytes is cut there. */
ssize_t read_line(const char *path, char *buf, size_t cap);

/* The "key: value" readers, one for every procfs table of that shape: /proc/meminfo
 * ("MemTotal:       16318412 kB"), /proc/PID/status ("VmRSS:\t    1024 kB"), /proc/vmstat
 * ("pgfault 123", sep ' '), /proc/cpuinfo ("model name\t: ...": the first CPU's, the first
 * line wins), nodeN/meminfo ("Node 0 MemTotal:  1012 kB": the key holds "Node 0 ").
 * A line matches when it is key itself, then blanks (space, tab; none or more, at least one
 * when sep is ' '), then sep; a key that is only a prefix of the line's name never matches.
 * kv_get: in text (NUL-terminated, lines split by '\n'), the first matching line's value,
 * blanks trimmed at both ends, into out (cap >= 1; a longer value is cut to cap - 1 bytes).
 * Returns 0, or -ENOENT (no such line; out ""). */
int kv_get(const char *text, const char *key, char sep, char *out, size_t cap);
/* kv_get() over the first KV_FILE_MAX bytes of the file at path (a line past them is absent,
 * and so is one that goes on past them: cut, "pgfault 12345" would read as "pgfault 12").
 * Returns 0, -ENOENT, or -errno of read_file() / -ENOMEM (out "" on every error). */
#define KV_FILE_MAX 65536
int read_kv(const char *path, const char *key, char sep, char *out, size_t cap);
/* kv_ll: kv_get()'s value as a decimal integer (lib/num.h's num_ll: no sign '+', nothing
 * after it), when unit is not NULL followed by one blank and unit ("kB": then the figure is in
 * KiB, as the file says; a value without the unit is refused, so a field in another unit is
 * never taken for KiB). Returns 0 and *out set; -ENOENT (no such line), or -EINVAL when the
 * value is no such number (trailing text, past a long long, another unit, more than 63 bytes:
 * never a figure read from a cut value); *out untouched on
 * an error. read_kv_ll: the same over the file at path (read_kv()), or -errno of the read. */
int kv_ll(const char *text, const char *key, char sep, const char *unit, long long *out);
int read_kv_ll(const char *path, const char *key, char sep, const char *unit, long long *out);

/* The one splitter of a text line into blank-separated fields (a procfs table's row, the
 * part of /proc/PID/stat after the name, a wc(1) answer): in s (changed in place), the first
 * max runs of characters other than blanks (space, tab, '\n', '\r'), each NUL-terminated,
 * their starts into f[0..max). Text after the max-th field is left alone (unsplit). Returns
 * how many fields were stored (0..max; 0 for an empty or blank line). The fields' numbers go
 * through lib/num.h: this and num_ll/num_ull replace a sscanf(3) "%d %lx" (whose overflow is
 * undefined and which takes a sign or a blank where no number is). */
int split_fields(char *s, char **f, int max);

/* Bytes another machine sent (a peer's answer, a metadata service's), quoted for a message:
 * in[0..len) into out (cap bytes, NUL-terminated), printable ASCII as it is but '\\' and '\'',
 * every other byte as \xHH (a NUL is \x00, never the end of what is shown); when it does not
 * fit, what fits and "...". Returns out. */
char *io_quote(char *out, size_t cap, const void *in, size_t len);

#endif
