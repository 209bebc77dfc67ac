/* unixbench.h — UnixBench's System Benchmarks Index: a test's index, the pass's score and the
 * classic table. One module, linked into the runner (its console tables) and into
 * isobench-report (text, JSON, CSV), so the two can never disagree.
 *
 * Source: UnixBench 5.1.3 `Run` (indexResults, printIndex): index = result / baseline x 10;
 * the System Benchmarks Index Score = 10 x the geometric mean of the ratios result/baseline
 * over the index tests that produced a result, labelled "(Partial Only)" when fewer than the
 * twelve tests of the index did; the table's columns are "%-40s%13.1f%13.1f%9.1f".
 * Values: a result that is zero, negative, not finite or missing counts as no result (no
 * index, not in the score): these functions never return NaN and never divide by zero. */
#ifndef ISOBENCH_UNIXBENCH_H
#define ISOBENCH_UNIXBENCH_H

#include <math.h>
#include <stddef.h>

/* The number of tests in UnixBench's index (dhry2reg ... syscall; registry.c lists them). */
#define UB_INDEX_TESTS 12

/* Header of the classic table (75 columns, as UnixBench prints it). */
#define UB_TABLE_HEAD "System Benchmarks Index Values               BASELINE       RESULT    INDEX"
/* The line above it that says which figure RESULT is (issue 46): UnixBench's aggregate, kept
 * for fidelity with published tables; comparisons take the whole-run value (RESULT whole=). */
#define UB_TABLE_NOTE "(RESULT: UnixBench's aggregate, worst third of samples dropped; " \
		      "comparisons use every sample)"

/* 1 when a test whose baseline is `baseline` is one of UnixBench's index tests, else 0: the
 * one definition, for the runner (a descriptor's baseline, payload/benchapi.h: 0 outside the
 * index), the report and the fleet (a TEST/RESULT record's baseline=, which only index tests
 * carry: 0 or NAN when absent). An index test is one with a published baseline, a finite
 * number other than 0; the registry's index group holds exactly these (tests/unit/
 * test_registry.c). Inline, so a file using it needs no more than this header. */
static inline int ub_is_index(double baseline)
{
	return isfinite(baseline) && baseline != 0;
}

/* 1 when value and baseline make an index (both positive and finite), else 0. */
int ub_valid(double value, double baseline);
/* value / baseline x 10; 0 when !ub_valid(value, baseline). */
double ub_index(double value, double baseline);

/* A pass's score under construction: add every index test's result, then read it. */
struct ub_score {
	int n;			/* index tests with a valid result */
	double logsum;		/* sum of log(value / baseline) over them */
};
void ub_score_init(struct ub_score *s);
/* Adds one index test; a result that is not valid is left out (the score becomes partial). */
void ub_score_add(struct ub_score *s, double value, double baseline);
/* 10 x geometric mean of the ratios; 0 when no test had a valid result (n == 0). */
double ub_score_value(const struct ub_score *s);
/* 1 when fewer than UB_INDEX_TESTS results went in: UnixBench's "(Partial Only)". */
int ub_score_partial(const struct ub_score *s);
/* 1 when exactly UB_INDEX_TESTS results went in: a score over the whole index (the fleet
 * compares only such scores). */
int ub_score_complete(const struct ub_score *s);

/* One row of the table into buf (cap bytes, no newline); returns buf. With a valid result:
 * title, baseline, result, index. Otherwise title, baseline, "---", "---" and why (e.g.
 * "FAIL", "SKIP"; NULL or "" for nothing). */
const char *ub_row(char *buf, size_t cap, const char *title, double baseline, double value,
		   const char *why);
/* The closing rule and score lines ("========" and "System Benchmarks Index Score NNN.N"
 * over all UB_INDEX_TESTS, "System Benchmarks Index Score (Partial Only: K of 12 index tests)
 * NNN.N" over K of them, or "---" when no test had a result) into buf, two lines,
 * newline-separated, no trailing newline; returns buf. */
const char *ub_footer(char *buf, size_t cap, const struct ub_score *s);
/* "System Benchmarks Index Score" or "... (Partial Only)" for s. */
const char *ub_score_label(const struct ub_score *s);

#endif
