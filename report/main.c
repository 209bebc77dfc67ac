/* isobench-report — check isobench console logs and turn them into answers.
 *
 *   isobench-report [--check] [--run N] [--format F] [--svg FILE] [--mem-svg FILE]
 *                   [--label A,B,..] LOG [LOG..]
 *   isobench-report --follow LOG [--pid PID] [--idle S]   live progress while LOG grows
 *   isobench-report --boot [--killed] [--check] LOG   judge the latest boot, as qemu/run does
 *
 * One LOG: the run as the classic UnixBench table per pass. Several: side by side, ratios to
 * the first run, noise marks (compare.h), comparability warnings. Details: docs/report.md.
 *
 * Exit status: lib/status.h, the one table of every isobench tool (docs/exit-status.md); this
 * tool returns EXIT_OK, _FAILS, _USAGE (also: the output, stdout or --svg FILE, cannot be
 * written), _INCOMPLETE (also: the --run chosen is not complete, a file cannot be read),
 * _DIFFERS (comparisons only) and _CRASHED (--boot only). When several apply the first in
 * the order USAGE, CRASHED, INCOMPLETE, FAILS, DIFFERS wins. */
#define _GNU_SOURCE
#include "image.h"
#include "csv.h"
#include "fleet.h"
#include "fleetmain.h"
#include "histmain.h"
#include "follow.h"
#include "html.h"
#include "json.h"
#include "svg.h"
#include "pctsvg.h"
#include "signif.h"
#include "noisefloor.h"
#include "memsvg.h"
#include "status.h"
#include "text.h"
#include "util.h"
#include "vocab.h"
#include "num.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


#define MAX_LOGS 64	/* LOGs on the command line (replicates: up to 32 runs a side) */

static void usage_status(FILE *f);

static void usage(FILE *f)
{
	fprintf(f,
		"usage: isobench-report [OPTIONS] LOG [LOG...]\n"
		"  one LOG: check it and print its run (UnixBench table per pass, other tests,\n"
		"  FAIL/SKIP/ERROR, machine header); several LOGs: compare them side by side,\n"
		"  one column per run, ratio to the first run, noise marks (~ within, * beyond).\n"
		"options:\n"
		"  --check         only judge each log: one verdict line per log, exit status\n"
		"  --run N         use the N-th run of each log (1-based; default: the last\n"
		"                  complete one)\n"
		"  --boot          one LOG of one boot (qemu/run uses it): judge its latest run,\n"
		"                  not the last complete one; status 6 when that boot crashed\n"
		"                  (the kernel's \"Kernel panic - not syncing\" after its BEGIN, or a\n"
		"                  verified watchdog FAIL) or did not power off or reboot\n"
		"  --killed        with --boot: the guest was stopped from outside (qemu/run's\n"
		"                  timeout), so a missing power-off is not a crash; only a panic\n"
		"                  or the watchdog give status 6\n"
		"  --format F      text (default), json (every record + derived figures), csv\n"
		"                  (same, one long table), html (one self-contained page: warnings,\n"
		"                  machines, index tables side by side, ratios with CI and p, chart),\n"
		"                  json-bench / json-bench-smaller\n"
		"                  (github-action-benchmark customBiggerIsBetter /\n"
		"                  customSmallerIsBetter lists of {name, unit, value})\n"
		"  --label A,B,..  column labels, one per LOG (default: from the machine header);\n"
		"                  LOGs sharing a label form one side of replicates, and a LOG\n"
		"                  holding several runs gives each: with >= 3 runs a side each\n"
		"                  test is decided on the runs' values (Welch's t on logs; the\n"
		"                  paired t by round for interleaved A/B logs), e.g.\n"
		"                  --label a,a,a,b,b,b A1 A2 A3 B1 B2 B3\n"
		"  --noise-floor PCT|FILE\n"
		"                  every test's noise floor is PCT, or each test's as FILE says\n"
		"                  (lines \"TEST COPIES PCT\"): what same-build repeats show on your\n"
		"                  machine; docs/benchmarks/noise-floor.sh measures and prints them\n"
		"  --min-effect PCT\n"
		"                  the smallest change that matters: a verdict is \"different\" only\n"
		"                  when the ratio's 95%% CI lies beyond +-PCT, \"equivalent\" when its\n"
		"                  90%% CI lies inside (default: each test's noise floor, above)\n"
		"  --cross-arch    accepted and ignored: runs of different architectures\n"
		"                  (kernel.machine, x86_64 beside aarch64) are compared with a note\n"
		"                  that it is a machine comparison (CPU, instructions and kernel\n"
		"                  build together), not a hypervisor's or a setting's\n"
		"  --svg FILE      also write a chart of the ratios to the first run (log scale)\n"
		"  --svg-latency FILE\n"
		"                  also write a chart of the latency percentiles (p50, p99, p99.9,\n"
		"                  max) of the tests that report them, run beside run (a bare vs\n"
		"                  VM pair), log scale\n"
		"  --mem-svg FILE  also write the memory group's latency curve: ns per load by\n"
		"                  working set, 4 KiB and 2 MiB pages, every run (log scales)\n"
		"  --follow        progress while LOG grows, from its newest run: one line per\n"
		"                  verified record; ends at that run's END, or with --pid PID\n"
		"                  when PID has exited (qemu/run uses it); a shrunk LOG is\n"
		"                  followed again from its start\n"
		"  --idle S        with --follow and no --pid: give up after S s without new\n"
		"                  data (default 600; 0: never)\n"
		"  -               as LOG: standard input (once; not with --follow)\n"
		"  DIR             a directory of logs (one per machine): runs grouped, per\n"
		"                  group median, spread and ratio to a reference group\n"
		"  --group-by G    with DIR: hypervisor (default), machine, hypervisor,machine\n"
		"  --db FILE COMMAND\n"
		"                  the results store (docs/history.md): add LOG.., runs, compare,\n"
		"                  trend, check --baseline SEL LOG.., verify; --db FILE --help\n"
		"  --help          this text\n"
		"noise: with >= " EXIT_STR(SIG_MIN_N) " samples a side a cell is * when a Mann-Whitney U test of\n"
		"  the two runs' SAMPLE values (warm-ups excluded) gives p < " EXIT_STR(SIG_ALPHA) " and the\n"
		"  ratio is beyond the test's noise floor (report/noisefloor.c; " EXIT_STR(NOISE_FLOOR_DEFAULT_PCT) "%% for a\n"
		"  test without a row), else ~; with fewer, * when the medians' 95%% CIs do not\n"
		"  overlap (docs/report.md); with one run a side these marks compare samples\n"
		"  within each run and are never a verdict (status 0): machine drift between runs\n"
		"  cannot be told from a difference\n"
		"direction: each test's better= (higher or lower), as the runner wrote it\n");
	usage_status(f);
}

