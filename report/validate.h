/* validate.h — what a sealed record may say: the reader's check of a run's content.
 *
 * The checksum proves a line arrived as written, not that its writer wrote sense. A run
 * is valid when every field a record's kind has (lib/vocab.h's table) is of its type and
 * range (positive where a rate or time must be, lists one entry per copy), a kind's ONE
 * fields appear exactly once, and every RESULT agrees with the SAMPLEs it aggregates: its
 * samples, median, min, max, value and ci95_pct recomputed from them with lib/stats.c (the
 * runner's own aggregation) match to the printed precision, index is value/baseline x 10,
 * and converged=1 exactly when ci95_pct is within the run's target. END's counts are logread.c's check. Fields the table lacks (another build's) are
 * ignored, and a REQ field may be missing (older writers of version 1 wrote fewer), as a
 * reader of the grammar does (docs/records.md); a RESULT whose inputs are missing is not
 * recomputed.
 *
 * In: a run as log_read() built it. Out: 0 when valid; -1 with why = "line N: <kind>
 * <field>: <what was found>, expected <what the grammar allows>" for the first violation. */
#ifndef ISOBENCH_VALIDATE_H
#define ISOBENCH_VALIDATE_H

#include <stddef.h>

struct run;

int validate_run(const struct run *run, char *why, size_t cap);

#endif
