/* model.c — see model.h. */
#define _GNU_SOURCE
#include "model.h"
#include "num.h"
#include "vocab.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup(const char *s)
{
	return strdup(s ? s : "-");
}

/* Field key of r as a number (num_dbl_or_nan(): the grammar's, which the reader checked the
 * record's VT_DEC/VT_POS/VT_NONNEG fields against); NAN when absent or not one. */
static double fig(const struct rec_kept *r, const char *key)
{
	return num_dbl_or_nan(rec_get(r, key));
}

/* Field key of r as a count (samples=, i=, samples_needed=: VT_UINT, checked); -1 when
 * absent or not one. */
static long count(const struct rec_kept *r, const char *key)
{
	long long v;
	return rec_get_ll(r, key, 0, LONG_MAX, &v) ? -1 : (long)v;
}

static int grow(void **p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 16;
	void *q = realloc(*p, nc * size);
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

static struct mtest *find_or_add(struct model *m, size_t *cap, const char *test, int copies)
{
	for (size_t i = 0; i < m->ntests; i++)
		if (m->tests[i].copies == copies && !strcmp(m->tests[i].test, test))
			return &m->tests[i];
	if (grow((void **)&m->tests, m->ntests, cap, sizeof *m->tests))
		return NULL;
	struct mtest *t = &m->tests[m->ntests++];
	memset(t, 0, sizeof *t);
	t->test = dup(test);
	t->title = dup(test);
	t->unit = dup(NULL);
	t->group = dup(NULL);
	t->clocksource = dup(NULL);
	t->copies = copies;
	t->value = t->median = t->min = t->max = t->ci95_pct = t->index = t->cycles_x100 =
		t->null_ns_x100 = t->whole = t->steal_pct =
		t->clock_ns_x100 = NAN;
	t->whole_from = "aggregate";
	t->ci_lo = t->ci_hi = NAN;
	for (int q = 0; q < LAT_NQ; q++)
		t->lat_result[q] = NAN;
	t->ci_from = "none";
	t->status = "ok";
	t->samples = -1;
	t->converged = -1;
	t->higher = -1;
	return t;
}

static void set(char **dst, const char *v)
{
	if (v) {
		char *n = strdup(v);
		if (n) {
			free(*dst);
			*dst = n;
		}
	}
}

/* t's whole-run value when its RESULT does not carry one (model.h's whole). */
static void derive_whole(struct mtest *t)
{
	size_t n = 0;
	double *v;

	if (!t->has_result || isfinite(t->whole))
		return;
	t->whole = t->value;
	t->whole_from = "aggregate";
	if (t->higher < 0 || !(v = malloc((t->nsmp + 1) * sizeof *v)))
		return;
	for (size_t i = 0; i < t->nsmp; i++)
		if (!t->smp[i].warmup && t->smp[i].value > 0)
			v[n++] = t->smp[i].value;
	double w = whole_of_values(v, n, t->higher);
	if (w > 0) {
		t->whole = w;
		t->whole_from = "samples";
	}
	free(v);
}

static void derive_ci(struct mtest *t)
{
	size_t n = 0;
	double *v = malloc((t->nsmp + 1) * sizeof *v);
	struct summary s;

	if (v) {
		for (size_t i = 0; i < t->nsmp; i++)
			if (!t->smp[i].warmup && t->smp[i].value > 0)
				v[n++] = t->smp[i].value;
		/* The CI of the median does not depend on the direction; summarize() wants one. */
		if (n && summarize(v, n, t->higher != 0, &s) == 0) {
			t->ci_lo = s.ci_lo;
			t->ci_hi = s.ci_hi;
			t->ci_from = "samples";
			free(v);
			return;
		}
		free(v);
	}
	if (isfinite(t->median) && isfinite(t->ci95_pct) && t->ci95_pct >= 0) {
		t->ci_lo = t->median * (1 - t->ci95_pct / 100);
		t->ci_hi = t->median * (1 + t->ci95_pct / 100);
		t->ci_from = "ci95_pct";
	} else if (isfinite(t->min) && isfinite(t->max) && t->min <= t->max) {
		t->ci_lo = t->min;
		t->ci_hi = t->max;
		t->ci_from = "min-max";
	}
}

static int copies_of(const struct rec_kept *r)
{
	long long v;
	int e = rec_get_ll(r, RK_COPIES, 0, 1000000, &v);	/* a UINT1, checked when read */
	return e == -ENOENT ? 1 : e ? 0 : (int)v;
}

static int add_event(struct model *m, size_t *cap, const struct rec_kept *r, size_t line)
{
	if (grow((void **)&m->ev, m->nev, cap, sizeof *m->ev))
		return -1;
	struct mevent *e = &m->ev[m->nev++];
	memset(e, 0, sizeof *e);
	snprintf(e->kind, sizeof e->kind, "%s", r->kind);
	e->test = dup(rec_get(r, RK_TESTNAME)    ? rec_get(r, RK_TESTNAME)
		      : rec_get(r, RK_PARAM) ? rec_get(r, RK_PARAM)
					     : rec_get(r, RK_WHAT));
	e->reason = dup(rec_get(r, RK_REASON));
	e->what = dup(rec_get(r, RK_WHAT));
	e->value = dup(rec_get(r, RK_VALUE));
	e->copies = rec_get(r, RK_COPIES) ? copies_of(r) : 0;
	e->line = line;
	return e->test && e->reason && e->what && e->value ? 0 : -1;
}

/* Record lr as the model's (JSON/CSV "every record"): the run's own, as decoded when read. */
static void take_record(struct model *m, const struct logrec *lr)
{
	m->recs[m->nrecs].line = lr->line;
	m->recs[m->nrecs++].r = lr->r;
}

/* An INFO record's fields into the header facts. */
static int add_info(struct model *m, size_t *icap, const struct rec_kept *r)
{
	for (int k = 0; k < r->nfields; k++) {
		if (grow((void **)&m->info, m->ninfo, icap, sizeof *m->info))
			return -1;
		m->info[m->ninfo].key = strdup(r->key[k]);
		m->info[m->ninfo].val = strdup(r->val[k]);
		/* "hpet acpi_pm " (sysfs lists end in a space): trailing
		 * white space is not part of the fact */
		for (char *v = m->info[m->ninfo].val, *e = v ? v + strlen(v) : NULL;
		     e && e > v && (e[-1] == ' ' || e[-1] == '\t'); *--e = 0)
			;
		if (!m->info[m->ninfo].key || !m->info[m->ninfo].val) {
			free(m->info[m->ninfo].key);
			free(m->info[m->ninfo].val);
			return -1;
		}
		m->ninfo++;
	}
	return 0;
}

/* A record about one test in one pass: TEST, SAMPLE, RESULT, or a FAIL/SKIP that names
 * its copies. */
static int about_a_test(const struct rec_kept *r, const char *test)
{
	return test && (!strcmp(r->kind, RK_TEST) || !strcmp(r->kind, RK_SAMPLE) ||
			!strcmp(r->kind, RK_RESULT) ||
			(copies_of(r) && rec_get(r, RK_COPIES) &&
			 (!strcmp(r->kind, RK_FAIL) || !strcmp(r->kind, RK_SKIP))));
}

/* s->lat[] from the SAMPLE r's lib/latency.h extras (NAN where absent or negative). */
static void lat_sample(struct msample *s, const struct rec_kept *r)
{
	for (int q = 0; q < LAT_NQ; q++) {
		double d = fig(r, lat_keys[q]);
		s->lat[q] = d >= 0 ? d : NAN;
	}
}

/* t->lat[] and t->has_lat: the RESULT's whole-run figures when it carries them all, else
 * per quantile the median over the non-warmup samples that carry it (older logs). */
static void lat_derive(struct mtest *t)
{
	double *v = malloc((t->nsmp + 1) * sizeof *v);

	t->has_lat = 0;
	t->lat_whole = 1;
	for (int q = 0; q < LAT_NQ; q++)
		t->lat_whole &= t->has_result && isfinite(t->lat_result[q]);
	for (int q = 0; t->lat_whole && q < LAT_NQ; q++)
		t->lat[q] = t->lat_result[q];
	t->has_lat = t->lat_whole;
	for (int q = 0; !t->lat_whole && q < LAT_NQ; q++) {
		size_t n = 0;
		for (size_t i = 0; v && i < t->nsmp; i++)
			if (!t->smp[i].warmup && isfinite(t->smp[i].lat[q]))
				v[n++] = t->smp[i].lat[q];
		t->lat[q] = median_of(v, n);
		t->has_lat |= n > 0;
	}
	free(v);
}

static int add_sample(struct mtest *t, const struct rec_kept *r, size_t line, size_t rec)
{
	struct msample *ns = realloc(t->smp, (t->nsmp + 1) * sizeof *ns), *s;
	if (!ns)
		return -1;
	t->smp = ns;
	s = &t->smp[t->nsmp++];
	s->warmup = rec_get(r, RK_WARMUP) && strcmp(rec_get(r, RK_WARMUP), "0");
	s->i = s->warmup ? -1 : count(r, RK_I);
	s->value = fig(r, RK_VALUE);
	s->line = line;
	s->rec = rec;
	lat_sample(s, r);	/* latency percentiles, if the test reports them */
	return 0;
}

static void take_result(struct mtest *t, const struct rec_kept *r, size_t line)
{
	t->has_result = 1;
	t->line = line;
	t->value = fig(r, RK_VALUE);
	t->whole = fig(r, RK_WHOLE);
	t->whole_from = "result";
	t->steal_pct = fig(r, RK_STEAL_PCT);
	t->median = fig(r, RK_MEDIAN);
	t->min = fig(r, RK_MIN);
	t->max = fig(r, RK_MAX);
	t->ci95_pct = fig(r, RK_CI95);
	t->index = fig(r, RK_INDEX);
	t->samples = count(r, RK_SAMPLES);
	if (!isfinite(t->median))
		t->median = t->value;
	const char *cv = rec_get(r, RK_CONVERGED);
	t->converged = !cv ? -1 : !strcmp(cv, "1") ? 1 : !strcmp(cv, "0") ? 0 : -1;
	/* stop= is one of the grammar's words (validated): kept as the macro's own string. */
	static const char *const stops[] = {REC_STOP_TARGET, REC_STOP_CAP, REC_STOP_FUTILE,
					    REC_STOP_BUDGET};
	const char *sp = rec_get(r, RK_STOP);
	t->stop = NULL;
	for (size_t i = 0; sp && i < sizeof stops / sizeof stops[0]; i++)
		if (!strcmp(sp, stops[i]))
			t->stop = stops[i];
	t->samples_needed = count(r, RK_SAMPLES_NEEDED);
	t->cycles_x100 = fig(r, RK_CYCLES);
	t->null_ns_x100 = fig(r, RK_NULL_NS);
	t->clock_ns_x100 = fig(r, RK_CLOCK_NS);
	for (int q = 0; q < LAT_NQ; q++) {	/* whole-run latency percentiles, ns */
		double d = fig(r, lat_keys[q]);
		t->lat_result[q] = d >= 0 ? d : NAN;
	}
	free(t->lat_hist);
	t->lat_hist = rec_get(r, RK_LAT_HIST) ? strdup(rec_get(r, RK_LAT_HIST)) : NULL;
}

/* A record about_a_test() into its test (found or added): what every such record may say
 * (unit, group, title, direction, baseline), then what its kind says. */
static int add_to_test(struct model *m, size_t *tcap, const struct rec_kept *r, const char *test,
		       size_t line)
{
	struct mtest *t = find_or_add(m, tcap, test, copies_of(r));
	if (!t)
		return -1;
	if (!t->line)
		t->line = line;
	set(&t->unit, rec_get(r, RK_UNIT));
	set(&t->group, rec_get(r, RK_GROUP));
	set(&t->title, rec_get(r, RK_TITLE));
	if (!strcmp(r->kind, RK_TEST))
		set(&t->clocksource, rec_get(r, RK_CLOCKSOURCE));
	const char *better = rec_get(r, RK_BETTER);
	if (better && !strcmp(better, REC_BETTER_HIGHER))
		t->higher = 1;
	else if (better && !strcmp(better, REC_BETTER_LOWER))
		t->higher = 0;
	if (isfinite(fig(r, RK_BASELINE))) {
		t->has_baseline = 1;
		t->baseline = fig(r, RK_BASELINE);
	}
	if (!strcmp(r->kind, RK_SAMPLE)) {
		if (add_sample(t, r, line, m->nrecs - 1))	/* take_record() took it last */
			return -1;
	} else if (!strcmp(r->kind, RK_RESULT)) {
		take_result(t, r, line);
	} else if (!strcmp(r->kind, RK_FAIL) || !strcmp(r->kind, RK_SKIP)) {
		t->status = !strcmp(r->kind, RK_FAIL) ? RK_FAIL : RK_SKIP;
		set(&t->reason, rec_get(r, RK_REASON));
		t->line = line;
	}
	return 0;
}

/* Phase 2: what the records imply: defaults for what BEGIN did not say, each test's CI and
 * index, the passes and their UnixBench scores. Returns 0, or -1 when out of memory. */
static int derive(struct model *m)
{
	size_t pcap = 0;

	if (!m->run_id)
		m->run_id = dup(NULL);
	if (!m->version)
		m->version = dup(NULL);
	if (!m->mode)
		m->mode = dup(NULL);
	m->ci_target_pct = num_dbl_or_nan(model_info(m, RK_RUN_CI_TARGET));
	for (size_t i = 0; i < m->ntests; i++) {
		struct mtest *t = &m->tests[i];
		int p;
		derive_ci(t);
		derive_whole(t);
		lat_derive(t);
		if (!isfinite(t->index) && t->has_result && ub_is_index(t->baseline) &&
		    ub_valid(t->value, t->baseline))
			t->index = ub_index(t->value, t->baseline);
		for (p = 0; p < m->npass && m->pass[p].copies != t->copies; p++)
			;
		if (p == m->npass) {
			if (grow((void **)&m->pass, (size_t)m->npass, &pcap, sizeof *m->pass))
				return -1;
			m->pass[m->npass].copies = t->copies;
			ub_score_init(&m->pass[m->npass].ub);
			m->npass++;
		}
		if (t->has_result && ub_is_index(t->baseline))
			ub_score_add(&m->pass[p].ub, t->value, t->baseline);
	}
	for (int p = 0; p < m->npass; p++) {
		m->pass[p].nindex = m->pass[p].ub.n;
		m->pass[p].score = m->pass[p].nindex ? ub_score_value(&m->pass[p].ub) : NAN;
	}
	return 0;
}

int model_build(const struct run *run, struct model *m)
{
	size_t tcap = 0, ecap = 0, icap = 0;
	int rc = -1;

	memset(m, 0, sizeof *m);
	m->first_line = run->first_line;
	m->last_line = run->last_line;
	m->results = run->results;
	m->fails = run->fails;
	m->skips = run->skips;
	m->errors = run->errors;
	m->powered_off = run->powered_off;
	snprintf(m->host_cache, sizeof m->host_cache, "%s", run->host_cache);
	m->recs = calloc(run->nrecs + 1, sizeof *m->recs);
	if (!m->recs)
		goto out;
	/* Phase 1: each record into the model. */
	for (size_t i = 0; i < run->nrecs; i++) {
		const struct logrec *lr = &run->recs[i];
		const struct rec_kept *r = lr->r;
		take_record(m, lr);
		const char *test = rec_get(r, RK_TESTNAME);
		if (!strcmp(r->kind, RK_BEGIN)) {
			set(&m->run_id, rec_get(r, RK_RUN));
			set(&m->version, rec_get(r, RK_VERSION));
			set(&m->mode, rec_get(r, RK_MODE));
		} else if (!strcmp(r->kind, RK_INFO)) {
			if (add_info(m, &icap, r))
				goto out;
		} else if (about_a_test(r, test)) {
			if (add_to_test(m, &tcap, r, test, lr->line))
				goto out;
		}
		if (!strcmp(r->kind, RK_FAIL) || !strcmp(r->kind, RK_SKIP) || !strcmp(r->kind, RK_ERROR) ||
		    !strcmp(r->kind, RK_WARN))
			if (add_event(m, &ecap, r, lr->line))
				goto out;
	}
	if (derive(m))
		goto out;
	rc = 0;
out:
	if (rc)
		model_free(m);
	return rc;
}

void model_free(struct model *m)
{
	for (size_t i = 0; i < m->ninfo; i++) {
		free(m->info[i].key);
		free(m->info[i].val);
	}
	for (size_t i = 0; i < m->ntests; i++) {
		struct mtest *t = &m->tests[i];
		free(t->test);
		free(t->title);
		free(t->unit);
		free(t->group);
		free(t->clocksource);
		free(t->reason);
		free(t->smp);
		free(t->lat_hist);
	}
	for (size_t i = 0; i < m->nev; i++) {
		free(m->ev[i].test);
		free(m->ev[i].reason);
		free(m->ev[i].what);
		free(m->ev[i].value);
	}
	free(m->info);
	free(m->recs);
	free(m->tests);
	free(m->ev);
	free(m->pass);
	free(m->run_id);
	free(m->version);
	free(m->mode);
	memset(m, 0, sizeof *m);
}

const char *model_info(const struct model *m, const char *key)
{
	for (size_t i = 0; i < m->ninfo; i++)
		if (!strcmp(m->info[i].key, key))
			return m->info[i].val;
	return "-";
}

long model_info_count(const struct model *m, const char *key)
{
	long long v;
	return num_ll(model_info(m, key), 0, 0, INT_MAX, &v) ? -1 : (long)v;
}

const char *model_better(const struct mtest *t)
{
	return t->higher == 1 ? REC_BETTER_HIGHER : t->higher == 0 ? REC_BETTER_LOWER : "unknown";
}

enum model_layer model_layer(const struct model *m)
{
	const char *rel = model_info(m, RK_KERNEL_RELEASE), *cmd = model_info(m, RK_KERNEL_CMDLINE);

	if (!strcmp(model_info(m, RK_CPU_VENDOR), "User Mode Linux") ||
	    (!strcmp(model_info(m, RK_CLOCKSOURCE_AVAILABLE), "timer") &&
	     !strcmp(model_info(m, RK_CLOCKSOURCE_CURRENT), "timer")))
		return MODEL_LAYER_UML;
	if (!strcmp(rel, "4.4.0") && strstr(cmd, "/vmlinuz-4.4.0-gvisor"))
		return MODEL_LAYER_GVISOR;
	return MODEL_LAYER_NONE;
}

int model_ends_halted(const struct model *m)
{
	return model_layer(m) == MODEL_LAYER_UML;
}

void model_hv(const struct model *m, char *buf, size_t cap)
{
	static const char *const layers[] = {[MODEL_LAYER_UML] = "UML",
					     [MODEL_LAYER_GVISOR] = "gVisor"};
	enum model_layer l = model_layer(m);

	if (l != MODEL_LAYER_NONE) {
		snprintf(buf, cap, "%s", layers[l]);
		return;
	}
	static const char *const map[][2] = {
		{"none", "bare-metal"},		{"KVMKVMKVM", "KVM"},
		{"VMwareVMware", "VMware"},	{"Microsoft Hv", "Hyper-V"},
		{"XenVMMXenVMM", "Xen"},	{"TCGTCGTCGTCG", "QEMU/TCG"},
		{"Linux KVM Hv", "KVM"},	{"VBoxVBoxVBox", "VirtualBox"},
		{"bhyve bhyve ", "bhyve"},	{"ACRNACRNACRN", "ACRN"},
		{REC_HV_PSCI_HVC, "unknown hypervisor (PSCI over HVC)"},
	};
	const char *hv = model_info(m, RK_HV_CPUID), *name = NULL;
	const char *kern = model_info(m, RK_KERNEL_HYPERVISOR);

	/* No CPU signature (arm64 has no CPUID), or only arm64's PSCI-over-HVC hint: the
	 * kernel's own word names the hypervisor when it has one (KVM/arm64, Xen). */
	if (!strcmp(hv, "-") || ((!strcmp(hv, "none") || !strcmp(hv, REC_HV_PSCI_HVC)) &&
				 strcmp(kern, "-") && strcmp(kern, "none")))
		hv = kern;
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (!strcmp(hv, map[i][0]))
			name = map[i][1];
	if (!name)
		name = strcmp(hv, "-") ? hv : "unknown";
	snprintf(buf, cap, "%s", name);
}

void model_label(const struct model *m, char *buf, size_t cap)
{
	char name[200];
	const char *cpus = model_info(m, RK_CPU_ONLINE);

	model_hv(m, name, sizeof name);
	if (strcmp(cpus, "-"))
		snprintf(buf, cap, "%s, %s CPU%s", name, cpus, strcmp(cpus, "1") ? "s" : "");
	else
		snprintf(buf, cap, "%s", name);
}

void model_machine(const struct model *m, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s, %s CPUs, %s %s", model_info(m, RK_CPU_MODEL),
		 model_info(m, RK_CPU_ONLINE), model_info(m, RK_DMI_SYS_VENDOR),
		 model_info(m, RK_DMI_PRODUCT_NAME));
}