/* usage()'s last part: the exit statuses. */
static void usage_status(FILE *f)
{
	fprintf(f,
		"exit status:\n"
		"  " EXIT_STR(EXIT_OK) " complete, no FAIL/ERROR (and, comparing, no difference beyond "
		"noise)\n"
		"  " EXIT_STR(EXIT_FAILS) " complete, but holds FAIL or ERROR records\n"
		"  " EXIT_STR(EXIT_USAGE) " usage error (or the output cannot be written)\n"
		"  " EXIT_STR(EXIT_INCOMPLETE) " incomplete or corrupt log (no complete run), or it "
		"cannot be read\n"
		"  " EXIT_STR(EXIT_DIFFERS) " comparing replicates (>= 3 runs a side): some test is \"different\"\n"
		"    (Benjamini-Hochberg q < " EXIT_STR(SIG_FDR) " over the rows and the ratio's 95%% CI beyond the\n"
		"    min-effect; \"equivalent\" and \"undecided\" rows never; one run a side is never a\n"
		"    verdict)\n"
		"  " EXIT_STR(EXIT_CRASHED) " --boot: the boot crashed or did not power off\n"
		"  " EXIT_STR(EXIT_REGRESSED) " --db FILE check: a test is worse than the baseline\n"
		"  (several apply: the first of " EXIT_STR(EXIT_USAGE) ", " EXIT_STR(EXIT_CRASHED) ", "
		EXIT_STR(EXIT_INCOMPLETE) ", " EXIT_STR(EXIT_FAILS) ", " EXIT_STR(EXIT_DIFFERS) ", "
		EXIT_STR(EXIT_REGRESSED) ")\n");
}

struct opts {
	int check, want, follow, boot, killed, idle, fleet;
	long pid;
	const char *format, *svg, *group_by;
	const char *svg_lat;	/* --svg-latency FILE: the percentiles chart (pct.h) */
	const char *mem_svg;	/* --mem-svg FILE (memsvg.h) */
	char *labels[MAX_LOGS + 1], *labelarg;
	size_t nlabels;
	char **logs;
	size_t n;
	char **argv;		/* for the option named in a usage error */
};

struct input {
	const char *path;
	struct log log;
	int read;		/* log holds data */
	int run;		/* chosen run or -1 */
	struct model m;
	int built;
	/* Replicates: the log's other complete runs (a log written with --repeat holds
	 * several), each a run of its side; nmore built. */
	struct model *more;
	size_t nmore;
};

/* The sides of a comparison: with replicates (logs sharing a --label, or logs holding several
 * runs) each side is every run of its logs; else one run per LOG. */
struct sides {
	size_t n;			/* columns */
	char *label[MAX_LOGS];		/* side labels (replicates) */
	const struct input *col[MAX_LOGS];	/* each side's first log: its column's run */
	const struct model *rep[MAX_LOGS];	/* that run's model */
	const struct model **runs[MAX_LOGS];	/* replicates: the side's runs */
	const struct input **runin[MAX_LOGS];	/* and the log each of them is from */
	size_t nruns[MAX_LOGS];
	char ab_note[1200];	/* why runs saying run.ab_side made no sides, or "" */
	int replicated;
	int named;			/* label names the sides although not replicated (one
					 * run a side: the one-run comparison) */
};

/* Split "a,b,c" into at most max labels; returns the count. */
static size_t split_labels(char *s, char **out, size_t max)
{
	size_t n = 0;
	char *save = NULL;
	for (char *t = strtok_r(s, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save))
		out[n++] = t;
	return n;
}

/* --run N, --pid PID, --idle S (opt 'r', 'p', 'i'): a whole decimal number in range.
 * Returns -1 to go on, else EXIT_USAGE after a line on stderr. */
static int take_number(int opt, struct opts *o)
{
	long long v;

	switch (opt) {
	case 'r':
		if (num_ll(optarg, NUM_SPACE | NUM_PLUS, 1, 1000000, &v)) {
			fprintf(stderr, "isobench-report: --run %s: wants a number >= 1\n", optarg);
			return EXIT_USAGE;
		}
		o->want = (int)v;
		break;
	case 'p':
	case 'i':
		if (num_ll(optarg, NUM_SPACE | NUM_PLUS, opt == 'p', 1000000000, &v)) {
			fprintf(stderr, "isobench-report: --%s %s: wants %s\n",
				opt == 'p' ? "pid" : "idle", optarg,
				opt == 'p' ? "a process id" : "a number of seconds");
			return EXIT_USAGE;
		}
		if (opt == 'p')
			o->pid = (long)v;
		else
			o->idle = (int)v;
		break;
	}
	return -1;
}

/* --noise-floor ARG: a number, every test's floor; else a file of them (noisefloor.h). 0, or
 * -1 with a message on stderr. */
static int noise_floor_opt(const char *arg)
{
	char err[600];
	double v;

	if (!num_dbl(arg, &v)) {
		if (!(v >= 0 && v <= NOISE_FLOOR_MAX_PCT)) {
			fprintf(stderr, "isobench-report: --noise-floor wants a percentage, 0 to %g, "
					"or a file\n", NOISE_FLOOR_MAX_PCT);
			return -1;
		}
		noise_floor_force(v);
	} else {
		int r = noise_floor_load(arg, err, sizeof err);
		if (r == -2)
			fprintf(stderr, "isobench-report: --noise-floor %s: no percentage (0 to %g: "
					"digits, optionally '.' and digits) and no file of that name "
					"can be opened: %s\n", arg, NOISE_FLOOR_MAX_PCT, err);
		else if (r)
			fprintf(stderr, "isobench-report: --noise-floor %s\n", err);
		if (r)
			return -1;
	}
	return 0;
}

