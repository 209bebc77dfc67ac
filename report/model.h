/* model.h — one complete run turned into something to report: header facts, tests x passes
 * (copies) with their values, units, baselines, samples and titles, and FAIL/SKIP/ERROR events.
 *
 * In: a run read by logread (its records were checked when read). Out: a struct model that
 * owns copies of every string it holds but its records (recs: the run's own, decoded once
 * when read, borrowed): the run must outlive the model (log_free() after model_free()).
 * Units are the records' own (lib/vocab.h's vocab_units[]); times are never converted.
 * Errors: model_build() returns -1 only when out of memory; odd content (a RESULT without a
 * value, a SAMPLE without loops) is kept as far as it goes and never crashes. */
#ifndef ISOBENCH_MODEL_H
#define ISOBENCH_MODEL_H

#include "logread.h"
#include "unixbench.h"
#include "latency.h"

struct kv {
	char *key, *val;
};

/* One record as read (the run's, decoded once when the log was read): for JSON/CSV output
 * of "every record"; read it with rec_get() (lib/record.h). */
struct mrec {
	size_t line;
	const struct rec_kept *r;	/* the run's (struct logrec's), borrowed */
};

struct msample {
	int warmup;		/* warmup=1: measured but not part of the result */
	long i;			/* 0-based sample index; -1 for a warmup */
	double value;		/* SAMPLE value=: what the sample contributes to RESULT, in the
				 * test's unit; NAN when the record does not say (older logs) */
	size_t line;
	size_t rec;		/* its record: m->recs[rec] (model_sample_get()) */
	double lat[LAT_NQ];	/* the latency percentiles the SAMPLE carries (lib/latency.h
				 * LAT_QUANTILES extras, ns); NAN where absent */
};

struct mtest {
	char *test, *title, *unit, *group;	/* never NULL ("-" when unknown) */
	int higher;		/* TEST/RESULT better=: 1 higher is better, 0 lower, -1 the log
				 * does not say (written before better= existed): no ratio */
	int copies;
	int has_baseline;
	double baseline;	/* UnixBench baseline, in unit */
	int has_result;		/* a RESULT record was seen */
	double value;		/* UnixBench aggregate, in unit: the index table's figure only */
	/* The whole-run value every comparison, verdict, store row and fleet uses (issue 46:
	 * every sample counts): RESULT whole= (the run's work over its time), else, in a log
	 * written before it, lib/stats.c's whole_of_values() of the non-warm-up SAMPLE values,
	 * else value; NAN without a result. whole_from: "result", "samples" or "aggregate". */
	double whole;
	const char *whole_from;
	double steal_pct;	/* RESULT steal_pct=: the share of the CPUs' time stolen during
				 * the samples, %; NAN when the log does not say */
	double median, min, max, ci95_pct;	/* NAN when absent */
	double index;		/* RESULT index= (UnixBench), else unixbench.c's from value and
				 * baseline; NAN without a baseline or a valid result */
	long samples;		/* RESULT samples= */
	int converged;		/* RESULT converged=: 1 the 95% CI target was met, 0 not, -1 unknown
				 * (older logs do not say) */
	const char *stop;	/* RESULT stop= (REC_STOP_*, lib/vocab.h), or NULL (older logs) */
	long samples_needed;	/* RESULT samples_needed= when unconverged, else -1 */
	struct msample *smp;
	size_t nsmp;
	/* 95% CI of the median, in unit: from the non-warmup SAMPLE records' value= with the
	 * payload's own statistics (stats.c), else median*(1 -/+ ci95_pct/100), else [min, max];
	 * NAN when nothing says. */
	double ci_lo, ci_hi;
	const char *ci_from;	/* "samples", "ci95_pct", "min-max" or "none" */
	const char *status;	/* "ok", "FAIL" or "SKIP" */
	char *reason;		/* FAIL/SKIP reason or NULL */
	size_t line;		/* line of the RESULT (or FAIL/SKIP, or TEST) */
	int has_lat;		/* the RESULT or some sample carries latency percentiles */
	/* Per quantile (lib/latency.h), ns, NAN if none: the RESULT's whole-run figure (every
	 * sample's histogram merged by the runner) when it carries them; in logs written before
	 * that, the median over the samples (which hides a stall confined to a few samples). */
	double lat[LAT_NQ];
	int lat_whole;		/* 1: lat[] is the RESULT's whole-run figure; 0: samples' median */
	double lat_result[LAT_NQ];	/* the RESULT's figures as read, NAN where absent */
	/* The RESULT's whole-run histogram as on the wire (lib/latency.h lat_hist_parse()), for
	 * a reader that pools runs (fleet.c); NULL when absent (older logs, no room, a run read
	 * from its digest) or out of memory. */
	char *lat_hist;
	double cycles_x100;	/* RESULT cycles_x100 (only a run read from its digest: the mean
				 * of its SAMPLEs' cycles_x100, docs/records.md), else NAN */
	double null_ns_x100;	/* RESULT null_ns_x100: a ring0 probe's null batch, the median
				 * of its samples' (ns x 100), else NAN */
	double clock_ns_x100;	/* RESULT clock_ns_x100: one read of the clock the test timed
				 * each operation with (ns x 100), else NAN */
	char *clocksource;	/* TEST clocksource= ("-" when absent: a run read from its
				 * digest) */
};

