/* util.c — see util.h. */
#include "util.h"
#include "num.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double perf_ratio(double a, double b, int higher)
{
	if (!(a > 0) || !(b > 0) || !isfinite(a) || !isfinite(b) || higher < 0)
		return NAN;
	return higher ? b / a : a / b;
}

const char *num_exact(char *buf, size_t cap, double v)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, cap, "%.*g", prec, v);
		double back;	/* num_dbl(): strtod's value, the inverse of "%.*g" */
		if (!isfinite(v) || (!num_dbl(buf, &back) && back == v))
			break;
	}
	return buf;
}

int qsort_cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int qsort_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

double median_of(const double *v, size_t n)
{
	double *s = n ? malloc(n * sizeof *s) : NULL;
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof *s);
	qsort(s, n, sizeof *s, qsort_cmp_dbl);
	double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* The printable ASCII that every output passes through as is: all of it but the backslash,
 * which is written as \x5c like any byte shown as \xNN, so that a label holding the four
 * characters "\x09" never prints as one holding a tab. */
static int printable(char c)
{
	return c >= 0x20 && c <= 0x7e && c != '\\';
}

/* The one form of a byte the outputs cannot show as it is (a control byte, below 0x20 or
 * 0x7f, in the text and the markup; above 0x7e in the text; a byte that starts no UTF-8
 * character in the JSON, XML and HTML): "\xNN", BYTE_HEX_LEN characters.
 * Written with its NUL into out (BYTE_HEX_LEN + 1 bytes); returns BYTE_HEX_LEN. */
#define BYTE_HEX_LEN 4
static size_t byte_hex(char *out, unsigned char b)
{
	snprintf(out, BYTE_HEX_LEN + 1, "\\x%02x", b);
	return BYTE_HEX_LEN;
}

/* The length of the well-formed UTF-8 sequence of 2 to 4 bytes s starts with (no overlong
 * form, no surrogate, nothing above U+10FFFF), else 0 (ASCII, or a byte that starts none). */
static size_t utf8_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = u[0] >= 0xc2 && u[0] <= 0xdf ? 2 : u[0] >= 0xe0 && u[0] <= 0xef ? 3
		 : u[0] >= 0xf0 && u[0] <= 0xf4 ? 4 : 0;
	for (size_t i = 1; i < n; i++)
		if ((u[i] & 0xc0) != 0x80)
			return 0;
	if ((n == 3 && u[0] == 0xe0 && u[1] < 0xa0) || (n == 3 && u[0] == 0xed && u[1] >= 0xa0) ||
	    (n == 4 && u[0] == 0xf0 && u[1] < 0x90) || (n == 4 && u[0] == 0xf4 && u[1] >= 0x90))
		return 0;
	return n;
}

const char *text_safe(const char *s, char *buf, size_t cap)
{
	size_t n = 0;

	if (!cap)
		return "";
	for (; s && *s && n + 1 < cap; s++) {
		if (printable(*s))
			buf[n++] = *s;
		else if (n + BYTE_HEX_LEN + 1 <= cap)	/* \xNN, whole or not at all */
			n += byte_hex(buf + n, (unsigned char)*s);
		else
			break;
	}
	buf[n] = 0;
	return buf;
}

char *utf8_hex(const char *s)
{
	size_t n = 0;
	char *c = malloc(BYTE_HEX_LEN * strlen(s) + 1);	/* each byte at most \xNN */

	for (size_t u; c && *s; s++) {
		if ((u = utf8_len(s))) {
			memcpy(c + n, s, u);
			n += u;
			s += u - 1;
		} else if ((unsigned char)*s >= 0x80 || *s == '\\')	/* printable()'s backslash */
			n += byte_hex(c + n, (unsigned char)*s);
		else
			c[n++] = *s;
	}
	if (c)
		c[n] = 0;
	return c;
}

void xml_esc(FILE *out, const char *s, size_t max)
{
	for (size_t n = 0, u; s && *s && n < max; s++, n++) {
		if ((u = utf8_len(s))) {	/* a character beyond ASCII, as it is */
			fwrite(s, 1, u, out);
			s += u - 1;
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:	/* a control byte or one that starts no UTF-8 character: \xNN,
				 * as the text's */
			if (!printable(*s)) {
				char h[BYTE_HEX_LEN + 1];
				fwrite(h, 1, byte_hex(h, (unsigned char)*s), out);
			} else
				fputc(*s, out);
		}
	}
}