/* One option getopt returned into o. Returns -1 to go on, else the exit status (help: 0). */
static int take_option(int opt, struct opts *o)
{
	switch (opt) {
	case 'c':
		o->check = 1;
		break;
	case 'b':
		o->boot = 1;
		break;
	case 'k':
		o->killed = 1;
		break;
	case 'X':	/* --cross-arch: accepted, a no-op since issue 48 (a note, not a refusal) */
		break;
	case 'r':
	case 'p':
	case 'i':
		return take_number(opt, o);
	case 'f':
		o->format = optarg;
		if (strcmp(optarg, "text") && strcmp(optarg, "json") && strcmp(optarg, "csv") &&
		    strcmp(optarg, "html") && strcmp(optarg, "json-bench") &&
		    strcmp(optarg, "json-bench-smaller")) {
			fprintf(stderr, "isobench-report: --format %s: text, json, csv, html, "
					"json-bench or json-bench-smaller\n", optarg);
			return EXIT_USAGE;
		}
		break;
	case 'l':
		/* "a,,b" or "a,": a typo, never read as fewer labels that may still fit */
		if (!*optarg || *optarg == ',' || strstr(optarg, ",,") ||
		    optarg[strlen(optarg) - 1] == ',') {
			fprintf(stderr, "isobench-report: --label %s: a label is empty\n", optarg);
			return EXIT_USAGE;
		}
		o->labelarg = optarg;
		o->nlabels = split_labels(optarg, o->labels, MAX_LOGS + 1);
		break;
	case 's':
		o->svg = optarg;
		break;
	case 'L':
		o->svg_lat = optarg;
		break;
	case 'M':
		o->mem_svg = optarg;
		break;
	case 'F':
		o->follow = 1;
		break;
	case 'g':
		o->group_by = optarg;
		break;
	case 'n':
		return noise_floor_opt(optarg) ? EXIT_USAGE : -1;
	case 'E':
		return min_effect_arg(optarg) ? EXIT_USAGE : -1;
	case 'h':
		usage(stdout);
		return fflush(stdout) || ferror(stdout) ? EXIT_USAGE : 0;
	default:	/* one line of ours, not getopt's plus the whole usage text */
		fprintf(stderr, opt == ':' ? "isobench-report: option '%s' needs a value (see --help)\n"
					   : "isobench-report: unknown option '%s' (see --help)\n",
			o->argv[optind - 1]);
		return EXIT_USAGE;
	}
	return -1;
}

/* The options together: what goes with what, how many LOGs. Returns -1 to go on (o->fleet
 * set for a DIR), else EXIT_USAGE after a line on stderr. */
static int check_options(struct opts *o)
{
	for (size_t j = 0, dash = 0; j < o->n; j++)
		if (!strcmp(o->logs[j], "-") && (dash++ || o->follow)) {
			fprintf(stderr, "isobench-report: '-' (standard input) is one LOG, "
					"not followed\n");
			return EXIT_USAGE;
		}
	if (o->follow) {
		if (o->n != 1) {
			fprintf(stderr, "isobench-report: --follow takes one LOG\n");
			return EXIT_USAGE;
		}
		return -1;
	}
	if ((o->pid || o->idle >= 0)) {
		fprintf(stderr, "isobench-report: %s goes with --follow\n",
			o->pid && o->idle >= 0 ? "--pid and --idle" : o->pid ? "--pid" : "--idle");
		return EXIT_USAGE;
	}
	if (o->n == 1 && !o->check && !o->boot && fleet_is_dir(o->logs[0])) {	/* fleet.h */
		const char *given = o->svg ? "--svg" : o->svg_lat ? "--svg-latency"
				    : o->mem_svg ? "--mem-svg" : o->labelarg ? "--label"
				    : o->want ? "--run" : NULL;
		if (given) {
			fprintf(stderr, "isobench-report: %s takes LOG files, not a DIR (%s)\n",
				given, o->logs[0]);
			return EXIT_USAGE;
		}
		o->fleet = 1;
		return -1;
	}
	if (o->group_by) {
		fprintf(stderr, "isobench-report: --group-by needs one DIR of logs\n");
		return EXIT_USAGE;
	}
	if (o->n < 1 || o->n > MAX_LOGS) {
		if (o->n > MAX_LOGS)
			fprintf(stderr, "isobench-report: at most %d logs\n", MAX_LOGS);
		else
			fprintf(stderr, "isobench-report: no LOG to read (see --help)\n");
		return EXIT_USAGE;
	}
	/* A DIR is a fleet, read alone: beside other LOGs or with --check/--boot it is not a
	 * log that "cannot be read" (status 3) but a usage error. */
	for (size_t j = 0; j < o->n; j++)
		if (fleet_is_dir(o->logs[j])) {
			fprintf(stderr, "isobench-report: %s is a directory of logs: give it alone, "
					"without %s\n", o->logs[j], o->n > 1 ? "other LOGs" :
					o->boot ? "--boot" : "--check");
			return EXIT_USAGE;
		}
	if (o->boot && (o->n != 1 || o->want)) {
		fprintf(stderr, "isobench-report: --boot judges one LOG's latest run (no --run)\n");
		return EXIT_USAGE;
	}
	if (o->killed && !o->boot) {
		fprintf(stderr, "isobench-report: --killed goes with --boot\n");
		return EXIT_USAGE;
	}
	if (o->labelarg && o->nlabels != o->n) {
		fprintf(stderr, "isobench-report: --label gives %zu label(s) for %zu log(s)\n",
			o->nlabels, o->n);
		return EXIT_USAGE;
	}
	return -1;
}

/* Phase 1: options into o. Returns -1 to go on, else the exit status (help: 0). */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option opts[] = {
		{"check", no_argument, NULL, 'c'},
		{"run", required_argument, NULL, 'r'},
		{"boot", no_argument, NULL, 'b'},
		{"killed", no_argument, NULL, 'k'},
		{"cross-arch", no_argument, NULL, 'X'},
		{"format", required_argument, NULL, 'f'},
		{"label", required_argument, NULL, 'l'},
		{"svg", required_argument, NULL, 's'},
		{"svg-latency", required_argument, NULL, 'L'},
		{"mem-svg", required_argument, NULL, 'M'},
		{"follow", no_argument, NULL, 'F'},
		{"pid", required_argument, NULL, 'p'},
		{"idle", required_argument, NULL, 'i'},
		{"group-by", required_argument, NULL, 'g'},
		{"noise-floor", required_argument, NULL, 'n'},
		{"min-effect", required_argument, NULL, 'E'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int opt, rc;

	memset(o, 0, sizeof *o);
	o->format = "text";
	o->idle = -1;
	o->argv = argv;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1)
		if ((rc = take_option(opt, o)) >= 0)
			return rc;
	o->logs = argv + optind;
	o->n = (size_t)(argc - optind);
	return check_options(o);
}

