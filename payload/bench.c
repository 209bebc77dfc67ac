/* bench.c — the helpers bench.h promises to every test: bench_note() and bench_extra().
 * Linked into the payload and into the unit tests of individual tests. */
#include "bench.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void bench_note(struct bench_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->note, sizeof ctx->note, fmt, ap);
	va_end(ap);
}

/* A key reported again in the same sample replaces its value; past BENCH_MAX_EXTRA keys,
 * further keys are dropped. */
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
	}
}
