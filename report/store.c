/* store.c — the results store on SQLite (see store.h; schema: docs/history.md). */
#define _GNU_SOURCE
#include "store.h"
#include "num.h"
#include "image.h"
#include "logread.h"
#include "vocab.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The migrations, in order: migration[v] takes a store of user_version v to v + 1 (0: an
 * empty file). Each runs in one transaction with its user_version bump, so a store is at one
 * version or the next, never between. A new version appends one entry and bumps
 * STORE_VERSION; docs/history.md says what each did. */
static const char *const migration[STORE_VERSION] = {
	/* 0 -> 1: the first schema */
	"CREATE TABLE run ("
	" id INTEGER PRIMARY KEY,"
	" run_id TEXT NOT NULL UNIQUE,"
	" version TEXT NOT NULL, mode TEXT NOT NULL,"
	" machine TEXT NOT NULL, hv TEXT NOT NULL, arch TEXT NOT NULL,"
	" kernel TEXT NOT NULL, image TEXT NOT NULL,"
	" utc TEXT NOT NULL, date TEXT NOT NULL, added TEXT NOT NULL, source TEXT NOT NULL,"
	" nrecs INTEGER NOT NULL, results INTEGER NOT NULL, fails INTEGER NOT NULL,"
	" skips INTEGER NOT NULL, errors INTEGER NOT NULL,"
	" powered_off INTEGER NOT NULL, from_digest INTEGER NOT NULL);"
	"CREATE TABLE info (run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	" key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (run, key)) WITHOUT ROWID;"
	"CREATE TABLE record (run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, line INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL,"
	" PRIMARY KEY (run, seq)) WITHOUT ROWID;"
	"CREATE TABLE result (run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	" test TEXT NOT NULL, copies INTEGER NOT NULL, unit TEXT NOT NULL, better TEXT NOT NULL,"
	" value REAL, median REAL, min REAL, max REAL, ci95_pct REAL, samples INTEGER,"
	" PRIMARY KEY (run, test, copies)) WITHOUT ROWID;"
	"CREATE TABLE sample (run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, test TEXT NOT NULL, copies INTEGER NOT NULL,"
	" i INTEGER NOT NULL, value REAL, PRIMARY KEY (run, seq)) WITHOUT ROWID;"
	"CREATE INDEX run_date ON run(date, id);"
	"CREATE INDEX run_machine ON run(machine, date);"
	"CREATE INDEX result_test ON result(test, copies, run);",
	/* 1 -> 2 (issue 46): each result's whole-run value (model.h's whole, every sample
	 * counted), what trend and check take; a stored result gets it from its stored samples
	 * as a reader of a log without RESULT whole= does (lib/stats.c whole_of_values(): a
	 * rate's mean, a time's harmonic mean), else its value */
	"ALTER TABLE result ADD COLUMN whole REAL;"
	"UPDATE result SET whole = coalesce((SELECT CASE result.better"
	" WHEN 'higher' THEN avg(s.value) WHEN 'lower' THEN count(*) / sum(1.0 / s.value) END"
	" FROM sample s WHERE s.run = result.run AND s.test = result.test"
	" AND s.copies = result.copies AND s.i >= 0 AND s.value > 0), value);",
};