/* Phase 2, per log: read it, report its damaged lines on stderr, choose its run (--run N,
 * --boot: the latest, else the last complete one); prints the verdict line to vout when
 * there is no usable run. Returns 0 when the chosen run is complete, else EXIT_INCOMPLETE /
 * EXIT_USAGE. */
static int load(struct input *in, const struct opts *o, FILE *vout)
{
	int is_image;
	/* a log ("-": standard input, a pipe from the capture), or a disk image holding one */
	FILE *f = image_fopen(strcmp(in->path, "-") ? in->path : "/dev/stdin", &is_image);
	struct stat st;

	in->run = -1;
	if (!f || fstat(fileno(f), &st) || S_ISDIR(st.st_mode)) {
		fprintf(stderr, "isobench-report: %s: cannot be read: %s\n", in->path,
			f ? "a directory" : strerror(errno));
		if (f)
			fclose(f);
		return EXIT_INCOMPLETE;
	}
	int rc = log_read(f, &in->log);
	fclose(f);
	in->read = 1;
	if (rc) {
		fprintf(stderr, "isobench-report: %s: read error\n", in->path);
		return EXIT_INCOMPLETE;
	}
	for (size_t d = 0; d < in->log.ndamage; d++)
		fprintf(stderr, "isobench-report: %s:%zu: damaged record (%s), not used\n",
			in->path, in->log.damage[d].line,
			log_damage_why(in->log.damage[d].status));
	if (o->want && (size_t)o->want > in->log.nruns) {
		fprintf(stderr, "isobench-report: --run %d: %s holds %zu run(s)\n", o->want,
			in->path, in->log.nruns);
		return EXIT_USAGE;
	}
	const struct log *l = &in->log;
	int idx = o->want ? o->want - 1 : o->boot ? (int)l->nruns - 1 : log_last_complete(l);
	if (idx < 0) {
		const struct run *last = l->nruns ? &l->runs[l->nruns - 1] : NULL;
		char unpack[160] = "";
		if (l->unpack_line && !l->nruns)
			snprintf(unpack, sizeof unpack, "; the initramfs did not unpack (line %zu): "
				 "most often too little memory for it; give the machine more "
				 "(qemu/run --mem)", l->unpack_line);
		fprintf(vout, "isobench-report: no complete run in %s (%zu run(s)%s%s)%s%s\n",
			in->path, l->nruns, last ? "; last: " : "", last ? last->why : "",
			l->panic ? "; the kernel panicked" : l->watchdog ? "; watchdog fired" : "",
			unpack);
		return EXIT_INCOMPLETE;
	}
	const struct run *run = &l->runs[idx];
	if (!run->complete) {
		fprintf(vout, "isobench-report: run %d of %zu is incomplete: %s\n", idx + 1,
			l->nruns, run->why);
		return EXIT_INCOMPLETE;
	}
	in->run = idx;
	return 0;
}

/* 1 when run's layer ends a run by halting (model_ends_halted(): UML, whose power-off is a
 * halt), so "reboot: System halted" after its END is its power-off. */
static int halt_ends(const struct run *run)
{
	struct model m;
	int yes = model_build(run, &m) == 0 && model_ends_halted(&m);

	model_free(&m);
	return yes;
}

/* --boot: why the latest boot of in crashed (status 6), or NULL. A kernel panic counts when
 * it comes after the latest run's BEGIN (or when no run began); a complete run without a
 * power-off counts unless the guest was killed from outside (--killed). */
static const char *boot_crash(const struct input *in, int killed, char *buf, size_t cap)
{
	const struct log *l = &in->log;
	const struct run *last = l->nruns ? &l->runs[l->nruns - 1] : NULL;

	if (l->panic_line && !last && l->unpack_line)
		snprintf(buf, cap, "the kernel panicked (line %zu) after the initramfs did not unpack "
			 "(line %zu): most often too little memory; give the machine more",
			 l->panic_line, l->unpack_line);
	else if (l->panic_line && (!last || l->panic_line >= last->first_line))
		snprintf(buf, cap, "the kernel panicked (line %zu)", l->panic_line);
	else if (last && last->watchdog)
		snprintf(buf, cap, "the runner's watchdog fired (FAIL test=watchdog)");
	else if (!killed && last && last->complete && !last->powered_off && !last->rebooted &&
		 !(last->halted && halt_ends(last)))
		snprintf(buf, cap, "the run completed but the guest neither powered off nor "
				   "rebooted (no \"reboot: Power down\" after END%s)", last->halted ?
			 "; \"System halted\" ends a run only where there is no power-off (UML)" : "");
	else
		return NULL;
	return buf;
}

/* Why a run was read from its digest, as what happened: only its BEGIN is missing (its
 * SAMPLEs are in the log, not used), or the log starts at a later record (the head is cut:
 * records 1..N-1 are not in it, nor, then, the SAMPLEs before). */
static void digest_said(FILE *out, const struct run *run)
{
	fprintf(out, "; read from its digest (lines %zu-%zu): ", run->first_line, run->last_line);
	if (run->head_seq == 2)
		fprintf(out, "its BEGIN (seq 1) is missing from the log, though every later record "
			"is in it from line %zu; its %zu SAMPLEs there are not used (the tables are the "
			"digest's)", run->head_line, run->head_samples);
	else if (run->head_seq > 2)
		fprintf(out, "the log's head is cut: it starts at seq %llu (line %zu), records 1-%llu "
			"are not in it%s", (unsigned long long)run->head_seq, run->head_line,
			(unsigned long long)run->head_seq - 1, run->head_samples ?
			", and the SAMPLEs after them are not used" : ", nor the run's SAMPLEs");
	else
		fprintf(out, "the log holds none of the run's records before its digest");
}

