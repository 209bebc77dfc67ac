/* num.c — see num.h. */
#include "num.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stddef.h>

/* The magnitude of s (after the white space and the sign num.h allows) into *mag, *neg set
 * for a '-' (neg NULL: no '-'); 0, or -EINVAL (no digits, trailing text, past ULLONG_MAX). */
static int magnitude(const char *s, int flags, int *neg, unsigned long long *mag)
{
	unsigned long long v = 0;

	if (flags & NUM_SPACE)
		while (isspace((unsigned char)*s))
			s++;
	if (neg)
		*neg = 0;
	if (*s == '-' && neg)
		*neg = 1, s++;
	else if (*s == '+' && (flags & NUM_PLUS))
		s++;
	if (flags & NUM_XDIGITS) {
		if (!isxdigit((unsigned char)*s))
			return -EINVAL;
		for (; isxdigit((unsigned char)*s); s++) {
			unsigned d = (unsigned)(*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10);
			if (v > (ULLONG_MAX - d) / 16)
				return -EINVAL;
			v = v * 16 + d;
		}
		if (*s)
			return -EINVAL;
		*mag = v;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -EINVAL;
	if ((flags & NUM_HEX) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!isxdigit((unsigned char)s[2]))
			return -EINVAL;
		for (s += 2; isxdigit((unsigned char)*s); s++) {
			unsigned d = (unsigned)(*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10);
			if (v > (ULLONG_MAX - d) / 16)
				return -EINVAL;
			v = v * 16 + d;
		}
	}
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (ULLONG_MAX - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	if (*s)
		return -EINVAL;
	*mag = v;
	return 0;
}

int num_ll(const char *s, int flags, long long lo, long long hi, long long *out)
{
	unsigned long long m;
	int neg, r = magnitude(s, flags, &neg, &m);
	long long v;

	if (r)
		return r;
	if (neg && m > (unsigned long long)LLONG_MAX + 1)
		return -EINVAL;
	if (!neg && m > (unsigned long long)LLONG_MAX)
		return -EINVAL;
	v = !neg ? (long long)m : m > (unsigned long long)LLONG_MAX ? LLONG_MIN : -(long long)m;
	if (v < lo || v > hi)
		return -ERANGE;
	*out = v;
	return 0;
}

int num_ull(const char *s, int flags, unsigned long long lo, unsigned long long hi,
	    unsigned long long *out)
{
	unsigned long long v;
	int r = magnitude(s, flags, NULL, &v);

	if (r)
		return r;
	if (v < lo || v > hi)
		return -ERANGE;
	*out = v;
	return 0;
}

/* Digits at *s: how many (the pointer moved past them). */
static size_t digits(const char **s)
{
	const char *p = *s;

	while (**s >= '0' && **s <= '9')
		(*s)++;
	return (size_t)(*s - p);
}

int num_dbl(const char *s, double *out)
{
	const char *p = s;
	double v;

	if (*p == '-')
		p++;
	if (!digits(&p))
		return -EINVAL;
	if (*p == '.' && (p++, !digits(&p)))
		return -EINVAL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		if (!digits(&p))
			return -EINVAL;
	}
	if (*p)
		return -EINVAL;
	v = strtod(s, NULL);
	if (!isfinite(v))
		return -ERANGE;
	*out = v == 0 ? 0 : v;	/* "-0" (or an underflow below it) is zero, never -0 */
	return 0;
}

double num_dbl_or_nan(const char *s)
{
	double v;

	return s && !num_dbl(s, &v) ? v : NAN;
}
