/* isobench-report — check isobench console logs and turn them into answers.
 *
 *   isobench-report [--check] [--run N] [--format F] [--svg FILE] [--label A,B,..] LOG [LOG..]
 *   isobench-report --follow LOG [--pid PID]     live progress while LOG grows
 *
 * One LOG: the run as the classic UnixBench table per pass. Several: side by side, ratios to
 * the first run, noise marks (compare.h), comparability warnings. Details: docs/report.md.
 *
 * Exit status (one table for every isobench tool; shared with qemu/run and the payload CLI):
 *   0 fine: every chosen run is complete, no FAIL/ERROR record, no flagged difference
 *   1 complete, but a chosen run holds FAIL or ERROR records
 *   2 usage error, or the output (stdout, --svg FILE) cannot be written
 *   3 incomplete or corrupt log: no complete run (or the --run chosen is not), unreadable file
 *   4 comparison only: some row differs beyond the runs' noise
 * When several apply the first in the order 2, 3, 1, 4 wins. */
#define _GNU_SOURCE
#include "image.h"
#include "csv.h"
#include "follow.h"
#include "json.h"
#include "svg.h"
#include "text.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_FAILS 1
#define EXIT_USAGE 2
#define EXIT_INCOMPLETE 3
#define EXIT_DIFFERS 4

#define MAX_LOGS 8

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
		"  --format F      text (default), json (every record + derived figures), csv\n"
		"                  (same, one long table), json-bench / json-bench-smaller\n"
		"                  (github-action-benchmark customBiggerIsBetter /\n"
		"                  customSmallerIsBetter lists of {name, unit, value})\n"
		"  --label A,B,..  column labels, one per LOG (default: from the machine header)\n"
		"  --svg FILE      also write a chart of the ratios to the first run (log scale)\n"
		"  --follow        progress while LOG grows: one line per verified record; ends\n"
		"                  at END, or when --pid PID has exited (qemu/run uses it)\n"
		"  --help          this text\n"
		"noise: a cell is ~ when the 95%% CIs of the two medians (from the SAMPLE\n"
		"  records, warmups excluded) overlap, * when they do not (docs/report.md)\n"
		"exit status:\n"
		"  0 complete, no FAIL/ERROR (and, comparing, no difference beyond noise)\n"
		"  1 complete, but holds FAIL or ERROR records\n"
		"  2 usage error (or the output cannot be written)\n"
		"  3 incomplete or corrupt log (no complete run), or it cannot be read\n"
		"  4 comparing: some row differs beyond the runs' noise\n"
		"  (several apply: the first of 2, 3, 1, 4)\n");
}

struct input {
	const char *path;
	struct log log;
	int read;		/* log holds data */
	int run;		/* chosen run or -1 */
	struct model m;
	int built;
};

/* Read one log, report its damaged lines on stderr, choose its run; prints the verdict line
 * to vout. Returns 0 when the chosen run is complete, else EXIT_INCOMPLETE / EXIT_USAGE. */
static int load(struct input *in, int want, FILE *vout)
{
	int is_image;
	FILE *f = image_fopen(in->path, &is_image);	/* a log, or a disk image holding one */

	in->run = -1;
	if (!f) {
		fprintf(vout, "isobench-report: %s: cannot be read: %m\n", in->path);
		return EXIT_INCOMPLETE;
	}
	int rc = log_read(f, &in->log);
	fclose(f);
	in->read = 1;
	if (rc) {
		fprintf(vout, "isobench-report: %s: read error\n", in->path);
		return EXIT_INCOMPLETE;
	}
	for (size_t d = 0; d < in->log.ndamage; d++)
		fprintf(stderr, "isobench-report: %s:%zu: damaged record (%s), not used\n",
			in->path, in->log.damage[d].line,
			in->log.damage[d].status == REC_BAD_CRC ? "checksum mismatch" : "malformed");
	if (want && (size_t)want > in->log.nruns) {
		fprintf(stderr, "isobench-report: --run %d: %s holds %zu run(s)\n", want, in->path,
			in->log.nruns);
		return EXIT_USAGE;
	}
	int idx = want ? want - 1 : log_last_complete(&in->log);
	if (idx < 0) {
		const struct log *l = &in->log;
		const struct run *last = l->nruns ? &l->runs[l->nruns - 1] : NULL;
		fprintf(vout, "isobench-report: no complete run in %s (%zu run(s)%s%s)%s\n", in->path,
			l->nruns, last ? "; last: " : "", last ? last->why : "",
			l->panic ? "; the kernel panicked" : l->watchdog ? "; watchdog fired" : "");
		return EXIT_INCOMPLETE;
	}
	const struct run *run = &in->log.runs[idx];
	if (!run->complete) {
		fprintf(vout, "isobench-report: run %d of %zu is incomplete: %s\n", idx + 1,
			in->log.nruns, run->why);
		return EXIT_INCOMPLETE;
	}
	in->run = idx;
	return 0;
}

