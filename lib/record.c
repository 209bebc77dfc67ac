/* record.c — writer and parser of isobench records (docs/records.md). */
#include "record.h"
#include "crc32.h"
#include "num.h"
#include "vocab.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rec_kind_known(const char *kind)
{
	return vocab_kind(kind) >= 0;
}

int rec_body_is(const struct rec_body *b, const char *kind)
{
	size_t n = strlen(kind);

	return b->len >= n && !memcmp(b->buf, kind, n) && (b->len == n || b->buf[n] == ' ');
}

static int key_ok(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') || *k == '_' ||
		      *k == '.'))
			return 0;
	return 1;
}

static int plain(unsigned char c)
{
	return c >= 0x21 && c <= 0x7e && c != '%';
}

size_t rec_encode(char *out, size_t cap, const char *val)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = 0;

	if (!val || !*val)
		val = "-";
	for (const unsigned char *p = (const unsigned char *)val; *p; p++) {
		size_t need = plain(*p) ? 1 : 3;
		if (n + need + 1 > cap)
			break;
		if (need == 1) {
			out[n++] = (char)*p;
		} else {
			out[n++] = '%';
			out[n++] = hex[*p >> 4];
			out[n++] = hex[*p & 15];
		}
	}
	if (cap)
		out[n] = 0;
	return n;
}

void rec_begin(struct rec_body *b, const char *kind)
{
	b->dropped = 0;
	b->len = (size_t)snprintf(b->buf, sizeof b->buf, "%s", kind);
}

void rec_close(struct rec_body *b)
{
	if (!b->dropped)
		return;
	/* The room kept by every rec_*() call: this field always fits. */
	b->len += (size_t)snprintf(b->buf + b->len, sizeof b->buf - b->len, " %s=%d", RK_DROPPED,
				   b->dropped);
	b->dropped = 0;
}

void rec_raw(struct rec_body *b, const char *fields)
{
	size_t n = strlen(fields);

	if (b->len + n + 1 > sizeof b->buf - REC_DROPPED_ROOM) {
		b->dropped++;
		return;
	}
	memcpy(b->buf + b->len, fields, n + 1);
	b->len += n;
}

void rec_str(struct rec_body *b, const char *key, const char *val)
{
	char enc[sizeof b->buf];
	size_t klen = strlen(key);
	size_t vlen = rec_encode(enc, sizeof enc, val);

	if (!key_ok(key) || b->len + 2 + klen + vlen + 1 > sizeof b->buf - REC_DROPPED_ROOM) {
		b->dropped++;
		return;
	}
	b->buf[b->len++] = ' ';
	memcpy(b->buf + b->len, key, klen);
	b->len += klen;
	b->buf[b->len++] = '=';
	memcpy(b->buf + b->len, enc, vlen + 1);
	b->len += vlen;
}

void rec_fmt(struct rec_body *b, const char *key, const char *fmt, ...)
{
	char tmp[sizeof b->buf];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	rec_str(b, key, tmp);
}

void rec_u64(struct rec_body *b, const char *key, uint64_t v)
{
	rec_fmt(b, key, "%llu", (unsigned long long)v);
}

void rec_i64(struct rec_body *b, const char *key, int64_t v)
{
	rec_fmt(b, key, "%lld", (long long)v);
}

void rec_dbl(struct rec_body *b, const char *key, double v, int decimals)
{
	rec_fmt(b, key, "%.*f", decimals, v);
}

