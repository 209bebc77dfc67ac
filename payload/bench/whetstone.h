/* whetstone.h — double-precision Whetstone (Curnow & Wichmann 1976) in the module structure of
 * the common C translation (netlib benchmark/whetstone.c, Rich Painter 1998: modules 1..11,
 * loop weights N1..N11 = LOOP x {0,12,14,345,0,210,32,899,616,0,93}). */
#ifndef ISOBENCH_WHETSTONE_H
#define ISOBENCH_WHETSTONE_H

#include <stddef.h>

#define WHET_ROWS 10	/* modules 1,2,3,4,6,7,8,9,10,11 (module 5 is omitted in the original) */

/* One printed line of the reference program: N, J, K and four values. */
struct whet_row {
	long n, j, k;
	double x[4];
};

/* One pass over all modules with loop multiplier `loop` (the reference program's LOOP);
 * records each module's line in rows[] when rows is not NULL.  Returns a value derived from
 * every module's final state, for a sink. */
double whet_pass(long loop, struct whet_row *rows);

/* The reference program's printed lines for LOOP=10, II=1 (see whetstone.c). */
extern const struct whet_row whet_reference[WHET_ROWS];

/* Compare rows against the reference: integers exactly, values to the printed precision.
 * Returns 0, or -1 with the first mismatch described in why. */
int whet_compare(const struct whet_row *rows, char *why, size_t len);

/* whet_pass(10, rows) then whet_compare(). */
int whet_selfcheck(char *why, size_t len);

#endif