static int fail(char *err, size_t cap, const char *what, struct sqlite3 *db)
{
	snprintf(err, cap, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
	return -1;
}

static int exec(struct sqlite3 *db, const char *sql, char *err, size_t cap)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	snprintf(err, cap, "%s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

static long long user_version(struct sqlite3 *db)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The store to STORE_VERSION, one migration per transaction (two processes opening a new
 * store at once: the second waits, then finds the version already there). */
static int migrate(struct sqlite3 *db, char *err, size_t cap)
{
	if (user_version(db) == STORE_VERSION)	/* the common case: no write lock taken */
		return 0;
	for (;;) {
		if (exec(db, "BEGIN IMMEDIATE", err, cap))
			return -1;
		long long v = user_version(db);
		if (v < 0 || v > STORE_VERSION) {
			exec(db, "ROLLBACK", err, cap);
			if (v < 0)
				return fail(err, cap, "reading the schema version", db);
			snprintf(err, cap, "the store is of schema version %lld; this isobench-report "
				 "knows up to %d (a newer isobench-report made it)", v, STORE_VERSION);
			return -1;
		}
		if (v == STORE_VERSION)
			return exec(db, "COMMIT", err, cap);
		char bump[64];
		snprintf(bump, sizeof bump, "PRAGMA user_version = %lld", v + 1);
		if (exec(db, migration[v], err, cap) || exec(db, bump, err, cap) ||
		    exec(db, "COMMIT", err, cap)) {
			char e2[64];
			exec(db, "ROLLBACK", e2, sizeof e2);
			return -1;
		}
	}
}

/* The store to WAL. Switching a new file's journal mode can return SQLITE_BUSY without the
 * busy handler's wait when other writers make the store at the same moment (about 1 add in
 * 50 of six at once failed "database is locked"), so it is tried again for up to
 * STORE_BUSY_MS. 0, or -1 with err. */
static int wal_on(struct sqlite3 *db, char *err, size_t cap)
{
	for (int waited = 0;; waited += 10) {
		if (!exec(db, "PRAGMA journal_mode = WAL", err, cap))
			return 0;
		if ((sqlite3_errcode(db) & 0xff) != SQLITE_BUSY || waited >= STORE_BUSY_MS)
			return -1;
		sqlite3_sleep(10);
	}
}

/* path's user_version read on a short connection of its own (created if absent: 0); -1 on
 * an error (the caller's open reports it). */
static long long peek_version(const char *path)
{
	struct sqlite3 *db;
	long long v = -1;

	if (!sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)) {
		sqlite3_busy_timeout(db, STORE_BUSY_MS);
		v = user_version(db);
	}
	sqlite3_close(db);
	return v;
}

/* 1 with err set when path is no store file to open, said as what it is (SQLite would say
 * "unable to open database file" for a missing one, "disk I/O error" for a directory): a
 * directory; for a reader (writer 0) a missing file; for a writer a missing file whose
 * directory is not there (stat()'s errno). Else 0. */
static int path_unfit(const char *path, int writer, char *err, size_t cap)
{
	struct stat st;

	if (!stat(path, &st)) {
		if (!S_ISDIR(st.st_mode))
			return 0;
		snprintf(err, cap, "%s: a directory, not a store (--db names the store's file)",
			 path);
		return 1;
	}
	if (errno != ENOENT) {
		snprintf(err, cap, "%s: cannot be opened: %s", path, strerror(errno));
		return 1;
	}
	if (!writer) {
		snprintf(err, cap, "%s: no such file (a reading command opens a store that is "
			 "there; add makes one)", path);
		return 1;
	}
	/* a writer creates it (SQLite does): its directory must be one */
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	if (stat(dir, &st)) {
		snprintf(err, cap, "%s: cannot be created: %s", path, strerror(errno));
		return 1;
	}
	return 0;	/* (a component that is a file: stat(path) said ENOTDIR above) */
}

int store_open(struct store *s, const char *path, int writer, char *err, size_t cap)
{
	memset(s, 0, sizeof *s);
	snprintf(s->path, sizeof s->path, "%s", path);
	/* A reader neither creates the file (a mistyped path is an error, not an empty store)
	 * nor needs write permission on it. */
	int flags = writer ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	if (path_unfit(path, writer, err, cap))
		return -1;
	if (sqlite3_open_v2(path, &s->db, flags, NULL)) {
		fail(err, cap, path, s->db);
		store_close(s);
		return -1;
	}
	sqlite3_busy_timeout(s->db, STORE_BUSY_MS);
	/* The version before anything is written (a newer store refused stays as it was); a
	 * writer reads it on a connection of its own, so that its own one then takes the store
	 * to WAL as a fresh connection (a read first made a second add creating the store at
	 * the same moment fail now and then: "database is locked"). */
	long long v = writer ? peek_version(path) : user_version(s->db);
	if (v > STORE_VERSION)	/* refused before anything (the journal mode too) is written */
		snprintf(err, cap, "%s: the store is of schema version %lld; this isobench-report "
			 "knows up to %d (a newer isobench-report made it)", path, v, STORE_VERSION);
	else if (!writer && v < 0)
		fail(err, cap, path, s->db);
	else if (!writer && v < STORE_VERSION)
		snprintf(err, cap, "%s: not an isobench store of schema version %d (version %lld; "
			 "`add` makes or migrates one)", path, STORE_VERSION, v);
	/* (a writer's unreadable version: the pragmas and migrate below say why) */
	if (v > STORE_VERSION || (!writer && v < STORE_VERSION)) {
		store_close(s);
		return -1;
	}
	if (!writer)
		return 0;
	/* WAL: readers never wait for a writer; synchronous=FULL: a committed log survives a
	 * power cut (NORMAL may lose the last transactions in WAL mode). */
	if (wal_on(s->db, err, cap) ||
	    exec(s->db, "PRAGMA synchronous = FULL", err, cap) ||
	    exec(s->db, "PRAGMA foreign_keys = ON", err, cap) || migrate(s->db, err, cap)) {
		char e[900];
		snprintf(e, sizeof e, "%s", err);
		snprintf(err, cap, "%s: %s", path, e);
		store_close(s);
		return -1;
	}
	return 0;
}

void store_close(struct store *s)
{
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
}

/* ---- adding a log ---- */

struct stmts {
	sqlite3_stmt *find, *run, *info, *rec, *res, *smp;
};

static const char *const stmt_sql[] = {
	"SELECT record.text FROM run JOIN record ON record.run = run.id WHERE run.run_id = ?1"
	" ORDER BY record.seq",
	"INSERT INTO run (run_id, version, mode, machine, hv, arch, kernel, image, utc, date,"
	" added, source, nrecs, results, fails, skips, errors, powered_off, from_digest)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,"
	" ?18, ?19)",
	"INSERT OR REPLACE INTO info (run, key, value) VALUES (?1, ?2, ?3)",
	"INSERT INTO record (run, seq, line, kind, text) VALUES (?1, ?2, ?3, ?4, ?5)",
	"INSERT OR REPLACE INTO result (run, test, copies, unit, better, value, median, min, max,"
	" ci95_pct, samples, whole) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	"INSERT INTO sample (run, seq, test, copies, i, value) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
};

static void stmts_free(struct stmts *t)
{
	sqlite3_stmt **p = &t->find;
	for (size_t i = 0; i < sizeof stmt_sql / sizeof stmt_sql[0]; i++)
		sqlite3_finalize(p[i]);
}

static int stmts_make(struct sqlite3 *db, struct stmts *t, char *err, size_t cap)
{
	sqlite3_stmt **p = &t->find;
	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < sizeof stmt_sql / sizeof stmt_sql[0]; i++)
		if (sqlite3_prepare_v2(db, stmt_sql[i], -1, &p[i], NULL) != SQLITE_OK) {
			fail(err, cap, "preparing", db);
			stmts_free(t);
			return -1;
		}
	return 0;
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (v == v && v - v == 0)	/* finite */
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* Runs st (bindings set) to its end and resets it; 0 or -1 (err). */
static int step_done(struct sqlite3 *db, sqlite3_stmt *st, char *err, size_t cap)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : fail(err, cap, "writing", db);
}