const struct mtest *model_find(const struct model *m, const char *test, int copies)
{
	for (size_t i = 0; i < m->ntests; i++)
		if (m->tests[i].copies == copies && !strcmp(m->tests[i].test, test))
			return &m->tests[i];
	return NULL;
}

const char *model_sample_get(const struct model *m, const struct msample *s, const char *key)
{
	return rec_get(m->recs[s->rec].r, key);
}

int model_is_tcg(const struct model *m)
{
	const char *hv = model_info(m, RK_HV_CPUID);
	if (!strcmp(hv, "-"))
		hv = model_info(m, RK_KERNEL_HYPERVISOR);
	return !strcmp(hv, "TCGTCGTCGTCG");
}

const char *model_mode(const struct model *m)
{
	const char *v = model_info(m, RK_RUN_MODE);
	return strcmp(v, "-") ? v : m->mode ? m->mode : "-";
}

const char *model_workdir_fs(const struct model *m)
{
	const char *v = model_info(m, RK_FS_WORKDIR);
	return strcmp(v, "-") ? v : model_info(m, "fs.tmp");
}

double model_clock_share_pct(const struct mtest *t)
{
	double op = t->lat[0];	/* p50, ns */

	if (!isfinite(t->clock_ns_x100) || !(op > 0))
		return NAN;
	return t->clock_ns_x100 / op;	/* (x100 / 100) / op * 100 */
}

int model_clock_warning(const struct model *m, const struct mtest *t, char *buf, size_t cap)
{
	double share = model_clock_share_pct(t);
	const char *cs = strcmp(t->clocksource, "-") ? t->clocksource
						      : model_info(m, RK_CLOCKSOURCE_CURRENT);

	if (!(share > MODEL_CLOCK_SHARE_WARN_PCT))
		return 0;
	snprintf(buf, cap, "%s (%d cop.): one clock read costs %.0f ns (clocksource %s), %.1f%% "
		 "of the %.0f ns median operation it timed (above %g%%): that share of its "
		 "figures is the clock's, not the device's", t->test, t->copies,
		 t->clock_ns_x100 / 100, cs, share, t->lat[0], MODEL_CLOCK_SHARE_WARN_PCT);
	return 1;
}
