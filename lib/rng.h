/* rng.h — the seeded pseudo-random generator the runner's tests share (header only).
 *
 * splitmix64: in/out *s, the 64-bit state (any value; a fixed seed gives one sequence);
 * returns the next 64 random bits. Steele, Lea and Flood, "Fast splittable pseudorandom
 * number generators" (OOPSLA 2014); the constants are Vigna's splitmix64.c (prng.di.unimi.it).
 * Not for cryptography: for reproducible orders and draws (mem-latency's page cycle, tbench's
 * synthetic operations). */
#ifndef ISOBENCH_RNG_H
#define ISOBENCH_RNG_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
