/* store.h — the results store (issue 34): checked runs kept over time in one SQLite file,
 * so a CI job or a lab asks "since when, on which machines" without its own script.
 *
 * Schema, version and migrations: docs/history.md (STORE_VERSION below is PRAGMA
 * user_version). The store keeps every verified record of a run as read (so a run read back
 * is the run the log held: store_load() rebuilds it and model.h models it as from the log),
 * plus decoded tables to query: run (identity, machine, hypervisor, kernel, image, date),
 * info (every INFO key, the run's parameters among them), result (every RESULT) and sample
 * (every SAMPLE's value).
 * Safety: WAL journal, STORE_BUSY_MS busy timeout (two writers wait for each other), one
 * transaction per log (a log is stored whole or not at all, also across a power cut).
 * Errors: functions return 0, or -1 with a reason in err (cap bytes) — SQLite's message, or
 * the reader's reason for a log that is refused. */
#ifndef ISOBENCH_STORE_H
#define ISOBENCH_STORE_H

#include "log.h"
#include "model.h"

#include <stddef.h>
#include <stdio.h>

#define STORE_VERSION 2		/* the schema PRAGMA user_version holds (docs/history.md) */
#define STORE_BUSY_MS 30000	/* how long a writer waits for another's transaction, ms */
#define STORE_MAX_TERMS 16	/* KEY=VALUE terms in one selector */

struct sqlite3;

struct store {
	struct sqlite3 *db;
	char path[4096];
};

/* One stored run, as `runs` lists it (strings owned by the list). */
struct store_run {
	long long id;		/* the store's own key: ingest order */
	char *run_id, *machine, *hv, *image, *kernel, *arch, *date, *source, *version;
	long long results, fails, skips, errors;
};

/* A SELECTOR: "all", or terms ANDed (docs/history.md): machine=S and hv=S and kernel=S (the
 * field contains S), image=S (equals S), run=S (run id starts with S), since=D (date >= D,
 * ISO 8601 UTC: 2026-12-01 or 2026-12-01T08:00:00Z), last=N (the N latest of those). */
struct store_sel {
	const char *key[STORE_MAX_TERMS], *val[STORE_MAX_TERMS];
	size_t n;
	long long last;		/* 0: no limit */
};

/* What one store_add() did: runs stored, runs already there, incomplete runs left out. */
struct store_added {
	size_t stored, present, skipped;
};

/* Opens path with a busy timeout. writer 1: creates it, WAL, the schema migrated to
 * STORE_VERSION; writer 0 (the reading commands): read-only, an existing store of
 * STORE_VERSION only. A store of a newer version is refused, never written. 0, or -1 with
 * err set. */
int store_open(struct store *s, const char *path, int writer, char *err, size_t cap);
void store_close(struct store *s);

/* Reads log file path (a log or an isobench disk image, image.h) with the reader and stores
 * its complete runs in one transaction, under machine (NULL: model_machine()). A log with no
 * complete run is refused with the reader's reason; a run id already stored with the same
 * records is counted in present, with other records it refuses the whole log. On -1 (the
 * log refused) or -2 (the store failed: SQLite's error, a full disk) nothing of the log is
 * stored. Incomplete runs beside complete ones are left out, each named on
 * msgs (NULL: silent). */
int store_add(struct store *s, const char *path, const char *machine, FILE *msgs,
	      struct store_added *a, char *err, size_t cap);

/* The log (or isobench disk image, image.h) at path read with the reader into log (freed
 * with log_free() whatever the outcome); -1 with the reason in err when it cannot be read or
 * holds no complete run ("no complete run (N run(s); last: <the reader's why>)"). What add
 * refuses a log for, and check too. */
int store_read_log(const char *path, struct log *log, char *err, size_t cap);

/* Parses the words of a SELECTOR (argv-like: "all", or KEY=VALUE terms; pointers kept). */
int store_sel_parse(char *const *words, size_t n, struct store_sel *sel, char *err, size_t cap);

/* The runs sel selects, oldest first (by date, then ingest order). *runs is freed with
 * store_runs_free(). */
int store_select(struct store *s, const struct store_sel *sel, struct store_run **runs,
		 size_t *n, char *err, size_t cap);
void store_runs_free(struct store_run *runs, size_t n);

/* Stored run id (struct store_run's id) as the reader built it: its records in order,
 * complete, counts from its row; free with log_run_free(). */
int store_load(struct store *s, long long id, struct run *run, char *err, size_t cap);

/* One point of a trend: a run's whole-run value of one test (store_trend(): result.whole, the
 * RESULT value where a store's row has none). */
struct store_point {
	long long id;		/* the run's store key */
	char *run_id, *date, *machine, *test, *unit;
	int copies, higher;	/* higher: 1 higher is better, 0 lower, -1 unknown */
	double value;
};

/* Every RESULT value of the runs sel selects, of test (NULL: every test) and machine
 * (NULL: every machine; else the field contains it), ordered by test, copies, machine, date
 * and ingest order: the series of a trend, one after another. */
int store_trend(struct store *s, const struct store_sel *sel, const char *test,
		const char *machine, struct store_point **pts, size_t *n, char *err, size_t cap);
void store_points_free(struct store_point *pts, size_t n);

/* The store checked: SQLite's integrity_check, and every run whole (its records as many as
 * its END says, its results as many as its RESULT records). Problems, one line each, on out;
 * returns how many (-1 when the check cannot run: err). */
long store_verify(struct store *s, FILE *out, char *err, size_t cap);

#endif
