/* isobench-report — check an isobench console log and print its results.
 *
 *   isobench-report [--check] [--run N] LOG
 *
 * Exit status (one table for every isobench tool; README "Exit status"):
 *   0 the chosen run is complete and holds no FAIL or ERROR record
 *   1 the chosen run is complete but holds FAIL or ERROR records
 *   2 usage error
 *   3 no complete run in the log (incomplete or corrupt), or it cannot be read */
#define _GNU_SOURCE
#include "logread.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_FLAGGED 1
#define EXIT_USAGE 2
#define EXIT_INCOMPLETE 3

static void usage(FILE *f)
{
	fprintf(f, "usage: isobench-report [--check] [--run N] LOG\n"
		   "  --check   only judge the log: one verdict line and the exit status\n"
		   "  --run N   the N-th run in the log (1-based; default: the last complete)\n"
		   "exit: 0 complete, 1 complete with FAIL/ERROR, 2 usage, 3 no complete run\n");
}

/* Value of an INFO key of the run, or "-". Rotating buffers: several calls may share one
 * printf. */
static const char *info(const struct run *run, const char *key, struct record *r)
{
	static char ring[8][512];
	static int next;
	char *val = ring[next++ % 8];
	for (size_t i = 0; i < run->nrecs; i++) {
		if (strcmp(run->recs[i].kind, "INFO") || logrec_parse(&run->recs[i], r) != REC_OK)
			continue;
		const char *v = rec_get(r, key);
		if (v) {
			snprintf(val, sizeof ring[0], "%s", v);
			return val;
		}
	}
	return "-";
}

static void print_run(const struct run *run)
{
	struct record *r = malloc(sizeof *r);
	char title[128] = "";
	int passes[64], npass = 0;

	if (!r)
		return;
	printf("machine:  %s | %s CPUs | hypervisor %s (kernel: %s)\n",
	       info(run, "cpu.model", r), info(run, "cpu.online", r), info(run, "hv.cpuid", r),
	       info(run, "kernel.hypervisor", r));
	printf("kernel:   %s | clocksource %s (available: %s)\n", info(run, "kernel.release", r),
	       info(run, "clocksource.current", r), info(run, "clocksource.available", r));
	printf("image:    %s | build %s | suite %s\n", info(run, "image.identity", r),
	       info(run, "build.version", r), info(run, "run.suite", r));
	for (size_t i = 0; i < run->nrecs; i++) {
		if (strcmp(run->recs[i].kind, "RESULT") || logrec_parse(&run->recs[i], r) != REC_OK)
			continue;
		int c = atoi(rec_get(r, "copies") ? rec_get(r, "copies") : "0"), seen = 0;
		for (int k = 0; k < npass; k++)
			seen |= passes[k] == c;
		if (!seen && npass < 64)
			passes[npass++] = c;
	}
	for (int k = 0; k < npass; k++) {
		double lsum = 0;
		int nidx = 0;
		printf("\n%d cop%s:\n", passes[k], passes[k] == 1 ? "y" : "ies");
		printf("System Benchmarks Index Values               BASELINE       RESULT    INDEX\n");
		for (size_t i = 0; i < run->nrecs; i++) {
			const struct logrec *lr = &run->recs[i];
			if (logrec_parse(lr, r) != REC_OK)
				continue;
			if (!strcmp(lr->kind, "TEST")) {
				const char *t = rec_get(r, "title");
				snprintf(title, sizeof title, "%s", t ? t : rec_get(r, "test"));
				continue;
			}
			if (strcmp(lr->kind, "RESULT") || atoi(rec_get(r, "copies")) != passes[k])
				continue;
			const char *b = rec_get(r, "baseline"), *v = rec_get(r, "value");
			double val = v ? atof(v) : 0;
			if (b) {
				double base = atof(b);
				printf("%-40.40s%13.1f%13.1f%9.1f\n", title, base, val,
				       val / base * 10);
				if (val > 0 && base > 0) {
					lsum += log(val / base);
					nidx++;
				}
			} else {
				printf("%-40.40s%13s%13.1f %s\n", title, "", val, rec_get(r, "unit"));
			}
		}
		printf("%75s\n", "========");
		if (nidx)
			printf("%-66s%9.1f\n",
			       nidx < 12 ? "System Benchmarks Index Score (Partial Only)"
					 : "System Benchmarks Index Score",
			       10 * exp(lsum / nidx));
	}
	for (size_t i = 0; i < run->nrecs; i++) {
		const struct logrec *lr = &run->recs[i];
		if (strcmp(lr->kind, "FAIL") && strcmp(lr->kind, "ERROR") && strcmp(lr->kind, "SKIP"))
			continue;
		if (logrec_parse(lr, r) != REC_OK)
			continue;
		const char *t = rec_get(r, "test") ? rec_get(r, "test") : rec_get(r, "param");
		printf("%s %s: %s (line %zu)\n", lr->kind, t ? t : "-",
		       rec_get(r, "reason") ? rec_get(r, "reason") : "-", lr->line);
	}
	free(r);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"check", no_argument, NULL, 'c'},
		{"run", required_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int check = 0, want = 0, opt;
	struct log log;
	FILE *f;

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
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!(f = fopen(argv[optind], "rb"))) {
		perror(argv[optind]);
		return EXIT_INCOMPLETE;
	}
	if (log_read(f, &log)) {
		fprintf(stderr, "isobench-report: %s: read error\n", argv[optind]);
		fclose(f);
		return EXIT_INCOMPLETE;
	}
	fclose(f);
	for (size_t d = 0; d < log.ndamage; d++)
		fprintf(stderr, "isobench-report: line %zu: damaged record (%s), not used\n",
			log.damage[d].line,
			log.damage[d].status == REC_BAD_CRC ? "checksum mismatch" : "malformed");

	int idx = want ? want - 1 : log_last_complete(&log);
	if (want && (size_t)want > log.nruns) {
		fprintf(stderr, "isobench-report: --run %d: the log holds %zu run(s)\n", want,
			log.nruns);
		log_free(&log);
		return EXIT_USAGE;
	}
	if (idx < 0) {
		const struct run *last = log.nruns ? &log.runs[log.nruns - 1] : NULL;
		printf("isobench-report: no complete run in %s (%zu run(s)%s%s)%s\n", argv[optind],
		       log.nruns, last ? "; last: " : "", last ? last->why : "",
		       log.panic ? "; the kernel panicked" : log.watchdog ? "; watchdog fired" : "");
		log_free(&log);
		return EXIT_INCOMPLETE;
	}
	const struct run *run = &log.runs[idx];
	if (!run->complete) {
		printf("isobench-report: run %d of %zu is incomplete: %s\n", idx + 1, log.nruns,
		       run->why);
		log_free(&log);
		return EXIT_INCOMPLETE;
	}
	if (!check)
		print_run(run);
	printf("isobench-report: run %d of %zu complete: %llu results, %llu fails, %llu skips, "
	       "%llu errors%s\n", idx + 1, log.nruns, (unsigned long long)run->results,
	       (unsigned long long)run->fails, (unsigned long long)run->skips,
	       (unsigned long long)run->errors, run->powered_off ? ", guest powered off" : "");
	int rc = run->fails || run->errors ? EXIT_FLAGGED : 0;
	log_free(&log);
	return rc;
}
