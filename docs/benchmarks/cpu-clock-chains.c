/* cpu-clock-chains.c — a cross-check of the runner's clock estimate (payload/cpuclock.c) on
 * x86-64: the same method (a dependent chain, ARCH reps and twice as many, the best of 3 of
 * each, MHz = the extra cycles / the extra time) with three chains whose latency the vendors'
 * optimization manuals give: `add reg, reg` (1 cycle, the runner's), `add reg, imm` (1 cycle;
 * a renamer that folds immediate adds would make it read high) and `imul reg, reg` (3 cycles).
 * If all three agree, the chain measures the core clock, not a shortcut of one instruction.
 * Prints, per round, the three figures in MHz; ROUNDS rounds (argv[1], default 200), 1 ms
 * apart. Build: gcc -O2 -o /tmp/cpu-clock-chains docs/benchmarks/cpu-clock-chains.c
 * (docs/benchmarks/cpu-clock.md has the figures). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define REPS 128	/* x 128 instructions: 16,384 per short run, as the runner */

static uint64_t ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t add_reg(uint64_t r, uint64_t v, uint64_t s)
{
	__asm__ volatile("1:\n\t.rept 128\n\tadd %2, %0\n\t.endr\n\tdec %1\n\tjnz 1b"
			 : "+r"(v), "+r"(r) : "r"(s) : "cc");
	return v;
}

static uint64_t add_imm(uint64_t r, uint64_t v, uint64_t s)
{
	(void)s;
	__asm__ volatile("1:\n\t.rept 128\n\tadd $1, %0\n\t.endr\n\tdec %1\n\tjnz 1b"
			 : "+r"(v), "+r"(r) :: "cc");
	return v;
}

static uint64_t imul_reg(uint64_t r, uint64_t v, uint64_t s)
{
	__asm__ volatile("1:\n\t.rept 128\n\timul %2, %0\n\t.endr\n\tdec %1\n\tjnz 1b"
			 : "+r"(v), "+r"(r) : "r"(s) : "cc");
	return v;
}

static volatile uint64_t sink;

/* MHz by chain f of `lat` cycles per instruction, as cpuclock_chain_now() measures it. */
static double mhz(uint64_t (*f)(uint64_t, uint64_t, uint64_t), int lat)
{
	uint64_t bs = UINT64_MAX, bl = UINT64_MAX, v = sink | 1;
	for (int t = 0; t < 3; t++) {
		uint64_t t0 = ns();
		v = f(REPS, v, 3);
		uint64_t t1 = ns();
		v = f(2 * REPS, v, 3);
		uint64_t t2 = ns();
		if (t1 - t0 < bs)
			bs = t1 - t0;
		if (t2 - t1 < bl)
			bl = t2 - t1;
	}
	sink = v;
	return bl > bs ? (double)REPS * 128 * lat / (double)(bl - bs) * 1000 : 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200;
	printf("round add_reg add_imm imul_reg\n");
	for (int i = 0; i < rounds; i++) {
		double a = mhz(add_reg, 1), b = mhz(add_imm, 1), c = mhz(imul_reg, 3);
		printf("%d %.0f %.0f %.0f\n", i, a, b, c);
		usleep(1000);
	}
	return 0;
}