struct mevent {
	char kind[16];		/* "FAIL", "SKIP", "ERROR", "WARN" */
	char *test, *reason, *what, *value;	/* "-" when absent */
	int copies;		/* 0 when absent */
	size_t line;
};

struct mpass {
	int copies;
	struct ub_score ub;	/* UnixBench's score of the pass (lib/unixbench.h) */
	int nindex;		/* index tests with a valid result (ub.n) */
	double score;		/* ub_score_value(); NAN when nindex == 0 */
};

struct model {
	char *run_id, *version, *mode;
	size_t first_line, last_line;
	struct kv *info;
	size_t ninfo;
	struct mrec *recs;
	size_t nrecs;
	struct mtest *tests;
	size_t ntests;
	struct mevent *ev;
	size_t nev;
	struct mpass *pass;	/* one per distinct copies, as many as the run has */
	int npass;
	uint64_t results, fails, skips, errors;
	int powered_off;
	char host_cache[160];	/* log.h struct run's: a scratch disk the host cached, "" none */
	double ci_target_pct;	/* INFO run.ci_target_pct, NAN when absent */
};

/* One run chosen to report (every format's input): its log, the run's index in it and the
 * run's model, which the caller owns. */
struct report_in {
	const char *source;	/* file name */
	const struct log *log;
	int run;		/* 0-based index of the chosen run in log */
	const struct model *m;
	size_t side;		/* the comparison's column the run is on (with replicates a side
				 * holds several runs); 0 without a comparison */
};

int model_build(const struct run *run, struct model *m);
void model_free(struct model *m);
/* INFO value for key ("section.key"), or "-" when the run did not say. */
const char *model_info(const struct model *m, const char *key);
/* INFO value for key as a count (cpu.online, run.all_cpus, run.round, mem.total_kib: the
 * vocabulary's UINT, read with lib/num.h's num_ll(), at most INT_MAX): -1 when the run did
 * not say or it is not one. */
long model_info_count(const struct model *m, const char *key);
/* "higher", "lower" or "unknown" for t (its better=). */
const char *model_better(const struct mtest *t);
/* A short label for the machine: "bare-metal", "KVM", "VMware", "Hyper-V", "Xen", "QEMU/TCG",
 * "UML", "gVisor" (model_hv()) and ", N CPUs". Writes into buf (cap bytes). */
void model_label(const struct model *m, char *buf, size_t cap);
/* The hypervisor's name alone, as model_label() says it without the CPUs ("KVM", "QEMU/TCG",
 * "bare-metal", ...; "unknown" when the run does not say), into buf (cap bytes). A layer that
 * runs the runner without a hypervisor of its own is named by what its log shows before any
 * CPUID signature (a CPUID instruction there reaches the host's, whose name it is not):
 * model_layer(). */
