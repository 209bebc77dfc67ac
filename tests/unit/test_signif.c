/* test_signif.c — the comparison's significance test and ratio interval (report/signif.h)
 * against values computed independently: exact p-values by enumerating every split of the
 * pooled samples (a Python brute force over all C(m+n, m) of them, with mid-ranks for ties,
 * run once; its results are the constants below), the tie-corrected normal approximation by
 * the textbook formula (also computed apart). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../report/compare.h"
#include "../../report/logread.h"
#include "../../report/noisefloor.h"
#include "../../report/model.h"
#include "vocab.h"
#include "../../report/signif.h"
#include "../../report/util.h"
#include "stats.h"

#include <stdio.h>
#include <string.h>

static void exact_p_values(void **st)
{
	(void)st;
	const double lo5[] = {1, 2, 3, 4, 5}, hi5[] = {6, 7, 8, 9, 10};
	const double odd[] = {1, 3, 5, 7, 9}, even[] = {2, 4, 6, 8, 10};
	const double a6[] = {1, 2, 3, 4, 6, 8}, b6[] = {5, 7, 9, 10, 11, 12};
	/* Complete separation of 5 + 5: 2 of 252 arrangements are as extreme. */
	assert_float_equal(sig_mwu_p(lo5, 5, hi5, 5), 2.0 / 252, 1e-12);
	assert_float_equal(sig_mwu_p(hi5, 5, lo5, 5), 2.0 / 252, 1e-12);	/* two-sided */
	assert_float_equal(sig_mwu_p(odd, 5, even, 5), 0.6904761904761905, 1e-12);
	assert_float_equal(sig_mwu_p(a6, 6, b6, 6), 0.015151515151515152, 1e-12);
	assert_float_equal(sig_mwu_p(odd, 5, odd, 5), 1, 1e-12);
}

/* Ties: the exact permutation distribution of the mid-rank sum (brute force: 0.012987...). */
static void exact_with_ties(void **st)
{
	(void)st;
	const double a[] = {1, 1, 2, 2, 3, 3}, b[] = {3, 3, 4, 4, 5, 5};
	assert_float_equal(sig_mwu_p(a, 6, b, 6), 0.012987012987012988, 1e-12);
	/* Complete separation with ties inside each side is as extreme as without them. */
	const double pa[] = {18.2, 18.3, 18.3, 18.4, 18.6}, pb[] = {19.5, 19.6, 19.6, 19.7, 19.9};
	assert_float_equal(sig_mwu_p(pa, 5, pb, 5), 2.0 / 252, 1e-12);
	const double same[] = {7, 7, 7, 7, 7};
	assert_float_equal(sig_mwu_p(same, 5, same, 5), 1, 0);
}

/* Above SIG_EXACT_MAX_N values: the normal approximation of U with tie and continuity
 * corrections, against the textbook formula computed apart (60 + 60 values, 90 distinct). */
static void normal_approximation(void **st)
{
	(void)st;
	static const double a[] = {
		106.4, 107.2, 100.3, 96.2, 94.5, 100.2, 94.9, 92.8, 101.0, 100.7, 102.7, 95.4, 100.0,
		99.7, 92.5, 102.7, 101.6, 111.9, 101.0, 99.3, 106.2, 101.0, 104.5, 98.2, 101.1, 105.1,
		103.5, 100.6, 94.6, 102.2, 100.4, 103.6, 101.1, 105.4, 99.7, 101.0, 103.3, 94.6, 98.0,
		97.5, 109.9, 99.5, 103.3, 103.1, 98.6, 92.2, 104.8, 98.0, 103.6, 93.5, 97.8, 106.3, 107.2,
		93.5, 93.3, 99.8, 103.6, 100.8, 101.5, 95.1}, b[] = {
		104.9, 107.6, 99.8, 94.8, 98.2, 105.8, 93.3, 101.5, 97.0, 101.3, 100.8, 102.1, 109.5,
		104.1, 108.7, 101.3, 99.6, 103.9, 87.8, 101.8, 102.8, 95.8, 104.3, 99.2, 89.7, 100.9,
		97.1, 99.4, 101.2, 108.3, 102.5, 101.9, 103.9, 92.9, 108.2, 96.6, 104.2, 96.4, 97.1,
		100.0, 111.5, 105.5, 99.0, 100.6, 96.2, 101.8, 99.1, 105.6, 95.2, 100.3, 97.8, 98.4,
		105.6, 102.6, 104.9, 107.9, 107.7, 95.1, 104.7, 93.2};
	assert_true(60 + 60 > SIG_EXACT_MAX_N);
	assert_float_equal(sig_mwu_p(a, 60, b, 60), 0.4560558206020679, 1e-9);
}