/* Now as ISO 8601 UTC into buf. */
static void utc_now(char *buf, size_t cap)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The run's row, INFO, records, results and samples. */
static int put_run(struct sqlite3 *db, struct stmts *t, const struct run *run,
		   const struct model *m, const char *machine, const char *source,
		   const char *now, char *err, size_t cap)
{
	char mach[600], hv[200];
	const char *utc = model_info(m, RK_RUN_UTC);
	/* run.utc is the guest's clock: 1970 when it had none, so then the time of adding */
	const char *date = strcmp(utc, "2000") > 0 ? utc : now;
	sqlite3_stmt *st = t->run;

	if (machine)
		snprintf(mach, sizeof mach, "%s", machine);
	else
		model_machine(m, mach, sizeof mach);
	model_hv(m, hv, sizeof hv);
	const char *text[] = {m->run_id, m->version, model_mode(m), mach, hv,
			      model_info(m, RK_KERNEL_MACHINE), model_info(m, RK_KERNEL_RELEASE),
			      model_info(m, RK_IMAGE_IDENTITY), utc, date, now, source};
	for (int i = 0; i < 12; i++)
		sqlite3_bind_text(st, i + 1, text[i] ? text[i] : "-", -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 13, (sqlite3_int64)run->nrecs);
	sqlite3_bind_int64(st, 14, (sqlite3_int64)run->results);
	sqlite3_bind_int64(st, 15, (sqlite3_int64)run->fails);
	sqlite3_bind_int64(st, 16, (sqlite3_int64)run->skips);
	sqlite3_bind_int64(st, 17, (sqlite3_int64)run->errors);
	sqlite3_bind_int(st, 18, run->powered_off);
	sqlite3_bind_int(st, 19, run->from_digest);
	if (step_done(db, st, err, cap))
		return -1;
	sqlite3_int64 id = sqlite3_last_insert_rowid(db);
	for (size_t i = 0; i < m->ninfo; i++) {
		sqlite3_bind_int64(t->info, 1, id);
		sqlite3_bind_text(t->info, 2, m->info[i].key, -1, SQLITE_STATIC);
		sqlite3_bind_text(t->info, 3, m->info[i].val, -1, SQLITE_STATIC);
		if (step_done(db, t->info, err, cap))
			return -1;
	}
	for (size_t i = 0; i < run->nrecs; i++) {
		const struct logrec *r = &run->recs[i];
		sqlite3_bind_int64(t->rec, 1, id);
		sqlite3_bind_int64(t->rec, 2, (sqlite3_int64)r->r->seq);
		sqlite3_bind_int64(t->rec, 3, (sqlite3_int64)r->line);
		sqlite3_bind_text(t->rec, 4, r->r->kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(t->rec, 5, r->r->line, -1, SQLITE_STATIC);	/* sealed bytes */
		if (step_done(db, t->rec, err, cap))
			return -1;
	}
	for (size_t k = 0; k < m->ntests; k++) {
		const struct mtest *x = &m->tests[k];
		for (size_t j = 0; j < x->nsmp; j++) {
			sqlite3_bind_int64(t->smp, 1, id);
			sqlite3_bind_int64(t->smp, 2, (sqlite3_int64)m->recs[x->smp[j].rec].r->seq);
			sqlite3_bind_text(t->smp, 3, x->test, -1, SQLITE_STATIC);
			sqlite3_bind_int(t->smp, 4, x->copies);
			sqlite3_bind_int64(t->smp, 5, x->smp[j].warmup ? -1 : x->smp[j].i);
			bind_real(t->smp, 6, x->smp[j].value);
			if (step_done(db, t->smp, err, cap))
				return -1;
		}
		if (!x->has_result)
			continue;
		sqlite3_bind_int64(t->res, 1, id);
		sqlite3_bind_text(t->res, 2, x->test, -1, SQLITE_STATIC);
		sqlite3_bind_int(t->res, 3, x->copies);
		sqlite3_bind_text(t->res, 4, x->unit, -1, SQLITE_STATIC);
		sqlite3_bind_text(t->res, 5, model_better(x), -1, SQLITE_STATIC);
		bind_real(t->res, 6, x->value);
		bind_real(t->res, 7, x->median);
		bind_real(t->res, 8, x->min);
		bind_real(t->res, 9, x->max);
		bind_real(t->res, 10, x->ci95_pct);
		sqlite3_bind_int64(t->res, 11, x->samples);
		bind_real(t->res, 12, x->whole);
		if (step_done(db, t->res, err, cap))
			return -1;
	}
	return 0;
}

/* 1 when run id is stored with exactly run's records (every one, in order), 0 when it is
 * not stored, -1 when it is stored with other records or on an error (err). */
static int already(struct sqlite3 *db, struct stmts *t, const struct run *run, const char *id,
		   char *err, size_t cap)
{
	sqlite3_stmt *st = t->find;
	size_t i = 0;
	int rc, same = 1;

	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 0);
		same &= i < run->nrecs && text && !strcmp(text, run->recs[i].r->line);
		i++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return fail(err, cap, "reading", db);
	if (!i)
		return 0;
	if (!same || i != run->nrecs) {
		snprintf(err, cap, "run %s is already stored with other records", id);
		return -1;
	}
	return 1;
}

