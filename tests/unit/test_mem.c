/* test_mem.c — mem_cgroup_room() (payload/core/mem_util.h): the room a memory cgroup leaves,
 * read from a fake /proc/self/cgroup and cgroup tree in a temporary directory — v2 with a
 * limited ancestor, v1, "max" and v1's "no limit", usage over the limit, no cgroup file;
 * and mem_spare()'s budget for N copies set up at once: the memory the other copies already
 * hold (mem_others_kib(), from a planted /proc) counts as this copy's room, so a copy that
 * checks last does not SKIP for what its siblings took; and mem_walk_link(), mem-latency's
 * walk (lat_mem_rd -t's), followed load by load: one cycle over every line, a new page at
 * every load, the page order the same each lap, the line of a page bit-reversed and shifted
 * by one per lap. */
#include <errno.h>
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

#include "../../payload/core/mem_util.h"

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

/* 8 copies of 384 MiB on a machine of 24 GiB in a cgroup of 3300 MiB room (margin 64 MiB +
 * room/32): the first check passes; a copy checking after one sibling touched its 384 MiB
 * sees 2916 MiB, which is still enough counting what that sibling holds. */
static void budget_counts_what_siblings_hold(void **st)
{
	(void)st;
	char why[160] = "";
	struct mem_budget b = {.avail_kib = 20ull << 20, .total_kib = 24ull << 20,
			       .cg_kib = 3300ull << 10, .bytes = 384ull << 20, .copies = 8};
	assert_int_equal(mem_budget(&b, why, sizeof why), 0);
	b.cg_kib -= 384ull << 10;
	b.others_kib = 384ull << 10;
	assert_int_equal(mem_budget(&b, why, sizeof why), 0);
	b.others_kib = 0;	/* the same room with nothing held: a real shortage */
	assert_int_equal(mem_budget(&b, why, sizeof why), BENCH_SKIP);
	assert_string_equal(why, "needs 3072 MiB (8 copies) + 155 MiB margin, the memory cgroup's "
				 "room is 2916 MiB");
	b.others_kib = 512;	/* less than a MiB held (shared pages of a fork): not said */
	assert_int_equal(mem_budget(&b, why, sizeof why), BENCH_SKIP);
	assert_null(strstr(why, "other copies"));
	b.others_kib = 100ull << 10;
	assert_int_equal(mem_budget(&b, why, sizeof why), BENCH_SKIP);
	assert_non_null(strstr(why, "room is 2916 MiB + 100 MiB the other copies hold"));
	b = (struct mem_budget){.avail_kib = 900ull << 10, .total_kib = 1ull << 20,
				.cg_kib = UINT64_MAX >> 10, .bytes = 1ull << 30, .copies = 1};
	assert_int_equal(mem_budget(&b, why, sizeof why), BENCH_SKIP);
	assert_non_null(strstr(why, "(1 copy) + 96 MiB margin, MemAvailable is 900 MiB"));
}

/* A 300 MiB container (systemd MemoryMax=300M) on a 24 GiB host: the margin is 1/32 of the
 * cgroup's room, not of the host's RAM (64 + 768 MiB SKIPped even a 16 KiB set), so the sets
 * that fit run and the 256 MiB one SKIPs. */
static void budget_margin_of_a_small_cgroup(void **st)
{
	(void)st;
	char why[160] = "";
	struct mem_budget b = {.avail_kib = 23ull << 20, .total_kib = 24ull << 20,
			       .cg_kib = 290ull << 10, .bytes = 2ull << 20, .copies = 1};
	assert_int_equal(mem_budget(&b, why, sizeof why), 0);		/* 16k, 512k (2 MiB) */
	b.bytes = 16ull << 20;
	assert_int_equal(mem_budget(&b, why, sizeof why), 0);		/* 16m */
	b.bytes = 256ull << 20;
	assert_int_equal(mem_budget(&b, why, sizeof why), BENCH_SKIP);
	assert_string_equal(why, "needs 256 MiB (1 copy) + 73 MiB margin, the memory cgroup's "
				 "room is 290 MiB");
}

