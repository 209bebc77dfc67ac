/* text.c — see text.h. */
#include "text.h"
#include "num.h"
#include "cpuclk.h"
#include "fleet.h"
#include "noisefloor.h"
#include "signif.h"
#include "pct.h"
#include "util.h"
#include "vocab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rotating safe copies so one fprintf can take several. */
static const char *S(const char *s)
{
	static char ring[8][1024];
	static int k;
	char *b = ring[k++ & 7];
	return text_safe(s, b, sizeof ring[0]);
}

/* Microseconds with a precision that fits 9 columns. */
static void us(FILE *out, double ns, int w)
{
	if (!isfinite(ns))
		fprintf(out, " %*s", w, "---");
	else
		fprintf(out, " %*.*f", w, ns < 1e7 ? 1 : 0, ns / 1000);
}

/* The run's latency percentile table for one pass (nothing when no test has them; pct.h). */
static void text_pct_run(FILE *out, const struct model *m, int copies)
{
	int any = 0, whole = 0, medians = 0;

	for (size_t i = 0; i < m->ntests; i++) {
		const struct mtest *t = &m->tests[i];
		if (t->copies != copies || !t->has_lat)
			continue;
		whole += t->lat_whole;
		medians += !t->lat_whole;
		if (!any++) {
			fprintf(out, "\n%-40s", "Latency percentiles (us, lower better)");
			for (int q = 0; q < LAT_NQ; q++)
				fprintf(out, " %10s", pct_label(q));
			fputc('\n', out);
		}
		char b[CMP_BASIS_MAX];
		fprintf(out, "%-40.40s", text_safe(t->title, b, sizeof b));
		for (int q = 0; q < LAT_NQ; q++)
			us(out, t->lat[q], 10);
		fputc('\n', out);
	}
	if (whole)
		fprintf(out, "(%s: of the whole run, every sample's histogram merged)\n",
			medians ? "tests whose RESULT carries them" : "each");
	if (medians)
		fprintf(out, "(%s: medians over the samples of each sample's percentile, from a "
			     "log written before whole-run figures: a stall in a few samples is "
			     "hidden)\n", whole ? "the others" : "each");
}

#define TCG_TAG " (TCG)"

/* Side j's name as the text prints it, whole however long (text_safe() into a buffer sized
 * for it: every byte at most \xNN), with " (TCG)" after an emulated run's when tcg. Rotating
 * like S() so one fprintf can take several; "?" when out of memory. Every table and line of
 * a comparison names its sides with this, never a fixed buffer or a %.Ns that could cut two
 * names to the same text. */
static const char *side(const struct cmp *c, size_t j, int tcg)
{
	static char *ring[8];
	static int k;
	char **slot = &ring[k++ & 7];
	size_t cap = 4 * strlen(c->label[j]) + sizeof TCG_TAG;

	free(*slot);
	if (!(*slot = malloc(cap)))
		return "?";
	text_safe(c->label[j], *slot, cap);
	if (tcg && c->tcg[j])
		strcat(*slot, TCG_TAG);
	return *slot;
}

/* The width of a side's name in every table of a comparison: the longest name (side()), at
 * least 12, never less: a name is never cut, so two sides never print alike (cut to 12,
 * "KVM, 2 CPUs #2" .. "#6" all printed "KVM, 2 CPUs"; compare.c label_runs() makes the
 * labels themselves distinct). */
static int side_w(const struct cmp *c, int tcg)
{
	int w = 12;

	for (size_t j = 0; j < c->nruns; j++) {
		int l = (int)strlen(side(c, j, tcg));
		w = l > w ? l : w;
	}
	return w;
}

/* The compared runs' percentiles with ratios (nothing when no row has them; pct.h). */
static void text_pct_compare(FILE *out, const struct cmp *c)
{
	char b[CMP_BASIS_MAX];

	if (!pct_comparable(c))
		return;
	int w = side_w(c, 0);
	fprintf(out, "\nLatency percentiles (us; lower is better; ratio = run 1 / this run, < 1 "
		     "slower%s%s)\n%-36s %-6s", *pct_what(c) ? "; " : "", pct_what(c), "TEST", "");
	for (size_t j = 0; j < c->nruns; j++)
		fprintf(out, " %*s%s", w, side(c, j, 0), j ? "   ratio" : "");
	fputc('\n', out);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		int n = pct_runs_with(r, c->nruns);
		for (int q = 0; n >= 2 && q < LAT_NQ; q++) {
			fprintf(out, "%-36.36s %-6s", text_safe(r->title, b, sizeof b), pct_label(q));
			for (size_t j = 0; j < c->nruns; j++) {
				us(out, pct_value(r, j, q), w);
				double x = pct_ratio(r, j, q);
				if (j && isfinite(x))
					fprintf(out, " %7.2f", x);
				else if (j)
					fprintf(out, " %7s", "---");
			}
			fputc('\n', out);
		}
	}
}

