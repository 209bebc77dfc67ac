/* util.c — see util.h. */
#include "util.h"

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
		if (!isfinite(v) || strtod(buf, NULL) == v)
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

/* The printable ASCII that every output passes through as is. */
static int printable(char c)
{
	return c >= 0x20 && c <= 0x7e;
}

const char *text_safe(const char *s, char *buf, size_t cap)
{
	size_t n = 0;

	if (!cap)
		return "";
	for (; s && *s && n + 1 < cap; s++)
		buf[n++] = printable(*s) ? *s : '?';
	buf[n] = 0;
	return buf;
}

void xml_esc(FILE *out, const char *s, size_t max)
{
	for (size_t n = 0; s && *s && n < max; s++, n++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(printable(*s) ? *s : '?', out);
		}
	}
}