static void verdict(FILE *out, const struct input *in, int name)
{
	const struct log *l = &in->log;
	const struct run *run = &l->runs[in->run], *last = &l->runs[l->nruns - 1];
	fprintf(out, "isobench-report: %s%s", name ? in->path : "", name ? ": " : "");
	fprintf(out,
		"run %d of %zu complete: %llu results, %llu fails, %llu skips, "
		"%llu errors%s", in->run + 1, l->nruns, (unsigned long long)run->results,
		(unsigned long long)run->fails, (unsigned long long)run->skips,
		(unsigned long long)run->errors,
		run->powered_off ? ", guest powered off" : run->rebooted ? ", guest rebooted" :
		run->halted ? ", guest halted" : "");
	if (run->from_digest)	/* report/digest.h; said as what was lost (log.h head_seq) */
		digest_said(out, run);
	/* A later boot that did not finish is news: the run shown is not the latest. */
	if (last != run && !last->complete)
		fprintf(out, "; but the latest boot (run %zu, from line %zu) is incomplete: %s",
			l->nruns, last->first_line, last->why);
	fputc('\n', out);
}

/* --mem-svg FILE: the memory latency curve; 0, or -1 after a line on stderr. The chart is
 * drawn in memory first, so logs without a latency RESULT leave an existing FILE as it was
 * (opening it for writing first truncated a good chart to nothing), and the two failures
 * say which they are. */
static int write_mem_svg(const char *path, const struct cmp *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int empty = !m || memsvg_chart(m, c);
	if (m && fclose(m))
		empty = 1;
	if (empty) {
		free(buf);
		fprintf(stderr, "isobench-report: %s: not written: no run holds a 1-copy "
				"mem-latency RESULT\n", path);
		return -1;
	}
	FILE *f = fopen(path, "w");
	int bad = !f || fwrite(buf, 1, len, f) != len;
	if (f && fclose(f))
		bad = 1;
	free(buf);
	if (bad)
		fprintf(stderr, "isobench-report: %s: cannot write the memory chart: %s\n", path,
			strerror(errno));
	return bad ? -1 : 0;
}

/* The index in in's log of the run m was built from (in->run or one of in->more). */
static int run_index(const struct input *in, const struct model *m)
{
	for (size_t r = 0; r < in->log.nruns; r++)
		if (in->log.runs[r].first_line == m->first_line)
			return (int)r;
	return in->run;
}

/* Every run of the comparison as report_in, side by side in column order (with replicates
 * each run of each side, else one per column), into a new array (*n of them); NULL when out
 * of memory. */
static struct report_in *all_runs(const struct sides *sd, size_t *n)
{
	size_t cnt = 0;

	for (size_t k = 0; k < sd->n; k++)
		cnt += sd->replicated ? sd->nruns[k] : 1;
	struct report_in *ri = calloc(cnt ? cnt : 1, sizeof *ri);
	*n = 0;
	for (size_t k = 0; ri && k < sd->n; k++)
		for (size_t i = 0; i < (sd->replicated ? sd->nruns[k] : 1); i++) {
			const struct input *in = sd->replicated ? sd->runin[k][i] : sd->col[k];
			const struct model *m = sd->replicated ? sd->runs[k][i] : sd->rep[k];
			ri[(*n)++] = (struct report_in){in->path, &in->log, run_index(in, m), m, k};
		}
	return ri;
}

/* Phase 3: the chosen format to stdout (and the chart); returns 0, or -1 when an output
 * could not be written. JSON, CSV and HTML get every run behind the comparison (HTML's
 * machine table shows each run of a side); the json-bench lists one per column. */
static int render(const struct opts *o, const struct sides *sd, const struct cmp *c)
{
	struct report_in ri[MAX_LOGS];
	char *sources[MAX_LOGS];
	int werr = 0;
	size_t n = sd->n, nall;

	for (size_t j = 0; j < n; j++) {
		const struct input *in = sd->col[j];
		ri[j] = (struct report_in){in->path, &in->log, run_index(in, sd->rep[j]),
					   sd->rep[j], j};
		sources[j] = (char *)in->path;
	}
	if (!strcmp(o->format, "text")) {
		if (n == 1)
			text_run(stdout, sd->rep[0], sd->col[0]->path);
		else
			text_compare(stdout, c, sources);
		fputc('\n', stdout);
	} else {
		if (n > 1)
			cmp_tell(stderr, c);
		struct report_in *all = NULL;
		if (!strcmp(o->format, "json") || !strcmp(o->format, "csv") ||
		    !strcmp(o->format, "html"))
			all = all_runs(sd, &nall);
		if (!strcmp(o->format, "json"))
			werr = !all || json_report(stdout, all, nall, c);
		else if (!strcmp(o->format, "csv"))
			werr = !all || csv_report(stdout, all, nall, c);
		else if (!strcmp(o->format, "html"))
			werr = !all || html_report(stdout, all, nall, c);
		else
			werr = json_bench(stdout, ri, n, c, !strcmp(o->format, "json-bench-smaller"));
		free(all);
	}
	if (o->svg) {
		FILE *f = fopen(o->svg, "w");
		int bad = !f || svg_chart(f, c);
		if (f && fclose(f))
			bad = 1;
		if (bad) {
			fprintf(stderr, "isobench-report: %s: cannot write the chart\n", o->svg);
			werr = -1;
		}
	}
	if (o->svg_lat) {	/* latency percentiles of the compared runs (pct.h) */
		FILE *f = fopen(o->svg_lat, "w");
		int bad = !f || pct_svg(f, c);
		if (f && fclose(f))
			bad = 1;
		if (bad) {
			fprintf(stderr, "isobench-report: %s: cannot write the chart\n", o->svg_lat);
			werr = -1;
		}
	}
	if (o->mem_svg && write_mem_svg(o->mem_svg, c))
		werr = -1;
	return werr ? -1 : 0;
}

/* With replicates every complete run of in's log is on a side, not only the chosen one that
 * verdict() describes: one line on vout per other run that holds FAIL or ERROR records (they
 * count for the exit status as the chosen run's do) and per earlier run that is incomplete
 * (damaged or cut: not counted on its side; a later one verdict() names). Returns 1 when
 * some run used holds FAILs or ERRORs. */
static int other_runs(FILE *vout, const struct input *in)
{
	const struct log *l = &in->log;
	int fails = 0;

	for (size_t r = 0; r < l->nruns; r++) {
		const struct run *run = &l->runs[r];
		if ((int)r == in->run || (!run->complete && (int)r > in->run))
			continue;
		if (!run->complete)
			fprintf(vout, "isobench-report: %s: run %zu of %zu (from line %zu) is "
				"incomplete: %s; not counted on its side\n", in->path, r + 1,
				l->nruns, run->first_line, run->why);
		else if (run->fails || run->errors) {
			fprintf(vout, "isobench-report: %s: run %zu of %zu, counted on its side, "
				"holds %llu fails, %llu errors\n", in->path, r + 1, l->nruns,
				(unsigned long long)run->fails, (unsigned long long)run->errors);
			fails = 1;
		}
	}
	return fails;
}