static void verdict(FILE *out, const struct input *in, int name)
{
	const struct run *run = &in->log.runs[in->run];
	fprintf(out, "isobench-report: %s%s", name ? in->path : "", name ? ": " : "");
	fprintf(out,
		"run %d of %zu complete: %llu results, %llu fails, %llu skips, "
		"%llu errors%s\n", in->run + 1, in->log.nruns, (unsigned long long)run->results,
		(unsigned long long)run->fails, (unsigned long long)run->skips,
		(unsigned long long)run->errors, run->powered_off ? ", guest powered off" : "");
}

/* Split "a,b,c" into at most max labels; returns the count. */
static size_t split_labels(char *s, char **out, size_t max)
{
	size_t n = 0;
	char *save = NULL;
	for (char *t = strtok_r(s, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save))
		out[n++] = t;
	return n;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"check", no_argument, NULL, 'c'},
		{"run", required_argument, NULL, 'r'},
		{"format", required_argument, NULL, 'f'},
		{"label", required_argument, NULL, 'l'},
		{"svg", required_argument, NULL, 's'},
		{"follow", no_argument, NULL, 'F'},
		{"pid", required_argument, NULL, 'p'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int check = 0, want = 0, opt, follow = 0;
	long pid = 0;
	const char *format = "text", *svg = NULL;
	char *labels[MAX_LOGS + 1], *labelarg = NULL;
	size_t nlabels = 0;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		char *end;
		switch (opt) {
		case 'c':
			check = 1;
			break;
		case 'r':
			want = (int)strtol(optarg, &end, 10);
			if (*end || want < 1) {
				fprintf(stderr, "isobench-report: --run wants a number >= 1\n");
				return EXIT_USAGE;
			}
			break;
		case 'f':
			format = optarg;
			if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "csv") &&
			    strcmp(format, "json-bench") && strcmp(format, "json-bench-smaller")) {
				fprintf(stderr, "isobench-report: --format: text, json, csv, json-bench "
						"or json-bench-smaller\n");
				return EXIT_USAGE;
			}
			break;
		case 'l':
			labelarg = optarg;
			nlabels = split_labels(labelarg, labels, MAX_LOGS + 1);
			break;
		case 's':
			svg = optarg;
			break;
		case 'F':
			follow = 1;
			break;
		case 'p':
			pid = strtol(optarg, &end, 10);
			if (*end || pid < 1) {
				fprintf(stderr, "isobench-report: --pid wants a process id\n");
				return EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	size_t n = (size_t)(argc - optind);
	if (follow) {
		if (n != 1) {
			fprintf(stderr, "isobench-report: --follow takes one LOG\n");
			return EXIT_USAGE;
		}
		if (follow_log(argv[optind], (pid_t)pid, stdout)) {
			perror(argv[optind]);
			return EXIT_INCOMPLETE;
		}
		return 0;
	}
	if (n < 1 || n > MAX_LOGS) {
		if (n > MAX_LOGS)
			fprintf(stderr, "isobench-report: at most %d logs\n", MAX_LOGS);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (labelarg && nlabels != n) {
		fprintf(stderr, "isobench-report: --label gives %zu label(s) for %zu log(s)\n",
			nlabels, n);
		return EXIT_USAGE;
	}

	int text = !strcmp(format, "text") || check;
	FILE *vout = text ? stdout : stderr;	/* verdicts never mix into JSON/CSV */
	struct input in[MAX_LOGS];
	int rc = 0, usage_err = 0, incomplete = 0, fails = 0;

	memset(in, 0, sizeof in);
	for (size_t j = 0; j < n; j++) {
		in[j].path = argv[optind + (int)j];
		int r = load(&in[j], want, vout);
		usage_err |= r == EXIT_USAGE;
		incomplete |= r == EXIT_INCOMPLETE;
		if (r)
			continue;
		const struct run *run = &in[j].log.runs[in[j].run];
		fails |= run->fails || run->errors;
		if (check) {
			verdict(vout, &in[j], n > 1);
			continue;
		}
		if (model_build(run, &in[j].m)) {
			fprintf(stderr, "isobench-report: out of memory\n");
			incomplete = 1;
			continue;
		}
		in[j].built = 1;
	}
	if (usage_err || incomplete || check) {
		rc = usage_err ? EXIT_USAGE : incomplete ? EXIT_INCOMPLETE : fails ? EXIT_FAILS : 0;
		goto out;
	}

	const struct model *models[MAX_LOGS];
	struct report_in ri[MAX_LOGS];
	char *sources[MAX_LOGS];
	struct cmp c;
	for (size_t j = 0; j < n; j++) {
		models[j] = &in[j].m;
		ri[j] = (struct report_in){in[j].path, &in[j].log, in[j].run, &in[j].m};
		sources[j] = (char *)in[j].path;
	}
	if (cmp_build(models, n, labelarg ? labels : NULL, &c)) {
		fprintf(stderr, "isobench-report: out of memory\n");
		rc = EXIT_INCOMPLETE;
		goto out;
	}
	for (size_t i = 0; n > 1 && i < c.nwarn; i++)
		if (!text)
			fprintf(stderr, "isobench-report: warning: %s\n", c.warn[i]);
	for (size_t i = 0; n > 1 && i < c.nnote; i++)
		if (!text)
			fprintf(stderr, "isobench-report: note: %s\n", c.note[i]);
	int werr = 0;
	if (!strcmp(format, "text")) {
		if (n == 1)
			text_run(stdout, models[0], in[0].path);
		else
			text_compare(stdout, &c, sources);
		fputc('\n', stdout);
	} else if (!strcmp(format, "json")) {
		werr = json_report(stdout, ri, n, &c);
	} else if (!strcmp(format, "csv")) {
		werr = csv_report(stdout, ri, n, &c);
	} else {
		werr = json_bench(stdout, ri, n, &c, !strcmp(format, "json-bench-smaller"));
	}
	if (svg) {
		FILE *f = fopen(svg, "w");
		if (!f || svg_chart(f, &c) || fclose(f)) {
			fprintf(stderr, "isobench-report: %s: cannot write the chart\n", svg);
			werr = 1;
		}
	}
	for (size_t j = 0; j < n; j++) {
		verdict(vout, &in[j], n > 1);
	}
	if (n > 1) {
		size_t within = 0, unknown = 0;
		for (size_t i = 0; i < c.nrows; i++)
			for (size_t j = 1; j < n; j++) {
				within += c.rows[i].cell[j].mark == '~';
				unknown += c.rows[i].cell[j].mark == '?';
			}
		fprintf(vout, "isobench-report: compared %zu runs: %zu beyond noise, %zu within noise, "
			      "%zu without estimate, %zu comparability warning(s)\n", n, c.flagged,
			within, unknown, c.nwarn);
	}
	rc = fails ? EXIT_FAILS : n > 1 && c.flagged ? EXIT_DIFFERS : 0;
	if (fflush(stdout) || ferror(stdout))
		werr = 1;
	if (werr) {
		fprintf(stderr, "isobench-report: output failed\n");
		rc = rc ? rc : EXIT_USAGE;
	}
	cmp_free(&c);
out:
	for (size_t j = 0; j < n; j++) {
		if (in[j].built)
			model_free(&in[j].m);
		if (in[j].read)
			log_free(&in[j].log);
	}
	return rc;
}