static void too_few(void **st)
{
	(void)st;
	const double v[] = {1, 2, 3, 4, 5};
	double lo, hi;
	assert_true(isnan(sig_mwu_p(v, 4, v, 5)));
	assert_true(isnan(sig_mwu_p(v, 5, v, SIG_MIN_N - 1)));
	assert_int_equal(sig_ratio_ci(v, 4, v, 5, 1, &lo, &hi), -1);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(sig_ratio_ci(v, 5, v, 5, -1, &lo, &hi), -1);	/* direction unknown */
}

static void ratio_interval(void **st)
{
	(void)st;
	const double a[] = {100, 101, 99, 100, 102, 98, 100}, b[] = {50, 51, 49, 50, 52, 48, 50};
	double lo, hi, lo2, hi2;
	/* b is half of a: higher is better -> ratio 0.5, its interval around it, far from 1. */
	assert_int_equal(sig_ratio_ci(a, 7, b, 7, 1, &lo, &hi), 0);
	assert_true(lo <= 0.5 && 0.5 <= hi && hi < 0.6 && lo > 0.4);
	/* Lower is better (a time): b's halving is a 2x improvement. */
	assert_int_equal(sig_ratio_ci(a, 7, b, 7, 0, &lo, &hi), 0);
	assert_true(lo <= 2 && 2 <= hi && lo > 1.6);
	/* A fixed seed: the same interval every time. */
	assert_int_equal(sig_ratio_ci(a, 7, b, 7, 0, &lo2, &hi2), 0);
	assert_float_equal(lo, lo2, 0);
	assert_float_equal(hi, hi2, 0);
	const double z[] = {1, 2, 0, 4, 5};
	assert_int_equal(sig_ratio_ci(z, 5, a, 5, 1, &lo, &hi), -1);	/* a value <= 0 */
}

static void median(void **st)
{
	(void)st;
	const double v[] = {5, 1, 3}, w[] = {4, 1, 3, 2};
	assert_float_equal(median_of(v, 3), 3, 0);
	assert_float_equal(median_of(w, 4), 2.5, 0);
	assert_true(isnan(median_of(v, 0)));
	assert_float_equal(v[0], 5, 0);	/* v unchanged */
}

/* A run's log: per test its sample values, the RESULT from lib/stats.c as the runner makes it,
 * sealed; read back into a model. */
struct spec {
	const char *test;
	double v[8];
	int n;
};

static void log_of(const char *run_id, const struct spec *sp, int ntests, struct log *log,
		   struct model *m)
{
	static char buf[65536];
	char body[512], line[REC_MAX];
	uint64_t seq = 1;
	FILE *f;

