/* compare.h — several runs side by side: rows = test x copies, one cell per run, a ratio to
 * the first run and a noise verdict, plus warnings when the runs are not comparable.
 *
 * The noise rule (docs/report.md): each cell carries the 95% confidence interval of its test's
 * median (model.h: from the SAMPLE records, warmups excluded, else RESULT ci95_pct, else
 * min..max). A cell whose interval overlaps the first run's is within noise ('~'); one whose
 * interval does not is flagged ('*'); without an interval on either side it is unknown ('?').
 * The ratio is a performance ratio against the first run: value/value0 for rates and
 * value0/value for times (unit ns...), so < 1 always means "slower than the first run".
 * Comparability (docs/report.md): image.identity, build.version, run.* and the kernel command line
 * (apart from volatile words) must match, and so must the file system of the file tests
 * (fs.workdir, else fs.tmp); a native run (mode host) beside an image run (mode init) differs in
 * identity, mode and command line by design, which is one note instead of three warnings.
 * In: models (owned by the caller, kept alive while the cmp is used) and labels. Out: a cmp.
 * Errors: cmp_build() returns -1 when out of memory. */
#ifndef ISOBENCH_COMPARE_H
#define ISOBENCH_COMPARE_H

#include "model.h"

struct cmp_cell {
	const struct mtest *t;	/* NULL: the run lacks this row */
	double ratio;		/* performance ratio to run 0; NAN when not computable */
	char mark;		/* ' ' run 0 / no data, '~' within noise, '*' flagged, '?' unknown */
};

struct cmp_row {
	const char *test, *title, *unit;
	int copies;
	int is_index;		/* has a UnixBench baseline */
	struct cmp_cell *cell;	/* nruns cells */
};

struct cmp {
	size_t nruns;
	const struct model *const *m;
	char **label;		/* nruns labels, unique */
	struct cmp_row *rows;
	size_t nrows;
	char **warn;		/* why the runs may not be comparable */
	size_t nwarn;
	char **note;		/* differences by design (a native run beside image runs, TCG):
				 * said once, not warnings */
	size_t nnote;
	int *tcg;		/* nruns flags: run j is QEMU/TCG (emulation) */
	size_t flagged;		/* cells marked '*' */
};

/* labels: NULL, or nruns strings (--label); otherwise derived with model_label(). */
int cmp_build(const struct model *const *m, size_t nruns, char *const *labels, struct cmp *c);
void cmp_free(struct cmp *c);
/* Performance ratio of b to a for unit (see above); NAN when either is not positive. */
double perf_ratio(double a, double b, const char *unit);

/* Index score of run j in pass copies (NAN if none) into *score, and its ratio to run 0's;
 * the ratio is NAN unless both runs hold the same index tests in that pass. */
double cmp_score_ratio(const struct cmp *c, size_t j, int copies, double *score);

#endif
