/* out.h — where records and human text go.
 *
 * Each record is sealed with the next sequence number (a counter in shared memory, so the
 * watchdog process continues the same sequence) and written with one write(2).
 *
 * Two ways out:
 * - direct fds (out_add_fd, the host CLI's stdout): written synchronously, as before;
 * - consoles (PID 1 in the image, out_stream_init + out_console_add + out_consoles_start):
 *   every record and every line of text is appended to one in-memory stream (a memfd), and
 *   one pump process per console copies the stream to its device. The process that writes a
 *   record never waits for a console: a slow or stalled UART delays only its own pump, is
 *   never charged to a test's timeout, and never blocks the watchdog or the power-off.
 *   While a sample is measured (out_quiet(1)) pumps start no write. out_drain() waits,
 *   bounded, until every live console has sent (and the UART transmitted) the whole stream.
 */
#ifndef ISOBENCH_OUT_H
#define ISOBENCH_OUT_H

#include "params.h"
#include "record.h"

struct out_counts {
	uint64_t records, results, fails, skips, errors;
};

int out_init(void);		/* 0, or -errno if the shared counter cannot be mapped */
/* A next run in the same stream (out/isobench --repeat, --ab): its records count from 1
 * again (each BEGIN starts at sequence 1) and its END counts only its own. */
void out_new_run(void);
void out_add_fd(int fd);
/* An fd that receives human text (progress, tables, warnings) but no records. */
void out_add_text_fd(int fd);
uint64_t out_record(struct rec_body *b);	/* returns the sequence number used */
void out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const struct out_counts *out_counts(void);
/* The END record (docs/records.md): the counts of every record sealed before it, status
 * (REC_STATUS_OK, or REC_STATUS_FATAL for PID 1's setup failure) and, when not NULL, the
 * clocksource at the end; right before it, the run's digest (digest.h: the DIGEST records,
 * counted by END too). The one writer of END; returns its sequence number. */
uint64_t out_end(const char *status, const char *clocksource);
/* The BEGIN record (docs/records.md): run (the run's id), this build's version, mode (a
 * REC_MODE_ word). The one writer of BEGIN; returns its sequence number. */
uint64_t out_begin(const char *run, const char *mode);
/* What this process and those it forked (the watchdog) wrote, known when written, never read
 * back from the stream: the run id of the stream's first BEGIN ("" before one); the counts
 * of its latest END (NULL before one). */
const char *out_first_run(void);
const struct out_counts *out_last_end(void);
/* The same notes for records another program wrote and this process relays as text (PID 1's
 * peer program, pid1/peer.c): a BEGIN's run id (kept when it is the stream's first) and an
 * END's counts (the latest). out_begin() and out_end() note their own with them. */
void out_note_begin(const char *run);
void out_note_end(const struct out_counts *c);

/* ---- consoles (PID 1) ---- */
#define OUT_MAX_CONSOLES PARAM_MAX_CONSOLES	/* every console isobench.console= may name */

/* Start keeping the stream (a memfd). 0 or -errno; without it output goes to direct fds. */
int out_stream_init(void);
/* Devices looked for and not found (comma list), for the log's console.absent. */
extern char out_console_absent[128];
/* Register a console: name (e.g. "ttyS1"), an open fd for writing. -1 when full. */
int out_console_add(const char *name, int fd);
/* Fork one pump per registered console; returns how many started. */
int out_consoles_start(void);
/* 1: a sample is being measured — pumps start no write; out_quiet(1) waits (at most
 * ~200 ms) for a chunk in flight to finish. 0: pumps may write again. Any process. */
void out_quiet(int on);
/* Wait until every live console has sent the whole stream so far, at most max_ms; a
 * console whose current write has not finished within stall_ms is given up on (stalled).
 * Returns the number of consoles that did not catch up. */
int out_drain(int max_ms, int stall_ms);
/* One INFO record: bytes sent, milliseconds spent writing (write + drain) and state of
 * each console. Call before END. */
void out_console_info(void);
/* Append the stream's record lines again (isobench.replay=1), from its first BEGIN on (where
 * out_begin() wrote it): after END, for late capture. */
void out_replay(void);
/* The stream so far (for the results file): copies up to cap bytes into buf; returns the
 * stream's length (may exceed cap), or -1 without a stream. */
long out_stream_read(char *buf, size_t cap, size_t off);
/* Where the current run's BEGIN starts in the stream (bytes; 0 before one): the run's whole
 * log is the stream from there (out_stream_read()). */
size_t out_run_offset(void);
/* Emergency path (PID 1 before consoles exist): write the stream to fd, bounded by alarm. */
void out_stream_flush_to(int fd, unsigned seconds);

#endif
