/* mem_util.h — what the `memory` group's tests share (mem_util.c; the tests: bench/mem_*.c):
 * the memory the machine can spare, mappings with a chosen page size and the check that the
 * kernel gave it, the last-level cache from sysfs, and the machine-header facts.
 *
 * Page sizes: MEM_PAGE_4K maps with MADV_NOHUGEPAGE (base pages even under THP "always"),
 * MEM_PAGE_2M aligns the mapping to 2 MiB and asks for transparent huge pages with
 * MADV_HUGEPAGE before the first touch; after touching, mem_map_verify() reads the mapping's
 * AnonHugePages in /proc/self/smaps, so a test never reports 2 MiB figures measured on 4 KiB
 * pages (a refusal is a SKIP with the counts). Errors: -errno, or BENCH_SKIP after
 * bench_note() with the reason. */
#ifndef ISOBENCH_MEM_UTIL_H
#define ISOBENCH_MEM_UTIL_H

#include "../benchapi.h"

#include <stddef.h>
#include <stdint.h>

#define MEM_HUGE_BYTES (2u << 20)	/* x86-64's PMD page, the THP size we ask for */

enum mem_page { MEM_PAGE_4K, MEM_PAGE_2M };

struct mem_map {
	void *base;		/* len bytes, 2 MiB aligned for MEM_PAGE_2M */
	size_t len;
	enum mem_page page;
};

/* BENCH_SKIP (with the reason noted) unless MemAvailable, and the memory cgroup's room
 * (mem_cgroup_room()) when smaller, cover bytes x ctx->copies plus a margin (64 MiB +
 * MemTotal/32, or + room/32 when the cgroup's room is the smaller) — a point too large for
 * this machine or container skips, never OOMs. The
 * copies run their setups at once, so what the other copies of this test already hold
 * (mem_others_kib()) is room this copy's check counts in: a copy that checks after the
 * others have touched their share does not see the machine as fuller than it is. */
int mem_spare(struct bench_ctx *ctx, uint64_t bytes);
/* mem_spare()'s readings, in KiB (bytes: one copy's need, in bytes); map_limit: the host
 * mappings one process may hold when each of its pages is one (mem_host_map_limit()), 0
 * when no such limit applies; page: the page size in bytes (for map_limit). */
struct mem_budget {
	uint64_t avail_kib, total_kib, cg_kib, others_kib, bytes, map_limit, page;
	int copies;
};
/* mem_spare()'s verdict on b: 0 when (the smaller of avail and cg) + others covers
 * bytes x copies + the margin (64 MiB + 1/32 of total, or of cg when cg is the smaller),
 * and, with a map_limit, one copy's pages (bytes / page) + MEM_MAP_SLACK stay within it;
 * else BENCH_SKIP with the figures in why (len bytes). */
int mem_budget(const struct mem_budget *b, char *why, size_t len);
/* Mappings a copy holds beside its set (the runner's text, data, stack, heap, the walk's
 * temporary array, musl's): a bound, not a count (a copy of mem-latency has ~60 natively). */
#define MEM_MAP_SLACK 1024u
/* The host mappings one process of this kernel may hold when every page it touches is one,
 * or 0 when its pages are not host mappings. Under User-Mode Linux (/proc/cpuinfo's
 * vendor_id "User Mode Linux", arch/um/kernel/um_arch.c show_cpuinfo()) each guest page a
 * process touches is mapped into its host process separately (arch/um/kernel/tlb.c), so
 * past the host's vm.max_map_count the host's mmap fails and UML kills the process ("UML
 * ran out of memory on the host side!"). The guest cannot read the host's sysctl: the
 * limit taken is Linux's default, DEFAULT_MAX_MAP_COUNT = 65530 (include/linux/mm.h:
 * USHRT_MAX - MAPCOUNT_ELF_CORE_MARGIN). cpuinfo: "/proc/cpuinfo", or a planted file. */
uint64_t mem_host_map_limit(const char *cpuinfo);
#define MEM_UML_MAX_MAP_COUNT 65530u
/* Anonymous memory, in KiB, that the other children of parent (the harness's controller,
 * which forks only the copies of the test) hold: each one's RssAnon (proc/PID/status) less
 * the parent's own (pages a fork shares are not extra; never below 0), self left out. proc
 * is "/proc", or a planted tree. */
uint64_t mem_others_kib(const char *proc, long self, long parent);
/* Bytes the memory cgroups of this process still allow: the smallest limit - usage over
 * its cgroup and every ancestor, cgroup v2 (memory.max, memory.current under root) and v1
 * (memory.limit_in_bytes, memory.usage_in_bytes under root/memory), as proc_cgroup
 * ("/proc/self/cgroup") names them; UINT64_MAX when none limits (or none is readable). */