static void header(FILE *out, const struct model *m, const char *source)
{
	char label[200];
	const char *hv = model_info(m, RK_HV_CPUID);

	model_label(m, label, sizeof label);
	fprintf(out, "isobench run %s from %s, log lines %zu-%zu\n", S(m->run_id), S(source),
		m->first_line, m->last_line);
	double kib = fmax((double)model_info_count(m, RK_MEM_TOTAL_KIB), 0);	/* 0: not said */
	fprintf(out, "machine:     %s | %s | %.0f MiB RAM\n", S(label), S(model_info(m, RK_CPU_MODEL)),
		kib / 1024);
	fprintf(out, "hypervisor:  cpuid \"%s\", kernel says \"%s\", DMI %s / %s\n",
		S(strcmp(hv, "-") ? hv : "?"), S(model_info(m, RK_KERNEL_HYPERVISOR)),
		S(model_info(m, RK_DMI_SYS_VENDOR)), S(model_info(m, RK_DMI_PRODUCT_NAME)));
	fprintf(out, "clocksource: %s (available: %s)\n", S(model_info(m, RK_CLOCKSOURCE_CURRENT)),
		S(model_info(m, RK_CLOCKSOURCE_AVAILABLE)));
	fprintf(out, "kernel:      %s %s %s\n", S(model_info(m, RK_KERNEL_RELEASE)),
		S(model_info(m, RK_KERNEL_VERSION)), S(model_info(m, RK_KERNEL_MACHINE)));
	fprintf(out, "cmdline:     %s\n", S(model_info(m, RK_KERNEL_CMDLINE)));
	fprintf(out, "image:       identity %s | build %s (%s) | mode %s\n",
		S(model_info(m, RK_IMAGE_IDENTITY)), S(m->version), S(model_info(m, RK_BUILD_CC)),
		S(m->mode));
	if (strcmp(model_info(m, RK_RUN_PEER), "-")) {	/* the net tests' two ends */
		fprintf(out, "network:     this end %s %s %s (%s, mtu %s, %s, irq %s)",
			S(model_info(m, RK_NIC_NAME)), S(model_info(m, RK_NIC_DRIVER)),
			S(model_info(m, RK_NIC_PCI_ID)), S(model_info(m, RK_NIC_ADDR)),
			S(model_info(m, RK_NIC_MTU)), S(model_info(m, RK_NIC_OFFLOADS)),
			S(model_info(m, RK_NIC_IRQ)));
		fprintf(out, " | peer %s: host %s, kernel %s, nic %s\n",
			S(model_info(m, RK_RUN_PEER)), S(model_info(m, RK_PEER_HOST)),
			S(model_info(m, RK_PEER_KERNEL)), S(model_info(m, RK_PEER_NIC)));
	}
	fprintf(out, "suite:       %s | tests %s | copies %s | samples %s x %s ms\n",
		S(model_info(m, RK_RUN_SUITE)), S(model_info(m, RK_RUN_TESTS)),
		S(model_info(m, RK_RUN_COPIES)), S(model_info(m, RK_RUN_SAMPLES)),
		S(model_info(m, RK_RUN_SAMPLE_MS)));
	if (m->host_cache[0])	/* qemu/run's header: the host cached the scratch disk */
		fprintf(out, "warning:     %s: qemu/run attached the disk with the host's page cache "
			"between guest and disk: the disk tests measured that cache, not the disk "
			"(qemu/run's default is cache=none)\n", S(m->host_cache));
}

/* A pass is worth a banner when one of its tests produced a RESULT. */
static int pass_has_result(const struct model *m, int copies)
{
	for (size_t i = 0; i < m->ntests; i++)
		if (m->tests[i].copies == copies && m->tests[i].has_result)
			return 1;
	return 0;
}

/* 1 when the pass of copies holds an index test (one with a baseline: TEST, RESULT, SKIP or
 * FAIL), else 0. */
static int pass_has_index(const struct model *m, int copies)
{
	for (size_t i = 0; i < m->ntests; i++)
		if (m->tests[i].copies == copies && ub_is_index(m->tests[i].baseline))
			return 1;
	return 0;
}

/* "not converged (ci95 +/-8.1% > target 1%; stop: futile, ~131 samples needed)" when the
 * RESULT said converged=0 (the part after ';' when it says stop= and samples_needed=), ""
 * otherwise. */
static const char *convergence(const struct model *m, const struct mtest *t, char *buf,
			       size_t cap)
{
	char tgt[40] = "";

	buf[0] = 0;
	if (t->converged != 0)
		return buf;
	if (isfinite(m->ci_target_pct))
		snprintf(tgt, sizeof tgt, " > target %g%%", m->ci_target_pct);
	char why[64] = "";
	if (t->stop && t->samples_needed > 0)
		snprintf(why, sizeof why, "; stop: %s, ~%ld samples needed", t->stop,
			 t->samples_needed);
	if (isfinite(t->ci95_pct))
		snprintf(buf, cap, "not converged (ci95 +/-%.1f%%%s%s)", t->ci95_pct, tgt, why);
	else
		snprintf(buf, cap, "not converged (95%% CI above the target%s%s)", tgt, why);
	return buf;
}

/* Per test of the pass: the median of its samples and that median's 95% CI (one statistic
 * and its own interval; the tables above show UnixBench's aggregate), unit, samples, and
 * whether the sampling met the run's CI target (RESULT converged=, when the log says).
 * Under TCG the per-test convergence is left out: text_run's one note says why. */