int store_read_log(const char *path, struct log *log, char *err, size_t cap)
{
	int is_image;
	struct stat st;
	FILE *f = image_fopen(path, &is_image);

	if (!f || fstat(fileno(f), &st) || S_ISDIR(st.st_mode)) {
		snprintf(err, cap, "cannot be read: %s", f ? "a directory" : strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	int rc = log_read(f, log);
	fclose(f);
	if (rc) {
		snprintf(err, cap, "read error");
		return -1;
	}
	if (log_last_complete(log) < 0) {
		const struct run *last = log->nruns ? &log->runs[log->nruns - 1] : NULL;
		snprintf(err, cap, "no complete run (%zu run(s)%s%s)%s", log->nruns,
			 last ? "; last: " : "", last ? last->why : "",
			 log->panic ? "; the kernel panicked" : "");
		return -1;
	}
	return 0;
}

/* The complete runs of log in one transaction; 0, or (err; rolled back) -1 the LOG refused
 * (a run id stored with other records), -2 the store failed (SQLite's error). */
static int add_runs(struct store *s, const struct log *log, const char *path,
		    const char *machine, FILE *msgs, struct store_added *a, char *err,
		    size_t cap)
{
	struct stmts t;
	char now[32], e2[64];
	int rc = 0;

	utc_now(now, sizeof now);
	if (stmts_make(s->db, &t, err, cap))
		return -1;
	if (exec(s->db, "BEGIN IMMEDIATE", err, cap)) {
		stmts_free(&t);
		return -1;
	}
	for (size_t r = 0; !rc && r < log->nruns; r++) {
		const struct run *run = &log->runs[r];
		struct model m;
		if (!run->complete) {
			if (msgs)
				fprintf(msgs, "isobench-report: %s: run %zu of %zu left out: %s\n",
					path, r + 1, log->nruns, run->why);
			a->skipped++;
			continue;
		}
		if (model_build(run, &m)) {
			snprintf(err, cap, "out of memory");
			rc = -1;
			break;
		}
		int there = already(s->db, &t, run, m.run_id, err, cap);
		if (there < 0)
			rc = -1;
		else if (there)
			a->present++;
		else if (!(rc = put_run(s->db, &t, run, &m, machine, path, now, err, cap)))
			a->stored++;
		model_free(&m);
	}
	/* SQLite's own error (full disk, I/O, read-only, busy): the store failed, not the LOG */
	int code = rc ? sqlite3_errcode(s->db) : SQLITE_OK;
	stmts_free(&t);
	if (!rc && exec(s->db, "COMMIT", err, cap))
		rc = -1, code = sqlite3_errcode(s->db);
	if (rc) {
		exec(s->db, "ROLLBACK", e2, sizeof e2);
		a->stored = a->present = 0;
		return code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE ? -1 : -2;
	}
	return 0;
}

int store_add(struct store *s, const char *path, const char *machine, FILE *msgs,
	      struct store_added *a, char *err, size_t cap)
{
	struct log log;
	int rc;

	memset(a, 0, sizeof *a);
	memset(&log, 0, sizeof log);
	rc = store_read_log(path, &log, err, cap);
	if (!rc)
		rc = add_runs(s, &log, path, machine, msgs, a, err, cap);
	log_free(&log);
	return rc;
}

/* ---- selecting ---- */

static const char *const sel_keys[] = {"machine", "hv", "kernel", "image", "run", "since",
				       "last"};

/* 1 when v is a date since= compares as text with the stored ones (run.date:
 * YYYY-MM-DDTHH:MM:SSZ): YYYY-MM-DD, then optionally THH:MM, :SS, and Z; else 0. */
static int since_ok(const char *v)
{
	static const char form[] = "dddd-dd-ddTdd:dd:ddZ";
	static const size_t ends[] = {10, 16, 19, 20};	/* the lengths a date may have */
	size_t len = strlen(v), e = 0;

	while (e < sizeof ends / sizeof ends[0] && ends[e] != len)
		e++;
	if (e == sizeof ends / sizeof ends[0])
		return 0;
	for (size_t i = 0; i < len; i++)
		if (form[i] == 'd' ? !isdigit((unsigned char)v[i]) : v[i] != form[i])
			return 0;
	/* Every 'd' of form is a digit (checked above): each field is its two digits' value. */
#define TWO(at) ((v[at] - '0') * 10 + (v[(at) + 1] - '0'))
	int mon = TWO(5), day = TWO(8);
	if (mon < 1 || mon > 12 || day < 1 || day > 31)
		return 0;
	return len < 16 || (TWO(11) < 24 && TWO(14) < 60 && (len < 19 || TWO(17) < 61));
#undef TWO
}

int store_sel_parse(char *const *words, size_t n, struct store_sel *sel, char *err, size_t cap)
{
	memset(sel, 0, sizeof *sel);
	if (n == 1 && !strcmp(words[0], "all"))
		return 0;
	if (!n) {
		snprintf(err, cap, "a SELECTOR is \"all\" or KEY=VALUE terms");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		char *eq = strchr(words[i], '=');
		size_t k = 0, nk = sizeof sel_keys / sizeof sel_keys[0];
		while (eq && k < nk && (strlen(sel_keys[k]) != (size_t)(eq - words[i]) ||
					strncmp(words[i], sel_keys[k], (size_t)(eq - words[i]))))
			k++;
		if (!eq || k == nk || !eq[1] || sel->n == STORE_MAX_TERMS) {
			snprintf(err, cap, "selector term '%s': want all, or KEY=VALUE with KEY one "
				 "of machine, hv, kernel, image, run, since, last", words[i]);
			return -1;
		}
		if (!strcmp(sel_keys[k], "last")) {
			long long v;
			if (num_ll(eq + 1, 0, 1, LLONG_MAX, &v)) {
				snprintf(err, cap, "selector term '%s': last= wants a count >= 1",
					 words[i]);
				return -1;
			}
			sel->last = v;
			continue;
		}
		if (!strcmp(sel_keys[k], "since") && !since_ok(eq + 1)) {
			snprintf(err, cap, "selector term '%s': since= wants a date, ISO 8601 UTC: "
				 "YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS][Z]", words[i]);
			return -1;
		}
		sel->key[sel->n] = sel_keys[k];
		sel->val[sel->n++] = eq + 1;
	}
	return 0;
}

/* The WHERE condition on run r of sel into buf: "1" when it selects all; last= makes it an
 * id IN (the N latest of those matched). Parameters ?1.. in term order (then last). */
static void sel_where(const struct store_sel *sel, char *buf, size_t cap, const char *r)
{
	char terms[2048] = "1";
	size_t len = 1;

	for (size_t i = 0; i < sel->n; i++) {
		const char *k = sel->key[i], *f;
		char t[200];
		if (!strcmp(k, "image"))
			f = "%1$s.image = ?%2$zu";
		else if (!strcmp(k, "run"))
			f = "substr(%1$s.run_id, 1, length(?%2$zu)) = ?%2$zu";
		else if (!strcmp(k, "since"))
			f = "%1$s.date >= ?%2$zu";
		else if (!strcmp(k, "machine"))
			f = "instr(%1$s.machine, ?%2$zu) > 0";
		else if (!strcmp(k, "hv"))
			f = "instr(%1$s.hv, ?%2$zu) > 0";
		else
			f = "instr(%1$s.kernel, ?%2$zu) > 0";
		snprintf(t, sizeof t, f, sel->last ? "q" : r, i + 1);
		len += (size_t)snprintf(terms + len, sizeof terms - len, " AND %s", t);
		if (len >= sizeof terms)
			len = sizeof terms - 1;
	}
	if (sel->last)
		snprintf(buf, cap, "%s.id IN (SELECT q.id FROM run q WHERE %s ORDER BY q.date DESC, "
			 "q.id DESC LIMIT ?%zu)", r, terms, sel->n + 1);
	else
		snprintf(buf, cap, "%s", terms);
}

/* The store holds only records the reader verified (store_add()): a stored line (its row's
 * text, kind and seq) that no longer parses, or parses as another record than its row says,
 * was changed since. 1 when text is the record of its row (decoded into *pr), else 0. Used
 * where a run is loaded and by verify, so verify finds what loading refuses. */
#define STORED_DAMAGED "its text no longer parses as the record its row says"
static int stored_ok(const char *text, const char *kind, uint64_t seq, struct record *pr)
{
	return text && kind && rec_parse(text, strlen(text), pr) == REC_OK && pr->seq == seq &&
	       !strcmp(pr->kind, kind);
}

/* Binds sel's values to ?1.. (and last= after them); returns the next parameter number. */
static int sel_bind(sqlite3_stmt *st, const struct store_sel *sel)
{
	int i = 1;
	for (size_t k = 0; k < sel->n; k++, i++)
		sqlite3_bind_text(st, i, sel->val[k], -1, SQLITE_STATIC);
	if (sel->last)
		sqlite3_bind_int64(st, i++, sel->last);
	return i;
}

static char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return strdup(t ? (const char *)t : "-");
}

int store_select(struct store *s, const struct store_sel *sel, struct store_run **runs,
		 size_t *n, char *err, size_t cap)
{
	char where[3000], sql[4000];
	sqlite3_stmt *st;
	size_t cnt = 0, alloc = 0;
	struct store_run *v = NULL;
	int rc;

	*runs = NULL;
	*n = 0;
	sel_where(sel, where, sizeof where, "run");
	snprintf(sql, sizeof sql, "SELECT id, run_id, machine, hv, image, kernel, arch, date, "
		 "source, version, results, fails, skips, errors FROM run WHERE %s "
		 "ORDER BY date, id", where);
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(err, cap, "selecting", s->db);
	sel_bind(st, sel);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == alloc) {
			struct store_run *nv = realloc(v, (alloc = alloc ? 2 * alloc : 64) * sizeof *v);
			if (!nv)
				break;
			v = nv;
		}
		struct store_run *r = &v[cnt++];
		r->id = sqlite3_column_int64(st, 0);
		r->run_id = col(st, 1);
		r->machine = col(st, 2);
		r->hv = col(st, 3);
		r->image = col(st, 4);
		r->kernel = col(st, 5);
		r->arch = col(st, 6);
		r->date = col(st, 7);
		r->source = col(st, 8);
		r->version = col(st, 9);
		r->results = sqlite3_column_int64(st, 10);
		r->fails = sqlite3_column_int64(st, 11);
		r->skips = sqlite3_column_int64(st, 12);
		r->errors = sqlite3_column_int64(st, 13);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_runs_free(v, cnt);
		return fail(err, cap, "selecting", rc == SQLITE_ROW ? NULL : s->db);
	}
	*runs = v;
	*n = cnt;
	return 0;
}

