/* test_mem.c — mem_cgroup_room() (payload/bench/mem.h): the room a memory cgroup leaves,
 * read from a fake /proc/self/cgroup and cgroup tree in a temporary directory — v2 with a
 * limited ancestor, v1, "max" and v1's "no limit", usage over the limit, no cgroup file;
 * and mem_spare()'s budget for N copies set up at once: the memory the other copies already
 * hold (mem_others_kib(), from a planted /proc) counts as this copy's room, so a copy that
 * checks last does not SKIP for what its siblings took. */
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

/* A planted /proc/PID with its parent and RssAnon (comm with a space and a ')'). */
static void proc_entry(int pid, int ppid, int anon_kib)
{
	char rel[64], text[128];
	snprintf(rel, sizeof rel, "proc/%d/stat", pid);
	snprintf(text, sizeof text, "%d (iso bench) x) S %d %d 0 0\n", pid, ppid, ppid);
	put(rel, text);
	snprintf(rel, sizeof rel, "proc/%d/status", pid);
	snprintf(text, sizeof text, "Name:\tisobench\nRssAnon:\t  %d kB\nRssFile:\t 9 kB\n", anon_kib);
	put(rel, text);
}

static void others_count_siblings_only(void **st)
{
	(void)st;
	char proc[128];
	snprintf(proc, sizeof proc, "%s/proc", top);
	proc_entry(50, 1, 2000);		/* the controller: 2000 KiB its forks share */
	proc_entry(100, 50, 2000 + 393216);	/* a copy that touched its 384 MiB */
	proc_entry(101, 50, 2000 + 1024);	/* one that has begun */
	proc_entry(102, 50, 2100);		/* this copy: never counted */
	proc_entry(103, 50, 1500);		/* less than shared: 0, not negative */
	proc_entry(200, 7, 999999);		/* not a sibling */
	put("proc/self", "");			/* not a pid */
	assert_int_equal(mem_others_kib(proc, 102, 50), 393216 + 1024);
	assert_int_equal(mem_others_kib(proc, 102, 7), 999999);	/* no parent to subtract */
}

/* 8 copies of 384 MiB on a machine of 24 GiB (margin 64 + 768 MiB) in a cgroup of 3950 MiB:
 * the first check sees 3937 MiB of room, and passes; a copy checking after one sibling
 * touched its 384 MiB sees 3553 MiB, which is still enough counting what that sibling holds. */
static void budget_counts_what_siblings_hold(void **st)
{
	(void)st;
	char why[160] = "";
	struct mem_budget b = {.avail_kib = 20ull << 20, .total_kib = 24ull << 20,
			       .cg_kib = 3937ull << 10, .bytes = 384ull << 20, .copies = 8};
	assert_int_equal(mem_budget(&b, why, sizeof why), 0);
	b.cg_kib -= 384ull << 10;
	b.others_kib = 384ull << 10;
	assert_int_equal(mem_budget(&b, why, sizeof why), 0);
	b.others_kib = 0;	/* the same room with nothing held: a real shortage */
	assert_int_equal(mem_budget(&b, why, sizeof why), BENCH_SKIP);
	assert_string_equal(why, "needs 3072 MiB (8 copies) + 832 MiB margin, the memory cgroup's "
				 "room is 3553 MiB");
	b.others_kib = 512;	/* less than a MiB held (shared pages of a fork): not said */
	assert_int_equal(mem_budget(&b, why, sizeof why), BENCH_SKIP);
	assert_null(strstr(why, "other copies"));
	b.others_kib = 100ull << 10;
	assert_int_equal(mem_budget(&b, why, sizeof why), BENCH_SKIP);
	assert_non_null(strstr(why, "room is 3553 MiB + 100 MiB the other copies hold"));
	b = (struct mem_budget){.avail_kib = 900ull << 10, .total_kib = 1ull << 20,
				.cg_kib = UINT64_MAX >> 10, .bytes = 1ull << 30, .copies = 1};
	assert_int_equal(mem_budget(&b, why, sizeof why), BENCH_SKIP);
	assert_non_null(strstr(why, "(1 copy) + 96 MiB margin, MemAvailable is 900 MiB"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test_setup_teardown(v2_tightest_ancestor, fresh, gone),
		cmocka_unit_test_setup_teardown(v1_and_no_limit, fresh, gone),
		cmocka_unit_test_setup_teardown(over_limit_and_missing, fresh, gone),
		cmocka_unit_test_setup_teardown(others_count_siblings_only, fresh, gone),
		cmocka_unit_test_setup_teardown(budget_counts_what_siblings_hold, fresh, gone),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