static void details(FILE *out, const struct model *m, int copies)
{
	int unknown = 0, tcg = model_is_tcg(m);

	fprintf(out, "\n%-40s%17s %-6s %7s %10s\n", "Details", "MEDIAN", "UNIT", "SAMPLES", "ci95");
	for (size_t i = 0; i < m->ntests; i++) {
		const struct mtest *t = &m->tests[i];
		char conv[512], smp[24] = "-", ci[24] = "-";
		if (t->copies != copies)
			continue;
		if (!t->has_result) {
			fprintf(out, "%-40.40s%17s %-6.6s %s\n", S(t->title), "---", S(t->unit),
				S(t->status));
			continue;
		}
		if (t->samples >= 0)
			snprintf(smp, sizeof smp, "%ld", t->samples);
		if (isfinite(t->ci95_pct))
			snprintf(ci, sizeof ci, "+/-%.2f%%", t->ci95_pct);
		unknown |= t->converged < 0;
		fprintf(out, "%-40.40s%17.1f %-6.6s %7s %10s", S(t->title),
			isfinite(t->median) ? t->median : t->value, S(t->unit), smp, ci);
		if (!tcg && *convergence(m, t, conv, sizeof conv))
			fprintf(out, "  %s", conv);
		fputc('\n', out);
	}
	if (unknown && !tcg)
		fprintf(out, "(this log does not say whether sampling met the CI target%s%s%s)\n",
			isfinite(m->ci_target_pct) ? " of +/-" : "",
			isfinite(m->ci_target_pct) ? S(model_info(m, RK_RUN_CI_TARGET)) : "",
			isfinite(m->ci_target_pct) ? "%" : "");
}

static void event_line(FILE *out, const struct mevent *e)
{
	char cop[48] = "", what[600];

	if (e->copies)
		snprintf(cop, sizeof cop, " (%d cop%s)", e->copies, e->copies == 1 ? "y" : "ies");
	if (!strcmp(e->kind, RK_ERROR) && strcmp(e->value, "-"))
		snprintf(what, sizeof what, "%s=%s", S(e->test), S(e->value));
	else
		snprintf(what, sizeof what, "%s", S(e->test));
	fprintf(out, "%-5s %s%s: %s%s (line %zu)\n", e->kind, what, cop, S(e->reason),
		!strcmp(e->kind, RK_ERROR) && !strcmp(e->what, REC_WHAT_PARAM) &&
		!rec_reason_says_kept(S(e->reason)) ? "; default kept" : "",
		e->line);
}

/* The mean of an x100 extra (key) over the test's measured SAMPLE records of that pass, / 100;
 * without SAMPLEs (a run read from its digest) fallback, the RESULT's figure as the runner
 * took it, / 100; NAN when neither says. The probes' TSC cycles per operation (cycles_x100,
 * written by the ring0 and vmexit probes; the digest restates that same mean,
 * payload/digest.c, so a run read from it prints the same figure). */
static double sample_x100(const struct model *m, const struct mtest *t, const char *key,
			  double fallback)
{
	double sum = 0;
	long n = 0;

	for (size_t i = 0; i < t->nsmp; i++) {
		const char *v = model_sample_get(m, &t->smp[i], key);
		double d;
		if (t->smp[i].warmup || !v || num_dbl(v, &d))	/* a VT_NONNEG extra, checked */
			continue;
		sum += d;
		n++;
	}
	return (n ? sum / (double)n : fallback) / 100;
}

/* What the runner's cycle counter (cycles_x100) counts on the run's architecture: RDTSC's TSC
 * ticks on x86-64, the generic timer's CNTVCT_EL0 ticks on arm64 (payload/arch/<arch>/arch_impl.h,
 * arch_cycles()). */
static const char *cycle_unit(const struct model *m)
{
	return !strcmp(model_info(m, RK_KERNEL_MACHINE), "aarch64") ? "CNTVCT ticks" : "TSC cycles";
}

/* One row of "Other tests and probes", under a line naming its group when the group changes;
 * a probe that counts cycles shows them beside its value, in cycle_unit(), and a ring0 probe
 * the null batch its value is net of. */
static void other_row(FILE *out, const struct model *m, const struct mtest *t, const char **grp)
{
	char cyc[96] = "";
	double c = sample_x100(m, t, REC_EXTRA_CYCLES_X100, t->cycles_x100);
	/* the null batch: the RESULT's (the median of the samples'), in a whole log and a digest */
	double z = isfinite(t->null_ns_x100) ? t->null_ns_x100 / 100
					     : sample_x100(m, t, REC_EXTRA_NULL_NS_X100, NAN);

	if (strcmp(*grp, t->group))
		fprintf(out, "  [%s]\n", S(t->group));
	*grp = t->group;
	if (isfinite(c))
		snprintf(cyc, sizeof cyc, "  %.1f %s", c, cycle_unit(m));
	if (isfinite(z))	/* the value and cycles are net of it */
		snprintf(cyc + strlen(cyc), sizeof cyc - strlen(cyc), ", null %.2f ns", z);
	if (t->has_result)
		fprintf(out, "%-40.40s%17.1f %-6.6s +/-%.2f%%%s%s\n", S(t->title), t->value,
			S(t->unit), isfinite(t->ci95_pct) ? t->ci95_pct : NAN, cyc,
			t->higher == 0 ? "  (lower is better)" : "");
	else
		fprintf(out, "%-40.40s%17s %-6.6s %s\n", S(t->title), "---", S(t->unit),
			S(t->status));
}

/* One "warning:" line per test whose clock read is above its share of what it timed. */
static void clock_warnings(FILE *out, const struct model *m)
{
	char line[512];
	int n = 0;

	for (size_t i = 0; i < m->ntests; i++)
		if (model_clock_warning(m, &m->tests[i], line, sizeof line))
			fprintf(out, "%swarning: %s\n", n++ ? "" : "\n", line);
}

