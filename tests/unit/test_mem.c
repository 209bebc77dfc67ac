/* test_mem.c — mem_cgroup_room() (payload/bench/mem.h): the room a memory cgroup leaves,
 * read from a fake /proc/self/cgroup and cgroup tree in a temporary directory — v2 with a
 * limited ancestor, v1, "max" and v1's "no limit", usage over the limit, no cgroup file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../payload/bench/mem.h"

static char top[64];

/* Write text to top/rel, making its directories. */
static void put(const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", top, rel);
	for (char *s = strchr(path + strlen(top) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(path, 0700);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static uint64_t room(void)
{
	char cg[128], root[128];
	snprintf(cg, sizeof cg, "%s/cgroup", top);
	snprintf(root, sizeof root, "%s/sys", top);
	return mem_cgroup_room(cg, root);
}

static int fresh(void **st)
{
	(void)st;
	snprintf(top, sizeof top, "/tmp/test_mem.XXXXXX");
	return mkdtemp(top) ? 0 : -1;
}

static int gone(void **st)
{
	(void)st;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

static void v2_tightest_ancestor(void **st)
{
	(void)st;
	put("cgroup", "0::/a/b\n");
	put("sys/a/b/memory.max", "max\n");
	put("sys/a/b/memory.current", "104857600\n");
	put("sys/a/memory.max", "536870912\n");	/* 512 MiB on the parent */
	put("sys/a/memory.current", "209715200\n");	/* 200 MiB used there */
	assert_int_equal(room(), 312ull << 20);
	put("sys/a/b/memory.max", "157286400\n");	/* 150 MiB on the child: tighter */
	assert_int_equal(room(), 50ull << 20);
}

static void v1_and_no_limit(void **st)
{
	(void)st;
	put("cgroup", "5:pids:/x\n4:memory:/m/n\n0::/\n");
	put("sys/memory/m/n/memory.limit_in_bytes", "9223372036854771712\n");	/* none */
	put("sys/memory/m/n/memory.usage_in_bytes", "1000\n");
	assert_true(room() == UINT64_MAX);
	put("sys/memory/m/memory.limit_in_bytes", "268435456\n");
	put("sys/memory/m/memory.usage_in_bytes", "67108864\n");
	assert_int_equal(room(), 192ull << 20);
}

static void over_limit_and_missing(void **st)
{
	(void)st;
	put("cgroup", "0::/c\n");
	put("sys/c/memory.max", "1048576\n");
	put("sys/c/memory.current", "2097152\n");
	assert_int_equal(room(), 0);
	assert_true(mem_cgroup_room("/nonexistent/cgroup", "/nonexistent") == UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test_setup_teardown(v2_tightest_ancestor, fresh, gone),
		cmocka_unit_test_setup_teardown(v1_and_no_limit, fresh, gone),
		cmocka_unit_test_setup_teardown(over_limit_and_missing, fresh, gone),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