/* other_runs() of in[j] when the sides are of replicates (each log once: a log given twice
 * has its runs said once), else nothing; the one owner of which runs count for the status,
 * for the comparison's closing lines and --check's alike. Returns other_runs()'s. */
static int side_runs(FILE *vout, const struct opts *o, const struct input *in,
		     const struct sides *sd, size_t j)
{
	int again = 0;

	for (size_t k = 0; k < j; k++)
		again |= !strcmp(in[k].path, in[j].path);
	return sd->replicated && !o->want && !again ? other_runs(vout, &in[j]) : 0;
}

/* The --label a user would give n LOGs that each hold several runs, on vout: an even count
 * as two sides of n/2 logs each, the first half a and the second b (A1 A2 A3 B1 B2 B3, the
 * order docs/comparing.md's examples give them: a,a,a,b,b,b), an odd one a side per log (a,b,c; s27,
 * s28, ... beyond z), then the logs as given. */
static void hint_labels(FILE *vout, const struct opts *o)
{
	fputs("--label ", vout);
	for (size_t j = 0; j < o->n; j++) {
		size_t k = o->n % 2 ? j : j >= o->n / 2;
		if (k < 26)
			fprintf(vout, "%s%c", j ? "," : "", (char)('a' + k));
		else
			fprintf(vout, "%ss%zu", j ? "," : "", k + 1);
	}
	for (size_t j = 0; j < o->n; j++)
		fprintf(vout, " %s", o->logs[j]);
}

/* The end of the one-run line: how to give a verdict. Logs that already hold several runs
 * each (--repeat) are compared by their last run unless --label names their sides, so the
 * hint names --label (a --repeat the user already gave would not help), its list matching
 * the logs given (hint_labels()). */
static void one_run_hint(FILE *vout, const struct opts *o, const struct input *in)
{
	int all_multi = !o->labelarg && !o->want && o->n > 1;

	for (size_t j = 0; all_multi && j < o->n; j++)
		all_multi = in[j].nmore > 0;
	if (all_multi) {
		fprintf(vout, "each log holds several runs, and without --label each log's last "
			      "complete run is compared: --label names the sides, and then a log's "
			      "runs are its side's replicates (");
		hint_labels(vout, o);
		fputs(")\n", vout);
		return;
	}
	fprintf(vout, "give >= %d runs a side for a verdict (--label a,a,a,b,b,b A1 A2 A3 B1 B2 "
		      "B3, or --repeat N and --label a,b A.log B.log)\n", SIG_REP_MIN);
}

/* Phase 4: the closing lines (verdicts, comparison count) to vout. Returns 1 when a run on a
 * side of replicates other than its log's chosen one holds FAIL or ERROR records. */
static int closing(FILE *vout, const struct opts *o, const struct input *in,
		   const struct sides *sd, const struct cmp *c)
{
	int fails = 0;

	for (size_t j = 0; j < o->n; j++) {
		verdict(vout, &in[j], o->n > 1);
		fails |= side_runs(vout, o, in, sd, j);
	}
	if (sd->n < 2)
		return fails;
	size_t within = c->within, unknown = c->unknown, equivalent = 0;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t j = 1; j < sd->n; j++)
			equivalent += c->rows[i].cell[j].mark == '=';
	if (c->replicated) {
		fprintf(vout, "isobench-report: compared %zu sides of", sd->n);
		for (size_t j = 0; j < sd->n; j++)
			fprintf(vout, "%s %zu", j ? "," : "", sd->nruns[j]);
		fprintf(vout, " runs: %zu different, %zu equivalent, %zu undecided (Benjamini-"
			      "Hochberg q < %g, min-effect: the table's), %zu with too few runs "
			      "(< %d a side), %zu comparability warning(s)\n",
			c->verdicts, equivalent, within, SIG_FDR, unknown, SIG_REP_MIN, c->nwarn);
		return fails;
	}
	fprintf(vout, "isobench-report: compared %zu runs: %zu beyond noise, %zu within noise, "
		      "%zu without estimate, %zu comparability warning(s)\n", sd->n, c->flagged,
		within, unknown, c->nwarn);
	fprintf(vout, "isobench-report: one run a side: the marks compare samples within each "
		      "run, and a host that drifts between runs moves all of a run's samples "
		      "together, so they cannot tell machine drift from a difference; the %zu "
		      "marked * are no verdict (status " EXIT_STR(EXIT_OK) "); ", c->flagged);
	one_run_hint(vout, o, in);
	return fails;
}

/* The sides of the comparison into sd: with replicates (some --label given to several LOGs,
 * or a LOG holding several complete runs and no --run) the side of each label holds every
 * complete run of its LOGs (each log's other runs built into in[].more); without --label,
 * runs that all carry INFO run.ab_side (interleaved A/B) make a side per value; else each
 * LOG is a side of its chosen run. 0; -1 out of memory; EXIT_USAGE after a line on stderr. */
/* Models every other complete run of each log (unless --run picked one) into in[j].more;
 * *multi is 1 when some log holds more than the chosen run. 0, or -1 out of memory. */
static int model_more(const struct opts *o, struct input *in, int *multi)
{
	*multi = 0;
	for (size_t j = 0; j < o->n && !o->want; j++)
		for (size_t r = 0; r < in[j].log.nruns; r++)
			*multi |= (int)r != in[j].run && in[j].log.runs[r].complete;
	for (size_t j = 0; j < o->n; j++) {
		size_t want = 0;
		for (size_t r = 0; !o->want && r < in[j].log.nruns; r++)
			want += (int)r != in[j].run && in[j].log.runs[r].complete;
		if (want && !(in[j].more = calloc(want, sizeof *in[j].more)))
			return -1;
		for (size_t r = 0; want && r < in[j].log.nruns; r++)
			if ((int)r != in[j].run && in[j].log.runs[r].complete) {
				if (model_build(&in[j].log.runs[r], &in[j].more[in[j].nmore]))
					return -1;
				in[j].nmore++;
			}
	}
	return 0;
}

