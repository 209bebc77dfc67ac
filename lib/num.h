/* num.h — the one strict number parser of the runner, isobench-proc, the vocabulary's value
 * check and the report's command line: every text that becomes a number in payload/ and lib/
 * goes through it (tests/test-house.sh refuses a strtol/atoi elsewhere). A number is, in order:
 * optional leading white space (isspace(3), only with NUM_SPACE), an optional sign ('+' only
 * with NUM_PLUS; '-' only in num_ll), then one or more digits 0-9, then the end of the
 * string; with NUM_HEX also "0x" or "0X" and one or more hex digits (dbench's loadfiles); with
 * NUM_XDIGITS one or more hex digits alone, base 16 (and no "0x").
 * Never octal ("010" is ten), never trailing text, never a value past the
 * type (no wrap-around, no clamping). The flags are the differences between the callers,
 * each kept as it was when they had a copy each.
 * Returns 0 and *out set; -EINVAL when s is not such a number (or it overflows the type);
 * -ERANGE when it is one but outside [lo, hi]. *out is untouched on an error. */
#ifndef ISOBENCH_NUM_H
#define ISOBENCH_NUM_H

#define NUM_SPACE 1	/* leading white space is skipped, as strtol(3) does */
#define NUM_PLUS 2	/* a leading '+' is allowed */
#define NUM_HEX 4	/* "0x1f" is read in base 16 */
#define NUM_XDIGITS 8	/* the digits are hex without "0x" ("0001F", procfs's /proc/net/route, a
			 * PCI address's parts); either case, still nothing else after them */

int num_ll(const char *s, int flags, long long lo, long long hi, long long *out);
int num_ull(const char *s, int flags, unsigned long long lo, unsigned long long hi,
	    unsigned long long *out);

/* The one strict decimal number parser (a record's VT_DEC/VT_POS/VT_NONNEG value, a figure
 * given on a command line): an optional '-', one or more digits, optionally '.' and one or
 * more digits, optionally 'e' or 'E', an optional sign and one or more digits; nothing
 * before or after (no blank, no '+', no hex, no "inf" or "nan": strtod(3) takes all of
 * those). The value is strtod's (correctly rounded), but zero for "-0" (never a negative zero,
 * which prints as "-0"); one past the double's range is -ERANGE.
 * Returns 0 and *out set; -EINVAL when s is not such a number; *out untouched on an error. */
int num_dbl(const char *s, double *out);
/* num_dbl() of s as a value: NAN when s is NULL or not such a number (a figure a reader shows
 * as unknown, never as the number its text begins with). */
double num_dbl_or_nan(const char *s);

#endif