/* Before the tables, what the figures are not: a TCG run's are emulation (one line, instead
 * of a "not converged" line per test); a suite whose CI target is 100% or more stopped at its
 * sample count whatever the spread (run.ci_target=100: quick, whose 3 samples of 100 ms check
 * the plumbing and measure nothing, and thorough, UnixBench's fixed 10 samples). */
static void run_notes(FILE *out, const struct model *m)
{
	if (model_is_tcg(m))
		fprintf(out, "\nnote: QEMU/TCG: software emulation, not a hypervisor; its figures are "
			     "noisy and no\n      measure of any machine (the per-test convergence "
			     "notes are left out)\n");
	if (isfinite(m->ci_target_pct) && m->ci_target_pct >= 100) {
		const char *suite = S(model_info(m, RK_RUN_SUITE));
		fprintf(out, "\nnote: suite %s: its confidence target is %g%%, so every test stops at "
			     "its sample count\n      whatever the spread%s\n", suite, m->ci_target_pct,
			!strcmp(suite, "quick") ? ": a smoke test of the plumbing, not a measurement"
						: " (\"converged\" says nothing)");
	}
}

void text_run(FILE *out, const struct model *m, const char *source)
{
	int shown = 0;

	header(out, m, source);
	run_notes(out, m);
	for (int p = 0; p < m->npass; p++) {
		int copies = m->pass[p].copies, others = 0;
		if (!pass_has_result(m, copies))
			continue;	/* only FAIL/SKIP: listed below, no empty table */
		shown++;
		fprintf(out, "\n--- %d parallel cop%s of tests ---\n", copies, copies == 1 ? "y" : "ies");
		/* UnixBench's table and score: lib/unixbench.c, shared with the runner; as the
		 * runner's, only for a pass that holds an index test (a disk, net or memory run
		 * alone gets no empty table with a "---" score). */
		char line[512];
		if (pass_has_index(m, copies)) {
			fprintf(out, "%s\n%s\n", UB_TABLE_NOTE, UB_TABLE_HEAD);
			for (size_t i = 0; i < m->ntests; i++) {
				const struct mtest *t = &m->tests[i];
				if (t->copies != copies || !ub_is_index(t->baseline))
					continue;
				fprintf(out, "%s\n", ub_row(line, sizeof line, S(t->title), t->baseline,
							     t->has_result ? t->value : 0,
							     t->has_result ? "" : S(t->status)));
			}
			fprintf(out, "%s\n", ub_footer(line, sizeof line, &m->pass[p].ub));
		}
		const char *grp = "";
		for (size_t i = 0; i < m->ntests; i++) {
			const struct mtest *t = &m->tests[i];
			if (t->copies != copies || ub_is_index(t->baseline))
				continue;
			if (!others++)
				fprintf(out, "\nOther tests and probes                             "
					     "RESULT UNIT      ci95\n");
			other_row(out, m, t, &grp);
		}
		details(out, m, copies);
		text_pct_run(out, m, copies);	/* latency percentiles (pct.h) */
	}
	if (!shown)
		fprintf(out, "\nno test produced a result in this run\n");
	clock_warnings(out, m);
	if (m->nev)
		fputc('\n', out);
	for (size_t i = 0; i < m->nev; i++)
		event_line(out, &m->ev[i]);
}

static int colw(const struct cmp *c)
{
	return side_w(c, 1);
}


/* Column j's steal (RESULT steal_pct=, compare.h's cell steal_pct): the mean over its rows
 * and the most, with the test; nothing when no result says it. */
static void steal_line(FILE *out, const struct cmp *c, size_t j)
{
	double sum = 0, most = -1;
	size_t n = 0;
	const char *worst = "";

	for (size_t i = 0; i < c->nrows; i++) {
		double s = c->rows[i].cell[j].steal_pct;
		if (!c->rows[i].cell[j].t || !isfinite(s))
			continue;
		sum += s;
		n++;
		if (s > most) {
			most = s;
			worst = c->rows[i].title;
		}
	}
	if (n)
		fprintf(out, "       steal: %.2f%% of the CPUs' time during the samples (mean of %zu "
			     "tests; most %.2f%%, %s; a warning above %g%%)\n", sum / (double)n, n,
			most, S(worst), CMP_STEAL_WARN_PCT);
}