/* The distinct side labels, in log order, into sd->label: --label's words, or with ab the
 * runs' run.ab_side. Returns how many. */
static size_t side_labels(const struct opts *o, struct input *in, struct sides *sd, int ab)
{
	size_t distinct = 0;

	for (size_t j = 0; j < o->n && (o->labelarg || ab); j++)
		for (size_t r = 0; r <= (ab ? in[j].nmore : 0); r++) {
			const char *l = !ab ? o->labels[j]
				      : model_info(r < in[j].nmore ? &in[j].more[r] : &in[j].m,
						   RK_RUN_AB_SIDE);	/* log order */
			size_t k = 0;
			while (k < distinct && strcmp(sd->label[k], l))
				k++;
			if (k == distinct && distinct < MAX_LOGS)
				sd->label[distinct++] = (char *)l;
		}
	if (ab)	/* side a is the reference whatever the order of the logs and their runs */
		qsort(sd->label, distinct, sizeof *sd->label, qsort_cmp_str);
	return distinct;
}

/* Without --label: 1 when every run of every log says run.ab_side (interleaved A/B: its
 * values make the sides), else 0; when some runs say it and name both sides but a log's run
 * does not, sd->ab_note says the A/B sides were not used and which log is why. */
static int ab_sides(const struct opts *o, const struct input *in, struct sides *sd)
{
	const char *none = NULL, *first = NULL, *id = NULL;
	int two = 0;

	for (size_t j = 0; !o->labelarg && j < o->n; j++)
		for (size_t r = 0; r <= in[j].nmore; r++) {
			const struct model *m = r < in[j].nmore ? &in[j].more[r] : &in[j].m;
			const char *s = model_info(m, RK_RUN_AB_SIDE);
			if (!strcmp(s, "-") && !none) {
				none = in[j].path;
				id = m->run_id;
			} else if (strcmp(s, "-")) {
				two |= first && strcmp(first, s);
				first = first ? first : s;
			}
		}
	if (none && two)
		snprintf(sd->ab_note, sizeof sd->ab_note, "A/B sides not used: %s (run %s) carries "
			 "no run.ab_side, so the runs are not sided by their headers and each log is "
			 "its own column; --label gives the sides", none, id);
	return !o->labelarg && !none;
}

/* 1 (after a line on stderr naming PATH) when side k already holds m's run (its run id): a
 * log given twice is one run, not two replicates, whose zero spread would decide any test. */
static int side_holds(const struct sides *sd, size_t k, const struct model *m, const char *path)
{
	for (size_t i = 0; i < sd->nruns[k]; i++)
		if (!strcmp(sd->runs[k][i]->run_id, m->run_id)) {
			fprintf(stderr, "isobench-report: %s: run %s is already on side %s: counted "
				"once\n", path, m->run_id, sd->label[k]);
			return 1;
		}
	return 0;
}

/* Puts every run under its side's label, each run once (side_holds) (sd->runs, sd->nruns;
 * sd->col and sd->rep: the side's first run). 0, or -1 out of memory. */
static int fill_sides(const struct opts *o, struct input *in, struct sides *sd, int ab)
{
	for (size_t k = 0; k < sd->n; k++) {
		size_t cnt = 0;
		for (size_t j = 0; j < o->n; j++)
			cnt += 1 + in[j].nmore;
		if (!(sd->runs[k] = calloc(cnt + 1, sizeof *sd->runs[k])) ||
		    !(sd->runin[k] = calloc(cnt + 1, sizeof *sd->runin[k])))
			return -1;
		for (size_t j = 0; j < o->n; j++)
			for (size_t r = 0; r <= in[j].nmore; r++) {
				/* in log order: the earlier runs, then the one chosen (the last) */
				const struct model *m = r < in[j].nmore ? &in[j].more[r] : &in[j].m;
				const char *l = ab ? model_info(m, RK_RUN_AB_SIDE) : o->labels[j];
				if (strcmp(l, sd->label[k]) || side_holds(sd, k, m, in[j].path))
					continue;
				if (!sd->col[k]) {
					sd->col[k] = &in[j];
					sd->rep[k] = m;
				}
				sd->runin[k][sd->nruns[k]] = &in[j];
				sd->runs[k][sd->nruns[k]++] = m;
			}
	}
	return 0;
}

/* 1 (after a line on stderr naming the run, its logs and both sides) when a run is on two
 * sides of replicates (cmp_shared_run()). Refused rather than dropped: which side a run is of
 * is the labels' to say, and dropping it from both would change the sides' runs (3 + 3
 * becoming 2 + 2, no verdict) behind the user's back. */
static int shared_refused(const struct sides *sd)
{
	struct cmp_where w[2];

	if (!cmp_shared_run((const struct model *const *const *)sd->runs, sd->nruns, sd->n, w))
		return 0;
	fprintf(stderr, "isobench-report: run %s is on side %s (%s, its run %zu) and on side %s "
			"(%s, its run %zu): a run is one replicate of one side, and on both a "
			"verdict would rest on it compared with itself; give each run one --label\n",
		sd->runs[w[0].side][w[0].run]->run_id, sd->label[w[0].side],
		sd->runin[w[0].side][w[0].run]->path, w[0].run + 1, sd->label[w[1].side],
		sd->runin[w[1].side][w[1].run]->path, w[1].run + 1);
	return 1;
}

static int make_sides(const struct opts *o, struct input *in, struct sides *sd)
{
	int multi;

	memset(sd, 0, sizeof *sd);
	if (model_more(o, in, &multi))
		return -1;
	/* Interleaved A/B logs (out/isobench --ab, qemu/run --ab-params): without --label every
	 * run saying run.ab_side makes the sides of them. */
	int ab = ab_sides(o, in, sd);
	size_t distinct = side_labels(o, in, sd, ab);
	if (ab && distinct < 2)	/* the runs of one side only: read as before */
		ab = 0, distinct = 0;
	sd->replicated = ab || (o->labelarg && (distinct < o->n || multi));
	if (!sd->replicated) {
		sd->n = o->n;
		for (size_t j = 0; j < o->n; j++) {
			sd->col[j] = &in[j];
			sd->rep[j] = &in[j].m;
		}
		return 0;
	}
	if (distinct < 2) {
		fprintf(stderr, "isobench-report: %s names one side (%s): replicates need two or "
				"more\n", ab ? "run.ab_side" : "--label", sd->label[0]);
		return EXIT_USAGE;
	}
	sd->n = distinct;
	if (fill_sides(o, in, sd, ab))
		return -1;
	/* One run a side, whatever made the sides (run.ab_side, --label): the one-run comparison
	 * (no verdict: it cannot tell machine drift from a difference), not "too few runs". */
	int one = 1;
	for (size_t k = 0; k < distinct; k++)
		one &= sd->nruns[k] == 1;
	if (one)
		sd->replicated = 0, sd->named = 1;
	else if (shared_refused(sd))
		return EXIT_USAGE;
	return 0;
}