void model_hv(const struct model *m, char *buf, size_t cap);
/* The layer a run's log shows besides a hypervisor (each fact the layer's own, fixed word):
 *   MODEL_LAYER_UML     User Mode Linux: /proc/cpuinfo's vendor_id "User Mode Linux" (INFO
 *                       cpu.vendor; arch/um/kernel/um_arch.c), its one clocksource "timer"
 *                       (clocksource.available; arch/um/kernel/time.c) — a power-off there
 *                       is a halt ("reboot: System halted": UML has no pm_power_off, and
 *                       kernel/reboot.c makes a power-off without one a halt);
 *   MODEL_LAYER_GVISOR  gVisor's fixed /proc/cmdline, "BOOT_IMAGE=/vmlinuz-4.4.0-gvisor quiet"
 *                       (kernel.cmdline), with its fixed uname release 4.4.0;
 *   MODEL_LAYER_NONE    anything else (the hypervisor's name, model_hv(), says it). */
enum model_layer { MODEL_LAYER_NONE, MODEL_LAYER_UML, MODEL_LAYER_GVISOR };
enum model_layer model_layer(const struct model *m);
/* 1 when the layer's documented way of ending a run is a halt, not a power-off (UML). */
int model_ends_halted(const struct model *m);
/* What names the machine when nothing else does (fleet.h's "machine" groups, the results
 * store's default machine): "cpu.model, N CPUs, dmi.sys_vendor dmi.product_name" ("-" for
 * what the run does not say), into buf (cap bytes). */
void model_machine(const struct model *m, char *buf, size_t cap);
/* 1 when the run is QEMU's TCG emulator (hv.cpuid, else kernel.hypervisor, TCGTCGTCGTCG). */
int model_is_tcg(const struct model *m);
/* "host" or "init": INFO run.mode, else BEGIN mode; "-" when neither says. */
const char *model_mode(const struct model *m);
/* File system type the file tests ran on: INFO fs.workdir, else (older logs) fs.tmp; "-". */
const char *model_workdir_fs(const struct model *m);
/* The clock's own share of the operations a test timed, in percent: one clock read (RESULT
 * clock_ns_x100) over the operation's median time (its p50, lat[0]); NAN when t carries
 * either not. Each timed operation's figure holds about one read's cost (the end of the
 * read before it, the start of the one after), so this is the share of the figure that is
 * the clock's rather than the device's. */
double model_clock_share_pct(const struct mtest *t);
/* JSON's test keys and the CSV's derived rows for one clock read's cost (ns: clock_ns_x100 /
 * 100) and model_clock_share_pct() (%); left out of the CSV, null in JSON, where t has none. */
#define MODEL_KEY_CLOCK_READ_NS "clock_read_ns"
#define MODEL_KEY_CLOCK_SHARE "clock_share_pct"
/* Above this share the report warns (model_clock_warning()). 5%: a clock read that costs
 * that much of the operation moves the figure as much as the smaller hypervisor costs a
 * comparison is read for, and the side with the slower clock (a syscall per read, no vDSO:
 * docs/benchmarks/clock-cost.md) is charged it as the device's. */
#define MODEL_CLOCK_SHARE_WARN_PCT 5.0
/* When t's clock share is above MODEL_CLOCK_SHARE_WARN_PCT: one line naming the test, the
 * read's cost, the clocksource (the TEST's, else the run's clocksource.current) and the share
 * into buf (cap bytes), and 1; else 0 (buf untouched). */
int model_clock_warning(const struct model *m, const struct mtest *t, char *buf, size_t cap);
/* Test in pass, or NULL. */
const struct mtest *model_find(const struct model *m, const char *test, int copies);
/* The value of key in sample s's record (s one of m's tests' smp[]): a SAMPLE's per-test extra
 * such as thp_kib or cycles_x100, as written; NULL when the record has no such field. */
const char *model_sample_get(const struct model *m, const struct msample *s, const char *key);

#endif