/* The comparison's preamble: warnings and notes, one line per run, how to read the table. */
static void compare_head(FILE *out, const struct cmp *c, char *const *sources, int unconverged)
{
	for (size_t i = 0; i < c->nwarn; i++)
		fprintf(out, "warning: %s\n", S(c->warn[i]));
	for (size_t i = 0; i < c->nnote; i++)
		fprintf(out, "note: %s\n", S(c->note[i]));
	if (c->nwarn || c->nnote)
		fputc('\n', out);
	for (size_t j = 0; j < c->nruns; j++) {
		const struct model *m = c->m[j];
		if (c->replicated)
			fprintf(out, "side %zu: %s, %zu run(s)%s  (first file: %s)\n", j + 1,
				side(c, j, 0), c->side_runs[j],
				c->tcg[j] ? " (TCG: emulation, not a hypervisor cost)" : "", S(sources[j]));
		else
			fprintf(out, "run %zu: %s%s  (file: %s)\n", j + 1, side(c, j, 0),
				c->tcg[j] ? " (TCG: emulation, not a hypervisor cost)" : "", S(sources[j]));
		fprintf(out, "       %s | kernel %s | clocksource %s | build %s | mode %s\n",
			S(model_info(m, RK_CPU_MODEL)), S(model_info(m, RK_KERNEL_RELEASE)),
			S(model_info(m, RK_CLOCKSOURCE_CURRENT)), S(m->version), S(model_mode(m)));
		steal_line(out, c, j);
	}
	if (c->replicated) {
		fprintf(out, "\nvalue = the geometric mean of the side's runs' whole-run values (every "
			     "sample counted: RESULT whole=); ratio = performance relative to side 1 "
			     "(%s) by each test's direction, > 1 is better; * different, = equivalent, "
			     "~ undecided, ? fewer than %d runs a side\n",
			side(c, 0, 0), SIG_REP_MIN);
		fprintf(out, "verdict: the run is the unit (one value per run and test): Welch's t "
			     "on the log values (the paired t on log ratios when the runs carry "
			     "run.round, interleaved A/B); different when the Benjamini-Hochberg q < %g "
			     "over every verdict and the ratio's 95%% CI lies beyond the min-effect, "
			     "equivalent when its 90%% CI lies inside +- the min-effect (two one-sided "
			     "tests), else undecided (the table after the scores says each, with how "
			     "many runs would decide)\n", SIG_FDR);
	} else {
		fprintf(out, "\nratio = performance relative to run 1 (%s) by each test's direction, "
			     "> 1 is better; ~ within noise, * beyond noise, ? no noise estimate\n",
			side(c, 0, 0));
		fprintf(out, "noise: with >= %d samples a side, * needs a Mann-Whitney U p < %g on "
			     "the per-sample values and a ratio beyond the test's noise floor (the "
			     "table after the scores); with fewer, the medians' 95%% intervals must "
			     "not overlap\n", SIG_MIN_N, SIG_ALPHA);
		fprintf(out, "one run a side: %zu cell(s) marked *, %zu ~, %zu ?; these marks compare "
			     "samples within each run, and a host that drifts between runs moves all "
			     "of a run's samples together, so they cannot tell machine drift from a "
			     "difference: a * is beyond the noise within the runs, no verdict that the "
			     "machines differ; for a verdict give >= %d runs a side (--label "
			     "a,a,a,b,b,b A1 A2 A3 B1 B2 B3)\n", c->flagged, c->within, c->unknown,
			SIG_REP_MIN);
	}
	if (c->no_direction)
		fprintf(out, "%zu row(s) without a ratio: their logs do not say which way is better "
			     "(written before TEST/RESULT better= existed)\n", c->no_direction);
	if (unconverged)
		fprintf(out, "! after a value: %s\n", cmp_unconverged_note(c));
	if (c->replicated)
		fprintf(out, "Index Score rows: each run's score is that run's value, and the side's "
			     "score and verdict are over its runs as a test's are (not counted among "
			     "the tests); compared only when every run of both sides holds the same "
			     "index tests\n");
	else
		fprintf(out, "Index Score rows carry no noise mark: a score is a geometric mean of "
			     "index values without its own confidence interval; it is compared only "
			     "when both runs hold the same index tests\n");
	fputc('\n', out);
}

/* One test's row: each run's value and, after the first, its ratio and noise mark. */
static void compare_row(FILE *out, const struct cmp *c, const struct cmp_row *r, int w,
			int unconverged)
{
	fprintf(out, "%-36.36s %6d %-6.6s", S(r->title), r->copies, S(r->unit));
	for (size_t j = 0; j < c->nruns; j++) {
		const struct cmp_cell *cell = &r->cell[j];
		if (cell->t && unconverged)
			fprintf(out, " %*.1f%c", w - 1, cell->value, cell->converged == 0 ? '!' : ' ');
		else if (cell->t)
			fprintf(out, " %*.1f", w, cell->value);
		else
			fprintf(out, " %*s", w, "---");
		if (!j)
			continue;
		if (isfinite(cell->ratio))
			fprintf(out, " %5.2f %c", cell->ratio, cell->mark);
		else
			fprintf(out, " %7s", "---");
	}
	if (r->higher != 1)
		fprintf(out, "  %s", cmp_direction(r->higher));
	fputc('\n', out);
}

/* Index scores per pass, for every pass the first run has. */
static void compare_scores(FILE *out, const struct cmp *c, int w)
{
	for (int p = 0; p < c->m[0]->npass; p++) {
		int copies = c->m[0]->pass[p].copies;
		char name[64] = "Index Score";
		const struct ub_score *u = &c->m[0]->pass[p].ub;
		if (ub_score_partial(u))	/* what it is made of: never read as the whole index */
			snprintf(name, sizeof name, "Index Score (Partial: %d of %d)", u->n,
				 UB_INDEX_TESTS);
		fprintf(out, "%-36.36s %6d %-6s", name, copies, "");
		for (size_t j = 0; j < c->nruns; j++) {
			double s, r = cmp_score_ratio(c, j, copies, &s);
			if (isfinite(s))
				fprintf(out, " %*.1f", w, s);
			else
				fprintf(out, " %*s", w, "---");
			if (j) {
				const struct cmp_cell *sc = cmp_score_cell(c, j, copies);
				char mk = sc && sc->mark != ' ' ? sc->mark : ' ';
				if (isfinite(r))
					fprintf(out, " %5.2f %c", r, mk);
				else
					fprintf(out, " %7s", "---");
			}
		}
		fputc('\n', out);
	}
}

