/* vocab.c — the names, rows and lookups vocab.h derives from its tables. */
#include "vocab.h"
#include "num.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIND_DEF(id) const char RK_##id[] = #id;
#define KEY_DEF(id, name) const char RK_##id[] = name;
VOCAB_KINDS(KIND_DEF)
VOCAB_KEYS(KEY_DEF)

#define KIND_NAME(id) RK_##id,
#define KEY_NAME(id, name) RK_##id,
const char *const vocab_kind_names[VK_COUNT + 1] = {VOCAB_KINDS(KIND_NAME) "*"};
const char *const vocab_key_names[VKEY_COUNT] = {VOCAB_KEYS(KEY_NAME)};
#define WORD(w) w,
const char *const vocab_groups[] = {VOCAB_GROUPS(WORD) NULL};
const char *const vocab_units[] = {VOCAB_UNITS(WORD) NULL};
const char *const vocab_extras[] = {VOCAB_EXTRAS(WORD) NULL};

/* A row X(KIND, KEY, presence, shape): the shape's "type, lo, hi, values" spread out by
 * the extra level of FIELD_, then the four become the struct's last four members. */
#define FIELD(kind, key, pres, shape) FIELD_(VK_##kind, VKEY_##key, VP_##pres, VOCAB_SHAPE_##shape)
#define FIELD_(kind, key, pres, ...) FIELD7(kind, key, pres, __VA_ARGS__)
#define FIELD7(kind, key, pres, type, lo, hi, values) {kind, key, pres, VT_##type, lo, hi, values},
const struct vocab_field vocab_fields[] = {VOCAB_FIELDS(FIELD)};
const size_t vocab_nfields = sizeof vocab_fields / sizeof vocab_fields[0];

double vocab_unit_per_loop(const char *unit)
{
#define PER_LOOP(u, f) {u, f},
	static const struct {
		const char *unit;
		double per_loop;
	} t[] = {VOCAB_UNIT_PER_LOOP(PER_LOOP)};
#undef PER_LOOP
	for (size_t i = 0; unit && i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(t[i].unit, unit))
			return t[i].per_loop;
	return 0;
}

int vocab_value_extra(const char *key, double *scale)
{
	static const char *const v[] = {VOCAB_VALUE_EXTRAS(WORD) NULL};
	const char *x100 = "_x100";

	for (size_t i = 0; v[i]; i++)
		if (!strcmp(v[i], key)) {
			size_t l = strlen(key), s = strlen(x100);
			*scale = l > s && !strcmp(key + l - s, x100) ? 0.01 : 1;
			return 1;
		}
	return 0;
}

int vocab_kind(const char *kind)
{
	for (int k = 0; k < VK_COUNT; k++)
		if (!strcmp(vocab_kind_names[k], kind))
			return k;
	return -1;
}

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

int vocab_match(const char *name, const char *key)
{
	const char *star = strchr(name, '*');
	size_t pre, post, kl = strlen(key);

	if (!star)
		return !strcmp(name, key);
	pre = (size_t)(star - name);
	post = strlen(star + 1);
	if (kl < pre + post + 1 || memcmp(key, name, pre) || strcmp(key + kl - post, star + 1))
		return 0;
	for (size_t i = pre; i < kl - post; i++)
		if (!word_char(key[i]))
			return 0;
	return 1;
}

