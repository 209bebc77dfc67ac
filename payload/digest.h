/* digest.h — the run's digest (docs/records.md "The digest"): what a reader needs to report a
 * run — BEGIN, the header facts that identify the run and the machine, each test's TEST facts
 * with its passes' RESULT figures, every SKIP, FAIL, WARN and ERROR — restated compactly in
 * DIGEST records just before END, so that the last 64 KiB of a console (AWS
 * `get-console-output --latest` returns no more: ../shared/DESIGN.md §8) hold a checkable run
 * even when the SAMPLEs before them are lost.
 *
 * In: every record body out_record() seals, in order (digest_note()). Out: digest_write()
 * writes the DIGEST records through the sealer it is given (out.c gives out_record(): the
 * digest calls out.c back, never includes it), the last (part=end) with the number of
 * digest lines before it and the CRC-32 of those lines as sealed. Memory grows with the run
 * (a few hundred bytes a test); when it cannot grow, or a test has more passes than
 * PARAM_MAX_COPIES, no digest is written at all: a reader then finds none, never a partial
 * one. Called only by out.c, in the process that writes END. */
#ifndef ISOBENCH_DIGEST_H
#define ISOBENCH_DIGEST_H

#include "record.h"

/* Forget the run noted so far (a next run in the same stream: out_new_run()). */
void digest_reset(void);
/* Note one sealed record body (b as out_record() sealed it). DIGEST and END are ignored. */
void digest_note(const struct rec_body *b);
/* Seals and writes one record body; returns its sequence number, 0 when it was not written
 * (out_record()'s contract). */
typedef uint64_t digest_seal_fn(struct rec_body *b);
/* Write the digest of the run noted since BEGIN (nothing without a BEGIN) through seal, each
 * record in turn. Call before END. */
void digest_write(digest_seal_fn *seal);

#endif