uint64_t mem_cgroup_room(const char *proc_cgroup, const char *root);
/* BENCH_SKIP unless THP is built and its mode is not "never" (for MEM_PAGE_2M only). */
int mem_thp_usable(struct bench_ctx *ctx);
/* madvise(MADV_NOHUGEPAGE) on [p, p + len): 0 or -errno. A kernel built without transparent
 * huge pages (CONFIG_TRANSPARENT_HUGEPAGE off: no SYSFS_THP, e.g. Debian's User-Mode Linux)
 * refuses the advice with EINVAL (mm/madvise.c knows no MADV_NOHUGEPAGE then); its anonymous
 * pages are all 4 KiB already, so that is 0 too. */
int mem_advise_4k(void *p, size_t len);
/* Map len bytes (rounded up to whole pages of the size asked) of private anonymous memory
 * with the page-size advice, untouched. 0 or -errno. */
int mem_map(struct mem_map *m, size_t len, enum mem_page page);
/* After the first touch: 0 when the whole mapping has the page size asked (AnonHugePages
 * equals its length for 2 MiB, is 0 for 4 KiB), else BENCH_SKIP with the counts noted. */
int mem_map_verify(struct bench_ctx *ctx, const struct mem_map *m);
void mem_unmap(struct mem_map *m);
/* AnonHugePages of the mapping starting at addr, in KiB (/proc/self/smaps); -errno. */
int64_t mem_anon_huge_kib(const void *addr);

/* The walk of mem-latency, lmbench's lat_mem_rd -t ("thrash", lmbench src/lib_mem.c
 * thrash_initialize()): the bytes at base, in 4 KiB pages of 64-byte lines, linked into one
 * cycle of dependent loads (each line's first word holds the next line's address). The pages
 * are in one random order P (Fisher-Yates, splitmix64 from seed, so a seed gives one walk);
 * the walk goes round that page cycle 64 times, and in lap c visits page P[i] at line
 * w[(c + i) mod 64], where w is the bit-reversed line index (lmbench's words_initialize()).
 * So every load is on another page than the one before (a TLB miss each once the pages
 * outnumber its entries) and every line is visited exactly once per cycle. Writes every
 * line (the set's first touch); needs a temporary array of bytes/512 bytes. Returns the
 * walk's start (page P[0], line 0), or NULL when bytes is not a whole number of pages (at
 * least one) or the temporary array cannot be had. */
void **mem_walk_link(char *base, size_t bytes, uint64_t seed);
#define MEM_WALK_PAGE 4096u	/* the walk's page: lat_mem_rd's getpagesize() (x86-64; arm64 with
				 * CONFIG_ARM64_4K_PAGES, kernel-config/arch/aarch64.config) */
#define MEM_WALK_LINE 64u	/* the walk's line: lat_mem_rd -t's stride here, one cache line */

/* Sum of the sizes of the distinct last-level caches (highest level in
 * /sys/devices/system/cpu/cpu* /cache, unified or data, each instance counted once by its
 * shared_cpu_list), in bytes; 0 when sysfs does not say. *level gets that level. */
uint64_t mem_llc_bytes(int *level);

/* The kernel's largest node and CPU numbers, for sets indexed by number (mem_numa.h). */
#define MEM_MAX_NODES 1024	/* the kernel's MAX_NUMNODES at its largest (NODES_SHIFT 10) */
#define MEM_MAX_CPUS 8192	/* NR_CPUS at its largest (MAXSMP) */
/* A "0-3,8,10-11" list (sysfs cpulist/online) into set[0..cap-1]; the count, -EINVAL. */
int mem_list_parse(const char *s, unsigned char *set, int cap);

/* Page-size truth: the page size, in KiB, that backs the machine's memory at the hardware
 * when the runner can know it — on bare metal (no hypervisor signature, arch.h
 * arch_hypervisor_id()) the guest's own, page_kib; under a hypervisor 0: no hypervisor
 * interface (KVM's CPUID 0x40000001 features, Hyper-V's 0x40000003/4, VMware's, Xen's) says
 * how the host backs guest RAM, so a 2m figure is the guest's page size only. */
int64_t mem_host_page_kib(int64_t page_kib);

/* The array size, in bytes, STREAM's copies share by default on a machine with memtotal
 * bytes of RAM: MEM_ARRAY_DEFAULT, bounded to the largest power of two that leaves the three
 * arrays at most half of RAM (memtotal / 6). */
uint64_t mem_array_default(uint64_t memtotal);
#define MEM_ARRAY_DEFAULT (4ull << 30)	/* see mem_stream.c for why 4 GiB */

/* The last-level cache of cpu (its highest data or unified cache in sysfs), in bytes, 0
 * when sysfs does not say; *sharing gets how many CPUs share it (shared_cpu_list, >= 1). */
uint64_t mem_cpu_llc_bytes(int cpu, int *sharing);

/* Machine-header facts (bench_facts[] in facts.c): mem.page_sizes, mem.numa_nodes,
 * mem.llc, mem.llc_total_kib. */
const char *mem_fact_page_sizes(void);
const char *mem_fact_numa_nodes(void);
const char *mem_fact_llc(void);
const char *mem_fact_llc_total_kib(void);

#endif
