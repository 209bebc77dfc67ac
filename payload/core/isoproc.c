#define _GNU_SOURCE
/* isoproc.c — see isoproc.h.  The ELF reading follows the System V ABI / ELF-64 object format:
 * e_type ET_EXEC or ET_DYN, PT_INTERP names the loader, PT_DYNAMIC present means shared
 * objects are loaded at run time.  The C library is named from the loader: ld-linux-* is
 * glibc's, ld-musl-* musl's. */
#include "isoproc.h"
#include "arch.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"
#include "vocab.h"

int proc_helper(const char *self, char *path, size_t cap)
{
	char dir[256];
	const char *env = getenv(PROC_ENV);

	if (env && *env) {
		snprintf(path, cap, "%s", env);
		return access(path, X_OK) == 0 ? 0 : -ENOENT;
	}
	if (self && self[0] == '/') {
		snprintf(dir, sizeof dir, "%s", self);
		snprintf(path, cap, "%s/isobench-proc", dirname(dir));
		if (access(path, X_OK) == 0)
			return 0;
	}
	snprintf(path, cap, "%s/isobench-proc", PROC_LIBEXEC);
	return access(path, X_OK) == 0 ? 0 : -ENOENT;
}

/* glibc's libc.so.6 carries "GNU C Library (...) stable release version X.Y": find X.Y. */
static void glibc_version(const char *lib, char *out, size_t cap)
{
	static char buf[1 << 16];
	static const char key[] = "release version ";
	FILE *f = fopen(lib, "re");
	size_t n, keep = 0;

	if (!f)
		return;
	while ((n = fread(buf + keep, 1, sizeof buf - 1 - keep, f)) > 0) {
		char *p;

		n += keep;
		buf[n] = 0;
		for (p = buf; (p = memmem(p, n - (size_t)(p - buf), key, sizeof key - 1)); p++) {
			char *v = p + sizeof key - 1;
			size_t l = strspn(v, "0123456789.");

			if (l && v + l < buf + n) {
				snprintf(out, cap, "glibc %.*s", (int)(l && v[l - 1] == '.' ? l - 1 : l), v);
				fclose(f);
				return;
			}
		}
		keep = n > 64 ? 64 : n;	/* a key split across two reads */
		memmove(buf, buf + n - keep, keep);
	}
	fclose(f);
}

static void find_libc(struct proc_desc *d)
{
	static const char *const glibc[] = {
		ARCH_GLIBC_PATHS, "/lib/libc.so.6", NULL,
	};
	struct stat st;

	if (strstr(d->interp, "ld-musl")) {
		snprintf(d->libc, sizeof d->libc, "musl");
		snprintf(d->libc_path, sizeof d->libc_path, "%s", d->interp); /* loader = libc */
	} else if (strstr(d->interp, "ld-linux")) {
		snprintf(d->libc, sizeof d->libc, "glibc");
		for (int i = 0; glibc[i]; i++)
			if (stat(glibc[i], &st) == 0) {
				snprintf(d->libc_path, sizeof d->libc_path, "%s", glibc[i]);
				glibc_version(glibc[i], d->libc, sizeof d->libc);
				break;
			}
	}
	if (strcmp(d->libc_path, "-") && stat(d->libc_path, &st) == 0)
		d->libc_bytes = (long long)st.st_size;
}

int proc_describe(const char *path, struct proc_desc *d)
{
	Elf64_Ehdr eh;
	struct stat st;
	int fd, dyn = 0, err = 0;

	memset(d, 0, sizeof *d);
	snprintf(d->path, sizeof d->path, "%s", path);
	d->bytes = d->libc_bytes = -1;
	strcpy(d->linkage, "-");
	strcpy(d->interp, "-");
	strcpy(d->libc, "-");
	strcpy(d->libc_path, "-");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0)
		d->bytes = (long long)st.st_size;
	if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64) {
		char two[2];

		if (pread(fd, two, 2, 0) == 2 && two[0] == '#' && two[1] == '!')
			strcpy(d->linkage, "script");
		else
			err = -ENOEXEC;
		goto out;
	}
	for (int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (uint64_t)i * eh.e_phentsize)) !=
		    (ssize_t)sizeof ph) {
			err = -EIO;
			goto out;
		}
		if (ph.p_type == PT_DYNAMIC)
			dyn = 1;
		if (ph.p_type == PT_INTERP) {
			size_t n = ph.p_filesz < sizeof d->interp ? ph.p_filesz : sizeof d->interp - 1;

			if (pread(fd, d->interp, n, (off_t)ph.p_offset) != (ssize_t)n) {
				err = -EIO;
				goto out;
			}
			d->interp[n] = 0;
		}
	}
	if (strcmp(d->interp, "-"))
		strcpy(d->linkage, eh.e_type == ET_DYN ? "dynamic-pie" : "dynamic");
	else
		strcpy(d->linkage, eh.e_type == ET_DYN && dyn ? "static-pie" : "static");
	if (strcmp(d->interp, "-"))
		find_libc(d);
	else
		strcpy(d->libc, "static");