void store_runs_free(struct store_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct store_run *r = &runs[i];
		char *p[] = {r->run_id, r->machine, r->hv, r->image, r->kernel, r->arch, r->date,
			     r->source, r->version};
		for (size_t k = 0; k < sizeof p / sizeof p[0]; k++)
			free(p[k]);
	}
	free(runs);
}

int store_load(struct store *s, long long id, struct run *run, char *err, size_t cap)
{
	sqlite3_stmt *st;
	int rc;

	memset(run, 0, sizeof *run);
	if (sqlite3_prepare_v2(s->db, "SELECT results, fails, skips, errors, powered_off, "
			       "from_digest FROM run WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
		return fail(err, cap, "loading", s->db);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		snprintf(err, cap, "no stored run %lld", id);
		return -1;
	}
	run->results = (uint64_t)sqlite3_column_int64(st, 0);
	run->fails = (uint64_t)sqlite3_column_int64(st, 1);
	run->skips = (uint64_t)sqlite3_column_int64(st, 2);
	run->errors = (uint64_t)sqlite3_column_int64(st, 3);
	run->powered_off = sqlite3_column_int(st, 4);
	run->from_digest = sqlite3_column_int(st, 5);
	sqlite3_finalize(st);
	run->complete = run->has_end = 1;
	run->copies = 1;
	if (sqlite3_prepare_v2(s->db, "SELECT seq, line, kind, text FROM record WHERE run = ?1 "
			       "ORDER BY seq", -1, &st, NULL) != SQLITE_OK)
		return fail(err, cap, "loading", s->db);
	sqlite3_bind_int64(st, 1, id);
	struct record *pr = malloc(sizeof *pr);	/* each stored line decoded once, here */
	char bad[160] = "";
	rc = SQLITE_ROW;	/* no room for pr: "loading" fails as out of memory */
	while (pr && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 3);
		const char *kind = (const char *)sqlite3_column_text(st, 2);
		uint64_t seq = (uint64_t)sqlite3_column_int64(st, 0);
		size_t line = (size_t)sqlite3_column_int64(st, 1);
		if (!stored_ok(text, kind, seq, pr)) {
			snprintf(bad, sizeof bad, "stored run %lld: record seq %llu is damaged (%s)",
				 id, (unsigned long long)seq, STORED_DAMAGED);
			break;
		}
		if (log_add(run, line, pr, text, strlen(text)))
			break;
		if (run->nrecs == 1)
			run->first_line = line;
	}
	free(pr);
	if (bad[0]) {
		sqlite3_finalize(st);
		log_run_free(run);
		snprintf(err, cap, "%s", bad);
		return -1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		log_run_free(run);
		return fail(err, cap, "loading", rc == SQLITE_ROW ? NULL : s->db);
	}
	return 0;
}