static void free_sides(struct sides *sd)
{
	for (size_t k = 0; k < sd->n; k++) {
		free(sd->runs[k]);
		free(sd->runin[k]);
	}
}

/* stdout (and stderr) reached their files: a report that was not written is a usage error. */
static int flushed(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "isobench-report: output failed: %s\n", strerror(errno));
		return 0;
	}
	return 1;
}

/* The run's outcome so far, for the exit status (main's table). */
struct outcome {
	int usage_err, incomplete, fails, crashed, werr, have_cmp;
};

/* Reads, judges and models every LOG of o into in[]; verdict lines go to vout. */
static void load_all(const struct opts *o, struct input *in, FILE *vout, struct outcome *oc)
{
	for (size_t j = 0; j < o->n; j++) {
		char why[200];
		in[j].path = o->logs[j];
		int r = load(&in[j], o, vout);
		oc->usage_err |= r == EXIT_USAGE;
		oc->incomplete |= r == EXIT_INCOMPLETE;
		if (o->boot && in[j].read && boot_crash(&in[j], o->killed, why, sizeof why)) {
			fprintf(vout, "isobench-report: %s: the guest crashed: %s\n", in[j].path, why);
			oc->crashed = 1;
		}
		if (r)
			continue;
		const struct run *run = &in[j].log.runs[in[j].run];
		oc->fails |= run->fails || run->errors;
		if (o->check)	/* the model too: --check judges the runs its sides hold */
			verdict(vout, &in[j], o->n > 1);
		if (model_build(run, &in[j].m)) {
			fprintf(stderr, "isobench-report: out of memory\n");
			oc->incomplete = 1;
			continue;
		}
		in[j].built = 1;
	}
}

/* Forms the sides of the loaded runs, compares them and writes every format asked for. */
static void compare_all(const struct opts *o, struct input *in, struct sides *sd, struct cmp *c,
			FILE *vout, struct outcome *oc)
{
	int sr = make_sides(o, in, sd);

	if (sr == EXIT_USAGE)
		oc->usage_err = 1;
	else if (sr) {
		fprintf(stderr, "isobench-report: out of memory\n");
		oc->incomplete = 1;
	} else if (cmp_build(sd->rep, sd->n, sd->replicated || sd->named ? sd->label
				: o->labelarg ? o->labels : NULL, c) ||
		 (sd->replicated && (oc->have_cmp = 1) &&
		  cmp_replicates(c, (const struct model *const *const *)sd->runs, sd->nruns))) {
		fprintf(stderr, "isobench-report: out of memory\n");
		oc->incomplete = 1;
	} else if (sd->ab_note[0] && cmp_note(c, sd->ab_note)) {
		fprintf(stderr, "isobench-report: out of memory\n");
		oc->incomplete = 1;
		oc->have_cmp = 1;
	} else {
		oc->have_cmp = 1;
		oc->werr = render(o, sd, c);
		oc->fails |= closing(vout, o, in, sd, c);
	}
}

/* --check alone: the sides the comparison would form (make_sides()), so every run on a side of
 * replicates counts for the status as it does without --check (side_runs()). */
static void check_only_sides(const struct opts *o, struct input *in, struct sides *sd, FILE *vout,
			struct outcome *oc)
{
	int sr = make_sides(o, in, sd);

	if (sr == EXIT_USAGE)
		oc->usage_err = 1;
	else if (sr) {
		fprintf(stderr, "isobench-report: out of memory\n");
		oc->incomplete = 1;
	} else
		for (size_t j = 0; j < o->n; j++)
			oc->fails |= side_runs(vout, o, in, sd, j);
}

static void free_inputs(struct input *in, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		for (size_t r = 0; r < in[j].nmore; r++)
			model_free(&in[j].more[r]);
		free(in[j].more);
		if (in[j].built)
			model_free(&in[j].m);
		if (in[j].read)
			log_free(&in[j].log);
	}
}

int main(int argc, char **argv)
{
	struct opts o;
	if (hist_wanted(argc, argv))	/* the results store's commands (histmain.h) */
		return hist_main(argc, argv);
	int rc = parse_args(argc, argv, &o);

	if (rc >= 0)
		return rc;
	if (o.follow)
		return follow_log(o.logs[0], (pid_t)o.pid, o.pid ? 0 : o.idle < 0 ? 600 : o.idle,
				  stdout);
	if (o.fleet) {
		rc = fleet_report(o.logs[0], o.group_by ? o.group_by : "hypervisor", o.format, stdout);
		return flushed() ? rc : EXIT_USAGE;
	}

	int text = !strcmp(o.format, "text") || o.check;
	FILE *vout = text ? stdout : stderr;	/* verdicts never mix into JSON/CSV */
	struct input in[MAX_LOGS];
	struct outcome oc = {0};
	struct cmp c;
	struct sides sd;

	memset(in, 0, sizeof in);
	memset(&sd, 0, sizeof sd);
	load_all(&o, in, vout, &oc);
	if (!oc.usage_err && !oc.incomplete && o.check)
		check_only_sides(&o, in, &sd, vout, &oc);
	else if (!oc.usage_err && !oc.incomplete)
		compare_all(&o, in, &sd, &c, vout, &oc);
	if (!flushed())
		oc.werr = 1;
	/* Status 4 rests on replicates only: one run a side cannot tell drift from a difference. */
	rc = oc.usage_err || oc.werr ? EXIT_USAGE : oc.crashed ? EXIT_CRASHED
	     : oc.incomplete ? EXIT_INCOMPLETE : oc.fails ? EXIT_FAILS
	     : oc.have_cmp && sd.n > 1 && c.verdicts ? EXIT_DIFFERS : EXIT_OK;
	if (oc.have_cmp)
		cmp_free(&c);
	free_sides(&sd);
	free_inputs(in, o.n);
	return rc;
}