	buf[0] = 0;
#define PUT(...)                                                                             \
	do {                                                                                 \
		snprintf(body, sizeof body, __VA_ARGS__);                                    \
		size_t len = rec_seal(line, sizeof line, seq++, body, strlen(body));         \
		assert_true(len > 0);                                                        \
		strncat(buf, line, len);                                                     \
	} while (0)
	PUT("BEGIN run=%s version=t mode=host", run_id);
	for (int t = 0; t < ntests; t++) {
		struct summary sm;
		PUT("TEST test=%s k=%d n=%d copies=1 unit=lps better=higher group=index title=%s "
		    "clocksource=tsc", sp[t].test, t + 1, ntests, sp[t].test);
		for (int i = 0; i < sp[t].n; i++)
			PUT("SAMPLE test=%s copies=1 i=%d value=%.3f", sp[t].test, i, sp[t].v[i]);
		assert_int_equal(summarize(sp[t].v, (size_t)sp[t].n, 1, &sm), 0);
		PUT("RESULT test=%s copies=1 unit=lps better=higher value=%.3f samples=%d "
		    "median=%.3f min=%.3f max=%.3f ci95_pct=%.2f converged=1", sp[t].test,
		    sm.unixbench, sp[t].n, sm.median, sm.min, sm.max, sm.ci_half_pct);
	}
	PUT("END records=%llu results=%d fails=0 skips=0 errors=0 status=ok",
	    (unsigned long long)seq - 1, ntests);
#undef PUT
	assert_non_null(f = fmemopen(buf, strlen(buf), "r"));
	assert_int_equal(log_read(f, log), 0);
	fclose(f);
	assert_int_equal(log->nruns, 1);
	if (!log->runs[0].complete)
		fail_msg("the test's log is not complete: %s", log->runs[0].why);
	assert_int_equal(model_build(&log->runs[0], m), 0);
}

/* The floor is symmetric in the ratio: with a 30% floor (max/min - 1, as noise-floor.sh
 * measures it) a slowdown to 0.76 (1/0.76 = 1.316) is beyond it as a speed-up to 1.316 is;
 * 0.78 (1.282) and 1.29 are not; what is not a positive finite ratio never is. */
static void floor_symmetric(void **st)
{
	(void)st;
	assert_int_equal(noise_floor_beyond(0.76, 30), 1);
	assert_int_equal(noise_floor_beyond(1 / 0.76, 30), 1);
	assert_int_equal(noise_floor_beyond(0.78, 30), 0);
	assert_int_equal(noise_floor_beyond(1.29, 30), 0);
	assert_int_equal(noise_floor_beyond(1.0, 0), 0);
	assert_int_equal(noise_floor_beyond(0.5, 5), 1);
	assert_int_equal(noise_floor_beyond(NAN, 5), 0);
	assert_int_equal(noise_floor_beyond(INFINITY, 5), 0);
	assert_int_equal(noise_floor_beyond(0, 5), 0);
	assert_int_equal(noise_floor_beyond(-2, 5), 0);
}

/* The run's label (model_label): the CPU's signature names the hypervisor; where it has
 * none (arm64: "none", or the PSCI-over-HVC hint) the kernel's word does, and the hint
 * alone is an unknown hypervisor, never bare metal. */
static const char *label_of(const char *cpuid, const char *kern)
{
	static char buf[96];
	struct kv info[2] = {{(char *)"hv.cpuid", (char *)cpuid},
			     {(char *)"kernel.hypervisor", (char *)kern}};
	struct model m;

	memset(&m, 0, sizeof m);
	m.info = info;
	m.ninfo = 2;
	model_label(&m, buf, sizeof buf);
	return buf;
}

static void labels(void **st)
{
	(void)st;
	assert_string_equal(label_of("KVMKVMKVM", "KVM"), "KVM");
	assert_string_equal(label_of("none", "none"), "bare-metal");
	assert_string_equal(label_of("none", "KVM"), "KVM");		/* KVM/arm64 */
	assert_string_equal(label_of(REC_HV_PSCI_HVC, "KVM"), "KVM");
	assert_string_equal(label_of(REC_HV_PSCI_HVC, "Xen"), "Xen");
	assert_string_equal(label_of(REC_HV_PSCI_HVC, "none"), "unknown hypervisor (PSCI over HVC)");
	assert_string_equal(label_of(REC_HV_PSCI_HVC, "-"), "unknown hypervisor (PSCI over HVC)");
	assert_string_equal(label_of("TCGTCGTCGTCG", "none"), "QEMU/TCG");
	assert_string_equal(label_of("-", "VMware"), "VMware");
}

/* Marks: halved with separated samples is flagged; interleaved samples are not; a change
 * the test calls significant but smaller than the noise floor (1% < 5%) is not. */
