/* compare.h — several runs side by side: rows = test x copies, one cell per run, a ratio to
 * the first run and a noise verdict, plus warnings when the runs are not comparable.
 *
 * The noise rule (docs/report.md): with at least SIG_MIN_N non-warm-up SAMPLE values on both
 * sides, a cell is flagged ('*') when the Mann-Whitney U test gives p < SIG_ALPHA and its
 * ratio is beyond the test's noise floor, else within noise ('~') (signif.h, noisefloor.h).
 * With fewer samples (a quick run, an older log) the medians' 95% intervals decide (model.h:
 * from the SAMPLEs, else RESULT ci95_pct, else min..max): overlapping is '~', disjoint '*',
 * no interval on either side '?'.
 * The ratio is a performance ratio against the first run (util.h's perf_ratio), by the test's
 * own direction (TEST and RESULT better=, set by the runner): value/value0 when higher is
 * better, value0/value when lower is better, so < 1 always means "worse than the first run".
 * A log that does not say the direction (written before better= existed) gets no ratio:
 * nothing is guessed.
 * Comparability (docs/report.md), one rule (enum cmp_field below) for the logs' comparison, the
 * store's compare and check: image.identity, build.version, run.* and the kernel command line
 * (apart from volatile words) must match, and so must the file system of the file tests
 * (fs.workdir, else fs.tmp); a native run (mode host) beside an image run (mode init) differs in
 * identity, mode and command line by design, which is one note instead of three warnings.
 * Within a side of replicates the hypervisor, kernel and machine must match too.
 * In: models (owned by the caller, kept alive while the cmp is used) and labels. Out: a cmp.
 * Errors: cmp_build() returns -1 when out of memory. */
#ifndef ISOBENCH_COMPARE_H
#define ISOBENCH_COMPARE_H

#include "model.h"
#include "signif.h"

#include <stdio.h>

struct cmp_cell {
	const struct mtest *t;	/* NULL: the run lacks this row */
	double ratio;		/* performance ratio to run 0; NAN when not computable */
	char mark;		/* ' ' run 0 / no data, '~' within noise, '*' flagged, '?' unknown */
	/* How the mark was decided: "mann-whitney" (signif.h: p, the ratio's bootstrap CI and
	 * the test's noise floor), "ci-overlap" (fewer than SIG_MIN_N samples a side: the
	 * medians' intervals), or "none". */
	const char *method;
	double p;		/* two-sided p-value; NAN unless method is mann-whitney */
	double ratio_lo, ratio_hi;	/* 95% bootstrap CI of ratio; NAN likewise */
	double floor_pct;	/* the test's noise floor (noisefloor.h); NAN likewise */
	const char *floor_from;	/* "measured" or "default" */
	/* What the cell shows and its verdict rests on. value: the run's RESULT value, or with
	 * replicates the geometric mean of the side's runs' values (unit of the test). runs_a,
	 * runs_b: the runs behind it on run 1's side and on this one (1 and 1: a within-run
	 * comparison, never a verdict); paired: 1 when the runs were paired by round. Methods
	 * added by cmp_replicates(): "welch-t" and "paired-t" (signif.h's replicate tests: p,
	 * ratio_lo, ratio_hi set, ratio the geometric means'), "too-few-runs" (a side has fewer
	 * than SIG_REP_MIN runs of the test: mark '?'). */
	double value;
	size_t runs_a, runs_b;
	int paired;
	/* The latency percentiles the cell shows (pct.h; lib/latency.h order, ns, NAN where
	 * absent): its run's (mtest.lat), or with replicates the side's over its runs that carry
	 * them (cmp_replicates(): p50, p99, p99.9 the geometric mean of the runs' figures, as a
	 * side's value is; max the largest of the runs' maxima). has_lat: some run carries them. */
	double lat[LAT_NQ];
	int has_lat;
	/* Whether the sampling behind the cell met its run's CI target (RESULT converged=): 1
	 * when it did, 0 when not, -1 when the log does not say; with replicates over the side's
	 * runs that hold the test (cmp_replicates()): 0 when any of them did not converge, 1 when
	 * all of them did, else -1. */
	int converged;
	/* The verdict's test and its answer (replicates, issue 46; signif.h's sig_answer()):
	 * different, equivalent or undecided, with the ratio's 95% interval, the Benjamini-
	 * Hochberg q over every verdict cell of the comparison, the min-effect it was judged
	 * against, the TOST 90% interval and the runs that would decide. rep.answer is
	 * SIG_ANS_NONE on a cell that is no verdict. */
	struct sig_rep rep;
	/* The steal share of the cell's run, or with replicates the mean over the side's runs
	 * that say it (RESULT steal_pct=, %); NAN when none does. */
	double steal_pct;
};

