/* signif.h — is run B different from run A for one test? Decided on the two runs' per-sample
 * values (SAMPLE value=, warm-ups left out), not on their medians' intervals.
 *
 * Test: Mann-Whitney U (Wilcoxon rank-sum), two-sided. Why it and not a permutation test of
 * the means: benchmark samples are skewed and carry outliers (a sample hit by preemption or a
 * host's neighbour), which a rank test shrugs off and a mean does not; it assumes nothing of
 * the distribution; and its p-value is deterministic, so a report gives the same verdict
 * every time it is made. Exact up to SIG_EXACT_MAX_N values in all: the permutation
 * distribution of the rank sum, with mid-ranks for ties (identical figures are common at the
 * printed precision), counted exactly; above, the normal approximation with tie and
 * continuity corrections (Conover, "Practical Nonparametric Statistics", 3rd ed., sec. 5.1).
 * Ratio CI: percentile bootstrap (Efron & Tibshirani, "An Introduction to the Bootstrap",
 * ch. 13) of the performance ratio of the two runs' whole-run values (every sample counted:
 * lib/stats.c's whole_of_values(), recomputed on each resample; issue 46) — SIG_BOOT resamples
 * of each run with a fixed seed (reproducible); the ratio is util.h's perf_ratio (> 1: B
 * better).
 * Verdict: different when p < SIG_ALPHA and the ratio is beyond the test's noise floor
 * (noisefloor.h): a change smaller than what same-machine repeats show is never flagged.
 * Units: the samples' own; the ratio has none. Errors: NAN when a side has < SIG_MIN_N values. */
#ifndef ISOBENCH_SIGNIF_H
#define ISOBENCH_SIGNIF_H

#include <stddef.h>
#include <stdint.h>

#define SIG_ALPHA 0.01		/* Firecracker's A/B tool's threshold */
#define SIG_MIN_N 5		/* fewer values a side: no test. The smallest two-sided exact p
				 * is 2/C(na+nb, na): 0.1 for 3+3, 0.029 for 4+4, 0.0079 for 5+5,
				 * so below 5 a side p < SIG_ALPHA cannot happen (compare.c then
				 * falls back to the medians' intervals) */
#define SIG_EXACT_MAX_N 100	/* n_a + n_b up to which the p-value is exact (its counting
				 * takes (n_a + 1) x n^2 doubles: 4 MiB at 100) */
#define SIG_BOOT 2000		/* bootstrap resamples */
#define SIG_SEED 0x9e3779b97f4a7c15ull

/* Two-sided p-value of the Mann-Whitney U test of a against b; NAN when either has fewer
 * than SIG_MIN_N values. Non-finite values must not be passed. */
double sig_mwu_p(const double *a, size_t na, const double *b, size_t nb);

/* 95% percentile-bootstrap interval of perf_ratio(whole(a), whole(b), higher) into
 * *lo and *hi. Returns 0, or -1 (both NAN) with too few values, an unknown direction
 * (higher < 0), a non-positive value, or no memory. */
int sig_ratio_ci(const double *a, size_t na, const double *b, size_t nb, int higher,
		 double *lo, double *hi);

/* ---- Replicates: several runs a side, one value per run (issue 35) ----
 * A run's samples move together when the host drifts between runs (a shared core, a turbo
 * state, a neighbour), so a test on samples answers "are these two runs different?" (always,
 * given enough samples). With runs as the unit the between-run spread is in the verdict.
 * Test: Welch's t-test (Welch, Biometrika 34, 1947: unequal variances, Welch-Satterthwaite
 * df) on the logarithms of the runs' RESULT values: a ratio is a difference of logs, and run
 * values are roughly log-normal. Why not a rank test: with 3 runs a side the smallest
 * two-sided Mann-Whitney p is 0.1, so it could never decide; a t-test can. Interleaved A/B
 * rounds: the paired t-test on the per-round log ratios (a slow drift cancels within a round).
 * The ratio is exp(mean difference of logs) (the geometric means' ratio) oriented as util.h's
 * perf_ratio (> 1: B better), with its 95% t interval. The t distribution's CDF is the
 * regularized incomplete beta function, by its continued fraction (Numerical Recipes, 3rd
 * ed., sec. 6.4, modified Lentz; our own code). The verdict: sig_answer() below (three
 * answers, Benjamini-Hochberg, a min-effect); the within-run test keeps sig_different(). */
#define SIG_REP_MIN 3		/* fewer runs a side (pairs, paired): no replicate verdict */

/* The design behind a sig_rep: how its standard error grows with more runs (sig_answer()'s
 * runs-needed estimate). */
enum sig_design { SIG_WELCH, SIG_PAIRED, SIG_PREDICTION };

