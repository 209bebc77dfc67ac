/* csv.h — every record and derived figure as one long CSV table (RFC 4180: comma separated,
 * CRLF line ends, fields quoted when they hold a comma, quote, CR or LF; quotes doubled).
 * Columns (always 12): source,label,run_id,section,line,seq,kind,test,copies,key,value,unit
 *   section "record":  one row per field of every record of the chosen run(s)
 *   section "derived": value, median, min, max, ci95_pct, median_ci95_lo/hi, baseline, index,
 *                      effective_mhz and mhz_method (cpuclk.h) per test; score per pass;
 *                      ratio and noise mark per compared cell, each side's
 *                      effective_mhz_side and mhz_method_side per compared row
 *                      (converged 1/0 when the RESULT said)
 *   section "damage":  one row per damaged line of the log (key "damaged", value the why)
 *   section "note":    comparing: key "tcg" on a QEMU/TCG run's label (emulation, not a
 *                      hypervisor cost); on run 1's label key "note" (differences by design)
 *                      and "warning" (comparability warnings), value the text
 * Returns 0, or -1 when the write fails. */
#ifndef ISOBENCH_CSV_H
#define ISOBENCH_CSV_H

#include "compare.h"
#include <stdio.h>

#define CSV_COLUMNS 12

/* Write one field, quoted if it needs to be (RFC 4180). */
void csv_field(FILE *out, const char *s);
int csv_report(FILE *out, const struct report_in *in, size_t n, const struct cmp *c);

#endif