size_t rec_seal(char *out, size_t cap, uint64_t seq, const char *body, size_t body_len)
{
	int n;

	if (body_len == 0 || body_len + 64 > cap || memchr(body, '\n', body_len))
		return 0;
	n = snprintf(out, cap, "%s %llu ", REC_TAG, (unsigned long long)seq);
	memcpy(out + n, body, body_len);
	n += (int)body_len;
	n += snprintf(out + n, cap - (size_t)n, " *%08x\n", crc32_ieee(out, (size_t)n));
	return (size_t)n;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Split "KIND k=v k=v" (exactly single spaces) into r; values decoded in place. */
static enum rec_status split_body(struct record *r, char *s)
{
	char *tok, *save = NULL;

	r->nfields = 0;
	tok = strtok_r(s, " ", &save);
	if (!tok || strlen(tok) >= sizeof r->kind || !rec_kind_known(tok))
		return REC_BAD_SYNTAX;
	strcpy(r->kind, tok);
	while ((tok = strtok_r(NULL, " ", &save))) {
		char *eq = strchr(tok, '='), *w;
		if (!eq || r->nfields == REC_MAX_FIELDS)
			return REC_BAD_SYNTAX;
		*eq = 0;
		if (!key_ok(tok) || !eq[1] || rec_get(r, tok))
			return REC_BAD_SYNTAX;
		w = eq + 1;
		for (char *p = eq + 1; *p; p++) {
			if (*p == '%') {
				int hi = hexval(p[1]), lo = hi < 0 ? -1 : hexval(p[2]);
				if (lo < 0)
					return REC_BAD_SYNTAX;
				*w++ = (char)(hi * 16 + lo);
				p += 2;
			} else if (plain((unsigned char)*p)) {
				*w++ = *p;
			} else {
				return REC_BAD_SYNTAX;
			}
		}
		*w = 0;
		r->key[r->nfields] = tok;
		r->val[r->nfields++] = eq + 1;
	}
	return REC_OK;
}

enum rec_status rec_parse_body(const char *body, size_t len, struct record *r)
{
	if (len == 0 || len >= sizeof r->store || memchr(body, 0, len) ||
	    memchr(body, '\n', len))
		return REC_BAD_SYNTAX;
	memcpy(r->store, body, len);
	r->store[len] = 0;
	r->seq = 0;
	return split_body(r, r->store);
}

enum rec_status rec_parse(const char *line, size_t len, struct record *r)
{
	const char *tag = NULL, *star, *p;
	size_t tl = strlen(REC_TAG), n;
	unsigned long long seq;
	uint32_t want = 0;
	const char *end;
	char num[24];		/* the sequence number: at most 20 digits */

	/* The last "tag " in the line wins: anything before it is noise. Values cannot hold
	 * a space, so the tag followed by a space cannot occur inside a record. */
	for (size_t i = 0; i + tl < len; i++)
		if (line[i] == '@' && !memcmp(line + i, REC_TAG, tl) && line[i + tl] == ' ')
			tag = line + i;
	if (!tag)
		return REC_NONE;
	n = len - (size_t)(tag - line);
	while (n && (tag[n - 1] == '\n' || tag[n - 1] == '\r' || tag[n - 1] == ' ' ||
		     tag[n - 1] == '\t'))
		n--;
	if (n < tl + 12)
		return REC_BAD_SYNTAX;
	star = tag + n - 10;
	if (star[0] != ' ' || star[1] != '*')
		return REC_BAD_SYNTAX;
	for (p = star + 2; p < tag + n; p++) {
		int h = hexval(*p);
		if (h < 0 || (*p >= 'A' && *p <= 'F'))
			return REC_BAD_SYNTAX;
		want = want << 4 | (uint32_t)h;
	}
	if (crc32_ieee(tag, (size_t)(star - tag)) != want)
		return REC_BAD_CRC;
	/* Checksum good: now the syntax. */
	p = tag + tl + 1;
	end = memchr(p, ' ', (size_t)(star - p));
	if (!end || end == p || (size_t)(end - p) >= sizeof num)
		return REC_BAD_SYNTAX;
	memcpy(num, p, (size_t)(end - p));
	num[end - p] = 0;
	if (num_ull(num, 0, 0, UINT64_MAX, &seq))
		return REC_BAD_SYNTAX;
	p = end + 1;
	if (rec_parse_body(p, (size_t)(star - p), r) != REC_OK)
		return REC_BAD_SYNTAX;
	r->seq = seq;
	return REC_OK;
}

/* Value of key among n decoded fields, or NULL: the one lookup of both record shapes. */
static const char *lookup(int n, const char *const *key, const char *const *val, const char *k)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(key[i], k))
			return val[i];
	return NULL;
}

const char *rec_get_line(const struct record *r, const char *key)
{
	return lookup(r->nfields, r->key, r->val, key);
}

const char *rec_get_kept(const struct rec_kept *r, const char *key)
{
	return lookup(r->nfields, r->key, r->val, key);
}

/* The typed reads of a value v found (or not) under a key: rec_get_dbl() etc. of both. */
static int as_dbl(const char *v, double *out)
{
	return v ? num_dbl(v, out) : -ENOENT;
}

static int as_ull(const char *v, unsigned long long lo, unsigned long long hi,
		  unsigned long long *out)
{
	return v ? num_ull(v, 0, lo, hi, out) : -ENOENT;
}

static int as_ll(const char *v, long long lo, long long hi, long long *out)
{
	return v ? num_ll(v, 0, lo, hi, out) : -ENOENT;
}

int rec_get_dbl_line(const struct record *r, const char *key, double *out)
{
	return as_dbl(rec_get(r, key), out);
}

int rec_get_dbl_kept(const struct rec_kept *r, const char *key, double *out)
{
	return as_dbl(rec_get(r, key), out);
}

int rec_get_ull_line(const struct record *r, const char *key, unsigned long long lo,
		     unsigned long long hi, unsigned long long *out)
{
	return as_ull(rec_get(r, key), lo, hi, out);
}

int rec_get_ull_kept(const struct rec_kept *r, const char *key, unsigned long long lo,
		     unsigned long long hi, unsigned long long *out)
{
	return as_ull(rec_get(r, key), lo, hi, out);
}

int rec_get_ll_line(const struct record *r, const char *key, long long lo, long long hi,
		    long long *out)
{
	return as_ll(rec_get(r, key), lo, hi, out);
}

int rec_get_ll_kept(const struct rec_kept *r, const char *key, long long lo, long long hi,
		    long long *out)
{
	return as_ll(rec_get(r, key), lo, hi, out);
}

/* One allocation: the struct, the key and value pointer arrays, the line (if any), then each
 * key and value NUL-terminated. */
struct rec_kept *rec_keep(const struct record *r, const char *line, size_t len)
{
	size_t size = sizeof(struct rec_kept) + 2 * (size_t)r->nfields * sizeof(char *);
	struct rec_kept *k;
	char *p;

	size += line ? len + 1 : 0;
	for (int i = 0; i < r->nfields; i++)
		size += strlen(r->key[i]) + strlen(r->val[i]) + 2;
	if (!(k = malloc(size)))
		return NULL;
	k->seq = r->seq;
	memcpy(k->kind, r->kind, sizeof k->kind);
	k->nfields = r->nfields;
	k->key = (const char **)(k + 1);
	k->val = k->key + r->nfields;
	p = (char *)(k->val + r->nfields);
	k->line = NULL;
	k->line_len = 0;
	if (line) {
		memcpy(p, line, len);
		p[len] = 0;
		k->line = p;
		k->line_len = len;
		p += len + 1;
	}
	for (int i = 0; i < r->nfields; i++) {
		size_t kl = strlen(r->key[i]) + 1, vl = strlen(r->val[i]) + 1;
		k->key[i] = memcpy(p, r->key[i], kl);
		p += kl;
		k->val[i] = memcpy(p, r->val[i], vl);
		p += vl;
	}
	return k;
}

int rec_reason_says_kept(const char *reason)
{
	return strstr(reason, " kept") != NULL;
}
