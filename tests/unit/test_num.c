/* test_num.c — lib/num.h's strict parsers: the values they return, the forms each flag lets
 * through and the ones nothing lets through (the strictness each former copy had); NUM_HEX's
 * "0x" form, NUM_XDIGITS's bare hex and num_dbl's decimals. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "num.h"

/* num_ll(s, flags) over the whole long long range: the value, or the error. */
static long long ll(const char *s, int flags, int *err)
{
	long long v = 12345;
	*err = num_ll(s, flags, LLONG_MIN, LLONG_MAX, &v);
	return *err ? 12345 : v;
}

static void values(void **st)
{
	int e;
	(void)st;
	assert_int_equal(ll("0", 0, &e), 0);
	assert_int_equal(e, 0);
	assert_int_equal(ll("42", 0, &e), 42);
	assert_int_equal(ll("-42", 0, &e), -42);
	assert_int_equal(ll("-0", 0, &e), 0);
	assert_int_equal(e, 0);
	assert_int_equal(ll("010", 0, &e), 10);		/* decimal, never octal */
	assert_true(ll("9223372036854775807", 0, &e) == LLONG_MAX);
	assert_int_equal(e, 0);
	assert_true(ll("-9223372036854775808", 0, &e) == LLONG_MIN);
	assert_int_equal(e, 0);
	unsigned long long u = 0;
	assert_int_equal(num_ull("18446744073709551615", 0, 0, ULLONG_MAX, &u), 0);
	assert_true(u == ULLONG_MAX);
	assert_int_equal(num_ull("7117", 0, 0, ULLONG_MAX, &u), 0);
	assert_int_equal(u, 7117);
}

/* What no flag lets through: no digits, trailing text, hex, a second sign, overflow. */
static void refused(void **st)
{
	static const char *const bad[] = {
		"", "-", "+", " ", "x", "5x", "5 ", "0x10", "1e3", "2.5", "--5", "-+5", "+-5",
		"- 5", "9223372036854775808", "-9223372036854775809",
		"99999999999999999999999999", NULL,
	};
	int e;
	(void)st;
	for (int i = 0; bad[i]; i++) {
		ll(bad[i], NUM_SPACE | NUM_PLUS, &e);
		if (e != -EINVAL)
			fail_msg("'%s' gave %d, not -EINVAL", bad[i], e);
	}
	unsigned long long u = 3;
	assert_int_equal(num_ull("18446744073709551616", NUM_SPACE, 0, ULLONG_MAX, &u), -EINVAL);
	assert_int_equal(num_ull("-1", NUM_SPACE | NUM_PLUS, 0, ULLONG_MAX, &u), -EINVAL);
	assert_int_equal(num_ull(" -1", NUM_SPACE | NUM_PLUS, 0, ULLONG_MAX, &u), -EINVAL);
	assert_int_equal(u, 3);	/* untouched on an error */
}

/* The flags: leading white space and '+' only when asked for. */
static void flags(void **st)
{
	int e;
	(void)st;
	ll(" 5", 0, &e);
	assert_int_equal(e, -EINVAL);
	assert_int_equal(ll(" 5", NUM_SPACE, &e), 5);
	assert_int_equal(ll("\t\n -5", NUM_SPACE, &e), -5);
	assert_int_equal(e, 0);
	ll("+5", 0, &e);
	assert_int_equal(e, -EINVAL);
	ll("+5", NUM_SPACE, &e);
	assert_int_equal(e, -EINVAL);
	assert_int_equal(ll("+5", NUM_PLUS, &e), 5);
	ll(" +5", NUM_PLUS, &e);
	assert_int_equal(e, -EINVAL);
	assert_int_equal(ll(" +5", NUM_SPACE | NUM_PLUS, &e), 5);
	unsigned long long u = 0;
	assert_int_equal(num_ull(" +9", NUM_SPACE | NUM_PLUS, 0, 10, &u), 0);
	assert_int_equal(u, 9);
	assert_int_equal(num_ull("+9", NUM_SPACE, 0, 10, &u), -EINVAL);
}

