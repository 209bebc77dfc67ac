/* bench_stubs.c — test-only stand-ins for the harness's bench_note()/bench_extra(). */
#include <stdarg.h>
#include <stdio.h>

#include "../../payload/bench.h"

void bench_note(struct bench_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->note, sizeof ctx->note, fmt, ap);
	va_end(ap);
}

void bench_extra(struct bench_ctx *ctx, const char *key, int64_t val)
{
	if (ctx->nextra < BENCH_MAX_EXTRA) {
		ctx->extra_key[ctx->nextra] = key;
		ctx->extra_val[ctx->nextra++] = val;
	}
}
