/* isoproc.h — what the process tests (and dhry2reg) execute: finding isobench-proc, starting one
 * of its serve modes, describing an ELF program (linkage, loader, C library, size) and saying
 * so in an INFO record. */
#ifndef ISOBENCH_ISOPROC_H
#define ISOBENCH_ISOPROC_H

#include <stddef.h>
#include <sys/types.h>

#include "../benchapi.h"
#include "record.h"

/* Where the image keeps the programs tests execute (initramfs/build.sh puts them there). */
#define PROC_LIBEXEC "/usr/lib/isobench"

struct proc_desc {
	char path[256];
	long long bytes;	/* file size, -1 if unreadable */
	char linkage[16];	/* "dynamic-pie", "dynamic", "static-pie", "static", "script", "-" */
	char interp[128];	/* PT_INTERP (the loader), "-" if none */
	char libc[96];		/* "glibc 2.36", "glibc", "musl", "static", "-" */
	char libc_path[160];	/* the shared C library file, "-" if none found */
	long long libc_bytes;	/* its size, -1 if none */
};

/* The environment variable naming isobench-proc (the CLI's --proc PATH sets it): a sandbox
 * that does not show the runner's directory (gVisor's own /tmp) is given the program this way. */
#define PROC_ENV "ISOBENCH_PROC"

/* Path of isobench-proc: $ISOBENCH_PROC when set (and only it), else next to the running
 * binary (self; a host's out/), else in PROC_LIBEXEC (the image, where the runner is /init).
 * 0, or -ENOENT. */
int proc_helper(const char *self, char *path, size_t cap);

/* The note of a test that found no isobench-proc (proc_helper() failed): where it was looked
 * for and how to provide it. */
void proc_missing_note(struct bench_ctx *ctx);

/* Describe the program at path (symlinks followed). Always fills d; returns 0, or -errno
 * when the file cannot be read (then bytes = -1 and the rest "-"). */
int proc_describe(const char *path, struct proc_desc *d);

/* Add "exec.<what>.path/.linkage/.interp/.libc/.bytes/.libc_path/.libc_bytes" for the
 * program a test executes to an INFO body (the bench's info hook, benchapi.h). */
void proc_info(struct rec_body *b, const char *what, const struct proc_desc *d);

/* The info hook of execl, spawn and dhry2reg: describes isobench-proc, or says it is
 * missing; what is the test's name (the hook's t->name), the keys' middle word. */
void proc_info_helper(const char *self, struct rec_body *b, const char *what);

/* A running "isobench-proc MODE" with its fd 0 and fd 1 on pipes (spawn-serve, dhry-serve). */
struct proc_server {
	pid_t pid;
	int to, from;	/* pipes to the server's fd 0 and from its fd 1 */
};

/* Start "isobench-proc MODE" (found with proc_helper(self)) with pipes to it; the child
 * inherits the caller's CPU affinity.  0, -ENOENT when there is no isobench-proc (a note in
 * ctx says where it was looked for), or -errno. */
int proc_server_start(struct bench_ctx *ctx, const char *mode, struct proc_server *s);

/* Whether the program at path answers as isobench-proc (a --proc / ISOBENCH_PROC the user
 * names: another program would give the process tests a figure of its own, e.g. /bin/true as
 * execl's one exec for N): "path spawn-serve" is sent one loop and must answer 8 zero bytes
 * within PROC_VERIFY_MS ms and exit 0 at the end of its input. 0, or -1 with why (cap
 * bytes) said. SIGPIPE is ignored meanwhile. */
#define PROC_VERIFY_MS 10000
int proc_verify(const char *path, char *why, size_t cap);

/* Close the pipes (end of input: the server exits) and reap it. */
void proc_server_stop(struct proc_server *s);

/* A test's teardown when its ctx->state is a malloc'd proc_server (or NULL): stop it, free
 * it, clear ctx->state and ctx->helper. */
void proc_server_release(struct bench_ctx *ctx);

#endif
