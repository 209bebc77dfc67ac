/* digest.h — a run's digest read back (docs/records.md "The digest"; payload/digest.c writes
 * it): the DIGEST records just before END, which restate BEGIN, the header facts, each test's
 * TEST facts and RESULT figures and every SKIP, FAIL, WARN and ERROR, closed by a part=end line
 * with their count and CRC-32.
 *
 * digest_expand() checks the digest of run i of log — it begins with part=begin, its sequence
 * numbers have no gap, no damaged line lies inside it, part=end's count and CRC-32 match the
 * lines before it, END follows it at once, every list has one entry per pass — and expands it
 * into the run it restates (out): BEGIN, INFO, per pass each test's TEST and RESULT (and its
 * SKIP, FAIL, WARN), END with the counts of the END read, sequence numbers 1.. in that order,
 * line numbers those of the digest lines they come from. The caller judges out as any run
 * (END's counts against what the digest holds, the fields' types): a digest is believed only
 * when whole and consistent. What the digest leaves out (SAMPLEs, RESULT min and max, INFO
 * facts beyond its list) is not in out.
 * Returns 1 with out filled (the caller frees it, log_run_free()), 0 when the run holds no
 * DIGEST record, -1 with why (cap bytes, "the digest is cut: ..." / "the digest is damaged:
 * ...") when it holds one that cannot be believed, -2 when out of memory. */
#ifndef ISOBENCH_DIGEST_H
#define ISOBENCH_DIGEST_H

#include "log.h"

int digest_expand(const struct log *log, size_t i, struct run *out, char *why, size_t cap);
/* A whole run and what its digest restates (x, from digest_expand()): every RESULT, SKIP and
 * FAIL of x is one of whole's (same test and copies), each field it has as whole's says
 * (of a RESULT its figures, cycles_x100 aside: whole has that in its SAMPLEs; its unit,
 * better and baseline come from the TEST facts). 0 when so; -1 with why ("the
 * digest is damaged: line N says ..."); -2 when out of memory. */
int digest_agrees(const struct run *whole, const struct run *x, char *why, size_t cap);
/* A run whose head was cut (part) and what its digest restates (x): every RESULT, SKIP and
 * FAIL part holds has its restatement in x (same kind, test and copies, every figure x says
 * as part says), so that reading the run from its digest drops none of the log's outcomes
 * (it drops the SAMPLEs, which the digest leaves out). 0 when so; -1 with why ("the digest
 * is not this log's: ..."); -2 when out of memory. */
int digest_restates(const struct run *part, const struct run *x, char *why, size_t cap);

#endif