/* A side whose runs' steal (RESULT steal_pct=) is above this share of the CPUs' time gets a
 * warning: a steal share s takes about s of a CPU-bound test's time, and at 1% it reaches the
 * smallest changes a comparison is asked to see (the 1.4% run-to-run CV of the quietest test
 * in docs/benchmarks/unixbench-index.md). */
#define CMP_STEAL_WARN_PCT 1.0

/* --min-effect PCT: the threshold of practical interest every verdict of this process is
 * judged against (signif.h's three answers); pct < 0 (the default): each test's noise floor
 * (noisefloor.h: the table, a --noise-floor file or option, else NOISE_FLOOR_DEFAULT_PCT). */
void cmp_min_effect_force(double pct);
/* --min-effect ARG of either program (main.c, histmain.c): a percentage in (0,
 * NOISE_FLOOR_MAX_PCT] forced (cmp_min_effect_force()); -1 with a message on stderr if not. */
int min_effect_arg(const char *arg);
/* The min-effect of test/copies (the rule above), *from as noise_floor_pct()'s or "option". */
double cmp_min_effect(const char *test, int copies, const char **from);

struct cmp_row {
	const char *test, *title, *unit;
	int higher;		/* 1 higher is better, 0 lower, -1 unknown (model.h) */
	int copies;
	int is_index;		/* has a UnixBench baseline */
	struct cmp_cell *cell;	/* nruns cells */
};

/* The all-CPUs pairing (issue 45): runs whose all-CPUs passes ran different copy counts (a
 * 2-CPU machine beside a 1-CPU VM) share no row keyed by copies; an all-row pairs them. Per
 * run: its all-CPUs pass's RESULT of the test (t, NULL when none), that pass's copies, the
 * total (the RESULT value) and a per-copy figure: a rate (higher is better) divided by the
 * copies, whose rates add (docs/records.md); any other value, already the copies' mean, as it
 * is; ratio: run j's per-copy figure against run 0's by the test's direction (perf_ratio). */
struct cmp_allcell {
	const struct mtest *t;
	int copies;
	double total, per_copy, ratio;
};
struct cmp_allrow {
	const char *test, *title, *unit;
	int higher;
	struct cmp_allcell *cell;	/* nruns cells */
};

struct cmp {
	size_t nruns;
	const struct model *const *m;
	char **label;		/* nruns labels, unique */
	struct cmp_row *rows;
	size_t nrows;
	char **warn;		/* why the runs may not be comparable; the runner's WARN records
				 * first (nwarn_runner of them), "LABEL: reason", with replicates
				 * every run's, named by run ("LABEL run K: ...") on a side of several */
	size_t nwarn;
	size_t nwarn_runner;
	char **note;		/* differences by design (a native run beside image runs, TCG):
				 * said once, not warnings */
	size_t nnote;
	int *tcg;		/* nruns flags: run j is QEMU/TCG (emulation) */
	size_t flagged;		/* cells marked '*' */
	size_t within, unknown;	/* cells marked '~', '?': the counts the text's head and the
				 * verdict line both state (one count, so they never disagree) */
	/* Replicates (cmp_replicates()): each column is a side of one or more runs. */
	int replicated;		/* 1: cmp_replicates() decided the cells */
	size_t *side_runs;	/* nruns counts: the runs each side holds (NULL: one each) */
	/* Replicates: side j's runs side[j][0..side_runs[j]-1] (the caller's, alive while c is
	 * used: cmp_replicates()); NULL: one run each, m[j]. */
	const struct model *const *const *side;
	/* Replicates: per pass p of run 0 (m[0]->pass[p], nscore of them), nruns cells for its
	 * Index Score over the runs: each run's score is its value, decided as a test's row
	 * (value: the side's geometric mean; not counted in flagged or verdicts, which count
	 * tests). NULL without replicates. */
	struct cmp_cell **score;
	int nscore;
	size_t verdicts;	/* cells marked '*' on replicates (p < SIG_ALPHA): exit status 4 */
	/* Each run's all-CPUs pass (INFO run.all_cpus, else a pass of cpu.online copies): its
	 * copies, 0 when the run has none (nruns ints); and the all-rows (cmp_allrow), only
	 * when two runs' counts differ (each test of run 0's all-CPUs pass, with a warning
	 * naming the counts), else none. */
	int *all_cpus;
	struct cmp_allrow *allrows;
	size_t nallrows;
	size_t no_direction;	/* rows whose logs do not say which way is better */
};

