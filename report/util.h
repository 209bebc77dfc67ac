/* util.h — the report's bottom layer: small helpers every other layer may use and that use
 * nothing of the report (only the C library): the performance ratio, numbers written exactly,
 * a median, qsort comparators, and text made safe for a terminal or for XML/HTML.
 * Layers of report/: report/Makefile's LAYER_* lists (tests/test-layers.sh checks them). */
#ifndef ISOBENCH_UTIL_H
#define ISOBENCH_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* Performance ratio of b to a: b/a when higher (1) is better, a/b when lower (0) is, so < 1
 * always means "b is worse than a"; NAN when either is not finite and positive or the
 * direction is unknown (-1). No unit (a and b in one unit). */
double perf_ratio(double a, double b, int higher);

/* The shortest decimal form of v that reads back as exactly v (up to %.17g) into buf (cap
 * bytes); returns buf. */
const char *num_exact(char *buf, size_t cap, double v);

/* Median of v (n values, v unchanged; the mean of the middle two when n is even); NAN when
 * n is 0 or out of memory. */
double median_of(const double *v, size_t n);

/* qsort comparators: doubles ascending (no NAN), strings (char *) in strcmp order. */
int qsort_cmp_dbl(const void *a, const void *b);
int qsort_cmp_str(const void *a, const void *b);

/* Copy s into buf (cap bytes) with every byte that is not printable ASCII (a control byte,
 * below 0x20 or 0x7f, every byte above 0x7e, and the backslash) as \xNN (hex), cut to fit;
 * NULL is "".
 * Returns buf ("" when cap is 0). The text report's one rule, so a log cannot drive the
 * terminal and the text stays plain ASCII, while two labels stay two: "α" and "β" are
 * "\xce\xb1" and "\xce\xb2", not both "??", and "a<TAB>b" is "a\x09b", not "a?b" beside a
 * real "a?b". */
const char *text_safe(const char *s, char *buf, size_t cap);

/* A fresh copy of s (NULL: out of memory) with ASCII and every well-formed UTF-8 character
 * as they are and every other byte above 0x7f, and the backslash, as \xNN: a valid UTF-8
 * string (the JSON's) in
 * which two byte strings that differ stay different. */
char *utf8_hex(const char *s);

/* s as XML (and HTML) text on out: & < > " ' escaped, a well-formed UTF-8 character beyond
 * ASCII written as it is (the pages and charts are UTF-8), every other byte above 0x7e as
 * \xNN (as text_safe() writes it, so two labels of invalid UTF-8 stay two), a control byte
 * as \xNN too, at most max characters of s; NULL writes nothing. */
void xml_esc(FILE *out, const char *s, size_t max);

#endif