int store_trend(struct store *s, const struct store_sel *sel, const char *test,
		const char *machine, struct store_point **pts, size_t *n, char *err, size_t cap)
{
	char where[3000], sql[4500];
	sqlite3_stmt *st;
	size_t cnt = 0, alloc = 0;
	struct store_point *v = NULL;
	int rc, p;

	*pts = NULL;
	*n = 0;
	sel_where(sel, where, sizeof where, "r");
	snprintf(sql, sizeof sql, "SELECT r.id, r.run_id, r.date, r.machine, x.test, x.copies, "
		 "x.unit, x.better, coalesce(x.whole, x.value) FROM result x JOIN run r "
		 "ON r.id = x.run WHERE %s "
		 "AND x.value IS NOT NULL AND (?%d IS NULL OR x.test = ?%d) "
		 "AND (?%d IS NULL OR instr(r.machine, ?%d) > 0) "
		 "ORDER BY x.test, x.copies, r.machine, r.date, r.id", where,
		 (int)sel->n + 2, (int)sel->n + 2, (int)sel->n + 3, (int)sel->n + 3);
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail(err, cap, "selecting", s->db);
	p = sel_bind(st, sel);
	if (!sel->last)	/* keep the parameter numbers of the last= form */
		sqlite3_bind_null(st, p++);
	if (test)
		sqlite3_bind_text(st, p, test, -1, SQLITE_STATIC);
	if (machine)
		sqlite3_bind_text(st, p + 1, machine, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == alloc) {
			struct store_point *nv = realloc(v, (alloc = alloc ? 2 * alloc : 256) *
							 sizeof *v);
			if (!nv)
				break;
			v = nv;
		}
		struct store_point *q = &v[cnt++];
		q->id = sqlite3_column_int64(st, 0);
		q->run_id = col(st, 1);
		q->date = col(st, 2);
		q->machine = col(st, 3);
		q->test = col(st, 4);
		q->copies = sqlite3_column_int(st, 5);
		q->unit = col(st, 6);
		const char *b = (const char *)sqlite3_column_text(st, 7);
		q->higher = b && !strcmp(b, "higher") ? 1 : b && !strcmp(b, "lower") ? 0 : -1;
		q->value = sqlite3_column_double(st, 8);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_points_free(v, cnt);
		return fail(err, cap, "selecting", rc == SQLITE_ROW ? NULL : s->db);
	}
	*pts = v;
	*n = cnt;
	return 0;
}