static void compare_marks(void **st)
{
	(void)st;
	const struct spec a[] = {
		{"pipe", {100, 101, 99, 100, 102, 98}, 6},
		{"syscall", {50, 51, 49, 50, 52, 48}, 6},
		{"getpid", {10.00, 10.01, 10.02, 10.03, 10.04, 10.05}, 6},
		{"spawn", {7, 8, 9}, 3},
	};
	const struct spec b[] = {
		{"pipe", {50, 50.5, 49.5, 50, 51, 49}, 6},
		{"syscall", {50.5, 51.5, 48.5, 49.5, 52.5, 47.5}, 6},
		{"getpid", {10.10, 10.11, 10.12, 10.13, 10.14, 10.15}, 6},
		{"spawn", {70, 80, 90}, 3},
	};
	struct log la, lb;
	struct model ma, mb;
	struct cmp c;
	log_of("00000000000000aa", a, 4, &la, &ma);
	log_of("00000000000000bb", b, 4, &lb, &mb);
	const struct model *m[] = {&ma, &mb};
	assert_int_equal(cmp_build(m, 2, NULL, &c), 0);
	assert_int_equal(c.nrows, 4);
	for (size_t i = 0; i < c.nrows; i++) {
		const struct cmp_cell *cl = &c.rows[i].cell[1];
		const char *t = c.rows[i].test;
		if (!strcmp(t, "pipe")) {
			assert_string_equal(cl->method, "mann-whitney");
			assert_float_equal(cl->p, 2.0 / 924, 1e-12);	/* 6 + 6 separated */
			assert_int_equal(cl->mark, '*');
			assert_true(cl->ratio_lo <= cl->ratio && cl->ratio <= cl->ratio_hi);
			assert_true(cl->ratio_hi < 0.6);
		} else if (!strcmp(t, "syscall")) {
			assert_true(cl->p > 0.5);
			assert_int_equal(cl->mark, '~');
		} else if (!strcmp(t, "getpid")) {
			assert_true(cl->p < SIG_ALPHA);	/* significant, */
			assert_true(fabs(cl->ratio - 1) * 100 < cl->floor_pct);	/* but tiny */
			assert_string_equal(cl->floor_from, "default");
			assert_int_equal(cl->mark, '~');
		} else {
			/* 3 samples a side: no test, the medians' intervals decide (disjoint). */
			assert_string_equal(t, "spawn");
			assert_string_equal(cl->method, "ci-overlap");
			assert_true(isnan(cl->p));
			assert_int_equal(cl->mark, '*');
		}
	}
	assert_int_equal(c.flagged, 2);
	assert_int_equal(c.nwarn, 0);
	cmp_free(&c);
	/* A run beside itself is a warning. */
	const struct model *self[] = {&ma, &ma};
	assert_int_equal(cmp_build(self, 2, NULL, &c), 0);
	assert_int_equal(c.nwarn, 1);
	assert_non_null(strstr(c.warn[0], "the same run (run id 00000000000000aa)"));
	cmp_free(&c);
	model_free(&ma);
	model_free(&mb);
	log_free(&la);
	log_free(&lb);
}

/* Student's t from the incomplete beta: textbook table values (two-sided 0.05 at df 4 and 10,
 * 0.01 at df 30), closed forms (df 1 is Cauchy: P(|T| > 1) = 1/2; df 2: 1 - t/sqrt(2 + t^2))
 * and a binomial sum (I_0.4(2, 3) = P(Bin(4, 0.4) >= 2) = 0.5248). */
static void t_distribution(void **st)
{
	(void)st;
	assert_float_equal(sig_betai(2, 3, 0.4), 0.5248, 1e-12);
	assert_float_equal(sig_betai(3, 2, 0.6), 1 - 0.5248, 1e-12);	/* symmetry branch */
	assert_float_equal(sig_t_p2(2.776, 4), 0.05, 2e-4);
	assert_float_equal(sig_t_p2(2.228, 10), 0.05, 2e-4);
	assert_float_equal(sig_t_p2(-2.228, 10), 0.05, 2e-4);
	assert_float_equal(sig_t_p2(1, 1), 0.5, 1e-12);
	assert_float_equal(sig_t_p2(2, 2), 1 - 2 / sqrt(6), 1e-12);
	assert_float_equal(sig_t_p2(0, 7), 1, 1e-12);
	assert_float_equal(sig_t_crit(0.05, 4), 2.776445, 1e-5);
	assert_float_equal(sig_t_crit(0.05, 10), 2.228139, 1e-5);
	assert_float_equal(sig_t_crit(0.01, 30), 2.749996, 1e-5);
	assert_true(isnan(sig_t_p2(1, 0)));
}

