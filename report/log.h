/* log.h — a console log in memory, as logread.c reads it: its runs (each with its valid records
 * in order, a verdict and its counts), its damaged lines and the kernel's messages that
 * matter (panic, power-down, reboot), and what may be asked of them without reading again.
 * The checker of a run's content (validate.h) and the reader (logread.h) both build on it.
 * Units: line numbers are 1-based lines of the log. */
#ifndef ISOBENCH_LOG_H
#define ISOBENCH_LOG_H

#include "record.h"
#include <stddef.h>
#include <stdint.h>

/* One record of a run: decoded once, when its line was read (logread.c, or digest.c's
 * expansion, or store.c's load), and read from then on with rec_get*() (lib/record.h), never
 * parsed again. r->line keeps its sealed bytes (tag to checksum), for what needs them as
 * such: the results store, and comparing a replayed run's copies byte for byte. */
struct logrec {
	size_t line;		/* 1-based line number in the log */
	struct rec_kept *r;	/* its kind, seq, fields and sealed line; owned */
};

struct damage {
	size_t line;
	int status;		/* enum rec_status */
	int run;		/* index of the run it falls in, -1 if none */
};

struct run {
	struct logrec *recs;
	size_t nrecs, cap;
	size_t first_line, last_line;
	int complete;
	int has_end;
	int powered_off;	/* the kernel's "reboot: Power down" follows the run */
	int rebooted;		/* the kernel's "reboot: Restarting system" follows it */
	int halted;		/* the kernel's "reboot: System halted" follows it (a power-off
				 * where there is none: UML, model_ends_halted()) */
	int watchdog;		/* a verified FAIL test=watchdog in the run */
	int copies;		/* >1: the run was received that many times (isobench.replay=1);
				 * the best copy is the one kept */
	int from_digest;	/* the log's head was cut: the run is what its digest restates
				 * (report/digest.h; records from the digest's lines) */
	uint64_t head_seq;	/* from_digest: the seq of the first record the log holds of the
				 * run (2: only its BEGIN is missing) */
	size_t head_line, head_samples;	/* ... that record's line; the SAMPLEs the log holds */
	char why[200];		/* why not complete ("" when complete) */
	uint64_t fails, errors, results, skips;
	/* qemu/run's word on the boot's scratch disks (its "# qemu/run: scratchN FILE ... cache=C"
	 * lines before the run, since that boot's first "# qemu/run: QEMU emulator" line): the
	 * first disk whose cache mode is not none ("scratch0 cache=writeback"), the host's page
	 * cache between guest and disk; "" when none was, or qemu/run did not say. */
	char host_cache[160];
};

struct log {
	struct run *runs;
	size_t nruns;
	struct damage *damage;
	size_t ndamage;
	size_t lines;
	int panic;		/* the kernel's "Kernel panic - not syncing" seen (outside records) */
	size_t panic_line;	/* line of the last one, 0 if none */
	size_t unpack_line;	/* line of the kernel's "Initramfs unpacking failed", 0 if none:
				 * most often a machine with too little memory for the image */
	int watchdog;		/* a verified FAIL test=watchdog record seen */
};

/* Why a line is damaged, in words: "checksum mismatch" (REC_BAD_CRC) or "malformed" (any other
 * status of rec_parse()): the one wording of stderr, the verdict, JSON, CSV and --follow. */
const char *log_damage_why(int status);
/* Append record r, parsed from the sealed text (len bytes, tag to checksum) of line, to run:
 * kept as a struct rec_kept (lib/record.h), the line's one decode; run->last_line = line.
 * 0, or -1 when out of memory. */
int log_add(struct run *run, size_t line, const struct record *r, const char *text, size_t len);
/* Index of the last complete run, or -1. */
int log_last_complete(const struct log *log);
/* Free one run's records (the struct run itself belongs to its log) and forget them: a run
 * freed so and then its log (log_free()) frees nothing twice. */
void log_run_free(struct run *run);
/* Free everything log holds and zero it. */
void log_free(struct log *log);

#endif
