/* history.h — what the results store's runs say over time (issue 34): a test's trend per
 * machine with its change points, and CI's regression verdicts against a stored baseline.
 *
 * Change points: Pettitt's test (A. N. Pettitt, "A non-parametric approach to the
 * change-point problem", Applied Statistics 28(2), 1979) with binary segmentation. Why it: it
 * is the Mann-Whitney statistic of every split at once (U_t from the ranks, one O(n log n)
 * pass), so, like the report's sample test (signif.h), it rests on ranks and shrugs off the
 * odd slow run a shared host gives; it assumes nothing of the distribution and gives a
 * p-value, p ~= 2 exp(-6 K^2 / (n^3 + n^2)) with K = max |U_t|. A split is a change when that
 * p < SIG_ALPHA, both parts hold >= HIST_MIN_SEG runs, and the parts' medians differ beyond
 * the test's noise floor (noisefloor.h): over thousands of runs a tiny drift is
 * "significant", and a change smaller than what same-build repeats show is not news. Each
 * part is then searched again (binary segmentation), so a series may hold several changes;
 * then each change is placed again by the same statistic between its neighbouring changes
 * (with two steps in one segment the first split can land a few runs off the true one). 
 *
 * Regression verdicts (check): the candidate runs (LOGs) against the baseline's stored runs,
 * test by test, one whole-run value per run (model.h's whole). With >= SIG_REP_MIN runs on both
 * sides it is compare.h's replicate design (cmp_replicates(): Welch's t on log values, the
 * paired t by round); with 1 or 2 candidate runs and >= SIG_REP_MIN in the baseline, signif.h's
 * prediction t. Either way the answer is compare's rule, one owner (signif.h's sig_answer(),
 * issue 46): Benjamini-Hochberg over the tests checked, the test's min-effect
 * (cmp_min_effect()), different / equivalent / undecided. A test regressed when it is
 * "different" and its ratio (util.h's perf_ratio, < 1 worse) is < 1, improved when > 1.
 * Units: the tests' own; ratios have none. */
#ifndef ISOBENCH_HISTORY_H
#define ISOBENCH_HISTORY_H

#include "compare.h"
#include "store.h"

#define HIST_MIN_SEG 3		/* fewest runs on either side of a change point */

/* One series: the points of one test, copies and machine, in time order. */
struct hist_series {
	const char *test, *machine, *unit;	/* the points' strings */
	int copies, higher;
	size_t first, n;	/* points first .. first + n - 1 of the trend */
	size_t changes;		/* change points found in it */
	double floor_pct;	/* the test's noise floor */
};

struct hist_trend {
	struct store_point *pts;	/* owned (store_trend()'s) */
	size_t npts;
	unsigned char *change;	/* per point: 1 when a new level starts at it */
	double *level;		/* per point: the median of its segment (the level between two
				 * change points), in the test's unit */
	double *p;		/* per point: Pettitt's p of the change starting there, else NAN */
	struct hist_series *s;
	size_t ns;
	size_t changes;
};

/* The change points of the n values v (a series in time order, all > 0 and finite) into
 * change[] (1: a new level starts here) and level[] (each point's segment median); p[] the
 * split's p-value at each change. floor_pct: the test's noise floor. Returns the count of
 * changes, or -1 out of memory. */
long hist_changes(const double *v, size_t n, double floor_pct, unsigned char *change,
		  double *level, double *p);

/* Takes pts (store_trend()'s order: by test, copies, machine, date) into t, split into
 * series and searched for change points. t owns pts afterwards. 0, or -1 out of memory. */
int hist_trend_build(struct store_point *pts, size_t n, struct hist_trend *t);
void hist_trend_free(struct hist_trend *t);

/* One test's verdict of check. */
struct hist_verdict {
	const char *test, *unit;
	int copies, higher;
	double base, value;	/* geometric means of the baseline's and the candidates' values */
	double ratio, p, floor_pct;	/* ratio > 1: the candidates are better; floor_pct: the
					 * min-effect it was judged against */
	size_t na, nb;		/* runs behind base and value */
	const char *method;	/* "welch-t", "paired-t", "prediction-t", "too-few-runs" (no
				 * verdict), "no-baseline" (the baseline has no such test) */
	int regressed;		/* answer different, ratio < 1 */
	int improved;		/* answer different, ratio > 1 */
	struct sig_rep rep;	/* the test and its answer (rep.answer; SIG_ANS_NONE: none) */
};

struct hist_check {
	struct cmp c;		/* baseline (column 0) against the candidates (column 1) */
	const struct model *pair[2];	/* c's runs: the first of each side */
	struct hist_verdict *v;
	size_t nv, regressed, improved, equivalent, undecided;
	size_t none;		/* without a verdict: too few runs, no baseline */
	/* The comparability rule's warnings between the baseline's runs and the candidates'
	 * (compare.h's cmp_unlike_groups()), the caller's, for JSON's "warnings" (the text's
	 * WARN lines are the caller's, before any verdict); NULL: none. */
	const struct cmp_unlike *unlike;
};

/* The candidates' tests (cand, ncand models) against the baseline's runs (base, nbase).
 * 0, or -1 out of memory. */
int hist_check_build(const struct model *const *base, size_t nbase,
		     const struct model *const *cand, size_t ncand, struct hist_check *h);
void hist_check_free(struct hist_check *h);

#endif
