/* memory-triad-probe.c — a standalone check beside memory-vs-stream.sh (issue 36, item 6): is
 * the runner's STREAM triad lower than STREAM's because of the harness, or because of what the
 * arrays hold and what runs before each pass? One anonymous mapping of three arrays of
 * 64 Mi doubles (512 MiB each), 136 elements apart as in payload/bench/mem_stream.c, first
 * touched a, b, c interleaved; 20 passes, the first dropped; prints the best and the average
 * pass in MB/s (10^6 bytes, 24 bytes per element as STREAM counts add and triad).
 *
 * Modes (argv[1]):
 *   0  triad alone, the runner's values (a = 1, b = 2, c = 0: after a pass every a[j] is 2)
 *   1  triad alone, c nonzero and varying (STREAM's arrays after its first passes)
 *   2  STREAM's order: copy, scale and add before each timed triad (c nonzero)
 *   3  add alone
 *   4  triad in calls of 2048 elements, as the runner's ST_BLOCK
 *   5  mode 0 with the mapping bound to node 0 (mbind MPOL_BIND), as the runner binds it
 * Build: musl-gcc -O2 -static -o probe memory-triad-probe.c; run: taskset -c 0 ./probe MODE.
 * Exit status 0, or 1 when a mapping fails. The clock is read once before and once after each
 * whole pass, never inside one. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define N (64ul << 20)
#define OFF 136
#define BLOCK 2048

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

__attribute__((noinline)) static void triad(double *restrict a, const double *restrict b,
					    const double *restrict c, size_t n)
{
	for (size_t j = 0; j < n; j++)
		a[j] = b[j] + 3.0 * c[j];
}

__attribute__((noinline)) static void add(double *restrict c, const double *restrict a,
					  const double *restrict b, size_t n)
{
	for (size_t j = 0; j < n; j++)
		c[j] = a[j] + b[j];
}

__attribute__((noinline)) static void scale(double *restrict b, const double *restrict c, size_t n)
{
	for (size_t j = 0; j < n; j++)
		b[j] = 3.0 * c[j];
}

__attribute__((noinline)) static void copy(double *restrict c, const double *restrict a, size_t n)
{
	for (size_t j = 0; j < n; j++)
		c[j] = a[j];
}

int main(int argc, char **argv)
{
	int mode = argc > 1 ? atoi(argv[1]) : 0;
	size_t span = N + OFF;
	double *a = mmap(NULL, 3 * span * sizeof(double), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	double *b = a + span, *c = b + span;
	if (mode == 5) {
		unsigned long node0 = 1;
		if (syscall(SYS_mbind, a, 3 * span * sizeof(double), 2 /* MPOL_BIND */, &node0,
			    2, 0))
			perror("mbind");
	}
	for (size_t j = 0; j < N; j++) {
		a[j] = 1.0;
		b[j] = 2.0;
		c[j] = (mode == 1 || mode == 2) ? 0.5 + (double)j * 1e-9 : 0.0;
	}
	double best = 1e9, sum = 0;
	for (int k = 0; k < 20; k++) {
		if (mode == 2) {
			copy(c, a, N);
			scale(b, c, N);
			add(c, a, b, N);
		}
		double t = now();
		if (mode == 3)
			add(c, a, b, N);
		else if (mode == 4)
			for (size_t e = 0; e < N; e += BLOCK)
				triad(a + e, b + e, c + e, BLOCK);
		else
			triad(a, b, c, N);
		t = now() - t;
		if (k) {
			sum += t;
			best = t < best ? t : best;
		}
	}
	/* a result depends on every pass: the compiler keeps them all */
	printf("mode %d best %.0f MB/s avg %.0f MB/s (check %g)\n", mode, 24.0 * N / best / 1e6,
	       24.0 * N / (sum / 19) / 1e6, a[N / 2] + c[N / 3]);
	return 0;
}