/* Under User-Mode Linux every 4 KiB page of a process is its own host mapping: 256 MiB is
 * 65,536 of them, past the host's default vm.max_map_count (65,530: the FAIL "crashed
 * (signal 9)" of mem-latency-256m-4k under UML) — a SKIP saying why, while 64 MiB (16,384)
 * runs; without the limit (natively) 256 MiB runs. UML is told by /proc/cpuinfo's vendor. */
static void budget_host_mappings_of_uml(void **st)
{
	(void)st;
	char why[160] = "", path[128];
	struct mem_budget b = {.avail_kib = 400ull << 10, .total_kib = 500ull << 10,
			       .cg_kib = UINT64_MAX >> 10, .bytes = 256ull << 20, .copies = 1,
			       .page = 4096, .map_limit = 0};
	assert_int_equal(mem_budget(&b, why, sizeof why), 0);
	b.map_limit = MEM_UML_MAX_MAP_COUNT;
	assert_int_equal(mem_budget(&b, why, sizeof why), BENCH_SKIP);
	assert_string_equal(why, "UML maps each page on the host: 65536 pages pass vm.max_map_count "
				 "(host default 65530, less 1024 kept; unreadable in the guest)");
	b.bytes = 64ull << 20;
	assert_int_equal(mem_budget(&b, why, sizeof why), 0);
	b.bytes = (uint64_t)(MEM_UML_MAX_MAP_COUNT - MEM_MAP_SLACK) * 4096;	/* the last that fits */
	assert_int_equal(mem_budget(&b, why, sizeof why), 0);
	b.bytes += 4096;
	assert_int_equal(mem_budget(&b, why, sizeof why), BENCH_SKIP);

	put("cpuinfo", "processor\t: 0\nvendor_id\t: User Mode Linux\nmodel name\t: UML\n");
	snprintf(path, sizeof path, "%s/cpuinfo", top);
	assert_int_equal(mem_host_map_limit(path), 65530);
	put("cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon\n");
	assert_int_equal(mem_host_map_limit(path), 0);
	snprintf(path, sizeof path, "%s/absent", top);
	assert_int_equal(mem_host_map_limit(path), 0);
}

/* Follow the walk of bytes from its start: it must come back after exactly bytes/64 loads,
 * having loaded every line once, never twice in a row on one page (unless the set is one
 * page), the same page cycle every lap, and in lap c at page index i the line
 * bitrev6((c + i) mod 64) (lmbench src/lib_mem.c thrash_initialize(), words_initialize()). */
static void walk_is_lat_mem_rd_t(size_t bytes, uint64_t seed)
{
	enum { PAGE = 4096, LINE = 64, PER = PAGE / LINE };
	size_t n = bytes / LINE, np = bytes / PAGE;
	char *b = aligned_alloc(PAGE, bytes);
	unsigned char *seen = calloc(n, 1);
	size_t *cycle = malloc(np * sizeof *cycle);
	assert_non_null(b);
	assert_non_null(seen);
	assert_non_null(cycle);
	memset(b, 0, bytes);
	void **p = mem_walk_link(b, bytes, seed);
	assert_ptr_equal(p, b + ((char *)p - b) / PAGE * PAGE);	/* starts at a page's line 0 */
	for (size_t k = 0; k < n; k++) {
		size_t off = (size_t)((char *)p - b), page = off / PAGE, line = off % PAGE / LINE;
		size_t c = k / np, i = k % np, want = 0, x = (c + i) % PER;
		assert_true(off < bytes && off % LINE == 0);
		assert_int_equal(seen[off / LINE], 0);
		seen[off / LINE] = 1;
		if (c == 0)
			cycle[i] = page;
		assert_int_equal(page, cycle[i]);
		for (unsigned bit = 0; bit < 6; bit++)
			if (x & (1u << bit))
				want |= 1u << (5 - bit);
		assert_int_equal(line, want);
		void **q = *p;
		if (np > 1)
			assert_int_not_equal((size_t)((char *)q - b) / PAGE, page);
		p = q;
	}
	assert_ptr_equal(p, mem_walk_link(b, bytes, seed));	/* one cycle: back at the start */
	free(cycle);
	free(seen);
	free(b);
}

