/* fleet.h — many logs (one per machine) grouped: per group and test, the median of the runs'
 * results, their spread and the ratio to a reference group ("these 20 hosts bare metal vs the
 * same 20 under VMware" in one table).
 *
 * In: a directory of logs (every regular file in it, in name order; subdirectories are not
 * read). Each log contributes its last complete run; a log without one is named on stderr
 * and left out. Groups come from the runs' INFO records: by "hypervisor" (the hypervisor part
 * of model_label(): bare-metal, KVM, VMware, Hyper-V, Xen, QEMU/TCG, ...), by "machine"
 * (cpu.model, cpu.online, dmi.sys_vendor, dmi.product_name) or both ("hypervisor,machine").
 * Rows are test x pass; the pass is "1" for 1 copy and "N" when a run's copies equal its
 * online CPUs (UnixBench's N-copy pass), so machines with different CPU counts share a row.
 * Per group and row, over the runs that have it: n, median, min, max and the 95% CI of the
 * median (lib/stats.c's order-statistics CI; min..max when n < 6), in the test's unit;
 * the ratio is a performance ratio (util.h's perf_ratio) of the group median to the
 * reference group's. Its verdict rests on the runs, each machine's whole-run value (RESULT
 * whole=) one replicate (signif.h's replicate test, as compare.c's cmp_replicates(): a
 * machine's samples move together, so pooled samples would compare machines, not groups):
 * Welch's t on the log run values, and one of signif.h's three answers (sig_answer_family()
 * over every group cell of the fleet: Benjamini-Hochberg, the test's min-effect): '*'
 * different, '=' equivalent, '~' undecided; '?' when either group holds fewer than
 * SIG_REP_MIN runs of the row. A latency test's tails are
 * pooled per
 * group: the quantiles of all its runs' operations (struct fcell lat[]). The
 * reference group is bare-metal when present, else the first group in name order. Index
 * scores per pass ("index" rows, unit "score") are grouped the same way.
 * Out: a struct fleet: its runs, groups and rows with their figures; text.c's text_fleet()
 * and json.c's json_fleet() write it, fleetmain.c's fleet_report() is the mode (options to
 * exit status). Errors: fleet_load() says on stderr why a directory or a log is left out. */
#ifndef ISOBENCH_FLEET_H
#define ISOBENCH_FLEET_H

#include "model.h"
#include "signif.h"
#include "stats.h"

#include <stddef.h>

struct frun {
	char *path;
	struct log log;
	struct model m;
	char *group;
};

struct fcell {			/* one group's figures for one row */
	size_t n;
	struct summary s;
	double ratio;		/* to the reference group; NAN when not computable */
	char mark;		/* ' ' reference or no data; sig_answer_mark() of rep's answer
				 * ('*' different, '=' equivalent, '~' undecided), '?' a group
				 * with fewer than SIG_REP_MIN runs */
	/* The verdict on the runs (fleet.h above): method "welch-t", or "too-few-runs" (mark
	 * '?'; p and the rest NAN), "none" for the reference and empty cells. p: two-sided;
	 * gm_ratio: the geometric means' performance ratio the t-test is about, gm_lo..gm_hi
	 * its 95% CI (all NAN without a verdict); rep: the whole verdict with its answer
	 * (SIG_ANS_NONE without one). */
	const char *method;
	double p, gm_ratio, gm_lo, gm_hi;
	struct sig_rep rep;
	/* Whole-group latency tails (a test with a latency histogram): the p50/p99/p99.9/max
	 * (lib/latency.h's order, ns) of every operation of every run of the group, from the
	 * runs' RESULT histograms (lat_hist) merged as the runner merges a run's samples; the
	 * max is the largest of the runs' max_ns. lat_runs: the group's runs whose RESULT has
	 * latency figures; lat_hists: how many of them carry the histogram. lat[] is NAN
	 * unless every one of them does (no pooling of some runs only). */
	double lat[LAT_NQ];
	size_t lat_runs, lat_hists;
};

struct frow {
	char *test, *unit, pass[16];
	int higher;		/* the runs' better=: 1 higher, 0 lower, -1 not said (no ratio) */
	struct fcell *cell;	/* one per group */
};

struct fleet {
	struct frun *runs;
	size_t nruns;
	char **groups;		/* sorted, the reference first */
	size_t ngroups;
	struct frow *rows;
	size_t nrows;
	char **warn;
	size_t nwarn;
	int fails;
};


/* 1 when path names a directory (the hook main.c uses to choose fleet mode). */
int fleet_is_dir(const char *path);
/* Every regular file of dir read (f zeroed by the caller); each one's last complete run kept
 * with its group key (by hypervisor and/or machine), groups sorted, the reference first.
 * *incomplete set when some log had no complete run (named on stderr). Returns 0, or an exit
 * status (lib/status.h): EXIT_USAGE dir unreadable or without files, EXIT_INCOMPLETE out of
 * memory. */
int fleet_load(struct fleet *f, const char *dir, int by_hv, int by_machine, int *incomplete);
/* The comparability warnings, then the rows and each group's figures, ratio and mark.
 * Returns 0, or -1 when out of memory. */
int fleet_analyse(struct fleet *f);
/* How many runs group g holds. */
size_t fleet_group_size(const struct fleet *f, size_t g);
void fleet_free(struct fleet *f);

#endif