const struct vocab_field *vocab_key(const char *kind, const char *key)
{
	int k = vocab_kind(kind);

	if (k < 0)
		return NULL;
	/* Pass 0: exact names; pass 1: names with '*'. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < vocab_nfields; i++) {
			const struct vocab_field *f = &vocab_fields[i];
			const char *name = vocab_key_names[f->key];
			if ((f->kind != (enum vocab_kind)k && f->kind != VK_ANY) ||
			    (strchr(name, '*') != NULL) != pass)
				continue;
			if (pass ? vocab_match(name, key) : !strcmp(name, key))
				return f;
		}
	return NULL;
}

const char *vocab_part_kind(const char *part)
{
	static const char *const map[][2] = {
		{REC_PART_BEGIN, RK_BEGIN}, {REC_PART_INFO, RK_INFO}, {REC_PART_TEST, RK_TEST},
		{REC_PART_SKIP, RK_SKIP},   {REC_PART_FAIL, RK_FAIL}, {REC_PART_WARN, RK_WARN},
		{REC_PART_ERROR, RK_ERROR},
	};
	for (size_t i = 0; part && i < sizeof map / sizeof map[0]; i++)
		if (!strcmp(part, map[i][0]))
			return map[i][1];
	return NULL;
}

const struct vocab_field *vocab_digest_key(const char *part, const char *key)
{
	const struct vocab_field *f = vocab_key(RK_DIGEST, key);
	const char *kind = vocab_part_kind(part);

	return f ? f : kind ? vocab_key(kind, key) : NULL;
}

const char *vocab_fill(char *buf, size_t cap, const char *name, const char *word)
{
	const char *star = strchr(name, '*');

	if (!star)
		snprintf(buf, cap, "%s", name);
	else
		snprintf(buf, cap, "%.*s%s%s", (int)(star - name), name, word, star + 1);
	return buf;
}

/* One decimal integer s..e (an optional '-' when sign), in [lo, hi] (hi 0: no bound): digits
 * only, no blank and no '+' (num.h), at most 31 characters. */
static int int_ok(const char *s, const char *e, int sign, unsigned long long lo,
		  unsigned long long hi)
{
	char tmp[32];
	unsigned long long u;
	long long v;

	if (e - s <= 0 || (size_t)(e - s) >= sizeof tmp)
		return 0;
	memcpy(tmp, s, (size_t)(e - s));
	tmp[e - s] = 0;
	if (sign)
		return num_ll(tmp, 0, LLONG_MIN, LLONG_MAX, &v) == 0;
	return num_ull(tmp, 0, lo, hi == VOCAB_NOMAX ? ULLONG_MAX : hi, &u) == 0;
}

/* One entry s..e of a LIST; in cpus '-' (no CPU seen) or CPU numbers joined by '+'. */
static int entry_ok(const struct vocab_field *f, int cpus, const char *s, const char *e)
{
	if (!cpus)
		return int_ok(s, e, 0, f->lo, VOCAB_NOMAX);
	if (e - s == 1 && *s == '-')
		return 1;
	for (const char *p = s;; p++) {
		const char *q = p;
		while (q < e && *q != '+')
			q++;
		if (!int_ok(p, q, 0, 0, VOCAB_NOMAX))
			return 0;
		if (q == e)
			return 1;
		p = q;
	}
}

static int list_ok(const struct vocab_field *f, const char *v)
{
	int cpus = f->type == VT_CPUS;

	for (const char *s = v;; s++) {
		const char *e = s + strcspn(s, ",");
		if (!entry_ok(f, cpus, s, e))
			return 0;
		if (!*e)
			return 1;
		s = e;
	}
}

int vocab_value_ok(const struct vocab_field *f, const char *val)
{
	size_t n = strlen(val);

	if (!n)
		return 0;
	switch (f->type) {
	case VT_UINT:
		return int_ok(val, val + n, 0, f->lo, f->hi);
	case VT_INT:
		return int_ok(val, val + n, 1, 0, VOCAB_NOMAX);
	case VT_DEC:
	case VT_POS:
	case VT_NONNEG: {
		double d;
		if (num_dbl(val, &d))
			return 0;
		return f->type == VT_DEC || (f->type == VT_POS ? d > 0 : d >= 0);
	}
	case VT_ENUM:
		for (const char *s = f->values;; s++) {
			size_t l = strcspn(s, "|");
			if (l == n && !memcmp(s, val, n))
				return 1;
			if (!s[l])
				return 0;
			s += l;
		}
	case VT_DASH_HEX:
		if (!strcmp(val, "-"))
			return 1;
		/* fall through */
	case VT_HEX:
		if (n < f->lo || n > f->hi)
			return 0;
		return strspn(val, "0123456789abcdef") == n;
	case VT_LIST:
	case VT_CPUS:
		return list_ok(f, val);
	case VT_STR:
		return 1;
	}
	return 0;
}

void vocab_type_text(const struct vocab_field *f, char *o, size_t n)
{
	switch (f->type) {
	case VT_UINT:
		if (f->hi != VOCAB_NOMAX)
			snprintf(o, n, "integer %llu..%llu", f->lo, f->hi);
		else
			snprintf(o, n, "integer >= %llu", f->lo);
		break;
	case VT_INT:
		snprintf(o, n, "signed integer");
		break;
	case VT_DEC:
		snprintf(o, n, "decimal (finite)");
		break;
	case VT_POS:
		snprintf(o, n, "decimal > 0 (finite)");
		break;
	case VT_NONNEG:
		snprintf(o, n, "decimal >= 0 (finite)");
		break;
	case VT_ENUM: {
		size_t off = (size_t)snprintf(o, n, "one of ");
		for (const char *s = f->values; off < n;) {
			size_t l = strcspn(s, "|");
			off += (size_t)snprintf(o + off, n - off, "%s`%.*s`", s == f->values ? "" : ", ",
						(int)l, s);
			if (!s[l] || !s[l + 1])	/* the end, or a word list's closing '|' */
				break;
			s += l + 1;
		}
		break;
	}
	case VT_HEX:
	case VT_DASH_HEX:
		snprintf(o, n, "%llu hex digits%s", f->lo, f->type == VT_DASH_HEX ? " or `-`" : "");
		break;
	case VT_LIST:
		snprintf(o, n, "comma list of integers >= %llu", f->lo);
		break;
	case VT_CPUS:
		snprintf(o, n, "comma list of CPU numbers joined by `+` (or `-`)");
		break;
	case VT_STR:
		snprintf(o, n, "string");
		break;
	}
}