/* labels: NULL, or nruns strings (--label); otherwise derived with model_label(). */
int cmp_build(const struct model *const *m, size_t nruns, char *const *labels, struct cmp *c);
/* Replicates (signif.h): column j of c (built on side[j][0]) is a side of nside[j] runs
 * side[j][0..nside[j]-1] (models owned by the caller, kept alive). Per row and side j >= 1,
 * one value per run (its RESULT value) on each side: with >= SIG_REP_MIN runs a side, the
 * paired t on log ratios when every run of both sides carries INFO run.round and the rounds
 * pair up (>= SIG_REP_MIN pairs), else Welch's t on log values; the cell's mark is '*' when
 * p < SIG_ALPHA, '~' otherwise; with fewer runs, '?' ("too-few-runs"). value, ratio, p and
 * the ratio's CI are replaced; flagged and verdicts recounted. A side whose first run lacks
 * the row's result (a SKIP or FAIL there) is decided on its runs that hold it, the cell's t
 * then that first such run's; a test only later runs hold gets a row (appended). A cell's
 * converged is over the side's runs; the runner's WARNs are every run's, each side of several
 * runs naming them by run (its place on the side). When runs carry rounds that do not pair
 * (a run without one, a round repeated on a side, too few on both), a note says why the
 * cells are Welch's. 0, or -1 out of memory. */
int cmp_replicates(struct cmp *c, const struct model *const *const *side, const size_t *nside);
void cmp_free(struct cmp *c);
/* What cell cl's mark rests on, in words, into buf (cap bytes; returns buf), e.g.
 * "3+3 runs, unpaired, Welch's t on log run values: different: 10.2% slower (95% CI
 * ...)" (a verdict's answer: signif.h's sig_answer_text()), "4 rounds paired, paired t on
 * log ratios of the runs' whole-run values: equivalent: ...", "1+1 runs, within-run only (Mann-Whitney U on samples): not a
 * verdict", "2+2 runs: fewer than 3 a side, no verdict". "" for the reference cell. */
const char *cmp_basis(const struct cmp_cell *cl, char *buf, size_t cap);
#define CMP_BASIS_MAX 512	/* a buffer that holds any cmp_basis() */
/* cmp_basis() without the answer ("...: a verdict"): the design alone, which many cells
 * share (svg.c's legend of bases). */
const char *cmp_design(const struct cmp_cell *cl, char *buf, size_t cap);
/* 1 when cl's mark is a verdict (it rests on >= SIG_REP_MIN runs a side), else 0. */
int cmp_is_verdict(const struct cmp_cell *cl);

/* Adds text (copied) to c's notes, once: a difference by design the caller knows of (main.c:
 * A/B logs not made into sides). 0, or -1 out of memory. */
int cmp_note(struct cmp *c, const char *text);

/* The comparability rule's fields (one owner: report/compare.c's rows; docs/report.md
 * "Comparability"), each by the word the store's selectors and check's --allow name it by:
 *   hv       the hypervisor and, under QEMU, its accelerator (model_hv(): KVM, QEMU/TCG,
 *            bare-metal, UML, gVisor, Xen, ...; "unknown" when the log does not say)
 *   arch     kernel.machine (a log that does not say, "-", differs from none)
 *   mode     run.mode (model_mode()): host, the runner natively; init, the image booted
 *   kernel   kernel.release
 *   image    image.identity and build.version
 *   machine  model_machine(): cpu.model, CPUs online, DMI vendor and product
 *   tests    the test set: run.suite, run.tests, run.copies
 * (run.samples, run.sample_ms, the command line, the clocks, the file system, the peer and
 * STREAM's working set are warned too, in no field.) Between the sides of a comparison hv,
 * kernel and machine are what is compared and never warned, arch is refused unless asked
 * (--cross-arch), the rest warned; within a side of replicates and in check every field is
 * warned, and check does not judge across the fields of CMP_JUDGE unless --allow names them
 * (a ratio across them measures the change of hypervisor, architecture or mode, not a
 * regression). */