/* Each cell decided by the significance test: p, the ratio's interval, the floor. */
static void compare_significance(FILE *out, const struct cmp *c)
{
	int any = 0, sw = side_w(c, 0);

	for (size_t i = 0; i < c->nrows; i++)
		for (size_t j = 1; j < c->nruns; j++) {
			const struct cmp_cell *cl = &c->rows[i].cell[j];
			if (strcmp(cl->method, "mann-whitney"))
				continue;
			if (!any++)
				fprintf(out, "\nsignificance: Mann-Whitney U, two-sided, on each run's "
					     "non-warm-up SAMPLE values; ratio 95%% CI: bootstrap of "
					     "the whole-run values (%d resamples, fixed seed); * needs p < %g "
					     "and " NOISE_FLOOR_RULE "\n%-36s %6s %-*s %9s "
					     "%20s %16s\n", SIG_BOOT, SIG_ALPHA, "TEST", "COPIES",
					sw, "RUN", "p", "ratio [95% CI]", "noise floor");
			char ci[48], fl[32];
			snprintf(ci, sizeof ci, "%.3f [%.3f, %.3f]", cl->ratio, cl->ratio_lo,
				 cl->ratio_hi);
			snprintf(fl, sizeof fl, "%.1f%% %s", cl->floor_pct, cl->floor_from);
			fprintf(out, "%-36.36s %6d %-*s %9.2g %20s %16s %c\n",
				S(c->rows[i].title), c->rows[i].copies, sw, side(c, j, 0), cl->p, ci,
				fl, cl->mark);
		}
}

/* One row of the replicate verdicts' table: title, copies, side, runs (A+B, AxB paired),
 * the test, p, the ratio with its 95% CI and the mark. */
static void verdict_row(FILE *out, const char *title, int copies, int sw, const char *side,
			const struct cmp_cell *cl)
{
	char ci[48], runs[24], p[16] = "---";	/* no p (too few runs): "---", as JSON's null */

	snprintf(ci, sizeof ci, "%.3f [%.3f, %.3f]", cl->ratio, cl->ratio_lo, cl->ratio_hi);
	snprintf(runs, sizeof runs, "%zu%s%zu", cl->runs_a, cl->paired ? "x" : "+", cl->runs_b);
	if (isfinite(cl->p))
		snprintf(p, sizeof p, "%.2g", cl->p);
	char ans[CMP_BASIS_MAX] = "";
	if (cl->rep.answer != SIG_ANS_NONE)
		sig_answer_text(&cl->rep, ans, sizeof ans);
	else if (cl->mark == '?')	/* why no verdict (compare.h cmp_basis()) */
		cmp_basis(cl, ans, sizeof ans);
	fprintf(out, "%-36.36s %6d %-*s %7s %-9s %9s %20s %c%s%s\n", title, copies, sw, side, runs,
		cl->method, p, isfinite(cl->ratio_lo) ? ci : "---", cl->mark, *ans ? " " : "", ans);
}

/* Each cell decided on replicates: the runs behind it, the test, p and the ratio's CI. */
static void compare_replicates(FILE *out, const struct cmp *c)
{
	int any = 0, sw = side_w(c, 0);

	for (size_t i = 0; i < c->nrows; i++)
		for (size_t j = 1; j < c->nruns; j++) {
			const struct cmp_cell *cl = &c->rows[i].cell[j];
			if (strcmp(cl->method, "welch-t") && strcmp(cl->method, "paired-t") &&
			    strcmp(cl->method, "too-few-runs"))
				continue;
			if (!any++)
				fprintf(out, "\nverdicts on replicates: one value per run (RESULT "
					     "whole=, every sample counted); welch-t: Welch's t on log "
					     "values; paired-t: the paired t on per-round log ratios; "
					     "q: Benjamini-Hochberg over the %s verdicts\n"
					     "%-36s %6s %-*s %7s %-9s %9s %20s %s\n", "table's", "TEST",
					"COPIES", sw, "SIDE", "RUNS", "TEST", "p", "ratio [95% CI]",
					"ANSWER");
			verdict_row(out, S(c->rows[i].title), c->rows[i].copies, sw, side(c, j, 0), cl);
		}
	/* The Index Score over the runs: each run's score its value, as a test's row. */
	for (int p = 0; any && p < c->nscore; p++)
		for (size_t j = 1; j < c->nruns; j++) {
			const struct cmp_cell *cl = &c->score[p][j];
			if (!strcmp(cl->method, "none"))
				continue;
			verdict_row(out, "Index Score", c->m[0]->pass[p].copies, sw, side(c, j, 0), cl);
		}
}

/* Column j's clock of row r: its run's, or with replicates its side's over all its runs. */
static void cell_clock(const struct cmp *c, const struct cmp_row *r, size_t j,
		       struct clk_test *ct)
{
	if (c->side && c->side_runs)
		clk_side_of(c->side[j], c->side_runs[j], r->test, r->copies, ct);
	else if (r->cell[j].t)
		clk_test_of(c->m[j], r->cell[j].t, ct);
	else
		*ct = (struct clk_test){.mhz = NAN, .method = "-", .cpu_pct = NAN};
}

