/* registry.c — the one list of tests, in run order (UnixBench's index order first).
 * Adding a test: write payload/bench/<name>.c exporting `const struct bench bench_<name>`,
 * then add it to the list below. Nothing else names tests. */
#include "bench.h"

#include <string.h>

extern const struct bench bench_syscall, bench_pipe, bench_context1, bench_spawn,
	bench_execl;

const struct bench *const bench_registry[] = {
	&bench_execl,
	&bench_pipe,
	&bench_context1,
	&bench_spawn,
	&bench_syscall,
	NULL,
};

const struct bench *bench_find(const char *name)
{
	for (int i = 0; bench_registry[i]; i++)
		if (!strcmp(bench_registry[i]->name, name))
			return bench_registry[i];
	return NULL;
}