/* Welch at 3 + 3: B = A x 1.1 run by run (the same log spread, so df = 2(n-1) = 4 and
 * t = log 1.1 / sqrt(2 var / 3)); the same runs against themselves: p 1, ratio 1. */
static void welch_replicates(void **st)
{
	(void)st;
	const double a[] = {100, 101, 99}, b[] = {110, 111.1, 108.9};
	struct sig_rep r;
	double m = (log(100) + log(101) + log(99)) / 3, v = 0;
	for (int i = 0; i < 3; i++)
		v += (log(a[i]) - m) * (log(a[i]) - m) / 2;
	double t = log(1.1) / sqrt(2 * v / 3);

	assert_int_equal(sig_welch(a, 3, b, 3, 1, &r), 0);
	assert_float_equal(r.df, 4, 1e-9);
	assert_float_equal(r.t, t, 1e-9);
	assert_float_equal(r.p, sig_t_p2(t, 4), 1e-12);
	assert_true(r.p < SIG_ALPHA);
	assert_float_equal(r.ratio, 1.1, 1e-12);
	assert_true(r.lo < 1.1 && r.hi > 1.1 && r.lo > 1);
	assert_float_equal(r.lo * r.hi, 1.1 * 1.1, 1e-9);	/* symmetric in logs */
	/* lower is better: B's times 10% longer is a ratio of 1/1.1 */
	assert_int_equal(sig_welch(a, 3, b, 3, 0, &r), 0);
	assert_float_equal(r.ratio, 1 / 1.1, 1e-12);
	assert_true(r.hi < 1);
	assert_int_equal(sig_welch(a, 3, a, 3, 1, &r), 0);
	assert_float_equal(r.p, 1, 1e-12);
	assert_float_equal(r.ratio, 1, 1e-12);
	/* overlapping runs: no verdict */
	const double c[] = {100, 104, 97}, d[] = {101, 99, 103};
	assert_int_equal(sig_welch(c, 3, d, 3, 1, &r), 0);
	assert_true(r.p > 0.5);
	/* too few, a bad value, no direction */
	assert_int_equal(sig_welch(a, 2, b, 3, 1, &r), -1);
	assert_true(isnan(r.p));
	const double z[] = {100, 0, 99};
	assert_int_equal(sig_welch(z, 3, b, 3, 1, &r), -1);
	assert_int_equal(sig_welch(a, 3, b, 3, -1, &r), -1);
}

/* Paired rounds: a drift of +-10% between rounds cancels; B 2% better in each round is a
 * ratio of ~1.02 with df n-1, decided although Welch on the same numbers cannot. */
static void paired_rounds(void **st)
{
	(void)st;
	const double a[] = {100, 90, 110, 95}, k[] = {1.02, 1.025, 1.015, 1.02};
	double b[4];
	struct sig_rep r, w;
	for (int i = 0; i < 4; i++)
		b[i] = a[i] * k[i];
	assert_int_equal(sig_paired(a, b, 4, 1, &r), 0);
	assert_int_equal(r.paired, 1);
	assert_float_equal(r.df, 3, 1e-12);
	assert_float_equal(r.ratio, pow(1.02 * 1.025 * 1.015 * 1.02, 0.25), 1e-12);
	assert_true(r.p < SIG_ALPHA);
	assert_int_equal(sig_welch(a, 4, b, 4, 1, &w), 0);
	assert_true(w.p > 0.5);
}

/* sig_replicates(), the design compare and the fleet share: the rounds pair (the paired t,
 * exactly sig_paired's figures, in round order whatever the runs' order); without rounds
 * (NULL: a fleet), a run without one (-1) or a round twice on a side, Welch's t. */