/* Each run's effective clock (cpuclk.h) beside each test that has one, with the share of
 * their run time its copies were on a CPU ('+': CPU-bound), and the run's over all tests;
 * with replicates each side's over all its runs. */
static void compare_clock(FILE *out, const struct cmp *c, int w)
{
	int any = 0;

	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		struct clk_test ct;
		int has = 0;
		for (size_t j = 0; j < c->nruns; j++) {
			cell_clock(c, r, j, &ct);
			has |= isfinite(ct.mhz);
		}
		if (!has)
			continue;
		if (!any++) {
			fprintf(out, "\neffective clock, MHz: the median over the SAMPLEs of mhz= "
				     "(aperf: APERF/MPERF; cppc: ACPI CPPC feedback counters; chain: a "
				     "timed chain of dependent adds), and the share of their run time "
				     "the copies were on a CPU (+: CPU-bound, >= %.0f%%)\n%-36s %6s %-6s",
				CLK_CPU_BOUND_PCT, "TEST", "COPIES", "");
			for (size_t j = 0; j < c->nruns; j++)
				fprintf(out, " %*s", w, side(c, j, 1));
			fputc('\n', out);
		}
		fprintf(out, "%-36.36s %6d %-6s", S(r->title), r->copies, "");
		for (size_t j = 0; j < c->nruns; j++) {
			char f[48] = "---";
			cell_clock(c, r, j, &ct);
			if (isfinite(ct.mhz) && isfinite(ct.cpu_pct))
				snprintf(f, sizeof f, "%.0f %3.0f%%%c", ct.mhz, ct.cpu_pct,
					 ct.cpu_bound ? '+' : ' ');
			else if (isfinite(ct.mhz))	/* no cpu_ns=: no CPU share */
				snprintf(f, sizeof f, "%.0f    - ", ct.mhz);
			fprintf(out, " %*s", w, f);
		}
		fputc('\n', out);
	}
	if (!any)
		return;
	fprintf(out, "%-36.36s %6s %-6s", "the run (every SAMPLE), method", "", "");
	for (size_t j = 0; j < c->nruns; j++) {
		struct clk_run cr;
		char f[48] = "---";
		if (c->side && c->side_runs)
			clk_side_run_of(c->side[j], c->side_runs[j], &cr);
		else
			clk_run_of(c->m[j], &cr);
		if (isfinite(cr.mhz))
			snprintf(f, sizeof f, "%.0f %s", cr.mhz, cr.method);
		fprintf(out, " %*s", w, f);
	}
	fputc('\n', out);
}

/* The all-rows (compare.h cmp_allrow): each run's all-CPUs pass side by side when their
 * copies differ, the totals and per-copy figures, the ratio of the per-copy figures. */
static void compare_all_cpus(FILE *out, const struct cmp *c)
{
	int sw = side_w(c, 0);

	if (!c->nallrows)
		return;
	fprintf(out, "\nall CPUs: each run's pass of one copy per online CPU, paired although "
		     "their copies differ; total = the RESULT value, per copy = a rate / copies (a "
		     "time is the copies' mean already); ratio = per copy against run 1's, > 1 is "
		     "better\n%-36s %-6s", "TEST", "UNIT");
	for (size_t j = 0; j < c->nruns; j++)
		fprintf(out, " | %-*s %6s %12s %12s%s", sw, side(c, j, 0), "copies", "total",
			"per copy", j ? "   ratio" : "");
	fputc('\n', out);
	for (size_t i = 0; i < c->nallrows; i++) {
		const struct cmp_allrow *r = &c->allrows[i];
		fprintf(out, "%-36.36s %-6.6s", S(r->title), S(r->unit));
		for (size_t j = 0; j < c->nruns; j++) {
			const struct cmp_allcell *cl = &r->cell[j];
			fprintf(out, " | %-*s %6d", sw, "", cl->copies);
			if (cl->t)
				fprintf(out, " %12.1f %12.1f", cl->total, cl->per_copy);
			else
				fprintf(out, " %12s %12s", "---", "---");
			if (j && isfinite(cl->ratio))
				fprintf(out, " %7.2f", cl->ratio);
			else if (j)
				fprintf(out, " %7s", "---");
		}
		fputc('\n', out);
	}
}

void text_compare(FILE *out, const struct cmp *c, char *const *sources)
{
	int w = colw(c), unconverged = cmp_any_unconverged(c);

	compare_head(out, c, sources, unconverged);
	fprintf(out, "%-36s %6s %-6s", "TEST", "COPIES", "UNIT");
	for (size_t j = 0; j < c->nruns; j++) {
		fprintf(out, " %*s", w, side(c, j, 1));
		if (j)
			fprintf(out, " %7s", "ratio");
	}
	fputc('\n', out);
	for (size_t i = 0; i < c->nrows; i++)
		compare_row(out, c, &c->rows[i], w, unconverged);
	compare_scores(out, c, w);
	compare_clock(out, c, w);
	compare_all_cpus(out, c);
	compare_significance(out, c);
	compare_replicates(out, c);
	text_pct_compare(out, c);	/* latency percentiles, lower is better (pct.h) */
}

/* A figure in a fixed width: more decimals for small numbers. */
static const char *fleet_fig(char *buf, size_t cap, double v)
{
	if (!isfinite(v))
		snprintf(buf, cap, "-");
	else
		snprintf(buf, cap, fabs(v) >= 1000 ? "%.0f" : fabs(v) >= 10 ? "%.2f" : "%.4f", v);
	return buf;
}