/* The three answers of a verdict (issue 46; sig_answer() decides): none (no estimate),
 * different, equivalent, undecided. */
enum sig_answer { SIG_ANS_NONE, SIG_ANS_DIFFERENT, SIG_ANS_EQUIVALENT, SIG_ANS_UNDECIDED };

struct sig_rep {
	double p;		/* two-sided p-value */
	double t, df;		/* the statistic and its degrees of freedom */
	double ratio, lo, hi;	/* B against A by direction (> 1: B better), 95% CI */
	size_t na, nb;		/* runs a side (paired: pairs, na == nb) */
	int paired;		/* 1: paired t on rounds; 0: Welch (or prediction) */
	enum sig_design design;
	int higher;		/* the direction the ratio was oriented by (1 higher is better) */
	double d, se;		/* mean of log(B) - log(A) (not by direction) and its standard
				 * error */
	double sd_a, sd_b;	/* standard deviation of one run's log value on side A and B
				 * (paired: of one round's log ratio, in sd_a; sd_b NAN) */
	/* Set by sig_answer(): */
	double q;		/* the p-value adjusted for the rows compared (sig_bh()) */
	double min_effect_pct;	/* the threshold of practical interest it was judged against */
	double eq_lo, eq_hi;	/* 90% CI of ratio: two one-sided tests at 5% each (TOST) */
	enum sig_answer answer;
	size_t runs_needed;	/* undecided: runs a side (paired: rounds; prediction: candidate
				 * runs) at which the observed spread would decide, 0 when more
				 * than SIG_RUNS_MAX or never (the estimate sits on the threshold) */
};

/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1; NAN outside. */
double sig_betai(double a, double b, double x);
/* Two-sided p of Student's t: P(|T_df| >= |t|); NAN when df <= 0. */
double sig_t_p2(double t, double df);
/* The t with sig_t_p2(t, df) == p2 (e.g. p2 0.05: the 97.5th percentile), by bisection. */
double sig_t_crit(double p2, double df);
/* Welch's t on log(a) vs log(b) (run values, > 0) into *r; 0, or -1 (r's figures NAN) with
 * fewer than SIG_REP_MIN a side, a non-positive value or an unknown direction. */
int sig_welch(const double *a, size_t na, const double *b, size_t nb, int higher,
	      struct sig_rep *r);
/* The paired t on log(b[i] / a[i]) over n rounds into *r; as sig_welch. */
int sig_paired(const double *a, const double *b, size_t n, int higher, struct sig_rep *r);
/* The replicate design's test of run values a (na runs) against b (nb): the paired t on the
 * runs whose rounds pair up, when every run of both sides has a round (ra, rb: INFO run.round,
 * -1 none), the rounds are unique per side and >= SIG_REP_MIN of them pair; else Welch's t
 * (ra = rb = NULL: always Welch, e.g. a fleet's machines, which are no rounds of one host).
 * pa, pb: scratch of min(na, nb) doubles each. Into *r as sig_welch; 0, or -1 (too few runs,
 * a non-positive value, an unknown direction). */
int sig_replicates(const double *a, const long *ra, size_t na, const double *b, const long *rb,
		   size_t nb, int higher, double *pa, double *pb, struct sig_rep *r);

/* ---- Three answers: different, equivalent, undecided (issue 46) ----
 * A row's question is not only "is there a difference?" but "is there one that matters?". The
 * threshold of practical interest is --min-effect PCT, by default the test's noise floor
 * (noisefloor.h: the between-run spread same-build repeats show on this machine, per test and
 * copies; docs/benchmarks/noise-floor.md), taken symmetrically in log space: a ratio beyond
 * 1 + PCT/100 either way (noise_floor_beyond()'s measure).
 *  - different: the row is significant after the correction for the rows compared
 *    (Benjamini-Hochberg, sig_bh(): q < SIG_FDR) AND its 95% interval lies wholly beyond the
 *    threshold on one side;
 *  - equivalent: its 90% interval lies wholly inside +- the threshold: Schuirmann's two
 *    one-sided tests at 5% each (D. J. Schuirmann, J. Pharmacokinet. Biopharm. 15(6), 1987:
 *    TOST at level a is the 1 - 2a interval inside the bounds);
 *  - undecided otherwise, with the runs a side that would decide at the observed spread.
 * The ratio with its interval is Kalibera & Jones' form ("Rigorous benchmarking in reasonable
 * time", ISMM 2013: report the ratio of means with its confidence interval, not a p-value).
 * Why Benjamini-Hochberg and not Holm: Holm bounds the chance of any false "different" over
 * the whole table; over ~100 rows its smallest threshold is SIG_FDR/100 and a real 5-10% cost
 * at 5 runs a side is lost. BH bounds the expected share of false rows among those called
 * different, which is what a reader of a long table acts on; when nothing differs (two
 * identical setups) that share is the chance of any false row, so BH gives Holm's guarantee
 * exactly there. Rows sharing a run's drift are positively dependent, under which BH holds
 * (Benjamini & Yekutieli, Ann. Statist. 29(4), 2001). The min-effect gate comes on top. */
