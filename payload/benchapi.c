/* benchapi.c — the helpers benchapi.h promises: bench_note(), bench_extra(), bench_lat(), bench_better(),
 * bench_pinned(), bench_is_index().
 * Linked into the payload and into the unit tests of individual tests. */
#include "benchapi.h"
#include "params.h"
#include "unixbench.h"
#include "vocab.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

char bench_peer[128];
char bench_peer_rejected[200];

void bench_note(struct bench_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->note, sizeof ctx->note, fmt, ap);
	va_end(ap);
}

void bench_lat(struct bench_ctx *ctx, const struct lat_hist *h)
{
	ctx->lat = h;
}

/* A key reported again in the same sample replaces its value; past BENCH_MAX_EXTRA keys a
 * further key is dropped and said on stderr (a test that reports more is a bug, which a
 * test's check of its extras then shows; the record stays well formed). */
void bench_extra(struct bench_ctx *ctx, const char *key, int64_t val)
{
	for (int i = 0; i < ctx->nextra; i++)
		if (ctx->extra_key[i] == key || !strcmp(ctx->extra_key[i], key)) {
			ctx->extra_val[i] = val;
			return;
		}
	if (ctx->nextra < BENCH_MAX_EXTRA) {
		ctx->extra_key[ctx->nextra] = key;
		ctx->extra_val[ctx->nextra++] = val;
	} else
		fprintf(stderr, "isobench: internal: extra %s dropped: more than %d in a sample\n",
			key, BENCH_MAX_EXTRA);
}

int bench_in_all(const struct bench *b)
{
	return !b->nodefault;
}

int bench_higher_is_better(const struct bench *b)
{
	return b->kind == BENCH_RATE;
}

int bench_is_index(const struct bench *b)
{
	return ub_is_index(b->baseline);
}

const char *bench_better(const struct bench *b)
{
	return bench_higher_is_better(b) ? REC_BETTER_HIGHER : REC_BETTER_LOWER;
}

int bench_pinned(const struct bench *b, const struct params *p)
{
	return p->pin_given ? p->pin : b->pin;
}
