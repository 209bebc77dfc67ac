/* isobench-proc — the program UnixBench's process tests execute, in UnixBench's shape.
 *
 * Built as a dynamically linked, position-independent executable against the distribution's
 * C library (payload/proc/Makefile; Debian's glibc), because UnixBench's execl and spawn
 * programs are: their cost includes the kernel mapping the loader, the loader mapping and
 * relocating the shared C library, and fork() copying the page tables of such a process.
 * docs/benchmarks/fidelity-unixbench.md has the measurements behind the choice of C library.
 * The runner (static musl) starts this program; it never links it.  dhry2reg runs here too,
 * for the same reason: UnixBench's Dhrystone calls glibc's strcmp (section 8 of the note).
 *
 *   isobench-proc              exit 0 at once (a trivial dynamically linked program)
 *   isobench-proc execl N      re-execute argv[0] with N-1 until N is 0, then exit 0: N
 *                              execve()s in one process, as UnixBench's execl.c re-executes
 *                              itself carrying its counter in argv (argv[0] must be a path)
 *   isobench-proc spawn N      N times: fork(), the child exit(0)s, wait for it (spawn.c)
 *   isobench-proc spawn-serve  the same loop on request: read a count N (8 bytes, native
 *                              order) from fd 0, run N loops, write 8 bytes to fd 1 (0, or
 *                              the errno that stopped it); exit 0 at end of input.  One
 *                              process serves every batch of a spawn copy, so the measured
 *                              loops fork this dynamically linked process and nothing else.
 *   isobench-proc dhry-serve   Dhrystone 2.1 for the dhry2reg test (bench/dhry2reg.c): run its
 *                              self-check and write 8 bytes (0 passed; else EPROTO, the value
 *                              that failed on stderr, and exit 1); then per request read a
 *                              count N (8 bytes), run exactly N loops (no clock read) and
 *                              write 16 bytes: 0 and a fold of the loop's locals (so the
 *                              compiler cannot drop the work); exit 0 at end of input.
 * Exit status: 0 done, 1 a system call failed (message on stderr), 2 usage error.
 */
#include "io.h"
#include "dhry.h"
#include "num.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long long count(const char *s)
{
	unsigned long long n;

	if (num_ull(s, NUM_SPACE | NUM_PLUS, 0, ULLONG_MAX, &n)) {
		fprintf(stderr, "isobench-proc: bad count '%s'\n", s);
		exit(2);
	}
	return n;
}

/* n x (fork, child exit(0), wait): 0 or an errno value. */
static int spawn(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		int st;
		pid_t pid = fork();

		if (pid < 0)
			return errno;
		if (pid == 0)
			exit(0);
		if (waitpid(pid, &st, 0) != pid)
			return errno;
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			return ECHILD;
	}
	return 0;
}

/* dhry-serve: see the header. */
static int dhry_serve(void)
{
	char why[96];
	uint64_t n, ans[2] = { 0, 0 };

	if (dhry_selfcheck(100, why, sizeof why)) {
		fprintf(stderr, "isobench-proc: dhrystone self-check failed: %s\n", why);
		ans[0] = EPROTO;
		write_all(1, ans, sizeof ans[0]);
		return 1;
	}
	if (write_all(1, ans, sizeof ans[0]))
		return 1;
	while (read_all(0, &n, sizeof n) == 0) {
		ans[1] = dhry_runs(n);
		if (write_all(1, ans, sizeof ans))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 0;
	if (argc == 2 && !strcmp(argv[1], "spawn-serve")) {
		uint64_t n, err;

		while (read_all(0, &n, sizeof n) == 0) {
			err = (uint64_t)spawn(n);
			if (write_all(1, &err, sizeof err))
				return 1;
		}
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "dhry-serve"))
		return dhry_serve();
	if (argc == 3 && !strcmp(argv[1], "execl")) {
		unsigned long long n = count(argv[2]);
		char next[24];

		if (n == 0)
			return 0;
		snprintf(next, sizeof next, "%llu", n - 1);
		execl(argv[0], argv[0], "execl", next, (char *)NULL);
		perror("isobench-proc: execl");
		return 1;
	}
	if (argc == 3 && !strcmp(argv[1], "spawn")) {
		int err = spawn(count(argv[2]));

		if (err)
			fprintf(stderr, "isobench-proc: spawn: %s\n", strerror(err));
		return !!err;
	}
	fprintf(stderr, "usage: isobench-proc [execl N | spawn N | spawn-serve | dhry-serve]\n");
	return 2;
}