enum cmp_field {
	CMP_F_HV, CMP_F_ARCH, CMP_F_MODE, CMP_F_KERNEL, CMP_F_IMAGE, CMP_F_MACHINE, CMP_F_TESTS,
	CMP_NFIELDS
};
#define CMP_FIELD_BIT(f) (1u << (f))
#define CMP_JUDGE (CMP_FIELD_BIT(CMP_F_HV) | CMP_FIELD_BIT(CMP_F_ARCH) | CMP_FIELD_BIT(CMP_F_MODE))
extern const char *const cmp_field_word[CMP_NFIELDS];	/* "hv", "arch", ... as above */

/* The rows of the rule warned between the sides of a comparison (a fleet's groups: fleet.h)
 * in which the n runs m do not all agree: each row's name (its INFO key) into name[] and its
 * count of distinct values into distinct[] (a log that does not say its kernel.machine
 * counts none); returns how many (at most max). */
size_t cmp_unlike_across(const struct model *const *m, size_t n, const char **name,
			 size_t *distinct, size_t max);

/* Two groups of runs held to one rule (check: the baseline's runs, la "baseline", and the
 * candidates', lb "candidate"): every row of every field over all runs of both, one warning a
 * row in which some run differs from another, "not comparable: KEY differs (la: V; lb: V)"
 * (a group of several values: "V1 in N runs, V2 in M"), then the rest of the rule between
 * the groups' first runs (kernel.cmdline, clocks, file system, peer, STREAM sets). */
struct cmp_unlike {
	unsigned fields;	/* CMP_FIELD_BIT()s of the fields some run differs in */
	char **warn;		/* nwarn lines, without "warning: " */
	size_t nwarn;
};
/* 0, or -1 out of memory. */
int cmp_unlike_groups(const struct model *const *a, size_t na, const char *la,
		      const struct model *const *b, size_t nb, const char *lb,
		      struct cmp_unlike *u);
void cmp_unlike_free(struct cmp_unlike *u);
/* The words --allow takes (CMP_JUDGE's fields, comma-separated, "hv,arch,mode") into buf. */
const char *cmp_allow_words(char *buf, size_t cap);
/* --allow ARG (check): comma-separated words of CMP_JUDGE's fields OR-ed into *allow as
 * CMP_FIELD_BIT()s; -1 with a line on stderr naming --allow and the word when a word is not
 * one (a field never refused, or no field), or is empty ("hv,", "hv,,mode"). */
int cmp_allow_parse(const char *arg, unsigned *allow);

/* A run's place among the sides of replicates: side k, its run i there (0-based). */
struct cmp_where {
	size_t side, run;
};
/* 1 when some run (by its run id) is on two of the n sides (side[k] holding nside[k] runs),
 * its places on the first two into w[0] and w[1]; else 0. A run is one replicate of one side:
 * on two, a verdict would rest on that run compared with itself. */
int cmp_shared_run(const struct model *const *const *side, const size_t *nside, size_t n,
		   struct cmp_where w[2]);

/* c's warnings, then its notes, on err, one line each ("isobench-report: warning: ...",
 * "isobench-report: note: ..."): for the formats whose output is meant for a file (JSON, CSV,
 * HTML hold them too), so that a person at the terminal sees them; both the logs' and the
 * results store's comparisons call it. */
void cmp_tell(FILE *err, const struct cmp *c);
/* 1 when some cell of c holds a result whose sampling did not converge (its converged is 0),
 * else 0. */
int cmp_any_unconverged(const struct cmp *c);
/* What the mark of an unconverged value means, one sentence without a newline (the text and
 * HTML formats print it after "! after a value: "): of that run, or with replicates of some run
 * of that side. */
const char *cmp_unconverged_note(const struct cmp *c);

/* Side j's clock for (test, copies) (cpuclk.h's clk_side_of()): the median over its runs
 * with replicates (c->side), run j's own without. For JSON's and the CSV's per-cell clock. */
struct clk_test;
void cmp_side_clock(const struct cmp *c, size_t j, const char *test, int copies,
		    struct clk_test *out);

/* "higher is better", "lower is better" or "direction unknown" for a row. */
const char *cmp_direction(int higher);

/* Index score of run j in pass copies (NAN if none) into *score, and its ratio to run 0's;
 * the ratio is NAN unless both runs hold the same index tests in that pass. With replicates
 * the score is side j's over its runs (cmp_score_cell()'s value and ratio). */
double cmp_score_ratio(const struct cmp *c, size_t j, int copies, double *score);
/* With replicates, side j's Index Score cell of pass copies (struct cmp's score: method,
 * mark, p, CI, runs as a test's cell); NULL without replicates or such a pass. */
const struct cmp_cell *cmp_score_cell(const struct cmp *c, size_t j, int copies);

#endif