/* [lo, hi] inclusive; outside it -ERANGE (a number, but not one allowed). */
static void ranges(void **st)
{
	long long v = 7;
	unsigned long long u = 7;
	(void)st;
	assert_int_equal(num_ll("1", 0, 1, 65535, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(num_ll("65535", 0, 1, 65535, &v), 0);
	assert_int_equal(v, 65535);
	assert_int_equal(num_ll("0", 0, 1, 65535, &v), -ERANGE);
	assert_int_equal(num_ll("65536", 0, 1, 65535, &v), -ERANGE);
	assert_int_equal(num_ll("-1", 0, 0, 10, &v), -ERANGE);
	assert_int_equal(v, 65535);
	assert_int_equal(num_ull("4", 0, 5, 9, &u), -ERANGE);
	assert_int_equal(num_ull("10", 0, 5, 9, &u), -ERANGE);
	assert_int_equal(num_ull("5", 0, 5, 9, &u), 0);
	assert_int_equal(u, 5);
}

/* num_dbl: the decimal forms records and command lines write, and nothing strtod(3) takes
 * beyond them. */
static void decimals(void **st)
{
	double d = 7;
	(void)st;
	assert_int_equal(num_dbl("0", &d), 0);
	assert_true(d == 0);
	assert_int_equal(num_dbl("-12.25", &d), 0);
	assert_true(d == -12.25);
	assert_int_equal(num_dbl("1.5e3", &d), 0);
	assert_true(d == 1500);
	assert_int_equal(num_dbl("2E-2", &d), 0);
	assert_true(d == 0.02);
	assert_int_equal(num_dbl("007.50", &d), 0);
	assert_true(d == 7.5);
	/* "-0" is zero: no negative zero reaches a figure ("--noise-floor -0" printed "-0.0%") */
	const char *zeros[] = {"-0", "-0.0", "-0e7", "-1e-400"};
	for (size_t i = 0; i < sizeof zeros / sizeof *zeros; i++) {
		d = 7;
		assert_int_equal(num_dbl(zeros[i], &d), 0);
		if (d != 0 || signbit(d))
			fail_msg("num_dbl(\"%s\") gave %g", zeros[i], d);
	}
	d = 3;
	const char *bad[] = {"", "-", ".5", "1.", "-.5", "+1", " 1", "1 ", "1x", "0x10", "inf",
			     "nan", "1e", "1e+", "1.2.3", "1,5", "--1", "e5"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (num_dbl(bad[i], &d) != -EINVAL)
			fail_msg("num_dbl took \"%s\"", bad[i]);
	assert_int_equal(num_dbl("1e999", &d), -ERANGE);
	assert_int_equal(num_dbl("-1e999", &d), -ERANGE);
	assert_true(d == 3);	/* untouched on an error */
}

/* NUM_HEX: "0x"/"0X" and hex digits, base 16; a leading 0 is still decimal, never octal. */
static void hex(void **st)
{
	unsigned long long v = 7;
	(void)st;
	assert_int_equal(num_ull("0x10", NUM_HEX, 0, ULLONG_MAX, &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(num_ull("0XfF", NUM_HEX, 0, ULLONG_MAX, &v), 0);
	assert_int_equal(v, 255);
	assert_int_equal(num_ull("010", NUM_HEX, 0, ULLONG_MAX, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(num_ull("0xffffffffffffffff", NUM_HEX, 0, ULLONG_MAX, &v), 0);
	assert_true(v == ULLONG_MAX);
	v = 7;
	assert_int_equal(num_ull("0x10000000000000000", NUM_HEX, 0, ULLONG_MAX, &v), -EINVAL);
	assert_int_equal(num_ull("0x", NUM_HEX, 0, ULLONG_MAX, &v), -EINVAL);
	assert_int_equal(num_ull("0x1g", NUM_HEX, 0, ULLONG_MAX, &v), -EINVAL);
	assert_int_equal(num_ull("0x10", 0, 0, ULLONG_MAX, &v), -EINVAL);	/* not without */
	assert_int_equal(num_ull("ff", NUM_HEX, 0, ULLONG_MAX, &v), -EINVAL);
	assert_int_equal(num_ull("0x100000000", NUM_HEX, 0, UINT32_MAX, &v), -ERANGE);
	assert_int_equal(v, 7);
}

/* NUM_XDIGITS: hex digits alone, base 16, either case (/proc/net/route's "0001A8C0", a PCI
 * address's "1f"); no "0x", no blank, nothing after; past the type is -EINVAL. */
static void xdigits(void **st)
{
	unsigned long long v = 7;
	long long s = 7;
	(void)st;
	assert_int_equal(num_ull("0001A8C0", NUM_XDIGITS, 0, ULLONG_MAX, &v), 0);
	assert_true(v == 0x1a8c0);
	assert_int_equal(num_ull("ff", NUM_XDIGITS, 0, ULLONG_MAX, &v), 0);
	assert_true(v == 255);
	assert_int_equal(num_ull("00000000", NUM_XDIGITS, 0, ULLONG_MAX, &v), 0);
	assert_true(v == 0);
	assert_int_equal(num_ull("010", NUM_XDIGITS, 0, ULLONG_MAX, &v), 0);
	assert_true(v == 16);
	assert_int_equal(num_ull("FFFFFFFFFFFFFFFF", NUM_XDIGITS, 0, ULLONG_MAX, &v), 0);
	assert_true(v == ULLONG_MAX);
	v = 7;
	assert_int_equal(num_ull("10000000000000000", NUM_XDIGITS, 0, ULLONG_MAX, &v), -EINVAL);
	assert_int_equal(num_ull("0x10", NUM_XDIGITS, 0, ULLONG_MAX, &v), -EINVAL);
	assert_int_equal(num_ull("", NUM_XDIGITS, 0, ULLONG_MAX, &v), -EINVAL);
	assert_int_equal(num_ull(" 1f", NUM_XDIGITS, 0, ULLONG_MAX, &v), -EINVAL);
	assert_int_equal(num_ull("1f ", NUM_XDIGITS, 0, ULLONG_MAX, &v), -EINVAL);
	assert_int_equal(num_ull("1g", NUM_XDIGITS, 0, ULLONG_MAX, &v), -EINVAL);
	assert_int_equal(num_ull("+1", NUM_XDIGITS, 0, ULLONG_MAX, &v), -EINVAL);
	assert_int_equal(num_ull("100000000", NUM_XDIGITS, 0, UINT32_MAX, &v), -ERANGE);
	assert_true(v == 7);
	assert_int_equal(num_ll("7fffffffffffffff", NUM_XDIGITS, LLONG_MIN, LLONG_MAX, &s), 0);
	assert_true(s == LLONG_MAX);
	s = 7;
	assert_int_equal(num_ll("8000000000000000", NUM_XDIGITS, LLONG_MIN, LLONG_MAX, &s), -EINVAL);
	assert_true(s == 7);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(values),
		cmocka_unit_test(refused),
		cmocka_unit_test(flags),
		cmocka_unit_test(ranges),
		cmocka_unit_test(decimals),
		cmocka_unit_test(hex),
		cmocka_unit_test(xdigits),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