static void walk_one_cycle_page_by_page(void **state)
{
	(void)state;
	walk_is_lat_mem_rd_t(4096, 1);
	walk_is_lat_mem_rd_t(16 << 10, 2);
	walk_is_lat_mem_rd_t(512 << 10, 0x15be3ac4ull ^ (512 << 10));
	walk_is_lat_mem_rd_t(3 * 4096, 7);	/* a page count that is no power of two */
}

/* Different seeds give different page orders; a set that is no whole number of pages has
 * no walk. */
static void walk_seed_and_bad_sizes(void **state)
{
	(void)state;
	enum { BYTES = 64 << 10 };
	char *a = aligned_alloc(4096, BYTES), *b = aligned_alloc(4096, BYTES);
	assert_non_null(a);
	assert_non_null(b);
	void **pa = mem_walk_link(a, BYTES, 1), **pb = mem_walk_link(b, BYTES, 2);
	int differ = 0;
	for (int k = 0; k < 16; k++) {
		differ |= (char *)pa - a != (char *)pb - b;
		pa = *pa;
		pb = *pb;
	}
	assert_true(differ);
	assert_null(mem_walk_link(a, 0, 1));
	assert_null(mem_walk_link(a, 4096 + 64, 1));
	assert_null(mem_walk_link(a, 2048, 1));
	free(a);
	free(b);
}

/* The sysfs list parser the NUMA code reads cpulist/online with: ranges, singles, a
 * trailing newline; anything else, or a number past the set, refused. */
static void list_parse_ranges_and_refusals(void **state)
{
	unsigned char set[16];
	(void)state;
	assert_int_equal(mem_list_parse("0-3,8,10-11\n", set, 16), 7);
	assert_true(set[0] && set[3] && set[8] && set[11]);
	assert_false(set[4] || set[9] || set[12]);
	assert_int_equal(mem_list_parse("5", set, 16), 1);
	assert_true(set[5] && !set[0]);
	assert_int_equal(mem_list_parse("0-16", set, 16), -EINVAL);
	assert_int_equal(mem_list_parse("3-1", set, 16), -EINVAL);
	assert_int_equal(mem_list_parse("1,x", set, 16), -EINVAL);
	assert_int_equal(mem_list_parse("", set, 16), 0);
}

/* STREAM's default working set (one array, all copies): 4 GiB, halved until the three
 * arrays fit in half of MemTotal; never from the caches. */
static void array_default_bounded_by_memory(void **state)
{
	(void)state;
	assert_int_equal(mem_array_default(512ull << 30), 4ull << 30);
	assert_int_equal(mem_array_default(24ull << 30), 4ull << 30);
	assert_int_equal(mem_array_default(16ull << 30), 2ull << 30);
	/* a 2 GiB guest (MemTotal about 1.95 GiB): 256 MiB, 4x a 64 MiB LLC */
	assert_int_equal(mem_array_default(2000ull << 20), 256ull << 20);
	assert_int_equal(mem_array_default(1ull << 30), 128ull << 20);
	assert_int_equal(mem_array_default(0), 1ull << 20);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test_setup_teardown(v2_tightest_ancestor, fresh, gone),
		cmocka_unit_test_setup_teardown(v1_and_no_limit, fresh, gone),
		cmocka_unit_test_setup_teardown(over_limit_and_missing, fresh, gone),
		cmocka_unit_test_setup_teardown(others_count_siblings_only, fresh, gone),
		cmocka_unit_test_setup_teardown(budget_counts_what_siblings_hold, fresh, gone),
		cmocka_unit_test(budget_margin_of_a_small_cgroup),
		cmocka_unit_test_setup_teardown(budget_host_mappings_of_uml, fresh, gone),
		cmocka_unit_test(walk_one_cycle_page_by_page),
		cmocka_unit_test(walk_seed_and_bad_sizes),
		cmocka_unit_test(list_parse_ranges_and_refusals),
		cmocka_unit_test(array_default_bounded_by_memory),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
