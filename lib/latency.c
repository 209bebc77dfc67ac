/* latency.c — log-linear latency histogram (latency.h). */
#include "latency.h"
#include "num.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY(q, name) name,
const char *const lat_keys[LAT_NQ] = {LAT_QUANTILES(KEY)};
#undef KEY
#define Q(q, name) q,
static const uint32_t lat_q[LAT_NQ] = {LAT_QUANTILES(Q)};
#undef Q

/* Bucket of v: group g = 0 holds 0 .. LAT_SUB-1 exactly; group g >= 1 holds
 * [2^(g+LAT_SUB_BITS-1), 2^(g+LAT_SUB_BITS)) in LAT_SUB buckets of width 2^(g-1). */
static unsigned bucket_of(uint64_t v)
{
	if (v < LAT_SUB)
		return (unsigned)v;
	unsigned top = 63u - (unsigned)__builtin_clzll(v);	/* >= LAT_SUB_BITS */
	unsigned g = top - LAT_SUB_BITS + 1;
	unsigned sub = (unsigned)(v >> (g - 1)) - LAT_SUB;	/* 0 .. LAT_SUB-1 */
	return g * LAT_SUB + sub;
}

/* Largest value that falls in bucket i. */
static uint64_t bucket_top(unsigned i)
{
	unsigned g = i / LAT_SUB, sub = i % LAT_SUB;
	if (g == 0)
		return sub;
	uint64_t lo = (uint64_t)(LAT_SUB + sub) << (g - 1);
	return lo + ((uint64_t)1 << (g - 1)) - 1;
}

void lat_reset(struct lat_hist *h)
{
	memset(h, 0, sizeof *h);
	h->min = UINT64_MAX;
}

void lat_record(struct lat_hist *h, uint64_t ns)
{
	h->bucket[bucket_of(ns)]++;
	h->count++;
	h->sum = h->sum + ns < h->sum ? UINT64_MAX : h->sum + ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

void lat_record_n(struct lat_hist *h, uint64_t ns, uint64_t n)
{
	if (!n)
		return;
	uint32_t *b = &h->bucket[bucket_of(ns)];
	*b = *b + n > UINT32_MAX ? UINT32_MAX : (uint32_t)(*b + n);
	h->count += n;
	uint64_t add = ns > UINT64_MAX / n ? UINT64_MAX : ns * n;
	h->sum = h->sum + add < h->sum ? UINT64_MAX : h->sum + add;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

uint64_t lat_quantile(const struct lat_hist *h, uint32_t q_ppm5)
{
	if (!h->count)
		return 0;
	if (q_ppm5 >= 100000)
		return h->max;
	/* rank = ceil(q * count), at least 1 */
	uint64_t rank = (h->count * (uint64_t)q_ppm5 + 99999) / 100000;
	if (rank == 0)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < LAT_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t top = bucket_top(i);
			return top < h->max ? top : h->max;
		}
	}
	return h->max;
}

void lat_quantiles(const struct lat_hist *h, uint64_t out[LAT_NQ])
{
	for (int i = 0; i < LAT_NQ; i++)
		out[i] = lat_quantile(h, lat_q[i]);
}

void lat_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	for (unsigned i = 0; i < LAT_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum = dst->sum + src->sum < dst->sum ? UINT64_MAX : dst->sum + src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

size_t lat_hist_format(const struct lat_hist *h, char *out, size_t cap)
{
	size_t len = 0;
	unsigned prev = 0;

	for (unsigned i = 0; i < LAT_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		int n = snprintf(out + len, cap - len, "%s%u,%u", len ? "," : "", i - prev,
				 h->bucket[i]);
		if (n < 0 || (size_t)n >= cap - len)
			return 0;
		len += (size_t)n;
		prev = i;
	}
	return len;
}

/* The next unsigned decimal of *p (then past it and one comma) into *v; -1 when none, when
 * it is past 64 bits (num.h), or when a comma ends the text. */
static int next_u(const char **p, unsigned long long *v)
{
	char tok[24];
	size_t n = strspn(*p, "0123456789");
	const char *end = *p + n;

	if (!n || n >= sizeof tok)
		return -1;
	memcpy(tok, *p, n);
	tok[n] = 0;
	if (num_ull(tok, 0, 0, ULLONG_MAX, v))
		return -1;
	*p = *end == ',' ? end + 1 : end;
	return (*end == ',' && end[1]) || !*end ? 0 : -1;	/* no trailing comma */
}

int lat_hist_parse(const char *s, struct lat_hist *h)
{
	unsigned long long gap, n, i = 0;
	int first = 1;

	lat_reset(h);
	if (!*s)
		return -1;
	while (*s) {
		if (next_u(&s, &gap) || !*s || next_u(&s, &n))
			return -1;
		if ((!first && !gap) || gap >= LAT_BUCKETS || i + gap >= LAT_BUCKETS || !n ||
		    n > UINT32_MAX)
			return -1;
		i += gap;
		first = 0;
		h->bucket[i] = (uint32_t)n;
		h->count += n;
		h->max = bucket_top((unsigned)i);
		if (h->min == UINT64_MAX)
			h->min = i < LAT_SUB ? i : bucket_top((unsigned)i - 1) + 1;
	}
	return 0;
}