static void replicate_design(void **st)
{
	(void)st;
	const double a[] = {100, 90, 110, 95}, b[] = {102, 92.25, 111.65, 96.9};
	const double br[] = {96.9, 102, 111.65, 92.25};	/* b's runs in another order */
	const long ra[] = {1, 2, 3, 4}, rb[] = {4, 1, 3, 2}, rdup[] = {1, 1, 3, 4},
		   rnone[] = {1, 2, -1, 4};
	double pa[4], pb[4];
	struct sig_rep r, want;

	assert_int_equal(sig_paired(a, b, 4, 1, &want), 0);
	assert_int_equal(sig_replicates(a, ra, 4, br, rb, 4, 1, pa, pb, &r), 0);
	assert_int_equal(r.paired, 1);
	assert_int_equal(r.na, 4);
	assert_float_equal(r.p, want.p, 1e-15);
	assert_float_equal(r.ratio, want.ratio, 1e-15);
	assert_true(r.p < SIG_ALPHA);
	assert_int_equal(sig_welch(a, 4, b, 4, 1, &want), 0);
	assert_int_equal(sig_replicates(a, NULL, 4, b, NULL, 4, 1, pa, pb, &r), 0);
	assert_int_equal(r.paired, 0);
	assert_float_equal(r.p, want.p, 1e-15);
	assert_true(r.p > 0.5);
	assert_int_equal(sig_replicates(a, rdup, 4, b, ra, 4, 1, pa, pb, &r), 0);
	assert_int_equal(r.paired, 0);
	assert_int_equal(sig_replicates(a, ra, 4, b, rnone, 4, 1, pa, pb, &r), 0);
	assert_int_equal(r.paired, 0);
	/* two rounds pair, fewer than SIG_REP_MIN: Welch on all the runs */
	const long r2[] = {1, 2, 7, 8};
	assert_int_equal(sig_replicates(a, ra, 4, b, r2, 4, 1, pa, pb, &r), 0);
	assert_int_equal(r.paired, 0);
	assert_int_equal(sig_replicates(a, NULL, 2, b, NULL, 4, 1, pa, pb, &r), -1);
}

/* sig_different(): p < SIG_ALPHA and beyond the floor, both; NAN is never different. */
static void different_rule(void **st)
{
	(void)st;
	assert_int_equal(sig_different(0.001, 0.90, 5), 1);
	assert_int_equal(sig_different(0.001, 1 / 0.90, 5), 1);
	assert_int_equal(sig_different(0.001, 0.97, 5), 0);	/* significant, within the floor */
	assert_int_equal(sig_different(0.02, 0.50, 5), 0);	/* large, not significant */
	assert_int_equal(sig_different(0.001, 0.97, 2), 1);
	assert_int_equal(sig_different(NAN, 0.5, 5), 0);
	assert_int_equal(sig_different(0.001, NAN, 5), 0);
}

/* sig_bh(): Benjamini-Hochberg's step-up adjustment, by hand: p 0.005, 0.01, 0.03, 0.04 of m = 4
 * give m p / k = 0.02, 0.02, 0.04, 0.04, each the minimum from its rank up; a NAN is no row. */
static void bh_adjust(void **st)
{
	const double p[] = {0.01, 0.04, 0.03, 0.005, NAN};
	double q[5];

	(void)st;
	assert_int_equal(sig_bh(p, 5, q), 0);
	assert_float_equal(q[0], 0.02, 1e-12);
	assert_float_equal(q[1], 0.04, 1e-12);
	assert_float_equal(q[2], 0.04, 1e-12);
	assert_float_equal(q[3], 0.02, 1e-12);
	assert_true(isnan(q[4]));
	/* non-monotone raw values: p 0.001, 0.04, 0.041 of m = 3 give 0.003, 0.06, 0.041 raw,
	 * and the step-up takes 0.041 for rank 2 */
	const double p2[] = {0.041, 0.001, 0.04};
	assert_int_equal(sig_bh(p2, 3, q), 0);
	assert_float_equal(q[0], 0.041, 1e-12);
	assert_float_equal(q[1], 0.003, 1e-12);
	assert_float_equal(q[2], 0.041, 1e-12);
}