void store_points_free(struct store_point *pts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(pts[i].run_id);
		free(pts[i].date);
		free(pts[i].machine);
		free(pts[i].test);
		free(pts[i].unit);
	}
	free(pts);
}

long store_verify(struct store *s, FILE *out, char *err, size_t cap)
{
	static const char *const check[] = {
		"SELECT 'integrity: ' || integrity_check FROM pragma_integrity_check "
		"WHERE integrity_check != 'ok'",
		"SELECT 'run ' || run_id || ': ' || (SELECT count(*) FROM record WHERE run = run.id) "
		"|| ' records stored, ' || nrecs || ' read' FROM run "
		"WHERE nrecs != (SELECT count(*) FROM record WHERE run = run.id)",
		"SELECT 'run ' || run_id || ': ' || (SELECT count(*) FROM result WHERE run = run.id) "
		"|| ' results stored, ' || (SELECT count(*) FROM record WHERE run = run.id AND "
		"kind = 'RESULT') || ' RESULT records' FROM run WHERE (SELECT count(*) FROM result "
		"WHERE run = run.id) != (SELECT count(*) FROM record WHERE run = run.id AND "
		"kind = 'RESULT')",
		"SELECT 'run ' || run_id || ': ' || (SELECT count(*) FROM sample WHERE run = run.id) "
		"|| ' samples stored, ' || (SELECT count(*) FROM record WHERE run = run.id AND "
		"kind = 'SAMPLE') || ' SAMPLE records' FROM run WHERE (SELECT count(*) FROM sample "
		"WHERE run = run.id) != (SELECT count(*) FROM record WHERE run = run.id AND "
		"kind = 'SAMPLE')",
		"SELECT 'orphan rows: ' || count(*) FROM (SELECT run FROM record UNION ALL SELECT run "
		"FROM result UNION ALL SELECT run FROM sample UNION ALL SELECT run FROM info) "
		"WHERE run NOT IN (SELECT id FROM run) HAVING count(*) > 0",
	};
	long bad = 0;
	sqlite3_stmt *st;
	struct record *pr = malloc(sizeof *pr);
	int rc;

	if (!pr) {
		snprintf(err, cap, "checking: out of memory");
		return -1;
	}
	if (sqlite3_prepare_v2(s->db, "SELECT r.run_id, x.seq, x.kind, x.text FROM record x "
			       "JOIN run r ON r.id = x.run ORDER BY x.run, x.seq", -1, &st,
			       NULL) != SQLITE_OK) {
		free(pr);
		return fail(err, cap, "checking", s->db);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)	/* every record as loading reads it */
		if (!stored_ok((const char *)sqlite3_column_text(st, 3),
			       (const char *)sqlite3_column_text(st, 2),
			       (uint64_t)sqlite3_column_int64(st, 1), pr)) {
			fprintf(out, "run %s: record seq %llu is damaged (%s)\n",
				(const char *)sqlite3_column_text(st, 0),
				(unsigned long long)sqlite3_column_int64(st, 1), STORED_DAMAGED);
			bad++;
		}
	sqlite3_finalize(st);
	free(pr);
	if (rc != SQLITE_DONE)
		return fail(err, cap, "checking", s->db);
	for (size_t i = 0; i < sizeof check / sizeof check[0]; i++) {
		if (sqlite3_prepare_v2(s->db, check[i], -1, &st, NULL) != SQLITE_OK)
			return fail(err, cap, "checking", s->db);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			fprintf(out, "%s\n", (const char *)sqlite3_column_text(st, 0));
			bad++;
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return fail(err, cap, "checking", s->db);
	}
	return bad;
}
