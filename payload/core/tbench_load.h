/* tbench_load.h — the operations the `tbench` probe replays, and where they come from.
 *
 * An operation is one request/reply exchange over TCP: the client sends `req` bytes (an
 * 8-byte header — bytes that follow, bytes wanted back — then the body) and the server answers
 * with `rep` bytes. `payload` is the file data the operation stands for (ReadX: bytes read,
 * WriteX: bytes written, else 0); tbench's MB/s counts only that (10^6 bytes).
 *
 * Sizes follow dbench 4's tbench client (sockio.c), which sizes each exchange like the SMB
 * packet it stands for; L is the length of the path as dbench builds it (the load file's path
 * with its "." prefix, i.e. strlen(path) + 1):
 *
 *   op                      request bytes        reply bytes      payload
 *   NTCreateX               70 + 2 + 2L + 2      39 + 48
 *   Close                   39 + 8               39
 *   ReadX h off size ret    39 + 20              39 + 20 + ret    ret (read)
 *   WriteX h off size ret   39 + 20 + size       39 + 16          size (written)
 *   QUERY_PATH_INFORMATION  39 + 16 + 2L         39 + 32
 *   QUERY_FILE_INFORMATION  39 + 20              39 + 32
 *   QUERY_FS_INFORMATION    39 + 20              39 + 32
 *   SET_FILE_INFORMATION    39 + 32              39 + 8
 *   FIND_FIRST p lvl max n  39 + 20 + 2L         39 + 90n
 *   Unlink, Mkdir, Rmdir    39 + 2 + 2L + 2      39
 *   Rename                  39 + 8 + 2L1 + 2L2   39
 *   Flush                   39 + 2               39
 *   LockX, UnlockX          39 + 12              39
 *   Deltree                 (no exchange)
 *
 * Load file format (dbench 4 "client.txt", as the Debian package dbench installs it): one operation
 * per line, fields separated by blanks, paths in double quotes; an optional leading timestamp
 * (a number) is ignored; the last field is the expected status (NT_STATUS_* or 0x...);
 * numbers are decimal or 0x hex; blank lines and lines starting with '#' are skipped. Field
 * counts per op (after the name, before the status): NTCreateX path + 3 numbers, Close 1,
 * ReadX 4, WriteX 4, QUERY_PATH_INFORMATION path + 1, QUERY_FILE_INFORMATION 2,
 * QUERY_FS_INFORMATION 1, SET_FILE_INFORMATION 2, FIND_FIRST path + 3, Unlink path + 1,
 * Rename path path, Flush 1, LockX 3, UnlockX 3, Mkdir/Rmdir/Deltree path.
 * A malformed line is an error naming its line number, e.g.
 * "line 12: ReadX: expected 4 numbers, got 2"; it never crashes.
 *
 * Synthetic load (the default): operations drawn with a seeded PRNG (splitmix64; same seed →
 * same sequence) from the mix of dbench's client.txt: by count ReadX 27.1%, NTCreateX 17.3%,
 * QUERY_PATH_INFORMATION 15.7%, Close 12.7%, WriteX 8.6%, FIND_FIRST 6.1%, Unlink 3.5%,
 * QUERY_FS_INFORMATION 2.9%, QUERY_FILE_INFORMATION 2.7%, SET_FILE_INFORMATION 1.4%,
 * Flush 1.2%, Rename 0.7%, LockX/UnlockX 0.06% each; read sizes 4 KiB 67%, 60 KiB 13.4%,
 * 2 KiB 3.7%, 8 KiB 3.7%, 16 KiB 1.6%, 2256 B 10.6% (the mean of the rest); write sizes
 * 64 KiB 32%, 4 KiB 25.2%, 1 B 18.8%, 2 KiB 4.3%, 8 KiB 3%, 20000 B 16.8% (the mean of the
 * rest); paths of 38 characters (L = 39, client.txt's mean); FIND_FIRST returns 0 entries
 * (55%) or 11 (45%). By bytes this gives ~59% read, ~41% written, as client.txt does.
 */
#ifndef ISOBENCH_TBENCH_LOAD_H
#define ISOBENCH_TBENCH_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum tb_kind {
	TB_NTCREATEX, TB_CLOSE, TB_READX, TB_WRITEX, TB_QPATHINFO, TB_QFILEINFO, TB_QFSINFO,
	TB_SFILEINFO, TB_FINDFIRST, TB_UNLINK, TB_RENAME, TB_FLUSH, TB_LOCKX, TB_UNLOCKX,
	TB_MKDIR, TB_RMDIR, TB_DELTREE, TB_NKINDS
};

#define TB_MAX_IO (1u << 20)	/* largest ReadX/WriteX size accepted */
#define TB_MAX_PATH 1000	/* longest path accepted */
#define TB_MAX_FIND 10000	/* largest FIND_FIRST entry count accepted */
#define TB_LINE_MAX 4096	/* longest line accepted */
#define TB_HDR 8		/* request header: bytes that follow, bytes wanted back */

struct tb_op {
	uint8_t kind;		/* enum tb_kind */
	uint32_t req;		/* bytes the client sends, header included (>= TB_HDR) */
	uint32_t rep;		/* bytes the server replies (>= 4) */
	uint32_t payload;	/* read or written file bytes the op stands for */
};

struct tb_load {
	struct tb_op *ops;
	size_t n, cap;
	uint64_t read_bytes, write_bytes;	/* payload totals */
	uint32_t max_req, max_rep;
};

const char *tb_kind_name(int kind);

/* Parse one line (no trailing newline needed). Returns 1 and fills *op for an exchange,
 * 0 for a line that makes none (blank, comment, Deltree), -1 on error with
 * "line N: ..." in err. */
int tb_parse_line(const char *line, unsigned lineno, struct tb_op *op, char *err,
		  size_t errlen);

/* Read a whole load file / stream into ld (appending). 0 or -1 with err set (line-numbered
 * for format errors). A load with no operations or no payload at all is an error. */
int tb_load_stream(FILE *f, struct tb_load *ld, char *err, size_t errlen);
int tb_load_file(const char *path, struct tb_load *ld, char *err, size_t errlen);

/* Append n synthetic operations drawn from seed (see the header comment). 0 or -ENOMEM. */
int tb_synth(uint64_t seed, size_t n, struct tb_load *ld);
/* One synthetic operation; *rng is the splitmix64 state. */
struct tb_op tb_synth_op(uint64_t *rng);

void tb_load_free(struct tb_load *ld);

/* The dbench load file the tbench tests replay: $ISOBENCH_TBENCH_LOAD if set, else
 * TBENCH_LOAD_BUILTIN if it exists (put in the image by the build), else NULL (synthetic). */
#define TBENCH_LOAD_BUILTIN "/etc/isobench/tbench-load.txt"
const char *tbench_load_path(void);

#endif