/* The fleet's latency tails: per latency test and group, the quantiles of every operation
 * of every run of the group (fleet.h struct fcell lat[]), or why they are not pooled. */
static void fleet_tails(FILE *out, const struct fleet *f)
{
	int head = 0;

	for (size_t r = 0; r < f->nrows; r++) {
		const struct frow *row = &f->rows[r];
		for (size_t g = 0; g < f->ngroups; g++) {
			const struct fcell *cl = &row->cell[g];
			if (!cl->lat_runs)
				continue;
			if (!head++)
				fprintf(out, "\nlatency tails, ns: every operation of every run of the "
					     "group pooled (the runs' whole-run histograms merged)\n"
					     "%-22s %-4s %5s %4s %10s %10s %10s %10s\n", "test", "pass",
					"group", "runs", "p50", "p99", "p99.9", "max");
			fprintf(out, "%-22s %-4s %5zu %4zu", row->test, row->pass, g + 1, cl->lat_runs);
			if (cl->lat_hists == cl->lat_runs) {
				for (int q = 0; q < LAT_NQ; q++)
					fprintf(out, " %10.0f", cl->lat[q]);
				fputc('\n', out);
			} else {
				fprintf(out, "  not pooled: %zu of %zu runs lack their histogram (an "
					     "older log, or one read from its digest)\n",
					cl->lat_runs - cl->lat_hists, cl->lat_runs);
			}
		}
	}
}

void text_fleet(FILE *out, const struct fleet *f, const char *dir, const char *by)
{
	char a[32], b[32], c[32], d[32], e[32];

	fprintf(out, "fleet: %zu run(s) from %s in %zu group(s) by %s; reference group: %s\n",
		f->nruns, dir, f->ngroups, by, f->ngroups ? f->groups[0] : "-");
	for (size_t g = 0; g < f->ngroups; g++) {
		size_t n = fleet_group_size(f, g);
		fprintf(out, "group %zu: %s (%zu run%s)%s\n", g + 1, f->groups[g], n, n == 1 ? "" : "s",
			strstr(f->groups[g], "QEMU/TCG") ? " (TCG: emulation, not a hypervisor cost)" : "");
		for (size_t i = 0; i < f->nruns; i++)
			if (!strcmp(f->runs[i].group, f->groups[g]))
				fprintf(out, "  %s\n", f->runs[i].path);
	}
	for (size_t w = 0; w < f->nwarn; w++)
		fprintf(out, "warning: %s\n", f->warn[w]);
	fprintf(out, "\n%-22s %-4s %-6s %5s %3s %12s %12s %12s %25s %7s %8s\n", "test", "pass",
		"unit", "group", "n", "median", "min", "max", "95% CI of the median", "ratio", "p");
	for (size_t r = 0; r < f->nrows; r++) {
		const struct frow *row = &f->rows[r];
		for (size_t g = 0; g < f->ngroups; g++) {
			const struct fcell *cl = &row->cell[g];
			if (!cl->n) {
				fprintf(out, "%-22s %-4s %-6s %5zu %3d %12s\n", g ? "" : row->test,
					g ? "" : row->pass, g ? "" : row->unit, g + 1, 0, "-");
				continue;
			}
			char ci[80], ratio[32], p[32] = "";
			snprintf(ci, sizeof ci, "%s..%s", fleet_fig(d, sizeof d, cl->s.ci_lo),
				 fleet_fig(e, sizeof e, cl->s.ci_hi));
			if (g == 0)
				snprintf(ratio, sizeof ratio, "1");
			else if (isfinite(cl->ratio))
				snprintf(ratio, sizeof ratio, "%.3f %c", cl->ratio, cl->mark);
			else
				snprintf(ratio, sizeof ratio, "-");
			if (isfinite(cl->p))
				snprintf(p, sizeof p, "%.2g", cl->p);
			char ans[400] = "";	/* the verdict in words (signif.h's one wording) */
			if (cl->rep.answer != SIG_ANS_NONE)
				sig_basis_text(&cl->rep, ans, sizeof ans);
			else if (cl->mark == '?')
				snprintf(ans, sizeof ans, "fewer than %d runs a side: no verdict",
					 SIG_REP_MIN);
			fprintf(out, "%-22s %-4s %-6s %5zu %3zu %12s %12s %12s %25s %7s %8s%s%s\n",
				g ? "" : row->test, g ? "" : row->pass, g ? "" : row->unit, g + 1, cl->n,
				fleet_fig(a, sizeof a, cl->s.median), fleet_fig(b, sizeof b, cl->s.min),
				fleet_fig(c, sizeof c, cl->s.max), ci, ratio, p, *ans ? "  " : "", ans);
		}
	}
	fleet_tails(out, f);
	fprintf(out, "\npass: 1 = one copy, N = as many copies as the run's online CPUs. ratio: "
		     "the group's median to group 1's\n(performance: < 1 is slower, for rates and "
		     "times alike). Marks rest on the runs, one value per machine\n(a machine's "
		     "samples are no replicates): Welch's t on the log whole-run values, answered\n"
		     "over every group cell at once (* different, = equivalent, ~ undecided): %s;\n"
		     "? a group with fewer than %d runs.\n", sig_rule(), SIG_REP_MIN);
}