out:
	close(fd);
	return err;
}

void proc_info(struct rec_body *b, const char *what, const struct proc_desc *d)
{
	char key[64];

#define KEY(name) vocab_fill(key, sizeof key, name, what)
	rec_str(b, KEY(RK_EXEC_PATH), d->path);
	rec_str(b, KEY(RK_EXEC_LINKAGE), d->linkage);
	rec_str(b, KEY(RK_EXEC_INTERP), d->interp);
	rec_str(b, KEY(RK_EXEC_LIBC), d->libc);
	rec_i64(b, KEY(RK_EXEC_BYTES), d->bytes);
	rec_str(b, KEY(RK_EXEC_LIBC_PATH), d->libc_path);
	rec_i64(b, KEY(RK_EXEC_LIBC_BYTES), d->libc_bytes);
#undef KEY
}

void proc_info_helper(const char *self, struct rec_body *b, const char *what)
{
	struct proc_desc d;
	char path[256];

	if (proc_helper(self, path, sizeof path)) {
		char key[64];

		rec_str(b, vocab_fill(key, sizeof key, RK_EXEC_PATH, what), "-");
		return;
	}
	proc_describe(path, &d);
	proc_info(b, what, &d);
}

void proc_missing_note(struct bench_ctx *ctx)
{
	const char *env = getenv(PROC_ENV);

	if (env && *env)
		bench_note(ctx, "%s=%s is no executable file", PROC_ENV, env);
	else
		bench_note(ctx, "no isobench-proc beside %s or in %s; give --proc PATH or %s=PATH",
			   ctx->self ? ctx->self : "-", PROC_LIBEXEC, PROC_ENV);
}

/* Start "path mode" with its fd 0 and fd 1 on pipes into s: 0 or -errno. */
static int server_start_at(const char *path, const char *mode, struct proc_server *s)
{
	int in[2], out[2];

	if (pipe2(in, O_CLOEXEC))
		return -errno;
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]), close(in[1]);
		return -errno;
	}
	s->pid = fork();
	if (s->pid == 0) {
		if (dup2(in[0], 0) == 0 && dup2(out[1], 1) == 1)
			execl(path, path, mode, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	if (s->pid < 0) {
		close(in[1]), close(out[0]);
		return -errno;
	}
	s->to = in[1];
	s->from = out[0];
	return 0;
}

int proc_server_start(struct bench_ctx *ctx, const char *mode, struct proc_server *s)
{
	char path[256];

	if (proc_helper(ctx->self, path, sizeof path)) {
		proc_missing_note(ctx);
		return -ENOENT;
	}
	return server_start_at(path, mode, s);
}

int proc_verify(const char *path, char *why, size_t cap)
{
	struct proc_server s;
	uint64_t one = 1, got = 1;
	struct pollfd pf;
	int st = 0, rc = -1;
	size_t have = 0;
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;

	int e = server_start_at(path, "spawn-serve", &s);
	if (e) {
		snprintf(why, cap, "cannot start it (%s)", strerror(-e));
		return -1;
	}
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);	/* a program that exits at once closes its fd 0 */
	if (write(s.to, &one, sizeof one) != (ssize_t)sizeof one) {
		snprintf(why, cap, "it does not read the spawn-serve request (%s)", strerror(errno));
		goto out;
	}
	pf.fd = s.from;
	pf.events = POLLIN;
	while (have < sizeof got) {
		int n = poll(&pf, 1, PROC_VERIFY_MS);
		if (n <= 0) {
			snprintf(why, cap, "no answer to the spawn-serve request in %d ms",
				 PROC_VERIFY_MS);
			goto out;
		}
		ssize_t r = read(s.from, (char *)&got + have, sizeof got - have);
		if (r <= 0) {
			snprintf(why, cap, "it ended without answering the spawn-serve request");
			goto out;
		}
		have += (size_t)r;
	}
	if (got) {
		snprintf(why, cap, "its answer to the spawn-serve request is not isobench-proc's");
		goto out;
	}
	rc = 0;
out:
	if (rc)
		kill(s.pid, SIGKILL);
	close(s.to);
	close(s.from);
	while (waitpid(s.pid, &st, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGPIPE, &old, NULL);
	if (!rc && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
		snprintf(why, cap, "it did not exit 0 at the end of its input");
		rc = -1;
	}
	return rc;
}

void proc_server_stop(struct proc_server *s)
{
	int st;

	close(s->to);
	close(s->from);
	while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
		;
}

void proc_server_release(struct bench_ctx *ctx)
{
	if (!ctx->state)
		return;
	proc_server_stop(ctx->state);
	free(ctx->state);
	ctx->state = NULL;
	ctx->helper = 0;
}