#define SIG_FDR 0.05		/* BH's false discovery rate (Benjamini & Hochberg, J. R. Statist.
				 * Soc. B 57(1), 1995, use 0.05 in their example) */
#define SIG_RUNS_MAX 1000	/* the runs-needed estimate's search limit */

/* Benjamini-Hochberg adjusted p-values (q) of the n p-values p into q (NAN p: NAN q, not
 * counted among the rows): q_(i) = min over k >= i of m p_(k) / k, capped at 1, p sorted
 * ascending, m the count of finite p. A row is a discovery at level a when q < a. Returns
 * 0, or -1 out of memory. */
int sig_bh(const double *p, size_t n, double *q);

/* Decides r (a filled sig_rep) by the rule above with q its adjusted p-value and
 * min_effect_pct the threshold (> 0): sets r's q, min_effect_pct, eq_lo, eq_hi, answer and
 * runs_needed. A sig_rep whose p is NAN gets SIG_ANS_NONE. */
void sig_answer(struct sig_rep *r, double q, double min_effect_pct);
/* "different", "equivalent", "undecided" or "none". */
const char *sig_answer_word(enum sig_answer a);
/* The mark a cell shows for the answer: '*' different, '=' equivalent, '~' undecided, '?'. */
char sig_answer_mark(enum sig_answer a);
/* The answer in words into buf (cap bytes; returns buf), e.g. "different: 10.2% slower (95%
 * CI 12.4% slower to 8.1% slower), q 0.0003, beyond the min-effect 5%", "equivalent: 0.4%
 * faster (90% CI 1.1% slower to 1.9% faster), inside +-5%, the min-effect", "undecided: 2.1%
 * slower (95% CI 5.0% slower to 0.9% faster), q 0.41, min-effect 5%; ~9 runs a side would
 * decide". */
const char *sig_answer_text(const struct sig_rep *r, char *buf, size_t cap);

/* The rule above in words, one line, for every format's legend (text, HTML, JSON's
 * noise_rule, the fleet, --db compare/check): "different: Benjamini-Hochberg q < 0.05 over the
 * verdicts compared and the 95% CI beyond the min-effect; equivalent: ...; else undecided". */
const char *sig_rule(void);
/* What r rests on, then its answer (sig_answer_text()), into buf (cap bytes; returns buf):
 * "5+5 runs, unpaired, Welch's t on log run values: different: ...", "4 rounds paired,
 * paired t on log ratios of the runs: ...", "3 baseline runs, 1 candidate, prediction t on
 * log run values: ...". The one wording every format and caller uses for a verdict. */
const char *sig_basis_text(const struct sig_rep *r, char *buf, size_t cap);
/* The verdicts of one family (the rows a reader scans: a comparison's cells, a fleet's
 * group cells, a check's tests): the Benjamini-Hochberg q over the p of every r[i] (a NULL
 * or an r[i] without a p is not counted), then sig_answer(r[i], q_i, me[i]) (me: each one's
 * min-effect, %). The one place the rule is applied. 0, or -1 out of memory (nothing set). */
int sig_answer_family(struct sig_rep *const *r, const double *me, size_t n);

/* Prediction t (check with 1 or 2 candidate runs against >= SIG_REP_MIN baseline runs): is
 * the candidates' mean log value within what the baseline's runs predict for so many new
 * runs? t = (mean_b - mean_a) / (s_a sqrt(1/n_a + 1/n_b)), df n_a - 1 (s_a the baseline's
 * standard deviation of log values). Into *r as sig_welch (design SIG_PREDICTION); 0, or -1
 * (fewer than SIG_REP_MIN baseline runs, no candidate, a non-positive value, an unknown
 * direction). */
int sig_prediction(const double *a, size_t na, const double *b, size_t nb, int higher,
		   struct sig_rep *r);

/* The within-run mark (one run a side, never a verdict): p < SIG_ALPHA and the performance
 * ratio beyond floor_pct (noisefloor.h's noise_floor_beyond): its samples do not hold the
 * between-run spread, so the floor stands in for it. Replicate verdicts and check take
 * sig_answer() instead. 1 different, 0 not (a NAN p or ratio: 0). */
int sig_different(double p, double ratio, double floor_pct);

#endif