/* sig_answer(): the three answers on Welch's t of five runs a side (spread ~0.7%). */
static void three_answers(void **st)
{
	const double a[] = {100, 101, 99, 100.5, 99.5};
	double b[5], wide[5];
	struct sig_rep r;
	char txt[256];

	(void)st;
	for (int i = 0; i < 5; i++)
		b[i] = a[i] / 1.10;	/* 10% slower, a rate */
	assert_int_equal(sig_welch(a, 5, b, 5, 1, &r), 0);
	sig_answer(&r, r.p, 5);
	assert_int_equal(r.answer, SIG_ANS_DIFFERENT);
	assert_true(r.hi < 1 / 1.05);	/* the 95% CI lies beyond the 5% min-effect */
	assert_non_null(strstr(sig_answer_text(&r, txt, sizeof txt), "different: 10.0% slower (95% CI"));
	sig_answer(&r, 0.2, 5);	/* not significant after the correction: no "different" */
	assert_int_equal(r.answer, SIG_ANS_UNDECIDED);
	sig_answer(&r, r.p, 20);	/* inside +-20%: equivalent (its 90% CI) */
	assert_int_equal(r.answer, SIG_ANS_EQUIVALENT);
	assert_true(r.eq_lo > 1 / 1.2 && r.eq_hi < 1.2);
	assert_true(r.eq_lo > r.lo && r.eq_hi < r.hi);	/* the 90% CI inside the 95% */
	for (int i = 0; i < 5; i++)
		b[i] = a[(i + 1) % 5] * 1.002;	/* the same runs, shuffled: no change */
	assert_int_equal(sig_welch(a, 5, b, 5, 1, &r), 0);
	sig_answer(&r, r.p, 5);
	assert_int_equal(r.answer, SIG_ANS_EQUIVALENT);
	assert_int_equal(r.runs_needed, 0);
	/* a wide spread (~15%): undecided, and the runs that would decide are more than 5 */
	const double w[] = {0.80, 1.20, 0.95, 1.10, 0.90};
	for (int i = 0; i < 5; i++)
		wide[i] = 100 * w[i];
	assert_int_equal(sig_welch(a, 5, wide, 5, 1, &r), 0);
	sig_answer(&r, r.p, 5);
	assert_int_equal(r.answer, SIG_ANS_UNDECIDED);
	assert_true(r.runs_needed > 5 && r.runs_needed <= SIG_RUNS_MAX);
	assert_int_equal(sig_answer_mark(SIG_ANS_UNDECIDED), '~');
	assert_int_equal(sig_answer_mark(SIG_ANS_EQUIVALENT), '=');
	assert_int_equal(sig_answer_mark(SIG_ANS_DIFFERENT), '*');
	/* a time (lower is better): 10% longer is 10% slower, different the same way */
	for (int i = 0; i < 5; i++)
		b[i] = a[i] * 1.10;
	assert_int_equal(sig_welch(a, 5, b, 5, 0, &r), 0);
	sig_answer(&r, r.p, 5);
	assert_int_equal(r.answer, SIG_ANS_DIFFERENT);
	assert_true(r.ratio < 1);
	/* the prediction t (check, one candidate run): its interval is wider, same rule */
	const double one[] = {100 / 1.10};
	assert_int_equal(sig_prediction(a, 5, one, 1, 1, &r), 0);
	assert_float_equal(r.df, 4, 0);
	sig_answer(&r, r.p, 5);
	assert_int_equal(r.answer, SIG_ANS_DIFFERENT);
	assert_int_equal(sig_prediction(a, 2, one, 1, 1, &r), -1);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(bh_adjust),
		cmocka_unit_test(three_answers),
		cmocka_unit_test(exact_p_values),
		cmocka_unit_test(exact_with_ties),
		cmocka_unit_test(normal_approximation),
		cmocka_unit_test(too_few),
		cmocka_unit_test(ratio_interval),
		cmocka_unit_test(median),
		cmocka_unit_test(compare_marks),
		cmocka_unit_test(floor_symmetric),
		cmocka_unit_test(labels),
		cmocka_unit_test(t_distribution),
		cmocka_unit_test(welch_replicates),
		cmocka_unit_test(paired_rounds),
		cmocka_unit_test(replicate_design),
		cmocka_unit_test(different_rule),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
